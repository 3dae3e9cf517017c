//! The adversarial corpus: each token's truth proven with real
//! transactions, then the service's band and signals through the client.

use std::collections::BTreeSet;

use anyhow::{ensure, Context as _};
use riskintel_client::{types, Client};
use riskintel_server::config::Config;
use riskintel_tests::corpus::{self, Truth, Venue};
use riskintel_tests::rig::{self, RigChain};
use riskintel_tests::{arg, ok, Backend, TestServer};

fn label_name(label: types::RiskLabel) -> &'static str {
    match label {
        types::RiskLabel::Safe => "safe",
        types::RiskLabel::Caution => "caution",
        types::RiskLabel::Risky => "risky",
        types::RiskLabel::Critical => "critical",
    }
}

/// What is wrong with `analysis` against `truth`, if anything.
fn mismatch(truth: &Truth, analysis: &types::TokenAnalysis) -> Option<String> {
    let ids: BTreeSet<String> = analysis.signals.iter().map(|s| s.id.to_string()).collect();
    let label = label_name(analysis.label);
    let missing: Vec<_> = truth
        .present
        .iter()
        .filter(|id| !ids.contains(**id))
        .collect();
    let unexpected: Vec<_> = truth
        .absent
        .iter()
        .filter(|id| ids.contains(**id))
        .collect();
    (!truth.labels.contains(&label) || !missing.is_empty() || !unexpected.is_empty()).then(|| {
        format!("{}: {label} {} (want {:?}), missing {missing:?}, unexpected {unexpected:?}, signals {ids:?}", truth.name, analysis.score, truth.labels)
    })
}

conformance!(detection_corpus_matches_the_truth);
pub async fn detection_corpus_matches_the_truth(backend: Backend) -> anyhow::Result<()> {
    let rig = rig::shared()?;
    let table = corpus::table();
    tokio::task::spawn_blocking(corpus::prove_all).await??;
    let wild = tokio::task::spawn_blocking(corpus::WildRig::shared).await??;
    let server = TestServer::start_on_rig(backend).await?;
    let client = server.client(&server.owner_key());
    // The wild tokens, on their mainnets' chain ids, through the server's own mainnet defaults.
    let mut config = Config {
        chains: wild.chains_config(&wild.eth.url, &wild.bsc.url),
        ..Config::default()
    };
    config.market.enabled = false;
    let wild_server = TestServer::start_with(backend, config).await?;
    let wild_client = wild_server.client(&wild_server.owner_key());
    let mut wrong = Vec::new();
    for truth in &table {
        let (client, chain) = match truth.venue {
            Venue::Rig => (&client, &rig.a),
            venue => (&wild_client, wild.chain(venue)),
        };
        let analysis = ok(client
            .token_analyze(
                arg(truth.venue.chain()),
                &arg(&chain.token(truth.name)),
                None,
            )
            .await)?
        .into_inner();
        wrong.extend(mismatch(truth, &analysis));
    }
    // Taxes are judged on the round trip: 8% each way loses 15.4%.
    let round_trip = ok(wild_client
        .token_analyze(arg("bsc"), &arg(&wild.bsc.token("devwallettax")), None)
        .await)?
    .into_inner();
    let sell_tax = round_trip
        .signals
        .iter()
        .find(|s| s.id == types::CheckId::SellTax)
        .context("sell_tax")?;
    ensure!(
        sell_tax.weight >= 0.2
            && sell_tax.evidence.raw["round_trip_loss"]
                .as_f64()
                .is_some_and(|l| l > 0.15),
        "{} {}",
        sell_tax.weight,
        sell_tax.evidence.raw
    );
    launches_are_explained(&wild_client, &wild.eth).await?;
    wild_server.stop().await?;
    ensure!(
        wrong.is_empty(),
        "{} of {} corpus tokens judged wrongly:\n{}",
        wrong.len(),
        table.len(),
        wrong.join("\n")
    );

    // The evidence of a time restriction names the wait.
    let cooldown = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("cooldown")), None)
        .await)?
    .into_inner();
    let signal = cooldown
        .signals
        .iter()
        .find(|s| s.id == types::CheckId::TradingCooldown)
        .context("trading_cooldown")?;
    ensure!(
        signal.evidence.raw["wait_at_most_seconds"] == 3_600,
        "{:?}",
        signal.evidence.raw
    );
    let horizons = cooldown.simulations[0]
        .horizons
        .as_ref()
        .context("horizons")?;
    ensure!(
        horizons
            .iter()
            .any(|h| h.horizon == types::Horizon::OneHour && h.ok),
        "{horizons:?}"
    );
    ensure!(horizons
        .iter()
        .filter(|h| h.horizon == types::Horizon::NextBlock)
        .all(|h| !h.ok));
    server.stop().await
}

/// The launch signals name their wallets: who handed, funded or bought for
/// whom, and what each still holds; the explanation carries them.
async fn launches_are_explained(client: &Client, eth: &RigChain) -> anyhow::Result<()> {
    let signal = |analysis: &types::TokenAnalysis, id: types::CheckId| {
        analysis
            .signals
            .iter()
            .find(|s| s.id == id)
            .cloned()
            .with_context(|| format!("{id:?} in {:?}", analysis.signals))
    };
    let analyse = |name: &'static str| async move {
        ok(client
            .token_analyze(arg("eth"), &arg(&eth.token(name)), None)
            .await)
        .map(|r| r.into_inner())
    };
    let insiders = signal(&analyse("insiders").await?, types::CheckId::LaunchCluster)?;
    let raw = &insiders.evidence.raw;
    ensure!(
        raw["insiders"] == 20
            && raw["members"]
                .as_array()
                .is_some_and(|m| m.iter().all(|m| m["how"] == "handed"))
            && raw["share"]
                .as_f64()
                .is_some_and(|s| (0.44..0.46).contains(&s))
            && insiders.severity == types::Severity::High,
        "{raw}"
    );
    // The insider's wallet analysis says what it is in the token it holds.
    let insider = raw["members"][0]["address"].as_str().context("a member")?;
    let wallet = ok(client.wallet_analyze(arg("eth"), &arg(insider)).await)?.into_inner();
    let holding = (wallet.holdings.iter())
        .find(|h| h.token.eq_ignore_ascii_case(&eth.token("insiders")))
        .context("the insiders token among the holdings")?;
    ensure!(
        holding.risk.as_ref().and_then(|r| r.launch_role) == Some(types::LaunchRole::Insider),
        "{holding:?}"
    );
    let bundled = analyse("bundled").await?;
    let raw = signal(&bundled, types::CheckId::BundledLaunch)?
        .evidence
        .raw;
    ensure!(
        raw["bundlers"].as_array().is_some_and(|b| b.len() == 12
            && b.iter()
                .all(|m| m["how"] == "funded" && m["via"] == raw_creator(&bundled)))
            && raw["bundled_share"]
                .as_f64()
                .is_some_and(|s| (0.33..0.37).contains(&s)),
        "{raw}"
    );
    let snipers = signal(&analyse("snipers").await?, types::CheckId::BundledLaunch)?;
    ensure!(
        snipers.severity == types::Severity::Info
            && snipers.evidence.raw["snipers"]
                .as_array()
                .is_some_and(|s| s.len() == 5)
            && snipers.evidence.raw["bundlers"]
                .as_array()
                .is_some_and(Vec::is_empty),
        "{:?}",
        snipers
    );
    let sold = signal(&analyse("creatorsold").await?, types::CheckId::CreatorSold)?;
    ensure!(
        sold.evidence.raw["share_first_day"]
            .as_f64()
            .is_some_and(|s| (0.79..0.81).contains(&s)),
        "{}",
        sold.evidence.raw
    );
    let explained = ok(client
        .token_explanation_get(arg("eth"), &arg(&eth.token("insiders")), None)
        .await)?
    .into_inner();
    ensure!(
        explained
            .signals
            .iter()
            .any(|s| s.id == types::CheckId::LaunchCluster && s.numbers.contains("45.0%")),
        "{:?}",
        explained.signals
    );
    Ok(())
}

/// The creator named in an analysis's metadata.
fn raw_creator(analysis: &types::TokenAnalysis) -> serde_json::Value {
    serde_json::json!(analysis.meta.creator)
}
