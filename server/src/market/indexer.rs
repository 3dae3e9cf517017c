//! The market index, a background part of `serve`: per chain, follow
//! `PairCreated` of every configured factory (new tokens), `Swap` and
//! `Sync` of tracked pairs (volume, flow, liquidity), and owner, upgrade and
//! mint events of tracked tokens; re-analyse tracked tokens on a schedule;
//! raise alerts. Progress is stored with the swaps it read, so a restart
//! resumes without gaps or double counting; a re-organisation within
//! `reorg_depth` rewinds and re-reads. It has its own upstream clients with
//! a small concurrency cap, so user requests keep priority.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use alloy_primitives::{Address, U256};
use riskintel_api::{AlertKind, Severity, TokenAnalysis};
use serde_json::{json, Value};

use super::alerts;
use crate::chains::evm::abi::{self, Call3};
use crate::chains::evm::rpc::{RpcClient, RpcError, RpcSettings};
use crate::chains::Chain;
use crate::clock::Clock;
use crate::config::{Config, MarketConfig};
use crate::risk::evm::{units, EvmChain};
use crate::risk::holders::{scan_logs, IndexLimits};
use crate::risk::{AnalysisError, Analyzer, TokenRef};
use crate::store::{Store, SwapRow, TrackedPair, TrackedToken};

const SOURCE: &str = "market";
const PAIR_CREATED: &str = "0x0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9";
const SWAP: &str = "0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822";
const SYNC: &str = "0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1";
const OWNERSHIP_TRANSFERRED: &str = "0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0";
const UPGRADED: &str = "0xbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b";
const TRANSFER: &str = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const ZERO_TOPIC: &str = "0x0000000000000000000000000000000000000000000000000000000000000000";

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
    Store(#[from] crate::store::StoreError),
}

/// The index over every served EVM chain.
pub struct Indexer {
    chains: Vec<(Chain, Arc<EvmChain>)>,
    analyzer: Arc<Analyzer>,
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    settings: MarketConfig,
}

/// A liquidity drop waiting for the re-analysis that reports it.
struct Drop {
    pair: String,
    before: f64,
    after: f64,
    block: u64,
}

fn word(data: &[u8], i: usize) -> U256 {
    data.get(32 * i..32 * i + 32).map(U256::from_be_slice).unwrap_or_default()
}

fn topic_address(topic: &Value) -> Option<Address> {
    let text = topic.as_str()?;
    let bytes = hex::decode(text.trim_start_matches("0x")).ok()?;
    (bytes.len() == 32).then(|| Address::from_slice(&bytes[12..]))
}

/// The hash of block `number`, or None if the chain does not reach it.
async fn block_hash(evm: &EvmChain, number: u64) -> Result<Option<String>, RpcError> {
    let block = evm.rpc.call("eth_getBlockByNumber", json!([format!("{number:#x}"), false])).await?;
    Ok(block.get("hash").and_then(Value::as_str).map(str::to_string))
}

/// Whether the block before `next` still has the hash the cursor recorded
/// (a cursor without a hash has nothing to compare and holds).
async fn cursor_on_chain(evm: &EvmChain, next: u64, last_hash: &str) -> Result<bool, RpcError> {
    if last_hash.is_empty() || next == 0 {
        return Ok(true);
    }
    Ok(block_hash(evm, next - 1).await?.as_deref() == Some(last_hash))
}

fn hex_number(value: &Value) -> Option<u64> {
    u64::from_str_radix(value.as_str()?.trim_start_matches("0x"), 16).ok()
}

impl Indexer {
    /// An index for every chain `analyzer` serves, with its own upstream clients.
    pub fn new(config: &Config, analyzer: Arc<Analyzer>, store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> anyhow::Result<Indexer> {
        let settings = RpcSettings {
            timeout: Duration::from_millis(config.analysis.rpc_timeout_ms),
            retries: config.analysis.rpc_retries,
            backoff: Duration::from_millis(config.analysis.rpc_backoff_ms),
            concurrency: config.market.rpc_concurrency.max(1) as usize,
        };
        let http = reqwest::Client::builder().connect_timeout(settings.timeout).build()?;
        let mut chains = Vec::new();
        for chain in analyzer.served_chains() {
            let chain_config = &config.chains[chain.id()];
            let rpc = RpcClient::new(http.clone(), &chain_config.rpc_url, settings.clone());
            chains.push((chain, Arc::new(EvmChain::from_config(chain.id(), chain_config, rpc)?)));
        }
        Ok(Indexer { chains, analyzer, store, clock, settings: config.market.clone() })
    }

    /// Poll every chain every `poll_interval_ms` until `stop` turns true;
    /// a poll under way is finished first.
    pub async fn run(self: Arc<Self>, log: slog::Logger, mut stop: tokio::sync::watch::Receiver<bool>) {
        let mut tick = tokio::time::interval(Duration::from_millis(self.settings.poll_interval_ms.max(10)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = stop.changed() => {}
            }
            if *stop.borrow() {
                return;
            }
            for (chain, evm) in &self.chains {
                if let Err(error) = self.poll(*chain, evm).await {
                    slog::warn!(log, "market index poll failed"; "chain" => chain.id(), "error" => %error);
                }
            }
        }
    }

    /// One poll of one chain.
    pub async fn poll(&self, chain: Chain, evm: &EvmChain) -> Result<(), IndexerError> {
        let head = evm.rpc.call("eth_getBlockByNumber", json!(["latest", false])).await?;
        let latest = head.get("number").and_then(hex_number).ok_or_else(|| RpcError::Upstream("block without number".into()))?;
        let cursor = self.store.cursor_get(chain.id(), SOURCE).await?;
        let (next, expected, last_hash) = match cursor {
            Some((next, hash)) => (next as u64, Some(next), hash),
            None => (latest.saturating_sub(self.settings.backfill_blocks), None, String::new()),
        };
        // The range to read, and its last block's hash before anything is
        // checked or read: a re-organisation after this point changes that
        // hash by the time the read is done (compared before the cursor moves).
        let to = latest.min(next + self.settings.max_blocks_per_poll.max(1) - 1);
        let to_hash = if to == latest { head.get("hash").and_then(Value::as_str).map(str::to_string) } else { block_hash(evm, to).await? };
        // A re-organisation before it: the block we stopped at is no longer on the chain.
        if !cursor_on_chain(evm, next, &last_hash).await? {
            let to = next.saturating_sub(self.settings.reorg_depth + 1);
            self.store.cursor_rewind(chain.id(), SOURCE, to as i64).await?;
            return Ok(());
        }
        if next > latest {
            return self.reanalyse(chain, BTreeMap::new(), Vec::new()).await;
        }
        let pairs = self.store.tracked_pairs(chain.id()).await?;
        let tokens = self.store.tracked_tokens(Some(chain.id())).await?;
        let mut filters = vec![json!({
            "address": evm.dexes.iter().map(|d| format!("{:#x}", d.factory)).collect::<Vec<_>>(),
            "topics": [PAIR_CREATED]
        })];
        if !pairs.is_empty() {
            filters.push(json!({"address": pairs.iter().map(|p| p.pair.clone()).collect::<Vec<_>>(), "topics": [[SWAP, SYNC]]}));
        }
        if !tokens.is_empty() {
            let addresses: Vec<String> = tokens.iter().map(|t| t.token.to_ascii_lowercase()).collect();
            filters.push(json!({"address": addresses, "topics": [[OWNERSHIP_TRANSFERRED, UPGRADED]]}));
            filters.push(json!({"address": addresses, "topics": [TRANSFER, ZERO_TOPIC]}));
        }
        let limits = IndexLimits { lookback_blocks: 0, chunk_blocks: to - next + 1, max_requests: 4 * filters.len() as u32 };
        let scan = scan_logs(&evm.rpc, &filters, next, to, limits).await?;
        if scan.next <= next {
            return Ok(());
        }
        let read_to = scan.next - 1;
        let mut logs = scan.logs;
        logs.sort_by_key(|l| (l.get("blockNumber").and_then(hex_number), l.get("logIndex").and_then(hex_number)));

        let quotes: HashMap<Address, (u8, bool)> = std::iter::once((evm.wrapped.address, (evm.wrapped.decimals, false)))
            .chain(evm.stables.iter().map(|s| (s.address, (s.decimals, true))))
            .collect();
        let now = self.clock.now_seconds();
        let mut marked: BTreeMap<Address, bool> = BTreeMap::new();
        let mut drops = Vec::new();
        // New pairs first, so their swaps in the same range count.
        let known_pairs: std::collections::HashSet<String> = pairs.iter().map(|p| p.pair.clone()).collect();
        let mut pair_map: HashMap<String, TrackedPair> = pairs.into_iter().map(|p| (p.pair.clone(), p)).collect();
        for log in logs.iter().filter(|l| l["topics"][0] == PAIR_CREATED) {
            let (Some(token0), Some(token1)) = (topic_address(&log["topics"][1]), topic_address(&log["topics"][2])) else { continue };
            let data = log.get("data").and_then(Value::as_str).and_then(abi::from_hex).unwrap_or_default();
            let pair = Address::from_slice(&word(&data, 0).to_be_bytes::<32>()[12..]);
            let (token, quote) = match (quotes.contains_key(&token0), quotes.contains_key(&token1)) {
                (false, true) => (token0, token1),
                (true, false) => (token1, token0),
                _ => continue,
            };
            let dex = evm.dexes.iter().find(|d| Some(format!("{:#x}", d.factory)) == log.get("address").and_then(Value::as_str).map(str::to_ascii_lowercase));
            let block = log.get("blockNumber").and_then(hex_number).unwrap_or(next);
            let tracked = TrackedPair {
                chain: chain.id().into(),
                pair: format!("{pair:#x}"),
                token: token.to_checksum(None),
                quote: format!("{quote:#x}"),
                dex: dex.map(|d| d.name.clone()).unwrap_or_default(),
                reserve_quote: 0.0,
            };
            self.store.tracked_pair_add(&tracked).await?;
            pair_map.insert(tracked.pair.clone(), tracked);
            let new = self
                .store
                .tracked_token_add(&TrackedToken {
                    chain: chain.id().into(),
                    token: token.to_checksum(None),
                    source: "pair_created".into(),
                    first_seen_block: block as i64,
                    added_at: now,
                    last_analysed_at: None,
                })
                .await?;
            if new {
                marked.insert(token, true);
            }
        }
        // Pairs discovered in this range: read their swaps and syncs of the same range too.
        let new_pairs: Vec<String> = pair_map.keys().filter(|p| !known_pairs.contains(*p)).cloned().collect();
        if !new_pairs.is_empty() {
            let filter = json!({"address": new_pairs, "topics": [[SWAP, SYNC]]});
            let limits = IndexLimits { lookback_blocks: 0, chunk_blocks: read_to - next + 1, max_requests: 4 };
            let extra = scan_logs(&evm.rpc, &[filter], next, read_to, limits).await?;
            if extra.next <= read_to {
                return Ok(());
            }
            logs.extend(extra.logs);
            logs.sort_by_key(|l| (l.get("blockNumber").and_then(hex_number), l.get("logIndex").and_then(hex_number)));
        }
        let native_usd = self.native_price(evm).await.unwrap_or(0.0);
        let mut decimals: HashMap<String, u8> = HashMap::new();
        let mut swaps = Vec::new();
        let mut syncs = Vec::new();
        let mut reserves: BTreeMap<String, (f64, u64)> = BTreeMap::new();
        for log in &logs {
            let topic0 = log["topics"][0].as_str().unwrap_or_default();
            let Some(address) = log.get("address").and_then(Value::as_str).map(str::to_ascii_lowercase) else { continue };
            let block = log.get("blockNumber").and_then(hex_number).unwrap_or(next);
            if topic0 == OWNERSHIP_TRANSFERRED || topic0 == UPGRADED || topic0 == TRANSFER {
                if let Ok(token) = address.parse::<Address>() {
                    marked.entry(token).or_insert(false);
                }
                continue;
            }
            let Some(pair) = pair_map.get(&address) else { continue };
            let Ok(token) = pair.token.parse::<Address>() else { continue };
            let Ok(quote) = pair.quote.parse::<Address>() else { continue };
            let (quote_decimals, stable) = quotes.get(&quote).copied().unwrap_or((18, false));
            let quote_usd = if stable { 1.0 } else { native_usd };
            let token_is_0 = token < quote;
            let data = log.get("data").and_then(Value::as_str).and_then(abi::from_hex).unwrap_or_default();
            if topic0 == SYNC {
                let quote_reserve = units(if token_is_0 { word(&data, 1) } else { word(&data, 0) }, quote_decimals);
                reserves.insert(pair.pair.clone(), (quote_reserve, block));
                syncs.push(crate::store::SyncRow {
                    chain: chain.id().into(),
                    pair: pair.pair.clone(),
                    block: block as i64,
                    log_index: log.get("logIndex").and_then(hex_number).unwrap_or(0) as i64,
                    reserve_quote: quote_reserve,
                    observed_at: now,
                });
                continue;
            }
            if topic0 != SWAP {
                continue;
            }
            let token_decimals = match decimals.get(&pair.token) {
                Some(d) => *d,
                None => {
                    let d = self.decimals_of(chain, evm, token).await.unwrap_or(18);
                    decimals.insert(pair.token.clone(), d);
                    d
                }
            };
            let (a0_in, a1_in, a0_out, a1_out) = (word(&data, 0), word(&data, 1), word(&data, 2), word(&data, 3));
            let (token_in, token_out, quote_in, quote_out) =
                if token_is_0 { (a0_in, a0_out, a1_in, a1_out) } else { (a1_in, a1_out, a0_in, a0_out) };
            let buy = !token_out.is_zero();
            let amount_token = units(if buy { token_out } else { token_in }, token_decimals);
            let amount_quote = units(if buy { quote_in } else { quote_out }, quote_decimals);
            if amount_token <= 0.0 {
                continue;
            }
            let trader = topic_address(&log["topics"][2]).map(|a| format!("{a:#x}")).unwrap_or_default();
            swaps.push(SwapRow {
                chain: chain.id().into(),
                pair: pair.pair.clone(),
                block: block as i64,
                log_index: log.get("logIndex").and_then(hex_number).unwrap_or(0) as i64,
                token: pair.token.clone(),
                trader,
                side: if buy { "buy" } else { "sell" }.into(),
                amount_token,
                amount_usd: amount_quote * quote_usd,
                price_usd: amount_quote * quote_usd / amount_token,
                observed_at: now,
            });
        }
        for (pair_address, (reserve, block)) in &reserves {
            let Some(pair) = pair_map.get(pair_address) else { continue };
            if pair.reserve_quote > 0.0 && *reserve <= pair.reserve_quote * 0.5 {
                if let Ok(token) = pair.token.parse::<Address>() {
                    marked.entry(token).or_insert(false);
                    drops.push((token, Drop { pair: pair_address.clone(), before: pair.reserve_quote, after: *reserve, block: *block }));
                }
                self.store.tracked_pair_reserve(chain.id(), pair_address, *reserve).await?;
            } else if *reserve > pair.reserve_quote {
                if pair.reserve_quote == 0.0 {
                    // First liquidity: the token just became tradeable; look at it again.
                    if let Ok(token) = pair.token.parse::<Address>() {
                        marked.entry(token).or_insert(false);
                    }
                }
                self.store.tracked_pair_reserve(chain.id(), pair_address, *reserve).await?;
            }
        }
        // Every read above happened between the two looks at `to`; if its hash
        // is as it was, the logs are of one chain. Otherwise leave the cursor;
        // the next poll rewinds.
        let hash = block_hash(evm, read_to).await?;
        let to_now = if read_to == to { hash.clone() } else { block_hash(evm, to).await? };
        if to_now != to_hash {
            return Ok(());
        }
        let hash = hash.unwrap_or_default();
        if !self.store.cursor_advance(chain.id(), SOURCE, expected, scan.next as i64, &hash, &swaps, &syncs).await? {
            // Another instance indexed this range; its swaps and alerts stand.
            return Ok(());
        }
        self.reanalyse(chain, marked, drops).await
    }

    /// A token's decimals: from its analysis, or asked of the token (a pair found in this very poll).
    async fn decimals_of(&self, chain: Chain, evm: &EvmChain, token: Address) -> Option<u8> {
        if let Some(d) = self.analyzer.latest(TokenRef { chain, address: token }).await.ok().flatten().and_then(|a| a.meta.decimals) {
            return Some(d);
        }
        let answer = self.multicall(evm, &[Call3 { target: token, data: abi::call("decimals()", &[]) }]).await?;
        answer.first()?.as_deref().and_then(abi::decode_uint).and_then(|d| u8::try_from(d).ok())
    }

    /// The wrapped native's USD price from its deepest stablecoin pair.
    async fn native_price(&self, evm: &EvmChain) -> Option<f64> {
        let mut calls = Vec::new();
        for dex in &evm.dexes {
            for stable in &evm.stables {
                calls.push(Call3 {
                    target: dex.factory,
                    data: abi::call("getPair(address,address)", &[abi::address_word(evm.wrapped.address), abi::address_word(stable.address)]),
                });
            }
        }
        let pairs = self.multicall(evm, &calls).await?;
        let found: Vec<(usize, Address)> = pairs
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_deref().and_then(abi::decode_address).filter(|a| !a.is_zero()).map(|a| (i % evm.stables.len(), a)))
            .collect();
        let mut calls = Vec::new();
        for (_, pair) in &found {
            calls.push(Call3 { target: *pair, data: abi::call("getReserves()", &[]) });
        }
        let reserves = self.multicall(evm, &calls).await?;
        let mut best: Option<(f64, f64)> = None;
        for ((stable_index, _), r) in found.iter().zip(reserves) {
            let Some((r0, r1)) = r.as_deref().and_then(abi::decode_reserves) else { continue };
            let stable = &evm.stables[*stable_index];
            let (w, s) = if evm.wrapped.address < stable.address { (r0, r1) } else { (r1, r0) };
            let (w, s) = (units(w, evm.wrapped.decimals), units(s, stable.decimals));
            if w > 0.0 && best.is_none_or(|(depth, _)| s > depth) {
                best = Some((s, s / w));
            }
        }
        best.map(|(_, price)| price)
    }

    async fn multicall(&self, evm: &EvmChain, calls: &[Call3]) -> Option<Vec<Option<Vec<u8>>>> {
        if calls.is_empty() {
            return Some(Vec::new());
        }
        let answer = evm
            .rpc
            .call("eth_call", json!([{"to": format!("{:#x}", evm.multicall), "data": abi::to_hex(&abi::aggregate3(calls))}, "latest"]))
            .await
            .ok()?;
        let data = answer.as_str().and_then(abi::from_hex)?;
        Some(abi::decode_aggregate3(&data)?.into_iter().map(|(ok, d)| ok.then_some(d)).collect())
    }

    /// Re-analyse the marked tokens (`true`: newly discovered) and the
    /// tracked tokens due for it, and raise the alerts the changes mean.
    async fn reanalyse(&self, chain: Chain, mut marked: BTreeMap<Address, bool>, drops: Vec<(Address, Drop)>) -> Result<(), IndexerError> {
        let now = self.clock.now_seconds();
        let due = chrono::Duration::seconds(self.settings.reanalyse_interval_seconds as i64);
        for tracked in self.store.tracked_tokens(Some(chain.id())).await? {
            if tracked.last_analysed_at.is_none_or(|at| now - at >= due) {
                if let Ok(token) = tracked.token.parse::<Address>() {
                    marked.entry(token).or_insert(tracked.last_analysed_at.is_none());
                }
            }
        }
        for (token, new) in marked.into_iter().take(self.settings.max_analyses_per_poll as usize) {
            let reference = TokenRef { chain, address: token };
            let before = self.analyzer.latest(reference).await?;
            let after = match self.analyzer.analyze(reference, true).await {
                Ok(after) => after,
                // Not a token after all, or the node failed: try again next time.
                Err(_) => continue,
            };
            let at = self.clock.now_seconds();
            let mut rows = alerts::diff(if new { None } else { before.as_ref() }, &after, new, at);
            for (_, drop) in drops.iter().filter(|(t, _)| *t == token) {
                rows.push(liquidity_alert(drop, before.as_ref(), &after, at));
            }
            for row in rows {
                self.store.alert_insert(&row).await?;
            }
            self.store.tracked_token_analysed(chain.id(), &after.address, at).await?;
        }
        Ok(())
    }
}

fn liquidity_alert(drop: &Drop, before: Option<&TokenAnalysis>, after: &TokenAnalysis, at: chrono::DateTime<chrono::Utc>) -> crate::store::AlertRow {
    let symbol = if after.meta.symbol.is_empty() { after.address.clone() } else { after.meta.symbol.clone() };
    let fall = 1.0 - drop.after / drop.before;
    alerts::row(
        AlertKind::LiquidityRemoved,
        if fall >= 0.9 { Severity::Critical } else { Severity::High },
        &format!("{}:{}", drop.pair, drop.block),
        format!("{symbol}: liquidity removed"),
        format!(
            "Pool {} lost {:.1}% of its liquidity (quote reserve {:.4} → {:.4}) at block {}.",
            drop.pair,
            fall * 100.0,
            drop.before,
            drop.after,
            drop.block
        ),
        before,
        after,
        drop.block,
        at,
    )
}
