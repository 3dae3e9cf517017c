//! The configured chains, built once at start: one [`EvmChain`] per served
//! EVM chain and the Solana chain, each with its node clients. The token
//! analysis, the wallet analysis and the market index all share them.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::circuit::{Circuit, NodeHealth};
use super::evm::EvmChain;
use super::rpc::{RpcClient, RpcSettings};
use super::solana::SolanaChain;
use super::{Chain, ChainConfig, InputError};

/// Every chain this server serves.
pub struct Chains {
    evm: BTreeMap<Chain, Arc<EvmChain>>,
    solana: Option<Arc<SolanaChain>>,
}

/// Why a chain cannot be used.
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum ChainError {
    /// Not a chain id, or a bad address.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A known chain that this server has no node for.
    #[error("chain: {0:?} has no RPC endpoint configured on this server")]
    NotServed(String),
}

impl Chains {
    /// The chains of `configs` that have an RPC URL, their clients tuned
    /// by `settings`; each chain also gets a background client capped at
    /// `background_concurrency` requests in flight.
    pub fn from_config(
        configs: &BTreeMap<String, ChainConfig>,
        settings: &RpcSettings,
        background_concurrency: u32,
        log: &slog::Logger,
    ) -> anyhow::Result<Chains> {
        let http = reqwest::Client::builder()
            .connect_timeout(settings.timeout)
            .build()
            .map_err(|e| anyhow::anyhow!("building the upstream HTTP client: {e}"))?;
        let mut evm = BTreeMap::new();
        let mut solana = None;
        for (id, chain_config) in configs {
            let chain =
                Chain::parse(id).ok_or_else(|| anyhow::anyhow!("chains.{id}: unknown chain id"))?;
            if chain_config.rpc_url.is_empty() {
                continue;
            }
            // One circuit per chain, shared by its clients.
            let circuit = Circuit::new(chain, &chain_config.rpc_url, log.clone());
            let client = |concurrency: usize| {
                RpcClient::new(
                    http.clone(),
                    &chain_config.rpc_url,
                    RpcSettings {
                        concurrency: concurrency.max(1),
                        ..settings.clone()
                    },
                    circuit.clone(),
                )
            };
            if chain.is_evm() {
                let node = EvmChain::from_config(
                    chain,
                    chain_config,
                    client(settings.concurrency),
                    client(background_concurrency as usize),
                )?;
                evm.insert(chain, Arc::new(node));
            } else {
                solana = Some(Arc::new(SolanaChain::from_config(
                    chain_config,
                    client(settings.concurrency),
                    client(background_concurrency as usize),
                )?));
            }
        }
        Ok(Chains { evm, solana })
    }

    /// A served EVM chain.
    pub fn evm(&self, chain: Chain) -> Result<&Arc<EvmChain>, ChainError> {
        self.evm
            .get(&chain)
            .ok_or_else(|| ChainError::NotServed(chain.id().to_string()))
    }

    /// The Solana chain, when served.
    pub fn solana(&self) -> Result<&Arc<SolanaChain>, ChainError> {
        self.solana
            .as_ref()
            .ok_or_else(|| ChainError::NotServed(Chain::Sol.id().to_string()))
    }

    /// The served EVM chains, in order.
    pub fn evm_chains(&self) -> impl Iterator<Item = (Chain, &Arc<EvmChain>)> {
        self.evm.iter().map(|(c, e)| (*c, e))
    }

    /// The market index's lag on a served chain at its last poll (blocks;
    /// slots on Solana); None before the first poll.
    pub fn index_lag(&self, chain: Chain) -> Option<u64> {
        match chain {
            Chain::Sol => self.solana.as_ref()?.index_lag.get(),
            _ => self.evm.get(&chain)?.index_lag(),
        }
    }

    /// The circuit of a served chain.
    pub fn circuit(&self, chain: Chain) -> Option<&Arc<Circuit>> {
        match chain {
            Chain::Sol => self.solana.as_ref().map(|s| s.rpc.circuit()),
            _ => self.evm.get(&chain).map(|c| c.rpc.circuit()),
        }
    }

    /// Every served chain: the EVM chains in chain order, then Solana.
    pub fn served(&self) -> impl Iterator<Item = Chain> + '_ {
        (self.evm.keys().copied()).chain(self.solana.as_ref().map(|_| Chain::Sol))
    }

    /// Every served chain's node, as health shows it, in `served` order.
    pub fn health(&self) -> Vec<(Chain, NodeHealth)> {
        self.served()
            .filter_map(|chain| Some((chain, self.circuit(chain)?.health())))
            .collect()
    }

    /// Upstream requests made so far on a chain for users (benchmarks and tests).
    pub fn upstream_requests(&self, chain: Chain) -> u64 {
        match chain {
            Chain::Sol => self.solana.as_ref().map_or(0, |s| s.rpc.requests_made()),
            _ => self.evm.get(&chain).map_or(0, |c| c.rpc.requests_made()),
        }
    }
}
