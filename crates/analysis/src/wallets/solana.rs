//! A Solana wallet: its token accounts of both token programs (current
//! state, so nothing is missed), their delegations as approvals, and its
//! signatures (the latest 1,000) for activity.

use std::collections::{BTreeSet, HashMap};

use riskintel_types::{AccountKind, Approval, WalletAnalysis, WalletFacts};
use serde_json::json;

use super::{Held, IndexView, Wallets};
use crate::tokens::{AnalysisError, Target};
use riskintel_chains::rpc::Batch;
use riskintel_chains::solana::layouts::{self, Mint};
use riskintel_chains::solana::types::{Account, KeyedAccount, SignatureInfo, WithContext};
use riskintel_chains::solana::{self as sol, Pubkey};
use riskintel_chains::Chain;

/// Signatures read for activity.
const SIGNATURES: usize = 1000;

/// Analyse the Solana wallet `owner`.
pub(super) async fn analyze(
    wallets: &Wallets,
    owner: Pubkey,
) -> Result<WalletAnalysis, AnalysisError> {
    let chain = wallets.analyzer.chains().solana()?.clone();
    let w = sol::encode(&owner);
    let b64 = json!({"encoding": "base64", "commitment": "confirmed"});
    let mut batch = Batch::new();
    let info = batch.call::<WithContext<Option<Account>>>("getAccountInfo", json!([w, b64]));
    let programs = [sol::TOKEN_PROGRAM, sol::TOKEN_2022_PROGRAM].map(|program| {
        batch.call::<WithContext<Vec<KeyedAccount>>>(
            "getTokenAccountsByOwner",
            json!([w, {"programId": program}, b64]),
        )
    });
    let signatures = batch
        .call::<Vec<SignatureInfo>>("getSignaturesForAddress", json!([w, {"limit": SIGNATURES}]));
    let mut answers = chain.rpc.send(batch).await?;
    let info = answers.take(info)?;
    let slot = info.context.slot;
    let lamports = info.value.as_ref().map_or(0, |a| a.lamports);
    let is_program = info.value.as_ref().is_some_and(Account::is_program_owned);
    let mut token_accounts = Vec::new();
    for program in programs {
        for item in answers.take(program)?.value {
            if let Some(parsed) = layouts::decode_token_account(&item.account.data) {
                token_accounts.push((parsed, layouts::decode_delegation(&item.account.data)));
            }
        }
    }
    let signatures = answers.take(signatures).unwrap_or_default();
    let mints: BTreeSet<Pubkey> = token_accounts.iter().map(|(a, _)| a.mint).collect();
    let delegates: BTreeSet<Pubkey> = token_accounts
        .iter()
        .filter_map(|(_, d)| d.map(|d| d.0))
        .collect();
    let wanted: Vec<String> = mints.iter().chain(&delegates).map(sol::encode).collect();
    let looked_up: HashMap<String, Account> = if wanted.is_empty() {
        HashMap::new()
    } else {
        let answer: WithContext<Vec<Option<Account>>> = chain
            .rpc
            .call("getMultipleAccounts", json!([wanted, b64]))
            .await?;
        wanted
            .iter()
            .cloned()
            .zip(answer.value)
            .filter_map(|(k, v)| Some((k, v?)))
            .collect()
    };
    let mint_of = |k: &Pubkey| -> Option<Mint> {
        let account = looked_up.get(&sol::encode(k))?;
        layouts::decode_mint(&account.data, &account.owner)
    };
    let mut held = Vec::new();
    let mut approval_list = Vec::new();
    for (account, delegation) in &token_accounts {
        let Some(mint) = mint_of(&account.mint) else {
            continue;
        };
        let symbol = mint
            .metadata
            .as_ref()
            .map(|m| m.symbol.clone())
            .unwrap_or_default();
        if account.amount > 0 {
            held.push(Held {
                target: Target::Sol(account.mint),
                symbol: symbol.clone(),
                amount: account.amount as f64 / 10f64.powi(mint.decimals as i32),
                amount_raw: account.amount.to_string(),
                supply_share: account.amount as f64 / (mint.supply.max(1) as f64),
            });
        }
        if let Some((delegate, amount)) = delegation.filter(|(_, a)| *a > 0) {
            let kind = match looked_up.get(&sol::encode(&delegate)) {
                Some(a) if a.is_program_owned() => AccountKind::Contract,
                _ => AccountKind::Eoa,
            };
            approval_list.push(Approval {
                token: sol::encode(&account.mint),
                token_symbol: symbol,
                spender: sol::encode(&delegate),
                spender_kind: kind,
                spender_name: None,
                amount_raw: amount.to_string(),
                unlimited: amount >= u64::MAX / 2,
            });
        }
    }
    let complete_history = signatures.len() < SIGNATURES;
    let first = if complete_history {
        signatures.last().map(|s| s.slot)
    } else {
        None
    };
    let facts = WalletFacts {
        kind: if is_program {
            AccountKind::Contract
        } else {
            AccountKind::Eoa
        },
        native_balance: lamports as f64 / 1e9,
        transaction_count: signatures.len() as u64,
        first_activity_block: first,
    };
    // Token accounts are read as they are now: holdings and delegations are complete.
    let index = IndexView {
        complete: true,
        reason: None,
        first_activity: first,
    };
    wallets
        .finish(Chain::Sol, w, held, approval_list, index, facts, slot)
        .await
}
