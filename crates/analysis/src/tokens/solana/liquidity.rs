//! A Solana mint's liquidity: SOL priced from several pools, every pool of
//! the mint valued in US dollars, and the liquidity signals — no or low
//! liquidity, LP that can be withdrawn, LP held by the mint authority or
//! the pool's creator, a token still on its bonding curve, families that
//! could not be searched.

use std::collections::HashMap;

use riskintel_types::{CheckId, Pool, Severity, SignalCategory};
use serde_json::{json, Value};

use super::facts::SolanaFacts;
use crate::scoring::{low_liquidity_degree, lp_unlocked_degree, pct, Builder};
use riskintel_chains::rpc::{RpcClient, RpcError};
use riskintel_chains::solana::pools::{positions, Accounts, Family, PoolState, Valued};
use riskintel_chains::solana::types::{Account, WithContext};
use riskintel_chains::solana::{self as sol, Pubkey, SolanaChain};

/// LP share above which a holder "holds LP".
const LP_HOLDER_SHARE: f64 = 0.05;

/// What the liquidity part of an analysis found.
pub struct Liquidity {
    /// Pool rows for `meta.pools`.
    pub pools: Vec<Pool>,
    /// Liquidity of every priced pool, US dollars; None when none is priced.
    pub total_usd: Option<f64>,
    /// The token's price from its deepest priced live pool.
    pub price_usd: Option<f64>,
    /// When the deepest live pool opened (unix seconds), where recorded.
    pub opened_at: Option<i64>,
}

/// SOL's price: the liquidity-weighted median of the price pools' prices,
/// with the evidence.
pub fn sol_price(chain: &SolanaChain, f: &SolanaFacts) -> Option<(f64, Value)> {
    median_price(chain, &f.price_pools, &f.accounts)
}

/// SOL's price read now through `rpc` (the market index's client): the
/// price pools, then what they name; two round trips.
pub async fn read_sol_price(chain: &SolanaChain, rpc: &RpcClient) -> Result<Option<f64>, RpcError> {
    let b64 = json!({"encoding": "base64", "commitment": "confirmed"});
    let keys: Vec<String> = chain.price_pools.iter().map(sol::encode).collect();
    let found: WithContext<Vec<Option<Account>>> =
        rpc.call("getMultipleAccounts", json!([keys, b64])).await?;
    let pools: Vec<PoolState> = (chain.price_pools.iter().zip(found.value))
        .filter_map(|(address, account)| {
            let account = account?;
            let program = sol::parse_pubkey(&account.owner).ok()?;
            chain
                .family_of(&account.owner)?
                .decode(program, *address, &account.data)
        })
        .collect();
    let wanted: Vec<Pubkey> = pools.iter().flat_map(|p| p.reads()).collect();
    let mut accounts = Accounts::default();
    for chunk in riskintel_chains::solana::pools::chunks(&wanted, 100) {
        let read: WithContext<Vec<Option<Account>>> =
            rpc.call("getMultipleAccounts", json!([chunk, b64])).await?;
        for (key, account) in chunk.iter().zip(read.value) {
            if let (Ok(key), Some(account)) = (sol::parse_pubkey(key), account) {
                accounts.insert(key, account);
            }
        }
    }
    Ok(median_price(chain, &pools, &accounts).map(|(price, _)| price))
}

fn median_price(
    chain: &SolanaChain,
    pools: &[PoolState],
    accounts: &Accounts,
) -> Option<(f64, Value)> {
    let mut quotes: Vec<(f64, f64, String)> = pools
        .iter()
        .filter_map(|p| {
            let v = p.value(&chain.wsol, accounts)?;
            let stable = chain.stables.iter().any(|(s, _)| *s == v.quote);
            (stable && v.price > 0.0 && v.liquidity > 0.0)
                .then(|| (v.price, v.liquidity, sol::encode(&p.address)))
        })
        .collect();
    quotes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let half = quotes.iter().map(|q| q.1).sum::<f64>() / 2.0;
    let mut running = 0.0;
    let median = quotes.iter().find(|q| {
        running += q.1;
        running >= half
    })?;
    let evidence = json!({
        "sol_usd": median.0,
        "pools": quotes.iter().map(|q| json!({"pool": q.2, "price": q.0, "liquidity_usd": q.1})).collect::<Vec<_>>(),
    });
    Some((median.0, evidence))
}

fn share(held: Option<u64>, supply: Option<u64>) -> Option<f64> {
    match (held, supply) {
        (Some(h), Some(s)) if s > 0 => Some(h as f64 / s as f64),
        (None, Some(_)) => Some(0.0),
        _ => None,
    }
}

/// What a pool with an LP mint counts as issued and redeemable: the pool's
/// own count (CPMM `lp_supply`, AMM v4 `lp_amount`, PumpSwap `lp_supply`),
/// against which it pays LP out. LP burned through the token program lowers
/// the LP mint's supply but not that count, so a share of the mint's supply
/// would overstate every holder. The mint's supply only where the pool
/// records nothing issued.
fn redeemable(pool: &PoolState, v: &Valued) -> Option<u64> {
    match &pool.lp {
        Some(lp) if lp.issued > 0 => Some(lp.issued),
        _ => v.lp_supply,
    }
}

/// The LP of `pool` held by `holder`: of an LP mint, its associated LP
/// account as a share of what the pool issued; of positions, those whose
/// NFT it holds or that name it as owner, as a share of the liquidity near
/// the price.
fn lp_share(f: &SolanaFacts, pool: &PoolState, v: &Valued, holder: Option<Pubkey>) -> Option<f64> {
    let holder = holder?;
    match &pool.lp {
        Some(lp) => {
            let account = sol::associated_token_address(&holder, &lp.mint, sol::TOKEN_PROGRAM)?;
            share(f.token_amount(&account), redeemable(pool, v))
        }
        None => {
            let list = f.positions.get(&pool.address).filter(|l| !l.is_empty())?;
            let held = f.held_mints.get(&holder);
            positions::share(pool, list, &f.accounts, |p| {
                p.owner == Some(holder)
                    || p.nft.is_some_and(|n| held.is_some_and(|h| h.contains(&n)))
            })
        }
    }
}

/// The share of `pool`'s liquidity that cannot be withdrawn: a curve's
/// all; of an LP mint, the burned share and what the configured lockers
/// hold, of what the pool issued (burned alone where the lockers could not
/// be read); of positions, the locked ones (None when none was listed:
/// liquidity without positions means the listing missed them).
fn locked_share(f: &SolanaFacts, pool: &PoolState, v: &Valued) -> Option<f64> {
    if pool.lp.is_some() {
        let lockers = f.locked_lp.get(&pool.address).copied().flatten();
        let by_lockers = share(lockers, redeemable(pool, v)).unwrap_or(0.0);
        return v.lp_burned.map(|burned| (burned + by_lockers).min(1.0));
    }
    if v.lp_locked.is_some() {
        return v.lp_locked;
    }
    let list = f.positions.get(&pool.address).filter(|l| !l.is_empty())?;
    positions::share(pool, list, &f.accounts, |p| p.locked)
}

struct Row<'a> {
    pool: &'a PoolState,
    value: Valued,
    row: Pool,
}

/// Value the pools and record the liquidity signals.
pub fn assess(
    chain: &SolanaChain,
    f: &SolanaFacts,
    usd: &HashMap<Pubkey, f64>,
    young: bool,
    b: &mut Builder,
) -> Liquidity {
    let mint = f.mint_address;
    let mut rows: Vec<Row> = Vec::new();
    for pool in &f.pools {
        let Some(value) = pool.value(&mint, &f.accounts) else {
            continue;
        };
        let quote_usd = usd.get(&value.quote).copied();
        let row = Pool {
            dex: chain.dex_name(pool.family),
            kind: value.kind,
            fee_bps: value.fee_bps,
            address: sol::encode(&pool.address),
            hook: None,
            hook_flags: Vec::new(),
            quote_address: sol::encode(&value.quote),
            quote_symbol: chain.symbol_of(&value.quote),
            reserve_token: value.reserve_token,
            reserve_quote: value.reserve_quote,
            liquidity_usd: quote_usd.map(|u| value.liquidity * u),
            depth_2pct_usd: quote_usd.map(|u| value.depth.total() * u),
            tvl_usd: quote_usd.map(|u| value.tvl * u),
            lp_burned_share: value.lp_burned,
            lp_locked_share: locked_share(f, pool, &value),
            lp_owner_share: lp_share(f, pool, &value, f.owner()),
            lp_creator_share: lp_share(f, pool, &value, pool.creator),
            curve_progress: value.curve.as_ref().and_then(|c| {
                if c.complete {
                    Some(1.0)
                } else {
                    c.sold
                }
            }),
        };
        rows.push(Row { pool, value, row });
    }
    let live: Vec<&Row> = rows.iter().filter(|r| r.value.is_live()).collect();
    let priced: Vec<&Row> = live
        .iter()
        .copied()
        .filter(|r| r.row.liquidity_usd.is_some())
        .collect();
    let total_usd = (!priced.is_empty()).then(|| {
        priced
            .iter()
            .filter_map(|r| r.row.liquidity_usd)
            .sum::<f64>()
    });
    let deepest = priced
        .iter()
        .copied()
        .filter(|r| r.value.price > 0.0)
        .max_by(|a, c| {
            let (x, y) = (a.row.liquidity_usd, c.row.liquidity_usd);
            x.unwrap_or(0.0).total_cmp(&y.unwrap_or(0.0))
        });
    let price_usd = deepest.and_then(|r| Some(r.value.price * usd.get(&r.value.quote)?));
    let opened_at = deepest.and_then(|r| r.pool.opened_at);
    let searched: Vec<&str> = chain.dexes.iter().map(|d| d.family.slug()).collect();
    let pools_rpc = "getProgramAccounts(pool programs, memcmp mint), getMultipleAccounts(curve and canonical pool PDAs; vaults, LP mints, fee configs, tick and bin arrays)";

    // Families: which could not be searched, which are not configured.
    let failed: Vec<Value> = f
        .families_failed
        .iter()
        .map(|(family, e)| json!({"family": family.slug(), "error": e}))
        .collect();
    let unconfigured: Vec<&str> = Family::ALL
        .iter()
        .filter(|fam| chain.dex(**fam).is_none())
        .map(|fam| fam.slug())
        .collect();
    if !failed.is_empty() {
        b.unknown(
            CheckId::OtherAmmPools,
            format!("pools could not be searched ({failed:?}); public nodes often refuse getProgramAccounts"),
        );
    } else if !unconfigured.is_empty() {
        b.unknown(
            CheckId::OtherAmmPools,
            format!(
                "pools of {} are not searched (not configured)",
                unconfigured.join(", ")
            ),
        );
    } else {
        b.clear(CheckId::OtherAmmPools);
    }

    if live.is_empty() {
        if rows.is_empty() && !failed.is_empty() {
            let reason = "pool discovery failed, so whether the mint has liquidity is unknown";
            for id in [
                CheckId::NoLiquidity,
                CheckId::LowLiquidity,
                CheckId::LpUnlocked,
            ] {
                b.unknown(id, reason);
            }
        } else {
            b.detected(
                CheckId::NoLiquidity,
                SignalCategory::Liquidity,
                Severity::High,
                0.4,
                "No liquidity pool",
                format!("No pool or bonding curve with reserves was found for this mint in {}.", searched.join(", ")),
                pools_rpc,
                json!({"pools_found": f.pools.len(), "families_searched": searched, "families_failed": failed}),
            );
            b.unknown(CheckId::LowLiquidity, "there is no pool to measure");
            b.unknown(CheckId::LpUnlocked, "there is no pool");
        }
        b.clear(CheckId::OwnerHoldsLp);
        b.clear(CheckId::CreatorHoldsLp);
    } else {
        b.clear(CheckId::NoLiquidity);
        match total_usd {
            None => b.unknown(CheckId::LowLiquidity, "the pools' quote tokens have no USD price (no SOL price pool is configured or readable)"),
            Some(total) => match low_liquidity_degree(total) {
                Some((severity, weight)) => b.detected(
                    CheckId::LowLiquidity,
                    SignalCategory::Liquidity,
                    severity,
                    weight,
                    "Low liquidity",
                    format!("The mint's {} live pools hold ${total:.2} of liquidity.", priced.len()),
                    pools_rpc,
                    json!({"liquidity_usd": total, "pools": priced.iter().map(|r| json!({"pool": r.row.address, "dex": r.row.dex, "liquidity_usd": r.row.liquidity_usd})).collect::<Vec<_>>()}),
                ),
                None => b.clear(CheckId::LowLiquidity),
            },
        }
        let deepest = deepest
            .or_else(|| live.first().copied())
            .expect("non-empty");
        lp_signals(f, deepest, young, pools_rpc, b);
    }

    // A token still sold by its bonding curve.
    let curve = rows.iter().find(|r| r.value.curve.is_some());
    match curve.and_then(|r| Some((r, r.value.curve.as_ref()?))) {
        Some((r, progress)) if !progress.complete => {
            let sold = progress
                .sold
                .map(pct)
                .unwrap_or_else(|| "an unknown share".into());
            b.detected(
                CheckId::BondingCurveActive,
                SignalCategory::Liquidity,
                Severity::Low,
                0.05,
                "Still on its bonding curve",
                format!(
                    "The token is still sold by its {} bonding curve ({sold} of the curve sold); it has not graduated to a pool, and its price is the curve's.",
                    r.row.dex
                ),
                "getAccountInfo(bonding curve PDA), getMultipleAccounts(Global)",
                json!({"curve": r.row.address, "progress": progress.sold, "complete": false, "creator": r.pool.creator.map(|c| sol::encode(&c)), "real_quote": r.value.reserve_quote, "real_token": r.value.reserve_token}),
            );
        }
        _ => b.clear(CheckId::BondingCurveActive),
    }

    Liquidity {
        pools: rows.into_iter().map(|r| r.row).collect(),
        total_usd,
        price_usd,
        opened_at,
    }
}

/// LP that can be withdrawn, and LP in the mint authority's or the pool
/// creator's hands, on the deepest pool.
fn lp_signals(f: &SolanaFacts, deepest: &Row, young: bool, rpc: &str, b: &mut Builder) {
    let row = &deepest.row;
    match row.lp_locked_share.map(|l| (l, lp_unlocked_degree(l, young))) {
        Some((locked, Some((severity, weight)))) => {
            b.detected(
                CheckId::LpUnlocked,
                SignalCategory::Liquidity,
                severity,
                weight,
                "Liquidity can be withdrawn",
                format!(
                    "Only {} of the LP tokens of the {} pool {} are burned or locked; whoever holds the rest can remove that liquidity.",
                    pct(locked),
                    row.dex,
                    row.address
                ),
                rpc,
                json!({"pool": row.address, "lp_mint": deepest.pool.lp.as_ref().map(|l| sol::encode(&l.mint)), "lp_issued": deepest.pool.lp.as_ref().map(|l| l.issued.to_string()), "lp_supply": deepest.value.lp_supply.map(|s| s.to_string()), "lp_burned_share": row.lp_burned_share, "lp_locked_share": locked, "lp_held_by_lockers": f.locked_lp.get(&deepest.pool.address).map(|l| l.map(|l| l.to_string()))}),
            );
        }
        Some(_) => b.clear(CheckId::LpUnlocked),
        None if deepest.pool.lp.is_none() => b.unknown(
            CheckId::LpUnlocked,
            format!(
                "the {} pool's positions could not be listed (public nodes often refuse getProgramAccounts)",
                row.dex
            ),
        ),
        None => b.unknown(
            CheckId::LpUnlocked,
            "the pool's LP mint could not be read, or it has issued none",
        ),
    }
    match (f.owner(), row.lp_owner_share) {
        (Some(owner), Some(held)) if held > LP_HOLDER_SHARE => b.detected(
            CheckId::OwnerHoldsLp,
            SignalCategory::Liquidity,
            Severity::High,
            0.25,
            "Mint authority holds LP tokens",
            format!("The mint authority {} holds {} of the {} pool's LP tokens and can pull that liquidity.", sol::encode(&owner), pct(held), row.dex),
            "getMultipleAccounts(associated LP account of the mint authority)",
            json!({"pool": row.address, "owner": sol::encode(&owner), "lp_owner_share": held}),
        ),
        _ => b.clear(CheckId::OwnerHoldsLp),
    }
    match (deepest.pool.creator, row.lp_creator_share) {
        (Some(creator), _) if Some(creator) == f.owner() => b.clear(CheckId::CreatorHoldsLp),
        (Some(creator), Some(held)) if held > LP_HOLDER_SHARE => b.detected(
            CheckId::CreatorHoldsLp,
            SignalCategory::Liquidity,
            Severity::High,
            0.25,
            "Pool creator holds LP tokens",
            format!("The pool's creator {} holds {} of the {} pool's LP tokens and can pull that liquidity.", sol::encode(&creator), pct(held), row.dex),
            "getMultipleAccounts(pool: creator; its associated LP account)",
            json!({"pool": row.address, "creator": sol::encode(&creator), "lp_creator_share": held}),
        ),
        (Some(_), _) => b.clear(CheckId::CreatorHoldsLp),
        (None, _) => b.unknown(
            CheckId::CreatorHoldsLp,
            format!("the {} pool does not record who created it", row.dex),
        ),
    }
}
