//! Uniswap V4 hooks of a token's pools (`v4_hook_controls_swaps`): a
//! hook's permissions are the low bits of its address; one that may change
//! what a swap pays out (`beforeSwapReturnDelta`, `afterSwapReturnDelta`),
//! set the fee of every swap (a dynamic-fee pool), or run before or after
//! each swap (and so revert it), holds power over every trade in the pool —
//! more so when its own code can be replaced (a proxy) or it has an owner.
//! What it actually takes is measured by the trade simulation; this check
//! says what it could do.

use std::collections::BTreeMap;

use alloy_primitives::{Address, Bytes, B256};
use riskintel_types::{CheckId, Severity, SignalCategory};
use serde_json::json;

use super::code;
use super::pool_facts::PoolFacts;
use crate::scoring::Builder;
use riskintel_chains::evm::abi::IERC20;
use riskintel_chains::evm::addr;
use riskintel_chains::evm::multicall::{Call, Multicall, Results};
use riskintel_chains::evm::pools::v4::HookFlags;
use riskintel_chains::evm::types::{slot_address, BlockTag, IMPLEMENTATION_SLOT};
use riskintel_chains::rpc::{Answers, Batch, RpcError, Slot};

/// What is known of one hook contract.
#[derive(Clone, Debug, PartialEq)]
pub struct HookFacts {
    /// The hook.
    pub hook: Address,
    /// Its permissions.
    pub flags: HookFlags,
    /// Whether it has code.
    pub has_code: bool,
    /// `owner()`, when it answers.
    pub owner: Option<Address>,
    /// Its EIP-1967 implementation, when it is such a proxy.
    pub implementation: Option<Address>,
    /// Whether its code contains DELEGATECALL (it can run code it does not hold).
    pub delegatecall: bool,
}

/// The reads of one hook: its code, its EIP-1967 implementation slot, `owner()`.
type HookReads = (Address, Slot<Bytes>, Slot<B256>, Call<IERC20::ownerCall>);

/// The reads of the hooks of some pools, waiting for their answers.
pub struct Planned {
    hooks: Vec<HookReads>,
}

/// Add to `calls` and `batch` the reads of every distinct hook of `pools` at `at`.
pub fn plan(
    hooks: impl IntoIterator<Item = Address>,
    calls: &mut Multicall,
    batch: &mut Batch,
    at: &BlockTag,
) -> Planned {
    let mut seen = Vec::new();
    for hook in hooks.into_iter().filter(|h| !h.is_zero()) {
        if !seen.contains(&hook) {
            seen.push(hook);
        }
    }
    Planned {
        hooks: seen
            .into_iter()
            .map(|hook| {
                (
                    hook,
                    batch.call::<Bytes>("eth_getCode", json!([hook, at])),
                    batch.call::<B256>("eth_getStorageAt", json!([hook, IMPLEMENTATION_SLOT, at])),
                    calls.add(hook, IERC20::ownerCall {}),
                )
            })
            .collect(),
    }
}

impl Planned {
    /// The hooks' facts.
    pub fn take(
        self,
        results: &Results,
        answers: &mut Answers,
    ) -> Result<Vec<HookFacts>, RpcError> {
        self.hooks
            .into_iter()
            .map(|(hook, code, implementation, owner)| {
                let code = answers.take(code)?;
                Ok(HookFacts {
                    hook,
                    flags: HookFlags::of(hook),
                    has_code: !code.is_empty(),
                    owner: results.get(owner).filter(|o| !o.is_zero()),
                    implementation: slot_address(answers.take(implementation)?),
                    delegatecall: code::analyse(&code).delegatecall,
                })
            })
            .collect()
    }
}

/// Record `v4_hook_controls_swaps` for the token's pools.
pub fn assess(b: &mut Builder, pools: &[PoolFacts], hooks: &[HookFacts]) {
    let mut found: BTreeMap<Address, (Vec<String>, bool)> = BTreeMap::new();
    for pool in pools {
        let Some(key) = pool.state.pair.v4.filter(|k| !k.hooks.is_zero()) else {
            continue;
        };
        let entry = found.entry(key.hooks).or_default();
        entry.0.push(pool.state.pair.name());
        entry.1 |= key.fixed_fee().is_none();
    }
    let mut worst: Option<Severity> = None;
    let mut evidence = Vec::new();
    let mut reasons = Vec::new();
    for (hook, (pool_ids, dynamic_fee)) in &found {
        let facts = hooks.iter().find(|h| h.hook == *hook);
        let flags = HookFlags::of(*hook);
        let over_swaps = flags.over_swaps();
        let takes = over_swaps.iter().any(|f| f.ends_with("returns_delta")) || *dynamic_fee;
        let replaceable = facts.is_some_and(|f| f.implementation.is_some() || f.delegatecall);
        let owner = facts.and_then(|f| f.owner);
        if over_swaps.is_empty() && !dynamic_fee && !replaceable && owner.is_none() {
            continue;
        }
        let severity = if takes || (!over_swaps.is_empty() && (replaceable || owner.is_some())) {
            Severity::High
        } else {
            Severity::Medium
        };
        worst = worst.max(Some(severity));
        let mut powers = Vec::new();
        if takes {
            powers.push("change what each swap pays out".to_string());
        }
        if !over_swaps.is_empty() {
            powers.push("run (and revert) on every swap".to_string());
        }
        if replaceable {
            powers.push("have its code replaced".to_string());
        }
        if let Some(owner) = owner {
            powers.push(format!("answer to its owner {}", addr(&owner)));
        }
        reasons.push(format!("hook {} can {}", addr(hook), powers.join(", ")));
        evidence.push(json!({
            "hook": addr(hook),
            "pools": pool_ids,
            "flags": flags.names(),
            "dynamic_fee": dynamic_fee,
            "owner": owner.map(|o| addr(&o)),
            "implementation": facts.and_then(|f| f.implementation).map(|i| addr(&i)),
            "delegatecall": facts.map(|f| f.delegatecall),
            "has_code": facts.map(|f| f.has_code),
        }));
    }
    let Some(severity) = worst else {
        b.clear(CheckId::V4HookControlsSwaps);
        return;
    };
    b.detected(
        CheckId::V4HookControlsSwaps,
        SignalCategory::Trading,
        severity,
        if severity == Severity::High { 0.3 } else { 0.15 },
        "A Uniswap V4 hook controls swaps",
        format!(
            "The token trades in Uniswap V4 pools whose hook contract takes part in every swap: {}.",
            reasons.join("; ")
        ),
        "hook permissions from the hook address's low 14 bits; eth_getCode, eth_getStorageAt(EIP-1967 implementation), eth_call owner() of the hook",
        json!({ "hooks": evidence }),
    );
}
