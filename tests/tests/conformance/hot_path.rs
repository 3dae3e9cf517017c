//! The authenticated hot path from memory: keys verified once are served
//! from the key cache, and changes made elsewhere — another instance, or
//! the CLI in another process, writing to the same database — reach it
//! within a second.

use std::time::Duration;

use anyhow::{ensure, Context as _};
use riskintel_api::Plan;
use riskintel_client::types::{self, ErrorCode};
use riskintel_server::clock::Clock;
use riskintel_tests::{arg, err, ok, Backend, TestServer};

/// Poll `check` until it holds, for at most a second; how long it took.
async fn within_a_second<F, Fut>(what: &str, check: F) -> anyhow::Result<Duration>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<bool>>,
{
    riskintel_tests::within(Duration::from_secs(1), what, check).await
}

conformance!(key_changes_made_elsewhere_reach_the_cache_within_a_second);
/// A plan change and a revocation written straight to the store (as the CLI
/// or another instance would) reach a key the server already holds in
/// memory within a second; an unknown key is refused all along.
pub async fn key_changes_made_elsewhere_reach_the_cache_within_a_second(
    backend: Backend,
) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let user = server.account("cached co", Plan::Free).await?;
    let client = server.client(&user.key.key);
    for _ in 0..3 {
        let status = ok(client.billing_status_get().await)?;
        ensure!(status.plan == types::Plan::Free);
    }
    let store = server.store();
    ensure!(store.account_set_plan(&user.account.id, Plan::Pro).await?);
    within_a_second("the plan change", || async {
        Ok(ok(client.billing_status_get().await)?.plan == types::Plan::Pro)
    })
    .await?;
    let unknown = server.client(&format!("ri_live_zzzzzzzzzzzz.{}", "a".repeat(64)));
    for _ in 0..3 {
        err(
            unknown.billing_status_get().await,
            401,
            ErrorCode::Unauthorized,
            true,
        )?;
    }
    ensure!(
        store
            .key_revoke(&user.key.record.id, chrono::Utc::now())
            .await?
    );
    within_a_second("the revocation", || async {
        let answer = client.billing_status_get().await;
        if answer.is_ok() {
            return Ok(false);
        }
        let refused = err(answer, 401, ErrorCode::Unauthorized, true)?;
        ensure!(
            refused.error.message.contains("revoked"),
            "{}",
            refused.error.message
        );
        Ok(true)
    })
    .await
    .context("revoked elsewhere")?;
    server.stop().await
}

/// Serve `n` requests of `client` one after another; how many were served
/// (the others must be 429 `RATE_LIMITED`).
async fn served(client: &riskintel_client::Client, n: u64) -> anyhow::Result<u64> {
    let mut served = 0;
    for _ in 0..n {
        match client.billing_status_get().await {
            Ok(_) => served += 1,
            Err(error) => {
                err::<types::BillingStatus>(Err(error), 429, ErrorCode::RateLimited, true)?;
            }
        }
    }
    Ok(served)
}

conformance!(rate_limits_hold_across_two_instances);
/// Two instances on one database share each account's rate window: once
/// the counts have been shared (two sync intervals), what one instance
/// served is refused by the other — for a free account (60 a minute) and
/// a pro account (600 a minute).
pub async fn rate_limits_hold_across_two_instances(backend: Backend) -> anyhow::Result<()> {
    let a = TestServer::start(backend).await?;
    let b = a.another_instance().await?;
    let shared = Duration::from_millis(3 * a.config.metering.rate_sync_ms);
    for (plan, limit) in [(Plan::Free, 60), (Plan::Pro, 600)] {
        let user = a.account(&format!("{} co", limit), plan).await?;
        let first = limit * 2 / 3;
        ensure!(
            served(&a.client(&user.key.key), first).await? == first,
            "{plan:?}: the first instance refused within the limit"
        );
        tokio::time::sleep(shared).await;
        let on_b = served(&b.client(&user.key.key), limit).await?;
        ensure!(
            on_b == limit - first,
            "{plan:?}: the second instance served {on_b} after the first served {first} of {limit}"
        );
        tokio::time::sleep(shared).await;
        ensure!(
            served(&a.client(&user.key.key), 1).await? == 0,
            "{plan:?}: the first instance did not see the second's count"
        );
    }
    b.stop().await?;
    a.stop().await
}

conformance!(no_early_402_at_the_quota_edge);
/// At the edge of a free quota, requests that will fail do not use it up
/// while in flight: with two requests left, forty failing requests (404)
/// sent at the same time as two good ones never make the good ones 402;
/// both are served, and the usage reaches exactly the quota (no overshoot).
pub async fn no_early_402_at_the_quota_edge(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let free = server.account("edge co", Plan::Free).await?;
    let period = riskintel_server::billing::billing_period(server.clock.now()).0;
    server
        .store()
        .usage_set(&free.account.id, period, 9_998)
        .await?;
    let client = server.client(&free.key.key);
    // Each failing request is 404, or 402 once the good ones have used the quota.
    let failing = (0..40).map(|_| async {
        let answer = client.api_key_get(&arg("zzzzzzzzzzzz")).await;
        match &answer {
            Err(riskintel_client::Error::ErrorResponse(r)) if r.status() == 402 => {
                err(answer, 402, ErrorCode::PaymentRequired, true).map(|_| ())
            }
            _ => err(answer, 404, ErrorCode::NotFound, true).map(|_| ()),
        }
    });
    let good = (0..2).map(|_| async { ok(client.billing_status_get().await).map(|_| ()) });
    let (failing, good) = tokio::join!(
        futures::future::join_all(failing),
        futures::future::join_all(good)
    );
    for outcome in failing.into_iter().chain(good) {
        outcome?;
    }
    err(
        client.billing_status_get().await,
        402,
        ErrorCode::PaymentRequired,
        true,
    )?;
    let database = server.stop_keeping_database().await?;
    let store = riskintel_server::store::open(&database.url).await?;
    let used = store.usage_get(&free.account.id, period).await?;
    store.close().await;
    database.drop_database().await?;
    ensure!(used == 10_000, "usage {used}");
    Ok(())
}

conformance!(usage_is_exact_across_two_instances);
/// Two instances count one account's usage in memory; after both shut down
/// gracefully, the database holds exactly the 2xx answers both gave.
pub async fn usage_is_exact_across_two_instances(backend: Backend) -> anyhow::Result<()> {
    let a = TestServer::start(backend).await?;
    let b = a.another_instance().await?;
    let pro = a.account("two co", Plan::Pro).await?;
    let period = riskintel_server::billing::billing_period(a.clock.now()).0;
    let (on_a, on_b) = (a.client(&pro.key.key), b.client(&pro.key.key));
    let requests = (0..150).map(|i| {
        let client = if i % 2 == 0 { &on_a } else { &on_b };
        async move {
            if i % 5 == 0 {
                // Not counted: a 404.
                err(
                    client.api_key_get(&arg("zzzzzzzzzzzz")).await,
                    404,
                    ErrorCode::NotFound,
                    true,
                )
                .map(|_| ())
            } else {
                ok(client.billing_status_get().await).map(|_| ())
            }
        }
    });
    for outcome in futures::future::join_all(requests).await {
        outcome?;
    }
    b.stop().await?;
    let database = a.stop_keeping_database().await?;
    let store = riskintel_server::store::open(&database.url).await?;
    let used = store.usage_get(&pro.account.id, period).await?;
    store.close().await;
    database.drop_database().await?;
    ensure!(
        used == 120,
        "usage {used}, expected the 120 answers that were 2xx"
    );
    Ok(())
}

conformance!(failed_authentications_are_shared_and_proxies_trusted);
/// Failed authentications from one address are shared by the instances of
/// one database (two instances allow 60 a minute, not 120), and behind a
/// trusted proxy the address is the `X-Forwarded-For` hop it added: other
/// clients of the same proxy are not limited.
pub async fn failed_authentications_are_shared_and_proxies_trusted(
    backend: Backend,
) -> anyhow::Result<()> {
    let mut config = riskintel_server::config::Config::default();
    config.auth.trusted_proxies = vec!["127.0.0.1".into()];
    let a = TestServer::start_with(backend, config).await?;
    let b = a.another_instance().await?;
    let http = reqwest::Client::new();
    let guess = |server: &TestServer, client: &str| {
        http.get(format!("{}/v1/billing/status", server.base_url))
            .header(
                "x-api-key",
                format!("ri_live_guessguess00.{}", "1".repeat(64)),
            )
            .header("x-forwarded-for", format!("198.51.100.9, {client}"))
            .send()
    };
    for _ in 0..40 {
        ensure!(guess(&a, "203.0.113.5").await?.status() == 401);
    }
    tokio::time::sleep(Duration::from_millis(3 * a.config.metering.rate_sync_ms)).await;
    let mut refused = 0;
    for _ in 0..40 {
        match guess(&b, "203.0.113.5").await?.status().as_u16() {
            401 => {}
            429 => refused += 1,
            other => anyhow::bail!("status {other}"),
        }
    }
    ensure!(
        refused == 20,
        "the second instance allowed {} more failures after the first's 40",
        40 - refused
    );
    // Another client behind the same proxy is not limited.
    ensure!(guess(&b, "203.0.113.6").await?.status() == 401);
    b.stop().await?;
    a.stop().await
}
