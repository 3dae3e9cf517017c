//! The wallet index: the tokens a wallet moved and the (token, spender)
//! pairs it approved, from its Transfer and Approval logs — persisted,
//! incremental, and bounded by the configured look-back like the holder index.

use std::collections::BTreeSet;

use alloy_primitives::Address;
use alloy_sol_types::SolEvent;
use serde_json::json;

use super::IndexView;
use crate::tokens::AnalysisError;
use riskintel_chains::evm::abi::IERC20::{Approval, Transfer};
use riskintel_chains::evm::logs::{self, ScanLimits};
use riskintel_chains::evm::types::address_topic;
use riskintel_chains::evm::EvmChain;
use riskintel_store::{ContactKind, LogIndexKind, LogIndexState, Store, WalletContact};

/// Bring the index of `wallet` up to `latest` (within the limits).
pub(super) async fn update(
    store: &dyn Store,
    evm: &EvmChain,
    wallet: Address,
    latest: u64,
    limits: ScanLimits,
) -> Result<IndexView, AnalysisError> {
    let key = format!("{wallet:#x}");
    let existing = store
        .log_index_get(evm.id, LogIndexKind::Wallet, &key)
        .await?;
    let (start, next, expected) = match &existing {
        Some(s) => (
            s.start_block as u64,
            s.next_block as u64,
            Some(s.next_block),
        ),
        None => {
            let start = latest.saturating_sub(limits.lookback_blocks);
            (start, start, None)
        }
    };
    let me = address_topic(wallet);
    let filters = [
        logs::filter(None, json!([Transfer::SIGNATURE_HASH, null, me])),
        logs::filter(None, json!([Transfer::SIGNATURE_HASH, me])),
        logs::filter(None, json!([Approval::SIGNATURE_HASH, me])),
    ];
    let scan = logs::scan(&evm.rpc, &filters, next, latest, limits).await?;
    let mut first = existing
        .as_ref()
        .and_then(|s| s.first_block)
        .map(|b| b as u64);
    let mut contacts = BTreeSet::new();
    for log in &scan.logs {
        let token = format!("{:#x}", log.address);
        if log.topic0() == Some(Approval::SIGNATURE_HASH) {
            if let Some(spender) = log.topics.get(2) {
                contacts.insert(WalletContact {
                    kind: ContactKind::Approval,
                    token,
                    spender: format!("{:#x}", Address::from_word(*spender)),
                });
            }
        } else {
            contacts.insert(WalletContact {
                kind: ContactKind::Token,
                token,
                spender: String::new(),
            });
        }
        if log.block_number.is_some() {
            first = Some(first.map_or(log.block(), |f| f.min(log.block())));
        }
    }
    let state = LogIndexState {
        start_block: start as i64,
        next_block: scan.next as i64,
        first_block: first.map(|b| b as i64),
        first_party: None,
    };
    let contacts: Vec<WalletContact> = contacts.into_iter().collect();
    store
        .wallet_index_apply(evm.id, &key, expected, &state, &contacts)
        .await?;
    Ok(IndexView {
        complete: start == 0 && scan.next > latest,
        reason: logs::incomplete_reason(start, scan.next, latest, scan.gave_up, "wallet"),
        first_activity: first,
    })
}
