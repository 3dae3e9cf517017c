//! Raydium CLMM's tick arrays: their program-derived addresses and the
//! initialised ticks of a `TickArrayState` (layout from
//! `raydium-io/raydium-clmm`, as `@raydium-io/raydium-sdk-v2`'s
//! `TickArrayLayout` writes it for the test fixture).

use super::super::bytes::{i128_at, i32_at, is_account, pubkey_at, u128_at};
use super::super::{find_program_address, Pubkey};

/// Ticks in a tick array.
const TICKS_PER_ARRAY: usize = 60;
/// Size of one tick in an array.
const TICK_SIZE: usize = 168;

/// The tick array of `pool` starting at `start` (big-endian in the seed).
pub fn tick_array_address(pool: &Pubkey, start: i32, program: &Pubkey) -> Option<Pubkey> {
    find_program_address(&[b"tick_array", pool, &start.to_be_bytes()], program)
}

/// The initialised ticks of a `TickArrayState` of `pool`: (tick, liquidity_net).
pub fn decode_ticks(data: &[u8], pool: &Pubkey) -> Option<Vec<(i32, f64)>> {
    if !is_account(data, "TickArrayState") || pubkey_at(data, 8)? != *pool {
        return None;
    }
    let mut ticks = Vec::new();
    for i in 0..TICKS_PER_ARRAY {
        let at = 44 + i * TICK_SIZE;
        if u128_at(data, at + 20)? != 0 {
            ticks.push((i32_at(data, at)?, i128_at(data, at + 4)? as f64));
        }
    }
    Some(ticks)
}
