//! Reading an EVM token's facts from the chain, in few round trips:
//! 1. one batch: latest block, code, EIP-1967 slots, and one Multicall3
//!    with metadata, owner and every `getPair`;
//! 2. at that block, concurrently: one batch (pair reserves and LP
//!    holdings, balances, the admin's, implementation's and owner's code)
//!    and the holder index's `eth_getLogs`;
//! 3. one batch: top holders' balances and the first transfer's block time.

use std::collections::HashMap;
use std::sync::Arc;

use alloy_primitives::{Address, U256};
use serde_json::{json, Value};

use super::holders::{self, HolderIndex, IndexLimits};
use super::simulate;
use riskintel_api::TradeSimulation;
use super::AnalysisError;
use crate::chains::evm::abi::{self, Call3};
use crate::chains::evm::rpc::{RpcClient, RpcError};
use crate::chains::ChainConfig;
use crate::store::Store;

/// `0x…dEaD`, the conventional burn address.
pub const DEAD: Address = alloy_primitives::address!("000000000000000000000000000000000000dEaD");

const IMPLEMENTATION_SLOT: &str = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";
const ADMIN_SLOT: &str = "0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103";
const BEACON_SLOT: &str = "0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50";
const LEGACY_IMPLEMENTATION_SLOT: &str = "0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3";
const EIP1167_PREFIX: &str = "363d3d373d3d3d363d73";

/// A quote asset: the wrapped native or a stablecoin.
#[derive(Clone, Debug)]
pub struct Quote {
    /// Address.
    pub address: Address,
    /// Symbol.
    pub symbol: String,
    /// Decimals.
    pub decimals: u8,
    /// Whether it counts as $1.
    pub stable: bool,
}

/// A DEX, parsed.
#[derive(Clone, Debug)]
pub struct Dex {
    /// Name.
    pub name: String,
    /// Factory.
    pub factory: Address,
    /// Router.
    pub router: Address,
    /// Fee in basis points.
    pub fee_bps: u32,
}

/// One EVM chain: its node and parsed configuration.
pub struct EvmChain {
    /// Chain id.
    pub id: String,
    /// The node.
    pub rpc: RpcClient,
    /// Multicall3.
    pub multicall: Address,
    /// Wrapped native token.
    pub wrapped: Quote,
    /// Stablecoins.
    pub stables: Vec<Quote>,
    /// DEXes.
    pub dexes: Vec<Dex>,
    /// LP lockers.
    pub lockers: Vec<Address>,
}

fn parse_address(text: &str, what: &str) -> anyhow::Result<Address> {
    crate::chains::parse_evm_address(text).map_err(|e| anyhow::anyhow!("{what}: {e}"))
}

impl EvmChain {
    /// Parse a chain's configuration.
    pub fn from_config(id: &str, config: &ChainConfig, rpc: RpcClient) -> anyhow::Result<EvmChain> {
        let quote = |t: &crate::chains::ConfiguredToken, stable: bool| -> anyhow::Result<Quote> {
            Ok(Quote { address: parse_address(&t.address, &format!("chains.{id} token {}", t.symbol))?, symbol: t.symbol.clone(), decimals: t.decimals, stable })
        };
        Ok(EvmChain {
            id: id.to_string(),
            rpc,
            multicall: parse_address(&config.multicall3, &format!("chains.{id}.multicall3"))?,
            wrapped: quote(&config.wrapped_native, false)?,
            stables: config.stablecoins.iter().map(|t| quote(t, true)).collect::<anyhow::Result<_>>()?,
            dexes: config
                .dexes
                .iter()
                .map(|d| {
                    Ok(Dex {
                        name: d.name.clone(),
                        factory: parse_address(&d.factory, &format!("chains.{id} dex {} factory", d.name))?,
                        router: parse_address(&d.router, &format!("chains.{id} dex {} router", d.name))?,
                        fee_bps: d.fee_bps,
                    })
                })
                .collect::<anyhow::Result<_>>()?,
            lockers: config
                .lp_lockers
                .iter()
                .map(|l| parse_address(l, &format!("chains.{id}.lp_lockers")))
                .collect::<anyhow::Result<_>>()?,
        })
    }

    fn quotes(&self) -> Vec<Quote> {
        let mut quotes = vec![self.wrapped.clone()];
        quotes.extend(self.stables.iter().cloned());
        quotes
    }
}

/// What is known of the token's owner.
#[derive(Clone, Debug, PartialEq)]
pub enum OwnerFact {
    /// `owner()` and `getOwner()` both failed: no owner function.
    NoOwnerFunction,
    /// The owner address (zero or dead when renounced).
    Address(Address),
}

/// Proxy facts.
#[derive(Clone, Debug, Default)]
pub struct ProxyFacts {
    /// EIP-1967 implementation (or legacy OpenZeppelin slot).
    pub implementation: Option<Address>,
    /// EIP-1967 admin.
    pub admin: Option<Address>,
    /// EIP-1967 beacon.
    pub beacon: Option<Address>,
    /// EIP-1167 clone target.
    pub clone_of: Option<Address>,
    /// Whether the admin has no code (an EOA); None when there is no admin.
    pub admin_is_eoa: Option<bool>,
}

impl ProxyFacts {
    /// Whether this is a proxy of any kind.
    pub fn is_proxy(&self) -> bool {
        self.implementation.is_some() || self.beacon.is_some() || self.clone_of.is_some()
    }
}

/// One pool.
#[derive(Clone, Debug)]
pub struct PoolFacts {
    /// DEX name.
    pub dex: String,
    /// Pair.
    pub pair: Address,
    /// Quote asset.
    pub quote: Quote,
    /// Token reserve (base units).
    pub reserve_token: U256,
    /// Quote reserve (base units).
    pub reserve_quote: U256,
    /// LP total supply.
    pub lp_supply: U256,
    /// LP held by dead + zero.
    pub lp_burned: U256,
    /// LP held by configured lockers.
    pub lp_locked: U256,
    /// LP held by the owner, if there is one.
    pub lp_owner: Option<U256>,
    /// LP held by the creator (the first mint's recipient), where known.
    pub lp_creator: Option<U256>,
}

/// A holder and its balance (confirmed with `balanceOf`).
#[derive(Clone, Debug)]
pub struct Holder {
    /// Address.
    pub address: Address,
    /// Balance.
    pub balance: U256,
}

/// Everything read about a token.
#[derive(Clone, Debug)]
pub struct EvmFacts {
    /// Block the facts were read at.
    pub block: u64,
    /// That block's timestamp (unix seconds).
    pub block_time: i64,
    /// The token's code.
    pub code: Vec<u8>,
    /// Code of the logic contract (the implementation behind a proxy, or the token).
    pub logic_code: Vec<u8>,
    /// `name()`.
    pub name: Option<String>,
    /// `symbol()`.
    pub symbol: Option<String>,
    /// `decimals()`.
    pub decimals: Option<u8>,
    /// `totalSupply()`.
    pub total_supply: U256,
    /// Owner.
    pub owner: OwnerFact,
    /// Whether the owner has code (a multisig, timelock…); None when unknown or no owner.
    pub owner_is_contract: Option<bool>,
    /// Owner's token balance.
    pub owner_balance: Option<U256>,
    /// Tokens at the dead and zero addresses.
    pub burned: U256,
    /// Proxy facts.
    pub proxy: ProxyFacts,
    /// Pools on the configured DEXes.
    pub pools: Vec<PoolFacts>,
    /// USD price of each quote asset, where known.
    pub quote_usd: HashMap<Address, f64>,
    /// Why the wrapped native could not be priced, if it could not.
    pub pricing_gap: Option<String>,
    /// The holder index after this analysis's update.
    pub index: HolderIndex,
    /// Top holders (pools, dead and zero excluded), largest first.
    pub top_holders: Vec<Holder>,
    /// Holders with a positive balance in the index.
    pub holder_count: u64,
    /// Timestamp of the first transfer's block, where known.
    pub first_transfer_time: Option<i64>,
    /// Timestamp of the index's start block, where it does not start at genesis.
    pub index_start_time: Option<i64>,
    /// Trade simulations that ran, one per pool quoted in the wrapped native.
    pub simulations: Vec<TradeSimulation>,
    /// Why simulation did not run (on some or all pools).
    pub simulation_gaps: Vec<String>,
}

fn eth_call(to: Address, data: &[u8], block: &str) -> (String, Value) {
    ("eth_call".to_string(), json!([{"to": format!("{to:#x}"), "data": abi::to_hex(data)}, block]))
}

fn value_str(value: &Value) -> Result<&str, RpcError> {
    value.as_str().ok_or_else(|| RpcError::Upstream(format!("expected a hex string, got {value}")))
}

fn hex_u64(value: &Value) -> Result<u64, RpcError> {
    let text = value_str(value)?;
    u64::from_str_radix(text.trim_start_matches("0x"), 16).map_err(|_| RpcError::Upstream(format!("not a hex number: {text}")))
}

fn hex_bytes(value: &Value) -> Result<Vec<u8>, RpcError> {
    abi::from_hex(value_str(value)?).ok_or_else(|| RpcError::Upstream("undecodable hex".into()))
}

fn slot_address(value: &Value) -> Result<Option<Address>, RpcError> {
    let bytes = hex_bytes(value)?;
    if bytes.len() != 32 {
        return Err(RpcError::Upstream("storage slot is not 32 bytes".into()));
    }
    let address = Address::from_slice(&bytes[12..]);
    Ok((!address.is_zero()).then_some(address))
}

fn multicall_results(value: &Value, expected: usize, multicall: Address) -> Result<Vec<Option<Vec<u8>>>, RpcError> {
    let data = hex_bytes(value)?;
    if data.is_empty() {
        return Err(RpcError::Upstream(format!("Multicall3 is not deployed at {multicall:#x} on this chain")));
    }
    let results = abi::decode_aggregate3(&data).ok_or_else(|| RpcError::Upstream("Multicall3 answer could not be decoded".into()))?;
    if results.len() != expected {
        return Err(RpcError::Upstream("Multicall3 answered the wrong number of results".into()));
    }
    Ok(results.into_iter().map(|(ok, data)| ok.then_some(data)).collect())
}

fn take(answers: &mut std::vec::IntoIter<Result<Value, RpcError>>) -> Result<Value, RpcError> {
    answers.next().unwrap_or_else(|| Err(RpcError::Upstream("missing answer".into())))
}

fn decimal_value(amount: U256, decimals: u8) -> f64 {
    let text = amount.to_string();
    let raw: f64 = text.parse().unwrap_or(0.0);
    raw / 10f64.powi(decimals as i32)
}

/// Whole-token value of a base-unit amount.
pub fn units(amount: U256, decimals: u8) -> f64 {
    decimal_value(amount, decimals)
}

/// Read every fact about `token` from `chain`.
pub async fn gather(
    chain: &EvmChain,
    store: &Arc<dyn Store>,
    token: Address,
    limits: IndexLimits,
    simulate_trades: bool,
) -> Result<EvmFacts, AnalysisError> {
    let t = format!("{token:#x}");
    let quotes = chain.quotes();
    // Round 1.
    let mut calls1 = vec![
        Call3 { target: token, data: abi::call("name()", &[]) },
        Call3 { target: token, data: abi::call("symbol()", &[]) },
        Call3 { target: token, data: abi::call("decimals()", &[]) },
        Call3 { target: token, data: abi::call("totalSupply()", &[]) },
        Call3 { target: token, data: abi::call("owner()", &[]) },
        Call3 { target: token, data: abi::call("getOwner()", &[]) },
    ];
    let mut pair_slots = Vec::new();
    for dex in &chain.dexes {
        for quote in quotes.iter().filter(|q| q.address != token) {
            pair_slots.push((dex.clone(), quote.clone()));
            calls1.push(Call3 {
                target: dex.factory,
                data: abi::call("getPair(address,address)", &[abi::address_word(token), abi::address_word(quote.address)]),
            });
        }
    }
    let mut price_slots = Vec::new();
    for dex in &chain.dexes {
        for stable in &chain.stables {
            price_slots.push(stable.clone());
            calls1.push(Call3 {
                target: dex.factory,
                data: abi::call(
                    "getPair(address,address)",
                    &[abi::address_word(chain.wrapped.address), abi::address_word(stable.address)],
                ),
            });
        }
    }
    let round1 = vec![
        ("eth_getBlockByNumber".to_string(), json!(["latest", false])),
        ("eth_getCode".to_string(), json!([t, "latest"])),
        ("eth_getStorageAt".to_string(), json!([t, IMPLEMENTATION_SLOT, "latest"])),
        ("eth_getStorageAt".to_string(), json!([t, ADMIN_SLOT, "latest"])),
        ("eth_getStorageAt".to_string(), json!([t, BEACON_SLOT, "latest"])),
        ("eth_getStorageAt".to_string(), json!([t, LEGACY_IMPLEMENTATION_SLOT, "latest"])),
        eth_call(chain.multicall, &abi::aggregate3(&calls1), "latest"),
    ];
    let mut answers = chain.rpc.batch(round1).await?.into_iter();
    let block_info = take(&mut answers)?;
    let block = block_info.get("number").ok_or_else(|| RpcError::Upstream("block has no number".into())).and_then(hex_u64)?;
    let block_time = block_info.get("timestamp").ok_or_else(|| RpcError::Upstream("block has no timestamp".into())).and_then(hex_u64)? as i64;
    let code = hex_bytes(&take(&mut answers)?)?;
    if code.is_empty() {
        return Err(AnalysisError::NotFound(format!("there is no contract at {token:#x} on {}: it is an account, not a token", chain.id)));
    }
    let mut proxy = ProxyFacts {
        implementation: slot_address(&take(&mut answers)?)?,
        admin: slot_address(&take(&mut answers)?)?,
        beacon: slot_address(&take(&mut answers)?)?,
        ..ProxyFacts::default()
    };
    if let Some(legacy) = slot_address(&take(&mut answers)?)? {
        proxy.implementation.get_or_insert(legacy);
    }
    let code_hex = hex::encode(&code);
    if let Some(rest) = code_hex.strip_prefix(EIP1167_PREFIX) {
        proxy.clone_of = rest.get(..40).and_then(|h| format!("0x{h}").parse().ok());
    }
    let results1 = multicall_results(&take(&mut answers)?, calls1.len(), chain.multicall)?;
    let total_supply = results1[3].as_deref().and_then(abi::decode_uint);
    let Some(total_supply) = total_supply else {
        return Err(AnalysisError::NotFound(format!(
            "the contract at {token:#x} on {} is not an ERC-20 token (totalSupply() fails)",
            chain.id
        )));
    };
    let name = results1[0].as_deref().and_then(abi::decode_string_or_bytes32);
    let symbol = results1[1].as_deref().and_then(abi::decode_string_or_bytes32);
    let decimals = results1[2].as_deref().and_then(abi::decode_uint).and_then(|d| u8::try_from(d).ok());
    let owner = match results1[4].as_deref().and_then(abi::decode_address).or_else(|| results1[5].as_deref().and_then(abi::decode_address)) {
        Some(address) => OwnerFact::Address(address),
        None => OwnerFact::NoOwnerFunction,
    };
    let mut pairs = Vec::new();
    for (i, (dex, quote)) in pair_slots.into_iter().enumerate() {
        if let Some(pair) = results1[6 + i].as_deref().and_then(abi::decode_address).filter(|a| !a.is_zero()) {
            pairs.push((dex, quote, pair));
        }
    }
    let offset = 6 + pairs_len(&chain.dexes, &quotes, token);
    let mut price_pairs = Vec::new();
    for (i, stable) in price_slots.into_iter().enumerate() {
        if let Some(pair) = results1[offset + i].as_deref().and_then(abi::decode_address).filter(|a| !a.is_zero()) {
            price_pairs.push((stable, pair));
        }
    }

    // Round 2, at the block of round 1; the holder index runs beside it.
    let at = format!("{block:#x}");
    let owner_address = match &owner {
        OwnerFact::Address(a) if !a.is_zero() && *a != DEAD => Some(*a),
        _ => None,
    };
    let mut calls2 = Vec::new();
    for (_, _, pair) in &pairs {
        calls2.push(Call3 { target: *pair, data: abi::call("getReserves()", &[]) });
        calls2.push(Call3 { target: *pair, data: abi::call("token0()", &[]) });
        calls2.push(Call3 { target: *pair, data: abi::call("totalSupply()", &[]) });
        calls2.push(Call3 { target: *pair, data: abi::call("balanceOf(address)", &[abi::address_word(DEAD)]) });
        calls2.push(Call3 { target: *pair, data: abi::call("balanceOf(address)", &[abi::address_word(Address::ZERO)]) });
        calls2.push(Call3 {
            target: *pair,
            data: abi::call("balanceOf(address)", &[abi::address_word(owner_address.unwrap_or(DEAD))]),
        });
        for locker in &chain.lockers {
            calls2.push(Call3 { target: *pair, data: abi::call("balanceOf(address)", &[abi::address_word(*locker)]) });
        }
    }
    for (_, pair) in &price_pairs {
        calls2.push(Call3 { target: *pair, data: abi::call("getReserves()", &[]) });
        calls2.push(Call3 { target: *pair, data: abi::call("token0()", &[]) });
    }
    calls2.push(Call3 { target: token, data: abi::call("balanceOf(address)", &[abi::address_word(DEAD)]) });
    calls2.push(Call3 { target: token, data: abi::call("balanceOf(address)", &[abi::address_word(Address::ZERO)]) });
    calls2.push(Call3 { target: token, data: abi::call("balanceOf(address)", &[abi::address_word(owner_address.unwrap_or(DEAD))]) });
    if let Some(beacon) = proxy.beacon {
        calls2.push(Call3 { target: beacon, data: abi::call("implementation()", &[]) });
    }
    let mut round2 = vec![eth_call(chain.multicall, &abi::aggregate3(&calls2), &at)];
    let logic_address = proxy.implementation.or(proxy.clone_of);
    let code_targets: Vec<Option<Address>> = vec![proxy.admin, logic_address, owner_address];
    for target in code_targets.iter().flatten() {
        round2.push(("eth_getCode".to_string(), json!([format!("{target:#x}"), at])));
    }
    let planned = if simulate_trades { simulate::plan(chain, token, &pairs, &price_pairs, &at) } else { Vec::new() };
    round2.extend(planned.iter().map(|p| p.call.clone()));
    let (answers2, index) = tokio::join!(
        chain.rpc.batch(round2),
        holders::update(store.as_ref(), &chain.rpc, &chain.id, token, block, limits)
    );
    let mut answers = answers2?.into_iter();
    let index = index.map_err(AnalysisError::from_index)?;
    let results2 = multicall_results(&take(&mut answers)?, calls2.len(), chain.multicall)?;
    let mut codes = HashMap::new();
    for target in code_targets.iter().flatten() {
        codes.insert(*target, hex_bytes(&take(&mut answers)?)?);
    }
    let mut simulations = Vec::new();
    let mut simulation_gaps = Vec::new();
    for plan in &planned {
        match simulate::decode(plan, decimals.unwrap_or(18), take(&mut answers)) {
            Ok(simulation) => simulations.push(simulation),
            Err(reason) => simulation_gaps.push(format!("{} pool {}: {reason}", plan.dex, plan.pair.to_checksum(None))),
        }
    }
    if !simulate_trades {
        simulation_gaps.push("trade simulation is turned off in this server's configuration".to_string());
    } else if planned.is_empty() {
        simulation_gaps.push(if pairs.is_empty() {
            "there is no pool to trade in".to_string()
        } else {
            format!(
                "no pool is quoted in {} or in a stablecoin with a {}/stablecoin pool to buy it",
                chain.wrapped.symbol, chain.wrapped.symbol
            )
        });
    }
    proxy.admin_is_eoa = proxy.admin.map(|a| codes.get(&a).is_some_and(|c| c.is_empty()));
    let owner_is_contract = owner_address.map(|a| codes.get(&a).is_some_and(|c| !c.is_empty()));
    let mut logic_code = logic_address.and_then(|a| codes.get(&a).cloned()).unwrap_or_else(|| code.clone());

    let mut r = results2.into_iter();
    let mut next = || r.next().flatten();
    let mut pools = Vec::new();
    for (dex, quote, pair) in pairs {
        let reserves = next().as_deref().and_then(abi::decode_reserves);
        let token0 = next().as_deref().and_then(abi::decode_address);
        let lp_supply = next().as_deref().and_then(abi::decode_uint).unwrap_or_default();
        let lp_dead = next().as_deref().and_then(abi::decode_uint).unwrap_or_default();
        let lp_zero = next().as_deref().and_then(abi::decode_uint).unwrap_or_default();
        let lp_owner = next().as_deref().and_then(abi::decode_uint);
        let mut lp_locked = U256::ZERO;
        for _ in &chain.lockers {
            lp_locked += next().as_deref().and_then(abi::decode_uint).unwrap_or_default();
        }
        let (Some((r0, r1)), Some(token0)) = (reserves, token0) else { continue };
        let (reserve_token, reserve_quote) = if token0 == token { (r0, r1) } else { (r1, r0) };
        pools.push(PoolFacts {
            dex: dex.name.clone(),
            pair,
            quote,
            reserve_token,
            reserve_quote,
            lp_supply,
            lp_burned: lp_dead + lp_zero,
            lp_locked,
            lp_owner: owner_address.and(lp_owner),
            lp_creator: None,
        });
    }
    // Price the wrapped native through its deepest stablecoin pair.
    let mut best: Option<(f64, f64)> = None;
    for (stable, _) in &price_pairs {
        let reserves = next().as_deref().and_then(abi::decode_reserves);
        let token0 = next().as_deref().and_then(abi::decode_address);
        let (Some((r0, r1)), Some(token0)) = (reserves, token0) else { continue };
        let (wrapped_reserve, stable_reserve) = if token0 == chain.wrapped.address { (r0, r1) } else { (r1, r0) };
        let wrapped_units = units(wrapped_reserve, chain.wrapped.decimals);
        let stable_units = units(stable_reserve, stable.decimals);
        if wrapped_units > 0.0 && best.is_none_or(|(depth, _)| stable_units > depth) {
            best = Some((stable_units, stable_units / wrapped_units));
        }
    }
    let mut quote_usd: HashMap<Address, f64> = chain.stables.iter().map(|s| (s.address, 1.0)).collect();
    let pricing_gap = match best {
        Some((_, price)) => {
            quote_usd.insert(chain.wrapped.address, price);
            None
        }
        None => Some(format!("no {}/stablecoin pool on the configured DEXes to price {} in USD", chain.wrapped.symbol, chain.wrapped.symbol)),
    };
    let burned = next().as_deref().and_then(abi::decode_uint).unwrap_or_default()
        + next().as_deref().and_then(abi::decode_uint).unwrap_or_default();
    let owner_balance = next().as_deref().and_then(abi::decode_uint);
    let owner_balance = owner_address.and(owner_balance);
    let beacon_implementation = if proxy.beacon.is_some() { next().as_deref().and_then(abi::decode_address) } else { None };

    // Round 3: confirm the top holders' balances, date the first transfer.
    let excluded: Vec<Address> = pools.iter().map(|p| p.pair).chain([DEAD, Address::ZERO, token]).collect();
    let candidates: Vec<Address> = store
        .holder_top(&chain.id, &holders::holder_key(&token), 10 + excluded.len() as i64)
        .await
        .map_err(AnalysisError::from)?
        .into_iter()
        .filter_map(|b| b.holder.parse::<Address>().ok())
        .filter(|a| !excluded.contains(a))
        .take(10)
        .collect();
    let holder_count = store.holder_count(&chain.id, &holders::holder_key(&token)).await.map_err(AnalysisError::from)? as u64;
    let mut calls3: Vec<Call3> = candidates
        .iter()
        .map(|a| Call3 { target: token, data: abi::call("balanceOf(address)", &[abi::address_word(*a)]) })
        .collect();
    // The creator's LP tokens in each pool.
    if let Some(creator) = index.creator {
        for pool in &pools {
            calls3.push(Call3 { target: pool.pair, data: abi::call("balanceOf(address)", &[abi::address_word(creator)]) });
        }
    }
    let mut round3 = Vec::new();
    if !calls3.is_empty() {
        round3.push(eth_call(chain.multicall, &abi::aggregate3(&calls3), &at));
    }
    let dated_block = if index.complete { index.first_transfer_block } else { Some(index.start_block) };
    if let Some(b) = dated_block {
        round3.push(("eth_getBlockByNumber".to_string(), json!([format!("{b:#x}"), false])));
    }
    if let Some(implementation) = beacon_implementation {
        round3.push(("eth_getCode".to_string(), json!([format!("{implementation:#x}"), at])));
    }
    let mut answers = chain.rpc.batch(round3).await?.into_iter();
    let mut top_holders = Vec::new();
    if !calls3.is_empty() {
        let balances = multicall_results(&take(&mut answers)?, calls3.len(), chain.multicall)?;
        let (holder_balances, lp_balances) = balances.split_at(candidates.len());
        for (address, balance) in candidates.into_iter().zip(holder_balances) {
            if let Some(balance) = balance.as_deref().and_then(abi::decode_uint).filter(|b| !b.is_zero()) {
                top_holders.push(Holder { address, balance });
            }
        }
        for (pool, balance) in pools.iter_mut().zip(lp_balances) {
            pool.lp_creator = balance.as_deref().and_then(abi::decode_uint);
        }
        top_holders.sort_by_key(|h| std::cmp::Reverse(h.balance));
    }
    let dated_time = match dated_block {
        Some(_) => take(&mut answers)?.get("timestamp").map(hex_u64).transpose()?.map(|t| t as i64),
        None => None,
    };
    let (first_transfer_time, index_start_time) = if index.complete { (dated_time, None) } else { (None, dated_time) };
    if beacon_implementation.is_some() {
        logic_code = hex_bytes(&take(&mut answers)?)?;
        proxy.implementation = beacon_implementation;
    }
    Ok(EvmFacts {
        block,
        block_time,
        code,
        logic_code,
        name,
        symbol,
        decimals,
        total_supply,
        owner,
        owner_is_contract,
        owner_balance,
        burned,
        proxy,
        pools,
        quote_usd,
        pricing_gap,
        index,
        top_holders,
        holder_count,
        first_transfer_time,
        index_start_time,
        simulations,
        simulation_gaps,
    })
}

fn pairs_len(dexes: &[Dex], quotes: &[Quote], token: Address) -> usize {
    dexes.len() * quotes.iter().filter(|q| q.address != token).count()
}
