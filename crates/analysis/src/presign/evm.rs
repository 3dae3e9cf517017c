//! An EVM transaction before it is signed, in two rounds to the node: the
//! calls run with `eth_simulateV1` (native moves traced, and the wallet's
//! native balance read inside the same simulation before and after, so it
//! holds on nodes without `traceTransfers` and for value that leaves by
//! `selfdestruct`); then, in one request, what each party is (code, nonce,
//! code a day back) and each token's symbol, decimals and the wallet's
//! balance. A single call is also traced beside the simulation, for every
//! contract it reaches. Token verdicts come from the engine: cached, or made now for
//! tokens received, within the request's deadline.

use std::collections::{BTreeSet, HashMap};

use alloy_primitives::{Address, U256};
use riskintel_chains::evm::abi::revert_reason;
use riskintel_chains::evm::addr;
use riskintel_chains::evm::simulate::{
    simulate_asked, AskedCall, SimCall, SimulatedBlock, BALANCE_READER_CODE, NATIVE_TRANSFERS,
};
use riskintel_chains::evm::types::BlockTag;
use riskintel_chains::evm::EvmChain;
use riskintel_chains::rpc::{Batch, RpcError};
use riskintel_chains::Chain;
use riskintel_types::{
    ApprovalChange, ContractCalled, PresignVerdict, SimulationStatus, TxSimulation,
};
use serde_json::json;

use super::assets::{self, Assets};
use super::events::{self, Grant, Move, Standard};
use super::judge::{self, party_of};
use super::parties::{self, Party};
use super::request::AskedEvm;
use super::Presign;
use crate::simulation::trace::CallFrame;
use crate::tokens::AnalysisError;

/// Where the balance reader is placed for the simulation (no contract lives there).
const BALANCE_READER: Address =
    alloy_primitives::address!("00000000000000000000000000000000000b41a7");

/// What the calls did, read from the node's answer.
struct Ran {
    status: SimulationStatus,
    revert_reason: Option<String>,
    failed_call: Option<u32>,
    moves: Vec<Move>,
    grants: Vec<Grant>,
    emitters: BTreeSet<Address>,
    native_delta: Option<(bool, U256)>,
    native_before: Option<U256>,
}

fn reader_call(wallet: Address) -> AskedCall {
    AskedCall {
        call: SimCall {
            from: wallet,
            to: BALANCE_READER,
            data: wallet.into_word().to_vec().into(),
            value: U256::ZERO,
        },
        gas: Some(100_000),
    }
}

fn read_run(asked: &AskedEvm, blocks: Vec<SimulatedBlock>) -> Result<Ran, RpcError> {
    let calls = blocks
        .into_iter()
        .next()
        .map(|b| b.calls)
        .filter(|c| c.len() == asked.calls.len() + 2)
        .ok_or_else(|| {
            RpcError::Upstream("the simulation answered the wrong number of calls".into())
        })?;
    let balance = |i: usize| {
        (calls[i].ok() && calls[i].return_data.len() == 32)
            .then(|| U256::from_be_slice(&calls[i].return_data))
    };
    let (before, after) = (balance(0), balance(calls.len() - 1));
    let mut ran = Ran {
        status: SimulationStatus::Success,
        revert_reason: None,
        failed_call: None,
        moves: Vec::new(),
        grants: Vec::new(),
        emitters: BTreeSet::new(),
        native_delta: before.zip(after).map(|(b, a)| {
            if a >= b {
                (true, a - b)
            } else {
                (false, b - a)
            }
        }),
        native_before: before,
    };
    for (i, (result, call)) in calls[1..calls.len() - 1]
        .iter()
        .zip(&asked.calls)
        .enumerate()
    {
        if !result.ok() {
            if ran.failed_call.is_none() {
                ran.status = SimulationStatus::Reverted;
                ran.failed_call = Some(i as u32);
                let node_words = result
                    .error
                    .as_ref()
                    .map(|e| e.message.clone())
                    .filter(|m| !m.is_empty());
                ran.revert_reason = Some(match node_words {
                    Some(words) if result.return_data.is_empty() => words,
                    _ => revert_reason(&result.return_data),
                });
            }
            continue;
        }
        ran.moves.extend(events::moves(&result.logs));
        ran.grants.extend(events::grants(
            &result.logs,
            asked.from,
            events::kind_of_call(&call.call.data),
        ));
        ran.emitters.extend(
            result
                .logs
                .iter()
                .map(|l| l.address)
                .filter(|a| *a != NATIVE_TRANSFERS),
        );
    }
    Ok(ran)
}

/// The answer when the simulation could not run.
pub(super) fn not_simulated(chain: Chain, signer: String, why: String) -> TxSimulation {
    TxSimulation {
        chain: chain.id().to_string(),
        signer,
        verdict: PresignVerdict::Unknown,
        status: SimulationStatus::Unknown,
        revert_reason: None,
        failed_call: None,
        unknown_reason: Some(why.clone()),
        block: None,
        asset_changes: Vec::new(),
        approvals: Vec::new(),
        authority_changes: Vec::new(),
        contracts_called: Vec::new(),
        risks: vec![judge::risk(
            riskintel_types::RiskKind::NotSimulated,
            riskintel_types::Severity::Medium,
            None,
            format!("The transaction could not be simulated ({why}); what it does is unknown."),
        )],
    }
}

/// Simulate `asked` on `chain` and judge it.
pub(super) async fn simulate(
    presign: &Presign,
    chain: Chain,
    asked: AskedEvm,
) -> Result<TxSimulation, AnalysisError> {
    let started = std::time::Instant::now();
    let evm = presign.analyzer.chains().evm(chain)?.clone();
    let signer = addr(&asked.from);

    // Round 1: the simulation, the head.
    let mut batch = Batch::new();
    let head = batch.call::<alloy_primitives::U64>("eth_blockNumber", json!([]));
    let mut calls = vec![reader_call(asked.from)];
    calls.extend(asked.calls.iter().cloned());
    calls.push(reader_call(asked.from));
    let overrides = json!({ format!("{BALANCE_READER:#x}"): {"code": BALANCE_READER_CODE} });
    let simulated = simulate_asked(&mut batch, asked.block, overrides, &calls);
    let (answers, traced) = tokio::join!(evm.rpc.send(batch), traced_callees(&evm, &asked));
    let mut answers = answers?;
    let head: u64 = asked.block.unwrap_or(answers.take(head)?.to());
    let ran = match answers
        .take(simulated)
        .and_then(|blocks| read_run(&asked, blocks))
    {
        Ok(ran) => ran,
        Err(RpcError::Upstream(why)) => return Ok(not_simulated(chain, signer, why)),
        Err(other) => return Err(other.into()),
    };

    // Round 2: the parties and the tokens.
    let changes = super::changes::of_wallet(asked.from, &ran.moves, ran.native_delta);
    let names = parties::configured_names(&evm);
    let mut addresses: BTreeSet<Address> = ran.grants.iter().map(|g| g.spender).collect();
    addresses.extend(asked.calls.iter().map(|c| c.call.to));
    addresses.extend(traced.iter().flatten().copied().take(24));
    addresses.extend(
        changes
            .iter()
            .flat_map(|c| c.counterparties.iter().copied())
            .take(24),
    );
    addresses.remove(&asked.from);
    addresses.remove(&Address::ZERO);
    let mut tokens: BTreeSet<Address> = ran.grants.iter().map(|g| g.token).collect();
    tokens.extend(
        changes
            .iter()
            .filter(|c| c.standard != Standard::Native)
            .map(|c| c.token),
    );
    let mut batch = Batch::new();
    let take_parties = parties::read(&mut batch, chain, head, &addresses);
    let pending = assets::read(&mut batch, &evm, head, asked.from, &tokens);
    let mut answers = evm.rpc.send(batch).await?;
    let mut parties = take_parties(&mut answers);
    for (address, party) in parties.iter_mut() {
        party.name = parties::name_of(&names, address);
    }
    parties::flag(
        presign.store.as_ref(),
        &presign.screening,
        chain,
        &mut parties,
    )
    .await?;
    let facts = pending.take(&mut answers);
    let remaining = presign
        .analyzer
        .deadline()
        .saturating_sub(started.elapsed());
    let assets = Assets::judge(presign, chain, &evm, facts, &changes, remaining).await;

    let now = presign.clock.now().timestamp();
    let approvals: Vec<ApprovalChange> = ran
        .grants
        .iter()
        .map(|g| assets.approval(g, &parties))
        .collect();
    let mut risks = Vec::new();
    for grant in &approvals {
        risks.extend(judge::grant_risks(
            grant,
            party_of(&parties, &grant.spender),
            now,
        ));
    }
    let asset_changes = assets.changes(&changes, &mut risks);
    risks.extend(assets::drains(
        &asset_changes,
        &changes,
        &assets,
        ran.native_before,
        &signer,
    ));
    let called = called(&asked, &ran, traced.as_deref(), &parties, &names);
    // Every other party the record or a sanctions list names: the contracts
    // called, where the wallet's assets go (spenders were judged with their grant).
    let spenders: BTreeSet<Address> = ran.grants.iter().map(|g| g.spender).collect();
    let mut others: Vec<(&Address, &parties::Party)> = (parties.iter())
        .filter(|(a, _)| !spenders.contains(*a))
        .collect();
    others.sort_by_key(|(a, _)| **a);
    for (address, party) in others {
        risks.extend(judge::flag_risks(&address.to_checksum(None), party));
    }
    risks.extend(value_kept(&asked, &ran, &parties, &asset_changes));
    if ran.status == SimulationStatus::Reverted {
        risks.push(judge::risk(
            riskintel_types::RiskKind::Reverts,
            riskintel_types::Severity::Medium,
            None,
            format!(
                "It would fail ({}); sending it costs gas for nothing.",
                ran.revert_reason.clone().unwrap_or_default()
            ),
        ));
    }
    let risks = judge::sorted(risks);
    Ok(TxSimulation {
        chain: chain.id().to_string(),
        signer,
        verdict: judge::verdict(&risks),
        status: ran.status,
        revert_reason: ran.revert_reason,
        failed_call: ran.failed_call,
        unknown_reason: None,
        block: Some(head),
        asset_changes,
        approvals,
        authority_changes: Vec::new(),
        contracts_called: called,
        risks,
    })
}

/// Every contract a single call reaches, traced by the node
/// (`debug_traceCall`, `callTracer`) in a request of its own sent beside the
/// simulation: a trace too deep to parse costs this list, not the
/// simulation. None for a bundle, or where the node cannot trace.
async fn traced_callees(evm: &EvmChain, asked: &AskedEvm) -> Option<Vec<Address>> {
    let [only] = &asked.calls[..] else {
        return None;
    };
    let mut request = json!({"from": only.call.from, "to": only.call.to, "data": only.call.data});
    if !only.call.value.is_zero() {
        request["value"] = json!(only.call.value);
    }
    if let Some(gas) = only.gas {
        request["gas"] = json!(format!("{gas:#x}"));
    }
    let at = asked.block.map_or(BlockTag::Latest, BlockTag::Number);
    let root: CallFrame = (evm.rpc)
        .call(
            "debug_traceCall",
            json!([request, at, {"tracer": "callTracer"}]),
        )
        .await
        .ok()?;
    let mut found = Vec::new();
    let mut frames = vec![&root];
    while let Some(frame) = frames.pop() {
        let to = frame.to.unwrap_or_default();
        // Code ran there: call data, or calls below it; precompiles aside.
        let ran = !frame.input.is_empty() || !frame.calls.is_empty();
        if ran && !to.0[..19].iter().all(|b| *b == 0) && !found.contains(&to) {
            found.push(to);
        }
        frames.extend(frame.calls.iter().rev());
    }
    Some(found)
}

/// Every contract called: the callees, the contracts the trace reached, and
/// those whose events show they ran.
fn called(
    asked: &AskedEvm,
    ran: &Ran,
    traced: Option<&[Address]>,
    parties: &HashMap<Address, Party>,
    names: &HashMap<Address, String>,
) -> Vec<ContractCalled> {
    let mut seen = BTreeSet::new();
    asked
        .calls
        .iter()
        .map(|c| c.call.to)
        .chain(traced.into_iter().flatten().copied())
        .filter(|a| parties.get(a).is_none_or(|p| p.has_code))
        .chain(ran.emitters.iter().copied())
        .filter(|a| seen.insert(*a))
        .map(|a| ContractCalled {
            address: addr(&a),
            name: parties::name_of(names, &a),
        })
        .collect()
}

/// Native value sent to an unknown contract that gave nothing back.
fn value_kept(
    asked: &AskedEvm,
    ran: &Ran,
    parties: &HashMap<Address, Party>,
    changes: &[riskintel_types::AssetChange],
) -> Vec<riskintel_types::Risk> {
    let anything_back = changes
        .iter()
        .any(|c| c.direction == riskintel_types::Direction::In);
    if ran.status != SimulationStatus::Success || anything_back {
        return Vec::new();
    }
    asked
        .calls
        .iter()
        .filter(|c| !c.call.value.is_zero())
        .filter(|c| parties.get(&c.call.to).is_some_and(|p| p.has_code && p.name.is_none()))
        .map(|c| {
            judge::risk(
                riskintel_types::RiskKind::NativeToContract,
                riskintel_types::Severity::Medium,
                Some(addr(&c.call.to)),
                "Sends native currency to a contract the service does not know, and nothing comes back.".into(),
            )
        })
        .collect()
}
