//! The market index's lag behind a chain's head, as its last poll saw it:
//! blocks on EVM chains, slots on Solana.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::Chain;

/// Not polled yet.
const UNSET: u64 = u64::MAX;

/// One chain's index lag, shared by the index (which sets it) and the
/// views that show it.
pub struct IndexLag(AtomicU64);

impl Default for IndexLag {
    fn default() -> Self {
        IndexLag(AtomicU64::new(UNSET))
    }
}

impl IndexLag {
    /// The lag at the last poll; None before the first.
    pub fn get(&self) -> Option<u64> {
        let lag = self.0.load(Ordering::Relaxed);
        (lag != UNSET).then_some(lag)
    }

    /// Record the lag of `chain`'s poll (and its metric).
    pub fn set(&self, chain: Chain, units: u64) {
        crate::metrics::index_lag(chain, units);
        self.0.store(units.min(UNSET - 1), Ordering::Relaxed);
    }
}
