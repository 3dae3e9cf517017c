//! What is known of the contracts a token calls while its tokens move
//! (`external_call_in_transfer`): how much code each has, whether it is a
//! proxy (and the code behind it), and who owns it — read in the last
//! round, beside the probing. The simulated trades show the effect; this
//! says who can change it.

use alloy_primitives::{Address, Bytes, B256};
use alloy_sol_types::SolCall;
use riskintel_types::{CheckId, CheckStatus, TradeSimulation};
use serde_json::json;

use crate::scoring::Builder;
use riskintel_chains::evm::abi::IERC20;
use riskintel_chains::evm::types::{slot_address, BlockTag, IMPLEMENTATION_SLOT};
use riskintel_chains::rpc::{Answers, Batch, Slot};

/// Callees looked at, at most.
const CALLEES: usize = 4;

/// One callee's reads, waiting for their answers.
pub struct Planned {
    address: Address,
    code: Slot<Bytes>,
    implementation: Slot<B256>,
    owner: Slot<Bytes>,
}

/// A contract called while the token's tokens moved.
#[derive(Clone, Debug)]
pub struct Callee {
    /// Its address.
    pub address: Address,
    /// Bytes of code, when read.
    pub code_size: Option<usize>,
    /// The code behind it, when it is an EIP-1967 proxy.
    pub implementation: Option<Address>,
    /// What its `owner()` answers, when it has one.
    pub owner: Option<Address>,
}

impl Callee {
    /// In words, for the signal.
    fn describe(&self) -> String {
        let mut parts = vec![match self.code_size {
            Some(0) => "no code".to_string(),
            Some(n) => format!("a contract of {n} bytes"),
            None => "code unread".to_string(),
        }];
        if let Some(i) = self.implementation {
            parts.push(format!("a proxy whose code is at {}", i.to_checksum(None)));
        }
        parts.push(match self.owner {
            Some(o) => format!("owned by {}", o.to_checksum(None)),
            None => "no owner() answered".to_string(),
        });
        format!("{} ({})", self.address.to_checksum(None), parts.join(", "))
    }
}

/// Plan the reads of the callees the simulations saw, at `at`.
pub fn plan(simulations: &[TradeSimulation], at: &BlockTag, batch: &mut Batch) -> Vec<Planned> {
    let mut seen: Vec<Address> = Vec::new();
    for sim in simulations {
        for called in sim.transfer_calls.iter().flatten() {
            if let Ok(address) = called.parse::<Address>() {
                if !seen.contains(&address) && seen.len() < CALLEES {
                    seen.push(address);
                }
            }
        }
    }
    seen.into_iter()
        .map(|address| Planned {
            address,
            code: batch.call("eth_getCode", json!([address, at])),
            implementation: batch.call(
                "eth_getStorageAt",
                json!([address, IMPLEMENTATION_SLOT, at]),
            ),
            owner: batch.call(
                "eth_call",
                json!([{"to": address, "data": Bytes::from(IERC20::ownerCall {}.abi_encode())}, at]),
            ),
        })
        .collect()
}

/// The callees' facts; what a refused read left unknown stays `None`.
pub fn take(planned: Vec<Planned>, answers: &mut Answers) -> Vec<Callee> {
    planned
        .into_iter()
        .map(|p| Callee {
            address: p.address,
            code_size: answers.take(p.code).ok().map(|c| c.len()),
            implementation: answers.take(p.implementation).ok().and_then(slot_address),
            owner: answers
                .take(p.owner)
                .ok()
                .filter(|o| o.len() == 32)
                .map(|o| Address::from_slice(&o[12..]))
                .filter(|o| !o.is_zero()),
        })
        .collect()
}

/// Say, in `external_call_in_transfer`'s signal, what each callee is.
pub fn assess(b: &mut Builder, callees: &[Callee]) {
    if callees.is_empty()
        || b.status(CheckId::ExternalCallInTransfer) != Some(CheckStatus::Detected)
    {
        return;
    }
    let words: Vec<String> = callees.iter().map(Callee::describe).collect();
    let raw: Vec<_> = callees
        .iter()
        .map(|c| {
            json!({"address": c.address.to_checksum(None), "code_size": c.code_size,
                   "implementation": c.implementation.map(|i| i.to_checksum(None)),
                   "owner": c.owner.map(|o| o.to_checksum(None))})
        })
        .collect();
    b.annotate(
        CheckId::ExternalCallInTransfer,
        &format!("Called: {}.", words.join("; ")),
        "callees",
        json!(raw),
    );
}
