//! Token analysis on EVM chains: `facts` reads the chain, `holders` keeps
//! the holder index, `code` lists the bytecode's functions, `powers` finds
//! what privileged roles can do by probing them, and `checks`,
//! `liquidity` and `distribution` turn facts into checks and signals.

pub mod behaviour;
pub mod checks;
pub mod code;
pub mod control;
pub mod distribution;
pub mod facts;
pub mod gaps;
pub mod gatekeepers;
pub mod history;
pub mod holders;
pub mod hooks;
pub mod impersonation;
pub mod launch;
pub mod liquidity;
pub mod pool_facts;
pub mod powers;
pub mod proxy;
pub mod roles;

use chrono::{DateTime, Utc};
use riskintel_types::TokenAnalysis;

use super::TokenRef;
use crate::config::AllowlistEntry;

/// The analysis of `token` from its facts, made at `now`.
pub fn analysis(
    token: TokenRef,
    facts: &facts::EvmFacts,
    history: &history::CreatorHistory,
    allow: Option<&AllowlistEntry>,
    now: DateTime<Utc>,
) -> TokenAnalysis {
    let assessment = checks::assess(token.address, facts, history, allow);
    let verdict = assessment.verdict;
    TokenAnalysis {
        chain: token.chain.id().to_string(),
        address: token.address.to_checksum(None),
        score: verdict.score,
        label: verdict.label,
        label_override: None,
        signals: verdict.signals,
        meta: assessment.meta,
        cached_at: now,
        as_of_block: Some(facts.block),
        coverage: verdict.coverage,
        simulations: facts.simulations.clone(),
        stale: false,
    }
}
