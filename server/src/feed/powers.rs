//! Alerts from what a mint's own state says between two analyses (Solana,
//! where the fee and the powers over holders' tokens are the mint's
//! settings rather than measured): a transfer fee changed, a power over
//! holders gained or changed, a pool's liquidity pulled. Each is keyed by
//! what it found, so two instances re-analysing the same change store it
//! once.

use chrono::{DateTime, Utc};
use riskintel_api::{AlertKind, ChainId, CheckId, CheckStatus, Severity, TokenAnalysis};
use sha2::{Digest, Sha256};

use riskintel_store::AlertRow;

use super::alerts::{liquidity_severity, row, symbol_of};

/// The checks that name a power over holders' tokens, with what they are called.
const POWERS: [(CheckId, &str); 4] = [
    (CheckId::FreezeAuthorityActive, "freeze authority"),
    (CheckId::PermanentDelegate, "permanent delegate"),
    (CheckId::TransferHook, "transfer hook"),
    (CheckId::MetadataMutable, "metadata update authority"),
];

/// Liquidity counts as pulled when what is left is at most this share of what was.
const PULLED: f64 = 0.5;

fn detail_of(a: &TokenAnalysis, id: CheckId) -> Option<&str> {
    (a.signals.iter())
        .find(|s| s.id == id)
        .map(|s| s.detail.as_str())
}

fn short_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes())[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn percent(fee: Option<f64>) -> String {
    fee.map_or("none".into(), |f| format!("{:.2}%", f * 100.0))
}

/// The alerts from `before` to `after` of a token on `chain` (not an EVM chain's).
pub fn diff(
    chain: ChainId,
    before: &TokenAnalysis,
    after: &TokenAnalysis,
    at: DateTime<Utc>,
) -> Vec<AlertRow> {
    let symbol = symbol_of(after);
    let block = after.as_of_block.unwrap_or_default();
    let mut alerts = Vec::new();
    let (old, new) = (before.meta.transfer_tax, after.meta.transfer_tax);
    if old != new {
        let raised = new.unwrap_or(0.0) > old.unwrap_or(0.0);
        let severity = match new {
            Some(f) if raised && f >= 0.1 => Severity::High,
            _ if raised => Severity::Medium,
            _ => Severity::Info,
        };
        alerts.push(row(
            chain,
            AlertKind::FeeChanged,
            severity,
            // From what and since which analysis: a fee raised again after
            // it was lowered is a new alert; two instances seeing one
            // change store one.
            &format!(
                "{}->{}@{}",
                percent(old),
                percent(new),
                before.cached_at.timestamp()
            ),
            format!(
                "{symbol}: transfer fee {}",
                if raised { "raised" } else { "lowered" }
            ),
            format!(
                "The transfer fee of {symbol} went from {} to {}.",
                percent(old),
                percent(new)
            ),
            Some(before),
            after,
            block,
            at,
        ));
    }
    for (id, name) in POWERS {
        let Some(now) = detail_of(after, id) else {
            continue;
        };
        let was = detail_of(before, id);
        // Only against a state that was read: a check unknown before (a
        // read that failed) is not a power newly gained.
        let read_before = was.is_some()
            || (before.coverage.checks.iter())
                .any(|c| c.id == id && c.status == CheckStatus::Clear);
        if was == Some(now) || !read_before {
            continue;
        }
        alerts.push(row(
            chain,
            AlertKind::AuthorityChanged,
            Severity::High,
            &format!(
                "{id}:{}@{}",
                short_hash(&format!("{}|{now}", was.unwrap_or(""))),
                before.cached_at.timestamp()
            ),
            format!(
                "{symbol}: {name} {}",
                if was.is_some() { "changed" } else { "set" }
            ),
            match was {
                Some(was) => format!("The {name} of {symbol} changed: {now} (before: {was})"),
                None => format!("{symbol} now has a {name}: {now}"),
            },
            Some(before),
            after,
            block,
            at,
        ));
    }
    if let (Some(was), Some(left)) = (before.meta.liquidity_usd, after.meta.liquidity_usd) {
        if was > 0.0 && left <= was * PULLED {
            let fall = 1.0 - left / was;
            alerts.push(row(
                chain,
                AlertKind::LiquidityRemoved,
                liquidity_severity(fall),
                // The analysis it fell from: one alert however many see it.
                &format!("from:{}", before.cached_at.timestamp()),
                format!("{symbol}: liquidity removed"),
                format!(
                    "The liquidity of {symbol}'s pools fell {:.1}%, from ${was:.0} to ${left:.0}, between two analyses.",
                    fall * 100.0
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

#[cfg(test)]
mod tests {
    use super::*;
    use riskintel_api::WireName;

    fn analysis(fee: Option<f64>, freeze: Option<&str>, liquidity: f64, at: &str) -> TokenAnalysis {
        let signals: Vec<serde_json::Value> = freeze
            .iter()
            .map(|d| serde_json::json!({"id": "freeze_authority_active", "severity": "high", "weight": 0.3, "category": "ownership",
                "title": "t", "detail": d, "evidence": {"rpc": "r", "block": 1, "raw": null}}))
            .collect();
        serde_json::from_value(serde_json::json!({
            "chain": "sol", "address": "So11111111111111111111111111111111111111112", "score": 40.0, "label": "risky",
            "signals": signals, "cached_at": at, "as_of_block": 42,
            "coverage": {"ratio": 1.0, "checks": [{"id": "freeze_authority_active", "status": if freeze.is_some() { "detected" } else { "clear" }}]},
            "simulations": [], "stale": false,
            "meta": {"name": "N", "symbol": "SYM", "price_usd": null, "market_cap_usd": null, "decimals": 6,
                "total_supply": "1", "liquidity_usd": liquidity, "pools": [], "owner": null, "is_proxy": false,
                "implementation": null, "first_seen_block": 1, "buy_tax": null, "sell_tax": null, "transfer_tax": fee}
        }))
        .expect("valid analysis")
    }

    #[test]
    fn a_mints_changes_are_alerted_by_what_changed() {
        let at = Utc::now();
        let before = analysis(Some(0.01), None, 10_000.0, "2026-11-21T12:00:00Z");
        let after = analysis(
            Some(0.2),
            Some("A can freeze"),
            400.0,
            "2026-11-21T13:00:00Z",
        );
        let rows = diff(ChainId::Sol, &before, &after, at);
        let kinds: Vec<&str> = rows.iter().map(|r| r.kind.wire_name()).collect();
        assert_eq!(
            kinds,
            ["fee_changed", "authority_changed", "liquidity_removed"]
        );
        assert_eq!(rows[0].severity, Severity::High);
        assert!(rows[0].detail.contains("1.00%") && rows[0].detail.contains("20.00%"));
        assert_eq!(rows[2].severity, Severity::Critical);
        // Seen again by another instance from the same analysis: the same keys.
        let again = diff(ChainId::Sol, &before, &after, at);
        let keys = |r: &[AlertRow]| r.iter().map(|r| r.event_key.clone()).collect::<Vec<_>>();
        assert_eq!(keys(&rows), keys(&again));
        // The same state again: nothing; a fee lowered: info.
        assert!(diff(ChainId::Sol, &after, &after, at).is_empty());
        let lowered = analysis(
            Some(0.001),
            Some("A can freeze"),
            400.0,
            "2026-11-21T14:00:00Z",
        );
        let rows = diff(ChainId::Sol, &after, &lowered, at);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].severity, Severity::Info);
    }
}
