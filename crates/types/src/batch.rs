//! Batch analysis: a list of tokens, on any chains, in one request.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{ErrorDetail, Serialized, TokenAnalysis};

/// The most tokens one batch may hold.
pub const BATCH_MAX_ITEMS: usize = 100;

/// Tokens to analyse in one request.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct BatchAnalysisRequest {
    /// The tokens, 1 to 100, on any chains (mixed); answered in this order.
    /// A token named twice is analysed once.
    #[schemars(length(min = 1, max = 100))]
    pub items: Vec<BatchItem>,
    /// `true` analyses every token now instead of serving cached results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fresh: Option<bool>,
}

/// One token of a batch.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct BatchItem {
    /// Chain id: `eth`, `bsc`, `sol`, `base`, `arb`, `poly`, `avax` or `ftm`.
    pub chain: String,
    /// Token address: 0x-prefixed hex on EVM chains (EIP-55 checksum checked
    /// when mixed case), base58 on `sol`.
    pub address: String,
}

/// The answer to a batch: one entry per item, in the order asked.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct BatchAnalysis {
    /// One entry per item of the request, in its order.
    pub results: Vec<BatchEntry>,
    /// Entries answered with an analysis (each counts as one request in
    /// the monthly usage).
    pub analysed: u32,
    /// Entries answered with an error.
    pub failed: u32,
}

/// The answer for one item: its analysis, or its own error.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct BatchEntry {
    /// The item's chain, as asked.
    pub chain: String,
    /// The item's address, as asked.
    pub address: String,
    /// The HTTP status the item would have had alone: 200, or its error's
    /// (404 not a token, 422 a bad chain or address, 503 the chain cannot be
    /// read now, …).
    pub status: u16,
    /// The analysis, when `status` is 200 (served as cached, without
    /// serialising it again).
    pub analysis: Option<Serialized<TokenAnalysis>>,
    /// What went wrong, otherwise (the error envelope's content).
    pub error: Option<ErrorDetail>,
}
