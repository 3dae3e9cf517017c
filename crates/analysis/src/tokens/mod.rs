//! Token analysis: the engine (`engine`: cache, shared in-flight analyses,
//! stale fallback) over one analysis per chain family (`evm`, `solana`),
//! each reading facts, then turning them into checks and signals.
//! HTTP-agnostic.

mod batch;
pub mod engine;
pub mod evm;
pub mod launch;
pub mod solana;

use alloy_primitives::Address;

pub use engine::{Analysed, Analyzer};

use evm::holders::IndexError;
use riskintel_chains::registry::ChainError;
use riskintel_chains::rpc::RpcError;
use riskintel_chains::solana::Pubkey;
use riskintel_chains::{Chain, InputError};
use riskintel_store::StoreError;

/// Why an analysis could not be made.
#[derive(Clone, Debug, thiserror::Error)]
pub enum AnalysisError {
    /// Bad chain or address.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The chain is known but not served here.
    #[error("{0}")]
    ChainNotServed(String),
    /// No token at that address.
    #[error("{0}")]
    NotFound(String),
    /// The node failed.
    #[error(transparent)]
    Rpc(#[from] RpcError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<ChainError> for AnalysisError {
    fn from(error: ChainError) -> Self {
        match error {
            ChainError::Input(e) => AnalysisError::Input(e),
            e @ ChainError::NotServed(_) => AnalysisError::ChainNotServed(e.to_string()),
        }
    }
}

impl AnalysisError {
    /// `what` did not finish within `deadline`: the node is too slow to
    /// answer in time (503 with `Retry-After`, or an earlier result stale).
    pub fn past_deadline(what: &str, deadline: std::time::Duration) -> Self {
        AnalysisError::Rpc(RpcError::Unavailable(format!(
            "{what} did not finish within its deadline of {} ms",
            deadline.as_millis()
        )))
    }

    /// From a failure of an index update.
    pub fn from_index(error: IndexError) -> Self {
        match error {
            IndexError::Rpc(e) => AnalysisError::Rpc(e),
            IndexError::Store(e) => AnalysisError::Store(e),
        }
    }
}

/// A validated token reference on an EVM chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TokenRef {
    /// Chain.
    pub chain: Chain,
    /// Address.
    pub address: Address,
}

/// What an analysis is of: an EVM token or a Solana mint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A token on an EVM chain.
    Evm(TokenRef),
    /// A mint on Solana.
    Sol(Pubkey),
}

impl Target {
    /// `address` on `chain`, validated (whether or not this server serves the chain).
    pub fn parse(chain: Chain, address: &str) -> Result<Target, InputError> {
        if chain == Chain::Sol {
            return Ok(Target::Sol(riskintel_chains::solana::parse_pubkey(
                address,
            )?));
        }
        Ok(Target::Evm(TokenRef {
            chain,
            address: riskintel_chains::parse_evm_address(address)?,
        }))
    }

    /// The chain.
    pub fn chain(&self) -> Chain {
        match self {
            Target::Evm(t) => t.chain,
            Target::Sol(_) => Chain::Sol,
        }
    }

    /// The address as the API writes it (EIP-55 checksummed, or base58).
    pub fn address(&self) -> String {
        match self {
            Target::Evm(t) => t.address.to_checksum(None),
            Target::Sol(key) => riskintel_chains::solana::encode(key),
        }
    }
}

impl From<TokenRef> for Target {
    fn from(token: TokenRef) -> Self {
        Target::Evm(token)
    }
}
