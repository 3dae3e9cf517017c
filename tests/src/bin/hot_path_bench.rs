//! The authenticated hot path against the framework's ceiling (run by
//! `cargo xtask bench`): a bare dropshot endpoint serving the very bytes of
//! a cached analysis, and the cached `GET /v1/token/{chain}/{address}/analyze`
//! with keys spread over 200 Pro+ accounts (so no limit binds), all loaded
//! by wrk (2 threads, 32 connections, the same key-rotating script for all,
//! which the bare endpoint ignores) in the same run: requests per second,
//! p50, p99, and the ratios. Each is measured twice: behind the connection
//! front (`connections/`, how the service serves its address) and straight
//! to dropshot, so the front's own cost shows apart from the handlers'.
//! On SQLite, and on PostgreSQL when it answers.
//!
//! Numbers are printed, not asserted.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use anyhow::{bail, ensure, Context as _};
use dropshot::{ApiDescription, Body, ConfigDropshot, HttpError, RequestContext, ServerBuilder};
use riskintel_server::clock::{Clock, SystemClock};
use riskintel_server::logging::{self, LogSink};
use riskintel_tests::{bench, rig};
use riskintel_tests::{Backend, TestDatabase};

const ACCOUNTS: usize = 200;
const SECONDS: u64 = 5;

/// What wrk measured.
struct Load {
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
    let mut command = Command::new("wrk");
    command.args(["-t2", "-c32", &format!("-d{SECONDS}s"), "--latency"]);
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
    Ok(Load {
        per_second: field("Requests/sec:")?.trim().parse()?,
        p50_ms: millis(&field("50%")?).context("p50")?,
        p99_ms: millis(&field("99%")?).context("p99")?,
    })
}

#[dropshot::endpoint { method = GET, path = "/bare" }]
async fn bare(rqctx: RequestContext<Arc<Vec<u8>>>) -> Result<http::Response<Body>, HttpError> {
    http::Response::builder()
        .status(200)
        .header("content-type", "application/json")
        .body(Body::from(rqctx.context().as_ref().clone()))
        .map_err(|e| HttpError::for_internal_error(e.to_string()))
}

/// Measure one backend: the server on `database_url`, the bare endpoint beside it.
async fn measure(
    name: &str,
    database_url: &str,
    chain: &rig::RigChain,
    dir: &Path,
) -> anyhow::Result<()> {
    let (server, _) = bench::start(bench::config(database_url.to_string(), chain), false).await?;
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let mut keys = Vec::new();
    for n in 0..ACCOUNTS {
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
    let mut api = ApiDescription::new();
    api.register(bare)
        .map_err(|e| anyhow::anyhow!("bare endpoint: {e}"))?;
    let bare_server = ServerBuilder::new(
        api,
        Arc::new(body.clone()),
        logging::logger("warn", LogSink::Stderr),
    )
    .config(ConfigDropshot {
        bind_address: "127.0.0.1:0".parse()?,
        ..Default::default()
    })
    .start()
    .map_err(|e| anyhow::anyhow!("bare server: {e}"))?;
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
    // The bare endpoint behind a connection front of its own, as the
    // service's endpoints are served: the framework's ceiling as deployed.
    let bare_front = riskintel_server::connections::Front::start(
        "127.0.0.1:0".parse()?,
        bare_server.local_addr(),
        &Default::default(),
        Arc::new(Default::default()),
        logging::logger("warn", LogSink::Stderr),
    )
    .await?;
    let bare_url = format!("http://{}/bare", bare_server.local_addr());
    let bare_front_url = format!("http://{}/bare", bare_front.local_addr());
    let direct_url = format!(
        "http://{}/v1/token/eth/{}/analyze",
        server.backend_addr,
        chain.token("plain")
    );
    let [bare_load, bare_fronted, cached, direct] = tokio::task::spawn_blocking({
        let script = script.clone();
        move || -> anyhow::Result<[Load; 4]> {
            // The same script for all: the client does the same work.
            Ok([
                wrk(&bare_url, Some(&script))?,
                wrk(&bare_front_url, Some(&script))?,
                wrk(&url, Some(&script))?,
                wrk(&direct_url, Some(&script))?,
            ])
        }
    })
    .await??;
    let line = |what: &str, load: &Load| {
        println!(
            "{name}: {what}: {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms",
            load.per_second, load.p50_ms, load.p99_ms
        )
    };
    line(
        &format!("bare dropshot endpoint ({} bytes)", body.len()),
        &bare_load,
    );
    line("the bare endpoint behind a connection front", &bare_fronted);
    line(
        &format!("cached GET …/analyze ({ACCOUNTS} accounts), as served (front)"),
        &cached,
    );
    line("the same, straight to dropshot behind the front", &direct);
    println!(
        "{name}: ratios: analyze/bare both behind the front {:.2}, both straight to dropshot {:.2}; \
         analyze as served/bare dropshot {:.2}; the front costs the bare endpoint {:.0} %, analyze {:.0} %",
        cached.per_second / bare_fronted.per_second,
        direct.per_second / bare_load.per_second,
        cached.per_second / bare_load.per_second,
        100.0 * (1.0 - bare_fronted.per_second / bare_load.per_second),
        100.0 * (1.0 - cached.per_second / direct.per_second),
    );
    bare_front.stop();
    bare_server
        .close()
        .await
        .map_err(|e| anyhow::anyhow!("closing the bare server: {e}"))?;
    server.close().await
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (anvil, chain) = rig::own_scenario(31401).await?;
    let dir = std::env::temp_dir().join(format!("riskintel-hot-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
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
