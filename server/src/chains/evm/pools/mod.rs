//! Pools: finding a token's pools on every configured DEX (Uniswap-V2-style
//! pairs, and V3-style pools in every fee tier: `v3`), reading their
//! reserves, depth and LP holdings, and pricing the wrapped native in USD
//! through its deepest stablecoin pool — the one pricing routine of the
//! service. Each step adds its calls to a [`Multicall`] (and a V3 lens call
//! to the caller's batch) so a caller can ride them in its own round trips.

pub mod depth;
pub mod events;
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

/// The wrapped native's USD price from the deepest of its stablecoin
/// pools (deepest by stablecoin within 2% of the price); None without one.
pub fn native_price(wrapped: &Quote, price_pools: &[PoolState]) -> Option<f64> {
    let mut best: Option<(f64, f64)> = None;
    for pool in price_pools.iter().filter(|p| p.is_live()) {
        let depth = pool.depth.total() / 10f64.powi(i32::from(pool.pair.quote.decimals));
        if best.is_none_or(|(deepest, _)| depth > deepest) {
            best = Some((depth, pool.price(wrapped.decimals)));
        }
    }
    best.map(|(_, price)| price)
}

/// USD prices of the quote assets: the wrapped native from `native` when
/// known, and each stablecoin at $1 — unless its own deepest pool with the
/// wrapped native prices the native more than 2% away from `native`: a
/// stablecoin off its peg (a drained bridge's token, say) is priced at what
/// its pool says, never taken at $1.
pub fn quote_prices(
    wrapped: &Quote,
    stables: &[Quote],
    native: Option<f64>,
    price_pools: &[PoolState],
) -> HashMap<Address, f64> {
    let mut prices: HashMap<Address, f64> = stables.iter().map(|s| (s.address, 1.0)).collect();
    let Some(native) = native else {
        return prices;
    };
    prices.insert(wrapped.address, native);
    for stable in stables {
        let deepest = price_pools
            .iter()
            .filter(|p| p.is_live() && p.pair.quote.address == stable.address)
            .max_by(|a, b| a.depth.total().total_cmp(&b.depth.total()));
        let in_stable = deepest.map_or(0.0, |p| p.price(wrapped.decimals));
        if in_stable > 0.0 {
            let usd = native / in_stable;
            if (usd - 1.0).abs() > PEG_TOLERANCE {
                prices.insert(stable.address, usd);
            }
        }
    }
    prices
}

/// How far a stablecoin may price the wrapped native from the reference
/// before it no longer counts as $1.
const PEG_TOLERANCE: f64 = 0.02;

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
    Ok(native_price(&chain.wrapped, &states))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quote(byte: u8, symbol: &str, decimals: u8) -> Quote {
        Quote {
            address: Address::repeat_byte(byte),
            symbol: symbol.into(),
            decimals,
            stable: true,
        }
    }

    /// A V2 price pool of the wrapped native (18 decimals) against `stable`.
    fn price_pool(stable: &Quote, wrapped: f64, quoted: f64) -> PoolState {
        let dex = Dex {
            name: "test".into(),
            kind: DexKind::V2,
            factory: Address::ZERO,
            router: Address::ZERO,
            fee_bps: 30,
            fee_tiers: Vec::new(),
            position_manager: None,
        };
        let (base, quote_raw) = (
            wrapped * 1e18,
            quoted * 10f64.powi(i32::from(stable.decimals)),
        );
        PoolState {
            pair: Pair {
                dex,
                quote: stable.clone(),
                address: Address::repeat_byte(0x99),
                base: Address::repeat_byte(0x01),
                fee: 3_000,
            },
            reserve_base: U256::from(base as u128),
            reserve_quote: U256::from(quote_raw as u128),
            price_raw: quote_raw / base,
            depth: Depth::constant_product(quote_raw),
            lp_supply: U256::from(1u8),
            lp_balances: HashMap::new(),
            lp_uncounted: Vec::new(),
        }
    }

    #[test]
    fn a_stablecoin_off_its_peg_is_not_taken_at_one_dollar() {
        let (good, broken) = (quote(0xaa, "USDC", 6), quote(0xbb, "mUSDC", 6));
        let wrapped = Quote {
            stable: false,
            ..quote(0x01, "WETH", 18)
        };
        let stables = [good.clone(), broken.clone()];
        // WETH = $3,000 in the deep USDC pool; the bridged token's pool says 6,000 of it.
        let pools = [
            price_pool(&good, 1_000.0, 3_000_000.0),
            price_pool(&broken, 10.0, 60_000.0),
        ];
        let native = native_price(&wrapped, &pools).expect("priced");
        assert!((native - 3_000.0).abs() < 1e-6, "{native}");
        let prices = quote_prices(&wrapped, &stables, Some(native), &pools);
        assert_eq!(prices[&good.address], 1.0);
        assert!((prices[&broken.address] - 0.5).abs() < 1e-9, "{:?}", prices);
        // Within 2% it is still a dollar.
        let pools = [
            price_pool(&good, 1_000.0, 3_000_000.0),
            price_pool(&broken, 10.0, 30_300.0),
        ];
        assert_eq!(
            quote_prices(&wrapped, &stables, Some(native), &pools)[&broken.address],
            1.0
        );
    }
}
