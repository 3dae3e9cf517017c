//! Run the test rig by hand: an anvil node with the whole scenario
//! deployed, and a configuration file for `riskintel serve` that serves it
//! as `eth`. Stops on Ctrl-C.
//!
//! `cargo xtask rig && cargo run -p riskintel-tests --bin rig -- rig.toml`

use riskintel_tests::rig;

fn main() -> anyhow::Result<()> {
    let out = std::env::args().nth(1).unwrap_or_else(|| "rig.toml".into());
    let anvil = rig::Anvil::start(31337)?;
    let chain = rig::deploy_scenario(&anvil.url, 31337, 0)?;
    let config = riskintel_tests::offline_lists(riskintel_server::config::Config {
        chains: rig::chains_config(&[("eth", &chain)]),
        ..riskintel_server::config::Config::default()
    });
    let mut table = toml::Table::new();
    table.insert("chains".into(), toml::Value::try_from(&config.chains)?);
    std::fs::write(&out, toml::to_string(&table)?)?;
    println!(
        "anvil on {} (chain id 31337); configuration for `riskintel serve --config {out}` written",
        anvil.url
    );
    for (name, address) in &chain.tokens {
        println!("{name:>10}  {}", address.to_checksum(None));
    }
    println!("Ctrl-C to stop.");
    tokio::runtime::Runtime::new()?.block_on(async {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate())?;
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
        anyhow::Ok(())
    })?;
    drop(anvil);
    Ok(())
}
