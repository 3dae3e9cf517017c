//! The two backends behind one handle: a [`Db`] is a SQLite or a
//! PostgreSQL pool, and [`on_db!`](on_db) runs one statement —
//! written once, with `$N` placeholders both accept — on whichever it is.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use crate::error::StoreError;

/// A connection pool of either backend.
#[derive(Clone, Debug)]
pub enum Db {
    /// SQLite: one file, WAL journal.
    Sqlite(sqlx::SqlitePool),
    /// PostgreSQL.
    Postgres(sqlx::PgPool),
}

/// Run `$body` with `$pool` bound to the pool of whichever backend `$db`
/// is (private to the store: nothing above it sees a pool).
macro_rules! on_db {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            $crate::db::Db::Sqlite($pool) => $body,
            $crate::db::Db::Postgres($pool) => $body,
        }
    };
}
pub(crate) use on_db;

/// How long the store waits.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// For a connection from the pool.
    pub acquire: Duration,
    /// For one statement (PostgreSQL `statement_timeout`; SQLite's wait for
    /// its write lock).
    pub query: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            acquire: Duration::from_secs(2),
            query: Duration::from_secs(5),
        }
    }
}

/// The pools of a store: reads go to `pool`, writes to `writer`.
pub struct Pools {
    /// For reads.
    pub pool: Db,
    /// For writes: SQLite takes one writer at a time, and queueing writes on
    /// one connection is much faster than letting many spin on the lock;
    /// on PostgreSQL it is the same pool.
    pub writer: Db,
    /// PostgreSQL: how to connect without a statement timeout (migrations).
    unbounded: Option<PgConnectOptions>,
}

static SQLITE_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");
static POSTGRES_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

impl Pools {
    /// Open (creating if needed) the SQLite database at `url`.
    pub async fn sqlite(url: &str, timeouts: Timeouts) -> Result<Pools, StoreError> {
        let in_memory = url.contains(":memory:");
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| StoreError::UnsupportedUrl(format!("{url}: {e}")))?
            .create_if_missing(true)
            .journal_mode(if in_memory {
                SqliteJournalMode::Memory
            } else {
                SqliteJournalMode::Wal
            })
            // With WAL, NORMAL is durable across a process crash; only an OS
            // crash can lose the last transactions.
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(timeouts.query)
            .foreign_keys(true);
        let pool_options = |connections: u32| {
            SqlitePoolOptions::new()
                .max_connections(connections)
                .min_connections(if in_memory { 1 } else { 0 })
                .idle_timeout(if in_memory {
                    None
                } else {
                    Some(Duration::from_secs(600))
                })
                .max_lifetime(if in_memory {
                    None
                } else {
                    Some(Duration::from_secs(3600))
                })
                .acquire_timeout(timeouts.acquire)
        };
        let connect_error = |e: sqlx::Error| StoreError::Unavailable(format!("{url}: {e}"));
        let writer = pool_options(1)
            .connect_with(options.clone())
            .await
            .map_err(connect_error)?;
        // An in-memory database exists once per connection: share the writer.
        let pool = if in_memory {
            writer.clone()
        } else {
            pool_options(8)
                .connect_with(options)
                .await
                .map_err(connect_error)?
        };
        Ok(Pools {
            pool: Db::Sqlite(pool),
            writer: Db::Sqlite(writer),
            unbounded: None,
        })
    }

    /// Connect to the PostgreSQL database at `url`.
    pub async fn postgres(url: &str, timeouts: Timeouts) -> Result<Pools, StoreError> {
        let unbounded = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError::UnsupportedUrl(format!("{e}")))?;
        let options = unbounded.clone().options([(
            "statement_timeout",
            format!("{}ms", timeouts.query.as_millis().max(1)),
        )]);
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(timeouts.acquire)
            .connect_with(options)
            .await
            .map_err(|e| StoreError::Unavailable(format!("PostgreSQL: {e}")))?;
        Ok(Pools {
            pool: Db::Postgres(pool.clone()),
            writer: Db::Postgres(pool),
            unbounded: Some(unbounded),
        })
    }

    /// `sqlite` or `postgres`.
    pub fn backend(&self) -> &'static str {
        match self.pool {
            Db::Sqlite(_) => "sqlite",
            Db::Postgres(_) => "postgres",
        }
    }

    /// Apply pending migrations.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        match &self.writer {
            Db::Sqlite(pool) => SQLITE_MIGRATOR.run(pool).await?,
            Db::Postgres(pool) => match &self.unbounded {
                // Migrations may build indexes on large tables: no statement
                // timeout, on a pool of their own.
                Some(options) => {
                    let unbounded = PgPoolOptions::new()
                        .max_connections(1)
                        .acquire_timeout(Duration::from_secs(30))
                        .connect_with(options.clone())
                        .await?;
                    let ran = POSTGRES_MIGRATOR.run(&unbounded).await;
                    unbounded.close().await;
                    ran?
                }
                None => POSTGRES_MIGRATOR.run(pool).await?,
            },
        }
        Ok(())
    }

    /// Close both pools.
    pub async fn close(&self) {
        on_db!(&self.writer, p => p.close().await);
        on_db!(&self.pool, p => p.close().await);
    }
}
