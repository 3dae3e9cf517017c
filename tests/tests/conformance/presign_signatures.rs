//! Before signing: signature requests (EIP-712 typed data, `personal_sign`)
//! decoded and judged on the anvil rig, through the generated client.

use alloy_primitives::U256;
use anyhow::ensure;
use riskintel_client::types::{
    self, AccountKind, AssetKind, ErrorCode, PresignVerdict, RiskKind, SignatureKind,
};
use riskintel_server::clock::Clock;
use riskintel_tests::rig::{self, random_address, Node};
use riskintel_tests::{err, ok, Backend, TestServer};
use serde_json::{json, Value};

use super::presign::kinds;

const PERMIT2: &str = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
const UNIVERSAL_ROUTER: &str = "0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af";
const SEAPORT: &str = "0x0000000000000068F116a894984e2DB1123eB395";

fn typed(chain_id: u64, contract: &str, primary: &str, message: Value) -> Value {
    json!({
        "types": {"EIP712Domain": [{"name": "name", "type": "string"}, {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}], primary: []},
        "primaryType": primary,
        "domain": {"name": "Any", "chainId": chain_id, "verifyingContract": contract},
        "message": message,
    })
}

conformance!(signature_requests_are_decoded_and_judged);
pub async fn signature_requests_are_decoded_and_judged(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let a = rig.a.clone();
    let url = a.url.clone();
    let deployer = a.deployer;
    let fresh =
        tokio::task::spawn_blocking(move || Node::new(&url).deploy(deployer, "NotAToken", &[]))
            .await??;
    let client = server.client(&server.owner_key());
    let signer = random_address().to_checksum(None);
    let now = server.clock.now().timestamp();
    let scan = |typed_data: Value| {
        let (client, signer) = (&client, signer.clone());
        async move {
            let request = types::SignatureScanRequest {
                chain: "eth".into(),
                signer,
                typed_data: typed_data.as_object().cloned(),
                message: None,
            };
            anyhow::Ok(ok(client.signature_scan(&request).await)?.into_inner())
        }
    };
    let (plain, usd) = (a.token("plain"), a.usd.to_checksum(None));

    // An EIP-2612 permit to an EOA.
    let permit = scan(typed(a.chain_id, &plain, "Permit", json!({"owner": signer, "spender": deployer.to_checksum(None), "value": U256::MAX.to_string(), "nonce": 0, "deadline": now + 3600}))).await?;
    ensure!(
        permit.kind == SignatureKind::Permit
            && permit.verdict == PresignVerdict::Malicious
            && permit.risks[0].kind == RiskKind::GrantToEoa,
        "{permit:?}"
    );
    ensure!(
        permit.approvals[0].token == plain
            && permit.approvals[0].unlimited
            && permit.approvals[0].symbol.as_deref() == Some("PLAIN")
    );

    // Permit2 PermitSingle and PermitBatch to a contract deployed a moment ago.
    let details = |token: &str| json!({"token": token, "amount": "1000000", "expiration": now + 3600, "nonce": 0});
    let single = scan(typed(a.chain_id, PERMIT2, "PermitSingle", json!({"details": details(&plain), "spender": fresh.to_checksum(None), "sigDeadline": now + 3600}))).await?;
    ensure!(
        single.kind == SignatureKind::Permit2Single
            && single.verdict == PresignVerdict::Warning
            && kinds(&single.risks).contains(&RiskKind::GrantToNewContract),
        "{single:?}"
    );
    ensure!(single.verifying_contract_name.as_deref() == Some("Uniswap Permit2"));
    let batch = scan(typed(a.chain_id, PERMIT2, "PermitBatch", json!({"details": [details(&plain), details(&usd)], "spender": fresh.to_checksum(None), "sigDeadline": now + 3600}))).await?;
    ensure!(
        batch.kind == SignatureKind::Permit2Batch
            && batch.approvals.len() == 2
            && batch.verdict == PresignVerdict::Warning,
        "{batch:?}"
    );

    // Permit2 to an EOA for a year: malicious, and long-lived.
    let year = scan(typed(a.chain_id, PERMIT2, "PermitSingle", json!({"details": {"token": plain, "amount": "1461501637330902918203684832716283019655932542975", "expiration": now + 365 * 86_400, "nonce": 0}, "spender": deployer.to_checksum(None), "sigDeadline": now + 365 * 86_400}))).await?;
    ensure!(
        year.verdict == PresignVerdict::Malicious
            && kinds(&year.risks).contains(&RiskKind::LongLivedGrant)
            && year.approvals[0].unlimited,
        "{year:?}"
    );

    // Permit2 to the Universal Router for half an hour: benign.
    let router = scan(typed(
        a.chain_id,
        PERMIT2,
        "PermitSingle",
        json!({"details": details(&plain), "spender": UNIVERSAL_ROUTER, "sigDeadline": now + 1800}),
    ))
    .await?;
    ensure!(
        router.verdict == PresignVerdict::Benign
            && router.risks.is_empty()
            && router.approvals[0].spender_kind == AccountKind::KnownRouter,
        "{router:?}"
    );

    // A Seaport order giving an NFT for nothing.
    let item = |kind: u8, token: &str, recipient: Option<&str>, amount: &str| {
        let mut item = json!({"itemType": kind, "token": token, "identifierOrCriteria": "7", "startAmount": amount, "endAmount": amount});
        if let Some(r) = recipient {
            item["recipient"] = json!(r);
        }
        item
    };
    let nft = a.v3.position_manager.to_checksum(None);
    let order = json!({"offerer": signer, "offer": [item(2, &nft, None, "1")], "consideration": [item(0, "0x0000000000000000000000000000000000000000", Some(&signer), "0")], "startTime": now, "endTime": now + 86_400});
    let seaport = scan(typed(a.chain_id, SEAPORT, "OrderComponents", order)).await?;
    ensure!(
        seaport.kind == SignatureKind::SeaportOrder
            && seaport.verdict == PresignVerdict::Malicious
            && seaport.risks[0].kind == RiskKind::DrainsAsset,
        "{seaport:?}"
    );
    ensure!(
        seaport.asset_changes.len() == 1
            && seaport.asset_changes[0].asset == AssetKind::Erc721
            && seaport.asset_changes[0].token_id.as_deref() == Some("7")
    );

    // A plain message.
    let message = ok(client
        .signature_scan(&types::SignatureScanRequest {
            chain: "eth".into(),
            signer: signer.clone(),
            typed_data: None,
            message: Some("Sign in to example.org".into()),
        })
        .await)?
    .into_inner();
    ensure!(
        message.kind == SignatureKind::PersonalMessage
            && message.verdict == PresignVerdict::Benign
            && message.message_text.as_deref() == Some("Sign in to example.org")
    );

    // A domain for another chain is refused.
    let wrong = client
        .signature_scan(&types::SignatureScanRequest {
            chain: "eth".into(),
            signer: signer.clone(),
            typed_data: typed(a.chain_id + 1, PERMIT2, "PermitSingle", json!({}))
                .as_object()
                .cloned(),
            message: None,
        })
        .await;
    let refused = err(wrong, 422, ErrorCode::ValidationError, true)?;
    ensure!(
        refused.error.message.contains("chainId"),
        "{}",
        refused.error.message
    );
    server.stop().await
}
