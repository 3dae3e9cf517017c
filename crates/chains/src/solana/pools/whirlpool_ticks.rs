//! Orca Whirlpools' tick arrays: their program-derived addresses and the
//! initialised ticks of a fixed `TickArray` or a `DynamicTickArray` (layouts
//! from `orca-so/whirlpools`, as `@orca-so/whirlpools-client` encodes them).

use super::super::bytes::{i128_at, i32_at, is_account, pubkey_at};
use super::super::{find_program_address, Pubkey};

/// Ticks in a tick array.
const TICKS_PER_ARRAY: i32 = 88;
/// Size of one tick in a fixed array.
const TICK_SIZE: usize = 113;

/// The tick array of `pool` starting at `start` (its decimal text in the seed).
pub fn tick_array_address(pool: &Pubkey, start: i32, program: &Pubkey) -> Option<Pubkey> {
    find_program_address(
        &[b"tick_array", pool, start.to_string().as_bytes()],
        program,
    )
}

/// The initialised ticks of a fixed or dynamic tick array of `pool`:
/// (tick, liquidity_net). A tick's index is its slot's: start + i·spacing.
pub fn decode_ticks(data: &[u8], pool: &Pubkey, spacing: u16) -> Option<Vec<(i32, f64)>> {
    let start = i32_at(data, 8)?;
    let tick_at = |i: i32| start.saturating_add(i * i32::from(spacing));
    let mut ticks = Vec::new();
    if is_account(data, "TickArray") {
        if pubkey_at(data, 9956)? != *pool {
            return None;
        }
        for i in 0..TICKS_PER_ARRAY {
            let at = 12 + i as usize * TICK_SIZE;
            if *data.get(at)? == 1 {
                ticks.push((tick_at(i), i128_at(data, at + 1)? as f64));
            }
        }
    } else if is_account(data, "DynamicTickArray") {
        if pubkey_at(data, 12)? != *pool {
            return None;
        }
        // Each tick: a tag byte, then its 112 bytes when initialised.
        let mut at = 60;
        for i in 0..TICKS_PER_ARRAY {
            match *data.get(at)? {
                0 => at += 1,
                _ => {
                    ticks.push((tick_at(i), i128_at(data, at + 1)? as f64));
                    at += 1 + 112;
                }
            }
        }
    } else {
        return None;
    }
    Some(ticks)
}
