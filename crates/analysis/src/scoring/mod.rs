//! From checks to a verdict: the builder every analysis records its checks
//! and signals with, the score `100 × (1 − Π(1 − weight))`, coverage, the
//! label, and the explanation and badge made from a result.

pub mod badge;
pub mod explain;

use riskintel_types::{
    Check, CheckId, CheckStatus, Coverage, Evidence, RiskLabel, Severity, Signal, SignalCategory,
};

/// Weights at the lower edge of a label's band. One signal of such a weight
/// scores exactly the band's threshold and other signals only raise the
/// score, so it puts a token in that band at least, on its own — how the
/// policy's "at least risky" rules are kept without overriding the label.
pub mod band {
    /// Caution at least (score 20).
    pub const CAUTION: f64 = 0.2;
    /// Risky at least (score 50).
    pub const RISKY: f64 = 0.5;
    /// Critical (score 80).
    pub const CRITICAL: f64 = 0.8;
}

/// Liquidity under this many dollars in all pools together puts a token in
/// `risky` at least (policy).
pub const LOW_LIQUIDITY_RISKY_USD: f64 = 5_000.0;
/// Liquidity under this many dollars puts a token in `caution` at least.
pub const LOW_LIQUIDITY_CAUTION_USD: f64 = 50_000.0;

/// Severity and weight of low liquidity, by the dollars in all pools.
pub fn low_liquidity_degree(usd: f64) -> Option<(Severity, f64)> {
    if usd < LOW_LIQUIDITY_RISKY_USD {
        Some((Severity::High, band::RISKY))
    } else if usd < LOW_LIQUIDITY_CAUTION_USD {
        Some((Severity::Medium, band::CAUTION))
    } else {
        None
    }
}

/// Severity and weight of liquidity that can be withdrawn, by the share of
/// the deepest pool's LP burned or locked (None from 95% on): critical when
/// most of a young token's liquidity can be pulled.
pub fn lp_unlocked_degree(locked_share: f64, young: bool) -> Option<(Severity, f64)> {
    if locked_share >= 0.95 {
        None
    } else if locked_share < 0.5 && young {
        Some((Severity::Critical, 0.5))
    } else {
        Some((Severity::High, 0.25))
    }
}

/// Severity, weight and words of a young token, by its age in seconds
/// (under a week); None when older.
pub fn new_token_degree(age_seconds: i64) -> Option<(Severity, f64, &'static str)> {
    if age_seconds < 3_600 {
        Some((Severity::High, 0.25, "less than an hour"))
    } else if age_seconds < 86_400 {
        Some((Severity::Medium, 0.12, "less than a day"))
    } else if age_seconds < 7 * 86_400 {
        Some((Severity::Low, 0.05, "less than a week"))
    } else {
        None
    }
}

/// Severity and weight of a measured tax (policy: 10% or more puts a token
/// in caution at least, 25% in risky, 50% in critical, whoever owns the
/// contract); `raised` moves it one level up (a fee that can be changed).
pub fn tax_degree(tax: f64, raised: bool) -> (Severity, f64) {
    const LEVELS: [(Severity, f64); 4] = [
        (Severity::Low, 0.05),
        (Severity::Medium, band::CAUTION),
        (Severity::High, band::RISKY),
        (Severity::Critical, band::CRITICAL),
    ];
    let level = if tax >= 0.5 {
        3
    } else if tax >= 0.25 {
        2
    } else if tax >= 0.1 {
        1
    } else {
        0
    };
    LEVELS[(level + usize::from(raised)).min(3)]
}

/// Collects checks and signals as an assessment runs; every check is
/// recorded exactly once, as detected, clear or unknown.
pub struct Builder {
    signals: Vec<Signal>,
    checks: Vec<Check>,
    block: u64,
}

impl Builder {
    /// A builder for an assessment read at `block` (slot on Solana).
    pub fn new(block: u64) -> Builder {
        Builder {
            signals: Vec::new(),
            checks: Vec::new(),
            block,
        }
    }

    /// The check found its risk: a signal with its degree (severity and
    /// weight), a title, one sentence with the numbers, and its evidence
    /// (the upstream calls and the raw values).
    #[allow(clippy::too_many_arguments)]
    pub fn detected(
        &mut self,
        id: CheckId,
        category: SignalCategory,
        severity: Severity,
        weight: f64,
        title: &str,
        detail: String,
        rpc: &str,
        raw: serde_json::Value,
    ) {
        self.checks.push(Check {
            id,
            status: CheckStatus::Detected,
            reason: None,
        });
        self.signals.push(Signal {
            id,
            severity,
            weight,
            category,
            title: title.into(),
            detail,
            evidence: Evidence {
                rpc: rpc.into(),
                block: Some(self.block),
                raw,
            },
        });
    }

    /// The check ran and found nothing.
    pub fn clear(&mut self, id: CheckId) {
        self.checks.push(Check {
            id,
            status: CheckStatus::Clear,
            reason: None,
        });
    }

    /// The check could not run.
    pub fn unknown(&mut self, id: CheckId, reason: impl Into<String>) {
        self.checks.push(Check {
            id,
            status: CheckStatus::Unknown,
            reason: Some(reason.into()),
        });
    }

    /// A detected check without a signal (tests of what follows).
    #[cfg(test)]
    fn detected_check_for_tests(&mut self, id: CheckId) {
        self.checks.push(Check {
            id,
            status: CheckStatus::Detected,
            reason: None,
        });
    }

    /// What was recorded for the check, if anything (the first record).
    pub fn status(&self, id: CheckId) -> Option<CheckStatus> {
        self.checks.iter().find(|c| c.id == id).map(|c| c.status)
    }

    /// Add a sentence to the check's signals, and `value` to their raw
    /// evidence under `key`.
    pub fn annotate(&mut self, id: CheckId, sentence: &str, key: &str, value: serde_json::Value) {
        for signal in self.signals.iter_mut().filter(|s| s.id == id) {
            signal.detail = format!("{} {sentence}", signal.detail);
            if let Some(raw) = signal.evidence.raw.as_object_mut() {
                raw.insert(key.to_string(), value.clone());
            }
        }
    }

    /// Raise the check's signals to at least `severity` and `weight`, with
    /// a sentence saying why and `value` in their evidence under `key`.
    pub fn raise(
        &mut self,
        id: CheckId,
        (severity, weight): (Severity, f64),
        sentence: &str,
        key: &str,
        value: serde_json::Value,
    ) {
        for signal in self.signals.iter_mut().filter(|s| s.id == id) {
            signal.severity = signal.severity.max(severity);
            signal.weight = signal.weight.max(weight);
        }
        self.annotate(id, sentence, key, value);
    }

    /// Lower the check's signals to at most `severity` and `weight`, with a
    /// sentence saying why and `value` in their evidence under `key`.
    pub fn lower(
        &mut self,
        id: CheckId,
        (severity, weight): (Severity, f64),
        sentence: &str,
        key: &str,
        value: serde_json::Value,
    ) {
        for signal in self.signals.iter_mut().filter(|s| s.id == id) {
            signal.severity = signal.severity.min(severity);
            signal.weight = signal.weight.min(weight);
        }
        self.annotate(id, sentence, key, value);
    }

    /// Forget what was recorded for the check, its signals too, so that
    /// better evidence can record it anew.
    pub fn retract(&mut self, id: CheckId) {
        self.signals.retain(|s| s.id != id);
        self.checks.retain(|c| c.id != id);
    }

    /// The check's input could not be read: whatever it concluded is
    /// withdrawn (its signals too) and it is unknown for `reason` (joined
    /// to the reasons already given for it).
    pub fn withdraw(&mut self, id: CheckId, reason: &str) {
        let mut reasons: Vec<String> = self
            .checks
            .iter()
            .filter(|c| c.id == id && c.status == CheckStatus::Unknown)
            .filter_map(|c| c.reason.as_deref())
            .flat_map(|r| r.split("; "))
            .map(str::to_string)
            .collect();
        if !reasons.iter().any(|r| r == reason) {
            reasons.push(reason.to_string());
        }
        self.retract(id);
        self.unknown(id, reasons.join("; "));
    }

    /// Score, label and coverage of what was recorded.
    pub fn verdict(self) -> Verdict {
        let score = score(&self.signals);
        let coverage = coverage(self.checks);
        let label = label_for(score, &coverage);
        Verdict {
            score,
            label,
            coverage,
            signals: self.signals,
        }
    }
}

/// The outcome of an assessment.
pub struct Verdict {
    /// Score 0..100.
    pub score: f64,
    /// Label.
    pub label: RiskLabel,
    /// Coverage of the checks.
    pub coverage: Coverage,
    /// Detected risks.
    pub signals: Vec<Signal>,
}

/// Score from weights: `100 × (1 − Π(1 − w))`, to one decimal.
pub fn score(signals: &[Signal]) -> f64 {
    let keep: f64 = signals
        .iter()
        .map(|s| 1.0 - s.weight.clamp(0.0, 1.0))
        .product();
    ((1.0_f64 - keep) * 1000.0).round() / 10.0
}

/// Coverage of a set of checks.
pub fn coverage(checks: Vec<Check>) -> Coverage {
    let ran = checks
        .iter()
        .filter(|c| c.status != CheckStatus::Unknown)
        .count();
    let ratio = if checks.is_empty() {
        0.0
    } else {
        ((ran as f64 / checks.len() as f64) * 1000.0).round() / 1000.0
    };
    Coverage { ratio, checks }
}

/// Checks without which no result is labelled `safe`: whether a holder can
/// sell, and whether someone can dilute or take what holders hold, are the
/// questions the label exists to answer.
const REQUIRED_FOR_SAFE: [CheckId; 4] = [
    CheckId::Honeypot,
    CheckId::MintCapability,
    CheckId::SeizeBalance,
    CheckId::BurnFromOthers,
];

/// Label from score and coverage: under 0.6 coverage, or with a check of
/// [`REQUIRED_FOR_SAFE`] unknown, a result is never `safe`.
pub fn label_for(score: f64, coverage: &Coverage) -> RiskLabel {
    let required_unknown = coverage
        .checks
        .iter()
        .any(|c| c.status == CheckStatus::Unknown && REQUIRED_FOR_SAFE.contains(&c.id));
    match label(score, coverage.ratio) {
        RiskLabel::Safe if required_unknown => RiskLabel::Caution,
        other => other,
    }
}

/// Label from score and coverage ratio: under 0.6 coverage is never `safe`.
pub fn label(score: f64, coverage: f64) -> RiskLabel {
    let label = if score < 20.0 {
        RiskLabel::Safe
    } else if score < 50.0 {
        RiskLabel::Caution
    } else if score < 80.0 {
        RiskLabel::Risky
    } else {
        RiskLabel::Critical
    };
    if label == RiskLabel::Safe && coverage < 0.6 {
        RiskLabel::Caution
    } else {
        label
    }
}

/// A share as a percentage with one decimal.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A dollar amount for sentences.
pub fn usd(x: f64) -> String {
    if x >= 1_000_000.0 {
        format!("${:.2}M", x / 1_000_000.0)
    } else {
        format!("${x:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn signal(weight: f64) -> Signal {
        Signal {
            id: CheckId::NewToken,
            severity: Severity::Low,
            weight,
            category: SignalCategory::Contract,
            title: String::new(),
            detail: String::new(),
            evidence: Evidence {
                rpc: String::new(),
                block: None,
                raw: json!(null),
            },
        }
    }

    #[test]
    fn score_combines_weights_and_labels_follow_the_bands() {
        assert_eq!(score(&[]), 0.0);
        assert_eq!(score(&[signal(1.0), signal(0.2)]), 100.0);
        assert_eq!(score(&[signal(0.5), signal(0.5)]), 75.0);
        assert_eq!(label(19.9, 1.0), RiskLabel::Safe);
        assert_eq!(label(19.9, 0.59), RiskLabel::Caution);
        assert_eq!(label(20.0, 1.0), RiskLabel::Caution);
        assert_eq!(label(79.9, 1.0), RiskLabel::Risky);
        assert_eq!(label(80.0, 1.0), RiskLabel::Critical);
    }

    #[test]
    fn a_withdrawn_check_drops_its_signals_and_keeps_every_reason() {
        let mut b = Builder::new(1);
        b.signals.push(signal(0.5));
        b.detected_check_for_tests(CheckId::NewToken);
        b.clear(CheckId::MintCapability);
        b.withdraw(CheckId::NewToken, "the block was refused");
        b.withdraw(CheckId::NewToken, "the logs were refused");
        b.withdraw(CheckId::NewToken, "the logs were refused");
        let verdict = b.verdict();
        assert!(verdict.signals.is_empty());
        let new_token: Vec<_> = verdict
            .coverage
            .checks
            .iter()
            .filter(|c| c.id == CheckId::NewToken)
            .collect();
        assert_eq!(new_token.len(), 1);
        assert_eq!(new_token[0].status, CheckStatus::Unknown);
        assert_eq!(
            new_token[0].reason.as_deref(),
            Some("the block was refused; the logs were refused")
        );
        assert!(verdict
            .coverage
            .checks
            .iter()
            .any(|c| c.id == CheckId::MintCapability && c.status == CheckStatus::Clear));
    }

    #[test]
    fn liquidity_bands_follow_the_policy() {
        let label_of = |usd: f64| {
            label(
                score(&[signal(low_liquidity_degree(usd).map_or(0.0, |(_, w)| w))]),
                1.0,
            )
        };
        assert_eq!(label_of(4_999.0), RiskLabel::Risky);
        assert_eq!(label_of(5_000.0), RiskLabel::Caution);
        assert_eq!(label_of(49_999.0), RiskLabel::Caution);
        assert_eq!(label_of(50_000.0), RiskLabel::Safe);
    }

    #[test]
    fn taxes_follow_the_policy_bands() {
        assert_eq!(tax_degree(0.03, false), (Severity::Low, 0.05));
        assert_eq!(tax_degree(0.10, false), (Severity::Medium, band::CAUTION));
        assert_eq!(tax_degree(0.25, false), (Severity::High, band::RISKY));
        assert_eq!(
            tax_degree(0.50, false),
            (Severity::Critical, band::CRITICAL)
        );
        assert_eq!(tax_degree(0.10, true), (Severity::High, band::RISKY));
        assert_eq!(tax_degree(0.99, true), (Severity::Critical, band::CRITICAL));
    }

    #[test]
    fn a_band_edge_weight_alone_reaches_its_band() {
        assert_eq!(
            label(score(&[signal(band::CAUTION)]), 1.0),
            RiskLabel::Caution
        );
        assert_eq!(label(score(&[signal(band::RISKY)]), 1.0), RiskLabel::Risky);
        assert_eq!(
            label(score(&[signal(band::CRITICAL)]), 1.0),
            RiskLabel::Critical
        );
        assert_eq!(
            label(score(&[signal(band::RISKY), signal(0.05)]), 1.0),
            RiskLabel::Risky,
            "others only raise it"
        );
    }

    #[test]
    fn an_unknown_honeypot_check_is_never_safe() {
        let mut b = Builder::new(1);
        b.clear(CheckId::NewToken);
        b.unknown(CheckId::Honeypot, "no pool");
        b.clear(CheckId::OwnerNotRenounced);
        assert_eq!(b.verdict().label, RiskLabel::Caution);
    }
}
