//! Verified keys in memory, so a known key costs no database work: each
//! entry holds the key with its account (scopes, plan, grace window,
//! expiry — all checked against the clock on every request). Unknown key
//! ids are remembered for a short time, so a flood of bad keys costs no
//! database work either. Every change to a key or an account's plan, made
//! by any instance or the CLI, bumps the store's auth version (database
//! triggers); the server's watcher reads it every sync interval and clears
//! the cache when it moved. While the version cannot be read, the cache is
//! not trusted and every request asks the store.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use riskintel_store::KeyWithAccount;

/// How long an unknown key id is remembered.
const UNKNOWN_FOR: Duration = Duration::from_secs(5);
/// Entries kept at most (unknown ids are dropped first).
const CAPACITY: usize = 100_000;
/// How often a full cache may be swept of expired unknown keys.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// What the cache says of a key id.
#[derive(Debug)]
pub enum Lookup {
    /// The key and its account (shared with the cache, not copied).
    Known(Arc<KeyWithAccount>),
    /// No such key (asked recently).
    Unknown,
    /// Ask the store; put the answer back with this generation.
    Miss(u64),
}

enum Entry {
    Known(Arc<KeyWithAccount>),
    Unknown(Instant),
}

struct State {
    /// Bumped on every clear: an answer read before a clear is not kept.
    generation: u64,
    /// The store's auth version the entries agree with.
    version: Option<i64>,
    /// When the version was last read (None: never, so nothing is trusted).
    checked: Option<Instant>,
    entries: HashMap<String, Entry>,
    /// When a full map was last swept of expired unknowns.
    swept: Option<Instant>,
}

impl State {
    /// Drop every entry, and answers read before now.
    fn reset(&mut self) {
        self.generation += 1;
        self.entries.clear();
    }
}

/// The key cache of one instance.
pub struct KeyCache {
    /// Longest time without a version check before the cache is bypassed.
    trust_for: Duration,
    state: Mutex<State>,
}

impl KeyCache {
    /// A cache trusted for `trust_for` after each successful version check.
    pub fn new(trust_for: Duration) -> KeyCache {
        KeyCache {
            trust_for,
            state: Mutex::new(State {
                generation: 0,
                version: None,
                checked: None,
                entries: HashMap::new(),
                swept: None,
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What is known of key `id`.
    pub fn get(&self, id: &str) -> Lookup {
        let state = self.state();
        let trusted = state
            .checked
            .is_some_and(|at| at.elapsed() < self.trust_for);
        match state.entries.get(id) {
            Some(Entry::Known(found)) if trusted => Lookup::Known(Arc::clone(found)),
            Some(Entry::Unknown(until)) if trusted && *until > Instant::now() => Lookup::Unknown,
            _ => Lookup::Miss(state.generation),
        }
    }

    /// Keep the store's answer for `id`, read at `generation`.
    pub fn put(&self, id: &str, generation: u64, found: Option<KeyWithAccount>) {
        let mut state = self.state();
        if state.generation != generation || state.checked.is_none() {
            return;
        }
        if state.entries.len() >= CAPACITY {
            // Full: sweep expired unknowns at most once a second (a flood of
            // bad keys would otherwise scan the map on every miss).
            let now = Instant::now();
            if state.swept.is_some_and(|at| now < at + SWEEP_EVERY) {
                return;
            }
            state.swept = Some(now);
            state.entries.retain(|_, e| match e {
                Entry::Known(_) => true,
                Entry::Unknown(until) => *until > now,
            });
            if state.entries.len() >= CAPACITY {
                return;
            }
        }
        let entry = match found {
            Some(found) => Entry::Known(Arc::new(found)),
            None => Entry::Unknown(Instant::now() + UNKNOWN_FOR),
        };
        state.entries.insert(id.to_string(), entry);
    }

    /// Record a key's last use in its entry.
    pub fn touched(&self, id: &str, at: DateTime<Utc>) {
        // Once a minute per key at most: a new record for the requests
        // after it, the one in their hands unchanged.
        if let Some(Entry::Known(found)) = self.state().entries.get_mut(id) {
            Arc::make_mut(found).key.last_used_at = Some(at);
        }
    }

    /// Forget everything (a key or plan changed).
    pub fn clear(&self) {
        self.state().reset();
    }

    /// The store's auth version, just read: entries from another version are dropped.
    pub fn observe(&self, version: i64) {
        let mut state = self.state();
        if state.version != Some(version) {
            state.reset();
            state.version = Some(version);
        }
        state.checked = Some(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskintel_api::Plan;
    use riskintel_store::{Account, KeyRecord};

    fn key(id: &str) -> KeyWithAccount {
        let now = Utc::now();
        KeyWithAccount {
            key: KeyRecord {
                id: id.into(),
                account_id: "a".into(),
                name: "n".into(),
                scopes: vec![],
                secret_hash: "h".into(),
                previous_secret_hash: None,
                previous_valid_until: None,
                created_at: now,
                expires_at: None,
                last_used_at: None,
                rotated_at: None,
                revoked_at: None,
            },
            account: Account {
                id: "a".into(),
                name: "acct".into(),
                plan: Plan::Free,
                created_at: now,
            },
        }
    }

    #[test]
    fn nothing_is_trusted_before_a_version_check() {
        let cache = KeyCache::new(Duration::from_secs(2));
        let Lookup::Miss(generation) = cache.get("k") else {
            panic!("a miss")
        };
        cache.put("k", generation, Some(key("k")));
        assert!(matches!(cache.get("k"), Lookup::Miss(_)));
    }

    #[test]
    fn a_new_version_or_a_clear_drops_entries_and_late_answers() {
        let cache = KeyCache::new(Duration::from_secs(2));
        cache.observe(1);
        let Lookup::Miss(generation) = cache.get("k") else {
            panic!("a miss")
        };
        cache.put("k", generation, Some(key("k")));
        assert!(matches!(cache.get("k"), Lookup::Known(_)));
        cache.observe(1);
        assert!(matches!(cache.get("k"), Lookup::Known(_)), "same version");
        cache.observe(2);
        assert!(matches!(cache.get("k"), Lookup::Miss(_)));
        // An answer read before the change is not kept.
        cache.put("k", generation, Some(key("k")));
        assert!(matches!(cache.get("k"), Lookup::Miss(_)));
        let Lookup::Miss(generation) = cache.get("x") else {
            panic!("a miss")
        };
        cache.put("x", generation, None);
        assert!(matches!(cache.get("x"), Lookup::Unknown));
        cache.clear();
        assert!(matches!(cache.get("x"), Lookup::Miss(_)));
    }

    #[test]
    fn an_unchecked_cache_is_bypassed() {
        let cache = KeyCache::new(Duration::from_millis(0));
        cache.observe(1);
        let Lookup::Miss(generation) = cache.get("k") else {
            panic!("a miss")
        };
        cache.put("k", generation, Some(key("k")));
        assert!(matches!(cache.get("k"), Lookup::Miss(_)));
    }
}
