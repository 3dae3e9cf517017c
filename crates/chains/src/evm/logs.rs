//! Reading logs over a block range: chunks of `chunk_blocks`, every filter
//! of a chunk in one batch, a refused range halved and retried, at most
//! `max_requests` requests. Only a contiguous prefix of blocks counts as read.

use serde_json::{json, Value};

use super::types::{BlockTag, Log};
use crate::rpc::{Batch, RpcClient, RpcError};

/// Limits of one scan.
#[derive(Clone, Copy, Debug)]
pub struct ScanLimits {
    /// How far back a new index starts.
    pub lookback_blocks: u64,
    /// Blocks per request to start with.
    pub chunk_blocks: u64,
    /// Most `eth_getLogs` requests per scan.
    pub max_requests: u32,
}

/// Logs read from `next` towards `latest`.
pub struct LogScan {
    /// Every log of every filter, for the blocks read.
    pub logs: Vec<Log>,
    /// The first block not read.
    pub next: u64,
    /// Why reading stopped early, when it did for an error.
    pub gave_up: Option<String>,
}

/// A log filter: contract addresses and topics (each position one topic,
/// a list of alternatives, or null for any).
pub fn filter(addresses: Option<Value>, topics: Value) -> Value {
    match addresses {
        Some(addresses) => json!({"address": addresses, "topics": topics}),
        None => json!({"topics": topics}),
    }
}

fn is_range_refusal(error: &RpcError) -> bool {
    match error {
        RpcError::Upstream(text) => {
            let t = text.to_ascii_lowercase();
            [
                "range",
                "too many",
                "limit",
                "exceed",
                "10000",
                "timeout",
                "too large",
            ]
            .iter()
            .any(|w| t.contains(w))
        }
        RpcError::Unavailable(_) => false,
    }
}

/// Read the logs matching any of `filters` from block `next` to `latest`
/// (inclusive), in block order as read.
pub async fn scan(
    rpc: &RpcClient,
    filters: &[Value],
    mut next: u64,
    latest: u64,
    limits: ScanLimits,
) -> Result<LogScan, RpcError> {
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
        let mut batch = Batch::new();
        let mut slots = Vec::new();
        for (from, to) in &wave {
            let range: Vec<_> = filters
                .iter()
                .map(|filter| {
                    let mut filter = filter.clone();
                    filter["fromBlock"] = json!(BlockTag::Number(*from));
                    filter["toBlock"] = json!(BlockTag::Number(*to));
                    batch.call::<Vec<Log>>("eth_getLogs", json!([filter]))
                })
                .collect();
            slots.push(range);
        }
        requests += (wave.len() * filters.len()) as u32;
        let mut answers = rpc.send(batch).await?;
        let mut next_pending = Vec::new();
        let mut blocked = false;
        for ((from, to), range) in wave.iter().copied().zip(slots) {
            let range: Vec<Result<Vec<Log>, RpcError>> =
                range.into_iter().map(|slot| answers.take(slot)).collect();
            if blocked {
                next_pending.push((from, to));
                continue;
            }
            match range
                .into_iter()
                .collect::<Result<Vec<Vec<Log>>, RpcError>>()
            {
                Ok(lists) => {
                    logs.extend(lists.into_iter().flatten());
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
    Ok(LogScan {
        logs,
        next,
        gave_up,
    })
}

/// Where an index stands and why it is incomplete, in words.
pub fn incomplete_reason(
    start_block: u64,
    next: u64,
    latest: u64,
    gave_up: Option<String>,
    what: &str,
) -> Option<String> {
    if start_block == 0 && next > latest {
        None
    } else if start_block > 0 {
        Some(format!(
            "the {what} index reads logs from block {start_block} on (the configured look-back); earlier activity is not known"
        ))
    } else if let Some(error) = gave_up {
        Some(format!(
            "reading {what} logs stopped at block {next}: {error}"
        ))
    } else {
        Some(format!(
            "{what} logs are indexed up to block {} of {latest}; the rest is read on later requests",
            next.saturating_sub(1)
        ))
    }
}
