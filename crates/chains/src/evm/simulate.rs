//! `eth_simulateV1`: calls spread over several simulated blocks, the state
//! of each carried into the next, with the clock moved between them.
//!
//! Nodes differ on defaults (anvil reuses the base block's number and time
//! for an unnumbered first block; geth and reth add one block and twelve
//! seconds), so every block sent here carries its own number and time.

use alloy_primitives::{Address, Bytes, U256, U64};
use serde::Deserialize;
use serde_json::{json, Value};

use super::types::Block;
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
