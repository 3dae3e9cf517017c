//! riskintel from Rust: the `riskintel-client` crate (progenitor, from the
//! served document).
//!
//! ```sh
//! RISKINTEL_URL=http://127.0.0.1:8080 RISKINTEL_KEY=ri_live_... \
//!     cargo run --example quickstart -- eth 0x...
//! ```

use riskintel_client::Client;

/// Health, then one token's analysis and its signals, as lines of text.
pub async fn quickstart(
    base_url: &str,
    key: &str,
    chain: &str,
    token: &str,
) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let client = Client::with_api_key(base_url, key)?;
    let mut said = Vec::new();
    let health = client.health_get().await?.into_inner();
    said.push(format!(
        "service {} (version {})",
        health.status, health.version
    ));
    let analysis = client
        .token_analyze(chain.parse()?, &token.parse()?, None)
        .await?
        .into_inner();
    said.push(format!(
        "{}: {} ({:.0}/100)",
        analysis.meta.symbol, analysis.label, analysis.score
    ));
    for signal in &analysis.signals {
        said.push(format!(
            "  {} {}: {}",
            signal.severity, signal.id, signal.detail
        ));
    }
    Ok(said)
}

#[allow(dead_code)] // the suite calls `quickstart` itself
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [chain, token] = args.as_slice() else {
        return Err("usage: quickstart CHAIN TOKEN".into());
    };
    let url = std::env::var("RISKINTEL_URL")?;
    let key = std::env::var("RISKINTEL_KEY")?;
    for line in quickstart(&url, &key, chain, token).await? {
        println!("{line}");
    }
    Ok(())
}
