//! Multicall3 batches whose calls carry their own decoders: adding a call
//! returns a typed handle, and the answer is read through that handle, so
//! adding a call can never shift another's answer.

use std::marker::PhantomData;

use alloy_primitives::{Address, Bytes};
use alloy_sol_types::SolCall;
use serde_json::json;

use super::abi::IMulticall3;
use super::types::BlockTag;
use crate::rpc::{Batch, RpcError, Slot};

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

    /// Put it in `batch` as one `eth_call` to Multicall3 at `multicall`.
    pub fn into_batch(self, batch: &mut Batch, multicall: Address, block: &BlockTag) -> Pending {
        let expected = self.calls.len();
        let data = IMulticall3::aggregate3Call { calls: self.calls }.abi_encode();
        let slot = batch.call::<Bytes>(
            "eth_call",
            json!([{"to": multicall, "data": Bytes::from(data)}, block]),
        );
        Pending {
            slot,
            expected,
            multicall,
        }
    }
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
}
