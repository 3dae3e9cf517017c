//! The pool logs the market index reads, for every family: new pools
//! (`PairCreated` of V2 factories, `PoolCreated` of V3-style ones,
//! `Initialize` of V4 PoolManagers, Aerodrome's `PoolCreated` and the
//! Solidly forks' `PairCreated`), the swaps and syncs of tracked pools,
//! and the liquidity changes of concentrated ones (V3 `Mint` and `Burn`,
//! V4 `ModifyLiquidity`), after which the index reads the quote their
//! active liquidity holds — by pool address, or, for V4 pools, which share
//! their manager's address, by pool id (the events' first topic).

use std::collections::HashMap;

use alloy_primitives::{Address, B256};
use alloy_sol_types::SolEvent;
use serde_json::{json, Value};

use riskintel_chains::evm::abi::{IUniswapV2Factory, IUniswapV2Pair};
use riskintel_chains::evm::logs;
use riskintel_chains::evm::pools::solidly::{IAerodromeFactory, ISolidlyFactory, ISolidlyPool};
use riskintel_chains::evm::pools::v3::{self, IPancakeV3Pool, IUniswapV3Factory, IUniswapV3Pool};
use riskintel_chains::evm::pools::v4::{IPoolManager, PoolKey};
use riskintel_chains::evm::pools::Pair;
use riskintel_chains::evm::types::{BlockTag, Log};
use riskintel_chains::evm::{EvmChain, Quote};
use riskintel_chains::rpc::{Batch, RpcError};
use riskintel_chains::DexKind;
use riskintel_store::TrackedPair;

/// A pool's quote reserve that fell by half or more between two reads of
/// its logs, waiting for the re-analysis that reports it.
pub(super) struct LiquidityDrop {
    /// The pool.
    pub(super) pair: String,
    /// Its quote reserve before, and after.
    pub(super) before: f64,
    pub(super) after: f64,
    /// The block it was read at.
    pub(super) block: u64,
}

/// The quote assets the index knows, by address: decimals, and whether a stablecoin.
pub type Quotes = HashMap<Address, (u8, bool)>;

/// The quote assets of `evm`: the wrapped native, the stablecoins, and
/// native currency (a V4 pool's currency 0).
pub fn quotes(evm: &EvmChain) -> Quotes {
    [
        (evm.wrapped.address, (evm.wrapped.decimals, false)),
        (Address::ZERO, (18, false)),
    ]
    .into_iter()
    .chain(evm.stables.iter().map(|s| (s.address, (s.decimals, true))))
    .collect()
}

/// The filter for every family's new-pool event, from every configured
/// factory and PoolManager.
pub fn creation_filter(evm: &EvmChain) -> Value {
    let factories: Vec<Address> = evm.dexes.iter().map(|d| d.factory).collect();
    logs::filter(
        Some(json!(factories)),
        json!([[
            IUniswapV2Factory::PairCreated::SIGNATURE_HASH,
            IUniswapV3Factory::PoolCreated::SIGNATURE_HASH,
            IPoolManager::Initialize::SIGNATURE_HASH,
            IAerodromeFactory::PoolCreated::SIGNATURE_HASH,
            ISolidlyFactory::PairCreated::SIGNATURE_HASH
        ]]),
    )
}

/// The filters for the swaps (and syncs) of `pools`: one by address for
/// the pools that have one, one per PoolManager for V4 pools, by id.
pub fn swap_filters(evm: &EvmChain, pools: &[&TrackedPair]) -> Vec<Value> {
    let mut filters = Vec::new();
    let by_address: Vec<&str> = pools
        .iter()
        .filter(|p| p.hooks.is_none())
        .map(|p| p.pair.as_str())
        .collect();
    if !by_address.is_empty() {
        filters.push(logs::filter(
            Some(json!(by_address)),
            json!([[
                IUniswapV2Pair::Swap::SIGNATURE_HASH,
                IUniswapV2Pair::Sync::SIGNATURE_HASH,
                ISolidlyPool::Swap::SIGNATURE_HASH,
                ISolidlyPool::Sync::SIGNATURE_HASH,
                IUniswapV3Pool::Swap::SIGNATURE_HASH,
                IPancakeV3Pool::Swap::SIGNATURE_HASH,
                IUniswapV3Pool::Mint::SIGNATURE_HASH,
                IUniswapV3Pool::Burn::SIGNATURE_HASH
            ]]),
        ));
    }
    for manager in evm.dexes.iter().filter(|d| d.kind == DexKind::V4) {
        let ids: Vec<&str> = pools
            .iter()
            .filter(|p| p.hooks.is_some() && p.dex == manager.name)
            .map(|p| p.pair.as_str())
            .collect();
        if !ids.is_empty() {
            filters.push(logs::filter(
                Some(json!(manager.factory)),
                json!([
                    [
                        IPoolManager::Swap::SIGNATURE_HASH,
                        IPoolManager::ModifyLiquidity::SIGNATURE_HASH
                    ],
                    ids
                ]),
            ));
        }
    }
    filters
}

/// The tracked pool a swap, sync or liquidity log belongs to, as the
/// index keys it: its address, or a V4 pool's id.
pub fn pool_of(log: &Log) -> String {
    let by_id = [
        IPoolManager::Swap::SIGNATURE_HASH,
        IPoolManager::ModifyLiquidity::SIGNATURE_HASH,
    ];
    match (log.topic0(), log.topics.get(1)) {
        (Some(topic), Some(id)) if by_id.contains(&topic) => format!("{id:#x}"),
        _ => format!("{:#x}", log.address),
    }
}

/// Whether a log changes a concentrated pool's liquidity.
pub fn changes_liquidity(log: &Log) -> bool {
    log.topic0().is_some_and(|topic| {
        [
            IUniswapV3Pool::Mint::SIGNATURE_HASH,
            IUniswapV3Pool::Burn::SIGNATURE_HASH,
            IPoolManager::ModifyLiquidity::SIGNATURE_HASH,
        ]
        .contains(&topic)
    })
}

/// The quote (whole units) the active liquidity of each of `pools`
/// (concentrated) holds at `block`, by index key — the same measure an
/// analysis records as the pool's baseline; pools that cannot be read are
/// left out.
pub async fn active_quotes(
    evm: &EvmChain,
    pools: &[&TrackedPair],
    quotes: &Quotes,
    block: u64,
) -> Result<Vec<(String, f64)>, RpcError> {
    let pairs: Vec<Pair> = pools
        .iter()
        .filter_map(|p| pair_of(evm, p, quotes))
        .collect();
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    let mut batch = Batch::new();
    let planned = v3::plan(pairs, &[], &BlockTag::Number(block), &mut batch);
    let mut answers = evm.background.send(batch).await?;
    Ok(planned
        .take(&mut answers)
        .unwrap_or_default()
        .into_iter()
        .map(|state| {
            let scale = 10f64.powi(i32::from(state.pair.quote.decimals));
            (state.pair.index_key(), state.active_quote() / scale)
        })
        .collect())
}

/// The pool a tracked concentrated pool is, from the chain's configuration.
fn pair_of(evm: &EvmChain, tracked: &TrackedPair, quotes: &Quotes) -> Option<Pair> {
    let dex = evm
        .dexes
        .iter()
        .find(|d| d.name == tracked.dex && d.kind.is_concentrated())?;
    let (base, quote): (Address, Address) =
        (tracked.token.parse().ok()?, tracked.quote.parse().ok()?);
    let (decimals, stable) = *quotes.get(&quote)?;
    let v4 = match &tracked.hooks {
        Some(hooks) => Some(PoolKey::parse(
            &tracked.token,
            &tracked.quote,
            tracked.fee?,
            tracked.tick_spacing?,
            hooks,
        )?),
        None => None,
    };
    Some(Pair {
        dex: dex.clone(),
        quote: Quote {
            address: quote,
            symbol: String::new(),
            decimals,
            stable,
        },
        address: match v4 {
            Some(_) => dex.factory,
            None => tracked.pair.parse().ok()?,
        },
        base,
        fee: u32::try_from(tracked.fee.unwrap_or_default()).unwrap_or_default(),
        v4,
        stable: false,
    })
}

/// A pool a creation log announces, with one of `quotes` against a token;
/// None for any other log, or a pool of two quotes or of none.
pub fn created(log: &Log, evm: &EvmChain, quotes: &Quotes) -> Option<TrackedPair> {
    let dex = evm.dexes.iter().find(|d| d.factory == log.address)?;
    let (token0, token1, pair, fee, v4) = announced(log)?;
    let (token, quote) = match (quotes.contains_key(&token0), quotes.contains_key(&token1)) {
        (false, true) => (token0, token1),
        (true, false) => (token1, token0),
        _ => return None,
    };
    Some(TrackedPair {
        chain: evm.id,
        pair,
        token: token.to_checksum(None),
        quote: format!("{quote:#x}"),
        dex: dex.name.clone(),
        reserve_quote: 0.0,
        fee,
        tick_spacing: v4.map(|k| i64::from(k.spacing)),
        hooks: v4.map(|k| format!("{:#x}", k.hooks)),
    })
}

/// A new pool as its creation log announces it: its two tokens, how the
/// index keys it (address or V4 id), its fee tier and a V4 pool's key.
type Announced = (Address, Address, String, Option<i64>, Option<PoolKey>);

/// The pool a creation log of any family announces.
fn announced(log: &Log) -> Option<Announced> {
    // A pool known by its address alone (pairs, Solidly-style pools).
    let by_address =
        |token0, token1, pool: Address| (token0, token1, format!("{pool:#x}"), None, None);
    if let Some(c) = log.decode::<IUniswapV2Factory::PairCreated>() {
        return Some(by_address(c.token0, c.token1, c.pair));
    }
    if let Some(c) = log.decode::<IAerodromeFactory::PoolCreated>() {
        return Some(by_address(c.token0, c.token1, c.pool));
    }
    if let Some(c) = log.decode::<ISolidlyFactory::PairCreated>() {
        return Some(by_address(c.token0, c.token1, c.pair));
    }
    if let Some(c) = log.decode::<IUniswapV3Factory::PoolCreated>() {
        let fee = Some(i64::from(c.fee.to::<u32>()));
        return Some((c.token0, c.token1, format!("{:#x}", c.pool), fee, None));
    }
    let init = log.decode::<IPoolManager::Initialize>()?;
    let key = PoolKey::new(
        init.currency0,
        init.currency1,
        init.fee.to::<u32>(),
        init.tickSpacing.as_i32(),
        init.hooks,
    );
    let id: B256 = init.id;
    Some((
        init.currency0,
        init.currency1,
        format!("{id:#x}"),
        Some(i64::from(key.fee)),
        Some(key),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::U256;

    fn log_of(event: &impl SolEvent) -> Log {
        let data = event.encode_log_data();
        Log {
            address: Address::repeat_byte(0xfa),
            topics: data.topics().to_vec(),
            data: data.data,
            block_number: None,
            log_index: None,
            transaction_hash: None,
            block_timestamp: None,
        }
    }

    #[test]
    fn solidly_creation_logs_announce_their_pool_whichever_topic_holds_stable() {
        let (a, b, pool) = (
            Address::repeat_byte(1),
            Address::repeat_byte(2),
            Address::repeat_byte(3),
        );
        // Aerodrome indexes `stable`; the forks keep it in the data.
        let aerodrome = IAerodromeFactory::PoolCreated {
            token0: a,
            token1: b,
            stable: true,
            pool,
            count: U256::from(7),
        };
        let fork = ISolidlyFactory::PairCreated {
            token0: a,
            token1: b,
            stable: true,
            pair: pool,
            count: U256::from(7),
        };
        for log in [log_of(&aerodrome), log_of(&fork)] {
            let (t0, t1, key, fee, v4) = announced(&log).expect("announced");
            assert_eq!(
                (t0, t1, key, fee, v4),
                (a, b, format!("{pool:#x}"), None, None)
            );
        }
        // Neither is mistaken for a V2 pair's, nor a V2 pair's for them.
        let v2 = IUniswapV2Factory::PairCreated {
            token0: a,
            token1: b,
            pair: pool,
            index: U256::from(1),
        };
        assert!(log_of(&aerodrome)
            .decode::<IUniswapV2Factory::PairCreated>()
            .is_none());
        assert!(log_of(&v2)
            .decode::<ISolidlyFactory::PairCreated>()
            .is_none());
        assert_eq!(
            announced(&log_of(&v2)).map(|a| a.2),
            Some(format!("{pool:#x}"))
        );
    }
}
