//! Trades as a wallet makes them: a token that takes everything a contract
//! sells (an "anti-bot" rule) but lets every wallet trade is no honeypot,
//! whatever the injected simulator contract met; the honeypots stay
//! honeypots, now on a wallet's word too. And a contract the token calls
//! while its tokens move is described, not just named.

use anyhow::{ensure, Context as _};
use riskintel_client::types::{self, CheckStatus, RiskLabel};
use riskintel_tests::{arg, ok, rig, Backend, TestServer};

fn check(analysis: &types::TokenAnalysis, id: types::CheckId) -> Option<CheckStatus> {
    analysis
        .coverage
        .checks
        .iter()
        .find(|c| c.id == id)
        .map(|c| c.status)
}

conformance!(wallets_trade_where_the_simulator_contract_is_singled_out);
pub async fn wallets_trade_where_the_simulator_contract_is_singled_out(
    backend: Backend,
) -> anyhow::Result<()> {
    let rig = rig::shared()?;
    let server = TestServer::start_on_rig(backend).await?;
    let client = server.client(&server.owner_key());
    let analyse = |name: &'static str| {
        let client = &client;
        let token = rig.a.token(name);
        async move {
            ok(client.token_analyze(arg("eth"), &arg(&token), None).await)
                .with_context(|| name.to_string())
                .map(|a| a.into_inner())
        }
    };

    // A token without approve/transferFrom cannot be sold through a
    // router by anyone; the wallet's approval fails, which proves nothing
    // of the token's sells (the simulator contract's direct sell decides).
    let proxy = analyse("proxy").await?;
    ensure!(!proxy
        .signals
        .iter()
        .any(|s| s.id == types::CheckId::Honeypot));
    let antibot = analyse("antibot").await?;
    ensure!(
        check(&antibot, types::CheckId::Honeypot) == Some(CheckStatus::Clear)
            && !antibot
                .signals
                .iter()
                .any(|s| s.id == types::CheckId::Honeypot),
        "a token every wallet can sell was called a honeypot: {:#?}",
        antibot.signals
    );
    ensure!(antibot.label != RiskLabel::Critical, "{:?}", antibot.label);
    let sell_tax = antibot
        .signals
        .iter()
        .find(|s| s.id == types::CheckId::SellTax)
        .context("the wallet's 5% sell tax")?;
    ensure!(
        sell_tax.detail.contains("fresh wallet"),
        "{}",
        sell_tax.detail
    );
    println!("antibot: {:?}, {}", antibot.label, sell_tax.detail);

    // A pool quoted in a stablecoin: the wallet buys and sells through the
    // wrapped-native/stablecoin pool too, as a router route does, and its
    // trades decide where the contract's sells were taken whole.
    let usd = analyse("antibotusd").await?;
    let honeypot = usd
        .coverage
        .checks
        .iter()
        .find(|c| c.id == types::CheckId::Honeypot)
        .context("honeypot check")?;
    ensure!(honeypot.status == CheckStatus::Clear, "{honeypot:?}");
    let usd_tax = usd
        .signals
        .iter()
        .find(|s| s.id == types::CheckId::SellTax)
        .context("the wallet's sell tax through two pools")?;
    ensure!(
        usd_tax.detail.contains("fresh wallet"),
        "{}",
        usd_tax.detail
    );
    ensure!(usd.label != RiskLabel::Critical, "{:?}", usd.label);

    for name in ["sellrevert", "whitelist", "trap", "tax99"] {
        let analysis = analyse(name).await?;
        ensure!(
            analysis.label == RiskLabel::Critical
                && analysis
                    .signals
                    .iter()
                    .any(|s| s.id == types::CheckId::Honeypot),
            "{name}: {:?} {:#?}",
            analysis.label,
            analysis.signals
        );
    }
    // A cap on sells lets small sells through: no trap.
    let maxsell = analyse("maxsell").await?;
    ensure!(
        !maxsell
            .signals
            .iter()
            .any(|s| s.id == types::CheckId::Honeypot),
        "maxsell: {:#?}",
        maxsell.signals
    );
    // A token that asks another contract about every transfer: the signal
    // says what that contract is (code, proxy, owner).
    let callout = analyse("callout").await?;
    let called = callout
        .signals
        .iter()
        .find(|s| s.id == types::CheckId::ExternalCallInTransfer)
        .context("external_call_in_transfer")?;
    ensure!(
        called.detail.contains("a contract of")
            && called.evidence.raw["callees"][0]["code_size"]
                .as_u64()
                .is_some_and(|n| n > 0),
        "{} {}",
        called.detail,
        called.evidence.raw
    );
    println!("callout: {}", called.detail);
    server.stop().await
}
