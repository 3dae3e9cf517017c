//! The sell check on the token's side: small `transfer_checked`s into the
//! deepest pool's token account, simulated (`simulateTransaction`, no
//! signature check, the node's blockhash) from the largest holders and from
//! that pool's own account. What the mint can do to a sell — a hook that
//! refuses, a frozen or default-frozen account, a non-transferable mint, a
//! pause, a fee that takes everything — shows in whether the transfer
//! passes and what arrives; the pool program's own part of a swap is not
//! simulated. The simulations go in the last round's batch as a request of
//! their own (no extra round trip when the launch reads go too).

use riskintel_api::{CheckId, Severity, SignalCategory};
use serde_json::{json, Value};

use crate::scoring::{band, Builder};

use riskintel_chains::rpc::{Batch, RpcError, Slot};
use riskintel_chains::solana::layouts::{self, Mint};
use riskintel_chains::solana::pools::{Accounts, Family, PoolState};
use riskintel_chains::solana::simulate::{Simulated, Transfer};
use riskintel_chains::solana::types::WithContext;
use riskintel_chains::solana::{self as sol, Pubkey, SolanaChain};

/// Largest holders whose transfers are simulated, at most.
const HOLDERS: usize = 3;

/// Who sends a simulated transfer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sender {
    /// The pool's own token account (a buyer's tokens come from it).
    Pool,
    /// A holder (its wallet).
    Holder(Pubkey),
}

/// One simulated transfer and what became of it.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Who sent it.
    pub sender: Sender,
    /// Base units sent.
    pub amount: u64,
    /// The answer: passed (what arrived) or refused (the error and the
    /// program's logs), or the node's refusal to simulate.
    pub result: Result<Result<u64, (String, Vec<String>)>, String>,
}

/// The sell check's transfers and what became of them, or why none was tried.
#[derive(Clone, Debug)]
pub struct SellCheck {
    /// The pool's token account they went to.
    pub destination: Pubkey,
    /// Each transfer.
    pub outcomes: Vec<Outcome>,
}

/// The transfers planned in a batch.
pub struct Planned {
    destination: Pubkey,
    before: u64,
    transfers: Vec<(Sender, u64, Slot<WithContext<Simulated>>)>,
}

/// The token account of `pool` holding `mint`, where its layout or
/// program says (a curve's is its associated account).
fn pool_account(pool: &PoolState, mint: &Pubkey, program: &str) -> Option<Pubkey> {
    if pool.family == Family::PumpFun {
        return sol::associated_token_address(&pool.address, mint, program);
    }
    let side = pool.mints.iter().position(|m| m == mint)?;
    pool.vaults[side]
}

/// Plan the transfers, in `batch`: into the token account of the pool
/// holding the most of `mint`, from it and from the largest holders
/// (`largest`: their token accounts, read in `accounts`, that are not
/// pools'). None when there is no pool account or no holder to pay fees.
pub fn plan(
    batch: &mut Batch,
    mint_key: &Pubkey,
    mint: &Mint,
    pools: &[PoolState],
    accounts: &Accounts,
    largest: &[Pubkey],
) -> Result<Planned, String> {
    let program_text = if mint.token_2022 {
        sol::TOKEN_2022_PROGRAM
    } else {
        sol::TOKEN_PROGRAM
    };
    let program = sol::key(program_text);
    let token = |k: &Pubkey| {
        accounts
            .get(k)
            .and_then(|a| layouts::decode_token_account(&a.data))
    };
    let (destination, vault) = (pools.iter())
        .filter_map(|p| {
            let at = pool_account(p, mint_key, program_text)?;
            Some((at, token(&at)?))
        })
        .filter(|(_, t)| t.mint == *mint_key)
        .max_by_key(|(_, t)| t.amount)
        .ok_or("no pool's token account of the mint could be read")?;
    let holders: Vec<(Pubkey, layouts::TokenAccount)> = (largest.iter())
        .filter(|k| **k != destination)
        .filter_map(|k| Some((*k, token(k)?)))
        .filter(|(_, t)| t.amount > 0 && t.mint == *mint_key)
        .take(HOLDERS)
        .collect();
    let payer = holders
        .first()
        .map(|(_, t)| t.owner)
        .ok_or("no holder outside the pools to pay a simulated transfer's fee")?;
    let options = json!({
        "encoding": "base64",
        "sigVerify": false,
        "replaceRecentBlockhash": true,
        "commitment": "confirmed",
        "accounts": {"encoding": "base64", "addresses": [sol::encode(&destination)]},
    });
    let small = |balance: u64| (balance / 1_000).max(1).min(balance);
    let mut transfers = Vec::new();
    let senders = std::iter::once((Sender::Pool, destination, vault.owner, vault.amount, payer))
        .chain(
            holders
                .iter()
                .map(|(k, t)| (Sender::Holder(t.owner), *k, t.owner, t.amount, t.owner)),
        );
    for (sender, source, authority, balance, fee_payer) in senders {
        if balance == 0 {
            continue;
        }
        let amount = small(balance);
        let tx = Transfer {
            program,
            source,
            mint: *mint_key,
            destination,
            authority,
            fee_payer,
            amount,
            decimals: mint.decimals,
        }
        .base64();
        let slot = batch.call("simulateTransaction", json!([tx, options]));
        transfers.push((sender, amount, slot));
    }
    Ok(Planned {
        destination,
        before: vault.amount,
        transfers,
    })
}

/// Send the planned transfers (their own request) and read what became of each.
pub async fn simulate(
    chain: &SolanaChain,
    planned: Planned,
    batch: Batch,
) -> Result<SellCheck, String> {
    let mut answers = (chain.rpc.send(batch).await)
        .map_err(|e| format!("the node did not simulate the transfers: {e}"))?;
    let outcomes = (planned.transfers.into_iter())
        .map(|(sender, amount, slot)| {
            let result = match answers.take(slot) {
                // The pool's own transfer goes to itself: nothing to measure arriving.
                Ok(s) if sender == Sender::Pool => {
                    Ok(outcome(s.value, planned.before).map(|_| amount))
                }
                Ok(s) => Ok(outcome(s.value, planned.before)),
                Err(e) => Err(refused(e)),
            };
            Outcome {
                sender,
                amount,
                result,
            }
        })
        .collect();
    Ok(SellCheck {
        destination: planned.destination,
        outcomes,
    })
}

fn refused(e: RpcError) -> String {
    format!("the node did not simulate it: {e}")
}

/// What arrived, or the error and logs.
fn outcome(s: Simulated, before: u64) -> Result<u64, (String, Vec<String>)> {
    let logs = s.logs.unwrap_or_default();
    if let Some(err) = s.err {
        return Err((err.to_string(), logs));
    }
    let after = (s.accounts.into_iter().flatten().flatten().next())
        .and_then(|a| layouts::decode_token_account(&a.data))
        .map_or(before, |t| t.amount);
    Ok(after.saturating_sub(before))
}

/// Whether a simulation's error is the token's doing (the instruction
/// failed) rather than the simulation's (a fee payer without SOL, an
/// account the node does not have).
pub fn token_side(error: &str) -> bool {
    error.contains("InstructionError")
}

/// A transfer's verdict.
enum Verdict {
    /// It arrived (base units).
    Passed(u64),
    /// The token refused it (whether for every transfer, as a fee that
    /// takes all does, or maybe for this account only).
    Refused(String, bool),
    /// It says nothing of the token (the simulation's own failure).
    Untold(String),
}

fn verdict(o: &Outcome, hook: bool) -> Verdict {
    match &o.result {
        Err(why) => Verdict::Untold(why.clone()),
        Ok(Ok(0)) if o.amount > 0 => {
            Verdict::Refused("nothing arrived: the transfer fee takes all of it".into(), true)
        }
        Ok(Ok(received)) => Verdict::Passed(*received),
        // Without the hook's extra accounts a hooked transfer fails of our doing.
        Ok(Err((error, _))) if hook => Verdict::Untold(format!("{error} (the transfer hook's extra accounts are not passed, so this says nothing of the hook)")),
        Ok(Err((error, _))) if token_side(error) => Verdict::Refused(error.clone(), false),
        Ok(Err((error, _))) => Verdict::Untold(error.clone()),
    }
}

fn evidence(check: &SellCheck, hook: bool) -> Value {
    let transfers: Vec<Value> = (check.outcomes.iter())
        .map(|o| {
            let (status, detail) = match verdict(o, hook) {
                Verdict::Passed(received) => ("passed", json!({"received": received.to_string()})),
                Verdict::Refused(why, _) => ("refused", json!({"error": why})),
                Verdict::Untold(why) => ("not_simulated", json!({"error": why})),
            };
            let logs = match &o.result {
                Ok(Err((_, logs))) => logs.iter().rev().take(8).rev().cloned().collect(),
                _ => Vec::new(),
            };
            json!({
                "from": match o.sender { Sender::Pool => "pool".to_string(), Sender::Holder(w) => sol::encode(&w) },
                "amount": o.amount.to_string(),
                "status": status,
                "detail": detail,
                "logs": logs,
            })
        })
        .collect();
    json!({"destination": sol::encode(&check.destination), "transfers": transfers})
}

/// The first reason a simulation said nothing, for an `unknown`.
fn untold(holders: &[Verdict], pool: Option<&Verdict>) -> String {
    (pool.into_iter().chain(holders))
        .find_map(|v| match v {
            Verdict::Untold(why) => Some(why.clone()),
            _ => None,
        })
        .unwrap_or_else(|| "no holder outside the pools was found".into())
}

const RPC: &str =
    "simulateTransaction(transfer_checked into the deepest pool's token account; sigVerify false)";

/// Record `honeypot` (can the pool's own tokens go back into it: a
/// buyer's sell, on the token's side) and `holders_trapped` (can the
/// largest holders' tokens) from the check, or why it was not made.
pub fn assess(b: &mut Builder, sell: &Result<SellCheck, String>, hook: bool) {
    let check = match sell {
        Ok(check) => check,
        Err(why) => {
            b.unknown(CheckId::Honeypot, why.clone());
            b.unknown(CheckId::HoldersTrapped, why.clone());
            return;
        }
    };
    let raw = evidence(check, hook);
    let pool = (check.outcomes.iter())
        .find(|o| o.sender == Sender::Pool)
        .map(|o| verdict(o, hook));
    let holders: Vec<Verdict> = (check.outcomes.iter())
        .filter(|o| o.sender != Sender::Pool)
        .map(|o| verdict(o, hook))
        .collect();
    let passed = |v: &Verdict| matches!(v, Verdict::Passed(_));
    let refused = |v: &Verdict| matches!(v, Verdict::Refused(..));
    // What stops every transfer stops a buyer's sell too.
    let everyone = holders.iter().find_map(|v| match v {
        Verdict::Refused(why, true) => Some(Verdict::Refused(why.clone(), true)),
        _ => None,
    });
    match everyone.as_ref().or(pool.as_ref()) {
        Some(Verdict::Refused(why, _)) => {
            b.detected(
                CheckId::Honeypot,
                SignalCategory::Trading,
                Severity::Critical,
                band::CRITICAL,
                "Cannot be sold",
                format!("The token refuses transfers into its pool, so what a buyer gets cannot be sold: {why}. (The pool program's own part of a swap is not simulated.)"),
                RPC,
                raw.clone(),
            );
            b.unknown(CheckId::HoldersTrapped, "a buyer cannot sell either (honeypot), so holders' transfers say nothing of their own");
            return;
        }
        Some(v) if passed(v) => b.clear(CheckId::Honeypot),
        _ if holders.iter().any(passed) => b.clear(CheckId::Honeypot),
        _ => b.unknown(
            CheckId::Honeypot,
            format!("no transfer into the pool could be simulated ({}); the pool program's own part of a swap is never simulated", untold(&holders, pool.as_ref())),
        ),
    }
    let tried = holders
        .iter()
        .filter(|v| !matches!(v, Verdict::Untold(_)))
        .count();
    let trapped = holders.iter().filter(|v| refused(v)).count();
    if tried == 0 {
        b.unknown(
            CheckId::HoldersTrapped,
            format!(
                "no holder's transfer into the pool could be simulated ({})",
                untold(&holders, None)
            ),
        );
    } else if trapped == 0 {
        b.clear(CheckId::HoldersTrapped);
    } else {
        let (severity, weight) = if 2 * trapped > tried {
            (Severity::Critical, band::CRITICAL)
        } else {
            (Severity::High, band::RISKY)
        };
        b.detected(
            CheckId::HoldersTrapped,
            SignalCategory::Trading,
            severity,
            weight,
            "Holders cannot sell",
            format!("{trapped} of the {tried} largest holders tried cannot move their tokens into the pool, while the pool's own tokens move."),
            RPC,
            raw,
        );
    }
}
