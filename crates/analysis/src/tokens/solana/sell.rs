//! The sell check on the token's side: small `transfer_checked`s into the
//! deepest pool's token account, simulated (`simulateTransaction`, no
//! signature check, the node's blockhash) from the largest holders, and a
//! buyer's path: a new wallet's token account created, tokens in from
//! that pool, then back out to it, in one transaction. What the mint can do
//! to a buyer or a sell — a hook that refuses some paths or all, accounts
//! that start frozen, a frozen account, a non-transferable mint, a pause, a
//! fee that takes everything — shows in which leg passes and what arrives;
//! the pool program's own part of a swap is not simulated. The simulations
//! go in the last round's batch as a request of their own (no extra round
//! trip when the launch reads go too).

use riskintel_types::{CheckId, Severity, SignalCategory};
use serde_json::{json, Value};

use crate::scoring::{band, Builder};

use riskintel_chains::rpc::{Batch, RpcError, Slot};
use riskintel_chains::solana::hook::{self, ExtraMeta, Meta};
use riskintel_chains::solana::layouts::{self, Mint};
use riskintel_chains::solana::pools::{Accounts, Family, PoolState};
use riskintel_chains::solana::simulate::{Instruction, Simulated, Transfer};
use riskintel_chains::solana::types::WithContext;
use riskintel_chains::solana::{self as sol, Pubkey, SolanaChain};

/// Largest holders whose transfers are simulated, at most.
const HOLDERS: usize = 3;

/// Who sends a simulated transfer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sender {
    /// A new wallet's new token account that buys from the pool and sells
    /// back in one transaction, as a buyer does: its account's birth state
    /// (`DefaultAccountState`), and a hook on either leg, decide.
    Buyer,
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
    /// The answer, or why it says nothing (the node's refusal, the new
    /// account's creation failing, extras that could not be resolved).
    pub result: Result<Answer, String>,
}

/// What a simulated transfer came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// It passed: what arrived in the pool's account.
    Arrived(u64),
    /// The token refused it: the error and the program's logs.
    Refused(String, Vec<String>),
    /// A buyer's round trip failed at the buy: the new account could not
    /// receive the token from the pool (the error and logs).
    BuyRefused(String, Vec<String>),
}

/// The sell check's transfers and what became of them, or why none was tried.
#[derive(Clone, Debug)]
pub struct SellCheck {
    /// The pool's token account they went to.
    pub destination: Pubkey,
    /// Each transfer.
    pub outcomes: Vec<Outcome>,
}

/// One planned simulation: who, how much, the pool account's balance it
/// would leave if nothing arrived, and the simulation (or why there is none).
type Plan = (
    Sender,
    u64,
    u64,
    Result<Slot<WithContext<Simulated>>, String>,
);

/// The transfers planned in a batch.
pub struct Planned {
    destination: Pubkey,
    transfers: Vec<Plan>,
}

/// A wallet that holds nothing: the buyer of the round trip (its key is
/// never signed for: the simulation checks no signature).
const BUYER: &str = "Buyer11111111111111111111111111111111111111";

/// The token account of `pool` holding `mint`, where its layout or
/// program says (a curve's is its associated account).
fn pool_account(pool: &PoolState, mint: &Pubkey, program: &str) -> Option<Pubkey> {
    if pool.family == Family::PumpFun {
        return sol::associated_token_address(&pool.address, mint, program);
    }
    let side = pool.mints.iter().position(|m| m == mint)?;
    pool.vaults[side]
}

/// A hooked mint's hook: its program, and its list of extra accounts
/// where one was read (None: the hook keeps none).
struct Hook {
    program: Pubkey,
    list: Option<(Pubkey, Vec<ExtraMeta>)>,
}

impl Hook {
    /// The hook of `mint`, from the list account read in `accounts`.
    fn of(mint_key: &Pubkey, mint: &Mint, accounts: &Accounts) -> Result<Option<Hook>, String> {
        let Some((Some(program), _)) = mint.transfer_hook else {
            return Ok(None);
        };
        let address = hook::list_address(mint_key, &program)
            .ok_or("the transfer hook's account list has no address")?;
        let list = match accounts.get(&address) {
            Some(a) if !a.data.is_empty() => Some((address, hook::parse_list(&a.data)?)),
            _ => None,
        };
        Ok(Some(Hook { program, list }))
    }

    /// What a transfer carries for the hook: the extras, the program, the list.
    fn extras(&self, t: &Transfer, accounts: &Accounts) -> Result<Vec<Meta>, String> {
        let Some((address, list)) = &self.list else {
            return Ok(vec![Meta::readonly(self.program)]);
        };
        let data_of = |k: &Pubkey| accounts.get(k).map(|a| a.data.clone());
        let execute = hook::Execute {
            program: self.program,
            accounts: [t.source, t.mint, t.destination, t.authority, *address],
            amount: t.amount,
            data_of: &data_of,
        };
        let mut extras = execute.resolve(list).map_err(|e| {
            format!("the transfer hook's extra accounts could not be resolved: {e}")
        })?;
        extras.push(Meta::readonly(self.program));
        extras.push(Meta::readonly(*address));
        Ok(extras)
    }
}

/// The transfer `t` as an instruction with what its hook needs.
fn with_hook(
    t: &Transfer,
    hook: Option<&Hook>,
    accounts: &Accounts,
) -> Result<Instruction, String> {
    let extras = match hook {
        Some(h) => h.extras(t, accounts)?,
        None => Vec::new(),
    };
    Ok(t.instruction(&extras))
}

/// Plan the transfers, in `batch`: into the token account of the pool
/// holding the most of `mint`, from it (or, for a hooked mint, from a
/// buyer who bought from it) and from the largest holders (`largest`:
/// their token accounts, read in `accounts`, that are not pools'). None
/// when there is no pool account or no holder to pay fees.
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
    let hook = Hook::of(mint_key, mint, accounts);
    let options = json!({
        "encoding": "base64",
        "sigVerify": false,
        "replaceRecentBlockhash": true,
        "commitment": "confirmed",
        "accounts": {"encoding": "base64", "addresses": [sol::encode(&destination)]},
    });
    let small = |balance: u64| (balance / 1_000).max(1).min(balance);
    let transfer = |source, authority, amount| Transfer {
        program,
        source,
        mint: *mint_key,
        destination,
        authority,
        amount,
        decimals: mint.decimals,
    };
    let mut simulate = |instructions: Result<Vec<Instruction>, String>| {
        let tx = sol::simulate::base64(payer, &instructions?);
        Ok(batch.call("simulateTransaction", json!([tx, options])))
    };
    let mut transfers = Vec::new();
    if vault.amount > 0 {
        // A new wallet's account buys from the pool and sells back what
        // surely arrived (less the most either transfer fee withholds).
        let bought = small(vault.amount);
        let buyer = sol::key(BUYER);
        let account = sol::associated_token_address(&buyer, mint_key, program_text)
            .ok_or("the buyer has no associated account")?;
        let withheld = mint
            .transfer_fee
            .as_ref()
            .map_or(0, |f| f.most_withheld(bought));
        let sold = bought - withheld;
        let buy = Transfer {
            destination: account,
            ..transfer(destination, vault.owner, bought)
        };
        let sell = transfer(account, buyer, sold);
        let instructions = (hook.as_ref().map_err(String::clone)).and_then(|h| {
            let legs = [&buy, &sell].map(|t| with_hook(t, h.as_ref(), accounts));
            let create =
                sol::simulate::create_associated_account(payer, account, buyer, *mint_key, program);
            std::iter::once(Ok(create)).chain(legs).collect()
        });
        let sim = if sold == 0 {
            Err("the buy is too small to sell back anything after the transfer fee".into())
        } else {
            simulate(instructions)
        };
        transfers.push((Sender::Buyer, sold, vault.amount - bought, sim));
    }
    for (source, t) in &holders {
        let amount = small(t.amount);
        let instruction = (hook.as_ref().map_err(String::clone))
            .and_then(|h| with_hook(&transfer(*source, t.owner, amount), h.as_ref(), accounts));
        let sim = instruction.and_then(|i| simulate(Ok(vec![i])));
        transfers.push((Sender::Holder(t.owner), amount, vault.amount, sim));
    }
    Ok(Planned {
        destination,
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
        .map(|(sender, amount, baseline, slot)| {
            let result = match slot.map(|slot| answers.take(slot)) {
                Err(why) => Err(why),
                Ok(Ok(s)) if sender == Sender::Buyer => bought_and_sold(s.value, baseline),
                Ok(Ok(s)) => outcome(s.value, baseline),
                Ok(Err(e)) => Err(refused(e)),
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

/// The round trip's answer by the instruction that failed: the new
/// account's creation (0) says nothing of the token; the buy (1) refused
/// is the token refusing a buyer; the sell (2) refused, a sell refused.
fn bought_and_sold(s: Simulated, baseline: u64) -> Result<Answer, String> {
    let index = (s.err.as_ref())
        .and_then(|e| e.get("InstructionError"))
        .and_then(|e| e.get(0))
        .and_then(Value::as_u64);
    match (index, &s.err) {
        (Some(0), Some(err)) => Err(format!(
            "the buyer's token account could not be created: {err}"
        )),
        (Some(1), Some(err)) => Ok(Answer::BuyRefused(
            err.to_string(),
            s.logs.unwrap_or_default(),
        )),
        _ => outcome(s, baseline),
    }
}

fn refused(e: RpcError) -> String {
    format!("the node did not simulate it: {e}")
}

/// What arrived, or the error and logs; says nothing when the node did
/// not give the pool's account after (never read as nothing arriving).
fn outcome(s: Simulated, before: u64) -> Result<Answer, String> {
    let logs = s.logs.unwrap_or_default();
    if let Some(err) = s.err {
        return Ok(Answer::Refused(err.to_string(), logs));
    }
    let after = (s.accounts.into_iter().flatten().flatten().next())
        .and_then(|a| layouts::decode_token_account(&a.data))
        .ok_or("the node did not give the pool's account after the transfer")?;
    Ok(Answer::Arrived(after.amount.saturating_sub(before)))
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
    /// The token refused a buyer's buy: the new account could not receive it.
    BuyRefused(String),
    /// It says nothing of the token (the simulation's own failure).
    Untold(String),
}

fn verdict(o: &Outcome) -> Verdict {
    match &o.result {
        Err(why) => Verdict::Untold(why.clone()),
        Ok(Answer::Arrived(0)) if o.amount > 0 => Verdict::Refused(
            "nothing arrived: the transfer fee takes all of it".into(),
            true,
        ),
        Ok(Answer::Arrived(received)) => Verdict::Passed(*received),
        Ok(Answer::Refused(error, _)) if token_side(error) => {
            Verdict::Refused(error.clone(), false)
        }
        Ok(Answer::BuyRefused(error, _)) if token_side(error) => Verdict::BuyRefused(error.clone()),
        Ok(Answer::Refused(error, _) | Answer::BuyRefused(error, _)) => {
            Verdict::Untold(error.clone())
        }
    }
}

fn evidence(check: &SellCheck) -> Value {
    let transfers: Vec<Value> = (check.outcomes.iter())
        .map(|o| {
            let (status, detail) = match verdict(o) {
                Verdict::Passed(received) => ("passed", json!({"received": received.to_string()})),
                Verdict::Refused(why, _) => ("refused", json!({"error": why})),
                Verdict::BuyRefused(why) => ("buy_refused", json!({"error": why})),
                Verdict::Untold(why) => ("not_simulated", json!({"error": why})),
            };
            let logs = match &o.result {
                Ok(Answer::Refused(_, logs) | Answer::BuyRefused(_, logs)) => {
                    logs.iter().rev().take(8).rev().cloned().collect()
                }
                _ => Vec::new(),
            };
            json!({
                "from": match o.sender {
                    Sender::Buyer => "buyer (a new account: bought from the pool, sold back)".to_string(),
                    Sender::Holder(w) => sol::encode(&w),
                },
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
fn untold(holders: &[Verdict], buyer: Option<&Verdict>) -> String {
    (buyer.into_iter().chain(holders))
        .find_map(|v| match v {
            Verdict::Untold(why) => Some(why.clone()),
            _ => None,
        })
        .unwrap_or_else(|| "no holder outside the pools was found".into())
}

const RPC: &str =
    "simulateTransaction(a new account's buy from the deepest pool and sell back; holders' transfer_checked into it; sigVerify false)";

/// Record `honeypot` (can a buyer sell back into the pool what it bought
/// from it, on the token's side), `cannot_buy` (can a new account receive
/// the token from the pool at all) and `holders_trapped` (can the largest
/// holders' tokens go into the pool) from the check, or why it was not made.
pub fn assess(b: &mut Builder, sell: &Result<SellCheck, String>) {
    let check = match sell {
        Ok(check) => check,
        Err(why) => {
            for id in [
                CheckId::Honeypot,
                CheckId::CannotBuy,
                CheckId::HoldersTrapped,
            ] {
                b.unknown(id, why.clone());
            }
            return;
        }
    };
    let raw = evidence(check);
    let buyer = (check.outcomes.iter())
        .find(|o| o.sender == Sender::Buyer)
        .map(verdict);
    let holders: Vec<Verdict> = (check.outcomes.iter())
        .filter(|o| matches!(o.sender, Sender::Holder(_)))
        .map(verdict)
        .collect();
    let passed = |v: &Verdict| matches!(v, Verdict::Passed(_));
    let refused = |v: &Verdict| matches!(v, Verdict::Refused(..));
    let tried = holders
        .iter()
        .filter(|v| !matches!(v, Verdict::Untold(_)))
        .count();
    let trapped = holders.iter().filter(|v| refused(v)).count();
    // What stops every transfer stops a buyer's sell too.
    let everyone = holders.iter().find_map(|v| match v {
        Verdict::Refused(why, true) => Some(why.clone()),
        _ => None,
    });
    match &buyer {
        Some(Verdict::BuyRefused(why)) => b.detected(
            CheckId::CannotBuy,
            SignalCategory::Trading,
            Severity::High,
            0.4,
            "Buying fails",
            format!("A new account could not receive the token from its pool, as a buyer's would: {why}."),
            RPC,
            raw.clone(),
        ),
        Some(Verdict::Untold(why)) => b.unknown(CheckId::CannotBuy, why.clone()),
        None => b.unknown(CheckId::CannotBuy, "the pool holds none of the token to buy"),
        Some(_) => b.clear(CheckId::CannotBuy),
    }
    let sell_refused = match (&everyone, &buyer) {
        (Some(why), _) | (None, Some(Verdict::Refused(why, _))) => Some(format!(
            "The token refuses transfers into its pool, so what a buyer gets cannot be sold: {why}."
        )),
        // Nobody's tokens move: a buyer cannot get any, no holder can sell.
        (None, Some(Verdict::BuyRefused(why))) if tried > 0 && trapped == tried => Some(format!(
            "No transfer of the token passes: a new account could not receive it from the pool ({why}), and none of the {tried} largest holders tried could move theirs into the pool."
        )),
        _ => None,
    };
    if let Some(detail) = sell_refused {
        b.detected(
            CheckId::Honeypot,
            SignalCategory::Trading,
            Severity::Critical,
            band::CRITICAL,
            "Cannot be sold",
            format!("{detail} (The pool program's own part of a swap is not simulated.)"),
            RPC,
            raw,
        );
        b.unknown(
            CheckId::HoldersTrapped,
            "nobody can sell (honeypot), so holders' transfers say nothing of their own",
        );
        return;
    }
    let buyer_sold = buyer.as_ref().is_some_and(passed);
    if buyer_sold || holders.iter().any(passed) {
        b.clear(CheckId::Honeypot);
    } else {
        b.unknown(
            CheckId::Honeypot,
            format!("no sell into the pool could be simulated ({}); the pool program's own part of a swap is never simulated", untold(&holders, buyer.as_ref())),
        );
    }
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
        // Said only where it was seen: a buyer's round trip passed.
        let contrast = if buyer_sold {
            ", while a new buyer's tokens go into it"
        } else {
            ""
        };
        b.detected(
            CheckId::HoldersTrapped,
            SignalCategory::Trading,
            severity,
            weight,
            "Holders cannot sell",
            format!("{trapped} of the {tried} largest holders tried cannot move their tokens into the pool{contrast}."),
            RPC,
            raw,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskintel_chains::solana::layouts::TransferFee;

    fn failed(index: u64) -> Simulated {
        serde_json::from_value(json!({
            "err": {"InstructionError": [index, {"Custom": 6000}]},
            "logs": ["Program log: refused"],
        }))
        .unwrap()
    }

    #[test]
    fn the_round_trip_says_which_leg_the_token_refused() {
        let why = bought_and_sold(failed(0), 0).unwrap_err();
        assert!(why.contains("could not be created"), "{why}");
        assert!(matches!(
            bought_and_sold(failed(1), 0),
            Ok(Answer::BuyRefused(..))
        ));
        let Ok(Answer::Refused(error, logs)) = bought_and_sold(failed(2), 0) else {
            panic!("the sell's refusal is the token's");
        };
        assert!(error.contains("6000") && logs.len() == 1);
        // Passed, but the node gave no account after: says nothing.
        let passed: Simulated =
            serde_json::from_value(json!({"err": null, "accounts": [null]})).unwrap();
        assert!(bought_and_sold(passed, 0).is_err());
    }

    #[test]
    fn the_sell_back_is_what_either_fee_leaves() {
        let fee = TransferFee {
            basis_points: 100,
            maximum_fee: 5,
            config_authority: None,
            older: (500, u64::MAX),
        };
        // The older fee (5%, no cap) takes more than the newer (1%, at most 5).
        assert_eq!(fee.most_withheld(1_000), 50);
        assert_eq!(fee.most_withheld(1), 1);
        let all = TransferFee {
            basis_points: 10_000,
            maximum_fee: u64::MAX,
            config_authority: None,
            older: (0, 0),
        };
        assert_eq!(all.most_withheld(77), 77);
    }
}
