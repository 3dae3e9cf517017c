//! Token risk analysis: read facts from the chain, detect risks with
//! evidence, score them, explain them, render a badge. HTTP-agnostic.

mod assess;
pub mod badge;
mod capabilities;
pub mod evm;
pub mod explain;
pub mod holders;
pub mod simulate;
mod solana;
mod wallet;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use alloy_primitives::Address;
use chrono::{DateTime, Utc};
use futures::future::{BoxFuture, FutureExt, Shared};
use riskintel_api::TokenAnalysis;

use crate::chains::evm::rpc::{RpcClient, RpcError, RpcSettings};
use crate::chains::{parse_evm_address, Chain, InputError};
use crate::clock::Clock;
use crate::config::{AllowlistEntry, Config};
use crate::store::{Store, StoreError};
use evm::EvmChain;
use holders::{IndexError, IndexLimits};

/// Why an analysis could not be made.
#[derive(Clone, Debug, thiserror::Error)]
pub enum AnalysisError {
    /// Bad chain or address.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The chain is known but not served here.
    #[error("chain: {0}")]
    ChainNotServed(String),
    /// No token at that address.
    #[error("{0}")]
    NotFound(String),
    /// The node failed.
    #[error(transparent)]
    Rpc(#[from] RpcError),
    /// The store failed.
    #[error("storage: {0}")]
    Store(String),
}

impl From<StoreError> for AnalysisError {
    fn from(error: StoreError) -> Self {
        AnalysisError::Store(error.to_string())
    }
}

impl AnalysisError {
    fn from_index(error: IndexError) -> Self {
        match error {
            IndexError::Rpc(e) => AnalysisError::Rpc(e),
            IndexError::Store(e) => e.into(),
        }
    }
}

type Flight = Shared<BoxFuture<'static, Result<Arc<TokenAnalysis>, AnalysisError>>>;

/// The analysis engine: chains, cache, and in-flight analyses shared by
/// concurrent requests for the same token.
pub struct Analyzer {
    chains: HashMap<Chain, Arc<EvmChain>>,
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    ttl: chrono::Duration,
    limits: IndexLimits,
    simulate_trades: bool,
    wallet_max_analyses: usize,
    allowlist: HashMap<(Chain, Address), AllowlistEntry>,
    allowlist_sol: HashMap<String, AllowlistEntry>,
    inflight: Mutex<HashMap<Target, Flight>>,
    /// Recent analyses in memory, in front of the store's cache.
    recent: Mutex<HashMap<Target, Arc<TokenAnalysis>>>,
    solana: Option<Arc<solana::SolanaChain>>,
}

/// What an analysis is of: an EVM token or a Solana mint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A token on an EVM chain.
    Evm(TokenRef),
    /// A mint on Solana.
    Sol(crate::chains::solana::Pubkey),
}

impl Target {
    /// The chain.
    pub fn chain(&self) -> Chain {
        match self {
            Target::Evm(t) => t.chain,
            Target::Sol(_) => Chain::Sol,
        }
    }

    /// The address as the API writes it (EIP-55 checksummed, or base58).
    pub fn address(&self) -> String {
        match self {
            Target::Evm(t) => t.address.to_checksum(None),
            Target::Sol(key) => crate::chains::solana::encode(key),
        }
    }
}

impl From<TokenRef> for Target {
    fn from(token: TokenRef) -> Self {
        Target::Evm(token)
    }
}

/// Analyses kept in memory before expired ones are swept.
const RECENT_CAPACITY: usize = 10_000;

/// A validated token reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TokenRef {
    /// Chain.
    pub chain: Chain,
    /// Address.
    pub address: Address,
}

impl Analyzer {
    /// An engine for every configured EVM chain with an RPC URL.
    pub fn new(config: &Config, store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> anyhow::Result<Analyzer> {
        let a = &config.analysis;
        let settings = RpcSettings {
            timeout: Duration::from_millis(a.rpc_timeout_ms),
            retries: a.rpc_retries,
            backoff: Duration::from_millis(a.rpc_backoff_ms),
            concurrency: a.rpc_concurrency as usize,
        };
        let http = reqwest::Client::builder()
            .connect_timeout(settings.timeout)
            .build()
            .map_err(|e| anyhow::anyhow!("building the upstream HTTP client: {e}"))?;
        let mut chains = HashMap::new();
        for (id, chain_config) in &config.chains {
            let chain = Chain::parse(id).ok_or_else(|| anyhow::anyhow!("chains.{id}: unknown chain id"))?;
            if !chain.is_evm() || chain_config.rpc_url.is_empty() {
                continue;
            }
            let rpc = RpcClient::new(http.clone(), &chain_config.rpc_url, settings.clone());
            chains.insert(chain, Arc::new(EvmChain::from_config(id, chain_config, rpc)?));
        }
        let mut allowlist = HashMap::new();
        let mut allowlist_sol = HashMap::new();
        for entry in &config.allowlist {
            let chain = Chain::parse(&entry.chain).ok_or_else(|| anyhow::anyhow!("allowlist: unknown chain {}", entry.chain))?;
            if chain.is_evm() {
                let address = parse_evm_address(&entry.address).map_err(|e| anyhow::anyhow!("allowlist: {e}"))?;
                allowlist.insert((chain, address), entry.clone());
            } else {
                let key = crate::chains::solana::parse_pubkey(&entry.address).map_err(|e| anyhow::anyhow!("allowlist: {e}"))?;
                allowlist_sol.insert(crate::chains::solana::encode(&key), entry.clone());
            }
        }
        Ok(Analyzer {
            chains,
            store,
            clock,
            ttl: chrono::Duration::seconds(a.cache_ttl_seconds as i64),
            limits: IndexLimits {
                lookback_blocks: a.holder_lookback_blocks,
                chunk_blocks: a.log_chunk_blocks,
                max_requests: a.max_log_requests,
            },
            simulate_trades: a.simulate_trades,
            wallet_max_analyses: a.wallet_max_analyses as usize,
            allowlist,
            allowlist_sol,
            inflight: Mutex::new(HashMap::new()),
            recent: Mutex::new(HashMap::new()),
            solana: match config.chains.get("sol").filter(|c| !c.rpc_url.is_empty()) {
                Some(sol) => Some(Arc::new(solana::SolanaChain::from_config(sol, RpcClient::new(http.clone(), &sol.rpc_url, settings.clone()))?)),
                None => None,
            },
        })
    }

    /// Validate a chain and address.
    pub fn token_ref(&self, chain: &str, address: &str) -> Result<TokenRef, AnalysisError> {
        let chain_id = Chain::parse(chain).ok_or_else(|| InputError::UnknownChain(chain.to_string()))?;
        if !chain_id.is_evm() {
            return Err(AnalysisError::ChainNotServed(format!(
                "analysis on {chain:?} is not available on this server yet"
            )));
        }
        let address = parse_evm_address(address)?;
        if !self.chains.contains_key(&chain_id) {
            return Err(AnalysisError::ChainNotServed(format!("{chain:?} has no RPC endpoint configured on this server")));
        }
        Ok(TokenRef { chain: chain_id, address })
    }

    /// The EVM chains served, for the market index.
    pub fn served_chains(&self) -> Vec<Chain> {
        let mut chains: Vec<Chain> = self.chains.keys().copied().collect();
        chains.sort();
        chains
    }

    /// The wrapped native token of a served chain.
    pub fn wrapped_native(&self, chain: Chain) -> Option<Address> {
        self.chains.get(&chain).map(|c| c.wrapped.address)
    }

    /// The latest stored analysis of a token, whatever its age.
    pub async fn latest(&self, token: TokenRef) -> Result<Option<TokenAnalysis>, AnalysisError> {
        Ok(self.cached(token.chain.id(), &token.address.to_checksum(None)).await?.map(|(a, _)| a))
    }

    /// Upstream requests made so far on a chain (benchmarks and tests).
    pub fn upstream_requests(&self, chain: Chain) -> u64 {
        self.chains.get(&chain).map_or(0, |c| c.rpc.requests_made())
    }

    /// The analysis of a token: from the cache while fresh (unless
    /// `fresh`), otherwise made now — once, however many requests ask at
    /// the same time. When the chain cannot be read and an earlier analysis
    /// exists, that one is returned marked `stale`.
    pub async fn analyze(self: &Arc<Self>, token: TokenRef, fresh: bool) -> Result<TokenAnalysis, AnalysisError> {
        self.analyze_target(token.into(), fresh).await
    }

    /// Validate a chain and address of any chain, Solana included.
    pub fn target(&self, chain: &str, address: &str) -> Result<Target, AnalysisError> {
        if chain == Chain::Sol.id() {
            let key = crate::chains::solana::parse_pubkey(address)?;
            if self.solana.is_none() {
                return Err(AnalysisError::ChainNotServed("\"sol\" has no RPC endpoint configured on this server".into()));
            }
            return Ok(Target::Sol(key));
        }
        Ok(self.token_ref(chain, address)?.into())
    }

    /// [`Analyzer::analyze`] for a token of any chain.
    pub async fn analyze_target(self: &Arc<Self>, target: Target, fresh: bool) -> Result<TokenAnalysis, AnalysisError> {
        let token = target;
        if !fresh {
            if let Some(analysis) = self.recent_hit(token) {
                return Ok((*analysis).clone());
            }
        }
        let key = (token.chain().id(), token.address());
        let cached = self.cached(key.0, &key.1).await?;
        if !fresh {
            if let Some((analysis, at)) = &cached {
                if self.clock.now() - *at < self.ttl {
                    self.remember(token, Arc::new(analysis.clone()));
                    return Ok(analysis.clone());
                }
            }
        }
        match self.shared_run(token, fresh).await {
            Ok(analysis) => {
                self.remember(token, analysis.clone());
                Ok((*analysis).clone())
            }
            Err(AnalysisError::Rpc(error)) => match cached {
                Some((mut analysis, _)) => {
                    analysis.stale = true;
                    Ok(analysis)
                }
                None => Err(AnalysisError::Rpc(error)),
            },
            Err(other) => Err(other),
        }
    }

    fn is_fresh(&self, analysis: &TokenAnalysis) -> bool {
        self.clock.now() - analysis.cached_at < self.ttl
    }

    fn recent_hit(&self, token: impl Into<Target>) -> Option<Arc<TokenAnalysis>> {
        let recent = self.recent.lock().expect("recent lock");
        recent.get(&token.into()).filter(|a| self.is_fresh(a)).cloned()
    }

    fn remember(&self, token: Target, analysis: Arc<TokenAnalysis>) {
        let mut recent = self.recent.lock().expect("recent lock");
        if recent.len() >= RECENT_CAPACITY {
            recent.retain(|_, a| self.is_fresh(a));
        }
        if recent.len() < RECENT_CAPACITY {
            recent.insert(token, analysis);
        }
    }

    async fn cached(&self, chain: &str, address: &str) -> Result<Option<(TokenAnalysis, DateTime<Utc>)>, AnalysisError> {
        let Some((json, at)) = self.store.analysis_get(chain, address).await? else { return Ok(None) };
        // An unreadable cache entry (an older format) is simply not a hit.
        Ok(serde_json::from_str(&json).ok().map(|analysis| (analysis, at)))
    }

    /// The analysis under way for `target`, or a new one. A flight
    /// remembers its result before it stops being in flight, so a request
    /// that finds no flight here finds the result instead (unless `fresh`).
    fn shared_run(self: &Arc<Self>, target: Target, fresh: bool) -> Flight {
        let mut inflight = self.inflight.lock().expect("inflight lock");
        if let Some(flight) = inflight.get(&target) {
            return flight.clone();
        }
        if !fresh {
            if let Some(done) = self.recent_hit(target) {
                return futures::future::ready(Ok(done)).boxed().shared();
            }
        }
        let engine = self.clone();
        let flight = async move {
            let result = match target {
                Target::Evm(token) => engine.run(token).await,
                Target::Sol(mint) => engine.run_solana(mint).await,
            }
            .map(Arc::new);
            if let Ok(analysis) = &result {
                engine.remember(target, analysis.clone());
            }
            engine.inflight.lock().expect("inflight lock").remove(&target);
            result
        }
        .boxed()
        .shared();
        inflight.insert(target, flight.clone());
        flight
    }

    async fn run_solana(&self, mint: crate::chains::solana::Pubkey) -> Result<TokenAnalysis, AnalysisError> {
        let chain = self.solana.clone().expect("validated chain");
        let address = crate::chains::solana::encode(&mint);
        let allow = self.allowlist_sol.get(&address);
        let mut analysis = solana::analyze(&chain, mint, allow, self.clock.now()).await?;
        analysis.cached_at = self.clock.now_seconds();
        let json = serde_json::to_string(&analysis).map_err(|e| AnalysisError::Store(e.to_string()))?;
        self.store.analysis_put(&analysis.chain, &analysis.address, &json, analysis.cached_at).await?;
        Ok(analysis)
    }

    async fn run(&self, token: TokenRef) -> Result<TokenAnalysis, AnalysisError> {
        let chain = self.chains.get(&token.chain).expect("validated chain").clone();
        let facts = evm::gather(&chain, &self.store, token.address, self.limits, self.simulate_trades).await?;
        let allow = self.allowlist.get(&(token.chain, token.address));
        let assessment = assess::assess_evm(token.address, &facts, allow);
        let score = assess::score(&assessment.signals);
        let coverage = assess::coverage(assessment.checks);
        let label = assess::label_for(score, &coverage);
        let analysis = TokenAnalysis {
            chain: token.chain.id().to_string(),
            address: token.address.to_checksum(None),
            score,
            label,
            signals: assessment.signals,
            meta: assessment.meta,
            cached_at: self.clock.now_seconds(),
            as_of_block: Some(facts.block),
            coverage,
            simulations: facts.simulations.clone(),
            stale: false,
        };
        let json = serde_json::to_string(&analysis).map_err(|e| AnalysisError::Store(e.to_string()))?;
        self.store.analysis_put(&analysis.chain, &analysis.address, &json, analysis.cached_at).await?;
        self.track(&analysis, &facts).await?;
        Ok(analysis)
    }

    /// Every analysed token joins the market index, with its pools.
    async fn track(&self, analysis: &TokenAnalysis, facts: &evm::EvmFacts) -> Result<(), AnalysisError> {
        self.store
            .tracked_token_add(&crate::store::TrackedToken {
                chain: analysis.chain.clone(),
                token: analysis.address.clone(),
                source: "analysed".into(),
                first_seen_block: facts.index.first_transfer_block.unwrap_or(facts.block) as i64,
                added_at: analysis.cached_at,
                last_analysed_at: Some(analysis.cached_at),
            })
            .await?;
        for pool in &facts.pools {
            self.store
                .tracked_pair_add(&crate::store::TrackedPair {
                    chain: analysis.chain.clone(),
                    pair: format!("{:#x}", pool.pair),
                    token: analysis.address.clone(),
                    quote: format!("{:#x}", pool.quote.address),
                    dex: pool.dex.clone(),
                    reserve_quote: evm::units(pool.reserve_quote, pool.quote.decimals),
                })
                .await?;
        }
        Ok(())
    }
}
