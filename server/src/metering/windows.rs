//! Per-account rate windows in memory (and per client IP, for failed
//! authentications: keys `ip:<address>`). Each instance counts the requests it
//! serves in the current one-minute window, publishes its counts to the
//! shared store every sync interval (one statement for all accounts), and
//! reads the other instances' latest counts back; a request is over the
//! limit when its own instance's count plus the others' exceeds it.
//!
//! The bound: what another instance served since it last published, and
//! since this one last read, is not seen yet — with N instances the
//! overshoot is at most what the other N − 1 served in two sync intervals
//! (one before their publication, one before this instance's read), and
//! never more than (N − 1) × the limit. A crash loses at most one sync
//! interval of one instance's counts.

use std::collections::HashMap;
use std::sync::Mutex;

use chrono::{DateTime, Utc};

/// One window's counts.
struct Window {
    start: DateTime<Utc>,
    /// This instance's requests per account.
    own: HashMap<String, u64>,
    /// The other instances' latest published requests per account.
    others: HashMap<String, u64>,
}

/// The rate windows of one instance.
pub struct RateWindows {
    /// This instance, in the shared store.
    instance: String,
    window: Mutex<Window>,
}

impl RateWindows {
    /// Windows for the instance named `instance`.
    pub fn new(instance: String) -> RateWindows {
        RateWindows {
            instance,
            window: Mutex::new(Window {
                start: DateTime::<Utc>::MIN_UTC,
                own: HashMap::new(),
                others: HashMap::new(),
            }),
        }
    }

    /// This instance's name in the shared store.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// The window, moved on to `start` if that is later; and whether it is
    /// the window starting at `start` (a late caller's window has ended).
    fn window(&self, start: DateTime<Utc>) -> (std::sync::MutexGuard<'_, Window>, bool) {
        let mut window = self.window.lock().unwrap_or_else(|e| e.into_inner());
        if window.start < start {
            window.start = start;
            window.own.clear();
            window.others.clear();
        }
        let current = window.start == start;
        (window, current)
    }

    /// Count one request of `account` in the window starting at `start`;
    /// the window's count across instances, this request included.
    pub fn hit(&self, account: &str, start: DateTime<Utc>) -> u64 {
        self.hit_by(account, start, 1)
    }

    /// Count `n` requests of `account` at once (a batch's items); the
    /// window's count across instances after it.
    pub fn hit_by(&self, account: &str, start: DateTime<Utc>, n: u64) -> u64 {
        let (mut window, _) = self.window(start);
        // The account's own count, its name copied only on its first request.
        let own = match window.own.get_mut(account) {
            Some(own) => {
                *own += n;
                *own
            }
            None => {
                window.own.insert(account.to_string(), n);
                n
            }
        };
        own + window.others.get(account).copied().unwrap_or(0)
    }

    /// The window's count of `key` across instances, without counting.
    pub fn peek(&self, key: &str, start: DateTime<Utc>) -> u64 {
        let (window, current) = self.window(start);
        if !current {
            return 0;
        }
        window.own.get(key).copied().unwrap_or(0) + window.others.get(key).copied().unwrap_or(0)
    }

    /// This instance's counts in the window starting at `start`, to publish
    /// (none once that window has ended).
    pub fn own(&self, start: DateTime<Utc>) -> Vec<(String, i64)> {
        let (window, current) = self.window(start);
        if !current {
            return Vec::new();
        }
        window
            .own
            .iter()
            .map(|(account, n)| (account.clone(), i64::try_from(*n).unwrap_or(i64::MAX)))
            .collect()
    }

    /// The other instances' counts in the window starting at `start`, just
    /// read (ignored once that window has ended).
    pub fn absorb(&self, start: DateTime<Utc>, others: Vec<(String, i64)>) {
        let (mut window, current) = self.window(start);
        if current {
            window.others = others
                .into_iter()
                .map(|(account, n)| (account, u64::try_from(n).unwrap_or(0)))
                .collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn own_counts_add_to_the_others_and_reset_each_minute() {
        let windows = RateWindows::new("a".into());
        let minute = Utc.with_ymd_and_hms(2026, 11, 23, 10, 0, 0).unwrap();
        assert_eq!(windows.hit("x", minute), 1);
        assert_eq!(windows.hit("x", minute), 2);
        windows.absorb(minute, vec![("x".into(), 40), ("y".into(), 5)]);
        assert_eq!(windows.hit("x", minute), 43);
        assert_eq!(windows.hit("y", minute), 6);
        assert_eq!(windows.own(minute).len(), 2);
        let next = minute + chrono::Duration::minutes(1);
        assert_eq!(windows.hit("x", next), 1, "a new window starts empty");
        // Counts read for an ended window are not carried into the next.
        windows.absorb(minute, vec![("x".into(), 99)]);
        assert!(windows.own(minute).is_empty());
        assert_eq!(windows.hit("x", next), 2);
    }
}
