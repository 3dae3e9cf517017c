//! The trading checks, from a trade simulation: whether a holder can buy,
//! transfer and sell, and what each costs. One check per question; the
//! severity carries the degree.

use riskintel_api::{
    CheckId, Horizon, HorizonSell, Severity, SignalCategory, TradeSimulation, TradeStep,
};
use serde_json::json;

use super::replay::Replay;
use crate::chains::evm::abi::units;
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
/// A sell returning less than this share of its value is a honeypot.
const HONEYPOT_SELL_TAX: f64 = 0.9;

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
        Some(tax) if tax > TAX_FLOOR => {
            let (severity, weight) = tax_degree(tax, false);
            b.detected(
                CheckId::SellTax,
                SignalCategory::Trading,
                severity,
                weight,
                "Sell tax",
                format!(
                    "A simulated sell received {} of the expected value: a sell tax of {}.",
                    pct(1.0 - tax),
                    pct(tax)
                ),
                &rpc,
                json!({"sell": step_raw(sell)}),
            );
        }
        Some(_) => b.clear(CheckId::SellTax),
        None => match later.and_then(|l| l.tax) {
            Some(tax) if tax > TAX_FLOOR => {
                let (severity, weight) = tax_degree(tax, false);
                b.detected(
                    CheckId::SellTax,
                    SignalCategory::Trading,
                    severity,
                    weight,
                    "Sell tax",
                    format!("A simulated sell after the waiting time received {} of the expected value: a sell tax of {}.", pct(1.0 - tax), pct(tax)),
                    HORIZONS_RPC,
                    json!({"later_sell": later}),
                );
            }
            Some(_) => b.clear(CheckId::SellTax),
            None => b.unknown(
                CheckId::SellTax,
                "the full sell failed, so its tax could not be measured",
            ),
        },
    }
}

const HORIZONS_RPC: &str = "eth_simulateV1: five fresh wallets buy in one block, then sell in it, in the next block (two sellers), one hour and one day later";

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
fn assess_time<'a>(
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

/// Whether real holders are trapped: their replayed small exits against a
/// fresh wallet's trade in the same simulation.
pub fn assess_holders(b: &mut Builder, replay: &Result<Replay, String>, decimals: u8) {
    let replay = match replay {
        Ok(r) => r,
        Err(reason) => {
            return b.unknown(
                CheckId::HoldersTrapped,
                format!("holders' exits were not replayed: {reason}"),
            )
        }
    };
    if !(replay.fresh.buyOk && replay.fresh.transferOk && replay.fresh.sellOk) {
        return b.unknown(CheckId::HoldersTrapped, "a fresh wallet could not buy, transfer and sell either, so holders' exits say nothing of their own");
    }
    let tried: Vec<_> = replay
        .exits
        .iter()
        .filter(|e| e.sell_ok.is_some() || !e.transfer_ok)
        .collect();
    if tried.is_empty() {
        return b.unknown(
            CheckId::HoldersTrapped,
            "no holder's exit could be replayed",
        );
    }
    let trapped: Vec<_> = tried.iter().filter(|e| e.trapped()).collect();
    if trapped.is_empty() {
        return b.clear(CheckId::HoldersTrapped);
    }
    let most = trapped.len() * 2 > tried.len();
    let (severity, weight) = if most {
        (Severity::Critical, band::CRITICAL)
    } else {
        (Severity::High, band::RISKY)
    };
    let raw: Vec<_> = tried
        .iter()
        .map(|e| json!({"holder": e.holder.to_checksum(None), "balance": units(e.balance, decimals), "transfer_ok": e.transfer_ok, "sell_ok": e.sell_ok}))
        .collect();
    b.detected(
        CheckId::HoldersTrapped,
        SignalCategory::Trading,
        severity,
        weight,
        "Holders are trapped",
        format!(
            "{} of {} of the largest holders tried could not transfer or sell a hundredth of their tokens, while a fresh wallet bought, transferred and sold.",
            trapped.len(),
            tried.len()
        ),
        "eth_call replay() with the probe contract at each holder's address by state override",
        json!({"holders": raw, "trapped": trapped.len(), "tried": tried.len()}),
    );
}

/// A buy cap under this share of the supply is medium; above it, low.
const TIGHT_LIMIT: f64 = 0.01;

/// Per-transaction and per-wallet buy limits, from the limit tester's two
/// searches (the second an hour later, holding the first buy).
fn assess_limits(b: &mut Builder, sim: &TradeSimulation, supply: f64) {
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
    limits: &riskintel_api::BuyLimits,
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
