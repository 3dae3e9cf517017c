//! Trading restrictions seen across time: whether a sell that fails now
//! passes later (a cooldown, not a honeypot), one sell per block, and
//! per-transaction and per-wallet buy caps — from the horizons simulation.

use riskintel_types::{CheckId, Horizon, HorizonSell, Severity, SignalCategory, TradeSimulation};
use serde_json::json;

use super::HONEYPOT_SELL_TAX;
use crate::scoring::{band, pct, Builder};

pub const HORIZONS_RPC: &str = "eth_simulateV1: five fresh wallets buy in one block, then sell in it, in the next block (two sellers), one hour and one day later";

/// A horizon as words.
fn horizon_words(h: Horizon) -> &'static str {
    match h {
        Horizon::SameBlock => "in the same block",
        Horizon::NextBlock => "one block later",
        Horizon::OneHour => "one hour later",
        Horizon::OneDay => "one day later",
    }
}

/// Honeypot, cooldown and one sell per block, from the sell now and the
/// sells at later horizons. Returns the first later sell that passed.
pub fn assess_time<'a>(
    b: &mut Builder,
    sim: &'a TradeSimulation,
    fails_now: bool,
    rpc: &str,
    sell_raw: serde_json::Value,
) -> Option<&'a HorizonSell> {
    let Some(horizons) = &sim.horizons else {
        let error = sim
            .horizons_error
            .clone()
            .unwrap_or_else(|| "later blocks were not simulated".into());
        if fails_now {
            b.detected(
                CheckId::Honeypot,
                SignalCategory::Trading,
                Severity::Critical,
                band::CRITICAL,
                "Honeypot: cannot sell",
                format!("Every simulated sell right after buying failed or returned almost nothing, and whether a later sell passes could not be simulated ({error})."),
                rpc,
                json!({"sell": sell_raw, "max_sell_share": sim.max_sell_share, "horizons_error": error}),
            );
            b.unknown(CheckId::TradingCooldown, error.clone());
        } else {
            b.clear(CheckId::Honeypot);
            b.clear(CheckId::TradingCooldown);
        }
        b.unknown(CheckId::OneSellPerBlock, error);
        return None;
    };
    let passes = |s: &&HorizonSell| s.ok && s.tax.unwrap_or(0.0) < HONEYPOT_SELL_TAX;
    let later = horizons
        .iter()
        .filter(|s| s.horizon != Horizon::SameBlock)
        .filter(passes)
        .min_by_key(|s| s.seconds_after_buy);
    match (fails_now, later) {
        (true, Some(first)) => {
            b.clear(CheckId::Honeypot);
            let waited: Vec<&HorizonSell> = horizons
                .iter()
                .filter(|s| s.seconds_after_buy < first.seconds_after_buy)
                .collect();
            let reason = sell_raw["revert_reason"]
                .as_str()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            b.detected(
                CheckId::TradingCooldown,
                SignalCategory::Trading,
                Severity::Medium,
                band::CAUTION,
                "Sells must wait after a buy",
                format!(
                    "A sell right after buying failed{reason}, but a fresh wallet's sell passed {}: holders wait up to {} after buying before they can sell.",
                    horizon_words(first.horizon),
                    duration_words(first.seconds_after_buy)
                ),
                HORIZONS_RPC,
                json!({"sell_now": sell_raw, "failed": waited, "first_passing": first, "wait_at_most_seconds": first.seconds_after_buy}),
            );
        }
        (true, None) => {
            b.detected(
                CheckId::Honeypot,
                SignalCategory::Trading,
                Severity::Critical,
                1.0,
                "Honeypot: cannot sell",
                format!(
                    "Every simulated sell failed or returned almost nothing ({}), right after buying and one block, one hour and one day later, from {} fresh wallets: holders cannot sell.",
                    sell_raw["revert_reason"].as_str().unwrap_or("its value was taken"),
                    horizons.len()
                ),
                rpc,
                json!({"sell": sell_raw, "max_sell_share": sim.max_sell_share, "horizons": horizons}),
            );
            b.clear(CheckId::TradingCooldown);
        }
        (false, _) => {
            b.clear(CheckId::Honeypot);
            b.clear(CheckId::TradingCooldown);
        }
    }
    let next: Vec<&HorizonSell> = horizons
        .iter()
        .filter(|s| s.horizon == Horizon::NextBlock && s.bought)
        .collect();
    match (next.iter().find(|s| !s.second_in_block), next.iter().find(|s| s.second_in_block)) {
        (Some(first), Some(second)) if first.ok && !second.ok => b.detected(
            CheckId::OneSellPerBlock,
            SignalCategory::Trading,
            Severity::Medium,
            band::CAUTION,
            "One sell per block",
            format!(
                "Of two fresh wallets selling in the same block, the first passed and the second failed ({}): only one sell goes through per block.",
                second.revert_reason.clone().unwrap_or_default()
            ),
            HORIZONS_RPC,
            json!({"first": first, "second": second}),
        ),
        (Some(first), Some(second)) if first.ok && second.ok => b.clear(CheckId::OneSellPerBlock),
        _ => b.unknown(CheckId::OneSellPerBlock, "no sell passed one block after buying, so two sells in one block could not be compared"),
    }
    later
}

fn duration_words(seconds: u64) -> String {
    match seconds {
        s if s < 120 => format!("{s} seconds"),
        s if s < 7_200 => format!("{} minutes", s / 60),
        s if s < 172_800 => format!("{} hours", s / 3_600),
        s => format!("{} days", s / 86_400),
    }
}

/// A buy cap under this share of the supply is medium; above it, low.
const TIGHT_LIMIT: f64 = 0.01;

/// Per-transaction and per-wallet buy limits, from the limit tester's two
/// searches (the second an hour later, holding the first buy).
pub fn assess_limits(b: &mut Builder, sim: &TradeSimulation, supply: f64) {
    let Some(limits) = &sim.buy_limits else {
        let reason = sim
            .horizons_error
            .clone()
            .unwrap_or_else(|| "the largest buy could not be simulated".into());
        b.unknown(CheckId::MaxTx, reason.clone());
        return b.unknown(CheckId::MaxWallet, reason);
    };
    if !limits.capped {
        b.clear(CheckId::MaxTx);
        return b.clear(CheckId::MaxWallet);
    }
    let first = limits.largest_buy;
    if first <= 0.0 {
        // Even the smallest trial failed, yet the first buys passed: something else stopped it.
        b.unknown(
            CheckId::MaxTx,
            "no trial buy passed in the limit search, though smaller buys did",
        );
        return b.unknown(
            CheckId::MaxWallet,
            "no trial buy passed in the limit search, though smaller buys did",
        );
    }
    let Some(again) = limits.largest_buy_again else {
        b.unknown(
            CheckId::MaxWallet,
            "the second largest buy could not be simulated",
        );
        return limit(b, CheckId::MaxTx, first, supply, limits);
    };
    // Room for another full buy: the cap is per transaction. Almost none: per
    // wallet. In between: both, the wallet's cap being what it then held.
    if again >= 0.9 * first {
        limit(b, CheckId::MaxTx, first, supply, limits);
        b.clear(CheckId::MaxWallet);
    } else if again <= 0.05 * first {
        b.clear(CheckId::MaxTx);
        limit(b, CheckId::MaxWallet, first, supply, limits);
    } else {
        limit(b, CheckId::MaxTx, first, supply, limits);
        limit(b, CheckId::MaxWallet, first + again, supply, limits);
    }
}

fn limit(
    b: &mut Builder,
    id: CheckId,
    amount: f64,
    supply: f64,
    limits: &riskintel_types::BuyLimits,
) {
    let share = if supply > 0.0 { amount / supply } else { 0.0 };
    let (severity, weight) = if share < TIGHT_LIMIT {
        (Severity::Medium, 0.15)
    } else {
        (Severity::Low, 0.05)
    };
    let (title, what) = if id == CheckId::MaxTx {
        ("Transactions are capped", "a single buy")
    } else {
        ("Wallets are capped", "one wallet's holding")
    };
    b.detected(
        id,
        SignalCategory::Trading,
        severity,
        weight,
        title,
        format!("The largest {what} a fresh wallet could reach was {amount:.4} tokens ({} of the supply).", pct(share)),
        "eth_simulateV1: a fresh wallet's largest buy (trial buys undone, up to a fifth of the pool's quote reserve), and again an hour later",
        json!({"amount": amount, "share_of_supply": share, "largest_buy": limits.largest_buy, "largest_buy_again": limits.largest_buy_again}),
    );
}

/// Reverts a pool makes when the simulator's own swap asks for more than
/// it was paid (nothing arrived, its output computed from the wrong
/// amount): the simulation's bound, not the token's refusal. A real sell
/// through the router passes no such bound.
const POOL_REFUSALS: [&str; 5] = [
    "INSUFFICIENT_OUTPUT_AMOUNT",
    "INSUFFICIENT_INPUT_AMOUNT",
    "INSUFFICIENT_LIQUIDITY",
    "IIA",
    "ShortPayment",
];

/// Whether a revert reason is the pool refusing the simulator's own swap.
fn pool_refused(reason: &str) -> bool {
    let reason = reason.trim();
    reason == "K" || reason.ends_with(": K") || POOL_REFUSALS.iter().any(|r| reason.contains(r))
}

/// How one sell of the simulator contract ended, as proof goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SellProof {
    /// It went through and paid something: the verdict stands on it.
    Paid,
    /// It went through, but the token took all of it on the way (what
    /// `PoolSwaps` reports as a 100% tax): what contracts pay.
    Taken,
    /// The pool refused the simulator's own swap: its bound, not the token's.
    Refused,
    /// It failed for the token's reasons.
    Failed,
}

fn sell_proof(ok: bool, tax: Option<f64>, reason: Option<&str>) -> SellProof {
    match (ok, reason) {
        (true, _) if tax.is_some_and(|t| t >= 1.0) => SellProof::Taken,
        (true, _) => SellProof::Paid,
        (false, Some(reason)) if pool_refused(reason) => SellProof::Refused,
        (false, _) => SellProof::Failed,
    }
}

/// Why the simulator contract's sells prove nothing of holders, if they
/// do not: each was refused by the pool or taken whole by the token.
fn unproven(sells: &[(SellProof, Option<&str>)]) -> Option<String> {
    if sells.is_empty()
        || sells
            .iter()
            .any(|(proof, _)| matches!(proof, SellProof::Paid | SellProof::Failed))
    {
        return None;
    }
    Some(match sells.iter().find(|(proof, _)| *proof == SellProof::Refused) {
        Some((_, Some(reason))) => format!(
            "the simulator's sells were refused by the pool itself ({reason}) or never reached it: its own swap's bound, not proof that holders cannot sell"
        ),
        _ => "nothing the simulator contract sold reached the pool: the token took all of it on the way, as tokens that single out contracts do to them — what contracts pay, not proof that holders cannot sell".to_string(),
    })
}

/// A honeypot needs proof: when every sell of the simulator contract was
/// the pool refusing its own swap, or was taken whole by the token on the
/// way (what a token that singles out contracts does to them), it proves
/// nothing of what holders can do, and `honeypot` is unknown (a wallet's
/// trades may still decide it, `wallet::assess`).
pub fn require_proof(b: &mut Builder, sim: &TradeSimulation) {
    if b.status(CheckId::Honeypot) != Some(riskintel_types::CheckStatus::Detected) {
        return;
    }
    let Some(sell) = &sim.sell else { return };
    let mut sells = vec![(
        sell_proof(sell.ok, sell.tax, sell.revert_reason.as_deref()),
        sell.revert_reason.as_deref(),
    )];
    for h in sim.horizons.iter().flatten().filter(|h| h.bought) {
        let reason = h.revert_reason.as_deref();
        sells.push((sell_proof(h.ok, h.tax, reason), reason));
    }
    let Some(why) = unproven(&sells) else { return };
    b.retract(CheckId::Honeypot);
    b.unknown(CheckId::Honeypot, why.clone());
    // A sell taken whole measured what contracts pay, not the sell tax.
    if sells.iter().any(|(proof, _)| *proof == SellProof::Taken)
        && b.status(CheckId::SellTax) == Some(riskintel_types::CheckStatus::Detected)
    {
        b.retract(CheckId::SellTax);
        b.unknown(CheckId::SellTax, why);
    }
}

#[cfg(test)]
mod tests {
    use super::{sell_proof, unproven, SellProof};

    #[test]
    fn sells_taken_whole_or_refused_by_the_pool_prove_nothing() {
        let taken = (sell_proof(true, Some(1.0), None), None);
        let refused = (
            sell_proof(false, None, Some("UniswapV2: K")),
            Some("UniswapV2: K"),
        );
        let paid = (sell_proof(true, Some(0.99), None), None);
        let failed = (
            sell_proof(false, None, Some("not whitelisted")),
            Some("not whitelisted"),
        );
        assert!(taken.0 == SellProof::Taken && paid.0 == SellProof::Paid);
        assert!(unproven(&[taken]).is_some_and(|w| w.contains("took all of it")));
        assert!(unproven(&[taken, refused]).is_some_and(|w| w.contains("UniswapV2: K")));
        // A 99% tax paid, or a token's own refusal, is proof enough.
        assert!(unproven(&[taken, paid]).is_none());
        assert!(unproven(&[refused, failed]).is_none());
        assert!(unproven(&[]).is_none());
    }

    #[test]
    fn only_the_pools_own_refusals_are_the_simulations() {
        for own in [
            "UniswapV2: INSUFFICIENT_OUTPUT_AMOUNT",
            "UniswapV2: K",
            "Pancake: K",
            "IIA",
            "ShortPayment",
        ] {
            assert!(super::pool_refused(own), "{own}");
        }
        for token in [
            "sell not allowed",
            "not whitelisted",
            "TransferHelper: TRANSFER_FROM_FAILED",
            "Kill",
        ] {
            assert!(!super::pool_refused(token), "{token}");
        }
    }
}
