//! Distribution checks of an EVM token: holder concentration from the
//! holder index (the creator's launch cluster counted as one holder), the
//! owner's share, and the token's age.

use alloy_primitives::{Address, U256};
use riskintel_types::{CheckId, Severity, SignalCategory};
use serde_json::json;

use super::facts::{share, EvmFacts};
use crate::scoring::{new_token_degree, pct, Builder};
use riskintel_chains::evm::addr;

/// A holder as concentration counts it: one wallet, or the launch cluster.
struct Counted {
    name: String,
    wallets: usize,
    balance: U256,
}

/// The largest holders, largest first, with the creator's launch cluster
/// (the creator's side and the wallets it fed at the launch) as one holder:
/// each wallet's confirmed balance where it is a top holder, else the index's.
fn holders(facts: &EvmFacts) -> Vec<Counted> {
    let cluster = match &facts.launch {
        Ok(launch) if !launch.members().is_empty() => Some((launch, launch.wallets())),
        _ => None,
    };
    let in_cluster = |a: &Address| {
        cluster
            .as_ref()
            .is_some_and(|(_, w)| w.iter().any(|(x, _)| x == a))
    };
    let mut counted: Vec<Counted> = facts
        .top_holders
        .iter()
        .filter(|h| !in_cluster(&h.address))
        .map(|h| Counted {
            name: addr(&h.address),
            wallets: 1,
            balance: h.balance,
        })
        .collect();
    if let Some((launch, wallets)) = cluster {
        let balance = wallets.iter().fold(U256::ZERO, |sum, (a, indexed)| {
            let confirmed = facts.top_holders.iter().find(|h| h.address == *a);
            sum.saturating_add(confirmed.map_or(*indexed, |h| h.balance))
        });
        counted.push(Counted {
            name: format!(
                "The creator's launch cluster ({} and {} wallets)",
                addr(&launch.creator),
                wallets.len().saturating_sub(1)
            ),
            wallets: wallets.len(),
            balance,
        });
    }
    counted.sort_by_key(|h| std::cmp::Reverse(h.balance));
    counted
}

/// Record the distribution and age checks.
pub fn assess(b: &mut Builder, facts: &EvmFacts, active_owner: Option<Address>) {
    let holders_rpc = "eth_getLogs(Transfer) index, then eth_call balanceOf via Multicall3";
    if !facts.index.complete {
        let reason = facts
            .index
            .incomplete_reason
            .clone()
            .unwrap_or_else(|| "the holder index is incomplete".into());
        b.unknown(CheckId::WhaleConcentration, reason.clone());
        b.unknown(CheckId::SingleHolderDominance, reason);
    } else {
        let holders = holders(facts);
        let top10: U256 = holders
            .iter()
            .take(10)
            .map(|h| h.balance)
            .fold(U256::ZERO, |a, c| a + c);
        let top10_share = share(top10, facts.total_supply);
        let raw_top: Vec<_> = holders
            .iter()
            .take(10)
            .map(|h| json!({"address": h.name, "balance": h.balance.to_string(), "share": share(h.balance, facts.total_supply)}))
            .collect();
        if top10_share > 0.5 {
            let (severity, weight) = if top10_share > 0.7 {
                (Severity::Critical, 0.5)
            } else {
                (Severity::High, 0.3)
            };
            b.detected(
                CheckId::WhaleConcentration,
                SignalCategory::Distribution,
                severity,
                weight,
                "Supply concentrated in few wallets",
                format!("The 10 largest holders (pools and burn addresses excluded) hold {} of the supply.", pct(top10_share)),
                holders_rpc,
                json!({"top10_share": top10_share, "holders": facts.index.holder_count, "top": raw_top}),
            );
        } else {
            b.clear(CheckId::WhaleConcentration);
        }
        match holders.first() {
            Some(top) if share(top.balance, facts.total_supply) > 0.2 => {
                let s = share(top.balance, facts.total_supply);
                let (severity, weight) = if s > 0.5 {
                    (Severity::Critical, 0.6)
                } else {
                    (Severity::High, 0.25)
                };
                b.detected(
                    CheckId::SingleHolderDominance,
                    SignalCategory::Distribution,
                    severity,
                    weight,
                    "One wallet holds a large share",
                    format!("{} {} {} of the supply; selling it would crash the price.", top.name, if top.wallets > 1 { "hold" } else { "holds" }, pct(s)),
                    holders_rpc,
                    json!({"holder": top.name, "wallets": top.wallets, "balance": top.balance.to_string(), "share": s}),
                );
            }
            _ => b.clear(CheckId::SingleHolderDominance),
        }
    }
    match (active_owner, facts.owner_balance) {
        (Some(owner), Some(balance)) if share(balance, facts.total_supply) > 0.05 => {
            let s = share(balance, facts.total_supply);
            let (severity, weight) = if s > 0.2 {
                (Severity::High, 0.25)
            } else {
                (Severity::Medium, 0.1)
            };
            b.detected(
                CheckId::OwnerBalanceHigh,
                SignalCategory::Distribution,
                severity,
                weight,
                "Owner holds a large share",
                format!("The owner {} holds {} of the supply.", addr(&owner), pct(s)),
                "eth_call balanceOf(owner) via Multicall3",
                json!({"owner": addr(&owner), "balance": balance.to_string(), "share": s}),
            );
        }
        _ => b.clear(CheckId::OwnerBalanceHigh),
    }

    // Age.
    match facts.age_seconds().map(|age| (age, new_token_degree(age))) {
        Some((age, Some((severity, weight, band)))) => {
            b.detected(
                CheckId::NewToken,
                SignalCategory::Market,
                severity,
                weight,
                "New token",
                format!("The token's first transfer was {band} ago ({} hours); most rug pulls happen early.", age / 3_600),
                "eth_getLogs(Transfer) index, eth_getBlockByNumber",
                json!({"first_transfer_block": facts.index.first_transfer_block, "age_seconds": age}),
            );
        }
        Some((_, None)) => b.clear(CheckId::NewToken),
        None => match facts.index_start_time {
            Some(start) if facts.block_time - start >= 7 * 86_400 => b.clear(CheckId::NewToken),
            _ => b.unknown(
                CheckId::NewToken,
                facts
                    .index
                    .incomplete_reason
                    .clone()
                    .unwrap_or_else(|| "no transfer was found to date the token".into()),
            ),
        },
    }
}
