//! The launch's reads, sent beside the last round's batch (no extra round
//! trip) as a request of their own, so that a slow or refused launch read
//! costs only the launch checks: the opening blocks' transfers, the launch
//! window's blocks with their transactions, the creator's code, and the
//! creator's transfers and the pools' liquidity adds since the opening.

use alloy_primitives::{Address, Bytes, B256};
use alloy_sol_types::SolEvent;
use serde_json::{json, Value};

use super::classify::{classify, Parties};
use super::{Launch, LaunchLimits, Sell, OPENING_BLOCKS};
use crate::tokens::evm::gaps::{self, Gaps};
use crate::tokens::evm::holders::HolderIndex;
use riskintel_chains::evm::abi::IUniswapV2Pair;
use riskintel_chains::evm::abi::IERC20::Transfer;
use riskintel_chains::evm::logs::filter;
use riskintel_chains::evm::pools::v3::IUniswapV3Pool;
use riskintel_chains::evm::pools::v4::IPoolManager;
use riskintel_chains::evm::types::{address_topic, Block, BlockTag, FullBlock, Log};
use riskintel_chains::evm::{EvmChain, DEAD};
use riskintel_chains::rpc::{Answers, Batch, RpcError, Slot};

/// What the launch reads found; a refused read is None (its checks are a gap).
#[derive(Clone, Debug, Default)]
pub struct Reads {
    /// The token's transfers in the opening blocks.
    pub opening: Option<Vec<Log>>,
    /// The launch window's blocks, with their transactions.
    pub blocks: Option<Vec<FullBlock>>,
    /// Whether the creator is a contract (a launchpad, a sale): its transfers are sales.
    pub creator_is_contract: Option<bool>,
    /// The creator's transfers out since the opening block, less those of
    /// transactions that added liquidity to a pool.
    pub creator: Option<Vec<Log>>,
}

/// The launch reads in a batch.
struct Planned {
    opened: u64,
    creator: Address,
    opening: Slot<Vec<Log>>,
    blocks: Vec<Slot<FullBlock>>,
    code: Slot<Bytes>,
    creator_logs: Option<(Slot<Vec<Log>>, Slot<Vec<Log>>)>,
}

/// The events a pool logs when liquidity is added: V2 `Mint`, V3 `Mint`, V4 `ModifyLiquidity`.
fn liquidity_topics() -> [B256; 3] {
    [
        IUniswapV2Pair::Mint::SIGNATURE_HASH,
        IUniswapV3Pool::Mint::SIGNATURE_HASH,
        IPoolManager::ModifyLiquidity::SIGNATURE_HASH,
    ]
}

/// `eth_getLogs`'s parameters: `address`'s logs with `topics` over `from..=to`.
fn logs(address: Value, topics: Value, from: u64, to: u64) -> Value {
    let mut filter = filter(Some(address), topics);
    filter["fromBlock"] = json!(BlockTag::Number(from));
    filter["toBlock"] = json!(BlockTag::Number(to));
    json!([filter])
}

/// Who holds the supply since `token`'s launch, as of block `latest`
/// (`sources`: its pools and routers; `owner`: its active owner); or why
/// that cannot be judged. The reads the node refused are in the gaps.
#[allow(clippy::too_many_arguments)]
pub async fn read(
    chain: &EvmChain,
    token: Address,
    index: &HolderIndex,
    sources: &[Address],
    owner: Option<Address>,
    latest: u64,
    limits: LaunchLimits,
) -> (Result<Launch, String>, Gaps) {
    let mut gaps = Gaps::default();
    let mut batch = Batch::new();
    let planned = match plan(token, index, sources, latest, limits, &mut batch) {
        Ok(planned) => planned,
        Err(reason) => return (Err(reason), gaps),
    };
    let reads = match chain.rpc.send(batch).await {
        Ok(mut answers) => planned.take(&mut answers, &mut gaps),
        Err(e) => Err(e),
    };
    let reads = reads.unwrap_or_else(|e| {
        gaps.refused(
            &[gaps::LAUNCH, gaps::CREATOR_SALES],
            format!("the launch reads failed ({e})"),
        );
        Reads::default()
    });
    // Contracts a DEX runs (factories, the V4 PoolManager, routers,
    // position managers) and lockers are never members.
    let mut excluded: Vec<Address> = [DEAD, Address::ZERO].into();
    excluded.extend(&chain.lockers);
    for dex in &chain.dexes {
        excluded.extend([dex.factory, dex.router]);
        excluded.extend(dex.position_manager);
    }
    let (Some(rows), Some(creator)) = (&index.launch, index.creator) else {
        return (Err("the holder index names no launch".into()), gaps);
    };
    let parties = Parties {
        token,
        creator,
        owner,
        sources,
        excluded: &excluded,
        cap: limits.holders,
    };
    let mut launch = classify(&parties, rows, &reads);
    if let Some(sales) = &mut launch.sales {
        date_sells(chain, &mut sales.sells, &mut gaps).await;
    }
    (Ok(launch), gaps)
}

/// Most the blocks read for the times of sells whose logs did not say them.
const SELL_BLOCKS_READ: usize = 32;

/// The time of each sell whose log did not say it (older nodes leave out
/// `blockTimestamp`), from its block's header: one more request, sent only
/// then. Past [`SELL_BLOCKS_READ`] distinct blocks, blocks spread evenly
/// over the sells are read, and the rest stay undated (times only grow
/// with the block, so a day's end is still found when it falls between
/// two read blocks that lie on either side of it). A refusal leaves them
/// undated; `creator_sold` then says so.
async fn date_sells(chain: &EvmChain, sells: &mut [Sell], gaps: &mut Gaps) {
    let mut undated: Vec<u64> = (sells.iter())
        .filter(|s| s.time.is_none())
        .map(|s| s.block)
        .collect();
    undated.dedup();
    if undated.is_empty() {
        return;
    }
    let step = undated.len().div_ceil(SELL_BLOCKS_READ);
    let last = undated[undated.len() - 1];
    let mut chosen: Vec<u64> = undated.iter().step_by(step).copied().collect();
    if chosen.last() != Some(&last) {
        chosen.push(last);
    }
    let mut batch = Batch::new();
    let slots: Vec<Slot<Block>> = (chosen.iter())
        .map(|n| batch.call("eth_getBlockByNumber", json!([BlockTag::Number(*n), false])))
        .collect();
    let times = match chain.rpc.send(batch).await {
        Ok(mut answers) => slots
            .into_iter()
            .map(|slot| answers.take(slot).map(|b| (b.number(), b.time())))
            .collect::<Result<Vec<_>, _>>(),
        Err(e) => Err(e),
    };
    match times {
        Ok(times) => {
            for sell in sells.iter_mut().filter(|s| s.time.is_none()) {
                sell.time = (times.iter())
                    .find(|(block, _)| *block == sell.block)
                    .map(|(_, time)| *time);
            }
        }
        Err(e) => gaps.refused(
            &[gaps::CREATOR_SALES],
            format!("eth_getBlockByNumber(the blocks of the creator's sells) failed ({e})"),
        ),
    }
}

/// Plan the launch reads; or why the launch cannot be judged (the checks
/// are then `unknown` with that reason). When the index shows nobody
/// bought in the opening blocks, only the opening block is read (its time).
fn plan(
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
    let rows = match &index.launch {
        Some(rows) if rows.opened <= latest => rows,
        _ => return Err("no pool has received the token yet: it has not launched".into()),
    };
    let opened = rows.opened;
    let last_opening = (opened + OPENING_BLOCKS - 1).min(latest);
    let transfer = Transfer::SIGNATURE_HASH;
    let opening = batch.call(
        "eth_getLogs",
        logs(json!(token), json!([transfer]), opened, last_opening),
    );
    // A full list may hide buyers behind the earliest holders.
    let bought = rows.early.len() >= limits.holders
        || (rows.early.iter()).any(|h| h.first_block >= opened && sources.contains(&h.first_from));
    let window = if bought {
        opened.saturating_sub(limits.window_blocks)..=last_opening
    } else {
        opened..=opened
    };
    let blocks = window
        .map(|n| batch.call("eth_getBlockByNumber", json!([BlockTag::Number(n), true])))
        .collect();
    let code = batch.call("eth_getCode", json!([creator, BlockTag::Number(latest)]));
    let creator_logs = (opened < latest).then(|| {
        let out = json!([transfer, address_topic(creator)]);
        let adds = json!([liquidity_topics()]);
        (
            batch.call("eth_getLogs", logs(json!(token), out, opened + 1, latest)),
            batch.call(
                "eth_getLogs",
                logs(json!(sources), adds, opened + 1, latest),
            ),
        )
    });
    Ok(Planned {
        opened,
        creator,
        opening,
        blocks,
        code,
        creator_logs,
    })
}

impl Planned {
    /// The answers; a refusal is recorded against the checks it costs.
    fn take(self, answers: &mut Answers, gaps: &mut Gaps) -> Result<Reads, RpcError> {
        let opened = self.opened;
        let opening = gaps.keep(
            answers.take(self.opening),
            || format!("eth_getLogs(Transfer) of the opening blocks from {opened}"),
            &[gaps::LAUNCH],
        )?;
        let mut blocks = Some(Vec::new());
        for slot in self.blocks {
            // The opening block's time dates the creator's sells too.
            let block = gaps.keep(
                answers.take(slot),
                || "eth_getBlockByNumber(the launch window, with transactions)".into(),
                &[gaps::LAUNCH, gaps::CREATOR_SALES],
            )?;
            blocks = blocks.zip(block).map(|(mut all, b)| {
                all.push(b);
                all
            });
        }
        let creator = self.creator;
        let code = gaps.keep(
            answers.take(self.code),
            || format!("eth_getCode(the creator {creator:#x})"),
            &[gaps::LAUNCH, gaps::CREATOR_SALES],
        )?;
        let sells = match self.creator_logs {
            None => Some(Vec::new()),
            Some((out, adds)) => {
                let what = || {
                    format!("eth_getLogs(Transfer) from the creator {creator:#x} and the pools' liquidity adds since the opening")
                };
                let out = gaps.keep(answers.take(out), what, &[gaps::CREATOR_SALES])?;
                let adds = gaps.keep(answers.take(adds), what, &[gaps::CREATOR_SALES])?;
                out.zip(adds).map(|(out, adds)| {
                    let added: Vec<_> = adds.iter().filter_map(|l| l.transaction_hash).collect();
                    out.into_iter()
                        .filter(|l| !l.transaction_hash.is_some_and(|h| added.contains(&h)))
                        .collect()
                })
            }
        };
        Ok(Reads {
            opening,
            blocks,
            creator_is_contract: code.map(|c| !c.is_empty()),
            creator: sells,
        })
    }
}
