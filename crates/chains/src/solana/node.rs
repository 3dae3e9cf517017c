//! The Solana chain: its node and parsed configuration (the node's
//! answers as types are in `types`).

use super::pools::{family_of_program, Family};
use super::{encode, parse_pubkey, Pubkey};
use crate::rpc::RpcClient;
use crate::ChainConfig;

/// The Solana chain, built once at start and shared.
pub struct SolanaChain {
    /// The node.
    pub rpc: RpcClient,
    /// The same node for background work (the market index), with its own
    /// small cap on requests in flight so users' requests keep priority.
    pub background: RpcClient,
    /// Wrapped SOL.
    pub wsol: Pubkey,
    /// Stablecoins (mint, symbol), counted as $1.
    pub stables: Vec<(Pubkey, String)>,
    /// The AMM families searched, each with its program.
    pub dexes: Vec<SolanaDex>,
    /// The pools pricing SOL in a stablecoin.
    pub price_pools: Vec<Pubkey>,
    /// Lock authorities: LP in token accounts they own counts as locked.
    pub lockers: Vec<Pubkey>,
    /// Slots the market index left for its next poll, at its last poll.
    pub index_lag: crate::lag::IndexLag,
}

/// A configured family of pools.
#[derive(Clone, Debug, PartialEq)]
pub struct SolanaDex {
    /// Its name, as configured.
    pub name: String,
    /// Its family.
    pub family: Family,
    /// Its program.
    pub program: Pubkey,
}

fn key_of(text: &str, what: &str) -> anyhow::Result<Pubkey> {
    parse_pubkey(text).map_err(|e| anyhow::anyhow!("chains.sol {what}: {e}"))
}

impl SolanaChain {
    /// Parse `chains.sol`; `rpc` serves analyses, `background` the index.
    pub fn from_config(
        config: &ChainConfig,
        rpc: RpcClient,
        background: RpcClient,
    ) -> anyhow::Result<SolanaChain> {
        Ok(SolanaChain {
            rpc,
            background,
            wsol: key_of(&config.wrapped_native.address, "wrapped_native")?,
            stables: config
                .stablecoins
                .iter()
                .map(|s| Ok((key_of(&s.address, "stablecoin")?, s.symbol.clone())))
                .collect::<anyhow::Result<_>>()?,
            dexes: config
                .dexes
                .iter()
                .map(|d| {
                    let family = Family::of_kind(d.kind).ok_or_else(|| {
                        anyhow::anyhow!(
                            "chains.sol dex {}: {:?} is not a Solana family",
                            d.name,
                            d.kind
                        )
                    })?;
                    Ok(SolanaDex {
                        name: d.name.clone(),
                        family,
                        program: key_of(&d.factory, "dex program")?,
                    })
                })
                .collect::<anyhow::Result<_>>()?,
            price_pools: config
                .price_pools
                .iter()
                .chain(Some(&config.price_pool).filter(|p| !p.is_empty()))
                .map(|p| key_of(p, "price_pools"))
                .collect::<anyhow::Result<_>>()?,
            lockers: (config.lp_lockers.iter())
                .map(|l| key_of(l, "lp_lockers"))
                .collect::<anyhow::Result<_>>()?,
            index_lag: Default::default(),
        })
    }

    /// The configured DEX of `family`, when searched.
    pub fn dex(&self, family: Family) -> Option<&SolanaDex> {
        self.dexes.iter().find(|d| d.family == family)
    }

    /// The family of the pool account owned by `owner`: a configured
    /// program, else a family's mainnet program.
    pub fn family_of(&self, owner: &str) -> Option<Family> {
        let owner_key = parse_pubkey(owner).ok()?;
        self.dexes
            .iter()
            .find(|d| d.program == owner_key)
            .map(|d| d.family)
            .or_else(|| family_of_program(owner))
    }

    /// The name a pool of `family` is shown with.
    pub fn dex_name(&self, family: Family) -> String {
        self.dex(family)
            .map_or_else(|| family.name().to_string(), |d| d.name.clone())
    }

    /// The symbol of a quote mint: SOL, a configured stablecoin, or its address.
    pub fn symbol_of(&self, mint: &Pubkey) -> String {
        if *mint == self.wsol {
            return "SOL".to_string();
        }
        self.stables
            .iter()
            .find(|(s, _)| s == mint)
            .map(|(_, s)| s.clone())
            .unwrap_or_else(|| encode(mint))
    }
}
