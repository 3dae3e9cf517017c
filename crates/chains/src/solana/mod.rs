//! Solana: addresses and program-derived addresses, the account layouts the
//! analyses read (`layouts`: mints, token accounts, metadata; `pools`: every
//! AMM family's pools), and the chain's node with typed account answers
//! (`node`).

pub mod bytes;
pub mod hook;
pub mod layouts;
pub mod node;
pub mod pools;
pub mod simulate;
pub mod transaction;
pub mod types;
pub mod wire;

use curve25519_dalek::edwards::CompressedEdwardsY;
use sha2::{Digest, Sha256};

use super::InputError;
pub use node::SolanaChain;
pub use types::Account;

/// A 32-byte public key.
pub type Pubkey = [u8; 32];

/// The SPL Token program.
pub const TOKEN_PROGRAM: &str = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
/// The Token-2022 program.
pub const TOKEN_2022_PROGRAM: &str = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
/// The Metaplex Token Metadata program.
pub const METAPLEX_PROGRAM: &str = "metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s";
/// The associated token account program.
pub const ATA_PROGRAM: &str = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
/// Wrapped SOL.
pub const WSOL_MINT: &str = "So11111111111111111111111111111111111111112";
/// The burn address.
pub const INCINERATOR: &str = "1nc1nerator11111111111111111111111111111111";
/// The system program: accounts it owns are plain wallets.
pub const SYSTEM_PROGRAM: &str = "11111111111111111111111111111111";

/// Decode a base58 public key; 422 unless it is 32 bytes.
pub fn parse_pubkey(text: &str) -> Result<Pubkey, InputError> {
    let bytes = bs58::decode(text)
        .into_vec()
        .map_err(|_| InputError::BadAddress(format!("{text:?} is not base58")))?;
    bytes.try_into().map_err(|b: Vec<u8>| {
        InputError::BadAddress(format!(
            "{text:?} decodes to {} bytes; a Solana address has 32",
            b.len()
        ))
    })
}

/// Base58 of a key.
pub fn encode(key: &Pubkey) -> String {
    bs58::encode(key).into_string()
}

/// A constant key.
pub fn key(text: &str) -> Pubkey {
    parse_pubkey(text).expect("constant is a valid key")
}

/// The program-derived address of `seeds` under `program` (the first bump,
/// from 255 down, whose hash is off the ed25519 curve).
pub fn find_program_address(seeds: &[&[u8]], program: &Pubkey) -> Option<Pubkey> {
    for bump in (0..=255u8).rev() {
        let mut hasher = Sha256::new();
        for seed in seeds {
            hasher.update(seed);
        }
        hasher.update([bump]);
        hasher.update(program);
        hasher.update(b"ProgramDerivedAddress");
        let hash: Pubkey = hasher.finalize().into();
        if CompressedEdwardsY(hash).decompress().is_none() {
            return Some(hash);
        }
    }
    None
}

/// The associated token account of `owner` for `mint` under `token_program`.
pub fn associated_token_address(
    owner: &Pubkey,
    mint: &Pubkey,
    token_program: &str,
) -> Option<Pubkey> {
    find_program_address(&[owner, &key(token_program), mint], &key(ATA_PROGRAM))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_base58_of_32_bytes() {
        assert!(parse_pubkey(WSOL_MINT).is_ok());
        assert!(
            matches!(parse_pubkey("0OIl"), Err(InputError::BadAddress(m)) if m.contains("base58"))
        );
        assert!(matches!(parse_pubkey("1111"), Err(InputError::BadAddress(m)) if m.contains("32")));
    }

    #[test]
    fn associated_token_address_is_a_program_derived_address() {
        // The well-known ATA of the system program's address for wrapped SOL.
        let owner = key("11111111111111111111111111111111");
        let derived = associated_token_address(&owner, &key(WSOL_MINT), TOKEN_PROGRAM).unwrap();
        assert_eq!(CompressedEdwardsY(derived).decompress(), None);
    }
}
