//! The real-token report (run by `cargo xtask wild`): tokens written and
//! labelled by others, compiled by `rig/wild_real.js` with their own
//! compilers, each launched as its creator would on an anvil with chain id
//! 1 and Uniswap V2 at its mainnet addresses (its constructor's arguments
//! made from their types and names, 40% of the creator's tokens and 10 WETH
//! in a pool, 1% to each of 30 holders), a fresh wallet's buy and sell
//! tried, then analysed cold through the server. Prints a line per token,
//! the tokens that could not be launched and why, per-label precision and
//! recall on the tokens launched, and every `honeypot` verdict on a token a
//! fresh wallet bought and sold.
//!
//! Which signal answers which of the study's labels (`LABELS`):
//! GenerateToken → `mint_capability`, DestroyToken → `burn_from_others`,
//! FreezeAccount → `blacklist_capability`, DisableTransfer →
//! `pause_capability`, ArbitraryTransfer → `seize_balance`.

mod control;
mod launch;

use std::collections::BTreeSet;
use std::path::PathBuf;

use alloy_primitives::Address;
use anyhow::{bail, Context as _};
use riskintel_tests::bench;
use riskintel_tests::corpus::{mainnet_chains_config, wild_ethereum};
use riskintel_tests::rig::{Anvil, Node};
use serde_json::Value;

/// The study's labels and the signal that answers each.
const LABELS: [(&str, &str); 5] = [
    ("mint", "mint_capability"),
    ("destroy", "burn_from_others"),
    ("freeze", "blacklist_capability"),
    ("disable", "pause_capability"),
    ("arbitrary", "seize_balance"),
];

pub(crate) struct Compiled {
    pub(crate) address: String,
    pub(crate) labels: BTreeSet<String>,
    pub(crate) contract: String,
    pub(crate) compiler: String,
    pub(crate) abi: Vec<Value>,
    pub(crate) bytecode: Vec<u8>,
}

pub(crate) struct Launched {
    pub(crate) token: Address,
    pub(crate) traded: bool,
    pub(crate) note: String,
}

struct Row {
    compiled: Compiled,
    launched: Launched,
    label: String,
    found: BTreeSet<String>,
    signals: Vec<String>,
    honeypot: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut artifacts: Option<PathBuf> = None;
    let mut verbose = false;
    let mut controls = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--artifacts" => artifacts = Some(args.next().context("--artifacts DIR")?.into()),
            "--verbose" => verbose = true,
            "--control" => controls = true,
            other => bail!("unknown argument {other}"),
        }
    }
    let dir = artifacts.context("--artifacts DIR (written by rig/wild_real.js)")?;
    if controls {
        return control_set(&dir).await;
    }
    let mut compiled = Vec::new();
    let mut failures: Vec<(String, String, String)> = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    for file in files {
        let record: Value = serde_json::from_str(&std::fs::read_to_string(&file)?)?;
        let address = record["address"].as_str().unwrap_or_default().to_string();
        let labels: BTreeSet<String> = (record["labels"].as_array().into_iter().flatten())
            .filter_map(|l| l.as_str().map(str::to_string))
            .collect();
        if let Some(error) = record["error"].as_str() {
            failures.push((address, join(&labels), format!("compile: {error}")));
            continue;
        }
        let bytecode = record["bytecode"].as_str().unwrap_or_default();
        compiled.push(Compiled {
            address,
            labels,
            contract: record["contract"].as_str().unwrap_or_default().into(),
            compiler: record["compiler"].as_str().unwrap_or_default().into(),
            abi: record["abi"].as_array().cloned().unwrap_or_default(),
            bytecode: hex::decode(bytecode.trim_start_matches("0x"))?,
        });
    }

    let (anvil, chain) = tokio::task::spawn_blocking(|| -> anyhow::Result<_> {
        let anvil = Anvil::start(1)?;
        let chain = wild_ethereum(&anvil.url)?;
        Ok((anvil, chain))
    })
    .await??;
    let state = std::env::temp_dir().join(format!("riskintel-wild-{}", std::process::id()));
    std::fs::create_dir_all(&state)?;
    let mut config = bench::config(
        format!("sqlite://{}", state.join("wild.db").display()),
        &chain,
    );
    config.chains = mainnet_chains_config(&[("eth", &chain, &anvil.url)]);
    let (server, key) = bench::start(config, true).await?;
    let key = key.context("owner key")?;
    let http = reqwest::Client::new();

    let mut rows = Vec::new();
    for (n, token) in compiled.into_iter().enumerate() {
        let chain2 = chain.clone();
        let (token, launched) = tokio::task::spawn_blocking(move || {
            let launched = launch::launch(&Node::new(&chain2.url), &chain2, n as u64 + 1, &token);
            (token, launched)
        })
        .await?;
        let launched = match launched {
            Ok(launched) => launched,
            Err(error) => {
                failures.push((
                    token.address.clone(),
                    join(&token.labels),
                    format!("{error:#}"),
                ));
                continue;
            }
        };
        let answer = match analyse(&http, &server.local_addr, &key, launched.token).await {
            Ok(answer) => answer,
            Err(e) => {
                failures.push((token.address.clone(), join(&token.labels), format!("{e:#}")));
                continue;
            }
        };
        if verbose {
            // The label checks that came back unknown, and why.
            for check in (answer["coverage"]["checks"]
                .as_array()
                .into_iter()
                .flatten())
            .filter(|c| c["status"] == "unknown")
            .filter(|c| LABELS.iter().any(|(_, id)| c["id"] == *id))
            {
                println!("  {} {}: {}", token.address, check["id"], check["reason"]);
            }
        }
        let signals: Vec<String> = (answer["signals"].as_array().into_iter().flatten())
            .filter_map(|s| s["id"].as_str().map(str::to_string))
            .collect();
        let found = (LABELS.iter())
            .filter(|(_, signal)| signals.iter().any(|s| s == signal))
            .map(|(label, _)| label.to_string())
            .collect();
        rows.push(Row {
            honeypot: signals.iter().any(|s| s == "honeypot"),
            label: answer["label"].as_str().unwrap_or_default().to_string(),
            compiled: token,
            launched,
            found,
            signals,
        });
    }
    server.close().await?;
    tokio::task::spawn_blocking(move || drop(anvil)).await?;
    report(&rows, &failures);
    Ok(())
}

/// The legitimate control set (`control.rs`): deployed and launched
/// first, so the service's allowlist can name the regulated issuers'
/// tokens where they sit here; then each analysed cold.
async fn control_set(dir: &std::path::Path) -> anyhow::Result<()> {
    let records = control::read(dir)?;
    let (anvil, chain, launched) = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
        let anvil = Anvil::start(1)?;
        let chain = wild_ethereum(&anvil.url)?;
        let node = Node::new(&anvil.url);
        let shared = control::shared(&node, &chain)?;
        let launched: Vec<_> = (records.into_iter().enumerate())
            .map(|(n, record)| control::launch_one(&node, &chain, &shared, n as u64, record))
            .collect();
        // These tokens are years old: the clock moves a year on.
        node.call("evm_increaseTime", serde_json::json!([366 * 86_400]))?;
        node.call("evm_mine", serde_json::json!([]))?;
        Ok((anvil, chain, launched))
    })
    .await??;
    let (mut rows, mut failures) = (Vec::new(), Vec::new());
    for result in launched {
        match result {
            Ok(row) => rows.push(row),
            Err(failure) => failures.push(failure),
        }
    }
    let state = std::env::temp_dir().join(format!("riskintel-control-{}", std::process::id()));
    std::fs::create_dir_all(&state)?;
    let mut config = bench::config(
        format!("sqlite://{}", state.join("control.db").display()),
        &chain,
    );
    config.chains = mainnet_chains_config(&[("eth", &chain, &anvil.url)]);
    // The rig's stablecoin stands in for the mainnet's configured ones under
    // a symbol none of the set has (its own, TUSD, is TrueUSD's).
    for chain in config.chains.values_mut() {
        for coin in &mut chain.stablecoins {
            coin.symbol = "RIGUSD".into();
        }
    }
    config.allowlist.extend(control::allowlist(&rows));
    let (server, key) = bench::start(config, true).await?;
    let key = key.context("owner key")?;
    let http = reqwest::Client::new();
    let mut answered = Vec::new();
    for row in rows {
        match analyse(&http, &server.local_addr, &key, row.token).await {
            Ok(answer) => answered.push((row, answer)),
            Err(e) => failures.push((row.name.clone(), format!("{e:#}"))),
        }
    }
    server.close().await?;
    tokio::task::spawn_blocking(move || drop(anvil)).await?;
    control::report(&answered, &failures);
    Ok(())
}

/// The service's cold analysis of `token` on `eth`.
async fn analyse(
    http: &reqwest::Client,
    at: &std::net::SocketAddr,
    key: &str,
    token: Address,
) -> anyhow::Result<Value> {
    let answer = http
        .get(format!("http://{at}/v1/token/eth/{token:#x}/analyze"))
        .header("x-api-key", key)
        .send()
        .await?;
    let status = answer.status();
    let answer: Value = answer.json().await?;
    if !status.is_success() {
        bail!("analysis answered {status}: {}", answer["error"]["message"]);
    }
    Ok(answer)
}

/// The reviews of the study's labels: (address, label, added or removed).
fn reviewed() -> Vec<(String, String, bool)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/wild/reviewed.tsv");
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut cells = l.split('\t');
            let (address, label, verdict) = (cells.next()?, cells.next()?, cells.next()?);
            Some((address.to_string(), label.to_string(), verdict == "add"))
        })
        .collect()
}

/// Per-label precision and recall against `truth`.
fn table(rows: &[Row], against: &str, truth: impl Fn(&Row) -> BTreeSet<String>) {
    println!(
        "\nper label, on the {} tokens launched and answered, against {against}:",
        rows.len()
    );
    println!("  label      tokens  TP  FP  FN  precision  recall");
    for (label, signal) in LABELS {
        let truth = |r: &Row| truth(r).contains(label);
        let got = |r: &Row| r.found.contains(label);
        let tp = rows.iter().filter(|r| truth(r) && got(r)).count();
        let fp = rows.iter().filter(|r| !truth(r) && got(r)).count();
        let fn_ = rows.iter().filter(|r| truth(r) && !got(r)).count();
        let ratio = |a: usize, b: usize| match b {
            0 => "-".to_string(),
            b => format!("{:.2}", a as f64 / b as f64),
        };
        println!(
            "  {label:<10} {:>6}  {tp:>2}  {fp:>2}  {fn_:>2}  {:>9}  {:>6}   ({signal})",
            tp + fn_,
            ratio(tp, tp + fp),
            ratio(tp, tp + fn_)
        );
    }
}

fn join(labels: &BTreeSet<String>) -> String {
    labels.iter().cloned().collect::<Vec<_>>().join(",")
}

fn report(rows: &[Row], failures: &[(String, String, String)]) {
    for row in rows {
        println!(
            "{} {:<24} solc {:<7} truth {:<16} found {:<16} {:<8} traded {} {}{}",
            row.compiled.address,
            row.compiled.contract,
            row.compiled.compiler,
            join(&row.compiled.labels),
            join(&row.found),
            row.label,
            row.launched.traded,
            row.signals.join(" "),
            if row.launched.note.is_empty() {
                String::new()
            } else {
                format!(" ({})", row.launched.note)
            }
        );
    }
    println!("\nnot launched or not answered: {}", failures.len());
    for (address, labels, why) in failures {
        println!(
            "  {address} [{labels}] {}",
            why.lines().next().unwrap_or_default()
        );
    }
    let reviewed = reviewed();
    table(rows, "the study's labels", |r: &Row| {
        r.compiled.labels.clone()
    });
    table(
        rows,
        "the study's labels as reviewed (tests/wild/reviewed.tsv)",
        |r: &Row| {
            let mut labels = r.compiled.labels.clone();
            for (address, label, add) in &reviewed {
                if *address == r.compiled.address {
                    match add {
                        true => labels.insert(label.clone()),
                        false => labels.remove(label),
                    };
                }
            }
            labels
        },
    );
    let wrong: Vec<&Row> = rows
        .iter()
        .filter(|r| r.launched.traded && r.honeypot)
        .collect();
    println!(
        "\nhoneypot verdicts on tokens a fresh wallet bought and sold: {}",
        wrong.len()
    );
    for row in wrong {
        println!("  {} {}", row.compiled.address, row.compiled.contract);
    }
}
