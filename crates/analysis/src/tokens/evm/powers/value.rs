//! Follow the value (`product.md`): every probe run is read as a ledger
//! (`ProbeLedger.sol`) — the call itself, and a fresh buyer's buy and sell
//! after it — and value that ends at an address a role chose is `value
//! taken`, by three paths:
//! - fees: the share of the buyer's trade (tokens, and native or quote
//!   currency a swap-back pays out) credited to a role's own wallet or to
//!   a wallet the token's storage keeps, with no call made or after a call
//!   that raised it (a fee raised, a fee wallet set to the role);
//! - the contract's balance: a call that moves the tokens or the native
//!   and quote currency the token contract holds (fees collected, what a
//!   `buy()` kept) to such an address;
//! - the pool: a call that lowers the pool's token balance (a balance set,
//!   burned or moved, then synced), with the holders' left alone.
//!
//! Wallets held by one key or a multisig count; a contract (a
//! distributor, a liquidity manager) is a fixed destination and does not,
//! so fees to it are no value taken. Weighed by the share a role can take:
//! fees up to 10% of a trade `low`, above 10% `medium`, above 25% `high`;
//! the contract's balance `high`; the pool `critical`; each capped by who
//! holds the role. A swap-back of collected fees to a chosen wallet is the
//! fee path.
//!
//! The same ledgers also show tokens credited that nobody was debited for
//! on a plain trade: a mint in the transfer path (`mint_capability`).

use alloy_primitives::{Address, I256, U256};
use riskintel_types::{CheckId, CheckStatus, Severity, SignalCategory};
use serde_json::json;

use super::super::control::Control;
use super::super::roles::{Probing, Role};
use crate::scoring::{band, pct, Builder};
use crate::simulation::abi::{
    IPrivilegeProbe::{Effect, Ledger, Snapshot},
    Outcome,
};
use crate::simulation::probe::{Candidate, Probed};
use riskintel_chains::evm::abi::units;
use riskintel_chains::evm::addr;

/// A share of a trade under this is rounding, not a fee.
const SHARE_STEP: f64 = 0.005;

/// How the value reaches the chosen address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    Fees,
    Contract,
    Pool,
}

/// One way value was seen taken.
struct Taken<'a> {
    path: Path,
    /// The fee path's share of the trade; the others' amount (tokens, or
    /// native and quote currency in its smallest unit).
    share: f64,
    amount: U256,
    /// The role that made the call (None: no call, the default fees).
    role: Option<&'a Role>,
    candidate: Option<&'a Candidate>,
    /// Where the value went.
    to: Vec<Address>,
    degree: (Severity, f64),
}

/// The watched addresses of `probed`'s ledgers (index 0: the role itself)
/// that count as a chosen wallet: held by a key or a multisig, and not a
/// large holder probed as a role (what it gains is its own share).
fn chosen<'a>(probing: &'a Probing, probed: &'a Probed) -> Vec<Option<Address>> {
    let counts = |address: Address| {
        (probing.roles.iter()).any(|r| {
            r.address == address
                && r.names != ["large holder"]
                && matches!(r.control, Control::Eoa | Control::Safe { .. })
        })
    };
    std::iter::once(probed.role)
        .chain(probed.watch.iter().copied())
        .map(|a| counts(a).then_some(a))
        .collect()
}

fn ratio(part: U256, whole: U256) -> f64 {
    if whole.is_zero() {
        return 0.0;
    }
    (units(part, 0) / units(whole, 0)).clamp(0.0, 1.0)
}

/// What the chosen wallets gained in `l`: tokens, value, and who.
fn gains(l: &Ledger, chosen: &[Option<Address>]) -> (U256, U256, Vec<Address>) {
    let (mut tokens, mut value, mut to) = (U256::ZERO, U256::ZERO, Vec::new());
    for (i, who) in chosen.iter().enumerate() {
        let Some(who) = who else { continue };
        let (t, v) = (
            l.tokenGains.get(i).copied().unwrap_or_default(),
            l.valueGains.get(i).copied().unwrap_or_default(),
        );
        if !t.is_zero() || !v.is_zero() {
            to.push(*who);
        }
        tokens = tokens.saturating_add(t);
        value = value.saturating_add(v);
    }
    (tokens, value, to)
}

/// The share of the buyer's trade `o` that `l` shows at chosen wallets.
fn fee_share(o: &Outcome, l: &Ledger, chosen: &[Option<Address>]) -> (f64, Vec<Address>) {
    if !l.readsOk || !o.buyOk {
        return (0.0, Vec::new());
    }
    let sold = |x: U256| if o.sellOk { x } else { U256::ZERO };
    let (tokens, value, to) = gains(l, chosen);
    let traded = o.expectedBuy.saturating_add(sold(o.sellAmount));
    let paid = o.amountIn.saturating_add(sold(o.expectedSell));
    (ratio(tokens, traded) + ratio(value, paid), to)
}

/// The fee path's degree for `share`: low, medium above 10%, high above 25%.
fn fee_degree(share: f64) -> (Severity, f64) {
    match share {
        s if s > 0.25 => (Severity::High, 0.35),
        s if s > 0.10 => (Severity::Medium, 0.15),
        _ => (Severity::Low, 0.05),
    }
}

/// What one call of `role`'s moved out of the contract or the pool.
fn by_call<'a>(
    probed: &Probed,
    role: &'a Role,
    candidate: &'a Candidate,
    e: &Effect,
    chosen: &[Option<Address>],
) -> Option<Taken<'a>> {
    if !e.ok || !e.call.readsOk {
        return None;
    }
    let (before, after) = (&probed.before, &e.after_);
    let lost = |was: U256, now: U256| now < was && was - now > was / U256::from(1_000u64);
    let taken = |path, amount, to, degree| Taken {
        path,
        share: 0.0,
        amount,
        role: Some(role),
        candidate: Some(candidate),
        to,
        degree,
    };
    let (tokens, value, to) = gains(&e.call, chosen);
    let c = &e.call;
    if !c.contractLoss.is_zero() && !tokens.is_zero() {
        let amount = c.contractLoss.min(tokens);
        return Some(taken(Path::Contract, amount, to, (Severity::High, 0.35)));
    }
    if !c.contractValueLoss.is_zero() && !value.is_zero() {
        let amount = c.contractValueLoss.min(value);
        return Some(taken(Path::Contract, amount, to, (Severity::High, 0.35)));
    }
    // The pool's tokens gone, not to the token contract (a buyback) and not
    // from holders (that is a seizure, weighed as one).
    let drained = before.pair.saturating_sub(after.pair);
    if lost(before.pair, after.pair)
        && !before.victim.is_zero()
        && !lost(before.victim, after.victim)
        && c.contractGain < drained / U256::from(2u64)
    {
        return Some(taken(
            Path::Pool,
            drained,
            to,
            (Severity::Critical, band::CRITICAL),
        ));
    }
    // Collected fees swapped and paid out to a chosen wallet.
    if !c.contractLoss.is_zero() && !value.is_zero() {
        return Some(taken(Path::Fees, value, to, (Severity::Low, 0.05)));
    }
    None
}

/// Whether call `e` left the supply and every balance observed where they
/// were (within a thousandth), the watched addresses' too: it moved nothing
/// itself.
fn left_balances(before: &Snapshot, e: &Effect) -> bool {
    let after = &e.after_;
    let near = |a: U256, b: U256| a.abs_diff(b) <= a.max(b) / U256::from(1_000u64);
    after.readsOk
        && after.supply == before.supply
        && [
            (before.victim, after.victim),
            (before.pair, after.pair),
            (before.role, after.role),
        ]
        .into_iter()
        .all(|(a, b)| near(a, b))
        && e.call.tokenGains.iter().all(U256::is_zero)
}

/// Tokens credited from nothing in `l` (beyond a millionth of `supply`).
pub(super) fn from_nothing(l: &Ledger, supply: U256) -> Option<U256> {
    let tolerance = (supply / U256::from(1_000_000u64)).max(U256::from(1u64));
    let tolerance = I256::try_from(tolerance).unwrap_or(I256::MAX);
    (l.readsOk && l.unaccounted > tolerance).then(|| l.unaccounted.unsigned_abs())
}

/// Record `value_taken`, and a mint in the transfer path on plain trades.
pub(super) fn assess(b: &mut Builder, probing: &Probing, decimals: u8) {
    let mut best: Option<Taken> = None;
    let mut minted: Option<(U256, &Probed)> = None;
    for (role, result) in probing.roles.iter().zip(&probing.results) {
        let Ok(probed) = result else { continue };
        let chosen = chosen(probing, probed);
        let base = &probed.baseline;
        if let Some(amount) = from_nothing(&base.trade, probed.before.supply) {
            minted.get_or_insert((amount, probed));
        }
        let (was, to) = fee_share(&base.buyer, &base.trade, &chosen);
        if was > SHARE_STEP {
            keep(
                &mut best,
                Taken {
                    path: Path::Fees,
                    share: was,
                    amount: U256::ZERO,
                    role: None,
                    candidate: None,
                    to,
                    degree: fee_degree(was),
                },
            );
        }
        for (candidate, e) in probing.candidates.iter().zip(&probed.effects) {
            if let Some(t) = by_call(probed, role, candidate, e, &chosen) {
                let degree = role.control.cap(t.degree.0, t.degree.1);
                keep(&mut best, Taken { degree, ..t });
            }
            let (now, to) = fee_share(&e.buyer, &e.trade, &chosen);
            // After a call that moved balances itself (a balance written,
            // reflections broken), the trade's ledger shows that, not a fee.
            if e.ok && now > was + SHARE_STEP && left_balances(&probed.before, e) {
                let (severity, weight) = fee_degree(now);
                keep(
                    &mut best,
                    Taken {
                        path: Path::Fees,
                        share: now,
                        amount: U256::ZERO,
                        role: Some(role),
                        candidate: Some(candidate),
                        to,
                        degree: role.control.cap(severity, weight),
                    },
                );
            }
        }
    }
    if let Some((amount, probed)) = minted {
        mint_in_transfers(b, probed, amount, decimals);
    }
    let Some(t) = best else {
        match probing.results.iter().find_map(|r| r.as_ref().err()) {
            Some(reason) if probing.results.iter().all(Result::is_err) => b.unknown(
                CheckId::ValueTaken,
                format!("privileged functions were not probed: {reason}"),
            ),
            _ => b.clear(CheckId::ValueTaken),
        }
        return;
    };
    record(b, &t, decimals);
}

/// Keep the heavier of `best` and `t` (by weight, then share).
fn keep<'a>(best: &mut Option<Taken<'a>>, t: Taken<'a>) {
    if best
        .as_ref()
        .is_none_or(|x| (t.degree.1, t.share) > (x.degree.1, x.share))
    {
        *best = Some(t);
    }
}

fn record(b: &mut Builder, t: &Taken, decimals: u8) {
    let to: Vec<String> = t.to.iter().map(addr).collect();
    let wallets = match to.as_slice() {
        [] => "an address a role chose".to_string(),
        [one] => one.clone(),
        many => many.join(", "),
    };
    let by = match (t.role, t.candidate) {
        (Some(role), Some(c)) => format!("After {} calls {}, ", role.describe(), c.function),
        _ => "On a plain trade, ".to_string(),
    };
    let (title, what) = match t.path {
        Path::Fees if t.amount.is_zero() => (
            "Fees go to a wallet a role chose",
            format!(
                "{by}{} of a fresh wallet's buy and sell ends at {wallets}",
                pct(t.share)
            ),
        ),
        Path::Fees => (
            "Collected fees are paid to a wallet a role chose",
            format!("{by}the fees the token contract collected were swapped and {} (native and quote currency) paid to {wallets}", t.amount),
        ),
        Path::Contract => (
            "The contract's own balance can be taken",
            format!("{by}{} of what the token contract held moved to {wallets}", units(t.amount, decimals)),
        ),
        Path::Pool => (
            "The pool's tokens can be taken",
            format!("{by}the pool's token balance fell by {} while holders kept theirs, so its price moves for whoever sells next", units(t.amount, decimals)),
        ),
    };
    let raw = json!({
        "path": match t.path { Path::Fees => "fees", Path::Contract => "contract_balance", Path::Pool => "pool" },
        "share": (t.path == Path::Fees && t.amount.is_zero()).then_some(t.share),
        "amount": (!t.amount.is_zero()).then(|| t.amount.to_string()),
        "to": to,
        "role": t.role.map(|r| addr(&r.address)),
        "role_names": t.role.map(|r| r.names.clone()),
        "control": t.role.map(|r| r.control.raw()),
        "function": t.candidate.map(|c| c.function.clone()),
        "calldata": t.candidate.map(|c| c.data.clone()),
    });
    let rpc = "eth_call probe() with the probe contract at each role's address by state override: each call and a fresh wallet's buy and sell after it read as a ledger (balances of the buyer, the pool, the token contract, the roles and the addresses its storage keeps, native and quote currency, and the supply)";
    b.detected(
        CheckId::ValueTaken,
        SignalCategory::Ownership,
        t.degree.0,
        t.degree.1,
        title,
        format!("{what}."),
        rpc,
        raw,
    );
}

/// A plain trade credits tokens nobody was debited for: a mint in the
/// transfer path (a fee credited to a wallet without being taken from the
/// sender), recorded as `mint_capability` where the probing found none.
fn mint_in_transfers(b: &mut Builder, probed: &Probed, amount: U256, decimals: u8) {
    if b.status(CheckId::MintCapability) == Some(CheckStatus::Detected) {
        return;
    }
    b.retract(CheckId::MintCapability);
    b.detected(
        CheckId::MintCapability,
        SignalCategory::Contract,
        Severity::High,
        band::RISKY,
        "Trades create tokens",
        format!(
            "A fresh wallet's buy and sell credited {} tokens more than anyone was debited for, with the supply unchanged: every trade mints, whatever the code calls it.",
            units(amount, decimals)
        ),
        "eth_call probe(): a fresh wallet's buy and sell read as a ledger (balances of the buyer, the pool, the token contract, the roles and the addresses its storage keeps, and the supply)",
        json!({"credited_from_nothing": amount.to_string(), "supply": probed.before.supply.to_string(), "path": "transfer"}),
    );
}

#[cfg(test)]
mod tests;
