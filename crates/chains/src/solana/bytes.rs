//! Reading fixed-layout account data: little-endian integers and keys at
//! byte offsets (None past the end), and Anchor account discriminators.

use sha2::{Digest, Sha256};

use super::Pubkey;

/// The key at `at`.
pub fn pubkey_at(data: &[u8], at: usize) -> Option<Pubkey> {
    data.get(at..at + 32)?.try_into().ok()
}

fn array<const N: usize>(data: &[u8], at: usize) -> Option<[u8; N]> {
    data.get(at..at + N)?.try_into().ok()
}

/// The u16 at `at`.
pub fn u16_at(data: &[u8], at: usize) -> Option<u16> {
    array(data, at).map(u16::from_le_bytes)
}

/// The u32 at `at`.
pub fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    array(data, at).map(u32::from_le_bytes)
}

/// The i32 at `at`.
pub fn i32_at(data: &[u8], at: usize) -> Option<i32> {
    array(data, at).map(i32::from_le_bytes)
}

/// The u64 at `at`.
pub fn u64_at(data: &[u8], at: usize) -> Option<u64> {
    array(data, at).map(u64::from_le_bytes)
}

/// The i64 at `at`.
pub fn i64_at(data: &[u8], at: usize) -> Option<i64> {
    array(data, at).map(i64::from_le_bytes)
}

/// The u128 at `at`.
pub fn u128_at(data: &[u8], at: usize) -> Option<u128> {
    array(data, at).map(u128::from_le_bytes)
}

/// The i128 at `at`.
pub fn i128_at(data: &[u8], at: usize) -> Option<i128> {
    array(data, at).map(i128::from_le_bytes)
}

/// The key at `at`, None when it is all zeros (an unset optional key).
pub fn optional_key(data: &[u8], at: usize) -> Option<Pubkey> {
    pubkey_at(data, at).filter(|k| k.iter().any(|b| *b != 0))
}

/// An Anchor account's discriminator: the first 8 bytes of
/// sha256("account:<Name>").
pub fn discriminator(name: &str) -> [u8; 8] {
    let hash: [u8; 32] = Sha256::digest(format!("account:{name}")).into();
    hash[..8].try_into().expect("8 of 32 bytes")
}

/// Whether `data` starts with the discriminator of account `name`.
pub fn is_account(data: &[u8], name: &str) -> bool {
    data.get(..8) == Some(&discriminator(name)[..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discriminators_are_those_the_programs_write() {
        // Values from the programs' IDLs (docs/design/solana-liquidity-*.md).
        for (name, hex) in [
            ("PoolState", "f7ede3f5d7c3de46"),
            ("BondingCurve", "17b7f83760d8ac60"),
            ("Pool", "f19a6d0411b16dbc"),
            ("AmmConfig", "daf42168cbcb2b6f"),
            ("Whirlpool", "3f95d10ce1806309"),
            ("LbPair", "210b3162b565b10d"),
            ("BinArray", "5c8e5cdc059446b5"),
            ("LockedClmmPositionState", "34170507aa5a6cd5"),
            ("LockConfig", "6a2fee9f7c0ca0c0"),
            ("PositionV2", "75b0d4c7f5b485b6"),
            ("TickArrayState", "c09b55cd31f9812a"),
            ("TickArray", "4561bdbe6e0742bb"),
            ("DynamicTickArray", "11d8f68ee1c7da38"),
            ("Global", "a7e8e8b1c86c727f"),
            ("GlobalConfig", "95089ccaa0fcb0d9"),
        ] {
            let got: String = discriminator(name)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(got, hex, "{name}");
        }
        assert_eq!(u16_at(&[1, 2], 1), None);
        assert_eq!(i32_at(&(-5i32).to_le_bytes(), 0), Some(-5));
    }
}
