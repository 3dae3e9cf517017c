//! Calls a token makes while it transfers: the trade simulation's
//! `eth_call`, traced again with `debug_traceCall` (`callTracer`, same state
//! overrides). Below every call into the token, any call to an address
//! outside the trade (the pool, the simulator and its wallets, the token and
//! its implementation, the quote tokens, the configured DEXes, precompiles)
//! is an external call made during a transfer. The trace travels in a
//! request of its own, sent beside the round's batch: a trace too deep to
//! parse costs this check, not the analysis.

use alloy_primitives::Address;
use serde::Deserialize;
use serde_json::{json, Value};

use riskintel_chains::evm::types::BlockTag;
use riskintel_chains::rpc::{Answers, Batch, Slot};

/// One frame of a `callTracer` trace.
#[derive(Clone, Debug, Deserialize)]
pub struct CallFrame {
    /// CALL, STATICCALL, DELEGATECALL, CREATE…
    #[serde(rename = "type")]
    pub kind: String,
    /// Caller.
    pub from: Address,
    /// Callee (absent for a failed create).
    pub to: Option<Address>,
    /// Call data (empty for a plain transfer of native currency).
    #[serde(default)]
    pub input: alloy_primitives::Bytes,
    /// Nested calls.
    #[serde(default)]
    pub calls: Vec<CallFrame>,
}

/// A traced simulation, waiting for its answer.
pub struct Planned {
    slot: Slot<CallFrame>,
}

/// Add to `batch` the trace of `request` at `block` with `overrides`.
pub fn plan(request: &Value, block: u64, overrides: &Value, batch: &mut Batch) -> Planned {
    let options = json!({"tracer": "callTracer", "stateOverrides": overrides});
    Planned {
        slot: batch.call(
            "debug_traceCall",
            json!([request, BlockTag::Number(block), options]),
        ),
    }
}

impl Planned {
    /// The addresses `token` called during its transfers, outside `expected`;
    /// `Err` with the reason when the node could not trace.
    pub fn take(
        self,
        answers: &mut Result<Answers, String>,
        token: Address,
        expected: &[Address],
    ) -> Result<Vec<Address>, String> {
        let traced =
            |e: String| format!("the node could not trace the simulation (debug_traceCall: {e})");
        let answers = answers.as_mut().map_err(|e| traced(e.clone()))?;
        let root = answers.take(self.slot).map_err(|e| traced(e.to_string()))?;
        let mut found = Vec::new();
        walk(&root, token, expected, false, &mut found);
        Ok(found)
    }
}

/// A precompile or another reserved low address.
fn precompile(address: &Address) -> bool {
    address.0[..19].iter().all(|b| *b == 0)
}

fn walk(
    frame: &CallFrame,
    token: Address,
    expected: &[Address],
    inside: bool,
    found: &mut Vec<Address>,
) {
    let to = frame.to.unwrap_or_default();
    // A plain payment of native currency (no call data) runs no code of consequence.
    let payment = frame.input.is_empty() && frame.calls.is_empty();
    if inside
        && !payment
        && to != token
        && !expected.contains(&to)
        && !precompile(&to)
        && !found.contains(&to)
    {
        found.push(to);
    }
    // Inside the token's code from here down (a delegate call keeps the token's context).
    let inside = inside || to == token;
    for call in &frame.calls {
        walk(call, token, expected, inside, found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_calls_below_the_token_count() {
        let a = |n: u8| format!("{:#x}", Address::repeat_byte(n));
        let trace: CallFrame = serde_json::from_value(json!({
            "type": "CALL", "from": a(1), "to": a(2), "input": "0x",
            "calls": [
                {"type": "CALL", "from": a(2), "to": a(3), "calls": [
                    {"type": "STATICCALL", "from": a(3), "to": a(9), "input": "0x70a08231"},
                    {"type": "CALL", "from": a(3), "to": a(7), "input": "0x"},
                    {"type": "STATICCALL", "from": a(3), "to": "0x0000000000000000000000000000000000000001"},
                    {"type": "CALL", "from": a(3), "to": a(4)}
                ]},
                {"type": "CALL", "from": a(2), "to": a(8)}
            ]
        }))
        .unwrap();
        // Token 3: it called 9 (external), paid 7 (no code run) and called 4 (the pool, expected); 8 was called by the simulator.
        let mut found = Vec::new();
        walk(
            &trace,
            Address::repeat_byte(3),
            &[Address::repeat_byte(4)],
            false,
            &mut found,
        );
        assert_eq!(found, vec![Address::repeat_byte(9)]);
    }
}
