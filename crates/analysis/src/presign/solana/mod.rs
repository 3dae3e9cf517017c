//! A Solana transaction before it is signed, in two rounds to the node:
//! the lookup tables it loads and the signer's token accounts; then
//! `simulateTransaction` returning the signer's token accounts and every
//! writable account after it ran, beside the same accounts now. Balances
//! and authorities are read from the accounts' bytes before and after; the
//! token program's own instructions tell who was handed what.

use std::collections::{BTreeSet, HashMap};

use base64::Engine as _;
use riskintel_chains::rpc::{Batch, RpcError};
use riskintel_chains::solana::layouts::{decode_token_account, TokenAccount};
use riskintel_chains::solana::simulate::Simulated;
use riskintel_chains::solana::types::WithContext;
use riskintel_chains::solana::wire::{self, WireMessage};
use riskintel_chains::solana::{self as sol, Account, Pubkey};
use riskintel_chains::{Chain, InputError};
use riskintel_types::{
    AssetChange, AssetKind, ContractCalled, Direction, Risk, RiskKind, Severity, SimulationStatus,
    TxSimulation, TxSimulationRequest,
};
use serde_json::json;

mod balances;
mod ops;

use balances::{change, drain, mint_facts, verdicts};
use ops::{program_name, token_op};

use super::judge;
use super::Presign;
use crate::tokens::AnalysisError;

fn invalid(text: String) -> AnalysisError {
    AnalysisError::Input(InputError::Invalid(text))
}

/// Read the request: the transaction's bytes, its message and the signer.
fn read(request: &TxSimulationRequest) -> Result<(String, WireMessage, Pubkey), AnalysisError> {
    if request.from.is_some()
        || request.to.is_some()
        || request.calls.is_some()
        || request.data.is_some()
    {
        return Err(invalid(
            "from, to, data, calls: for EVM chains; a sol simulation takes transaction and signer"
                .into(),
        ));
    }
    let text = request
        .transaction
        .clone()
        .ok_or_else(|| invalid("transaction: required (base64 of the wire transaction)".into()))?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|_| invalid("transaction: not base64".into()))?;
    let message =
        wire::decode(&bytes).map_err(|e| invalid(format!("transaction: does not decode: {e}")))?;
    let signer = sol::parse_pubkey(
        request
            .signer
            .as_deref()
            .ok_or_else(|| invalid("signer: required".into()))?,
    )
    .map_err(|e| invalid(format!("signer: {e}")))?;
    if !message.keys[..message.signers].contains(&signer) {
        return Err(invalid(
            "signer: not among the transaction's signers".into(),
        ));
    }
    Ok((text, message, signer))
}

type Accounts = Vec<Option<Account>>;

pub(super) async fn simulate(
    presign: &Presign,
    request: &TxSimulationRequest,
) -> Result<TxSimulation, AnalysisError> {
    let started = std::time::Instant::now();
    let (text, message, signer) = read(request)?;
    let chain = presign.analyzer.chains().solana()?.clone();
    let signer_text = sol::encode(&signer);

    // Round 1: the lookup tables, the signer's token accounts.
    let mut batch = Batch::new();
    let tables: Vec<Pubkey> = message.lookups.iter().map(|l| l.table).collect();
    let table_slot = (!tables.is_empty()).then(|| {
        let list: Vec<String> = tables.iter().map(sol::encode).collect();
        batch.call::<WithContext<Accounts>>(
            "getMultipleAccounts",
            json!([list, {"encoding": "base64"}]),
        )
    });
    let owned: Vec<_> = [sol::TOKEN_PROGRAM, sol::TOKEN_2022_PROGRAM]
        .iter()
        .map(|p| {
            batch.call::<WithContext<Vec<serde_json::Value>>>(
                "getTokenAccountsByOwner",
                json!([signer_text, {"programId": p}, {"encoding": "base64"}]),
            )
        })
        .collect();
    let mut answers = chain.rpc.send(batch).await?;
    let mut loaded: HashMap<Pubkey, Vec<Pubkey>> = HashMap::new();
    if let Some(slot) = table_slot {
        for (table, account) in tables.iter().zip(answers.take(slot)?.value) {
            if let Some(addresses) = account.and_then(|a| wire::lookup_table_addresses(&a.data)) {
                loaded.insert(*table, addresses);
            }
        }
    }
    let mut watched: BTreeSet<Pubkey> = BTreeSet::from([signer]);
    let mut mints: BTreeSet<Pubkey> = BTreeSet::new();
    for slot in owned {
        for entry in answers.take(slot)?.value {
            if let Some(key) = entry["pubkey"]
                .as_str()
                .and_then(|k| sol::parse_pubkey(k).ok())
            {
                watched.insert(key);
            }
            let data = entry["account"]["data"][0]
                .as_str()
                .and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok());
            mints.extend(data.and_then(|d| decode_token_account(&d)).map(|t| t.mint));
        }
    }
    let keys = message
        .resolve(|t| loaded.get(t).cloned())
        .map_err(|e| invalid(format!("transaction: {e}")))?;
    watched.extend(keys.iter().filter(|(_, w)| *w).map(|(k, _)| *k));
    let token_programs = [
        sol::key(sol::TOKEN_PROGRAM),
        sol::key(sol::TOKEN_2022_PROGRAM),
    ];
    for ix in &message.instructions {
        // The checked transfers and approvals name their mint second.
        if token_programs.contains(&keys[usize::from(ix.program)].0)
            && matches!(ix.data.first(), Some(12 | 13))
        {
            mints.extend(ix.accounts.get(1).map(|a| keys[usize::from(*a)].0));
        }
    }
    let watched: Vec<Pubkey> = watched.into_iter().collect();
    let mints: Vec<Pubkey> = mints.into_iter().filter(|m| !watched.contains(m)).collect();
    let listed: Vec<String> = watched.iter().map(sol::encode).collect();
    let read_now: Vec<String> = watched.iter().chain(&mints).map(sol::encode).collect();

    // Round 2: the simulation with the accounts after it, and the same accounts now.
    let mut batch = Batch::new();
    let options = json!({"encoding": "base64", "sigVerify": false, "replaceRecentBlockhash": true, "commitment": "confirmed", "accounts": {"encoding": "base64", "addresses": listed}});
    let simulated =
        batch.call::<WithContext<Simulated>>("simulateTransaction", json!([text.trim(), options]));
    let before = batch.call::<WithContext<Accounts>>(
        "getMultipleAccounts",
        json!([read_now, {"encoding": "base64"}]),
    );
    let mut answers = chain.rpc.send(batch).await?;
    let mut before = answers.take(before)?;
    let slot = before.context.slot;
    let mint_accounts: HashMap<Pubkey, Option<Account>> = mints
        .iter()
        .copied()
        .zip(
            before
                .value
                .split_off(watched.len().min(before.value.len())),
        )
        .collect();
    let simulated = match answers.take(simulated) {
        Ok(s) => s.value,
        Err(RpcError::Upstream(why)) => {
            return Ok(super::evm::not_simulated(Chain::Sol, signer_text, why))
        }
        Err(other) => return Err(other.into()),
    };
    let (status, reason, failed) = match &simulated.err {
        None => (SimulationStatus::Success, None, None),
        Some(err) => {
            let index = err
                .get("InstructionError")
                .and_then(|e| e.get(0))
                .and_then(|i| i.as_u64())
                .map(|i| i as u32);
            let last = simulated
                .logs
                .as_ref()
                .and_then(|l| l.iter().rev().find(|l| l.contains("rror")).cloned());
            (
                SimulationStatus::Reverted,
                Some(last.map_or_else(|| err.to_string(), |l| format!("{err}: {l}"))),
                index,
            )
        }
    };
    let after: Accounts = match (status, simulated.accounts) {
        (SimulationStatus::Success, Some(after)) if after.len() == watched.len() => after,
        _ => before.value.clone(),
    };
    let pre: HashMap<Pubkey, Option<Account>> = watched.iter().copied().zip(before.value).collect();
    let post: HashMap<Pubkey, Option<Account>> = watched.iter().copied().zip(after).collect();
    let token = |map: &HashMap<Pubkey, Option<Account>>, k: &Pubkey| -> Option<TokenAccount> {
        map.get(k)?
            .as_ref()
            .and_then(|a| decode_token_account(&a.data))
    };

    // What the token program is asked to do.
    let instruction_keys = |ix: &wire::CompiledInstruction| -> Vec<Pubkey> {
        ix.accounts
            .iter()
            .map(|a| keys[usize::from(*a)].0)
            .collect()
    };
    let mut ops = Vec::new();
    let mut called: Vec<ContractCalled> = Vec::new();
    for ix in &message.instructions {
        let program = keys[usize::from(ix.program)].0;
        if !called.iter().any(|c| c.address == sol::encode(&program)) {
            let name = program_name(&program).map(str::to_string).or_else(|| {
                chain
                    .family_of(&sol::encode(&program))
                    .map(|f| chain.dex_name(f))
            });
            called.push(ContractCalled {
                address: sol::encode(&program),
                name,
            });
        }
        if token_programs.contains(&program) {
            ops.extend(token_op(&ix.data, &instruction_keys(ix)));
        }
    }

    // Balances: SOL, and each mint over the signer's token accounts.
    let mut risks: Vec<Risk> = Vec::new();
    let mut changes: Vec<AssetChange> = Vec::new();
    let lamports = |map: &HashMap<Pubkey, Option<Account>>| {
        map.get(&signer)
            .and_then(|a| a.as_ref())
            .map_or(0, |a| a.lamports)
    };
    let (sol_before, sol_after) = (lamports(&pre), lamports(&post));
    let (nets, fees) = balances::nets(
        &watched,
        signer,
        &ops,
        status == SimulationStatus::Success,
        |k| token(&pre, k),
        |k| token(&post, k),
    );
    let all_accounts = |m: &Pubkey| {
        mint_accounts
            .get(m)
            .or_else(|| pre.get(m))
            .cloned()
            .flatten()
    };
    let facts: HashMap<Pubkey, (Option<String>, Option<u8>)> = nets
        .keys()
        .map(|m| (*m, mint_facts(&chain, m, all_accounts(m))))
        .collect();
    let remaining = presign
        .analyzer
        .deadline()
        .saturating_sub(started.elapsed());
    let verdicts = verdicts(presign, &nets, remaining).await;
    if sol_before != sol_after {
        let (incoming, amount) = (sol_after > sol_before, sol_after.abs_diff(sol_before));
        changes.push(change(
            AssetKind::Native,
            None,
            Some("SOL".into()),
            incoming,
            amount.into(),
            Some(9),
            None,
            Vec::new(),
            None,
        ));
    }
    for (mint, (net, held, counterparties)) in &nets {
        let incoming = *net > 0;
        let (symbol, decimals) = facts.get(mint).cloned().unwrap_or_default();
        let verdict = verdicts.get(mint);
        let fee = fees.get(mint).copied();
        changes.push(change(
            AssetKind::Spl,
            Some(sol::encode(mint)),
            symbol.clone(),
            incoming,
            net.unsigned_abs(),
            decimals,
            fee,
            counterparties.iter().cloned().collect(),
            verdict.cloned(),
        ));
        if incoming {
            if let Some(v) = verdict {
                risks.extend(judge::received_token_risk(
                    &sol::encode(mint),
                    symbol.as_deref().unwrap_or("a token"),
                    v.0.label,
                ));
            }
        } else if net.unsigned_abs() >= u128::from(*held) && *held > 0 {
            risks.push(drain(
                symbol.unwrap_or_else(|| sol::encode(mint)),
                Some(sol::encode(mint)),
            ));
        }
    }
    let anything_in = changes.iter().any(|c| c.direction == Direction::In);
    if anything_in {
        risks.retain(|r| r.kind != RiskKind::DrainsAsset);
    } else if sol_before > 0 && sol_after < sol_before / 100 {
        risks.push(drain("SOL".into(), None));
    }

    // Grants and authorities.
    let (approvals, authorities, granted) = ops::grants(&ops, signer, |k| token(&pre, k), &facts);
    risks.extend(granted);
    // Every counterparty, spender, new authority and program, screened.
    let parties = (changes
        .iter()
        .flat_map(|c| c.counterparties.iter().cloned()))
    .chain(approvals.iter().map(|a| a.spender.clone()))
    .chain(authorities.iter().filter_map(|a| a.new_authority.clone()))
    .chain(called.iter().map(|c| c.address.clone()));
    risks.extend(judge::screening_risks(
        &presign.screening,
        Chain::Sol,
        parties,
    ));
    if status == SimulationStatus::Reverted {
        risks.push(judge::risk(
            RiskKind::Reverts,
            Severity::Medium,
            None,
            format!(
                "It would fail ({}); sending it costs the fee for nothing.",
                reason.clone().unwrap_or_default()
            ),
        ));
    }
    let risks = judge::sorted(risks);
    Ok(TxSimulation {
        chain: Chain::Sol.id().to_string(),
        signer: signer_text,
        verdict: judge::verdict(&risks),
        status,
        revert_reason: reason,
        failed_call: failed,
        unknown_reason: None,
        block: Some(slot),
        asset_changes: changes,
        approvals,
        authority_changes: authorities,
        contracts_called: called,
        risks,
    })
}
