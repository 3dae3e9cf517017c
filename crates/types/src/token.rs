//! Token intelligence: analysis, metadata, explanation and badge.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{CheckId, LabelOverride};

/// Path of one token: `/v1/token/{chain}/{address}/…`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct TokenPath {
    /// Chain id: `eth`, `bsc`, `sol`, `base`, `arb`, `poly`, `avax` or `ftm`.
    pub chain: String,
    /// Token address: 0x-prefixed hex on EVM chains (EIP-55 checksum checked
    /// when mixed case), base58 on `sol`.
    pub address: String,
}

/// Route of the query form (`/v1/token/analyze`); the one segment must be `analyze`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct TokenQueryRoute {
    /// Always `analyze`.
    pub chain: String,
}

/// `chain` and `address` of the query form, read from the query string.
#[derive(Clone, Debug, Deserialize)]
pub struct TokenQueryParams {
    /// Chain id.
    pub chain: Option<String>,
    /// Token address.
    pub address: Option<String>,
}

/// Options of an analysis.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
pub struct AnalysisOptions {
    /// Bypass the cache and analyse now (Pro and Pro+ only).
    #[serde(default)]
    pub fresh: Option<bool>,
}

/// Risk label, from the score: safe < 20, caution < 50, risky < 80, critical ≥ 80.
/// A result whose coverage is under 0.6 is never labelled safe.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum RiskLabel {
    /// Score under 20 with enough coverage.
    Safe,
    /// Score 20 to under 50 (or a low score with too little coverage).
    Caution,
    /// Score 50 to under 80.
    Risky,
    /// Score 80 or more.
    Critical,
}

/// How serious a signal is.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Context only; does not raise the score.
    Info,
    /// Minor risk.
    Low,
    /// Notable risk.
    Medium,
    /// Serious risk.
    High,
    /// Likely loss of funds.
    Critical,
}

impl Severity {
    /// Its rank, info 0 … critical 4 (stored beside alerts, for filtering).
    pub fn rank(self) -> i64 {
        self as i64
    }
}

/// What part of a token a signal is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SignalCategory {
    /// The contract's code.
    Contract,
    /// Who controls the contract.
    Ownership,
    /// Buying, selling and transferring.
    Trading,
    /// Pools and their liquidity.
    Liquidity,
    /// Who holds the supply.
    Distribution,
    /// Age and market activity.
    Market,
}

/// What a signal rests on: the upstream call, the block, and the raw value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Evidence {
    /// The upstream call(s) the fact was read with, e.g. `eth_getCode(0x…)`.
    pub rpc: String,
    /// Block the value was read at.
    pub block: Option<u64>,
    /// The raw values, by name.
    pub raw: serde_json::Value,
}

/// A detected risk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Signal {
    /// The check that found it.
    pub id: CheckId,
    /// How serious it is.
    pub severity: Severity,
    /// Contribution to the score, 0..1: score = 100 × (1 − Π(1 − weight)).
    pub weight: f64,
    /// What part of the token it is about.
    pub category: SignalCategory,
    /// A short title.
    pub title: String,
    /// One plain sentence with the numbers.
    pub detail: String,
    /// What it rests on.
    pub evidence: Evidence,
}

/// Outcome of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    /// The check ran and found the risk (a signal is listed).
    Detected,
    /// The check ran and found nothing.
    Clear,
    /// The check could not run; `reason` says why. Unknown is not safe.
    Unknown,
}

/// One check of the analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Check {
    /// The check, named like the signal it can raise.
    pub id: CheckId,
    /// What it found.
    pub status: CheckStatus,
    /// Why it could not run (for `unknown`).
    pub reason: Option<String>,
}

/// Which checks ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Coverage {
    /// Share of the checks that ran, 0..1.
    pub ratio: f64,
    /// Every check and its outcome.
    pub checks: Vec<Check>,
}

/// How a pool prices trades.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PoolKind {
    /// x·y = k over all prices (Uniswap-V2-style pairs; on Solana Raydium
    /// CPMM and AMM v4, PumpSwap).
    #[default]
    ConstantProduct,
    /// Liquidity concentrated in price ranges (Uniswap V3 and V4, PancakeSwap
    /// V3, Sushi V3; on Solana Raydium CLMM and Orca Whirlpools).
    Concentrated,
    /// x³y + y³x = k, flat near parity (Solidly-style stable pools:
    /// Aerodrome, Velodrome, Thena, Equalizer, Ramses, Pharaoh).
    Stable,
    /// A launchpad's bonding curve selling the token before it trades in a
    /// pool (pump.fun): x·y = k on virtual reserves, its real reserves
    /// held by the launchpad's program.
    BondingCurve,
    /// Liquidity in discrete price bins (Meteora DLMM).
    Bins,
}

/// A liquidity pool of the token.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Pool {
    /// The DEX, as named in the configuration.
    pub dex: String,
    /// How the pool prices trades.
    #[serde(default)]
    pub kind: PoolKind,
    /// The pool's swap fee in basis points (30 = 0.3%), where known.
    #[serde(default)]
    pub fee_bps: Option<f64>,
    /// Pool address; a Uniswap V4 pool's id in its PoolManager (0x and 64 hex digits).
    pub address: String,
    /// A Uniswap V4 pool's hook contract; null when it has none (or is not a V4 pool).
    #[serde(default)]
    pub hook: Option<String>,
    /// The hook's permissions, from the low 14 bits of its address
    /// (`before_swap`, `after_swap_returns_delta`, …); empty without a hook.
    #[serde(default)]
    pub hook_flags: Vec<String>,
    /// The other token of the pair.
    pub quote_address: String,
    /// Its symbol, as configured.
    pub quote_symbol: String,
    /// Token reserve, in whole tokens (a concentrated pool: its token
    /// balance; a Uniswap V4 pool, whose tokens the PoolManager holds with
    /// every other pool's: what a constant-product pool with its active
    /// liquidity would hold).
    pub reserve_token: f64,
    /// Quote reserve, in whole quote tokens (as `reserve_token`).
    pub reserve_quote: f64,
    /// Liquidity in US dollars, the figure the liquidity checks use (null
    /// when the quote cannot be priced): a constant-product pool's value of
    /// both sides (twice its quote); a stable pool's value locked; a
    /// concentrated pool's value of a constant-product pool as deep within
    /// 2% of the price, capped at its value locked — so liquidity out of
    /// range does not count, and neither does more than the pool holds.
    pub liquidity_usd: Option<f64>,
    /// US dollars it takes to move the price up 2%, plus the dollars paid
    /// out moving it down 2% (fees left out); null when unpriced.
    #[serde(default)]
    pub depth_2pct_usd: Option<f64>,
    /// Value of the pool's balances of both tokens in US dollars; null when
    /// unpriced, and for a Uniswap V4 pool (it has no balances of its own).
    #[serde(default)]
    pub tvl_usd: Option<f64>,
    /// Share of LP burned (dead or zero address), 0..1. A concentrated
    /// pool's LP is the active liquidity of position NFTs, against the
    /// pool's active liquidity.
    pub lp_burned_share: Option<f64>,
    /// Share of LP burned or held by a configured locker contract, 0..1.
    pub lp_locked_share: Option<f64>,
    /// Share of LP held by the token's owner, 0..1.
    pub lp_owner_share: Option<f64>,
    /// Share of LP held by the token's creator (the first mint's recipient;
    /// on Solana the creator the pool or curve records), 0..1.
    #[serde(default)]
    pub lp_creator_share: Option<f64>,
    /// A bonding curve's progress to graduation: the share of the tokens it
    /// sells that are sold, 0..1 (1 once complete); null for other pools.
    #[serde(default)]
    pub curve_progress: Option<f64>,
}

/// Token metadata, read from the chain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TokenMeta {
    /// Token name (string or bytes32 `name()`).
    pub name: String,
    /// Token symbol.
    pub symbol: String,
    /// Price in US dollars from the deepest priced pool; null when it has none.
    pub price_usd: Option<f64>,
    /// Price × total supply; null when unpriced.
    pub market_cap_usd: Option<f64>,
    /// Decimals.
    pub decimals: Option<u8>,
    /// Total supply in base units, as a decimal string.
    pub total_supply: Option<String>,
    /// Liquidity of all priced pools in US dollars.
    pub liquidity_usd: Option<f64>,
    /// Pools found on the configured DEXes.
    pub pools: Vec<Pool>,
    /// The owner (`owner()` or `getOwner()`); null when it has none.
    pub owner: Option<String>,
    /// The creator: the recipient of the first mint, where the token's whole history was read.
    #[serde(default)]
    pub creator: Option<String>,
    /// Whether the token is a proxy (EIP-1967 or EIP-1167).
    pub is_proxy: bool,
    /// The proxy's implementation (logic) contract, for a proxy.
    pub implementation: Option<String>,
    /// Solana: the token program, `spl-token` or `token-2022` (null on EVM chains).
    #[serde(default)]
    pub token_program: Option<String>,
    /// First block the token was seen in (its first transfer), where known.
    pub first_seen_block: Option<u64>,
    /// Buy tax measured by trade simulation on the deepest simulated pool, 0..1.
    pub buy_tax: Option<f64>,
    /// Sell tax measured by trade simulation, 0..1.
    pub sell_tax: Option<f64>,
    /// Tax on a wallet-to-wallet transfer measured by simulation, 0..1.
    pub transfer_tax: Option<f64>,
}

/// One step of a simulated trade.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TradeStep {
    /// Whether it succeeded.
    pub ok: bool,
    /// Amount sent (whole tokens of what was sent).
    pub amount_in: Option<f64>,
    /// Output expected from the reserves and the DEX fee (whole tokens of what comes out).
    pub expected_out: Option<f64>,
    /// Output actually received.
    pub actual_out: Option<f64>,
    /// `1 − actual / expected`, 0..1.
    pub tax: Option<f64>,
    /// Gas used.
    pub gas_used: Option<u64>,
    /// Decoded revert reason (`Error(string)` text, a panic code, or a custom error selector).
    pub revert_reason: Option<String>,
}

/// A simulated buy, transfer and sell on one pool, made with `eth_call` and
/// state overrides: no transaction is sent and no state changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TradeSimulation {
    /// The DEX.
    pub dex: String,
    /// Pool address; a Uniswap V4 pool's id (as in `meta.pools`).
    pub pool: String,
    /// The quote asset spent on the buy.
    pub quote_symbol: String,
    /// The fresh address the simulator ran at: derived from the token, the pool and the block, so it is nobody's (never the deployer's or the owner's) and a re-analysis of an unchanged chain repeats it.
    pub simulator: String,
    /// Buy of the token with the quote asset.
    pub buy: TradeStep,
    /// Wallet-to-wallet transfer of a tenth of what was bought.
    pub transfer: Option<TradeStep>,
    /// Sell of everything bought.
    pub sell: Option<TradeStep>,
    /// Largest sell that succeeds as a share of what was bought (1 when the full sell succeeds).
    pub max_sell_share: Option<f64>,
    /// Sells tried later than their buy, by other fresh wallets, in blocks
    /// simulated one after another with the clock moved forward
    /// (`eth_simulateV1`); absent when the node could not simulate them.
    pub horizons: Option<Vec<HorizonSell>>,
    /// Why the later sells could not be simulated, when they could not.
    pub horizons_error: Option<String>,
    /// The largest buys a fresh wallet could make, simulated with the
    /// horizons; absent when they could not be simulated.
    pub buy_limits: Option<BuyLimits>,
    /// Addresses the token called while its tokens moved in this
    /// simulation, other than the trade's own parties (the pool, the
    /// simulator's wallets, the quote tokens, the configured DEXes, its
    /// implementation); absent when the node could not trace the calls.
    pub transfer_calls: Option<Vec<String>>,
    /// Why the calls could not be traced, when they could not.
    pub transfer_calls_error: Option<String>,
}

/// The largest buys a fresh wallet could make: trial buys (each undone)
/// searched up to a fifth of the pool's quote reserve, the largest that
/// passed then made for real, and the search repeated an hour later by the
/// same wallet, holding what it bought.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BuyLimits {
    /// Whether a buy of a fifth of the reserve failed, so a limit was found.
    pub capped: bool,
    /// The largest buy that passed (whole tokens received).
    pub largest_buy: f64,
    /// The largest buy the same wallet could make an hour later (whole tokens received).
    pub largest_buy_again: Option<f64>,
}

/// When a simulated sell was tried, after its buy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Horizon {
    /// In the buy's block, right after it.
    SameBlock,
    /// In the next block (one block, about 12 seconds, later).
    NextBlock,
    /// One hour later.
    OneHour,
    /// One day later.
    OneDay,
}

/// One fresh wallet's buy and later sell of everything it bought.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HorizonSell {
    /// When the sell was tried.
    pub horizon: Horizon,
    /// Seconds between the buy and the sell, in chain time.
    pub seconds_after_buy: u64,
    /// Whether this sell shared its block with another wallet's sell that came first.
    pub second_in_block: bool,
    /// The fresh wallet (derived like the simulator's address).
    pub wallet: String,
    /// Whether its buy succeeded.
    pub bought: bool,
    /// Whether selling everything it bought succeeded.
    pub ok: bool,
    /// Share of what it bought that it could sell: 1, a thousandth when only that passed, or 0.
    pub sold_share: Option<f64>,
    /// `1 − received / expected` of the full sell, 0..1.
    pub tax: Option<f64>,
    /// Decoded revert reason of the buy or of the full sell, when it failed.
    pub revert_reason: Option<String>,
}

/// A token analysis result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TokenAnalysis {
    /// Chain id.
    pub chain: String,
    /// Token address (EIP-55 checksummed on EVM chains).
    pub address: String,
    /// Risk score, 0 (safe) to 100 (critical), one decimal.
    pub score: f64,
    /// Label from the score, or the operator's when an override is in force
    /// (`override`).
    pub label: RiskLabel,
    /// The operator's override of the label, with the engine's own label;
    /// null when none is in force.
    #[serde(rename = "override", default)]
    pub label_override: Option<LabelOverride>,
    /// Detected risks.
    pub signals: Vec<Signal>,
    /// Token metadata.
    pub meta: TokenMeta,
    /// When this analysis was made (UTC).
    pub cached_at: DateTime<Utc>,
    /// Block the analysis read the chain at.
    pub as_of_block: Option<u64>,
    /// Which checks ran.
    pub coverage: Coverage,
    /// Trade simulations, one per simulated pool.
    pub simulations: Vec<TradeSimulation>,
    /// True when the chain could not be read and this is an earlier analysis.
    pub stale: bool,
}

/// Token metadata with where and when it was read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TokenMetaReport {
    /// Chain id.
    pub chain: String,
    /// Token address.
    pub address: String,
    /// The metadata.
    #[serde(flatten)]
    pub meta: TokenMeta,
    /// When it was read (UTC).
    pub cached_at: DateTime<Utc>,
    /// Block it was read at.
    pub as_of_block: Option<u64>,
    /// True when the chain could not be read and this is an earlier reading.
    pub stale: bool,
}

/// One signal, explained for a holder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SignalExplanation {
    /// The check that found it.
    pub id: CheckId,
    /// How serious it is.
    pub severity: Severity,
    /// A short title.
    pub title: String,
    /// What it means for someone holding or buying the token.
    pub meaning: String,
    /// The numbers behind it.
    pub numbers: String,
}

/// A check that could not be made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UncheckedItem {
    /// The check.
    pub id: CheckId,
    /// Why it could not be made.
    pub reason: String,
}

/// A human-readable account of a token's analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TokenExplanation {
    /// Chain id.
    pub chain: String,
    /// Token address.
    pub address: String,
    /// Risk score.
    pub score: f64,
    /// Risk label: the engine's, or the operator's when an override is in force.
    pub label: RiskLabel,
    /// The operator's override of the label, with the engine's own label;
    /// null when none is in force.
    #[serde(rename = "override", default)]
    pub label_override: Option<LabelOverride>,
    /// One paragraph a non-expert understands.
    pub summary: String,
    /// One entry per signal.
    pub signals: Vec<SignalExplanation>,
    /// What could not be checked, and why.
    pub not_checked: Vec<UncheckedItem>,
    /// When the analysis was made.
    pub cached_at: DateTime<Utc>,
    /// True when this rests on an earlier analysis because the chain could not be read.
    pub stale: bool,
}
