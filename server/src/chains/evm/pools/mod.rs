//! Pools: finding a token's pools on every configured DEX (Uniswap-V2-style
//! pairs, and V3-style pools in every fee tier: `v3`), reading their
//! reserves, depth and LP holdings, and pricing the wrapped native in USD
//! through its deepest stablecoin pool — the one pricing routine of the
//! service. Each step adds its calls to a [`Multicall`] (and a V3 lens call
//! to the caller's batch) so a caller can ride them in its own round trips.

pub mod depth;
pub mod v3;

use std::collections::HashMap;

use alloy_primitives::aliases::U24;
use alloy_primitives::{Address, U256};

use self::depth::Depth;
use self::v3::IUniswapV3Factory;
use super::abi::{units, IUniswapV2Factory, IUniswapV2Pair};
use super::multicall::{Call, Multicall, Results};
use super::types::BlockTag;
use super::{Dex, EvmChain, Quote};
use crate::chains::rpc::{Answers, Batch, RpcClient, RpcError};
use crate::chains::DexKind;

/// A pool of `base` with a quote asset on one DEX.
#[derive(Clone, Debug)]
pub struct Pair {
    /// The DEX.
    pub dex: Dex,
    /// The quote asset.
    pub quote: Quote,
    /// The pool's address.
    pub address: Address,
    /// The other token (the analysed token, or the wrapped native for a price pair).
    pub base: Address,
    /// The pool's swap fee, in hundredths of a basis point (a V3 fee tier;
    /// a V2 DEX's fee × 100).
    pub fee: u32,
}

impl Pair {
    /// Whether `base` is the pool's token0 (factories sort the two tokens by address).
    pub fn base_is_token0(&self) -> bool {
        self.base < self.quote.address
    }

    /// The pool's family.
    pub fn kind(&self) -> DexKind {
        self.dex.kind
    }
}

/// How one pool is looked for.
enum Lookup {
    V2(Call<IUniswapV2Factory::getPairCall>),
    V3(Call<IUniswapV3Factory::getPoolCall>),
}

type Looked = (Dex, Quote, u32, Lookup);

/// Add the lookups of `base`'s pools with `quote` on `dex` to `calls`.
fn look_up(dex: &Dex, base: Address, quote: &Quote, calls: &mut Multicall, into: &mut Vec<Looked>) {
    if dex.kind.is_concentrated() {
        for fee in &dex.fee_tiers {
            let call = IUniswapV3Factory::getPoolCall {
                tokenA: base,
                tokenB: quote.address,
                fee: U24::from(*fee),
            };
            into.push((
                dex.clone(),
                quote.clone(),
                *fee,
                Lookup::V3(calls.add(dex.factory, call)),
            ));
        }
    } else {
        let call = IUniswapV2Factory::getPairCall {
            tokenA: base,
            tokenB: quote.address,
        };
        into.push((
            dex.clone(),
            quote.clone(),
            dex.fee_bps * 100,
            Lookup::V2(calls.add(dex.factory, call)),
        ));
    }
}

/// Step 1: the pools of a token with every quote asset on every DEX, and
/// of the wrapped native with every stablecoin (its price pools).
pub struct PairLookup {
    token: Address,
    wrapped: Address,
    token_pairs: Vec<Looked>,
    price_pairs: Vec<Looked>,
}

/// What step 1 found.
pub struct FoundPairs {
    /// The token's pools.
    pub token: Vec<Pair>,
    /// The wrapped native's stablecoin pools.
    pub price: Vec<Pair>,
}

impl PairLookup {
    /// Add the lookups for `token` to `calls`.
    pub fn plan(chain: &EvmChain, token: Address, calls: &mut Multicall) -> PairLookup {
        let mut lookup = PairLookup::price_only(chain, calls);
        lookup.token = token;
        for dex in &chain.dexes {
            for quote in chain.quotes().filter(|q| q.address != token) {
                look_up(dex, token, quote, calls, &mut lookup.token_pairs);
            }
        }
        lookup
    }

    /// Add only the wrapped native's price-pool lookups to `calls`.
    pub fn price_only(chain: &EvmChain, calls: &mut Multicall) -> PairLookup {
        let wrapped = chain.wrapped.address;
        let mut price_pairs = Vec::new();
        for dex in &chain.dexes {
            for stable in &chain.stables {
                look_up(dex, wrapped, stable, calls, &mut price_pairs);
            }
        }
        PairLookup {
            token: Address::ZERO,
            wrapped,
            token_pairs: Vec::new(),
            price_pairs,
        }
    }

    /// The pools that exist.
    pub fn found(self, results: &Results) -> FoundPairs {
        let exists = |base: Address, list: Vec<Looked>| -> Vec<Pair> {
            list.into_iter()
                .filter_map(|(dex, quote, fee, lookup)| {
                    let address = match lookup {
                        Lookup::V2(call) => results.get(call),
                        Lookup::V3(call) => results.get(call),
                    }
                    .filter(|a| !a.is_zero())?;
                    Some(Pair {
                        dex,
                        quote,
                        address,
                        base,
                        fee,
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

/// A pool's state: reserves (a V3 pool's token balances), price, depth,
/// and the LP some holders have (a V3 pool's: the active liquidity of their
/// position NFTs, against the pool's active liquidity).
#[derive(Clone, Debug)]
pub struct PoolState {
    /// The pool.
    pub pair: Pair,
    /// Reserve of the base token, base units.
    pub reserve_base: U256,
    /// Reserve of the quote asset, base units.
    pub reserve_quote: U256,
    /// Price: raw quote units per raw base unit.
    pub price_raw: f64,
    /// Quote it takes to move the base's price ±2% (raw quote units).
    pub depth: Depth,
    /// LP total supply (a V3 pool: its active liquidity).
    pub lp_supply: U256,
    /// LP balances of the holders asked about.
    pub lp_balances: HashMap<Address, U256>,
    /// Holders asked about whose LP could not be counted (too many V3
    /// positions, or no position manager configured).
    pub lp_uncounted: Vec<Address>,
}

impl PoolState {
    /// LP tokens `holder` has (zero when it was not asked about).
    pub fn lp_of(&self, holder: Address) -> U256 {
        self.lp_balances.get(&holder).copied().unwrap_or_default()
    }

    /// LP `holder` has; None when it could not be counted.
    pub fn lp_counted(&self, holder: Address) -> Option<U256> {
        (!self.lp_uncounted.contains(&holder)).then(|| self.lp_of(holder))
    }

    /// Whether it can trade: both reserves, and (V3) liquidity at the price.
    pub fn is_live(&self) -> bool {
        !self.reserve_base.is_zero() && !self.reserve_quote.is_zero() && !self.lp_supply.is_zero()
    }

    /// The base's price in whole quote units.
    pub fn price(&self, base_decimals: u8) -> f64 {
        self.price_raw * 10f64.powi(i32::from(base_decimals) - i32::from(self.pair.quote.decimals))
    }
}

type PairReads = (
    Pair,
    Call<IUniswapV2Pair::getReservesCall>,
    Call<IUniswapV2Pair::totalSupplyCall>,
    Vec<(Address, Call<IUniswapV2Pair::balanceOfCall>)>,
);

/// Step 2: reserves, LP supply and the LP balances of `lp_holders`, per pool.
pub struct PoolReads {
    pairs: Vec<PairReads>,
    concentrated: v3::Planned,
}

impl PoolReads {
    /// Add the reads of `pairs` to `calls` (V2) and `batch` (the V3 lens, at `at`).
    pub fn plan(
        pairs: &[Pair],
        lp_holders: &[Address],
        calls: &mut Multicall,
        batch: &mut Batch,
        at: &BlockTag,
    ) -> PoolReads {
        let (concentrated, pairs): (Vec<Pair>, Vec<Pair>) = pairs
            .iter()
            .cloned()
            .partition(|p| p.kind().is_concentrated());
        let pairs = pairs
            .into_iter()
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
                (pair, reserves, supply, holders)
            })
            .collect();
        PoolReads {
            pairs,
            concentrated: v3::plan(concentrated, lp_holders, at, batch),
        }
    }

    /// The states of the pools that could be read, and why some could not.
    pub fn read(
        self,
        results: &Results,
        answers: &mut Answers,
    ) -> (Vec<PoolState>, Option<String>) {
        let mut states: Vec<PoolState> = self
            .pairs
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
                let base = units(reserve_base, 0);
                let quote = units(reserve_quote, 0);
                Some(PoolState {
                    price_raw: if base > 0.0 { quote / base } else { 0.0 },
                    depth: Depth::constant_product(quote),
                    pair,
                    reserve_base,
                    reserve_quote,
                    lp_supply: results.get(supply).unwrap_or_default(),
                    lp_balances,
                    lp_uncounted: Vec::new(),
                })
            })
            .collect();
        let gap = match self.concentrated.take(answers) {
            Ok(more) => {
                states.extend(more);
                None
            }
            Err(reason) => Some(reason),
        };
        (states, gap)
    }
}

/// The wrapped native's USD price from the deepest of its stablecoin
/// pools (deepest by stablecoin within 2% of the price); None without one.
pub fn native_price(chain: &EvmChain, price_pools: &[PoolState]) -> Option<f64> {
    let mut best: Option<(f64, f64)> = None;
    for pool in price_pools.iter().filter(|p| p.is_live()) {
        let depth = pool.depth.total() / 10f64.powi(i32::from(pool.pair.quote.decimals));
        if best.is_none_or(|(deepest, _)| depth > deepest) {
            best = Some((depth, pool.price(chain.wrapped.decimals)));
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
    let mut batch = Batch::new();
    let reads = PoolReads::plan(&found.price, &[], &mut calls, &mut batch, &BlockTag::Latest);
    let pending = calls.into_batch(&mut batch, chain.multicall, &BlockTag::Latest);
    let mut answers = rpc.send(batch).await?;
    let (states, _) = reads.read(&pending.take(&mut answers)?, &mut answers);
    Ok(native_price(chain, &states))
}
