//! Real holders who bought: the largest holders whose first tokens came
//! from a pool or its router (the holder index keeps each holder's first
//! receipt) each sell a hundredth of their holding from their own address
//! — no code injected, their own `tx.origin` — through the same router and
//! route as the fresh wallet, at the next block, one `eth_simulateV1`
//! each so that one holder's refusal cannot hide another's answer.
//!
//! A `critical` honeypot needs them to agree (product.md, honeypot proof):
//! where a fresh wallet cannot sell and most of these buyers cannot either,
//! the verdict stands with their count beside it, and a fresh wallet's
//! failure where the simulator contract sold is proven by them; where most
//! of them sell, the token chooses who may sell — its new buyers are
//! trapped, so it stays a honeypot, at `risky`. Holders who were handed
//! their tokens by the creator are not asked: in a honeypot they are its
//! insiders, and they sell.

use alloy_primitives::{Address, U256};
use riskintel_types::{CheckId, CheckStatus, Severity, SignalCategory};
use serde_json::json;

use super::route::{read_sell, Route, Sell};
use super::HONEYPOT_SELL_TAX;
use crate::scoring::{band, Builder};
use riskintel_chains::evm::simulate::{simulate_v1, SimBlock, SimulatedBlock};
use riskintel_chains::evm::types::Block;
use riskintel_chains::rpc::{Answers, Batch, Slot};

/// The share of its holding each buyer sells (a hundredth).
const SELL_DIVISOR: u64 = 100;

/// How the buyers' sells were made, for the evidence.
const RPC: &str = "eth_simulateV1: holders who bought from a pool each sell a hundredth of their holding from their own address through the pool's router, with no minimum output";

/// One buyer's replayed sell.
#[derive(Clone, Debug)]
pub struct BuyerSell {
    /// The holder.
    pub holder: Address,
    /// Its balance as the holder index counts it.
    pub balance: U256,
    /// How its sell went; None when the node could not simulate it (why).
    pub sell: Result<Sell, String>,
}

impl BuyerSell {
    /// Whether the sell says anything: it was simulated, the holder held
    /// what it offered, and it was answered (a revert, or a quote to
    /// measure against).
    fn tried(&self) -> bool {
        self.sell
            .as_ref()
            .is_ok_and(|s| !s.unheld() && (s.received.is_err() || s.tax().is_some()))
    }

    /// Whether it sold and kept more than a critical tax leaves.
    pub fn sold(&self) -> bool {
        (self.sell.as_ref().ok())
            .and_then(Sell::tax)
            .is_some_and(|t| t < HONEYPOT_SELL_TAX)
    }
}

/// The buyers' sells, waiting for their answers.
pub struct Planned {
    sells: Vec<(Address, U256, U256, Slot<Vec<SimulatedBlock>>)>,
}

/// Plan each buyer's sell of a hundredth of its indexed balance on `route`.
pub fn plan(route: &Route, buyers: &[(Address, U256)], head: &Block, batch: &mut Batch) -> Planned {
    let sells = buyers
        .iter()
        .filter_map(|&(holder, balance)| {
            let amount = balance / U256::from(SELL_DIVISOR);
            (!amount.is_zero()).then_some((holder, balance, amount))
        })
        .map(|(holder, balance, amount)| {
            let mut calls = vec![route.approve(holder)];
            calls.extend(route.sell(holder, amount));
            let block = SimBlock {
                after_seconds: 12,
                calls,
            };
            // Gas money only; its tokens are its own.
            let funds = U256::from(10u64).pow(U256::from(18u64));
            let overrides = json!({ format!("{holder:#x}"): { "balance": funds } });
            let slot = simulate_v1(batch, head, overrides, &[block]);
            (holder, balance, amount, slot)
        })
        .collect();
    Planned { sells }
}

impl Planned {
    /// The buyers' sells; one the node could not simulate says why, and
    /// proves nothing ([`BuyerSell::tried`]).
    pub fn take(self, answers: &mut Answers) -> Vec<BuyerSell> {
        self.sells
            .into_iter()
            .map(|(holder, balance, amount, slot)| BuyerSell {
                holder,
                balance,
                sell: answers
                    .take(slot)
                    .map_err(|e| format!("eth_simulateV1: {e}"))
                    .and_then(|blocks| {
                        let calls = blocks.first().map(|b| b.calls.as_slice()).unwrap_or(&[]);
                        calls
                            .get(1..)
                            .and_then(|calls| read_sell(calls, amount))
                            .ok_or_else(|| "the node's answer lacks calls".to_string())
                    }),
            })
            .collect()
    }
}

/// The buyers' sells as evidence.
pub fn evidence(sells: &[BuyerSell]) -> serde_json::Value {
    json!(sells
        .iter()
        .map(|s| {
            let seller = serde_json::Map::from_iter([
                ("holder".into(), json!(format!("{:#x}", s.holder))),
                ("balance".into(), json!(s.balance.to_string())),
            ]);
            match &s.sell {
                Ok(sell) => sell.evidence(seller),
                Err(e) => {
                    let mut failed = seller;
                    failed.insert("received".into(), json!(format!("failed: {e}")));
                    serde_json::Value::Object(failed)
                }
            }
        })
        .collect::<Vec<_>>())
}

/// Let the buyers' sells confirm or temper a honeypot found because a
/// fresh wallet (`fresh_trapped`) or the simulator contract could not sell.
pub fn assess(b: &mut Builder, sells: &[BuyerSell], fresh_trapped: bool) {
    let tried: Vec<&BuyerSell> = sells.iter().filter(|s| s.tried()).collect();
    if tried.is_empty() {
        return;
    }
    let sold = tried.iter().filter(|s| s.sold()).count();
    let stuck = tried.len() - sold;
    let raw = evidence(sells);
    match b.status(CheckId::Honeypot) {
        Some(CheckStatus::Detected) if sold * 2 > tried.len() => b.lower(
            CheckId::Honeypot,
            (Severity::High, band::RISKY),
            &format!(
                "Yet {sold} of {} holders who bought from a pool sold a hundredth of their holding: the token chooses who may sell, and its new buyers are trapped.",
                tried.len()
            ),
            "pool_buyers",
            raw,
        ),
        Some(CheckStatus::Detected) => b.annotate(
            CheckId::Honeypot,
            &format!(
                "{stuck} of {} holders who bought from a pool could not sell either.",
                tried.len()
            ),
            "pool_buyers",
            raw,
        ),
        Some(CheckStatus::Unknown) if fresh_trapped && stuck * 2 > tried.len() => {
            b.retract(CheckId::Honeypot);
            b.detected(
                CheckId::Honeypot,
                SignalCategory::Trading,
                Severity::Critical,
                1.0,
                "Honeypot: buyers cannot sell",
                format!(
                    "A fresh wallet that bought through the router could not sell, and neither could {stuck} of {} holders who bought from a pool, though the simulator contract sold.",
                    tried.len()
                ),
                RPC,
                json!({ "pool_buyers": raw }),
            );
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sell(tax: Option<u64>, held: u64) -> BuyerSell {
        BuyerSell {
            holder: Address::repeat_byte(7),
            balance: U256::from(10_000u64),
            sell: Ok(Sell {
                amount: U256::from(100u64),
                held: Some(U256::from(held)),
                quoted: Some(U256::from(1_000u64)),
                // Kept per mille of the quote, or a revert.
                received: tax
                    .map(|t| U256::from(1_000 - t))
                    .ok_or("refused".to_string()),
            }),
        }
    }

    fn critical_honeypot() -> Builder {
        let mut b = Builder::new(1);
        b.detected(
            CheckId::Honeypot,
            SignalCategory::Trading,
            Severity::Critical,
            1.0,
            "Honeypot",
            "A fresh wallet could not sell.".into(),
            RPC,
            json!({}),
        );
        b
    }

    fn honeypot(b: Builder) -> (Severity, f64, String) {
        let verdict = b.verdict();
        let s = verdict
            .signals
            .iter()
            .find(|s| s.id == CheckId::Honeypot)
            .unwrap();
        (s.severity, s.weight, s.detail.clone())
    }

    #[test]
    fn buyers_who_sell_temper_a_critical_honeypot_to_risky() {
        let mut b = critical_honeypot();
        assess(
            &mut b,
            &[
                sell(Some(20), 10_000),
                sell(Some(20), 10_000),
                sell(None, 10_000),
            ],
            true,
        );
        let (severity, weight, detail) = honeypot(b);
        assert_eq!((severity, weight), (Severity::High, band::RISKY));
        assert!(
            detail.contains("2 of 3 holders who bought from a pool sold"),
            "{detail}"
        );
    }

    #[test]
    fn buyers_who_cannot_sell_agree_and_the_verdict_stands() {
        let mut b = critical_honeypot();
        // A 99% tax kept is no sell; one that held too little says nothing.
        assess(
            &mut b,
            &[
                sell(None, 10_000),
                sell(Some(990), 10_000),
                sell(Some(0), 50),
            ],
            true,
        );
        let (severity, weight, detail) = honeypot(b);
        assert_eq!((severity, weight), (Severity::Critical, 1.0));
        assert!(
            detail.contains("2 of 2 holders who bought from a pool could not sell either"),
            "{detail}"
        );
    }

    #[test]
    fn buyers_prove_a_fresh_wallets_failure_where_the_contract_sold() {
        let stuck = [sell(None, 10_000), sell(None, 10_000)];
        let mut b = Builder::new(1);
        b.unknown(CheckId::Honeypot, "the wallet and the contract disagree");
        assess(&mut b, &stuck, true);
        assert_eq!(b.status(CheckId::Honeypot), Some(CheckStatus::Detected));
        // Without the fresh wallet's failure, they prove nothing alone.
        let mut b = Builder::new(1);
        b.unknown(CheckId::Honeypot, "the contract could not sell");
        assess(&mut b, &stuck, false);
        assert_eq!(b.status(CheckId::Honeypot), Some(CheckStatus::Unknown));
        // No buyer tried: nothing changes.
        let mut b = critical_honeypot();
        assess(&mut b, &[sell(Some(0), 50)], true);
        assert_eq!(honeypot(b).0, Severity::Critical);
    }
}
