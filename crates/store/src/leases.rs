//! Leases: which instance runs a job that one instance is enough for (a
//! chain's market index, the periodic pruning). A lease is held by one
//! holder until it expires; the holder renews it, and any instance may
//! take it once it has expired.

use super::{SqlStore, StoreError};
use crate::db::on_db;
use async_trait::async_trait;
use chrono::{DateTime, Utc};

/// A lease as stored.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct LeaseRow {
    /// What it is for (`market:eth`, `maintenance`).
    pub name: String,
    /// The instance holding it (or that held it last).
    pub holder: String,
    /// Since when this holder has held it without a break.
    pub since: DateTime<Utc>,
    /// When it lapses unless renewed.
    pub expires_at: DateTime<Utc>,
}

/// The leases of jobs one instance is enough for.
#[async_trait]
pub trait LeaseStore {
    /// Take the lease `name` for `holder` until `until`, or renew it:
    /// done when nobody holds it, when `holder` does, or when its holder's
    /// lease had expired by `now`. True when `holder` now holds it. Two
    /// instances asking at once never both get it.
    async fn lease_hold(
        &self,
        name: &str,
        holder: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
    /// Give up the lease `name` at `now` if `holder` holds it (another
    /// instance may take it at once).
    async fn lease_release(
        &self,
        name: &str,
        holder: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError>;
    /// Every lease, lapsed or not, by name.
    async fn leases(&self) -> Result<Vec<LeaseRow>, StoreError>;
}

#[async_trait]
impl LeaseStore for SqlStore {
    async fn lease_hold(
        &self,
        name: &str,
        holder: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        // One statement: the row's lock (PostgreSQL) or the writer
        // (SQLite) orders concurrent takers, and the update's condition
        // is checked against the row as it is then. The SET reads the
        // row's old values, so `since` is kept only by the same holder.
        const SQL: &str = "INSERT INTO leases (name, holder, since, expires_at) \
             VALUES ($1, $2, $3, $4) \
             ON CONFLICT (name) DO UPDATE SET \
                 since = CASE WHEN leases.holder = excluded.holder \
                     THEN leases.since ELSE excluded.since END, \
                 holder = excluded.holder, \
                 expires_at = excluded.expires_at \
             WHERE leases.holder = excluded.holder OR leases.expires_at <= excluded.since \
             RETURNING holder";
        let held = on_db!(self.writer(), p => sqlx::query(SQL)
            .bind(name)
            .bind(holder)
            .bind(now)
            .bind(until)
            .fetch_optional(p)
            .await
            .map(|row| row.is_some()))?;
        Ok(held)
    }

    async fn lease_release(
        &self,
        name: &str,
        holder: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query(
            "UPDATE leases SET expires_at = $3 WHERE name = $1 AND holder = $2 AND expires_at > $3",
        )
        .bind(name)
        .bind(holder)
        .bind(now)
        .execute(p)
        .await
        .map(|_| ()))?;
        Ok(())
    }

    async fn leases(&self) -> Result<Vec<LeaseRow>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT name, holder, since, expires_at FROM leases ORDER BY name",
        )
        .fetch_all(p)
        .await)?)
    }
}
