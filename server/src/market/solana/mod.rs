//! The market index on Solana, read through standard JSON-RPC on the
//! chain's background client. Each configured DEX program is a source with
//! its own cursor: its signatures since the last one read
//! (`getSignaturesForAddress … until`, at `confirmed`; a signature counts
//! once it is `reorg_depth` slots deep), then their transactions
//! (`getTransaction`, jsonParsed), oldest first, at most
//! `max_blocks_per_poll` a source and a poll, every source's in one batch.
//! - pump.fun: the mints its `create` initialises are new tokens; its
//!   `TradeEvent`s are swaps (`pump`).
//! - Every AMM (PumpSwap, Raydium, Orca, Meteora): what each transaction did
//!   to its pools, from their balances (`amms`): a pool's first liquidity
//!   makes its token new (a graduation from a curve too), swaps of tracked
//!   tokens are stored with the pool's quote reserve, and a withdrawal that
//!   takes half or more of it raises `liquidity_removed`.
//!
//! The first request also reads the tracked mints' accounts (`watch`): a
//! mint whose account changed is re-analysed at once. The cursor keeps the
//! last signature read and the slot after it, stored with the swaps: a
//! signature is read once, and tracking and alerts are keyed, so restarts
//! and instances never count or alert twice.

mod amms;
mod pump;
mod watch;

use std::collections::HashSet;

use serde_json::json;

use super::indexer::{Indexer, IndexerError};
use riskintel_analysis::tokens::solana::liquidity::read_sol_price;
use riskintel_chains::rpc::{Batch, Slot};
use riskintel_chains::solana::pools::Family;
use riskintel_chains::solana::transaction::ParsedTransaction;
use riskintel_chains::solana::types::SignatureInfo;
use riskintel_chains::solana::{self as sol, Pubkey, SolanaChain};
use riskintel_chains::Chain;
use riskintel_store::{Cursor, SwapRow, TrackedSource, TrackedToken};

/// Signatures in a page (the most a node lists at once).
const PAGE: u64 = 1000;
/// Pages of signatures listed per source and poll at most.
const PAGES: usize = 5;

/// A program the index reads, and its cursor.
struct Source {
    family: Family,
    program: Pubkey,
    /// The program's address, base58.
    address: String,
    name: String,
    cursor: Option<Cursor>,
}

impl Source {
    /// `getSignaturesForAddress`'s parameters: one page after the cursor,
    /// `before` a signature where given.
    fn page(&self, before: Option<&str>) -> serde_json::Value {
        let mut options = json!({"limit": PAGE, "commitment": "confirmed"});
        if let Some(c) = self.cursor.as_ref().filter(|c| !c.last_hash.is_empty()) {
            options["until"] = json!(c.last_hash);
        }
        if let Some(before) = before {
            options["before"] = json!(before);
        }
        json!([self.address, options])
    }
}

/// A source's transactions read this poll (an AMM's with what each did to
/// its pools), and the last signature listed.
struct Read {
    source: usize,
    last: SignatureInfo,
    txs: Vec<ParsedTransaction>,
    moves: Vec<Vec<amms::PoolMove>>,
}

/// A swap valued in its quote: SOL (priced once a poll, where any is) or
/// a stablecoin's dollars.
struct Quoted {
    row: SwapRow,
    in_sol: bool,
}

impl Indexer {
    /// One poll of Solana: every source since its cursor, and the tracked
    /// mints whose accounts changed since the last poll.
    pub async fn poll_solana(&self, chain: &SolanaChain) -> Result<(), IndexerError> {
        let mut sources = Vec::new();
        for family in Family::ALL {
            let Some(dex) = chain.dex(family) else {
                continue;
            };
            let name = format!("market:{}", family.slug());
            let cursor = self.store.cursor_get(Chain::Sol, &name).await?;
            sources.push(Source {
                family,
                program: dex.program,
                address: sol::encode(&dex.program),
                name,
                cursor,
            });
        }
        // The signatures, the confirmed slot and the watched mints, in one request.
        let mut batch = Batch::new();
        let listings: Vec<Slot<Vec<SignatureInfo>>> = (sources.iter())
            .map(|s| batch.call("getSignaturesForAddress", s.page(None)))
            .collect();
        let head = batch.call::<u64>("getSlot", json!([{"commitment": "confirmed"}]));
        let watched = self.watch(&mut batch).await?;
        let mut answers = chain.background.send(batch).await?;
        let changed = self.changed(&mut answers, watched)?;
        let head = answers.take(head)?;
        let budget = self.settings.max_blocks_per_poll.max(1) as usize;
        let mut lists = Vec::new();
        for listing in listings {
            lists.push(answers.take(listing)?);
        }
        self.older_pages(chain, &sources, &mut lists).await?;
        let mut batch = Batch::new();
        let mut planned = Vec::new();
        // Slots between the head and the oldest signature a poll had to leave.
        let mut lag = 0;
        for (i, list) in lists.into_iter().enumerate() {
            let mut listed: Vec<SignatureInfo> = list.into_iter().rev().collect();
            // Only what is `reorg_depth` slots deep is final: newer ones
            // wait for a later poll (the cursor stays before them).
            listed.retain(|s| s.slot.saturating_add(self.settings.reorg_depth) <= head);
            // On first start, only the last `backfill_blocks` slots.
            if sources[i].cursor.is_none() {
                let newest = listed.last().map_or(0, |s| s.slot);
                let from = newest.saturating_sub(self.settings.backfill_blocks);
                listed.retain(|s| s.slot >= from);
            }
            let left = listed.get(budget).map(|s| s.slot);
            listed.truncate(budget);
            let Some(last) = listed.last().cloned() else {
                continue;
            };
            if let Some(slot) = left {
                lag = lag.max(head.saturating_sub(slot));
            }
            let reads: Vec<Slot<Option<ParsedTransaction>>> = (listed.iter())
                .filter(|s| s.succeeded())
                .map(|s| {
                    batch.call(
                        "getTransaction",
                        json!([s.signature, {"encoding": "jsonParsed", "maxSupportedTransactionVersion": 0, "commitment": "confirmed"}]),
                    )
                })
                .collect();
            planned.push((i, last, reads));
        }
        chain.index_lag.set(Chain::Sol, lag);
        if planned.is_empty() {
            return self.reanalyse(Chain::Sol, changed, Vec::new()).await;
        }
        let mut answers = chain.background.send(batch).await?;
        let quotes: amms::Quotes = std::iter::once((sol::encode(&chain.wsol), false))
            .chain(chain.stables.iter().map(|(s, _)| (sol::encode(s), true)))
            .collect();
        let mut read = Vec::new();
        for (source, last, reads) in planned {
            let s = &sources[source];
            let mut txs = Vec::new();
            for slot in reads {
                // A transaction the node no longer has is not one to index.
                if let Some(tx) = answers.take(slot)? {
                    if tx.succeeded() && tx.invokes(&s.address) {
                        txs.push(tx);
                    }
                }
            }
            let moves = match s.family {
                Family::PumpFun => Vec::new(),
                _ => (txs.iter())
                    .map(|tx| amms::moves(tx, &quotes, &s.address))
                    .collect(),
            };
            read.push(Read {
                source,
                last,
                txs,
                moves,
            });
        }
        // New tokens first, so their trades in the same poll count.
        let mut marked = changed;
        for r in &read {
            let source = &sources[r.source];
            let pump = source.family == Family::PumpFun;
            for (n, tx) in r.txs.iter().enumerate() {
                let new = if pump {
                    // Only a mint the create handed to its own curve (never
                    // a graduation's LP mint).
                    (tx.initialized_mints().into_iter())
                        .filter(|m| curve_holds(tx, m, &source.program))
                        .collect()
                } else {
                    amms::opened(&r.moves[n])
                };
                for mint in new {
                    if self.track(&mint, tx.slot).await? {
                        marked.insert(mint, true);
                    } else if !pump {
                        // A tracked token's new pool (a curve's graduation):
                        // its liquidity moved, so it is analysed again now.
                        marked.entry(mint).or_insert(false);
                    }
                }
            }
        }
        let tracked: HashSet<String> = (self.store.tracked_tokens(Some(Chain::Sol)).await?)
            .into_iter()
            .map(|t| t.token)
            .collect();
        let now = self.clock.now_seconds();
        let found: Vec<_> = (read.iter())
            .map(|r| {
                let source = &sources[r.source];
                match source.family {
                    Family::PumpFun => (
                        pump::trades(&source.program, &r.txs, &tracked, now),
                        Vec::new(),
                        Vec::new(),
                    ),
                    _ => amms::rows(&r.txs, &r.moves, &tracked, now),
                }
            })
            .collect();
        // SOL's price, read once, only when a swap is in SOL.
        let in_sol = found.iter().flat_map(|(q, _, _)| q).any(|q| q.in_sol);
        let sol_usd = match in_sol {
            true => read_sol_price(chain, &chain.background)
                .await?
                .unwrap_or(0.0),
            false => 0.0,
        };
        let mut drops = Vec::new();
        for (r, (quoted, syncs, pulled)) in read.iter().zip(found) {
            let source = &sources[r.source];
            let swaps: Vec<SwapRow> = (quoted.into_iter())
                .map(|Quoted { mut row, in_sol }| {
                    if in_sol {
                        row.amount_usd *= sol_usd;
                        row.price_usd *= sol_usd;
                    }
                    row
                })
                .collect();
            let expected = source.cursor.as_ref().map(|c| c.next_block);
            let next = (r.last.slot + 1) as i64;
            let advanced = self
                .store
                .cursor_advance(
                    Chain::Sol,
                    &source.name,
                    expected,
                    next,
                    &r.last.signature,
                    &swaps,
                    &syncs,
                )
                .await?;
            // Another instance read these first: its alerts stand.
            if advanced {
                for (mint, _) in &pulled {
                    marked.entry(mint.clone()).or_insert(false);
                }
                drops.extend(pulled);
            }
        }
        self.reanalyse(Chain::Sol, marked, drops).await
    }

    /// Page back (`before` the oldest listed, `until` the cursor) while a
    /// source's last page was full, up to `PAGES` pages in all, every
    /// source's next page in one request: so a busy program's signatures
    /// are read from the cursor on, oldest first, rather than only its
    /// newest page (past `PAGES` pages, the older ones are skipped).
    async fn older_pages(
        &self,
        chain: &SolanaChain,
        sources: &[Source],
        lists: &mut [Vec<SignatureInfo>],
    ) -> Result<(), IndexerError> {
        let mut full: Vec<bool> = lists.iter().map(|l| l.len() as u64 == PAGE).collect();
        for _ in 1..PAGES {
            let mut batch = Batch::new();
            let pages: Vec<(usize, Slot<Vec<SignatureInfo>>)> = (0..lists.len())
                .filter(|i| full[*i])
                .filter_map(|i| {
                    let oldest = lists[i].last()?.signature.clone();
                    Some((
                        i,
                        batch.call("getSignaturesForAddress", sources[i].page(Some(&oldest))),
                    ))
                })
                .collect();
            if pages.is_empty() {
                break;
            }
            let mut answers = chain.background.send(batch).await?;
            for (i, slot) in pages {
                let page = answers.take(slot)?;
                full[i] = page.len() as u64 == PAGE;
                lists[i].extend(page);
            }
        }
        Ok(())
    }

    /// Track `mint`, first seen at `slot`; true when it was not tracked.
    async fn track(&self, mint: &str, slot: u64) -> Result<bool, IndexerError> {
        Ok(self
            .store
            .tracked_token_add(&TrackedToken {
                chain: Chain::Sol,
                token: mint.to_string(),
                source: TrackedSource::PairCreated,
                first_seen_block: slot as i64,
                added_at: self.clock.now_seconds(),
                last_analysed_at: None,
            })
            .await?)
    }
}

/// Whether `tx` left tokens of `mint` with its pump.fun curve.
fn curve_holds(tx: &ParsedTransaction, mint: &str, program: &Pubkey) -> bool {
    let Some(curve) = (sol::parse_pubkey(mint).ok())
        .and_then(|m| riskintel_chains::solana::pools::pump::curve_address(&m, program))
    else {
        return false;
    };
    let curve = sol::encode(&curve);
    (tx.token_accounts(mint).iter())
        .any(|a| a.owner.as_deref() == Some(curve.as_str()) && a.after > 0)
}

/// A transaction's place among its slot's, which a node does not give:
/// from its signature (times 256, leaving room for the events within it).
fn tag_of(tx: &ParsedTransaction) -> i64 {
    let signature = (tx.transaction.signatures.first()).map_or("", String::as_str);
    i64::from(fnv1a(signature.as_bytes())) * 256
}

/// 32-bit FNV-1a: a stable number for a signature (a trade's place in its
/// slot, which a node does not give).
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(*b)).wrapping_mul(0x0100_0193)
    })
}
