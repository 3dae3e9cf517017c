//! What is read about an EVM token: the facts the checks judge.

use std::collections::HashMap;

use alloy_primitives::{Address, Bytes, U256};
use riskintel_types::TradeSimulation;

use super::super::code::CodeFacts;
use super::super::gaps::Gaps;
use super::super::holders::HolderIndex;
use super::super::hooks::HookFacts;
use super::super::launch::Launch;
pub use super::super::pool_facts::PoolFacts;
pub use super::super::proxy::{OwnerFact, ProxyFacts};
use super::super::roles::Probing;
use crate::simulation::callees::Callee;
use crate::simulation::replay::Replay;
use crate::simulation::wallet::WalletTrip;
use crate::tokens::launch::Units;
use riskintel_chains::evm::abi::units;

/// A holder and its balance (confirmed with `balanceOf`).
#[derive(Clone, Debug)]
pub struct Holder {
    /// Address.
    pub address: Address,
    /// Balance.
    pub balance: U256,
}

/// Everything read about a token.
#[derive(Clone, Debug)]
pub struct EvmFacts {
    /// Block the facts were read at.
    pub block: u64,
    /// That block's timestamp (unix seconds).
    pub block_time: i64,
    /// Code of the logic contract (the implementation behind a proxy, or the token).
    pub logic_code: Bytes,
    /// `name()`.
    pub name: Option<String>,
    /// `symbol()`.
    pub symbol: Option<String>,
    /// `decimals()`.
    pub decimals: Option<u8>,
    /// `totalSupply()`.
    pub total_supply: U256,
    /// Owner.
    pub owner: OwnerFact,
    /// Whether the owner has code (a multisig, timelock…); None when unknown or no owner.
    pub owner_is_contract: Option<bool>,
    /// Owner's token balance.
    pub owner_balance: Option<U256>,
    /// Proxy facts.
    pub proxy: ProxyFacts,
    /// Pools on the configured DEXes.
    pub pools: Vec<PoolFacts>,
    /// The hooks of its Uniswap V4 pools.
    pub hooks: Vec<HookFacts>,
    /// USD price of each quote asset, where known.
    pub quote_usd: HashMap<Address, f64>,
    /// Why the wrapped native could not be priced, if it could not.
    pub pricing_gap: Option<String>,
    /// Why some of the token's pools could not be read, if they could not.
    pub pool_gap: Option<String>,
    /// The holder index after this analysis's update.
    pub index: HolderIndex,
    /// Top holders (pools, dead and zero excluded), largest first.
    pub top_holders: Vec<Holder>,
    /// Timestamp of the first transfer's block, where known.
    pub first_transfer_time: Option<i64>,
    /// Timestamp of the index's start block, where it does not start at genesis.
    pub index_start_time: Option<i64>,
    /// The logic code's functions and opcodes.
    pub code: CodeFacts,
    /// What calling each non-standard function as each role did, or why it was not probed.
    pub probing: Result<Probing, String>,
    /// The largest holders' replayed exits, or why they were not replayed.
    pub replay: Result<Replay, String>,
    /// The chain's well-known tokens (wrapped native, stablecoins): address and symbol.
    pub known_tokens: Vec<(Address, String)>,
    /// Trade simulations that ran, one per pool that could be bought into.
    pub simulations: Vec<TradeSimulation>,
    /// Why simulation did not run (on some or all pools).
    pub simulation_gaps: Vec<String>,
    /// Reads the node refused, with the checks each cost.
    pub gaps: Gaps,
    /// A fresh wallet's trades through the router (round 3), where a pool
    /// allows them; why they could not be simulated otherwise.
    pub wallet: Option<Result<WalletTrip, String>>,
    /// The contracts the token called while its tokens moved (last round).
    pub callees: Vec<Callee>,
    /// Who holds the supply since the launch; or why that is not known.
    pub launch: Result<Launch, String>,
}

impl EvmFacts {
    /// The token's age from its first transfer, in chain time.
    pub fn age_seconds(&self) -> Option<i64> {
        self.first_transfer_time
            .map(|t| (self.block_time - t).max(0))
    }
}

/// A share of a whole, 0..1.
pub fn share(part: U256, whole: U256) -> f64 {
    if whole.is_zero() {
        return 0.0;
    }
    units(part, 0) / units(whole, 0)
}

/// EVM amounts, for the launch checks.
impl Units for U256 {
    fn plus(self, other: Self) -> Self {
        self.saturating_add(other)
    }
    fn of(self, whole: Self) -> f64 {
        share(self, whole)
    }
}
