//! Plans and billing status: the one table of what each plan allows, and
//! the account's plan, period, usage and limits as the API reports them.

use std::sync::Arc;

use chrono::{DateTime, Datelike, TimeZone, Utc};
use riskintel_api::{BillingStatus, Plan};

use riskintel_store::clock::Clock;
use riskintel_store::Account;

/// What a plan allows, and how it is named and upgraded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanSpec {
    /// The plan's name as users see it.
    pub title: &'static str,
    /// Requests per one-minute window.
    pub per_minute: u64,
    /// Requests included per month; None for unlimited.
    pub included: Option<u64>,
    /// Whether requests past `included` are refused (free) or counted as overage (pro).
    pub hard_cap: bool,
    /// Whether premium features are available.
    pub premium: bool,
    /// Where to go for a higher rate limit.
    pub upgrade: &'static str,
}

/// The plans.
const PLANS: [(Plan, PlanSpec); 3] = [
    (
        Plan::Free,
        PlanSpec {
            title: "Free",
            per_minute: 60,
            included: Some(10_000),
            hard_cap: true,
            premium: false,
            upgrade: "Pro (600 requests per minute)",
        },
    ),
    (
        Plan::Pro,
        PlanSpec {
            title: "Pro",
            per_minute: 600,
            included: Some(500_000),
            hard_cap: false,
            premium: true,
            upgrade: "Pro+ (6,000 requests per minute)",
        },
    ),
    (
        Plan::ProPlus,
        PlanSpec {
            title: "Pro+",
            per_minute: 6_000,
            included: None,
            hard_cap: false,
            premium: true,
            upgrade: "a dedicated plan (contact us)",
        },
    ),
];

/// What `plan` allows.
pub fn plan(which: Plan) -> &'static PlanSpec {
    &PLANS
        .iter()
        .find(|(p, _)| *p == which)
        .expect("every plan is in the table")
        .1
}

/// The billing period (UTC calendar month) containing `now`: (start, end).
pub fn billing_period(now: DateTime<Utc>) -> (DateTime<Utc>, DateTime<Utc>) {
    let start = Utc
        .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single()
        .expect("first of the month exists");
    let (year, month) = if now.month() == 12 {
        (now.year() + 1, 1)
    } else {
        (now.year(), now.month() + 1)
    };
    let end = Utc
        .with_ymd_and_hms(year, month, 1, 0, 0, 0)
        .single()
        .expect("first of the month exists");
    (start, end)
}

/// Billing status: plan, period, limits, and the usage metering counted.
#[derive(Clone)]
pub struct Billing {
    clock: Arc<dyn Clock>,
}

impl Billing {
    /// Billing timed by `clock`.
    pub fn new(clock: Arc<dyn Clock>) -> Billing {
        Billing { clock }
    }

    /// Plan, usage and limits of the account now, given the requests it
    /// has `used` this period (from metering).
    pub fn status(&self, account: &Account, used: u64) -> BillingStatus {
        let now = self.clock.now();
        let limits = plan(account.plan);
        let (period_start, period_end) = billing_period(now);
        BillingStatus {
            account_id: account.id.clone(),
            plan: account.plan,
            period_start,
            period_end,
            requests_used: used,
            requests_included: limits.included,
            requests_remaining: limits.included.map(|n| n.saturating_sub(used)),
            overage: match (limits.included, limits.hard_cap) {
                (Some(n), false) => used.saturating_sub(n),
                _ => 0,
            },
            hard_limit: limits.hard_cap,
            rate_limit_per_minute: limits.per_minute,
            premium_access: limits.premium,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_plan_is_in_the_table() {
        for p in [Plan::Free, Plan::Pro, Plan::ProPlus] {
            assert!(plan(p).per_minute > 0);
        }
        assert!(!plan(Plan::Free).premium && plan(Plan::Pro).premium);
    }

    #[test]
    fn billing_periods_are_calendar_months() {
        let dec = Utc.with_ymd_and_hms(2026, 12, 31, 23, 59, 59).unwrap();
        let (start, end) = billing_period(dec);
        assert_eq!(start, Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap());
        assert_eq!(end, Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0).unwrap());
    }
}
