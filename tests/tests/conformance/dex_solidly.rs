//! Tokens whose only pool is an Aerodrome pool (the Solidly family:
//! Aerodrome's pool and factory compiled from a published copy of its
//! sources, on anvil): volatile pools found, priced, simulated and judged
//! like pairs; a stable pool priced on its own curve; new pools, swaps and
//! liquidity taken out seen by the market index — through the generated client.

use std::collections::BTreeMap;

use alloy_primitives::{Address, U256};
use anyhow::{ensure, Context as _};
use riskintel_client::types::{AlertKind, PoolKind, RiskLabel};
use riskintel_tests::rig::{self, e18, Arg, Node, RigChain};
use riskintel_tests::solidly_rig;
use riskintel_tests::{Backend, TestServer};

use super::dex_families::{
    cold_analysis, counted_server, has, near, sell_revert_honeypot, taxed_five_percent, three_buys,
    trades_untaxed, wait_for_three_buys,
};
use super::market::{fresh_chain, market_config, on_chain, wait_for};

const DEX: &str = "Rig Aerodrome";
/// The rig's WETH price ($3,000) × 10 WETH / 400,000 tokens.
const PRICE: f64 = 0.075;

/// 1 TUSD (6 decimals) in raw units × `n`.
fn usd(n: u64) -> U256 {
    U256::from(n) * U256::from(1_000_000u64)
}

/// Launch `contract` with its only pool on Aerodrome: volatile against 10
/// WETH, or stable against 400,000 TUSD (400,000 tokens either way),
/// LP to 0x…dEaD or its creator; 30 holders.
fn launch(
    node: &Node,
    chain: &RigChain,
    (contract, name, n): (&str, &str, u64),
    stable: bool,
    burned: bool,
) -> anyhow::Result<(Address, Address)> {
    let creator = node.creator(900 + n, chain.weth)?;
    let args = [
        Arg::Str(name.into()),
        Arg::Str(name.to_uppercase()),
        Arg::Uint(e18(1_000_000)),
    ];
    let token = node.deploy(creator, contract, &args)?;
    let lp_to = if burned { rig::DEAD.parse()? } else { creator };
    let pool = if stable {
        node.exec(
            chain.deployer,
            chain.usd,
            "transfer(address,uint256)",
            &[Arg::Addr(creator), Arg::Uint(usd(400_000))],
        )?;
        let (t, q) = (e18(400_000), usd(400_000));
        solidly_rig::add_pool(
            node,
            &chain.solidly,
            creator,
            token,
            t,
            chain.usd,
            q,
            true,
            lp_to,
        )?
    } else {
        let (t, q) = (e18(400_000), e18(10));
        solidly_rig::add_pool(
            node,
            &chain.solidly,
            creator,
            token,
            t,
            chain.weth,
            q,
            false,
            lp_to,
        )?
    };
    if contract != "PlainToken" {
        node.exec(creator, token, "setPair(address)", &[Arg::Addr(pool)])?;
    }
    rig::distribute(node, creator, token, 12_000 + 100 * n)?;
    Ok((token, pool))
}

conformance!(solidly_pools_are_found_priced_and_simulated);
pub async fn solidly_pools_are_found_priced_and_simulated(backend: Backend) -> anyhow::Result<()> {
    let (anvil, chain) = fresh_chain(31347).await?;
    let (tokens, stable_price) = on_chain(&chain, |node, chain| {
        let mut tokens = BTreeMap::new();
        for (what, contract, stable, burned) in [
            ("plain", "PlainToken", false, true),
            ("honeypot", "SellRevertToken", false, true),
            ("tax", "SwapTaxToken", false, false),
            ("stable", "PlainToken", true, true),
        ] {
            let n = tokens.len() as u64;
            tokens.insert(
                what,
                launch(node, chain, (contract, what, n), stable, burned)?,
            );
        }
        // Someone buys the stable token with 120,000 TUSD: the pool leaves parity.
        let (token, pool) = tokens["stable"];
        let trader = node.accounts()?[4];
        node.exec(
            chain.deployer,
            chain.usd,
            "transfer(address,uint256)",
            &[Arg::Addr(trader), Arg::Uint(usd(120_000))],
        )?;
        solidly_rig::swap_exact_input(node, trader, pool, chain.usd, usd(120_000))?;
        // The pool's own price of one token, in TUSD, its 0.05% fee added back.
        let out = solidly_rig::amount_out(node, pool, token, e18(1))?;
        let price = out.to_string().parse::<f64>()? / 1e6 / (1.0 - 0.0005);
        node.call("evm_increaseTime", serde_json::json!([30 * 86_400]))?;
        node.call("evm_mine", serde_json::json!([]))?;
        anyhow::Ok((tokens, price))
    })
    .await?;
    let (server, proxy) = counted_server(backend, &chain).await?;
    let client = server.client(&server.owner_key());
    let analyse = |what: &'static str| cold_analysis(&client, &proxy, tokens[what].0, what);

    let plain = analyse("plain").await?;
    let pool = plain.meta.pools.first().context("a pool")?;
    ensure!(
        plain.meta.pools.len() == 1
            && pool.dex == DEX
            && pool.kind == PoolKind::ConstantProduct
            && pool.address == tokens["plain"].1.to_checksum(None)
            && pool.fee_bps == Some(30.0),
        "the token's only pool is its volatile Aerodrome pool, with the factory's 0.3% fee: {:?}",
        plain.meta.pools
    );
    ensure!(
        near(plain.meta.price_usd, PRICE, 0.01),
        "price within 1% of ${PRICE}: {:?}",
        plain.meta.price_usd
    );
    ensure!(
        near(pool.liquidity_usd, 60_000.0, 0.01) && near(pool.depth_2pct_usd, 600.0, 0.02),
        "a volatile pool is as deep as a pair: liquidity {:?}, depth {:?}",
        pool.liquidity_usd,
        pool.depth_2pct_usd
    );
    let sim = plain.simulations.first().context("a simulation")?;
    ensure!(sim.dex == DEX, "simulated in the Aerodrome pool: {sim:?}");
    trades_untaxed(sim, "Aerodrome")?;
    ensure!(
        plain.label == RiskLabel::Safe && near(pool.lp_burned_share, 1.0, 0.001),
        "plain is safe, its LP burned: {:?} {:?} {:?}",
        plain.label,
        plain.signals,
        pool.lp_burned_share
    );

    sell_revert_honeypot(&analyse("honeypot").await?, "Aerodrome")?;
    let tax = analyse("tax").await?;
    taxed_five_percent(&tax, "Aerodrome")?;
    let tax_pool = tax.meta.pools.first().context("the tax token's pool")?;
    ensure!(
        near(tax_pool.lp_owner_share, 1.0, 0.001)
            && has(&tax, "owner_holds_lp")
            && has(&tax, "lp_unlocked"),
        "the owner's Aerodrome LP is the owner's: {:?} {:?}",
        tax_pool.lp_owner_share,
        tax.signals
    );

    // The stable pool: priced on x³y + y³x = k, as the pool itself quotes.
    let stable = analyse("stable").await?;
    let pool = stable.meta.pools.first().context("the stable pool")?;
    ensure!(
        stable.meta.pools.len() == 1
            && pool.kind == PoolKind::Stable
            && pool.quote_symbol == "TUSD"
            && pool.fee_bps == Some(5.0),
        "the token's only pool is its stable Aerodrome pool, with the factory's 0.05% fee: {:?}",
        stable.meta.pools
    );
    ensure!(
        (stable_price - 1.0).abs() > 0.02 && near(stable.meta.price_usd, stable_price, 0.01),
        "price within 1% of the pool's own ${stable_price}: {:?}",
        stable.meta.price_usd
    );
    // Its liquidity is what it holds. Near parity the curve is flatter
    // than a pair's: a pair with the same quote (depth about 2% of it)
    // moves 2% for a third of what this pool takes, 5% off parity.
    let held = pool.reserve_quote + pool.reserve_token * stable_price;
    let pair_depth = pool.reserve_quote * 0.02;
    ensure!(
        near(pool.liquidity_usd, held, 0.01)
            && near(Some(pool.reserve_quote), 520_000.0, 0.001)
            && pool
                .depth_2pct_usd
                .is_some_and(|d| d > 2.0 * pair_depth && d < 5.0 * pair_depth),
        "liquidity {:?} (holds ${held}), depth {:?} against a pair's ${pair_depth}",
        pool.liquidity_usd,
        pool.depth_2pct_usd
    );
    let sim = stable.simulations.first().context("a simulation")?;
    trades_untaxed(sim, "Aerodrome stable")?;
    ensure!(
        !has(&stable, "honeypot") && stable.label == RiskLabel::Safe,
        "the stable pool's plain token is safe: {:?} {:?}",
        stable.label,
        stable.signals
    );
    drop(anvil);
    server.stop().await
}

conformance!(solidly_pools_feed_the_market_index);
/// A new Aerodrome pool raises `new_token` from the factory's
/// `PoolCreated`; swaps in it feed the token's flow; LP burned out of it
/// raises `liquidity_removed` from its `Sync`.
pub async fn solidly_pools_feed_the_market_index(backend: Backend) -> anyhow::Result<()> {
    let (_anvil, chain) = fresh_chain(31348).await?;
    let server = TestServer::start_with(backend, market_config(&chain)).await?;
    let client = server.client(&server.owner_key());
    let (token, pool) = on_chain(&chain, |node, chain| {
        launch(node, chain, ("PlainToken", "indexed", 20), false, false)
    })
    .await?;
    wait_for(&client, AlertKind::NewToken, token).await?;
    on_chain(&chain, move |node, chain| {
        three_buys(node, Some(chain.weth), |trader, amount| {
            solidly_rig::swap_exact_input(node, trader, pool, chain.weth, amount)
        })
    })
    .await?;
    wait_for_three_buys(&client, token, "Aerodrome").await?;
    on_chain(&chain, move |node, chain| {
        // `launch`'s creator for token 20, whose LP it kept.
        let creator = node.creator(920, chain.weth)?;
        let lp = node.view_word(pool, "balanceOf(address)", &[Arg::Addr(creator)])?;
        solidly_rig::remove_liquidity(node, creator, pool, lp / U256::from(10) * U256::from(9))
    })
    .await?;
    let alert = wait_for(&client, AlertKind::LiquidityRemoved, token).await?;
    ensure!(
        alert.detail.contains(&format!("{pool:#x}")),
        "the alert names the Aerodrome pool: {alert:?}"
    );
    server.stop().await
}
