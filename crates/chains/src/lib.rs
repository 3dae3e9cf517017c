//! The floor everything stands on: chain identifiers, address validation,
//! per-chain configuration, the one JSON-RPC client (`rpc`), how deep a
//! pool is near its price on any chain (`depth`), EVM access
//! (`evm`: ABI, Multicall3, logs, pools and pricing), Solana access
//! (`solana`), and the set of configured chains built once at start
//! (`registry`).

pub mod circuit;
pub mod defaults;
pub mod depth;
pub mod evm;
pub mod lag;
pub mod metrics;
pub mod registry;
pub mod rpc;
pub mod solana;
pub mod stale;

use alloy_primitives::Address;
use serde::{Deserialize, Serialize};

/// A supported chain: the API's one list.
pub use riskintel_types::ChainId as Chain;

/// Parse a chain id given by a user: 422 material when unknown.
pub fn chain_from_id(text: &str) -> Result<Chain, InputError> {
    Chain::parse(text).ok_or_else(|| InputError::UnknownChain(text.to_string()))
}

/// Why an input was refused.
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum InputError {
    /// Unknown chain id.
    #[error("chain: {0:?} is not a supported chain (use {listed})", listed = Chain::listed())]
    UnknownChain(String),
    /// Bad address.
    #[error("address: {0}")]
    BadAddress(String),
    /// Any other field that cannot be read, with its name.
    #[error("{0}")]
    Invalid(String),
}

/// Validate an EVM address: `0x` and 40 hex digits; a mixed-case address
/// must carry a valid EIP-55 checksum.
pub fn parse_evm_address(text: &str) -> Result<Address, InputError> {
    let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) else {
        return Err(InputError::BadAddress(format!(
            "{text:?} must start with 0x"
        )));
    };
    if hex.len() != 40 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(InputError::BadAddress(format!(
            "{text:?} must be 0x followed by 40 hexadecimal digits"
        )));
    }
    let address: Address = format!("0x{hex}")
        .parse()
        .map_err(|_| InputError::BadAddress(format!("{text:?} is not an address")))?;
    let mixed =
        hex.bytes().any(|b| b.is_ascii_lowercase()) && hex.bytes().any(|b| b.is_ascii_uppercase());
    if mixed && address.to_checksum(None) != format!("0x{hex}") {
        return Err(InputError::BadAddress(format!(
            "{text:?} has an invalid EIP-55 checksum (mixed case must match the checksum; use all lower case to skip it)"
        )));
    }
    Ok(address)
}

/// A token as configured (quote assets, stablecoins).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfiguredToken {
    /// Address.
    pub address: String,
    /// Symbol, for display.
    pub symbol: String,
    /// Decimals.
    pub decimals: u8,
}

/// How a DEX keeps its liquidity, which decides how its pools are found,
/// read, priced and traded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DexKind {
    /// Uniswap-V2-style pairs: `factory.getPair(a, b)`, constant product.
    #[default]
    V2,
    /// Uniswap-V3-style concentrated liquidity (Uniswap V3, Sushi V3):
    /// `factory.getPool(a, b, fee)` for each fee tier, NFT positions.
    V3,
    /// PancakeSwap V3: V3 with its own swap callback and `Swap` event.
    PancakeV3,
    /// Uniswap V4: concentrated liquidity in one singleton PoolManager
    /// (`factory`), pools named by their key's hash, optional hooks.
    V4,
    /// Aerodrome (and Velodrome V2): Solidly-style volatile (x·y = k) and
    /// stable (x³y + y³x = k) pools, `factory.getPool(a, b, stable)`, a fee
    /// per pool (`factory.getFee(pool, stable)`).
    Aerodrome,
    /// Solidly forks of the Velodrome V1 line (Thena V1, Equalizer,
    /// Ramses and Pharaoh legacy pools): as `aerodrome`, with
    /// `factory.getPair(a, b, stable)` and `factory.getFee(stable)`.
    Solidly,
    /// Solana: Raydium's constant-product AMM (CPMM); `factory` is the
    /// program id. On `sol`, `v2` (the default kind) means this one.
    RaydiumCpmm,
    /// Solana: Raydium's AMM v4 (liquidity v4, constant product).
    RaydiumAmmV4,
    /// Solana: Raydium's concentrated-liquidity AMM (CLMM).
    RaydiumClmm,
    /// Solana: pump.fun bonding curves (found from the mint, not searched).
    PumpFun,
    /// Solana: PumpSwap, the pump.fun AMM that curves graduate to.
    PumpSwap,
    /// Solana: Orca Whirlpools (concentrated liquidity).
    OrcaWhirlpool,
    /// Solana: Meteora's dynamic liquidity market maker (DLMM, price bins).
    MeteoraDlmm,
}

impl DexKind {
    /// Whether pools of this kind keep concentrated liquidity (V3-style and V4).
    pub fn is_concentrated(self) -> bool {
        matches!(self, DexKind::V3 | DexKind::PancakeV3 | DexKind::V4)
    }

    /// Whether this is a Solana family.
    pub fn is_solana(self) -> bool {
        matches!(
            self,
            DexKind::RaydiumCpmm
                | DexKind::RaydiumAmmV4
                | DexKind::RaydiumClmm
                | DexKind::PumpFun
                | DexKind::PumpSwap
                | DexKind::OrcaWhirlpool
                | DexKind::MeteoraDlmm
        )
    }

    /// Whether pools of this kind are Solidly-style (volatile or stable).
    pub fn is_solidly(self) -> bool {
        matches!(self, DexKind::Aerodrome | DexKind::Solidly)
    }

    /// The fee tiers (hundredths of a basis point) a V3-style factory is
    /// asked about when the configuration names none.
    pub fn default_fee_tiers(self) -> &'static [u32] {
        match self {
            DexKind::V3 | DexKind::V4 => &[100, 500, 3_000, 10_000],
            DexKind::PancakeV3 => &[100, 500, 2_500, 10_000],
            _ => &[],
        }
    }
}

/// A DEX on one chain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DexConfig {
    /// Name, for display.
    pub name: String,
    /// How it keeps liquidity (`v2` when left out).
    #[serde(default)]
    pub kind: DexKind,
    /// Factory (`getPair` for v2 and solidly, `getPool` for v3, pancake_v3
    /// and aerodrome); v4: the PoolManager.
    pub factory: String,
    /// Router (the swap router of v3-style DEXes).
    pub router: String,
    /// Swap fee in basis points (30 = 0.3%); v2 only (v3-style pools carry
    /// their own; Solidly-style ones are asked theirs, this being shown
    /// where the factory cannot say).
    #[serde(default)]
    pub fee_bps: u32,
    /// v3-style and v4: the fee tiers to look for, in hundredths of a basis
    /// point (3000 = 0.3%); empty: the family's usual tiers. A v4 pool is
    /// looked for with the tick spacing Uniswap pairs with its tier, and no hook.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fee_tiers: Vec<u32>,
    /// v3-style: the NonfungiblePositionManager whose NFTs hold LP positions
    /// (empty: LP ownership of its pools is not read).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub position_manager: String,
}

impl DexConfig {
    /// A Uniswap-V2-style DEX.
    pub fn v2(name: &str, factory: &str, router: &str, fee_bps: u32) -> DexConfig {
        DexConfig {
            name: name.into(),
            kind: DexKind::V2,
            factory: factory.into(),
            router: router.into(),
            fee_bps,
            fee_tiers: Vec::new(),
            position_manager: String::new(),
        }
    }

    /// A Solidly-style DEX (`aerodrome` or `solidly`).
    pub fn solidly(kind: DexKind, name: &str, factory: &str, router: &str) -> DexConfig {
        DexConfig {
            kind,
            ..DexConfig::v2(name, factory, router, 0)
        }
    }

    /// A V3-style DEX looking in the family's usual fee tiers.
    pub fn v3(
        kind: DexKind,
        name: &str,
        factory: &str,
        router: &str,
        position_manager: &str,
    ) -> DexConfig {
        DexConfig {
            name: name.into(),
            kind,
            factory: factory.into(),
            router: router.into(),
            fee_bps: 0,
            fee_tiers: Vec::new(),
            position_manager: position_manager.into(),
        }
    }
}

/// One chain's configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChainConfig {
    /// JSON-RPC endpoint.
    pub rpc_url: String,
    /// Multicall3 address.
    pub multicall3: String,
    /// The wrapped native token (WETH, WBNB, …); priced through the stablecoins.
    pub wrapped_native: ConfiguredToken,
    /// USD stablecoins, counted as $1.
    pub stablecoins: Vec<ConfiguredToken>,
    /// The DEXes, of any family (`kind`).
    pub dexes: Vec<DexConfig>,
    /// LP locker contracts (UNCX, Team Finance, PinkLock, …): LP tokens they
    /// hold count as locked, like burned ones. Solana: lock authorities (the
    /// owners of the token accounts a locking program keeps LP in).
    pub lp_lockers: Vec<String>,
    /// Solana: one more pool pricing the wrapped native in a stablecoin
    /// (kept for older configurations; `price_pools` is the list).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub price_pool: String,
    /// Solana: pools (of any configured family) pricing the wrapped native
    /// in a stablecoin. SOL's price is their liquidity-weighted median, so
    /// one thin or pushed pool cannot set it. Empty: SOL is not priced.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub price_pools: Vec<String>,
}

impl Default for ChainConfig {
    fn default() -> Self {
        ChainConfig {
            rpc_url: String::new(),
            multicall3: evm::MULTICALL3.to_string(),
            wrapped_native: ConfiguredToken {
                address: String::new(),
                symbol: String::new(),
                decimals: 18,
            },
            stablecoins: Vec::new(),
            dexes: Vec::new(),
            lp_lockers: Vec::new(),
            price_pool: String::new(),
            price_pools: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_the_refusal_and_the_defaults_name_the_same_chains() {
        let ids: Vec<&str> = Chain::ALL.iter().map(|c| c.id()).collect();
        // The published document's enum, in the same order.
        let document: serde_json::Value =
            serde_json::from_str(include_str!("../../../openapi/riskintel.json")).unwrap();
        let schema = &document["components"]["schemas"]["ChainId"];
        assert_eq!(schema["enum"], serde_json::json!(ids));
        let described = schema["description"].as_str().unwrap();
        let refusal = InputError::UnknownChain("doge".into()).to_string();
        let mut defaults: Vec<String> = defaults::evm_chains().into_keys().collect();
        defaults.push("sol".into());
        for id in &ids {
            assert!(
                described.contains(&format!("`{id}`")),
                "{id} in the description"
            );
            assert!(refusal.contains(id), "{id} in {refusal}");
            assert!(
                defaults.iter().any(|d| d == id),
                "{id} has mainnet defaults"
            );
            assert_eq!(Chain::parse(id).map(Chain::id), Some(*id));
        }
        assert_eq!(defaults.len(), ids.len(), "no default for an unknown chain");
    }

    #[test]
    fn evm_addresses_are_validated_with_checksums() {
        let good = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2";
        assert!(parse_evm_address(good).is_ok());
        assert!(parse_evm_address(&good.to_ascii_lowercase()).is_ok());
        assert!(parse_evm_address(
            "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2"
                .to_ascii_uppercase()
                .replacen("0X", "0x", 1)
                .as_str()
        )
        .is_ok());
        let bad_checksum = "0xc02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2";
        assert!(
            matches!(parse_evm_address(bad_checksum), Err(InputError::BadAddress(m)) if m.contains("EIP-55"))
        );
        assert!(parse_evm_address("0x1234").is_err());
        assert!(parse_evm_address("C02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2").is_err());
        assert!(parse_evm_address("0xZZ2aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2").is_err());
    }
}
