//! The analysis settings of the configuration file (`[analysis]`) and its
//! allowlist of known issuers; the server's configuration holds them.

use serde::{Deserialize, Serialize};

/// Token analysis settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AnalysisConfig {
    /// How long an analysis is served from the cache, in seconds.
    pub cache_ttl_seconds: u64,
    /// Longest an analysis may take, in milliseconds, waits for the node
    /// and retries included; past it an earlier result is served `stale`,
    /// or 503 with `Retry-After`.
    pub deadline_ms: u64,
    /// Timeout of one upstream request, in milliseconds.
    pub rpc_timeout_ms: u64,
    /// Retries of an upstream request that could not reach the node.
    pub rpc_retries: u32,
    /// First retry back-off, in milliseconds (doubles each retry).
    pub rpc_backoff_ms: u64,
    /// Upstream requests in flight at once, per chain.
    pub rpc_concurrency: u32,
    /// How far back (in blocks) the holder index reads Transfer logs.
    pub holder_lookback_blocks: u64,
    /// Blocks per `eth_getLogs` request to start with (halved when the node refuses).
    pub log_chunk_blocks: u64,
    /// Most `eth_getLogs` requests one analysis may make; the rest waits for the next.
    pub max_log_requests: u32,
    /// Simulate a buy, transfer and sell with `eth_call` state overrides
    /// (turn off for nodes that do not support them; the checks then report
    /// `unknown`).
    pub simulate_trades: bool,
    /// Most unknown holdings a wallet analysis analyses itself (the largest);
    /// the rest are listed as not yet analysed.
    pub wallet_max_analyses: u32,
    /// Blocks before a token's first pool opened that are read with their
    /// transactions, to find the wallets its creator funded to buy at the
    /// opening (`bundled_launch`); each is one more call in the last round's batch.
    pub launch_window_blocks: u64,
    /// Most holders whose first tokens came by the end of the opening blocks
    /// looked at for the launch cluster (the earliest).
    pub launch_holders: u32,
    /// Solana: slots before a mint opened for trading in which its
    /// creator's SOL transfers count as funding the wallets that bought at
    /// the opening (9,000 slots: about an hour).
    pub launch_window_slots: u64,
    /// Solana: transactions read at most for the launch checks, of the
    /// mint's opening and of the creator's around it (each one call in the
    /// launch's batches).
    pub launch_transactions: u32,
}

impl Default for AnalysisConfig {
    fn default() -> Self {
        AnalysisConfig {
            cache_ttl_seconds: 300,
            deadline_ms: 8_000,
            rpc_timeout_ms: 10_000,
            rpc_retries: 2,
            rpc_backoff_ms: 200,
            rpc_concurrency: 8,
            holder_lookback_blocks: 500_000,
            log_chunk_blocks: 50_000,
            max_log_requests: 16,
            simulate_trades: true,
            wallet_max_analyses: 5,
            launch_window_blocks: 25,
            launch_holders: 500,
            launch_window_slots: 9_000,
            launch_transactions: 100,
        }
    }
}

/// A known issuer of one token.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllowlistEntry {
    /// Chain id.
    pub chain: String,
    /// Token address.
    pub address: String,
    /// Who issues it, e.g. `Circle`.
    pub issuer: String,
    /// Why its powers are expected, shown with each signal it turns to `info`.
    pub reason: String,
}

impl From<&AnalysisConfig> for crate::tokens::launch::LaunchLimits {
    /// The launch reads' bounds, from the settings.
    fn from(a: &AnalysisConfig) -> Self {
        crate::tokens::launch::LaunchLimits {
            window_blocks: a.launch_window_blocks,
            holders: a.launch_holders as usize,
            window_slots: a.launch_window_slots,
            transactions: a.launch_transactions as usize,
        }
    }
}

impl From<&AnalysisConfig> for riskintel_chains::evm::logs::ScanLimits {
    /// The log scans' look-back and chunking, from the settings.
    fn from(a: &AnalysisConfig) -> Self {
        riskintel_chains::evm::logs::ScanLimits {
            lookback_blocks: a.holder_lookback_blocks,
            chunk_blocks: a.log_chunk_blocks,
            max_requests: a.max_log_requests,
        }
    }
}
