//! The analysis cache (and the stale fallback): the latest analysis of
//! each token, as its JSON.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use riskintel_types::ChainId;

use super::{SqlStore, StoreError};
use crate::db::on_db;

/// A cached analysis.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AnalysisRow {
    /// The analysis as JSON.
    pub result: String,
    /// When it was made.
    pub analysed_at: DateTime<Utc>,
}

/// Another token of the same creator.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct CreatorToken {
    /// Its address (lower-case hex).
    pub token: String,
    /// Its latest analysis as JSON, when it was analysed.
    pub result: Option<String>,
    /// Its `honeypot_detected` and `liquidity_removed` alerts.
    pub alerts: i64,
}

/// The analysis cache.
#[async_trait]
pub trait AnalysisStore {
    /// The cached analysis of a token.
    async fn analysis_get(
        &self,
        chain: ChainId,
        address: &str,
    ) -> Result<Option<AnalysisRow>, StoreError>;
    /// Other tokens whose holder index names `creator` as the first mint's
    /// recipient (all but `except`, lower-case addresses, at most `limit`),
    /// each with its latest analysis and how many of its alerts tell of a
    /// honeypot or of liquidity removed.
    async fn creator_tokens(
        &self,
        chain: ChainId,
        creator: &str,
        except: &str,
        limit: i64,
    ) -> Result<Vec<CreatorToken>, StoreError>;
    /// Store an analysis, replacing the previous one.
    async fn analysis_put(
        &self,
        chain: ChainId,
        address: &str,
        result: &str,
        analysed_at: DateTime<Utc>,
    ) -> Result<(), StoreError>;
}

#[async_trait]
impl AnalysisStore for SqlStore {
    async fn analysis_get(
        &self,
        chain: ChainId,
        address: &str,
    ) -> Result<Option<AnalysisRow>, StoreError> {
        Ok(
            on_db!(self.pool(), p => sqlx::query_as("SELECT result, analysed_at FROM token_analyses WHERE chain = $1 AND address = $2")
            .bind(chain.id())
            .bind(address)
            .fetch_optional(p)
            .await)?,
        )
    }

    async fn creator_tokens(
        &self,
        chain: ChainId,
        creator: &str,
        except: &str,
        limit: i64,
    ) -> Result<Vec<CreatorToken>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT l.subject AS token, a.result AS result, \
             (SELECT COUNT(*) FROM alerts x WHERE x.chain = l.chain AND LOWER(x.token) = l.subject \
              AND x.kind IN ('honeypot_detected', 'liquidity_removed')) AS alerts \
             FROM log_indexes l LEFT JOIN token_analyses a ON a.chain = l.chain AND LOWER(a.address) = l.subject \
             WHERE l.chain = $1 AND l.kind = 'holders' AND l.first_party = $2 AND l.subject <> $3 \
             ORDER BY l.subject LIMIT $4",
        )
        .bind(chain.id())
        .bind(creator)
        .bind(except)
        .bind(limit)
        .fetch_all(p)
        .await)?)
    }

    async fn analysis_put(
        &self,
        chain: ChainId,
        address: &str,
        result: &str,
        analysed_at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query(
            "INSERT INTO token_analyses (chain, address, result, analysed_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (chain, address) DO UPDATE SET result = $3, analysed_at = $4",
        )
        .bind(chain.id())
        .bind(address)
        .bind(result)
        .bind(analysed_at)
        .execute(p)
        .await
        .map(|_| ()))?;
        Ok(())
    }
}
