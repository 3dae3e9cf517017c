//! Pricing: the wrapped native in USD from its deepest stablecoin pool
//! (of any family), and the USD price of every quote asset — stablecoins
//! cross-checked against their own pools, native currency (a V4 pool's
//! quote) at the wrapped native's price.

use std::collections::HashMap;

use alloy_primitives::Address;

use super::{PairLookup, PoolReads, PoolState};
use crate::evm::multicall::Multicall;
use crate::evm::types::BlockTag;
use crate::evm::{EvmChain, Quote};
use crate::rpc::{Batch, RpcClient, RpcError};

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

/// USD prices of the quote assets: the wrapped native (and native
/// currency, the zero address) from `native` when known, and each stablecoin at $1 — unless its own deepest pool with the
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
    prices.insert(Address::ZERO, native);
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
    use crate::depth::Depth;
    use crate::evm::pools::Pair;
    use crate::evm::Dex;
    use crate::DexKind;
    use alloy_primitives::U256;

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
                v4: None,
                stable: false,
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
