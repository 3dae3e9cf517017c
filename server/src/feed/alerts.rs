//! Alerts from what changed between two analyses of a token, and their wire form.

use chrono::{DateTime, Utc};
use riskintel_api::{
    Alert, AlertKind, ChainId, CheckId, RiskLabel, Severity, TokenAnalysis, WireName,
};

use riskintel_store::AlertRow;

/// Rank of a severity, for filtering (info 0 … critical 4).
pub fn severity_rank(severity: Severity) -> i64 {
    severity.rank()
}

/// An alert about `after`'s token (on `chain`), keyed by `event` (unique per event).
#[allow(clippy::too_many_arguments)]
pub fn row(
    chain: ChainId,
    kind: AlertKind,
    severity: Severity,
    event: &str,
    title: String,
    detail: String,
    before: Option<&TokenAnalysis>,
    after: &TokenAnalysis,
    block: u64,
    at: DateTime<Utc>,
) -> AlertRow {
    AlertRow {
        id: 0,
        event_key: format!("{}:{}:{}:{event}", chain, after.address, kind.wire_name()),
        chain,
        token: after.address.clone(),
        kind,
        severity,
        severity_rank: severity_rank(severity),
        title,
        detail,
        score_before: before.map(|b| b.score),
        label_before: before.map(|b| b.label),
        score_after: Some(after.score),
        label_after: Some(after.label),
        block: block as i64,
        observed_at: at,
    }
}

/// How serious a fall of liquidity (the share lost, 0..1) is: critical
/// from 90% on.
pub fn liquidity_severity(fall: f64) -> Severity {
    if fall >= 0.9 {
        Severity::Critical
    } else {
        Severity::High
    }
}

/// The name an alert gives a token: its symbol, else its address.
pub fn symbol_of(analysis: &TokenAnalysis) -> &str {
    if analysis.meta.symbol.is_empty() {
        &analysis.address
    } else {
        &analysis.meta.symbol
    }
}

fn has(analysis: &TokenAnalysis, id: CheckId) -> bool {
    analysis.signals.iter().any(|s| s.id == id)
}

fn label_of(label: RiskLabel) -> &'static str {
    label.wire_name()
}

/// How serious it is for a token to be labelled `label` (an alert that makes it so).
pub fn label_severity(label: RiskLabel) -> Severity {
    match label {
        RiskLabel::Safe => Severity::Info,
        RiskLabel::Caution => Severity::Low,
        RiskLabel::Risky => Severity::High,
        RiskLabel::Critical => Severity::Critical,
    }
}

/// The alerts that going from `before` to `after` (a token on `chain`) raises. `new` marks a
/// token just discovered (a `new_token` alert with its first label).
pub fn diff(
    chain: ChainId,
    before: Option<&TokenAnalysis>,
    after: &TokenAnalysis,
    new: bool,
    at: DateTime<Utc>,
) -> Vec<AlertRow> {
    let block = after.as_of_block.unwrap_or_default();
    let symbol = symbol_of(after);
    let mut alerts = Vec::new();
    if new {
        alerts.push(row(
            chain,
            AlertKind::NewToken,
            label_severity(after.label),
            "first",
            format!("New token {symbol}"),
            format!(
                "{symbol} appeared with a new pool; first analysis: score {:.1}, {}.",
                after.score,
                label_of(after.label)
            ),
            None,
            after,
            block,
            at,
        ));
    }
    if has(after, CheckId::Honeypot) && !before.is_some_and(|b| has(b, CheckId::Honeypot)) {
        let detail = after
            .signals
            .iter()
            .find(|s| s.id == CheckId::Honeypot)
            .map(|s| s.detail.clone())
            .unwrap_or_default();
        alerts.push(row(
            chain,
            AlertKind::HoneypotDetected,
            Severity::Critical,
            &format!("{block}"),
            format!("{symbol} is a honeypot"),
            detail,
            before,
            after,
            block,
            at,
        ));
    }
    let Some(before) = before else { return alerts };
    if before.label != after.label {
        let worse = after.label > before.label;
        alerts.push(row(
            chain,
            AlertKind::LabelChanged,
            if worse {
                label_severity(after.label)
            } else {
                Severity::Info
            },
            &format!(
                "{}->{}@{block}",
                label_of(before.label),
                label_of(after.label)
            ),
            format!(
                "{symbol}: {} → {}",
                label_of(before.label),
                label_of(after.label)
            ),
            format!(
                "The label of {symbol} went {} from {} (score {:.1}) to {} (score {:.1}).",
                if worse { "up" } else { "down" },
                label_of(before.label),
                before.score,
                label_of(after.label),
                after.score
            ),
            Some(before),
            after,
            block,
            at,
        ));
    }
    if before.meta.owner != after.meta.owner {
        let new_owner = after.meta.owner.clone().unwrap_or_else(|| "none".into());
        let renounced = new_owner == "0x0000000000000000000000000000000000000000"
            || new_owner.eq_ignore_ascii_case("0x000000000000000000000000000000000000dEaD");
        alerts.push(row(
            chain,
            AlertKind::OwnershipChanged,
            if renounced {
                Severity::Info
            } else {
                Severity::High
            },
            &new_owner,
            format!("{symbol}: ownership changed"),
            format!(
                "The owner of {symbol} changed from {} to {new_owner}{}.",
                before.meta.owner.clone().unwrap_or_else(|| "none".into()),
                if renounced { " (renounced)" } else { "" }
            ),
            Some(before),
            after,
            block,
            at,
        ));
    }
    if before.meta.implementation != after.meta.implementation
        && after.meta.implementation.is_some()
    {
        let implementation = after.meta.implementation.clone().unwrap_or_default();
        alerts.push(row(
            chain,
            AlertKind::ProxyUpgraded,
            Severity::High,
            &implementation,
            format!("{symbol}: proxy upgraded"),
            format!(
                "The code behind {symbol} was replaced: implementation {} → {implementation}.",
                before
                    .meta
                    .implementation
                    .clone()
                    .unwrap_or_else(|| "none".into())
            ),
            Some(before),
            after,
            block,
            at,
        ));
    }
    let supply = |a: &TokenAnalysis| {
        a.meta
            .total_supply
            .as_deref()
            .and_then(|s| s.parse::<f64>().ok())
    };
    if let (Some(old), Some(new_supply)) = (supply(before), supply(after)) {
        if new_supply > old {
            alerts.push(row(
                chain,
                AlertKind::SupplyMinted,
                Severity::High,
                after.meta.total_supply.as_deref().unwrap_or_default(),
                format!("{symbol}: new tokens minted"),
                format!(
                    "The supply of {symbol} grew by {:.1}% (from {} to {} base units).",
                    (new_supply / old - 1.0) * 100.0,
                    before.meta.total_supply.clone().unwrap_or_default(),
                    after.meta.total_supply.clone().unwrap_or_default()
                ),
                Some(before),
                after,
                block,
                at,
            ));
        }
    }
    alerts
}

/// The wire form of a stored alert.
pub fn to_wire(row: &AlertRow) -> Alert {
    Alert {
        id: row.id.to_string(),
        chain: row.chain.to_string(),
        address: row.token.clone(),
        kind: row.kind,
        severity: row.severity,
        title: row.title.clone(),
        detail: row.detail.clone(),
        score_before: row.score_before,
        label_before: row.label_before,
        score_after: row.score_after,
        label_after: row.label_after,
        block: row.block as u64,
        observed_at: row.observed_at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysis(
        label: &str,
        score: f64,
        owner: &str,
        implementation: Option<&str>,
        supply: &str,
        signals: &[&str],
    ) -> TokenAnalysis {
        let signals: Vec<serde_json::Value> = signals
            .iter()
            .map(|id| serde_json::json!({"id": id, "severity": "critical", "weight": 1.0, "category": "trading",
                "title": "t", "detail": "d", "evidence": {"rpc": "r", "block": 1, "raw": null}}))
            .collect();
        serde_json::from_value(serde_json::json!({
            "chain": "eth", "address": "0x0000000000000000000000000000000000000001", "score": score, "label": label,
            "signals": signals, "cached_at": "2026-11-21T12:00:00Z", "as_of_block": 42,
            "coverage": {"ratio": 1.0, "checks": []}, "simulations": [], "stale": false,
            "meta": {"name": "N", "symbol": "SYM", "price_usd": null, "market_cap_usd": null, "decimals": 18,
                "total_supply": supply, "liquidity_usd": null, "pools": [], "owner": owner, "is_proxy": implementation.is_some(),
                "implementation": implementation, "first_seen_block": 1, "buy_tax": null, "sell_tax": null, "transfer_tax": null}
        }))
        .expect("valid analysis")
    }

    fn kinds(rows: &[AlertRow]) -> Vec<&str> {
        rows.iter().map(|r| r.kind.wire_name()).collect()
    }

    #[test]
    fn every_change_raises_its_alert_once() {
        let at = chrono::Utc::now();
        let before = analysis("caution", 30.0, "0xaa", Some("0x01"), "1000", &[]);
        let after = analysis(
            "critical",
            100.0,
            "0xbb",
            Some("0x02"),
            "1500",
            &["honeypot"],
        );
        let rows = diff(ChainId::Eth, Some(&before), &after, false, at);
        assert_eq!(
            kinds(&rows),
            [
                "honeypot_detected",
                "label_changed",
                "ownership_changed",
                "proxy_upgraded",
                "supply_minted"
            ]
        );
        let label = &rows[1];
        assert_eq!(
            (label.label_before, label.label_after),
            (Some(RiskLabel::Caution), Some(RiskLabel::Critical))
        );
        assert_eq!(label.severity, Severity::Critical);
        assert!(rows[4].detail.contains("50.0%"));
        // The same change seen again has the same event keys: stored once.
        let again = diff(ChainId::Eth, Some(&before), &after, false, at);
        assert_eq!(
            rows.iter().map(|r| &r.event_key).collect::<Vec<_>>(),
            again.iter().map(|r| &r.event_key).collect::<Vec<_>>()
        );
        // Nothing changed, nothing to say; a better label is news of low severity.
        assert!(diff(ChainId::Eth, Some(&after), &after, false, at).is_empty());
        let better = diff(
            ChainId::Eth,
            Some(&after),
            &analysis("safe", 5.0, "0xbb", Some("0x02"), "1500", &[]),
            false,
            at,
        );
        assert_eq!(kinds(&better), ["label_changed"]);
        assert_eq!(better[0].severity, Severity::Info);
        // A new token: its first label.
        let new = diff(ChainId::Eth, None, &before, true, at);
        assert_eq!(kinds(&new), ["new_token"]);
        assert!(new[0].label_before.is_none() && new[0].label_after == Some(RiskLabel::Caution));
        // Renouncing is reported, as info.
        let renounced = diff(
            ChainId::Eth,
            Some(&before),
            &analysis(
                "caution",
                30.0,
                "0x0000000000000000000000000000000000000000",
                Some("0x01"),
                "1000",
                &[],
            ),
            false,
            at,
        );
        assert_eq!(kinds(&renounced), ["ownership_changed"]);
        assert_eq!(renounced[0].severity, Severity::Info);
        assert_eq!(to_wire(&renounced[0]).kind, AlertKind::OwnershipChanged);
    }
}
