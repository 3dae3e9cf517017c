//! The conformance harness: starts the real server on `127.0.0.1:0` over
//! SQLite or PostgreSQL with an injected clock, talks to it through the
//! generated client, and checks the invariants every response must hold.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::{bail, ensure, Context as _};
use chrono::{DateTime, TimeZone, Utc};
use riskintel_client::types;
use riskintel_client::{Client, ResponseValue};
use riskintel_server::accounts::{self, NewAccount};
use riskintel_server::clock::{Clock, ManualClock};
use riskintel_server::config::Config;
use riskintel_server::logging::{self, LogSink};
use riskintel_server::store::Store;

pub mod bench;
pub mod corpus;
pub mod db;
pub mod instances;
pub mod jsonrpc;
pub mod latency;
pub mod receiver;
pub mod refusing_node;
pub mod rig;
pub mod solana_node;
pub mod solidly_rig;
pub mod tcp_proxy;
pub mod v3_rig;
pub mod v4_rig;

pub use db::{Backend, TestDatabase};

/// The time every test server's clock starts at: ten seconds into a UTC minute.
pub fn start_time() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 10)
        .single()
        .expect("valid time")
}

/// `config` without the Treasury's published list as a source (tests and
/// benchmarks never call a host outside 127.0.0.1); a test that screens
/// sets sources of its own, which are kept.
pub fn offline_lists(mut config: Config) -> Config {
    if config.screening.sources == riskintel_server::screening::ScreeningConfig::default().sources {
        config.screening.sources.clear();
    }
    config
}

/// A server under test.
pub struct TestServer {
    server: Option<riskintel_server::RunningServer>,
    database: TestDatabase,
    /// The injected clock.
    pub clock: Arc<ManualClock>,
    /// `http://127.0.0.1:PORT`.
    pub base_url: String,
    /// The owner account bootstrapped on first start.
    pub owner: Option<NewAccount>,
    log: Arc<Mutex<Vec<u8>>>,
    /// The configuration it runs with.
    pub config: Config,
}

impl TestServer {
    /// A server on a fresh database of `backend`, serving no chain (tests
    /// never reach the mainnet defaults).
    pub async fn start(backend: Backend) -> anyhow::Result<TestServer> {
        Self::start_with(
            backend,
            Config {
                chains: Default::default(),
                ..Config::default()
            },
        )
        .await
    }

    /// A server on a fresh database of `backend` with `config` (its listen
    /// address and database URL are set here).
    pub async fn start_with(backend: Backend, config: Config) -> anyhow::Result<TestServer> {
        let database = TestDatabase::create(backend).await?;
        Self::start_on(database, Arc::new(ManualClock::new(start_time())), config).await
    }

    /// A server serving the shared rig's chains: `eth` on chain A, `bsc` on chain B.
    pub async fn start_on_rig(backend: Backend) -> anyhow::Result<TestServer> {
        let rig = rig::shared()?;
        let mut config = Config {
            chains: rig::chains_config(&[("eth", &rig.a), ("bsc", &rig.b)]),
            ..Config::default()
        };
        // The shared rig does not change under these tests; the market tests run their own index on their own chains.
        config.market.enabled = false;
        Self::start_with(backend, config).await
    }

    /// A server on an existing database (restarts).
    pub async fn start_on(
        database: TestDatabase,
        clock: Arc<ManualClock>,
        config: Config,
    ) -> anyhow::Result<TestServer> {
        let log = Arc::new(Mutex::new(Vec::new()));
        let config = offline_lists(config);
        let config = Config {
            listen: "127.0.0.1:0".into(),
            // Metrics on a port of its own, unless the test turned them off.
            metrics_listen: if config.metrics_listen.is_empty() {
                String::new()
            } else {
                "127.0.0.1:0".into()
            },
            database_url: database.url.clone(),
            log_level: "info".into(),
            ..config
        };
        let saved = config.clone();
        let format = config.log_format;
        let server = riskintel_server::start(riskintel_server::ServerOptions {
            config,
            clock: clock.clone() as Arc<dyn Clock>,
            log: logging::logger_with("info", format, LogSink::Buffer(log.clone())),
            bootstrap: true,
        })
        .await?;
        let base_url = format!("http://{}", server.local_addr);
        let owner = server.bootstrapped.as_ref().map(|o| NewAccount {
            account: o.account.clone(),
            key: riskintel_server::keys::IssuedKey {
                key: o.key.key.clone(),
                record: o.key.record.clone(),
            },
        });
        Ok(TestServer {
            server: Some(server),
            database,
            clock,
            base_url,
            owner,
            log,
            config: saved,
        })
    }

    /// A second instance on the same database, clock and configuration
    /// (its own listener, caches and counters).
    pub async fn another_instance(&self) -> anyhow::Result<TestServer> {
        Self::start_on(
            TestDatabase::borrowed(&self.database.url),
            self.clock.clone(),
            self.config.clone(),
        )
        .await
    }

    /// The server's store.
    pub fn store(&self) -> Arc<dyn Store> {
        self.server.as_ref().expect("server running").store.clone()
    }

    /// Upstream requests the server has made to `chain` so far.
    pub fn upstream_requests(&self, chain: riskintel_server::chains::Chain) -> u64 {
        self.server
            .as_ref()
            .expect("server running")
            .analyzer
            .upstream_requests(chain)
    }

    /// A client authenticating with `key`.
    pub fn client(&self, key: &str) -> Client {
        Client::with_api_key(&self.base_url, key).expect("client builds")
    }

    /// A client sending no key.
    pub fn anonymous(&self) -> Client {
        Client::new(&self.base_url)
    }

    /// The owner's full key (Pro+, every scope).
    pub fn owner_key(&self) -> String {
        self.owner
            .as_ref()
            .expect("owner bootstrapped")
            .key
            .key
            .clone()
    }

    /// Run the operator's command line `riskintel ARGS…` on this server's
    /// database, timed by its clock.
    pub async fn operator(&self, args: &[&str]) -> anyhow::Result<()> {
        let line = ["riskintel", "--database-url", &self.config.database_url]
            .into_iter()
            .chain(args.iter().copied())
            .map(String::from);
        let clock: Arc<dyn Clock> = self.clock.clone();
        riskintel_server::cli::run(line, std::iter::empty(), clock)
            .await
            .with_context(|| format!("riskintel {}", args.join(" ")))
    }

    /// Create an account on `plan` (as the operator CLI does); its first key has every scope.
    pub async fn account(
        &self,
        name: &str,
        plan: riskintel_api::Plan,
    ) -> anyhow::Result<NewAccount> {
        let clock: Arc<dyn Clock> = self.clock.clone();
        Ok(accounts::create_account(&self.store(), &clock, name, plan).await?)
    }

    /// What the metrics listener answers now, checked to be the
    /// Prometheus text format.
    pub async fn metrics(&self) -> anyhow::Result<String> {
        let addr = self
            .server
            .as_ref()
            .and_then(|s| s.metrics_addr)
            .context("the server has no metrics listener")?;
        let answer = reqwest::get(format!("http://{addr}/metrics")).await?;
        anyhow::ensure!(answer.status() == 200, "metrics: {}", answer.status());
        let kind = header(answer.headers(), "content-type")?.to_string();
        anyhow::ensure!(
            kind.starts_with("text/plain; version=0.0.4"),
            "metrics content type {kind}"
        );
        Ok(answer.text().await?)
    }

    /// A request the typed client cannot make (a value its enums or
    /// patterns rule out), with `key`; `body` makes it a POST.
    pub async fn raw(
        &self,
        key: &str,
        path: &str,
        body: Option<serde_json::Value>,
    ) -> anyhow::Result<reqwest::Response> {
        let http = reqwest::Client::new();
        let url = format!("{}{path}", self.base_url);
        let request = match body {
            Some(body) => http.post(url).json(&body),
            None => http.get(url),
        };
        Ok(request.header("x-api-key", key).send().await?)
    }

    /// [`TestServer::raw`] answered with the error `status` and `code`,
    /// checked as [`err`] checks the typed client's errors.
    pub async fn raw_err(
        &self,
        key: &str,
        path: &str,
        body: Option<serde_json::Value>,
        status: u16,
        code: types::ErrorCode,
    ) -> anyhow::Result<types::ApiError> {
        let answer = self.raw(key, path, body).await?;
        ensure!(
            answer.status().as_u16() == status,
            "{path}: {} instead of {status}",
            answer.status()
        );
        check_request_id(answer.headers())?;
        rate_limit(answer.headers())?;
        let error: types::ApiError = answer.json().await?;
        check_envelope(&error, code)?;
        Ok(error)
    }

    /// Everything logged so far.
    pub fn log_text(&self) -> String {
        String::from_utf8_lossy(&self.log.lock().expect("log lock")).into_owned()
    }

    /// Stop the server, keeping the database (for a restart).
    pub async fn stop_keeping_database(mut self) -> anyhow::Result<TestDatabase> {
        self.shutdown().await?;
        Ok(std::mem::replace(&mut self.database, TestDatabase::none()))
    }

    /// Stop the server and drop its database.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        self.shutdown().await?;
        let database = std::mem::replace(&mut self.database, TestDatabase::none());
        database.drop_database().await
    }

    async fn shutdown(&mut self) -> anyhow::Result<()> {
        record_calls(&self.log_text());
        if let Some(server) = self.server.take() {
            server.close().await?;
        }
        Ok(())
    }
}

/// Poll `check` every 20 ms until it holds, for at most `limit`; how long
/// it took. An error from `check` ends the wait at once.
pub async fn within<F, Fut>(
    limit: std::time::Duration,
    what: &str,
    mut check: F,
) -> anyhow::Result<std::time::Duration>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<bool>>,
{
    let start = std::time::Instant::now();
    loop {
        if check().await? {
            return Ok(start.elapsed());
        }
        ensure!(start.elapsed() < limit, "{what}: not seen within {limit:?}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

// ---------------------------------------------------------------------------
// Invariants checked on every response.

/// The sum of the samples of the series `name` (in the Prometheus text
/// format `text`) whose labels include every one of `labels`; `None` when
/// there is none.
pub fn metric(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let mut found = None;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((series, value)) = line.rsplit_once(' ') else {
            continue;
        };
        let (series_name, series_labels) = match series.split_once('{') {
            Some((n, rest)) => (n, rest.trim_end_matches('}')),
            None => (series, ""),
        };
        let has = |(k, v): &(&str, &str)| {
            series_labels
                .split("\",")
                .any(|pair| pair.trim_end_matches('"') == format!("{k}=\"{v}"))
        };
        if series_name == name && labels.iter().all(has) {
            let value: f64 = value.parse().unwrap_or(f64::NAN);
            *found.get_or_insert(0.0) += value;
        }
    }
    found
}

/// The header as a string, or an error naming it.
pub fn header<'a>(headers: &'a reqwest::header::HeaderMap, name: &str) -> anyhow::Result<&'a str> {
    headers
        .get(name)
        .with_context(|| format!("response lacks the {name} header"))?
        .to_str()
        .with_context(|| format!("{name} is not text"))
}

/// Rate-limit headers as numbers: (limit, remaining, reset).
pub fn rate_limit(headers: &reqwest::header::HeaderMap) -> anyhow::Result<(u64, u64, i64)> {
    let limit: u64 = header(headers, "x-ratelimit-limit")?.parse()?;
    let remaining: u64 = header(headers, "x-ratelimit-remaining")?.parse()?;
    let reset: i64 = header(headers, "x-ratelimit-reset")?.parse()?;
    ensure!(
        remaining <= limit,
        "remaining {remaining} exceeds limit {limit}"
    );
    ensure!(
        reset % 60 == 0,
        "reset {reset} is not the end of a UTC minute"
    );
    Ok((limit, remaining, reset))
}

/// Every response: a request id.
pub fn check_request_id(headers: &reqwest::header::HeaderMap) -> anyhow::Result<()> {
    ensure!(
        !header(headers, "x-request-id")?.is_empty(),
        "empty x-request-id"
    );
    Ok(())
}

/// A successful authenticated answer: request id and rate-limit headers.
pub fn ok<T>(
    result: Result<ResponseValue<T>, riskintel_client::Error<types::ApiError>>,
) -> anyhow::Result<ResponseValue<T>> {
    let response = match result {
        Ok(response) => response,
        Err(error) => bail!("expected success, got {}", describe(&error)),
    };
    check_request_id(response.headers())?;
    rate_limit(response.headers())?;
    Ok(response)
}

/// A badge answer, SVG on success and on error alike: its status, headers
/// and well-formed SVG text, with the request id, the rate-limit headers and
/// the content type checked (and `Retry-After` on 429 and 503).
pub async fn badge(
    result: Result<
        ResponseValue<riskintel_client::ByteStream>,
        riskintel_client::Error<riskintel_client::ByteStream>,
    >,
) -> anyhow::Result<(u16, reqwest::header::HeaderMap, String)> {
    use futures::StreamExt as _;
    let response = match result {
        Ok(response) => response,
        Err(riskintel_client::Error::ErrorResponse(response)) => response,
        Err(other) => bail!("expected a badge, got {other}"),
    };
    let (status, headers) = (response.status().as_u16(), response.headers().clone());
    check_request_id(&headers)?;
    rate_limit(&headers)?;
    ensure!(
        header(&headers, "content-type")?.starts_with("image/svg+xml"),
        "a badge is SVG, also for status {status}"
    );
    if status == 429 || status == 503 {
        ensure!(header(&headers, "retry-after")?.parse::<u64>()? >= 1);
    }
    let mut stream = response.into_inner().into_inner();
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.next().await {
        bytes.extend_from_slice(&chunk?);
    }
    let svg = String::from_utf8(bytes)?;
    roxmltree::Document::parse(&svg)
        .with_context(|| format!("badge is not well-formed XML: {svg}"))?;
    Ok((status, headers, svg))
}

/// An error answer with `status` and `code`: request id, envelope, and
/// (where `metered`) the rate-limit headers; `Retry-After` on 429 and 503.
pub fn err<T>(
    result: Result<ResponseValue<T>, riskintel_client::Error<types::ApiError>>,
    status: u16,
    code: types::ErrorCode,
    metered: bool,
) -> anyhow::Result<ResponseValue<types::ApiError>> {
    let response = match result {
        Ok(value) => bail!("expected {status} {code:?}, got success {}", value.status()),
        Err(riskintel_client::Error::ErrorResponse(response)) => response,
        Err(other) => bail!("expected {status} {code:?}, got {}", describe(&other)),
    };
    ensure!(
        response.status().as_u16() == status,
        "status {} instead of {status}",
        response.status()
    );
    check_request_id(response.headers())?;
    check_envelope(&response, code)?;
    if metered {
        rate_limit(response.headers())?;
    }
    if status == 429 || status == 503 {
        let retry: u64 = header(response.headers(), "retry-after")?.parse()?;
        ensure!(retry >= 1, "Retry-After must be at least 1");
    }
    Ok(response)
}

fn check_envelope(error: &types::ApiError, code: types::ErrorCode) -> anyhow::Result<()> {
    ensure!(
        error.error.code == code,
        "code {:?} instead of {code:?}",
        error.error.code
    );
    ensure!(!error.error.message.trim().is_empty(), "empty message");
    let anchor = format!("/docs/errors#{}", code.to_string().to_ascii_lowercase());
    ensure!(
        error.error.docs_url.ends_with(&anchor),
        "docs_url {} does not point at {anchor}",
        error.error.docs_url
    );
    Ok(())
}

/// A readable account of a client error.
pub fn describe(error: &riskintel_client::Error<types::ApiError>) -> String {
    match error {
        riskintel_client::Error::ErrorResponse(r) => {
            format!("{} {:?}: {}", r.status(), r.error.code, r.error.message)
        }
        other => other.to_string(),
    }
}

// ---------------------------------------------------------------------------
// Which operations the suite called, from the servers' request logs.

fn called() -> &'static Mutex<BTreeSet<String>> {
    static CALLED: OnceLock<Mutex<BTreeSet<String>>> = OnceLock::new();
    CALLED.get_or_init(|| Mutex::new(BTreeSet::new()))
}

/// Every operation of the API description: (operation id, method, path template).
pub fn operations() -> Vec<(String, String, String)> {
    let description =
        riskintel_api::risk_intel_api_mod::stub_api_description().expect("API description");
    let document = description
        .openapi("coverage", semver_zero())
        .json()
        .expect("document");
    let mut ops = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            ops.push((
                op["operationId"]
                    .as_str()
                    .expect("operation id")
                    .to_string(),
                method.to_ascii_uppercase(),
                path.clone(),
            ));
        }
    }
    // Unpublished operations are not in the document, but are operations.
    ops.push((
        "error_reference_get".into(),
        "GET".into(),
        "/docs/errors".into(),
    ));
    ops
}

fn semver_zero() -> semver::Version {
    semver::Version::new(0, 0, 0)
}

fn matches_template(template: &str, path: &str) -> bool {
    let t: Vec<_> = template.trim_matches('/').split('/').collect();
    let p: Vec<_> = path.trim_matches('/').split('/').collect();
    t.len() == p.len() && t.iter().zip(&p).all(|(t, p)| t.starts_with('{') || t == p)
}

fn record_calls(log: &str) {
    let ops = operations();
    let mut called = called().lock().expect("coverage lock");
    for line in log.lines().filter(|l| l.contains("request completed")) {
        let field = |name: &str| {
            line.split(' ')
                .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
                .map(str::to_string)
        };
        let (Some(uri), Some(method)) = (field("uri"), field("method")) else {
            continue;
        };
        let path = uri.split('?').next().unwrap_or_default();
        if let Some((id, _, _)) = ops
            .iter()
            .find(|(_, m, t)| *m == method && matches_template(t, path))
        {
            called.insert(id.clone());
        }
    }
}

/// Operations no test has called yet.
pub fn uncalled_operations() -> Vec<String> {
    let called = called().lock().expect("coverage lock");
    operations()
        .into_iter()
        .map(|(id, _, _)| id)
        .filter(|id| !called.contains(id))
        .collect()
}

/// A typed argument of the generated client (a chain id, an address, a key
/// id or name, checked against the document's enum or pattern) from its
/// text; the tests' own values are valid, so an invalid one is a bug here.
pub fn arg<T>(text: impl AsRef<str>) -> T
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    let text = text.as_ref();
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} is not a valid argument: {e}"))
}
