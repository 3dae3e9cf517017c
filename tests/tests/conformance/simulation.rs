//! Honeypot and tax detection by trade simulation, on the anvil rig.

use std::collections::BTreeSet;

use anyhow::{ensure, Context as _};
use riskintel_client::types::{self, RiskLabel};
use riskintel_server::config::Config;
use riskintel_tests::rig::{self, Arg, Node};
use riskintel_tests::{arg, ok, Backend, TestServer};

fn ids(analysis: &types::TokenAnalysis) -> BTreeSet<String> {
    analysis.signals.iter().map(|s| s.id.to_string()).collect()
}

fn near(value: Option<f64>, truth: f64) -> bool {
    value.is_some_and(|v| (v - truth).abs() <= 0.01)
}

conformance!(simulation_finds_honeypots_and_taxes);
pub async fn simulation_finds_honeypots_and_taxes(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let client = server.client(&server.owner_key());
    let analyse = |name: &'static str| {
        let address = rig.a.token(name);
        let client = &client;
        async move {
            anyhow::Ok(
                ok(client.token_analyze(arg("eth"), &arg(&address), None).await)?.into_inner(),
            )
        }
    };

    for name in ["sellrevert", "whitelist", "trap"] {
        let analysis = analyse(name).await?;
        ensure!(
            ids(&analysis).contains("honeypot"),
            "{name}: {:?}",
            ids(&analysis)
        );
        ensure!(
            analysis.label == RiskLabel::Critical,
            "{name}: every honeypot is critical ({:?})",
            analysis.label
        );
        let honeypot = analysis
            .signals
            .iter()
            .find(|s| s.id.to_string() == "honeypot")
            .unwrap();
        ensure!(honeypot.weight == 1.0 && honeypot.severity == types::Severity::Critical);
        let sim = analysis.simulations.first().context("a simulation")?;
        ensure!(
            sim.buy.ok && sim.sell.as_ref().is_some_and(|s| !s.ok),
            "{name}: {sim:?}"
        );
        ensure!(sim.max_sell_share == Some(0.0));
    }
    let reverted = analyse("sellrevert").await?;
    let reason = reverted.simulations[0]
        .sell
        .as_ref()
        .and_then(|s| s.revert_reason.clone());
    ensure!(
        reason.as_deref() == Some("sell not allowed"),
        "decoded revert reason: {reason:?}"
    );
    let whitelist = analyse("whitelist").await?;
    ensure!(
        whitelist.simulations[0]
            .sell
            .as_ref()
            .and_then(|s| s.revert_reason.as_deref())
            == Some("not whitelisted")
    );
    let trap = analyse("trap").await?;
    ensure!(
        ids(&trap).contains("transfer_blocked"),
        "the trapped buyer cannot transfer either"
    );

    let tax99 = analyse("tax99").await?;
    ensure!(
        ids(&tax99).contains("honeypot") && ids(&tax99).contains("sell_tax"),
        "{:?}",
        ids(&tax99)
    );
    // One id per check: the degree is in the severity.
    let sell_tax = tax99
        .signals
        .iter()
        .find(|s| s.id == types::CheckId::SellTax)
        .context("sell tax")?;
    ensure!(
        sell_tax.severity == types::Severity::Critical,
        "a 99% sell tax is critical: {sell_tax:?}"
    );
    ensure!(tax99.label == RiskLabel::Critical);
    ensure!(
        near(tax99.meta.sell_tax, 0.99),
        "sell tax {:?}",
        tax99.meta.sell_tax
    );
    ensure!(near(tax99.meta.buy_tax, 0.0) && near(tax99.meta.transfer_tax, 0.0));

    let maxsell = analyse("maxsell").await?;
    ensure!(
        ids(&maxsell).contains("sell_limit") && !ids(&maxsell).contains("honeypot"),
        "{:?}",
        ids(&maxsell)
    );
    let share = maxsell.simulations[0]
        .max_sell_share
        .context("max sell share")?;
    ensure!(share > 0.0 && share < 0.01, "largest sell {share}");
    ensure!(maxsell.label == RiskLabel::Critical, "{:?}", maxsell.label);

    let gated = analyse("gated").await?;
    // Buys fail for a fresh wallet while the owner trades: trading is not enabled (risky on its own).
    ensure!(
        ids(&gated).contains("trading_not_enabled") && !ids(&gated).contains("cannot_buy"),
        "{:?}",
        ids(&gated)
    );
    ensure!(
        !ids(&gated).contains("honeypot") && gated.label == RiskLabel::Risky,
        "{:?} {:?}",
        gated.label,
        ids(&gated)
    );
    ensure!(!gated.simulations[0].buy.ok && gated.simulations[0].buy.revert_reason.is_some());
    let unknown: Vec<_> = gated
        .coverage
        .checks
        .iter()
        .filter(|c| c.status == types::CheckStatus::Unknown)
        .map(|c| c.id.to_string())
        .collect();
    ensure!(
        unknown.contains(&"honeypot".to_string()),
        "sellability is unknown, not clear, when the buy fails: {unknown:?}"
    );

    let fee3 = analyse("fee3").await?;
    let fee_ids = ids(&fee3);
    ensure!(!fee_ids.contains("honeypot"), "{fee_ids:?}");
    ensure!(
        fee_ids.contains("buy_tax")
            && fee_ids.contains("sell_tax")
            && fee_ids.contains("transfer_tax"),
        "{fee_ids:?}"
    );
    for s in fee3
        .signals
        .iter()
        .filter(|s| [types::CheckId::BuyTax, types::CheckId::SellTax].contains(&s.id))
    {
        ensure!(
            s.severity == types::Severity::Low,
            "a 3% buy or sell tax is low: {s:?}"
        );
    }
    ensure!(
        near(fee3.meta.buy_tax, 0.03)
            && near(fee3.meta.sell_tax, 0.03)
            && near(fee3.meta.transfer_tax, 0.03),
        "{:?}",
        fee3.meta
    );
    ensure!(
        matches!(fee3.label, RiskLabel::Safe | RiskLabel::Caution),
        "a 3% fee token is not risky: {:?}",
        fee3.label
    );

    let plain = analyse("plain").await?;
    ensure!(
        plain.label == RiskLabel::Safe,
        "{:?} {:?}",
        plain.label,
        ids(&plain)
    );
    ensure!(
        near(plain.meta.buy_tax, 0.0)
            && near(plain.meta.sell_tax, 0.0)
            && near(plain.meta.transfer_tax, 0.0)
    );
    let sim = &plain.simulations[0];
    ensure!(
        sim.buy.gas_used.is_some_and(|g| g > 0)
            && sim
                .sell
                .as_ref()
                .and_then(|s| s.gas_used)
                .is_some_and(|g| g > 0)
    );
    ensure!(
        sim.simulator != rig.a.deployer.to_checksum(None),
        "a fresh random simulator address"
    );
    ensure!(plain.coverage.ratio == 1.0);

    // Pools quoted only in the stablecoin are simulated too (WETH → TUSD first).
    let usd_plain = analyse("usdplain").await?;
    let sim = usd_plain
        .simulations
        .first()
        .context("a simulation on the TUSD pool")?;
    ensure!(
        sim.quote_symbol == "TUSD" && sim.buy.ok && sim.sell.as_ref().is_some_and(|s| s.ok),
        "{sim:?}"
    );
    ensure!(
        near(sim.buy.tax, 0.0) && near(usd_plain.meta.sell_tax, 0.0),
        "{sim:?}"
    );
    ensure!(
        (sim.buy.amount_in.unwrap_or_default() - 300.0).abs() < 1.0,
        "1% of the 30,000 TUSD reserve: {:?}",
        sim.buy.amount_in
    );
    ensure!(
        usd_plain.label == RiskLabel::Safe,
        "{:?} {:?}",
        usd_plain.label,
        ids(&usd_plain)
    );
    let usd_trap = analyse("usdtrap").await?;
    ensure!(
        ids(&usd_trap).contains("honeypot") && usd_trap.label == RiskLabel::Critical,
        "{:?}",
        ids(&usd_trap)
    );

    // Explanation and meta show the taxes.
    let explanation = ok(client
        .token_explanation_get(arg("eth"), &arg(&rig.a.token("tax99")), None)
        .await)?
    .into_inner();
    ensure!(explanation
        .signals
        .iter()
        .any(|s| s.id.to_string() == "honeypot" && s.meaning.contains("cannot sell")));
    let meta = ok(client
        .token_meta_get(arg("eth"), &arg(&rig.a.token("fee3")), None)
        .await)?
    .into_inner();
    ensure!(near(meta.sell_tax, 0.03));
    server.stop().await
}

conformance!(simulation_never_changes_chain_state);
pub async fn simulation_never_changes_chain_state(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let url = rig.a.url.clone();
    let (token, pair, weth) = (rig.a.tokens["tax99"], rig.a.pairs["tax99"], rig.a.weth);
    let snapshot = move || -> anyhow::Result<(u64, Vec<String>)> {
        let node = Node::new(&url);
        let words = [
            node.view_word(token, "balanceOf(address)", &[Arg::Addr(pair)])?,
            node.view_word(weth, "balanceOf(address)", &[Arg::Addr(pair)])?,
            node.view_word(token, "totalSupply()", &[])?,
        ];
        Ok((
            node.block_number()?,
            words.iter().map(|w| w.to_string()).collect(),
        ))
    };
    let before = tokio::task::spawn_blocking(snapshot.clone()).await??;
    let client = server.client(&server.owner_key());
    ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("tax99")), Some(true))
        .await)?;
    let after = tokio::task::spawn_blocking(snapshot).await??;
    ensure!(
        before == after,
        "simulation changed the chain: {before:?} → {after:?}"
    );
    server.stop().await
}

/// A JSON-RPC proxy that refuses `eth_call` with state overrides, like
/// nodes that do not support them.
async fn no_override_node(target: String) -> anyhow::Result<String> {
    refusing_node(target, |item| {
        item["method"] == "eth_call" && item["params"].as_array().is_some_and(|p| p.len() > 2)
    })
    .await
}

/// A JSON-RPC proxy that answers the calls `refuse` picks with "invalid
/// params", as a node without that feature does, and forwards the rest.
async fn refusing_node(
    target: String,
    refuse: fn(&serde_json::Value) -> bool,
) -> anyhow::Result<String> {
    riskintel_tests::refusing_node::start(
        target,
        riskintel_tests::refusing_node::Refusal::calls(refuse),
    )
    .await
}

conformance!(simulation_not_run_is_reported_not_passed);
pub async fn simulation_not_run_is_reported_not_passed(backend: Backend) -> anyhow::Result<()> {
    let rig = rig::shared()?;
    let mut served = rig.a.clone();
    served.url = no_override_node(rig.a.url.clone()).await?;
    let config = Config {
        chains: rig::chains_config(&[("eth", &served)]),
        ..Config::default()
    };
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    let analysis = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("sellrevert")), None)
        .await)?
    .into_inner();
    ensure!(analysis.simulations.is_empty());
    // The simulator contract needs a state override; a wallet's trades
    // (eth_simulateV1, a balance only) do not, and prove the honeypot.
    let honeypot = analysis
        .signals
        .iter()
        .find(|s| s.id == types::CheckId::Honeypot)
        .context("the wallet's honeypot")?;
    ensure!(
        honeypot.detail.contains("fresh wallet"),
        "{}",
        honeypot.detail
    );
    let buy_tax = analysis
        .coverage
        .checks
        .iter()
        .find(|c| c.id.to_string() == "buy_tax")
        .context("buy_tax check")?;
    ensure!(buy_tax.status == types::CheckStatus::Unknown, "{buy_tax:?}");
    let reason = buy_tax.reason.clone().unwrap_or_default();
    ensure!(reason.contains("state override"), "{reason}");
    ensure!(analysis.label == RiskLabel::Critical && analysis.coverage.ratio < 1.0);
    let explanation = ok(client
        .token_explanation_get(arg("eth"), &arg(&rig.a.token("sellrevert")), None)
        .await)?
    .into_inner();
    ensure!(explanation
        .not_checked
        .iter()
        .any(|c| c.id.to_string() == "buy_tax"));

    // No pool at all: not run, with that reason.
    let no_pool = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("bytes32")), None)
        .await)?
    .into_inner();
    let check = no_pool
        .coverage
        .checks
        .iter()
        .find(|c| c.id.to_string() == "honeypot")
        .context("honeypot check")?;
    ensure!(
        check.status == types::CheckStatus::Unknown
            && check
                .reason
                .as_deref()
                .unwrap_or_default()
                .contains("no pool")
    );
    server.stop().await
}

conformance!(simulator_bytecode_matches_its_source);
/// The committed simulator code is what its committed source compiles to.
pub async fn simulator_bytecode_matches_its_source(_backend: Backend) -> anyhow::Result<()> {
    // Every contract the server injects by state override.
    for (name, committed, path) in [
        (
            "TradeSimulator",
            riskintel_server::simulation::SIMULATOR_RUNTIME_HEX,
            "crates/analysis/src/simulation/simulator/TradeSimulator.runtime.hex",
        ),
        (
            "PrivilegeProbe",
            riskintel_server::simulation::abi::PROBE_RUNTIME_HEX,
            "crates/analysis/src/simulation/simulator/PrivilegeProbe.runtime.hex",
        ),
        (
            "PoolLens",
            riskintel_server::chains::evm::pools::v3::LENS_RUNTIME_HEX,
            "crates/chains/src/evm/pools/lens/PoolLens.runtime.hex",
        ),
        (
            "BoundedMulticall",
            riskintel_server::chains::evm::multicall::BOUNDED_RUNTIME_HEX,
            "crates/chains/src/evm/multicall/BoundedMulticall.runtime.hex",
        ),
    ] {
        let compiled = rig::artifact(name)?.deployed.context("runtime code")?;
        ensure!(
            format!("0x{}", hex::encode(&compiled)) == committed.trim(),
            "{path} is not the compiled {name}.sol: run `cargo xtask rig` and copy \
             build/{name}.json's deployedBytecode there"
        );
    }
    Ok(())
}

conformance!(simulation_without_later_blocks_stays_conservative);
/// A node that cannot simulate later blocks (no `eth_simulateV1`): a sell
/// that fails now is still a honeypot (critical), with the horizons
/// unknown and the node's words as the reason; a token that sells now is
/// not affected.
pub async fn simulation_without_later_blocks_stays_conservative(
    backend: Backend,
) -> anyhow::Result<()> {
    let rig = rig::shared()?;
    let mut served = rig.a.clone();
    served.url =
        refusing_node(rig.a.url.clone(), |item| item["method"] == "eth_simulateV1").await?;
    let config = Config {
        chains: rig::chains_config(&[("eth", &served)]),
        ..Config::default()
    };
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    let status = |analysis: &types::TokenAnalysis, id: &str| {
        analysis
            .coverage
            .checks
            .iter()
            .find(|c| c.id.to_string() == id)
            .map(|c| (c.status, c.reason.clone().unwrap_or_default()))
    };
    for name in ["sellrevert", "cooldown"] {
        let analysis = ok(client
            .token_analyze(arg("eth"), &arg(&rig.a.token(name)), None)
            .await)?
        .into_inner();
        let honeypot = analysis
            .signals
            .iter()
            .find(|s| s.id == types::CheckId::Honeypot)
            .context("honeypot")?;
        ensure!(
            honeypot.weight == 0.8 && analysis.label == RiskLabel::Critical,
            "{name}: {honeypot:?}"
        );
        let (cooldown, reason) =
            status(&analysis, "trading_cooldown").context("trading_cooldown")?;
        ensure!(
            cooldown == types::CheckStatus::Unknown && reason.contains("eth_simulateV1"),
            "{name}: {reason}"
        );
        ensure!(
            analysis.simulations[0].horizons.is_none()
                && analysis.simulations[0].horizons_error.is_some()
        );
    }
    let plain = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("plain")), None)
        .await)?
    .into_inner();
    ensure!(status(&plain, "honeypot").is_some_and(|(s, _)| s == types::CheckStatus::Clear));
    ensure!(
        status(&plain, "one_sell_per_block").is_some_and(|(s, _)| s == types::CheckStatus::Unknown)
    );
    server.stop().await
}
