//! The launch checks on either chain: `launch_cluster` (what the creator
//! and its cluster still hold), `bundled_launch` (what the cluster bought
//! at the opening; snipers beside it) and `creator_sold`. Each chain finds
//! its launch in its own way (`evm::launch`, `solana::launch`) and hands
//! its findings here as shares of the supply, so one policy judges both.

use riskintel_types::{CheckId, Severity, SignalCategory};
use serde_json::{json, Map, Value};

use crate::scoring::{band, pct, Builder};

/// The cluster's share that makes a token `caution`, and `risky` (policy).
pub const CLUSTER_CAUTION: f64 = 0.15;
/// See [`CLUSTER_CAUTION`].
pub const CLUSTER_RISKY: f64 = 0.30;
/// What snipers still hold that makes a token `caution` (policy).
pub const SNIPERS_CAUTION: f64 = 0.30;
/// The share of its tokens a creator sold within a day that is `caution`
/// (policy: most), of what it sold since the opening and still holds.
pub const CREATOR_SOLD: f64 = 0.5;
/// Sells under this share of the supply are not judged (dust).
const CREATOR_SOLD_MATERIAL: f64 = 0.01;
/// What the cluster beyond the creator must hold (or have bought), and what
/// the cluster must have bought at the opening, to count (dust does not).
const MEMBERS_MATERIAL: f64 = 0.01;
/// Wallets listed in a signal's evidence, at most.
const LISTED: usize = 50;

/// The bounds of the launch reads (the `[analysis]` settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchLimits {
    /// EVM: blocks before the opening read with their transactions, for
    /// the creator's funding of the wallets that bought.
    pub window_blocks: u64,
    /// EVM: holders whose first tokens came by the end of the opening
    /// blocks looked at, earliest first.
    pub holders: usize,
    /// Solana: slots before the opening in which the creator's SOL
    /// transfers count as funding.
    pub window_slots: u64,
    /// Solana: transactions read at most, of the mint's opening and of the creator's.
    pub transactions: usize,
}

/// An amount of a token in its chain's integer (EVM `U256`, Solana `u64`).
pub trait Units: Copy + Default + PartialEq + std::fmt::Display {
    /// `self + other`, saturating (a token's logs or a node may claim any amount).
    fn plus(self, other: Self) -> Self;
    /// `self` as a fraction of `whole` (0 when `whole` is zero).
    fn of(self, whole: Self) -> f64;
}

impl Units for u64 {
    fn plus(self, other: Self) -> Self {
        self.saturating_add(other)
    }
    fn of(self, whole: Self) -> f64 {
        if whole == 0 {
            0.0
        } else {
            self as f64 / whole as f64
        }
    }
}

/// The sum of `amount` over `items`, saturating.
pub fn total<T, N: Units>(items: impl IntoIterator<Item = T>, amount: impl Fn(&T) -> N) -> N {
    (items.into_iter()).fold(N::default(), |sum, item| sum.plus(amount(&item)))
}

/// A wallet of a launch (`A`: the chain's address, `N`: its amounts): an
/// insider, a bundled buyer or a sniper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member<A, N> {
    /// The wallet.
    pub address: A,
    /// What it holds now.
    pub held: N,
    /// The block or slot it joined: its first tokens (an insider), its
    /// first buy, or its funding.
    pub at: u64,
    /// What it bought at the opening.
    pub bought: N,
    /// Whoever of the cluster sent its tokens, funded it or sent its buy.
    pub via: Option<A>,
    /// How it joined the cluster (`handed`, `funded`, `bought_for`,
    /// `create_transaction`), or `sniper`.
    pub how: &'static str,
}

/// The cluster beyond the creator's side: `insiders` and `bundlers`, each once.
pub fn each_once<'a, A: PartialEq, N>(
    insiders: &'a [Member<A, N>],
    bundlers: &'a [Member<A, N>],
) -> Vec<&'a Member<A, N>> {
    let mut members: Vec<&Member<A, N>> = insiders.iter().collect();
    for m in bundlers {
        if !members.iter().any(|x| x.address == m.address) {
            members.push(m);
        }
    }
    members
}

/// What either chain's launch is made of, for its [`Findings`].
pub struct Parts<'a, A, N> {
    /// `block` or `slot`.
    pub unit: &'static str,
    /// The block or slot the token opened for trading.
    pub opened: u64,
    /// The creator.
    pub creator: &'a A,
    /// What the creator's side holds now.
    pub creator_held: N,
    /// Its insiders, bundled buyers and snipers.
    pub insiders: &'a [Member<A, N>],
    /// See [`Parts::insiders`].
    pub bundlers: &'a [Member<A, N>],
    /// See [`Parts::insiders`].
    pub snipers: &'a [Member<A, N>],
    /// What the creator's side bought at the opening.
    pub creator_bought: N,
    /// The token's supply.
    pub supply: N,
    /// Why the cluster may be larger than seen.
    pub partial: Option<String>,
    /// Evidence only one chain has.
    pub extra: Map<String, Value>,
    /// The reads behind them.
    pub rpc: &'static str,
}

impl Findings {
    /// The findings of a launch made of `p`, its addresses written by `name`.
    pub fn of<A: PartialEq, N: Units>(p: Parts<A, N>, name: impl Fn(&A) -> String) -> Findings {
        let members = each_once(p.insiders, p.bundlers);
        let amount = |units: N| Amount::of(units, p.supply);
        let wallets = |list: &[&Member<A, N>]| -> Vec<Wallet> {
            (list.iter())
                .map(|m| Wallet {
                    address: name(&m.address),
                    how: m.how,
                    via: m.via.as_ref().map(&name),
                    at: m.at,
                    bought: m.bought.to_string(),
                    held: amount(m.held),
                })
                .collect()
        };
        let bundlers: Vec<&Member<A, N>> = p.bundlers.iter().collect();
        let snipers: Vec<&Member<A, N>> = p.snipers.iter().collect();
        let members_held = total(&members, |m| m.held);
        Findings {
            unit: p.unit,
            opened: p.opened,
            creator: name(p.creator),
            creator_held: p.creator_held.to_string(),
            cluster_held: amount(p.creator_held.plus(members_held)),
            members_held: members_held.of(p.supply),
            members_bought: total(&members, |m| m.bought).of(p.supply),
            members: wallets(&members),
            insiders: p.insiders.len(),
            bundlers: wallets(&bundlers),
            creator_bought: p.creator_bought.to_string(),
            bundled: amount(p.creator_bought.plus(total(&bundlers, |m| m.bought))),
            snipers: wallets(&snipers),
            snipers_bought: total(&snipers, |m| m.bought).of(p.supply),
            snipers_held: total(&snipers, |m| m.held).of(p.supply),
            partial: p.partial,
            extra: p.extra,
            rpc: p.rpc,
        }
    }
}

/// An amount of the token: base units, and its share of the supply.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Amount {
    /// Base units, decimal.
    pub units: String,
    /// Of the supply.
    pub share: f64,
}

impl Amount {
    /// `units` of a token whose supply is `supply`.
    pub fn of<N: Units>(units: N, supply: N) -> Amount {
        Amount {
            units: units.to_string(),
            share: units.of(supply),
        }
    }
}

/// A wallet of the launch as the checks list it.
#[derive(Clone, Debug, PartialEq)]
pub struct Wallet {
    /// The wallet.
    pub address: String,
    /// How it joined the cluster (`handed`, `funded`, `bought_for`,
    /// `create_transaction`), or `sniper`.
    pub how: &'static str,
    /// Whoever of the cluster sent its first tokens, funded it or sent its buy.
    pub via: Option<String>,
    /// Its first tokens' block or slot (an insider), or its first buy's.
    pub at: u64,
    /// What it bought at the opening, base units.
    pub bought: String,
    /// What it holds now.
    pub held: Amount,
}

/// Who holds the supply since the launch, as the checks judge it.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    /// What the chain counts in: `block` or `slot`.
    pub unit: &'static str,
    /// The block or slot the token opened for trading.
    pub opened: u64,
    /// The creator.
    pub creator: String,
    /// What the creator's side holds now, base units.
    pub creator_held: String,
    /// What the cluster holds now, the creator's side included.
    pub cluster_held: Amount,
    /// Of the supply: what the cluster beyond the creator's side holds
    /// now, and what it bought at the opening.
    pub members_held: f64,
    /// See [`Findings::members_held`].
    pub members_bought: f64,
    /// The cluster beyond the creator's side, each wallet once.
    pub members: Vec<Wallet>,
    /// How many of them were handed tokens before the opening.
    pub insiders: usize,
    /// Cluster wallets that bought at the opening.
    pub bundlers: Vec<Wallet>,
    /// What the creator's side itself bought at the opening, base units.
    pub creator_bought: String,
    /// What the cluster bought at the opening, the creator's side included.
    pub bundled: Amount,
    /// Other buyers of the opening.
    pub snipers: Vec<Wallet>,
    /// What the snipers bought, and what they still hold, of the supply.
    pub snipers_bought: f64,
    /// See [`Findings::snipers_bought`].
    pub snipers_held: f64,
    /// Why the cluster may be larger than seen (appended to its finding).
    pub partial: Option<String>,
    /// Evidence only one chain has.
    pub extra: Map<String, Value>,
    /// The reads behind the findings.
    pub rpc: &'static str,
}

/// The creator's sells since the opening.
#[derive(Clone, Debug, PartialEq)]
pub struct Selling {
    /// The creator.
    pub creator: String,
    /// What it holds now, base units.
    pub held: String,
    /// What it sold within a day of the opening.
    pub first_day: Amount,
    /// That, of what it sold since the opening and still holds.
    pub first_day_of_allocation: f64,
    /// What it sold since the opening, base units.
    pub since_opening: String,
    /// How many sells.
    pub sells: usize,
    /// Evidence only one chain has (where the day ends, what was not read).
    pub extra: Map<String, Value>,
    /// The reads behind it.
    pub rpc: &'static str,
}

fn listed(unit: &str, wallets: &[Wallet]) -> Value {
    wallets
        .iter()
        .take(LISTED)
        .map(|w| {
            json!({
                "address": w.address,
                "how": w.how,
                "via": w.via,
                unit: w.at,
                "bought": w.bought,
                "held": w.held.units,
                "held_share": w.held.share,
            })
        })
        .collect()
}

/// Record the launch checks: from `launch` (or why it could not be
/// judged) and, when it could, the creator's `selling` (or why not).
pub fn assess(b: &mut Builder, launch: Result<&Findings, &str>, selling: Result<&Selling, &str>) {
    let launch = match launch {
        Ok(launch) => launch,
        Err(reason) => {
            b.unknown(CheckId::LaunchCluster, reason);
            b.unknown(CheckId::BundledLaunch, reason);
            b.unknown(CheckId::CreatorSold, reason);
            return;
        }
    };
    cluster(b, launch);
    bundled(b, launch);
    match selling {
        Ok(selling) => sold(b, launch, selling),
        Err(reason) => b.unknown(CheckId::CreatorSold, reason),
    }
}

fn cluster(b: &mut Builder, f: &Findings) {
    // Wallets that hold next to nothing make no cluster beyond the creator,
    // whose own share the concentration checks judge.
    let material = f.members_held.max(f.members_bought) >= MEMBERS_MATERIAL;
    if f.members.is_empty() || !material {
        // Nothing found is clear only when everything was read.
        match &f.partial {
            Some(partial) => b.unknown(
                CheckId::LaunchCluster,
                format!("no cluster was found, but not everything was read: {partial}"),
            ),
            None => b.clear(CheckId::LaunchCluster),
        }
        return;
    }
    let s = f.cluster_held.share;
    let (severity, weight) = if s >= CLUSTER_RISKY {
        (Severity::High, band::RISKY)
    } else if s >= CLUSTER_CAUTION {
        (Severity::Medium, band::CAUTION)
    } else {
        (Severity::Info, 0.0)
    };
    let mut raw = json!({
        format!("opened_{}", f.unit): f.opened,
        "creator": f.creator,
        "creator_held": f.creator_held,
        "held": f.cluster_held.units,
        "share": s,
        "insiders": f.insiders,
        "bundled": f.bundlers.len(),
        "members": listed(f.unit, &f.members),
    });
    raw.as_object_mut()
        .expect("an object")
        .extend(f.extra.clone());
    b.detected(
        CheckId::LaunchCluster,
        SignalCategory::Distribution,
        severity,
        weight,
        "The creator's cluster holds a share of the supply",
        format!(
            "The creator {} and {} wallets it handed tokens before the token opened for trading ({} {}) or funded to buy at the opening still hold {} of the supply between them{}.",
            f.creator,
            f.members.len(),
            f.unit,
            f.opened,
            pct(s),
            f.partial.as_deref().map(|p| format!(" ({p})")).unwrap_or_default(),
        ),
        f.rpc,
        raw,
    );
}

fn bundled(b: &mut Builder, f: &Findings) {
    let raw = json!({
        format!("opened_{}", f.unit): f.opened,
        "bundled_bought": f.bundled.units,
        "bundled_share": f.bundled.share,
        "bundlers": listed(f.unit, &f.bundlers),
        "creator_bought": f.creator_bought,
        "snipers_bought_share": f.snipers_bought,
        "snipers_held_share": f.snipers_held,
        "snipers": listed(f.unit, &f.snipers),
    });
    let creator_bought = f.creator_bought != "0";
    if f.bundled.units != "0" && f.bundled.share >= MEMBERS_MATERIAL {
        b.detected(
            CheckId::BundledLaunch,
            SignalCategory::Distribution,
            Severity::Medium,
            band::CAUTION,
            "Bundled launch",
            format!(
                "The creator's cluster bought {} of the supply in the {unit} the token opened for trading ({}) or the next two: {} wallets it funded or bought for{}.",
                pct(f.bundled.share),
                f.opened,
                f.bundlers.len(),
                if creator_bought { ", and the creator itself" } else { "" },
                unit = f.unit,
            ),
            f.rpc,
            raw,
        );
    } else if !f.snipers.is_empty() {
        let (severity, weight) = if f.snipers_held >= SNIPERS_CAUTION {
            (Severity::Medium, band::CAUTION)
        } else {
            (Severity::Info, 0.0)
        };
        b.detected(
            CheckId::BundledLaunch,
            SignalCategory::Distribution,
            severity,
            weight,
            "Snipers bought at the opening",
            format!(
                "{} wallets not linked to the creator bought {} of the supply in the {unit} the token opened for trading ({}) or the next two; they still hold {}.",
                f.snipers.len(),
                pct(f.snipers_bought),
                f.opened,
                pct(f.snipers_held),
                unit = f.unit,
            ),
            f.rpc,
            raw,
        );
    } else if let Some(partial) = &f.partial {
        b.unknown(
            CheckId::BundledLaunch,
            format!("no buy at the opening was found, but not everything was read: {partial}"),
        );
    } else {
        b.clear(CheckId::BundledLaunch);
    }
}

fn sold(b: &mut Builder, f: &Findings, s: &Selling) {
    let share = s.first_day_of_allocation;
    if share < CREATOR_SOLD || s.first_day.share < CREATOR_SOLD_MATERIAL {
        b.clear(CheckId::CreatorSold);
        return;
    }
    let mut raw = json!({
        "creator": s.creator,
        format!("opened_{}", f.unit): f.opened,
        "held": s.held,
        "sold_first_day": s.first_day.units,
        "sold_since_launch": s.since_opening,
        "share_first_day": share,
        "sells": s.sells,
    });
    raw.as_object_mut()
        .expect("an object")
        .extend(s.extra.clone());
    b.detected(
        CheckId::CreatorSold,
        SignalCategory::Distribution,
        Severity::Medium,
        band::CAUTION,
        "The creator sold most of its tokens",
        format!(
            "The creator {} sold {} of its tokens within a day of the launch ({} sells into the pools; of what it sold since the token opened and still holds).",
            s.creator,
            pct(share),
            s.sells,
        ),
        s.rpc,
        raw,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskintel_types::CheckStatus;

    fn findings(partial: Option<&str>) -> Findings {
        Findings {
            unit: "slot",
            opened: 1000,
            creator: "Creator".into(),
            creator_held: "0".into(),
            cluster_held: Amount::default(),
            members_held: 0.0,
            members_bought: 0.0,
            members: Vec::new(),
            insiders: 0,
            bundlers: Vec::new(),
            creator_bought: "0".into(),
            bundled: Amount {
                units: "0".into(),
                share: 0.0,
            },
            snipers: Vec::new(),
            snipers_bought: 0.0,
            snipers_held: 0.0,
            partial: partial.map(str::to_string),
            extra: Map::new(),
            rpc: "",
        }
    }

    fn statuses(f: &Findings) -> Vec<CheckStatus> {
        let mut b = Builder::new(1);
        assess(&mut b, Ok(f), Err("not read"));
        let coverage = b.verdict().coverage;
        [
            CheckId::LaunchCluster,
            CheckId::BundledLaunch,
            CheckId::CreatorSold,
        ]
        .iter()
        .map(|id| {
            (coverage.checks.iter())
                .find(|c| c.id == *id)
                .map(|c| c.status)
                .expect("judged")
        })
        .collect()
    }

    #[test]
    fn nothing_found_is_clear_only_when_everything_was_read() {
        let (clear, unknown) = (CheckStatus::Clear, CheckStatus::Unknown);
        assert_eq!(statuses(&findings(None)), vec![clear, clear, unknown]);
        let partial = findings(Some("the creator's funding was not read"));
        assert_eq!(statuses(&partial), vec![unknown, unknown, unknown]);
    }
}
