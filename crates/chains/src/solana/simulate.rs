//! A token transfer as a transaction to simulate (`simulateTransaction`
//! with `sigVerify: false` and `replaceRecentBlockhash: true`): the legacy
//! wire format written by hand — its signatures left empty, since nothing
//! is signed — so no SDK is needed to ask a node what a transfer would do.

use serde::Deserialize;
use serde_json::Value;

pub use super::hook::Meta;
use super::Pubkey;

/// A `transfer_checked` of a token program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// The token program (SPL Token or Token-2022).
    pub program: Pubkey,
    /// The token account sent from.
    pub source: Pubkey,
    /// The mint.
    pub mint: Pubkey,
    /// The token account sent to.
    pub destination: Pubkey,
    /// The source's owner, who must sign.
    pub authority: Pubkey,
    /// Base units sent.
    pub amount: u64,
    /// The mint's decimals.
    pub decimals: u8,
}

/// `transfer_checked`'s instruction tag in both token programs.
const TRANSFER_CHECKED: u8 = 12;

/// One instruction of a transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// The program run.
    pub program: Pubkey,
    /// Its accounts, in order.
    pub accounts: Vec<Meta>,
    /// Its data.
    pub data: Vec<u8>,
}

impl Transfer {
    /// The instruction, carrying `extra` after its own four accounts (a
    /// transfer hook's: its extras, the hook program and its list).
    pub fn instruction(&self, extra: &[Meta]) -> Instruction {
        let mut data = vec![TRANSFER_CHECKED];
        data.extend_from_slice(&self.amount.to_le_bytes());
        data.push(self.decimals);
        let mut accounts = vec![
            Meta {
                key: self.source,
                signer: false,
                writable: true,
            },
            Meta::readonly(self.mint),
            Meta {
                key: self.destination,
                signer: false,
                writable: true,
            },
            Meta {
                key: self.authority,
                signer: true,
                writable: false,
            },
        ];
        accounts.extend_from_slice(extra);
        Instruction {
            program: self.program,
            accounts,
            data,
        }
    }
}

/// The associated token account program's `CreateIdempotent` of `owner`'s
/// account `ata` for `mint`, paid by `payer`.
pub fn create_associated_account(
    payer: Pubkey,
    ata: Pubkey,
    owner: Pubkey,
    mint: Pubkey,
    token_program: Pubkey,
) -> Instruction {
    Instruction {
        program: super::key(super::ATA_PROGRAM),
        accounts: vec![
            Meta {
                key: payer,
                signer: true,
                writable: true,
            },
            Meta {
                key: ata,
                signer: false,
                writable: true,
            },
            Meta::readonly(owner),
            Meta::readonly(mint),
            Meta::readonly(super::key(super::SYSTEM_PROGRAM)),
            Meta::readonly(token_program),
        ],
        data: vec![1],
    }
}

/// Solana's compact length (short_vec): 7 bits a byte, low first.
fn compact(mut n: usize, out: &mut Vec<u8>) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// The transaction in base64, as `simulateTransaction` takes it.
pub fn base64(fee_payer: Pubkey, instructions: &[Instruction]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(transaction(fee_payer, instructions))
}

/// The transaction as the wire carries it: empty signatures, an empty
/// blockhash the node replaces, a legacy message.
pub fn transaction(fee_payer: Pubkey, instructions: &[Instruction]) -> Vec<u8> {
    // Every key once, with what any use asks of it; the fee payer first.
    let mut metas: Vec<Meta> = vec![Meta {
        key: fee_payer,
        signer: true,
        writable: true,
    }];
    let all = instructions.iter().flat_map(|i| {
        (i.accounts.iter().copied()).chain(std::iter::once(Meta::readonly(i.program)))
    });
    for meta in all {
        match metas.iter_mut().find(|m| m.key == meta.key) {
            Some(m) => {
                m.signer |= meta.signer;
                m.writable |= meta.writable;
            }
            None => metas.push(meta),
        }
    }
    // The order a message requires: writable signers, read-only signers,
    // writable others, read-only others (each group keeps first use's order).
    let group = |m: &Meta| match (m.signer, m.writable) {
        (true, true) => 0,
        (true, false) => 1,
        (false, true) => 2,
        (false, false) => 3,
    };
    metas.sort_by_key(group);
    let count = |g| metas.iter().filter(|m| group(m) == g).count() as u8;
    let signers = (count(0) + count(1)) as usize;
    let mut message = vec![signers as u8, count(1), count(3)];
    compact(metas.len(), &mut message);
    for m in &metas {
        message.extend_from_slice(&m.key);
    }
    message.extend_from_slice(&[0u8; 32]);
    let index = |k: &Pubkey| metas.iter().position(|m| m.key == *k).expect("listed") as u8;
    compact(instructions.len(), &mut message);
    for i in instructions {
        message.push(index(&i.program));
        compact(i.accounts.len(), &mut message);
        message.extend(i.accounts.iter().map(|m| index(&m.key)));
        compact(i.data.len(), &mut message);
        message.extend_from_slice(&i.data);
    }
    let mut tx = Vec::with_capacity(1 + 64 * signers + message.len());
    compact(signers, &mut tx);
    tx.extend(std::iter::repeat_n(0u8, 64 * signers));
    tx.extend(message);
    tx
}

/// What `simulateTransaction` answers.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Simulated {
    /// Why it failed, when it did.
    pub err: Option<Value>,
    /// The programs' logs.
    #[serde(default)]
    pub logs: Option<Vec<String>>,
    /// The accounts asked for, after (base64 data), where asked.
    #[serde(default)]
    pub accounts: Option<Vec<Option<super::Account>>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transfer_is_laid_out_as_a_legacy_message() {
        let t = Transfer {
            program: [9; 32],
            source: [3; 32],
            mint: [5; 32],
            destination: [4; 32],
            authority: [2; 32],
            amount: 1_000,
            decimals: 6,
        };
        let tx = transaction([1; 32], &[t.instruction(&[])]);
        // Two empty signatures, then the header: 2 signers, 1 read-only
        // signer, 2 read-only others; six keys.
        assert_eq!(tx[0], 2);
        let message = &tx[1 + 128..];
        assert_eq!(&message[..4], &[2, 1, 2, 6]);
        let keys: Vec<u8> = (0..6).map(|i| message[4 + 32 * i]).collect();
        assert_eq!(keys, vec![1, 2, 3, 4, 5, 9]);
        let ix = &message[4 + 32 * 6 + 32..];
        // One instruction: the program (key 5), accounts source, mint,
        // destination, authority, and the tag, amount and decimals.
        assert_eq!(&ix[..8], &[1, 5, 4, 2, 4, 3, 1, 10]);
        assert_eq!(ix[8], TRANSFER_CHECKED);
        assert_eq!(u64::from_le_bytes(ix[9..17].try_into().unwrap()), 1_000);
        assert_eq!(ix[17], 6);
        // The authority paying its own fee signs once.
        assert_eq!(transaction([2; 32], &[t.instruction(&[])])[0], 1);
    }

    #[test]
    fn keys_used_twice_are_listed_once_with_every_use() {
        let buy = Transfer {
            program: [9; 32],
            source: [3; 32],
            mint: [5; 32],
            destination: [4; 32],
            authority: [2; 32],
            amount: 10,
            decimals: 6,
        };
        // The sell back: the buyer's account (written by both) signs by its owner [6].
        let sell = Transfer {
            source: [4; 32],
            destination: [3; 32],
            authority: [6; 32],
            ..buy.clone()
        };
        let hook = [
            Meta::readonly([7; 32]),
            Meta {
                key: [8; 32],
                signer: false,
                writable: true,
            },
        ];
        let tx = transaction([1; 32], &[buy.instruction(&hook), sell.instruction(&hook)]);
        assert_eq!(tx[0], 3);
        let message = &tx[1 + 64 * 3..];
        // Signers 1 (writable), 2 and 6 (read-only); writable 3, 4, 8; read-only 5, 7, 9.
        assert_eq!(&message[..4], &[3, 2, 3, 9]);
        let keys: Vec<u8> = (0..9).map(|i| message[4 + 32 * i]).collect();
        assert_eq!(keys, vec![1, 2, 6, 3, 4, 8, 5, 7, 9]);
    }
}
