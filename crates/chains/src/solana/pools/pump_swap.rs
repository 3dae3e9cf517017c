//! PumpSwap (the pump.fun AMM): constant-product pools on the base vault
//! and the quote vault plus a signed virtual quote reserve. Layout `Pool`
//! from `@pump-fun/pump-swap-sdk`'s IDL (`src/idl/pump_amm.json`), which
//! builds the test fixture; addresses from its `src/sdk/pda.ts`. Older
//! pools are shorter: missing fields read as zero, as the SDK reads them.

use super::super::bytes::{
    discriminator as account_discriminator, i128_at, is_account, pubkey_at, u64_at,
};
use super::super::{find_program_address, Pubkey};
use super::{At, Family, Fee, LpMint, Model, PoolState};

/// The program on mainnet.
pub const PROGRAM: &str = "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA";
/// Offsets of `base_mint` and `quote_mint`.
pub const MINT_OFFSETS: [usize; 2] = [43, 75];
/// The size every field of a `Pool` takes.
const SIZE: usize = 270;

/// A `Pool`'s discriminator (the discovery filter: pools differ in size).
pub fn discriminator() -> [u8; 8] {
    account_discriminator("Pool")
}

/// The address of pool `index` of `creator` for `base`/`quote`.
pub fn pool_address(
    index: u16,
    creator: &Pubkey,
    base: &Pubkey,
    quote: &Pubkey,
    program: &Pubkey,
) -> Option<Pubkey> {
    find_program_address(
        &[b"pool", &index.to_le_bytes(), creator, base, quote],
        program,
    )
}

/// Decode a `Pool`.
pub fn decode(at: At, data: &[u8]) -> Option<PoolState> {
    if data.len() < 211 || !is_account(data, "Pool") {
        return None;
    }
    let mut full = data.to_vec();
    full.resize(full.len().max(SIZE), 0);
    let config = find_program_address(&[b"global_config"], &at.program)?;
    Some(PoolState {
        family: Family::PumpSwap,
        program: at.program,
        address: at.address,
        mints: [pubkey_at(&full, 43)?, pubkey_at(&full, 75)?],
        vaults: [Some(pubkey_at(&full, 139)?), Some(pubkey_at(&full, 171)?)],
        decimals: [None, None],
        // Fees taken from the quote vault are subtracted from the virtual
        // quote reserve, which may therefore be negative.
        model: Model::Pair {
            owed: [0, 0],
            virtual_1: i128_at(&full, 245)?,
        },
        lp: Some(LpMint {
            mint: pubkey_at(&full, 107)?,
            issued: u64_at(&full, 203)?,
        }),
        creator: super::super::bytes::optional_key(&full, 211),
        fee: Fee::Config {
            account: config,
            read: config_fee,
        },
        opened_at: None,
    })
}

/// The pool fee from `GlobalConfig`: LP, protocol and coin-creator basis
/// points (at 40, 48 and 313). pump-fees' market-cap tiers, where mainnet
/// now takes its rate from, are not read.
fn config_fee(data: &[u8]) -> Option<f64> {
    if !is_account(data, "GlobalConfig") {
        return None;
    }
    let creator = u64_at(data, 313).unwrap_or(0);
    Some((u64_at(data, 40)? + u64_at(data, 48)? + creator) as f64)
}
