//! Token analysis on Solana: `facts` reads the mint and what surrounds it
//! (metadata, holders, pools of every family, age), `holders` groups the
//! largest accounts by owner, `launch` finds who bought and was funded at
//! the launch, `liquidity` values the pools, `checks` turns the facts into
//! checks, signals and metadata.

pub mod checks;
pub mod facts;
pub mod history;
pub mod holders;
pub mod launch;
pub mod liquidity;
pub mod lp;
pub mod sell;

use chrono::{DateTime, Utc};
use riskintel_types::TokenAnalysis;

use super::AnalysisError;
use crate::config::AllowlistEntry;
use crate::tokens::launch::LaunchLimits;
use riskintel_chains::solana::{Pubkey, SolanaChain};

/// Analyse a mint.
pub async fn analyze(
    chain: &SolanaChain,
    mint: Pubkey,
    allow: Option<&AllowlistEntry>,
    now: DateTime<Utc>,
    limits: LaunchLimits,
) -> Result<TokenAnalysis, AnalysisError> {
    let facts = facts::gather(chain, mint, limits).await?;
    Ok(checks::analysis(chain, &facts, allow, now))
}
