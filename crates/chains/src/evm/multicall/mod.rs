//! Multicall3 batches whose calls carry their own decoders: adding a call
//! returns a typed handle, and the answer is read through that handle, so
//! adding a call can never shift another's answer.
//!
//! Each batch runs as the gas-bounded multicall (`BoundedMulticall.sol`),
//! injected by an `eth_call` state override at Multicall3's address: the
//! same `aggregate3`, but each call gets a fair share of the gas left, so a
//! call that burns all it is given (older compilers' INVALID) fails alone
//! instead of the batch running out of gas. A node that refuses state
//! overrides is asked each call on its own instead, all in one more
//! request, and the answers are put together as `aggregate3`'s.

use std::marker::PhantomData;

use alloy_primitives::{Address, Bytes};
use alloy_sol_types::SolCall;
use serde_json::{json, Value};

use super::abi::IMulticall3;
use super::types::BlockTag;
use crate::rpc::{Batch, Fallback, RpcError, Slot};

/// The gas-bounded multicall's runtime code, compiled from `BoundedMulticall.sol`.
pub const BOUNDED_RUNTIME_HEX: &str = include_str!("BoundedMulticall.runtime.hex");

/// Calls to run in one `aggregate3`, each allowed to fail.
pub struct Multicall {
    calls: Vec<IMulticall3::Call3>,
}

/// One call of a [`Multicall`]; its answer decodes as `C`'s return.
#[must_use = "a call's handle is how its answer is read"]
pub struct Call<C> {
    index: usize,
    _call: PhantomData<fn() -> C>,
}

impl<C> Clone for Call<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for Call<C> {}

impl Multicall {
    /// An empty multicall.
    pub fn new() -> Multicall {
        Multicall { calls: Vec::new() }
    }

    /// Whether it has no call.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// Call `call` on `target`.
    pub fn add<C: SolCall>(&mut self, target: Address, call: C) -> Call<C> {
        self.calls.push(IMulticall3::Call3 {
            target,
            allowFailure: true,
            callData: call.abi_encode().into(),
        });
        Call {
            index: self.calls.len() - 1,
            _call: PhantomData,
        }
    }

    /// The calldata of `aggregate3` with these calls.
    pub fn calldata(&self) -> Bytes {
        IMulticall3::aggregate3Call {
            calls: self.calls.clone(),
        }
        .abi_encode()
        .into()
    }

    /// Put it in `batch` as one `eth_call` to Multicall3's address
    /// `multicall`, run by the gas-bounded multicall injected there (each
    /// call on its own where the node refuses state overrides).
    pub fn into_batch(self, batch: &mut Batch, multicall: Address, block: &BlockTag) -> Pending {
        let expected = self.calls.len();
        let one_by_one = Fallback {
            calls: self
                .calls
                .iter()
                .map(|c| {
                    let call = json!({"to": c.target, "data": c.callData});
                    ("eth_call".to_string(), json!([call, block]))
                })
                .collect(),
            combine: as_aggregate3,
        };
        let call = json!({"to": multicall, "data": self.calldata()});
        let bounded = json!({ format!("{multicall:#x}"): { "code": BOUNDED_RUNTIME_HEX.trim() } });
        let slot = batch.call_or::<Bytes>("eth_call", json!([call, block, bounded]), one_by_one);
        Pending {
            slot,
            expected,
            multicall,
        }
    }
}

/// Calls answered one by one, as `aggregate3` answers them: a call the
/// node answered with an error (it reverted) failed.
fn as_aggregate3(answers: Vec<Result<Value, RpcError>>) -> Result<Value, RpcError> {
    let results: Vec<IMulticall3::Result> = answers
        .into_iter()
        .map(|answer| {
            let data = answer.and_then(|v| {
                serde_json::from_value::<Bytes>(v)
                    .map_err(|e| RpcError::Upstream(format!("undecodable answer: {e}")))
            });
            IMulticall3::Result {
                success: data.is_ok(),
                returnData: data.unwrap_or_default(),
            }
        })
        .collect();
    let encoded = IMulticall3::aggregate3Call::abi_encode_returns(&results);
    Ok(json!(Bytes::from(encoded)))
}

impl Default for Multicall {
    fn default() -> Self {
        Multicall::new()
    }
}

/// A multicall sent in a batch, waiting for its answer.
#[must_use = "a pending multicall is how its answers are read"]
pub struct Pending {
    slot: Slot<Bytes>,
    expected: usize,
    multicall: Address,
}

impl Pending {
    /// Its results, from the batch's answers.
    pub fn take(self, answers: &mut crate::rpc::Answers) -> Result<Results, RpcError> {
        let data = answers.take(self.slot)?;
        if data.is_empty() {
            return Err(RpcError::Upstream(format!(
                "Multicall3 is not deployed at {:#x} on this chain",
                self.multicall
            )));
        }
        let results = IMulticall3::aggregate3Call::abi_decode_returns(&data)
            .map_err(|_| RpcError::Upstream("Multicall3 answer could not be decoded".into()))?;
        if results.len() != self.expected {
            return Err(RpcError::Upstream(
                "Multicall3 answered the wrong number of results".into(),
            ));
        }
        Ok(Results {
            answers: results
                .into_iter()
                .map(|r| r.success.then_some(r.returnData))
                .collect(),
        })
    }
}

/// The answers of a multicall: each call's return data, or none when it failed.
#[derive(Clone, Debug, Default)]
pub struct Results {
    answers: Vec<Option<Bytes>>,
}

impl Results {
    /// The decoded answer of `call`; None when it failed or does not decode.
    pub fn get<C: SolCall>(&self, call: Call<C>) -> Option<C::Return> {
        C::abi_decode_returns(self.raw(call)?).ok()
    }

    /// The raw answer of `call` (for answers with more than one shape).
    pub fn raw<C>(&self, call: Call<C>) -> Option<&[u8]> {
        self.answers.get(call.index)?.as_ref().map(|b| &b[..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evm::abi::IERC20;
    use alloy_primitives::U256;
    use alloy_sol_types::SolValue;

    #[test]
    fn answers_are_read_through_their_handles() {
        let mut multicall = Multicall::new();
        let token = Address::repeat_byte(1);
        let supply = multicall.add(token, IERC20::totalSupplyCall {});
        let owner = multicall.add(token, IERC20::ownerCall {});
        let results = Results {
            answers: vec![Some(U256::from(42).abi_encode().into()), None],
        };
        assert_eq!(results.get(supply), Some(U256::from(42)));
        assert_eq!(results.get(owner), None);
    }

    #[test]
    fn calls_answered_one_by_one_read_as_aggregate3() {
        let answers = vec![
            Ok(json!(Bytes::from(U256::from(42).abi_encode()))),
            Err(RpcError::Upstream("execution reverted".into())),
        ];
        let combined: Bytes = serde_json::from_value(as_aggregate3(answers).unwrap()).unwrap();
        let results = IMulticall3::aggregate3Call::abi_decode_returns(&combined).unwrap();
        assert_eq!(results.len(), 2);
        assert!(results[0].success && !results[1].success);
        assert_eq!(U256::from_be_slice(&results[0].returnData), U256::from(42));
    }
}
