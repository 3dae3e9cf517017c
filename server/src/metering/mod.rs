//! Metering: per-account one-minute rate windows, monthly usage and
//! quotas by plan (the plans are in `billing`), and the per-IP limit on
//! failed authentication.
//! HTTP-agnostic.

mod usage;
mod windows;

use std::net::IpAddr;
use std::sync::Arc;

use chrono::{DateTime, Duration, DurationRound, Utc};
use riskintel_api::Plan;

use crate::billing::{billing_period, plan};
pub use usage::{Admission, UsageCounts};
pub use windows::RateWindows;

use crate::keys::KeyUses;
use riskintel_store::clock::Clock;
use riskintel_store::{Account, KeyWithAccount, Store, StoreError};

/// What metering can refuse, or fail at.
#[derive(Debug, thiserror::Error)]
pub enum MeterError {
    /// Per-minute limit exceeded.
    #[error(
        "rate limit exceeded: the {} plan allows {limit} requests per minute per account; \
         retry after {retry_after} s, or upgrade to {upgrade} for a higher limit",
        crate::billing::plan(*plan).title
    )]
    RateLimited {
        /// The plan whose limit applies.
        plan: Plan,
        /// The limit.
        limit: u64,
        /// Seconds until the window ends.
        retry_after: u64,
        /// Where to upgrade to.
        upgrade: &'static str,
    },
    /// Too many failed authentications from one IP.
    #[error(
        "too many failed authentication attempts from this IP address (limit {limit} per minute); \
         retry after {retry_after} s with a valid key"
    )]
    AuthFailuresLimited {
        /// The limit.
        limit: u64,
        /// Seconds until the window ends.
        retry_after: u64,
    },
    /// The free monthly quota is used up.
    #[error(
        "monthly quota exhausted: the Free plan includes {included} requests per month and all \
         have been used; the quota renews on {renews}, or upgrade to Pro for 500,000 requests a month"
    )]
    QuotaExhausted {
        /// Included requests.
        included: u64,
        /// When the next period starts.
        renews: String,
    },
    /// The feature needs Pro or Pro+.
    #[error("{feature} needs the Pro or Pro+ plan; this account is on the {} plan", crate::billing::plan(*plan).title)]
    PremiumRequired {
        /// What was asked for.
        feature: &'static str,
        /// The account's plan.
        plan: Plan,
    },
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl MeterError {
    /// Seconds a client should wait, where the error says so.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            MeterError::RateLimited { retry_after, .. }
            | MeterError::AuthFailuresLimited { retry_after, .. } => Some(*retry_after),
            _ => None,
        }
    }
}

/// The state of one rate window after counting a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowState {
    /// Requests allowed in the window.
    pub limit: u64,
    /// Requests left (0 once over).
    pub remaining: u64,
    /// Unix seconds when the window ends.
    pub reset: i64,
    /// Seconds from now until then (at least 1).
    pub retry_after: u64,
    /// Whether this request is over the limit.
    pub exceeded: bool,
}

/// The fixed UTC-minute window containing `now`: (start, end).
pub fn minute_window(now: DateTime<Utc>) -> (DateTime<Utc>, DateTime<Utc>) {
    let start = now
        .duration_trunc(Duration::minutes(1))
        .expect("minute truncation");
    (start, start + Duration::minutes(1))
}

fn window_state(limit: u64, count: u64, now: DateTime<Utc>) -> WindowState {
    let (_, end) = minute_window(now);
    let until_end = (end - now).num_milliseconds().max(0) as u64;
    WindowState {
        limit,
        remaining: limit.saturating_sub(count),
        reset: end.timestamp(),
        retry_after: until_end.div_ceil(1000).max(1),
        exceeded: count > limit,
    }
}

/// A request admitted against the monthly usage, to be settled when
/// answered. Dropped unsettled (a handler that panicked or was cancelled),
/// it is settled as not counted, so requests waiting at a quota's edge are
/// never left waiting for it.
#[derive(Debug)]
pub struct Reservation {
    found: Arc<KeyWithAccount>,
    period_start: DateTime<Utc>,
    usage: Option<Arc<UsageCounts>>,
}

impl Reservation {
    /// Settle it (once): counted when the answer was 2xx.
    fn settle(&mut self, counted: bool) {
        if let Some(usage) = self.usage.take() {
            usage.settle(&self.found.account.id, self.period_start, counted);
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.settle(false);
    }
}

/// Metering over one store and clock.
#[derive(Clone)]
pub struct Meter {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    failed_auth_per_minute: u64,
    windows: Arc<RateWindows>,
    usage: Arc<UsageCounts>,
    /// When usage was last written (or metering started).
    flushed_at: Arc<std::sync::Mutex<std::time::Instant>>,
}

/// The rate-window key of a client IP's failed authentications.
fn failure_key(ip: IpAddr) -> String {
    format!("ip:{ip}")
}

impl Meter {
    /// Metering on `store`, timed by `clock`, allowing `failed_auth_per_minute`
    /// failures per IP, for the instance named `instance`.
    pub fn new(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        failed_auth_per_minute: u64,
        instance: &str,
    ) -> Self {
        Meter {
            usage: Arc::default(),
            flushed_at: Arc::new(std::sync::Mutex::new(std::time::Instant::now())),
            store,
            clock,
            failed_auth_per_minute,
            windows: Arc::new(RateWindows::new(instance.to_string())),
        }
    }

    /// Count a request at `now` in the account's current window (in
    /// memory; see [`RateWindows`] for how instances share their counts).
    pub fn hit(&self, account: &Account, now: DateTime<Utc>) -> WindowState {
        self.hit_by(account, 1, now)
    }

    /// Count `n` requests at once (a batch's items) in the account's window.
    pub fn hit_by(&self, account: &Account, n: u64, now: DateTime<Utc>) -> WindowState {
        let (start, _) = minute_window(now);
        let count = self.windows.hit_by(&account.id, start, n.max(1));
        window_state(plan(account.plan).per_minute, count, now)
    }

    /// Count `n` answered requests in the account's monthly usage (a
    /// batch's items answered with a result; the batch itself counts none).
    pub fn add_usage(&self, account: &Account, n: u64) {
        let (period, _) = billing_period(self.clock.now());
        self.usage
            .add(&account.id, period, i64::try_from(n).unwrap_or(i64::MAX));
    }

    /// Publish this instance's counts of the current window and read the
    /// other instances' (the server runs it every sync interval).
    pub async fn sync_windows(&self) -> Result<(), MeterError> {
        let (start, _) = minute_window(self.clock.now());
        let own = self.windows.own(start);
        if !own.is_empty() {
            self.store
                .rate_counts_publish(self.windows.instance(), start, &own)
                .await?;
        }
        let others = self
            .store
            .rate_counts_others(self.windows.instance(), start)
            .await?;
        self.windows.absorb(start, others);
        Ok(())
    }

    /// The error for an exceeded window.
    pub fn rate_limited(account: &Account, window: &WindowState) -> MeterError {
        MeterError::RateLimited {
            plan: account.plan,
            limit: window.limit,
            retry_after: window.retry_after,
            upgrade: plan(account.plan).upgrade,
        }
    }

    /// Count the request of `found`'s account in the monthly usage (in
    /// memory), refusing it when the free quota is used up by 2xx answers.
    pub async fn reserve(
        &self,
        found: &Arc<KeyWithAccount>,
        now: DateTime<Utc>,
    ) -> Result<Reservation, MeterError> {
        let account = &found.account;
        let limits = plan(account.plan);
        let (period_start, period_end) = billing_period(now);
        let cap = if limits.hard_cap {
            limits.included.map(|n| n as i64)
        } else {
            None
        };
        match self
            .usage
            .reserve(self.store.as_ref(), &account.id, period_start, cap)
            .await?
        {
            Admission::Admitted => Ok(Reservation {
                found: found.clone(),
                period_start,
                usage: Some(self.usage.clone()),
            }),
            Admission::Exhausted => Err(MeterError::QuotaExhausted {
                included: limits.included.unwrap_or_default(),
                renews: period_end.format("%Y-%m-%d 00:00 UTC").to_string(),
            }),
        }
    }

    /// The request was answered: counted when the answer was 2xx.
    pub fn settle(&self, mut reservation: Reservation, counted: bool) {
        reservation.settle(counted);
    }

    /// Requests the account has used this period: answered, and in flight
    /// (the asking request included).
    pub async fn used(&self, account: &Account) -> Result<u64, MeterError> {
        let (period_start, _) = billing_period(self.clock.now());
        let used = self
            .usage
            .used(self.store.as_ref(), &account.id, period_start)
            .await?;
        Ok(u64::try_from(used).unwrap_or(0))
    }

    /// Write the usage counted since the last flush, and the keys' last
    /// uses, in one transaction (the server runs it every flush interval,
    /// and once more when it stops). What fails to be written is kept.
    pub async fn flush_usage(&self, key_uses: &KeyUses) -> Result<(), MeterError> {
        let uses = key_uses.take();
        let (period, _) = billing_period(self.clock.now());
        let flushed = self.usage.flush(self.store.as_ref(), &uses, period).await;
        let mut flushed_at = self.flushed_at.lock().expect("flush time lock");
        if flushed.is_err() {
            key_uses.restore(uses);
        } else {
            *flushed_at = std::time::Instant::now();
        }
        crate::telemetry::flush_lag(flushed_at.elapsed());
        drop(flushed_at);
        Ok(flushed?)
    }

    /// Refuse with `PremiumRequired` unless the account's plan has premium features.
    pub fn require_premium(account: &Account, feature: &'static str) -> Result<(), MeterError> {
        if plan(account.plan).premium {
            Ok(())
        } else {
            Err(MeterError::PremiumRequired {
                feature,
                plan: account.plan,
            })
        }
    }

    /// Whether `ip` may still fail to authenticate this minute, as a window
    /// state (not counting this attempt). Failures are counted per IP like
    /// rate windows, so the instances of one database share them.
    pub fn failed_auth_state(&self, ip: IpAddr) -> WindowState {
        let now = self.clock.now();
        let (start, _) = minute_window(now);
        let failures = self.windows.peek(&failure_key(ip), start);
        let mut state = window_state(self.failed_auth_per_minute, failures, now);
        state.exceeded = failures >= self.failed_auth_per_minute;
        state
    }

    /// Count a failed authentication from `ip`.
    pub fn failed_auth_record(&self, ip: IpAddr) -> WindowState {
        let now = self.clock.now();
        let (start, _) = minute_window(now);
        let failures = self.windows.hit(&failure_key(ip), start);
        window_state(self.failed_auth_per_minute, failures, now)
    }

    /// Drop rate windows that ended more than a minute ago.
    pub async fn prune(&self) -> Result<u64, MeterError> {
        let (start, _) = minute_window(self.clock.now());
        Ok(self
            .store
            .rate_window_prune(start - Duration::minutes(1))
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn windows_align_to_the_utc_minute() {
        let now = Utc.with_ymd_and_hms(2026, 11, 21, 10, 15, 42).unwrap();
        let (start, end) = minute_window(now);
        assert_eq!(
            start,
            Utc.with_ymd_and_hms(2026, 11, 21, 10, 15, 0).unwrap()
        );
        assert_eq!(end, Utc.with_ymd_and_hms(2026, 11, 21, 10, 16, 0).unwrap());
        let state = window_state(60, 61, now);
        assert!(state.exceeded);
        assert_eq!(state.remaining, 0);
        assert_eq!(state.retry_after, 18);
        assert_eq!(state.reset, end.timestamp());
    }
}
