//! The market index, a background part of `serve`: per EVM chain (Solana:
//! `solana`), follow the
//! new pools of every configured factory and PoolManager (new tokens), the
//! swaps of tracked pools of every family and the syncs of pairs (volume,
//! flow, liquidity; see `pool_logs`), and owner, upgrade and
//! mint events of tracked tokens; re-analyse tracked tokens on a schedule;
//! raise alerts. Progress is stored with the swaps it read, so a restart
//! resumes without gaps or double counting; a re-organisation within
//! `reorg_depth` rewinds and re-reads. It has its own upstream clients with
//! a small concurrency cap, so user requests keep priority.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use alloy_primitives::{Address, B256};
use alloy_sol_types::SolEvent;
use serde_json::json;

use super::pool_logs;
use crate::config::MarketConfig;
use riskintel_analysis::tokens::{AnalysisError, Analyzer, TokenRef};
use riskintel_chains::evm::abi::{units, IBeacon, IERC20};
use riskintel_chains::evm::logs::{self, ScanLimits};
use riskintel_chains::evm::multicall::Multicall;
use riskintel_chains::evm::pools;
use riskintel_chains::evm::pools::events::{decode_swap, decode_sync};
use riskintel_chains::evm::types::{Block, BlockTag};
use riskintel_chains::evm::EvmChain;
use riskintel_chains::rpc::{Batch, RpcError};
use riskintel_chains::Chain;
use riskintel_store::clock::Clock;
use riskintel_store::{Side, Store, SwapRow, SyncRow, TrackedPair, TrackedSource, TrackedToken};

const SOURCE: &str = "market";

/// Why a poll failed.
#[derive(Debug, thiserror::Error)]
pub enum IndexerError {
    /// The node.
    #[error(transparent)]
    Rpc(#[from] RpcError),
    /// Analysis or storage.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    /// Storage.
    #[error(transparent)]
    Store(#[from] riskintel_store::StoreError),
}

/// Solana's watched mints: each one's metadata account (derived once) and
/// the hash of its settings as last read.
pub(super) type MintsSeen = std::collections::HashMap<String, (String, Option<[u8; 32]>)>;

/// The index over every served chain.
pub struct Indexer {
    pub(super) analyzer: Arc<Analyzer>,
    pub(super) store: Arc<dyn Store>,
    pub(super) clock: Arc<dyn Clock>,
    pub(super) settings: MarketConfig,
    /// Told when an alert is recorded (the webhook worker wakes at once).
    pub(super) alerted: Option<Arc<tokio::sync::Notify>>,
    /// Solana: the watched mints.
    pub(super) mints_seen: std::sync::Mutex<MintsSeen>,
    /// Which chains this instance indexes (`market:<chain>` leases).
    leases: crate::leases::Leases,
}

/// The hash of block `number`, or None if the chain does not reach it.
async fn block_hash(evm: &EvmChain, number: u64) -> Result<Option<B256>, RpcError> {
    let block: Option<Block> = evm
        .background
        .call(
            "eth_getBlockByNumber",
            json!([BlockTag::Number(number), false]),
        )
        .await?;
    Ok(block.map(|b| b.hash))
}

/// The longest wait between polls of a chain whose polls fail.
const MAX_POLL_BACKOFF: Duration = Duration::from_secs(300);

/// Whether the block before `next` still has the hash the cursor recorded
/// (a cursor without a hash has nothing to compare and holds).
async fn cursor_on_chain(evm: &EvmChain, next: u64, last_hash: &str) -> Result<bool, RpcError> {
    if last_hash.is_empty() || next == 0 {
        return Ok(true);
    }
    Ok(block_hash(evm, next - 1)
        .await?
        .map(|h| format!("{h:#x}"))
        .as_deref()
        == Some(last_hash))
}

impl Indexer {
    /// An index for every EVM chain `analyzer` serves, reading through
    /// each chain's background client (user requests keep priority).
    pub fn new(
        settings: &MarketConfig,
        analyzer: Arc<Analyzer>,
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
    ) -> Indexer {
        Indexer {
            analyzer,
            store,
            clock,
            settings: settings.clone(),
            alerted: None,
            mints_seen: Default::default(),
            leases: crate::leases::Leases::solo("index", []),
        }
    }

    /// Tell `alerted` whenever an alert is recorded.
    pub fn with_alert_signal(mut self, alerted: Arc<tokio::sync::Notify>) -> Indexer {
        self.alerted = Some(alerted);
        self
    }

    /// Index only the chains whose `market:<chain>` lease this instance
    /// holds in `leases` (by default, every chain).
    pub fn with_leases(mut self, leases: crate::leases::Leases) -> Indexer {
        self.leases = leases;
        self
    }

    /// Poll every chain every `poll_interval_ms` until `stop` turns true;
    /// a poll under way is finished first.
    pub async fn run(
        self: Arc<Self>,
        log: slog::Logger,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) {
        let interval = Duration::from_millis(self.settings.poll_interval_ms.max(10));
        let mut tick = tokio::time::interval(interval);
        let mut backoff: BTreeMap<Chain, (u32, tokio::time::Instant)> = BTreeMap::new();
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = stop.changed() => {}
            }
            if *stop.borrow() {
                return;
            }
            let chains: Vec<(Chain, Arc<EvmChain>)> = self
                .analyzer
                .chains()
                .evm_chains()
                .map(|(c, e)| (c, e.clone()))
                .collect();
            let solana = self.analyzer.chains().solana().ok().cloned();
            let polls = (chains.iter().map(|(c, e)| (*c, Some(e))))
                .chain(solana.iter().map(|_| (Chain::Sol, None)));
            let now = tokio::time::Instant::now();
            for (chain, evm) in polls {
                let chain = &chain;
                // While a chain's polls fail, wait longer between them
                // (doubling, capped); the log hears of the first failure
                // and of the recovery (the node's own state is logged by its circuit).
                let failing = backoff.get(chain).copied();
                if failing.is_some_and(|(_, retry_at)| now < retry_at) {
                    continue;
                }
                // Another instance leads this chain's index: stand by.
                if !self.leases.holds(&crate::leases::market(*chain)) {
                    continue;
                }
                let polled = match (evm, &solana) {
                    (Some(evm), _) => self.poll(*chain, evm).await,
                    (None, Some(solana)) => self.poll_solana(solana).await,
                    (None, None) => Ok(()),
                };
                match polled {
                    Ok(()) => {
                        if let Some((failures, _)) = backoff.remove(chain) {
                            slog::info!(log, "market index polls again"; "chain" => chain.id(), "failed_polls" => failures);
                        }
                    }
                    Err(error) => {
                        let failures = failing.map_or(1, |(n, _)| n + 1);
                        if failures == 1 {
                            slog::warn!(log, "market index poll failed; retrying with back-off"; "chain" => chain.id(), "error" => %error);
                        }
                        let wait = interval
                            .saturating_mul(1 << failures.min(16))
                            .min(MAX_POLL_BACKOFF);
                        // From the failure, not the round's start: a failing
                        // poll can take several timeouts.
                        backoff.insert(*chain, (failures, tokio::time::Instant::now() + wait));
                    }
                }
            }
        }
    }

    /// One poll of one chain.
    pub async fn poll(&self, chain: Chain, evm: &EvmChain) -> Result<(), IndexerError> {
        let head: Block = evm
            .background
            .call("eth_getBlockByNumber", json!(["latest", false]))
            .await?;
        let latest = head.number();
        let cursor = self.store.cursor_get(chain, SOURCE).await?;
        let (next, expected, last_hash) = match cursor {
            Some(c) => (c.next_block as u64, Some(c.next_block), c.last_hash),
            None => (
                latest.saturating_sub(self.settings.backfill_blocks),
                None,
                String::new(),
            ),
        };
        // The range to read, and its last block's hash before anything is
        // checked or read: a re-organisation after this point changes that
        // hash by the time the read is done (compared before the cursor moves).
        let to = latest.min(next + self.settings.max_blocks_per_poll.max(1) - 1);
        let to_hash = if to == latest {
            Some(head.hash)
        } else {
            block_hash(evm, to).await?
        };
        // A re-organisation before it: the block we stopped at is no longer on the chain.
        if !cursor_on_chain(evm, next, &last_hash).await? {
            let to = next.saturating_sub(self.settings.reorg_depth + 1);
            self.store.cursor_rewind(chain, SOURCE, to as i64).await?;
            return Ok(());
        }
        if next > latest {
            evm.set_index_lag(0);
            return self.reanalyse(chain, BTreeMap::new(), Vec::new()).await;
        }
        let pairs = self.store.tracked_pairs(chain).await?;
        let tokens = self.store.tracked_tokens(Some(chain)).await?;
        let mut filters = vec![pool_logs::creation_filter(evm)];
        filters.extend(pool_logs::swap_filters(
            evm,
            &pairs.iter().collect::<Vec<_>>(),
        ));
        if !tokens.is_empty() {
            let addresses = json!(tokens
                .iter()
                .map(|t| t.token.to_ascii_lowercase())
                .collect::<Vec<_>>());
            let events = json!([[
                IERC20::OwnershipTransferred::SIGNATURE_HASH,
                IBeacon::Upgraded::SIGNATURE_HASH
            ]]);
            filters.push(logs::filter(Some(addresses.clone()), events));
            filters.push(logs::filter(
                Some(addresses),
                json!([IERC20::Transfer::SIGNATURE_HASH, B256::ZERO]),
            ));
        }
        let limits = ScanLimits {
            lookback_blocks: 0,
            chunk_blocks: to - next + 1,
            max_requests: 4 * filters.len() as u32,
        };
        let scan = logs::scan(&evm.background, &filters, next, to, limits).await?;
        if scan.next <= next {
            return Ok(());
        }
        let read_to = scan.next - 1;
        let mut logs = scan.logs;
        logs.sort_by_key(|l| (l.block(), l.index()));

        let quotes = pool_logs::quotes(evm);
        let now = self.clock.now_seconds();
        let mut marked: BTreeMap<Address, bool> = BTreeMap::new();
        let mut drops = Vec::new();
        // New pools first, so their swaps in the same range count.
        let known_pairs: std::collections::HashSet<String> =
            pairs.iter().map(|p| p.pair.clone()).collect();
        let mut pair_map: HashMap<String, TrackedPair> =
            pairs.into_iter().map(|p| (p.pair.clone(), p)).collect();
        for log in &logs {
            let Some(tracked) = pool_logs::created(log, evm, &quotes) else {
                continue;
            };
            let block = log.block_number.map_or(next, |_| log.block());
            self.store.tracked_pair_add(&tracked).await?;
            let new = self
                .store
                .tracked_token_add(&TrackedToken {
                    chain,
                    token: tracked.token.clone(),
                    source: TrackedSource::PairCreated,
                    first_seen_block: block as i64,
                    added_at: now,
                    last_analysed_at: None,
                })
                .await?;
            if let (true, Ok(token)) = (new, tracked.token.parse::<Address>()) {
                marked.insert(token, true);
            }
            pair_map.insert(tracked.pair.clone(), tracked);
        }
        // Pools discovered in this range: read their swaps and syncs of the same range too.
        let new_pairs: Vec<&TrackedPair> = pair_map
            .values()
            .filter(|p| !known_pairs.contains(&p.pair))
            .collect();
        let extra_filters = pool_logs::swap_filters(evm, &new_pairs);
        if !extra_filters.is_empty() {
            let limits = ScanLimits {
                lookback_blocks: 0,
                chunk_blocks: read_to - next + 1,
                max_requests: 4 * extra_filters.len() as u32,
            };
            let extra = logs::scan(&evm.background, &extra_filters, next, read_to, limits).await?;
            if extra.next <= read_to {
                return Ok(());
            }
            logs.extend(extra.logs);
            logs.sort_by_key(|l| (l.block(), l.index()));
        }
        let native_usd = pools::read_native_price(evm, &evm.background)
            .await
            .ok()
            .flatten()
            .unwrap_or(0.0);
        let mut decimals: HashMap<String, u8> = HashMap::new();
        let mut swaps = Vec::new();
        let mut syncs = Vec::new();
        let mut reserves: BTreeMap<String, (f64, u64)> = BTreeMap::new();
        let mut touched: Vec<&TrackedPair> = Vec::new();
        for log in &logs {
            let block = log.block_number.map_or(next, |_| log.block());
            let topic0 = log.topic0().unwrap_or_default();
            if [
                IERC20::OwnershipTransferred::SIGNATURE_HASH,
                IBeacon::Upgraded::SIGNATURE_HASH,
                IERC20::Transfer::SIGNATURE_HASH,
            ]
            .contains(&topic0)
            {
                marked.entry(log.address).or_insert(false);
                continue;
            }
            let Some(pair) = pair_map.get(&pool_logs::pool_of(log)) else {
                continue;
            };
            let Ok(token) = pair.token.parse::<Address>() else {
                continue;
            };
            let Ok(quote) = pair.quote.parse::<Address>() else {
                continue;
            };
            let (quote_decimals, stable) = quotes.get(&quote).copied().unwrap_or((18, false));
            let quote_usd = if stable { 1.0 } else { native_usd };
            let token_is_0 = token < quote;
            if let Some((reserve0, reserve1)) = decode_sync(log) {
                let quote_reserve =
                    units(if token_is_0 { reserve1 } else { reserve0 }, quote_decimals);
                reserves.insert(pair.pair.clone(), (quote_reserve, block));
                syncs.push(SyncRow {
                    chain,
                    pair: pair.pair.clone(),
                    block: block as i64,
                    log_index: log.index() as i64,
                    reserve_quote: quote_reserve,
                    observed_at: now,
                });
                continue;
            }
            if pool_logs::changes_liquidity(log) {
                touched.push(pair);
                continue;
            }
            let Some(swap) = decode_swap(log) else {
                continue;
            };
            let token_decimals = match decimals.get(&pair.token) {
                Some(d) => *d,
                None => {
                    let d = self.decimals_of(chain, evm, token).await.unwrap_or(18);
                    decimals.insert(pair.token.clone(), d);
                    d
                }
            };
            let (token_in, token_out, quote_in, quote_out) = if token_is_0 {
                (swap.ins[0], swap.outs[0], swap.ins[1], swap.outs[1])
            } else {
                (swap.ins[1], swap.outs[1], swap.ins[0], swap.outs[0])
            };
            let buy = !token_out.is_zero();
            let amount_token = units(if buy { token_out } else { token_in }, token_decimals);
            let amount_quote = units(if buy { quote_in } else { quote_out }, quote_decimals);
            if amount_token <= 0.0 {
                continue;
            }
            swaps.push(SwapRow {
                chain,
                pair: pair.pair.clone(),
                block: block as i64,
                log_index: log.index() as i64,
                token: pair.token.clone(),
                trader: format!("{:#x}", swap.to),
                side: if buy { Side::Buy } else { Side::Sell },
                amount_token,
                amount_usd: amount_quote * quote_usd,
                price_usd: amount_quote * quote_usd / amount_token,
                observed_at: now,
            });
        }
        // Concentrated pools whose liquidity changed: the quote their active
        // liquidity holds now, against the same baseline as a pair's reserve.
        touched.sort_by(|a, b| a.pair.cmp(&b.pair));
        touched.dedup_by(|a, b| a.pair == b.pair);
        for (pool, quote) in pool_logs::active_quotes(evm, &touched, &quotes, read_to).await? {
            reserves.insert(pool, (quote, read_to));
        }
        for (pair_address, (reserve, block)) in &reserves {
            let Some(pair) = pair_map.get(pair_address) else {
                continue;
            };
            if pair.reserve_quote > 0.0 && *reserve <= pair.reserve_quote * 0.5 {
                if let Ok(token) = pair.token.parse::<Address>() {
                    marked.entry(token).or_insert(false);
                    drops.push((
                        token,
                        pool_logs::LiquidityDrop {
                            pair: pair_address.clone(),
                            before: pair.reserve_quote,
                            after: *reserve,
                            block: *block,
                        },
                    ));
                }
                self.store
                    .tracked_pair_reserve(chain, pair_address, *reserve)
                    .await?;
            } else if *reserve > pair.reserve_quote {
                if pair.reserve_quote == 0.0 {
                    // First liquidity: the token just became tradeable; look at it again.
                    if let Ok(token) = pair.token.parse::<Address>() {
                        marked.entry(token).or_insert(false);
                    }
                }
                self.store
                    .tracked_pair_reserve(chain, pair_address, *reserve)
                    .await?;
            }
        }
        // Every read above happened between the two looks at `to`; if its hash
        // is as it was, the logs are of one chain. Otherwise leave the cursor;
        // the next poll rewinds.
        let hash = block_hash(evm, read_to).await?;
        let to_now = if read_to == to {
            hash
        } else {
            block_hash(evm, to).await?
        };
        if to_now != to_hash {
            return Ok(());
        }
        let hash = hash.map(|h| format!("{h:#x}")).unwrap_or_default();
        if !self
            .store
            .cursor_advance(
                chain,
                SOURCE,
                expected,
                scan.next as i64,
                &hash,
                &swaps,
                &syncs,
            )
            .await?
        {
            // Another instance indexed this range; its swaps and alerts stand.
            return Ok(());
        }
        evm.set_index_lag(latest.saturating_sub(scan.next.saturating_sub(1)));
        let marked = (marked.into_iter())
            .map(|(t, new)| (t.to_checksum(None), new))
            .collect();
        let drops = (drops.into_iter())
            .map(|(t, d)| (t.to_checksum(None), d))
            .collect();
        self.reanalyse(chain, marked, drops).await
    }

    /// A token's decimals: from its analysis, or asked of the token (a pair found in this very poll).
    async fn decimals_of(&self, chain: Chain, evm: &EvmChain, token: Address) -> Option<u8> {
        if let Some(d) = self
            .analyzer
            .latest(TokenRef {
                chain,
                address: token,
            })
            .await
            .ok()
            .flatten()
            .and_then(|a| a.meta.decimals)
        {
            return Some(d);
        }
        let mut calls = Multicall::new();
        let decimals = calls.add(token, IERC20::decimalsCall {});
        let mut batch = Batch::new();
        let pending = calls.into_batch(&mut batch, evm.multicall, &BlockTag::Latest);
        let results = pending
            .take(&mut evm.background.send(batch).await.ok()?)
            .ok()?;
        results.get(decimals)
    }
}
