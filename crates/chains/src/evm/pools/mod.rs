//! Pools: finding a token's pools on every configured DEX (Uniswap-V2-style
//! pairs, V3-style pools in every fee tier: `v3`, Uniswap V4 pools in the
//! singleton PoolManager: `v4`, Solidly-style volatile and stable pools:
//! `solidly`), reading their reserves, depth and LP
//! holdings, and pricing (`pricing`, the one pricing routine of the
//! service). Each step adds its calls to a [`Multicall`] (and a pool-lens
//! call to the caller's batch) so a caller can ride them in its own round trips.

pub mod events;
pub mod pricing;
mod reads;
pub mod solidly;
pub mod v3;
pub mod v4;

use std::collections::HashMap;

use alloy_primitives::aliases::U24;
use alloy_primitives::{Address, B256, U256};

pub use self::pricing::{native_price, quote_prices, read_native_price};
pub use self::reads::{HolderLp, PoolReads};
use self::v3::IUniswapV3Factory;
use self::v4::{IPoolManager, PoolKey};
use super::abi::{units, IUniswapV2Factory};
use super::multicall::{Call, Multicall, Results};
use super::{Dex, EvmChain, Quote};
use crate::depth::Depth;
use crate::DexKind;

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
        // Refused when the configuration is read (`Dex::from_config`).
        _ => {}
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
