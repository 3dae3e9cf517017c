//! Disputed verdicts: a user's report of a verdict they believe wrong
//! (`/v1/token/{chain}/{address}/reports`, `/v1/reports`), and the
//! operator's override of a token's label, shown beside the engine's own
//! verdict wherever a label is.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::token::RiskLabel;

/// The longest reason a report may give, in characters.
pub const REPORT_REASON_MAX: usize = 2000;

/// The longest contact a report may give, in characters.
pub const REPORT_CONTACT_MAX: usize = 320;

/// The most reports one account may make in 24 hours.
pub const REPORTS_PER_DAY: u32 = 50;

/// What the reporter believes is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReportKind {
    /// The token is labelled more dangerous than it is.
    FalsePositive,
    /// The token is more dangerous than its label says.
    FalseNegative,
    /// Something else about the verdict (its evidence, its explanation).
    Other,
}

/// Where a report stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReportStatus {
    /// Waiting for the operator's answer.
    Open,
    /// The operator agreed (`answer` says what was done).
    Accepted,
    /// The operator disagreed (`answer` says why).
    Rejected,
}

/// A report of a token's verdict.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ReportCreate {
    /// What the reporter believes is wrong.
    pub kind: ReportKind,
    /// Why, in 1 to 2,000 characters. Stored as given and only ever
    /// returned as JSON text (never rendered as HTML).
    pub reason: String,
    /// How the operator may reach the reporter (an e-mail address, a
    /// handle), at most 320 characters; optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contact: Option<String>,
}

/// A report and what became of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    /// The report id, `rep_` and 12 of `[a-z0-9]`.
    pub id: String,
    /// Chain id of the token.
    pub chain: String,
    /// The token's address (EIP-55 checksummed on EVM chains).
    pub address: String,
    /// What the reporter believes is wrong.
    pub kind: ReportKind,
    /// The reporter's reason, as given.
    pub reason: String,
    /// How to reach the reporter, as given; null when none was.
    pub contact: Option<String>,
    /// The score of the verdict reported, as the service showed it then.
    pub score: f64,
    /// The label of the verdict reported, as the service showed it then.
    pub label: RiskLabel,
    /// Open, accepted or rejected.
    pub status: ReportStatus,
    /// The operator's answer; null while open.
    pub answer: Option<String>,
    /// When the operator answered; null while open.
    pub answered_at: Option<DateTime<Utc>>,
    /// When the report was made.
    pub created_at: DateTime<Utc>,
}

/// Path of one report.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct ReportPath {
    /// The report id.
    #[serde(rename = "reportId")]
    pub report_id: String,
}

/// Filters of a listing of reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReportFilter {
    /// Only reports with this status.
    #[serde(default)]
    pub status: Option<ReportStatus>,
}

/// Where a listing of reports resumes: its filters and the last report listed.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ReportPageSelector {
    /// The filters of the listing.
    pub filter: ReportFilter,
    /// When the last report listed was made.
    pub created_at: DateTime<Utc>,
    /// Its id.
    pub id: String,
}

/// The operator's override of a token's label: the label every answer
/// shows in place of the engine's, and why. The engine's score and signals
/// stay as they were computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LabelOverride {
    /// The label shown (also the answer's `label`).
    pub label: RiskLabel,
    /// The label the engine computed from the score.
    pub computed_label: RiskLabel,
    /// Why the operator set it.
    pub reason: String,
    /// Who set it.
    pub set_by: String,
    /// When it was set.
    pub set_at: DateTime<Utc>,
    /// When it stops applying; null when it applies until removed.
    pub expires_at: Option<DateTime<Utc>>,
}
