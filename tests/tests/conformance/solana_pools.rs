//! Solana liquidity where it lives: pools of every family (Raydium CPMM,
//! AMM v4 and CLMM, pump.fun curves, PumpSwap, Orca Whirlpools, Meteora
//! DLMM), their accounts encoded by each family's own SDK, found, priced and
//! judged through the generated client.

use anyhow::{ensure, Context as _};
use riskintel_client::types::{self, CheckStatus, PoolKind, Severity};

use riskintel_tests::solana_node::{self, Fixture};
use riskintel_tests::{arg, ok, Backend, TestServer};

use super::solana::{counted_sol_server, ids, signal, sol_config};

fn near(got: f64, want: f64, tolerance: f64) -> bool {
    (got - want).abs() <= tolerance * want.abs()
}

fn status(a: &types::TokenAnalysis, id: &str) -> Option<CheckStatus> {
    a.coverage
        .checks
        .iter()
        .find(|c| c.id.to_string() == id)
        .map(|c| c.status)
}

/// The pool of `a` at the fixture's address `name`.
fn pool<'a>(
    a: &'a types::TokenAnalysis,
    fixture: &Fixture,
    name: &str,
) -> anyhow::Result<&'a types::Pool> {
    let address = fixture.named(name);
    a.meta
        .pools
        .iter()
        .find(|p| p.address == address)
        .with_context(|| format!("{name} not among {:?}", a.meta.pools))
}

fn expect(fixture: &Fixture, name: &str, field: &str) -> anyhow::Result<f64> {
    fixture.expect[name][field]
        .as_f64()
        .with_context(|| format!("expect.{name}.{field}"))
}

conformance!(solana_pools_of_every_family_are_found_and_valued);
pub async fn solana_pools_of_every_family_are_found_and_valued(
    backend: Backend,
) -> anyhow::Result<()> {
    let (fixture, proxy, server) = counted_sol_server(backend).await?;
    let client = server.client(&server.owner_key());
    // Each analysis is cold: pool discovery, the pools' vaults, configs,
    // arrays and positions ride in two round trips; a mint with a long
    // history pages its signatures alongside round 2 (the whale token's
    // 2,500: two pages, so three round trips), within the budget of four;
    // the launch's last reads are one more where the launch can be read.
    let analyse = |name: &str| {
        let address = fixture.named(name);
        let long_history = name == "whale";
        let (client, proxy) = (&client, &proxy);
        async move {
            proxy.reset();
            let analysis =
                ok(client.token_analyze(arg("sol"), &arg(&address), None).await)?.into_inner();
            let round_trips = proxy.round_trips();
            eprintln!(
                "{address}: {round_trips} round trips, {} requests",
                proxy.count()
            );
            // Two rounds, one more where the launch can be read (a bonding
            // curve's, or a pool recording its opening); a long history's
            // pages ride beside round 2 and leave the launch unknown.
            // The third round trip carries the launch's last reads and the
            // sell check's simulations, when either is made.
            let check = |id: types::CheckId| (analysis.coverage.checks.iter()).find(|c| c.id == id);
            let went = |id: types::CheckId, said: &str| {
                check(id).is_some_and(|c| {
                    c.status != CheckStatus::Unknown
                        || (c.reason.as_deref()).is_some_and(|r| r.contains(said))
                })
            };
            let third = went(types::CheckId::LaunchCluster, "not everything was read")
                || went(types::CheckId::Honeypot, "simulate");
            ensure!(
                round_trips == if long_history || third { 3 } else { 2 },
                "{address}: a cold analysis took {round_trips} round trips ({:?})",
                analysis.coverage.checks
            );
            anyhow::Ok(analysis)
        }
    };
    let detected = |a: &types::TokenAnalysis, id: &str| ids(a).contains(id);

    // SOL at $150: two deep SOL/USDC pools say so, a thin one pushed to
    // $1,000 does not move it (liquidity-weighted median). Seen from USDC:
    // $300,000 + $600,000 + $300 of liquidity.
    let usdc = analyse("usdc").await?;
    ensure!(
        usdc.meta
            .liquidity_usd
            .is_some_and(|l| near(l, 900_300.0, 1e-9)),
        "{:?}",
        usdc.meta.pools
    );

    // Raydium AMM v4: protocol fees still in the vaults are not reserves.
    let v4 = analyse("v4_healthy").await?;
    let p = pool(&v4, &fixture, "v4_healthy_pool")?;
    ensure!(
        p.dex == "Raydium AMM v4" && p.kind == PoolKind::ConstantProduct && p.fee_bps == Some(25.0),
        "{p:?}"
    );
    ensure!(
        near(v4.meta.price_usd.context("price")?, 0.015, 1e-9),
        "{:?}",
        v4.meta.price_usd
    );
    ensure!(
        p.liquidity_usd.is_some_and(|l| near(l, 300_000.0, 1e-9)),
        "{p:?}"
    );
    ensure!(
        p.lp_burned_share == Some(1.0) && p.lp_locked_share == Some(1.0),
        "{p:?}"
    );
    for absent in [
        "lp_unlocked",
        "low_liquidity",
        "no_liquidity",
        "owner_holds_lp",
    ] {
        ensure!(
            !detected(&v4, absent),
            "v4_healthy: {absent} in {:?}",
            ids(&v4)
        );
    }
    // Sells are not simulated on Solana: unknown, never clear.
    ensure!(status(&v4, "honeypot") == Some(CheckStatus::Unknown));
    ensure!(status(&v4, "other_amm_pools") == Some(CheckStatus::Clear));
    let thin = analyse("v4_thin").await?;
    ensure!(
        thin.meta
            .liquidity_usd
            .is_some_and(|l| near(l, 3_000.0, 1e-9))
            && signal(&thin, "low_liquidity")?.severity == Severity::High,
        "{:?}",
        thin.meta.liquidity_usd
    );
    let owner_lp = analyse("v4_owner_lp").await?;
    let held = signal(&owner_lp, "owner_holds_lp")?;
    ensure!(held.evidence.raw["lp_owner_share"] == 1.0, "{held:?}");
    ensure!(detected(&owner_lp, "lp_unlocked") && detected(&owner_lp, "mint_authority_active"));

    // Raydium CPMM: the fee from the pool's AmmConfig; the creator's LP.
    let launch = analyse("launch").await?;
    let p = pool(&launch, &fixture, "launch_pool")?;
    ensure!(p.fee_bps == Some(25.0) && p.dex == "Raydium CPMM", "{p:?}");
    ensure!(
        p.lp_burned_share.is_some_and(|s| near(s, 0.99, 1e-9)) && p.lp_creator_share == Some(0.0),
        "{p:?}"
    );
    ensure!(!detected(&launch, "creator_holds_lp") && !detected(&launch, "lp_unlocked"));
    let whale = analyse("whale").await?;
    let creator = signal(&whale, "creator_holds_lp")?;
    ensure!(
        creator.evidence.raw["lp_creator_share"] == 1.0,
        "{creator:?}"
    );

    // pump.fun: a curve 59.6% of the way, priced by its virtual reserves;
    // the curve's tokens are not holder concentration.
    let curve = analyse("curve_mid").await?;
    let p = pool(&curve, &fixture, "curve_mid_curve")?;
    let progress = 1.0 - 320.1 / 793.1;
    ensure!(
        p.kind == PoolKind::BondingCurve
            && p.dex == "pump.fun"
            && p.curve_progress.is_some_and(|c| near(c, progress, 1e-9)),
        "{p:?}"
    );
    ensure!(near(
        curve.meta.price_usd.context("price")?,
        53.65 / 600e6 * 150.0,
        1e-9
    ));
    ensure!(curve
        .meta
        .liquidity_usd
        .is_some_and(|l| near(l, 2.0 * 23.65 * 150.0, 1e-9)));
    let active = signal(&curve, "bonding_curve_active")?;
    ensure!(
        active.evidence.raw["creator"] == fixture.named("curve_creator")
            && active.evidence.raw["progress"]
                .as_f64()
                .is_some_and(|c| near(c, progress, 1e-9)),
        "{active:?}"
    );
    for absent in [
        "single_holder_dominance",
        "whale_concentration",
        "lp_unlocked",
    ] {
        ensure!(
            !detected(&curve, absent),
            "curve_mid: {absent} in {:?}",
            ids(&curve)
        );
    }
    // Graduated: the curve complete, the canonical PumpSwap pool found at
    // its address, its negative virtual quote reserve counted.
    let graduated = analyse("graduated").await?;
    let p = pool(&graduated, &fixture, "graduated_pool")?;
    ensure!(
        p.dex == "PumpSwap" && p.lp_burned_share == Some(1.0),
        "{p:?}"
    );
    ensure!(near(
        graduated.meta.price_usd.context("price")?,
        84.5 / 206.9e6 * 150.0,
        1e-9
    ));
    ensure!(graduated
        .meta
        .liquidity_usd
        .is_some_and(|l| near(l, 2.0 * 84.5 * 150.0, 1e-9)));
    ensure!(
        pool(&graduated, &fixture, "curve_mid_curve").is_err()
            && graduated
                .meta
                .pools
                .iter()
                .any(|p| p.curve_progress == Some(1.0)),
        "{:?}",
        graduated.meta.pools
    );
    ensure!(status(&graduated, "bonding_curve_active") == Some(CheckStatus::Clear));
    let thin = analyse("pumpswap_thin").await?;
    ensure!(thin
        .meta
        .liquidity_usd
        .is_some_and(|l| near(l, 1_500.0, 1e-9)));
    ensure!(signal(&thin, "low_liquidity")?.severity == Severity::High);
    let creator_lp = analyse("pumpswap_creator_lp").await?;
    let held = signal(&creator_lp, "creator_holds_lp")?;
    ensure!(
        held.evidence.raw["creator"] == fixture.named("pumpswap_creator")
            && held.evidence.raw["lp_creator_share"] == 1.0,
        "{held:?}"
    );
    ensure!(creator_lp
        .meta
        .liquidity_usd
        .is_some_and(|l| near(l, 60_000.0, 1e-9)));

    // Concentrated liquidity and bins: price from the pool's own price,
    // depth within 2% ending where the one position ends, liquidity its
    // value locked; who holds the positions is not read yet.
    for (name, dex, kind, fee) in [
        ("clmm_healthy", "Raydium CLMM", PoolKind::Concentrated, 25.0),
        (
            "whirl_healthy",
            "Orca Whirlpools",
            PoolKind::Concentrated,
            30.0,
        ),
    ] {
        let a = analyse(name).await?;
        let p = pool(&a, &fixture, &format!("{name}_pool"))?;
        ensure!(
            p.dex == dex && p.kind == kind && p.fee_bps == Some(fee),
            "{p:?}"
        );
        ensure!(
            near(
                a.meta.price_usd.context("price")?,
                expect(&fixture, name, "price")?,
                1e-6
            ),
            "{name}: {:?}",
            a.meta.price_usd
        );
        let (tvl, depth) = (
            expect(&fixture, name, "tvl")?,
            expect(&fixture, name, "depth")?,
        );
        ensure!(
            p.liquidity_usd.is_some_and(|l| near(l, tvl, 1e-3)),
            "{name}: {p:?} vs {tvl}"
        );
        ensure!(
            p.depth_2pct_usd.is_some_and(|d| near(d, depth, 1e-3)),
            "{name}: {p:?} vs {depth}"
        );
        // Its one position is locked (Raydium's locking program, Orca's LockConfig).
        ensure!(p.lp_locked_share == Some(1.0), "{name}: {p:?}");
        ensure!(
            status(&a, "lp_unlocked") == Some(CheckStatus::Clear),
            "{name}"
        );
        ensure!(!detected(&a, "low_liquidity"), "{name}: {:?}", ids(&a));
    }
    // Thin pools whose one position is held by the pool's creator (CLMM,
    // DLMM) or the mint authority (Orca records no creator).
    for (name, holder) in [
        ("clmm_thin", "creator_holds_lp"),
        ("whirl_thin", "owner_holds_lp"),
        ("dlmm_thin", "creator_holds_lp"),
    ] {
        let a = analyse(name).await?;
        ensure!(
            signal(&a, "low_liquidity")?.severity == Severity::High,
            "{name}: {:?}",
            a.meta.pools
        );
        let held = signal(&a, holder)?;
        let share = held.evidence.raw["lp_creator_share"]
            .as_f64()
            .or(held.evidence.raw["lp_owner_share"].as_f64());
        ensure!(
            share.is_some_and(|s| near(s, 1.0, 1e-9)),
            "{name}: {held:?}"
        );
        ensure!(detected(&a, "lp_unlocked"), "{name}: {:?}", ids(&a));
    }
    let dlmm = analyse("dlmm_healthy").await?;
    let p = pool(&dlmm, &fixture, "dlmm_healthy_pool")?;
    ensure!(
        p.dex == "Meteora DLMM" && p.kind == PoolKind::Bins && p.fee_bps == Some(25.0),
        "{p:?}"
    );
    let step = 1.0025f64;
    let price = step.powi(-922);
    ensure!(
        near(dlmm.meta.price_usd.context("price")?, price, 1e-9),
        "{:?}",
        dlmm.meta.price_usd
    );
    // +2%: the active bin's 50,000 tokens and bins +1..+7 (bin +8 is 2.02% up),
    // paid at each bin's price; −2%: the active bin's 5,000 USDC and bins −1..−8.
    let up: f64 = (0..=7)
        .map(|k| if k == 0 { 50_000.0 } else { 100_000.0 } * step.powi(-922 + k))
        .sum();
    let down = 5_000.0 + 8.0 * 10_000.0;
    ensure!(
        p.depth_2pct_usd.is_some_and(|d| near(d, up + down, 1e-9)),
        "{p:?} vs {}",
        up + down
    );
    let tvl = expect(&fixture, "dlmm_healthy", "totalY")? / 1e6
        + expect(&fixture, "dlmm_healthy", "totalX")? / 1e6 * price;
    // Its one position is locked until far ahead.
    ensure!(
        p.lp_locked_share == Some(1.0) && !detected(&dlmm, "lp_unlocked"),
        "{p:?}"
    );
    ensure!(
        p.liquidity_usd.is_some_and(|l| near(l, tvl, 1e-9)),
        "{p:?} vs {tvl}"
    );

    // The other views price these tokens alike.
    let meta = ok(client
        .token_meta_get(arg("sol"), &arg(&fixture.named("dlmm_healthy")), None)
        .await)?
    .into_inner();
    ensure!(meta.price_usd == dlmm.meta.price_usd && meta.pools.len() == 1);
    let explanation = ok(client
        .token_explanation_get(arg("sol"), &arg(&fixture.named("curve_mid")), None)
        .await)?
    .into_inner();
    ensure!(
        explanation.summary.contains("bonding curve")
            || explanation
                .signals
                .iter()
                .any(|s| s.id.to_string() == "bonding_curve_active"),
        "{explanation:?}"
    );
    server.stop().await
}

conformance!(solana_lp_shares_are_of_what_the_pool_issued);
/// In each family with an LP mint, half the LP the pool issued was burned
/// through the token program (the LP mint's supply halves, the pool's own
/// count does not); the creator holds 20%, the mint authority 10%, a
/// locker 20%. Each share is what it redeems: of the pool's count.
pub async fn solana_lp_shares_are_of_what_the_pool_issued(backend: Backend) -> anyhow::Result<()> {
    let fixture = Fixture::load()?;
    let node = solana_node::start(fixture.clone()).await?;
    let server = TestServer::start_with(backend, sol_config(&fixture, &node)).await?;
    let client = server.client(&server.owner_key());
    for (token, creator_share) in [
        ("cpmm_split", Some(0.2)),
        ("v4_split", None),
        ("pumpswap_split", Some(0.2)),
    ] {
        let analysis = ok(client
            .token_analyze(arg("sol"), &arg(&fixture.named(token)), None)
            .await)?
        .into_inner();
        let p = pool(&analysis, &fixture, &format!("{token}_pool"))?;
        let is = |got: Option<f64>, want: f64| got.is_some_and(|g| (g - want).abs() <= 0.001);
        ensure!(
            is(p.lp_burned_share, 0.5)
                && is(p.lp_owner_share, 0.1)
                && is(p.lp_locked_share, 0.7)
                && match creator_share {
                    Some(want) => is(p.lp_creator_share, want),
                    None => p.lp_creator_share.is_none(),
                },
            "{token}: {p:?}"
        );
        // The policy's bands on those fractions: over 5% is holding LP.
        let owner = signal(&analysis, "owner_holds_lp")?;
        ensure!(
            owner.severity == Severity::High
                && owner.evidence.raw["lp_owner_share"]
                    .as_f64()
                    .is_some_and(|s| (s - 0.1).abs() <= 0.001),
            "{token}: {}",
            owner.evidence.raw
        );
        match creator_share {
            Some(_) => {
                let creator = signal(&analysis, "creator_holds_lp")?;
                ensure!(
                    creator.detail.contains("20.0%")
                        && creator.evidence.raw["creator"] == fixture.named("split_creator"),
                    "{token}: {}",
                    creator.detail
                );
            }
            None => ensure!(
                status(&analysis, "creator_holds_lp") == Some(CheckStatus::Unknown),
                "{token}: {:?}",
                ids(&analysis)
            ),
        }
    }
    server.stop().await
}
