//! The analysis engine: validates targets, serves fresh analyses from the
//! cache (memory in front of the store), runs each analysis once however
//! many requests ask at the same time, stores the result, and serves an
//! earlier result marked `stale` when the chain cannot be read.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use alloy_primitives::Address;
use chrono::{DateTime, Utc};
use futures::future::{BoxFuture, FutureExt, Shared};
use riskintel_types::{Serialized, TokenAnalysis};
use sha2::Digest as _;

use super::evm::launch::LaunchLimits;
use super::{evm, solana, AnalysisError, Target, TokenRef};
use crate::config::{AllowlistEntry, AnalysisConfig};
use crate::metrics::{self as telemetry, CacheOutcome};
use crate::overrides::Overrides;
use riskintel_chains::evm::abi::units;
use riskintel_chains::evm::logs::ScanLimits;
use riskintel_chains::evm::pools::v4::PoolKey;
use riskintel_chains::evm::pools::KnownPool;
use riskintel_chains::registry::Chains;
use riskintel_chains::{parse_evm_address, Chain, DexKind};
use riskintel_store::clock::Clock;
use riskintel_store::{Store, TrackedPair, TrackedSource, TrackedToken};

type Flight = Shared<BoxFuture<'static, Result<Analysed, AnalysisError>>>;

/// An analysis with its JSON, made once: the cache serves the bytes.
#[derive(Clone, Debug)]
pub struct Analysed {
    /// The analysis.
    pub analysis: Arc<TokenAnalysis>,
    /// Its JSON.
    pub json: Serialized<TokenAnalysis>,
    /// A digest of the JSON (32 hex digits), for entity tags.
    pub digest: Arc<str>,
}

impl Analysed {
    pub(crate) fn new(analysis: TokenAnalysis) -> Result<Analysed, AnalysisError> {
        let corrupt = |e: serde_json::Error| riskintel_store::StoreError::Corrupt(e.to_string());
        let analysis = riskintel_types::tidy::tidy(analysis).map_err(corrupt)?;
        let json = Serialized::new(&analysis).map_err(corrupt)?;
        let digest = sha2::Sha256::digest(json.json().as_bytes());
        Ok(Analysed {
            analysis: Arc::new(analysis),
            json,
            digest: Arc::from(hex::encode(&digest[..16])),
        })
    }
}

/// Analyses kept in memory before expired ones are swept.
const RECENT_CAPACITY: usize = 10_000;

/// The analysis engine: chains, cache, and in-flight analyses shared by
/// concurrent requests for the same token.
pub struct Analyzer {
    chains: Arc<Chains>,
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    ttl: chrono::Duration,
    deadline: std::time::Duration,
    limits: ScanLimits,
    launch: LaunchLimits,
    simulate_trades: bool,
    allowlist: HashMap<(Chain, String), AllowlistEntry>,
    inflight: Mutex<HashMap<Target, Flight>>,
    /// Recent analyses in memory, in front of the store's cache.
    recent: Mutex<HashMap<Target, Analysed>>,
    /// The operator's overrides of labels, for the views to show (the
    /// engine's own results never carry them).
    overrides: Arc<Overrides>,
}

impl Analyzer {
    /// An engine over the configured `chains`, with the analysis settings
    /// and the allowlist of known issuers.
    pub fn new(
        a: &AnalysisConfig,
        allowlist_entries: &[AllowlistEntry],
        chains: Arc<Chains>,
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
    ) -> anyhow::Result<Analyzer> {
        let mut allowlist = HashMap::new();
        for entry in allowlist_entries {
            let chain = Chain::parse(&entry.chain)
                .ok_or_else(|| anyhow::anyhow!("allowlist: unknown chain {}", entry.chain))?;
            let target = Target::parse(chain, &entry.address)
                .map_err(|e| anyhow::anyhow!("allowlist: {e}"))?;
            allowlist.insert((chain, target.address()), entry.clone());
        }
        Ok(Analyzer {
            chains,
            store,
            ttl: chrono::Duration::seconds(a.cache_ttl_seconds as i64),
            deadline: std::time::Duration::from_millis(a.deadline_ms.max(1)),
            limits: ScanLimits::from(a),
            launch: LaunchLimits::from(a),
            simulate_trades: a.simulate_trades,
            allowlist,
            inflight: Mutex::new(HashMap::new()),
            recent: Mutex::new(HashMap::new()),
            overrides: Arc::new(Overrides::new(clock.clone())),
            clock,
        })
    }

    /// The chains it analyses.
    pub fn chains(&self) -> &Arc<Chains> {
        &self.chains
    }

    /// The operator's overrides, as the views show them.
    pub fn overrides(&self) -> &Arc<Overrides> {
        &self.overrides
    }

    /// Validate an address on an EVM chain, and that the chain is served.
    pub fn token_ref(&self, chain: Chain, address: &str) -> Result<TokenRef, AnalysisError> {
        if !chain.is_evm() {
            return Err(AnalysisError::ChainNotServed(format!(
                "chain: analysis on {:?} is not available on this server yet",
                chain.id()
            )));
        }
        let address = parse_evm_address(address)?;
        self.chains.evm(chain)?;
        Ok(TokenRef { chain, address })
    }

    /// Validate an address of any chain, Solana included.
    pub fn target(&self, chain: Chain, address: &str) -> Result<Target, AnalysisError> {
        if chain == Chain::Sol {
            let key = riskintel_chains::solana::parse_pubkey(address)?;
            self.chains.solana()?;
            return Ok(Target::Sol(key));
        }
        Ok(self.token_ref(chain, address)?.into())
    }

    /// The latest stored analysis of a token, whatever its age.
    pub async fn latest(
        &self,
        token: impl Into<Target>,
    ) -> Result<Option<TokenAnalysis>, AnalysisError> {
        Ok(self.cached(token.into()).await?.map(|(a, _)| a))
    }

    /// Upstream requests made so far on a chain (benchmarks and tests).
    pub fn upstream_requests(&self, chain: Chain) -> u64 {
        self.chains.upstream_requests(chain)
    }

    /// The analysis of a token: from the cache while fresh (unless
    /// `fresh`), otherwise made now — once, however many requests ask at
    /// the same time. When the chain cannot be read and an earlier analysis
    /// exists, that one is returned marked `stale`.
    pub async fn analyze(
        self: &Arc<Self>,
        target: Target,
        fresh: bool,
    ) -> Result<TokenAnalysis, AnalysisError> {
        Ok((*self.analysed(target, fresh).await?.analysis).clone())
    }

    /// [`Analyzer::analyze`] with the analysis's JSON: a result cached in
    /// memory is served without cloning or serialising it again.
    pub async fn analysed(
        self: &Arc<Self>,
        target: Target,
        fresh: bool,
    ) -> Result<Analysed, AnalysisError> {
        if !fresh {
            if let Some(analysed) = self.recent_hit(target) {
                telemetry::analysis(CacheOutcome::MemoryHit);
                return Ok(analysed);
            }
        }
        let cached = match self.cached(target).await? {
            Some((analysis, at)) if !fresh && self.clock.now() - at < self.ttl => {
                let analysed = Analysed::new(analysis)?;
                self.remember(target, analysed.clone());
                telemetry::analysis(CacheOutcome::StoreHit);
                return Ok(analysed);
            }
            // The chain's node is known to be down: the earlier result now,
            // rather than after another timeout.
            Some((analysis, _)) if self.chain_is_down(target.chain()) => {
                telemetry::analysis(CacheOutcome::Stale);
                return stale(analysis);
            }
            other => other,
        };
        match self.shared_run(target, fresh).await {
            Ok(analysed) => Ok(analysed),
            Err(AnalysisError::Rpc(error)) => match cached {
                Some((analysis, _)) => {
                    telemetry::analysis(CacheOutcome::Stale);
                    stale(analysis)
                }
                None => Err(AnalysisError::Rpc(error)),
            },
            Err(other) => Err(other),
        }
    }

    /// A cached analysis of any age (fresh or not): a wallet view may rest on it.
    pub(crate) async fn any_cached(
        &self,
        target: Target,
    ) -> Result<Option<Arc<TokenAnalysis>>, AnalysisError> {
        if let Some(analysed) = self.recent_hit(target) {
            return Ok(Some(analysed.analysis));
        }
        Ok(self
            .cached(target)
            .await?
            .map(|(analysis, _)| Arc::new(analysis)))
    }

    /// Whether the chain's node is marked down by recent calls.
    fn chain_is_down(&self, chain: Chain) -> bool {
        self.chains.circuit(chain).is_some_and(|c| c.is_down())
    }

    /// The longest an analysis may take.
    pub fn deadline(&self) -> std::time::Duration {
        self.deadline
    }

    /// Seconds an analysis stays current in the cache (0 once stale).
    pub fn max_age(&self, analysis: &TokenAnalysis) -> u64 {
        self.max_age_at(analysis, self.clock.now())
    }

    /// As [`Analyzer::max_age`], at `now`.
    pub fn max_age_at(&self, analysis: &TokenAnalysis, now: DateTime<Utc>) -> u64 {
        if analysis.stale {
            return 0;
        }
        let mut left = self.ttl - (now - analysis.cached_at);
        // An override shown is not kept past its expiry.
        if let Some(expires) = (analysis.label_override.as_ref()).and_then(|o| o.expires_at) {
            left = left.min(expires - now);
        }
        u64::try_from(left.num_seconds()).unwrap_or(0)
    }

    fn is_fresh(&self, analysis: &TokenAnalysis) -> bool {
        self.is_fresh_at(analysis, self.clock.now())
    }

    fn is_fresh_at(&self, analysis: &TokenAnalysis, now: DateTime<Utc>) -> bool {
        now - analysis.cached_at < self.ttl
    }

    /// The fresh analysis in memory of the EVM token `address` on `chain`
    /// at `now`, found by the address as written, without the EIP-55
    /// checksum's hashing: an address in one case needs none, and a
    /// mixed-case one is valid exactly when it is the analysis's own
    /// (checksummed) spelling. None sends the caller the whole way
    /// ([`Analyzer::target`], which validates, then [`Analyzer::analysed`]).
    pub fn recent_as_written(
        &self,
        chain: Chain,
        address: &str,
        now: DateTime<Utc>,
    ) -> Option<(Target, Analysed)> {
        if !chain.is_evm() {
            return None;
        }
        let hex = address.strip_prefix("0x")?;
        let bytes: [u8; 20] = alloy_primitives::hex::decode_to_array(hex).ok()?;
        let target = Target::Evm(TokenRef {
            chain,
            address: alloy_primitives::Address::from(bytes),
        });
        let analysed = (self.recent.lock().expect("recent lock"))
            .get(&target)
            .filter(|a| self.is_fresh_at(&a.analysis, now))
            .cloned()?;
        let one_case = !hex.bytes().any(|b| b.is_ascii_uppercase())
            || !hex.bytes().any(|b| b.is_ascii_lowercase());
        if !one_case && analysed.analysis.address.get(2..) != Some(hex) {
            return None;
        }
        telemetry::analysis(CacheOutcome::MemoryHit);
        Some((target, analysed))
    }

    fn recent_hit(&self, target: Target) -> Option<Analysed> {
        let recent = self.recent.lock().expect("recent lock");
        recent
            .get(&target)
            .filter(|a| self.is_fresh(&a.analysis))
            .cloned()
    }

    fn remember(&self, target: Target, analysed: Analysed) {
        let mut recent = self.recent.lock().expect("recent lock");
        if recent.len() >= RECENT_CAPACITY {
            recent.retain(|_, a| self.is_fresh(&a.analysis));
        }
        if recent.len() < RECENT_CAPACITY {
            recent.insert(target, analysed);
        }
    }

    async fn cached(
        &self,
        target: Target,
    ) -> Result<Option<(TokenAnalysis, DateTime<Utc>)>, AnalysisError> {
        let Some(row) = self
            .store
            .analysis_get(target.chain(), &target.address())
            .await?
        else {
            return Ok(None);
        };
        // An unreadable cache entry (an older format) is simply not a hit.
        Ok(serde_json::from_str(&row.result)
            .ok()
            .map(|analysis| (analysis, row.analysed_at)))
    }

    /// The analysis under way for `target`, or a new one. A flight
    /// remembers its result before it stops being in flight, so a request
    /// that finds no flight here finds the result instead (unless `fresh`).
    fn shared_run(self: &Arc<Self>, target: Target, fresh: bool) -> Flight {
        let mut inflight = self.inflight.lock().expect("inflight lock");
        if let Some(flight) = inflight.get(&target) {
            telemetry::analysis(CacheOutcome::Joined);
            return flight.clone();
        }
        if !fresh {
            if let Some(done) = self.recent_hit(target) {
                telemetry::analysis(CacheOutcome::MemoryHit);
                return futures::future::ready(Ok(done)).boxed().shared();
            }
        }
        telemetry::analysis(CacheOutcome::Miss);
        let engine = self.clone();
        let flight = async move {
            // Everything counts against the deadline: waits for the node's
            // concurrency, retries, and the store.
            let result = match tokio::time::timeout(engine.deadline, engine.run(target)).await {
                Ok(result) => result,
                Err(_) => Err(AnalysisError::past_deadline(
                    "the analysis",
                    engine.deadline,
                )),
            };
            if let Ok(analysed) = &result {
                engine.remember(target, analysed.clone());
            }
            engine
                .inflight
                .lock()
                .expect("inflight lock")
                .remove(&target);
            result
        }
        .boxed()
        .shared();
        inflight.insert(target, flight.clone());
        flight
    }

    /// Analyse now and store the result.
    async fn run(&self, target: Target) -> Result<Analysed, AnalysisError> {
        let allow = self.allowlist.get(&(target.chain(), target.address()));
        let now = self.clock.now_seconds();
        let analysis = match target {
            Target::Evm(token) => {
                let chain = self.chains.evm(token.chain)?;
                // Only a chain with a V4 DEX has pools the index alone can find.
                let known = if chain.dexes.iter().any(|d| d.kind == DexKind::V4) {
                    self.store
                        .tracked_v4_pools(chain.id, &token.address.to_checksum(None))
                        .await?
                } else {
                    Vec::new()
                };
                let facts = evm::facts::gather(
                    chain,
                    token.address,
                    &known_pools(&known),
                    self.simulate_trades,
                    self.launch,
                    |block, largest, sources| {
                        evm::holders::update(
                            self.store.as_ref(),
                            chain,
                            token.address,
                            block,
                            self.limits,
                            largest,
                            sources,
                            self.launch.holders,
                        )
                    },
                )
                .await?;
                let history = evm::history::read(
                    self.store.as_ref(),
                    chain.id,
                    token.address,
                    facts.index.creator,
                )
                .await?;
                let analysis = evm::analysis(token, &facts, &history, allow, now);
                self.track(chain.id, &analysis, &facts).await?;
                analysis
            }
            Target::Sol(mint) => {
                let mut analysis = solana::analyze(
                    self.chains.solana()?,
                    mint,
                    allow,
                    self.clock.now(),
                    self.launch,
                )
                .await?;
                analysis.cached_at = now;
                // The market index watches it from now on, as every analysed token.
                self.store
                    .tracked_token_add(&TrackedToken {
                        chain: Chain::Sol,
                        token: analysis.address.clone(),
                        source: TrackedSource::Analysed,
                        first_seen_block: analysis.as_of_block.unwrap_or_default() as i64,
                        added_at: now,
                        last_analysed_at: Some(now),
                    })
                    .await?;
                analysis
            }
        };
        let analysed = Analysed::new(analysis)?;
        let analysis = &analysed.analysis;
        self.store
            .analysis_put(
                target.chain(),
                &analysis.address,
                analysed.json.json(),
                analysis.cached_at,
            )
            .await?;
        Ok(analysed)
    }

    /// Every analysed EVM token joins the market index, with its pools (a
    /// Solana mint joins it where it is analysed).
    async fn track(
        &self,
        chain: Chain,
        analysis: &TokenAnalysis,
        facts: &evm::facts::EvmFacts,
    ) -> Result<(), AnalysisError> {
        self.store
            .tracked_token_add(&TrackedToken {
                chain,
                token: analysis.address.clone(),
                source: TrackedSource::Analysed,
                first_seen_block: facts.index.first_transfer_block.unwrap_or(facts.block) as i64,
                added_at: analysis.cached_at,
                last_analysed_at: Some(analysis.cached_at),
            })
            .await?;
        // The index follows the pools' swaps, and pairs' Sync events and
        // concentrated pools' liquidity changes against the baseline here.
        for pool in &facts.pools {
            let pair = &pool.state.pair;
            let concentrated = pair.kind().is_concentrated();
            self.store
                .tracked_pair_add(&TrackedPair {
                    chain,
                    pair: pair.index_key(),
                    token: analysis.address.clone(),
                    quote: format!("{:#x}", pair.quote.address),
                    dex: pair.dex.name.clone(),
                    // The baseline for liquidity drops: a pair's quote reserve,
                    // the quote a concentrated pool's active liquidity holds.
                    reserve_quote: if concentrated {
                        pool.state.active_quote() / 10f64.powi(i32::from(pair.quote.decimals))
                    } else {
                        units(pool.state.reserve_quote, pair.quote.decimals)
                    },
                    fee: concentrated.then_some(i64::from(pair.fee)),
                    tick_spacing: pair.v4.map(|k| i64::from(k.spacing)),
                    hooks: pair.v4.map(|k| format!("{:#x}", k.hooks)),
                })
                .await?;
        }
        Ok(())
    }

    /// The wrapped native token of a served EVM chain.
    pub fn wrapped_native(&self, chain: Chain) -> Option<Address> {
        self.chains.evm(chain).ok().map(|c| c.wrapped.address)
    }
}

/// The V4 pools the market index found for a token (pools with a hook can
/// be found no other way); rows that do not parse are left out.
fn known_pools(rows: &[TrackedPair]) -> Vec<KnownPool> {
    rows.iter()
        .filter_map(|row| {
            Some(KnownPool {
                dex: row.dex.clone(),
                key: PoolKey::parse(
                    &row.token,
                    &row.quote,
                    row.fee?,
                    row.tick_spacing?,
                    row.hooks.as_deref()?,
                )?,
            })
        })
        .collect()
}

/// An earlier analysis, served marked stale.
fn stale(mut analysis: TokenAnalysis) -> Result<Analysed, AnalysisError> {
    analysis.stale = true;
    Analysed::new(analysis)
}
