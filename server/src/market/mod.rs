//! Market intelligence: the background index (`indexer`) and the market
//! overview and top tokens computed from what it tracks. HTTP-agnostic.

pub mod indexer;
pub mod pool_logs;
mod reanalysis;
mod solana;

use std::sync::Arc;

use alloy_primitives::Address;
use chrono::{DateTime, Duration, Utc};
use riskintel_api::{
    LabelCounts, MarketOverview, MarketSummary, Mover, PoolKind, RiskLabel, Severity,
    SeverityCounts, TokenAnalysis, TopToken, TopTokensFilter, TopTokensSort,
};

use crate::sentiment::price_change;
use riskintel_analysis::tokens::solana::liquidity::read_sol_price;
use riskintel_analysis::tokens::{AnalysisError, Analyzer};
use riskintel_chains::Chain;
use riskintel_store::clock::Clock;
use riskintel_store::{AlertQuery, AlertRow, Store};

/// Market queries over the index.
#[derive(Clone)]
pub struct Market {
    analyzer: Arc<Analyzer>,
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    /// Whether this service runs the market index.
    indexing: bool,
}

/// A tracked token with what the market views need.
struct Row {
    chain: Chain,
    analysis: TokenAnalysis,
    added_at: DateTime<Utc>,
    volume_24h: f64,
    change_24h: Option<f64>,
}

/// A chain's native price from any priced constant-product pool of a
/// watched token against the wrapped native: its liquidity is twice its side.
fn native_price(wrapped: Option<Address>, rows: &[&Row]) -> Option<f64> {
    let wrapped = wrapped?.to_checksum(None);
    rows.iter().find_map(|r| {
        let pool = r.analysis.meta.pools.iter().find(|p| {
            p.kind == PoolKind::ConstantProduct
                && p.quote_address == wrapped
                && p.reserve_quote > 0.0
        })?;
        pool.liquidity_usd.map(|l| l / 2.0 / pool.reserve_quote)
    })
}

/// Alerts counted by severity.
fn by_severity(alerts: &[&AlertRow]) -> SeverityCounts {
    let mut counts = SeverityCounts::default();
    for alert in alerts {
        match alert.severity {
            Severity::Info => counts.info += 1,
            Severity::Low => counts.low += 1,
            Severity::Medium => counts.medium += 1,
            Severity::High => counts.high += 1,
            Severity::Critical => counts.critical += 1,
        }
    }
    counts
}

impl Market {
    /// Market queries over `analyzer`'s chains and `store`'s index.
    pub fn new(analyzer: Arc<Analyzer>, store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> Market {
        Market {
            analyzer,
            store,
            clock,
            indexing: true,
        }
    }

    /// Whether the market index runs here (it does unless configured off).
    pub fn set_indexing(&mut self, on: bool) {
        self.indexing = on;
    }

    /// Whether the index reads `chain`: it runs, and the chain has a DEX to read.
    fn indexes(&self, chain: Chain) -> bool {
        let chains = self.analyzer.chains();
        self.indexing
            && match chain {
                Chain::Sol => chains.solana().is_ok_and(|s| !s.dexes.is_empty()),
                _ => chains.evm(chain).is_ok_and(|e| !e.dexes.is_empty()),
            }
    }

    /// SOL's price in US dollars from the configured price pools; None when
    /// Solana is not served or the pools cannot be read now.
    async fn sol_price(&self) -> Option<f64> {
        let solana = self.analyzer.chains().solana().ok()?;
        read_sol_price(solana, &solana.rpc).await.ok().flatten()
    }

    /// The filter's chain, if it names one (422 when unknown).
    fn chain_filter(filter: &TopTokensFilter) -> Result<Option<Chain>, AnalysisError> {
        (filter.chain.as_deref())
            .map(|c| riskintel_chains::chain_from_id(c).map_err(AnalysisError::from))
            .transpose()
    }

    async fn rows(&self, chain: Option<Chain>) -> Result<Vec<Row>, AnalysisError> {
        let since = self.clock.now() - Duration::hours(24);
        let mut rows = Vec::new();
        for tracked in self.store.tracked_tokens(chain).await? {
            let chain_id = tracked.chain;
            let Ok(target) = self.analyzer.target(chain_id, &tracked.token) else {
                continue;
            };
            let Some(mut analysis) = self.analyzer.latest(target).await? else {
                continue;
            };
            // Every market view shows the operator's label where one is in force.
            self.analyzer.overrides().apply_to(target, &mut analysis);
            let swaps = self
                .store
                .swaps_since(chain_id, &tracked.token, since)
                .await?;
            rows.push(Row {
                chain: tracked.chain,
                added_at: tracked.added_at,
                volume_24h: swaps.iter().map(|s| s.amount_usd).sum(),
                change_24h: price_change(&swaps),
                analysis,
            });
        }
        Ok(rows)
    }

    /// Per chain and in total.
    pub async fn overview(&self, chain: Option<Chain>) -> Result<MarketOverview, AnalysisError> {
        let now = self.clock.now();
        let since = now - Duration::hours(24);
        let rows = self.rows(chain).await?;
        let alerts = self
            .store
            .alerts(&AlertQuery {
                chain,
                since: Some(since),
                limit: i64::MAX >> 1,
                ..Default::default()
            })
            .await?;
        // Every served chain: the EVM chains in order, then Solana.
        let mut chains: Vec<Chain> = self.analyzer.chains().served().collect();
        if let Some(c) = chain {
            chains.retain(|x| *x == c);
        }
        let summarise = |name: &str, rows: Vec<&Row>, alerts: &[&AlertRow], native: Option<f64>| {
            let mut labels = LabelCounts::default();
            for r in &rows {
                match r.analysis.label {
                    RiskLabel::Safe => labels.safe += 1,
                    RiskLabel::Caution => labels.caution += 1,
                    RiskLabel::Risky => labels.risky += 1,
                    RiskLabel::Critical => labels.critical += 1,
                }
            }
            let mut movers: Vec<Mover> = rows
                .iter()
                .filter_map(|r| {
                    Some(Mover {
                        chain: r.chain.to_string(),
                        address: r.analysis.address.clone(),
                        symbol: r.analysis.meta.symbol.clone(),
                        price_usd: r.analysis.meta.price_usd,
                        price_change_24h: r.change_24h?,
                        label: r.analysis.label,
                        label_override: r.analysis.label_override.clone(),
                    })
                })
                .collect();
            movers.sort_by(|a, b| {
                b.price_change_24h
                    .abs()
                    .total_cmp(&a.price_change_24h.abs())
            });
            movers.truncate(5);
            MarketSummary {
                chain: name.to_string(),
                tokens_tracked: rows.len() as u64,
                new_tokens_24h: rows.iter().filter(|r| r.added_at >= since).count() as u64,
                liquidity_usd: rows
                    .iter()
                    .filter_map(|r| r.analysis.meta.liquidity_usd)
                    .sum(),
                volume_24h_usd: rows.iter().map(|r| r.volume_24h).sum(),
                labels,
                alerts_24h: alerts.len() as u64,
                alerts_24h_by_severity: by_severity(alerts),
                native_price_usd: native,
                indexed: false,
                index_lag: None,
                movers,
            }
        };
        let mut per_chain = Vec::new();
        for &chain in &chains {
            let chain_rows: Vec<&Row> = rows.iter().filter(|r| r.chain == chain).collect();
            let native = match chain {
                Chain::Sol => self.sol_price().await,
                _ => native_price(self.analyzer.wrapped_native(chain), &chain_rows),
            };
            let chain_alerts: Vec<&AlertRow> = alerts.iter().filter(|a| a.chain == chain).collect();
            let indexed = self.indexes(chain);
            per_chain.push(MarketSummary {
                indexed,
                index_lag: indexed
                    .then(|| self.analyzer.chains().index_lag(chain))
                    .flatten(),
                ..summarise(chain.id(), chain_rows, &chain_alerts, native)
            });
        }
        let all: Vec<&AlertRow> = alerts.iter().collect();
        let total = MarketSummary {
            indexed: per_chain.iter().any(|c| c.indexed),
            ..summarise("all", rows.iter().collect(), &all, None)
        };
        Ok(MarketOverview {
            chains: per_chain,
            total,
            generated_at: self.clock.now_seconds(),
        })
    }

    /// Top tokens, sorted and filtered; (rows after the cursor, the sort value of each).
    pub async fn top_tokens(
        &self,
        filter: &TopTokensFilter,
        after: Option<(f64, String, String)>,
        limit: usize,
    ) -> Result<Vec<(TopToken, f64)>, AnalysisError> {
        let typed = Self::chain_filter(filter)?;
        let sort = filter.sort.unwrap_or_default();
        let mut rows: Vec<(TopToken, f64)> = self
            .rows(typed)
            .await?
            .into_iter()
            .filter(|r| filter.label.is_none_or(|l| r.analysis.label == l))
            .map(|r| {
                let token = TopToken {
                    chain: r.chain.to_string(),
                    address: r.analysis.address.clone(),
                    name: r.analysis.meta.name.clone(),
                    symbol: r.analysis.meta.symbol.clone(),
                    price_usd: r.analysis.meta.price_usd,
                    liquidity_usd: r.analysis.meta.liquidity_usd,
                    market_cap_usd: r.analysis.meta.market_cap_usd,
                    volume_24h_usd: r.volume_24h,
                    price_change_24h: r.change_24h,
                    score: r.analysis.score,
                    label: r.analysis.label,
                    label_override: r.analysis.label_override.clone(),
                };
                let value = match sort {
                    TopTokensSort::Liquidity => token.liquidity_usd.unwrap_or(-1.0),
                    TopTokensSort::Volume24h => token.volume_24h_usd,
                    TopTokensSort::MarketCap => token.market_cap_usd.unwrap_or(-1.0),
                    TopTokensSort::PriceChange24h => token.price_change_24h.unwrap_or(f64::MIN),
                };
                (token, value)
            })
            .collect();
        // Largest first; chain and address break ties, so the order is total and pages are stable.
        rows.sort_by(|(a, va), (b, vb)| {
            vb.total_cmp(va)
                .then_with(|| a.chain.cmp(&b.chain))
                .then_with(|| a.address.cmp(&b.address))
        });
        if let Some((value, chain, address)) = after {
            rows.retain(|(t, v)| {
                v.total_cmp(&value).is_lt()
                    || (*v == value
                        && (t.chain.clone(), t.address.clone()) > (chain.clone(), address.clone()))
            });
        }
        rows.truncate(limit);
        Ok(rows)
    }
}
