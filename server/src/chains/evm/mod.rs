//! EVM chains: JSON-RPC access, ABI encoding, Multicall3.

pub mod abi;
pub mod rpc;

/// Multicall3's canonical address, the same on every major EVM chain.
pub const MULTICALL3: &str = "0xcA11bde05977b3631167028862bE2a173976CA11";
