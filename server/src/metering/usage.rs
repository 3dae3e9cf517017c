//! Monthly usage in memory, persisted in batches. Each instance counts the
//! 2xx answers it gives per account and period, and adds them to the store
//! every flush interval in one transaction (and once more on a graceful
//! shutdown, before the database closes); a crash loses at most one flush
//! interval of this instance's counts. The total an account has used is
//! what the store held when this instance last flushed or read it, plus
//! what this instance has answered since.
//!
//! A hard-capped account (free) is refused with 402 only once its 2xx
//! answers have used the quota. While requests already admitted could
//! still use the last of it, a new request waits for them to be answered
//! (admitted if one of them failed, refused if they used it up) — never an
//! early 402 for requests merely in flight, and no overshoot on one
//! instance. Several instances can overshoot the cap by what the others
//! answered since their last flush.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use chrono::{DateTime, Utc};
use tokio::sync::Notify;

use riskintel_store::{Store, StoreError};

type Key = (String, DateTime<Utc>);

/// The counters by period, then account: found by the account's name
/// without copying it (a copy is made on an account's first request of a
/// period only).
type Counters = HashMap<DateTime<Utc>, HashMap<String, Counter>>;

/// The counter of `account` in `period`, made if missing.
fn counter<'a>(
    counters: &'a mut Counters,
    account: &str,
    period: DateTime<Utc>,
) -> &'a mut Counter {
    let accounts = counters.entry(period).or_default();
    if !accounts.contains_key(account) {
        accounts.insert(account.to_string(), Counter::default());
    }
    accounts.get_mut(account).expect("just made")
}

/// One account's usage in one period, as this instance knows it.
#[derive(Default)]
struct Counter {
    /// The store's total when last flushed or read (every instance's).
    stored: i64,
    /// 2xx answers of this instance not yet flushed.
    pending: i64,
    /// Being written by a flush under way.
    flushing: i64,
    /// Admitted and not yet answered.
    in_flight: i64,
}

impl Counter {
    fn answered(&self) -> i64 {
        self.stored + self.pending + self.flushing
    }
}

/// The counter of an (account, period), if there is one.
fn get_mut<'a>(counters: &'a mut Counters, (account, period): &Key) -> Option<&'a mut Counter> {
    counters.get_mut(period)?.get_mut(account)
}

/// What a reservation decides.
#[derive(Debug, PartialEq, Eq)]
pub enum Admission {
    /// Admitted: count it with [`UsageCounts::settle`] when answered.
    Admitted,
    /// The hard cap is used up by 2xx answers.
    Exhausted,
}

/// The usage counters of one instance.
pub struct UsageCounts {
    counters: Mutex<Counters>,
    answered: Notify,
}

impl std::fmt::Debug for UsageCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UsageCounts").finish_non_exhaustive()
    }
}

impl Default for UsageCounts {
    fn default() -> Self {
        UsageCounts::new()
    }
}

impl UsageCounts {
    /// No usage known yet.
    pub fn new() -> UsageCounts {
        UsageCounts {
            counters: Mutex::new(HashMap::new()),
            answered: Notify::new(),
        }
    }

    fn counters(&self) -> MutexGuard<'_, Counters> {
        self.counters.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Make sure the account's counter of the period is loaded from the store.
    async fn load(
        &self,
        store: &dyn Store,
        account: &str,
        period: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let known = |c: &Counters| c.get(&period).is_some_and(|a| a.contains_key(account));
        if known(&self.counters()) {
            return Ok(());
        }
        let stored = store.usage_get(account, period).await?;
        let mut counters = self.counters();
        if !known(&counters) {
            counter(&mut counters, account, period).stored = stored;
        }
        Ok(())
    }

    /// Admit a request of `account` in `period` under `cap` (None: no cap).
    pub async fn reserve(
        &self,
        store: &dyn Store,
        account: &str,
        period: DateTime<Utc>,
        cap: Option<i64>,
    ) -> Result<Admission, StoreError> {
        self.load(store, account, period).await?;
        loop {
            let answered = self.answered.notified();
            tokio::pin!(answered);
            {
                let mut counters = self.counters();
                let counter = counter(&mut counters, account, period);
                match cap {
                    Some(cap) if counter.answered() >= cap => return Ok(Admission::Exhausted),
                    Some(cap) if counter.answered() + counter.in_flight >= cap => {
                        // Wait for one in flight to be answered, registered before unlocking.
                        answered.as_mut().enable();
                    }
                    _ => {
                        counter.in_flight += 1;
                        return Ok(Admission::Admitted);
                    }
                }
            }
            answered.await;
        }
    }

    /// An admitted request was answered; `counted` when its answer was 2xx.
    pub fn settle(&self, account: &str, period: DateTime<Utc>, counted: bool) {
        {
            let mut counters = self.counters();
            let counter = counter(&mut counters, account, period);
            counter.in_flight -= 1;
            if counted {
                counter.pending += 1;
            }
        }
        self.answered.notify_waiters();
    }

    /// Count `n` more answered requests of `account` in `period` (a batch's
    /// items answered with a result).
    pub fn add(&self, account: &str, period: DateTime<Utc>, n: i64) {
        counter(&mut self.counters(), account, period).pending += n;
    }

    /// Requests of `account` counted in `period`: answered, and in flight.
    pub async fn used(
        &self,
        store: &dyn Store,
        account: &str,
        period: DateTime<Utc>,
    ) -> Result<i64, StoreError> {
        self.load(store, account, period).await?;
        let counters = self.counters();
        Ok(counters
            .get(&period)
            .and_then(|a| a.get(account))
            .map_or(0, |c| c.answered() + c.in_flight))
    }

    /// Apply a flush's outcome: the totals learnt, or the counts put back
    /// to pending when the write failed.
    fn written(
        &self,
        batch: &[(Key, i64)],
        written: Result<Vec<i64>, StoreError>,
    ) -> Result<(), StoreError> {
        let mut counters = self.counters();
        match written {
            Ok(totals) => {
                for ((key, delta), total) in batch.iter().zip(totals) {
                    if let Some(counter) = get_mut(&mut counters, key) {
                        counter.flushing -= delta;
                        counter.stored = total;
                    }
                }
                Ok(())
            }
            Err(error) => {
                for (key, delta) in batch {
                    if let Some(counter) = get_mut(&mut counters, key) {
                        counter.flushing -= delta;
                        counter.pending += delta;
                    }
                }
                Err(error)
            }
        }
    }

    /// Add what this instance answered since the last flush to the store,
    /// with the keys' last uses, in one transaction, and learn the totals
    /// of the `current` period back (the other instances' flushes
    /// included). Idle counters of earlier periods are dropped. On failure
    /// the counts stay pending.
    pub async fn flush(
        &self,
        store: &dyn Store,
        key_uses: &[(String, DateTime<Utc>)],
        current: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let (batch, known): (Vec<(Key, i64)>, Vec<Key>) = {
            let mut counters = self.counters();
            counters.retain(|period, accounts| {
                accounts.retain(|_, c| {
                    *period >= current || c.pending != 0 || c.flushing != 0 || c.in_flight != 0
                });
                !accounts.is_empty()
            });
            let mut batch = Vec::new();
            let mut known = Vec::new();
            for (period, accounts) in counters.iter_mut() {
                for (account, counter) in accounts.iter_mut() {
                    let key = || (account.clone(), *period);
                    if counter.pending > 0 {
                        batch.push((key(), counter.pending));
                        counter.flushing += counter.pending;
                        counter.pending = 0;
                    } else if counter.flushing == 0 && *period >= current {
                        known.push(key());
                    }
                }
            }
            (batch, known)
        };
        let written = if batch.is_empty() && key_uses.is_empty() {
            Ok(Vec::new())
        } else {
            store.usage_add(&batch, key_uses).await
        };
        self.written(&batch, written)?;
        // What the other instances flushed, for the accounts this one knows.
        if !known.is_empty() {
            let totals = store.usage_totals(&known).await?;
            let mut counters = self.counters();
            for (key, total) in known.iter().zip(totals) {
                if let Some(counter) = get_mut(&mut counters, key) {
                    if counter.flushing == 0 {
                        counter.stored = total;
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[tokio::test]
    async fn the_edge_waits_for_requests_in_flight_and_never_overshoots() {
        let store = riskintel_store::open("sqlite::memory:").await.unwrap();
        let usage = std::sync::Arc::new(UsageCounts::new());
        let period = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap();
        let reserve = || usage.reserve(store.as_ref(), "a", period, Some(2));
        assert_eq!(reserve().await.unwrap(), Admission::Admitted);
        assert_eq!(reserve().await.unwrap(), Admission::Admitted);
        // Two in flight could use the quota: a third waits for them.
        let waiting = {
            let (usage, store) = (usage.clone(), store.clone());
            tokio::spawn(async move { usage.reserve(store.as_ref(), "a", period, Some(2)).await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(
            !waiting.is_finished(),
            "admitted while the quota could be used"
        );
        // One fails: the waiting request is admitted.
        usage.settle("a", period, false);
        assert_eq!(waiting.await.unwrap().unwrap(), Admission::Admitted);
        usage.settle("a", period, true);
        usage.settle("a", period, true);
        assert_eq!(reserve().await.unwrap(), Admission::Exhausted);
        assert_eq!(usage.used(store.as_ref(), "a", period).await.unwrap(), 2);
        usage.flush(store.as_ref(), &[], period).await.unwrap();
        assert_eq!(store.usage_get("a", period).await.unwrap(), 2);
    }
}
