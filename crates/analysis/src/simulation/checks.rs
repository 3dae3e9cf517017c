//! The trading checks, from a trade simulation: whether a holder can buy,
//! transfer and sell, and what each costs. One check per question; the
//! severity carries the degree.

use riskintel_types::{CheckId, CheckStatus, Severity, SignalCategory, TradeSimulation, TradeStep};
use serde_json::json;

use super::restrictions::{assess_limits, assess_time, HORIZONS_RPC};
use super::HONEYPOT_SELL_TAX;
use crate::scoring::{band, pct, tax_degree, Builder};

/// Every trading check, for recording them as unknown when no simulation ran.
pub const TRADING_CHECKS: [CheckId; 13] = [
    CheckId::CannotBuy,
    CheckId::TradingNotEnabled,
    CheckId::Honeypot,
    CheckId::TradingCooldown,
    CheckId::OneSellPerBlock,
    CheckId::SellLimit,
    CheckId::BuyTax,
    CheckId::SellTax,
    CheckId::TransferBlocked,
    CheckId::TransferTax,
    CheckId::ExternalCallInTransfer,
    CheckId::MaxTx,
    CheckId::MaxWallet,
];

/// A tax under this is rounding, not a tax.
const TAX_FLOOR: f64 = 0.005;

/// Whether a privileged role could buy, for when a fresh wallet could not.
pub enum PrivilegedBuy {
    /// This role (described) bought and sold.
    Passed(String),
    /// Every privileged role's buy failed too (or there is none).
    Failed,
    /// The roles could not be tried, and why.
    Unknown(String),
}

/// Record the trading checks from the simulation of the deepest simulated
/// pool; `privileged` tells whether the roles could buy where a fresh wallet could not.
pub fn assess(b: &mut Builder, sim: &TradeSimulation, privileged: &PrivilegedBuy, supply: f64) {
    let rpc = format!(
        "eth_call simulate() with a state override at {} on pool {} ({})",
        sim.simulator, sim.pool, sim.dex
    );
    let step_raw = |step: &TradeStep| {
        json!({"ok": step.ok, "amount_in": step.amount_in, "expected_out": step.expected_out, "actual_out": step.actual_out,
               "tax": step.tax, "gas_used": step.gas_used, "revert_reason": step.revert_reason})
    };
    if !sim.buy.ok {
        let reason = sim.buy.revert_reason.clone().unwrap_or_default();
        let amount = format!(
            "{} {}",
            sim.buy.amount_in.unwrap_or_default(),
            sim.quote_symbol
        );
        match privileged {
            PrivilegedBuy::Passed(who) => {
                b.detected(
                    CheckId::TradingNotEnabled,
                    SignalCategory::Trading,
                    Severity::High,
                    band::RISKY,
                    "Trading not enabled",
                    format!("A fresh wallet's buy of {amount} reverted ({reason}), but {who} bought and sold: only privileged wallets trade until the owner opens trading."),
                    &rpc,
                    json!({"buy": step_raw(&sim.buy), "privileged_buyer": who}),
                );
                b.clear(CheckId::CannotBuy);
            }
            PrivilegedBuy::Failed | PrivilegedBuy::Unknown(_) => {
                b.detected(
                    CheckId::CannotBuy,
                    SignalCategory::Trading,
                    Severity::High,
                    0.4,
                    "Buying fails",
                    format!("A simulated buy of {amount} reverted ({reason}); trading may not be enabled, or buyers are blocked."),
                    &rpc,
                    json!({"buy": step_raw(&sim.buy)}),
                );
                match privileged {
                    PrivilegedBuy::Unknown(why) => {
                        b.unknown(CheckId::TradingNotEnabled, why.clone())
                    }
                    _ => b.clear(CheckId::TradingNotEnabled),
                }
            }
        }
        for id in TRADING_CHECKS
            .into_iter()
            .filter(|id| ![CheckId::CannotBuy, CheckId::TradingNotEnabled].contains(id))
        {
            b.unknown(
                id,
                "the simulated buy failed, so there was nothing to sell or transfer",
            );
        }
        return;
    }
    b.clear(CheckId::TradingNotEnabled);
    assess_limits(b, sim, supply);
    match (&sim.transfer_calls, &sim.transfer_calls_error) {
        (Some(calls), _) if !calls.is_empty() => b.detected(
            CheckId::ExternalCallInTransfer,
            SignalCategory::Contract,
            Severity::Medium,
            band::CAUTION,
            "Transfers call another contract",
            format!("While its tokens moved in the simulated trade, the token called {}, outside the trade itself.", calls.join(", ")),
            "debug_traceCall (callTracer) of the trade simulation, same state overrides",
            json!({"called": calls}),
        ),
        (Some(_), _) => b.clear(CheckId::ExternalCallInTransfer),
        (None, error) => b.unknown(CheckId::ExternalCallInTransfer, error.clone().unwrap_or_else(|| "the simulation was not traced".into())),
    }
    b.clear(CheckId::CannotBuy);
    match sim.buy.tax {
        Some(tax) if tax > TAX_FLOOR => {
            let (severity, weight) = tax_degree(tax, false);
            b.detected(
                CheckId::BuyTax,
                SignalCategory::Trading,
                severity,
                weight,
                "Buy tax",
                format!(
                    "A simulated buy received {} of the expected tokens: a buy tax of {}.",
                    pct(1.0 - tax),
                    pct(tax)
                ),
                &rpc,
                json!({"buy": step_raw(&sim.buy)}),
            );
        }
        _ => b.clear(CheckId::BuyTax),
    }
    match &sim.transfer {
        Some(t) if !t.ok => b.detected(
            CheckId::TransferBlocked,
            SignalCategory::Trading,
            Severity::High,
            0.35,
            "Transfers are blocked",
            format!(
                "A simulated transfer between two fresh wallets reverted ({}).",
                t.revert_reason.clone().unwrap_or_default()
            ),
            &rpc,
            json!({"transfer": step_raw(t)}),
        ),
        Some(t) => {
            b.clear(CheckId::TransferBlocked);
            match t.tax {
                Some(tax) if tax > TAX_FLOOR => b.detected(
                    CheckId::TransferTax,
                    SignalCategory::Trading,
                    Severity::Medium,
                    0.1,
                    "Transfer tax",
                    format!("A simulated wallet-to-wallet transfer delivered {} of what was sent: a transfer tax of {}.", pct(1.0 - tax), pct(tax)),
                    &rpc,
                    json!({"transfer": step_raw(t)}),
                ),
                _ => b.clear(CheckId::TransferTax),
            }
        }
        None => {
            b.unknown(
                CheckId::TransferBlocked,
                "no tokens were bought to transfer",
            );
            b.unknown(CheckId::TransferTax, "no tokens were bought to transfer");
        }
    }
    let Some(sell) = &sim.sell else {
        for id in [
            CheckId::Honeypot,
            CheckId::TradingCooldown,
            CheckId::OneSellPerBlock,
            CheckId::SellLimit,
            CheckId::SellTax,
        ] {
            b.unknown(id, "no tokens were bought to sell");
        }
        return;
    };
    let max_share = sim.max_sell_share.unwrap_or(0.0);
    let sell_tax = sell.tax.unwrap_or(0.0);
    let fails_now = (!sell.ok && max_share == 0.0) || (sell.ok && sell_tax >= HONEYPOT_SELL_TAX);
    let later = assess_time(b, sim, fails_now, &rpc, step_raw(sell));
    if !sell.ok && max_share > 0.0 {
        let (severity, weight) = if max_share < 0.01 {
            (Severity::Critical, 0.9)
        } else if max_share < 0.5 {
            (Severity::High, 0.3)
        } else {
            (Severity::Medium, 0.15)
        };
        b.detected(
            CheckId::SellLimit,
            SignalCategory::Trading,
            severity,
            weight,
            "Sells are capped",
            format!(
                "Selling everything bought reverted ({}); the largest sell that succeeded was {} of it.",
                sell.revert_reason.clone().unwrap_or_default(),
                pct(max_share)
            ),
            &rpc,
            json!({"sell": step_raw(sell), "max_sell_share": max_share}),
        );
    } else {
        b.clear(CheckId::SellLimit);
    }
    match sell.tax {
        Some(tax) => record_sell_tax(
            b,
            tax,
            "A simulated sell received",
            &rpc,
            json!({"sell": step_raw(sell)}),
        ),
        None => match later.and_then(|l| l.tax) {
            Some(tax) => record_sell_tax(
                b,
                tax,
                "A simulated sell after the waiting time received",
                HORIZONS_RPC,
                json!({"later_sell": later}),
            ),
            None => b.unknown(
                CheckId::SellTax,
                "the full sell failed, so its tax could not be measured",
            ),
        },
    }
}

/// What a round trip (buy, then sell what arrived) loses to the token.
pub fn round_trip(buy_tax: f64, sell_tax: f64) -> f64 {
    1.0 - (1.0 - buy_tax.clamp(0.0, 1.0)) * (1.0 - sell_tax.clamp(0.0, 1.0))
}

/// A round trip losing this much puts a token in caution at least (policy).
pub const ROUND_TRIP_CAUTION: f64 = 0.15;

/// Taxes are judged on the round trip too: two taxes each under the
/// caution floor that together take 15% or more of a buy-then-sell put the
/// token in caution at least, on the sell tax's signal (the buy tax's where
/// the sell has none).
pub fn judge_round_trip(b: &mut Builder, buy_tax: Option<f64>, sell_tax: Option<f64>) {
    let (Some(buy), Some(sell)) = (buy_tax, sell_tax) else {
        return;
    };
    let lost = round_trip(buy, sell);
    if lost < ROUND_TRIP_CAUTION {
        return;
    }
    let sentence = format!(
        "Bought and sold again, a round trip loses {} to the token.",
        pct(lost)
    );
    let id = if b.status(CheckId::SellTax) == Some(CheckStatus::Detected) {
        CheckId::SellTax
    } else {
        CheckId::BuyTax
    };
    b.raise(
        id,
        (Severity::Medium, band::CAUTION),
        &sentence,
        "round_trip_loss",
        json!(lost),
    );
}

/// Record `sell_tax` from a measured `tax`: detected past the floor (the
/// detail begins with `who`, e.g. "A simulated sell received"), else clear.
pub fn record_sell_tax(b: &mut Builder, tax: f64, who: &str, rpc: &str, raw: serde_json::Value) {
    if tax <= TAX_FLOOR {
        b.clear(CheckId::SellTax);
        return;
    }
    let (severity, weight) = tax_degree(tax, false);
    b.detected(
        CheckId::SellTax,
        SignalCategory::Trading,
        severity,
        weight,
        "Sell tax",
        format!(
            "{who} {} of the expected value: a sell tax of {}.",
            pct(1.0 - tax),
            pct(tax)
        ),
        rpc,
        raw,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taxed(buy: f64, sell: f64) -> Vec<(CheckId, f64)> {
        let mut b = Builder::new(1);
        record_sell_tax(&mut b, sell, "A simulated sell received", "test", json!({}));
        judge_round_trip(&mut b, Some(buy), Some(sell));
        b.verdict()
            .signals
            .iter()
            .map(|s| (s.id, s.weight))
            .collect()
    }

    #[test]
    fn taxes_are_judged_on_the_round_trip_too() {
        assert!((round_trip(0.08, 0.08) - 0.1536).abs() < 1e-9);
        // 8% each way loses 15.4%: caution at least, on the sell tax.
        assert_eq!(taxed(0.08, 0.08), vec![(CheckId::SellTax, band::CAUTION)]);
        // 3% each way loses 5.9%: as each tax is.
        assert_eq!(taxed(0.03, 0.03), vec![(CheckId::SellTax, 0.05)]);
    }
}
