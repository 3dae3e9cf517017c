//! Conformance suite: every rule of the platform, through the generated
//! client, on SQLite and on PostgreSQL. Runs with its own harness so that,
//! after a full run, it can check that every operation of the API
//! description was called.

use std::collections::BTreeSet;
use std::future::Future;
use std::num::NonZeroU32;
use std::pin::Pin;

use anyhow::{ensure, Context as _};
use chrono::Duration;
use futures::TryStreamExt;
use libtest_mimic::{Arguments, Trial};
use riskintel_api::Plan;
use riskintel_client::types::{self, ErrorCode, Scope};
use riskintel_server::clock::Clock;
use riskintel_tests::{
    arg, check_request_id, err, header, ok, rate_limit, uncalled_operations, Backend, TestServer,
};

type TestFuture = Pin<Box<dyn Future<Output = anyhow::Result<()>> + Send>>;

/// A conformance test, registered beside its definition with
/// `conformance!(name);` and run on every backend: no list to keep.
pub struct Conformance {
    name: &'static str,
    run: fn(Backend) -> TestFuture,
}

inventory::collect!(Conformance);

/// Register the `async fn name(backend: Backend) -> anyhow::Result<()>`
/// defined next to it.
macro_rules! conformance {
    ($name:ident) => {
        inventory::submit! {
            $crate::Conformance {
                name: stringify!($name),
                run: |backend| Box::pin($name(backend)),
            }
        }
    };
}

#[path = "conformance/access.rs"]
mod access;
#[path = "conformance/batch.rs"]
mod batch;
#[path = "conformance/bounded_time.rs"]
mod bounded_time;
#[path = "conformance/connections.rs"]
mod connections;
#[path = "conformance/detection.rs"]
mod detection;
#[path = "conformance/dex_families.rs"]
mod dex_families;
#[path = "conformance/dex_solidly.rs"]
mod dex_solidly;
#[path = "conformance/dex_v4.rs"]
mod dex_v4;
#[path = "conformance/disputes.rs"]
mod disputes;
#[path = "conformance/hot_path.rs"]
mod hot_path;
#[path = "conformance/instances.rs"]
mod instances;
#[path = "conformance/launch_clock.rs"]
mod launch_clock;
#[path = "conformance/market.rs"]
mod market;
#[path = "conformance/old_compilers.rs"]
mod old_compilers;
#[path = "conformance/overrides.rs"]
mod overrides;
#[path = "conformance/presign.rs"]
mod presign;
#[path = "conformance/presign_signatures.rs"]
mod presign_signatures;
#[path = "conformance/presign_solana.rs"]
mod presign_solana;
#[path = "conformance/reference.rs"]
mod reference;
#[path = "conformance/refusals.rs"]
mod refusals;
#[path = "conformance/screening.rs"]
mod screening;
#[path = "conformance/simulation.rs"]
mod simulation;
#[path = "conformance/wallet_trades.rs"]
mod wallet_trades;

#[path = "conformance/conventions.rs"]
mod conventions;
#[path = "conformance/key_safety.rs"]
mod key_safety;
#[path = "conformance/operating.rs"]
mod operating;
#[path = "conformance/solana.rs"]
mod solana;
#[path = "conformance/solana_changes.rs"]
mod solana_changes;
#[path = "conformance/solana_launches.rs"]
mod solana_launches;
#[path = "conformance/solana_market.rs"]
mod solana_market;
#[path = "conformance/solana_pools.rs"]
mod solana_pools;
#[path = "conformance/solana_sells.rs"]
mod solana_sells;
#[path = "conformance/tokens.rs"]
mod tokens;

#[path = "conformance/wallets.rs"]
mod wallets;
#[path = "conformance/webhook_recovery.rs"]
mod webhook_recovery;
#[path = "conformance/webhooks.rs"]
mod webhooks;

fn main() {
    // A child instance of a multi-instance test (`riskintel serve`).
    if std::env::var_os(riskintel_tests::instances::SERVE_ENV).is_some() {
        riskintel_tests::instances::serve_here();
    }
    let args = Arguments::from_args();
    let full_run = args.filter.is_none() && args.skip.is_empty() && !args.list;
    let mut trials = Vec::new();
    let mut tests: Vec<&Conformance> = inventory::iter::<Conformance>.into_iter().collect();
    tests.sort_by_key(|t| t.name);
    for backend in Backend::ALL {
        for test in &tests {
            let (name, test) = (test.name, test.run);
            trials.push(Trial::test(
                format!("{name}::{}", backend.name()),
                move || {
                    let runtime = tokio::runtime::Builder::new_multi_thread()
                        .worker_threads(2)
                        .enable_all()
                        .build()
                        .map_err(|e| e.to_string())?;
                    runtime
                        .block_on(test(backend))
                        .map_err(|e| format!("{e:#}").into())
                },
            ));
        }
    }
    let conclusion = libtest_mimic::run(&args, trials);
    riskintel_tests::rig::shutdown();
    if full_run && !conclusion.has_failed() {
        let missing = uncalled_operations();
        if !missing.is_empty() {
            eprintln!("coverage: the suite never called these operations: {missing:?}");
            std::process::exit(101);
        }
        println!("coverage: every operation of the API description was called");
    }
    conclusion.exit();
}

// ---------------------------------------------------------------------------

conformance!(health_needs_no_key_and_reports_the_database);
async fn health_needs_no_key_and_reports_the_database(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let health = server.anonymous().health_get().await?;
    check_request_id(health.headers())?;
    ensure!(health.status == types::HealthStatus::Ok);
    ensure!(health.version == env!("CARGO_PKG_VERSION"));
    ensure!(health.database.backend == backend.name());
    ensure!(health.database.reachable);
    ensure!(
        health.headers().get("x-ratelimit-limit").is_none(),
        "health is not metered"
    );
    server.stop().await
}

conformance!(billing_status_reports_plan_usage_and_limits);
async fn billing_status_reports_plan_usage_and_limits(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let free = server.account("free co", Plan::Free).await?;
    let client = server.client(&free.key.key);
    let first = ok(client.billing_status_get().await)?;
    ensure!(first.plan == types::Plan::Free);
    ensure!(first.account_id == free.account.id);
    ensure!(
        first.requests_used == 1,
        "this request counts: {}",
        first.requests_used
    );
    ensure!(first.requests_included == Some(10_000));
    ensure!(first.requests_remaining == Some(9_999));
    ensure!(first.overage == 0 && first.hard_limit);
    ensure!(first.rate_limit_per_minute == 60);
    ensure!(!first.premium_access);
    ensure!(first.period_start.to_rfc3339() == "2026-11-01T00:00:00+00:00");
    ensure!(first.period_end.to_rfc3339() == "2026-12-01T00:00:00+00:00");
    let (limit, remaining, reset) = rate_limit(first.headers())?;
    ensure!(
        (limit, remaining) == (60, 59),
        "limit {limit} remaining {remaining}"
    );
    ensure!(
        reset == riskintel_tests::start_time().timestamp() + 50,
        "window ends at the next minute"
    );
    let second = ok(client.billing_status_get().await)?;
    ensure!(second.requests_used == 2);

    let owner = ok(server
        .client(&server.owner_key())
        .billing_status_get()
        .await)?;
    ensure!(owner.plan == types::Plan::ProPlus);
    ensure!(owner.requests_included.is_none() && owner.requests_remaining.is_none());
    ensure!(owner.rate_limit_per_minute == 6_000 && owner.premium_access && !owner.hard_limit);
    ensure!(rate_limit(owner.headers())?.0 == 6_000);
    server.stop().await
}

conformance!(missing_malformed_and_unknown_keys_get_401);
async fn missing_malformed_and_unknown_keys_get_401(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let missing = err(
        server.anonymous().billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    ensure!(
        missing.error.message.contains("x-api-key"),
        "{}",
        missing.error.message
    );
    err(
        server.client("not-a-key").billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    let unknown = format!("ri_live_zzzzzzzzzzzz.{}", "0".repeat(64));
    err(
        server.client(&unknown).billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    // Right id, wrong secret.
    let owner = server.owner.as_ref().context("owner")?;
    let wrong = format!("ri_live_{}.{}", owner.key.record.id, "f".repeat(64));
    err(
        server.client(&wrong).billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    // Upper-case hex is not the documented shape.
    err(
        server
            .client(&owner.key.key.to_ascii_uppercase())
            .billing_status_get()
            .await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    server.stop().await
}

conformance!(key_in_the_query_string_gets_400);
async fn key_in_the_query_string_gets_400(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let key = server.owner_key();
    let http = reqwest::Client::new();
    // The generated client cannot put a key in the URL: raw HTTP.
    for param in ["api_key", "apikey", "x-api-key", "key", "API_KEY"] {
        let url = format!("{}/v1/billing/status?{param}={key}", server.base_url);
        let response = http.get(&url).send().await?;
        ensure!(response.status() == 400, "{param}: {}", response.status());
        check_request_id(response.headers())?;
        let body: types::ApiError = response.json().await?;
        ensure!(body.error.code == ErrorCode::BadRequest);
        ensure!(
            body.error.message.contains("x-api-key header"),
            "{}",
            body.error.message
        );
        // Even with the header also present.
        let response = http.get(&url).header("x-api-key", &key).send().await?;
        ensure!(response.status() == 400);
    }
    server.stop().await
}

conformance!(key_without_the_scope_gets_403);
async fn key_without_the_scope_gets_403(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let owner = server.client(&server.owner_key());
    let reader = ok(owner
        .api_key_create(&types::ApiKeyCreate {
            name: arg("reader"),
            scopes: Some(vec![Scope::TokenRead]),
            expires_at: None,
        })
        .await)?;
    let reader_client = server.client(&reader.key);
    let billing = err(
        reader_client.billing_status_get().await,
        403,
        ErrorCode::Forbidden,
        true,
    )?;
    ensure!(
        billing.error.message.contains("billing:read"),
        "{}",
        billing.error.message
    );
    let keys = err(
        reader_client.api_key_list(None, None).await,
        403,
        ErrorCode::Forbidden,
        true,
    )?;
    ensure!(
        keys.error.message.contains("keys:write"),
        "{}",
        keys.error.message
    );
    // A default key holds every read scope, but not keys:write.
    let default = ok(owner
        .api_key_create(&types::ApiKeyCreate {
            name: arg("default-scopes"),
            scopes: None,
            expires_at: None,
        })
        .await)?;
    let scopes: BTreeSet<String> = default
        .api_key
        .scopes
        .iter()
        .map(|s| s.to_string())
        .collect();
    let expected: BTreeSet<String> = [
        "token:read",
        "market:read",
        "feed:read",
        "wallet:read",
        "billing:read",
    ]
    .map(String::from)
    .into();
    ensure!(scopes == expected, "{scopes:?}");
    ok(server.client(&default.key).billing_status_get().await)?;
    err(
        server
            .client(&default.key)
            .api_key_rotate(&arg(&default.api_key.id))
            .await,
        403,
        ErrorCode::Forbidden,
        true,
    )?;
    server.stop().await
}

conformance!(key_lifecycle_create_list_get_revoke);
async fn key_lifecycle_create_list_get_revoke(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let owner = server.client(&server.owner_key());
    server.clock.advance(Duration::seconds(1));
    let created = owner
        .api_key_create(&types::ApiKeyCreate {
            name: arg("trading-bot"),
            scopes: None,
            expires_at: None,
        })
        .await;
    let created = ok(created)?;
    ensure!(
        created.status() == 201,
        "create answers 201, not {}",
        created.status()
    );
    let created = created.into_inner();
    let (id, secret) = created
        .key
        .strip_prefix("ri_live_")
        .and_then(|k| k.split_once('.'))
        .context("key shape")?;
    ensure!(
        id.len() == 12
            && id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
        "id {id}"
    );
    ensure!(
        secret.len() == 64
            && secret
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    );
    ensure!(created.api_key.id == id && created.api_key.name == "trading-bot");
    ensure!(created.api_key.display == format!("ri_live_{id}.…"));
    // The new key works.
    ok(server.client(&created.key).billing_status_get().await)?;

    // Secrets are never shown again.
    let fetched = ok(owner.api_key_get(&arg(id)).await)?.into_inner();
    ensure!(fetched.id == id && fetched.last_used_at.is_some());
    ensure!(!serde_json::to_string(&fetched)?.contains(secret));

    // Paginated listing, oldest first, no repeats.
    for n in 0..5 {
        // Listing is oldest first; keys made in the same second are ordered by id.
        server.clock.advance(Duration::seconds(1));
        ok(owner
            .api_key_create(&types::ApiKeyCreate {
                name: arg(format!("svc-{n}")),
                scopes: None,
                expires_at: None,
            })
            .await)?;
    }
    let first_page = ok(owner.api_key_list(NonZeroU32::new(2), None).await)?.into_inner();
    ensure!(first_page.items.len() == 2 && first_page.next_page.is_some());
    let all: Vec<types::ApiKey> = owner
        .api_key_list_stream(NonZeroU32::new(2))
        .try_collect()
        .await?;
    let names: Vec<_> = all.iter().map(|k| k.name.as_str()).collect();
    ensure!(
        names
            == [
                "default",
                "trading-bot",
                "svc-0",
                "svc-1",
                "svc-2",
                "svc-3",
                "svc-4"
            ],
        "{names:?}"
    );
    ensure!(!serde_json::to_string(&all)?.contains(secret));

    // Revocation takes effect at once.
    let deleted = ok(owner.api_key_delete(&arg(id)).await)?;
    ensure!(deleted.status() == 204);
    err(
        server.client(&created.key).billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    err(
        owner.api_key_get(&arg(id)).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    err(
        owner.api_key_delete(&arg(id)).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    err(
        owner.api_key_rotate(&arg(id)).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    let after: Vec<types::ApiKey> = owner.api_key_list_stream(None).try_collect().await?;
    ensure!(after.iter().all(|k| k.id != id));
    // The name is free again.
    ok(owner
        .api_key_create(&types::ApiKeyCreate {
            name: arg("trading-bot"),
            scopes: None,
            expires_at: None,
        })
        .await)?;
    server.stop().await
}

conformance!(duplicate_key_name_gets_409);
async fn duplicate_key_name_gets_409(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let owner = server.client(&server.owner_key());
    let body = types::ApiKeyCreate {
        name: arg("indexer"),
        scopes: None,
        expires_at: None,
    };
    ok(owner.api_key_create(&body).await)?;
    let conflict = err(
        owner.api_key_create(&body).await,
        409,
        ErrorCode::Conflict,
        true,
    )?;
    ensure!(
        conflict.error.message.contains("indexer"),
        "{}",
        conflict.error.message
    );
    // Another account may use the same name.
    let other = server.account("other", Plan::Pro).await?;
    ok(server.client(&other.key.key).api_key_create(&body).await)?;
    server.stop().await
}

conformance!(another_accounts_key_id_gets_404);
async fn another_accounts_key_id_gets_404(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let other = server.account("other", Plan::Pro).await?;
    let owner = server.client(&server.owner_key());
    let theirs = &other.key.record.id;
    err(
        owner.api_key_get(&arg(theirs)).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    err(
        owner.api_key_rotate(&arg(theirs)).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    err(
        owner.api_key_delete(&arg(theirs)).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    // Untouched: their key still works.
    ok(server.client(&other.key.key).billing_status_get().await)?;
    err(
        owner.api_key_get(&arg("nosuchkey000")).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    server.stop().await
}

conformance!(bad_key_requests_get_clear_errors);
async fn bad_key_requests_get_clear_errors(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let owner = server.client(&server.owner_key());
    let empty = server
        .raw_err(
            &server.owner_key(),
            "/v1/developer/api-keys",
            Some(serde_json::json!({ "name": "  " })),
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    ensure!(
        empty.error.message.starts_with("name:"),
        "{}",
        empty.error.message
    );
    // Names the document's bounds and pattern rule out: too long, or
    // beginning or ending with white space (a name is kept as sent).
    for name in ["x".repeat(65), " lead".into(), "trail\t".into()] {
        let refused = server
            .raw_err(
                &server.owner_key(),
                "/v1/developer/api-keys",
                Some(serde_json::json!({ "name": name })),
                422,
                ErrorCode::ValidationError,
            )
            .await?;
        ensure!(refused.error.message.starts_with("name:"), "{refused:?}");
    }
    err(
        owner
            .api_key_create(&types::ApiKeyCreate {
                name: arg("none"),
                scopes: Some(vec![]),
                expires_at: None,
            })
            .await,
        422,
        ErrorCode::ValidationError,
        true,
    )?;
    let past = server.clock.now() - Duration::hours(1);
    let expired = err(
        owner
            .api_key_create(&types::ApiKeyCreate {
                name: arg("old"),
                scopes: None,
                expires_at: Some(past),
            })
            .await,
        422,
        ErrorCode::ValidationError,
        true,
    )?;
    ensure!(
        expired.error.message.starts_with("expires_at:"),
        "{}",
        expired.error.message
    );
    // Bodies the client cannot produce: raw HTTP.
    let http = reqwest::Client::new();
    let url = format!("{}/v1/developer/api-keys", server.base_url);
    for body in [
        "{not json",
        r#"{"scopes": ["token:read"]}"#,
        r#"{"name": "x", "scopes": ["root"]}"#,
        r#"{"name": 5}"#,
    ] {
        let response = http
            .post(&url)
            .header("x-api-key", server.owner_key())
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await?;
        ensure!(response.status() == 400, "{body}: {}", response.status());
        check_request_id(response.headers())?;
        let error: types::ApiError = response.json().await?;
        ensure!(error.error.code == ErrorCode::BadRequest, "{body}");
    }
    // A bad page token.
    let response = http
        .get(format!("{url}?page_token=garbage"))
        .header("x-api-key", server.owner_key())
        .send()
        .await?;
    ensure!(
        response.status() == 400,
        "page token: {}",
        response.status()
    );
    let error: types::ApiError = response.json().await?;
    ensure!(error.error.code == ErrorCode::BadRequest);
    server.stop().await
}

conformance!(rotation_keeps_the_old_secret_for_24_hours);
async fn rotation_keeps_the_old_secret_for_24_hours(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let owner = server.client(&server.owner_key());
    let original = ok(owner
        .api_key_create(&types::ApiKeyCreate {
            name: arg("rotating"),
            scopes: None,
            expires_at: None,
        })
        .await)?
    .into_inner();
    let id = original.api_key.id.clone();
    let rotated = ok(owner.api_key_rotate(&arg(&id)).await)?.into_inner();
    ensure!(
        rotated.api_key.id == id && rotated.api_key.name == "rotating",
        "id and name are kept"
    );
    ensure!(rotated.key != original.key && rotated.key.starts_with(&format!("ri_live_{id}.")));
    let until = rotated
        .api_key
        .previous_valid_until
        .context("previous_valid_until")?;
    ensure!(
        until == server.clock.now_seconds() + Duration::hours(24),
        "grace ends 24 h after rotation: {until}"
    );
    ensure!(rotated.api_key.rotated_at.is_some());

    let old = server.client(&original.key);
    let new = server.client(&rotated.key);
    ok(old.billing_status_get().await)?;
    ok(new.billing_status_get().await)?;
    server
        .clock
        .advance(Duration::hours(24) - Duration::seconds(1));
    ok(old.billing_status_get().await).context("old key one second before the grace ends")?;
    server.clock.advance(Duration::seconds(1));
    err(
        old.billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    ok(new.billing_status_get().await)?;
    let record = ok(owner.api_key_get(&arg(&id)).await)?.into_inner();
    ensure!(
        record.previous_valid_until.is_none(),
        "no grace secret is left"
    );
    server.stop().await
}

conformance!(second_rotation_ends_the_older_grace_at_once);
async fn second_rotation_ends_the_older_grace_at_once(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let owner = server.client(&server.owner_key());
    let first = ok(owner
        .api_key_create(&types::ApiKeyCreate {
            name: arg("twice"),
            scopes: None,
            expires_at: None,
        })
        .await)?
    .into_inner();
    let id = first.api_key.id.clone();
    let second = ok(owner.api_key_rotate(&arg(&id)).await)?.into_inner();
    server.clock.advance(Duration::hours(1));
    let third = ok(owner.api_key_rotate(&arg(&id)).await)?.into_inner();
    err(
        server.client(&first.key).billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    ok(server.client(&second.key).billing_status_get().await)?;
    ok(server.client(&third.key).billing_status_get().await)?;
    // Revocation ends the grace secret too.
    ok(owner.api_key_delete(&arg(&id)).await)?;
    err(
        server.client(&second.key).billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    err(
        server.client(&third.key).billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    server.stop().await
}

conformance!(expired_key_gets_401);
async fn expired_key_gets_401(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let owner = server.client(&server.owner_key());
    let expires_at = server.clock.now_seconds() + Duration::hours(2);
    let key = ok(owner
        .api_key_create(&types::ApiKeyCreate {
            name: arg("temp"),
            scopes: None,
            expires_at: Some(expires_at),
        })
        .await)?
    .into_inner();
    ensure!(key.api_key.expires_at == Some(expires_at));
    ok(server.client(&key.key).billing_status_get().await)?;
    server.clock.advance(Duration::hours(2));
    let expired = err(
        server.client(&key.key).billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    ensure!(
        expired.error.message.contains("expired"),
        "{}",
        expired.error.message
    );
    server.stop().await
}

conformance!(sixty_first_request_in_a_minute_gets_429);
async fn sixty_first_request_in_a_minute_gets_429(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let free = server.account("free", Plan::Free).await?;
    let client = server.client(&free.key.key);
    for n in 1..=60u64 {
        let response = ok(client.billing_status_get().await)?;
        ensure!(rate_limit(response.headers())?.1 == 60 - n);
    }
    let limited = err(
        client.billing_status_get().await,
        429,
        ErrorCode::RateLimited,
        true,
    )?;
    let (limit, remaining, reset) = rate_limit(limited.headers())?;
    ensure!((limit, remaining) == (60, 0));
    let retry: i64 = header(limited.headers(), "retry-after")?.parse()?;
    ensure!(
        retry == 50,
        "clock is 10 s into the minute: Retry-After {retry}"
    );
    ensure!(reset == server.clock.now().timestamp() + 50);
    let message = &limited.error.message;
    ensure!(
        message.contains("60 requests per minute") && message.contains("Pro"),
        "{message}"
    );
    // Every key of the account shares the window.
    let second = ok(client
        .api_key_create(&types::ApiKeyCreate {
            name: arg("second"),
            scopes: None,
            expires_at: None,
        })
        .await);
    ensure!(
        second.is_err(),
        "the account is limited, whichever key it uses"
    );
    // Other accounts are not affected.
    ok(server
        .client(&server.owner_key())
        .billing_status_get()
        .await)?;
    // The next window starts fresh; refused requests were not billed.
    server.clock.advance(Duration::seconds(50));
    let fresh = ok(client.billing_status_get().await)?;
    ensure!(rate_limit(fresh.headers())?.1 == 59);
    ensure!(
        fresh.requests_used == 61,
        "60 + this one; the 429s were not counted: {}",
        fresh.requests_used
    );
    server.stop().await
}

conformance!(free_quota_exhaustion_gets_402);
async fn free_quota_exhaustion_gets_402(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let free = server.account("free", Plan::Free).await?;
    let period = riskintel_server::billing::billing_period(server.clock.now()).0;
    server
        .store()
        .usage_set(&free.account.id, period, 9_998)
        .await?;
    let client = server.client(&free.key.key);
    let last = ok(client.billing_status_get().await)?;
    ensure!(last.requests_used == 9_999 && last.requests_remaining == Some(1));
    let last = ok(client.billing_status_get().await)?;
    ensure!(last.requests_used == 10_000 && last.requests_remaining == Some(0));
    let refused = err(
        client.billing_status_get().await,
        402,
        ErrorCode::PaymentRequired,
        true,
    )?;
    ensure!(
        refused.error.message.contains("10000") && refused.error.message.contains("Pro"),
        "{}",
        refused.error.message
    );
    // Usage reaches the database within a flush interval; refusals are not counted.
    riskintel_tests::within(
        std::time::Duration::from_secs(3),
        "usage written within a flush interval",
        || async {
            let stored = server.store().usage_get(&free.account.id, period).await?;
            ensure!(stored <= 10_000, "refusals are not counted: {stored}");
            Ok(stored == 10_000)
        },
    )
    .await?;
    // Next month the quota renews.
    server
        .clock
        .set(chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 12, 1, 0, 0, 5).unwrap());
    let renewed = ok(client.billing_status_get().await)?;
    ensure!(renewed.requests_used == 1);
    server.stop().await
}

conformance!(pro_counts_overage_and_pro_plus_is_unlimited);
async fn pro_counts_overage_and_pro_plus_is_unlimited(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let period = riskintel_server::billing::billing_period(server.clock.now()).0;
    let pro = server.account("pro", Plan::Pro).await?;
    server
        .store()
        .usage_set(&pro.account.id, period, 500_000)
        .await?;
    let status = ok(server.client(&pro.key.key).billing_status_get().await)?;
    ensure!(
        status.requests_used == 500_001
            && status.overage == 1
            && status.requests_remaining == Some(0)
    );
    ensure!(status.premium_access && !status.hard_limit && status.rate_limit_per_minute == 600);
    let plus = server.account("plus", Plan::ProPlus).await?;
    server
        .store()
        .usage_set(&plus.account.id, period, 50_000_000)
        .await?;
    let status = ok(server.client(&plus.key.key).billing_status_get().await)?;
    ensure!(
        status.requests_used == 50_000_001
            && status.overage == 0
            && status.requests_remaining.is_none()
    );
    server.stop().await
}

conformance!(concurrent_requests_are_counted_exactly);
async fn concurrent_requests_are_counted_exactly(backend: Backend) -> anyhow::Result<()> {
    const REQUESTS: u64 = 200;
    let server = TestServer::start(backend).await?;
    let client = server.client(&server.owner_key());
    let responses =
        futures::future::join_all((0..REQUESTS).map(|_| client.billing_status_get())).await;
    let mut remaining = BTreeSet::new();
    for response in responses {
        let response = ok(response)?;
        remaining.insert(rate_limit(response.headers())?.1);
    }
    // Each request saw its own count: none lost, none doubled.
    ensure!(
        remaining.len() as u64 == REQUESTS,
        "{} distinct window counts",
        remaining.len()
    );
    ensure!(*remaining.first().unwrap() == 6_000 - REQUESTS);
    let status = ok(client.billing_status_get().await)?;
    ensure!(
        status.requests_used == REQUESTS + 1,
        "usage {}",
        status.requests_used
    );
    server.stop().await
}

conformance!(usage_survives_a_restart);
async fn usage_survives_a_restart(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let key = server.owner_key();
    for _ in 0..25 {
        ok(server.client(&key).billing_status_get().await)?;
    }
    let clock = server.clock.clone();
    let server_config = server.config.clone();
    let database = server.stop_keeping_database().await?;
    let restarted = TestServer::start_on(database, clock, server_config).await?;
    ensure!(
        restarted.owner.is_none(),
        "no second owner on a non-empty database"
    );
    let status = ok(restarted.client(&key).billing_status_get().await)?;
    ensure!(
        status.requests_used == 26,
        "usage after restart: {}",
        status.requests_used
    );
    // The rate window is shared state too.
    ensure!(rate_limit(status.headers())?.1 == 6_000 - 26);
    restarted.stop().await
}

conformance!(failed_authentication_is_limited_per_ip);
async fn failed_authentication_is_limited_per_ip(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let guess = server.client(&format!("ri_live_guessguess00.{}", "1".repeat(64)));
    for n in 1..=60u64 {
        let refused = err(
            guess.billing_status_get().await,
            401,
            ErrorCode::Unauthorized,
            true,
        )?;
        ensure!(rate_limit(refused.headers())?.1 == 60 - n);
    }
    let limited = err(
        guess.billing_status_get().await,
        429,
        ErrorCode::RateLimited,
        true,
    )?;
    ensure!(
        limited.error.message.contains("failed authentication"),
        "{}",
        limited.error.message
    );
    // Past the limit a valid key from the same address (behind the same
    // NAT) is still served; every failure is 429 at once.
    ok(server
        .client(&server.owner_key())
        .billing_status_get()
        .await)?;
    err(
        server.anonymous().billing_status_get().await,
        429,
        ErrorCode::RateLimited,
        true,
    )?;
    server.clock.advance(Duration::minutes(1));
    err(
        guess.billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    server.stop().await
}

conformance!(docs_url_resolves_to_the_error_reference);
async fn docs_url_resolves_to_the_error_reference(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let error = err(
        server.anonymous().billing_status_get().await,
        401,
        ErrorCode::Unauthorized,
        true,
    )?;
    let url = &error.error.docs_url;
    let (_, anchor) = url.split_once('#').context("docs_url has an anchor")?;
    // Fetch this server's own reference (docs_url's host is set once per process).
    let page = reqwest::get(format!("{}/docs/errors", server.base_url)).await?;
    ensure!(page.status() == 200);
    ensure!(header(page.headers(), "content-type")?.starts_with("text/html"));
    let html = page.text().await?;
    ensure!(
        html.contains(&format!("id=\"{anchor}\"")),
        "anchor {anchor} missing"
    );
    for code in [
        "bad_request",
        "payment_required",
        "premium_required",
        "rate_limited",
        "upstream_unavailable",
    ] {
        ensure!(html.contains(&format!("id=\"{code}\"")), "{code} missing");
    }
    server.stop().await
}

conformance!(unknown_routes_keep_the_framework_body);
async fn unknown_routes_keep_the_framework_body(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let http = reqwest::Client::new();
    let missing = http
        .get(format!("{}/v1/no-such-thing", server.base_url))
        .send()
        .await?;
    ensure!(missing.status() == 404);
    check_request_id(missing.headers())?;
    let body: serde_json::Value = missing.json().await?;
    ensure!(
        body["request_id"].is_string() && body["message"].is_string(),
        "{body}"
    );
    let wrong_method = http
        .put(format!("{}/v1/billing/status", server.base_url))
        .send()
        .await?;
    ensure!(wrong_method.status() == 405);
    server.stop().await
}

conformance!(keys_never_reach_the_logs);
async fn keys_never_reach_the_logs(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let key = server.owner_key();
    let secret = key.split_once('.').context("key")?.1.to_string();
    ok(server.client(&key).billing_status_get().await)?;
    let rotated = ok(server
        .client(&key)
        .api_key_rotate(&arg(&server.owner.as_ref().unwrap().key.record.id))
        .await)?;
    let http = reqwest::Client::new();
    http.get(format!(
        "{}/v1/billing/status?api_key={key}",
        server.base_url
    ))
    .send()
    .await?;
    let new_secret = rotated.key.split_once('.').context("key")?.1.to_string();
    let log = server.log_text();
    ensure!(log.contains("/v1/billing/status"), "requests are logged");
    ensure!(
        !log.contains(&secret) && !log.contains(&new_secret),
        "a secret reached the log"
    );
    server.stop().await
}

conformance!(hostile_inputs_never_get_a_500);
async fn hostile_inputs_never_get_a_500(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let key = server.owner_key();
    let http = reqwest::Client::new();
    let base = &server.base_url;
    let long = "k".repeat(10_000);
    let big_body = format!(r#"{{"name": "{}"}}"#, "n".repeat(200_000));
    let mut requests: Vec<reqwest::RequestBuilder> = vec![
        http.get(format!("{base}/v1/billing/status"))
            .header("x-api-key", &long),
        http.get(format!("{base}/v1/billing/status")).header(
            "x-api-key",
            reqwest::header::HeaderValue::from_bytes(b"ri_live_\xff\xfe").unwrap(),
        ),
        http.get(format!("{base}/v1/billing/status"))
            .header("x-api-key", format!("{key} ")),
        http.get(format!("{base}/v1/developer/api-keys?limit=0"))
            .header("x-api-key", &key),
        http.get(format!("{base}/v1/developer/api-keys?limit=-1"))
            .header("x-api-key", &key),
        http.get(format!("{base}/v1/developer/api-keys?limit=99999999999"))
            .header("x-api-key", &key),
        http.get(format!("{base}/v1/developer/api-keys?page_token=%00%ff"))
            .header("x-api-key", &key),
        http.get(format!("{base}/v1/developer/api-keys/%00"))
            .header("x-api-key", &key),
        http.get(format!("{base}/v1/developer/api-keys/{}", "x".repeat(5000)))
            .header("x-api-key", &key),
        http.get(format!("{base}/v1/developer/api-keys/%F0%9F%92%A3"))
            .header("x-api-key", &key),
        http.post(format!(
            "{base}/v1/developer/api-keys/..%2F..%2Fbilling/rotate"
        ))
        .header("x-api-key", &key),
        http.post(format!("{base}/v1/developer/api-keys"))
            .header("x-api-key", &key)
            .header("content-type", "application/json")
            .body(big_body),
        http.post(format!("{base}/v1/developer/api-keys"))
            .header("x-api-key", &key)
            .header("content-type", "application/json")
            .body("\u{0}"),
        http.post(format!("{base}/v1/developer/api-keys"))
            .header("x-api-key", &key)
            .header("content-type", "application/json")
            .body(r#"{"name": "a\u0000b"}"#),
        http.post(format!("{base}/v1/developer/api-keys"))
            .header("x-api-key", &key)
            .header("content-type", "application/json")
            .body(r#"{"name": "ok", "expires_at": "yesterday"}"#),
        http.post(format!("{base}/v1/developer/api-keys"))
            .header("x-api-key", &key)
            .header("content-type", "application/json")
            .body(r#"{"name": "ok", "expires_at": "+275760-09-13T00:00:00Z"}"#),
        http.post(format!("{base}/v1/developer/api-keys"))
            .header("x-api-key", &key)
            .header("content-type", "text/plain")
            .body("name=x"),
    ];
    for (n, request) in requests.drain(..).enumerate() {
        let response = request.send().await?;
        let status = response.status();
        ensure!(status.as_u16() < 500, "request {n}: {status}");
        check_request_id(response.headers())?;
        if status.as_u16() != 404 || response.headers().contains_key("x-ratelimit-limit") {
            let text = response.text().await?;
            if status.is_client_error() {
                let body: types::ApiError = serde_json::from_str(&text)
                    .with_context(|| format!("request {n}: not the envelope: {text}"))?;
                ensure!(!body.error.message.is_empty());
            }
        }
    }
    let health = server.anonymous().health_get().await?;
    ensure!(
        health.status == types::HealthStatus::Ok,
        "the server is still healthy"
    );
    server.stop().await
}
