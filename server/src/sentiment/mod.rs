//! Token sentiment from the swaps the market index stored: flow over 1 h
//! and 24 h, and a score from −100 (bearish) to 100 (bullish).

use std::collections::BTreeSet;
use std::sync::Arc;

use chrono::Duration;
use riskintel_api::{FlowWindow, SentimentComponents, SentimentLabel, TokenSentiment};

use riskintel_analysis::tokens::{AnalysisError, Analyzer, Target};
use riskintel_chains::Chain;
use riskintel_store::clock::Clock;
use riskintel_store::{Side, Store, SwapRow};

/// Trades needed in 24 hours before sentiment is given as a number.
pub const MIN_TRADES_FOR_SENTIMENT: usize = 5;

/// Sentiment over the market index's swaps.
#[derive(Clone)]
pub struct Sentiment {
    analyzer: Arc<Analyzer>,
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
}

/// The price change across `swaps` (oldest first), as a share.
pub fn price_change(swaps: &[SwapRow]) -> Option<f64> {
    let first = swaps.first()?.price_usd;
    let last = swaps.last()?.price_usd;
    (first > 0.0).then(|| last / first - 1.0)
}

fn flow(window: &str, swaps: &[SwapRow]) -> FlowWindow {
    let buys: Vec<&SwapRow> = swaps.iter().filter(|s| s.side == Side::Buy).collect();
    let sells: Vec<&SwapRow> = swaps.iter().filter(|s| s.side == Side::Sell).collect();
    let buy_volume: f64 = buys.iter().map(|s| s.amount_usd).sum();
    let sell_volume: f64 = sells.iter().map(|s| s.amount_usd).sum();
    FlowWindow {
        window: window.into(),
        buys: buys.len() as u64,
        sells: sells.len() as u64,
        buy_volume_usd: buy_volume,
        sell_volume_usd: sell_volume,
        unique_buyers: buys
            .iter()
            .map(|s| s.trader.as_str())
            .collect::<BTreeSet<_>>()
            .len() as u64,
        unique_sellers: sells
            .iter()
            .map(|s| s.trader.as_str())
            .collect::<BTreeSet<_>>()
            .len() as u64,
        net_flow_usd: buy_volume - sell_volume,
        price_change: price_change(swaps),
    }
}

fn imbalance(a: f64, b: f64) -> f64 {
    if a + b > 0.0 {
        (a - b) / (a + b)
    } else {
        0.0
    }
}

impl Sentiment {
    /// Sentiment over `store`'s swaps.
    pub fn new(analyzer: Arc<Analyzer>, store: Arc<dyn Store>, clock: Arc<dyn Clock>) -> Sentiment {
        Sentiment {
            analyzer,
            store,
            clock,
        }
    }

    /// Sentiment of a token from its swaps.
    pub async fn of(&self, chain: Chain, address: &str) -> Result<TokenSentiment, AnalysisError> {
        // The address as the index keeps it: EVM checksummed, a Solana mint as given.
        let checksummed = match self.analyzer.target(chain, address)? {
            Target::Evm(token) => token.address.to_checksum(None),
            Target::Sol(mint) => riskintel_chains::solana::encode(&mint),
        };
        let now = self.clock.now();
        let day = self
            .store
            .swaps_since(chain, &checksummed, now - Duration::hours(24))
            .await?;
        let hour: Vec<SwapRow> = day
            .iter()
            .filter(|s| s.observed_at >= now - Duration::hours(1))
            .cloned()
            .collect();
        let windows = vec![flow("1h", &hour), flow("24h", &day)];
        let (d, h) = (&windows[1], &windows[0]);
        let (score, label, reason, components) = if day.len() < MIN_TRADES_FOR_SENTIMENT {
            (
                None,
                SentimentLabel::InsufficientData,
                Some(format!(
                    "{} swap(s) in the last 24 hours; at least {MIN_TRADES_FOR_SENTIMENT} are needed to say which way trading leans",
                    day.len()
                )),
                None,
            )
        } else {
            let c = SentimentComponents {
                volume_imbalance: imbalance(d.buy_volume_usd, d.sell_volume_usd),
                count_imbalance: imbalance(d.buys as f64, d.sells as f64),
                trader_imbalance: imbalance(d.unique_buyers as f64, d.unique_sellers as f64),
                recent_volume_imbalance: imbalance(h.buy_volume_usd, h.sell_volume_usd),
            };
            let score = (100.0
                * (0.4 * c.volume_imbalance
                    + 0.2 * c.count_imbalance
                    + 0.2 * c.trader_imbalance
                    + 0.2 * c.recent_volume_imbalance))
                .clamp(-100.0, 100.0);
            let score = (score * 10.0).round() / 10.0;
            let label = if score >= 20.0 {
                SentimentLabel::Bullish
            } else if score <= -20.0 {
                SentimentLabel::Bearish
            } else {
                SentimentLabel::Neutral
            };
            (Some(score), label, None, Some(c))
        };
        Ok(TokenSentiment {
            chain: chain.to_string(),
            address: checksummed,
            score,
            label,
            reason,
            components,
            windows,
            generated_at: self.clock.now_seconds(),
        })
    }
}
