//! How a role's candidate calls are cut into `eth_call`s. Each run of
//! the probe gets the gas its trades need (`runNeed` in the probe): a
//! token whose every transfer pays out dividends or swaps its fees needs
//! millions per run, more than one `eth_call` holds for 24 calls. The
//! trade simulation (a round earlier) measured a fresh wallet's buy and
//! sell; from it, as many calls go per `eth_call` as runs fit, within a
//! budget of `eth_call`s for the analysis where that is few per call.

use super::{CALL_GAS, PER_CALL, RESERVE_GAS};

/// `eth_call`s over all roles, at most, where runs are heavy (`per_call`):
/// the roles come in their order, the owner first.
const MOST_CALLS: usize = 24;
/// Gas of a run besides its trades (`RUN_BASE_GAS` in the probe).
const RUN_BASE_GAS: u64 = 300_000;
const MAX_RUN_GAS: u64 = 15_000_000;

/// The gas one run needs (`runNeed` in the probe), from a fresh wallet's
/// buy and sell as the trade simulation measured them (0: not measured).
fn run_need(trade_gas: u64) -> u64 {
    (4 * trade_gas + RUN_BASE_GAS).min(MAX_RUN_GAS)
}

/// How a token's candidates are cut into `eth_call`s: as many per call as
/// runs fit, and, where that is fewer than [`PER_CALL`], within a budget
/// of [`MOST_CALLS`] for the analysis.
#[derive(Clone, Copy, Debug)]
pub struct Sizing {
    per: usize,
    budget: Option<usize>,
}

impl Sizing {
    /// For runs of a token whose fresh wallet's buy and sell cost
    /// `trade_gas` (the trade simulation's measure; 0 when none).
    pub fn new(trade_gas: u64) -> Sizing {
        let per = per_call(run_need(trade_gas));
        let budget = (per < PER_CALL).then_some(MOST_CALLS);
        Sizing { per, budget }
    }

    /// The chunks of `indices` to send (at least one `eth_call`, even empty).
    pub(super) fn chunks<'a>(&mut self, indices: &'a [usize]) -> Vec<&'a [usize]> {
        if indices.is_empty() {
            return vec![&[]];
        }
        let mut chunks: Vec<&[usize]> = indices.chunks(self.per).collect();
        if let Some(budget) = &mut self.budget {
            chunks.truncate((*budget).max(1));
            *budget = budget.saturating_sub(chunks.len());
        }
        chunks
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heavier_run_gets_fewer_calls_per_eth_call() {
        // A plain token's runs fit in full; dividend payers' in a few.
        assert_eq!(per_call(run_need(0)), PER_CALL);
        assert_eq!(per_call(run_need(250_000)), PER_CALL);
        assert_eq!(per_call(run_need(2_025_000)), 3);
        assert_eq!(per_call(run_need(2_575_000)), 2);
        assert_eq!(per_call(run_need(10_000_000)), 1);
    }

    #[test]
    fn heavy_runs_share_one_budget_of_eth_calls_across_roles() {
        let indices: Vec<usize> = (0..96).collect();
        let mut plain = Sizing::new(250_000);
        for _ in 0..5 {
            assert_eq!(plain.chunks(&indices).len(), 4);
        }
        let mut heavy = Sizing::new(2_025_000);
        let first = heavy.chunks(&indices);
        assert_eq!((first.len(), first[0].len()), (MOST_CALLS, 3));
        // The next role still gets one call: its baseline and first calls.
        assert_eq!(heavy.chunks(&indices).len(), 1);
    }
}
