//! Pool events of every family, read the same way.

use alloy_primitives::{Address, I256, U256};

use super::solidly::ISolidlyPool;
use super::v3::{IPancakeV3Pool, IUniswapV3Pool};
use super::v4::IPoolManager;
use crate::evm::abi::IUniswapV2Pair;
use crate::evm::types::Log;

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

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_sol_types::SolEvent;

    fn log_of(event: &impl SolEvent) -> Log {
        let data = event.encode_log_data();
        Log {
            address: Address::repeat_byte(0xaa),
            topics: data.topics().to_vec(),
            data: data.data,
            block_number: None,
            log_index: None,
            transaction_hash: None,
            block_timestamp: None,
        }
    }

    #[test]
    fn aerodrome_and_pair_swaps_and_syncs_read_the_same() {
        let (to, n) = (Address::repeat_byte(7), |v: u64| U256::from(v));
        // Aerodrome orders its Swap's fields differently from a pair's (and the forks').
        let aerodrome = ISolidlyPool::Swap {
            sender: Address::ZERO,
            to,
            amount0In: n(1),
            amount1In: n(0),
            amount0Out: n(0),
            amount1Out: n(2),
        };
        let pair = IUniswapV2Pair::Swap {
            sender: Address::ZERO,
            amount0In: n(1),
            amount1In: n(0),
            amount0Out: n(0),
            amount1Out: n(2),
            to,
        };
        for log in [log_of(&aerodrome), log_of(&pair)] {
            let s = decode_swap(&log).expect("a swap");
            assert_eq!((s.ins, s.outs, s.to), ([n(1), n(0)], [n(0), n(2)], to));
        }
        // A Solidly-style pool's reserves are uint256, beyond a pair's uint112.
        let big = U256::from(1u8) << 120;
        let sync = ISolidlyPool::Sync {
            reserve0: big,
            reserve1: n(5),
        };
        assert_eq!(decode_sync(&log_of(&sync)), Some((big, n(5))));
        let v2 = IUniswapV2Pair::Sync {
            reserve0: alloy_primitives::aliases::U112::from(3),
            reserve1: alloy_primitives::aliases::U112::from(4),
        };
        assert_eq!(decode_sync(&log_of(&v2)), Some((n(3), n(4))));
    }
}
