//! Findings and the verdict, by the written rule (product "Before signing"):
//! `malicious` when any finding is critical (a grant to an EOA or to an
//! address without code, everything of a kind leaving for nothing back);
//! `warning` when any is high or medium (a grant to a new or unknown
//! contract, a risky token received, a flagged counterparty, a revert,
//! parts not checked); `benign` only when it was simulated and nothing
//! above was found; `unknown` when it could not be simulated.

use std::collections::HashMap;

use alloy_primitives::Address;
use riskintel_types::{
    ApprovalChange, ApprovalKind, PresignVerdict, Risk, RiskKind, RiskLabel, Severity,
};

use super::parties::Party;

/// Grants longer than this are long-lived (a signature valid for months).
pub const LONG_LIVED_SECONDS: i64 = 30 * 86_400;

/// A finding.
pub fn risk(
    kind: RiskKind,
    severity: Severity,
    address: Option<String>,
    description: String,
) -> Risk {
    Risk {
        kind,
        severity,
        address,
        description,
    }
}

fn what(grant: &ApprovalChange) -> String {
    let token = grant.symbol.clone().unwrap_or_else(|| grant.token.clone());
    match grant.kind {
        ApprovalKind::SetApprovalForAll => format!("every {token} NFT you hold"),
        ApprovalKind::Delegate => format!("your {token} (a delegate)"),
        _ if grant.unlimited => format!("all of your {token}"),
        _ => match &grant.amount_raw {
            Some(amount) => format!("{amount} base units of your {token}"),
            None => format!("an NFT of {token}"),
        },
    }
}

/// The findings on one grant, given what its spender is.
pub fn grant_risks(grant: &ApprovalChange, spender: Option<&Party>, now: i64) -> Vec<Risk> {
    let mut out = Vec::new();
    if grant.revoked {
        return out;
    }
    let at = Some(grant.spender.clone());
    let what = what(grant);
    let Some(party) = spender else {
        out.push(risk(
            RiskKind::NotChecked,
            Severity::Medium,
            at,
            format!("Who {} would be handed to could not be checked.", what),
        ));
        return out;
    };
    if party.name.is_some() {
        // Known routers and contracts are public and long-standing.
    } else if !party.has_code && party.has_sent {
        out.push(risk(
            RiskKind::GrantToEoa,
            Severity::Critical,
            at.clone(),
            format!("Grants {what} to an ordinary wallet (an EOA), which can take it at any time: this is how drainers steal."),
        ));
    } else if !party.has_code {
        out.push(risk(
            RiskKind::GrantToNoCode,
            Severity::Critical,
            at.clone(),
            format!("Grants {what} to an address with no code and no history: no contract there protects you, and whoever controls it can take it."),
        ));
    } else if party.new == Some(true) {
        out.push(risk(
            RiskKind::GrantToNewContract,
            Severity::High,
            at.clone(),
            format!("Grants {what} to a contract created less than a day ago."),
        ));
    } else if grant.unlimited {
        out.push(risk(
            RiskKind::UnlimitedGrantToUnknown,
            Severity::Medium,
            at.clone(),
            format!("Grants {what} to a contract the service does not know."),
        ));
    }
    if let Some(expires) = grant.expires_at {
        let left = expires.timestamp() - now;
        if left > LONG_LIVED_SECONDS && party.name.is_none() {
            out.push(risk(
                RiskKind::LongLivedGrant,
                Severity::Medium,
                at.clone(),
                format!("The grant lasts {} days.", left / 86_400),
            ));
        }
    }
    out.extend(flag_risks(&grant.spender, party));
    out
}

/// The findings on a counterparty the service's record flags.
pub fn flag_risks(address: &str, party: &Party) -> Vec<Risk> {
    let mut out = Vec::new();
    if !party.sanctioned.is_empty() {
        out.push(risk(
            RiskKind::SanctionedCounterparty,
            Severity::Critical,
            Some(address.to_string()),
            format!(
                "This address is on a sanctions list: {}. Do not transact.",
                party.sanctioned.join("; ")
            ),
        ));
    }
    if !party.flagged.is_empty() {
        out.push(risk(
            RiskKind::FlaggedCounterparty,
            Severity::High,
            Some(address.to_string()),
            format!(
                "The service's record holds against this address: {}.",
                party.flagged.join("; ")
            ),
        ));
    }
    out
}

/// The findings on `addresses` (as the API writes them) that screening
/// names: sanctioned or flagged, each address once.
pub fn screening_risks(
    screening: &crate::screening::Screening,
    chain: riskintel_chains::Chain,
    addresses: impl IntoIterator<Item = String>,
) -> Vec<Risk> {
    let unique: std::collections::BTreeSet<String> = addresses.into_iter().collect();
    unique
        .into_iter()
        .flat_map(|address| {
            let mut party = Party::default();
            party.add_screen(screening.screened(chain, &address));
            flag_risks(&address, &party)
        })
        .collect()
}

/// The finding on a received token the engine labels risky or critical.
pub fn received_token_risk(token: &str, symbol: &str, label: RiskLabel) -> Option<Risk> {
    let (severity, word) = match label {
        RiskLabel::Critical => (Severity::High, "critical"),
        RiskLabel::Risky => (Severity::Medium, "risky"),
        _ => return None,
    };
    Some(risk(
        RiskKind::ReceivesRiskyToken,
        severity,
        Some(token.to_string()),
        format!("You receive {symbol}, which the service labels {word}: see its verdict."),
    ))
}

/// Most serious first, then by kind, one of each (kind, address).
pub fn sorted(mut risks: Vec<Risk>) -> Vec<Risk> {
    risks.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| format!("{:?}", a.kind).cmp(&format!("{:?}", b.kind)))
            .then_with(|| a.address.cmp(&b.address))
    });
    risks.dedup_by(|a, b| a.kind == b.kind && a.address == b.address);
    risks
}

/// The verdict on `risks` of something that was judged (simulated or decoded).
pub fn verdict(risks: &[Risk]) -> PresignVerdict {
    match risks.iter().map(|r| r.severity).max() {
        Some(Severity::Critical) => PresignVerdict::Malicious,
        Some(Severity::High | Severity::Medium) => PresignVerdict::Warning,
        _ => PresignVerdict::Benign,
    }
}

/// Parties of a map by their written address.
pub fn party_of<'a>(parties: &'a HashMap<Address, Party>, address: &str) -> Option<&'a Party> {
    parties.get(&address.parse::<Address>().ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskintel_types::AccountKind;

    fn grant(unlimited: bool) -> ApprovalChange {
        ApprovalChange {
            kind: ApprovalKind::Approve,
            token: "0x00000000000000000000000000000000000000cc".into(),
            symbol: Some("TKN".into()),
            spender: "0x00000000000000000000000000000000000000dd".into(),
            spender_kind: AccountKind::Eoa,
            spender_name: None,
            amount_raw: Some("5".into()),
            unlimited,
            expires_at: None,
            revoked: false,
        }
    }

    #[test]
    fn the_rule_reads_as_written() {
        let eoa = Party {
            has_sent: true,
            ..Party::default()
        };
        let fresh = Party {
            has_code: true,
            new: Some(true),
            ..Party::default()
        };
        let old = Party {
            has_code: true,
            new: Some(false),
            ..Party::default()
        };
        let known = Party {
            has_code: true,
            name: Some("Router".into()),
            ..Party::default()
        };
        assert_eq!(
            verdict(&grant_risks(&grant(false), Some(&eoa), 0)),
            PresignVerdict::Malicious
        );
        assert_eq!(
            verdict(&grant_risks(&grant(false), Some(&Party::default()), 0)),
            PresignVerdict::Malicious
        );
        assert_eq!(
            verdict(&grant_risks(&grant(false), Some(&fresh), 0)),
            PresignVerdict::Warning
        );
        assert_eq!(
            verdict(&grant_risks(&grant(true), Some(&old), 0)),
            PresignVerdict::Warning
        );
        assert_eq!(
            verdict(&grant_risks(&grant(false), Some(&old), 0)),
            PresignVerdict::Benign
        );
        assert_eq!(
            verdict(&grant_risks(&grant(true), Some(&known), 0)),
            PresignVerdict::Benign
        );
        assert_eq!(
            verdict(&grant_risks(&grant(true), None, 0)),
            PresignVerdict::Warning
        );
    }

    #[test]
    fn a_sanctioned_counterparty_is_malicious_and_a_flagged_one_a_warning() {
        let sanctioned = Party {
            sanctioned: vec!["ofac_sdn entry 1 (someone)".into()],
            ..Party::default()
        };
        let risks = flag_risks("0x00000000000000000000000000000000000000aa", &sanctioned);
        assert_eq!(risks[0].kind, RiskKind::SanctionedCounterparty);
        assert_eq!(verdict(&risks), PresignVerdict::Malicious);
        let flagged = Party {
            flagged: vec!["deployed 3 tokens the service labels critical".into()],
            ..Party::default()
        };
        let risks = flag_risks("0x00000000000000000000000000000000000000aa", &flagged);
        assert_eq!(risks[0].kind, RiskKind::FlaggedCounterparty);
        assert_eq!(verdict(&risks), PresignVerdict::Warning);
        assert!(flag_risks("0x00", &Party::default()).is_empty());
    }
}
