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
//! With `--crp`, the CRPWarner study's real rug pulls of 2021–2023
//! (labelled Mint / Leak / Limit) instead: each launched on the chain whose
//! router its code names (PancakeSwap's on an anvil with chain id 56, else
//! Uniswap's on chain id 1) and scored by F1 per label and their mean.
//!
//! Which signals answer which of a study's labels: see [`study`].

mod control;
mod launch;
mod study;

use std::collections::BTreeSet;
use std::path::PathBuf;

use alloy_primitives::Address;
use anyhow::{bail, Context as _};
use riskintel_tests::bench;
use riskintel_tests::corpus::{mainnet_chains_config, wild_bnb_chain, wild_ethereum};
use riskintel_tests::rig::{Anvil, Node};
use serde_json::Value;

use study::join;

pub(crate) struct Compiled {
    pub(crate) address: String,
    pub(crate) labels: BTreeSet<String>,
    pub(crate) contract: String,
    pub(crate) compiler: String,
    pub(crate) abi: Vec<Value>,
    /// Creation code, each linked library's address left as zeros.
    pub(crate) bytecode: Vec<u8>,
    /// The libraries it links: each one's creation code, and the offsets
    /// in `bytecode` where its address goes.
    pub(crate) libraries: Vec<(Vec<u8>, Vec<usize>)>,
}

pub(crate) struct Launched {
    pub(crate) token: Address,
    /// The chain it was launched on (`eth` or `bsc`).
    pub(crate) chain: &'static str,
    pub(crate) traded: bool,
    pub(crate) note: String,
}

pub(crate) struct Row {
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
    let mut study = &study::PIED_PIPER;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--artifacts" => artifacts = Some(args.next().context("--artifacts DIR")?.into()),
            "--verbose" => verbose = true,
            "--control" => controls = true,
            "--crp" => study = &study::CRP,
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
        let (bytecode, libraries) = match code_of(&record) {
            Ok(code) => code,
            Err(error) => {
                failures.push((address, join(&labels), format!("code: {error:#}")));
                continue;
            }
        };
        compiled.push(Compiled {
            address,
            labels,
            contract: record["contract"].as_str().unwrap_or_default().into(),
            compiler: record["compiler"].as_str().unwrap_or_default().into(),
            abi: record["abi"].as_array().cloned().unwrap_or_default(),
            bytecode,
            libraries,
        });
    }

    // Ethereum's venue, and BNB Chain's where a token names its router.
    let on_bsc = compiled
        .iter()
        .any(|t| launch::names_bnb_chain(&t.bytecode));
    let (nodes, chains) = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
        let eth = Anvil::start(1)?;
        let mut chains = vec![("eth", wild_ethereum(&eth.url)?)];
        let mut nodes = vec![eth];
        if on_bsc {
            let bsc = Anvil::start(56)?;
            chains.push(("bsc", wild_bnb_chain(&bsc.url)?));
            nodes.push(bsc);
        }
        Ok((nodes, chains))
    })
    .await??;
    let state = std::env::temp_dir().join(format!("riskintel-wild-{}", std::process::id()));
    std::fs::create_dir_all(&state)?;
    let mut config = bench::config(
        format!("sqlite://{}", state.join("wild.db").display()),
        &chains[0].1,
    );
    let served: Vec<_> = (chains.iter())
        .map(|(id, chain)| (*id, chain, chain.url.as_str()))
        .collect();
    config.chains = mainnet_chains_config(&served);
    let (server, key) = bench::start(config, true).await?;
    let key = key.context("owner key")?;
    let http = reqwest::Client::new();

    let mut rows = Vec::new();
    for (n, token) in compiled.into_iter().enumerate() {
        let (_, chain) = match launch::names_bnb_chain(&token.bytecode) {
            true => chains[1].clone(),
            false => chains[0].clone(),
        };
        let (token, launched) = tokio::task::spawn_blocking(move || {
            let launched = launch::launch(&Node::new(&chain.url), &chain, n as u64 + 1, &token);
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
        let answer = match analyse(
            &http,
            &server.local_addr,
            &key,
            launched.chain,
            launched.token,
        )
        .await
        {
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
            .filter(|c| study.signals().any(|id| c["id"] == id))
            {
                println!("  {} {}: {}", token.address, check["id"], check["reason"]);
            }
            // And what each label signal found.
            for signal in (answer["signals"].as_array().into_iter().flatten())
                .filter(|s| study.signals().any(|id| s["id"] == id))
            {
                let id = &signal["id"];
                println!(
                    "  {} {id} {}: {}",
                    token.address, signal["severity"], signal["detail"]
                );
            }
        }
        let signals: Vec<String> = (answer["signals"].as_array().into_iter().flatten())
            .filter_map(|s| s["id"].as_str().map(str::to_string))
            .collect();
        let found = study.found(&signals);
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
    tokio::task::spawn_blocking(move || drop(nodes)).await?;
    study::report(study, &rows, &failures);
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
        match analyse(&http, &server.local_addr, &key, "eth", row.token).await {
            Ok(answer) => answered.push((row, answer)),
            Err(e) => failures.push((row.name.clone(), format!("{e:#}"))),
        }
    }
    server.close().await?;
    tokio::task::spawn_blocking(move || drop(anvil)).await?;
    control::report(&answered, &failures);
    Ok(())
}

/// A compiled record's creation code (each library placeholder zeroed)
/// and the libraries it links.
fn code_of(record: &Value) -> anyhow::Result<(Vec<u8>, Vec<(Vec<u8>, Vec<usize>)>)> {
    let unlinked = |hex: &str| -> anyhow::Result<Vec<u8>> {
        // A placeholder is `__$` 34 hex digits `$__`: 20 bytes of zeros.
        let mut code = String::with_capacity(hex.len());
        let mut rest = hex.trim_start_matches("0x");
        while let Some(at) = rest.find("__") {
            code.push_str(&rest[..at]);
            code.push_str(&"0".repeat(40));
            rest = rest.get(at + 40..).context("a cut library placeholder")?;
        }
        code.push_str(rest);
        Ok(hex::decode(code)?)
    };
    let bytecode = unlinked(record["bytecode"].as_str().unwrap_or_default())?;
    let mut libraries = Vec::new();
    for library in record["libraries"].as_array().into_iter().flatten() {
        let code = unlinked(library["bytecode"].as_str().unwrap_or_default())?;
        if code.is_empty() {
            bail!("library {} has no code in the source", library["name"]);
        }
        let offsets = (library["offsets"].as_array().into_iter().flatten())
            .filter_map(|o| o.as_u64().map(|o| o as usize))
            .collect();
        libraries.push((code, offsets));
    }
    Ok((bytecode, libraries))
}

/// The service's cold analysis of `token` on `chain`.
async fn analyse(
    http: &reqwest::Client,
    at: &std::net::SocketAddr,
    key: &str,
    chain: &str,
    token: Address,
) -> anyhow::Result<Value> {
    let answer = http
        .get(format!("http://{at}/v1/token/{chain}/{token:#x}/analyze"))
        .header("x-api-key", key)
        .send()
        .await?;
    let status = answer.status();
    let answer: Value = answer.json().await?;
    if !status.is_success() {
        bail!("analysis answered {status}: {}", answer["error"]["message"]);
    }
    // RISKINTEL_WILD_DUMP=DIR keeps each answer whole, to read by hand.
    if let Some(dir) = std::env::var_os("RISKINTEL_WILD_DUMP") {
        let path = std::path::Path::new(&dir).join(format!("{chain}-{token:#x}.json"));
        std::fs::create_dir_all(&dir)?;
        std::fs::write(path, serde_json::to_vec_pretty(&answer)?)?;
    }
    Ok(answer)
}
