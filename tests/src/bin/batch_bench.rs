//! Batch benchmark (run by `cargo xtask bench`): 100 cached tokens asked as
//! one `POST /v1/tokens/analyze`, against the same 100 as single
//! `GET …/analyze` requests, one after another and 32 at a time. Wall time,
//! median of 5; numbers are printed, not asserted.

use std::time::Instant;

use anyhow::{ensure, Context as _};
use futures::StreamExt as _;
use riskintel_tests::bench;
use riskintel_tests::rig::{self, e18, Anvil, Arg, Node};

const TOKENS: usize = 100;

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("riskintel-batch-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let (anvil, chain, tokens) = tokio::task::spawn_blocking(|| -> anyhow::Result<_> {
        let anvil = Anvil::start(31900)?;
        let chain = rig::deploy_base(&anvil.url, 31900, 0)?;
        let node = Node::new(&chain.url);
        let tokens = (0..TOKENS)
            .map(|n| {
                let args = [
                    Arg::Str(format!("Batch {n}")),
                    Arg::Str(format!("B{n}")),
                    Arg::Uint(e18(1_000_000)),
                ];
                node.deploy(chain.deployer, "MintableToken", &args)
                    .map(|a| a.to_checksum(None))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok((anvil, chain, tokens))
    })
    .await??;
    let database_url = format!("sqlite://{}", dir.join("batch.db").display());
    let (server, key) = bench::start(bench::config(database_url, &chain), true).await?;
    let key = key.context("owner key")?;
    let base = format!("http://{}", server.local_addr);
    let http = reqwest::Client::new();
    let single = |token: String| {
        let (http, base, key) = (http.clone(), base.clone(), key.clone());
        async move {
            let answer = http
                .get(format!("{base}/v1/token/eth/{token}/analyze"))
                .header("x-api-key", &key)
                .send()
                .await?;
            ensure!(
                answer.status() == 200,
                "analyze answered {}",
                answer.status()
            );
            answer.bytes().await?;
            anyhow::Ok(())
        }
    };
    let body = serde_json::json!({
        "items": tokens.iter().map(|t| serde_json::json!({"chain": "eth", "address": t})).collect::<Vec<_>>()
    });
    let batch = || async {
        let answer = http
            .post(format!("{base}/v1/tokens/analyze"))
            .header("x-api-key", &key)
            .json(&body)
            .send()
            .await?;
        ensure!(answer.status() == 200, "batch answered {}", answer.status());
        let answer: serde_json::Value = answer.json().await?;
        ensure!(answer["analysed"] == TOKENS, "{}", answer["failed"]);
        anyhow::Ok(())
    };
    // Cold, once: every token analysed and cached.
    let started = Instant::now();
    batch().await?;
    let cold = started.elapsed().as_secs_f64() * 1000.0;

    let (mut batched, mut sequential, mut concurrent) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..5 {
        let started = Instant::now();
        batch().await?;
        batched.push(started.elapsed().as_secs_f64() * 1000.0);
        let started = Instant::now();
        for token in &tokens {
            single(token.clone()).await?;
        }
        sequential.push(started.elapsed().as_secs_f64() * 1000.0);
        let started = Instant::now();
        let answers: Vec<anyhow::Result<()>> =
            futures::stream::iter(tokens.iter().cloned().map(single))
                .buffer_unordered(32)
                .collect()
                .await;
        answers.into_iter().collect::<anyhow::Result<Vec<()>>>()?;
        concurrent.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    println!("batch of {TOKENS} tokens, cold (all analysed in one call): {cold:.1} ms wall");
    println!(
        "{TOKENS} cached tokens: one batch {:.2} ms; {TOKENS} single requests one after another {:.2} ms, 32 at a time {:.2} ms (median of 5, in-process client)",
        median(batched),
        median(sequential),
        median(concurrent)
    );
    server.close().await?;
    drop(anvil);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
