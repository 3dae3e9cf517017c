//! The authenticated hot path against the framework's ceiling (run by
//! `cargo xtask bench`): a bare endpoint serving the very bytes of a cached
//! analysis, on the published dropshot with its defaults (the anchor a
//! user of the framework would write, `tests/stock-dropshot`) and on the
//! vendored one, and the cached `GET /v1/token/{chain}/{address}/analyze`
//! with keys spread over 200 Pro+ accounts (so no limit binds), all loaded
//! by wrk (2 threads, 32 connections, the same key-rotating script for all,
//! which the bare endpoint ignores) in the same run, in turn three times:
//! requests per second, p50 and p99 of each endpoint's median run, and the
//! ratio to the stock endpoint in each round. The vendored bare endpoint is measured twice,
//! plain and served through the service's connection gate (`connections/`:
//! the cap, the timed stream, hyper's limits), so the gate's own cost shows
//! apart from the handlers'; the analysis is measured again with the
//! operator's override of its label in force. On SQLite, and on PostgreSQL
//! when it answers.
//!
//! Allocations per request are counted by this binary's global allocator
//! in a pass of its own for each endpoint (counting is off while the
//! throughput is measured, so it costs those runs nothing).
//!
//! Numbers are printed, not asserted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::{bail, ensure, Context as _};
use dropshot::{ApiDescription, Body, ConfigDropshot, HttpError, RequestContext, ServerBuilder};
use riskintel_server::clock::{Clock, SystemClock};
use riskintel_server::logging::{self, LogSink};
use riskintel_tests::{bench, rig};
use riskintel_tests::{Backend, TestDatabase};

/// The system allocator, counting allocations (reallocations included)
/// while [`COUNTING`] is on.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

impl Counting {
    fn count() {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
    }
}

// SAFETY: every call is passed unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Counting::count();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Counting::count();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Counting::count();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations per request made by this process (the servers run in it)
/// while wrk loads `url` for two seconds.
fn allocations_per_request(url: &str, script: &Path) -> anyhow::Result<f64> {
    ALLOCATIONS.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::Relaxed);
    let load = wrk_for(url, Some(script), 2);
    COUNTING.store(false, Ordering::Relaxed);
    let load = load?;
    ensure!(load.requests > 0, "no request was answered");
    Ok(ALLOCATIONS.load(Ordering::Relaxed) as f64 / load.requests as f64)
}

const ACCOUNTS: usize = 200;
/// Runs of each endpoint, in turn.
const ROUNDS: usize = 3;
const SECONDS: u64 = 5;
/// Accounts the soak spreads its keys over (6,000 requests a minute each).
const SOAK_ACCOUNTS: usize = 3_000;

/// What wrk measured.
#[derive(Clone, Copy)]
struct Load {
    requests: u64,
    per_second: f64,
    p50_ms: f64,
    p99_ms: f64,
}

/// A wrk latency figure (`950.00us`, `3.19ms`, `1.02s`) in milliseconds.
fn millis(text: &str) -> Option<f64> {
    let text = text.trim();
    let (number, scale) = if let Some(n) = text.strip_suffix("us") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1000.0)
    } else {
        return None;
    };
    number.parse::<f64>().ok().map(|n| n * scale)
}

fn wrk(url: &str, script: Option<&Path>) -> anyhow::Result<Load> {
    wrk_for(url, script, SECONDS)
}

fn wrk_for(url: &str, script: Option<&Path>, seconds: u64) -> anyhow::Result<Load> {
    let mut command = Command::new("wrk");
    command.args(["-t2", "-c32", &format!("-d{seconds}s"), "--latency"]);
    if let Some(script) = script {
        command.arg("-s").arg(script);
    }
    let output = command
        .arg(url)
        .output()
        .context("running wrk (apt-get install wrk)")?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    if text.contains("Non-2xx") {
        bail!("some answers were not 2xx:\n{text}");
    }
    let field = |prefix: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(prefix).map(str::to_string))
            .with_context(|| format!("wrk printed no {prefix}:\n{text}"))
    };
    let requests = text
        .lines()
        .find_map(|l| {
            l.trim()
                .split_once(" requests in ")
                .map(|(n, _)| n.trim().parse().ok())
        })
        .flatten()
        .with_context(|| format!("wrk printed no request count:\n{text}"))?;
    Ok(Load {
        requests,
        per_second: field("Requests/sec:")?.trim().parse()?,
        p50_ms: millis(&field("50%")?).context("p50")?,
        p99_ms: millis(&field("99%")?).context("p99")?,
    })
}

/// The run with the median rate.
fn median_by_rate<'a>(loads: impl Iterator<Item = &'a Load>) -> Load {
    let mut loads: Vec<&Load> = loads.collect();
    loads.sort_by(|a, b| a.per_second.total_cmp(&b.per_second));
    let median = loads[loads.len() / 2];
    *median
}

#[dropshot::endpoint { method = GET, path = "/bare" }]
async fn bare(rqctx: RequestContext<Arc<Vec<u8>>>) -> Result<http::Response<Body>, HttpError> {
    http::Response::builder()
        .status(200)
        .header("content-type", "application/json")
        .body(Body::from(rqctx.context().as_ref().clone()))
        .map_err(|e| HttpError::for_internal_error(e.to_string()))
}

/// The bare endpoint on the published dropshot, its defaults untouched
/// (`tests/stock-dropshot`, its own workspace so this repository's patch
/// does not apply), built here and run as a child process serving `body`.
struct StockDropshot {
    child: std::process::Child,
    url: String,
}

impl StockDropshot {
    fn start(body: &[u8], dir: &Path) -> anyhow::Result<StockDropshot> {
        let tests = Path::new(env!("CARGO_MANIFEST_DIR"));
        let target = tests.parent().context("the repository")?.join("target");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let built = Command::new(cargo)
            .args(["build", "--release", "--quiet", "--manifest-path"])
            .arg(tests.join("stock-dropshot/Cargo.toml"))
            .arg("--target-dir")
            .arg(&target)
            .status()
            .context("building tests/stock-dropshot")?;
        ensure!(built.success(), "building tests/stock-dropshot failed");
        let file = dir.join("bare-body.json");
        std::fs::write(&file, body)?;
        let mut child = Command::new(target.join("release/stock-dropshot"))
            .arg(&file)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .context("starting stock-dropshot")?;
        let mut line = String::new();
        let stdout = child.stdout.take().context("its stdout")?;
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)?;
        let address = line
            .trim()
            .strip_prefix("listening on ")
            .with_context(|| format!("stock-dropshot printed {line:?}"))?;
        Ok(StockDropshot {
            url: format!("http://{address}/bare"),
            child,
        })
    }
}

impl Drop for StockDropshot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server on one backend with its accounts, the cached analysis's URL,
/// its bytes, and wrk's key-rotating script.
struct Prepared {
    server: riskintel_server::RunningServer,
    clock: Arc<dyn Clock>,
    keys: Vec<String>,
    url: String,
    body: Vec<u8>,
    script: std::path::PathBuf,
}

async fn prepare(
    name: &str,
    accounts: usize,
    database_url: &str,
    chain: &rig::RigChain,
    dir: &Path,
) -> anyhow::Result<Prepared> {
    let (server, _) = bench::start(bench::config(database_url.to_string(), chain), false).await?;
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let mut keys = Vec::new();
    for n in 0..accounts {
        let account = riskintel_server::accounts::create_account(
            &server.store,
            &clock,
            &format!("hot-{n}"),
            riskintel_api::Plan::ProPlus,
        )
        .await?;
        keys.push(account.key.key);
    }
    let url = format!(
        "http://{}/v1/token/eth/{}/analyze",
        server.local_addr,
        chain.token("plain")
    );
    let body = reqwest::Client::new()
        .get(&url)
        .header("x-api-key", &keys[0])
        .send()
        .await?
        .error_for_status()?
        .bytes()
        .await?
        .to_vec();
    ensure!(!body.is_empty(), "the analysis is empty");
    let script = dir.join(format!("{name}-keys.lua"));
    let quoted: Vec<String> = keys.iter().map(|k| format!("\"{k}\"")).collect();
    std::fs::write(
        &script,
        format!(
            "local keys = {{{}}}\nlocal i = 0\nrequest = function()\n  i = i + 1\n  \
             return wrk.format(\"GET\", nil, {{[\"x-api-key\"] = keys[(i % #keys) + 1]}})\nend\n",
            quoted.join(", ")
        ),
    )?;
    Ok(Prepared {
        server,
        clock,
        keys,
        url,
        body,
        script,
    })
}

/// Measure one backend: the server on `database_url`, the bare endpoint beside it.
async fn measure(
    name: &str,
    database_url: &str,
    chain: &rig::RigChain,
    dir: &Path,
) -> anyhow::Result<()> {
    let Prepared {
        server,
        clock,
        keys,
        url,
        body,
        script,
    } = prepare(name, ACCOUNTS, database_url, chain, dir).await?;
    let bare_plain = bare_server(&body, None)?;
    // The bare endpoint served as the service serves its own: the gate.
    let gate = riskintel_server::connections::Gate::new(
        &Default::default(),
        std::time::Duration::from_secs(10),
        logging::logger("warn", LogSink::Stderr),
    );
    let bare_gated = bare_server(&body, Some(gate.dropshot()))?;
    let bare_url = format!("http://{}/bare", bare_plain.local_addr());
    let bare_gated_url = format!("http://{}/bare", bare_gated.local_addr());
    let stock = StockDropshot::start(&body, dir)?;
    let (rounds, [bare_allocations, cached_allocations]) = tokio::task::spawn_blocking({
        let (script, url, stock_url) = (script.clone(), url.clone(), stock.url.clone());
        move || -> anyhow::Result<(Vec<[Load; 4]>, [f64; 2])> {
            // A warm-up, unmeasured: the keys' first reads, and whatever
            // the database does after the accounts were written (a new
            // PostgreSQL database's autovacuum), are over before the runs.
            wrk_for(&url, Some(&script), 5)?;
            // The endpoints in turn, ROUNDS times: two cores shared with
            // wrk make one run noisy, and neighbours in time compare best.
            // The same script for all: the client does the same work.
            let rounds = (0..ROUNDS)
                .map(|_| -> anyhow::Result<[Load; 4]> {
                    Ok([
                        wrk(&stock_url, Some(&script))?,
                        wrk(&bare_url, Some(&script))?,
                        wrk(&bare_gated_url, Some(&script))?,
                        wrk(&url, Some(&script))?,
                    ])
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let allocations = [
                allocations_per_request(&bare_url, &script)?,
                allocations_per_request(&url, &script)?,
            ];
            Ok((rounds, allocations))
        }
    })
    .await??;
    let [stock_load, bare_load, gated_load, cached] =
        std::array::from_fn(|i| median_by_rate(rounds.iter().map(|r| &r[i])));
    let mut ratios: Vec<f64> = (rounds.iter())
        .map(|r| r[3].per_second / r[0].per_second)
        .collect();
    ratios.sort_by(f64::total_cmp);
    // The same token with the operator's override in force: its view is
    // made once per analysis and override, then served like any other.
    riskintel_server::disputes::overrides::set(
        &server.store,
        &clock,
        riskintel_server::disputes::overrides::OverrideRequest {
            chain: riskintel_api::ChainId::Eth,
            address: chain.token("plain"),
            label: riskintel_api::RiskLabel::Critical,
            reason: "bench".into(),
            set_by: "bench".into(),
            expires_at: None,
        },
    )
    .await?;
    let shown = async || -> anyhow::Result<bool> {
        let answer: serde_json::Value = reqwest::Client::new()
            .get(&url)
            .header("x-api-key", &keys[0])
            .send()
            .await?
            .json()
            .await?;
        Ok(answer["override"].is_object())
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !shown().await? {
        ensure!(
            std::time::Instant::now() < deadline,
            "the override never showed"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let overridden = tokio::task::spawn_blocking({
        let (script, url) = (script.clone(), url.clone());
        move || wrk(&url, Some(&script))
    })
    .await??;
    let line = |what: &str, load: &Load| {
        println!(
            "{name}: {what}: {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms",
            load.per_second, load.p50_ms, load.p99_ms
        )
    };
    drop(stock);
    line(
        &format!(
            "bare endpoint on stock dropshot 0.18, its defaults ({} bytes)",
            body.len()
        ),
        &stock_load,
    );
    line("the bare endpoint on the vendored dropshot", &bare_load);
    line(
        "the bare endpoint served through the connection gate",
        &gated_load,
    );
    line(
        &format!("cached GET …/analyze ({ACCOUNTS} accounts), as served"),
        &cached,
    );
    line(
        "the same with an override in force (its view made once)",
        &overridden,
    );
    println!(
        "{name}: analyze as served/stock dropshot in each round: {}",
        (ratios.iter().map(|r| format!("{r:.2}")))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "{name}: ratios (median runs): analyze as served/stock dropshot {:.2}, /vendored dropshot {:.2}; the gate costs the bare endpoint {:.0} %; an override costs {:.0} %",
        cached.per_second / stock_load.per_second,
        cached.per_second / bare_load.per_second,
        100.0 * (1.0 - gated_load.per_second / bare_load.per_second),
        100.0 * (1.0 - overridden.per_second / cached.per_second),
    );
    println!(
        "{name}: allocations per request: bare dropshot {bare_allocations:.1}, cached analyze {cached_allocations:.1}"
    );
    for served in [bare_plain, bare_gated] {
        served
            .close()
            .await
            .map_err(|e| anyhow::anyhow!("closing the bare server: {e}"))?;
    }
    server.close().await
}

/// The bare endpoint on its own dropshot server, with `connections` if given.
fn bare_server(
    body: &[u8],
    connections: Option<dropshot::ConfigConnections>,
) -> anyhow::Result<dropshot::HttpServer<Arc<Vec<u8>>>> {
    let mut api = ApiDescription::new();
    api.register(bare)
        .map_err(|e| anyhow::anyhow!("bare endpoint: {e}"))?;
    ServerBuilder::new(
        api,
        Arc::new(body.to_vec()),
        logging::logger("warn", LogSink::Stderr),
    )
    .config(ConfigDropshot {
        bind_address: "127.0.0.1:0".parse()?,
        ..Default::default()
    })
    .connections(connections.unwrap_or_default())
    .start()
    .map_err(|e| anyhow::anyhow!("bare server: {e}"))
}

/// The process's resident memory, in MiB (the server runs in this process).
fn rss_mib() -> anyhow::Result<f64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .context("no VmRSS")?
        .parse()?;
    Ok(kib / 1024.0)
}

/// The soak: `millions` of cached analyze requests on SQLite with nothing
/// scraping the metrics, the process's resident memory printed after each
/// stretch of load (issue 47: flat memory).
async fn soak(millions: u64, chain: &rig::RigChain, dir: &Path) -> anyhow::Result<()> {
    let sqlite = format!("sqlite://{}", dir.join("soak.db").display());
    // Enough accounts that no Pro+ minute's limit binds at any speed here.
    let prepared = prepare("soak", SOAK_ACCOUNTS, &sqlite, chain, dir).await?;
    let (url, script) = (prepared.url.clone(), prepared.script.clone());
    let target = millions * 1_000_000;
    let mut done = 0u64;
    let mut first_million = None;
    println!("soak: requests, resident MiB, requests/s");
    println!("soak: {done:>10} {:>8.1}", rss_mib()?);
    while done < target {
        let load = tokio::task::spawn_blocking({
            let (url, script) = (url.clone(), script.clone());
            move || wrk_for(&url, Some(&script), 20)
        })
        .await??;
        done += load.requests;
        let rss = rss_mib()?;
        if first_million.is_none() && done >= 1_000_000 {
            first_million = Some(rss);
        }
        println!("soak: {done:>10} {rss:>8.1} {:>8.0}", load.per_second);
    }
    let end = rss_mib()?;
    if let Some(first) = first_million {
        println!(
            "soak: resident memory after {done} requests is {:+.1} % of that after the first million ({first:.1} → {end:.1} MiB)",
            100.0 * (end / first - 1.0)
        );
    }
    prepared.server.close().await
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let soak_millions = match (args.next().as_deref(), args.next()) {
        (Some("--soak"), Some(n)) => Some(n.parse::<u64>().context("--soak MILLIONS")?),
        (None, _) => None,
        _ => bail!("usage: hot-path-bench [--soak MILLIONS]"),
    };
    let (anvil, chain) = rig::own_scenario(31401).await?;
    let dir = std::env::temp_dir().join(format!("riskintel-hot-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    if let Some(millions) = soak_millions {
        soak(millions, &chain, &dir).await?;
        drop(anvil);
        let _ = std::fs::remove_dir_all(&dir);
        return Ok(());
    }
    let sqlite = format!("sqlite://{}", dir.join("hot.db").display());
    measure("sqlite", &sqlite, &chain, &dir).await?;
    match TestDatabase::create(Backend::Postgres).await {
        Ok(database) => {
            let measured = measure("postgres", &database.url, &chain, &dir).await;
            database.drop_database().await?;
            measured?;
        }
        Err(error) => println!("postgres: not measured ({error})"),
    }
    drop(anvil);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
