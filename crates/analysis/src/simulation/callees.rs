//! What is known of the contracts a token calls while its tokens move
//! (`external_call_in_transfer`): how much code each has, whether it is a
//! proxy (and the code behind it), who owns it, and whether it runs the
//! very code of one of the chain's configured DEX routers (a copy at
//! another address, as a token written for another chain names its
//! router: its swaps are a router's, its immutables the same) — read in
//! the last round, beside the probing. The simulated trades show the
//! effect; this says who can change it.

use alloy_primitives::{keccak256, Address, Bytes, B256};
use alloy_sol_types::SolCall;
use riskintel_types::{CheckId, CheckStatus, Severity, TradeSimulation};
use serde_json::json;

use crate::scoring::Builder;
use riskintel_chains::evm::abi::IERC20;
use riskintel_chains::evm::types::{slot_address, BlockTag, IMPLEMENTATION_SLOT};
use riskintel_chains::rpc::{Answers, Batch, Slot};

/// Callees looked at, at most.
const CALLEES: usize = 4;

/// The callees' reads, and the configured routers' code, waiting for their answers.
pub struct Planned {
    callees: Vec<PlannedCallee>,
    routers: Vec<(Address, Slot<Bytes>)>,
}

/// One callee's reads.
struct PlannedCallee {
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
    /// The configured DEX router whose code it runs, byte for byte.
    pub router_copy: Option<Address>,
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
        if let Some(r) = self.router_copy {
            parts.push(format!(
                "the same code as the DEX router at {}",
                r.to_checksum(None)
            ));
        }
        parts.push(match self.owner {
            Some(o) => format!("owned by {}", o.to_checksum(None)),
            None => "no owner() answered".to_string(),
        });
        format!("{} ({})", self.address.to_checksum(None), parts.join(", "))
    }
}

/// Plan the reads of the callees the simulations saw, at `at`, and (when
/// there are any) of the code of the chain's configured `routers`.
pub fn plan(
    simulations: &[TradeSimulation],
    routers: &[Address],
    at: &BlockTag,
    batch: &mut Batch,
) -> Planned {
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
    let routers = match seen.is_empty() {
        true => Vec::new(),
        false => (routers.iter())
            .map(|r| (*r, batch.call("eth_getCode", json!([r, at]))))
            .collect(),
    };
    let callees = seen
        .into_iter()
        .map(|address| PlannedCallee {
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
        .collect();
    Planned { callees, routers }
}

/// The callees' facts; what a refused read left unknown stays `None`.
pub fn take(planned: Planned, answers: &mut Answers) -> Vec<Callee> {
    let routers: Vec<(Address, B256)> = (planned.routers.into_iter())
        .filter_map(|(r, code)| Some((r, answers.take(code).ok().filter(|c| !c.is_empty())?)))
        .map(|(r, code)| (r, keccak256(&code)))
        .collect();
    (planned.callees.into_iter())
        .map(|p| {
            let code = answers.take(p.code).ok();
            let hash = code.as_ref().filter(|c| !c.is_empty()).map(keccak256);
            Callee {
                address: p.address,
                code_size: code.map(|c| c.len()),
                router_copy: (routers.iter())
                    .find(|(_, h)| Some(*h) == hash)
                    .map(|(r, _)| *r),
                implementation: answers.take(p.implementation).ok().and_then(slot_address),
                owner: answers
                    .take(p.owner)
                    .ok()
                    .filter(|o| o.len() == 32)
                    .map(|o| Address::from_slice(&o[12..]))
                    .filter(|o| !o.is_zero()),
            }
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
                   "owner": c.owner.map(|o| o.to_checksum(None)),
                   "router_copy": c.router_copy.map(|r| r.to_checksum(None))})
        })
        .collect();
    let sentence = format!("Called: {}.", words.join("; "));
    // Every callee is one of the chain's DEX routers, in all but its
    // address: the token swaps or adds liquidity as any seller would, and
    // nobody can change what that code does.
    if callees.iter().all(|c| c.router_copy.is_some()) {
        b.lower(
            CheckId::ExternalCallInTransfer,
            (Severity::Info, 0.0),
            &format!("{sentence} Each runs a configured DEX router's code unchanged, so no one can change what the call does."),
            "callees",
            json!(raw),
        );
    } else {
        b.annotate(
            CheckId::ExternalCallInTransfer,
            &sentence,
            "callees",
            json!(raw),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskintel_types::SignalCategory;

    fn called(b: &mut Builder) {
        b.detected(
            CheckId::ExternalCallInTransfer,
            SignalCategory::Contract,
            Severity::Medium,
            0.2,
            "Transfers call another contract",
            "The token called a contract.".into(),
            "debug_traceCall",
            json!({}),
        );
    }

    fn callee(n: u8, router_copy: Option<Address>) -> Callee {
        Callee {
            address: Address::repeat_byte(n),
            code_size: Some(100),
            implementation: None,
            owner: None,
            router_copy,
        }
    }

    #[test]
    fn a_call_into_a_copy_of_a_configured_router_is_info_and_any_other_is_not() {
        let router = Some(Address::repeat_byte(0x77));
        let mut b = Builder::new(1);
        called(&mut b);
        assess(&mut b, &[callee(1, router)]);
        let signal = &b.verdict().signals[0];
        assert!(signal.severity == Severity::Info && signal.weight == 0.0);
        assert!(
            signal.detail.contains("the same code as the DEX router"),
            "{}",
            signal.detail
        );
        let mut b = Builder::new(1);
        called(&mut b);
        assess(&mut b, &[callee(1, router), callee(2, None)]);
        let signal = &b.verdict().signals[0];
        assert!(signal.severity == Severity::Medium && signal.weight == 0.2);
    }
}
