//! Tokens whose only pool is a Uniswap V4 pool (the real PoolManager on
//! anvil): found by key, priced, simulated through the manager's unlock
//! callback and judged like any other pool; a pool with a hook that takes
//! half of every sell is found from the market index's `Initialize`
//! events, its hook reported and its cut measured, through the generated client.

use std::collections::BTreeMap;

use alloy_primitives::Address;
use anyhow::{ensure, Context as _};
use riskintel_client::types::{AlertKind, PoolKind, RiskLabel};
use riskintel_tests::rig::{self, e18, Arg, Node, RigChain};
use riskintel_tests::{arg, ok, Backend, TestServer};
use riskintel_tests::{v3_rig, v4_rig};

use super::dex_families::{
    cold_analysis, counted_server, has, near, sell_revert_honeypot, taxed_five_percent, three_buys,
    trades_untaxed, wait_for_three_buys,
};
use super::market::{fresh_chain, market_config, on_chain, wait_for};

/// The rig's WETH price ($3,000) × 10 ETH / 400,000 tokens.
const PRICE: f64 = 0.075;

/// Launch `contract` with its only pool in V4 (400,000 tokens against 10
/// of `quote`: native currency when zero), 30 holders, a creator of its own.
fn launch(
    node: &Node,
    chain: &RigChain,
    (contract, name, n): (&str, &str, u64),
    quote: Address,
    tier: (u32, i32),
    hook: bool,
) -> anyhow::Result<(Address, v4_rig::Key)> {
    let creator = node.creator(800 + n, chain.weth)?;
    let args = [
        Arg::Str(name.into()),
        Arg::Str(name.to_uppercase()),
        Arg::Uint(e18(1_000_000)),
    ];
    let token = node.deploy(creator, contract, &args)?;
    let hooks = if hook {
        v4_rig::sell_tax_hook(node, &chain.v4, creator, token)?
    } else {
        Address::ZERO
    };
    let key = v4_rig::add_pool(
        node,
        &chain.v4,
        creator,
        token,
        e18(400_000),
        quote,
        e18(10),
        tier,
        hooks,
    )?;
    if contract != "PlainToken" {
        // The token watches the PoolManager, which holds every V4 pool's tokens.
        node.exec(
            creator,
            token,
            "setPair(address)",
            &[Arg::Addr(chain.v4.manager)],
        )?;
    }
    rig::distribute(node, creator, token, 6_000 + 100 * n)?;
    Ok((token, key))
}

fn age(node: &Node) -> anyhow::Result<()> {
    node.call("evm_increaseTime", serde_json::json!([30 * 86_400]))?;
    node.call("evm_mine", serde_json::json!([]))?;
    Ok(())
}

conformance!(v4_pools_are_found_priced_and_simulated);
pub async fn v4_pools_are_found_priced_and_simulated(backend: Backend) -> anyhow::Result<()> {
    let (anvil, chain) = fresh_chain(31345).await?;
    let tokens = on_chain(&chain, |node, chain| {
        let mut tokens = BTreeMap::new();
        let native = Address::ZERO;
        for (what, contract, quote, tier) in [
            ("plain", "PlainToken", native, (3_000, 60)),
            ("honeypot", "SellRevertToken", chain.weth, (500, 10)),
            ("tax", "SwapTaxToken", native, (10_000, 200)),
        ] {
            let n = tokens.len() as u64;
            let (token, key) = launch(node, chain, (contract, what, n), quote, tier, false)?;
            tokens.insert(what, (token, key));
        }
        age(node)?;
        anyhow::Ok(tokens)
    })
    .await?;
    let (server, proxy) = counted_server(backend, &chain).await?;
    let client = server.client(&server.owner_key());
    let analyse = |what: &'static str| cold_analysis(&client, &proxy, tokens[what].0, what);

    let plain = analyse("plain").await?;
    let pool = plain.meta.pools.first().context("a pool")?;
    let id = format!("{:#x}", tokens["plain"].1.id());
    ensure!(
        plain.meta.pools.len() == 1
            && pool.dex == "Rig Uniswap V4"
            && pool.kind == PoolKind::Concentrated
            && pool.address == id
            && pool.quote_symbol == "ETH"
            && pool.quote_address == Address::ZERO.to_checksum(None)
            && pool.hook.is_none()
            && pool.fee_bps == Some(30.0),
        "the token's only pool is its native-currency V4 pool {id}, by key: {:?}",
        plain.meta.pools
    );
    ensure!(
        near(plain.meta.price_usd, PRICE, 0.01),
        "price within 1% of ${PRICE}: {:?}",
        plain.meta.price_usd
    );
    // Full range: as deep as a pair holding the same; no balances of its own.
    ensure!(
        near(pool.liquidity_usd, 60_000.0, 0.03)
            && near(pool.depth_2pct_usd, 600.0, 0.03)
            && pool.tvl_usd.is_none()
            && near(Some(pool.reserve_quote), 10.0, 0.02),
        "liquidity {:?}, depth {:?}, value locked {:?}, reserve {}",
        pool.liquidity_usd,
        pool.depth_2pct_usd,
        pool.tvl_usd,
        pool.reserve_quote
    );
    let sim = plain.simulations.first().context("a simulation")?;
    ensure!(sim.pool == id, "simulated in the V4 pool: {sim:?}");
    trades_untaxed(sim, "V4")?;
    ensure!(
        plain.label == RiskLabel::Safe && !has(&plain, "v4_hook_controls_swaps"),
        "plain is safe: {:?} {:?}",
        plain.label,
        plain.signals
    );
    // Whose positions they are cannot be listed: unknown, never guessed.
    let lp = plain
        .coverage
        .checks
        .iter()
        .find(|c| c.id.to_string() == "lp_unlocked");
    ensure!(
        pool.lp_burned_share.is_none()
            && lp.is_some_and(|c| c.reason.as_deref().is_some_and(|r| r.contains("V4"))),
        "V4 LP is unknown with its reason: {:?} {lp:?}",
        pool.lp_burned_share
    );

    sell_revert_honeypot(&analyse("honeypot").await?, "V4")?;
    taxed_five_percent(&analyse("tax").await?, "V4")?;
    drop(anvil);
    server.stop().await
}

conformance!(v4_pools_feed_the_market_index_and_hooks_are_judged);
/// A new V4 pool raises `new_token` from its `Initialize` event; a pool
/// with a hook is found that way only, and its hook's 50% cut of every
/// sell is reported and measured; V4 swaps feed the token's flow, and
/// liquidity taken out of a V4 pool raises `liquidity_removed`.
pub async fn v4_pools_feed_the_market_index_and_hooks_are_judged(
    backend: Backend,
) -> anyhow::Result<()> {
    let (_anvil, chain) = fresh_chain(31346).await?;
    on_chain(&chain, |node, _| age(node)).await?;
    let server = TestServer::start_with(backend, market_config(&chain)).await?;
    let client = server.client(&server.owner_key());
    let launched = on_chain(&chain, |node, chain| {
        let hooked = launch(
            node,
            chain,
            ("PlainToken", "hooked", 10),
            Address::ZERO,
            (3_000, 60),
            true,
        )?;
        let plain = launch(
            node,
            chain,
            ("PlainToken", "listed", 11),
            Address::ZERO,
            (500, 10),
            false,
        )?;
        anyhow::Ok((hooked, plain))
    })
    .await?;
    let ((hooked, hooked_key), (listed, listed_key)) = launched;
    for token in [hooked, listed] {
        wait_for(&client, AlertKind::NewToken, token).await?;
    }
    let analysis = ok(client
        .token_analyze(arg("eth"), &arg(&hooked.to_checksum(None)), Some(true))
        .await)?
    .into_inner();
    let pool = analysis.meta.pools.first().context("the hooked pool")?;
    let hook = hooked_key.hooks.to_checksum(None);
    ensure!(
        pool.address == format!("{:#x}", hooked_key.id())
            && pool.hook.as_deref() == Some(hook.as_str())
            && pool.hook_flags == ["after_swap", "after_swap_returns_delta"],
        "the hooked pool is found from its Initialize event, with its hook and flags: {:?}",
        analysis.meta.pools
    );
    let signal = analysis
        .signals
        .iter()
        .find(|s| s.id.to_string() == "v4_hook_controls_swaps")
        .context("v4_hook_controls_swaps")?;
    let evidence = serde_json::to_string(&signal.evidence)?;
    ensure!(
        evidence.contains(&hook) && evidence.contains("after_swap_returns_delta"),
        "the signal names the hook and its flags: {evidence}"
    );
    let sim = analysis.simulations.first().context("a simulation")?;
    let (buy, sell) = (sim.buy.tax, sim.sell.as_ref().and_then(|s| s.tax));
    ensure!(
        buy.is_some_and(|t| t < 0.01) && near(sell, 0.5, 0.02) && has(&analysis, "sell_tax"),
        "the hook's half of every sell is measured as a sell tax: buy {buy:?} sell {sell:?} {:?}",
        analysis.signals
    );
    // Swaps in the V4 pool feed the token's flow.
    on_chain(&chain, move |node, chain| {
        three_buys(node, None, |trader, amount| {
            v4_rig::swap_exact_input(node, &chain.v4, trader, &listed_key, Address::ZERO, amount)
        })
    })
    .await?;
    wait_for_three_buys(&client, listed, "V4").await?;
    on_chain(&chain, move |node, chain| {
        let liquidity = v3_rig::full_range_liquidity(e18(400_000), e18(10));
        v4_rig::remove_liquidity(
            node,
            &chain.v4,
            chain.deployer,
            &listed_key,
            liquidity / 10 * 9,
        )
    })
    .await?;
    let alert = wait_for(&client, AlertKind::LiquidityRemoved, listed).await?;
    ensure!(
        alert.detail.contains(&format!("{:#x}", listed_key.id())),
        "the alert names the V4 pool: {alert:?}"
    );
    server.stop().await
}
