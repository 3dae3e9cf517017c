//! A transaction as the wire carries it (what a wallet is asked to sign),
//! read back: legacy or v0 messages, their static keys, instructions and
//! address-table lookups, and which keys are signers and writable.

use curve25519_dalek::edwards::CompressedEdwardsY;

use super::Pubkey;

/// An instruction with its accounts as indexes into the message's keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledInstruction {
    /// The program's index.
    pub program: u8,
    /// Its accounts' indexes.
    pub accounts: Vec<u8>,
    /// Its data.
    pub data: Vec<u8>,
}

/// Keys a v0 message loads from an address lookup table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lookup {
    /// The table's address.
    pub table: Pubkey,
    /// Indexes of writable keys in the table.
    pub writable: Vec<u8>,
    /// Indexes of read-only keys.
    pub readonly: Vec<u8>,
}

/// A decoded message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireMessage {
    /// Signatures required (the first keys).
    pub signers: usize,
    /// Of those, read-only ones (the last of the signers).
    pub readonly_signed: usize,
    /// Read-only keys among the others (the last static keys).
    pub readonly_unsigned: usize,
    /// The static keys.
    pub keys: Vec<Pubkey>,
    /// The instructions.
    pub instructions: Vec<CompiledInstruction>,
    /// The lookups (v0 only).
    pub lookups: Vec<Lookup>,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|e| *e <= self.bytes.len());
        let end =
            end.ok_or_else(|| format!("ends early (byte {} of {})", self.at, self.bytes.len()))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    /// Solana's compact length (short_vec): 7 bits a byte, at most 3 bytes.
    fn compact(&mut self) -> Result<usize, String> {
        let mut n = 0usize;
        for i in 0..3 {
            let b = self.byte()?;
            n |= usize::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err("a length is longer than three bytes".into())
    }

    fn key(&mut self) -> Result<Pubkey, String> {
        Ok(self.take(32)?.try_into().expect("32 bytes"))
    }

    fn list(&mut self) -> Result<Vec<u8>, String> {
        let n = self.compact()?;
        Ok(self.take(n)?.to_vec())
    }
}

/// Decode a transaction's wire bytes (signatures, then the message).
pub fn decode(tx: &[u8]) -> Result<WireMessage, String> {
    let mut r = Reader { bytes: tx, at: 0 };
    let signatures = r.compact()?;
    r.take(signatures.checked_mul(64).ok_or("too many signatures")?)?;
    let first = r.byte()?;
    let versioned = first & 0x80 != 0;
    if versioned && first & 0x7f != 0 {
        return Err(format!(
            "message version {} is not known (legacy and v0 are)",
            first & 0x7f
        ));
    }
    let signers = usize::from(if versioned { r.byte()? } else { first });
    let (readonly_signed, readonly_unsigned) = (usize::from(r.byte()?), usize::from(r.byte()?));
    let count = r.compact()?;
    let keys = (0..count).map(|_| r.key()).collect::<Result<Vec<_>, _>>()?;
    if signers == 0
        || signers > keys.len()
        || readonly_signed >= signers
        || readonly_unsigned > keys.len() - signers
    {
        return Err("its header does not fit its keys".into());
    }
    if signatures != signers {
        return Err(format!("{signatures} signatures for {signers} signers"));
    }
    r.take(32)?; // the recent blockhash
    let instructions = (0..r.compact()?)
        .map(|_| {
            Ok(CompiledInstruction {
                program: r.byte()?,
                accounts: r.list()?,
                data: r.list()?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let lookups = if versioned {
        (0..r.compact()?)
            .map(|_| {
                Ok(Lookup {
                    table: r.key()?,
                    writable: r.list()?,
                    readonly: r.list()?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?
    } else {
        Vec::new()
    };
    if r.at != tx.len() {
        return Err(format!("{} bytes follow the message", tx.len() - r.at));
    }
    Ok(WireMessage {
        signers,
        readonly_signed,
        readonly_unsigned,
        keys,
        instructions,
        lookups,
    })
}

/// An address lookup table's addresses (after its 56-byte header).
pub fn lookup_table_addresses(data: &[u8]) -> Option<Vec<Pubkey>> {
    let body = data.get(56..)?;
    (body.len() % 32 == 0).then(|| {
        body.chunks(32)
            .map(|c| c.try_into().expect("32 bytes"))
            .collect()
    })
}

/// A key on the ed25519 curve: one a private key can sign for (a wallet),
/// unlike a program-derived address.
pub fn on_curve(key: &Pubkey) -> bool {
    CompressedEdwardsY(*key).decompress().is_some()
}

impl WireMessage {
    /// Every key (static, then loaded writable, then loaded read-only) with
    /// whether it is writable; `table` gives a lookup table's addresses.
    pub fn resolve(
        &self,
        table: impl Fn(&Pubkey) -> Option<Vec<Pubkey>>,
    ) -> Result<Vec<(Pubkey, bool)>, String> {
        let n = self.keys.len();
        let mut out: Vec<(Pubkey, bool)> = self
            .keys
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let writable = if i < self.signers {
                    i < self.signers - self.readonly_signed
                } else {
                    i < n - self.readonly_unsigned
                };
                (*k, writable)
            })
            .collect();
        let mut readonly = Vec::new();
        for lookup in &self.lookups {
            let addresses =
                table(&lookup.table).ok_or("an address lookup table it uses does not exist")?;
            let at = |i: &u8| {
                addresses
                    .get(usize::from(*i))
                    .copied()
                    .ok_or("an index past its lookup table's end")
            };
            for i in &lookup.writable {
                out.push((at(i)?, true));
            }
            for i in &lookup.readonly {
                readonly.push((at(i)?, false));
            }
        }
        out.extend(readonly);
        for ix in &self.instructions {
            if usize::from(ix.program) >= out.len()
                || ix.accounts.iter().any(|a| usize::from(*a) >= out.len())
            {
                return Err("an instruction names an account index past the keys".into());
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solana::simulate::{transaction, Instruction, Meta};

    #[test]
    fn a_legacy_transaction_reads_back_as_written() {
        let (payer, program, account) = ([1u8; 32], [2u8; 32], [3u8; 32]);
        let ix = Instruction {
            program,
            accounts: vec![Meta {
                key: account,
                signer: false,
                writable: true,
            }],
            data: vec![9, 8],
        };
        let tx = transaction(payer, &[ix]);
        let message = decode(&tx).unwrap();
        let keys = message.resolve(|_| None).unwrap();
        assert_eq!(keys, vec![(payer, true), (account, true), (program, false)]);
        assert_eq!(message.instructions[0].data, vec![9, 8]);
        assert_eq!(message.instructions[0].accounts, vec![1]);
        assert!(decode(&tx[..tx.len() - 1]).is_err());
    }

    #[test]
    fn a_v0_transaction_loads_its_table_keys_writable_first() {
        let payer = [1u8; 32];
        let table = [7u8; 32];
        let mut tx = vec![1];
        tx.extend([0u8; 64]);
        tx.extend([0x80, 1, 0, 0, 1]);
        tx.extend(payer);
        tx.extend([0u8; 32]);
        tx.extend([1, 2, 2, 1, 0, 1, 5]); // program = key 2 (loaded), accounts [1], data [5]
        tx.extend([1]);
        tx.extend(table);
        tx.extend([1, 1, 1, 0]); // writable [1], readonly [0]
        let message = decode(&tx).unwrap();
        let addresses = vec![[10u8; 32], [11u8; 32]];
        let keys = message
            .resolve(|t| (*t == table).then(|| addresses.clone()))
            .unwrap();
        assert_eq!(
            keys,
            vec![(payer, true), ([11u8; 32], true), ([10u8; 32], false)]
        );
        assert!(message.resolve(|_| None).is_err());
        // A keypair's key (the token program's) is on the curve; a PDA is not.
        assert!(on_curve(&crate::solana::key(crate::solana::TOKEN_PROGRAM)));
        let pda = crate::solana::find_program_address(&[b"vault"], &[2u8; 32]).unwrap();
        assert!(!on_curve(&pda));
    }
}
