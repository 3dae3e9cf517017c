//! What every instance keeps current about disputes, once a second: the
//! overrides in memory (whoever set them: another instance, the command
//! line), the end of those whose time is up (one alert across instances),
//! and the metrics of reports and overrides.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use riskintel_api::{ReportKind, ReportStatus, WireName as _};

use super::{overrides, DisputeError};
use riskintel_analysis::overrides::Overrides;
use riskintel_store::clock::Clock;
use riskintel_store::Store;

/// How often the overrides are read.
pub const EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// The report counts are read every this many rounds.
const COUNTS_EVERY: u64 = 5;

/// One instance's view of the disputes.
pub struct DisputeSync {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    overrides: Arc<Overrides>,
    rounds: AtomicU64,
}

impl DisputeSync {
    /// Keep `overrides` current from `store`.
    pub fn new(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        overrides: Arc<Overrides>,
    ) -> DisputeSync {
        DisputeSync {
            store,
            clock,
            overrides,
            rounds: AtomicU64::new(0),
        }
    }

    /// Read the overrides, end those whose time is up, and record the metrics.
    pub async fn round(&self) -> Result<(), DisputeError> {
        let rows = self.overrides.refresh(self.store.as_ref()).await?;
        let now = self.clock.now();
        let ended: Vec<_> = rows.into_iter().filter(|o| !o.in_force(now)).collect();
        if !ended.is_empty() {
            for row in ended {
                overrides::expire(&self.store, &self.clock, row).await?;
            }
            self.overrides.refresh(self.store.as_ref()).await?;
        }
        crate::telemetry::overrides_in_force(self.overrides.in_force());
        if self.rounds.fetch_add(1, Ordering::Relaxed) % COUNTS_EVERY == 0 {
            let counts = self.store.report_counts().await?;
            // Every pair, those with no report at 0 (a status emptied by answers included).
            for kind in ReportKind::VARIANTS {
                for status in ReportStatus::VARIANTS {
                    let count = counts
                        .iter()
                        .find(|(k, s, _)| k == kind && s == status)
                        .map_or(0, |(_, _, n)| (*n).max(0) as u64);
                    crate::telemetry::reports(*kind, *status, count);
                }
            }
        }
        Ok(())
    }
}
