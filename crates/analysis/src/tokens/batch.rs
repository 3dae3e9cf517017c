//! Batch analysis: the distinct tokens of a list analysed at once, through
//! the same cache and analyses under way as single requests, within one
//! deadline, answered in the order asked.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::time::{timeout_at, Instant};

use super::engine::{Analysed, Analyzer};
use super::{AnalysisError, Target};

impl Analyzer {
    /// The analysis of each `(chain, address)` of `items`, in order. A token
    /// named twice is analysed once; what is not done by the analysis
    /// deadline (counted from now, for the whole list) answers as past it.
    pub async fn analysed_batch<'a>(
        self: &Arc<Self>,
        items: impl IntoIterator<Item = (&'a str, &'a str)>,
        fresh: bool,
    ) -> Vec<Result<Analysed, AnalysisError>> {
        let targets: Vec<Result<Target, AnalysisError>> = items
            .into_iter()
            .map(|(chain, address)| {
                let chain = riskintel_chains::chain_from_id(chain)?;
                self.target(chain, address)
            })
            .collect();
        let mut distinct = Vec::new();
        let mut index: HashMap<Target, usize> = HashMap::new();
        for target in targets.iter().flatten() {
            index.entry(*target).or_insert_with(|| {
                distinct.push(*target);
                distinct.len() - 1
            });
        }
        let deadline = Instant::now() + self.deadline();
        let answers = futures::future::join_all(distinct.iter().map(|target| async move {
            timeout_at(deadline, self.analysed(*target, fresh))
                .await
                .unwrap_or_else(|_| Err(AnalysisError::past_deadline("the batch", self.deadline())))
        }))
        .await;
        targets
            .into_iter()
            .map(|target| answers[index[&target?]].clone())
            .collect()
    }
}
