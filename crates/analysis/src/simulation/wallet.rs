//! A trade as a wallet makes it. The injected simulator is a contract, and
//! tokens that single out bots (`extcodesize`, `tx.origin`, gas price)
//! single it out too: a token can take everything a contract sells yet let
//! every wallet trade, or the reverse. So beside it a fresh externally
//! owned account — no code, its own `tx.origin` — buys the token through
//! the pool's router with native currency, approves the router, and sells
//! through it with no minimum output at the next block, an hour and a day
//! later, as several calls of one `eth_simulateV1`; the router's quote is
//! read before each sell, so what arrives is measured against it. Nothing
//! is sent. It runs for pools of the V2 family whose router is configured,
//! quoted in the wrapped native currency or in a stablecoin that router
//! reaches from it (then through both pools), and its answer decides the
//! honeypot verdict where the two disagree (`assess`).

use alloy_primitives::{Address, U256};
use riskintel_types::{CheckId, CheckStatus, Severity, SignalCategory};
use serde_json::json;

use super::buyers::{self, BuyerSell};
use super::route::{balance_of, read_sell, word, Route, Sell, SELL_CALLS};
use super::HONEYPOT_SELL_TAX;
use crate::scoring::{pct, Builder};
use riskintel_chains::evm::abi::revert_reason;
use riskintel_chains::evm::pools::PoolState;
use riskintel_chains::evm::simulate::{simulate_v1, SimBlock, SimulatedBlock};
use riskintel_chains::evm::types::Block;
use riskintel_chains::evm::EvmChain;
use riskintel_chains::rpc::{Answers, Batch, Slot};
use riskintel_chains::DexKind;

/// Share of the pool's quote reserve the wallet spends (basis points): the
/// simulator's own buy.
const BUY_BPS: u64 = 100;
/// Each sell is this fraction of what the buy is quoted to bring, so a buy
/// tax of up to a half still leaves every sell held.
const SELL_DIVISOR: u64 = 8;
/// When the wallet sells, in seconds after its buy; the last time it also
/// tries a sell of a ten-thousandth of its buy, so a cap on sells is not
/// taken for a trap.
const SELLS_AFTER: [u64; 3] = [12, 3_600, 86_400];
/// The small sell's fraction of what the buy is quoted to bring.
const SMALL_SELL_DIVISOR: u64 = 10_000;

/// The wallet's trades, waiting for their answer.
pub struct Planned {
    pair: Address,
    wallet: Address,
    /// Each sell's time and amount, in the order sent.
    amounts: Vec<(u64, U256)>,
    slot: Slot<Vec<SimulatedBlock>>,
    /// The pool's buyers' sells, on the same route.
    buyers: buyers::Planned,
}

/// What the wallet's trades showed.
#[derive(Clone, Debug)]
pub struct WalletTrip {
    /// The pool traded.
    pub pair: Address,
    /// The wallet (a fresh address with no code).
    pub wallet: Address,
    /// Tokens held after the buy; the buy's revert reason if it failed.
    pub bought: Result<U256, String>,
    /// The router's approval; its revert reason if it failed (then no
    /// sell could be made, which proves nothing of the token's sells).
    pub approved: Result<(), String>,
    /// The router's allowance read right after the approval, if it could be.
    pub allowance: Option<U256>,
    /// The sells, in order.
    pub sells: Vec<WalletSell>,
    /// Real holders who bought from a pool, each selling a hundredth of
    /// its holding on the same route.
    pub buyers: Vec<BuyerSell>,
}

/// One sell of the wallet's.
#[derive(Clone, Debug)]
pub struct WalletSell {
    /// Seconds after the buy.
    pub after_seconds: u64,
    /// How it went.
    pub sell: Sell,
}

impl WalletSell {
    /// The share of the quote kept back (the sell tax, price impact aside).
    pub fn tax(&self) -> Option<f64> {
        self.sell.tax()
    }
}

impl WalletTrip {
    /// Whether the wallet bought, approved, and held what it offered in
    /// at least one sell, so that its sells can prove something.
    fn held_enough(&self) -> bool {
        self.approved.is_ok()
            && self.bought.as_ref().is_ok_and(|b| !b.is_zero())
            && self.sells.iter().any(|s| !s.sell.unheld())
    }

    /// The best sell: the one that kept the most of its quote.
    pub fn best_sell(&self) -> Option<&WalletSell> {
        self.sells
            .iter()
            .filter_map(|s| s.tax().map(|tax| (tax, s)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, s)| s)
    }

    /// Whether an approval that went through left the router unable to
    /// move even the first sell: the token does not record its buyers'
    /// approvals, so no router (no wallet, no aggregator) can sell for them.
    pub fn approval_ignored(&self) -> bool {
        let first = self.sells.first().map_or(U256::ZERO, |s| s.sell.amount);
        self.approved.is_ok() && self.allowance.is_some_and(|a| a < first)
    }

    /// Whether the wallet sold and kept more than a critical tax leaves.
    pub fn sold(&self) -> bool {
        self.best_sell()
            .and_then(WalletSell::tax)
            .is_some_and(|t| t < HONEYPOT_SELL_TAX)
    }

    /// Whether the wallet bought, held enough, and could not sell at any
    /// time it tried (every sell reverted or kept a critical tax).
    pub fn trapped(&self) -> bool {
        self.held_enough() && !self.sold()
    }

    /// How each sell went, in words.
    pub fn failures(&self) -> Vec<String> {
        self.sells
            .iter()
            .map(|s| match (&s.sell.received, s.tax()) {
                (Err(_), _) if s.sell.unheld() => format!(
                    "after {} s it held only {} of the {} it offered (its balance fell by itself)",
                    s.after_seconds,
                    s.sell.held.unwrap_or_default(),
                    s.sell.amount
                ),
                (Err(reason), _) => format!("after {} s it reverted ({reason})", s.after_seconds),
                (Ok(_), Some(tax)) => {
                    format!(
                        "after {} s it kept {} of the quote",
                        s.after_seconds,
                        pct(1.0 - tax)
                    )
                }
                (Ok(_), None) => format!("after {} s nothing could be measured", s.after_seconds),
            })
            .collect()
    }

    /// The evidence, as the analysis records it.
    pub fn evidence(&self) -> serde_json::Value {
        json!({
            "wallet": format!("{:#x}", self.wallet),
            "pool": format!("{:#x}", self.pair),
            "bought": match &self.bought { Ok(b) => b.to_string(), Err(e) => format!("failed: {e}") },
            "approved": match &self.approved { Ok(()) => "yes".to_string(), Err(e) => format!("failed: {e}") },
            "allowance_after_approval": self.allowance.map(|a| a.to_string()),
            "sells": self.sells.iter().map(|s| {
                s.sell.evidence(serde_json::Map::from_iter([("after_seconds".into(), json!(s.after_seconds))]))
            }).collect::<Vec<_>>(),
            "pool_buyers": buyers::evidence(&self.buyers),
        })
    }
}

/// The V2 pair of the wrapped native and `quote` on `router`'s DEX among
/// the price pools, as (wrapped reserve, quote reserve).
fn wrapped_pair(
    price_pools: &[PoolState],
    router: Address,
    quote: Address,
) -> Option<(U256, U256)> {
    price_pools
        .iter()
        .find(|p| {
            p.pair.kind() == DexKind::V2
                && p.pair.dex.router == router
                && p.pair.quote.address == quote
                && p.is_live()
        })
        .map(|p| (p.reserve_base, p.reserve_quote))
}

/// Plan the wallet's trades on the deepest pool they can run on, if any:
/// a V2-family pool with a configured router, quoted in the wrapped native
/// currency, or in a stablecoin the same router can reach from it (the
/// wallet then buys and sells through both pools, as a wallet's router
/// route does); pools quoted in the wrapped native come first.
pub fn plan<'a>(
    chain: &EvmChain,
    token: Address,
    pools: impl IntoIterator<Item = &'a PoolState>,
    price_pools: &[PoolState],
    pool_buyers: &[(Address, U256)],
    head: &Block,
    batch: &mut Batch,
) -> Option<Planned> {
    let weth = chain.wrapped.address;
    let (pool, hop) = pools
        .into_iter()
        .filter(|p| {
            p.pair.kind() == DexKind::V2
                && !p.pair.dex.router.is_zero()
                && !p.reserve_quote.is_zero()
                && !p.reserve_base.is_zero()
        })
        .filter_map(|p| {
            let quote = p.pair.quote.address;
            if quote == weth {
                return Some((p, None));
            }
            wrapped_pair(price_pools, p.pair.dex.router, quote).map(|hop| (p, Some(hop)))
        })
        .max_by_key(|(p, hop)| (hop.is_none(), p.reserve_quote))?;
    let quote = pool.pair.quote.address;
    let fee = U256::from(10_000 - u64::from(pool.pair.dex.fee_bps.min(10_000)));
    let out = |amount: U256, reserve_in: U256, reserve_out: U256| {
        let with_fee = amount * fee;
        with_fee * reserve_out / (reserve_in * U256::from(10_000u64) + with_fee)
    };
    // 1% of the pool's quote reserve, paid in native currency.
    let spend_quote = pool.reserve_quote * U256::from(BUY_BPS) / U256::from(10_000u64);
    let spend = match hop {
        None => spend_quote,
        Some((wrapped, quoted)) => spend_quote * wrapped / quoted.max(U256::from(1u64)),
    };
    let quoted_buy = out(spend_quote, pool.reserve_quote, pool.reserve_base);
    let sell_amount = quoted_buy / U256::from(SELL_DIVISOR);
    let small_amount = quoted_buy / U256::from(SMALL_SELL_DIVISOR);
    if spend.is_zero() || small_amount.is_zero() {
        return None;
    }
    let (buy_path, sell_path) = match hop {
        None => (vec![weth, token], vec![token, weth]),
        Some(_) => (vec![weth, quote, token], vec![token, quote, weth]),
    };
    let route = Route {
        token,
        router: pool.pair.dex.router,
        weth,
        buy_path,
        sell_path,
        deadline: U256::from((head.time().max(0) as u64).saturating_add(30 * 86_400)),
    };
    let wallet = super::fresh_address(token, pool.pair.address, head.number(), "wallet");
    let mut blocks = vec![SimBlock {
        after_seconds: 1,
        calls: vec![
            route.buy(wallet, spend),
            route.approve(wallet),
            route.allowance(wallet),
            balance_of(token, wallet),
        ],
    }];
    let mut amounts = Vec::new();
    for (i, after) in SELLS_AFTER.into_iter().enumerate() {
        let mut sells = vec![sell_amount];
        if i + 1 == SELLS_AFTER.len() {
            sells.push(small_amount);
        }
        let mut calls = Vec::new();
        for amount in sells {
            calls.extend(route.sell(wallet, amount));
            amounts.push((after, amount));
        }
        blocks.push(SimBlock {
            after_seconds: 1 + after,
            calls,
        });
    }
    let funds = spend * U256::from(2u64) + U256::from(10u64).pow(U256::from(18u64));
    let overrides = json!({ format!("{wallet:#x}"): { "balance": funds } });
    let slot = simulate_v1(batch, head, overrides, &blocks);
    Some(Planned {
        pair: pool.pair.address,
        wallet,
        amounts,
        slot,
        buyers: buyers::plan(&route, pool_buyers, head, batch),
    })
}

impl Planned {
    /// The trades' outcome; why they could not be simulated otherwise.
    pub fn take(self, answers: &mut Answers) -> Result<WalletTrip, String> {
        let buyers = self.buyers.take(answers);
        let blocks = answers.take(self.slot).map_err(|e| {
            format!("the node could not simulate a wallet's trades (eth_simulateV1: {e})")
        })?;
        let missing = || "the node's answer to eth_simulateV1 lacks calls".to_string();
        let first = blocks.first().ok_or_else(missing)?;
        let [buy, approve, allowance, held] = first.calls.as_slice() else {
            return Err(missing());
        };
        let bought = if buy.ok() {
            word(held).ok_or_else(|| "its balance could not be read".to_string())
        } else {
            Err(revert_reason(&buy.return_data))
        };
        let approved = if approve.ok() {
            Ok(())
        } else {
            Err(revert_reason(&approve.return_data))
        };
        let mut sells = Vec::new();
        let calls = blocks
            .iter()
            .skip(1)
            .flat_map(|b| b.calls.chunks(SELL_CALLS));
        for (chunk, (after, amount)) in calls.zip(self.amounts) {
            sells.push(WalletSell {
                after_seconds: after,
                sell: read_sell(chunk, amount).ok_or_else(missing)?,
            });
        }
        Ok(WalletTrip {
            pair: self.pair,
            wallet: self.wallet,
            bought,
            approved,
            allowance: word(allowance),
            sells,
            buyers,
        })
    }
}

/// How the wallet's trades were made, for the evidence.
const RPC: &str = "eth_simulateV1: a fresh wallet (no code) buys through the pool's router, approves it, and sells with no minimum output at the next block and an hour later";

/// Let the wallet's trades decide where the simulator contract's disagree:
/// a wallet that sold proves the token is no honeypot for its buyers (the
/// contract was singled out, as bots are), and its sell's tax is the one
/// buyers pay; a wallet that bought and could not sell at any time it tried
/// proves a honeypot where the contract could not sell either (or did not
/// run), and makes it unknown where the contract sold.
pub fn assess(b: &mut Builder, trip: &WalletTrip) {
    let raw = trip.evidence();
    if trip.sold() {
        if b.status(CheckId::Honeypot) != Some(CheckStatus::Clear) {
            b.retract(CheckId::Honeypot);
            b.clear(CheckId::Honeypot);
        }
        // It bought: buying is open to wallets, whatever the contract met.
        for id in [CheckId::CannotBuy, CheckId::TradingNotEnabled] {
            if b.status(id) == Some(CheckStatus::Detected) {
                b.retract(id);
                b.clear(id);
            }
        }
        if b.status(CheckId::SellTax) != Some(CheckStatus::Detected)
            || b.status(CheckId::Honeypot) == Some(CheckStatus::Clear)
        {
            let tax = trip.best_sell().and_then(WalletSell::tax).unwrap_or(0.0);
            b.retract(CheckId::SellTax);
            let who = "A fresh wallet's sell through the router received";
            super::checks::record_sell_tax(b, tax, who, RPC, raw);
        }
    } else if trip.trapped() && trip.approval_ignored() {
        // The contract sells without an approval (straight to the pool); a
        // wallet's sell goes through a router, which needs one.
        b.retract(CheckId::Honeypot);
        b.detected(
            CheckId::Honeypot,
            SignalCategory::Trading,
            Severity::Critical,
            1.0,
            "Honeypot: approvals are not recorded",
            format!(
                "A fresh wallet approved the router, but the token left its allowance at {}, so no router can sell for its buyers: {}.",
                trip.allowance.unwrap_or_default(),
                trip.failures().join("; ")
            ),
            RPC,
            raw,
        );
    } else if trip.trapped() && b.status(CheckId::Honeypot) == Some(CheckStatus::Clear) {
        // The contract sold where the wallet could not: which of the two
        // met the token as its buyers do is not proven either way.
        b.retract(CheckId::Honeypot);
        b.unknown(
            CheckId::Honeypot,
            format!(
                "the simulator contract sold, but a fresh wallet that bought through the router could not sell through it ({})",
                trip.failures().join("; ")
            ),
        );
    } else if trip.trapped() && b.status(CheckId::Honeypot) != Some(CheckStatus::Detected) {
        let why = trip.failures();
        b.retract(CheckId::Honeypot);
        b.detected(
            CheckId::Honeypot,
            SignalCategory::Trading,
            Severity::Critical,
            1.0,
            "Honeypot: buyers cannot sell",
            format!(
                "A fresh wallet bought through the router and could not sell: {}.",
                why.join("; ")
            ),
            RPC,
            raw,
        );
    }
    buyers::assess(b, &trip.buyers, trip.trapped());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trip(sells: Vec<WalletSell>) -> WalletTrip {
        WalletTrip {
            pair: Address::ZERO,
            wallet: Address::ZERO,
            bought: Ok(U256::from(1_000u64)),
            approved: Ok(()),
            allowance: Some(U256::MAX),
            sells,
            buyers: Vec::new(),
        }
    }

    fn reverted(held: u64) -> WalletSell {
        WalletSell {
            after_seconds: 3_600,
            sell: Sell {
                amount: U256::from(125u64),
                held: Some(U256::from(held)),
                quoted: Some(U256::from(50u64)),
                received: Err("ERC20: transfer amount exceeds balance".into()),
            },
        }
    }

    #[test]
    fn a_sell_of_more_than_the_wallet_then_held_proves_nothing() {
        // The balance fell by itself (a rebase down) below what was offered.
        let shrunk = trip(vec![reverted(100), reverted(90)]);
        assert!(!shrunk.trapped());
        assert!(shrunk.failures()[0].contains("held only 100 of the 125"));
        // Held and refused: trapped.
        assert!(trip(vec![reverted(100), reverted(1_000)]).trapped());
    }
}
