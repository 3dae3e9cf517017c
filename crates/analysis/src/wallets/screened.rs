//! The addresses a wallet deals with (itself, its approvals' spenders),
//! screened from memory: those a sanctions list names or the service's
//! record flags are reported beside the analysis.

use riskintel_chains::Chain;
use riskintel_types::{Approval, PartyRole, ScreenRisk, ScreenedParty};

use crate::screening::Screening;

/// The wallet and its spenders that screening finds something against.
pub fn screened(
    screening: &Screening,
    chain: Chain,
    wallet: &str,
    approvals: &[Approval],
) -> Vec<ScreenedParty> {
    let parties = std::iter::once((wallet, PartyRole::Wallet)).chain(
        approvals
            .iter()
            .map(|a| (a.spender.as_str(), PartyRole::Spender)),
    );
    let mut seen = std::collections::BTreeSet::new();
    let mut found = Vec::new();
    for (address, role) in parties {
        if !seen.insert(address.to_string()) {
            continue;
        }
        let screen = screening.screened(chain, address);
        if screen.risk == ScreenRisk::None {
            continue;
        }
        let findings = (screen.matches.iter().filter(|m| m.applies))
            .map(|m| format!("on {} (entry {}: {})", m.list, m.entry_id, m.name))
            .chain(screen.flags.iter().map(|f| f.detail.clone()))
            .collect();
        found.push(ScreenedParty {
            address: address.to_string(),
            role,
            sanctioned: screen.sanctioned,
            risk: screen.risk,
            findings,
        });
    }
    found
}
