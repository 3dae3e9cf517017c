//! Raydium CLMM: concentrated liquidity with a fee set by the pool's
//! `AmmConfig`. Layouts `PoolState`, `AmmConfig` and `TickArrayState` from
//! `raydium-io/raydium-clmm` (`programs/amm/src/states/`), field for field
//! as `@raydium-io/raydium-sdk-v2`'s `PoolInfoLayout`, `ClmmConfigLayout`
//! and `TickArrayLayout`, which build the test fixture.

use super::super::bytes::{i32_at, i64_at, is_account, pubkey_at, u128_at, u16_at, u32_at, u64_at};
use super::ticks::{TickLayout, Ticks};
use super::{At, Family, Fee, Model, PoolState};

/// The program on mainnet.
pub const PROGRAM: &str = "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK";
/// A `PoolState`'s size.
pub const SIZE: usize = 1_544;
/// Offsets of `token_mint_0` and `token_mint_1`.
pub const MINT_OFFSETS: [usize; 2] = [73, 105];

/// Decode a `PoolState` (exactly its size: Raydium CPMM's pool has the same
/// discriminator).
pub fn decode(at: At, data: &[u8]) -> Option<PoolState> {
    if data.len() != SIZE || !is_account(data, "PoolState") {
        return None;
    }
    let owed = |side: usize| -> Option<u64> {
        Some(u64_at(data, 309 + 8 * side)?.saturating_add(u64_at(data, 1064 + 8 * side)?))
    };
    Some(PoolState {
        family: Family::RaydiumClmm,
        program: at.program,
        address: at.address,
        mints: [pubkey_at(data, 73)?, pubkey_at(data, 105)?],
        vaults: [Some(pubkey_at(data, 137)?), Some(pubkey_at(data, 169)?)],
        decimals: [Some(data[233]), Some(data[234])],
        model: Model::Ticks(Ticks {
            layout: TickLayout::Raydium,
            sqrt_price_x64: u128_at(data, 253)?,
            liquidity: u128_at(data, 237)?,
            tick: i32_at(data, 269)?,
            spacing: u16_at(data, 235)?,
            owed: [owed(0)?, owed(1)?],
        }),
        lp: None,
        creator: pubkey_at(data, 41),
        fee: Fee::Config {
            account: pubkey_at(data, 9)?,
            read: config_fee,
        },
        opened_at: i64_at(data, 1080).filter(|t| *t > 0),
    })
}

/// `AmmConfig.trade_fee_rate` (millionths, u32 at 47) in basis points.
fn config_fee(data: &[u8]) -> Option<f64> {
    if !is_account(data, "AmmConfig") {
        return None;
    }
    Some(f64::from(u32_at(data, 47)?) / 100.0)
}
