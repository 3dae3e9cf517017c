//! Storage: one [`Store`] trait, a SQLite and a PostgreSQL implementation
//! chosen by the database URL's scheme. Both run the same SQL (written once,
//! in `sql.rs`) against schemas kept in `migrations/{sqlite,postgres}`.

mod postgres;
mod sql;
mod sqlite;

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use riskintel_api::{Plan, Scope};

pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

/// What can go wrong in storage.
#[derive(Debug, thiserror::Error)]
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
            sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed => {
                StoreError::Unavailable(error.to_string())
            }
            _ => StoreError::Database(error.to_string()),
        }
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(error: sqlx::migrate::MigrateError) -> Self {
        StoreError::Database(format!("migration failed: {error}"))
    }
}

/// An account: the unit plans, limits and usage apply to.
#[derive(Clone, Debug, PartialEq)]
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

/// A stored API key. Secrets are present only as SHA-256 hashes (hex).
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

/// A key and its account, as authentication needs them.
#[derive(Clone, Debug)]
pub struct KeyWithAccount {
    /// The key.
    pub key: KeyRecord,
    /// Its account.
    pub account: Account,
}

/// Which log index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogIndexKind {
    /// A token's Transfer logs (holder balances).
    Holders,
    /// A wallet's Transfer and Approval logs (its tokens and approvals).
    Wallet,
}

impl LogIndexKind {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            LogIndexKind::Holders => "holders",
            LogIndexKind::Wallet => "wallet",
        }
    }
}

/// Progress of a log index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogIndexState {
    /// First block indexed (0 = from genesis, so the index is complete).
    pub start_block: i64,
    /// Next block to index.
    pub next_block: i64,
    /// Block of the first matching log seen.
    pub first_block: Option<i64>,
    /// Holders index: the recipient of the first mint (the creator).
    pub first_party: Option<String>,
}

/// A holder's net balance from the index: decimal text (signed) and as a float.
#[derive(Clone, Debug, PartialEq)]
pub struct HolderBalance {
    /// Holder address (lower-case hex).
    pub holder: String,
    /// Net balance in base units, decimal.
    pub balance: String,
    /// The same as a float, for ordering.
    pub sort_key: f64,
}

/// A token a wallet moved, or a (token, spender) pair it approved.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WalletContact {
    /// `token` or `approval`.
    pub kind: String,
    /// Token address (lower-case hex).
    pub token: String,
    /// Spender (lower-case hex), empty for `token`.
    pub spender: String,
}

/// A token the market index watches.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackedToken {
    /// Chain id.
    pub chain: String,
    /// Token address (checksummed).
    pub token: String,
    /// `pair_created` or `analysed`.
    pub source: String,
    /// Block it was first seen at.
    pub first_seen_block: i64,
    /// When it was added.
    pub added_at: DateTime<Utc>,
    /// When the index last analysed it.
    pub last_analysed_at: Option<DateTime<Utc>>,
}

/// A pair of a tracked token.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackedPair {
    /// Chain id.
    pub chain: String,
    /// Pair address (lower-case).
    pub pair: String,
    /// The tracked token (checksummed).
    pub token: String,
    /// The other token (lower-case).
    pub quote: String,
    /// DEX name.
    pub dex: String,
    /// Quote reserve (whole units) when last seen, the baseline for liquidity drops.
    pub reserve_quote: f64,
}

/// A swap of a tracked pair.
#[derive(Clone, Debug, PartialEq)]
pub struct SwapRow {
    /// Chain id.
    pub chain: String,
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
    /// `buy` or `sell`.
    pub side: String,
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
#[derive(Clone, Debug, PartialEq)]
pub struct SyncRow {
    /// Chain id.
    pub chain: String,
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

/// An alert to record.
#[derive(Clone, Debug, PartialEq)]
pub struct AlertRow {
    /// Id (0 before insertion).
    pub id: i64,
    /// Unique key of the event: one alert per event, across restarts and instances.
    pub event_key: String,
    /// Chain id.
    pub chain: String,
    /// Token (checksummed).
    pub token: String,
    /// Kind (wire name).
    pub kind: String,
    /// Severity (wire name).
    pub severity: String,
    /// Severity rank (info 0 … critical 4), for filtering.
    pub severity_rank: i64,
    /// Title.
    pub title: String,
    /// Detail.
    pub detail: String,
    /// Score before.
    pub score_before: Option<f64>,
    /// Label before (wire name).
    pub label_before: Option<String>,
    /// Score after.
    pub score_after: Option<f64>,
    /// Label after (wire name).
    pub label_after: Option<String>,
    /// Block.
    pub block: i64,
    /// When observed.
    pub observed_at: DateTime<Utc>,
}

/// Filters of an alert listing.
#[derive(Clone, Debug, Default)]
pub struct AlertQuery {
    /// Chain id.
    pub chain: Option<String>,
    /// Minimum severity rank.
    pub min_rank: i64,
    /// Kind (wire name).
    pub kind: Option<String>,
    /// Observed at or after.
    pub since: Option<DateTime<Utc>>,
    /// Ids below this only.
    pub before_id: Option<i64>,
    /// Page size.
    pub limit: i64,
}

/// Persistent state of the service.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// `sqlite` or `postgres`.
    fn backend(&self) -> &'static str;
    /// Apply pending migrations.
    async fn migrate(&self) -> Result<(), StoreError>;
    /// A trivial round trip, for health checks.
    async fn ping(&self) -> Result<(), StoreError>;
    /// Close the pool, flushing what SQLite still holds in its write-ahead log.
    async fn close(&self);

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
    /// Record a successful authentication time.
    async fn key_touch(&self, id: &str, at: DateTime<Utc>) -> Result<(), StoreError>;

    /// Count one request in the account's window starting at `window_start`;
    /// returns the window's count including it.
    async fn rate_window_hit(
        &self,
        account_id: &str,
        window_start: DateTime<Utc>,
    ) -> Result<i64, StoreError>;
    /// Forget windows that started before `before`.
    async fn rate_window_prune(&self, before: DateTime<Utc>) -> Result<u64, StoreError>;

    /// Count one request in the period unless the count has reached `cap`;
    /// returns the new count, or None when the cap was reached.
    async fn usage_reserve(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
        cap: Option<i64>,
    ) -> Result<Option<i64>, StoreError>;
    /// Take back one reserved request (the answer was not 2xx).
    async fn usage_release(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
    ) -> Result<(), StoreError>;
    /// Requests counted in the period.
    async fn usage_get(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
    ) -> Result<i64, StoreError>;
    /// A cached analysis: its JSON and when it was made.
    async fn analysis_get(
        &self,
        chain: &str,
        address: &str,
    ) -> Result<Option<(String, DateTime<Utc>)>, StoreError>;
    /// Store an analysis, replacing the previous one.
    async fn analysis_put(
        &self,
        chain: &str,
        address: &str,
        result: &str,
        analysed_at: DateTime<Utc>,
    ) -> Result<(), StoreError>;

    /// Progress of a log index.
    async fn log_index_get(&self, chain: &str, kind: LogIndexKind, subject: &str) -> Result<Option<LogIndexState>, StoreError>;
    /// Current net balances of these holders (absent ones are zero).
    async fn holder_balances_get(
        &self,
        chain: &str,
        token: &str,
        holders: &[String],
    ) -> Result<Vec<HolderBalance>, StoreError>;
    /// Record newly indexed blocks of a token's holder index atomically: the
    /// new progress and the new balances. `expected_next` is the
    /// `next_block` read before indexing (None for a new index); false, and
    /// nothing written, when another indexer got there first.
    async fn holder_index_apply(
        &self,
        chain: &str,
        token: &str,
        expected_next: Option<i64>,
        state: &LogIndexState,
        balances: &[HolderBalance],
    ) -> Result<bool, StoreError>;
    /// The largest positive balances, largest first.
    async fn holder_top(&self, chain: &str, token: &str, limit: i64) -> Result<Vec<HolderBalance>, StoreError>;
    /// Holders with a positive balance.
    async fn holder_count(&self, chain: &str, token: &str) -> Result<i64, StoreError>;

    /// Record newly indexed blocks of a wallet's index and the contacts they
    /// showed, atomically, as `holder_index_apply` does.
    async fn wallet_index_apply(
        &self,
        chain: &str,
        wallet: &str,
        expected_next: Option<i64>,
        state: &LogIndexState,
        contacts: &[WalletContact],
    ) -> Result<bool, StoreError>;
    /// Every contact of a wallet.
    async fn wallet_contacts(&self, chain: &str, wallet: &str) -> Result<Vec<WalletContact>, StoreError>;

    /// Watch a token; true when it was not watched before.
    async fn tracked_token_add(&self, token: &TrackedToken) -> Result<bool, StoreError>;
    /// Watched tokens, of one chain or all.
    async fn tracked_tokens(&self, chain: Option<&str>) -> Result<Vec<TrackedToken>, StoreError>;
    /// Record that the index analysed a token.
    async fn tracked_token_analysed(&self, chain: &str, token: &str, at: DateTime<Utc>) -> Result<(), StoreError>;
    /// Watch a pair; when it is watched already without a liquidity
    /// baseline (it was just created), set the baseline.
    async fn tracked_pair_add(&self, pair: &TrackedPair) -> Result<(), StoreError>;
    /// Watched pairs of a chain.
    async fn tracked_pairs(&self, chain: &str) -> Result<Vec<TrackedPair>, StoreError>;
    /// Set a pair's liquidity baseline.
    async fn tracked_pair_reserve(&self, chain: &str, pair: &str, reserve_quote: f64) -> Result<(), StoreError>;
    /// The indexer's next block and the hash of the last block read.
    async fn cursor_get(&self, chain: &str, source: &str) -> Result<Option<(i64, String)>, StoreError>;
    /// Advance the cursor from `expected_next` (None: create) and store the
    /// swaps and syncs read, atomically; false when another indexer moved it first.
    #[allow(clippy::too_many_arguments)]
    async fn cursor_advance(
        &self,
        chain: &str,
        source: &str,
        expected_next: Option<i64>,
        next: i64,
        last_hash: &str,
        swaps: &[SwapRow],
        syncs: &[SyncRow],
    ) -> Result<bool, StoreError>;
    /// A pair's liquidity history (quote reserve per Sync) since `since`, oldest first.
    async fn liquidity_history(&self, chain: &str, pair: &str, since: DateTime<Utc>) -> Result<Vec<SyncRow>, StoreError>;
    /// Rewind the cursor to `block` after a re-organisation, forgetting swaps and syncs from it on.
    async fn cursor_rewind(&self, chain: &str, source: &str, block: i64) -> Result<(), StoreError>;
    /// Swaps of a token observed at or after `since`, oldest first.
    async fn swaps_since(&self, chain: &str, token: &str, since: DateTime<Utc>) -> Result<Vec<SwapRow>, StoreError>;
    /// Record an alert unless its event has one; the new id, or None.
    async fn alert_insert(&self, alert: &AlertRow) -> Result<Option<i64>, StoreError>;
    /// Alerts newest first.
    async fn alerts(&self, query: &AlertQuery) -> Result<Vec<AlertRow>, StoreError>;

    /// Set the period's count (operators' corrections and tests).
    async fn usage_set(
        &self,
        account_id: &str,
        period_start: DateTime<Utc>,
        requests: i64,
    ) -> Result<(), StoreError>;
}

/// Open the store a URL names (`sqlite://path`, `sqlite::memory:`,
/// `postgres://…`) and bring its schema up to date.
pub async fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    let store: Arc<dyn Store> = if url.starts_with("sqlite:") {
        Arc::new(SqliteStore::connect(url).await?)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Arc::new(PostgresStore::connect(url).await?)
    } else {
        return Err(StoreError::UnsupportedUrl(url.to_string()));
    };
    store.migrate().await?;
    Ok(store)
}

/// Scopes as stored: space-separated wire names.
pub(crate) fn scopes_to_text(scopes: &[Scope]) -> String {
    scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
}

pub(crate) fn scopes_from_text(text: &str) -> Result<Vec<Scope>, StoreError> {
    text.split_whitespace()
        .map(|s| Scope::parse(s).ok_or_else(|| StoreError::Corrupt(format!("scope {s:?}"))))
        .collect()
}

pub(crate) fn plan_to_text(plan: Plan) -> &'static str {
    match plan {
        Plan::Free => "free",
        Plan::Pro => "pro",
        Plan::ProPlus => "pro_plus",
    }
}

pub(crate) fn plan_from_text(text: &str) -> Result<Plan, StoreError> {
    match text {
        "free" => Ok(Plan::Free),
        "pro" => Ok(Plan::Pro),
        "pro_plus" => Ok(Plan::ProPlus),
        other => Err(StoreError::Corrupt(format!("plan {other:?}"))),
    }
}
