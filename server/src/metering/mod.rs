//! Metering: per-account one-minute rate windows, monthly usage and
//! quotas by plan (the plans are in `billing`), and the per-IP limit on
//! failed authentication.
//! HTTP-agnostic.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, DurationRound, Utc};
use riskintel_api::Plan;

use crate::billing::{billing_period, plan};

use crate::clock::Clock;
use crate::store::{Account, Store, StoreError};

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

/// A request counted in the monthly usage, to be released if its answer is not 2xx.
#[derive(Debug)]
pub struct Reservation {
    account_id: String,
    period_start: DateTime<Utc>,
}

/// Metering over one store and clock.
#[derive(Clone)]
pub struct Meter {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    failed_auth: Arc<FailedAuthLimiter>,
}

impl Meter {
    /// Metering on `store`, timed by `clock`, allowing `failed_auth_per_minute` failures per IP.
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>, failed_auth_per_minute: u64) -> Self {
        Meter {
            store,
            clock,
            failed_auth: Arc::new(FailedAuthLimiter::new(failed_auth_per_minute)),
        }
    }

    /// Count a request in the account's current window.
    pub async fn hit(&self, account: &Account) -> Result<WindowState, MeterError> {
        let now = self.clock.now();
        let limits = plan(account.plan);
        let (start, _) = minute_window(now);
        let count = self.store.rate_window_hit(&account.id, start).await?;
        Ok(window_state(
            limits.per_minute,
            u64::try_from(count).unwrap_or(0),
            now,
        ))
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

    /// Count the request in the monthly usage, refusing it when the free
    /// quota is used up.
    pub async fn reserve(&self, account: &Account) -> Result<Reservation, MeterError> {
        let now = self.clock.now();
        let limits = plan(account.plan);
        let (period_start, period_end) = billing_period(now);
        let cap = if limits.hard_cap {
            limits.included.map(|n| n as i64)
        } else {
            None
        };
        match self
            .store
            .usage_reserve(&account.id, period_start, cap)
            .await?
        {
            Some(_) => Ok(Reservation {
                account_id: account.id.clone(),
                period_start,
            }),
            None => Err(MeterError::QuotaExhausted {
                included: limits.included.unwrap_or_default(),
                renews: period_end.format("%Y-%m-%d 00:00 UTC").to_string(),
            }),
        }
    }

    /// Take a reservation back: the answer was not 2xx.
    pub async fn release(&self, reservation: Reservation) -> Result<(), MeterError> {
        self.store
            .usage_release(&reservation.account_id, reservation.period_start)
            .await?;
        Ok(())
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

    /// Whether `ip` may still try to authenticate this minute, as a window
    /// state (not counting this attempt).
    pub fn failed_auth_state(&self, ip: IpAddr) -> WindowState {
        self.failed_auth.state(ip, self.clock.now())
    }

    /// Count a failed authentication from `ip`.
    pub fn failed_auth_record(&self, ip: IpAddr) -> WindowState {
        self.failed_auth.record(ip, self.clock.now())
    }

    /// Drop rate windows that ended more than a minute ago.
    pub async fn prune(&self) -> Result<u64, MeterError> {
        let (start, _) = minute_window(self.clock.now());
        self.failed_auth.prune(start);
        Ok(self
            .store
            .rate_window_prune(start - Duration::minutes(1))
            .await?)
    }
}

/// Failed authentications per client IP in fixed UTC-minute windows. Kept
/// in memory: it guards one instance against key guessing.
#[derive(Debug)]
pub struct FailedAuthLimiter {
    limit: u64,
    windows: Mutex<HashMap<IpAddr, (DateTime<Utc>, u64)>>,
}

impl FailedAuthLimiter {
    /// Allow `limit` failures per IP per minute.
    pub fn new(limit: u64) -> Self {
        FailedAuthLimiter {
            limit,
            windows: Mutex::new(HashMap::new()),
        }
    }

    fn count(&self, ip: IpAddr, start: DateTime<Utc>, add: u64) -> u64 {
        let mut windows = self.windows.lock().expect("limiter lock");
        let entry = windows.entry(ip).or_insert((start, 0));
        if entry.0 != start {
            *entry = (start, 0);
        }
        entry.1 += add;
        entry.1
    }

    /// The IP's window; `exceeded` once it has used up its failures.
    pub fn state(&self, ip: IpAddr, now: DateTime<Utc>) -> WindowState {
        let (start, _) = minute_window(now);
        let failures = self.count(ip, start, 0);
        let mut state = window_state(self.limit, failures, now);
        state.exceeded = failures >= self.limit;
        state
    }

    /// Count one failure.
    pub fn record(&self, ip: IpAddr, now: DateTime<Utc>) -> WindowState {
        let (start, _) = minute_window(now);
        window_state(self.limit, self.count(ip, start, 1), now)
    }

    fn prune(&self, current_start: DateTime<Utc>) {
        self.windows
            .lock()
            .expect("limiter lock")
            .retain(|_, (start, _)| *start >= current_start);
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

    #[test]
    fn failed_auth_limit_trips_after_the_limit() {
        let limiter = FailedAuthLimiter::new(3);
        let ip: IpAddr = "127.0.0.9".parse().unwrap();
        let now = Utc.with_ymd_and_hms(2026, 11, 21, 10, 15, 0).unwrap();
        for _ in 0..3 {
            assert!(!limiter.state(ip, now).exceeded);
            limiter.record(ip, now);
        }
        assert!(limiter.state(ip, now).exceeded);
        assert!(!limiter.state(ip, now + Duration::minutes(1)).exceeded);
    }
}
