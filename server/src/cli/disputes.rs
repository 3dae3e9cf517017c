//! `riskintel reports …` and `riskintel overrides …`: the operator's side
//! of disputed verdicts.

use std::sync::Arc;

use anyhow::Context as _;
use chrono::{DateTime, Duration, Utc};
use clap::Subcommand;
use riskintel_api::{ReportStatus, RiskLabel, WireName};
use serde_json::json;

use crate::disputes::overrides::{self, OverrideRequest};
use crate::disputes::{view, Reports};
use riskintel_store::clock::Clock;
use riskintel_store::{OverrideRow, ReportRow, Store};

#[derive(Debug, Subcommand)]
pub(super) enum ReportsCommand {
    /// List every account's reports, newest first.
    List {
        /// Only reports with this status: open, accepted or rejected.
        #[arg(long)]
        status: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Answer an open report: accept or reject it, with a message its
    /// reporter sees (and receives as a `report_answered` webhook event).
    #[command(group(clap::ArgGroup::new("verdict").required(true).args(["accept", "reject"])))]
    Answer {
        /// Report id (rep_…).
        #[arg(long)]
        id: String,
        /// Accept the report.
        #[arg(long)]
        accept: bool,
        /// Reject the report.
        #[arg(long)]
        reject: bool,
        /// The answer, 1 to 2,000 characters.
        #[arg(long)]
        message: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub(super) enum OverridesCommand {
    /// Set (or replace) the label every answer shows for a token, beside the
    /// engine's own verdict.
    Set {
        /// Chain id (eth, bsc, sol, …).
        #[arg(long)]
        chain: String,
        /// Token address.
        #[arg(long)]
        address: String,
        /// Label to show: safe, caution, risky or critical.
        #[arg(long)]
        label: String,
        /// Why, shown with the label.
        #[arg(long)]
        reason: String,
        /// When it stops applying: an RFC 3339 time, or a span from now
        /// such as 90m, 12h or 30d. Default: until removed.
        #[arg(long, value_name = "TIME")]
        expires: Option<String>,
        /// Who sets it, shown as `set_by`.
        #[arg(long, env = "USER", default_value = "operator")]
        by: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the overrides.
    List {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Remove a token's override: its answers show the engine's label again.
    Remove {
        /// Chain id.
        #[arg(long)]
        chain: String,
        /// Token address.
        #[arg(long)]
        address: String,
    },
}

/// A report for the operator: the wire form and its account.
fn report_json(row: &ReportRow) -> serde_json::Value {
    let mut value = serde_json::to_value(view(row)).expect("a report serialises");
    value["account_id"] = json!(row.account_id);
    value
}

fn override_json(row: &OverrideRow) -> serde_json::Value {
    json!({
        "chain": row.chain.id(),
        "address": row.token,
        "label": row.label,
        "reason": row.reason,
        "set_by": row.set_by,
        "set_at": row.set_at,
        "expires_at": row.expires_at,
    })
}

/// Text a user wrote, safe to print on a terminal (control characters escaped).
fn printable(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c.is_control() {
            true => c.escape_default().collect::<Vec<_>>(),
            false => vec![c],
        })
        .collect()
}

fn parsed<T: WireName>(what: &str, text: &str) -> anyhow::Result<T> {
    let names: Vec<&str> = T::VARIANTS.iter().map(|v| v.wire_name()).collect();
    T::from_wire_name(text)
        .with_context(|| format!("unknown {what} {text:?}: use {}", names.join(", ")))
}

/// An expiry as given: an RFC 3339 time, or a span from `now` (`90m`, `12h`, `30d`).
fn expiry(text: &str, now: DateTime<Utc>) -> anyhow::Result<DateTime<Utc>> {
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Ok(at.with_timezone(&Utc));
    }
    let bad =
        || anyhow::anyhow!("--expires {text:?}: use an RFC 3339 time or a span like 90m, 12h, 30d");
    let span = [
        ("m", Duration::try_minutes as fn(i64) -> Option<Duration>),
        ("h", Duration::try_hours),
        ("d", Duration::try_days),
    ]
    .into_iter()
    .find_map(|(unit, span)| span(text.strip_suffix(unit)?.parse().ok()?));
    span.and_then(|s| now.checked_add_signed(s)).ok_or_else(bad)
}

pub(super) async fn reports_command(
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    command: ReportsCommand,
) -> anyhow::Result<()> {
    let reports = Reports::new(store.clone(), clock.clone());
    match command {
        ReportsCommand::List { status, json } => {
            let status = status
                .map(|s| parsed::<ReportStatus>("status", &s))
                .transpose()?;
            let mut rows = Vec::new();
            loop {
                let before = rows
                    .last()
                    .map(|r: &ReportRow| (r.created_at, r.id.clone()));
                let page = reports.list(None, status, before, 500).await?;
                let done = page.len() < 500;
                rows.extend(page);
                if done {
                    break;
                }
            }
            if json {
                let all: Vec<_> = rows.iter().map(report_json).collect();
                println!("{}", serde_json::Value::Array(all));
            } else {
                for r in rows {
                    println!(
                        "{}  {:<8}  {:<14}  {} {}  {}  {}  {}",
                        r.id,
                        r.status.wire_name(),
                        r.kind.wire_name(),
                        r.chain,
                        r.token,
                        r.account_id,
                        r.created_at.to_rfc3339(),
                        printable(&r.reason)
                    );
                }
            }
        }
        ReportsCommand::Answer {
            id,
            accept,
            reject: _,
            message,
            json,
        } => {
            let status = match accept {
                true => ReportStatus::Accepted,
                false => ReportStatus::Rejected,
            };
            let answered = reports.answer(&id, status, &message).await?;
            if json {
                println!("{}", report_json(&answered));
            } else {
                println!("report {id} {}", status.wire_name());
            }
        }
    }
    Ok(())
}

pub(super) async fn overrides_command(
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    command: OverridesCommand,
) -> anyhow::Result<()> {
    let chain = |text: &str| {
        riskintel_chains::chain_from_id(text).with_context(|| format!("--chain {text:?}"))
    };
    match command {
        OverridesCommand::Set {
            chain: chain_text,
            address,
            label,
            reason,
            expires,
            by,
            json,
        } => {
            let request = OverrideRequest {
                chain: chain(&chain_text)?,
                address,
                label: parsed::<RiskLabel>("label", &label)?,
                reason,
                set_by: by,
                expires_at: expires.map(|e| expiry(&e, clock.now())).transpose()?,
            };
            let row = overrides::set(store, clock, request).await?;
            if json {
                println!("{}", override_json(&row));
            } else {
                println!(
                    "{} on {} is shown as {}",
                    row.token,
                    row.chain,
                    row.label.wire_name()
                );
            }
        }
        OverridesCommand::List { json } => {
            let now = clock.now();
            let rows: Vec<OverrideRow> = (store.overrides().await?.into_iter())
                .filter(|o| o.in_force(now))
                .collect();
            if json {
                let all: Vec<_> = rows.iter().map(override_json).collect();
                println!("{}", serde_json::Value::Array(all));
            } else {
                for o in rows {
                    println!(
                        "{} {}  {:<8}  by {}  at {}  until {}  {}",
                        o.chain,
                        o.token,
                        o.label.wire_name(),
                        printable(&o.set_by),
                        o.set_at.to_rfc3339(),
                        o.expires_at.map_or("removed".into(), |at| at.to_rfc3339()),
                        printable(&o.reason)
                    );
                }
            }
        }
        OverridesCommand::Remove { chain: c, address } => {
            let row = overrides::remove(store, clock, chain(&c)?, &address).await?;
            println!("{} on {}: override removed", row.token, row.chain);
        }
    }
    Ok(())
}
