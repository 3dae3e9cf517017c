//! The market index on Solana: new mints from pump.fun's `create`, read
//! through standard JSON-RPC — the program's signatures since the last one
//! read (`getSignaturesForAddress … until`), then their transactions
//! (`getTransaction`, jsonParsed) in one batch, oldest first and at most
//! `max_blocks_per_poll` a poll. The cursor keeps the last signature read
//! and the slot after it; a signature is read once (a skipped or
//! re-organised slot never lists it twice), and a mint is tracked, and its
//! `new_token` alert raised, once across restarts and instances.

use std::collections::BTreeMap;

use serde_json::json;

use super::indexer::{Indexer, IndexerError};
use riskintel_chains::rpc::Batch;
use riskintel_chains::solana::pools::Family;
use riskintel_chains::solana::transaction::ParsedTransaction;
use riskintel_chains::solana::types::SignatureInfo;
use riskintel_chains::solana::{self as sol, SolanaChain};
use riskintel_chains::Chain;
use riskintel_store::{TrackedSource, TrackedToken};

/// The cursor's name.
const SOURCE: &str = "market:pump_fun";
/// Signatures listed per poll at most (one page).
const PAGE: u64 = 1000;

impl Indexer {
    /// One poll of Solana: pump.fun's new mints since the cursor.
    pub async fn poll_solana(&self, chain: &SolanaChain) -> Result<(), IndexerError> {
        let Some(pump) = chain.dex(Family::PumpFun) else {
            return self
                .reanalyse(Chain::Sol, BTreeMap::new(), Vec::new())
                .await;
        };
        let program = sol::encode(&pump.program);
        let cursor = self.store.cursor_get(Chain::Sol, SOURCE).await?;
        let mut options = json!({"limit": PAGE, "commitment": "confirmed"});
        let first = cursor.is_none();
        if let Some(c) = cursor.as_ref().filter(|c| !c.last_hash.is_empty()) {
            options["until"] = json!(c.last_hash);
        }
        let listed: Vec<SignatureInfo> = chain
            .rpc
            .call("getSignaturesForAddress", json!([program, options]))
            .await?;
        let mut listed: Vec<SignatureInfo> = listed.into_iter().rev().collect();
        // On first start, only the last `backfill_blocks` slots.
        if first {
            let newest = listed.last().map_or(0, |s| s.slot);
            let from = newest.saturating_sub(self.settings.backfill_blocks);
            listed.retain(|s| s.slot >= from);
        }
        let budget = self.settings.max_blocks_per_poll.max(1) as usize;
        listed.truncate(budget);
        let Some(last) = listed.last().cloned() else {
            return self
                .reanalyse(Chain::Sol, BTreeMap::new(), Vec::new())
                .await;
        };
        let mut batch = Batch::new();
        let reads: Vec<_> = (listed.iter())
            .filter(|s| s.succeeded())
            .map(|s| {
                batch.call::<Option<ParsedTransaction>>(
                    "getTransaction",
                    json!([s.signature, {"encoding": "jsonParsed", "maxSupportedTransactionVersion": 0, "commitment": "confirmed"}]),
                )
            })
            .collect();
        let mut answers = chain.rpc.send(batch).await?;
        let now = self.clock.now_seconds();
        let mut marked: BTreeMap<String, bool> = BTreeMap::new();
        for read in reads {
            // A transaction the node no longer has is not one to index.
            let Some(tx) = answers.take(read)? else {
                continue;
            };
            if !tx.succeeded() || !tx.invokes(&program) {
                continue;
            }
            for mint in tx.initialized_mints() {
                let new = self
                    .store
                    .tracked_token_add(&TrackedToken {
                        chain: Chain::Sol,
                        token: mint.clone(),
                        source: TrackedSource::PairCreated,
                        first_seen_block: tx.slot as i64,
                        added_at: now,
                        last_analysed_at: None,
                    })
                    .await?;
                if new {
                    marked.insert(mint, true);
                }
            }
        }
        let expected = cursor.as_ref().map(|c| c.next_block);
        let next = (last.slot + 1) as i64;
        if !self
            .store
            .cursor_advance(
                Chain::Sol,
                SOURCE,
                expected,
                next,
                &last.signature,
                &[],
                &[],
            )
            .await?
        {
            // Another instance read these first; its alerts stand.
            return Ok(());
        }
        self.reanalyse(Chain::Sol, marked, Vec::new()).await
    }
}
