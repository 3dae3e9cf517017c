//! Storage, one module per concern — accounts and keys, usage, the
//! analysis cache, log indexes, the market index, alerts, webhooks and their outbox —
//! each a trait with typed rows. [`Store`] is all of them; [`SqlStore`] implements them
//! on SQLite or PostgreSQL (chosen by the URL's scheme) with the same SQL,
//! against schemas kept in `migrations/{sqlite,postgres}`.

pub mod accounts;
pub mod alerts;
pub mod analyses;
pub mod clock;
pub mod db;
pub mod log_indexes;
pub mod market;
pub mod outbox;
pub mod usage;
pub mod webhooks;
pub mod wire;

use std::sync::Arc;

use async_trait::async_trait;

pub use accounts::{Account, AccountStore, KeyRecord, KeyWithAccount, Revocation};
pub use alerts::{AlertQuery, AlertRow, AlertStore};
pub use analyses::{AnalysisRow, AnalysisStore, CreatorToken};
pub use log_indexes::{
    ContactKind, HolderBalance, LogIndexKind, LogIndexState, LogIndexStore, RoleMember,
    WalletContact,
};
pub use market::{
    Cursor, MarketStore, Side, SwapRow, SyncRow, TrackedPair, TrackedSource, TrackedToken,
};
pub use outbox::{Attempt, EventRow, OutboxStore, Outcome};
pub use usage::UsageStore;
pub use webhooks::{SubscriptionRow, WebhookStore};

use crate::db::on_db;
pub use db::Timeouts;
use db::{Db, Pools};

/// What can go wrong in storage.
#[derive(Clone, Debug, thiserror::Error)]
pub enum StoreError {
    /// A uniqueness rule was broken (the one place unique violations are recognised).
    #[error("already exists: {0}")]
    Conflict(String),
    /// The database URL is not one we support.
    #[error("unsupported database URL {0:?}: use sqlite://PATH or postgres://…")]
    UnsupportedUrl(String),
    /// The database could not be reached or timed out.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// Any other database failure.
    #[error("database error: {0}")]
    Database(String),
    /// A stored value could not be understood.
    #[error("corrupt stored value: {0}")]
    Corrupt(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> Self {
        match &error {
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                StoreError::Conflict(db.message().to_string())
            }
            sqlx::Error::Database(db) if is_outage(db.as_ref()) => {
                StoreError::Unavailable(error.to_string())
            }
            sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed => {
                StoreError::Unavailable(error.to_string())
            }
            sqlx::Error::ColumnDecode { .. } | sqlx::Error::Decode(_) => {
                StoreError::Corrupt(error.to_string())
            }
            _ => StoreError::Database(error.to_string()),
        }
    }
}

/// Whether a database error code means the database cannot serve now
/// (rather than that the statement is wrong): PostgreSQL's connection
/// exceptions (08…), insufficient resources such as a full disk (53…),
/// statement timeout (57014) and shutdowns (57P…); SQLite's busy, locked,
/// I/O error and full disk (primary codes 5, 6, 10, 13).
fn is_outage(error: &dyn sqlx::error::DatabaseError) -> bool {
    let Some(code) = error.code() else {
        return false;
    };
    if error
        .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
        .is_some()
    {
        return ["08", "53", "57"]
            .iter()
            .any(|class| code.starts_with(class));
    }
    code.parse::<u32>()
        .is_ok_and(|extended| matches!(extended & 0xff, 5 | 6 | 10 | 13))
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(error: sqlx::migrate::MigrateError) -> Self {
        StoreError::Database(format!("migration failed: {error}"))
    }
}

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
