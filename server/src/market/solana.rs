//! The market index on Solana: new mints from pump.fun's `create` and the
//! trades of tracked mints on their curves (`TradeEvent`), read through
//! standard JSON-RPC on the chain's background client — the program's
//! signatures since the last one read (`getSignaturesForAddress … until`),
//! then their transactions (`getTransaction`, jsonParsed) in one batch,
//! oldest first and at most `max_blocks_per_poll` a poll, once
//! `reorg_depth` slots deep. The cursor keeps the last signature read and
//! the slot after it; a signature is read once (a skipped or re-organised
//! slot never lists it twice), and a mint is tracked, and its `new_token`
//! alert raised, once across restarts and instances. The same request
//! reads the tracked mints' accounts: a mint whose account changed since
//! the last poll (an authority set or handed on, a Token-2022 fee, hook,
//! delegate or metadata changed) is re-analysed at once, and the
//! re-analysis raises what changed (`feed::powers`).

use std::collections::{BTreeMap, HashSet};

use serde_json::json;

use super::indexer::{Indexer, IndexerError};
use riskintel_analysis::tokens::solana::liquidity::read_sol_price;
use riskintel_chains::rpc::{Answers, Batch, Slot};
use riskintel_chains::solana::pools::{pump, pump_trades, Family};
use riskintel_chains::solana::transaction::ParsedTransaction;
use riskintel_chains::solana::types::SignatureInfo;
use riskintel_chains::solana::types::WithContext;
use riskintel_chains::solana::Account;
use riskintel_chains::solana::{self as sol, Pubkey, SolanaChain};
use riskintel_chains::Chain;
use riskintel_store::{Side, SwapRow, TrackedSource, TrackedToken};
use sha2::{Digest, Sha256};

/// The cursor's name.
const SOURCE: &str = "market:pump_fun";
/// Signatures listed per poll at most (one page).
const PAGE: u64 = 1000;
/// Tracked mints whose accounts each poll reads, at most.
const WATCHED: usize = 1000;

/// The watched mints' reads: the keys of each `getMultipleAccounts`.
type Watched = Vec<(Vec<String>, Slot<WithContext<Vec<Option<Account>>>>)>;

impl Indexer {
    /// One poll of Solana: pump.fun's new mints since the cursor, and the
    /// tracked mints whose accounts changed since the last poll.
    pub async fn poll_solana(&self, chain: &SolanaChain) -> Result<(), IndexerError> {
        let pump = chain.dex(Family::PumpFun);
        let program = pump.map(|p| sol::encode(&p.program)).unwrap_or_default();
        let cursor = self.store.cursor_get(Chain::Sol, SOURCE).await?;
        let mut options = json!({"limit": PAGE, "commitment": "confirmed"});
        let first = cursor.is_none();
        if let Some(c) = cursor.as_ref().filter(|c| !c.last_hash.is_empty()) {
            options["until"] = json!(c.last_hash);
        }
        // The signatures, the confirmed slot and the watched mints, in one request.
        let mut batch = Batch::new();
        let signatures = pump.map(|_| {
            batch.call::<Vec<SignatureInfo>>("getSignaturesForAddress", json!([program, options]))
        });
        let head = batch.call::<u64>("getSlot", json!([{"commitment": "confirmed"}]));
        let watched = self.watch(&mut batch).await?;
        let mut answers = chain.background.send(batch).await?;
        let changed = self.changed(&mut answers, watched)?;
        let (Some(pump), Some(signatures)) = (pump, signatures) else {
            return self.reanalyse(Chain::Sol, changed, Vec::new()).await;
        };
        let listed = answers.take(signatures)?;
        let head = answers.take(head)?;
        let mut listed: Vec<SignatureInfo> = listed.into_iter().rev().collect();
        // Only what is `reorg_depth` slots deep is final: newer ones wait
        // for a later poll (the cursor stays before them).
        listed.retain(|s| s.slot.saturating_add(self.settings.reorg_depth) <= head);
        // On first start, only the last `backfill_blocks` slots.
        if first {
            let newest = listed.last().map_or(0, |s| s.slot);
            let from = newest.saturating_sub(self.settings.backfill_blocks);
            listed.retain(|s| s.slot >= from);
        }
        let budget = self.settings.max_blocks_per_poll.max(1) as usize;
        listed.truncate(budget);
        let Some(last) = listed.last().cloned() else {
            return self.reanalyse(Chain::Sol, changed, Vec::new()).await;
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
        let mut answers = chain.background.send(batch).await?;
        let mut txs: Vec<ParsedTransaction> = Vec::new();
        for read in reads {
            // A transaction the node no longer has is not one to index.
            if let Some(tx) = answers.take(read)? {
                if tx.succeeded() && tx.invokes(&program) {
                    txs.push(tx);
                }
            }
        }
        let now = self.clock.now_seconds();
        // New mints first, so their trades in the same poll count.
        let mut marked: BTreeMap<String, bool> = changed.clone();
        for tx in &txs {
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
        let swaps = self.trades(chain, &pump.program, &txs, now).await?;
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
                &swaps,
                &[],
            )
            .await?
        {
            // Another instance read these first; its alerts stand (a
            // changed mint's are keyed by the change: stored once).
            return self.reanalyse(Chain::Sol, changed, Vec::new()).await;
        }
        self.reanalyse(Chain::Sol, marked, Vec::new()).await
    }

    /// Ask, in `batch`, for the accounts of the tracked mints (at most
    /// `WATCHED`, in chunks of `getMultipleAccounts`' 100).
    async fn watch(&self, batch: &mut Batch) -> Result<Watched, IndexerError> {
        let mints: Vec<String> = (self.store.tracked_tokens(Some(Chain::Sol)).await?)
            .into_iter()
            .map(|t| t.token)
            .take(WATCHED)
            .collect();
        Ok(mints
            .chunks(100)
            .map(|keys| {
                let params = json!([keys, {"encoding": "base64", "commitment": "confirmed"}]);
                (keys.to_vec(), batch.call("getMultipleAccounts", params))
            })
            .collect())
    }

    /// The watched mints whose accounts differ from the last poll's read
    /// (an authority set or handed on, a fee, hook, delegate or metadata
    /// changed), marked for re-analysis now. The first read of a mint only
    /// remembers it.
    fn changed(
        &self,
        answers: &mut Answers,
        watched: Watched,
    ) -> Result<BTreeMap<String, bool>, IndexerError> {
        let mut changed = BTreeMap::new();
        let mut seen = self.mints_seen.lock().unwrap_or_else(|e| e.into_inner());
        for (keys, slot) in watched {
            let accounts = answers.take(slot)?.value;
            for (mint, account) in keys.into_iter().zip(accounts) {
                let Some(account) = account else { continue };
                let hash: [u8; 32] = Sha256::digest(&account.data).into();
                if seen
                    .insert(mint.clone(), hash)
                    .is_some_and(|was| was != hash)
                {
                    changed.insert(mint, false);
                }
            }
        }
        Ok(changed)
    }

    /// The curve trades of tracked mints in `txs`, valued at SOL's price now.
    async fn trades(
        &self,
        chain: &SolanaChain,
        program: &Pubkey,
        txs: &[ParsedTransaction],
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<SwapRow>, IndexerError> {
        let tracked: HashSet<String> = (self.store.tracked_tokens(Some(Chain::Sol)).await?)
            .into_iter()
            .map(|t| t.token)
            .collect();
        let program_text = sol::encode(program);
        let found: Vec<(&ParsedTransaction, usize, pump_trades::Trade)> = (txs.iter())
            .flat_map(|tx| {
                (pump_trades::trades(tx, &program_text)
                    .into_iter()
                    .enumerate())
                .map(move |(i, t)| (tx, i, t))
            })
            .filter(|(_, _, t)| tracked.contains(&sol::encode(&t.mint)))
            .collect();
        if found.is_empty() {
            return Ok(Vec::new());
        }
        let sol_usd = read_sol_price(chain, &chain.background)
            .await?
            .unwrap_or(0.0);
        let mut swaps = Vec::new();
        for (tx, i, trade) in found {
            let mint = sol::encode(&trade.mint);
            let decimals = tx.decimals_of(&mint).unwrap_or(6);
            let amount_token = trade.token_amount as f64 / 10f64.powi(decimals as i32);
            if amount_token <= 0.0 {
                continue;
            }
            let amount_usd = trade.sol_amount as f64 / 1e9 * sol_usd;
            // Unique per trade whatever the slot's order: from the signature.
            let signature = tx
                .transaction
                .signatures
                .first()
                .map(String::as_str)
                .unwrap_or_default();
            let tag = fnv1a(signature.as_bytes());
            swaps.push(SwapRow {
                chain: Chain::Sol,
                pair: pump::curve_address(&trade.mint, program)
                    .map(|c| sol::encode(&c))
                    .unwrap_or_default(),
                block: tx.slot as i64,
                log_index: i64::from(tag) * 256 + i as i64,
                token: mint,
                trader: sol::encode(&trade.user),
                side: if trade.is_buy { Side::Buy } else { Side::Sell },
                amount_token,
                amount_usd,
                price_usd: amount_usd / amount_token,
                observed_at: now,
            });
        }
        Ok(swaps)
    }
}

/// 32-bit FNV-1a: a stable number for a signature (a trade's place in its
/// slot, which a node does not give).
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(*b)).wrapping_mul(0x0100_0193)
    })
}
