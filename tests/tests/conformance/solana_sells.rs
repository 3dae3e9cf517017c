//! The Solana sell check on the token's side: small transfers into the
//! pool, simulated by the node (here LiteSVM running the real SPL Token and
//! Token-2022 programs), from the pool's own account and the largest
//! holders, within three round trips; a hooked mint's transfers carry the
//! extra accounts its hook's list names, and a buyer's round trip (bought
//! from the pool, sold back) stands for the pool's own transfer, which
//! Token-2022 does not pass through the hook.

use anyhow::ensure;
use riskintel_client::types::{self, CheckStatus, Severity};

use riskintel_tests::Backend;

use super::solana::{analyse_counted, counted_sol_server, ids, signal};

fn status(a: &types::TokenAnalysis, id: &str) -> Option<CheckStatus> {
    (a.coverage.checks.iter())
        .find(|c| c.id.to_string() == id)
        .map(|c| c.status)
}

conformance!(solana_sells_are_checked_on_the_tokens_side);
pub async fn solana_sells_are_checked_on_the_tokens_side(backend: Backend) -> anyhow::Result<()> {
    let (fixture, proxy, server) = counted_sol_server(backend).await?;
    let client = server.client(&server.owner_key());
    let analyse = |name: &'static str| {
        let (client, proxy, fixture) = (&client, &proxy, &fixture);
        async move {
            let (a, round_trips) = analyse_counted(client, proxy, fixture, name).await?;
            ensure!(round_trips <= 3, "{name}: {round_trips} round trips");
            anyhow::Ok(a)
        }
    };
    let (honeypot, trapped) = ("honeypot", "holders_trapped");

    // Every transfer passes: the token's side of a sell is clear.
    let plain = analyse("sell_plain").await?;
    ensure!(
        status(&plain, honeypot) == Some(CheckStatus::Clear)
            && status(&plain, trapped) == Some(CheckStatus::Clear),
        "sell_plain: {:?}",
        plain.coverage.checks
    );

    // Holders whose accounts are frozen (by the freeze authority, or from
    // birth) cannot sell while the pool's own tokens move.
    for name in ["sell_frozen_holders", "sell_default_frozen"] {
        let a = analyse(name).await?;
        let s = signal(&a, trapped)?;
        ensure!(
            s.severity == Severity::Critical
                && s.detail.starts_with("3 of the 3")
                && status(&a, honeypot) == Some(CheckStatus::Clear),
            "{name}: {} {:?}",
            s.detail,
            ids(&a)
        );
    }

    // Nothing moves, or nothing arrives: nobody can sell.
    for (name, why) in [
        ("sell_nontransferable", "InstructionError"),
        ("sell_fee_all", "nothing arrived"),
    ] {
        let a = analyse(name).await?;
        let s = signal(&a, honeypot)?;
        ensure!(
            s.severity == Severity::Critical && s.detail.contains(why),
            "{name}: {}",
            s.detail
        );
        let transfers = s.evidence.raw["transfers"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        ensure!(transfers.len() == 4, "{name}: {}", s.evidence.raw);
    }
    // A hook that refuses transfers into the pool (the account its config,
    // an extra account, names): a buyer cannot sell, with the hook's error.
    let hooked = analyse("sell_hook_pool").await?;
    let s = signal(&hooked, honeypot)?;
    ensure!(
        s.severity == Severity::Critical
            && s.detail.contains("Custom")
            && s.detail.contains("6000"),
        "sell_hook_pool: {}",
        s.detail
    );
    let buyer = &s.evidence.raw["transfers"][0];
    ensure!(
        buyer["from"]
            .as_str()
            .is_some_and(|f| f.starts_with("buyer"))
            && buyer["status"] == "refused"
            && (buyer["logs"].as_array().into_iter().flatten())
                .any(|l| l.as_str().is_some_and(|l| l.contains("0x1770"))),
        "sell_hook_pool: {buyer}"
    );
    // A hook that lets all through: clear, the extras resolved and passed.
    let allowed = analyse("sell_hook_allow").await?;
    ensure!(
        status(&allowed, honeypot) == Some(CheckStatus::Clear)
            && status(&allowed, trapped) == Some(CheckStatus::Clear),
        "sell_hook_allow: {:?}",
        allowed.coverage.checks
    );
    server.stop().await
}
