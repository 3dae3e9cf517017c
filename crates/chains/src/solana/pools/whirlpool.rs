//! Orca Whirlpools: concentrated liquidity, the fee stored in the pool.
//! Layouts `Whirlpool`, `TickArray` (fixed) and `DynamicTickArray` from
//! `orca-so/whirlpools` (`programs/whirlpool/src/state/`), as the
//! Codama-generated `@orca-so/whirlpools-client` encodes them, which builds
//! the test fixture.

use super::super::bytes::{i128_at, i32_at, is_account, pubkey_at, u128_at, u16_at, u64_at};
use super::super::{find_program_address, Pubkey};
use super::ticks::{TickLayout, Ticks};
use super::{At, Family, Fee, Model, PoolState};

/// The program on mainnet.
pub const PROGRAM: &str = "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc";
/// A `Whirlpool`'s size.
pub const SIZE: usize = 653;
/// Offsets of `token_mint_a` and `token_mint_b`.
pub const MINT_OFFSETS: [usize; 2] = [101, 181];
/// Ticks in a tick array.
const TICKS_PER_ARRAY: i32 = 88;
/// Size of one tick in a fixed array.
const TICK_SIZE: usize = 113;

/// Decode a `Whirlpool`.
pub fn decode(at: At, data: &[u8]) -> Option<PoolState> {
    if data.len() != SIZE || !is_account(data, "Whirlpool") {
        return None;
    }
    Some(PoolState {
        family: Family::OrcaWhirlpool,
        program: at.program,
        address: at.address,
        mints: [pubkey_at(data, 101)?, pubkey_at(data, 181)?],
        vaults: [Some(pubkey_at(data, 133)?), Some(pubkey_at(data, 213)?)],
        decimals: [None, None],
        model: Model::Ticks(Ticks {
            layout: TickLayout::Orca,
            sqrt_price_x64: u128_at(data, 65)?,
            liquidity: u128_at(data, 49)?,
            tick: i32_at(data, 81)?,
            spacing: u16_at(data, 41)?,
            owed: [u64_at(data, 85)?, u64_at(data, 93)?],
        }),
        lp: None,
        creator: None,
        // `fee_rate` is in millionths (hundredths of a basis point).
        fee: Fee::Bps(f64::from(u16_at(data, 45)?) / 100.0),
        opened_at: None,
    })
}

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
