//! Address screening benchmark (run by `cargo xtask bench`): a list of
//! 20,000 addresses (the SDN XML's form, 10,000 entries of two) loaded and
//! swapped in while batches are being answered, and batches of 1,000
//! addresses (a few listed, the rest not, on mixed chains) screened from
//! memory: wall time p50/p99 of each, and of the batches during the swap.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use riskintel_server::clock::SystemClock;
use riskintel_server::config::Config;
use riskintel_server::screening::{load_source, ScreeningSource};
use riskintel_tests::bench::{self, percentile};
use riskintel_tests::rig::random_address;
use serde_json::{json, Value};

const BATCH: usize = 1_000;
const RUNS: usize = 100;

fn summary(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    format!(
        "p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} runs)",
        percentile(&ms, 0.5),
        percentile(&ms, 0.99),
        ms[ms.len() - 1],
        ms.len()
    )
}

/// The SDN XML with `entries` entries of two ETH addresses each.
fn sdn_xml(addresses: &[String]) -> String {
    let mut xml = format!(
        "<?xml version=\"1.0\" standalone=\"yes\"?>\n<sdnList xmlns=\"https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML\">\n\
         <publshInformation><Publish_Date>11/28/2026</Publish_Date><Record_Count>{}</Record_Count></publshInformation>\n",
        addresses.len() / 2
    );
    for (n, pair) in addresses.chunks(2).enumerate() {
        xml.push_str(&format!(
            "<sdnEntry><uid>{}</uid><lastName>ENTITY {n}</lastName><sdnType>Entity</sdnType><idList>",
            40_000 + n
        ));
        for (i, a) in pair.iter().enumerate() {
            xml.push_str(&format!(
                "<id><uid>{}</uid><idType>Digital Currency Address - ETH</idType><idNumber>{a}</idNumber></id>",
                n * 2 + i
            ));
        }
        xml.push_str("</idList></sdnEntry>\n");
    }
    xml.push_str("</sdnList>\n");
    xml
}

/// Keys of accounts enough that no batch meets a rate limit (each counts
/// its 1,000 items in its account's minute).
struct Keys(Vec<String>, std::sync::atomic::AtomicUsize);

impl Keys {
    fn next(&self) -> &str {
        &self.0[self.1.fetch_add(1, Ordering::Relaxed) % self.0.len()]
    }
}

async fn batch(
    http: &reqwest::Client,
    url: &str,
    keys: &Keys,
    body: &Value,
) -> anyhow::Result<(f64, Value)> {
    let key = keys.next();
    let started = Instant::now();
    let response = http
        .post(url)
        .header("x-api-key", key)
        .json(body)
        .send()
        .await?;
    anyhow::ensure!(
        response.status() == 200,
        "batch answered {}",
        response.status()
    );
    let answer: Value = response.json().await?;
    Ok((started.elapsed().as_secs_f64() * 1e3, answer))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir =
        std::env::temp_dir().join(format!("riskintel-screening-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut config = Config {
        listen: "127.0.0.1:0".into(),
        metrics_listen: String::new(),
        database_url: format!("sqlite://{}", dir.join("screening.db").display()),
        log_level: "warn".into(),
        chains: Default::default(),
        ..Config::default()
    };
    config.market.enabled = false;
    config.screening.sync_ms = 50;
    let (server, _) = bench::start(config, false).await?;
    let clock: Arc<dyn riskintel_server::clock::Clock> = Arc::new(SystemClock);
    let mut keys = Vec::new();
    for n in 0..80 {
        let made = riskintel_server::accounts::create_account(
            &server.store,
            &clock,
            &format!("bench {n}"),
            riskintel_api::Plan::ProPlus,
        )
        .await?;
        keys.push(made.key.key);
    }
    let keys = Arc::new(Keys(keys, Default::default()));
    let base = format!("http://{}", server.local_addr);
    let url = format!("{base}/v1/addresses/screen");
    let http = reqwest::Client::new();

    let listed: Vec<String> = (0..20_000)
        .map(|_| random_address().to_checksum(None))
        .collect();
    let chains = ["eth", "bsc", "base", "arb", "poly"];
    let items: Vec<Value> = (0..BATCH)
        .map(|i| {
            let address = if i % 100 == 0 {
                listed[i].to_ascii_lowercase()
            } else {
                random_address().to_checksum(None)
            };
            json!({"chain": chains[i % chains.len()], "address": address})
        })
        .collect();
    let body = json!({ "items": items });

    // The swap: batches answered back to back while the list is parsed,
    // stored and swapped in; when the first batch finds the listed ones.
    let file = dir.join("SDN.XML");
    std::fs::write(&file, sdn_xml(&listed))?;
    let loading = Arc::new(AtomicBool::new(true));
    let during = {
        let (http, url, keys, body, loading) = (
            http.clone(),
            url.clone(),
            keys.clone(),
            body.clone(),
            loading.clone(),
        );
        tokio::spawn(async move {
            let mut times = Vec::new();
            let mut seen_at = None;
            let started = Instant::now();
            while loading.load(Ordering::SeqCst) || seen_at.is_none() {
                let (ms, answer) = batch(&http, &url, &keys, &body).await?;
                times.push(ms);
                if seen_at.is_none() && answer["sanctioned"].as_u64() == Some(10) {
                    seen_at = Some(started.elapsed());
                }
                anyhow::ensure!(
                    started.elapsed() < Duration::from_secs(120),
                    "the list never showed"
                );
            }
            anyhow::Ok((times, seen_at))
        })
    };
    let started = Instant::now();
    let source = ScreeningSource {
        list: "ofac_sdn".into(),
        location: file.display().to_string(),
        format: None,
        comments: None,
    };
    let loaded = load_source(&*server.store, &SystemClock, &source, false).await?;
    let load_ms = started.elapsed().as_secs_f64() * 1e3;
    loading.store(false, Ordering::SeqCst);
    let (during, seen_at) = during.await??;
    println!("screening: {loaded:?}");
    println!(
        "screening: 20,000 addresses parsed and stored in {load_ms:.0} ms; answered sanctioned {:.0} ms after the load began",
        seen_at.map_or(f64::NAN, |d| d.as_secs_f64() * 1e3)
    );
    println!(
        "screening: batches of {BATCH} during the load and swap: {}",
        summary(during)
    );

    let mut times = Vec::new();
    for _ in 0..RUNS {
        let (ms, answer) = batch(&http, &url, &keys, &body).await?;
        anyhow::ensure!(
            answer["sanctioned"] == 10 && answer["screened"] == BATCH,
            "{}",
            answer["screened"]
        );
        times.push(ms);
    }
    println!(
        "screening: batches of {BATCH} from memory (20,000 listed): {}",
        summary(times)
    );
    server.close().await?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
