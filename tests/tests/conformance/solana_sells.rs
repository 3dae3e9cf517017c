//! The Solana sell check on the token's side: a buyer's path (a new
//! wallet's account created, tokens in from the pool, then back out to it)
//! and small transfers into the pool from the largest holders, simulated by
//! the node (here LiteSVM running the real SPL Token and Token-2022
//! programs), within three round trips; a hooked mint's transfers carry the
//! extra accounts its hook's list names. What a buyer's path shows decides
//! `honeypot` and `cannot_buy`, not the mint's flags (issue 46).

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
    let (honeypot, trapped, cannot_buy) = ("honeypot", "holders_trapped", "cannot_buy");

    // Every transfer passes: the token's side of a sell is clear.
    let plain = analyse("sell_plain").await?;
    ensure!(
        [honeypot, trapped, cannot_buy]
            .iter()
            .all(|id| status(&plain, id) == Some(CheckStatus::Clear)),
        "sell_plain: {:?}",
        plain.coverage.checks
    );

    // Holders whose accounts the freeze authority froze cannot sell, while
    // a new buyer's tokens go into the pool.
    let frozen = analyse("sell_frozen_holders").await?;
    let s = signal(&frozen, trapped)?;
    ensure!(
        s.severity == Severity::Critical
            && s.detail.starts_with("3 of the 3")
            && s.detail.contains("while a new buyer's tokens go into it")
            && status(&frozen, honeypot) == Some(CheckStatus::Clear)
            && status(&frozen, cannot_buy) == Some(CheckStatus::Clear),
        "sell_frozen_holders: {} {:?}",
        s.detail,
        ids(&frozen)
    );

    // Accounts that start frozen (DefaultAccountState), or a hook that
    // refuses every transfer: a buyer's new account cannot receive any,
    // and no holder can sell. Judged by what the buyer's path did; nothing
    // says that the pool's own tokens move.
    for (name, why) in [("sell_default_frozen", "0x11"), ("sell_hook_all", "6001")] {
        let a = analyse(name).await?;
        let s = signal(&a, honeypot)?;
        let buy = signal(&a, cannot_buy)?;
        let buyer = &s.evidence.raw["transfers"][0];
        ensure!(
            s.severity == Severity::Critical
                && s.detail.starts_with("No transfer of the token passes")
                && buy.detail.contains("could not receive")
                && buyer["status"] == "buy_refused"
                && (s.detail.contains(why)
                    || (buyer["logs"].as_array().into_iter().flatten())
                        .any(|l| l.as_str().is_some_and(|l| l.contains(why))))
                && status(&a, trapped) == Some(CheckStatus::Unknown)
                && a.signals
                    .iter()
                    .all(|s| !s.detail.contains("move") || !s.detail.contains("pool's own")),
            "{name}: {} / {} / {buyer}",
            s.detail,
            buy.detail
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
