//! Disputed verdicts: users' reports of a verdict and the operator's
//! answers (this module), the operator's overrides of labels
//! ([`overrides`]), and the loop that keeps every instance's overrides,
//! their expiry and the metrics current ([`sync`]). HTTP-agnostic: the API
//! and the command line both call it.

pub mod overrides;
pub mod sync;

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use riskintel_api::{
    Report, ReportCreate, ReportStatus, WebhookEventType, REPORTS_PER_DAY, REPORT_CONTACT_MAX,
    REPORT_REASON_MAX,
};

use riskintel_analysis::tokens::{AnalysisError, Analyzer, Target};
use riskintel_store::clock::Clock;
use riskintel_store::{EventRow, ReportRefusal, ReportRow, Store, StoreError};

/// Why a report or an override was refused.
#[derive(Debug, thiserror::Error)]
pub enum DisputeError {
    /// No such report (in the account), or no such override.
    #[error("{0}")]
    NotFound(String),
    /// A value of the request is not acceptable.
    #[error("{0}")]
    Invalid(String),
    /// The request conflicts with what is stored.
    #[error("{0}")]
    Conflict(String),
    /// The account made its reports of the last 24 hours; retry after these seconds.
    #[error("at most {REPORTS_PER_DAY} reports in 24 hours; the next may be made in {0} s")]
    Limited(u64),
    /// The token could not be looked up.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// `text` as a value of `field`: 1 to `max` characters, no NUL (which no
/// database stores), otherwise kept exactly as given.
pub fn checked_text(field: &str, text: &str, max: usize) -> Result<(), DisputeError> {
    let length = text.chars().count();
    if length == 0 || length > max {
        return Err(DisputeError::Invalid(format!(
            "{field}: must be 1 to {max} characters (got {length})"
        )));
    }
    if text.contains('\0') {
        return Err(DisputeError::Invalid(format!(
            "{field}: must not contain NUL characters"
        )));
    }
    Ok(())
}

/// Whether `id` has the form of a report id, `rep_` and 12 of `[a-z0-9]`
/// (anything else is no report, and never reaches the database).
pub fn is_report_id(id: &str) -> bool {
    id.strip_prefix("rep_").is_some_and(crate::keys::is_key_id)
}

/// The wire form of a report.
pub fn view(row: &ReportRow) -> Report {
    Report {
        id: row.id.clone(),
        chain: row.chain.id().to_string(),
        address: row.token.clone(),
        kind: row.kind,
        reason: row.reason.clone(),
        contact: row.contact.clone(),
        score: row.score,
        label: row.label,
        status: row.status,
        answer: row.answer.clone(),
        answered_at: row.answered_at,
        created_at: row.created_at,
    }
}

/// Users' reports and the operator's answers.
#[derive(Clone)]
pub struct Reports {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
}

impl Reports {
    /// Reports in `store`, timed by `clock`.
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> Reports {
        Reports { store, clock }
    }

    /// Record an account's report of the verdict `analyzer` shows for a token.
    pub async fn create(
        &self,
        analyzer: &Analyzer,
        account_id: &str,
        target: Target,
        request: ReportCreate,
    ) -> Result<ReportRow, DisputeError> {
        checked_text("reason", &request.reason, REPORT_REASON_MAX)?;
        let contact = request.contact.filter(|c| !c.is_empty());
        if let Some(contact) = &contact {
            checked_text("contact", contact, REPORT_CONTACT_MAX)?;
        }
        let Some(mut shown) = analyzer.latest(target).await? else {
            return Err(DisputeError::NotFound(format!(
                "{} on {} has no verdict to report yet: analyse it first",
                target.address(),
                target.chain().id()
            )));
        };
        analyzer.overrides().apply_to(target, &mut shown);
        let now = self.clock.now_seconds();
        let row = ReportRow {
            id: format!("rep_{}", crate::keys::new_key_id()),
            account_id: account_id.to_string(),
            chain: target.chain(),
            token: target.address(),
            kind: request.kind,
            reason: request.reason,
            contact,
            score: shown.score,
            label: shown.label,
            status: ReportStatus::Open,
            answer: None,
            answered_at: None,
            created_at: now,
        };
        let day = Duration::hours(24);
        match self
            .store
            .report_insert(&row, now - day, REPORTS_PER_DAY.into())
            .await?
        {
            Ok(()) => Ok(row),
            Err(ReportRefusal::Duplicate) => Err(DisputeError::Conflict(format!(
                "this account already has an open report of {} on {}; its answer comes first",
                row.token,
                row.chain.id()
            ))),
            Err(ReportRefusal::Limited(oldest)) => Err(DisputeError::Limited(
                (oldest + day - self.clock.now()).num_seconds().max(1) as u64,
            )),
        }
    }

    /// Reports newest first (of one account, when given), after `before`.
    pub async fn list(
        &self,
        account_id: Option<&str>,
        status: Option<ReportStatus>,
        before: Option<(DateTime<Utc>, String)>,
        limit: usize,
    ) -> Result<Vec<ReportRow>, DisputeError> {
        Ok(self
            .store
            .reports(account_id, status, before, limit as i64)
            .await?)
    }

    /// One report (of one account, when given).
    pub async fn get(&self, account_id: Option<&str>, id: &str) -> Result<ReportRow, DisputeError> {
        let not_found = || {
            let shown: String = id.chars().take(40).collect();
            DisputeError::NotFound(format!("report {shown:?} not found"))
        };
        if !is_report_id(id) {
            return Err(not_found());
        }
        self.store
            .report(account_id, id)
            .await?
            .ok_or_else(not_found)
    }

    /// Answer an open report (accept or reject it with `message`) and tell
    /// its account's webhook subscriptions (`report_answered`).
    pub async fn answer(
        &self,
        id: &str,
        status: ReportStatus,
        message: &str,
    ) -> Result<ReportRow, DisputeError> {
        if status == ReportStatus::Open {
            return Err(DisputeError::Invalid(
                "an answer accepts or rejects the report".into(),
            ));
        }
        checked_text("message", message, REPORT_REASON_MAX)?;
        let report = self.get(None, id).await?;
        let already = || DisputeError::Conflict(format!("report {id} is answered already"));
        if report.status != ReportStatus::Open {
            return Err(already());
        }
        let now = self.clock.now_seconds();
        let answered = ReportRow {
            status,
            answer: Some(message.to_string()),
            answered_at: Some(now),
            ..report
        };
        let told = view(&answered);
        let events: Vec<EventRow> = self
            .store
            .report_subscriptions(&answered.account_id)
            .await?
            .into_iter()
            .map(|subscription| {
                let (event, report) = (WebhookEventType::ReportAnswered, Some(told.clone()));
                crate::webhooks::kept_event("report", subscription.id, event, report, now)
            })
            .collect();
        if !self.store.report_answer(&answered, &events).await? {
            return Err(already());
        }
        Ok(answered)
    }
}
