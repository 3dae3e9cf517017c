//! Log indexes: how far each index has read (`log_indexes`), a token's net
//! balances per holder (`holder_balances`) and its `AccessControl` role
//! members (`role_members`), and what a wallet moved and
//! approved (`wallet_contacts`). Progress and what it found are written in
//! one transaction, guarded on the progress read before indexing.

use async_trait::async_trait;
use riskintel_types::ChainId;
use riskintel_types::{text_column, wire_names};

use super::{SqlStore, StoreError};
use crate::db::on_db;

/// Which log index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogIndexKind {
    /// A token's Transfer logs (holder balances).
    Holders,
    /// A wallet's Transfer and Approval logs (its tokens and approvals).
    Wallet,
}

wire_names!(LogIndexKind { Holders = "holders", Wallet = "wallet" });
text_column!(LogIndexKind);

/// Progress of a log index.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
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
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct HolderBalance {
    /// Holder address (lower-case hex).
    pub holder: String,
    /// Net balance in base units, decimal.
    pub balance: String,
    /// The same as a float, for ordering.
    pub sort_key: f64,
    /// The sender of the first tokens the index saw it receive.
    pub first_from: Option<String>,
    /// The block of that first receipt.
    pub first_block: Option<i64>,
}

/// An `AccessControl` role member, as the token's last RoleGranted or
/// RoleRevoked log for the pair left it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct RoleMember {
    /// The role (0x and 64 hex).
    pub role: String,
    /// The member (lower-case hex).
    pub member: String,
    /// Granted (true) or revoked.
    pub granted: bool,
}

/// What a wallet contact is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ContactKind {
    /// A token the wallet moved or received.
    Token,
    /// A (token, spender) pair the wallet approved.
    Approval,
}

wire_names!(ContactKind { Token = "token", Approval = "approval" });
text_column!(ContactKind);

/// A token a wallet moved, or a (token, spender) pair it approved.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, sqlx::FromRow)]
pub struct WalletContact {
    /// What it is.
    pub kind: ContactKind,
    /// Token address (lower-case hex).
    pub token: String,
    /// Spender (lower-case hex), empty for a token.
    pub spender: String,
}

/// The holder and wallet indexes.
#[async_trait]
pub trait LogIndexStore {
    /// Progress of a log index.
    async fn log_index_get(
        &self,
        chain: ChainId,
        kind: LogIndexKind,
        subject: &str,
    ) -> Result<Option<LogIndexState>, StoreError>;
    /// Current net balances of these holders (absent ones are zero).
    async fn holder_balances_get(
        &self,
        chain: ChainId,
        token: &str,
        holders: &[String],
    ) -> Result<Vec<HolderBalance>, StoreError>;
    /// Record newly indexed blocks of a token's holder index atomically: the
    /// new progress, the new balances and the role changes. `expected_next`
    /// is the `next_block` read before indexing (None for a new index);
    /// false, and nothing written, when another indexer got there first.
    async fn holder_index_apply(
        &self,
        chain: ChainId,
        token: &str,
        expected_next: Option<i64>,
        state: &LogIndexState,
        balances: &[HolderBalance],
        roles: &[RoleMember],
    ) -> Result<bool, StoreError>;
    /// The token's current role members (granted and not revoked since).
    async fn role_members(
        &self,
        chain: ChainId,
        token: &str,
    ) -> Result<Vec<RoleMember>, StoreError>;
    /// The largest positive balances, largest first.
    async fn holder_top(
        &self,
        chain: ChainId,
        token: &str,
        limit: i64,
    ) -> Result<Vec<HolderBalance>, StoreError>;
    /// The largest positive balances of holders whose first tokens came
    /// from one of `sources` (pools and routers: they bought), largest first.
    async fn holder_buyers(
        &self,
        chain: ChainId,
        token: &str,
        sources: &[String],
        limit: i64,
    ) -> Result<Vec<HolderBalance>, StoreError>;
    /// The holders whose first tokens came by `block`, earliest first
    /// (any balance: one that has sold is still listed), at most `limit`.
    async fn holder_first_by(
        &self,
        chain: ChainId,
        token: &str,
        block: i64,
        limit: i64,
    ) -> Result<Vec<HolderBalance>, StoreError>;
    /// Holders with a positive balance.
    async fn holder_count(&self, chain: ChainId, token: &str) -> Result<i64, StoreError>;
    /// Record newly indexed blocks of a wallet's index and the contacts they
    /// showed, atomically, as `holder_index_apply` does.
    async fn wallet_index_apply(
        &self,
        chain: ChainId,
        wallet: &str,
        expected_next: Option<i64>,
        state: &LogIndexState,
        contacts: &[WalletContact],
    ) -> Result<bool, StoreError>;
    /// Every contact of a wallet.
    async fn wallet_contacts(
        &self,
        chain: ChainId,
        wallet: &str,
    ) -> Result<Vec<WalletContact>, StoreError>;
}

/// Move a log index from `expected_next` (None: create it) to `state`,
/// inside `$tx`; evaluates to whether it moved (false: another indexer
/// moved it first).
macro_rules! claim_log_index {
    ($tx:expr, $chain:expr, $kind:expr, $subject:expr, $expected:expr, $state:expr) => {{
        let state: &LogIndexState = $state;
        let done = match $expected {
            None => sqlx::query(
                "INSERT INTO log_indexes (chain, kind, subject, start_block, next_block, first_block, first_party) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (chain, kind, subject) DO NOTHING",
            )
            .bind($chain.id())
            .bind($kind)
            .bind($subject)
            .bind(state.start_block)
            .bind(state.next_block)
            .bind(state.first_block)
            .bind(&state.first_party)
            .execute(&mut *$tx)
            .await?,
            Some(expected) => sqlx::query(
                "UPDATE log_indexes SET next_block = $1, first_block = $2, first_party = $3 \
                 WHERE chain = $4 AND kind = $5 AND subject = $6 AND next_block = $7",
            )
            .bind(state.next_block)
            .bind(state.first_block)
            .bind(&state.first_party)
            .bind($chain.id())
            .bind($kind)
            .bind($subject)
            .bind(expected)
            .execute(&mut *$tx)
            .await?,
        };
        done.rows_affected() == 1
    }};
}

#[async_trait]
impl LogIndexStore for SqlStore {
    async fn log_index_get(
        &self,
        chain: ChainId,
        kind: LogIndexKind,
        subject: &str,
    ) -> Result<Option<LogIndexState>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT start_block, next_block, first_block, first_party FROM log_indexes WHERE chain = $1 AND kind = $2 AND subject = $3",
        )
        .bind(chain.id())
        .bind(kind)
        .bind(subject)
        .fetch_optional(p)
        .await)?)
    }

    async fn holder_balances_get(
        &self,
        chain: ChainId,
        token: &str,
        holders: &[String],
    ) -> Result<Vec<HolderBalance>, StoreError> {
        let mut found = Vec::new();
        for chunk in holders.chunks(500) {
            // Placeholders only ($3, $4, …); every value is bound.
            let placeholders: Vec<String> =
                (0..chunk.len()).map(|i| format!("${}", i + 3)).collect();
            let sql = format!(
                "SELECT holder, balance, sort_key, first_from, first_block FROM holder_balances WHERE chain = $1 AND token = $2 AND holder IN ({})",
                placeholders.join(", ")
            );
            let rows: Vec<HolderBalance> = on_db!(self.pool(), p => {
                let mut query = sqlx::query_as(&sql).bind(chain.id()).bind(token);
                for holder in chunk {
                    query = query.bind(holder);
                }
                query.fetch_all(p).await
            })?;
            found.extend(rows);
        }
        Ok(found)
    }

    async fn holder_index_apply(
        &self,
        chain: ChainId,
        token: &str,
        expected_next: Option<i64>,
        state: &LogIndexState,
        balances: &[HolderBalance],
        roles: &[RoleMember],
    ) -> Result<bool, StoreError> {
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            if !claim_log_index!(tx, chain, LogIndexKind::Holders, token, expected_next, state) {
                tx.rollback().await?;
                return Ok(false);
            }
            for b in balances {
                sqlx::query(
                    "INSERT INTO holder_balances (chain, token, holder, balance, sort_key, first_from, first_block) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7) \
                     ON CONFLICT (chain, token, holder) DO UPDATE SET balance = $4, sort_key = $5, \
                     first_from = COALESCE(holder_balances.first_from, $6), \
                     first_block = COALESCE(holder_balances.first_block, $7)",
                )
                .bind(chain.id())
                .bind(token)
                .bind(&b.holder)
                .bind(&b.balance)
                .bind(b.sort_key)
                .bind(&b.first_from)
                .bind(b.first_block)
                .execute(&mut *tx)
                .await?;
            }
            for r in roles {
                sqlx::query(
                    "INSERT INTO role_members (chain, token, role, member, granted) VALUES ($1, $2, $3, $4, $5) \
                     ON CONFLICT (chain, token, role, member) DO UPDATE SET granted = $5",
                )
                .bind(chain.id())
                .bind(token)
                .bind(&r.role)
                .bind(&r.member)
                .bind(r.granted)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(true)
    }

    async fn holder_top(
        &self,
        chain: ChainId,
        token: &str,
        limit: i64,
    ) -> Result<Vec<HolderBalance>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT holder, balance, sort_key, first_from, first_block FROM holder_balances \
             WHERE chain = $1 AND token = $2 AND sort_key > 0 ORDER BY sort_key DESC, holder LIMIT $3",
        )
        .bind(chain.id())
        .bind(token)
        .bind(limit)
        .fetch_all(p)
        .await)?)
    }

    async fn holder_buyers(
        &self,
        chain: ChainId,
        token: &str,
        sources: &[String],
        limit: i64,
    ) -> Result<Vec<HolderBalance>, StoreError> {
        if sources.is_empty() {
            return Ok(Vec::new());
        }
        // Placeholders only ($4, $5, …); every value is bound.
        let placeholders: Vec<String> = (0..sources.len()).map(|i| format!("${}", i + 4)).collect();
        let sql = format!(
            "SELECT holder, balance, sort_key, first_from, first_block FROM holder_balances \
             WHERE chain = $1 AND token = $2 AND sort_key > 0 AND first_from IN ({}) \
             ORDER BY sort_key DESC, holder LIMIT $3",
            placeholders.join(", ")
        );
        Ok(on_db!(self.pool(), p => {
            let mut query = sqlx::query_as(&sql).bind(chain.id()).bind(token).bind(limit);
            for source in sources {
                query = query.bind(source);
            }
            query.fetch_all(p).await
        })?)
    }

    async fn holder_first_by(
        &self,
        chain: ChainId,
        token: &str,
        block: i64,
        limit: i64,
    ) -> Result<Vec<HolderBalance>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT holder, balance, sort_key, first_from, first_block FROM holder_balances \
             WHERE chain = $1 AND token = $2 AND first_block <= $3 \
             ORDER BY first_block, holder LIMIT $4",
        )
        .bind(chain.id())
        .bind(token)
        .bind(block)
        .bind(limit)
        .fetch_all(p)
        .await)?)
    }

    async fn role_members(
        &self,
        chain: ChainId,
        token: &str,
    ) -> Result<Vec<RoleMember>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT role, member, granted FROM role_members \
             WHERE chain = $1 AND token = $2 AND granted ORDER BY role, member",
        )
        .bind(chain.id())
        .bind(token)
        .fetch_all(p)
        .await)?)
    }

    async fn holder_count(&self, chain: ChainId, token: &str) -> Result<i64, StoreError> {
        let (count,): (i64,) = on_db!(self.pool(), p => sqlx::query_as(
            "SELECT COUNT(*) FROM holder_balances WHERE chain = $1 AND token = $2 AND sort_key > 0",
        )
        .bind(chain.id())
        .bind(token)
        .fetch_one(p)
        .await)?;
        Ok(count)
    }

    async fn wallet_index_apply(
        &self,
        chain: ChainId,
        wallet: &str,
        expected_next: Option<i64>,
        state: &LogIndexState,
        contacts: &[WalletContact],
    ) -> Result<bool, StoreError> {
        on_db!(self.writer(), p => {
            let mut tx = p.begin().await?;
            if !claim_log_index!(tx, chain, LogIndexKind::Wallet, wallet, expected_next, state) {
                tx.rollback().await?;
                return Ok(false);
            }
            for c in contacts {
                sqlx::query(
                    "INSERT INTO wallet_contacts (chain, wallet, kind, token, spender) VALUES ($1, $2, $3, $4, $5) \
                     ON CONFLICT (chain, wallet, kind, token, spender) DO NOTHING",
                )
                .bind(chain.id())
                .bind(wallet)
                .bind(c.kind)
                .bind(&c.token)
                .bind(&c.spender)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(true)
    }

    async fn wallet_contacts(
        &self,
        chain: ChainId,
        wallet: &str,
    ) -> Result<Vec<WalletContact>, StoreError> {
        Ok(on_db!(self.pool(), p => sqlx::query_as(
            "SELECT kind, token, spender FROM wallet_contacts WHERE chain = $1 AND wallet = $2 ORDER BY kind, token, spender",
        )
        .bind(chain.id())
        .bind(wallet)
        .fetch_all(p)
        .await)?)
    }
}
