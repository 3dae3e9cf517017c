//! The creator's record (`creator_history`): the other tokens the same
//! creator launched — the first mint's recipient, as each token's holder
//! index saw it — that this service has seen turn against their holders:
//! an analysis that found a honeypot, trapped holders, or a power held
//! without delay to take or burn their tokens, or an alert of a honeypot or
//! of liquidity removed. Only behaviour counts, never a label or this
//! check itself, so one verdict cannot feed another.

use alloy_primitives::Address;
use riskintel_types::{CheckId, Severity, SignalCategory, TokenAnalysis};
use serde_json::json;

use super::holders::holder_key;
use crate::scoring::{band, Builder};
use riskintel_chains::evm::addr;
use riskintel_chains::Chain;
use riskintel_store::{Store, StoreError};

/// Other tokens of one creator looked at, at most.
const LOOKED_AT: i64 = 20;

/// Signals of another token's analysis that tell of its creator.
const TELLING: [CheckId; 4] = [
    CheckId::Honeypot,
    CheckId::HoldersTrapped,
    CheckId::SeizeBalance,
    CheckId::BurnFromOthers,
];

/// Another token of the creator, and what it showed.
#[derive(Clone, Debug, PartialEq)]
pub struct Flagged {
    /// Its address (lower-case hex).
    pub token: String,
    /// What it showed: check ids, and the alert kinds seen.
    pub showed: Vec<&'static str>,
}

/// What is known of the creator's other tokens.
#[derive(Clone, Debug, PartialEq)]
pub enum CreatorHistory {
    /// Not known, and why.
    Unknown(String),
    /// The creator, how many of its other tokens the service knows, and those that turned bad.
    Known {
        /// The creator.
        creator: Address,
        /// Other tokens of the creator known to the service (at most [`LOOKED_AT`]).
        others: usize,
        /// Those that turned against their holders.
        flagged: Vec<Flagged>,
    },
}

/// Read the record of `token`'s creator from the store.
pub async fn read(
    store: &dyn Store,
    chain: Chain,
    token: Address,
    creator: Option<Address>,
) -> Result<CreatorHistory, StoreError> {
    let Some(creator) = creator else {
        return Ok(CreatorHistory::Unknown(
            "the creator is not known: the holder index does not reach the first mint".into(),
        ));
    };
    let others = store
        .creator_tokens(chain, &holder_key(&creator), &holder_key(&token), LOOKED_AT)
        .await?;
    let flagged = others
        .iter()
        .filter_map(|other| {
            let mut showed: Vec<&'static str> = other
                .result
                .as_deref()
                .and_then(|json| serde_json::from_str::<TokenAnalysis>(json).ok())
                .map(|analysis| telling(&analysis))
                .unwrap_or_default();
            if other.alerts > 0 {
                showed.push("alert: honeypot or liquidity removed");
            }
            (!showed.is_empty()).then(|| Flagged {
                token: other.token.clone(),
                showed,
            })
        })
        .collect();
    Ok(CreatorHistory::Known {
        creator,
        others: others.len(),
        flagged,
    })
}

/// The telling signals of an analysis: a honeypot or trapped holders
/// found, or a power to take or burn holders' tokens held without delay.
fn telling(analysis: &TokenAnalysis) -> Vec<&'static str> {
    analysis
        .signals
        .iter()
        .filter(|s| TELLING.contains(&s.id) && s.weight >= band::RISKY)
        .map(|s| s.id.as_str())
        .collect()
}

/// Record `creator_history`.
pub fn assess(b: &mut Builder, history: &CreatorHistory) {
    let (creator, others, flagged) = match history {
        CreatorHistory::Unknown(reason) => {
            return b.unknown(CheckId::CreatorHistory, reason.clone());
        }
        CreatorHistory::Known {
            creator,
            others,
            flagged,
        } => (creator, others, flagged),
    };
    if flagged.is_empty() {
        return b.clear(CheckId::CreatorHistory);
    }
    let (severity, weight) = if flagged.len() >= 3 {
        (Severity::Critical, band::CRITICAL)
    } else {
        (Severity::High, 0.35)
    };
    let list: Vec<String> = flagged
        .iter()
        .map(|f| format!("{} ({})", f.token, f.showed.join(", ")))
        .collect();
    b.detected(
        CheckId::CreatorHistory,
        SignalCategory::Ownership,
        severity,
        weight,
        "Creator launched bad tokens before",
        format!(
            "The creator {} launched {} other token{} known here; {} turned against {} holders: {}.",
            addr(creator),
            others,
            if *others == 1 { "" } else { "s" },
            flagged.len(),
            if flagged.len() == 1 { "its" } else { "their" },
            list.join("; ")
        ),
        "store: holder indexes naming the same first-mint recipient, their latest analyses and alerts",
        json!({
            "creator": addr(creator),
            "other_tokens": others,
            "flagged": flagged.iter().map(|f| json!({"token": f.token, "showed": f.showed})).collect::<Vec<_>>(),
        }),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flagged(n: usize) -> CreatorHistory {
        CreatorHistory::Known {
            creator: Address::repeat_byte(1),
            others: n + 1,
            flagged: (0..n)
                .map(|i| Flagged {
                    token: format!("0x{i:040x}"),
                    showed: vec!["honeypot"],
                })
                .collect(),
        }
    }

    #[test]
    fn one_bad_token_is_high_three_are_critical() {
        for (n, expected) in [(0, None), (1, Some(0.35)), (2, Some(0.35)), (3, Some(0.8))] {
            let mut b = Builder::new(1);
            assess(&mut b, &flagged(n));
            let verdict = b.verdict();
            assert_eq!(
                verdict.signals.first().map(|s| s.weight),
                expected,
                "{n} flagged"
            );
        }
    }
}
