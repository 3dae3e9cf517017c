//! The analysis cache (and the stale fallback): the latest analysis of
//! each token, as its JSON.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{SqlStore, StoreError};
use crate::on_db;

/// A cached analysis.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AnalysisRow {
    /// The analysis as JSON.
    pub result: String,
    /// When it was made.
    pub analysed_at: DateTime<Utc>,
}

/// The analysis cache.
#[async_trait]
pub trait AnalysisStore {
    /// The cached analysis of a token.
    async fn analysis_get(
        &self,
        chain: &str,
        address: &str,
    ) -> Result<Option<AnalysisRow>, StoreError>;
    /// Store an analysis, replacing the previous one.
    async fn analysis_put(
        &self,
        chain: &str,
        address: &str,
        result: &str,
        analysed_at: DateTime<Utc>,
    ) -> Result<(), StoreError>;
}

#[async_trait]
impl AnalysisStore for SqlStore {
    async fn analysis_get(
        &self,
        chain: &str,
        address: &str,
    ) -> Result<Option<AnalysisRow>, StoreError> {
        Ok(
            on_db!(self.pool(), p => sqlx::query_as("SELECT result, analysed_at FROM token_analyses WHERE chain = $1 AND address = $2")
            .bind(chain)
            .bind(address)
            .fetch_optional(p)
            .await)?,
        )
    }

    async fn analysis_put(
        &self,
        chain: &str,
        address: &str,
        result: &str,
        analysed_at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query(
            "INSERT INTO token_analyses (chain, address, result, analysed_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (chain, address) DO UPDATE SET result = $3, analysed_at = $4",
        )
        .bind(chain)
        .bind(address)
        .bind(result)
        .bind(analysed_at)
        .execute(p)
        .await
        .map(|_| ()))?;
        Ok(())
    }
}
