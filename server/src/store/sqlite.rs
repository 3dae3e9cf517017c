//! SQLite: the embedded default. One file, WAL journal, created on first start.

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use super::sql::impl_sql_store;
use super::StoreError;

/// A store in a SQLite file (or in memory, for `sqlite::memory:`).
pub struct SqliteStore {
    pool: sqlx::SqlitePool,
    /// SQLite takes one writer at a time; queueing writes on one connection
    /// here is much faster than letting many connections spin on the lock.
    writer: sqlx::SqlitePool,
}

impl SqliteStore {
    const BACKEND: &'static str = "sqlite";
    const MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/sqlite");

    /// Open (creating if needed) the database at `url`.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let in_memory = url.contains(":memory:");
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| StoreError::UnsupportedUrl(format!("{url}: {e}")))?
            .create_if_missing(true)
            .journal_mode(if in_memory { SqliteJournalMode::Memory } else { SqliteJournalMode::Wal })
            // With WAL, NORMAL is durable across a process crash; only an OS
            // crash can lose the last transactions.
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let pool_options = |connections: u32| {
            SqlitePoolOptions::new()
                .max_connections(connections)
                .min_connections(if in_memory { 1 } else { 0 })
                .idle_timeout(if in_memory { None } else { Some(Duration::from_secs(600)) })
                .max_lifetime(if in_memory { None } else { Some(Duration::from_secs(3600)) })
                .acquire_timeout(Duration::from_secs(10))
        };
        let connect_error = |e: sqlx::Error| StoreError::Unavailable(format!("{url}: {e}"));
        let writer = pool_options(1).connect_with(options.clone()).await.map_err(connect_error)?;
        // An in-memory database exists once per connection: share the writer.
        let pool = if in_memory {
            writer.clone()
        } else {
            pool_options(8).connect_with(options).await.map_err(connect_error)?
        };
        Ok(SqliteStore { pool, writer })
    }

    /// The underlying pool (schema checks in tests).
    pub fn pool(&self) -> &sqlx::SqlitePool {
        &self.pool
    }
}

impl_sql_store!(SqliteStore, sqlx::sqlite::SqliteRow, sqlx::Sqlite);
