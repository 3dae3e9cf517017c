//! Last uses of keys, kept in memory and written with the usage flush
//! (`last_used_at` is coarse: at most one update a minute per key).

use std::collections::HashMap;
use std::sync::Mutex;

use chrono::{DateTime, Utc};

/// Key uses not yet written, latest per key id.
#[derive(Default)]
pub struct KeyUses {
    pending: Mutex<HashMap<String, DateTime<Utc>>>,
}

impl KeyUses {
    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<String, DateTime<Utc>>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Key `id` was used at `at`.
    pub fn record(&self, id: &str, at: DateTime<Utc>) {
        let mut pending = self.pending();
        let latest = pending.entry(id.to_string()).or_insert(at);
        *latest = (*latest).max(at);
    }

    /// The last use of `id` not yet written, if any.
    pub fn unwritten(&self, id: &str) -> Option<DateTime<Utc>> {
        self.pending().get(id).copied()
    }

    /// Everything not yet written, to write now.
    pub fn take(&self) -> Vec<(String, DateTime<Utc>)> {
        self.pending().drain().collect()
    }

    /// Put back uses whose write failed (later uses recorded since win).
    pub fn restore(&self, uses: Vec<(String, DateTime<Utc>)>) {
        for (id, at) in uses {
            self.record(&id, at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_latest_use_wins_and_failed_writes_come_back() {
        let uses = KeyUses::default();
        let t = |s| Utc.timestamp_opt(s, 0).unwrap();
        uses.record("a", t(10));
        uses.record("a", t(5));
        assert_eq!(uses.unwritten("a"), Some(t(10)));
        let taken = uses.take();
        assert_eq!(taken, vec![("a".to_string(), t(10))]);
        assert_eq!(uses.unwritten("a"), None);
        uses.record("a", t(20));
        uses.restore(taken);
        assert_eq!(uses.take(), vec![("a".to_string(), t(20))]);
    }
}
