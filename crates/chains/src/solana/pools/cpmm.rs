//! Raydium CPMM (`raydium-cp-swap`): constant-product pools with a fee
//! set by their `AmmConfig`. Layouts from `raydium-io/raydium-cp-swap`
//! (`programs/cp-swap/src/states/{pool,config}.rs`), field for field the
//! same as `@raydium-io/raydium-sdk-v2`'s `CpmmPoolInfoLayout` and
//! `CpmmConfigInfoLayout`, which build the test fixture.

use super::super::bytes::{i64_at, is_account, pubkey_at, u64_at};
use super::{At, Family, Fee, LpMint, Model, PoolState};
use crate::solana::{find_program_address, key, Pubkey};

/// The program on mainnet.
pub const PROGRAM: &str = "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C";
/// Raydium's liquidity-locking program ("Burn & Earn"), which locks CPMM LP.
pub const LOCKING_PROGRAM: &str = "LockrWmn6K5twhz3y9w1dQERbmgSaRkfnTeTKbpofwE";

/// The authority that owns the LP Raydium's locking program holds for
/// CPMM pools (seed `lock_cp_authority_seed`): LP it holds is locked.
pub fn lock_authority() -> Pubkey {
    find_program_address(&[b"lock_cp_authority_seed"], &key(LOCKING_PROGRAM))
        .expect("a lock authority")
}

/// A `PoolState`'s size.
pub const SIZE: usize = 637;
/// Offsets of `token_0_mint` and `token_1_mint`.
pub const MINT_OFFSETS: [usize; 2] = [168, 200];

/// Decode a `PoolState`: exactly its size, since Raydium CLMM's pool
/// (1,544 bytes) carries the same discriminator.
pub fn decode(at: At, data: &[u8]) -> Option<PoolState> {
    if data.len() != SIZE || !is_account(data, "PoolState") {
        return None;
    }
    let owed = |side: usize| -> Option<u64> {
        // protocol, fund and creator fees, kept in the vaults until collected.
        let protocol = u64_at(data, 341 + 8 * side)?;
        let fund = u64_at(data, 357 + 8 * side)?;
        let creator = u64_at(data, 397 + 8 * side)?;
        Some(protocol.saturating_add(fund).saturating_add(creator))
    };
    Some(PoolState {
        family: Family::RaydiumCpmm,
        program: at.program,
        address: at.address,
        mints: [pubkey_at(data, 168)?, pubkey_at(data, 200)?],
        vaults: [Some(pubkey_at(data, 72)?), Some(pubkey_at(data, 104)?)],
        decimals: [Some(data[331]), Some(data[332])],
        model: Model::Pair {
            owed: [owed(0)?, owed(1)?],
            virtual_1: 0,
        },
        lp: Some(LpMint {
            mint: pubkey_at(data, 136)?,
            issued: u64_at(data, 333)?,
        }),
        creator: pubkey_at(data, 40),
        fee: Fee::Config {
            account: pubkey_at(data, 8)?,
            read: if data[390] == 1 {
                config_fee_with_creator
            } else {
                config_fee
            },
        },
        opened_at: i64_at(data, 373).filter(|t| *t > 0),
    })
}

fn amm_config(data: &[u8]) -> Option<&[u8]> {
    (data.len() >= 116 && is_account(data, "AmmConfig")).then_some(data)
}

/// `AmmConfig.trade_fee_rate` (millionths, at 12) in basis points.
pub fn config_fee(data: &[u8]) -> Option<f64> {
    Some(u64_at(amm_config(data)?, 12)? as f64 / 100.0)
}

/// The trade fee plus `creator_fee_rate` (at 108), charged on top when the
/// pool has its creator fee on.
fn config_fee_with_creator(data: &[u8]) -> Option<f64> {
    Some(config_fee(data)? + u64_at(amm_config(data)?, 108)? as f64 / 100.0)
}

#[cfg(test)]
mod tests {
    use super::super::super::bytes::discriminator;
    use super::*;

    #[test]
    fn a_clmm_pool_sharing_the_discriminator_is_not_read_as_one() {
        let at = At {
            program: [1; 32],
            address: [2; 32],
        };
        let mut cpmm = vec![0u8; SIZE];
        cpmm[..8].copy_from_slice(&discriminator("PoolState"));
        assert!(decode(at, &cpmm).is_some());
        let mut clmm = vec![0u8; super::super::clmm::SIZE];
        clmm[..8].copy_from_slice(&discriminator("PoolState"));
        assert!(decode(at, &clmm).is_none());
    }

    #[test]
    fn fees_are_millionths_of_the_amount() {
        let mut config = vec![0u8; 236];
        config[..8].copy_from_slice(&discriminator("AmmConfig"));
        config[12..20].copy_from_slice(&2_500u64.to_le_bytes());
        config[108..116].copy_from_slice(&1_000u64.to_le_bytes());
        assert_eq!(config_fee(&config), Some(25.0));
        assert_eq!(config_fee_with_creator(&config), Some(35.0));
    }
}
