//! Gatekeepers that only storage reveals: plain `address` variables of the
//! token (its storage layout, inferred from the code by evmole) that its
//! non-standard functions read — an operator kept in a private slot and
//! compared with the caller, which no interface names. Their values are
//! read in round 2 and probed in round 3 as roles of their own, beside the
//! owner, the creator and the `AccessControl` members.

use alloy_primitives::{Address, B256};
use serde_json::json;

use super::code::CodeFacts;
use riskintel_chains::evm::types::BlockTag;
use riskintel_chains::rpc::{Answers, Batch, RpcError, Slot};

/// Slots read, at most (the layout's first address variables).
const MOST_SLOTS: usize = 8;

/// Storage reads sent with round 2: each slot once, with the byte offsets
/// of the address variables packed in it.
pub struct Planned {
    reads: Vec<(B256, Vec<u8>, Slot<B256>)>,
}

/// Add to `batch` a read of each slot of `token` that holds an address
/// variable the code's non-standard functions read.
pub fn plan(code: &CodeFacts, token: Address, at: &BlockTag, batch: &mut Batch) -> Planned {
    let mut reads: Vec<(B256, Vec<u8>, Slot<B256>)> = Vec::new();
    for variable in &code.stored_addresses {
        if let Some(read) = reads.iter_mut().find(|r| r.0 == variable.slot) {
            read.1.push(variable.offset);
        } else if reads.len() < MOST_SLOTS {
            let word = batch.call("eth_getStorageAt", json!([token, variable.slot, at]));
            reads.push((variable.slot, vec![variable.offset], word));
        }
    }
    Planned { reads }
}

/// The address `offset` bytes from the low end of `word` (Solidity packs
/// variables from the right), if it fits.
fn address_at(word: B256, offset: u8) -> Option<Address> {
    let end = 32usize.checked_sub(offset as usize)?;
    let start = end.checked_sub(20)?;
    Some(Address::from_slice(&word[start..end]))
}

impl Planned {
    /// The non-zero addresses read, in layout order, without repeats.
    pub fn take(self, answers: &mut Answers) -> Result<Vec<Address>, RpcError> {
        let mut found: Vec<Address> = Vec::new();
        for (_, offsets, read) in self.reads {
            let word = answers.take(read)?;
            for address in offsets.into_iter().filter_map(|o| address_at(word, o)) {
                if !address.is_zero() && !found.contains(&address) {
                    found.push(address);
                }
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_from_the_right_of_a_packed_slot() {
        let mut word = B256::ZERO;
        word[12..].copy_from_slice(&[7u8; 20]);
        assert_eq!(address_at(word, 0), Some(Address::repeat_byte(7)));
        let mut packed = B256::ZERO;
        packed[31] = 1; // a bool at offset 0
        packed[11..31].copy_from_slice(&[9u8; 20]);
        assert_eq!(address_at(packed, 1), Some(Address::repeat_byte(9)));
        assert_eq!(address_at(packed, 13), None);
    }
}
