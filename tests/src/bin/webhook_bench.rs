//! Webhook benchmark (run by `cargo xtask bench`): on SQLite and
//! PostgreSQL, with a receiver on 127.0.0.1 and the worker's poll set to a
//! minute (so only waking delivers):
//! - latency: from a test event's request to its arrival at the receiver,
//!   50 times one after another (the path an alert raised by the index
//!   takes: queued, the worker woken, claimed, signed, POSTed);
//! - backlog: 500 alerts queued at once, then the time until the receiver
//!   has them all.
//!
//! Numbers are printed, not asserted.

use std::time::{Duration, Instant};

use anyhow::{ensure, Context as _};
use riskintel_api::{AlertKind, RiskLabel, Severity};
use riskintel_server::config::Config;
use riskintel_server::store::AlertRow;
use riskintel_tests::receiver::Receiver;
use riskintel_tests::{bench, Backend, TestDatabase};

const PINGS: usize = 50;
const BACKLOG: usize = 500;

fn percentile(samples: &mut [f64], p: f64) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

async fn wait_for(receiver: &Receiver, count: usize) -> anyhow::Result<Instant> {
    let started = Instant::now();
    loop {
        let received = receiver.received();
        if received.len() >= count {
            return Ok(received[count - 1].at);
        }
        ensure!(
            started.elapsed() < Duration::from_secs(60),
            "{count} deliveries not seen within a minute"
        );
        tokio::time::sleep(Duration::from_micros(200)).await;
    }
}

async fn measure(name: &str, database_url: &str) -> anyhow::Result<()> {
    let mut config = Config {
        listen: "127.0.0.1:0".into(),
        metrics_listen: String::new(),
        database_url: database_url.into(),
        log_level: "warn".into(),
        chains: Default::default(),
        ..Config::default()
    };
    config.market.enabled = false;
    config.webhooks.allow_private_targets = true;
    config.webhooks.poll_ms = 60_000;
    let (server, key) = bench::start(config, true).await?;
    let key = key.context("owner key")?;
    let base = format!("http://{}", server.local_addr);
    let http = reqwest::Client::new();
    let receiver = Receiver::start(&[], 200).await?;
    let created: serde_json::Value = http
        .post(format!("{base}/v1/webhooks"))
        .header("x-api-key", &key)
        .json(&serde_json::json!({ "url": receiver.url }))
        .send()
        .await?
        .json()
        .await?;
    let id = created["webhook"]["id"]
        .as_str()
        .with_context(|| format!("a webhook: {created}"))?
        .to_string();

    let mut latencies = Vec::new();
    for n in 1..=PINGS {
        let sent = Instant::now();
        let answer = http
            .post(format!("{base}/v1/webhooks/{id}/test"))
            .header("x-api-key", &key)
            .send()
            .await?;
        ensure!(answer.status() == 202, "test event: {}", answer.status());
        let arrived = wait_for(&receiver, n).await?;
        latencies.push((arrived - sent).as_secs_f64() * 1000.0);
    }
    let median = percentile(&mut latencies, 0.5);
    let p90 = percentile(&mut latencies, 0.9);
    let max = percentile(&mut latencies, 1.0);
    println!(
        "{name}: test event → receiver, {PINGS} one after another: median {median:.2} ms, p90 {p90:.2} ms, max {max:.2} ms"
    );

    // Stored times are whole seconds, as the index records them.
    let now = chrono::SubsecRound::trunc_subsecs(chrono::Utc::now(), 0);
    let started = Instant::now();
    for n in 0..BACKLOG {
        server
            .store
            .alert_insert(&AlertRow {
                id: 0,
                event_key: format!("bench:{n}"),
                chain: riskintel_api::ChainId::Eth,
                token: "0x6B175474E89094C44Da98b954EedeAC495271d0F".into(),
                kind: AlertKind::LabelChanged,
                severity: Severity::High,
                severity_rank: 3,
                title: format!("bench {n}"),
                detail: "d".into(),
                score_before: Some(10.0),
                label_before: Some(RiskLabel::Safe),
                score_after: Some(70.0),
                label_after: Some(RiskLabel::Risky),
                block: n as i64,
                observed_at: now,
            })
            .await?;
    }
    let queued = started.elapsed();
    // Wake the worker (nothing else does in this setup), then wait for all.
    let woken = Instant::now();
    http.post(format!("{base}/v1/webhooks/{id}/test"))
        .header("x-api-key", &key)
        .send()
        .await?;
    let all = PINGS + BACKLOG + 1;
    let done = wait_for(&receiver, all).await?;
    let took = done - woken;
    println!(
        "{name}: {BACKLOG} alerts queued in {:.0} ms (each in its own transaction); all delivered {:.0} ms after the wake ({:.0} per second)",
        queued.as_secs_f64() * 1000.0,
        took.as_secs_f64() * 1000.0,
        BACKLOG as f64 / took.as_secs_f64()
    );
    ensure!(receiver.received().len() == all, "extra deliveries");
    server.close().await?;
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("riskintel-webhook-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let sqlite = format!("sqlite://{}", dir.join("webhooks.db").display());
    measure("sqlite", &sqlite).await?;
    match TestDatabase::create(Backend::Postgres).await {
        Ok(database) => {
            let measured = measure("postgres", &database.url).await;
            database.drop_database().await?;
            measured?;
        }
        Err(error) => println!("postgres: not measured ({error})"),
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
