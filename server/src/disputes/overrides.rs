//! The operator's overrides of tokens' labels: set, removed, or expired,
//! each change recorded with its `override_changed` alert (the feed and
//! webhooks) in one transaction. The engine's verdict is never changed;
//! the views show the override beside it
//! ([`riskintel_analysis::overrides`]).

use std::sync::Arc;

use chrono::{DateTime, SubsecRound as _, Utc};
use riskintel_api::{AlertKind, RiskLabel, Severity, TokenAnalysis, WireName, REPORT_REASON_MAX};

use super::{checked_text, DisputeError};
use crate::feed::alerts::{label_severity, severity_rank};
use riskintel_analysis::tokens::Target;
use riskintel_chains::Chain;
use riskintel_store::clock::Clock;
use riskintel_store::{AlertRow, OverrideRow, Store};

/// The longest name of the person who sets an override.
const SET_BY_MAX: usize = 200;

/// An override to set.
#[derive(Clone, Debug)]
pub struct OverrideRequest {
    /// The token's chain.
    pub chain: Chain,
    /// The token's address, in any form its chain accepts.
    pub address: String,
    /// The label to show.
    pub label: RiskLabel,
    /// Why.
    pub reason: String,
    /// Who sets it.
    pub set_by: String,
    /// When it stops applying (None: when removed).
    pub expires_at: Option<DateTime<Utc>>,
}

/// How an override's change came about, for its alert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    Set,
    Removed,
    Expired,
}

/// The address of a token as the API writes it.
fn token_of(chain: Chain, address: &str) -> Result<String, DisputeError> {
    Target::parse(chain, address)
        .map(|t| t.address())
        .map_err(|e| DisputeError::Invalid(e.to_string()))
}

/// The engine's latest verdict on a token, if it was analysed.
async fn engine_verdict(
    store: &Arc<dyn Store>,
    chain: Chain,
    token: &str,
) -> Result<Option<TokenAnalysis>, DisputeError> {
    Ok(store
        .analysis_get(chain, token)
        .await?
        .and_then(|row| serde_json::from_str(&row.result).ok()))
}

/// Set (or replace) the override of a token; the override.
pub async fn set(
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    request: OverrideRequest,
) -> Result<OverrideRow, DisputeError> {
    let token = token_of(request.chain, &request.address)?;
    checked_text("reason", &request.reason, REPORT_REASON_MAX)?;
    checked_text("set_by", &request.set_by, SET_BY_MAX)?;
    // To the microsecond (as both databases keep it): each change is its own event.
    let now = clock.now().trunc_subsecs(6);
    if request.expires_at.is_some_and(|at| at <= now) {
        return Err(DisputeError::Invalid(
            "expires: must be in the future".into(),
        ));
    }
    let engine = engine_verdict(store, request.chain, &token).await?;
    let previous = store
        .override_get(request.chain, &token)
        .await?
        .filter(|o| o.in_force(now));
    let row = OverrideRow {
        chain: request.chain,
        token,
        label: request.label,
        reason: request.reason,
        set_by: request.set_by,
        set_at: now,
        expires_at: request.expires_at,
    };
    let alert = alert(Change::Set, &row, previous.as_ref(), engine.as_ref(), now);
    store.override_set(&row, &alert).await?;
    Ok(row)
}

/// Remove the override of a token; the override removed.
pub async fn remove(
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    chain: Chain,
    address: &str,
) -> Result<OverrideRow, DisputeError> {
    let token = token_of(chain, address)?;
    let Some(row) = store.override_get(chain, &token).await? else {
        return Err(DisputeError::NotFound(format!(
            "{token} on {} has no override",
            chain.id()
        )));
    };
    if !end(store, clock, row.clone(), Change::Removed).await? {
        return Err(DisputeError::NotFound(format!(
            "{} on {} has no override: it ended meanwhile",
            row.token,
            row.chain.id()
        )));
    }
    Ok(row)
}

/// Delete an override whose time is up, raising its alert once (whichever
/// instance gets there first); whether this call deleted it.
pub async fn expire(
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    row: OverrideRow,
) -> Result<bool, DisputeError> {
    end(store, clock, row, Change::Expired).await
}

async fn end(
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    row: OverrideRow,
    change: Change,
) -> Result<bool, DisputeError> {
    let engine = engine_verdict(store, row.chain, &row.token).await?;
    let alert = alert(change, &row, None, engine.as_ref(), clock.now_seconds());
    Ok(store
        .override_delete(row.chain, &row.token, row.set_at, &alert)
        .await?)
}

/// The `override_changed` alert of a change to `row`: the labels shown
/// before and after (the engine's where no override is in force), and the
/// engine's score. Keyed by the override's time, so setting an override
/// raises one alert and its end (removed or expired) one more.
fn alert(
    change: Change,
    row: &OverrideRow,
    replaced: Option<&OverrideRow>,
    engine: Option<&TokenAnalysis>,
    now: DateTime<Utc>,
) -> AlertRow {
    let computed = engine.map(|a| a.label);
    let (before, after, event) = match change {
        Change::Set => (
            replaced.map(|o| o.label).or(computed),
            Some(row.label),
            "set",
        ),
        Change::Removed | Change::Expired => (Some(row.label), computed, "ended"),
    };
    let symbol = engine
        .map(|a| a.meta.symbol.as_str())
        .filter(|s| !s.is_empty())
        .unwrap_or(&row.token);
    let name = |label: Option<RiskLabel>| label.map_or("not analysed yet", |l| l.wire_name());
    let engine_words = match engine {
        Some(a) => format!(
            "the engine's verdict: {}, score {:.1}",
            a.label.wire_name(),
            a.score
        ),
        None => "not analysed yet".to_string(),
    };
    let (title, detail) = match change {
        Change::Set => (
            format!(
                "{symbol}: label set to {} by the operator",
                row.label.wire_name()
            ),
            format!(
                "{} set the label of {symbol} to {} ({engine_words}){}. Reason: {}",
                row.set_by,
                row.label.wire_name(),
                match row.expires_at {
                    Some(at) => format!(", until {}", at.to_rfc3339()),
                    None => String::new(),
                },
                row.reason
            ),
        ),
        Change::Removed | Change::Expired => (
            format!(
                "{symbol}: the operator's label {} {}",
                row.label.wire_name(),
                if change == Change::Removed {
                    "was removed"
                } else {
                    "expired"
                }
            ),
            format!(
                "The label {symbol} showed is the engine's again: {} ({engine_words}).",
                name(computed)
            ),
        ),
    };
    let worse = matches!((before, after), (Some(b), Some(a)) if a > b);
    let severity = match after {
        Some(label) if worse => label_severity(label),
        _ => Severity::Info,
    };
    let kind = AlertKind::OverrideChanged;
    AlertRow {
        id: 0,
        event_key: format!(
            "{}:{}:{}:{event}@{}",
            row.chain,
            row.token,
            kind.wire_name(),
            row.set_at.timestamp_micros()
        ),
        chain: row.chain,
        token: row.token.clone(),
        kind,
        severity,
        severity_rank: severity_rank(severity),
        title,
        detail,
        score_before: engine.map(|a| a.score),
        label_before: before,
        score_after: engine.map(|a| a.score),
        label_after: after,
        block: engine.and_then(|a| a.as_of_block).unwrap_or_default() as i64,
        observed_at: now,
    }
}
