//! The series the analysis floor records, through the `metrics` facade
//! (the server installs the recorder and describes every series first).

use std::sync::OnceLock;

/// `riskintel_analysis_cache_total{outcome}`.
pub const ANALYSIS_CACHE: &str = "riskintel_analysis_cache_total";

/// The outcome of asking for a token's analysis.
#[derive(Clone, Copy, Debug)]
pub enum CacheOutcome {
    /// Served from this instance's memory.
    MemoryHit,
    /// Served from the shared store.
    StoreHit,
    /// Analysed now.
    Miss,
    /// Joined the same analysis under way.
    Joined,
    /// An earlier result, the chain being down.
    Stale,
}

/// A token analysis asked for.
pub fn analysis(outcome: CacheOutcome) {
    static COUNTERS: OnceLock<[metrics::Counter; 5]> = OnceLock::new();
    let counters = COUNTERS.get_or_init(|| {
        ["memory_hit", "store_hit", "miss", "joined", "stale"]
            .map(|outcome| metrics::counter!(ANALYSIS_CACHE, "outcome" => outcome))
    });
    counters[outcome as usize].increment(1);
}
