//! The detection report (run by `cargo xtask detection`): the adversarial
//! corpus on an anvil of its own, each token's truth proven with real
//! transactions, then analysed cold through a proxy adding `--latency-ms`
//! to every upstream request. Prints one line per token, the confusion
//! table (truth band × label), honeypot precision and recall, the tax
//! error, and per token the round trips and wall time. `--check` fails on
//! any wrong band, missing or unexpected signal, or honeypot miss.
//! `--only rig`, `--only wild` or `--only sol` reports one venue (see
//! `corpus::Venue`; `sol`: the Solana fixture's launches on its own node).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use riskintel_tests::corpus::{self, Truth, Venue, WildRig};
use riskintel_tests::latency::latency_proxy;
use riskintel_tests::solana_node::{self, Fixture};
use riskintel_tests::{bench, rig};
use serde_json::Value;

const BANDS: [&str; 4] = ["safe", "caution", "risky", "critical"];

struct Row {
    truth: Truth,
    label: String,
    score: f64,
    signals: Vec<String>,
    weights: Vec<String>,
    /// The honeypot signal's sentence, if any (shown with `--verbose`).
    honeypot: Option<String>,
    sell_tax: Option<f64>,
    round_trips: usize,
    requests: u64,
    wall_ms: f64,
}

impl Row {
    fn missing(&self) -> Vec<&str> {
        self.truth
            .present
            .iter()
            .copied()
            .filter(|id| !self.signals.iter().any(|s| s == id))
            .collect()
    }
    fn unexpected(&self) -> Vec<&str> {
        self.truth
            .absent
            .iter()
            .copied()
            .filter(|id| self.signals.iter().any(|s| s == id))
            .collect()
    }
    fn band_ok(&self) -> bool {
        self.truth.labels.contains(&self.label.as_str())
    }
    fn honeypot_truth(&self) -> bool {
        self.truth.present.contains(&"honeypot")
    }
    fn honeypot_got(&self) -> bool {
        self.signals.iter().any(|s| s == "honeypot")
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut latency_ms = 20u64;
    let mut check = false;
    let mut verbose = false;
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--latency-ms" => {
                latency_ms = args.next().context("--latency-ms needs a value")?.parse()?
            }
            "--check" => check = true,
            "--only" => only = Some(args.next().context("--only needs rig, wild or sol")?),
            "--verbose" => verbose = true,
            other => bail!("unknown argument {other}"),
        }
    }
    let (anvil, chain) = rig::own_scenario(31402).await?;
    let skip_rig = matches!(only.as_deref(), Some("wild" | "sol"));
    let (chain, wild) = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
        for truth in corpus::table()
            .iter()
            .filter(|t| t.venue == Venue::Rig && !skip_rig)
        {
            corpus::verify(&chain, truth)?;
        }
        let wild = WildRig::start()?;
        wild.prove()?;
        Ok((chain, wild))
    })
    .await??;
    println!(
        "corpus: {} tokens, every truth proven with real transactions on anvil; {} Solana launches from the fixture's canned history",
        corpus::table().len(),
        corpus::solana_table().len()
    );

    let dir = std::env::temp_dir().join(format!("riskintel-detection-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let latency = Duration::from_millis(latency_ms);
    let proxy = latency_proxy(anvil.url.clone(), latency).await?;
    let mut served = chain.clone();
    served.url = proxy.url.clone();
    let database_url = format!("sqlite://{}", dir.join("detection.db").display());
    let (server, key) = bench::start(bench::config(database_url, &served), true).await?;
    let key = key.context("owner key")?;
    // The wild tokens: a server of its own on the mainnet defaults for eth and bsc.
    let (wild_eth, wild_bsc) = (
        latency_proxy(wild.eth.url.clone(), latency).await?,
        latency_proxy(wild.bsc.url.clone(), latency).await?,
    );
    let mut config = bench::config(
        format!("sqlite://{}", dir.join("wild.db").display()),
        &served,
    );
    config.chains = wild.chains_config(&wild_eth.url, &wild_bsc.url);
    let (wild_server, wild_key) = bench::start(config, true).await?;
    let wild_key = wild_key.context("owner key")?;
    // The Solana launches: the fixture's node, a server of its own.
    let fixture = Fixture::load()?;
    let sol_proxy = latency_proxy(solana_node::start(fixture.clone()).await?, latency).await?;
    let mut config = bench::config(
        format!("sqlite://{}", dir.join("sol.db").display()),
        &served,
    );
    config.chains = [(
        "sol".to_string(),
        solana_node::chain_config(&fixture, &sol_proxy.url),
    )]
    .into_iter()
    .collect();
    let (sol_server, sol_key) = bench::start(config, true).await?;
    let sol_key = sol_key.context("owner key")?;
    let http = reqwest::Client::new();

    let mut rows = Vec::new();
    let wanted = |truth: &Truth| match only.as_deref() {
        Some("rig") => truth.venue == Venue::Rig,
        Some("wild") => matches!(truth.venue, Venue::Eth | Venue::Bsc),
        Some("sol") => truth.venue == Venue::Sol,
        _ => true,
    };
    let table = corpus::table().into_iter().chain(corpus::solana_table());
    for truth in table.filter(wanted) {
        let (base, key, proxy, address) = match truth.venue {
            Venue::Rig => (server.local_addr, &key, &proxy, chain.token(truth.name)),
            Venue::Sol => (
                sol_server.local_addr,
                &sol_key,
                &sol_proxy,
                fixture.named(truth.name),
            ),
            venue => (
                wild_server.local_addr,
                &wild_key,
                if venue == Venue::Bsc {
                    &wild_bsc
                } else {
                    &wild_eth
                },
                wild.chain(venue).token(truth.name),
            ),
        };
        proxy.reset();
        let started = Instant::now();
        let answer: Value = http
            .get(format!(
                "http://{base}/v1/token/{}/{address}/analyze",
                truth.venue.chain()
            ))
            .header("x-api-key", key)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        let wall_ms = started.elapsed().as_secs_f64() * 1000.0;
        rows.push(Row {
            label: answer["label"].as_str().unwrap_or_default().to_string(),
            score: answer["score"].as_f64().unwrap_or_default(),
            signals: answer["signals"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s["id"].as_str().map(str::to_string))
                .collect(),
            weights: answer["signals"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| format!("{}:{}", s["id"].as_str().unwrap_or_default(), s["weight"]))
                .collect(),
            honeypot: answer["signals"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|s| s["id"] == "honeypot")
                .and_then(|s| s["detail"].as_str().map(str::to_string)),
            sell_tax: answer["meta"]["sell_tax"].as_f64(),
            round_trips: proxy.round_trips(),
            requests: proxy.count(),
            wall_ms,
            truth,
        });
    }
    server.close().await?;
    wild_server.close().await?;
    sol_server.close().await?;
    drop(anvil);
    drop(wild);
    let _ = std::fs::remove_dir_all(&dir);

    println!(
        "\n{:<14} {:<16} {:<9} {:>5}  missing / unexpected",
        "token", "truth", "label", "score"
    );
    for r in &rows {
        println!(
            "{:<14} {:<16} {:<9} {:>5.1}  {:?} / {:?}{}",
            r.truth.name,
            r.truth.labels.join("|"),
            r.label,
            r.score,
            r.missing(),
            r.unexpected(),
            if r.band_ok() { "" } else { "  WRONG BAND" }
        );
        if verbose {
            println!("    {}", r.weights.join(" "));
            if let Some(detail) = &r.honeypot {
                println!("    honeypot: {detail}");
            }
        }
    }

    // Confusion: expected band × label. The expected band is the label when
    // the truth accepts it, else the accepted band nearest to it.
    let mut confusion: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for r in &rows {
        let got_index = BANDS.iter().position(|b| *b == r.label).unwrap_or(0);
        let truth = (0..4)
            .filter(|i| r.truth.labels.contains(&BANDS[*i]))
            .min_by_key(|i| i.abs_diff(got_index))
            .unwrap_or(0);
        let got = BANDS.iter().position(|b| *b == r.label).unwrap_or(0);
        *confusion.entry((truth, got)).or_default() += 1;
    }
    println!("\nconfusion (rows: expected band; columns: label)");
    println!(
        "{:<10} {:>8} {:>8} {:>8} {:>8}",
        "", BANDS[0], BANDS[1], BANDS[2], BANDS[3]
    );
    for (t, band) in BANDS.iter().enumerate() {
        let cells: Vec<String> = (0..4)
            .map(|g| format!("{:>8}", confusion.get(&(t, g)).copied().unwrap_or(0)))
            .collect();
        println!("{band:<10} {}", cells.join(" "));
    }

    let tp = rows
        .iter()
        .filter(|r| r.honeypot_truth() && r.honeypot_got())
        .count();
    let fp = rows
        .iter()
        .filter(|r| !r.honeypot_truth() && r.honeypot_got())
        .count();
    let fn_ = rows
        .iter()
        .filter(|r| r.honeypot_truth() && !r.honeypot_got())
        .count();
    let ratio = |a: usize, b: usize| {
        if a + b == 0 {
            1.0
        } else {
            a as f64 / (a + b) as f64
        }
    };
    println!(
        "\nhoneypot precision {:.2} ({tp}/{}) recall {:.2} ({tp}/{})",
        ratio(tp, fp),
        tp + fp,
        ratio(tp, fn_),
        tp + fn_
    );

    let mut tax_errors = Vec::new();
    for r in rows.iter().filter(|r| r.truth.sell_tax.is_some()) {
        let (truth, got) = (
            r.truth.sell_tax.unwrap_or_default(),
            r.sell_tax.unwrap_or(f64::NAN),
        );
        println!(
            "sell tax {:<12} true {:>5.1} %  measured {:>5.1} %",
            r.truth.name,
            truth * 100.0,
            got * 100.0
        );
        tax_errors.push(((got - truth) * 100.0).abs());
    }
    let worst = tax_errors.iter().copied().fold(0.0, f64::max);
    println!(
        "sell tax error: max {worst:.2} pp over {} tokens",
        tax_errors.len()
    );

    println!("\ncold analysis at +{latency_ms} ms per upstream request");
    for r in &rows {
        println!(
            "{:<14} {:>2} round trips  {:>3} requests  {:>7.1} ms",
            r.truth.name, r.round_trips, r.requests, r.wall_ms
        );
    }
    let worst_round_trips = rows.iter().map(|r| r.round_trips).max().unwrap_or(0);
    let mut walls: Vec<f64> = rows.iter().map(|r| r.wall_ms).collect();
    walls.sort_by(f64::total_cmp);
    println!(
        "round trips: at most {worst_round_trips}; wall: median {:.1} ms, max {:.1} ms",
        walls[walls.len() / 2],
        walls[walls.len() - 1]
    );

    if check {
        let wrong: Vec<&str> = rows
            .iter()
            .filter(|r| !r.band_ok() || !r.missing().is_empty() || !r.unexpected().is_empty())
            .map(|r| r.truth.name)
            .collect();
        if !wrong.is_empty() || fp + fn_ > 0 || worst > 1.0 || worst_round_trips > 4 {
            bail!("detection check failed: wrong {wrong:?}, honeypot errors {}, tax error {worst:.2} pp, round trips {worst_round_trips}", fp + fn_);
        }
        println!("detection check passed");
    }
    Ok(())
}
