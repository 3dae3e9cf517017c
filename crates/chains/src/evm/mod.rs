//! EVM chains: one [`EvmChain`] per configured chain (its nodes and parsed
//! configuration), the ABI, typed node answers, Multicall3, log scanning,
//! and Uniswap-V2-style pools with their pricing.

pub mod abi;
pub mod logs;
pub mod multicall;
pub mod pools;
pub mod simulate;
pub mod types;

use alloy_primitives::Address;

use crate::rpc::RpcClient;
use crate::{parse_evm_address, Chain, ChainConfig, ConfiguredToken, DexConfig, DexKind};

/// Whether `code` (as `eth_getCode` answers) is a contract's: an EIP-7702
/// delegation (`0xef0100` + an address) leaves the account an EOA.
pub fn is_contract_code(code: &[u8]) -> bool {
    !code.is_empty() && !code.starts_with(&[0xef, 0x01, 0x00])
}

/// An address as the API writes it (EIP-55 mixed-case checksum).
pub fn addr(a: &Address) -> String {
    a.to_checksum(None)
}

/// Multicall3's canonical address, the same on every major EVM chain.
pub const MULTICALL3: &str = "0xcA11bde05977b3631167028862bE2a173976CA11";

/// `0x…dEaD`, the conventional burn address.
pub const DEAD: Address = alloy_primitives::address!("000000000000000000000000000000000000dEaD");

/// A quote asset: the wrapped native or a stablecoin.
#[derive(Clone, Debug)]
pub struct Quote {
    /// Address.
    pub address: Address,
    /// Symbol.
    pub symbol: String,
    /// Decimals.
    pub decimals: u8,
    /// Whether it counts as $1.
    pub stable: bool,
}

/// A DEX.
#[derive(Clone, Debug)]
pub struct Dex {
    /// Name.
    pub name: String,
    /// How it keeps liquidity.
    pub kind: DexKind,
    /// Factory (V4: the PoolManager).
    pub factory: Address,
    /// Router.
    pub router: Address,
    /// Fee in basis points (v2).
    pub fee_bps: u32,
    /// Fee tiers looked for, in hundredths of a basis point (v3-style).
    pub fee_tiers: Vec<u32>,
    /// The position manager whose NFTs hold LP positions (v3-style).
    pub position_manager: Option<Address>,
}

impl Dex {
    fn from_config(chain: Chain, d: &DexConfig) -> anyhow::Result<Dex> {
        let what = |field: &str| format!("chains.{chain} dex {} {field}", d.name);
        if d.kind.is_solana() {
            anyhow::bail!("{}: {:?} is a Solana family", what("kind"), d.kind);
        }
        if d.kind == DexKind::V2 && (d.fee_bps == 0 || d.fee_bps >= 10_000) {
            anyhow::bail!(
                "{}: a v2 DEX needs its swap fee (1..9999 basis points)",
                what("fee_bps")
            );
        }
        if let Some(bad) = d.fee_tiers.iter().find(|f| **f >= 1_000_000) {
            anyhow::bail!(
                "{}: {bad} is not a fee tier (hundredths of a basis point, under 1000000)",
                what("fee_tiers")
            );
        }
        if let Some(bad) = d
            .fee_tiers
            .iter()
            .find(|f| d.kind == DexKind::V4 && pools::v4::standard_spacing(**f).is_none())
        {
            anyhow::bail!(
                "{}: {bad} is not a fee tier with a standard tick spacing (v4: 100, 500, 3000 or 10000)",
                what("fee_tiers")
            );
        }
        let fee_tiers = if d.fee_tiers.is_empty() {
            d.kind.default_fee_tiers().to_vec()
        } else {
            d.fee_tiers.clone()
        };
        Ok(Dex {
            name: d.name.clone(),
            kind: d.kind,
            factory: parse_address(&d.factory, &what("factory"))?,
            router: parse_address(&d.router, &what("router"))?,
            fee_bps: d.fee_bps,
            fee_tiers,
            position_manager: (!d.position_manager.is_empty())
                .then(|| parse_address(&d.position_manager, &what("position_manager")))
                .transpose()?,
        })
    }
}

/// One EVM chain: its nodes and parsed configuration, built once at start
/// and shared by every user of the chain.
pub struct EvmChain {
    /// Which chain.
    pub id: Chain,
    /// The node, for requests made on behalf of users.
    pub rpc: RpcClient,
    /// The same node for background work (the market index), with its own
    /// smaller concurrency cap so user requests keep priority.
    pub background: RpcClient,
    /// Multicall3.
    pub multicall: Address,
    /// Wrapped native token.
    pub wrapped: Quote,
    /// Stablecoins.
    pub stables: Vec<Quote>,
    /// DEXes.
    pub dexes: Vec<Dex>,
    /// LP lockers.
    pub lockers: Vec<Address>,
    /// Blocks between the head and the market index's cursor at its last poll.
    index_lag: crate::lag::IndexLag,
}

fn parse_address(text: &str, what: &str) -> anyhow::Result<Address> {
    parse_evm_address(text).map_err(|e| anyhow::anyhow!("{what}: {e}"))
}

impl EvmChain {
    /// The market index's lag behind the head at its last poll, in blocks.
    pub fn index_lag(&self) -> Option<u64> {
        self.index_lag.get()
    }

    /// Record the market index's lag.
    pub fn set_index_lag(&self, blocks: u64) {
        self.index_lag.set(self.id, blocks);
    }

    /// Parse a chain's configuration.
    pub fn from_config(
        id: Chain,
        config: &ChainConfig,
        rpc: RpcClient,
        background: RpcClient,
    ) -> anyhow::Result<EvmChain> {
        let quote = |t: &ConfiguredToken, stable: bool| -> anyhow::Result<Quote> {
            Ok(Quote {
                address: parse_address(&t.address, &format!("chains.{id} token {}", t.symbol))?,
                symbol: t.symbol.clone(),
                decimals: t.decimals,
                stable,
            })
        };
        Ok(EvmChain {
            id,
            index_lag: Default::default(),
            rpc,
            background,
            multicall: parse_address(&config.multicall3, &format!("chains.{id}.multicall3"))?,
            wrapped: quote(&config.wrapped_native, false)?,
            stables: config
                .stablecoins
                .iter()
                .map(|t| quote(t, true))
                .collect::<anyhow::Result<_>>()?,
            dexes: config
                .dexes
                .iter()
                .map(|d| Dex::from_config(id, d))
                .collect::<anyhow::Result<_>>()?,
            lockers: config
                .lp_lockers
                .iter()
                .map(|l| parse_address(l, &format!("chains.{id}.lp_lockers")))
                .collect::<anyhow::Result<_>>()?,
        })
    }

    /// The quote assets: the wrapped native, then the stablecoins.
    pub fn quotes(&self) -> impl Iterator<Item = &Quote> {
        std::iter::once(&self.wrapped).chain(&self.stables)
    }

    /// Native currency as a V4 pool's currency (the zero address), named
    /// after the wrapped native (WETH: ETH).
    pub fn native(&self) -> Quote {
        let symbol = &self.wrapped.symbol;
        Quote {
            address: Address::ZERO,
            symbol: symbol.strip_prefix('W').unwrap_or(symbol).to_string(),
            decimals: 18,
            stable: false,
        }
    }
}
