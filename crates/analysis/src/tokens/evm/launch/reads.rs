//! The launch's reads, planned into the last round's batch: the opening
//! blocks' transfers, the launch window's blocks with their transactions,
//! and the creator's transfers since the opening.

use alloy_primitives::Address;
use alloy_sol_types::SolEvent;
use serde_json::{json, Value};

use super::{LaunchLimits, OPENING_BLOCKS};
use crate::tokens::evm::gaps::{self, Gaps};
use crate::tokens::evm::holders::HolderIndex;
use riskintel_chains::evm::abi::IERC20::Transfer;
use riskintel_chains::evm::types::{address_topic, BlockTag, FullBlock, Log};
use riskintel_chains::rpc::{Answers, Batch, RpcError, Slot};

/// The launch reads in a batch.
pub struct Planned {
    opened: u64,
    creator: Address,
    opening: Slot<Vec<Log>>,
    blocks: Vec<Slot<FullBlock>>,
    creator_logs: Option<Slot<Vec<Log>>>,
}

/// What the launch reads found; a refused read is None (its checks are a gap).
#[derive(Clone, Debug, Default)]
pub struct Reads {
    /// The token's transfers in the opening blocks.
    pub opening: Option<Vec<Log>>,
    /// The launch window's blocks, with their transactions.
    pub blocks: Option<Vec<FullBlock>>,
    /// The creator's transfers out since the opening block.
    pub creator: Option<Vec<Log>>,
}

fn transfers(token: Address, topics: Value, from: u64, to: u64) -> Value {
    json!({
        "address": token,
        "topics": topics,
        "fromBlock": BlockTag::Number(from),
        "toBlock": BlockTag::Number(to),
    })
}

/// Plan the launch reads of `token` up to `latest` (`sources`: its pools
/// and routers); or why the launch cannot be judged (the checks are then
/// `unknown` with that reason). When the index shows nobody bought in the
/// opening blocks, only the opening block is read (its time).
pub fn plan(
    token: Address,
    index: &HolderIndex,
    sources: &[Address],
    latest: u64,
    limits: LaunchLimits,
    batch: &mut Batch,
) -> Result<Planned, String> {
    if !index.complete {
        return Err(index
            .incomplete_reason
            .clone()
            .unwrap_or_else(|| "the holder index does not reach the token's launch".into()));
    }
    let Some(creator) = index.creator else {
        return Err("no mint was found, so the creator is not known".into());
    };
    let Some(rows) = &index.launch else {
        return Err("no pool has received the token yet: it has not launched".into());
    };
    let opened = rows.opened;
    let last_opening = (opened + OPENING_BLOCKS - 1).min(latest);
    let transfer = Transfer::SIGNATURE_HASH;
    let opening = batch.call(
        "eth_getLogs",
        json!([transfers(token, json!([transfer]), opened, last_opening)]),
    );
    let bought =
        (rows.early.iter()).any(|h| h.first_block >= opened && sources.contains(&h.first_from));
    let window = if bought {
        opened.saturating_sub(limits.window_blocks)..=last_opening
    } else {
        opened..=opened
    };
    let blocks = window
        .map(|n| batch.call("eth_getBlockByNumber", json!([BlockTag::Number(n), true])))
        .collect();
    let creator_logs = (opened < latest).then(|| {
        let out = json!([transfer, address_topic(creator)]);
        batch.call(
            "eth_getLogs",
            json!([transfers(token, out, opened + 1, latest)]),
        )
    });
    Ok(Planned {
        opened,
        creator,
        opening,
        blocks,
        creator_logs,
    })
}

impl Planned {
    /// The answers; a refusal is recorded against the checks it costs.
    pub fn take(self, answers: &mut Answers, gaps: &mut Gaps) -> Result<Reads, RpcError> {
        let opened = self.opened;
        let opening = gaps.keep(
            answers.take(self.opening),
            || format!("eth_getLogs(Transfer) of the opening blocks from {opened}"),
            &[gaps::LAUNCH],
        )?;
        let mut blocks = Some(Vec::new());
        for slot in self.blocks {
            let block = gaps.keep(
                answers.take(slot),
                || "eth_getBlockByNumber(the launch window, with transactions)".into(),
                &[gaps::LAUNCH],
            )?;
            blocks = blocks.zip(block).map(|(mut all, b)| {
                all.push(b);
                all
            });
        }
        let creator = match self.creator_logs {
            None => Some(Vec::new()),
            Some(out) => {
                let creator = self.creator;
                let what = || {
                    format!("eth_getLogs(Transfer) from the creator {creator:#x} since the opening")
                };
                gaps.keep(answers.take(out), what, &[gaps::CREATOR_SALES])?
            }
        };
        Ok(Reads {
            opening,
            blocks,
            creator,
        })
    }
}
