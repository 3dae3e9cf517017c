//! Before signing: transactions simulated and signature requests decoded on
//! the anvil rig, through the generated client.

use alloy_primitives::{Address, U256};
use anyhow::{ensure, Context as _};
use riskintel_client::types::{
    self, AccountKind, ApprovalKind, AssetKind, Direction, ErrorCode, PresignVerdict, RiskKind,
    RiskLabel, SimulationStatus,
};
use riskintel_server::config::Config;
use riskintel_tests::rig::{self, calldata, e18, random_address, Arg, Node, RigChain};
use riskintel_tests::{err, ok, Backend, TestServer};
use serde_json::json;

fn hex(data: Vec<u8>) -> String {
    format!("0x{}", hex::encode(data))
}

pub(crate) fn call(
    from: Address,
    to: Address,
    data: Vec<u8>,
    value: Option<U256>,
) -> types::TxSimulationRequest {
    types::TxSimulationRequest {
        chain: "eth".into(),
        from: Some(from.to_checksum(None)),
        to: Some(to.to_checksum(None)),
        value: value.map(|v| v.to_string()),
        data: Some(hex(data)),
        gas: None,
        block: None,
        calls: None,
        transaction: None,
        signer: None,
    }
}

pub(crate) fn kinds(risks: &[types::Risk]) -> Vec<RiskKind> {
    risks.iter().map(|r| r.kind).collect()
}

fn buy(
    chain: &RigChain,
    wallet: Address,
    token: &str,
    fee_path: bool,
) -> types::TxSimulationRequest {
    let signature = if fee_path {
        "swapExactETHForTokensSupportingFeeOnTransferTokens(uint256,address[],address,uint256)"
    } else {
        "swapExactETHForTokens(uint256,address[],address,uint256)"
    };
    let data = calldata(
        signature,
        &[
            Arg::Uint(U256::ZERO),
            Arg::Addrs(vec![chain.weth, chain.tokens[token]]),
            Arg::Addr(wallet),
            Arg::Uint(U256::from(u64::MAX)),
        ],
    );
    call(wallet, chain.router, data, Some(e18(1)))
}

conformance!(transactions_are_simulated_and_judged_before_signing);
pub async fn transactions_are_simulated_and_judged_before_signing(
    backend: Backend,
) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let a = rig.a.clone();
    let wallet = random_address();
    let setup = a.clone();
    let fresh = tokio::task::spawn_blocking(move || -> anyhow::Result<Address> {
        let node = Node::new(&setup.url);
        node.call(
            "anvil_setBalance",
            json!([wallet, format!("{:#x}", e18(10))]),
        )?;
        let source = rig::holder(1_000);
        node.impersonate(source)?;
        node.exec(
            source,
            setup.tokens["plain"],
            "transfer(address,uint256)",
            &[Arg::Addr(wallet), Arg::Uint(e18(500))],
        )?;
        node.deploy(setup.deployer, "NotAToken", &[])
    })
    .await??;
    let client = server.client(&server.owner_key());
    let simulate = |request: types::TxSimulationRequest| {
        let client = &client;
        async move { anyhow::Ok(ok(client.tx_simulate(&request).await)?.into_inner()) }
    };

    // A swap through the router: ETH out, the token in, its verdict attached.
    let swap = simulate(buy(&a, wallet, "plain", false)).await?;
    ensure!(
        swap.status == SimulationStatus::Success && swap.verdict == PresignVerdict::Benign,
        "{swap:?}"
    );
    let paid = swap
        .asset_changes
        .iter()
        .find(|c| c.asset == AssetKind::Native)
        .context("ETH paid")?;
    ensure!(
        paid.direction == Direction::Out
            && paid.amount.is_some_and(|v| (v - 1.0).abs() < 1e-9)
            && paid.symbol.as_deref() == Some("ETH"),
        "{paid:?}"
    );
    let got = swap
        .asset_changes
        .iter()
        .find(|c| c.token.as_deref() == Some(&*a.token("plain")))
        .context("PLAIN in")?;
    ensure!(
        got.direction == Direction::In
            && got.symbol.as_deref() == Some("PLAIN")
            && got.amount.is_some_and(|v| v > 0.0),
        "{got:?}"
    );
    ensure!(
        got.token_verdict
            .as_ref()
            .is_some_and(|v| v.label == RiskLabel::Safe)
            && got.fee_raw.is_none(),
        "{got:?}"
    );
    ensure!(
        swap.contracts_called
            .iter()
            .any(|c| c.address == a.router.to_checksum(None) && c.name.is_some()),
        "{:?}",
        swap.contracts_called
    );

    // A read through Multicall3: the token read emits nothing, the trace finds it.
    let inner = calldata("balanceOf(address)", &[Arg::Addr(wallet)]);
    let read = types::EvmCall {
        from: None,
        to: a.token("plain"),
        value: None,
        data: Some(hex(inner)),
        gas: None,
    };
    let multicall = calldata_aggregate3(&read)?;
    let multicall_address: Address = "0xcA11bde05977b3631167028862bE2a173976CA11".parse()?;
    let looked = simulate(call(wallet, multicall_address, multicall, None)).await?;
    ensure!(
        looked.verdict == PresignVerdict::Benign
            && looked
                .contracts_called
                .iter()
                .any(|c| c.address == a.token("plain")),
        "{:?}",
        looked.contracts_called
    );

    // A fee-on-transfer token: what it takes on the way is shown.
    let taxed = simulate(buy(&a, wallet, "fee3", true)).await?;
    let fee3 = taxed
        .asset_changes
        .iter()
        .find(|c| c.token.as_deref() == Some(&*a.token("fee3")))
        .context("FEE3 in")?;
    ensure!(
        fee3.fee_share.is_some_and(|s| (s - 0.03).abs() < 0.001),
        "{fee3:?}"
    );

    // A honeypot bought: a warning, with the token's critical verdict.
    let honeypot = simulate(buy(&a, wallet, "sellrevert", false)).await?;
    ensure!(
        honeypot.verdict == PresignVerdict::Warning
            && kinds(&honeypot.risks).contains(&RiskKind::ReceivesRiskyToken),
        "{honeypot:?}"
    );
    let trap = honeypot
        .asset_changes
        .iter()
        .find(|c| c.token.as_deref() == Some(&*a.token("sellrevert")))
        .context("the honeypot in")?;
    ensure!(
        trap.token_verdict
            .as_ref()
            .is_some_and(|v| v.label == RiskLabel::Critical),
        "{trap:?}"
    );

    // approve(max) to an EOA, and to an address that never did anything.
    let approve = |spender: Address| {
        calldata(
            "approve(address,uint256)",
            &[Arg::Addr(spender), Arg::Uint(U256::MAX)],
        )
    };
    let to_eoa = simulate(call(wallet, a.tokens["plain"], approve(a.deployer), None)).await?;
    ensure!(
        to_eoa.verdict == PresignVerdict::Malicious && to_eoa.risks[0].kind == RiskKind::GrantToEoa,
        "{to_eoa:?}"
    );
    let grant = &to_eoa.approvals[0];
    ensure!(
        grant.kind == ApprovalKind::Approve
            && grant.unlimited
            && grant.spender_kind == AccountKind::Eoa
            && grant.symbol.as_deref() == Some("PLAIN"),
        "{grant:?}"
    );
    let to_nobody = simulate(call(
        wallet,
        a.tokens["plain"],
        approve(random_address()),
        None,
    ))
    .await?;
    ensure!(
        to_nobody.verdict == PresignVerdict::Malicious
            && to_nobody.risks[0].kind == RiskKind::GrantToNoCode,
        "{to_nobody:?}"
    );

    // setApprovalForAll to a contract deployed a moment ago.
    let all = calldata(
        "setApprovalForAll(address,bool)",
        &[Arg::Addr(fresh), Arg::Bool(true)],
    );
    let nft = simulate(call(wallet, a.v3.position_manager, all, None)).await?;
    ensure!(
        nft.verdict == PresignVerdict::Warning
            && kinds(&nft.risks).contains(&RiskKind::GrantToNewContract),
        "{nft:?}"
    );
    ensure!(nft.approvals[0].kind == ApprovalKind::SetApprovalForAll && nft.approvals[0].unlimited);

    // A bundle: approve the router, then sell through it.
    let amount = e18(100);
    let sell = calldata(
        "swapExactTokensForETH(uint256,uint256,address[],address,uint256)",
        &[
            Arg::Uint(amount),
            Arg::Uint(U256::ZERO),
            Arg::Addrs(vec![a.tokens["plain"], a.weth]),
            Arg::Addr(wallet),
            Arg::Uint(U256::from(u64::MAX)),
        ],
    );
    let approve_router = calldata(
        "approve(address,uint256)",
        &[Arg::Addr(a.router), Arg::Uint(amount)],
    );
    let step = |to: Address, data: Vec<u8>| types::EvmCall {
        from: None,
        to: to.to_checksum(None),
        value: None,
        data: Some(hex(data)),
        gas: None,
    };
    let bundle = types::TxSimulationRequest {
        to: None,
        data: None,
        calls: Some(vec![
            step(a.tokens["plain"], approve_router),
            step(a.router, sell),
        ]),
        ..call(wallet, a.router, vec![], None)
    };
    let sold = simulate(bundle).await?;
    ensure!(
        sold.status == SimulationStatus::Success && sold.verdict == PresignVerdict::Benign,
        "{sold:?}"
    );
    ensure!(
        sold.approvals[0].spender_kind == AccountKind::KnownRouter
            && sold.approvals[0].amount_raw.as_deref() == Some(&*amount.to_string())
    );
    ensure!(sold
        .asset_changes
        .iter()
        .any(|c| c.asset == AssetKind::Native && c.direction == Direction::In));
    ensure!(sold
        .asset_changes
        .iter()
        .any(|c| c.direction == Direction::Out && c.amount_raw == amount.to_string()));

    // A reverting call: its reason decoded.
    let holder = rig::holder(10_000);
    let to_pair = calldata(
        "transfer(address,uint256)",
        &[Arg::Addr(a.pairs["sellrevert"]), Arg::Uint(e18(1))],
    );
    let reverted = simulate(call(holder, a.tokens["sellrevert"], to_pair, None)).await?;
    ensure!(
        reverted.status == SimulationStatus::Reverted
            && reverted.revert_reason.as_deref() == Some("sell not allowed")
            && reverted.failed_call == Some(0),
        "{reverted:?}"
    );
    ensure!(reverted.verdict == PresignVerdict::Warning && reverted.asset_changes.is_empty());
    server.stop().await
}

conformance!(a_node_without_simulation_gets_unknown_never_benign);
pub async fn a_node_without_simulation_gets_unknown_never_benign(
    backend: Backend,
) -> anyhow::Result<()> {
    let rig = rig::shared()?;
    let mut served = rig.a.clone();
    served.url = riskintel_tests::refusing_node::start(
        rig.a.url.clone(),
        riskintel_tests::refusing_node::Refusal {
            refuse: |item| item["method"] == "eth_simulateV1",
            error: || json!({"code": -32601, "message": "the method eth_simulateV1 does not exist/is not available"}),
            max_batch: None,
        },
    )
    .await?;
    let config = Config {
        chains: rig::chains_config(&[("eth", &served)]),
        ..Config::default()
    };
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    let wallet = random_address();
    let answer = ok(client
        .tx_simulate(&buy(&rig.a, wallet, "plain", false))
        .await)?
    .into_inner();
    ensure!(
        answer.status == SimulationStatus::Unknown && answer.verdict == PresignVerdict::Unknown,
        "{answer:?}"
    );
    ensure!(
        answer
            .unknown_reason
            .as_deref()
            .is_some_and(|r| r.contains("eth_simulateV1")),
        "{answer:?}"
    );
    server.stop().await
}

conformance!(presign_bad_inputs_get_clear_errors);
pub async fn presign_bad_inputs_get_clear_errors(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let client = server.client(&server.owner_key());
    let wallet = random_address();
    let base = call(wallet, rig.a.router, vec![], None);
    let cases: Vec<(types::TxSimulationRequest, &str)> = vec![
        (
            types::TxSimulationRequest {
                data: Some("0xabc".into()),
                ..base.clone()
            },
            "tx.data",
        ),
        (
            types::TxSimulationRequest {
                data: Some("approve".into()),
                ..base.clone()
            },
            "tx.data",
        ),
        (
            types::TxSimulationRequest {
                chain: "doge".into(),
                ..base.clone()
            },
            "chain",
        ),
        (
            types::TxSimulationRequest {
                from: Some("0x1234".into()),
                ..base.clone()
            },
            "from",
        ),
        (
            types::TxSimulationRequest {
                value: Some("1e18".into()),
                ..base.clone()
            },
            "tx.value",
        ),
        (
            types::TxSimulationRequest {
                to: None,
                data: None,
                calls: Some(vec![
                    types::EvmCall {
                        from: None,
                        to: rig.a.router.to_checksum(None),
                        value: None,
                        data: None,
                        gas: None
                    };
                    11
                ]),
                ..base.clone()
            },
            "calls: 11",
        ),
        (
            types::TxSimulationRequest {
                chain: "sol".into(),
                transaction: Some("not base64!".into()),
                signer: Some("11111111111111111111111111111111".into()),
                from: None,
                to: None,
                data: None,
                ..base.clone()
            },
            "transaction",
        ),
    ];
    for (request, field) in cases {
        let refused = err(
            client.tx_simulate(&request).await,
            422,
            ErrorCode::ValidationError,
            true,
        )?;
        ensure!(
            refused.error.message.contains(field),
            "{field}: {}",
            refused.error.message
        );
    }
    let bad_typed = [
        json!({"types": {}, "primaryType": "Permit", "domain": {}, "message": {}}),
        json!({"primaryType": "Permit"}),
    ];
    for typed_data in bad_typed {
        let request = types::SignatureScanRequest {
            chain: "eth".into(),
            signer: wallet.to_checksum(None),
            typed_data: typed_data.as_object().cloned(),
            message: None,
        };
        err(
            client.signature_scan(&request).await,
            422,
            ErrorCode::ValidationError,
            true,
        )?;
    }
    server.stop().await
}

/// `aggregate3([(target, true, data)])` of Multicall3.
fn calldata_aggregate3(call: &types::EvmCall) -> anyhow::Result<Vec<u8>> {
    use alloy_sol_types::{sol, SolCall};
    sol! {
        struct Call3 { address target; bool allowFailure; bytes callData; }
        function aggregate3(Call3[] calls);
    }
    let data = hex::decode(
        call.data
            .as_deref()
            .unwrap_or("0x")
            .trim_start_matches("0x"),
    )?;
    Ok(aggregate3Call {
        calls: vec![Call3 {
            target: call.to.parse()?,
            allowFailure: true,
            callData: data.into(),
        }],
    }
    .abi_encode())
}
