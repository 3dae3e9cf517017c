//! Tokens whose only pool is in a V3-style DEX (the real Uniswap V3 and
//! PancakeSwap V3 contracts on anvil): found, priced, simulated and judged
//! like V2 pairs, through the generated client.

use std::collections::BTreeMap;

use alloy_primitives::{Address, U256};
use anyhow::{ensure, Context as _};
use riskintel_client::types::{self, AlertKind, PoolKind, RiskLabel};
use riskintel_server::config::Config;
use riskintel_tests::latency::{latency_proxy, LatencyProxy};
use riskintel_tests::rig::{self, e18, Arg, Node, RigChain};

use super::market::{fresh_chain, on_chain};
use riskintel_tests::v3_rig;
use riskintel_tests::{arg, ok, Backend, TestServer};

/// The rig's WETH price ($3,000) × 10 WETH / 400,000 tokens.
const PRICE: f64 = 0.075;

struct Family {
    dex: &'static str,
    add: fn(
        &Node,
        &v3_rig::V3Rig,
        Address,
        Address,
        U256,
        Address,
        U256,
        Address,
    ) -> anyhow::Result<Address>,
}

const FAMILIES: [Family; 2] = [
    Family {
        dex: "Rig Uniswap V3",
        add: v3_rig::add_uniswap_pool,
    },
    Family {
        dex: "Rig PancakeSwap V3",
        add: v3_rig::add_pancake_pool,
    },
];

/// Per family: a plain token, a sell-revert honeypot and a 5% tax token,
/// each with only that pool (40% of the supply against 10 WETH), the rest
/// with 30 holders. The plain and honeypot LP goes to 0x…dEaD, the tax
/// token's to its owner (its creator).
fn deploy(node: &Node, chain: &RigChain) -> anyhow::Result<BTreeMap<String, Address>> {
    let dead: Address = rig::DEAD.parse()?;
    let mut tokens = BTreeMap::new();
    let mut first_holder = 5_000;
    for (f, family) in FAMILIES.iter().enumerate() {
        for (kind, contract, burned) in [
            ("plain", "PlainToken", true),
            ("honeypot", "SellRevertToken", true),
            ("tax", "SwapTaxToken", false),
        ] {
            // Each token has a creator of its own, so one's record is not another's.
            let deployer = node.creator(700 + first_holder / 100, chain.weth)?;
            let lp_to = if burned { dead } else { deployer };
            let args = [
                Arg::Str(format!("{kind} {f}")),
                Arg::Str(format!("{}{f}", kind.to_uppercase())),
                Arg::Uint(e18(1_000_000)),
            ];
            let token = node.deploy(deployer, contract, &args)?;
            let pool = (family.add)(
                node,
                &chain.v3,
                deployer,
                token,
                e18(400_000),
                chain.weth,
                e18(10),
                lp_to,
            )?;
            if kind != "plain" {
                node.exec(deployer, token, "setPair(address)", &[Arg::Addr(pool)])?;
            }
            rig::distribute(node, deployer, token, first_holder)?;
            first_holder += 100;
            tokens.insert(format!("{}:{kind}", family.dex), token);
        }
    }
    // A month old, as the scenario's tokens are: age is not what is tested here.
    node.call("evm_increaseTime", serde_json::json!([30 * 86_400]))?;
    node.call("evm_mine", serde_json::json!([]))?;
    Ok(tokens)
}

/// A server on `chain` (market index off) whose node it reaches through a
/// counting proxy. Each request waits 20 ms, as in the detection corpus,
/// so the round trips counted follow what waits on the node's answers
/// rather than how the machine schedules local work (a database read
/// before a concurrent request).
pub async fn counted_server(
    backend: Backend,
    chain: &RigChain,
) -> anyhow::Result<(TestServer, LatencyProxy)> {
    let proxy = latency_proxy(chain.url.clone(), std::time::Duration::from_millis(20)).await?;
    let mut served = chain.clone();
    served.url = proxy.url.clone();
    let mut config = Config {
        chains: rig::chains_config(&[("eth", &served)]),
        ..Config::default()
    };
    config.market.enabled = false;
    Ok((TestServer::start_with(backend, config).await?, proxy))
}

/// A cold analysis of `token` (`what`, for the log) through `proxy`: it
/// stays within three sequential round trips.
pub async fn cold_analysis(
    client: &riskintel_client::Client,
    proxy: &LatencyProxy,
    token: Address,
    what: &str,
) -> anyhow::Result<types::TokenAnalysis> {
    proxy.reset();
    let address = token.to_checksum(None);
    let analysis = ok(client.token_analyze(arg("eth"), &arg(&address), None).await)?.into_inner();
    let round_trips = proxy.round_trips();
    eprintln!(
        "{} ({what}): {round_trips} round trips, {} requests",
        analysis.meta.symbol,
        proxy.count()
    );
    ensure!(
        round_trips <= 3,
        "{what}: a cold analysis took {round_trips} round trips"
    );
    Ok(analysis)
}

/// Accounts 3 to 5 each buy with 0.1 of the native currency through
/// `swap(trader, amount)` (`wrap`: wrapped first, from 1 deposited).
pub fn three_buys(
    node: &Node,
    wrap: Option<Address>,
    mut swap: impl FnMut(Address, U256) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for trader in &node.accounts()?[3..6] {
        if let Some(wrapped) = wrap {
            node.send(
                *trader,
                Some(wrapped),
                rig::calldata("deposit()", &[]),
                e18(1),
            )?;
        }
        swap(*trader, e18(1) / U256::from(10))?;
    }
    Ok(())
}

/// Whether `value` is within `tolerance` (a share) of `truth`.
pub fn near(value: Option<f64>, truth: f64, tolerance: f64) -> bool {
    value.is_some_and(|v| (v - truth).abs() <= tolerance * truth.abs().max(1e-9))
}

/// Whether the analysis raised signal `id`.
pub fn has(analysis: &types::TokenAnalysis, id: &str) -> bool {
    analysis.signals.iter().any(|s| s.id.to_string() == id)
}

/// The simulation bought and sold with no tax.
pub fn trades_untaxed(sim: &types::TradeSimulation, family: &str) -> anyhow::Result<()> {
    let sell = sim.sell.as_ref();
    ensure!(
        sim.buy.ok
            && sell.is_some_and(|s| s.ok)
            && sim.buy.tax.is_some_and(|t| t < 0.005)
            && sell.and_then(|s| s.tax).is_some_and(|t| t < 0.005),
        "{family}: the plain token trades untaxed: {sim:?}"
    );
    Ok(())
}

/// The rig's sell-revert token is a critical honeypot, for its own reason.
pub fn sell_revert_honeypot(analysis: &types::TokenAnalysis, family: &str) -> anyhow::Result<()> {
    ensure!(
        has(analysis, "honeypot") && analysis.label == RiskLabel::Critical,
        "{family}: the sell-revert token is a critical honeypot: {:?}",
        analysis.signals
    );
    let reason = analysis
        .simulations
        .first()
        .and_then(|s| s.sell.as_ref())
        .and_then(|s| s.revert_reason.clone());
    ensure!(
        reason.as_deref() == Some("sell not allowed"),
        "{family}: {reason:?}"
    );
    Ok(())
}

/// The rig's 5% swap-tax token sells, its taxes measured within a point.
pub fn taxed_five_percent(analysis: &types::TokenAnalysis, family: &str) -> anyhow::Result<()> {
    let sim = analysis.simulations.first().context("a simulation")?;
    let (buy, sell) = (sim.buy.tax, sim.sell.as_ref().and_then(|s| s.tax));
    ensure!(
        near(buy, 0.05, 0.2) && near(sell, 0.05, 0.2) && !has(analysis, "honeypot"),
        "{family}: the 5% token's taxes are measured within a point, and it sells: buy {buy:?} sell {sell:?} {:?}",
        analysis.signals
    );
    Ok(())
}

/// Wait until the index has seen three buys of `token` worth $900 in
/// all (0.1 of the native at $3,000 each), and nothing else.
pub async fn wait_for_three_buys(
    client: &riskintel_client::Client,
    token: Address,
    family: &str,
) -> anyhow::Result<()> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let flow = ok(client
            .token_sentiment_get(arg("eth"), &arg(&token.to_checksum(None)))
            .await)?
        .into_inner();
        let day = &flow.windows[1];
        if day.buys >= 3 {
            ensure!(
                day.buys == 3 && day.sells == 0 && (day.buy_volume_usd - 3.0 * 300.0).abs() < 1.0,
                "3 buys of 0.1 WETH at $3,000 through the {family} router: {day:?}"
            );
            return Ok(());
        }
        ensure!(
            std::time::Instant::now() < deadline,
            "{family} swaps not indexed: {flow:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

conformance!(v3_family_pools_are_found_priced_and_simulated);
pub async fn v3_family_pools_are_found_priced_and_simulated(
    backend: Backend,
) -> anyhow::Result<()> {
    let (anvil, chain) = fresh_chain(31343).await?;
    let tokens = on_chain(&chain, deploy).await?;
    let (server, proxy) = counted_server(backend, &chain).await?;
    let client = server.client(&server.owner_key());
    for family in &FAMILIES {
        let dex = family.dex;
        let analyse = |kind: &'static str| {
            let token = tokens[&format!("{dex}:{kind}")];
            cold_analysis(&client, &proxy, token, kind)
        };

        let plain = analyse("plain").await?;
        let pool = plain.meta.pools.first().context("a pool")?;
        ensure!(
            plain.meta.pools.len() == 1 && pool.dex == dex && pool.kind == PoolKind::Concentrated,
            "{dex}: the token's only pool is found: {:?}",
            plain.meta.pools
        );
        ensure!(
            near(plain.meta.price_usd, PRICE, 0.01),
            "{dex}: price within 1% of ${PRICE}: {:?}",
            plain.meta.price_usd
        );
        // Full range: as deep as a pair holding the same, and its $60,000 locked.
        ensure!(
            near(pool.liquidity_usd, 60_000.0, 0.03) && near(pool.tvl_usd, 60_000.0, 0.03),
            "{dex}: liquidity {:?}, value locked {:?}",
            pool.liquidity_usd,
            pool.tvl_usd
        );
        ensure!(
            // $30,000 of WETH × ((√1.02 − 1) + (1 − √0.98)).
            near(pool.depth_2pct_usd, 600.0, 0.03),
            "{dex}: ±2% depth of a $60,000 full-range pool is about $600: {:?}",
            pool.depth_2pct_usd
        );
        let sim = plain.simulations.first().context("a simulation")?;
        ensure!(sim.dex == dex, "{dex}: simulated in its pool: {sim:?}");
        trades_untaxed(sim, dex)?;
        ensure!(
            !has(&plain, "honeypot") && plain.label == RiskLabel::Safe,
            "{dex}: plain is safe: {:?} {:?}",
            plain.label,
            plain.signals
        );

        sell_revert_honeypot(&analyse("honeypot").await?, dex)?;
        let tax = analyse("tax").await?;
        taxed_five_percent(&tax, dex)?;

        if dex == "Rig Uniswap V3" {
            // LP as position NFTs: burned for the plain token, the owner's for the tax token.
            ensure!(
                near(pool.lp_burned_share, 1.0, 0.001) && !has(&plain, "lp_unlocked"),
                "{dex}: the NFT held by 0x…dEaD counts as burned: {:?}",
                pool.lp_burned_share
            );
            let tax_pool = &tax.meta.pools[0];
            ensure!(
                near(tax_pool.lp_owner_share, 1.0, 0.001)
                    && has(&tax, "owner_holds_lp")
                    && has(&tax, "lp_unlocked"),
                "{dex}: the owner's NFT is the owner's LP: {:?} {:?}",
                tax_pool.lp_owner_share,
                tax.signals
            );
        } else {
            // No position manager: whose LP it is stays unknown, never guessed.
            ensure!(
                pool.lp_burned_share.is_none()
                    && pool.lp_owner_share.is_none()
                    && !has(&plain, "lp_unlocked"),
                "{dex}: {:?}",
                pool
            );
        }
    }
    drop(anvil);
    server.stop().await
}

conformance!(v3_pools_feed_the_market_index);
/// A new Uniswap V3 pool and a new PancakeSwap V3 pool each raise a
/// `new_token` alert, swaps through the V3 router feed the token's flow,
/// and a position burned from a V3 pool raises `liquidity_removed`.
pub async fn v3_pools_feed_the_market_index(backend: Backend) -> anyhow::Result<()> {
    use super::market::{market_config, wait_for};
    let (_anvil, chain) = fresh_chain(31344).await?;
    let server = TestServer::start_with(backend, market_config(&chain)).await?;
    let client = server.client(&server.owner_key());
    let tokens = on_chain(&chain, |node, chain| {
        let mut tokens = Vec::new();
        for (i, family) in FAMILIES.iter().enumerate() {
            let args = [
                Arg::Str(format!("Indexed {i}")),
                Arg::Str(format!("IDX{i}")),
                Arg::Uint(e18(1_000_000)),
            ];
            let token = node.deploy(chain.deployer, "PlainToken", &args)?;
            let pool = (family.add)(
                node,
                &chain.v3,
                chain.deployer,
                token,
                e18(400_000),
                chain.weth,
                e18(10),
                chain.deployer,
            )?;
            rig::distribute(node, chain.deployer, token, 9_000 + 100 * i as u64)?;
            tokens.push((token, pool));
        }
        anyhow::Ok(tokens)
    })
    .await?;
    let (pools, tokens): (Vec<Address>, Vec<Address>) =
        tokens.into_iter().map(|(t, p)| (p, t)).unzip();
    for token in &tokens {
        wait_for(&client, AlertKind::NewToken, *token).await?;
    }
    let bought = tokens[0];
    on_chain(&chain, move |node, chain| {
        three_buys(node, Some(chain.weth), |trader, amount| {
            v3_rig::swap_exact_input(node, &chain.v3, trader, chain.weth, bought, amount)
        })
    })
    .await?;
    wait_for_three_buys(&client, bought, "V3").await?;
    // Most of the PancakeSwap V3 position burned by its owner: liquidity removed.
    let pancake_pool = pools[1];
    on_chain(&chain, move |node, chain| {
        let liquidity = v3_rig::full_range_liquidity(e18(400_000), e18(10)) / 10 * 9;
        let (lower, upper) = v3_rig::full_range(v3_rig::PANCAKE_SPACING);
        node.exec(
            chain.deployer,
            pancake_pool,
            "burn(int24,int24,uint128)",
            &[
                v3_rig::int(lower),
                v3_rig::int(upper),
                Arg::Uint(U256::from(liquidity)),
            ],
        )
    })
    .await?;
    let alert = wait_for(&client, AlertKind::LiquidityRemoved, tokens[1]).await?;
    ensure!(
        alert.detail.contains(&format!("{pancake_pool:#x}")),
        "the alert names the V3 pool: {alert:?}"
    );
    server.stop().await
}
