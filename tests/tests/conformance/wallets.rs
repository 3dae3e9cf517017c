//! Wallet analysis on the anvil rig, through the generated client.

use anyhow::{ensure, Context as _};
use riskintel_api::Plan;
use riskintel_client::types::{self, AccountKind, ErrorCode, RiskLabel, Scope};
use riskintel_tests::rig::{self, e18, random_address, Arg, Node};
use riskintel_tests::{arg, err, ok, Backend, TestServer};

conformance!(wallet_exposure_approvals_and_revocation);
pub async fn wallet_exposure_approvals_and_revocation(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let a = rig.a.clone();
    let (wallet, stranger) = (random_address(), random_address());
    let setup = a.clone();
    tokio::task::spawn_blocking(move || -> anyhow::Result<()> {
        let node = Node::new(&setup.url);
        // From holders the scenario funded (plain: 1000…, sellrevert: 10000…).
        for (token, source) in [
            ("plain", rig::holder(1_000)),
            ("sellrevert", rig::holder(10_000)),
        ] {
            node.impersonate(source)?;
            node.exec(
                source,
                setup.tokens[token],
                "transfer(address,uint256)",
                &[Arg::Addr(wallet), Arg::Uint(e18(1_000))],
            )?;
        }
        node.impersonate(wallet)?;
        let max = alloy_primitives::U256::MAX;
        node.exec(
            wallet,
            setup.tokens["plain"],
            "approve(address,uint256)",
            &[Arg::Addr(stranger), Arg::Uint(max)],
        )?;
        node.exec(
            wallet,
            setup.tokens["plain"],
            "approve(address,uint256)",
            &[Arg::Addr(setup.router), Arg::Uint(max)],
        )?;
        Ok(())
    })
    .await??;

    let client = server.client(&server.owner_key());
    let address = wallet.to_checksum(None);
    let analysis = ok(client.wallet_analyze(arg("eth"), &arg(&address)).await)?.into_inner();
    ensure!(analysis.address == address && analysis.chain == "eth");
    ensure!(analysis.facts.kind == AccountKind::Eoa && analysis.facts.transaction_count == 2);
    ensure!(
        (analysis.facts.native_balance - 10.0).abs() < 0.01,
        "{}",
        analysis.facts.native_balance
    );
    ensure!(analysis.holdings.len() == 2, "{:?}", analysis.holdings);
    let plain = analysis
        .holdings
        .iter()
        .find(|h| h.token == a.token("plain"))
        .context("plain held")?;
    ensure!((plain.amount - 1_000.0).abs() < 1e-9 && plain.amount_raw == e18(1_000).to_string());
    ensure!(
        plain.value_usd.is_some_and(|v| (v - 75.0).abs() < 0.01),
        "{:?}",
        plain.value_usd
    );
    ensure!(plain
        .risk
        .as_ref()
        .is_some_and(|r| r.label == RiskLabel::Safe));
    let honeypot = analysis
        .holdings
        .iter()
        .find(|h| h.token == a.token("sellrevert"))
        .context("honeypot held")?;
    ensure!(honeypot
        .risk
        .as_ref()
        .is_some_and(|r| r.label == RiskLabel::Critical
            && r.signals.iter().any(|i| i.to_string() == "honeypot")));
    ensure!(
        analysis.exposure.honeypots == vec![a.token("sellrevert")]
            && analysis
                .exposure
                .unsellable
                .contains(&a.token("sellrevert"))
    );
    ensure!(
        analysis.exposure.critical_value_usd > 0.0
            && analysis.exposure.risky_or_critical_share.is_some()
    );
    let ids: Vec<String> = analysis.signals.iter().map(|s| s.id.to_string()).collect();
    ensure!(
        ids.iter().any(|i| i == "holds_honeypot")
            && ids.iter().any(|i| i == "unlimited_approval_to_eoa"),
        "{ids:?}"
    );
    ensure!(
        !ids.iter()
            .any(|i| i == "unlimited_approval_to_unknown_contract"),
        "the router is a known router: {ids:?}"
    );
    ensure!(analysis.approvals.len() == 2, "{:?}", analysis.approvals);
    let to_eoa = analysis
        .approvals
        .iter()
        .find(|x| x.spender == stranger.to_checksum(None))
        .context("approval to the EOA")?;
    ensure!(
        to_eoa.unlimited
            && to_eoa.spender_kind == AccountKind::Eoa
            && to_eoa.token_symbol == "PLAIN"
    );
    let to_router = analysis
        .approvals
        .iter()
        .find(|x| x.spender == a.router.to_checksum(None))
        .context("approval to the router")?;
    ensure!(
        to_router.spender_kind == AccountKind::KnownRouter
            && to_router.spender_name.as_deref() == Some("Rig Uniswap V2")
    );
    ensure!(
        analysis.label != RiskLabel::Safe && analysis.explanation.contains("revoke"),
        "{}",
        analysis.explanation
    );
    let evidence = &analysis
        .signals
        .iter()
        .find(|s| s.id.to_string() == "unlimited_approval_to_eoa")
        .unwrap()
        .evidence;
    ensure!(evidence.raw["approvals"][0]["spender"] == stranger.to_checksum(None));

    // Revoke (approve 0): gone on the next analysis.
    let revoke = a.clone();
    tokio::task::spawn_blocking(move || {
        Node::new(&revoke.url).exec(
            wallet,
            revoke.tokens["plain"],
            "approve(address,uint256)",
            &[Arg::Addr(stranger), Arg::Uint(alloy_primitives::U256::ZERO)],
        )
    })
    .await??;
    let after = ok(client.wallet_analyze(arg("eth"), &arg(&address)).await)?.into_inner();
    ensure!(
        !after
            .signals
            .iter()
            .any(|s| s.id.to_string() == "unlimited_approval_to_eoa"),
        "revoked approval still flagged"
    );
    ensure!(
        after.approvals.len() == 1 && after.approvals[0].spender_kind == AccountKind::KnownRouter
    );
    let check = after
        .coverage
        .checks
        .iter()
        .find(|c| c.id.to_string() == "unlimited_approval_to_eoa")
        .context("check")?;
    ensure!(check.status == types::CheckStatus::Clear);
    server.stop().await
}

conformance!(wallet_fresh_wallet_is_safe_with_honest_coverage);
pub async fn wallet_fresh_wallet_is_safe_with_honest_coverage(
    backend: Backend,
) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let client = server.client(&server.owner_key());
    let fresh = random_address().to_checksum(None);
    let analysis = ok(client.wallet_analyze(arg("eth"), &arg(&fresh)).await)?.into_inner();
    ensure!(analysis.label == RiskLabel::Safe && analysis.score == 0.0);
    ensure!(
        analysis.holdings.is_empty()
            && analysis.approvals.is_empty()
            && analysis.signals.is_empty()
    );
    ensure!(analysis.facts.transaction_count == 0 && analysis.facts.native_balance == 0.0);
    ensure!(
        analysis.coverage.ratio == 1.0,
        "the rig's whole history was read, so every check ran"
    );
    ensure!(analysis
        .coverage
        .checks
        .iter()
        .all(|c| c.status == types::CheckStatus::Clear));
    // A short look-back cannot see the whole history: the same wallet is no longer `safe`.
    let rig = rig::shared()?;
    let mut config = riskintel_server::config::Config {
        chains: rig::chains_config(&[("eth", &rig.a)]),
        ..Default::default()
    };
    config.analysis.holder_lookback_blocks = 5;
    let short = TestServer::start_with(backend, config).await?;
    let limited = ok(short
        .client(&short.owner_key())
        .wallet_analyze(arg("eth"), &arg(&fresh))
        .await)?
    .into_inner();
    ensure!(
        limited.coverage.ratio < 1.0 && limited.label != RiskLabel::Safe,
        "{:?}",
        limited.coverage
    );
    let unknown = limited
        .coverage
        .checks
        .iter()
        .find(|c| c.status == types::CheckStatus::Unknown)
        .context("an unknown check")?;
    ensure!(unknown
        .reason
        .as_deref()
        .unwrap_or_default()
        .contains("look-back"));
    short.stop().await?;
    server.stop().await
}

conformance!(wallet_needs_premium_and_scope);
pub async fn wallet_needs_premium_and_scope(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let wallet = random_address().to_checksum(None);
    let free = server.account("free", Plan::Free).await?;
    let refused = err(
        server
            .client(&free.key.key)
            .wallet_analyze(arg("eth"), &arg(&wallet))
            .await,
        403,
        ErrorCode::PremiumRequired,
        true,
    )?;
    ensure!(
        refused.error.message.contains("wallet analysis"),
        "{}",
        refused.error.message
    );
    let owner = server.client(&server.owner_key());
    let token_only = ok(owner
        .api_key_create(&types::ApiKeyCreate {
            name: arg("tokens only"),
            scopes: Some(vec![Scope::TokenRead]),
            expires_at: None,
        })
        .await)?
    .into_inner();
    err(
        server
            .client(&token_only.key)
            .wallet_analyze(arg("eth"), &arg(&wallet))
            .await,
        403,
        ErrorCode::Forbidden,
        true,
    )?;
    let key = server.owner_key();
    server
        .raw_err(
            &key,
            "/v1/wallet/eth/0x1234/analyze",
            None,
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    server
        .raw_err(
            &key,
            &format!("/v1/wallet/doge/{wallet}/analyze"),
            None,
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    server.stop().await
}
