//! Pools: finding a token's pools on every configured DEX (Uniswap-V2-style
//! pairs, V3-style pools in every fee tier: `v3`, Uniswap V4 pools in the
//! singleton PoolManager: `v4`, Solidly-style volatile and stable pools:
//! `solidly`), reading their reserves, depth and LP
//! holdings, and pricing (`pricing`, the one pricing routine of the
//! service). Each step adds its calls to a [`Multicall`] (and a pool-lens
//! call to the caller's batch) so a caller can ride them in its own round trips.

pub mod depth;
pub mod events;
pub mod pricing;
pub mod solidly;
pub mod v3;
pub mod v4;

use std::collections::HashMap;

use alloy_primitives::aliases::U24;
use alloy_primitives::{Address, B256, U256};

use self::depth::Depth;
pub use self::pricing::{native_price, quote_prices, read_native_price};
use self::v3::IUniswapV3Factory;
use self::v4::{IPoolManager, PoolKey};
use super::abi::{units, IUniswapV2Factory, IUniswapV2Pair};
use super::multicall::{Call, Multicall, Results};
use super::types::BlockTag;
use super::{Dex, EvmChain, Quote};
use crate::chains::rpc::{Answers, Batch};
use crate::chains::DexKind;

/// A pool of `base` with a quote asset on one DEX.
#[derive(Clone, Debug)]
pub struct Pair {
    /// The DEX.
    pub dex: Dex,
    /// The quote asset (a V4 pool's native currency: the zero address).
    pub quote: Quote,
    /// The pool's address (a V4 pool: the PoolManager's).
    pub address: Address,
    /// The other token (the analysed token, or the wrapped native — or
    /// native currency — for a price pool).
    pub base: Address,
    /// The pool's swap fee, in hundredths of a basis point (a V3 fee tier;
    /// a V2 DEX's fee × 100).
    pub fee: u32,
    /// A V4 pool's key.
    pub v4: Option<PoolKey>,
    /// A Solidly-style stable pool (x³y + y³x = k).
    pub stable: bool,
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

    /// A V4 pool's id.
    pub fn pool_id(&self) -> Option<B256> {
        self.v4.map(|k| k.id())
    }

    /// The pool as the API names it: its address (checksummed), a V4
    /// pool's id (0x and 64 lower-case hex digits).
    pub fn name(&self) -> String {
        match self.pool_id() {
            Some(id) => format!("{id:#x}"),
            None => self.address.to_checksum(None),
        }
    }

    /// The pool as the market index keys it: its address in lower-case
    /// hex, a V4 pool's id.
    pub fn index_key(&self) -> String {
        match self.pool_id() {
            Some(id) => format!("{id:#x}"),
            None => format!("{:#x}", self.address),
        }
    }
}

/// A V4 pool known from the market index's `Initialize` events (pools
/// with a hook cannot be found by key), on the DEX named `dex`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownPool {
    /// The DEX, as configured.
    pub dex: String,
    /// The pool's key.
    pub key: PoolKey,
}

/// How one pool is looked for.
enum Lookup {
    V2(Call<IUniswapV2Factory::getPairCall>),
    V3(Call<IUniswapV3Factory::getPoolCall>),
    /// A V4 pool's price word: zero when there is no such pool.
    V4(PoolKey, Call<IPoolManager::extsloadCall>),
    Solidly(solidly::Lookup),
}

/// A pool looked for.
struct Looked {
    dex: Dex,
    base: Address,
    quote: Quote,
    fee: u32,
    stable: bool,
    lookup: Lookup,
}

/// Add the lookups of `base`'s pools with `quote` on `dex` to `calls`.
fn look_up(dex: &Dex, base: Address, quote: &Quote, calls: &mut Multicall, into: &mut Vec<Looked>) {
    let mut add = |fee: u32, lookup: Lookup| {
        let stable = matches!(&lookup, Lookup::Solidly(l) if l.stable());
        into.push(Looked {
            dex: dex.clone(),
            base,
            quote: quote.clone(),
            fee,
            stable,
            lookup,
        })
    };
    match dex.kind {
        DexKind::V2 => {
            let call = IUniswapV2Factory::getPairCall {
                tokenA: base,
                tokenB: quote.address,
            };
            add(dex.fee_bps * 100, Lookup::V2(calls.add(dex.factory, call)));
        }
        DexKind::V3 | DexKind::PancakeV3 => {
            for fee in &dex.fee_tiers {
                let call = IUniswapV3Factory::getPoolCall {
                    tokenA: base,
                    tokenB: quote.address,
                    fee: U24::from(*fee),
                };
                add(*fee, Lookup::V3(calls.add(dex.factory, call)));
            }
        }
        DexKind::V4 => {
            for fee in &dex.fee_tiers {
                let Some(spacing) = v4::standard_spacing(*fee) else {
                    continue;
                };
                let key = PoolKey::new(base, quote.address, *fee, spacing, Address::ZERO);
                add(*fee, look_up_v4(dex, key, calls));
            }
        }
        DexKind::Aerodrome | DexKind::Solidly => {
            for stable in [false, true] {
                let lookup = solidly::Lookup::plan(
                    dex.kind,
                    dex.factory,
                    base,
                    quote.address,
                    stable,
                    calls,
                );
                add(dex.fee_bps * 100, Lookup::Solidly(lookup));
            }
        }
    }
}

fn look_up_v4(dex: &Dex, key: PoolKey, calls: &mut Multicall) -> Lookup {
    let call = IPoolManager::extsloadCall {
        slot: key.state_slot(),
    };
    Lookup::V4(key, calls.add(dex.factory, call))
}

/// The quote assets pools of `dex` are looked for in: a V4 pool's may be
/// native currency too.
fn quotes_of(chain: &EvmChain, dex: &Dex) -> Vec<Quote> {
    let mut quotes: Vec<Quote> = chain.quotes().cloned().collect();
    if dex.kind == DexKind::V4 {
        quotes.push(chain.native());
    }
    quotes
}

/// Step 1: the pools of a token with every quote asset on every DEX, and
/// of the wrapped native (and native currency) with every stablecoin (its price pools).
pub struct PairLookup {
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
    /// Add the lookups for `token` to `calls`: by address or key on every
    /// DEX, and the V4 pools in `known` (found by the market index).
    pub fn plan(
        chain: &EvmChain,
        token: Address,
        known: &[KnownPool],
        calls: &mut Multicall,
    ) -> PairLookup {
        let mut lookup = PairLookup::price_only(chain, calls);
        for dex in &chain.dexes {
            for quote in quotes_of(chain, dex).iter().filter(|q| q.address != token) {
                look_up(dex, token, quote, calls, &mut lookup.token_pairs);
            }
        }
        for pool in known {
            let Some(dex) = chain
                .dexes
                .iter()
                .find(|d| d.kind == DexKind::V4 && d.name == pool.dex)
            else {
                continue;
            };
            let key = pool.key;
            let other = if key.currency0 == token {
                key.currency1
            } else {
                key.currency0
            };
            let quote = quotes_of(chain, dex)
                .into_iter()
                .find(|q| q.address == other);
            let looked_for = lookup
                .token_pairs
                .iter()
                .any(|l| matches!(&l.lookup, Lookup::V4(k, _) if *k == key));
            if let (Some(quote), false) = (quote, looked_for) {
                let lookup_v4 = look_up_v4(dex, key, calls);
                lookup.token_pairs.push(Looked {
                    dex: dex.clone(),
                    base: token,
                    quote,
                    fee: key.fixed_fee().unwrap_or(0),
                    stable: false,
                    lookup: lookup_v4,
                });
            }
        }
        lookup
    }

    /// Add only the wrapped native's price-pool lookups to `calls`.
    pub fn price_only(chain: &EvmChain, calls: &mut Multicall) -> PairLookup {
        let mut price_pairs = Vec::new();
        for dex in &chain.dexes {
            let mut bases = vec![chain.wrapped.address];
            if dex.kind == DexKind::V4 {
                bases.push(Address::ZERO);
            }
            for base in bases {
                for stable in &chain.stables {
                    look_up(dex, base, stable, calls, &mut price_pairs);
                }
            }
        }
        PairLookup {
            token_pairs: Vec::new(),
            price_pairs,
        }
    }

    /// The pools that exist.
    pub fn found(self, results: &Results) -> FoundPairs {
        let exists = |list: Vec<Looked>| -> Vec<Pair> {
            list.into_iter()
                .filter_map(|looked| {
                    let (address, v4) = match looked.lookup {
                        Lookup::V2(call) => (results.get(call)?, None),
                        Lookup::V3(call) => (results.get(call)?, None),
                        Lookup::Solidly(lookup) => (lookup.found(results)?, None),
                        Lookup::V4(key, call) => {
                            let price = results.get(call)?;
                            (!price.is_zero()).then_some((looked.dex.factory, Some(key)))?
                        }
                    };
                    (!address.is_zero()).then_some(Pair {
                        dex: looked.dex,
                        quote: looked.quote,
                        address,
                        base: looked.base,
                        fee: looked.fee,
                        v4,
                        stable: looked.stable,
                    })
                })
                .collect()
        };
        FoundPairs {
            token: exists(self.token_pairs),
            price: exists(self.price_pairs),
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

    /// The quote a concentrated pool's active liquidity holds at its price
    /// (raw units): what a constant-product pool as deep would hold, L·√P.
    pub fn active_quote(&self) -> f64 {
        units(self.lp_supply, 0) * self.price_raw.max(0.0).sqrt()
    }

    /// The base's price in whole quote units.
    pub fn price(&self, base_decimals: u8) -> f64 {
        self.price_raw * 10f64.powi(i32::from(base_decimals) - i32::from(self.pair.quote.decimals))
    }
}

/// An ERC-20 LP pool's reads: a V2 pair's reserves, or a Solidly-style
/// pool's metadata and fee; its LP supply and holders' balances.
struct PairReads {
    pair: Pair,
    reserves: ReserveReads,
    supply: Call<IUniswapV2Pair::totalSupplyCall>,
    holders: Vec<(Address, Call<IUniswapV2Pair::balanceOfCall>)>,
}

enum ReserveReads {
    V2(Call<IUniswapV2Pair::getReservesCall>),
    Solidly(solidly::Reads),
}

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
                let reserves = if pair.kind().is_solidly() {
                    ReserveReads::Solidly(solidly::Reads::plan(&pair, calls))
                } else {
                    ReserveReads::V2(calls.add(pair.address, IUniswapV2Pair::getReservesCall {}))
                };
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
                PairReads {
                    pair,
                    reserves,
                    supply,
                    holders,
                }
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
            .filter_map(|reads| {
                let PairReads {
                    mut pair,
                    reserves,
                    supply,
                    holders,
                } = reads;
                let (r0, r1, stable_scales) = match reserves {
                    ReserveReads::V2(call) => {
                        let r = results.get(call)?;
                        (U256::from(r.reserve0), U256::from(r.reserve1), None)
                    }
                    ReserveReads::Solidly(reads) => {
                        let read = reads.read(results)?;
                        // The factory's fee; the configured one where it cannot say.
                        pair.fee = read.fee_bps.unwrap_or(pair.dex.fee_bps) * 100;
                        let (r0, r1) = read.reserves;
                        (r0, r1, read.stable.then_some(read.scales))
                    }
                };
                let base_is_token0 = pair.base_is_token0();
                let (reserve_base, reserve_quote) =
                    if base_is_token0 { (r0, r1) } else { (r1, r0) };
                let lp_balances = holders
                    .into_iter()
                    .map(|(h, call)| (h, results.get(call).unwrap_or_default()))
                    .collect();
                let base = units(reserve_base, 0);
                let quote = units(reserve_quote, 0);
                let (price_raw, depth) = match stable_scales {
                    Some((scale0, scale1)) => {
                        let (base_scale, quote_scale) = if base_is_token0 {
                            (scale0, scale1)
                        } else {
                            (scale1, scale0)
                        };
                        solidly::stable((base, base_scale), (quote, quote_scale))
                    }
                    None => (
                        if base > 0.0 { quote / base } else { 0.0 },
                        Depth::constant_product(quote),
                    ),
                };
                Some(PoolState {
                    price_raw,
                    depth,
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

/// What one holder known only late (the creator) has of each pool's LP:
/// a pair's `balanceOf`, a V3-style pool's position NFTs through the lens.
pub struct HolderLp {
    holder: Address,
    pairs: Vec<(Address, Call<IUniswapV2Pair::balanceOfCall>)>,
    concentrated: v3::Planned,
}

impl HolderLp {
    /// Add the reads of `holder`'s LP in `pairs` to `calls` and `batch`.
    pub fn plan(
        pairs: &[Pair],
        holder: Address,
        calls: &mut Multicall,
        batch: &mut Batch,
        at: &BlockTag,
    ) -> HolderLp {
        let (concentrated, pairs): (Vec<Pair>, Vec<Pair>) = pairs
            .iter()
            .cloned()
            .partition(|p| p.kind().is_concentrated());
        HolderLp {
            holder,
            pairs: pairs
                .iter()
                .map(|p| {
                    (
                        p.address,
                        calls.add(p.address, IUniswapV2Pair::balanceOfCall { holder }),
                    )
                })
                .collect(),
            concentrated: v3::plan(concentrated, &[holder], at, batch),
        }
    }

    /// The holder's LP by pool address, where it could be counted.
    pub fn read(self, results: &Results, answers: &mut Answers) -> HashMap<Address, U256> {
        let mut held: HashMap<Address, U256> = self
            .pairs
            .into_iter()
            .filter_map(|(pool, call)| Some((pool, results.get(call)?)))
            .collect();
        for state in self.concentrated.take(answers).unwrap_or_default() {
            if let Some(lp) = state.lp_counted(self.holder) {
                held.insert(state.pair.address, lp);
            }
        }
        held
    }
}
