//! Uniswap-V3-style pools (Uniswap V3, Sushi V3, PancakeSwap V3): found
//! with `factory.getPool(a, b, fee)` for every fee tier, and read through
//! the pool lens (`lens/PoolLens.sol`, injected by an `eth_call` state
//! override): price, active liquidity, the initialized ticks near the
//! price, token balances, and the active liquidity of the position NFTs
//! some holders own — all in one call riding in the caller's round trip.
//! The lens reads Uniswap V4 pools too, from the PoolManager's storage.

use std::collections::HashMap;

use alloy_primitives::aliases::I24;
use alloy_primitives::{keccak256, Address, Bytes, U256};
use alloy_sol_types::{sol, SolCall};
use serde_json::json;

use super::{Pair, PoolState};
use crate::depth::Concentrated;
use crate::evm::abi::units;
use crate::evm::types::BlockTag;
use crate::rpc::{Answers, Batch, Slot};

/// The pool lens's runtime code, compiled from `lens/PoolLens.sol`.
pub const LENS_RUNTIME_HEX: &str = include_str!("lens/PoolLens.runtime.hex");

/// Ticks either side of the price the lens reads (a 2% move is 198–203 ticks).
const SPAN: i32 = 210;
/// A holder with more position NFTs than this is not enumerated (its share is unknown).
const MAX_POSITIONS: u64 = 64;

sol! {
    #![sol(all_derives)]

    /// A Uniswap-V3-style factory.
    interface IUniswapV3Factory {
        function getPool(address tokenA, address tokenB, uint24 fee) external view returns (address pool);

        event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool);
    }

    /// A Uniswap V3 pool's swaps (amounts signed: into the pool positive)
    /// and liquidity changes (PancakeSwap V3's are the same).
    interface IUniswapV3Pool {
        event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick);
        event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1);
        event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1);
    }

    /// A PancakeSwap V3 pool's swaps: V3's, with the protocol fees.
    interface IPancakeV3Pool {
        event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint128 protocolFeesToken0, uint128 protocolFeesToken1);
    }

    /// The pool lens (see `lens/PoolLens.sol`).
    interface IPoolLens {
        struct Query {
            address pool;
            address positionManager;
            bytes32 poolId;
            int24 spacing;
        }
        struct TickNet {
            int24 tick;
            int128 liquidityNet;
        }
        struct View {
            bool ok;
            uint160 sqrtPriceX96;
            int24 tick;
            uint128 liquidity;
            address token0;
            address token1;
            uint24 fee;
            int24 tickSpacing;
            uint256 balance0;
            uint256 balance1;
            TickNet[] ticks;
            uint256[] held;
        }
        function inspect(Query[] queries, address[] holders, int24 span, uint256 maxPositions) external view returns (View[] views);
    }
}

/// The address the lens is injected at: derived, so nobody's.
fn lens_address() -> Address {
    Address::from_slice(&keccak256(b"riskintel pool lens")[12..])
}

/// The lens call for some V3-style pools, waiting for its answer.
pub struct Planned {
    pairs: Vec<Pair>,
    holders: Vec<Address>,
    slot: Slot<Bytes>,
}

/// Add to `batch` the lens call reading `pairs` (V3-style and V4), with
/// the position NFTs of `holders`, at `at`.
pub fn plan(pairs: Vec<Pair>, holders: &[Address], at: &BlockTag, batch: &mut Batch) -> Planned {
    let call = IPoolLens::inspectCall {
        queries: pairs
            .iter()
            .map(|p| IPoolLens::Query {
                pool: p.address,
                // V4 positions are not enumerable by holder: not asked.
                positionManager: match p.v4 {
                    Some(_) => Address::ZERO,
                    None => p.dex.position_manager.unwrap_or_default(),
                },
                poolId: p.pool_id().unwrap_or_default(),
                spacing: p
                    .v4
                    .and_then(|k| I24::try_from(k.spacing).ok())
                    .unwrap_or_default(),
            })
            .collect(),
        holders: holders.to_vec(),
        span: I24::try_from(SPAN).expect("the span fits 24 bits"),
        maxPositions: U256::from(MAX_POSITIONS),
    };
    let lens = lens_address();
    let request = json!({"to": lens, "data": Bytes::from(call.abi_encode()), "gas": "0x2faf080"});
    let overrides = json!({ format!("{lens:#x}"): { "code": LENS_RUNTIME_HEX.trim() } });
    let slot = batch.call::<Bytes>("eth_call", json!([request, at, overrides]));
    Planned {
        pairs,
        holders: holders.to_vec(),
        slot,
    }
}

impl Planned {
    /// The pools' states; `Err` with the reason when the lens could not run.
    pub fn take(self, answers: &mut Answers) -> Result<Vec<PoolState>, String> {
        if self.pairs.is_empty() {
            return Ok(Vec::new());
        }
        let data = answers.take(self.slot).map_err(|e| {
            format!("the node refused the pool lens call ({e}); it may not support eth_call state overrides")
        })?;
        let views = IPoolLens::inspectCall::abi_decode_returns(&data)
            .map_err(|_| "the pool lens's answer could not be decoded".to_string())?;
        Ok(self
            .pairs
            .into_iter()
            .zip(views)
            .filter(|(_, v)| v.ok)
            .map(|(pair, v)| state(pair, &self.holders, v))
            .collect())
    }
}

fn state(mut pair: Pair, holders: &[Address], v: IPoolLens::View) -> PoolState {
    let base_is_token0 = pair.base_is_token0();
    let concentrated = Concentrated {
        sqrt_price: units(U256::from(v.sqrtPriceX96), 0) / 2f64.powi(96),
        tick: v.tick.as_i32(),
        liquidity: units(U256::from(v.liquidity), 0),
        ticks: v
            .ticks
            .iter()
            .map(|t| (t.tick.as_i32(), t.liquidityNet as f64))
            .collect(),
    };
    let (balance0, balance1) = if pair.v4.is_some() {
        // The singleton keeps every pool's tokens together: the reserves a
        // constant-product pool with the same active liquidity would hold.
        pair.fee = v.fee.to::<u32>();
        let (liquidity, sqrt) = (concentrated.liquidity, concentrated.sqrt_price);
        let raw = |x: f64| U256::from(x.clamp(0.0, u128::MAX as f64) as u128);
        if sqrt > 0.0 {
            (raw(liquidity / sqrt), raw(liquidity * sqrt))
        } else {
            (U256::ZERO, U256::ZERO)
        }
    } else {
        (v.balance0, v.balance1)
    };
    let (reserve_base, reserve_quote) = if base_is_token0 {
        (balance0, balance1)
    } else {
        (balance1, balance0)
    };
    let mut lp_balances = HashMap::new();
    let mut lp_uncounted = Vec::new();
    for (holder, held) in holders.iter().zip(&v.held) {
        if *held == U256::MAX {
            lp_uncounted.push(*holder);
        } else {
            lp_balances.insert(*holder, *held);
        }
    }
    PoolState {
        price_raw: concentrated.price(base_is_token0),
        depth: concentrated.depth(base_is_token0),
        pair,
        reserve_base,
        reserve_quote,
        lp_supply: U256::from(v.liquidity),
        lp_balances,
        lp_uncounted,
    }
}
