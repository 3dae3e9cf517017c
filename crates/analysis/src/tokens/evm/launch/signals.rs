//! The launch's checks: `launch_cluster` (what the creator and its
//! cluster still hold), `bundled_launch` (what the cluster bought in the
//! opening blocks; snipers beside it) and `creator_sold`.

use alloy_primitives::U256;
use riskintel_api::{CheckId, Severity, SignalCategory};
use serde_json::{json, Value};

use super::{total, Launch, Member};
use crate::scoring::{band, pct, Builder};
use crate::tokens::evm::facts::{share, EvmFacts};
use riskintel_chains::evm::addr;

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
/// What the cluster beyond the creator must hold (or have bought) to count.
const MEMBERS_MATERIAL: f64 = 0.01;
/// Wallets listed in a signal's evidence, at most.
const LISTED: usize = 50;

const RPC: &str = "eth_getLogs(Transfer) index; eth_getLogs(Transfer) of the opening blocks; eth_getBlockByNumber(launch window, full transactions)";

fn listed(members: &[&Member], supply: U256) -> Value {
    members
        .iter()
        .take(LISTED)
        .map(|m| {
            json!({
                "address": addr(&m.address),
                "how": m.how,
                "via": m.via.as_ref().map(addr),
                "block": m.block,
                "bought": m.bought.to_string(),
                "held": m.held.to_string(),
                "held_share": share(m.held, supply),
            })
        })
        .collect()
}

/// Record the launch checks.
pub fn assess(b: &mut Builder, facts: &EvmFacts) {
    let launch = match &facts.launch {
        Ok(launch) => launch,
        Err(reason) => {
            for id in [
                CheckId::LaunchCluster,
                CheckId::BundledLaunch,
                CheckId::CreatorSold,
            ] {
                b.unknown(id, reason.clone());
            }
            return;
        }
    };
    cluster(b, facts, launch);
    bundled(b, facts, launch);
    sold(b, facts, launch);
}

fn cluster(b: &mut Builder, facts: &EvmFacts, launch: &Launch) {
    let supply = facts.total_supply;
    let members = launch.members();
    // Wallets that hold next to nothing make no cluster beyond the creator,
    // whose own share the concentration checks judge.
    let bought = total(&members, |m| m.bought);
    let material = share(launch.members_held().max(bought), supply) >= MEMBERS_MATERIAL;
    if members.is_empty() || !material {
        b.clear(CheckId::LaunchCluster);
        return;
    }
    let held = launch.cluster_held();
    let s = share(held, supply);
    let (severity, weight) = if s >= CLUSTER_RISKY {
        (Severity::High, band::RISKY)
    } else if s >= CLUSTER_CAUTION {
        (Severity::Medium, band::CAUTION)
    } else {
        (Severity::Info, 0.0)
    };
    b.detected(
        CheckId::LaunchCluster,
        SignalCategory::Distribution,
        severity,
        weight,
        "The creator's cluster holds a share of the supply",
        format!(
            "The creator {} and {} wallets it handed tokens before the first pool opened (block {}) or funded to buy in the opening blocks still hold {} of the supply between them{}.",
            addr(&launch.creator),
            members.len(),
            launch.opened,
            pct(s),
            if launch.early_listed.1 { " (the earliest holders only)" } else { "" },
        ),
        RPC,
        json!({
            "opened_block": launch.opened,
            "creator": addr(&launch.creator),
            "creator_held": launch.creator_held().to_string(),
            "held": held.to_string(),
            "share": s,
            "insiders": launch.insiders.len(),
            "bundled": launch.bundlers.len(),
            "members": listed(&members, supply),
            "early_holders_read": launch.early_listed.0,
        }),
    );
}

fn bundled(b: &mut Builder, facts: &EvmFacts, launch: &Launch) {
    let supply = facts.total_supply;
    let snipers: Vec<&Member> = launch.snipers.iter().collect();
    let sniper_bought = total(&snipers, |m| m.bought);
    let sniper_held = total(&snipers, |m| m.held);
    let bundlers: Vec<&Member> = launch.bundlers.iter().collect();
    let bundled = launch
        .creator_bought
        .saturating_add(total(&bundlers, |m| m.bought));
    let raw = json!({
        "opened_block": launch.opened,
        "bundled_bought": bundled.to_string(),
        "bundled_share": share(bundled, supply),
        "bundlers": listed(&bundlers, supply),
        "creator_bought": launch.creator_bought.to_string(),
        "snipers_bought_share": share(sniper_bought, supply),
        "snipers_held_share": share(sniper_held, supply),
        "snipers": listed(&snipers, supply),
    });
    if !bundled.is_zero() {
        b.detected(
            CheckId::BundledLaunch,
            SignalCategory::Distribution,
            Severity::Medium,
            band::CAUTION,
            "Bundled launch",
            format!(
                "The creator's cluster bought {} of the supply in the block the first pool opened ({}) or the next two: {} wallets it funded or bought for{}.",
                pct(share(bundled, supply)),
                launch.opened,
                bundlers.len(),
                if launch.creator_bought.is_zero() { "" } else { ", and the creator itself" },
            ),
            RPC,
            raw,
        );
    } else if !snipers.is_empty() {
        let held = share(sniper_held, supply);
        let (severity, weight) = if held >= SNIPERS_CAUTION {
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
                "{} wallets not linked to the creator bought {} of the supply in the block the first pool opened ({}) or the next two; they still hold {}.",
                snipers.len(),
                pct(share(sniper_bought, supply)),
                launch.opened,
                pct(held),
            ),
            RPC,
            raw,
        );
    } else {
        b.clear(CheckId::BundledLaunch);
    }
}

fn sold(b: &mut Builder, facts: &EvmFacts, launch: &Launch) {
    let Some(sales) = &launch.sales else {
        b.unknown(
            CheckId::CreatorSold,
            "the creator's transfers since the launch could not be read",
        );
        return;
    };
    // A day in blocks, at the chain's pace since the opening.
    let Some(opened_time) = launch.opened_time else {
        b.unknown(
            CheckId::CreatorSold,
            "the opening block's time could not be read",
        );
        return;
    };
    let day_end = if facts.block > launch.opened && facts.block_time > opened_time {
        let per_block =
            (facts.block_time - opened_time) as f64 / (facts.block - launch.opened) as f64;
        launch.opened + (86_400.0 / per_block).ceil() as u64
    } else {
        u64::MAX
    };
    let in_day = total(
        sales.sells.iter().filter(|(block, _)| *block <= day_end),
        |(_, sold)| *sold,
    );
    let all = total(&sales.sells, |(_, sold)| *sold);
    let allocation = sales.held.saturating_add(all);
    let s = share(in_day, allocation);
    if s < CREATOR_SOLD || share(in_day, facts.total_supply) < CREATOR_SOLD_MATERIAL {
        b.clear(CheckId::CreatorSold);
        return;
    }
    b.detected(
        CheckId::CreatorSold,
        SignalCategory::Distribution,
        Severity::Medium,
        band::CAUTION,
        "The creator sold most of its tokens",
        format!(
            "The creator {} sold {} of its tokens within a day of the launch ({} sells into the pools; of what it sold since the first pool opened and still holds).",
            addr(&launch.creator),
            pct(s),
            sales.sells.len(),
        ),
        "eth_getLogs(Transfer) from and to the creator since the opening block",
        json!({
            "creator": addr(&launch.creator),
            "opened_block": launch.opened,
            "held": sales.held.to_string(),
            "sold_first_day": in_day.to_string(),
            "sold_since_launch": all.to_string(),
            "share_first_day": s,
            "sells": sales.sells.len(),
            "day_ends_block": (day_end != u64::MAX).then_some(day_end),
        }),
    );
}
