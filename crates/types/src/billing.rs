//! `GET /v1/billing/status` and the plans it reports.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A subscription plan. Limits: free 60 requests a minute and 10,000 a month;
/// pro 600 a minute and 500,000 a month included, overage counted; pro_plus
/// 6,000 a minute, unlimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Plan {
    /// 60 requests a minute, 10,000 a month, no premium features.
    Free,
    /// 600 requests a minute, 500,000 a month included, overage counted.
    Pro,
    /// 6,000 requests a minute, no monthly limit.
    ProPlus,
}

/// Plan, usage of the current billing period, and limits of the calling account.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct BillingStatus {
    /// The account the key belongs to.
    pub account_id: String,
    /// The account's current plan.
    pub plan: Plan,
    /// Start of the billing period (the UTC calendar month), inclusive.
    pub period_start: DateTime<Utc>,
    /// End of the billing period, exclusive.
    pub period_end: DateTime<Utc>,
    /// Authenticated requests answered with a 2xx status this period, this one included.
    pub requests_used: u64,
    /// Requests included in the plan this period; null when unlimited.
    pub requests_included: Option<u64>,
    /// Included requests left this period; null when unlimited.
    pub requests_remaining: Option<u64>,
    /// Requests beyond the included amount this period (pro only; billed as overage).
    pub overage: u64,
    /// Whether requests are refused once the included amount is used (free only).
    pub hard_limit: bool,
    /// Requests allowed per one-minute window, shared by all keys of the account.
    pub rate_limit_per_minute: u64,
    /// Whether premium features (sentiment, the alert feed, wallet analysis, `fresh=true`) are available.
    pub premium_access: bool,
}
