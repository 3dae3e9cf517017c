//! A quiet server for the benchmark binaries (`token-bench`,
//! `hot-path-bench`, `detection`): the system clock, warnings only, the
//! market index off.

use std::sync::Arc;

use riskintel_server::clock::SystemClock;
use riskintel_server::config::Config;
use riskintel_server::logging::{self, LogSink};

use crate::rig::{self, RigChain};

/// The `p` quantile (0..=1) of `sorted` samples, by nearest rank.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// A configuration serving `chain` as `eth` from `database_url`.
pub fn config(database_url: String, chain: &RigChain) -> Config {
    let mut config = Config {
        listen: "127.0.0.1:0".into(),
        metrics_listen: "127.0.0.1:0".into(),
        database_url,
        log_level: "warn".into(),
        chains: rig::chains_config(&[("eth", chain)]),
        ..Config::default()
    };
    config.market.enabled = false;
    config
}

/// Start a server on `config`; it, and the owner's key when `bootstrap`.
pub async fn start(
    config: Config,
    bootstrap: bool,
) -> anyhow::Result<(riskintel_server::RunningServer, Option<String>)> {
    let server = riskintel_server::start(riskintel_server::ServerOptions {
        config: crate::offline_lists(config),
        clock: Arc::new(SystemClock),
        log: logging::logger("warn", LogSink::Stderr),
        bootstrap,
    })
    .await?;
    let key = server.bootstrapped.as_ref().map(|b| b.key.key.clone());
    Ok((server, key))
}

/// Milliseconds from `since` until the feed at `base` carries a `new_token`
/// alert for `address` (at most a minute).
pub async fn new_token_lag(
    http: &reqwest::Client,
    base: &str,
    key: &str,
    address: &str,
    since: std::time::Instant,
) -> anyhow::Result<f64> {
    loop {
        let body: serde_json::Value = http
            .get(format!(
                "{base}/v1/feed/risk-alerts?kind=new_token&limit=100"
            ))
            .header("x-api-key", key)
            .send()
            .await?
            .json()
            .await?;
        if (body["items"].as_array().into_iter().flatten()).any(|a| a["address"] == address) {
            return Ok(since.elapsed().as_secs_f64() * 1000.0);
        }
        anyhow::ensure!(
            since.elapsed() < std::time::Duration::from_secs(60),
            "no alert for {address}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}
