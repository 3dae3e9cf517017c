//! The creator who sold is judged by the blocks' own clocks (issue 46): a
//! creator that sells most of what it kept within hours of its launch is
//! found on a chain where other launches follow and whose clock then jumps
//! by days, which makes the chain's average pace since the opening say
//! that a day was only a few blocks long.

use anyhow::{ensure, Context as _};
use riskintel_client::types;
use riskintel_server::config::Config;
use riskintel_tests::corpus::{launch_named, mainnet_chains_config, wild_ethereum};
use riskintel_tests::rig::{Anvil, Node};
use riskintel_tests::{arg, ok, Backend, TestServer};
use serde_json::json;

conformance!(a_creator_that_sold_within_hours_is_found_after_the_clock_jumps);
pub async fn a_creator_that_sold_within_hours_is_found_after_the_clock_jumps(
    backend: Backend,
) -> anyhow::Result<()> {
    let (anvil, chain) = tokio::task::spawn_blocking(|| {
        let anvil = Anvil::start(1)?;
        let mut chain = wild_ethereum(&anvil.url)?;
        let node = Node::new(&anvil.url);
        // The creator keeps 30% and sells 80% of it in the launch's hour;
        // two more launches follow, then five days pass at once.
        for name in ["creatorsold", "snipers", "bundled"] {
            launch_named(&node, &mut chain, name)?;
        }
        node.call("evm_increaseTime", json!([5 * 86_400]))?;
        node.call("evm_mine", json!([]))?;
        anyhow::Ok((anvil, chain))
    })
    .await??;
    let mut config = Config {
        chains: mainnet_chains_config(&[("eth", &chain, &anvil.url)]),
        ..Config::default()
    };
    config.market.enabled = false;
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    let analysis = ok(client
        .token_analyze(arg("eth"), &arg(&chain.token("creatorsold")), None)
        .await)?
    .into_inner();
    let sold = (analysis.signals.iter())
        .find(|s| s.id == types::CheckId::CreatorSold)
        .with_context(|| format!("no creator_sold in {:?}", analysis.coverage))?;
    let raw = &sold.evidence.raw;
    ensure!(
        raw["share_first_day"]
            .as_f64()
            .is_some_and(|s| (0.79..0.81).contains(&s))
            && raw["day_ends_at"].is_i64(),
        "{raw}"
    );
    server.stop().await?;
    drop(anvil);
    Ok(())
}
