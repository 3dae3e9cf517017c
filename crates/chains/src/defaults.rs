//! Mainnet defaults for the seven EVM chains. Addresses are the canonical
//! deployments published by each project (Uniswap V2, V3 and V4, PancakeSwap
//! V2 and V3, Sushi V2 and V3, QuickSwap, Trader Joe, SpookySwap V2 and V3,
//! Aerodrome, Equalizer, and — not verified here — Thena V1 and Ramses;
//! Circle, Tether, Wormhole and Axelar token lists; the wrapped-native
//! contracts; UNCX, Team Finance and PinkSale lockers), with their sources
//! in `docs/configuration.md`. Every value can be overridden in the
//! configuration file; verify before relying on a default in production.

use crate::Chain;
use std::collections::BTreeMap;

use super::solana::pools::Family;
use super::{ChainConfig, ConfiguredToken, DexConfig, DexKind};

fn token(address: &str, symbol: &str, decimals: u8) -> ConfiguredToken {
    ConfiguredToken {
        address: address.into(),
        symbol: symbol.into(),
        decimals,
    }
}

fn dex(name: &str, factory: &str, router: &str, fee_bps: u32) -> DexConfig {
    DexConfig::v2(name, factory, router, fee_bps)
}

fn uniswap_v3(factory: &str, router: &str, position_manager: &str) -> DexConfig {
    DexConfig::v3(DexKind::V3, "Uniswap V3", factory, router, position_manager)
}

/// Uniswap V4: the chain's PoolManager, and its Universal Router as the router.
fn uniswap_v4(pool_manager: &str, universal_router: &str) -> DexConfig {
    DexConfig::v3(
        DexKind::V4,
        "Uniswap V4",
        pool_manager,
        universal_router,
        "",
    )
}

/// A Solidly fork (Velodrome V1 line): `getPair(a, b, stable)`.
fn solidly(name: &str, factory: &str, router: &str) -> DexConfig {
    DexConfig::solidly(DexKind::Solidly, name, factory, router)
}

/// PancakeSwap V3: one address set on bsc, eth, arb and base.
fn pancake_v3() -> DexConfig {
    DexConfig::v3(
        DexKind::PancakeV3,
        "PancakeSwap V3",
        "0x0BFbCF9fa4f9C56B0F40a671Ad40E0805A091865",
        "0x1b81D678ffb9C0263b24A97847620C99d213eB14",
        "0x46A15B0b27311cedF172AB29E4f4766fbE7F4364",
    )
}

/// Sushi V3 (Uniswap V3 code); its router is Sushi's one aggregator address.
fn sushi_v3(factory: &str, position_manager: &str) -> DexConfig {
    DexConfig::v3(
        DexKind::V3,
        "Sushi V3",
        factory,
        "0xAC4c6e212A361c968F1725b4d055b47E63F80b75",
        position_manager,
    )
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
    let mut chains: BTreeMap<String, ChainConfig> = BTreeMap::new();
    chains.insert(
        "eth".into(),
        chain(
            "https://ethereum-rpc.publicnode.com",
            token("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "WETH", 18),
            vec![
                token("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "USDC", 6),
                token("0xdAC17F958D2ee523a2206206994597C13D831ec7", "USDT", 6),
            ],
            vec![
                dex(
                    "Uniswap V2",
                    "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f",
                    "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D",
                    30,
                ),
                uniswap_v3(
                    "0x1F98431c8aD98523631AE4a59f267346ea31F984",
                    "0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45",
                    "0xC36442b4a4522E871399CD717aBDD847Ab11FE88",
                ),
                uniswap_v4(
                    "0x000000000004444c5dc75cB358380D2e3dE08A90",
                    "0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af",
                ),
                pancake_v3(),
                sushi_v3(
                    "0xbACEB8eC6b9355Dfc0269C18bac9d6E2Bdc29C4F",
                    "0x2214A42d8e2A1d20635c2cb0664422c528B6A432",
                ),
            ],
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
            vec![
                dex(
                    "PancakeSwap V2",
                    "0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73",
                    "0x10ED43C718714eb63d5aA57B78B54704E256024E",
                    25,
                ),
                pancake_v3(),
                uniswap_v3(
                    "0xdB1d10011AD0Ff90774D0C6Bb92e5C5c8b4461F7",
                    "0xB971eF87ede563556b2ED4b1C0b0019111Dd85d2",
                    "0x7b8A01B39D58278b5DE7e48c8449c9f4F5170613",
                ),
                uniswap_v4(
                    "0x28e2Ea090877bF75740558f6BFB36A5ffeE9e9dF",
                    "0x1906c1d672b88cD1B9aC7593301cA990F94Eae07",
                ),
                sushi_v3(
                    "0x126555dd55a39328F69400d6aE4F782Bd4C34ABb",
                    "0xF70c086618dcf2b1A461311275e00D6B722ef914",
                ),
                solidly(
                    "Thena V1",
                    "0xAFD89d21BdB66d00817d4153E055830B1c2B3970",
                    "0xd4ae6eCA985340Dd434D38F470aCCce4DC78D109",
                ),
            ],
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
            vec![
                dex(
                    "Uniswap V2",
                    "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6",
                    "0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24",
                    30,
                ),
                uniswap_v3(
                    "0x33128a8fC17869897dcE68Ed026d694621f6FDfD",
                    "0x2626664c2603336E57B271c5C0b26F421741e481",
                    "0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1",
                ),
                uniswap_v4(
                    "0x498581fF718922c3f8e6A244956aF099B2652b2b",
                    "0x6fF5693b99212Da76ad316178A184AB56D299b43",
                ),
                pancake_v3(),
                sushi_v3(
                    "0xc35DADB65012eC5796536bD9864eD8773aBc74C4",
                    "0x80C7DD17B01855a6D2347444a0FCC36136a314de",
                ),
                DexConfig::solidly(
                    DexKind::Aerodrome,
                    "Aerodrome",
                    "0x420DD381b31aEf6683db6B902084cB0FFECe40Da",
                    "0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43",
                ),
            ],
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
                uniswap_v3(
                    "0x1F98431c8aD98523631AE4a59f267346ea31F984",
                    "0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45",
                    "0xC36442b4a4522E871399CD717aBDD847Ab11FE88",
                ),
                uniswap_v4(
                    "0x360E68faCcca8cA495c1B759Fd9EEe466db9FB32",
                    "0xA51afAFe0263b40EdaEf0Df8781eA9aa03E381a3",
                ),
                pancake_v3(),
                sushi_v3(
                    "0x1af415a1EbA07a4986a52B6f2e7dE7003D82231e",
                    "0xF0cBce1942A68BEB3d1b73F0dd86C8DCc363eF49",
                ),
                solidly(
                    "Ramses V1",
                    "0xAAA20D08e59F6561f242b08513D36266C5A29415",
                    "0xAAA87963EFeB6f7E0a2711F397663105Acb1805e",
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
            vec![
                dex(
                    "QuickSwap",
                    "0x5757371414417b8C6CAad45bAeF941aBc7d3Ab32",
                    "0xa5E0829CaCEd8fFDD4De3c43696c57F7D7A678ff",
                    30,
                ),
                uniswap_v3(
                    "0x1F98431c8aD98523631AE4a59f267346ea31F984",
                    "0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45",
                    "0xC36442b4a4522E871399CD717aBDD847Ab11FE88",
                ),
                uniswap_v4(
                    "0x67366782805870060151383F4BbFF9daB53e5cD6",
                    "0x1095692A6237d83C6a72F3F5eFEdb9A670C49223",
                ),
                sushi_v3(
                    "0x917933899c6a5F8E37F31E19f92CdBFF7e8FF0e2",
                    "0xb7402ee99F0A008e461098AC3A27F4957Df89a40",
                ),
            ],
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
            vec![
                dex(
                    "Trader Joe V1",
                    "0x9Ad6C38BE94206cA50bb0d90783181662f0Cfa10",
                    "0x60aE616a2155Ee3d9A68541Ba4544862310933d4",
                    30,
                ),
                uniswap_v3(
                    "0x740b1c1de25031C31FF4fC9A62f554A55cdC1baD",
                    "0xbb00FF08d01D300023C629E8fFfFcb65A5a578cE",
                    "0x655C406EBFa14EE2006250925e54ec43AD184f8B",
                ),
                uniswap_v4(
                    "0x06380C0e0912312B5150364B9DC4542BA0DbBc85",
                    "0x94b75331AE8d42C1b61065089B7d48FE14aA73b7",
                ),
                sushi_v3(
                    "0x3e603C14aF37EBdaD31709C4f848Fc6aD5BEc715",
                    "0x18350b048AB366ed601fFDbC669110Ecb36016f3",
                ),
            ],
        ),
    );
    chains.insert(
        "ftm".into(),
        chain(
            "https://rpc.ftm.tools",
            token("0x21be370D5312f44cB42ce377BC9b8a0cEF1A4C83", "WFTM", 18),
            // Fantom's canonical USDC.e (Circle and Wormhole), then Axelar's
            // axlUSDC; not the Multichain USDC whose bridge was drained in 2023.
            vec![
                token("0x2F733095B80A04b38b0D10cC884524a3d09b836a", "USDC.e", 6),
                token("0x1B6382DBDEa11d97f24495C9A90b7c88469134a4", "axlUSDC", 6),
            ],
            vec![
                dex(
                    "SpookySwap",
                    "0x152eE697f2E276fA89E96742e9bB9aB1F2E61bE3",
                    "0xF491e7B69E4244ad4002BC14e878a34207E38c29",
                    20,
                ),
                DexConfig::v3(
                    DexKind::V3,
                    "SpookySwap V3",
                    "0x7928a2c48754501f3a8064765ECaE541daE5c3E6",
                    "0x765132A0630Cd4401b971706Bb21c0FB5Ab547ad",
                    "0xb39d21718e24DE36fDD8c5C73e928B5EFF33d6C2",
                ),
                sushi_v3(
                    "0x7770978eED668a3ba661d51a773d3a992Fc9DDCB",
                    "0x10c19390E1Ac2Fd6D0c3643a2320b0abA38E5bAA",
                ),
                solidly(
                    "Equalizer",
                    "0xc6366EFD0AF1d09171fe0EBF32c7943BB310832a",
                    "0xbae81eBB5E897C7143c82725e1c2039C2D7e2a78",
                ),
            ],
        ),
    );
    for (id, chain) in chains.iter_mut() {
        let id = Chain::parse(id).expect("the defaults name known chains");
        chain.lp_lockers = lockers(id).iter().map(|l| l.to_string()).collect();
    }
    chains
}

/// LP lockers of each chain: UNCX's V2-pair and V3-position lockers and
/// Team Finance's lock contract (from the projects' own repositories), and
/// PinkSale's PinkLock where integrators agree on its address (not
/// verified against an official list). Sources are in `docs/configuration.md`.
fn lockers(chain: Chain) -> &'static [&'static str] {
    match chain {
        Chain::Eth => &[
            "0x663A5C229c09b049E36dCc11a9B0d4a8Eb9db214",
            "0x59d7D55DdC58494FbBbca29904f108ece82Ac7FB",
            "0xED9180976c2a4742C7A57354FD39d8BEc6cbd8AB",
            "0xFD235968e65B0990584585763f837A5b5330e6DE",
            "0x7f5C649856F900d15C83741f45AE46f5C6858234",
            "0x231278eDd38B00B07fBd52120CEf685B9BaEBCC1",
            "0xE2fE530C047f2d85298b07D9333C05737f1435fB",
            "0x71B5759d73262FBb223956913ecF4ecC51057641",
        ],
        Chain::Bsc => &[
            "0xC765bddB93b0D1c1A88282BA0fa6B2d00E3e0c83",
            "0xc8B839b9226965caf1d9fC1551588AaF553a7BE6",
            "0x7229247bD5cf29FA9B0764Aa1568732be024084b",
            "0xfe88DAB083964C56429baa01F37eC2265AbF1557",
            "0xF1f7f21e2eA80AB110D0f95Faa64655688341990",
            "0x0D29598EC01fa03665feEAD91d4Fb423F393886c",
            "0x0C89C0407775dd89b12918B9c0aa42Bf96518820",
            "0x407993575c91ce7643a4d4cCACc9A98c36eE1BBE",
            "0x7ee058420e5937496F5a2096f04caA7721cF70cc",
        ],
        Chain::Base => &[
            "0xc4E637D37113192F4F1F060DaEbD7758De7F4131",
            "0xBeddF48499788607B4c2e704e9099561ab38Aae8",
            "0x231278eDd38B00B07fBd52120CEf685B9BaEBCC1",
            "0x4F0Fd563BE89ec8C3e7D595bf3639128C0a7C33A",
        ],
        Chain::Arb => &[
            "0x63F4B2C082B1E0bbA38874567E053800379bF8D7",
            "0x275720567E5955F5f2D53A7A1Ab8a0Fc643dE50E",
            "0xa71182392faAa9a123A9e8120e79515117f05Be4",
            "0x6b5360B419e0851b4b81644e0F63c1A9778f2506",
            "0xCb8b00D4018AD6031E28a44BF74616014BFB62Ec",
            "0xfA104eb3925A27E6263E05acc88F2e983A890637",
            "0xE0B0D2021293Bee9715e1Db3be31b55C00F72A75",
        ],
        Chain::Poly => &[
            "0xaDB2437e6F65682B85F814fBc12FeC0508A7B1D0",
            "0x939d71ADe0Bf94d3F8cf578413bF2a2f248BF58b",
            "0x1F241EF7E9ecDDa8862256fC769FE7ec9240d94C",
            "0x40f6301edb774e8B22ADC874f6cb17242BaEB8c4",
            "0xD8207e9449647a9668AD3F8eCb97a1f929f81fd1",
            "0xC22218406983bF88BB634bb4Bf15fA4E0A1a8c84",
            "0x3eF7442dF454bA6b7C1deEc8DdF29Cfb2d6e56c7",
        ],
        Chain::Avax => &[
            "0xa9f6AEfA5d56db1205f36c34E6482A6d4979b3bb",
            "0x07DD74C2dF2bC4eB04cf8eDb2F695AA79Ba590Eb",
            "0xb2b13B648E956B42b1d8c5B2476D87B9CBf48076",
            "0x625e1b2e78DC5b978237f9c29DE2910062D80a05",
            "0xE2fE530C047f2d85298b07D9333C05737f1435fB",
        ],
        Chain::Ftm => &["0xCCEBbE9e2b8f46C2C6862238e60a396AF790B63e"],
        Chain::Sol => &[],
    }
}

/// SOL/USDC pools pricing SOL on mainnet, of four families. Every address
/// but Raydium AMM v4's is the program-derived address each family's SDK
/// gives for SOL/USDC (so it can be no other pair): Orca's
/// `getWhirlpoolAddress` (tick spacings 4 and 64), Raydium's `getPdaPoolId`
/// (CLMM configs 2 and 4), Meteora's `deriveLbPair` (bin step 4) and
/// `deriveLbPair2` (bin step 10, base factor 10,000). AMM v4 pools derive
/// from their market, not their mints: that one is the pool Raydium's SDK
/// lists first among its default pools. A pool that turns out not to quote
/// SOL in a configured stablecoin is left out of the price.
const SOL_USDC_POOLS: &[&str] = &[
    "58oQChx4yWmvKdwLLZzBi4ChoCc2fqCUWBkwMihLYQo2",
    "Czfq3xZZDmsdGdUyrNLtRhGc47cXcZtLG4crryfu44zE",
    "HJPjoWUrhoZzkNfRpHuieeFk9WcZWjwy6PBjZ81ngndJ",
    "2QdhepnKRTLjjSqPL1PtKNwqrUkoLee5Gqs8bvZhRdMv",
    "8sLbNZoA1cfnvMJLPfp98ZLAnFSYCFApfJKMbiXNLwxj",
    "5rCf1DM8LjKTw4YqhnoLcngyZYeNnQqztScTogYHAS6",
    "BGm1tav58oGcsQJehL9WXBFXF7D27vZsKefj4xJKD5Y",
];

/// The default configuration of Solana: its public mainnet endpoint,
/// wrapped SOL, USDC and USDT, every pool family at its mainnet program,
/// and the SOL/USDC pools pricing SOL.
pub fn solana() -> ChainConfig {
    ChainConfig {
        rpc_url: "https://api.mainnet-beta.solana.com".into(),
        multicall3: String::new(),
        wrapped_native: token(super::solana::WSOL_MINT, "SOL", 9),
        stablecoins: vec![
            token("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "USDC", 6),
            token("Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", "USDT", 6),
        ],
        // Every family, at its mainnet program.
        dexes: Family::ALL
            .iter()
            .map(|f| DexConfig {
                kind: f.kind(),
                ..DexConfig::v2(f.name(), f.program(), "", 0)
            })
            .collect(),
        // Raydium's locking program's CPMM authority.
        lp_lockers: vec![super::solana::encode(
            &super::solana::pools::cpmm::lock_authority(),
        )],
        price_pool: String::new(),
        price_pools: SOL_USDC_POOLS.iter().map(|p| p.to_string()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_evm_address;

    #[test]
    fn solana_defaults_are_base58_keys() {
        let sol = solana();
        for address in [&sol.wrapped_native.address, &sol.stablecoins[0].address]
            .into_iter()
            .chain(sol.dexes.iter().map(|d| &d.factory))
            .chain(&sol.price_pools)
            .chain(&sol.lp_lockers)
        {
            assert!(crate::solana::parse_pubkey(address).is_ok(), "{address}");
        }
        // Raydium's locking program's CPMM authority, as its SDK derives it.
        assert_eq!(sol.lp_lockers.len(), 1);
        // Every family is searched, each at its own program.
        let families: std::collections::HashSet<_> = sol.dexes.iter().map(|d| d.kind).collect();
        assert_eq!(families.len(), Family::ALL.len());
        assert!(sol.price_pools.len() >= 3);
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
                // V3-style DEXes name their position manager; V4 positions
                // cannot be listed by holder, so V4 names none.
                match dex.kind {
                    DexKind::V3 | DexKind::PancakeV3 => {
                        addresses.push(dex.position_manager.clone())
                    }
                    DexKind::V4 => assert!(dex.position_manager.is_empty(), "{id}: {}", dex.name),
                    _ => {}
                }
            }
            addresses.extend(chain.lp_lockers.iter().cloned());
            assert!(!chain.lp_lockers.is_empty(), "{id}: lockers");
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
