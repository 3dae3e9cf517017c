//! One refused request costs one check: a node that refuses a single kind
//! of sub-request (a method it lacks, parameters it does not take, a batch
//! too large for it) makes only the checks that needed it `unknown`, with
//! the node's own words, and the analysis still answers 200.

use anyhow::ensure;
use riskintel_client::types::{self, CheckStatus};
use riskintel_server::config::Config;
use riskintel_tests::refusing_node::{self, Refusal};
use riskintel_tests::{arg, ok, rig, Backend, TestServer};
use serde_json::{json, Value};

fn invalid_request() -> Value {
    json!({"code": -32600, "message": "Invalid request"})
}

/// Whether a call's block parameter (at `index`) is a number, not
/// `latest`: every round after the first reads at the first round's block.
fn at_block(item: &Value, index: usize) -> bool {
    item["params"][index]
        .as_str()
        .is_some_and(|tag| tag != "latest")
}

/// Each refusal, by what it refuses.
fn refusals() -> Vec<(&'static str, Refusal)> {
    let refused = |refuse: fn(&Value) -> bool| Refusal {
        refuse,
        error: invalid_request,
        max_batch: None,
    };
    vec![
        (
            "eth_getStorageAt",
            refused(|i| i["method"] == "eth_getStorageAt"),
        ),
        (
            "eth_getCode after the first round",
            refused(|i| i["method"] == "eth_getCode" && at_block(i, 1)),
        ),
        (
            "eth_call after the first round",
            refused(|i| i["method"] == "eth_call" && at_block(i, 1)),
        ),
        ("eth_getLogs", refused(|i| i["method"] == "eth_getLogs")),
        (
            "eth_getBlockByNumber by number",
            refused(|i| i["method"] == "eth_getBlockByNumber" && at_block(i, 0)),
        ),
        (
            "debug_traceCall",
            refused(|i| i["method"] == "debug_traceCall"),
        ),
        (
            "eth_simulateV1",
            refused(|i| i["method"] == "eth_simulateV1"),
        ),
        (
            "batches of more than four calls (HTTP 413)",
            Refusal {
                refuse: |_| false,
                error: invalid_request,
                max_batch: Some(4),
            },
        ),
    ]
}

conformance!(a_refused_request_costs_only_the_checks_that_needed_it);
pub async fn a_refused_request_costs_only_the_checks_that_needed_it(
    backend: Backend,
) -> anyhow::Result<()> {
    let rig = rig::shared()?;
    const TOKENS: [&str; 3] = ["plain", "proxy", "tax99"];
    // The labels with a node that refuses nothing.
    let server = TestServer::start_on_rig(backend).await?;
    let client = server.client(&server.owner_key());
    let mut baseline = std::collections::HashMap::new();
    for token in TOKENS {
        let analysis = ok(client
            .token_analyze(arg("eth"), &arg(&rig.a.token(token)), None)
            .await)?;
        baseline.insert(token, analysis.into_inner().label);
    }
    server.stop().await?;
    let mut failed = Vec::new();
    for (what, refusal) in refusals() {
        let mut served = rig.a.clone();
        let (url, refused) = refusing_node::start_counted(rig.a.url.clone(), refusal).await?;
        served.url = url;
        let config = Config {
            chains: rig::chains_config(&[("eth", &served)]),
            ..Config::default()
        };
        let server = TestServer::start_with(backend, config).await?;
        let client = server.client(&server.owner_key());
        for token in TOKENS {
            let before = refused.load(std::sync::atomic::Ordering::Relaxed);
            let analysis: types::TokenAnalysis = match ok(client
                .token_analyze(arg("eth"), &arg(&rig.a.token(token)), None)
                .await)
            {
                Ok(answer) => answer.into_inner(),
                Err(error) => {
                    failed.push(format!("{token}, the node refusing {what}: {error:#}"));
                    continue;
                }
            };
            let unknown: Vec<String> = analysis
                .coverage
                .checks
                .iter()
                .filter(|c| c.status == CheckStatus::Unknown)
                .map(|c| format!("{}: {}", c.id, c.reason.clone().unwrap_or_default()))
                .collect();
            let refused_now = refused.load(std::sync::atomic::Ordering::Relaxed) > before;
            // Refused calls cost checks, which say what the node said; or
            // cost nothing the verdict depends on (a default that counts
            // the unknown in full, as a role whose code is unread).
            let said = unknown.iter().any(|u| u.contains("-32600"));
            let unchanged = baseline.get(token) == Some(&analysis.label);
            if refusal.max_batch.is_none() && refused_now && !said && !unchanged {
                failed.push(format!(
                    "{token}, the node refusing {what}: the label moved from {:?} to {:?} and no check says what the node said: {unknown:#?}",
                    baseline.get(token), analysis.label
                ));
            }
            // A batch split until the node takes it costs nothing.
            if refusal.max_batch.is_some() && (!unknown.is_empty() || !unchanged) {
                failed.push(format!(
                    "{token}, the node refusing {what}: {:?} (was {:?}) with {unknown:#?}",
                    analysis.label,
                    baseline.get(token)
                ));
            }
            println!(
                "{token}, the node refusing {what} (refused: {refused_now}): {} checks unknown, label {:?}",
                unknown.len(),
                analysis.label
            );
        }
        server.stop().await?;
    }
    ensure!(failed.is_empty(), "{}", failed.join("\n"));
    Ok(())
}
