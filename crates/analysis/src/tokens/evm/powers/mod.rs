//! Privileged powers, established by effect: every non-standard function
//! was called as each role (`simulation::probe`); here each call's
//! observed effect is classified, and each power is weighed by who holds
//! it. A name is only a label in the evidence.

use alloy_primitives::{Address, U256};
use riskintel_types::{CheckId, Severity, SignalCategory};
use serde_json::json;

use super::control::Control;
use super::facts::{EvmFacts, OwnerFact};
use super::roles::{Probing, Role};
use crate::config::AllowlistEntry;
use crate::scoring::Builder;
use crate::simulation::abi::{
    IPrivilegeProbe::{Effect, Snapshot},
    Outcome,
};
use crate::simulation::checks::PrivilegedBuy;
use crate::simulation::probe::{Candidate, Probed};
use crate::simulation::{tax, HONEYPOT_SELL_TAX};
use riskintel_chains::evm::abi::units;
use riskintel_chains::evm::addr;

mod degree;
mod value;
mod words;
use degree::{bounded_mint, weighed, Power, POWERS};
use words::effect_words;

/// The buyer's buy, sell and transfer taxes.
fn taxes(o: &Outcome) -> [Option<f64>; 3] {
    [
        o.buyOk.then(|| tax(o.expectedBuy, o.received)).flatten(),
        o.sellOk
            .then(|| tax(o.expectedSell, o.sellReceived))
            .flatten(),
        o.transferOk
            .then(|| tax(o.transferSent, o.transferReceived))
            .flatten(),
    ]
}

fn trades(o: &Outcome) -> bool {
    o.buyOk && o.sellOk && o.transferOk
}

/// Whether the buyer's sell went through and kept a honeypot's share of its
/// quote (what a wallet cannot leave with).
pub(super) fn sells_nothing(o: &Outcome) -> bool {
    o.sellOk && tax(o.expectedSell, o.sellReceived).is_some_and(|t| t >= HONEYPOT_SELL_TAX)
}

/// Whether a call's effect was seen: its result came back and, when it
/// passed, every supply and balance read after it answered.
fn observed(e: &Effect) -> bool {
    e.ran && (!e.ok || e.after_.readsOk)
}

/// Less than this is rounding, not a change of fee.
const FEE_STEP: f64 = 0.005;
/// One holder's sell fee raised alone by less than this is the noise its
/// own sale meets (a swap-back the call brought forward, the price moved
/// by a reflection), not a fee set for that holder: a fee that singles a
/// holder out takes a tenth of its sale or more.
const ONE_HOLDER_FEE_STEP: f64 = 0.10;

/// The powers one call showed, compared with the same simulation without it.
fn classify(
    probed: &Probed,
    candidate: &Candidate,
    e: &Effect,
    role: Address,
) -> Vec<(Power, f64)> {
    let mut found = Vec::new();
    if !observed(e) || !e.ok {
        return found;
    }
    let (before, after, base) = (&probed.before, &e.after_, &probed.baseline);
    // A loss beyond rounding (reflection tokens move balances by a few wei).
    let lost = |was: U256, now: U256| now < was && was - now > was / U256::from(1_000u64);
    let others_lost = lost(before.victim, after.victim) || lost(before.pair, after.pair);
    // A mint: the supply raised, balances written, or (followed as a
    // ledger) the trades after the call credit tokens nobody was debited
    // for where they did not before.
    let in_transfers = value::from_nothing(&e.trade, before.supply).is_some()
        && value::from_nothing(&base.trade, before.supply).is_none();
    if after.supply > before.supply
        || balance_written(before, after, e.call.contractLoss)
        || in_transfers
    {
        found.push((Power::Mint, 0.0));
    }
    if after.supply < before.supply && others_lost {
        found.push((Power::BurnFromOthers, 0.0));
    }
    if after.supply == before.supply && others_lost {
        found.push((Power::SeizeBalance, 0.0));
    }
    if after.ownerOk && after.owner == role && !(before.ownerOk && before.owner == role) {
        found.push((Power::ReclaimOwnership, 0.0));
    }
    let raised: Vec<f64> = taxes(&base.buyer)
        .into_iter()
        .zip(taxes(&e.buyer))
        .filter_map(|(was, now)| Some((was?, now?)))
        .filter(|(was, now)| now - was > FEE_STEP)
        .map(|(_, now)| now)
        .collect();
    // Fees are a fresh buyer's, whatever else the call did: one call may
    // mint and raise the sell fee at once.
    if let Some(fee) = raised.into_iter().reduce(f64::max) {
        found.push((Power::SetFees, fee));
    } else if base.victimSellOk && e.victimSellOk && !others_lost {
        // (A victim whose tokens were just taken sells what it has left.)
        let victim = |x: &Effect| tax(x.victimSellExpected, x.victimSellReceived);
        if let (Some(was), Some(now)) = (victim(base), victim(e)) {
            if now - was > ONE_HOLDER_FEE_STEP {
                found.push((Power::SetFeePerAddress, now));
            }
        }
    }
    // Whether holders can still move is not judged after their balances
    // changed under them.
    if after.supply != before.supply || others_lost {
        return found;
    }
    let victim_blocked =
        (base.victimTransferOk && !e.victimTransferOk) || (base.victimSellOk && !e.victimSellOk);
    // A sell that goes through and returns (almost) nothing is no exit
    // either: a fee raised to take the whole sale stops sellers.
    let buyer_blocked = trades(&base.buyer)
        && (!trades(&e.buyer) || (sells_nothing(&e.buyer) && !sells_nothing(&base.buyer)));
    if (victim_blocked && trades(&e.buyer)) || (buyer_blocked && candidate.names_pair) {
        found.push((Power::Blacklist, 0.0));
    } else if buyer_blocked {
        found.push((
            if e.smallBuyOk && e.smallSellOk {
                Power::SetLimits
            } else {
                Power::Pause
            },
            0.0,
        ));
    }
    found
}

/// Whether a call raised the balances observed (the role's, the victim's,
/// the pool's) with no equal fall among them (the token contract's own
/// balance among them: `from_contract`) while the total supply stayed: a
/// balance written directly (`_balances[x] = …`, `sstore` into the
/// mapping, reflection or gon balances) is a mint however it is spelled.
fn balance_written(before: &Snapshot, after: &Snapshot, from_contract: U256) -> bool {
    let total = |s: &Snapshot| s.victim.saturating_add(s.pair).saturating_add(s.role);
    let tolerance = (before.supply / U256::from(1_000_000u64)).max(U256::from(1u64));
    let accounted = total(before)
        .saturating_add(from_contract)
        .saturating_add(tolerance);
    after.supply == before.supply && total(after) > accounted
}

/// One power exercised: by which role, with which call, the highest fee
/// reached, and (a mint) whether the code bounds it.
struct Exercised<'a> {
    role: &'a Role,
    candidate: &'a Candidate,
    effect: &'a Effect,
    before: &'a crate::simulation::abi::IPrivilegeProbe::Snapshot,
    fee: f64,
    bounded: bool,
}

/// The functions (by selector) whose mints, as this role, were shown
/// bounded: every call of it whose amount was varied was bounded. A call
/// of the same function with a fixed small amount is bounded with it.
fn bounded_functions(probing: &Probing, probed: &Probed) -> Vec<[u8; 4]> {
    let mut verdicts: Vec<([u8; 4], bool)> = Vec::new();
    for (candidate, effect) in probing.candidates.iter().zip(&probed.effects) {
        if !effect.boundProbed {
            continue;
        }
        match verdicts.iter_mut().find(|(s, _)| *s == candidate.selector) {
            Some((_, bounded)) => *bounded &= bounded_mint(effect),
            None => verdicts.push((candidate.selector, bounded_mint(effect))),
        }
    }
    (verdicts.into_iter())
        .filter(|(_, bounded)| *bounded)
        .map(|(selector, _)| selector)
        .collect()
}

/// Record the seven capability checks and the two seizure checks from the probing.
pub fn assess(b: &mut Builder, facts: &EvmFacts, allow: Option<&AllowlistEntry>) {
    let probing = match &facts.probing {
        Ok(p) => p,
        Err(reason) => {
            for id in POWERS
                .iter()
                .map(|p| p.check())
                .chain([CheckId::HiddenOwner, CheckId::ValueTaken])
            {
                b.unknown(
                    id,
                    format!("privileged functions were not probed: {reason}"),
                );
            }
            return;
        }
    };
    // Powers exercised by a role other than anyone while owner() reports none.
    // Renounced: owner() answers the zero or dead address (no owner() at all is not a renouncement).
    let renounced = matches!(facts.owner, OwnerFact::Address(_)) && facts.owner.active().is_none();
    let mut hidden: Vec<(String, &Role)> = Vec::new();
    let decimals = facts.decimals.unwrap_or(18);
    // Each role's follow-ups as calls of their own ("wipe after freeze").
    let follow_ups: Vec<Vec<(Candidate, &Effect)>> = (probing.results.iter())
        .map(|result| match result {
            Ok(probed) => (probed.follow_ups.iter())
                .filter_map(|(first, main, effect)| {
                    let (first, main) = (
                        probing.candidates.get(*first)?,
                        probing.candidates.get(*main)?,
                    );
                    let candidate = Candidate {
                        function: format!("{} right after {}", main.function, first.function),
                        names_pair: main.names_pair || first.names_pair,
                        follow_up: true,
                        ..main.clone()
                    };
                    Some((candidate, effect))
                })
                .collect(),
            Err(_) => Vec::new(),
        })
        .collect();
    for power in POWERS {
        let mut best: Option<Exercised> = None;
        let mut functions: Vec<String> = Vec::new();
        let mut gaps: Vec<String> = Vec::new();
        if !probing.untried.is_empty() {
            gaps.push(format!(
                "{} of the code's functions were not probed (past the budget of {} calls per role): {}",
                probing.untried.len(),
                crate::simulation::probe::PER_ROLE,
                probing.untried.join(", ")
            ));
        }
        for ((role, result), follow_ups) in
            probing.roles.iter().zip(&probing.results).zip(&follow_ups)
        {
            let probed = match result {
                Ok(p) => p,
                Err(reason) => {
                    gaps.push(format!("as {}: {reason}", role.names.join("/")));
                    continue;
                }
            };
            if power.needs_trading() && !trades(&probed.baseline.buyer) {
                gaps.push("no fresh wallet could buy, transfer and sell before a call, so effects on trading could not be seen".into());
            }
            if probed.effects.iter().any(|e| !observed(e)) {
                gaps.push(format!(
                    "as {}: some calls' effects could not be observed (the probe ran out of gas, or a read of the token failed after the call)",
                    role.names.join("/")
                ));
            }
            let nothing_held = probed.before.victim.is_zero() && probed.before.pair.is_zero();
            if matches!(power, Power::SeizeBalance | Power::BurnFromOthers) && nothing_held {
                gaps.push("no holder or pool held tokens to take or burn during the probe (no pool to buy from)".into());
            }
            // Only a mint has a bound.
            let bounded = match power {
                Power::Mint => bounded_functions(probing, probed),
                _ => Vec::new(),
            };
            let calls = (probing.candidates.iter().zip(&probed.effects))
                .chain(follow_ups.iter().map(|(c, e)| (c, *e)));
            for (candidate, effect) in calls {
                for (p, fee) in classify(probed, candidate, effect, role.address) {
                    // A follow-up's effect on trading (a holder or a buyer
                    // blocked, a fee) is its first call's doing, which that
                    // call alone shows; a follow-up shows what the first
                    // call unlocks in balances (a wipe, a claim's mint).
                    if p != power || (candidate.follow_up && p.needs_trading()) {
                        continue;
                    }
                    let bounded = bounded.contains(&candidate.selector);
                    if !functions.contains(&candidate.function) {
                        functions.push(candidate.function.clone());
                    }
                    let strength = |role: &Role, fee: f64, bounded: bool| {
                        weighed(power, fee, bounded, role.control).3
                    };
                    if best.as_ref().is_none_or(|x| {
                        strength(role, fee, bounded) > strength(x.role, x.fee, x.bounded)
                    }) {
                        best = Some(Exercised {
                            role,
                            candidate,
                            effect,
                            before: &probed.before,
                            fee,
                            bounded,
                        });
                    }
                }
            }
        }
        if power == Power::ReclaimOwnership && facts.index.creator.is_none() {
            gaps.push("the creator is not known (the holder index does not reach the first mint), so it could not be probed".into());
        }
        let Some(found) = best else {
            match gaps.first() {
                Some(gap) => b.unknown(power.check(), gap.clone()),
                None => b.clear(power.check()),
            }
            continue;
        };
        // owner() says renounced, yet a role (the creator, an AccessControl member) exercises a power.
        if renounced && found.role.control != Control::Anyone {
            hidden.push((found.candidate.function.clone(), found.role));
        }
        let (title, category, severity, weight) =
            weighed(power, found.fee, found.bounded, found.role.control);
        let (after, before) = (&found.effect.after_, found.before);
        let amount = |v: U256| units(v, decimals);
        let raw = json!({
            "functions": functions,
            "role": addr(&found.role.address),
            "role_names": found.role.names,
            "control": found.role.control.raw(),
            "selector": format!("0x{}", hex::encode(found.candidate.selector)),
            "calldata": found.candidate.data,
            "before": {"supply": amount(before.supply), "victim": amount(before.victim), "pool": amount(before.pair), "owner": before.ownerOk.then(|| addr(&before.owner))},
            "after": {"supply": amount(after.supply), "victim": amount(after.victim), "pool": amount(after.pair), "owner": after.ownerOk.then(|| addr(&after.owner))},
            "victim_can_transfer": found.effect.victimTransferOk,
            "victim_can_sell": found.effect.victimSellOk,
            "fresh_buyer_trades": trades(&found.effect.buyer),
            "fee_reached": (found.fee > 0.0).then_some(found.fee),
            "bounded": (power == Power::Mint).then_some(found.bounded),
        });
        let what = effect_words(power, &found, decimals);
        let rpc = format!(
            "eth_call probe({}) with the probe contract at {} by state override",
            found.candidate.function,
            addr(&found.role.address)
        );
        let bound = if power == Power::Mint && found.bounded {
            " The code bounds it: a mint of a twentieth of the supply was refused, and the same mint again at once minted nothing."
        } else {
            ""
        };
        let detail = format!(
            "Calling {} as {} {what}.{bound}",
            found.candidate.function,
            found.role.describe()
        );
        match allow {
            Some(entry) if power.issuer_power() => b.detected(
                power.check(),
                category,
                Severity::Info,
                0.0,
                title,
                format!(
                    "{detail} {} is an allow-listed issuer: {}.",
                    entry.issuer, entry.reason
                ),
                &rpc,
                raw,
            ),
            _ => b.detected(
                power.check(),
                category,
                severity,
                weight,
                title,
                detail,
                &rpc,
                raw,
            ),
        }
    }
    value::assess(b, probing, decimals);
    match hidden.first() {
        Some((function, role)) if renounced => b.detected(
            CheckId::HiddenOwner,
            SignalCategory::Ownership,
            Severity::High,
            0.35,
            "Hidden owner",
            format!(
                "owner() reports no owner, yet {} can still call {function} with effect: {} power(s) remain with it.",
                role.describe(),
                hidden.len()
            ),
            "eth_call owner() via Multicall3; eth_call probe() with the probe contract at the role's address",
            json!({"role": addr(&role.address), "role_names": role.names, "functions": hidden.iter().map(|(f, _)| f).collect::<Vec<_>>()}),
        ),
        _ if !renounced => b.clear(CheckId::HiddenOwner),
        _ if facts.index.creator.is_none() => b.unknown(
            CheckId::HiddenOwner,
            "the creator is not known (the holder index does not reach the first mint), so it could not be probed",
        ),
        _ if probing.results.iter().any(Result::is_err) => {
            b.unknown(CheckId::HiddenOwner, "a role could not be probed")
        }
        _ => b.clear(CheckId::HiddenOwner),
    }
}

/// Whether a privileged role (not anyone) bought and sold in its own simulated trade.
pub fn privileged_buy(facts: &EvmFacts) -> PrivilegedBuy {
    let probing = match &facts.probing {
        Ok(p) => p,
        Err(reason) => {
            return PrivilegedBuy::Unknown(format!(
                "the privileged roles could not be tried: {reason}"
            ))
        }
    };
    let mut gap = None;
    for (role, result) in probing
        .roles
        .iter()
        .zip(&probing.results)
        .filter(|(r, _)| r.control != Control::Anyone)
    {
        match result {
            Ok(p)
                if p.role_trade.buyOk
                    && !p.role_trade.received.is_zero()
                    && p.role_trade.sellOk =>
            {
                return PrivilegedBuy::Passed(role.describe())
            }
            Ok(_) => {}
            Err(reason) => {
                gap = Some(format!(
                    "the {} could not be tried: {reason}",
                    role.names.join(" and ")
                ))
            }
        }
    }
    gap.map_or(PrivilegedBuy::Failed, PrivilegedBuy::Unknown)
}
