//! The account layouts the analyses read, decoded from raw bytes: SPL Token
//! and Token-2022 mints with their extensions, token accounts, Metaplex
//! metadata (pools: `pools`).

use super::bytes::{optional_key, pubkey_at, u16_at, u64_at};
use super::{
    find_program_address, key, Pubkey, METAPLEX_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM,
};

fn coption_key(data: &[u8], at: usize) -> Option<Pubkey> {
    let tag = u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?);
    (tag == 1).then(|| pubkey_at(data, at + 4)).flatten()
}

/// A transfer fee of Token-2022.
#[derive(Clone, Debug, PartialEq)]
pub struct TransferFee {
    /// Fee in basis points (the newer fee, which applies from its epoch on).
    pub basis_points: u16,
    /// Maximum fee per transfer, base units.
    pub maximum_fee: u64,
    /// Who may change it.
    pub config_authority: Option<Pubkey>,
    /// The older fee (basis points, maximum), which applies until the newer's epoch.
    pub older: (u16, u64),
}

impl TransferFee {
    /// The most either fee takes from a transfer of `amount` (rounded up,
    /// as Token-2022 rounds it), so that what is left surely arrived.
    pub fn most_withheld(&self, amount: u64) -> u64 {
        [(self.basis_points, self.maximum_fee), self.older]
            .into_iter()
            .map(|(bps, max)| {
                let fee = (u128::from(amount) * u128::from(bps)).div_ceil(10_000);
                fee.min(u128::from(max)) as u64
            })
            .max()
            .unwrap_or(0)
            .min(amount)
    }
}

/// Token metadata (Token-2022 extension or Metaplex).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Metadata {
    /// Name.
    pub name: String,
    /// Symbol.
    pub symbol: String,
    /// Who may change it; None when immutable.
    pub update_authority: Option<Pubkey>,
    /// Metaplex `is_mutable` (true for the Token-2022 extension with an authority).
    pub is_mutable: bool,
    /// Where it was read: `token-2022` or `metaplex`.
    pub source: &'static str,
}

/// A mint of SPL Token or Token-2022.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Mint {
    /// Token-2022 (else SPL Token).
    pub token_2022: bool,
    /// Mint authority.
    pub mint_authority: Option<Pubkey>,
    /// Supply, base units.
    pub supply: u64,
    /// Decimals.
    pub decimals: u8,
    /// Freeze authority.
    pub freeze_authority: Option<Pubkey>,
    /// Extension type numbers present.
    pub extensions: Vec<u16>,
    /// Transfer fee.
    pub transfer_fee: Option<TransferFee>,
    /// Permanent delegate.
    pub permanent_delegate: Option<Pubkey>,
    /// Transfer hook: (program, authority).
    pub transfer_hook: Option<(Option<Pubkey>, Option<Pubkey>)>,
    /// New accounts start frozen.
    pub default_frozen: bool,
    /// Tokens cannot be transferred.
    pub non_transferable: bool,
    /// Pausable: (authority, paused).
    pub pausable: Option<(Option<Pubkey>, bool)>,
    /// Who may close the mint.
    pub close_authority: Option<Pubkey>,
    /// Confidential transfers configured.
    pub confidential_transfers: bool,
    /// Token-2022 metadata.
    pub metadata: Option<Metadata>,
}

fn borsh_string(data: &[u8], at: &mut usize) -> Option<String> {
    let len = u32::from_le_bytes(data.get(*at..*at + 4)?.try_into().ok()?) as usize;
    let bytes = data.get(*at + 4..*at + 4 + len)?;
    *at += 4 + len;
    Some(
        String::from_utf8_lossy(bytes)
            .trim_end_matches('\0')
            .trim()
            .to_string(),
    )
}

/// Decode a mint owned by `program` (SPL Token or Token-2022); None when the
/// bytes are not a mint.
pub fn decode_mint(data: &[u8], program: &str) -> Option<Mint> {
    let token_2022 = program == TOKEN_2022_PROGRAM;
    if !(program == TOKEN_PROGRAM || token_2022) || data.len() < 82 || data[45] != 1 {
        return None;
    }
    if data.len() > 82 && !(token_2022 && data.len() > 165 && data[165] == 1) {
        // Longer than a mint and not a Token-2022 mint with extensions: a token account or other.
        return None;
    }
    let mut mint = Mint {
        token_2022,
        mint_authority: coption_key(data, 0),
        supply: u64_at(data, 36)?,
        decimals: data[44],
        freeze_authority: coption_key(data, 46),
        ..Mint::default()
    };
    let mut at = 166;
    while at + 4 <= data.len() {
        let kind = u16_at(data, at)?;
        let len = u16_at(data, at + 2)? as usize;
        let value = data.get(at + 4..at + 4 + len)?;
        at += 4 + len;
        if kind == 0 {
            break;
        }
        mint.extensions.push(kind);
        match kind {
            1 => {
                mint.transfer_fee = Some(TransferFee {
                    config_authority: optional_key(value, 0),
                    maximum_fee: u64_at(value, 72 + 18 + 8)?,
                    basis_points: u16_at(value, 72 + 18 + 16)?,
                    older: (u16_at(value, 72 + 16)?, u64_at(value, 72 + 8)?),
                })
            }
            3 => mint.close_authority = optional_key(value, 0),
            4 => mint.confidential_transfers = true,
            6 => mint.default_frozen = value.first() == Some(&2),
            9 => mint.non_transferable = true,
            12 => mint.permanent_delegate = optional_key(value, 0),
            14 => mint.transfer_hook = Some((optional_key(value, 32), optional_key(value, 0))),
            19 => {
                let mut p = 64;
                let name = borsh_string(value, &mut p)?;
                let symbol = borsh_string(value, &mut p)?;
                let update_authority = optional_key(value, 0);
                mint.metadata = Some(Metadata {
                    name,
                    symbol,
                    is_mutable: update_authority.is_some(),
                    update_authority,
                    source: "token-2022",
                });
            }
            26 => mint.pausable = Some((optional_key(value, 0), value.get(32) == Some(&1))),
            _ => {}
        }
    }
    Some(mint)
}

/// A token account.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenAccount {
    /// Its mint.
    pub mint: Pubkey,
    /// Its owner.
    pub owner: Pubkey,
    /// Balance, base units.
    pub amount: u64,
}

/// Decode a token account (SPL Token or Token-2022).
pub fn decode_token_account(data: &[u8]) -> Option<TokenAccount> {
    if data.len() < 165 || data[108] == 0 {
        return None;
    }
    Some(TokenAccount {
        mint: pubkey_at(data, 0)?,
        owner: pubkey_at(data, 32)?,
        amount: u64_at(data, 64)?,
    })
}

/// A token account's delegation: (delegate, delegated amount).
pub fn decode_delegation(data: &[u8]) -> Option<(Pubkey, u64)> {
    if data.len() < 165 {
        return None;
    }
    Some((coption_key(data, 72)?, u64_at(data, 121)?))
}

/// The Metaplex metadata account address of a mint.
pub fn metaplex_address(mint: &Pubkey) -> Option<Pubkey> {
    let program = key(METAPLEX_PROGRAM);
    find_program_address(&[b"metadata", &program, mint], &program)
}

/// Decode Metaplex metadata (v1).
pub fn decode_metaplex(data: &[u8]) -> Option<Metadata> {
    if data.first() != Some(&4) {
        return None;
    }
    let update_authority = pubkey_at(data, 1)?;
    let mut at = 65;
    let name = borsh_string(data, &mut at)?;
    let symbol = borsh_string(data, &mut at)?;
    let _uri = borsh_string(data, &mut at)?;
    at += 2;
    match data.get(at)? {
        0 => at += 1,
        1 => {
            let n = u32::from_le_bytes(data.get(at + 1..at + 5)?.try_into().ok()?) as usize;
            at += 5 + 34 * n;
        }
        _ => return None,
    }
    let is_mutable = *data.get(at + 1)? == 1;
    Some(Metadata {
        name,
        symbol,
        update_authority: Some(update_authority),
        is_mutable,
        source: "metaplex",
    })
}
