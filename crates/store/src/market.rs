//! The market index's state: tracked tokens and pairs, its cursor per
//! chain, and the swaps and liquidity history it read (stored with the
//! cursor's advance, in one transaction).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use riskintel_types::ChainId;
use riskintel_types::{text_column, wire_names};

use super::{SqlStore, StoreError};
use crate::db::on_db;

/// How a token came to be tracked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackedSource {
    /// The index saw its pair created.
    PairCreated,
    /// A user analysed it.
    Analysed,
}

wire_names!(TrackedSource { PairCreated = "pair_created", Analysed = "analysed" });
text_column!(TrackedSource);

/// Which way a swap went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Tokens bought from the pool.
    Buy,
    /// Tokens sold to the pool.
    Sell,
}

wire_names!(Side { Buy = "buy", Sell = "sell" });
text_column!(Side);

/// A token the market index watches.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct TrackedToken {
    /// Chain id.
    pub chain: ChainId,
    /// Token address (checksummed).
    pub token: String,
    /// How it came to be tracked.
    pub source: TrackedSource,
    /// Block it was first seen at.
    pub first_seen_block: i64,
    /// When it was added.
    pub added_at: DateTime<Utc>,
    /// When the index last analysed it.
    pub last_analysed_at: Option<DateTime<Utc>>,
}

/// A pair of a tracked token.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct TrackedPair {
    /// Chain id.
    pub chain: ChainId,
    /// Pair address (lower-case); a Uniswap V4 pool's id.
    pub pair: String,
    /// The tracked token (checksummed).
    pub token: String,
    /// The other token (lower-case).
    pub quote: String,
    /// DEX name.
    pub dex: String,
    /// Quote reserve (whole units) when last seen, the baseline for liquidity drops.
    pub reserve_quote: f64,
    /// A V3-style or V4 pool's fee, in hundredths of a basis point.
    pub fee: Option<i64>,
    /// A V4 pool's tick spacing.
    pub tick_spacing: Option<i64>,
    /// A V4 pool's hook (lower-case; the zero address when it has none);
    /// None for every other family.
    pub hooks: Option<String>,
}

/// A swap of a tracked pair.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct SwapRow {
    /// Chain id.
    pub chain: ChainId,
    /// Pair (lower-case).
    pub pair: String,
    /// Block.
    pub block: i64,
    /// Log index in the block.
    pub log_index: i64,
    /// Token traded (checksummed).
    pub token: String,
    /// Buyer or seller (lower-case).
    pub trader: String,
    /// Which way.
    pub side: Side,
    /// Tokens traded (whole units).
    pub amount_token: f64,
    /// Value in US dollars.
    pub amount_usd: f64,
    /// Price per token in US dollars.
    pub price_usd: f64,
    /// When the index saw it.
    pub observed_at: DateTime<Utc>,
}

/// A Sync of a tracked pair: its quote reserve at that log.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct SyncRow {
    /// Chain id.
    pub chain: ChainId,
    /// Pair (lower-case).
    pub pair: String,
    /// Block.
    pub block: i64,
    /// Log index in the block.
    pub log_index: i64,
    /// Quote reserve (whole units).
    pub reserve_quote: f64,
    /// When the index saw it.
    pub observed_at: DateTime<Utc>,
}

/// Where the index stands on a chain.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Cursor {
    /// The next block to read.
    pub next_block: i64,
    /// The hash of the last block read ('' after a rewind).
    pub last_hash: String,
}

/// The market index's tables.
#[async_trait]
pub trait MarketStore {
    /// Watch a token; true when it was not watched before.
    async fn tracked_token_add(&self, token: &TrackedToken) -> Result<bool, StoreError>;
    /// Watched tokens, of one chain or all.
    async fn tracked_tokens(&self, chain: Option<ChainId>)
        -> Result<Vec<TrackedToken>, StoreError>;
    /// Record that the index analysed a token.
    async fn tracked_token_analysed(
        &self,
        chain: ChainId,
        token: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError>;
    /// Watch a pair; when it is watched already without a liquidity
    /// baseline (it was just created), set the baseline.
    async fn tracked_pair_add(&self, pair: &TrackedPair) -> Result<(), StoreError>;
    /// Watched pairs of a chain.
    async fn tracked_pairs(&self, chain: ChainId) -> Result<Vec<TrackedPair>, StoreError>;
    /// Watched Uniswap V4 pools of one token (checksummed).
    async fn tracked_v4_pools(
        &self,
        chain: ChainId,
        token: &str,
    ) -> Result<Vec<TrackedPair>, StoreError>;
    /// Set a pair's liquidity baseline.
    async fn tracked_pair_reserve(
        &self,
        chain: ChainId,
        pair: &str,
        reserve_quote: f64,
    ) -> Result<(), StoreError>;
    /// The index's cursor on a chain.
    async fn cursor_get(&self, chain: ChainId, source: &str) -> Result<Option<Cursor>, StoreError>;
    /// Advance the cursor from `expected_next` (None: create) and store the
    /// swaps and syncs read, atomically; false when another indexer moved it first.
    #[allow(clippy::too_many_arguments)]
    async fn cursor_advance(
        &self,
        chain: ChainId,
        source: &str,
        expected_next: Option<i64>,
        next: i64,
        last_hash: &str,
        swaps: &[SwapRow],
        syncs: &[SyncRow],
    ) -> Result<bool, StoreError>;
    /// Rewind the cursor to `block` after a re-organisation, forgetting swaps and syncs from it on.
    async fn cursor_rewind(
        &self,
        chain: ChainId,
        source: &str,
        block: i64,
    ) -> Result<(), StoreError>;
    /// A pair's liquidity history (quote reserve per Sync) since `since`, oldest first.
    async fn liquidity_history(
        &self,
        chain: ChainId,
        pair: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<SyncRow>, StoreError>;
    /// Swaps of a token observed at or after `since`, oldest first.
    async fn swaps_since(
        &self,
        chain: ChainId,
        token: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<SwapRow>, StoreError>;
}

#[async_trait]
impl MarketStore for SqlStore {
    async fn tracked_token_add(&self, t: &TrackedToken) -> Result<bool, StoreError> {
        let done = on_db!(self.writer(), p => sqlx::query(
            "INSERT INTO tracked_tokens (chain, token, source, first_seen_block, added_at, last_analysed_at) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (chain, token) DO NOTHING",
        )
        .bind(&t.chain)
        .bind(&t.token)
        .bind(t.source)
        .bind(t.first_seen_block)
        .bind(t.added_at)
        .bind(t.last_analysed_at)
        .execute(p)
        .await
        .map(|d| d.rows_affected()))?;
        Ok(done == 1)
    }

    async fn tracked_tokens(
        &self,
        chain: Option<ChainId>,
    ) -> Result<Vec<TrackedToken>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT chain, token, source, first_seen_block, added_at, last_analysed_at FROM tracked_tokens \
             WHERE ($1 IS NULL OR chain = $1) ORDER BY chain, token",
        )
        .bind(chain.map(ChainId::id))
        .fetch_all(p)
        .await)?)
    }

    async fn tracked_token_analysed(
        &self,
        chain: ChainId,
        token: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query("UPDATE tracked_tokens SET last_analysed_at = $1 WHERE chain = $2 AND token = $3")
            .bind(at)
            .bind(chain.id())
            .bind(token)
            .execute(p)
            .await
            .map(|_| ()))?;
        Ok(())
    }

    async fn tracked_pair_add(&self, t: &TrackedPair) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query(
            "INSERT INTO tracked_pairs (chain, pair, token, quote, dex, reserve_quote, fee, tick_spacing, hooks) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             ON CONFLICT (chain, pair) DO UPDATE SET reserve_quote = $6 WHERE tracked_pairs.reserve_quote = 0",
        )
        .bind(&t.chain)
        .bind(&t.pair)
        .bind(&t.token)
        .bind(&t.quote)
        .bind(&t.dex)
        .bind(t.reserve_quote)
        .bind(t.fee)
        .bind(t.tick_spacing)
        .bind(&t.hooks)
        .execute(p)
        .await
        .map(|_| ()))?;
        Ok(())
    }

    async fn tracked_pairs(&self, chain: ChainId) -> Result<Vec<TrackedPair>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT chain, pair, token, quote, dex, reserve_quote, fee, tick_spacing, hooks FROM tracked_pairs \
             WHERE chain = $1 ORDER BY pair",
        )
        .bind(chain.id())
        .fetch_all(p)
        .await)?)
    }

    async fn tracked_v4_pools(
        &self,
        chain: ChainId,
        token: &str,
    ) -> Result<Vec<TrackedPair>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT chain, pair, token, quote, dex, reserve_quote, fee, tick_spacing, hooks FROM tracked_pairs \
             WHERE chain = $1 AND token = $2 AND hooks IS NOT NULL ORDER BY pair",
        )
        .bind(chain.id())
        .bind(token)
        .fetch_all(p)
        .await)?)
    }

    async fn tracked_pair_reserve(
        &self,
        chain: ChainId,
        pair: &str,
        reserve_quote: f64,
    ) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query("UPDATE tracked_pairs SET reserve_quote = $1 WHERE chain = $2 AND pair = $3")
            .bind(reserve_quote)
            .bind(chain.id())
            .bind(pair)
            .execute(p)
            .await
            .map(|_| ()))?;
        Ok(())
    }

    async fn cursor_get(&self, chain: ChainId, source: &str) -> Result<Option<Cursor>, StoreError> {
        Ok(
            on_db!(self.pool(), p => sqlx::query_as("SELECT next_block, last_hash FROM index_cursors WHERE chain = $1 AND source = $2")
            .bind(chain.id())
            .bind(source)
            .fetch_optional(p)
            .await)?,
        )
    }

    async fn cursor_advance(
        &self,
        chain: ChainId,
        source: &str,
        expected_next: Option<i64>,
        next: i64,
        last_hash: &str,
        swaps: &[SwapRow],
        syncs: &[SyncRow],
    ) -> Result<bool, StoreError> {
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            let claimed = match expected_next {
                None => sqlx::query(
                    "INSERT INTO index_cursors (chain, source, next_block, last_hash) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (chain, source) DO NOTHING",
                )
                .bind(chain.id())
                .bind(source)
                .bind(next)
                .bind(last_hash)
                .execute(&mut *tx)
                .await?,
                Some(expected) => sqlx::query(
                    "UPDATE index_cursors SET next_block = $1, last_hash = $2 WHERE chain = $3 AND source = $4 AND next_block = $5",
                )
                .bind(next)
                .bind(last_hash)
                .bind(chain.id())
                .bind(source)
                .bind(expected)
                .execute(&mut *tx)
                .await?,
            };
            if claimed.rows_affected() != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
            for w in swaps {
                sqlx::query(
                    "INSERT INTO swaps (chain, pair, block, log_index, token, trader, side, amount_token, amount_usd, price_usd, observed_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (chain, pair, block, log_index) DO NOTHING",
                )
                .bind(&w.chain)
                .bind(&w.pair)
                .bind(w.block)
                .bind(w.log_index)
                .bind(&w.token)
                .bind(&w.trader)
                .bind(w.side)
                .bind(w.amount_token)
                .bind(w.amount_usd)
                .bind(w.price_usd)
                .bind(w.observed_at)
                .execute(&mut *tx)
                .await?;
            }
            for y in syncs {
                sqlx::query(
                    "INSERT INTO liquidity_history (chain, pair, block, log_index, reserve_quote, observed_at) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (chain, pair, block, log_index) DO NOTHING",
                )
                .bind(&y.chain)
                .bind(&y.pair)
                .bind(y.block)
                .bind(y.log_index)
                .bind(y.reserve_quote)
                .bind(y.observed_at)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(true)
    }

    async fn cursor_rewind(
        &self,
        chain: ChainId,
        source: &str,
        block: i64,
    ) -> Result<(), StoreError> {
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            sqlx::query("UPDATE index_cursors SET next_block = $1, last_hash = '' WHERE chain = $2 AND source = $3 AND next_block > $1")
                .bind(block)
                .bind(chain.id())
                .bind(source)
                .execute(&mut *tx)
                .await?;
            for sql in ["DELETE FROM swaps WHERE chain = $1 AND block >= $2", "DELETE FROM liquidity_history WHERE chain = $1 AND block >= $2"] {
                sqlx::query(sql).bind(chain.id()).bind(block).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    async fn liquidity_history(
        &self,
        chain: ChainId,
        pair: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<SyncRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT chain, pair, block, log_index, reserve_quote, observed_at FROM liquidity_history \
             WHERE chain = $1 AND pair = $2 AND observed_at >= $3 ORDER BY block, log_index",
        )
        .bind(chain.id())
        .bind(pair)
        .bind(since)
        .fetch_all(p)
        .await)?)
    }

    async fn swaps_since(
        &self,
        chain: ChainId,
        token: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<SwapRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT chain, pair, block, log_index, token, trader, side, amount_token, amount_usd, price_usd, observed_at \
             FROM swaps WHERE chain = $1 AND token = $2 AND observed_at >= $3 ORDER BY block, log_index",
        )
        .bind(chain.id())
        .bind(token)
        .bind(since)
        .fetch_all(p)
        .await)?)
    }
}
