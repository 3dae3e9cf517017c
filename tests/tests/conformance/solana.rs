//! Solana token intelligence against a local JSON-RPC node serving account
//! bytes made by the real SPL Token and Token-2022 programs (LiteSVM).

use std::collections::BTreeSet;

use anyhow::{ensure, Context as _};
use riskintel_client::types::{self, ErrorCode, RiskLabel, Severity};
use riskintel_server::config::{AllowlistEntry, Config};
use riskintel_tests::latency::{latency_proxy, LatencyProxy};
use riskintel_tests::solana_node::{self, Fixture};
use riskintel_tests::{arg, badge, err, header, ok, Backend, TestServer};

pub(crate) fn sol_config(fixture: &Fixture, url: &str) -> Config {
    let mut config = Config::default();
    config.chains.clear();
    config
        .chains
        .insert("sol".into(), solana_node::chain_config(fixture, url));
    config.allowlist = vec![AllowlistEntry {
        chain: "sol".into(),
        address: fixture.named("usdc"),
        issuer: "Test Circle".into(),
        reason: "a regulated test stablecoin".into(),
    }];
    config.analysis.rpc_timeout_ms = 2_000;
    config.analysis.rpc_retries = 1;
    config.analysis.rpc_backoff_ms = 50;
    config.market.enabled = false;
    config
}

/// The fixture's node behind a proxy that makes every request wait 100 ms
/// (so the round trips it counts are those that wait on the node, even on
/// a busy machine where reading an answer takes tens of milliseconds), and
/// a server on it: the fixture, the proxy, the server.
pub(crate) async fn counted_sol_server(
    backend: Backend,
) -> anyhow::Result<(Fixture, LatencyProxy, TestServer)> {
    let fixture = Fixture::load()?;
    let node = solana_node::start(fixture.clone()).await?;
    let proxy = latency_proxy(node, std::time::Duration::from_millis(100)).await?;
    let server = TestServer::start_with(backend, sol_config(&fixture, &proxy.url)).await?;
    Ok((fixture, proxy, server))
}

/// A cold analysis of the fixture's `name` through `proxy`, and the
/// sequential round trips it took.
pub(crate) async fn analyse_counted(
    client: &riskintel_client::Client,
    proxy: &LatencyProxy,
    fixture: &Fixture,
    name: &str,
) -> anyhow::Result<(types::TokenAnalysis, usize)> {
    proxy.reset();
    let a = ok(client
        .token_analyze(arg("sol"), &arg(&fixture.named(name)), None)
        .await)?
    .into_inner();
    eprintln!("{name}: {:?} {:.1} {:?}", a.label, a.score, ids(&a));
    Ok((a, proxy.round_trips()))
}

pub(crate) fn ids(a: &types::TokenAnalysis) -> BTreeSet<String> {
    a.signals.iter().map(|s| s.id.to_string()).collect()
}

pub(crate) fn signal<'a>(
    a: &'a types::TokenAnalysis,
    id: &str,
) -> anyhow::Result<&'a types::Signal> {
    a.signals
        .iter()
        .find(|s| s.id.to_string() == id)
        .with_context(|| format!("{id} missing from {:?}", ids(a)))
}

conformance!(solana_mints_extensions_holders_and_liquidity);
pub async fn solana_mints_extensions_holders_and_liquidity(backend: Backend) -> anyhow::Result<()> {
    let fixture = Fixture::load()?;
    let node = solana_node::start(fixture.clone()).await?;
    let server = TestServer::start_with(backend, sol_config(&fixture, &node)).await?;
    let client = server.client(&server.owner_key());
    let analyse = |name: &str| {
        let address = fixture.named(name);
        let client = &client;
        async move {
            anyhow::Ok(
                ok(client.token_analyze(arg("sol"), &arg(&address), None).await)?.into_inner(),
            )
        }
    };

    // A USDC-like stablecoin: both authorities, allow-listed; Metaplex metadata.
    let usdc = analyse("usdc").await?;
    for id in ["mint_authority_active", "freeze_authority_active"] {
        let s = signal(&usdc, id)?;
        ensure!(
            s.severity == Severity::Info && s.weight == 0.0 && s.detail.contains("Test Circle"),
            "{s:?}"
        );
    }
    ensure!(
        usdc.meta.name == "USD Coin" && usdc.meta.symbol == "USDC",
        "Metaplex metadata: {:?}",
        usdc.meta
    );
    ensure!(signal(&usdc, "metadata_mutable")?.evidence.raw["source"] == "metaplex");
    ensure!(
        usdc.meta.liquidity_usd == Some(900_300.0),
        "the three SOL/USDC pools: {:?}",
        usdc.meta.liquidity_usd
    );

    // Launchpad-style: authorities renounced, LP burned, two hours old.
    let launch = analyse("launch").await?;
    let launch_ids = ids(&launch);
    for absent in [
        "mint_authority_active",
        "freeze_authority_active",
        "lp_unlocked",
        "whale_concentration",
        "permanent_delegate",
    ] {
        ensure!(
            !launch_ids.contains(absent),
            "launch: {absent} in {launch_ids:?}"
        );
    }
    ensure!(
        launch.meta.liquidity_usd == Some(30_000.0),
        "100 SOL at $150, both sides: {:?}",
        launch.meta.liquidity_usd
    );
    ensure!((launch.meta.price_usd.context("price")? - 0.00015).abs() < 1e-12);
    let pool = &launch.meta.pools[0];
    ensure!(pool.address == fixture.named("launch_pool") && pool.quote_symbol == "SOL");
    ensure!(
        pool.lp_burned_share
            .is_some_and(|s| (s - 0.99).abs() < 1e-9),
        "{pool:?}"
    );
    ensure!(signal(&launch, "low_liquidity")?.severity == Severity::Medium);
    ensure!(
        signal(&launch, "new_token")?.severity == Severity::Medium,
        "two hours old"
    );
    ensure!(
        matches!(launch.label, RiskLabel::Caution),
        "{:?} {launch_ids:?}",
        launch.label
    );
    ensure!(launch.as_of_block == Some(fixture.slot));

    // Token-2022: permanent delegate, 10% fee with an authority, transfer hook.
    let t22 = analyse("t22").await?;
    ensure!(signal(&t22, "permanent_delegate")?.severity == Severity::Critical);
    let fee = signal(&t22, "transfer_fee")?;
    ensure!(
        fee.evidence.raw["basis_points"] == 1000 && fee.severity == Severity::High,
        "{fee:?}"
    );
    ensure!(signal(&t22, "transfer_hook")?.evidence.raw["program"].is_string());
    ensure!(
        t22.meta.transfer_tax == Some(0.1) && t22.label == RiskLabel::Critical,
        "{:?}",
        t22.label
    );

    // Mutable metadata through the Token-2022 extension.
    let mutable = analyse("mutable").await?;
    ensure!(mutable.meta.name == "Mutable Meme" && mutable.meta.symbol == "MUT");
    ensure!(signal(&mutable, "metadata_mutable")?.evidence.raw["source"] == "token-2022");

    // One owner, 80% of what holders hold, through three token accounts.
    let whale = analyse("whale").await?;
    let dominance = signal(&whale, "single_holder_dominance")?;
    ensure!(
        dominance.evidence.raw["owner"] == fixture.named("whale_owner"),
        "owners, not token accounts: {dominance:?}"
    );
    let share = dominance.evidence.raw["share"].as_f64().context("share")?;
    ensure!((share - 80.0 / 101.0).abs() < 1e-9, "80M of 101M: {share}");
    ensure!(ids(&whale).contains("lp_unlocked") && whale.label == RiskLabel::Critical);
    // 2,500 signatures, paged back to the first one.
    ensure!(
        whale.meta.first_seen_block == Some(1001),
        "{:?}",
        whale.meta.first_seen_block
    );
    ensure!(
        whale.meta.token_program.as_deref() == Some("spl-token")
            && t22.meta.token_program.as_deref() == Some("token-2022")
    );
    ensure!(whale
        .coverage
        .checks
        .iter()
        .any(|c| c.id.to_string() == "other_amm_pools" && c.status == types::CheckStatus::Clear));

    // Frozen by default.
    let frozen = analyse("frozen").await?;
    ensure!(
        signal(&frozen, "default_frozen")?.severity == Severity::Critical
            && frozen.label != RiskLabel::Safe
    );
    ensure!(ids(&frozen).contains("freeze_authority_active"));

    // Same shapes as EVM: both forms, explanation, badge.
    let query = ok(client
        .token_analyze_query(&arg(&fixture.named("launch")), arg("sol"), None)
        .await)?
    .into_inner();
    ensure!(serde_json::to_value(&query)? == serde_json::to_value(&launch)?);
    let explanation = ok(client
        .token_explanation_get(arg("sol"), &arg(&fixture.named("t22")), None)
        .await)?
    .into_inner();
    ensure!(explanation
        .signals
        .iter()
        .any(|s| s.id.to_string() == "permanent_delegate" && !s.meaning.is_empty()));
    ok(client
        .token_meta_get(arg("sol"), &arg(&fixture.named("whale")), None)
        .await)?;
    let (status, _, svg) = badge(
        client
            .token_badge_get(arg("sol"), &arg(&fixture.named("frozen")))
            .await,
    )
    .await?;
    ensure!(status == 200 && svg.contains("critical"), "{svg}");
    // Errors are badges too: a wallet is not a token, a bad address is refused.
    let (status, _, svg) = badge(
        client
            .token_badge_get(arg("sol"), &arg(&fixture.named("wallet")))
            .await,
    )
    .await?;
    ensure!(status == 404 && svg.contains(">not a token<"), "{svg}");
    let answer = server
        .raw(&server.owner_key(), "/v1/token/sol/0OIl/badge", None)
        .await?;
    let status = answer.status();
    let svg = answer.text().await?;
    ensure!(status == 422 && svg.contains(">bad address<"), "{svg}");
    server.stop().await
}

conformance!(solana_bad_input_and_node_failures);
pub async fn solana_bad_input_and_node_failures(backend: Backend) -> anyhow::Result<()> {
    let fixture = Fixture::load()?;
    let node = solana_node::start(fixture.clone()).await?;
    let server = TestServer::start_with(backend, sol_config(&fixture, &node)).await?;
    let client = server.client(&server.owner_key());
    let bad = server
        .raw_err(
            &server.owner_key(),
            "/v1/token/sol/0OIlnotbase58/analyze",
            None,
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    ensure!(
        bad.error.message.contains("base58"),
        "{}",
        bad.error.message
    );
    let short = server
        .raw_err(
            &server.owner_key(),
            "/v1/token/sol/1111111111/analyze",
            None,
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    ensure!(
        short.error.message.contains("32"),
        "{}",
        short.error.message
    );
    let wallet = err(
        client
            .token_analyze(arg("sol"), &arg(&fixture.named("wallet")), None)
            .await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    ensure!(
        wallet.error.message.contains("not a mint"),
        "{}",
        wallet.error.message
    );
    let token_account = fixture
        .token_accounts_of(&fixture.named("launch"))
        .first()
        .context("a token account")?
        .0
        .clone();
    err(
        client
            .token_analyze(arg("sol"), &arg(&token_account), None)
            .await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    err(
        client
            .token_analyze(
                arg("sol"),
                &arg("So11111111111111111111111111111111111111113"),
                None,
            )
            .await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    server.stop().await?;

    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        format!("http://{}", listener.local_addr()?)
    };
    let server = TestServer::start_with(backend, sol_config(&fixture, &closed)).await?;
    let down = err(
        server
            .client(&server.owner_key())
            .token_analyze(arg("sol"), &arg(&fixture.named("launch")), None)
            .await,
        503,
        ErrorCode::UpstreamUnavailable,
        true,
    )?;
    ensure!(header(down.headers(), "retry-after")?.parse::<u64>()? >= 1);
    server.stop().await
}

conformance!(solana_wallets_hold_and_delegate);
pub async fn solana_wallets_hold_and_delegate(backend: Backend) -> anyhow::Result<()> {
    let fixture = Fixture::load()?;
    let node = solana_node::start(fixture.clone()).await?;
    let server = TestServer::start_with(backend, sol_config(&fixture, &node)).await?;
    let client = server.client(&server.owner_key());
    let wallet = ok(client
        .wallet_analyze(arg("sol"), &arg(&fixture.named("holder")))
        .await)?
    .into_inner();
    ensure!(
        wallet.facts.kind == types::AccountKind::Eoa
            && (wallet.facts.native_balance - 10.0).abs() < 1e-9,
        "{:?}",
        wallet.facts
    );
    ensure!(wallet.holdings.len() == 3, "{:?}", wallet.holdings);
    // A token whose only pool is a Raydium CLMM pool is priced too.
    let clmm = wallet
        .holdings
        .iter()
        .find(|h| h.token == fixture.named("clmm_healthy"))
        .context("clmm_healthy held")?;
    let price = fixture.expect["clmm_healthy"]["price"]
        .as_f64()
        .context("price")?;
    ensure!(
        clmm.amount == 1_000.0
            && clmm
                .value_usd
                .is_some_and(|v| (v - 1_000.0 * price).abs() < 1e-6 * v),
        "{clmm:?}"
    );
    let launch = wallet
        .holdings
        .iter()
        .find(|h| h.token == fixture.named("launch"))
        .context("launch held")?;
    ensure!(
        launch.amount == 5_000_000.0 && launch.value_usd.is_some_and(|v| (v - 750.0).abs() < 1e-6),
        "{launch:?}"
    );
    ensure!(launch
        .risk
        .as_ref()
        .is_some_and(|r| r.label == RiskLabel::Caution));
    let t22 = wallet
        .holdings
        .iter()
        .find(|h| h.token == fixture.named("t22"))
        .context("t22 held")?;
    ensure!(t22
        .risk
        .as_ref()
        .is_some_and(|r| r.label == RiskLabel::Critical
            && r.signals
                .iter()
                .any(|i| i.to_string() == "permanent_delegate")));
    ensure!(wallet.approvals.len() == 1, "{:?}", wallet.approvals);
    let delegation = &wallet.approvals[0];
    ensure!(
        delegation.spender == fixture.named("holder_spender")
            && delegation.unlimited
            && delegation.spender_kind == types::AccountKind::Eoa
    );
    ensure!(
        wallet
            .signals
            .iter()
            .any(|s| s.id.to_string() == "unlimited_approval_to_eoa"),
        "{:?}",
        wallet.signals
    );

    let fresh = ok(client
        .wallet_analyze(
            arg("sol"),
            &arg("4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"),
        )
        .await)?
    .into_inner();
    ensure!(
        fresh.label == RiskLabel::Safe && fresh.holdings.is_empty() && fresh.coverage.ratio == 1.0,
        "{fresh:?}"
    );
    server
        .raw_err(
            &server.owner_key(),
            "/v1/wallet/sol/not-base58!/analyze",
            None,
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    server.stop().await
}
