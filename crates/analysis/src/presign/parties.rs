//! Who is on the other side: for each address a transaction or signature
//! touches, whether it is an EOA, an address with no code and no history,
//! or a contract (and whether it had code a day back); the name the service
//! knows it by; and what the service's own record holds against it (tokens
//! it created that turned on their holders).

use std::collections::{BTreeSet, HashMap};

use alloy_primitives::{Address, Bytes, U64};
use riskintel_chains::evm::types::BlockTag;
use riskintel_chains::evm::EvmChain;
use riskintel_chains::rpc::Batch;
use riskintel_chains::Chain;
use riskintel_store::Store;
use riskintel_types::{AccountKind, AddressScreen};
use serde_json::json;

use super::known;
use crate::screening::Screening;
use crate::tokens::evm::history::{self, CreatorHistory};
use crate::tokens::AnalysisError;

/// Addresses looked up in the service's record per request, at most.
const FLAG_LOOKUPS: usize = 16;

/// What is known of one address.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Party {
    /// It has code (EIP-7702 delegations excepted: those are EOAs).
    pub has_code: bool,
    /// It has sent transactions.
    pub has_sent: bool,
    /// It had no code a day back (None: the node could not say).
    pub new: Option<bool>,
    /// The name the service knows it by.
    pub name: Option<String>,
    /// What the service's record holds against it, in words.
    pub flagged: Vec<String>,
    /// The sanctions list entries for this chain that name it, in words.
    pub sanctioned: Vec<String>,
}

impl Party {
    /// Add what screening found: the list entries that apply on the chain,
    /// and the service's flags, in words.
    pub fn add_screen(&mut self, screen: AddressScreen) {
        self.sanctioned.extend(
            (screen.matches.iter().filter(|m| m.applies))
                .map(|m| format!("{} entry {} ({})", m.list, m.entry_id, m.name)),
        );
        (self.flagged).extend(screen.flags.into_iter().map(|f| f.detail.to_lowercase()));
    }

    /// EOA, contract or a known router or contract.
    pub fn kind(&self) -> AccountKind {
        if self.name.is_some() {
            AccountKind::KnownRouter
        } else if self.has_code {
            AccountKind::Contract
        } else {
            AccountKind::Eoa
        }
    }
}

/// The names of a chain's configured contracts: routers, position managers, the wrapped native.
pub fn configured_names(evm: &EvmChain) -> HashMap<Address, String> {
    let mut names: HashMap<Address, String> = HashMap::new();
    for dex in &evm.dexes {
        names.insert(dex.router, format!("{} router", dex.name));
        if let Some(manager) = dex.position_manager {
            names.insert(manager, format!("{} positions", dex.name));
        }
    }
    names.insert(evm.wrapped.address, evm.wrapped.symbol.clone());
    names
}

/// The name the service knows `address` by on this chain.
pub fn name_of(names: &HashMap<Address, String>, address: &Address) -> Option<String> {
    names
        .get(address)
        .cloned()
        .or_else(|| known::everywhere(address).map(str::to_string))
}

/// Add to `batch` the reads that tell what `addresses` are, at `head`; the
/// closure takes the answers.
pub fn read(
    batch: &mut Batch,
    chain: Chain,
    head: u64,
    addresses: &BTreeSet<Address>,
) -> impl FnOnce(&mut riskintel_chains::rpc::Answers) -> HashMap<Address, Party> + use<> {
    let blocks_a_day = (86_400.0 / known::block_seconds(chain)).ceil() as u64;
    let day_back = BlockTag::Number(head.saturating_sub(blocks_a_day));
    let at = BlockTag::Number(head);
    let slots: Vec<_> = addresses
        .iter()
        .map(|a| {
            (
                *a,
                batch.call::<Bytes>("eth_getCode", json!([a, at])),
                batch.call::<U64>("eth_getTransactionCount", json!([a, at])),
                batch.call::<Bytes>("eth_getCode", json!([a, day_back])),
            )
        })
        .collect();
    move |answers| {
        slots
            .into_iter()
            .map(|(address, code, nonce, old_code)| {
                let code = answers.take(code).unwrap_or_default();
                let has_code = riskintel_chains::evm::is_contract_code(&code);
                let has_sent = answers.take(nonce).is_ok_and(|n| n > U64::ZERO);
                let new = answers
                    .take(old_code)
                    .ok()
                    .map(|old| has_code && old.is_empty());
                let party = Party {
                    has_code,
                    has_sent,
                    new,
                    ..Party::default()
                };
                (address, party)
            })
            .collect()
    }
}

/// Add the service's record of each party: its screening (sanctions lists
/// and flags, from memory) for every party, and the tokens it created that
/// turned on their holders for the first [`FLAG_LOOKUPS`] unnamed parties.
pub async fn flag(
    store: &dyn Store,
    screening: &Screening,
    chain: Chain,
    parties: &mut HashMap<Address, Party>,
) -> Result<(), AnalysisError> {
    for (address, party) in parties.iter_mut() {
        party.add_screen(screening.screened(chain, &address.to_checksum(None)));
    }
    let mut asked: Vec<Address> = parties
        .iter()
        .filter(|(_, p)| p.name.is_none())
        .map(|(a, _)| *a)
        .collect();
    asked.sort();
    asked.truncate(FLAG_LOOKUPS);
    for address in asked {
        let record = history::read(store, chain, Address::ZERO, Some(address)).await?;
        if let CreatorHistory::Known { flagged, .. } = record {
            if let Some(party) = parties.get_mut(&address) {
                party.flagged.extend(
                    flagged
                        .iter()
                        .map(|f| format!("created {} ({})", f.token, f.showed.join(", "))),
                );
            }
        }
    }
    Ok(())
}
