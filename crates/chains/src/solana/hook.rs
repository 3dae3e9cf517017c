//! Token-2022 transfer hooks: the accounts a hooked transfer must carry.
//! The hook program keeps, at the PDA `["extra-account-metas", mint]`, a
//! list of the extra accounts its `Execute` needs (a TLV entry under
//! `Execute`'s discriminator: a count, then 35-byte entries). Each entry is
//! a fixed key, a PDA of the hook program or of an account already listed,
//! or a key read from the instruction's data or an account's data; a PDA's
//! seeds are literals, slices of the instruction's data, accounts' keys, or
//! slices of accounts' data. `Execute`'s accounts are the source, the mint,
//! the destination, the authority, the list itself, then the extras in
//! order, each of which may be named by what follows it.
//!
//! A transfer carries the resolved extras after its own four accounts,
//! followed by the hook program and the list, as Token-2022 expects.

use super::Pubkey;

/// `Execute`'s discriminator: the first 8 bytes of
/// sha256("spl-transfer-hook-interface:execute").
pub const EXECUTE: [u8; 8] = [105, 37, 101, 197, 75, 251, 102, 26];

/// An account of an instruction and how it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meta {
    /// Its key.
    pub key: Pubkey,
    /// Whether it signs.
    pub signer: bool,
    /// Whether it is written.
    pub writable: bool,
}

impl Meta {
    /// A read-only account that does not sign.
    pub fn readonly(key: Pubkey) -> Self {
        Meta {
            key,
            signer: false,
            writable: false,
        }
    }
}

/// One entry of the list, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtraMeta {
    discriminator: u8,
    config: [u8; 32],
    signer: bool,
    writable: bool,
}

/// Where the list of `mint`'s extra accounts is kept by its hook `program`.
pub fn list_address(mint: &Pubkey, program: &Pubkey) -> Option<Pubkey> {
    super::find_program_address(&[b"extra-account-metas", mint], program)
}

/// The entries of `Execute`'s list in the account's `data`.
pub fn parse_list(data: &[u8]) -> Result<Vec<ExtraMeta>, String> {
    let mut at = 0;
    while at + 12 <= data.len() {
        let kind = &data[at..at + 8];
        let len = u32::from_le_bytes(data[at + 8..at + 12].try_into().expect("4 bytes")) as usize;
        let value = data
            .get(at + 12..at + 12 + len)
            .ok_or("the hook's account list is cut short")?;
        if kind == EXECUTE {
            let count = value
                .get(..4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")) as usize)
                .ok_or("the hook's account list has no count")?;
            let entries = value
                .get(4..4 + 35 * count)
                .ok_or("the hook's account list holds fewer entries than it counts")?;
            return Ok(entries
                .chunks_exact(35)
                .map(|e| ExtraMeta {
                    discriminator: e[0],
                    config: e[1..33].try_into().expect("32 bytes"),
                    signer: e[33] != 0,
                    writable: e[34] != 0,
                })
                .collect());
        }
        if kind == [0; 8] {
            break;
        }
        at += 12 + len;
    }
    Err("the hook's account list has no entry for Execute".into())
}

/// What resolving a hooked transfer's extras needs.
pub struct Execute<'a> {
    /// The hook program.
    pub program: Pubkey,
    /// Source, mint, destination, authority, the list: `Execute`'s first five accounts.
    pub accounts: [Pubkey; 5],
    /// The amount transferred.
    pub amount: u64,
    /// An account's data, where it was read (None: not read or not there).
    pub data_of: &'a dyn Fn(&Pubkey) -> Option<Vec<u8>>,
}

impl Execute<'_> {
    /// `Execute`'s instruction data: its discriminator and the amount.
    fn data(&self) -> Vec<u8> {
        let mut data = EXECUTE.to_vec();
        data.extend_from_slice(&self.amount.to_le_bytes());
        data
    }

    /// The extra accounts, in the list's order; an error names what could not be resolved.
    pub fn resolve(&self, list: &[ExtraMeta]) -> Result<Vec<Meta>, String> {
        let data = self.data();
        let mut keys: Vec<Pubkey> = self.accounts.to_vec();
        let mut extras = Vec::with_capacity(list.len());
        for (n, entry) in list.iter().enumerate() {
            let key = match entry.discriminator {
                0 => entry.config,
                1 => self.pda(&entry.config, &self.program, &keys, &data)?,
                2 => self.key_data(&entry.config, &keys, &data)?,
                d if d >= 128 => {
                    let program = *keys.get(usize::from(d - 128)).ok_or_else(|| {
                        format!(
                            "extra account {n} names a program at index {} that is not there",
                            d - 128
                        )
                    })?;
                    self.pda(&entry.config, &program, &keys, &data)?
                }
                d => return Err(format!("extra account {n} is of a kind ({d}) not known")),
            };
            keys.push(key);
            extras.push(Meta {
                key,
                signer: entry.signer,
                writable: entry.writable,
            });
        }
        Ok(extras)
    }

    fn account_data(&self, keys: &[Pubkey], index: u8) -> Result<Vec<u8>, String> {
        let key = keys
            .get(usize::from(index))
            .ok_or_else(|| format!("a seed names account {index}, which is not there"))?;
        (self.data_of)(key).ok_or_else(|| {
            format!(
                "a seed reads the data of {}, which was not read",
                super::encode(key)
            )
        })
    }

    /// The PDA of `program` from the seeds packed in `config`.
    fn pda(
        &self,
        config: &[u8; 32],
        program: &Pubkey,
        keys: &[Pubkey],
        data: &[u8],
    ) -> Result<Pubkey, String> {
        let slice = |bytes: &[u8], from: u8, len: u8| -> Result<Vec<u8>, String> {
            let (from, len) = (usize::from(from), usize::from(len));
            (bytes.get(from..from + len).map(<[u8]>::to_vec))
                .ok_or_else(|| "a seed reads past the end of its data".to_string())
        };
        let mut seeds: Vec<Vec<u8>> = Vec::new();
        let mut at = 0;
        let byte = |i: usize| config.get(i).copied().ok_or("a seed is cut short");
        while at < config.len() && config[at] != 0 {
            match config[at] {
                1 => {
                    let len = usize::from(byte(at + 1)?);
                    let bytes = config
                        .get(at + 2..at + 2 + len)
                        .ok_or("a literal seed is cut short")?;
                    seeds.push(bytes.to_vec());
                    at += 2 + len;
                }
                2 => {
                    seeds.push(slice(data, byte(at + 1)?, byte(at + 2)?)?);
                    at += 3;
                }
                3 => {
                    let index = usize::from(byte(at + 1)?);
                    let key = keys.get(index).ok_or_else(|| {
                        format!("a seed names account {index}, which is not there")
                    })?;
                    seeds.push(key.to_vec());
                    at += 2;
                }
                4 => {
                    let bytes = self.account_data(keys, byte(at + 1)?)?;
                    seeds.push(slice(&bytes, byte(at + 2)?, byte(at + 3)?)?);
                    at += 4;
                }
                kind => return Err(format!("a seed is of a kind ({kind}) not known")),
            }
        }
        let seeds: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
        super::find_program_address(&seeds, program).ok_or_else(|| "no PDA for the seeds".into())
    }

    /// A key read from the instruction's data or an account's data.
    fn key_data(&self, config: &[u8; 32], keys: &[Pubkey], data: &[u8]) -> Result<Pubkey, String> {
        let bytes = match config[0] {
            1 => data.get(usize::from(config[1])..).map(<[u8]>::to_vec),
            2 => {
                let bytes = self.account_data(keys, config[1])?;
                bytes.get(usize::from(config[2])..).map(<[u8]>::to_vec)
            }
            kind => return Err(format!("a key's source is of a kind ({kind}) not known")),
        };
        (bytes.and_then(|b| b.get(..32).map(|k| k.try_into().expect("32 bytes"))))
            .ok_or_else(|| "a key reads past the end of its data".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    fn entry(discriminator: u8, config: &[u8], writable: bool) -> Vec<u8> {
        let mut e = vec![discriminator];
        let mut c = config.to_vec();
        c.resize(32, 0);
        e.extend(c);
        e.extend([0, u8::from(writable)]);
        e
    }

    fn list(entries: &[Vec<u8>]) -> Vec<u8> {
        let mut value = (entries.len() as u32).to_le_bytes().to_vec();
        value.extend(entries.concat());
        // Another entry first, as a list may hold others.
        let mut data = [7u8; 8].to_vec();
        data.extend(2u32.to_le_bytes());
        data.extend([0, 0]);
        data.extend(EXECUTE);
        data.extend((value.len() as u32).to_le_bytes());
        data.extend(value);
        data
    }

    #[test]
    fn execute_is_the_interface_discriminator() {
        let hash = Sha256::digest(b"spl-transfer-hook-interface:execute");
        assert_eq!(EXECUTE, hash[..8]);
    }

    #[test]
    fn every_kind_of_extra_account_is_resolved() {
        let program = [9u8; 32];
        let (source, mint, destination, authority) = ([1u8; 32], [2u8; 32], [3u8; 32], [4u8; 32]);
        let validation = list_address(&mint, &program).unwrap();
        let mut source_data = vec![0u8; 64];
        source_data[32..64].copy_from_slice(&[6u8; 32]);
        let data_of = move |k: &Pubkey| (*k == source).then(|| source_data.clone());
        let data = list(&[
            // A fixed key.
            entry(0, &[5u8; 32], false),
            // A PDA of the hook: "config" and the mint's key.
            entry(1, &[[1, 6].as_slice(), b"config", &[3, 1]].concat(), true),
            // A PDA of account 5 (the fixed key): the amount's first byte and
            // the source's owner (its data, 32..64).
            entry(128 + 5, &[2, 8, 1, 4, 0, 32, 32], false),
            // A key in the source's data.
            entry(2, &[2, 0, 32], false),
        ]);
        let metas = parse_list(&data).unwrap();
        let execute = Execute {
            program,
            accounts: [source, mint, destination, authority, validation],
            amount: 0x2a,
            data_of: &data_of,
        };
        let extras = execute.resolve(&metas).unwrap();
        let keys: Vec<Pubkey> = extras.iter().map(|m| m.key).collect();
        assert_eq!(keys[0], [5u8; 32]);
        assert_eq!(
            keys[1],
            super::super::find_program_address(&[b"config", &mint], &program).unwrap()
        );
        assert!(extras[1].writable && !extras[0].writable);
        assert_eq!(
            keys[2],
            super::super::find_program_address(&[&[0x2a], &[6u8; 32]], &[5u8; 32]).unwrap()
        );
        assert_eq!(keys[3], [6u8; 32]);
    }

    #[test]
    fn what_cannot_be_resolved_says_why() {
        let nothing = |_: &Pubkey| None;
        let execute = Execute {
            program: [9; 32],
            accounts: [[1; 32], [2; 32], [3; 32], [4; 32], [5; 32]],
            amount: 1,
            data_of: &nothing,
        };
        let unread = parse_list(&list(&[entry(1, &[4, 2, 0, 8], false)])).unwrap();
        assert!(execute
            .resolve(&unread)
            .unwrap_err()
            .contains("was not read"));
        let unknown = parse_list(&list(&[entry(7, &[], false)])).unwrap();
        assert!(execute.resolve(&unknown).unwrap_err().contains("not known"));
        assert!(parse_list(&[7u8; 8]).is_err());
        let mut short = list(&[entry(0, &[], false)]);
        short.truncate(short.len() - 3);
        assert!(parse_list(&short).is_err());
    }
}
