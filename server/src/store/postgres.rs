//! PostgreSQL: for several instances sharing one database. Limits, quotas,
//! revocation and rotation hold across all of them because every check is
//! a statement against the shared tables.

use std::time::Duration;

use sqlx::postgres::PgPoolOptions;

use super::sql::impl_sql_store;
use super::StoreError;

/// A store in a PostgreSQL database.
pub struct PostgresStore {
    pool: sqlx::PgPool,
    /// The same pool: PostgreSQL takes concurrent writers.
    writer: sqlx::PgPool,
}

impl PostgresStore {
    const BACKEND: &'static str = "postgres";
    const MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

    /// Connect to the database at `url`.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await
            .map_err(|e| StoreError::Unavailable(format!("PostgreSQL: {e}")))?;
        Ok(PostgresStore { writer: pool.clone(), pool })
    }

    /// The underlying pool (schema checks in tests).
    pub fn pool(&self) -> &sqlx::PgPool {
        &self.pool
    }
}

impl_sql_store!(PostgresStore, sqlx::postgres::PgRow, sqlx::Postgres);
