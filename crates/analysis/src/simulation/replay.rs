//! Real holders, not only fresh buyers: a small exit (a hundredth of the
//! balance transferred, another hundredth sold) replayed from up to five
//! of the largest holders, each with the probe contract injected at its
//! address, in one `eth_call`, beside a fresh wallet's own trade. A holder
//! that cannot move or sell while the fresh wallet trades is trapped.

use alloy_primitives::{Address, Bytes, U256};
use alloy_sol_types::SolCall;
use serde_json::{json, Map, Value};

use riskintel_types::{CheckId, Severity, SignalCategory};

use super::abi::{IPrivilegeProbe, Outcome, Plan, PROBE_RUNTIME_HEX};
use crate::scoring::{band, Builder};
use riskintel_chains::evm::abi::units;
use riskintel_chains::evm::types::BlockTag;
use riskintel_chains::rpc::{Answers, Batch, Slot};

/// Holders replayed, at most.
pub const HOLDERS: usize = 5;
/// The share of the pool's quote reserve the fresh wallet spends (bps).
const BUY_BPS: u64 = 100;

/// One holder's replayed exit.
#[derive(Clone, Debug)]
pub struct HolderExit {
    /// The holder.
    pub holder: Address,
    /// Its balance.
    pub balance: U256,
    /// Whether a hundredth of it could be transferred to a fresh address.
    pub transfer_ok: bool,
    /// Whether another hundredth could be sold; None when the pool would pay nothing for it.
    pub sell_ok: Option<bool>,
}

impl HolderExit {
    /// Whether it is stuck: its transfer or its sell failed.
    pub fn trapped(&self) -> bool {
        !self.transfer_ok || self.sell_ok == Some(false)
    }
}

/// The replay's outcome.
#[derive(Clone, Debug)]
pub struct Replay {
    /// A fresh wallet's own buy, transfer and sell beside the holders.
    pub fresh: Outcome,
    /// Each holder's exit.
    pub exits: Vec<HolderExit>,
}

/// The replay sent, waiting for its answer.
pub struct Planned {
    holders: Vec<Address>,
    slot: Slot<Bytes>,
}

/// Add to `batch` the replay of `holders` (at most [`HOLDERS`]) on `plan`'s pool at `block`.
pub fn plan(
    plan: &Plan,
    holders: &[Address],
    driver: Address,
    caller: Address,
    block: u64,
    batch: &mut Batch,
) -> Planned {
    let holders: Vec<Address> = holders.iter().copied().take(HOLDERS).collect();
    let code = PROBE_RUNTIME_HEX.trim();
    let mut overrides = Map::new();
    overrides.insert(
        format!("{driver:#x}"),
        json!({"code": code, "balance": super::abi::funds()}),
    );
    for holder in &holders {
        overrides.insert(format!("{holder:#x}"), json!({"code": code}));
    }
    let mut plan = plan.clone();
    plan.searchSteps = U256::ZERO;
    let data = IPrivilegeProbe::replayCall {
        plan,
        buyBps: U256::from(BUY_BPS),
        holders: holders.clone(),
    }
    .abi_encode();
    let request =
        json!({"from": caller, "to": driver, "data": Bytes::from(data), "gas": "0x1c9c380"});
    let slot = batch.call::<Bytes>(
        "eth_call",
        json!([request, BlockTag::Number(block), Value::Object(overrides)]),
    );
    Planned { holders, slot }
}

impl Planned {
    /// The replay's outcome; `Err` with the reason when it did not run.
    pub fn take(self, answers: &mut Answers) -> Result<Replay, String> {
        let data = answers
            .take(self.slot)
            .map_err(|e| format!("the node refused the replay call ({e})"))?;
        if data.is_empty() {
            return Err(
                "the node ignored the eth_call state override (the replay had no code)".into(),
            );
        }
        let answer = IPrivilegeProbe::replayCall::abi_decode_returns(&data)
            .map_err(|_| "the replay's answer could not be decoded".to_string())?;
        if answer.results.len() != self.holders.len() {
            return Err("the replay's answer has fewer holders than were sent".into());
        }
        let exits = self
            .holders
            .iter()
            .zip(answer.results)
            .filter(|(_, r)| r.ran && !r.balance.is_zero())
            .map(|(holder, r)| HolderExit {
                holder: *holder,
                balance: r.balance,
                transfer_ok: r.transferOk,
                sell_ok: (r.sellOk || !r.sellExpected.is_zero()).then_some(r.sellOk),
            })
            .collect();
        Ok(Replay {
            fresh: answer.fresh,
            exits,
        })
    }
}

/// Whether real holders are trapped: their replayed small exits against a
/// fresh wallet's trade in the same simulation.
pub fn assess_holders(b: &mut Builder, replay: &Result<Replay, String>, decimals: u8) {
    let replay = match replay {
        Ok(r) => r,
        Err(reason) => {
            return b.unknown(
                CheckId::HoldersTrapped,
                format!("holders' exits were not replayed: {reason}"),
            )
        }
    };
    // A sell the token took whole on the way (it singles out contracts, as
    // the replay's wallets are) is no sell: nothing to compare holders with.
    let fresh = &replay.fresh;
    let fresh_sold =
        fresh.sellOk && !(fresh.sellReceived.is_zero() && !fresh.expectedSell.is_zero());
    if !(fresh.buyOk && fresh.transferOk && fresh_sold) {
        return b.unknown(CheckId::HoldersTrapped, "a fresh wallet could not buy, transfer and sell either, so holders' exits say nothing of their own");
    }
    let tried: Vec<_> = replay
        .exits
        .iter()
        .filter(|e| e.sell_ok.is_some() || !e.transfer_ok)
        .collect();
    if tried.is_empty() {
        return b.unknown(
            CheckId::HoldersTrapped,
            "no holder's exit could be replayed",
        );
    }
    let trapped: Vec<_> = tried.iter().filter(|e| e.trapped()).collect();
    if trapped.is_empty() {
        return b.clear(CheckId::HoldersTrapped);
    }
    let most = trapped.len() * 2 > tried.len();
    let (severity, weight) = if most {
        (Severity::Critical, band::CRITICAL)
    } else {
        (Severity::High, band::RISKY)
    };
    let raw: Vec<_> = tried
        .iter()
        .map(|e| json!({"holder": e.holder.to_checksum(None), "balance": units(e.balance, decimals), "transfer_ok": e.transfer_ok, "sell_ok": e.sell_ok}))
        .collect();
    b.detected(
        CheckId::HoldersTrapped,
        SignalCategory::Trading,
        severity,
        weight,
        "Holders are trapped",
        format!(
            "{} of {} of the largest holders tried could not transfer or sell a hundredth of their tokens, while a fresh wallet bought, transferred and sold.",
            trapped.len(),
            tried.len()
        ),
        "eth_call replay() with the probe contract at each holder's address by state override",
        json!({"holders": raw, "trapped": trapped.len(), "tried": tried.len()}),
    );
}
