//! Uniswap-V2-style pools: finding a token's pairs on every configured DEX,
//! reading their reserves and LP holdings, and pricing the wrapped native
//! in USD through its deepest stablecoin pair — the one pricing routine of
//! the service. Each step adds its calls to a [`Multicall`] so a caller can
//! ride them in its own round trips.

use std::collections::HashMap;

use alloy_primitives::{Address, U256};

use super::abi::{units, IUniswapV2Factory, IUniswapV2Pair};
use super::multicall::{Call, Multicall, Results};
use super::types::BlockTag;
use super::{Dex, EvmChain, Quote};
use crate::chains::rpc::{Batch, RpcClient, RpcError};

/// A pair of `base` with a quote asset on one DEX.
#[derive(Clone, Debug)]
pub struct Pair {
    /// The DEX.
    pub dex: Dex,
    /// The quote asset.
    pub quote: Quote,
    /// The pair's address.
    pub address: Address,
    /// The other token (the analysed token, or the wrapped native for a price pair).
    pub base: Address,
}

impl Pair {
    /// Whether `base` is the pair's token0 (V2 factories sort the two tokens by address).
    pub fn base_is_token0(&self) -> bool {
        self.base < self.quote.address
    }
}

/// Step 1: `getPair` of a token with every quote asset on every DEX, and of
/// the wrapped native with every stablecoin (its price pairs).
pub struct PairLookup {
    token: Address,
    wrapped: Address,
    token_pairs: Vec<(Dex, Quote, Call<IUniswapV2Factory::getPairCall>)>,
    price_pairs: Vec<(Dex, Quote, Call<IUniswapV2Factory::getPairCall>)>,
}

/// What step 1 found.
pub struct FoundPairs {
    /// The token's pairs.
    pub token: Vec<Pair>,
    /// The wrapped native's stablecoin pairs.
    pub price: Vec<Pair>,
}

impl PairLookup {
    /// Add the lookups for `token` to `calls`.
    pub fn plan(chain: &EvmChain, token: Address, calls: &mut Multicall) -> PairLookup {
        let mut lookup = PairLookup::price_only(chain, calls);
        lookup.token = token;
        for dex in &chain.dexes {
            for quote in chain.quotes().filter(|q| q.address != token) {
                let call = calls.add(
                    dex.factory,
                    IUniswapV2Factory::getPairCall {
                        tokenA: token,
                        tokenB: quote.address,
                    },
                );
                lookup.token_pairs.push((dex.clone(), quote.clone(), call));
            }
        }
        lookup
    }

    /// Add only the wrapped native's price-pair lookups to `calls`.
    pub fn price_only(chain: &EvmChain, calls: &mut Multicall) -> PairLookup {
        let wrapped = chain.wrapped.address;
        let mut price_pairs = Vec::new();
        for dex in &chain.dexes {
            for stable in &chain.stables {
                let call = calls.add(
                    dex.factory,
                    IUniswapV2Factory::getPairCall {
                        tokenA: wrapped,
                        tokenB: stable.address,
                    },
                );
                price_pairs.push((dex.clone(), stable.clone(), call));
            }
        }
        PairLookup {
            token: Address::ZERO,
            wrapped,
            token_pairs: Vec::new(),
            price_pairs,
        }
    }

    /// The pairs that exist.
    pub fn found(self, results: &Results) -> FoundPairs {
        let exists = |base: Address,
                      list: Vec<(Dex, Quote, Call<IUniswapV2Factory::getPairCall>)>|
         -> Vec<Pair> {
            list.into_iter()
                .filter_map(|(dex, quote, call)| {
                    let address = results.get(call).filter(|a| !a.is_zero())?;
                    Some(Pair {
                        dex,
                        quote,
                        address,
                        base,
                    })
                })
                .collect()
        };
        FoundPairs {
            token: exists(self.token, self.token_pairs),
            price: exists(self.wrapped, self.price_pairs),
        }
    }
}

/// A pair's state: reserves, and the LP tokens some holders have.
#[derive(Clone, Debug)]
pub struct PoolState {
    /// The pair.
    pub pair: Pair,
    /// Reserve of the base token, base units.
    pub reserve_base: U256,
    /// Reserve of the quote asset, base units.
    pub reserve_quote: U256,
    /// LP total supply.
    pub lp_supply: U256,
    /// LP balances of the holders asked about.
    pub lp_balances: HashMap<Address, U256>,
}

impl PoolState {
    /// LP tokens `holder` has (zero when it was not asked about).
    pub fn lp_of(&self, holder: Address) -> U256 {
        self.lp_balances.get(&holder).copied().unwrap_or_default()
    }
}

type PairReads = (
    Pair,
    Call<IUniswapV2Pair::getReservesCall>,
    Call<IUniswapV2Pair::totalSupplyCall>,
    Vec<(Address, Call<IUniswapV2Pair::balanceOfCall>)>,
);

/// Step 2: reserves, LP supply and the LP balances of `lp_holders`, per pair.
pub struct PoolReads {
    pools: Vec<PairReads>,
}

impl PoolReads {
    /// Add the reads of `pairs` to `calls`.
    pub fn plan(pairs: &[Pair], lp_holders: &[Address], calls: &mut Multicall) -> PoolReads {
        let pools = pairs
            .iter()
            .map(|pair| {
                let reserves = calls.add(pair.address, IUniswapV2Pair::getReservesCall {});
                let supply = calls.add(pair.address, IUniswapV2Pair::totalSupplyCall {});
                let holders = lp_holders
                    .iter()
                    .map(|holder| {
                        (
                            *holder,
                            calls.add(
                                pair.address,
                                IUniswapV2Pair::balanceOfCall { holder: *holder },
                            ),
                        )
                    })
                    .collect();
                (pair.clone(), reserves, supply, holders)
            })
            .collect();
        PoolReads { pools }
    }

    /// The states of the pairs whose reserves could be read.
    pub fn read(self, results: &Results) -> Vec<PoolState> {
        self.pools
            .into_iter()
            .filter_map(|(pair, reserves, supply, holders)| {
                let reserves = results.get(reserves)?;
                let (r0, r1) = (U256::from(reserves.reserve0), U256::from(reserves.reserve1));
                let (reserve_base, reserve_quote) = if pair.base_is_token0() {
                    (r0, r1)
                } else {
                    (r1, r0)
                };
                let lp_balances = holders
                    .into_iter()
                    .map(|(h, call)| (h, results.get(call).unwrap_or_default()))
                    .collect();
                Some(PoolState {
                    pair,
                    reserve_base,
                    reserve_quote,
                    lp_supply: results.get(supply).unwrap_or_default(),
                    lp_balances,
                })
            })
            .collect()
    }
}

/// The wrapped native's USD price from the deepest of its stablecoin
/// pairs (deepest by stablecoin reserve); None without one.
pub fn native_price(chain: &EvmChain, price_pools: &[PoolState]) -> Option<f64> {
    let mut best: Option<(f64, f64)> = None;
    for pool in price_pools {
        let wrapped = units(pool.reserve_base, chain.wrapped.decimals);
        let stable = units(pool.reserve_quote, pool.pair.quote.decimals);
        if wrapped > 0.0 && best.is_none_or(|(depth, _)| stable > depth) {
            best = Some((stable, stable / wrapped));
        }
    }
    best.map(|(_, price)| price)
}

/// USD prices of the quote assets: stablecoins at $1, the wrapped native
/// from `native` when known.
pub fn quote_prices(chain: &EvmChain, native: Option<f64>) -> HashMap<Address, f64> {
    let mut prices: HashMap<Address, f64> =
        chain.stables.iter().map(|s| (s.address, 1.0)).collect();
    if let Some(price) = native {
        prices.insert(chain.wrapped.address, price);
    }
    prices
}

/// The wrapped native's USD price now, in two round trips on `rpc` (for
/// callers that do not ride the lookups in their own).
pub async fn read_native_price(chain: &EvmChain, rpc: &RpcClient) -> Result<Option<f64>, RpcError> {
    let mut calls = Multicall::new();
    let lookup = PairLookup::price_only(chain, &mut calls);
    let mut batch = Batch::new();
    let pending = calls.into_batch(&mut batch, chain.multicall, &BlockTag::Latest);
    let found = lookup.found(&pending.take(&mut rpc.send(batch).await?)?);
    if found.price.is_empty() {
        return Ok(None);
    }
    let mut calls = Multicall::new();
    let reads = PoolReads::plan(&found.price, &[], &mut calls);
    let mut batch = Batch::new();
    let pending = calls.into_batch(&mut batch, chain.multicall, &BlockTag::Latest);
    let states = reads.read(&pending.take(&mut rpc.send(batch).await?)?);
    Ok(native_price(chain, &states))
}
