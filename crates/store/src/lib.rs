//! Storage, one module per concern — accounts and keys, usage, the
//! analysis cache, log indexes, the market index, alerts, webhooks and their
//! outbox, disputes, the leases of jobs one instance is enough for, and the
//! sanctions lists with the reads address screening builds on —
//! each a trait with typed rows. [`Store`] is all of them; [`SqlStore`] implements them
//! on SQLite or PostgreSQL (chosen by the URL's scheme) with the same SQL,
//! against schemas kept in `migrations/{sqlite,postgres}`.

pub mod accounts;
pub mod alerts;
pub mod analyses;
pub mod clock;
pub mod db;
pub mod disputes;
mod error;
pub mod leases;
pub mod log_indexes;
pub mod market;
pub mod outbox;
pub mod screening;
pub mod usage;
pub mod webhooks;

use std::sync::Arc;

use async_trait::async_trait;

pub use accounts::{Account, AccountStore, KeyRecord, KeyWithAccount, Revocation};
pub use alerts::{AlertQuery, AlertRow, AlertStore};
pub use analyses::{AnalysisRow, AnalysisStore, CreatorToken};
pub use disputes::{DisputeStore, OverrideRow, ReportRefusal, ReportRow};
pub use leases::{LeaseRow, LeaseStore};
pub use log_indexes::{
    ContactKind, HolderBalance, LogIndexKind, LogIndexState, LogIndexStore, RoleMember,
    WalletContact,
};
pub use market::{
    Cursor, MarketStore, Side, SwapRow, SyncRow, TrackedPair, TrackedSource, TrackedToken,
};
pub use outbox::{Attempt, EventRow, OutboxStore, Outcome};
pub use screening::{
    AnalysedKey, AnalysedToken, RemovedLiquidity, ScreeningEntryRow, ScreeningListRow,
    ScreeningStore, SpentApprovals,
};
pub use usage::UsageStore;
pub use webhooks::{SubscriptionRow, WebhookStore};

use crate::db::on_db;
pub use db::Timeouts;
use db::{Db, Pools};
pub use error::StoreError;

/// Persistent state of the service: every concern's store.
#[async_trait]
pub trait Store:
    AccountStore
    + UsageStore
    + AnalysisStore
    + LogIndexStore
    + MarketStore
    + AlertStore
    + WebhookStore
    + OutboxStore
    + DisputeStore
    + LeaseStore
    + ScreeningStore
    + Send
    + Sync
    + 'static
{
    /// `sqlite` or `postgres`.
    fn backend(&self) -> &'static str;
    /// Apply pending migrations.
    async fn migrate(&self) -> Result<(), StoreError>;
    /// A trivial round trip, for health checks.
    async fn ping(&self) -> Result<(), StoreError>;
    /// Close the pools, flushing what SQLite still holds in its write-ahead log.
    async fn close(&self);
    /// PostgreSQL: a connection listening on `riskintel_auth`, where every
    /// change to the auth version is announced; None on SQLite.
    async fn auth_listener(&self) -> Result<Option<sqlx::postgres::PgListener>, StoreError>;
}

/// The store on SQLite or PostgreSQL.
pub struct SqlStore {
    pools: Pools,
}

impl SqlStore {
    fn pool(&self) -> &Db {
        &self.pools.pool
    }

    fn writer(&self) -> &Db {
        &self.pools.writer
    }

    /// The pool for reads (schema checks in tests).
    pub fn db(&self) -> &Db {
        &self.pools.pool
    }
}

#[async_trait]
impl Store for SqlStore {
    fn backend(&self) -> &'static str {
        self.pools.backend()
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        self.pools.migrate().await
    }

    async fn ping(&self) -> Result<(), StoreError> {
        on_db!(self.pool(), p => sqlx::query("SELECT 1").execute(p).await.map(|_| ()))?;
        Ok(())
    }

    async fn close(&self) {
        self.pools.close().await;
    }

    async fn auth_listener(&self) -> Result<Option<sqlx::postgres::PgListener>, StoreError> {
        let db::Db::Postgres(pool) = self.pool() else {
            return Ok(None);
        };
        let mut listener = sqlx::postgres::PgListener::connect_with(pool).await?;
        listener.listen("riskintel_auth").await?;
        Ok(Some(listener))
    }
}

/// Open the store a URL names (`sqlite://path`, `sqlite::memory:`,
/// `postgres://…`) without migrating it.
pub async fn connect(url: &str) -> Result<SqlStore, StoreError> {
    connect_with(url, Timeouts::default()).await
}

/// [`connect`] with these timeouts.
pub async fn connect_with(url: &str, timeouts: Timeouts) -> Result<SqlStore, StoreError> {
    let pools = if url.starts_with("sqlite:") {
        Pools::sqlite(url, timeouts).await?
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Pools::postgres(url, timeouts).await?
    } else {
        return Err(StoreError::UnsupportedUrl(url.to_string()));
    };
    Ok(SqlStore { pools })
}

/// Open the store a URL names and bring its schema up to date.
pub async fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    open_with(url, Timeouts::default()).await
}

/// [`open`] with these timeouts.
pub async fn open_with(url: &str, timeouts: Timeouts) -> Result<Arc<dyn Store>, StoreError> {
    let store = connect_with(url, timeouts).await?;
    store.migrate().await?;
    Ok(Arc::new(store))
}
