//! The behavioural reads of the last round: every non-standard function
//! called as each role (`powers`), and a small exit replayed from the
//! largest real holders (`simulation::replay`), both on the deepest pool
//! the simulator can trade in.

use std::collections::HashMap;

use alloy_primitives::Address;

use super::code::CodeFacts;
use super::control::AdminControl;
use super::pool_facts::PoolFacts;
use super::roles::{self, PlannedProbing, Probing};
use crate::simulation::replay::{self, Replay};
use crate::simulation::{self, fresh_address};
use riskintel_chains::evm::abi::units;
use riskintel_chains::evm::pools::Pair;
use riskintel_chains::evm::{EvmChain, DEAD};
use riskintel_chains::rpc::{Answers, Batch};

/// Addresses kept in storage or written in the code probed as roles of
/// their own, at most (each is one more probe `eth_call` in the last round).
const KEEPERS: usize = 8;

/// The largest holders probed as roles of their own, at most.
const HOLDER_ROLES: usize = 3;

/// What the last round learns of the token's behaviour.
#[derive(Clone, Debug)]
pub struct Behaviour {
    /// What calling each non-standard function as each role did, or why it was not probed.
    pub probing: Result<Probing, String>,
    /// The largest holders' replayed exits, or why they were not replayed.
    pub replay: Result<Replay, String>,
    /// Who controls the EIP-1967 admin, when it is a contract and could be read.
    pub admin_control: Option<AdminControl>,
}

/// The behavioural reads sent, waiting for their answers.
pub struct Planned {
    probing: Result<PlannedProbing, String>,
    replay: Result<replay::Planned, String>,
}

/// What the planner needs to know of the token.
pub struct Subject<'a> {
    /// The token.
    pub token: Address,
    /// The block read at.
    pub block: u64,
    /// Whether trade simulation is on.
    pub simulate: bool,
    /// Why the logic code cannot be probed yet, if it cannot (a beacon proxy).
    pub code_gap: Option<String>,
    /// The logic code's functions.
    pub code: &'a CodeFacts,
    /// The token's pools, with their reserves.
    pub pools: &'a [PoolFacts],
    /// Wrapped-native/stablecoin pools (to buy a stablecoin quote).
    pub price_pairs: &'a [Pair],
    /// USD price of each quote.
    pub quote_usd: &'a HashMap<Address, f64>,
    /// The active owner and whether it is a contract.
    pub owner: Option<(Address, Option<bool>)>,
    /// The creator (the first mint's recipient).
    pub creator: Option<Address>,
    /// `AccessControl` role members found (role name, member).
    pub members: &'a [(&'static str, Address)],
    /// Addresses kept in the token's storage, read by its non-standard functions.
    pub stored: &'a [Address],
    /// The EIP-1967 admin, when it is a contract, and its `owner()` if any.
    pub contract_admin: Option<(Address, Option<Address>)>,
    /// The largest holders, pools and burn addresses left out.
    pub holders: &'a [Address],
    /// The gas of a fresh wallet's buy and sell, the most any trade
    /// simulation measured (0: none did); it sizes the probe's runs.
    pub trade_gas: u64,
}

/// A pool's quote reserve in USD (0 when its quote is not priced).
fn depth(pool: &PoolFacts, quote_usd: &HashMap<Address, f64>) -> f64 {
    let quote = &pool.state.pair.quote;
    units(pool.state.reserve_quote, quote.decimals)
        * quote_usd.get(&quote.address).copied().unwrap_or(0.0)
}

/// Add the behavioural reads of `s` to `batch`.
pub fn plan(chain: &EvmChain, s: &Subject, batch: &mut Batch) -> Planned {
    if !s.simulate {
        let off = "trade simulation is turned off in this server's configuration".to_string();
        return Planned {
            probing: Err(off.clone()),
            replay: Err(off),
        };
    }
    let deepest = s
        .pools
        .iter()
        .filter(|p| {
            simulation::trade_plan(chain, s.token, &p.state.pair, s.price_pairs, s.block).is_some()
        })
        .max_by(|a, c| depth(a, s.quote_usd).total_cmp(&depth(c, s.quote_usd)))
        .map(|p| &p.state.pair);
    let known = known(chain, s, deepest);
    let keepers = keepers(s, &known);
    // The largest holders are probed as roles too (a team wallet that a
    // mapping authorises is named nowhere else), but still replayed as holders.
    let large: Vec<(Address, &'static str)> = s
        .holders
        .iter()
        .filter(|h| !keepers.iter().any(|k| k.0 == **h) && !known.contains(h))
        .take(HOLDER_ROLES)
        .map(|h| (*h, "large holder"))
        .collect();
    let probed: Vec<_> = keepers.iter().copied().chain(large).collect();
    let roles_known = roles::Known {
        token: s.token,
        block: s.block,
        code: s.code,
        owner: s.owner,
        creator: s.creator,
        members: s.members,
        keepers: &probed,
        contract_admin: s.contract_admin,
    };
    let probing = match &s.code_gap {
        Some(gap) => Err(gap.clone()),
        None => Ok(roles::plan(
            chain,
            &roles_known,
            (deepest, s.trade_gas),
            s.price_pairs,
            batch,
        )),
    };
    let roles: Vec<Address> = s
        .owner
        .map(|o| o.0)
        .into_iter()
        .chain(s.creator)
        .chain(s.members.iter().map(|m| m.1))
        .chain(keepers.iter().map(|k| k.0))
        .chain(chain.lockers.iter().copied())
        .collect();
    let holders: Vec<Address> = s
        .holders
        .iter()
        .copied()
        .filter(|h| !roles.contains(h) && *h != DEAD)
        .collect();
    let replay = match deepest.and_then(|p| {
        simulation::trade_plan(chain, s.token, p, s.price_pairs, s.block).map(|plan| (p, plan))
    }) {
        None => Err("there is no pool the simulator can trade in".to_string()),
        Some(_) if holders.is_empty() => {
            Err("the holder index found no holder to replay".to_string())
        }
        Some((pair, plan)) => {
            let fresh = |role: &str| fresh_address(s.token, pair.address, s.block, role);
            Ok(replay::plan(
                &plan,
                &holders,
                fresh("replay driver"),
                fresh("replay caller"),
                s.block,
                batch,
            ))
        }
    };
    Planned { probing, replay }
}

/// The token, its pools, the chain's tokens, DEXes, lockers and
/// Multicall3, and the roles known otherwise: never probed as keepers.
fn known(chain: &EvmChain, s: &Subject, deepest: Option<&Pair>) -> Vec<Address> {
    [s.token, DEAD, chain.multicall, chain.wrapped.address]
        .into_iter()
        .chain(deepest.map(|p| p.address))
        .chain(s.pools.iter().map(|p| p.state.pair.address))
        .chain(s.price_pairs.iter().map(|p| p.address))
        .chain(chain.stables.iter().map(|q| q.address))
        .chain(chain.dexes.iter().flat_map(|d| [d.factory, d.router]))
        .chain(chain.lockers.iter().copied())
        .chain(s.owner.map(|o| o.0))
        .chain(s.creator)
        .chain(s.members.iter().map(|m| m.1))
        .collect()
}

/// Addresses kept in storage, or written in the code beside a comparison
/// with the caller, worth probing as roles of their own, each with what it
/// is: not the token, its pools, the chain's tokens, DEXes, lockers or
/// Multicall3, nor a role known otherwise (`known`); at most [`KEEPERS`].
fn keepers(s: &Subject, known: &[Address]) -> Vec<(Address, &'static str)> {
    // `stored` and `code_addresses` hold each address once.
    let stored = s.stored.iter().map(|a| (*a, "address kept in storage"));
    let written = (s.code.code_addresses.iter()).map(|a| (*a, "address written in the code"));
    let mut keepers: Vec<(Address, &'static str)> = Vec::new();
    for (address, what) in stored.chain(written) {
        if !known.contains(&address) && !keepers.iter().any(|k| k.0 == address) {
            keepers.push((address, what));
        }
    }
    keepers.truncate(KEEPERS);
    keepers
}

impl Behaviour {
    /// Nothing read, for `reason`.
    pub fn not_read(reason: &str) -> Behaviour {
        Behaviour {
            probing: Err(reason.to_string()),
            replay: Err(reason.to_string()),
            admin_control: None,
        }
    }
}

impl Planned {
    /// The planned reads that were never sent (an empty round): their reasons.
    pub fn unsent(self) -> Behaviour {
        fn reason<T>(r: Option<String>) -> Result<T, String> {
            Err(r.unwrap_or_else(|| "the last round was not sent".to_string()))
        }
        Behaviour {
            probing: reason(self.probing.err()),
            replay: reason(self.replay.err()),
            admin_control: None,
        }
    }

    /// The outcomes from the round's answers.
    pub fn take(self, answers: &mut Answers) -> Behaviour {
        let (probing, admin_control) = match self.probing.map(|p| p.take(answers)) {
            Ok((probing, admin)) => (Ok(probing), admin),
            Err(reason) => (Err(reason), None),
        };
        Behaviour {
            probing,
            replay: self.replay.and_then(|r| r.take(answers)),
            admin_control,
        }
    }
}
