//! Tokens compiled by solc 0.4, whose `throw`, `assert` and throwing
//! fallback end in INVALID: a call that burns all the gas it is given is one
//! failed call of a batch, never the whole batch, and such tokens are
//! answered, never 502 (issue 51).

use std::time::Duration;

use alloy_primitives::{Address, U256};
use anyhow::ensure;
use riskintel_server::chains::circuit::Circuit;
use riskintel_server::chains::evm::abi::{IAccessControl, IControl, IERC20};
use riskintel_server::chains::evm::multicall::Multicall;
use riskintel_server::chains::evm::types::BlockTag;
use riskintel_server::chains::rpc::{Batch, RpcClient, RpcError, RpcSettings};
use riskintel_server::chains::Chain;
use riskintel_tests::corpus::WildRig;
use riskintel_tests::rig::{holder, MULTICALL3};
use riskintel_tests::Backend;
use serde_json::json;

fn client(url: &str) -> RpcClient {
    let settings = RpcSettings {
        timeout: Duration::from_secs(10),
        retries: 0,
        backoff: Duration::from_millis(100),
        concurrency: 4,
    };
    let log = slog::Logger::root(slog::Discard, slog::o!());
    RpcClient::new(
        reqwest::Client::new(),
        url,
        settings,
        Circuit::new(Chain::Bsc, url, log),
    )
}

conformance!(a_call_that_burns_its_gas_fails_alone);
/// Twelve calls to a solc 0.4 token with a throwing fallback, five of them
/// to functions it lacks: seven answers and five failures, on anvil with
/// its default gas. Multicall3 itself runs out of gas on the same batch.
pub async fn a_call_that_burns_its_gas_fails_alone(_backend: Backend) -> anyhow::Result<()> {
    let wild = tokio::task::spawn_blocking(WildRig::shared).await??;
    let chain = &wild.bsc;
    let token: Address = chain.token("throwfixed").parse()?;
    let rpc = client(&chain.url);
    let multicall: Address = MULTICALL3.parse()?;
    let mut calls = Multicall::new();
    let name = calls.add(token, IERC20::nameCall {});
    let symbol = calls.add(token, IERC20::symbolCall {});
    let owner = calls.add(token, IERC20::ownerCall {});
    let decimals = calls.add(token, IERC20::decimalsCall {});
    let get_owner = calls.add(token, IERC20::getOwnerCall {});
    let supply = calls.add(token, IERC20::totalSupplyCall {});
    let role = calls.add(
        token,
        IAccessControl::getRoleMemberCall {
            role: Default::default(),
            index: U256::ZERO,
        },
    );
    let deployer = calls.add(
        token,
        IERC20::balanceOfCall {
            holder: chain.deployer,
        },
    );
    let threshold = calls.add(token, IControl::getThresholdCall {});
    let stranger = calls.add(token, IERC20::balanceOfCall { holder: holder(1) });
    let delay = calls.add(token, IControl::getMinDelayCall {});
    let allowance = calls.add(
        token,
        IERC20::allowanceCall {
            holder: chain.deployer,
            spender: holder(2),
        },
    );
    // Sent as the service sends them: run by the gas-bounded multicall.
    let mut batch = Batch::new();
    let pending = calls.into_batch(&mut batch, multicall, &BlockTag::Latest);
    let mut answers = rpc.send(batch).await?;
    let results = pending.take(&mut answers)?;
    ensure!(results.get(name).is_some() && results.get(symbol).is_some());
    ensure!(results.get(decimals) == Some(18));
    ensure!(results.get(supply).is_some_and(|s| s > U256::ZERO));
    ensure!(results.get(deployer).is_some());
    ensure!(results.get(stranger) == Some(U256::ZERO));
    ensure!(results.get(allowance) == Some(U256::ZERO));
    ensure!(results.get(owner).is_none() && results.get(get_owner).is_none());
    ensure!(results.get(role).is_none());
    ensure!(results.get(threshold).is_none() && results.get(delay).is_none());

    // Multicall3 itself, asked the same: the batch fails whole.
    let mut again = Multicall::new();
    for _ in 0..3 {
        let _ = again.add(token, IERC20::ownerCall {});
    }
    let _ = again.add(token, IERC20::totalSupplyCall {});
    let mut batch = Batch::new();
    let plain = json!({"to": multicall, "data": again.calldata()});
    let slot = batch.call::<serde_json::Value>("eth_call", json!([plain, "latest"]));
    let refused = rpc.send(batch).await?.take(slot);
    ensure!(
        matches!(&refused, Err(RpcError::Upstream(why)) if why.to_lowercase().contains("gas")),
        "Multicall3 was expected to run out of gas: {refused:?}"
    );
    Ok(())
}
