//! API keys: their shape, secrets, hashing and verification, and the
//! account-scoped operations on them. HTTP-agnostic.

mod cache;
mod uses;

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use rand::Rng;
use riskintel_api::Scope;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

pub use cache::{KeyCache, Lookup};
pub use uses::KeyUses;

use riskintel_store::clock::Clock;
use riskintel_store::{Account, KeyRecord, KeyWithAccount, Revocation, Store, StoreError};

/// Every key starts with this.
pub const KEY_PREFIX: &str = "ri_live_";
/// Length of a key id.
pub const KEY_ID_LEN: usize = 12;
/// Length of the hex secret.
pub const SECRET_HEX_LEN: usize = 64;
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

/// A key as presented by a client, split into its parts.
#[derive(Debug, PartialEq)]
pub struct PresentedKey<'a> {
    /// The id part.
    pub id: &'a str,
    /// The secret part (64 lowercase hex).
    pub secret: &'a str,
}

/// Split `ri_live_<id>.<64 hex>`; None for anything else.
pub fn parse_key(raw: &str) -> Option<PresentedKey<'_>> {
    let rest = raw.strip_prefix(KEY_PREFIX)?;
    let (id, secret) = rest.split_once('.')?;
    let id_ok = is_key_id(id);
    let secret_ok = secret.len() == SECRET_HEX_LEN
        && secret
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    (id_ok && secret_ok).then_some(PresentedKey { id, secret })
}

/// Whether `id` has the shape of a key id (12 of `[a-z0-9]`).
pub fn is_key_id(id: &str) -> bool {
    id.len() == KEY_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// SHA-256 of a secret, hex.
pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Constant-time equality of two hex hashes.
fn hashes_equal(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// A fresh key id: 12 characters of `[a-z0-9]`.
pub fn new_key_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..KEY_ID_LEN)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A fresh secret: 32 bytes from the OS RNG, as 64 hex.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the OS random source works");
    hex::encode(bytes)
}

use rand::TryRngCore;

/// The full key from its parts.
pub fn full_key(id: &str, secret: &str) -> String {
    format!("{KEY_PREFIX}{id}.{secret}")
}

/// The key with its secret elided.
pub fn display_key(id: &str) -> String {
    format!("{KEY_PREFIX}{id}.…")
}

/// Whether `secret` authenticates `key` at `now`: the current secret, or
/// the previous one while its grace period lasts; never a revoked or
/// expired key.
pub fn secret_matches(key: &KeyRecord, secret: &str, now: DateTime<Utc>) -> bool {
    if key.revoked_at.is_some() || key.expires_at.is_some_and(|t| t <= now) {
        return false;
    }
    let presented = hash_secret(secret);
    let current = hashes_equal(&presented, &key.secret_hash);
    let previous = match (&key.previous_secret_hash, key.previous_valid_until) {
        (Some(hash), Some(until)) if until > now => hashes_equal(&presented, hash),
        _ => false,
    };
    current | previous
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
    async fn find(&self, id: &str) -> Result<Option<KeyWithAccount>, KeyError> {
        match self.cache.get(id) {
            Lookup::Known(found) => Ok(Some(found)),
            Lookup::Unknown => Ok(None),
            Lookup::Miss(generation) => {
                let found = self.store.key_get(id).await?;
                self.cache.put(id, generation, found.clone());
                Ok(found)
            }
        }
    }

    /// Authenticate a raw header value; the key and its account on success.
    pub async fn authenticate(&self, raw: &str) -> Result<KeyWithAccount, KeyError> {
        const INVALID: &str = "invalid API key";
        let presented = parse_key(raw).ok_or(KeyError::Unauthenticated(
            "malformed API key: expected ri_live_<id>.<64 lowercase hex>",
        ))?;
        let found = self.find(presented.id).await?;
        let now = self.clock.now();
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
            let at = self.clock.now_seconds();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_the_documented_shape_and_parse_back() {
        let id = new_key_id();
        let secret = new_secret();
        let key = full_key(&id, &secret);
        assert!(key.starts_with("ri_live_"));
        assert_eq!(
            parse_key(&key),
            Some(PresentedKey {
                id: &id,
                secret: &secret
            })
        );
        assert_ne!(new_secret(), secret);
    }

    #[test]
    fn malformed_keys_do_not_parse() {
        let good_secret = "a".repeat(64);
        for bad in [
            String::new(),
            format!("ri_test_abcdefghijkl.{good_secret}"),
            format!("ri_live_abcdefghijk.{good_secret}"),
            format!("ri_live_ABCDEFGHIJKL.{good_secret}"),
            format!("ri_live_abcdefghijkl.{}", "A".repeat(64)),
            format!("ri_live_abcdefghijkl.{}", "a".repeat(63)),
            format!("ri_live_abcdefghijkl{good_secret}"),
        ] {
            assert_eq!(parse_key(&bad), None, "{bad}");
        }
    }

    #[test]
    fn previous_secret_works_only_during_grace() {
        let now = Utc::now();
        let key = KeyRecord {
            id: "abcdefghijkl".into(),
            account_id: "acct".into(),
            name: "k".into(),
            scopes: vec![],
            secret_hash: hash_secret("new"),
            previous_secret_hash: Some(hash_secret("old")),
            previous_valid_until: Some(now + Duration::hours(1)),
            created_at: now,
            expires_at: None,
            last_used_at: None,
            rotated_at: Some(now),
            revoked_at: None,
        };
        assert!(secret_matches(&key, "new", now));
        assert!(secret_matches(&key, "old", now));
        assert!(!secret_matches(&key, "old", now + Duration::hours(1)));
        assert!(!secret_matches(&key, "other", now));
        let revoked = KeyRecord {
            revoked_at: Some(now),
            ..key.clone()
        };
        assert!(!secret_matches(&revoked, "new", now));
        let expired = KeyRecord {
            expires_at: Some(now),
            ..key
        };
        assert!(!secret_matches(&expired, "new", now));
    }
}
