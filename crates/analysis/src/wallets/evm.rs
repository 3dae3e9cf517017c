//! An EVM wallet: the account itself, then the tokens and approvals its
//! log index found, confirmed on chain (`balanceOf`, `allowance()`), with
//! each spender classed as EOA, contract or a configured DEX router.

use std::collections::{BTreeSet, HashMap};

use alloy_primitives::{Address, Bytes, U256, U64};
use riskintel_types::{AccountKind, Approval, WalletAnalysis, WalletFacts};
use serde_json::json;

use super::{index, Held, Wallets};
use crate::tokens::{AnalysisError, TokenRef};
use riskintel_chains::evm::abi::{string_or_bytes32, units, IERC20};
use riskintel_chains::evm::multicall::Multicall;
use riskintel_chains::evm::types::{Block, BlockTag};
use riskintel_chains::rpc::Batch;
use riskintel_store::ContactKind;

/// An allowance at or above this is unlimited (2^255: what wallets grant as "max").
fn unlimited_floor() -> U256 {
    U256::from(1) << 255
}

/// Analyse the EVM wallet `wallet`.
pub(super) async fn analyze(
    wallets: &Wallets,
    wallet: TokenRef,
) -> Result<WalletAnalysis, AnalysisError> {
    let evm = wallets.analyzer.chains().evm(wallet.chain)?.clone();
    let w = wallet.address;
    // Round 1: the wallet itself.
    let mut batch = Batch::new();
    let head = batch.call::<Block>("eth_getBlockByNumber", json!(["latest", false]));
    let code = batch.call::<Bytes>("eth_getCode", json!([w, "latest"]));
    let balance = batch.call::<U256>("eth_getBalance", json!([w, "latest"]));
    let nonce = batch.call::<U64>("eth_getTransactionCount", json!([w, "latest"]));
    let mut answers = evm.rpc.send(batch).await?;
    let block = answers.take(head)?.number();
    let is_contract = !answers.take(code)?.is_empty();
    let native = answers.take(balance)?;
    let nonce: u64 = answers.take(nonce)?.to();
    let at = BlockTag::Number(block);

    // The index of the wallet's Transfer and Approval logs.
    let view = index::update(wallets.store.as_ref(), &evm, w, block, wallets.limits).await?;
    let contacts = (wallets.store)
        .wallet_contacts(evm.id, &format!("{w:#x}"))
        .await?;
    let tokens: Vec<Address> = contacts
        .iter()
        .filter(|c| c.kind == ContactKind::Token)
        .filter_map(|c| c.token.parse().ok())
        .collect();
    let approvals: Vec<(Address, Address)> = contacts
        .iter()
        .filter(|c| c.kind == ContactKind::Approval)
        .filter_map(|c| Some((c.token.parse().ok()?, c.spender.parse().ok()?)))
        .collect();
    let symbol_tokens: BTreeSet<Address> = tokens
        .iter()
        .chain(approvals.iter().map(|(t, _)| t))
        .copied()
        .collect();
    let spenders: BTreeSet<Address> = approvals.iter().map(|(_, s)| *s).collect();

    // Round 2: balances, metadata and allowances, and the spenders' code.
    let mut calls = Multicall::new();
    let token_reads: Vec<_> = tokens
        .iter()
        .map(|t| {
            let balance = calls.add(*t, IERC20::balanceOfCall { holder: w });
            let decimals = calls.add(*t, IERC20::decimalsCall {});
            let supply = calls.add(*t, IERC20::totalSupplyCall {});
            (*t, balance, decimals, supply)
        })
        .collect();
    let symbol_reads: Vec<_> = symbol_tokens
        .iter()
        .map(|t| (*t, calls.add(*t, IERC20::symbolCall {})))
        .collect();
    let allowance_reads: Vec<_> = approvals
        .iter()
        .map(|(t, s)| {
            (
                *t,
                *s,
                calls.add(
                    *t,
                    IERC20::allowanceCall {
                        holder: w,
                        spender: *s,
                    },
                ),
            )
        })
        .collect();
    let mut batch = Batch::new();
    let pending = (!calls.is_empty()).then(|| calls.into_batch(&mut batch, evm.multicall, &at));
    let spender_code: Vec<_> = spenders
        .iter()
        .map(|s| (*s, batch.call::<Bytes>("eth_getCode", json!([s, at]))))
        .collect();
    let mut answers = evm.rpc.send(batch).await?;
    let results = match pending {
        Some(pending) => pending.take(&mut answers)?,
        None => Default::default(),
    };
    let mut spender_has_code = HashMap::new();
    for (spender, slot) in spender_code {
        spender_has_code.insert(spender, !answers.take(slot)?.is_empty());
    }
    let symbols: HashMap<Address, String> = symbol_reads
        .into_iter()
        .map(|(t, call)| {
            (
                t,
                results
                    .raw(call)
                    .and_then(string_or_bytes32)
                    .unwrap_or_default(),
            )
        })
        .collect();
    let mut held = Vec::new();
    for (token, balance, decimals, supply) in token_reads {
        // ERC-20 only: a token without decimals() (an NFT collection) is not a holding here.
        let (Some(balance), Some(decimals)) = (results.get(balance), results.get(decimals)) else {
            continue;
        };
        if balance.is_zero() {
            continue;
        }
        let supply = results.get(supply).unwrap_or_default();
        held.push(Held {
            target: TokenRef {
                chain: wallet.chain,
                address: token,
            }
            .into(),
            symbol: symbols.get(&token).cloned().unwrap_or_default(),
            amount: units(balance, decimals),
            amount_raw: balance.to_string(),
            supply_share: units(balance, 0) / units(supply, 0).max(1.0),
        });
    }
    let routers: HashMap<Address, String> = evm
        .dexes
        .iter()
        .map(|d| (d.router, d.name.clone()))
        .collect();
    let mut approval_list = Vec::new();
    for (token, spender, call) in allowance_reads {
        let Some(amount) = results.get(call).filter(|a| !a.is_zero()) else {
            continue;
        };
        let (kind, name) = match routers.get(&spender) {
            Some(name) => (AccountKind::KnownRouter, Some(name.clone())),
            None if spender_has_code.get(&spender).copied().unwrap_or(false) => {
                (AccountKind::Contract, None)
            }
            None => (AccountKind::Eoa, None),
        };
        approval_list.push(Approval {
            token: token.to_checksum(None),
            token_symbol: symbols.get(&token).cloned().unwrap_or_default(),
            spender: spender.to_checksum(None),
            spender_kind: kind,
            spender_name: name,
            amount_raw: amount.to_string(),
            unlimited: amount >= unlimited_floor(),
        });
    }
    let facts = WalletFacts {
        kind: if is_contract {
            AccountKind::Contract
        } else {
            AccountKind::Eoa
        },
        native_balance: units(native, 18),
        transaction_count: nonce,
        first_activity_block: if view.complete {
            view.first_activity
        } else {
            None
        },
    };
    wallets
        .finish(
            wallet.chain,
            w.to_checksum(None),
            held,
            approval_list,
            view,
            facts,
            block,
        )
        .await
}
