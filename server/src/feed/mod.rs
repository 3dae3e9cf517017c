//! The risk-alert feed: alerts raised from what changed between analyses
//! (`alerts`), listed newest first with stable pages. HTTP-agnostic.

pub mod alerts;
pub mod powers;

use std::sync::Arc;

use riskintel_api::{Alert, AlertFilter};

use riskintel_analysis::tokens::AnalysisError;
use riskintel_store::{AlertQuery, Store};

/// The feed over the stored alerts.
#[derive(Clone)]
pub struct Feed {
    store: Arc<dyn Store>,
}

impl Feed {
    /// The feed of `store`'s alerts.
    pub fn new(store: Arc<dyn Store>) -> Feed {
        Feed { store }
    }

    /// A page of the alert feed, newest first, after `before_id`.
    pub async fn page(
        &self,
        filter: &AlertFilter,
        before_id: Option<i64>,
        limit: usize,
    ) -> Result<Vec<(Alert, i64)>, AnalysisError> {
        let chain = (filter.chain.as_deref())
            .map(riskintel_chains::chain_from_id)
            .transpose()?;
        let query = AlertQuery {
            chain,
            min_rank: filter.min_severity.map_or(0, alerts::severity_rank),
            kind: filter.kind,
            // No alert is older than 1970, and no database need see a
            // time far outside its range.
            since: filter
                .since
                .map(|since| since.max(chrono::DateTime::UNIX_EPOCH)),
            before_id,
            limit: limit as i64,
        };
        Ok(self
            .store
            .alerts(&query)
            .await?
            .iter()
            .map(|r| (alerts::to_wire(r), r.id))
            .collect())
    }
}
