//! API keys: their shape, secrets, hashing and verification, and the
//! account-scoped operations on them. HTTP-agnostic.

mod cache;
mod secret;
mod uses;

use std::sync::Arc;

use chrono::{DateTime, Duration, SubsecRound, Utc};
use riskintel_api::Scope;

pub use cache::{KeyCache, Lookup};
pub use secret::{
    display_key, full_key, hash_secret, is_key_id, new_key_id, new_secret, parse_key,
    secret_matches, PresentedKey, KEY_ID_LEN, KEY_PREFIX, SECRET_HEX_LEN,
};
pub use uses::KeyUses;

use riskintel_store::clock::Clock;
use riskintel_store::{Account, KeyRecord, KeyWithAccount, Revocation, Store, StoreError};

/// How long a secret replaced by rotation keeps working.
pub const ROTATION_GRACE_HOURS: i64 = 24;
/// Longest key name.
pub const MAX_NAME_LEN: usize = 64;

/// What can go wrong with keys.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// No usable key was presented.
    #[error("{0}")]
    Unauthenticated(&'static str),
    /// The key lacks a scope.
    #[error("this key lacks the `{}` scope", .0.as_str())]
    MissingScope(Scope),
    /// Not found in this account.
    #[error("no API key with id {0:?} in this account")]
    NotFound(String),
    /// Duplicate active name.
    #[error("the account already has a key named {0:?}")]
    DuplicateName(String),
    /// A revocation that would lock the account out of managing its keys.
    #[error("{0}")]
    WouldLockOut(String),
    /// Bad input, naming the field and the rule.
    #[error("{0}")]
    Invalid(String),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Feed `cache` the store's auth version for as long as it runs (the
/// server's task): every `every`, and at once when PostgreSQL announces a
/// change (LISTEN/NOTIFY; after a lost listening connection, the periodic
/// check carries on alone). A failed read is logged once until reads work
/// again; meanwhile the cache stops being trusted on its own.
pub async fn sync(
    store: Arc<dyn Store>,
    cache: Arc<KeyCache>,
    every: std::time::Duration,
    log: slog::Logger,
) {
    let mut listener = match store.auth_listener().await {
        Ok(listener) => listener,
        Err(error) => {
            slog::warn!(log, "cannot listen for key changes; checking every sync interval only"; "error" => %error);
            None
        }
    };
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut failing = false;
    loop {
        let announced = async {
            match listener.as_mut() {
                Some(l) => Some(l.try_recv().await),
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = tick.tick() => {}
            heard = announced => {
                if let Some(Err(error)) = heard {
                    slog::warn!(log, "listening for key changes failed; checking every sync interval only"; "error" => %error);
                    listener = None;
                }
            }
        }
        match store.auth_version().await {
            Ok(version) => {
                if failing {
                    slog::info!(log, "reading the auth version works again");
                }
                failing = false;
                cache.observe(version);
            }
            Err(error) if !failing => {
                failing = true;
                slog::warn!(log, "reading the auth version failed; keys are read from the database until it works"; "error" => %error);
            }
            Err(_) => {}
        }
    }
}

/// A newly issued secret and the record it belongs to.
#[derive(Debug)]
pub struct IssuedKey {
    /// The full key, to show once.
    pub key: String,
    /// The stored record.
    pub record: KeyRecord,
}

/// Key operations for one store and clock, with the verified keys in memory.
#[derive(Clone)]
pub struct Keys {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    cache: Arc<KeyCache>,
    uses: Arc<KeyUses>,
}

/// How long the key cache is trusted after the last auth-version check
/// (the server checks every sync interval; past this, every request asks
/// the store).
const CACHE_TRUST: std::time::Duration = std::time::Duration::from_secs(2);

impl Keys {
    /// Key operations on `store`, timed by `clock`. Its cache is trusted
    /// only while something feeds it the store's auth version
    /// ([`Keys::cache`], [`KeyCache::observe`]); the server does.
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> Self {
        Keys {
            store,
            clock,
            cache: Arc::new(KeyCache::new(CACHE_TRUST)),
            uses: Arc::default(),
        }
    }

    /// Last uses not yet written (the usage flush writes them).
    pub fn uses(&self) -> &Arc<KeyUses> {
        &self.uses
    }

    /// The verified keys in memory.
    pub fn cache(&self) -> &Arc<KeyCache> {
        &self.cache
    }

    /// The key `id` with its account: from memory, or from the store (and
    /// then remembered, a miss included).
    async fn find(&self, id: &str) -> Result<Option<Arc<KeyWithAccount>>, KeyError> {
        match self.cache.get(id) {
            Lookup::Known(found) => Ok(Some(found)),
            Lookup::Unknown => Ok(None),
            Lookup::Miss(generation) => {
                let found = self.store.key_get(id).await?;
                self.cache.put(id, generation, found.clone());
                Ok(found.map(Arc::new))
            }
        }
    }

    /// Authenticate a raw header value at `now`; the key and its account
    /// on success (the cache's record, shared).
    pub async fn authenticate(
        &self,
        raw: &str,
        now: DateTime<Utc>,
    ) -> Result<Arc<KeyWithAccount>, KeyError> {
        const INVALID: &str = "invalid API key";
        let presented = parse_key(raw).ok_or(KeyError::Unauthenticated(
            "malformed API key: expected ri_live_<id>.<64 lowercase hex>",
        ))?;
        let found = self.find(presented.id).await?;
        let Some(found) = found else {
            return Err(KeyError::Unauthenticated(INVALID));
        };
        if found.key.revoked_at.is_some() {
            return Err(KeyError::Unauthenticated("this API key has been revoked"));
        }
        if found.key.expires_at.is_some_and(|t| t <= now) {
            return Err(KeyError::Unauthenticated("this API key has expired"));
        }
        if !secret_matches(&found.key, presented.secret, now) {
            return Err(KeyError::Unauthenticated(INVALID));
        }
        // Coarse last-use tracking: at most one update a minute per key,
        // written with the next usage flush.
        let stale = found
            .key
            .last_used_at
            .is_none_or(|t| now - t >= Duration::minutes(1));
        if stale {
            let at = now.trunc_subsecs(0);
            self.uses.record(&found.key.id, at);
            self.cache.touched(&found.key.id, at);
        }
        Ok(found)
    }

    /// Issue a key for `account`. `granting` is the key making the request
    /// (None for the operator CLI, which may grant anything).
    pub async fn create(
        &self,
        account: &Account,
        name: &str,
        scopes: Option<Vec<Scope>>,
        expires_at: Option<DateTime<Utc>>,
        granting: Option<&KeyRecord>,
    ) -> Result<IssuedKey, KeyError> {
        let name = validate_name(name)?;
        let mut scopes = scopes.unwrap_or_else(|| Scope::READ.to_vec());
        scopes.sort();
        scopes.dedup();
        if scopes.is_empty() {
            return Err(KeyError::Invalid(
                "scopes: must name at least one scope".into(),
            ));
        }
        if let Some(granting) = granting {
            if scopes.contains(&Scope::KeysWrite) && !granting.scopes.contains(&Scope::KeysWrite) {
                return Err(KeyError::MissingScope(Scope::KeysWrite));
            }
        }
        let now = self.clock.now_seconds();
        if expires_at.is_some_and(|t| t <= now) {
            return Err(KeyError::Invalid(
                "expires_at: must be in the future".into(),
            ));
        }
        let secret = new_secret();
        let record = KeyRecord {
            id: new_key_id(),
            account_id: account.id.clone(),
            name: name.to_string(),
            scopes,
            secret_hash: hash_secret(&secret),
            previous_secret_hash: None,
            previous_valid_until: None,
            created_at: now,
            expires_at,
            last_used_at: None,
            rotated_at: None,
            revoked_at: None,
        };
        match self.store.key_insert(&record).await {
            Ok(()) => Ok(IssuedKey {
                key: full_key(&record.id, &secret),
                record,
            }),
            Err(StoreError::Conflict(_)) => Err(KeyError::DuplicateName(name.to_string())),
            Err(e) => Err(e.into()),
        }
    }

    /// One active key of `account_id`.
    pub async fn get(&self, account_id: &str, key_id: &str) -> Result<KeyRecord, KeyError> {
        if !is_key_id(key_id) {
            return Err(KeyError::NotFound(key_id.chars().take(64).collect()));
        }
        match self.store.key_get(key_id).await? {
            Some(found) if found.key.account_id == account_id && found.key.revoked_at.is_none() => {
                Ok(self.with_last_use(found.key))
            }
            _ => Err(KeyError::NotFound(key_id.to_string())),
        }
    }

    /// A page of the account's active keys after `after`.
    pub async fn list(
        &self,
        account_id: &str,
        after: Option<(DateTime<Utc>, String)>,
        limit: usize,
    ) -> Result<Vec<KeyRecord>, KeyError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let records = self.store.key_list(account_id, after, limit).await?;
        Ok(records.into_iter().map(|r| self.with_last_use(r)).collect())
    }

    /// The record with this instance's last use not yet written.
    fn with_last_use(&self, mut record: KeyRecord) -> KeyRecord {
        record.last_used_at = record.last_used_at.max(self.uses.unwritten(&record.id));
        record
    }

    /// Revoke a key of `account_id` at once, grace secret included.
    pub async fn revoke(&self, account_id: &str, key_id: &str) -> Result<(), KeyError> {
        self.get(account_id, key_id).await?;
        let revoked = self
            .store
            .key_revoke(key_id, self.clock.now_seconds())
            .await?;
        // This instance refuses it at once; the others within a sync interval.
        self.cache.clear();
        if revoked {
            Ok(())
        } else {
            Err(KeyError::NotFound(key_id.to_string()))
        }
    }

    /// Revoke a key of `account_id` at the request of the key `by`: never
    /// `by` itself, nor the account's last active `keys:write` key (checked
    /// and revoked in one transaction, so two keys revoking each other at
    /// once cannot both go). The CLI's `keys revoke` is the way round both.
    pub async fn revoke_by(
        &self,
        account_id: &str,
        key_id: &str,
        by: &str,
    ) -> Result<(), KeyError> {
        if key_id == by {
            return Err(KeyError::WouldLockOut(format!(
                "a key cannot revoke itself: revoke {key_id} with another key that has the `keys:write` scope, or with the CLI (`riskintel keys revoke --key-id {key_id}`)"
            )));
        }
        self.get(account_id, key_id).await?;
        let outcome = self
            .store
            .key_revoke_keeping_writer(account_id, key_id, self.clock.now_seconds())
            .await?;
        self.cache.clear();
        match outcome {
            Revocation::Revoked => Ok(()),
            Revocation::NotActive => Err(KeyError::NotFound(key_id.to_string())),
            Revocation::LastWriter => Err(KeyError::WouldLockOut(format!(
                "{key_id} is the account's last active key with the `keys:write` scope: create another such key first, or use the CLI (`riskintel keys revoke --key-id {key_id}`)"
            ))),
        }
    }

    /// Issue a new secret for a key of `account_id`; the replaced secret
    /// keeps working for 24 hours, any older one stops now.
    pub async fn rotate(&self, account_id: &str, key_id: &str) -> Result<IssuedKey, KeyError> {
        let current = self.get(account_id, key_id).await?;
        let secret = new_secret();
        let now = self.clock.now_seconds();
        let valid_until = now + Duration::hours(ROTATION_GRACE_HOURS);
        let new_hash = hash_secret(&secret);
        let rotated = self
            .store
            .key_rotate(key_id, &new_hash, &current.secret_hash, valid_until, now)
            .await?;
        self.cache.clear();
        if !rotated {
            // Revoked, or rotated by a concurrent request, since we read it.
            return Err(KeyError::NotFound(key_id.to_string()));
        }
        let record = KeyRecord {
            secret_hash: new_hash,
            previous_secret_hash: Some(current.secret_hash.clone()),
            previous_valid_until: Some(valid_until),
            rotated_at: Some(now),
            ..current
        };
        Ok(IssuedKey {
            key: full_key(key_id, &secret),
            record,
        })
    }
}

fn validate_name(name: &str) -> Result<&str, KeyError> {
    if name.is_empty() {
        return Err(KeyError::Invalid("name: must not be empty".into()));
    }
    // As the document's pattern says: the name is kept as sent, so it may
    // not begin or end with white space.
    if name.trim() != name {
        return Err(KeyError::Invalid(
            "name: must not begin or end with white space".into(),
        ));
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(KeyError::Invalid(format!(
            "name: must be at most {MAX_NAME_LEN} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(KeyError::Invalid(
            "name: must not contain control characters".into(),
        ));
    }
    Ok(name)
}
