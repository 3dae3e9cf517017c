//! Market intelligence, sentiment and the risk-alert feed, computed from the
//! service's own on-chain index.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::token::{RiskLabel, Severity};

/// What an alert is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AlertKind {
    /// A new pair made a token appear; carries its first label.
    NewToken,
    /// A token's label went up or down.
    LabelChanged,
    /// A token turned out to be a honeypot.
    HoneypotDetected,
    /// A pool lost half or more of its liquidity.
    LiquidityRemoved,
    /// The token's owner changed.
    OwnershipChanged,
    /// The proxy's implementation changed.
    ProxyUpgraded,
    /// New tokens were minted.
    SupplyMinted,
    /// The transfer fee a mint charges changed (Solana, Token-2022).
    FeeChanged,
    /// A power over holders' tokens was gained or changed: a freeze
    /// authority, a permanent delegate, a transfer hook, an update authority
    /// over metadata.
    AuthorityChanged,
    /// The operator set, changed or removed an override of the token's
    /// label, or one expired; `label_before` and `label_after` are the
    /// labels shown, the scores the engine's.
    OverrideChanged,
    /// A sanctions list the service screens addresses against changed:
    /// `address` is the list's name, `detail` says how many of its entries
    /// for this chain were added and removed (one alert per chain they
    /// apply to).
    SanctionsListUpdated,
}

/// A risk alert.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Alert {
    /// Alert id; larger ids are newer.
    pub id: String,
    /// Chain id.
    pub chain: String,
    /// Token address.
    pub address: String,
    /// What happened.
    pub kind: AlertKind,
    /// How serious it is.
    pub severity: Severity,
    /// A short title.
    pub title: String,
    /// What happened, with the numbers.
    pub detail: String,
    /// Score before the event, where known.
    pub score_before: Option<f64>,
    /// Label before the event, where known.
    pub label_before: Option<RiskLabel>,
    /// Score after the event.
    pub score_after: Option<f64>,
    /// Label after the event.
    pub label_after: Option<RiskLabel>,
    /// Block the event was seen at.
    pub block: u64,
    /// When the service observed it (UTC).
    pub observed_at: DateTime<Utc>,
}

/// Filters of the alert feed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AlertFilter {
    /// Only this chain.
    #[serde(default)]
    pub chain: Option<String>,
    /// Only alerts at least this severe.
    #[serde(default)]
    pub min_severity: Option<Severity>,
    /// Only this kind.
    #[serde(default)]
    pub kind: Option<AlertKind>,
    /// Only alerts observed at or after this time.
    #[serde(default)]
    pub since: Option<DateTime<Utc>>,
}

/// Where a page of the feed resumes: the filters and the last id listed.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct AlertPageSelector {
    /// The filters of the listing.
    pub filter: AlertFilter,
    /// Id of the last alert listed.
    pub last_id: i64,
}

/// Risk labels and how many tokens carry each.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LabelCounts {
    /// Tokens labelled safe.
    pub safe: u64,
    /// Tokens labelled caution.
    pub caution: u64,
    /// Tokens labelled risky.
    pub risky: u64,
    /// Tokens labelled critical.
    pub critical: u64,
}

/// Alerts and how many carry each severity.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeverityCounts {
    /// Alerts of severity info.
    pub info: u64,
    /// Alerts of severity low.
    pub low: u64,
    /// Alerts of severity medium.
    pub medium: u64,
    /// Alerts of severity high.
    pub high: u64,
    /// Alerts of severity critical.
    pub critical: u64,
}

/// A token whose price moved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Mover {
    /// Chain id.
    pub chain: String,
    /// Token address.
    pub address: String,
    /// Symbol.
    pub symbol: String,
    /// Price now, in US dollars.
    pub price_usd: Option<f64>,
    /// Relative price change over 24 hours (0.1 = +10%).
    pub price_change_24h: f64,
    /// Risk label: the engine's, or the operator's when an override is in force.
    pub label: RiskLabel,
    /// The operator's override of the label, with the engine's own label;
    /// null when none is in force.
    #[serde(rename = "override", default)]
    pub label_override: Option<crate::LabelOverride>,
}

/// The market on one chain, or on all of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MarketSummary {
    /// Chain id, or `all` for the total.
    pub chain: String,
    /// Tokens the service watches.
    pub tokens_tracked: u64,
    /// Tokens that appeared in the last 24 hours.
    pub new_tokens_24h: u64,
    /// Liquidity of the watched tokens' priced pools, in US dollars.
    pub liquidity_usd: f64,
    /// Swap volume of the last 24 hours, in US dollars.
    pub volume_24h_usd: f64,
    /// Watched tokens per risk label.
    pub labels: LabelCounts,
    /// Alerts of the last 24 hours.
    pub alerts_24h: u64,
    /// The same alerts, by severity.
    pub alerts_24h_by_severity: SeverityCounts,
    /// Price of the native currency in US dollars (per chain; null in the
    /// total): ETH, BNB, POL, AVAX or FTM from a constant-product pool of its
    /// wrapped token that a watched token's analysis priced; SOL from the
    /// configured SOL/stablecoin price pools. Null while none is known.
    pub native_price_usd: Option<f64>,
    /// Whether the service's market index reads this chain (in the total:
    /// any chain). False for a chain that is served but not indexed (the
    /// index is off, or the chain has no DEX to read): its counts then come
    /// only from tokens analysed on request.
    pub indexed: bool,
    /// How far the index was behind the chain's head at its last poll: in
    /// blocks on EVM chains, in slots on Solana (where it counts only the
    /// signatures a poll left for the next one). Null before the first poll,
    /// for a chain not indexed, and in the total.
    pub index_lag: Option<u64>,
    /// The largest 24-hour price moves, up or down.
    pub movers: Vec<Mover>,
}

/// Market overview.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MarketOverview {
    /// Per chain.
    pub chains: Vec<MarketSummary>,
    /// All chains together.
    pub total: MarketSummary,
    /// When this was computed.
    pub generated_at: DateTime<Utc>,
}

/// Which chain the overview covers.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
pub struct OverviewQuery {
    /// Only this chain.
    #[serde(default)]
    pub chain: Option<String>,
}

/// Sort order of top tokens (largest first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TopTokensSort {
    /// By liquidity in US dollars.
    #[default]
    Liquidity,
    /// By 24-hour volume.
    Volume24h,
    /// By market cap.
    MarketCap,
    /// By 24-hour price change.
    PriceChange24h,
}

/// Filters and order of top tokens.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TopTokensFilter {
    /// Sort order (default `liquidity`).
    #[serde(default)]
    pub sort: Option<TopTokensSort>,
    /// Only this chain.
    #[serde(default)]
    pub chain: Option<String>,
    /// Only this label.
    #[serde(default)]
    pub label: Option<RiskLabel>,
}

/// Where a page of top tokens resumes.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct TopTokensPageSelector {
    /// Filters and order of the listing.
    pub filter: TopTokensFilter,
    /// Sort value of the last row listed.
    pub last_value: f64,
    /// Chain of the last row listed.
    pub last_chain: String,
    /// Address of the last row listed.
    pub last_address: String,
}

/// One row of top tokens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TopToken {
    /// Chain id.
    pub chain: String,
    /// Token address.
    pub address: String,
    /// Name.
    pub name: String,
    /// Symbol.
    pub symbol: String,
    /// Price in US dollars.
    pub price_usd: Option<f64>,
    /// Liquidity in US dollars.
    pub liquidity_usd: Option<f64>,
    /// Market cap in US dollars.
    pub market_cap_usd: Option<f64>,
    /// Swap volume of the last 24 hours in US dollars.
    pub volume_24h_usd: f64,
    /// Relative price change over 24 hours, where there were trades.
    pub price_change_24h: Option<f64>,
    /// Risk score.
    pub score: f64,
    /// Risk label: the engine's, or the operator's when an override is in force.
    pub label: RiskLabel,
    /// The operator's override of the label, with the engine's own label;
    /// null when none is in force.
    #[serde(rename = "override", default)]
    pub label_override: Option<crate::LabelOverride>,
}

/// Direction of trading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SentimentLabel {
    /// Score 20 or more: buyers dominate.
    Bullish,
    /// Between −20 and 20.
    Neutral,
    /// Score −20 or less: sellers dominate.
    Bearish,
    /// Too little trading to say.
    InsufficientData,
}

/// Swap flow over one window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FlowWindow {
    /// `1h` or `24h`.
    pub window: String,
    /// Buy swaps.
    pub buys: u64,
    /// Sell swaps.
    pub sells: u64,
    /// Bought, in US dollars.
    pub buy_volume_usd: f64,
    /// Sold, in US dollars.
    pub sell_volume_usd: f64,
    /// Distinct buying addresses.
    pub unique_buyers: u64,
    /// Distinct selling addresses.
    pub unique_sellers: u64,
    /// Bought minus sold, in US dollars.
    pub net_flow_usd: f64,
    /// Relative price change over the window, where there were trades.
    pub price_change: Option<f64>,
}

/// How the score was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SentimentComponents {
    /// Volume imbalance over 24 h, −1..1: (bought − sold) / (bought + sold).
    pub volume_imbalance: f64,
    /// Count imbalance over 24 h, −1..1.
    pub count_imbalance: f64,
    /// Trader imbalance over 24 h, −1..1: (buyers − sellers) / (buyers + sellers).
    pub trader_imbalance: f64,
    /// Volume imbalance over the last hour, −1..1.
    pub recent_volume_imbalance: f64,
}

/// Token sentiment from swap flow.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TokenSentiment {
    /// Chain id.
    pub chain: String,
    /// Token address.
    pub address: String,
    /// −100 (bearish) to 100 (bullish); null when there is too little trading.
    pub score: Option<f64>,
    /// Label from the score.
    pub label: SentimentLabel,
    /// Why there is no score, when there is none.
    pub reason: Option<String>,
    /// The parts of the score (null without a score).
    pub components: Option<SentimentComponents>,
    /// Flow over the last hour and the last 24 hours.
    pub windows: Vec<FlowWindow>,
    /// When this was computed.
    pub generated_at: DateTime<Utc>,
}
