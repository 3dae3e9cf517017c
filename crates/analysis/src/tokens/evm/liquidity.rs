//! Liquidity checks of an EVM token: pools and their depth in USD, the
//! price, and who can pull the liquidity (LP burned or locked, held by the
//! owner or the creator).

use alloy_primitives::{Address, U256};
use riskintel_types::{CheckId, Pool, PoolKind, Severity, SignalCategory};
use serde_json::json;

use super::facts::{share, EvmFacts};
use crate::scoring::{low_liquidity_degree, lp_unlocked_degree, pct, usd, Builder};
use riskintel_chains::evm::abi::units;
use riskintel_chains::evm::addr;
use riskintel_chains::evm::pools::v4;
use riskintel_chains::evm::DEAD;

/// What the liquidity checks found, for the metadata.
pub struct Liquidity {
    /// The pools, as reported.
    pub pools: Vec<Pool>,
    /// All priced pools together, in USD; None when none could be priced.
    pub total_usd: Option<f64>,
    /// The token's price from the deepest priced pool.
    pub price_usd: Option<f64>,
}

/// Record the liquidity checks.
pub fn assess(b: &mut Builder, facts: &EvmFacts, active_owner: Option<Address>) -> Liquidity {
    let decimals = facts.decimals.unwrap_or(18);
    let mut pools = Vec::new();
    let mut liquidity_total = 0.0;
    let mut priced_any = false;
    let mut best_price: Option<(f64, f64)> = None;
    for p in &facts.pools {
        let pair = &p.state.pair;
        let reserve_token = units(p.state.reserve_base, decimals);
        let reserve_quote = units(p.state.reserve_quote, pair.quote.decimals);
        let quote_usd = facts.quote_usd.get(&pair.quote.address).copied();
        let price = p.state.price(decimals);
        let concentrated = pair.kind().is_concentrated();
        let quote_scale = 10f64.powi(i32::from(pair.quote.decimals));
        let depth_usd = quote_usd.map(|usd| p.state.depth.total() / quote_scale * usd);
        // A V4 pool has no balances of its own (the singleton holds every
        // pool's tokens): its value locked is unknown, and its liquidity is
        // its depth alone.
        let tvl_usd = quote_usd
            .filter(|_| pair.v4.is_none())
            .map(|usd| (reserve_quote + reserve_token * price) * usd);
        // A stable pool's sides are worth what the curve prices them at:
        // its value locked, which may be far from twice its quote.
        let liquidity_usd = quote_usd.map(|usd| {
            if concentrated {
                let depth = 2.0 * p.state.depth.pair_equivalent_quote() / quote_scale * usd;
                tvl_usd.map_or(depth, |tvl| depth.min(tvl))
            } else if pair.stable {
                tvl_usd.unwrap_or_default()
            } else {
                2.0 * reserve_quote * usd
            }
        });
        if let (Some(l), Some(usd)) = (liquidity_usd, quote_usd) {
            priced_any = true;
            liquidity_total += l;
            if p.state.is_live() && price > 0.0 && best_price.is_none_or(|(depth, _)| l > depth) {
                best_price = Some((l, price * usd));
            }
        }
        // LP whose holders could not be counted (V3 positions without a
        // position manager to read) has no burned or locked share: unknown.
        let counted = p.state.lp_counted(DEAD).is_some();
        let lp_share = |held: U256| {
            (counted && !p.state.lp_supply.is_zero()).then(|| share(held, p.state.lp_supply))
        };
        pools.push(Pool {
            dex: pair.dex.name.clone(),
            kind: if concentrated {
                PoolKind::Concentrated
            } else if pair.stable {
                PoolKind::Stable
            } else {
                PoolKind::ConstantProduct
            },
            fee_bps: Some(f64::from(pair.fee) / 100.0),
            address: pair.name(),
            hook: pair
                .v4
                .filter(|k| !k.hooks.is_zero())
                .map(|k| addr(&k.hooks)),
            hook_flags: pair
                .v4
                .map(|k| {
                    v4::HookFlags::of(k.hooks)
                        .names()
                        .into_iter()
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default(),
            quote_address: addr(&pair.quote.address),
            quote_symbol: pair.quote.symbol.clone(),
            reserve_token,
            reserve_quote,
            liquidity_usd,
            depth_2pct_usd: depth_usd,
            tvl_usd,
            lp_burned_share: lp_share(p.lp_burned),
            lp_locked_share: lp_share(p.lp_burned + p.lp_locked),
            lp_owner_share: p.lp_owner.and_then(lp_share),
            lp_creator_share: p.lp_creator.and_then(lp_share),
            curve_progress: None,
        });
    }
    let price_usd = best_price.map(|(_, p)| p);
    let pools_rpc = "eth_call getPair / getPool / getReserves / metadata / getFee / PoolManager.extsload via Multicall3; V3-style and V4 pools through the pool lens (slot0, liquidity, ticks, balances)";
    let live_pools: Vec<&Pool> = pools
        .iter()
        .zip(&facts.pools)
        .filter_map(|(p, f)| f.state.is_live().then_some(p))
        .collect();
    if live_pools.is_empty() && facts.pool_gap.is_some() {
        let reason = facts.pool_gap.clone().unwrap_or_default();
        b.unknown(
            CheckId::NoLiquidity,
            format!("some pools could not be read: {reason}"),
        );
        b.unknown(CheckId::LowLiquidity, "some pools could not be read");
        b.unknown(CheckId::LpUnlocked, "some pools could not be read");
        b.unknown(CheckId::OwnerHoldsLp, "some pools could not be read");
        b.unknown(CheckId::CreatorHoldsLp, "some pools could not be read");
    } else if live_pools.is_empty() {
        b.detected(
            CheckId::NoLiquidity,
            SignalCategory::Liquidity,
            Severity::High,
            0.4,
            "No liquidity pool",
            "No pool with reserves was found for the token on the configured DEXes, so it cannot be sold there.".into(),
            pools_rpc,
            json!({"pools_found": pools.len()}),
        );
        b.unknown(CheckId::LowLiquidity, "there is no pool to measure");
        b.unknown(CheckId::LpUnlocked, "there is no pool");
        b.unknown(CheckId::OwnerHoldsLp, "there is no pool");
        b.unknown(CheckId::CreatorHoldsLp, "there is no pool");
    } else {
        b.clear(CheckId::NoLiquidity);
        if !priced_any {
            b.unknown(
                CheckId::LowLiquidity,
                facts
                    .pricing_gap
                    .clone()
                    .unwrap_or_else(|| "the pools' quote assets have no USD price".into()),
            );
        } else if let Some((severity, weight)) = low_liquidity_degree(liquidity_total) {
            b.detected(
                CheckId::LowLiquidity,
                SignalCategory::Liquidity,
                severity,
                weight,
                "Low liquidity",
                format!("All pools together hold {} of liquidity; selling a meaningful amount will move the price a lot.", usd(liquidity_total)),
                pools_rpc,
                json!({"liquidity_usd": liquidity_total, "pools": live_pools.len()}),
            );
        } else {
            b.clear(CheckId::LowLiquidity);
        }
        // LP lock and owner LP on the deepest pool.
        let deepest = live_pools
            .iter()
            .max_by(|a, c| {
                a.liquidity_usd
                    .unwrap_or(a.reserve_quote)
                    .total_cmp(&c.liquidity_usd.unwrap_or(c.reserve_quote))
            })
            .expect("non-empty");
        let deepest_is_v4 = facts
            .pools
            .iter()
            .any(|f| f.state.pair.v4.is_some() && f.state.pair.name() == deepest.address);
        let young = facts.age_seconds().is_some_and(|age| age < 7 * 86_400);
        match deepest
            .lp_locked_share
            .map(|l| (l, lp_unlocked_degree(l, young)))
        {
            Some((burned, Some((severity, weight)))) => {
                b.detected(
                    CheckId::LpUnlocked,
                    SignalCategory::Liquidity,
                    severity,
                    weight,
                    "Liquidity can be withdrawn",
                    format!(
                        "Only {} of the LP tokens of the {} pool are burned or locked; whoever holds the rest can remove that liquidity.",
                        pct(burned),
                        deepest.dex
                    ),
                    "eth_call pair.balanceOf(0x…dEaD, 0x0, lockers) / pair.totalSupply() via Multicall3",
                    json!({"pair": deepest.address, "lp_burned_share": deepest.lp_burned_share, "lp_locked_share": burned}),
                );
            }
            Some(_) => b.clear(CheckId::LpUnlocked),
            None if deepest_is_v4 => b.unknown(
                CheckId::LpUnlocked,
                format!("the {} pool is a Uniswap V4 pool, whose positions cannot be listed by holder", deepest.dex),
            ),
            None if deepest.kind == PoolKind::Concentrated => b.unknown(
                CheckId::LpUnlocked,
                format!("who holds the {} pool's positions could not be read (no position manager configured, or too many positions to count)", deepest.dex),
            ),
            None => b.unknown(CheckId::LpUnlocked, "the pool's LP supply is zero"),
        }
        match (active_owner, deepest.lp_owner_share) {
            (Some(owner), Some(owner_share)) if owner_share > 0.05 => b.detected(
                CheckId::OwnerHoldsLp,
                SignalCategory::Liquidity,
                Severity::High,
                0.25,
                "Owner holds LP tokens",
                format!("The owner {} holds {} of the {} pool's LP tokens and can pull that liquidity.", addr(&owner), pct(owner_share), deepest.dex),
                "eth_call pair.balanceOf(owner) via Multicall3",
                json!({"pair": deepest.address, "owner": addr(&owner), "lp_owner_share": owner_share}),
            ),
            _ => b.clear(CheckId::OwnerHoldsLp),
        }
        match (facts.index.creator, deepest.lp_creator_share) {
            // The owner's LP is reported by owner_holds_lp.
            (Some(creator), _) if Some(creator) == active_owner => b.clear(CheckId::CreatorHoldsLp),
            (Some(creator), Some(creator_share)) if creator_share > 0.05 => b.detected(
                CheckId::CreatorHoldsLp,
                SignalCategory::Liquidity,
                Severity::High,
                0.25,
                "Creator holds LP tokens",
                format!(
                    "The creator {} (who received the first mint) holds {} of the {} pool's LP tokens and can pull that liquidity.",
                    addr(&creator),
                    pct(creator_share),
                    deepest.dex
                ),
                "eth_getLogs(first mint), eth_call pair.balanceOf(creator) via Multicall3",
                json!({"pair": deepest.address, "creator": addr(&creator), "lp_creator_share": creator_share}),
            ),
            (Some(_), _) => b.clear(CheckId::CreatorHoldsLp),
            (None, _) => b.unknown(
                CheckId::CreatorHoldsLp,
                facts.index.incomplete_reason.clone().unwrap_or_else(|| "the token's first mint was not found".into()),
            ),
        }
    }
    Liquidity {
        pools,
        total_usd: priced_any.then_some(liquidity_total),
        price_usd,
    }
}
