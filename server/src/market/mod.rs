//! Market intelligence: the background index (`indexer`) and the market
//! overview and top tokens computed from what it tracks. HTTP-agnostic.

pub mod indexer;
pub mod pool_logs;
mod reanalysis;
mod solana;

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use riskintel_api::{
    LabelCounts, MarketOverview, MarketSummary, Mover, PoolKind, RiskLabel, TokenAnalysis,
    TopToken, TopTokensFilter, TopTokensSort,
};

use crate::sentiment::price_change;
use riskintel_analysis::tokens::{AnalysisError, Analyzer};
use riskintel_chains::Chain;
use riskintel_store::clock::Clock;
use riskintel_store::{AlertQuery, Store};

/// Market queries over the index.
#[derive(Clone)]
pub struct Market {
    analyzer: Arc<Analyzer>,
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
}

/// A tracked token with what the market views need.
struct Row {
    chain: Chain,
    analysis: TokenAnalysis,
    added_at: DateTime<Utc>,
    volume_24h: f64,
    change_24h: Option<f64>,
}

impl Market {
    /// Market queries over `analyzer`'s chains and `store`'s index.
    pub fn new(analyzer: Arc<Analyzer>, store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> Market {
        Market {
            analyzer,
            store,
            clock,
        }
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
        let mut chains: Vec<Chain> = self
            .analyzer
            .chains()
            .evm_chains()
            .map(|(c, _)| c)
            .collect();
        if let Some(c) = chain {
            chains.retain(|x| *x == c);
        }
        let summarise = |name: &str, rows: Vec<&Row>, alerts: usize, native: Option<f64>| {
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
                alerts_24h: alerts as u64,
                native_price_usd: native,
                movers,
            }
        };
        let mut per_chain = Vec::new();
        for &chain in &chains {
            let chain_rows: Vec<&Row> = rows.iter().filter(|r| r.chain == chain).collect();
            let wrapped = (self.analyzer.wrapped_native(chain)).map(|a| a.to_checksum(None));
            let native = chain_rows.iter().find_map(|r| {
                // Any priced constant-product pool against the wrapped native
                // gives its price: its liquidity is twice its side.
                let pool = r.analysis.meta.pools.iter().find(|p| {
                    p.kind == PoolKind::ConstantProduct
                        && Some(&p.quote_address) == wrapped.as_ref()
                        && p.reserve_quote > 0.0
                })?;
                pool.liquidity_usd.map(|l| l / 2.0 / pool.reserve_quote)
            });
            let chain_alerts = alerts.iter().filter(|a| a.chain == chain).count();
            per_chain.push(summarise(chain.id(), chain_rows, chain_alerts, native));
        }
        let total = summarise("all", rows.iter().collect(), alerts.len(), None);
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
