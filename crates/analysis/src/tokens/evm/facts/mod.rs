//! Reading an EVM token's facts from the chain, in three round trips:
//! 1. one batch: latest block, code, EIP-1967 slots, and one Multicall3
//!    with metadata, owner, `AccessControl` role members and every `getPair`;
//! 2. at that block, concurrently: one batch (pair reserves and LP
//!    holdings, balances, the admin's, implementation's and owner's code,
//!    the trade simulations and their later horizons), the simulations'
//!    traces (a request of their own), and the holder index's update;
//! 3. one batch: top holders' balances, the creator's LP, the first
//!    transfer's block time, and the behavioural reads (`behaviour`:
//!    every non-standard function probed as each role, the roles' control,
//!    the largest holders' exits replayed; as many probed calls per
//!    `eth_call` as the trades round 2 measured leave room for).
//!
//! Reading facts writes nothing: the holder index is brought up to date by
//! the `index` function the caller passes in.

use std::collections::HashMap;
use std::future::Future;

use alloy_primitives::{Address, Bytes, B256, U256};
use serde_json::json;

use super::behaviour;
use super::code;
use super::gaps::{self, Gaps};
use super::gatekeepers;
use super::holders::{HolderIndex, IndexError};
use super::hooks;
use super::launch::{self, LaunchLimits};
use super::roles;
use crate::simulation;
use crate::tokens::AnalysisError;
use riskintel_chains::evm::abi::{string_or_bytes32, IAccessControl, IBeacon, IERC20};
use riskintel_chains::evm::multicall::Multicall;
use riskintel_chains::evm::pools::{self, HolderLp, KnownPool, PairLookup, PoolReads};
use riskintel_chains::evm::types::{slot_address, Block, BlockTag, IMPLEMENTATION_SLOT};
use riskintel_chains::evm::{EvmChain, DEAD};
use riskintel_chains::rpc::{Answers, Batch};

mod model;
pub use model::*;

const ADMIN_SLOT: &str = "0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103";
const BEACON_SLOT: &str = "0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50";
const LEGACY_IMPLEMENTATION_SLOT: &str =
    "0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3";
const EIP1167_PREFIX: [u8; 10] = [0x36, 0x3d, 0x3d, 0x37, 0x3d, 0x3d, 0x3d, 0x36, 0x3d, 0x73];
/// Top holders reported.
const TOP_HOLDERS: usize = 10;

fn storage_at(batch: &mut Batch, token: Address, slot: &str) -> riskintel_chains::rpc::Slot<B256> {
    batch.call("eth_getStorageAt", json!([token, slot, "latest"]))
}

/// Read every fact about `token` from `chain`; `index(block, largest,
/// sources)` brings the holder index up to `block` while round 2 runs.
pub async fn gather<F, Fut>(
    chain: &EvmChain,
    token: Address,
    known_pools: &[KnownPool],
    simulate_trades: bool,
    launch_limits: LaunchLimits,
    index: F,
) -> Result<EvmFacts, AnalysisError>
where
    F: FnOnce(u64, usize, Vec<Address>) -> Fut,
    Fut: Future<Output = Result<HolderIndex, IndexError>>,
{
    // Round 1.
    let mut calls = Multicall::new();
    let name = calls.add(token, IERC20::nameCall {});
    let symbol = calls.add(token, IERC20::symbolCall {});
    let decimals = calls.add(token, IERC20::decimalsCall {});
    let supply = calls.add(token, IERC20::totalSupplyCall {});
    let owner = calls.add(token, IERC20::ownerCall {});
    let get_owner = calls.add(token, IERC20::getOwnerCall {});
    let role_members: Vec<_> = roles::access_roles()
        .into_iter()
        .map(|(name, role)| {
            (
                name,
                calls.add(
                    token,
                    IAccessControl::getRoleMemberCall {
                        role,
                        index: U256::ZERO,
                    },
                ),
            )
        })
        .collect();
    let lookup = PairLookup::plan(chain, token, known_pools, &mut calls);
    let mut batch = Batch::new();
    let head = batch.call::<Block>("eth_getBlockByNumber", json!(["latest", false]));
    let code = batch.call::<Bytes>("eth_getCode", json!([token, "latest"]));
    let implementation = storage_at(&mut batch, token, IMPLEMENTATION_SLOT);
    let admin = storage_at(&mut batch, token, ADMIN_SLOT);
    let beacon = storage_at(&mut batch, token, BEACON_SLOT);
    let legacy = storage_at(&mut batch, token, LEGACY_IMPLEMENTATION_SLOT);
    let first = calls.into_batch(&mut batch, chain.multicall, &BlockTag::Latest);
    let mut answers = chain.rpc.send(batch).await?;
    let mut gaps = Gaps::default();
    let head = answers.take(head)?;
    let block = head.number();
    let code = answers.take(code)?;
    if code.is_empty() {
        return Err(AnalysisError::NotFound(format!(
            "there is no contract at {token:#x} on {}: it is an account, not a token",
            chain.id
        )));
    }
    // A proxy slot unread leaves the proxy, and so the code behind it, unknown.
    let mut slot = |answers: &mut Answers, slot, name: &str| {
        let what = || format!("eth_getStorageAt({token:#x}, the {name} slot)");
        gaps.keep(answers.take(slot), what, &[gaps::PROXY, gaps::CODE])
            .map(|word| word.and_then(slot_address))
    };
    let implementation = slot(&mut answers, implementation, "EIP-1967 implementation")?;
    let admin = slot(&mut answers, admin, "EIP-1967 admin")?;
    let beacon = slot(&mut answers, beacon, "EIP-1967 beacon")?;
    let legacy = slot(&mut answers, legacy, "OpenZeppelin implementation")?;
    let mut proxy = ProxyFacts {
        implementation,
        admin,
        beacon,
        clone_of: code
            .strip_prefix(&EIP1167_PREFIX[..])
            .and_then(|rest| rest.get(..20))
            .map(Address::from_slice),
        admin_is_eoa: None,
        admin_control: None,
        admin_owner: None,
    };
    if let Some(legacy) = legacy {
        proxy.implementation.get_or_insert(legacy);
    }
    let first = first.take(&mut answers)?;
    let Some(total_supply) = first.get(supply) else {
        return Err(AnalysisError::NotFound(format!(
            "the contract at {token:#x} on {} is not an ERC-20 token (totalSupply() fails)",
            chain.id
        )));
    };
    let role_members: Vec<(&'static str, Address)> = role_members
        .into_iter()
        .filter_map(|(name, call)| first.get(call).filter(|a| !a.is_zero()).map(|a| (name, a)))
        .collect();
    let owner = match first.get(owner).or_else(|| first.get(get_owner)) {
        Some(address) => OwnerFact::Address(address),
        None => OwnerFact::NoOwnerFunction,
    };
    let (name, symbol) = (
        first.raw(name).and_then(string_or_bytes32),
        first.raw(symbol).and_then(string_or_bytes32),
    );
    let decimals = first.get(decimals);
    let pairs = lookup.found(&first);
    // Without a proxy the logic is the token's own code: analysed now, so
    // the addresses its storage keeps are read in round 2.
    let own_code =
        (proxy.implementation.is_none() && proxy.clone_of.is_none() && proxy.beacon.is_none())
            .then(|| code::analyse(&code));

    // Round 2, at the block of round 1; the holder index runs beside it.
    let at = BlockTag::Number(block);
    let owner_address = owner.active();
    let mut lp_holders = vec![DEAD, Address::ZERO];
    lp_holders.extend(owner_address);
    lp_holders.extend(&chain.lockers);
    let mut calls = Multicall::new();
    let mut batch = Batch::new();
    let token_pools = PoolReads::plan(&pairs.token, &lp_holders, &mut calls, &mut batch, &at);
    let price_pools = PoolReads::plan(&pairs.price, &[], &mut calls, &mut batch, &at);
    let owner_balance =
        owner_address.map(|o| calls.add(token, IERC20::balanceOfCall { holder: o }));
    let admin_owner = proxy.admin.map(|a| calls.add(a, IERC20::ownerCall {}));
    let beacon_implementation = proxy
        .beacon
        .map(|b| calls.add(b, IBeacon::implementationCall {}));
    let v4_hooks = pairs.token.iter().filter_map(|p| p.v4.map(|k| k.hooks));
    let hook_reads = hooks::plan(v4_hooks, &mut calls, &mut batch, &at);
    let second = calls.into_batch(&mut batch, chain.multicall, &at);
    let stored = own_code
        .as_ref()
        .map(|c| gatekeepers::plan(c, token, &at, &mut batch));
    let logic_address = proxy.implementation.or(proxy.clone_of);
    let code_of: Vec<(Address, _, &[_])> = [
        (proxy.admin, gaps::PROXY),
        (logic_address, gaps::CODE),
        (owner_address, gaps::OWNER_CODE),
    ]
    .into_iter()
    .filter_map(|(a, checks)| a.map(|a| (a, checks)))
    .map(|(a, checks)| {
        (
            a,
            batch.call::<Bytes>("eth_getCode", json!([a, at])),
            checks,
        )
    })
    .collect();
    // Whoever first got tokens from a pool or its router bought them.
    let mut sources: Vec<Address> = (pairs.token.iter())
        .flat_map(|p| [p.address, p.dex.router])
        .filter(|a| !a.is_zero())
        .collect();
    sources.sort();
    sources.dedup();
    // The simulations' traces go in a request of their own beside the batch.
    let mut traces = Batch::new();
    let planned = if simulate_trades {
        simulation::plan(
            chain,
            token,
            &pairs.token,
            &pairs.price,
            proxy.implementation.or(proxy.clone_of),
            &head,
            &mut batch,
            &mut traces,
        )
    } else {
        Vec::new()
    };
    let (answers, traced, index) = tokio::join!(
        chain.rpc.send(batch),
        chain.rpc.send(traces),
        index(block, TOP_HOLDERS + pairs.token.len() + 3, sources.clone())
    );
    let mut traced = traced.map_err(|e| e.to_string());
    let mut answers = answers?;
    let index = index.map_err(AnalysisError::from_index)?;
    let role_members = roles::with_logged_members(role_members, &index.role_members);
    let second = gaps
        .keep(
            second.take(&mut answers),
            || "the pools' reserves and LP, the owner's balance (Multicall3 eth_call)".into(),
            &[gaps::POOLS, gaps::OWNER_BALANCE, gaps::HOOKS],
        )?
        .unwrap_or_default();
    let hooks = gaps
        .keep(
            hook_reads.take(&second, &mut answers),
            || "the V4 hooks' code and slots".into(),
            &[gaps::HOOKS],
        )?
        .unwrap_or_default();
    let stored = match stored {
        Some(planned) => gaps
            .keep(
                planned.take(&mut answers),
                || "the addresses in the token's storage (eth_getStorageAt)".into(),
                &[gaps::CODE],
            )?
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let mut codes = HashMap::new();
    for (address, slot, checks) in code_of {
        let what = || format!("eth_getCode({address:#x})");
        if let Some(code) = gaps.keep(answers.take(slot), what, &[checks])? {
            codes.insert(address, code);
        }
    }
    let mut simulations = Vec::new();
    let mut simulation_gaps = Vec::new();
    for plan in planned {
        let described = plan.describe();
        match plan.take(&mut answers, &mut traced, decimals.unwrap_or(18)) {
            Ok(simulation) => simulations.push(simulation),
            Err(reason) => simulation_gaps.push(format!("{described}: {reason}")),
        }
    }
    if !simulate_trades {
        simulation_gaps
            .push("trade simulation is turned off in this server's configuration".to_string());
    } else if simulations.is_empty() && simulation_gaps.is_empty() {
        simulation_gaps.push(if pairs.token.is_empty() {
            "there is no pool to trade in".to_string()
        } else {
            format!(
                "no pool is quoted in {} or in a stablecoin with a {}/stablecoin pool to buy it",
                chain.wrapped.symbol, chain.wrapped.symbol
            )
        });
    }
    proxy.admin_is_eoa = proxy
        .admin
        .map(|a| codes.get(&a).is_some_and(|c| c.is_empty()));
    let owner_is_contract = owner_address.map(|a| codes.get(&a).is_some_and(|c| !c.is_empty()));
    let mut logic_code = logic_address
        .and_then(|a| codes.get(&a).cloned())
        .unwrap_or_else(|| code.clone());
    let (price_states, price_gap) = price_pools.read(&second, &mut answers);
    let native = pools::native_price(&chain.wrapped, &price_states);
    let pricing_gap = native.is_none().then(|| match price_gap {
        Some(gap) => format!(
            "the {} price pools could not be read: {gap}",
            chain.wrapped.symbol
        ),
        None => format!(
            "no {}/stablecoin pool on the configured DEXes to price {} in USD",
            chain.wrapped.symbol, chain.wrapped.symbol
        ),
    });
    let (token_states, pool_gap) = token_pools.read(&second, &mut answers);
    let mut pools: Vec<PoolFacts> = token_states
        .into_iter()
        .map(|state| PoolFacts {
            lp_burned: state.lp_of(DEAD) + state.lp_of(Address::ZERO),
            lp_locked: chain
                .lockers
                .iter()
                .map(|l| state.lp_of(*l))
                .fold(U256::ZERO, |a, b| a + b),
            lp_owner: owner_address.and_then(|o| state.lp_counted(o)),
            lp_creator: None,
            state,
        })
        .collect();
    let owner_balance = owner_balance.and_then(|call| second.get(call));
    let beacon_implementation = beacon_implementation.and_then(|call| second.get(call));
    proxy.admin_owner = admin_owner
        .and_then(|call| second.get(call))
        .filter(|o| !o.is_zero() && *o != DEAD);
    let quote_usd = pools::quote_prices(&chain.wrapped, &chain.stables, native, &price_states);

    // Round 3: confirm the top holders' balances, the creator's LP, date the first transfer.
    let excluded: Vec<Address> = pools
        .iter()
        .map(|p| p.state.pair.address)
        .chain([DEAD, Address::ZERO, token])
        .collect();
    let candidates: Vec<Address> = index
        .largest
        .iter()
        .copied()
        .filter(|a| !excluded.contains(a))
        .take(TOP_HOLDERS)
        .collect();
    let mut calls = Multicall::new();
    let mut batch = Batch::new();
    let balances: Vec<_> = candidates
        .iter()
        .map(|a| (*a, calls.add(token, IERC20::balanceOfCall { holder: *a })))
        .collect();
    let creator_lp = index.creator.map(|creator| {
        let pairs: Vec<_> = pools.iter().map(|p| p.state.pair.clone()).collect();
        HolderLp::plan(&pairs, creator, &mut calls, &mut batch, &at)
    });
    let third = (!calls.is_empty() || creator_lp.is_some())
        .then(|| calls.into_batch(&mut batch, chain.multicall, &at));
    let dated_block = if index.complete {
        index.first_transfer_block
    } else {
        Some(index.start_block)
    };
    let dated = dated_block
        .map(|b| batch.call::<Block>("eth_getBlockByNumber", json!([BlockTag::Number(b), false])));
    let beacon_code =
        beacon_implementation.map(|i| batch.call::<Bytes>("eth_getCode", json!([i, at])));
    // Every non-standard function called as each role (the creator is known
    // from round 2), and the largest holders' exits replayed.
    let code = own_code.unwrap_or_else(|| code::analyse(&logic_code));
    let subject = behaviour::Subject {
        token,
        block,
        simulate: simulate_trades,
        code_gap: proxy.beacon.map(|_| {
            "the code behind a beacon proxy is read last, too late to probe its functions"
                .to_string()
        }),
        code: &code,
        pools: &pools,
        price_pairs: &pairs.price,
        quote_usd: &quote_usd,
        owner: owner_address.map(|o| (o, owner_is_contract)),
        members: &role_members,
        stored: &stored,
        creator: index.creator,
        contract_admin: proxy
            .admin
            .filter(|_| proxy.admin_is_eoa == Some(false))
            .map(|a| (a, proxy.admin_owner)),
        holders: &candidates,
        trade_gas: simulations.iter().map(trade_gas).max().unwrap_or(0),
    };
    let mut planned = Some(behaviour::plan(chain, &subject, &mut batch));
    let wallet_trades = simulate_trades
        .then(|| {
            simulation::wallet::plan(
                chain,
                token,
                pools.iter().map(|p| &p.state),
                &price_states,
                &index.buyers,
                &head,
                &mut batch,
            )
        })
        .flatten();
    let mut wallet = None;
    let routers: Vec<_> = chain.dexes.iter().map(|d| d.router).collect();
    let callee_reads = simulation::callees::plan(&simulations, &routers, &at, &mut batch);
    let mut callees = Vec::new();
    let mut behaviour = None;
    let mut top_holders = Vec::new();
    let mut dated_time = None;
    // The launch reads go beside the batch, as a request of their own.
    let launching = launch::read(
        chain,
        token,
        &index,
        &sources,
        owner_address,
        block,
        launch_limits,
    );
    let sending = async {
        if batch.is_empty() {
            None
        } else {
            Some(chain.rpc.send(batch).await)
        }
    };
    let (sent, (launch, launch_gaps)) = tokio::join!(sending, launching);
    gaps.merge(launch_gaps);
    if let Some(sent) = sent {
        let mut answers = sent?;
        let third = match third {
            Some(third) => gaps.keep(
                third.take(&mut answers),
                || "the largest holders' balances (Multicall3 eth_call)".into(),
                &[gaps::HOLDERS],
            )?,
            None => None,
        };
        if let Some(third) = third {
            for (address, call) in balances {
                if let Some(balance) = third.get(call).filter(|b| !b.is_zero()) {
                    top_holders.push(Holder { address, balance });
                }
            }
            if let Some(reads) = creator_lp {
                let held = reads.read(&third, &mut answers);
                for pool in &mut pools {
                    pool.lp_creator = held.get(&pool.state.pair.address).copied();
                }
            }
            top_holders.sort_by_key(|h| std::cmp::Reverse(h.balance));
        }
        behaviour = planned.take().map(|p| p.take(&mut answers));
        wallet = wallet_trades.map(|p| p.take(&mut answers));
        callees = simulation::callees::take(callee_reads, &mut answers);
        if let Some(slot) = dated {
            let what = || "eth_getBlockByNumber(the first transfer's block)".to_string();
            dated_time = gaps
                .keep(answers.take(slot), what, &[gaps::AGE])?
                .map(|b| b.time());
        }
        if let Some(slot) = beacon_code {
            let what = || "eth_getCode(the beacon's implementation)".to_string();
            if let Some(code) = gaps.keep(answers.take(slot), what, &[gaps::CODE])? {
                logic_code = code;
                proxy.implementation = beacon_implementation;
            }
        }
    }
    let behaviour = behaviour
        .or_else(|| planned.map(behaviour::Planned::unsent))
        .unwrap_or_else(|| behaviour::Behaviour::not_read("the last round was not sent"));
    proxy.admin_control = behaviour.admin_control.map(|a| a.control);
    // The owner is named in the evidence only where its control is the admin's.
    if !behaviour.admin_control.is_some_and(|a| a.via_owner) {
        proxy.admin_owner = None;
    }
    let (first_transfer_time, index_start_time) = if index.complete {
        (dated_time, None)
    } else {
        (None, dated_time)
    };
    Ok(EvmFacts {
        block,
        block_time: head.time(),
        logic_code,
        name,
        symbol,
        decimals,
        total_supply,
        owner,
        owner_is_contract,
        owner_balance,
        proxy,
        pools,
        hooks,
        quote_usd,
        code,
        probing: behaviour.probing,
        replay: behaviour.replay,
        known_tokens: std::iter::once(&chain.wrapped)
            .chain(&chain.stables)
            .map(|q| (q.address, q.symbol.clone()))
            .collect(),
        pricing_gap,
        pool_gap,
        index,
        top_holders,
        first_transfer_time,
        index_start_time,
        simulations,
        simulation_gaps,
        gaps,
        wallet,
        callees,
        launch,
    })
}

/// The gas of a simulation's buy and sell (a failed sell counted as the
/// buy again: it may have burnt what it was given).
fn trade_gas(s: &riskintel_types::token::TradeSimulation) -> u64 {
    let buy = s.buy.gas_used.filter(|_| s.buy.ok).unwrap_or(0);
    let sell = (s.sell.as_ref())
        .filter(|sell| sell.ok)
        .and_then(|sell| sell.gas_used)
        .unwrap_or(buy);
    buy + sell
}
