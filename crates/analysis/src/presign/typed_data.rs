//! A signature request before it is signed: EIP-712 typed data decoded by
//! the shape of its message (whatever the dapp calls itself): EIP-2612 and
//! DAI-style permits, Permit2's allowances and signature transfers, and
//! Seaport orders; or a `personal_sign` message. Who would get what, how
//! much and until when, judged by the same rule as transactions.

use std::collections::BTreeSet;

use alloy_primitives::{Address, U256, U64};
use riskintel_chains::evm::addr;
use riskintel_chains::rpc::Batch;
use riskintel_chains::{Chain, InputError};
use riskintel_types::{
    ApprovalKind, AssetChange, AssetKind, Direction, PresignVerdict, RiskKind, Severity,
    SignatureKind, SignatureScan, SignatureScanRequest,
};
use serde_json::{json, Map, Value};

use super::events::Grant;
use super::judge::{self, party_of};
use super::request::{hex_bytes, number};
use super::{assets, known, parties, Presign};
use crate::tokens::AnalysisError;

fn invalid(text: impl Into<String>) -> AnalysisError {
    AnalysisError::Input(InputError::Invalid(text.into()))
}

/// A decoded request: its kind, grants and what leaves or reaches the wallet.
struct Decoded {
    kind: SignatureKind,
    grants: Vec<Grant>,
    /// (out?, item type, token, id, amount) of an order or a signature transfer.
    moves: Vec<(bool, AssetKind, Address, Option<U256>, U256)>,
}

fn field<'a>(
    object: &'a Map<String, Value>,
    path: &str,
    name: &str,
) -> Result<&'a Value, AnalysisError> {
    object
        .get(name)
        .ok_or_else(|| invalid(format!("{path}.{name}: required")))
}

fn uint(value: &Value, path: &str) -> Result<U256, AnalysisError> {
    match value {
        Value::Number(n) => n
            .as_u64()
            .map(U256::from)
            .ok_or_else(|| invalid(format!("{path}: not an unsigned integer"))),
        Value::String(s) => number(path, s).map_err(AnalysisError::from),
        _ => Err(invalid(format!("{path}: not a number"))),
    }
}

fn address(value: &Value, path: &str) -> Result<Address, AnalysisError> {
    let text = value
        .as_str()
        .ok_or_else(|| invalid(format!("{path}: not an address")))?;
    riskintel_chains::parse_evm_address(text).map_err(|e| invalid(format!("{path}: {e}")))
}

fn object<'a>(value: &'a Value, path: &str) -> Result<&'a Map<String, Value>, AnalysisError> {
    value
        .as_object()
        .ok_or_else(|| invalid(format!("{path}: must be an object")))
}

fn array<'a>(value: &'a Value, path: &str) -> Result<&'a Vec<Value>, AnalysisError> {
    value
        .as_array()
        .ok_or_else(|| invalid(format!("{path}: must be a list")))
}

fn has(message: &Map<String, Value>, names: &[&str]) -> bool {
    names.iter().all(|n| message.contains_key(*n))
}

fn seconds(value: U256) -> Option<u64> {
    u64::try_from(value).ok().filter(|s| *s > 0)
}

fn grant(
    kind: ApprovalKind,
    token: Address,
    spender: Address,
    amount: U256,
    expires: Option<u64>,
) -> Grant {
    Grant {
        kind,
        token,
        spender,
        amount: Some(amount),
        all: false,
        expires,
        revoked: amount.is_zero(),
    }
}

/// Decode a message by its shape.
fn decode(
    message: &Map<String, Value>,
    contract: Option<Address>,
) -> Result<Decoded, AnalysisError> {
    let m = "typed_data.message";
    let need_contract = || {
        contract
            .ok_or_else(|| invalid("typed_data.domain.verifyingContract: required for a permit"))
    };
    let mut d = Decoded {
        kind: SignatureKind::OtherTypedData,
        grants: Vec::new(),
        moves: Vec::new(),
    };
    if has(message, &["owner", "spender", "value", "deadline"]) {
        d.kind = SignatureKind::Permit;
        d.grants.push(grant(
            ApprovalKind::Permit,
            need_contract()?,
            address(&message["spender"], &format!("{m}.spender"))?,
            uint(&message["value"], &format!("{m}.value"))?,
            seconds(uint(&message["deadline"], &format!("{m}.deadline"))?),
        ));
    } else if has(message, &["holder", "spender", "expiry", "allowed"]) {
        d.kind = SignatureKind::DaiPermit;
        let allowed = message["allowed"]
            .as_bool()
            .ok_or_else(|| invalid(format!("{m}.allowed: not a boolean")))?;
        d.grants.push(grant(
            ApprovalKind::Permit,
            need_contract()?,
            address(&message["spender"], &format!("{m}.spender"))?,
            if allowed { U256::MAX } else { U256::ZERO },
            seconds(uint(&message["expiry"], &format!("{m}.expiry"))?),
        ));
    } else if has(message, &["details", "spender", "sigDeadline"]) {
        let spender = address(&message["spender"], &format!("{m}.spender"))?;
        let details: Vec<&Value> = match &message["details"] {
            Value::Array(items) => {
                d.kind = SignatureKind::Permit2Batch;
                items.iter().collect()
            }
            one => {
                d.kind = SignatureKind::Permit2Single;
                vec![one]
            }
        };
        for (i, item) in details.into_iter().enumerate() {
            let path = format!("{m}.details[{i}]");
            let item = object(item, &path)?;
            d.grants.push(grant(
                ApprovalKind::Permit2,
                address(field(item, &path, "token")?, &format!("{path}.token"))?,
                spender,
                uint(field(item, &path, "amount")?, &format!("{path}.amount"))?,
                seconds(uint(
                    field(item, &path, "expiration")?,
                    &format!("{path}.expiration"),
                )?),
            ));
        }
    } else if has(message, &["permitted", "spender", "deadline"]) {
        let spender = address(&message["spender"], &format!("{m}.spender"))?;
        let deadline = seconds(uint(&message["deadline"], &format!("{m}.deadline"))?);
        let permitted: Vec<&Value> = match &message["permitted"] {
            Value::Array(items) => {
                d.kind = SignatureKind::Permit2BatchTransferFrom;
                items.iter().collect()
            }
            one => {
                d.kind = SignatureKind::Permit2TransferFrom;
                vec![one]
            }
        };
        for (i, item) in permitted.into_iter().enumerate() {
            let path = format!("{m}.permitted[{i}]");
            let item = object(item, &path)?;
            let token = address(field(item, &path, "token")?, &format!("{path}.token"))?;
            let amount = uint(field(item, &path, "amount")?, &format!("{path}.amount"))?;
            d.grants.push(grant(
                ApprovalKind::Permit2,
                token,
                spender,
                amount,
                deadline,
            ));
            d.moves.push((true, AssetKind::Erc20, token, None, amount));
        }
    } else if has(message, &["offerer", "offer", "consideration"]) {
        d.kind = SignatureKind::SeaportOrder;
        let offerer = address(&message["offerer"], &format!("{m}.offerer"))?;
        for (list, out) in [("offer", true), ("consideration", false)] {
            for (i, item) in array(&message[list], &format!("{m}.{list}"))?
                .iter()
                .enumerate()
            {
                let path = format!("{m}.{list}[{i}]");
                let item = object(item, &path)?;
                if !out
                    && address(
                        field(item, &path, "recipient")?,
                        &format!("{path}.recipient"),
                    )? != offerer
                {
                    continue;
                }
                let kind = match u64::try_from(uint(
                    field(item, &path, "itemType")?,
                    &format!("{path}.itemType"),
                )?) {
                    Ok(0) => AssetKind::Native,
                    Ok(1) => AssetKind::Erc20,
                    Ok(2 | 4) => AssetKind::Erc721,
                    Ok(3 | 5) => AssetKind::Erc1155,
                    _ => {
                        return Err(invalid(format!(
                            "{path}.itemType: not a Seaport item type (0 to 5)"
                        )))
                    }
                };
                let token = address(field(item, &path, "token")?, &format!("{path}.token"))?;
                let id = uint(
                    field(item, &path, "identifierOrCriteria")?,
                    &format!("{path}.identifierOrCriteria"),
                )?;
                let amount = uint(
                    field(item, &path, "startAmount")?,
                    &format!("{path}.startAmount"),
                )?;
                let id = matches!(kind, AssetKind::Erc721 | AssetKind::Erc1155).then_some(id);
                // Nothing is nothing: a zero consideration pays the signer nothing.
                if !amount.is_zero() {
                    d.moves.push((out, kind, token, id, amount));
                }
            }
        }
    }
    Ok(d)
}

/// Check the typed data's frame: types, primary type, domain (its chain
/// the asked chain's), message; the message and the verifying contract.
fn frame(
    typed: &Value,
    chain_id: u64,
) -> Result<(&Map<String, Value>, Option<Address>), AnalysisError> {
    let typed = object(typed, "typed_data")?;
    let types = object(field(typed, "typed_data", "types")?, "typed_data.types")?;
    let primary = field(typed, "typed_data", "primaryType")?
        .as_str()
        .ok_or_else(|| invalid("typed_data.primaryType: must be a string"))?;
    if !types.contains_key(primary) {
        return Err(invalid(format!(
            "typed_data.primaryType: {primary:?} is not among typed_data.types"
        )));
    }
    let domain = object(field(typed, "typed_data", "domain")?, "typed_data.domain")?;
    if let Some(declared) = types.get("EIP712Domain") {
        let names: BTreeSet<&str> = array(declared, "typed_data.types.EIP712Domain")?
            .iter()
            .filter_map(|f| f.get("name")?.as_str())
            .collect();
        if let Some(extra) = domain.keys().find(|k| !names.contains(k.as_str())) {
            return Err(invalid(format!(
                "typed_data.domain.{extra}: not declared in typed_data.types.EIP712Domain"
            )));
        }
    }
    if let Some(id) = domain.get("chainId") {
        let id = uint(id, "typed_data.domain.chainId")?;
        if id != U256::from(chain_id) {
            return Err(invalid(format!("typed_data.domain.chainId: {id} is not this chain's id ({chain_id}); a wallet would refuse to sign it here")));
        }
    }
    let contract = match domain.get("verifyingContract") {
        Some(v) => Some(address(v, "typed_data.domain.verifyingContract")?),
        None => None,
    };
    let message = object(field(typed, "typed_data", "message")?, "typed_data.message")?;
    Ok((message, contract))
}

/// A `personal_sign` message: its text, and whether it is a bare 32-byte hash.
fn personal(message: &str) -> Result<(Option<String>, bool), AnalysisError> {
    if message.starts_with("0x") || message.starts_with("0X") {
        let bytes = hex_bytes("message", message)?;
        let hash = bytes.len() == 32;
        return Ok((
            String::from_utf8(bytes.to_vec())
                .ok()
                .filter(|t| !hash && !t.chars().any(|c| c.is_control() && c != '\n')),
            hash,
        ));
    }
    Ok((Some(message.to_string()), false))
}

pub(super) async fn scan(
    presign: &Presign,
    chain: Chain,
    request: &SignatureScanRequest,
) -> Result<SignatureScan, AnalysisError> {
    let evm = presign.analyzer.chains().evm(chain)?.clone();
    let signer = riskintel_chains::parse_evm_address(&request.signer)
        .map_err(|e| invalid(format!("signer: {e}")))?;
    let mut scan = SignatureScan {
        chain: chain.id().to_string(),
        signer: addr(&signer),
        kind: SignatureKind::PersonalMessage,
        verdict: PresignVerdict::Benign,
        verifying_contract: None,
        verifying_contract_name: None,
        approvals: Vec::new(),
        asset_changes: Vec::new(),
        message_text: None,
        risks: Vec::new(),
    };
    let typed = match (&request.typed_data, &request.message) {
        (Some(typed), None) => Value::Object(typed.clone()),
        (None, Some(message)) => {
            let (text, hash) = personal(message)?;
            scan.message_text = text;
            if hash {
                scan.risks.push(judge::risk(RiskKind::NotChecked, Severity::High, None, "Signs a bare 32-byte hash: it could be a transaction or an order, and what it does cannot be read.".into()));
                scan.verdict = PresignVerdict::Warning;
            }
            return Ok(scan);
        }
        _ => return Err(invalid("typed_data, message: give exactly one")),
    };
    let mut batch = Batch::new();
    let chain_id = batch.call::<U64>("eth_chainId", json!([]));
    let head = batch.call::<U64>("eth_blockNumber", json!([]));
    let mut answers = evm.rpc.send(batch).await?;
    let (chain_id, head): (u64, u64) = (answers.take(chain_id)?.to(), answers.take(head)?.to());
    let (message, contract) = frame(&typed, chain_id)?;
    let decoded = decode(message, contract)?;
    scan.kind = decoded.kind;
    let names = parties::configured_names(&evm);
    scan.verifying_contract = contract.map(|c| addr(&c));
    scan.verifying_contract_name = contract.and_then(|c| parties::name_of(&names, &c));
    if decoded.kind == SignatureKind::OtherTypedData {
        scan.verdict = PresignVerdict::Unknown;
        scan.risks.push(judge::risk(
            RiskKind::NotChecked,
            Severity::Medium,
            scan.verifying_contract.clone(),
            "Typed data of a kind the service does not decode: what signing it allows is unknown."
                .into(),
        ));
        return Ok(scan);
    }

    let mut addresses: BTreeSet<Address> = decoded.grants.iter().map(|g| g.spender).collect();
    addresses.extend(contract);
    addresses.remove(&signer);
    let tokens: BTreeSet<Address> = decoded
        .grants
        .iter()
        .map(|g| g.token)
        .chain(
            decoded
                .moves
                .iter()
                .filter(|m| m.1 != AssetKind::Native)
                .map(|m| m.2),
        )
        .collect();
    let mut batch = Batch::new();
    let take_parties = parties::read(&mut batch, chain, head, &addresses);
    let pending = assets::read(&mut batch, &evm, head, signer, &tokens);
    let mut answers = evm.rpc.send(batch).await?;
    let mut found = take_parties(&mut answers);
    for (address, party) in found.iter_mut() {
        party.name = parties::name_of(&names, address);
    }
    parties::flag(
        presign.store.as_ref(),
        &presign.screening,
        chain,
        &mut found,
    )
    .await?;
    let facts = pending.take(&mut answers);

    let now = presign.clock.now().timestamp();
    for g in &decoded.grants {
        let symbol = facts.get(&g.token).and_then(|f| f.symbol.clone());
        let approval = assets::written(g, symbol, found.get(&g.spender));
        scan.risks.extend(judge::grant_risks(
            &approval,
            party_of(&found, &approval.spender),
            now,
        ));
        scan.approvals.push(approval);
    }
    for (out, kind, token, id, amount) in &decoded.moves {
        let decimals = match kind {
            AssetKind::Native => Some(18),
            AssetKind::Erc20 => facts.get(token).and_then(|f| f.decimals),
            _ => Some(0),
        };
        scan.asset_changes.push(AssetChange {
            asset: *kind,
            token: (*kind != AssetKind::Native).then(|| addr(token)),
            symbol: if *kind == AssetKind::Native {
                Some(assets::native_symbol(chain).into())
            } else {
                facts.get(token).and_then(|f| f.symbol.clone())
            },
            token_id: id.map(|i| i.to_string()),
            direction: if *out { Direction::Out } else { Direction::In },
            amount_raw: amount.to_string(),
            amount: decimals.map(|d| riskintel_chains::evm::abi::units(*amount, d)),
            value_usd: None,
            fee_raw: None,
            fee_share: None,
            counterparties: Vec::new(),
            token_verdict: None,
        });
    }
    if decoded.kind == SignatureKind::SeaportOrder {
        let gives = scan
            .asset_changes
            .iter()
            .any(|c| c.direction == Direction::Out);
        let gets = scan
            .asset_changes
            .iter()
            .any(|c| c.direction == Direction::In);
        if gives && !gets {
            scan.risks.push(judge::risk(RiskKind::DrainsAsset, Severity::Critical, scan.verifying_contract.clone(), "A marketplace order that gives your assets away and pays you nothing: anyone can fill it.".into()));
        }
        if contract.is_some_and(|c| !known::is_seaport(&c)) {
            scan.risks.push(judge::risk(
                RiskKind::NotChecked,
                Severity::Medium,
                scan.verifying_contract.clone(),
                "An order shaped like Seaport's for a contract that is not Seaport.".into(),
            ));
        }
    }
    if let Some(party) = contract.and_then(|c| found.get(&c)) {
        scan.risks.extend(judge::flag_risks(
            scan.verifying_contract.as_deref().unwrap_or_default(),
            party,
        ));
    }
    scan.risks = judge::sorted(std::mem::take(&mut scan.risks));
    scan.verdict = judge::verdict(&scan.risks);
    Ok(scan)
}
