//! Accounts and their API keys. Secrets are present only as SHA-256 hashes.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use riskintel_types::{Plan, Scope, WireName};

use super::db::Db;
use super::{SqlStore, StoreError};
use crate::db::on_db;

/// An account: the unit plans, limits and usage apply to.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct Account {
    /// Opaque id, `acct_…`.
    pub id: String,
    /// Operator-given name.
    pub name: String,
    /// Current plan.
    pub plan: Plan,
    /// Creation time.
    pub created_at: DateTime<Utc>,
}

/// A stored API key.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyRecord {
    /// The `<id>` of `ri_live_<id>.<secret>`.
    pub id: String,
    /// Owning account.
    pub account_id: String,
    /// Unique among the account's active keys.
    pub name: String,
    /// Granted scopes.
    pub scopes: Vec<Scope>,
    /// SHA-256 of the current secret.
    pub secret_hash: String,
    /// SHA-256 of the secret replaced by the last rotation.
    pub previous_secret_hash: Option<String>,
    /// Until when that previous secret still authenticates.
    pub previous_valid_until: Option<DateTime<Utc>>,
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// Expiry, if any.
    pub expires_at: Option<DateTime<Utc>>,
    /// Last successful authentication (coarse).
    pub last_used_at: Option<DateTime<Utc>>,
    /// Last rotation.
    pub rotated_at: Option<DateTime<Utc>>,
    /// Revocation time; a revoked key never authenticates again.
    pub revoked_at: Option<DateTime<Utc>>,
}

/// A key row as stored (scopes as space-separated wire names).
#[derive(sqlx::FromRow)]
struct KeyRow {
    id: String,
    account_id: String,
    name: String,
    scopes: String,
    secret_hash: String,
    previous_secret_hash: Option<String>,
    previous_valid_until: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
    expires_at: Option<DateTime<Utc>>,
    last_used_at: Option<DateTime<Utc>>,
    rotated_at: Option<DateTime<Utc>>,
    revoked_at: Option<DateTime<Utc>>,
}

impl TryFrom<KeyRow> for KeyRecord {
    type Error = StoreError;

    fn try_from(row: KeyRow) -> Result<Self, StoreError> {
        let scopes = row
            .scopes
            .split_whitespace()
            .map(|s| {
                Scope::from_wire_name(s).ok_or_else(|| StoreError::Corrupt(format!("scope {s:?}")))
            })
            .collect::<Result<_, _>>()?;
        Ok(KeyRecord {
            id: row.id,
            account_id: row.account_id,
            name: row.name,
            scopes,
            secret_hash: row.secret_hash,
            previous_secret_hash: row.previous_secret_hash,
            previous_valid_until: row.previous_valid_until,
            created_at: row.created_at,
            expires_at: row.expires_at,
            last_used_at: row.last_used_at,
            rotated_at: row.rotated_at,
            revoked_at: row.revoked_at,
        })
    }
}

/// A key with its account, one row of the join.
#[derive(sqlx::FromRow)]
struct KeyAccountRow {
    #[sqlx(flatten)]
    key: KeyRow,
    a_name: String,
    a_plan: Plan,
    a_created_at: DateTime<Utc>,
}

/// A key and its account, as authentication needs them.
#[derive(Clone, Debug)]
pub struct KeyWithAccount {
    /// The key.
    pub key: KeyRecord,
    /// Its account.
    pub account: Account,
}

const KEY_COLUMNS: &str = "k.id, k.account_id, k.name, k.scopes, k.secret_hash, k.previous_secret_hash, \
     k.previous_valid_until, k.created_at, k.expires_at, k.last_used_at, k.rotated_at, k.revoked_at";

fn scopes_text(scopes: &[Scope]) -> String {
    scopes
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a guarded revocation did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revocation {
    /// Revoked.
    Revoked,
    /// The key was not active.
    NotActive,
    /// Refused: the account's last active `keys:write` key.
    LastWriter,
}

/// Accounts and keys.
#[async_trait]
pub trait AccountStore {
    /// Store a new account.
    async fn account_insert(&self, account: &Account) -> Result<(), StoreError>;
    /// One account.
    async fn account_get(&self, id: &str) -> Result<Option<Account>, StoreError>;
    /// Every account, oldest first.
    async fn account_list(&self) -> Result<Vec<Account>, StoreError>;
    /// Change an account's plan; false when there is no such account.
    async fn account_set_plan(&self, id: &str, plan: Plan) -> Result<bool, StoreError>;
    /// Number of accounts.
    async fn account_count(&self) -> Result<i64, StoreError>;
    /// Store a new key; `Conflict` when the account already has an active key of that name.
    async fn key_insert(&self, key: &KeyRecord) -> Result<(), StoreError>;
    /// A key (revoked ones included) with its account.
    async fn key_get(&self, id: &str) -> Result<Option<KeyWithAccount>, StoreError>;
    /// An account's active keys after the given `(created_at, id)`, in that order.
    async fn key_list(
        &self,
        account_id: &str,
        after: Option<(DateTime<Utc>, String)>,
        limit: i64,
    ) -> Result<Vec<KeyRecord>, StoreError>;
    /// Replace an active key's secret; the replaced hash stays valid until
    /// `previous_valid_until`. False when the key is not active.
    async fn key_rotate(
        &self,
        id: &str,
        new_hash: &str,
        previous_hash: &str,
        previous_valid_until: DateTime<Utc>,
        rotated_at: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
    /// Revoke an active key; false when it is not active.
    async fn key_revoke(&self, id: &str, at: DateTime<Utc>) -> Result<bool, StoreError>;
    /// Revoke an active key of `account_id` unless it is the account's last
    /// active (unexpired) key with `keys:write`: checked and written in one
    /// transaction that holds the account's row (PostgreSQL) or the write
    /// lock (SQLite), so concurrent revocations are judged one at a time.
    async fn key_revoke_keeping_writer(
        &self,
        account_id: &str,
        id: &str,
        at: DateTime<Utc>,
    ) -> Result<Revocation, StoreError>;
    /// The auth version: moves whenever a key (other than its last use) or
    /// an account's plan changes (database triggers, whoever writes).
    async fn auth_version(&self) -> Result<i64, StoreError>;
}

#[async_trait]
impl AccountStore for SqlStore {
    async fn account_insert(&self, account: &Account) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query("INSERT INTO accounts (id, name, plan, created_at) VALUES ($1, $2, $3, $4)")
            .bind(&account.id)
            .bind(&account.name)
            .bind(account.plan)
            .bind(account.created_at)
            .execute(p)
            .await
            .map(|_| ()))?;
        Ok(())
    }

    async fn account_get(&self, id: &str) -> Result<Option<Account>, StoreError> {
        let sql = "SELECT id, name, plan, created_at FROM accounts WHERE id = $1";
        Ok(on_db!(self.pool(), p => sqlx::query_as(sql).bind(id).fetch_optional(p).await)?)
    }

    async fn account_list(&self) -> Result<Vec<Account>, StoreError> {
        let sql = "SELECT id, name, plan, created_at FROM accounts ORDER BY created_at, id";
        Ok(on_db!(self.pool(), p => sqlx::query_as(sql).fetch_all(p).await)?)
    }

    async fn account_set_plan(&self, id: &str, plan: Plan) -> Result<bool, StoreError> {
        let done = on_db!(self.writer(), p => sqlx::query("UPDATE accounts SET plan = $1 WHERE id = $2").bind(plan).bind(id).execute(p).await.map(|d| d.rows_affected()))?;
        Ok(done == 1)
    }

    async fn account_count(&self) -> Result<i64, StoreError> {
        let (count,): (i64,) = on_db!(self.pool(), p => sqlx::query_as("SELECT COUNT(*) FROM accounts").fetch_one(p).await)?;
        Ok(count)
    }

    async fn key_insert(&self, key: &KeyRecord) -> Result<(), StoreError> {
        on_db!(self.writer(), p => sqlx::query(
            "INSERT INTO api_keys (id, account_id, name, scopes, secret_hash, previous_secret_hash, previous_valid_until, \
             created_at, expires_at, last_used_at, rotated_at, revoked_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(&key.id)
        .bind(&key.account_id)
        .bind(&key.name)
        .bind(scopes_text(&key.scopes))
        .bind(&key.secret_hash)
        .bind(&key.previous_secret_hash)
        .bind(key.previous_valid_until)
        .bind(key.created_at)
        .bind(key.expires_at)
        .bind(key.last_used_at)
        .bind(key.rotated_at)
        .bind(key.revoked_at)
        .execute(p)
        .await
        .map(|_| ()))?;
        Ok(())
    }

    async fn key_get(&self, id: &str) -> Result<Option<KeyWithAccount>, StoreError> {
        let sql = format!(
            "SELECT {KEY_COLUMNS}, a.name AS a_name, a.plan AS a_plan, a.created_at AS a_created_at \
             FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = $1"
        );
        let row: Option<KeyAccountRow> =
            on_db!(self.pool(), p => sqlx::query_as(&sql).bind(id).fetch_optional(p).await)?;
        row.map(|row| {
            let account = Account {
                id: row.key.account_id.clone(),
                name: row.a_name,
                plan: row.a_plan,
                created_at: row.a_created_at,
            };
            Ok(KeyWithAccount {
                key: row.key.try_into()?,
                account,
            })
        })
        .transpose()
    }

    async fn key_list(
        &self,
        account_id: &str,
        after: Option<(DateTime<Utc>, String)>,
        limit: i64,
    ) -> Result<Vec<KeyRecord>, StoreError> {
        let sql = format!(
            "SELECT {KEY_COLUMNS} FROM api_keys k WHERE k.account_id = $1 AND k.revoked_at IS NULL \
             AND ($2 IS NULL OR k.created_at > $2 OR (k.created_at = $2 AND k.id > $3)) \
             ORDER BY k.created_at, k.id LIMIT $4"
        );
        let (after_time, after_id) = match after {
            Some((time, id)) => (Some(time), id),
            None => (None, String::new()),
        };
        let rows: Vec<KeyRow> = on_db!(self.pool(), p => sqlx::query_as(&sql)
            .bind(account_id)
            .bind(after_time)
            .bind(&after_id)
            .bind(limit)
            .fetch_all(p)
            .await)?;
        rows.into_iter().map(KeyRecord::try_from).collect()
    }

    async fn key_rotate(
        &self,
        id: &str,
        new_hash: &str,
        previous_hash: &str,
        previous_valid_until: DateTime<Utc>,
        rotated_at: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        // Guarded on the hash being replaced, so two rotations racing
        // cannot both succeed and leave two grace secrets.
        let done = on_db!(self.writer(), p => sqlx::query(
            "UPDATE api_keys SET secret_hash = $1, previous_secret_hash = $2, previous_valid_until = $3, rotated_at = $4 \
             WHERE id = $5 AND secret_hash = $2 AND revoked_at IS NULL",
        )
        .bind(new_hash)
        .bind(previous_hash)
        .bind(previous_valid_until)
        .bind(rotated_at)
        .bind(id)
        .execute(p)
        .await
        .map(|d| d.rows_affected()))?;
        Ok(done == 1)
    }

    async fn key_revoke(&self, id: &str, at: DateTime<Utc>) -> Result<bool, StoreError> {
        let done = on_db!(self.writer(), p => sqlx::query(
            "UPDATE api_keys SET revoked_at = $1, previous_secret_hash = NULL, previous_valid_until = NULL \
             WHERE id = $2 AND revoked_at IS NULL",
        )
        .bind(at)
        .bind(id)
        .execute(p)
        .await
        .map(|d| d.rows_affected()))?;
        Ok(done == 1)
    }

    async fn key_revoke_keeping_writer(
        &self,
        account_id: &str,
        id: &str,
        at: DateTime<Utc>,
    ) -> Result<Revocation, StoreError> {
        let writer = "(' ' || scopes || ' ') LIKE '% keys:write %'";
        let postgres = matches!(self.writer(), Db::Postgres(_));
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            if postgres {
                // Revocations in one account wait for each other here.
                sqlx::query("SELECT id FROM accounts WHERE id = $1 FOR UPDATE")
                    .bind(account_id)
                    .fetch_optional(&mut *tx)
                    .await?;
            }
            let target: Option<(bool,)> = sqlx::query_as(&format!(
                "SELECT {writer} FROM api_keys WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL"
            ))
            .bind(id)
            .bind(account_id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((is_writer,)) = target else {
                return Ok(Revocation::NotActive);
            };
            if is_writer {
                let (others,): (i64,) = sqlx::query_as(&format!(
                    "SELECT COUNT(*) FROM api_keys WHERE account_id = $1 AND id <> $2 \
                     AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $3) AND {writer}"
                ))
                .bind(account_id)
                .bind(id)
                .bind(at)
                .fetch_one(&mut *tx)
                .await?;
                if others == 0 {
                    return Ok(Revocation::LastWriter);
                }
            }
            sqlx::query(
                "UPDATE api_keys SET revoked_at = $1, previous_secret_hash = NULL, previous_valid_until = NULL \
                 WHERE id = $2 AND revoked_at IS NULL",
            )
            .bind(at)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Revocation::Revoked)
        })
    }

    async fn auth_version(&self) -> Result<i64, StoreError> {
        let (version,): (i64,) = on_db!(self.pool(), p => sqlx::query_as(
            "SELECT version FROM auth_version WHERE id = 1",
        )
        .fetch_one(p)
        .await)?;
        Ok(version)
    }
}
