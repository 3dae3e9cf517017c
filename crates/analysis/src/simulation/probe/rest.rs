//! The calls a first probe left unrun, probed again in a round of their
//! own. A run gets the gas its trades need (`runNeed` in the probe): a
//! token whose every transfer pays out dividends or swaps its fees needs
//! millions per run, more than one `eth_call` holds for all of a role's
//! calls. Those calls go again, in as few per `eth_call` as fit, within a
//! budget of `eth_call`s for the analysis; the roles come in their order
//! (the owner first), and what still does not fit stays unobserved.

use riskintel_chains::rpc::{Answers, Batch, Slot};

use super::{report, Probed, CALL_GAS, PER_CALL, RESERVE_GAS};
use alloy_primitives::Bytes;

/// `eth_call`s of this round, at most, over every role.
const MOST_CALLS: usize = 24;

/// The calls of one role sent again: each `eth_call` and the candidates it carries.
pub struct Pending {
    role: usize,
    slots: Vec<(Slot<Bytes>, Vec<usize>)>,
}

/// How many runs of `run_gas` one `eth_call` holds besides what each
/// makes first: the victim's buy and the role's trade (together about
/// three eighths of a run) and the baseline (a run), with a margin of a
/// twentieth; at least one.
fn per_call(run_gas: u64) -> usize {
    let usable = (CALL_GAS - RESERVE_GAS) as f64 * 0.95;
    let runs = usable / run_gas.max(1) as f64 - 1.375;
    (runs.max(1.0) as usize).min(PER_CALL)
}

/// Add to `batch` the calls each probed role left unrun; nothing when none did.
pub fn plan(results: &mut [Result<Probed, String>], batch: &mut Batch) -> Vec<Pending> {
    let mut budget = MOST_CALLS;
    let mut pending = Vec::new();
    for (role, probed) in results.iter_mut().enumerate() {
        let Ok(probed) = probed else { continue };
        let Some((request, calls)) = &probed.unrun.request else {
            continue;
        };
        let per = per_call(probed.unrun.run_gas);
        // Every function's first pattern before any function's second.
        probed.unrun.indices.sort_unstable();
        let mut slots = Vec::new();
        for chunk in probed.unrun.indices.chunks(per).take(budget) {
            let data = chunk.iter().map(|i| calls[*i].clone()).collect();
            slots.push((request.send(data, batch), chunk.to_vec()));
        }
        budget -= slots.len();
        // What is sent is no longer unrun until its answer says so.
        let sent: Vec<usize> = slots.iter().flat_map(|(_, c)| c.iter().copied()).collect();
        probed.unrun.indices.retain(|i| !sent.contains(i));
        if !slots.is_empty() {
            pending.push(Pending { role, slots });
        }
        if budget == 0 {
            break;
        }
    }
    pending
}

/// Put the answers of `pending` in their roles' effects; a call whose
/// answer failed stays unobserved.
pub fn take(pending: Vec<Pending>, answers: &mut Answers, results: &mut [Result<Probed, String>]) {
    for p in pending {
        let Some(Ok(probed)) = results.get_mut(p.role) else {
            continue;
        };
        for (slot, indices) in p.slots {
            match report(answers.take(slot).map_err(|e| e.to_string()), indices.len()) {
                Ok(report) => probed.place(report, &indices),
                Err(_) => probed.unrun.indices.extend(indices),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heavier_run_gets_fewer_calls_per_eth_call() {
        // A plain token's runs fit in full; dividend payers' in a few.
        assert_eq!(per_call(1_000_000), PER_CALL);
        assert_eq!(per_call(8_400_000), 3);
        assert_eq!(per_call(10_600_000), 2);
        assert_eq!(per_call(15_000_000), 1);
        assert_eq!(per_call(60_000_000), 1);
    }
}
