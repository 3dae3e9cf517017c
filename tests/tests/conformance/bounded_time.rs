//! Time is bounded: a slow or hanging node costs an analysis at most its
//! deadline; once the chain is known down, earlier results are served
//! stale at once; health names the chain; recovery follows the node.

use std::time::{Duration, Instant};

use anyhow::{ensure, Context as _};
use riskintel_client::types::{self, ErrorCode};
use riskintel_server::config::Config;
use riskintel_tests::latency::latency_proxy;
use riskintel_tests::rig;
use riskintel_tests::tcp_proxy::{Mode, TcpProxy};
use riskintel_tests::{arg, err, header, ok, Backend, TestServer};
use sqlx::Connection as _;

const DEADLINE_MS: u64 = 2_000;

conformance!(slow_nodes_cost_at_most_the_deadline);
pub async fn slow_nodes_cost_at_most_the_deadline(backend: Backend) -> anyhow::Result<()> {
    let (mut anvil, chain) = rig::own_scenario(31341).await?;
    let proxy = latency_proxy(anvil.url.clone(), Duration::ZERO).await?;
    let mut served = chain.clone();
    served.url = proxy.url.clone();
    let mut config = Config {
        chains: rig::chains_config(&[("eth", &served)]),
        ..Config::default()
    };
    config.market.enabled = false;
    // A node slower than the per-request timeout is the case that used to
    // cost three full timeouts.
    config.analysis.deadline_ms = DEADLINE_MS;
    config.analysis.rpc_timeout_ms = 10_000;
    config.analysis.rpc_retries = 2;
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    let bound = Duration::from_millis(DEADLINE_MS + 1_000);

    let first = ok(client
        .token_analyze(arg("eth"), &arg(&chain.token("plain")), None)
        .await)?
    .into_inner();
    let health = server.anonymous().health_get().await?.into_inner();
    ensure!(health.status == types::HealthStatus::Ok, "{health:?}");
    ensure!(
        health.chains.len() == 1 && health.chains[0].status == types::NodeStatus::Up,
        "{health:?}"
    );

    // The node now answers after 15 s.
    proxy.set_delay(Duration::from_secs(15));
    let started = Instant::now();
    let cold = err(
        client
            .token_analyze(arg("eth"), &arg(&chain.token("mintable")), None)
            .await,
        503,
        ErrorCode::UpstreamUnavailable,
        true,
    )?;
    let cold_took = started.elapsed();
    ensure!(cold_took <= bound, "a cold analysis took {cold_took:?}");
    ensure!(header(cold.headers(), "retry-after").is_ok());

    // Sixteen cold analyses at once, queued behind the node's concurrency
    // cap: each within the deadline too.
    let started = Instant::now();
    let answers = futures::future::join_all((0..16).map(|_| {
        let client = client.clone();
        async move {
            let address = format!("{:#x}", rig::random_address());
            let answer = client.token_analyze(arg("eth"), &arg(&address), None).await;
            (answer.map(|_| ()).map_err(|e| e.status()), Instant::now())
        }
    }))
    .await;
    let slowest = answers
        .iter()
        .map(|(_, at)| at.duration_since(started))
        .max();
    for (answer, at) in &answers {
        let took = at.duration_since(started);
        ensure!(took <= bound, "one of 16 cold analyses took {took:?}");
        ensure!(
            *answer == Err(Some(reqwest::StatusCode::SERVICE_UNAVAILABLE)),
            "{answer:?}"
        );
    }

    // The chain is known down now: an expired cached result is served
    // stale at once, and health says so.
    let health = server.anonymous().health_get().await?.into_inner();
    ensure!(health.status == types::HealthStatus::Degraded, "{health:?}");
    let eth = &health.chains[0];
    ensure!(
        eth.chain == "eth"
            && eth.status == types::NodeStatus::Down
            && eth.down_since.is_some()
            && eth.last_error.is_some(),
        "{eth:?}"
    );
    server.clock.advance(chrono::Duration::seconds(301));
    let started = Instant::now();
    let stale = ok(client
        .token_analyze(arg("eth"), &arg(&chain.token("plain")), None)
        .await)?
    .into_inner();
    let stale_took = started.elapsed();
    ensure!(
        stale_took <= Duration::from_secs(1),
        "stale answer took {stale_took:?}"
    );
    ensure!(stale.stale && stale.cached_at == first.cached_at);

    // The node heals: a probe gets through (back-off doubles from 1 s) and
    // analyses work again.
    proxy.set_delay(Duration::ZERO);
    let healed = Instant::now();
    loop {
        let answer = client
            .token_analyze(arg("eth"), &arg(&chain.token("mintable")), None)
            .await;
        if answer.is_ok() {
            break;
        }
        ensure!(
            healed.elapsed() < Duration::from_secs(90),
            "the chain did not recover: {answer:?}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let health = server.anonymous().health_get().await?.into_inner();
    ensure!(
        health.status == types::HealthStatus::Ok
            && health.chains[0].status == types::NodeStatus::Up,
        "{health:?}"
    );
    println!(
        "bounded time ({}): deadline {DEADLINE_MS} ms, node answering after 15 s: cold 503 in {cold_took:?}, \
         slowest of 16 concurrent cold in {slowest:?}, stale once down in {stale_took:?}, recovered {:?} after healing",
        backend.name(),
        healed.elapsed()
    );
    server.stop().await?;
    anvil.stop();
    Ok(())
}

/// Create a key (a database write) and report the status and how long it took.
async fn timed_key_create(
    client: &riskintel_client::Client,
    name: &str,
) -> (Result<(), u16>, Duration) {
    let started = Instant::now();
    let outcome = client
        .api_key_create(&types::ApiKeyCreate {
            name: arg(name),
            scopes: None,
            expires_at: None,
        })
        .await;
    let status = match outcome {
        Ok(_) => Ok(()),
        Err(e) => Err(e.status().map(|s| s.as_u16()).unwrap_or(0)),
    };
    (status, started.elapsed())
}

/// Health, and how long it took.
async fn timed_health(server: &TestServer) -> anyhow::Result<(types::Health, Duration)> {
    let started = Instant::now();
    let health = server.anonymous().health_get().await?.into_inner();
    Ok((health, started.elapsed()))
}

/// The address of a PostgreSQL URL's server.
fn server_address(url: &str) -> anyhow::Result<std::net::SocketAddr> {
    let url = reqwest::Url::parse(url)?;
    let host = match url.host_str() {
        Some("localhost") | None => "127.0.0.1",
        Some(host) => host,
    };
    format!("{host}:{}", url.port().unwrap_or(5432))
        .parse()
        .with_context(|| format!("the test database is not at an IP address ({url})"))
}

/// The URL with `address` as its server.
fn with_server(url: &str, address: std::net::SocketAddr) -> anyhow::Result<String> {
    let mut url = reqwest::Url::parse(url)?;
    url.set_host(Some(&address.ip().to_string()))?;
    url.set_port(Some(address.port()))
        .map_err(|()| anyhow::anyhow!("{url} takes no port"))?;
    Ok(url.to_string())
}

/// Wait until a key can be created again (the database is back).
async fn recovers(client: &riskintel_client::Client, within: Duration) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let mut n = 0;
    loop {
        n += 1;
        if timed_key_create(
            client,
            &format!("recovery-{n}-{}", started.elapsed().as_nanos()),
        )
        .await
        .0
        .is_ok()
        {
            return Ok(started.elapsed());
        }
        ensure!(started.elapsed() < within, "no recovery within {within:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

conformance!(a_stopped_or_hung_database_costs_at_most_its_timeouts);
pub async fn a_stopped_or_hung_database_costs_at_most_its_timeouts(
    backend: Backend,
) -> anyhow::Result<()> {
    const ACQUIRE_MS: u64 = 1_000;
    const QUERY_MS: u64 = 1_000;
    let mut config = Config {
        chains: Default::default(),
        ..Config::default()
    };
    config.market.enabled = false;
    config.database_acquire_timeout_ms = ACQUIRE_MS;
    config.database_query_timeout_ms = QUERY_MS;
    config.analysis.deadline_ms = 2_000;
    // The request deadline: the longer of the analysis deadline and one
    // connection wait plus one statement, plus a second.
    let request_deadline = Duration::from_millis(3_000);
    let slack = Duration::from_millis(1_000);

    if matches!(backend, Backend::Sqlite) {
        // An embedded database does not stop; another process holding its
        // write lock is how it fails to answer.
        let server = TestServer::start_with(backend, config).await?;
        let client = server.client(&server.owner_key());
        ensure!(timed_key_create(&client, "before").await.0.is_ok());
        let mut holder = sqlx::SqliteConnection::connect(&server.config.database_url).await?;
        sqlx::query("BEGIN EXCLUSIVE").execute(&mut holder).await?;
        let (status, took) = timed_key_create(&client, "locked").await;
        println!("sqlite: a write under another process's lock answered {status:?} in {took:?}");
        ensure!(status == Err(503), "{status:?}");
        ensure!(
            took <= Duration::from_millis(QUERY_MS) + slack,
            "took {took:?}"
        );
        let (health, took) = timed_health(&server).await?;
        ensure!(took <= slack, "health took {took:?}");
        println!(
            "sqlite: health under the lock in {took:?}: {:?}",
            health.status
        );
        sqlx::query("COMMIT").execute(&mut holder).await?;
        holder.close().await?;
        ensure!(timed_key_create(&client, "after").await.0.is_ok());
        return server.stop().await;
    }

    let database = riskintel_tests::TestDatabase::create(backend).await?;
    let proxy = TcpProxy::start(server_address(&database.url)?).await?;
    let proxied = with_server(&database.url, proxy.addr)?;
    let server = TestServer::start_on(
        riskintel_tests::TestDatabase::borrowed(&proxied),
        std::sync::Arc::new(riskintel_server::clock::ManualClock::new(
            riskintel_tests::start_time(),
        )),
        config,
    )
    .await?;
    let client = server.client(&server.owner_key());
    let outcome = async {
        ensure!(timed_key_create(&client, "before").await.0.is_ok());

        for (mode, bound) in [
            (Mode::Stopped, Duration::from_millis(ACQUIRE_MS) + slack),
            (Mode::Hung, request_deadline + slack),
        ] {
            proxy.set(mode);
            let (status, took) = timed_key_create(&client, &format!("during-{mode:?}")).await;
            println!("postgres {mode:?}: a key creation answered {status:?} in {took:?}");
            ensure!(status == Err(503), "{mode:?}: {status:?}");
            ensure!(took <= bound, "{mode:?}: took {took:?}, bound {bound:?}");
            let (health, took) = timed_health(&server).await?;
            println!(
                "postgres {mode:?}: health answered {:?} in {took:?}",
                health.status
            );
            ensure!(
                took <= slack + Duration::from_millis(500),
                "{mode:?}: health took {took:?}"
            );
            ensure!(
                health.status == types::HealthStatus::Degraded && !health.database.reachable,
                "{mode:?}: {health:?}"
            );
            proxy.set(Mode::Up);
            let took = recovers(&client, Duration::from_secs(10)).await?;
            println!("postgres {mode:?}: writes work again {took:?} after the database came back");
        }

        // A hang in the middle of a statement: the connection is taken and
        // the statement sent (it waits on a lock held elsewhere), then the
        // network stops answering. No pool or statement timeout of ours sees
        // it (the server's statement timeout error is swallowed too); the
        // request deadline does.
        let mut holder = sqlx::PgConnection::connect(&database.url).await?;
        sqlx::query("BEGIN").execute(&mut holder).await?;
        sqlx::query("LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE")
            .execute(&mut holder)
            .await?;
        let pending = tokio::spawn({
            let client = client.clone();
            async move { timed_key_create(&client, "mid-statement").await }
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        proxy.set(Mode::Hung);
        let (status, took) = pending.await?;
        println!("postgres: a statement hung mid-flight answered {status:?} in {took:?}");
        ensure!(status == Err(503), "mid-statement: {status:?}");
        ensure!(
            took >= request_deadline - Duration::from_millis(200)
                && took <= request_deadline + slack,
            "mid-statement: took {took:?}, deadline {request_deadline:?}"
        );
        sqlx::query("ROLLBACK").execute(&mut holder).await?;
        holder.close().await?;
        proxy.set(Mode::Up);
        recovers(&client, Duration::from_secs(10)).await?;
        Ok(())
    }
    .await;
    server.stop_keeping_database().await?;
    drop(proxy);
    database.drop_database().await?;
    outcome
}
