//! A token transfer as a transaction to simulate (`simulateTransaction`
//! with `sigVerify: false` and `replaceRecentBlockhash: true`): the legacy
//! wire format written by hand — its signatures left empty, since nothing
//! is signed — so no SDK is needed to ask a node what a transfer would do.

use serde::Deserialize;
use serde_json::Value;

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
    /// Who pays the fee (a wallet with SOL; may be the authority).
    pub fee_payer: Pubkey,
    /// Base units sent.
    pub amount: u64,
    /// The mint's decimals.
    pub decimals: u8,
}

/// `transfer_checked`'s instruction tag in both token programs.
const TRANSFER_CHECKED: u8 = 12;

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

impl Transfer {
    /// The transaction in base64, as `simulateTransaction` takes it.
    pub fn base64(&self) -> String {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(self.transaction())
    }

    /// The transaction, as the wire carries it (empty signatures, an empty
    /// blockhash the node replaces).
    pub fn transaction(&self) -> Vec<u8> {
        // Keys in the order a message requires: writable signers, read-only
        // signers, writable others, read-only others.
        let mut keys: Vec<Pubkey> = vec![self.fee_payer];
        let signers = if self.authority == self.fee_payer {
            1
        } else {
            keys.push(self.authority);
            2
        };
        let readonly_signed = signers - 1;
        keys.push(self.source);
        if self.destination != self.source {
            keys.push(self.destination);
        }
        keys.push(self.mint);
        keys.push(self.program);
        let index = |k: &Pubkey| keys.iter().position(|x| x == k).expect("listed") as u8;
        let mut message = vec![signers as u8, readonly_signed as u8, 2];
        compact(keys.len(), &mut message);
        for k in &keys {
            message.extend_from_slice(k);
        }
        message.extend_from_slice(&[0u8; 32]);
        compact(1, &mut message);
        message.push(index(&self.program));
        let accounts = [
            index(&self.source),
            index(&self.mint),
            index(&self.destination),
            index(&self.authority),
        ];
        compact(accounts.len(), &mut message);
        message.extend_from_slice(&accounts);
        let mut data = vec![TRANSFER_CHECKED];
        data.extend_from_slice(&self.amount.to_le_bytes());
        data.push(self.decimals);
        compact(data.len(), &mut message);
        message.extend_from_slice(&data);
        let mut tx = Vec::with_capacity(1 + 64 * signers + message.len());
        compact(signers, &mut tx);
        tx.extend(std::iter::repeat_n(0u8, 64 * signers));
        tx.extend(message);
        tx
    }
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
            fee_payer: [1; 32],
            amount: 1_000,
            decimals: 6,
        };
        let tx = t.transaction();
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
        let own = Transfer {
            fee_payer: [2; 32],
            ..t
        };
        assert_eq!(own.transaction()[0], 1);
    }
}
