//! Mainnet defaults for the seven EVM chains. Addresses are the canonical
//! deployments published by each project (Uniswap, PancakeSwap, QuickSwap,
//! Trader Joe, SpookySwap, SushiSwap; Circle and Tether token lists; the
//! wrapped-native contracts). Every value can be overridden in the
//! configuration file; verify before relying on a default in production.

use std::collections::BTreeMap;

use super::{ChainConfig, ConfiguredToken, DexConfig};

fn token(address: &str, symbol: &str, decimals: u8) -> ConfiguredToken {
    ConfiguredToken {
        address: address.into(),
        symbol: symbol.into(),
        decimals,
    }
}

fn dex(name: &str, factory: &str, router: &str, fee_bps: u32) -> DexConfig {
    DexConfig {
        name: name.into(),
        factory: factory.into(),
        router: router.into(),
        fee_bps,
    }
}

fn chain(
    rpc_url: &str,
    wrapped: ConfiguredToken,
    stablecoins: Vec<ConfiguredToken>,
    dexes: Vec<DexConfig>,
) -> ChainConfig {
    ChainConfig {
        rpc_url: rpc_url.into(),
        wrapped_native: wrapped,
        stablecoins,
        dexes,
        ..ChainConfig::default()
    }
}

/// The default configuration of every EVM chain, by chain id.
pub fn evm_chains() -> BTreeMap<String, ChainConfig> {
    let mut chains = BTreeMap::new();
    chains.insert(
        "eth".into(),
        chain(
            "https://ethereum-rpc.publicnode.com",
            token("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "WETH", 18),
            vec![
                token("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "USDC", 6),
                token("0xdAC17F958D2ee523a2206206994597C13D831ec7", "USDT", 6),
            ],
            vec![dex(
                "Uniswap V2",
                "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f",
                "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D",
                30,
            )],
        ),
    );
    chains.insert(
        "bsc".into(),
        chain(
            "https://bsc-rpc.publicnode.com",
            token("0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c", "WBNB", 18),
            vec![
                token("0x55d398326f99059fF775485246999027B3197955", "USDT", 18),
                token("0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", "USDC", 18),
            ],
            vec![dex(
                "PancakeSwap V2",
                "0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73",
                "0x10ED43C718714eb63d5aA57B78B54704E256024E",
                25,
            )],
        ),
    );
    chains.insert(
        "base".into(),
        chain(
            "https://base-rpc.publicnode.com",
            token("0x4200000000000000000000000000000000000006", "WETH", 18),
            vec![token(
                "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
                "USDC",
                6,
            )],
            vec![dex(
                "Uniswap V2",
                "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6",
                "0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24",
                30,
            )],
        ),
    );
    chains.insert(
        "arb".into(),
        chain(
            "https://arbitrum-one-rpc.publicnode.com",
            token("0x82aF49447D8a07e3bd95BD0d56f35241523fBab1", "WETH", 18),
            vec![
                token("0xaf88d065e77c8cC2239327C5EDb3A432268e5831", "USDC", 6),
                token("0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", "USDT", 6),
            ],
            vec![
                dex(
                    "Uniswap V2",
                    "0xf1D7CC64Fb4452F05c498126312eBE29f30Fbcf9",
                    "0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24",
                    30,
                ),
                dex(
                    "SushiSwap",
                    "0xc35DADB65012eC5796536bD9864eD8773aBc74C4",
                    "0x1b02dA8Cb0d097eB8D57A175b88c7D8b47997506",
                    30,
                ),
            ],
        ),
    );
    chains.insert(
        "poly".into(),
        chain(
            "https://polygon-bor-rpc.publicnode.com",
            token("0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270", "WPOL", 18),
            vec![
                token("0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", "USDC", 6),
                token("0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174", "USDC.e", 6),
                token("0xc2132D05D31c914a87C6611C10748AEb04B58e8F", "USDT", 6),
            ],
            vec![dex(
                "QuickSwap",
                "0x5757371414417b8C6CAad45bAeF941aBc7d3Ab32",
                "0xa5E0829CaCEd8fFDD4De3c43696c57F7D7A678ff",
                30,
            )],
        ),
    );
    chains.insert(
        "avax".into(),
        chain(
            "https://avalanche-c-chain-rpc.publicnode.com",
            token("0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7", "WAVAX", 18),
            vec![
                token("0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E", "USDC", 6),
                token("0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7", "USDT", 6),
            ],
            vec![dex(
                "Trader Joe V1",
                "0x9Ad6C38BE94206cA50bb0d90783181662f0Cfa10",
                "0x60aE616a2155Ee3d9A68541Ba4544862310933d4",
                30,
            )],
        ),
    );
    chains.insert(
        "ftm".into(),
        chain(
            "https://rpc.ftm.tools",
            token("0x21be370D5312f44cB42ce377BC9b8a0cEF1A4C83", "WFTM", 18),
            vec![token(
                "0x04068DA6C83AFCFA0e13ba15A6696662335D5B75",
                "USDC",
                6,
            )],
            vec![dex(
                "SpookySwap",
                "0x152eE697f2E276fA89E96742e9bB9aB1F2E61bE3",
                "0xF491e7B69E4244ad4002BC14e878a34207E38c29",
                20,
            )],
        ),
    );
    chains
}

/// The default configuration of Solana: its public mainnet endpoint,
/// wrapped SOL, USDC and USDT, and Raydium's CPMM program. No price pool by
/// default: set `chains.sol.price_pool` to a CPMM SOL/USDC pool to price
/// liquidity quoted in SOL.
pub fn solana() -> ChainConfig {
    ChainConfig {
        rpc_url: "https://api.mainnet-beta.solana.com".into(),
        multicall3: String::new(),
        wrapped_native: token(super::solana::WSOL_MINT, "SOL", 9),
        stablecoins: vec![
            token("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "USDC", 6),
            token("Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", "USDT", 6),
        ],
        dexes: vec![dex(
            "Raydium CPMM",
            super::solana::RAYDIUM_CPMM_PROGRAM,
            "",
            25,
        )],
        lp_lockers: Vec::new(),
        price_pool: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chains::parse_evm_address;

    #[test]
    fn solana_defaults_are_base58_keys() {
        let sol = solana();
        for address in [
            &sol.wrapped_native.address,
            &sol.stablecoins[0].address,
            &sol.dexes[0].factory,
        ] {
            assert!(
                crate::chains::solana::parse_pubkey(address).is_ok(),
                "{address}"
            );
        }
    }

    #[test]
    fn every_default_address_is_a_checksummed_address() {
        for (id, chain) in evm_chains() {
            let mut addresses = vec![
                chain.multicall3.clone(),
                chain.wrapped_native.address.clone(),
            ];
            addresses.extend(chain.stablecoins.iter().map(|t| t.address.clone()));
            for dex in &chain.dexes {
                addresses.push(dex.factory.clone());
                addresses.push(dex.router.clone());
            }
            for address in addresses {
                assert!(parse_evm_address(&address).is_ok(), "{id}: {address}");
            }
            assert!(
                !chain.dexes.is_empty() && !chain.stablecoins.is_empty(),
                "{id}"
            );
        }
    }
}
