//! Contracts the service knows by address on every EVM chain (deployed at
//! the same address everywhere by their makers), beside each chain's
//! configured DEX routers and position managers: a grant to one of these is
//! to a contract whose behaviour is public and long-standing.

use alloy_primitives::{address, Address};

/// Permit2: one contract holding allowances and signature transfers for every dapp.
pub const PERMIT2: Address = address!("000000000022D473030F116dDEE9F6B43aC78BA3");

/// Contracts known on every EVM chain, by address.
const EVERYWHERE: [(Address, &str); 9] = [
    (PERMIT2, "Uniswap Permit2"),
    (
        address!("3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD"),
        "Uniswap Universal Router",
    ),
    (
        address!("66a9893cC07D91D95644AEDD05D03f95e1dBA8Af"),
        "Uniswap Universal Router (v4)",
    ),
    (
        address!("Ef1c6E67703c7BD7107eed8303Fbe6EC2554BF6B"),
        "Uniswap Universal Router (2022)",
    ),
    (
        address!("00000000000000ADc04C56Bf30aC9d3c0aAF14dC"),
        "Seaport 1.5",
    ),
    (
        address!("0000000000000068F116a894984e2DB1123eB395"),
        "Seaport 1.6",
    ),
    (
        address!("1111111254EEB25477B68fb85Ed929f73A960582"),
        "1inch Aggregation Router v5",
    ),
    (
        address!("111111125421cA6dc452d289314280a0f8842A65"),
        "1inch Aggregation Router v6",
    ),
    (
        address!("Def1C0ded9bec7F1a1670819833240f027b25EfF"),
        "0x Exchange Proxy",
    ),
];

/// The name of a contract known on every chain.
pub fn everywhere(address: &Address) -> Option<&'static str> {
    EVERYWHERE
        .iter()
        .find(|(a, _)| a == address)
        .map(|(_, name)| *name)
}

/// Seaport's versions, the marketplaces' order book.
pub fn is_seaport(address: &Address) -> bool {
    everywhere(address).is_some_and(|name| name.starts_with("Seaport"))
}

/// Typical seconds between blocks, to find the block about a day back
/// (a contract without code there is less than a day old).
pub fn block_seconds(chain: riskintel_chains::Chain) -> f64 {
    use riskintel_chains::Chain;
    match chain {
        Chain::Eth => 12.0,
        Chain::Bsc => 0.75,
        Chain::Base | Chain::Poly | Chain::Avax => 2.0,
        Chain::Arb => 0.25,
        Chain::Ftm => 1.0,
        Chain::Sol => 0.4,
    }
}
