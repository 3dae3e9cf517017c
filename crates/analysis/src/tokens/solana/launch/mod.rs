//! Who really holds a mint's supply since its launch: the wallets that
//! bought in the transaction that created it (a pump.fun `create` with its
//! buys) or in the slot it opened for trading and the next two, which of
//! them its creator funded with SOL shortly before or bought for, the
//! wallets it handed tokens before the opening, and what it sold since.
//!
//! The opening is the mint's first transaction when a bonding curve
//! launched it, or the first transaction at or after its first pool's
//! recorded opening time. `reads` reads, beside round 2, the opening's
//! transactions and the creator's signatures, then in one more round trip
//! the creator's transactions around the opening and what every wallet of
//! the launch holds now; `classify` judges them; [`findings`] hands the
//! result to the launch checks (`tokens::launch`).

mod classify;
mod reads;

use serde_json::{json, Map};

use crate::tokens::launch::{each_once, Amount, Findings, Parts, Selling, Units};

pub use reads::{creator_of, finish, open, pool_accounts, Started};

/// The slots a launch opens with: the opening slot and the next two.
pub const OPENING_SLOTS: u64 = 3;

/// A wallet of the launch: an insider, a bundled buyer or a sniper (its
/// `at` is a slot).
pub type Member = crate::tokens::launch::Member<String, u64>;

/// The creator's sells since the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sales {
    /// What it holds now.
    pub held: u64,
    /// The most it was seen to hold in the transactions read.
    pub peak: u64,
    /// Each sell into a pool: (slot, time, amount).
    pub sells: Vec<(u64, Option<i64>, u64)>,
}

/// What is known of a mint's launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolLaunch {
    /// The slot the mint opened for trading.
    pub opened: u64,
    /// That slot's time.
    pub opened_time: Option<i64>,
    /// The creator.
    pub creator: String,
    /// What it holds now.
    pub creator_held: u64,
    /// Wallets the creator handed tokens before the opening, or funded in
    /// the launch window without buying at the opening.
    pub insiders: Vec<Member>,
    /// Cluster wallets that bought at the opening.
    pub bundlers: Vec<Member>,
    /// What the creator itself bought at the opening.
    pub creator_bought: u64,
    /// Other buyers of the opening.
    pub snipers: Vec<Member>,
    /// The creator's sells, or why they could not be read.
    pub sales: Result<Sales, String>,
    /// Why the cluster may be larger than seen.
    pub partial: Option<String>,
}

impl SolLaunch {
    /// The cluster beyond the creator: insiders and bundled buyers, each once.
    pub fn members(&self) -> Vec<&Member> {
        each_once(&self.insiders, &self.bundlers)
    }

    /// Every wallet of the cluster, the creator included, with what it holds now.
    pub fn wallets(&self) -> Vec<(&str, u64)> {
        let mut wallets = vec![(self.creator.as_str(), self.creator_held)];
        wallets.extend(self.members().iter().map(|m| (m.address.as_str(), m.held)));
        wallets
    }
}

const RPC: &str = "getSignaturesForAddress(mint, creator); getTransaction(jsonParsed: the opening's transactions, the creator's around it); getMultipleAccounts(the wallets' token accounts)";

/// The launch's findings for the launch checks, and the creator's sells
/// within a day of the opening (or why they could not be judged).
pub fn findings(launch: &SolLaunch, supply: u64) -> (Findings, Result<Selling, String>) {
    let parts = Parts {
        unit: "slot",
        opened: launch.opened,
        creator: &launch.creator,
        creator_held: launch.creator_held,
        insiders: &launch.insiders,
        bundlers: &launch.bundlers,
        snipers: &launch.snipers,
        creator_bought: launch.creator_bought,
        supply,
        partial: launch.partial.clone(),
        extra: Map::new(),
        rpc: RPC,
    };
    let findings = Findings::of(parts, String::clone);
    let selling = launch.sales.clone().map(|sales| {
        let day_end = launch.opened_time.map(|t| t.saturating_add(86_400));
        let in_day = |time: Option<i64>| match (time, day_end) {
            (Some(t), Some(end)) => t <= end,
            // Without times, every sell read counts as the first day's.
            _ => true,
        };
        let first_day = (sales.sells.iter())
            .filter(|(_, time, _)| in_day(*time))
            .fold(0u64, |s, (_, _, sold)| s.saturating_add(*sold));
        let all = (sales.sells.iter()).fold(0u64, |s, (_, _, sold)| s.saturating_add(*sold));
        let allocation = sales.peak.max(sales.held.saturating_add(all));
        let mut extra = Map::new();
        extra.insert("peak_held".into(), json!(sales.peak.to_string()));
        extra.insert("day_ends_time".into(), json!(day_end));
        Selling {
            creator: launch.creator.clone(),
            held: sales.held.to_string(),
            first_day: Amount::of(first_day, supply),
            first_day_of_allocation: first_day.of(allocation),
            since_opening: all.to_string(),
            sells: sales.sells.len(),
            extra,
            rpc: "getSignaturesForAddress(creator), getTransaction(jsonParsed: the creator's since the opening)",
        }
    });
    (findings, selling)
}
