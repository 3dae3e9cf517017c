//! Orca Whirlpools: concentrated liquidity, the fee stored in the pool.
//! Layouts `Whirlpool`, `TickArray` (fixed) and `DynamicTickArray` from
//! `orca-so/whirlpools` (`programs/whirlpool/src/state/`), as the
//! Codama-generated `@orca-so/whirlpools-client` encodes them, which builds
//! the test fixture.

use super::super::bytes::{i32_at, is_account, pubkey_at, u128_at, u16_at, u64_at};
use super::ticks::{TickLayout, Ticks};
use super::{At, Family, Fee, Model, PoolState};

/// The program on mainnet.
pub const PROGRAM: &str = "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc";
/// A `Whirlpool`'s size.
pub const SIZE: usize = 653;
/// Offsets of `token_mint_a` and `token_mint_b`.
pub const MINT_OFFSETS: [usize; 2] = [101, 181];

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
