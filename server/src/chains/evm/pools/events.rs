//! Pool events of every family, read the same way.

use alloy_primitives::{Address, I256, U256};

use super::solidly::ISolidlyPool;
use super::v3::{IPancakeV3Pool, IUniswapV3Pool};
use super::v4::IPoolManager;
use crate::chains::evm::abi::IUniswapV2Pair;
use crate::chains::evm::types::Log;

/// A swap of any pool family: what went in and out of the pool, per token.
pub struct Swapped {
    /// Amounts of token0 and token1 that went into the pool.
    pub ins: [U256; 2],
    /// Amounts of token0 and token1 that came out.
    pub outs: [U256; 2],
    /// Who received the output.
    pub to: Address,
}

/// A V2 pair's `Swap` (a Solidly fork's is the same), Aerodrome's, a
/// V3-style pool's (signed amounts: into the pool positive), or a V4
/// pool's (the swapper's: into the pool negative; its recipient is the
/// swapper, a router).
pub fn decode_swap(log: &Log) -> Option<Swapped> {
    if let Some(s) = log.decode::<IPoolManager::Swap>() {
        let into_pool = |a: i128| I256::try_from(-a).unwrap_or_default();
        return Some(split(into_pool(s.amount0), into_pool(s.amount1), s.sender));
    }
    if let Some(s) = log.decode::<IUniswapV2Pair::Swap>() {
        return Some(Swapped {
            ins: [s.amount0In, s.amount1In],
            outs: [s.amount0Out, s.amount1Out],
            to: s.to,
        });
    }
    if let Some(s) = log.decode::<ISolidlyPool::Swap>() {
        return Some(Swapped {
            ins: [s.amount0In, s.amount1In],
            outs: [s.amount0Out, s.amount1Out],
            to: s.to,
        });
    }
    let (amount0, amount1, to) = if let Some(s) = log.decode::<IUniswapV3Pool::Swap>() {
        (s.amount0, s.amount1, s.recipient)
    } else {
        let s = log.decode::<IPancakeV3Pool::Swap>()?;
        (s.amount0, s.amount1, s.recipient)
    };
    Some(split(amount0, amount1, to))
}

/// A pair's reserves from its `Sync`: a V2 pair's (uint112) or a
/// Solidly-style pool's (uint256).
pub fn decode_sync(log: &Log) -> Option<(U256, U256)> {
    if let Some(s) = log.decode::<IUniswapV2Pair::Sync>() {
        return Some((U256::from(s.reserve0), U256::from(s.reserve1)));
    }
    let s = log.decode::<ISolidlyPool::Sync>()?;
    Some((s.reserve0, s.reserve1))
}

/// A swap from signed amounts into the pool.
fn split(amount0: I256, amount1: I256, to: Address) -> Swapped {
    let side = |a: I256| {
        if a.is_negative() {
            (U256::ZERO, a.unsigned_abs())
        } else {
            (a.into_raw(), U256::ZERO)
        }
    };
    let ((in0, out0), (in1, out1)) = (side(amount0), side(amount1));
    Swapped {
        ins: [in0, in1],
        outs: [out0, out1],
        to,
    }
}
