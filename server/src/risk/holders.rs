//! The holder index: net balances from `Transfer` logs, read with
//! `eth_getLogs` in adaptive chunks, incremental and persisted in the store,
//! bounded by a look-back so a huge token cannot stall a request.

use std::collections::HashMap;

use alloy_primitives::{Address, I256, U256};
use serde_json::{json, Value};

use crate::chains::evm::rpc::{RpcClient, RpcError};
use crate::store::{HolderBalance, LogIndexKind, LogIndexState, Store, StoreError};

/// `Transfer(address,address,uint256)` topic.
pub const TRANSFER_TOPIC: &str = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/// Limits of one update.
#[derive(Clone, Copy, Debug)]
pub struct IndexLimits {
    /// How far back a new index starts.
    pub lookback_blocks: u64,
    /// Blocks per request to start with.
    pub chunk_blocks: u64,
    /// Most `eth_getLogs` requests per update.
    pub max_requests: u32,
}

/// What the index knows after an update.
#[derive(Clone, Debug)]
pub struct HolderIndex {
    /// First block indexed (0: from genesis).
    pub start_block: u64,
    /// Last block indexed (inclusive), if any.
    pub indexed_to: Option<u64>,
    /// Whether balances are complete up to the analysed block.
    pub complete: bool,
    /// Why not, when not.
    pub incomplete_reason: Option<String>,
    /// Block of the first Transfer seen.
    pub first_transfer_block: Option<u64>,
    /// The recipient of the first mint (the creator), when the index starts at genesis.
    pub creator: Option<Address>,
}

/// Index failures.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The node failed.
    #[error(transparent)]
    Rpc(#[from] RpcError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn topic_address(topic: &str) -> Option<Address> {
    let bytes = hex::decode(topic.strip_prefix("0x")?).ok()?;
    (bytes.len() == 32).then(|| Address::from_slice(&bytes[12..]))
}

/// Address as stored: lower-case hex with 0x.
pub fn holder_key(address: &Address) -> String {
    format!("{address:#x}")
}

fn is_range_refusal(error: &RpcError) -> bool {
    match error {
        RpcError::Upstream(text) => {
            let t = text.to_ascii_lowercase();
            ["range", "too many", "limit", "exceed", "10000", "timeout", "too large"].iter().any(|w| t.contains(w))
        }
        RpcError::Unavailable(_) => false,
    }
}

/// Logs read from `next` towards `latest`, in order, with the adaptive chunking.
pub struct LogScan {
    /// Every log of every filter, for the blocks read.
    pub logs: Vec<Value>,
    /// The first block not read.
    pub next: u64,
    /// Why reading stopped early, when it did for an error.
    pub gave_up: Option<String>,
}

/// Read the logs matching any of `filters` (objects with `address` and/or
/// `topics`) from block `next` to `latest`: ranges of `chunk_blocks`, every
/// filter of a range in one batch, a refused range halved and retried, at
/// most `max_requests` requests. Only a contiguous prefix of blocks counts
/// as read.
pub async fn scan_logs(rpc: &RpcClient, filters: &[Value], mut next: u64, latest: u64, limits: IndexLimits) -> Result<LogScan, RpcError> {
    let per_range = filters.len().max(1) as u32;
    let mut requests = 0u32;
    let mut logs = Vec::new();
    let mut gave_up = None;
    let mut pending: Vec<(u64, u64)> = Vec::new();
    let mut from = next;
    let chunk = limits.chunk_blocks.max(1);
    while from <= latest && (pending.len() as u32 + 1) * per_range <= limits.max_requests {
        let to = (from + chunk - 1).min(latest);
        pending.push((from, to));
        from = to + 1;
    }
    while !pending.is_empty() && requests + per_range <= limits.max_requests {
        let room = ((limits.max_requests - requests) / per_range) as usize;
        let wave: Vec<(u64, u64)> = pending.iter().take(room).cloned().collect();
        let mut calls = Vec::new();
        for (from, to) in &wave {
            for filter in filters {
                let mut filter = filter.clone();
                filter["fromBlock"] = json!(format!("{from:#x}"));
                filter["toBlock"] = json!(format!("{to:#x}"));
                calls.push(("eth_getLogs".to_string(), json!([filter])));
            }
        }
        requests += calls.len() as u32;
        let mut answers = rpc.batch(calls).await?.into_iter();
        let mut next_pending = Vec::new();
        let mut blocked = false;
        for (from, to) in wave.iter().copied() {
            let range: Vec<Result<Value, RpcError>> = (0..filters.len()).map(|_| answers.next().unwrap_or_else(|| Err(RpcError::Upstream("missing answer".into())))).collect();
            if blocked {
                next_pending.push((from, to));
                continue;
            }
            match range.into_iter().collect::<Result<Vec<Value>, RpcError>>() {
                Ok(lists) => {
                    for list in lists {
                        let Value::Array(items) = list else {
                            return Err(RpcError::Upstream("eth_getLogs answer is not a list".into()));
                        };
                        logs.extend(items);
                    }
                    next = to + 1;
                }
                Err(error) if is_range_refusal(&error) && to > from => {
                    let half = (to - from).div_ceil(2);
                    next_pending.push((from, from + half - 1));
                    next_pending.push((from + half, to));
                    blocked = true;
                }
                Err(error) => {
                    gave_up = Some(error.to_string());
                    blocked = true;
                    next_pending.push((from, to));
                }
            }
        }
        next_pending.extend(pending.into_iter().skip(room));
        pending = next_pending;
        if gave_up.is_some() {
            break;
        }
    }
    Ok(LogScan { logs, next, gave_up })
}

/// Where an index stands and why it is incomplete, in words.
pub fn incomplete_reason(start_block: u64, next: u64, latest: u64, gave_up: Option<String>, what: &str) -> Option<String> {
    if start_block == 0 && next > latest {
        None
    } else if start_block > 0 {
        Some(format!(
            "the {what} index reads logs from block {start_block} on (the configured look-back); earlier activity is not known"
        ))
    } else if let Some(error) = gave_up {
        Some(format!("reading {what} logs stopped at block {next}: {error}"))
    } else {
        Some(format!(
            "{what} logs are indexed up to block {} of {latest}; the rest is read on later requests",
            next.saturating_sub(1)
        ))
    }
}

/// Bring the index of `token` up to `latest` (within the limits).
pub async fn update(
    store: &dyn Store,
    rpc: &RpcClient,
    chain: &str,
    token: Address,
    latest: u64,
    limits: IndexLimits,
) -> Result<HolderIndex, IndexError> {
    let token_key = holder_key(&token);
    let existing = store.log_index_get(chain, LogIndexKind::Holders, &token_key).await?;
    let (start_block, next, expected) = match &existing {
        Some(s) => (s.start_block as u64, s.next_block as u64, Some(s.next_block)),
        None => {
            let start = latest.saturating_sub(limits.lookback_blocks);
            (start, start, None)
        }
    };
    let mut first_transfer = existing.as_ref().and_then(|s| s.first_block).map(|b| b as u64);
    let mut creator = existing.as_ref().and_then(|s| s.first_party.as_deref()).and_then(|c| c.parse::<Address>().ok());
    let filter = json!({"address": format!("{token:#x}"), "topics": [TRANSFER_TOPIC]});
    let scan = scan_logs(rpc, &[filter], next, latest, limits).await?;
    let mut deltas: HashMap<Address, I256> = HashMap::new();
    for log in &scan.logs {
        if let Some((from, to)) = apply_log(log, &mut deltas, &mut first_transfer)? {
            // The first mint's recipient is the creator — knowable only when the index starts at genesis.
            if creator.is_none() && start_block == 0 && from.is_zero() {
                creator = Some(to);
            }
        }
    }
    let next = scan.next;
    if next > start_block || expected.is_none() {
        let touched: Vec<String> = deltas.keys().map(holder_key).collect();
        let current: HashMap<String, I256> = store
            .holder_balances_get(chain, &token_key, &touched)
            .await?
            .into_iter()
            .filter_map(|b| b.balance.parse::<I256>().ok().map(|v| (b.holder, v)))
            .collect();
        let balances: Vec<HolderBalance> = deltas
            .iter()
            .map(|(holder, delta)| {
                let key = holder_key(holder);
                let balance = current.get(&key).copied().unwrap_or(I256::ZERO) + *delta;
                HolderBalance { holder: key, sort_key: i256_to_f64(balance), balance: balance.to_string() }
            })
            .collect();
        let state = LogIndexState {
            start_block: start_block as i64,
            next_block: next as i64,
            first_block: first_transfer.map(|b| b as i64),
            first_party: creator.map(|c| holder_key(&c)),
        };
        // If another instance indexed the same blocks first, its result stands.
        store.holder_index_apply(chain, &token_key, expected, &state, &balances).await?;
    }
    let complete = start_block == 0 && next > latest;
    Ok(HolderIndex {
        start_block,
        indexed_to: next.checked_sub(1),
        complete,
        incomplete_reason: incomplete_reason(start_block, next, latest, scan.gave_up, "Transfer"),
        first_transfer_block: first_transfer,
        creator,
    })
}

/// Apply one Transfer log; its (from, to) when it is an ERC-20 Transfer.
fn apply_log(log: &Value, deltas: &mut HashMap<Address, I256>, first: &mut Option<u64>) -> Result<Option<(Address, Address)>, RpcError> {
    let bad = || RpcError::Upstream("a Transfer log could not be decoded".into());
    let topics = log.get("topics").and_then(Value::as_array).ok_or_else(bad)?;
    if topics.len() != 3 {
        // Not an ERC-20 Transfer (e.g. ERC-721 puts the id in a topic).
        return Ok(None);
    }
    let from = topics[1].as_str().and_then(topic_address).ok_or_else(bad)?;
    let to = topics[2].as_str().and_then(topic_address).ok_or_else(bad)?;
    let data = log.get("data").and_then(Value::as_str).ok_or_else(bad)?;
    let bytes = hex::decode(data.trim_start_matches("0x")).map_err(|_| bad())?;
    if bytes.len() < 32 {
        return Err(bad());
    }
    let value = U256::from_be_slice(&bytes[..32]);
    let value = I256::try_from(value).unwrap_or(I256::MAX);
    *deltas.entry(from).or_insert(I256::ZERO) -= value;
    *deltas.entry(to).or_insert(I256::ZERO) += value;
    if let Some(block) = log.get("blockNumber").and_then(Value::as_str).and_then(|b| u64::from_str_radix(b.trim_start_matches("0x"), 16).ok()) {
        *first = Some(first.map_or(block, |f| f.min(block)));
    }
    Ok(Some((from, to)))
}

fn i256_to_f64(value: I256) -> f64 {
    value.to_string().parse().unwrap_or(0.0)
}
