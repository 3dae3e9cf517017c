//! `eth_simulateV1`: calls spread over several simulated blocks, the state
//! of each carried into the next, with the clock moved between them.
//!
//! Nodes differ on defaults (anvil reuses the base block's number and time
//! for an unnumbered first block; geth and reth add one block and twelve
//! seconds), so every block sent here carries its own number and time.

use alloy_primitives::{Address, Bytes, U256, U64};
use serde::Deserialize;
use serde_json::{json, Value};

use super::types::{Block, Log};
use crate::rpc::{Batch, Slot};

/// Gas each simulated call may use.
const CALL_GAS: u64 = 5_000_000;

/// One call in a simulated block.
#[derive(Clone, Debug)]
pub struct SimCall {
    /// Sender (no signature is checked).
    pub from: Address,
    /// Callee.
    pub to: Address,
    /// Call data.
    pub data: Bytes,
    /// Native currency sent with it.
    pub value: U256,
}

/// A simulated block: seconds after the base block, and its calls.
#[derive(Clone, Debug)]
pub struct SimBlock {
    /// Seconds after the base block's time.
    pub after_seconds: u64,
    /// Calls, in order.
    pub calls: Vec<SimCall>,
}

/// A simulated block as the node answers it (the fields we use).
#[derive(Clone, Debug, Deserialize)]
pub struct SimulatedBlock {
    /// Its number.
    #[serde(default)]
    pub number: Option<U64>,
    /// Its calls' results, in order.
    pub calls: Vec<SimulatedCall>,
}

/// One call's result.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimulatedCall {
    /// Returned data, or the revert data when it failed.
    pub return_data: Bytes,
    /// 1 when it succeeded.
    pub status: U64,
    /// Its logs (with `traceTransfers`, native moves too, as `Transfer`
    /// logs of [`NATIVE_TRANSFERS`]).
    #[serde(default)]
    pub logs: Vec<Log>,
    /// The node's words when it failed.
    #[serde(default)]
    pub error: Option<SimulatedError>,
}

/// A failed call's error.
#[derive(Clone, Debug, Deserialize)]
pub struct SimulatedError {
    /// The node's message ("execution reverted", "out of gas", …).
    #[serde(default)]
    pub message: String,
}

/// The address `traceTransfers` gives native moves' `Transfer` logs (ERC-7528).
pub const NATIVE_TRANSFERS: Address =
    alloy_primitives::address!("EeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE");

/// Code that answers the native balance of the address in its call data's
/// first word (`PUSH0 CALLDATALOAD BALANCE PUSH0 MSTORE`, return 32 bytes),
/// placed by a state override to read balances inside a simulation.
pub const BALANCE_READER_CODE: &str = "0x6000353160005260206000f3";

/// One call as a user asked it: its own gas limit.
#[derive(Clone, Debug)]
pub struct AskedCall {
    /// The call.
    pub call: SimCall,
    /// Its gas limit; the node's default (the block's gas left) when none.
    pub gas: Option<u64>,
}

/// Add to `batch` an `eth_simulateV1` of `calls` in one block on top of
/// `block` (a number, or the latest), with `overrides`, asking for native
/// moves as logs (`traceTransfers`) and without validation (no signature,
/// nonce or fee checks; a sender must still hold the value it sends).
pub fn simulate_asked(
    batch: &mut Batch,
    block: Option<u64>,
    overrides: Value,
    calls: &[AskedCall],
) -> Slot<Vec<SimulatedBlock>> {
    let calls: Vec<Value> = calls
        .iter()
        .map(|c| {
            let mut call = json!({"from": c.call.from, "to": c.call.to, "data": c.call.data});
            if let Some(gas) = c.gas {
                call["gas"] = json!(format!("{gas:#x}"));
            }
            if !c.call.value.is_zero() {
                call["value"] = json!(c.call.value);
            }
            call
        })
        .collect();
    let at = match block {
        Some(n) => json!(format!("{n:#x}")),
        None => json!("latest"),
    };
    let params = json!([{"blockStateCalls": [{"calls": calls, "stateOverrides": overrides}], "traceTransfers": true, "validation": false, "returnFullTransactions": false}, at]);
    batch.call("eth_simulateV1", params)
}

impl SimulatedCall {
    /// Whether it succeeded.
    pub fn ok(&self) -> bool {
        self.status == U64::from(1)
    }
}

/// Add to `batch` an `eth_simulateV1` of `blocks` on top of `base`, with
/// `overrides` (code, balances) applied in the first block. Block `i` is
/// numbered `base + 1 + i`.
pub fn simulate_v1(
    batch: &mut Batch,
    base: &Block,
    overrides: Value,
    blocks: &[SimBlock],
) -> Slot<Vec<SimulatedBlock>> {
    let block_calls: Vec<Value> = blocks
        .iter()
        .enumerate()
        .map(|(i, block)| {
            let calls: Vec<Value> = block
                .calls
                .iter()
                .map(|c| {
                    let mut call = json!({"from": c.from, "to": c.to, "data": c.data, "gas": format!("{CALL_GAS:#x}")});
                    if !c.value.is_zero() {
                        call["value"] = json!(c.value);
                    }
                    call
                })
                .collect();
            let number = base.number().saturating_add(1 + i as u64);
            let time = (base.time().max(0) as u64).saturating_add(block.after_seconds.max(1 + i as u64));
            let mut state = json!({
                "blockOverrides": {"number": format!("{number:#x}"), "time": format!("{time:#x}")},
                "calls": calls,
            });
            if i == 0 {
                state["stateOverrides"] = overrides.clone();
            }
            state
        })
        .collect();
    let params = json!([{"blockStateCalls": block_calls, "validation": false, "returnFullTransactions": false}, format!("{:#x}", base.number())]);
    batch.call("eth_simulateV1", params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_decode_as_anvil_gives_them() {
        // Recorded from anvil 1.7.1: one block, a passing and a reverting call.
        let answer = json!([{"number": "0x6", "timestamp": "0x6b055492", "gasLimit": "0x1c9c380", "gasUsed": "0x1", "transactions": [],
        "calls": [
            {"returnData": "0x", "logs": [], "gasUsed": "0x5208", "status": "0x1"},
            {"returnData": "0x08c379a0", "logs": [], "gasUsed": "0x5208", "status": "0x0",
             "error": {"code": -3200, "message": "execution failed"}}
        ]}]);
        let blocks: Vec<SimulatedBlock> = serde_json::from_value(answer).unwrap();
        assert!(blocks[0].calls[0].ok());
        assert!(!blocks[0].calls[1].ok());
        assert_eq!(blocks[0].calls[1].return_data.len(), 4);
    }

    #[test]
    fn every_block_carries_its_number_and_time() {
        let base: Block = serde_json::from_value(json!({"number": "0x10", "hash": format!("0x{}", "ab".repeat(32)), "timestamp": "0x100"})).unwrap();
        let call = SimCall {
            from: Address::ZERO,
            to: Address::ZERO,
            data: Bytes::new(),
            value: U256::ZERO,
        };
        let mut batch = Batch::new();
        let blocks = [
            SimBlock {
                after_seconds: 0,
                calls: vec![call.clone()],
            },
            SimBlock {
                after_seconds: 3600,
                calls: vec![call],
            },
        ];
        let _slot = simulate_v1(&mut batch, &base, json!({}), &blocks);
        let (method, params) = &batch.calls()[0];
        assert_eq!(method, "eth_simulateV1");
        let states = &params[0]["blockStateCalls"];
        assert_eq!(
            states[0]["blockOverrides"],
            json!({"number": "0x11", "time": "0x101"})
        );
        assert_eq!(
            states[1]["blockOverrides"],
            json!({"number": "0x12", "time": "0xf10"})
        );
        assert_eq!(params[1], json!("0x10"));
        assert!(
            states[0].get("stateOverrides").is_some() && states[1].get("stateOverrides").is_none()
        );
    }
}
