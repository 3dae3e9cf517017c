//! Raydium AMM v4 (liquidity v4): constant-product pools, not an Anchor
//! program (no discriminator: known by owner and size). Layout `AmmInfo`
//! from `raydium-io/raydium-amm` (`program/src/state.rs`), the same as
//! `@raydium-io/raydium-sdk-v2`'s `liquidityStateV4Layout`, which builds
//! the test fixture.

use super::super::bytes::{pubkey_at, u64_at};
use super::{At, Family, Fee, LpMint, Model, PoolState};

/// The program on mainnet.
pub const PROGRAM: &str = "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8";
/// An `AmmInfo`'s size.
pub const SIZE: usize = 752;
/// Offsets of `coin_vault_mint` and `pc_vault_mint`.
pub const MINT_OFFSETS: [usize; 2] = [400, 432];

/// Decode an `AmmInfo`.
pub fn decode(at: At, data: &[u8]) -> Option<PoolState> {
    if data.len() != SIZE {
        return None;
    }
    let decimals = |at: usize| u64_at(data, at).and_then(|d| u8::try_from(d).ok());
    let (numerator, denominator) = (u64_at(data, 176)?, u64_at(data, 184)?);
    Some(PoolState {
        family: Family::RaydiumAmmV4,
        program: at.program,
        address: at.address,
        mints: [pubkey_at(data, 400)?, pubkey_at(data, 432)?],
        vaults: [Some(pubkey_at(data, 336)?), Some(pubkey_at(data, 368)?)],
        decimals: [decimals(32), decimals(40)],
        // The protocol's share of fees (need_take_pnl) stays in the vaults
        // until withdrawn; swaps price on the vaults without it.
        model: Model::Pair {
            owed: [u64_at(data, 192)?, u64_at(data, 200)?],
            virtual_1: 0,
        },
        lp: Some(LpMint {
            mint: pubkey_at(data, 464)?,
            issued: u64_at(data, 720)?,
        }),
        creator: None,
        fee: Fee::Bps(if denominator == 0 {
            0.0
        } else {
            numerator as f64 / denominator as f64 * 10_000.0
        }),
        opened_at: u64_at(data, 224)
            .filter(|t| *t > 0)
            .and_then(|t| i64::try_from(t).ok()),
    })
}
