//! The little ABI encoding the analysis needs: calls with word-sized
//! arguments, Multicall3 `aggregate3`, and decoding of the answers.

use alloy_primitives::{keccak256, Address, U256};

/// The 4-byte selector of a function signature, e.g. `balanceOf(address)`.
pub fn selector(signature: &str) -> [u8; 4] {
    let hash = keccak256(signature.as_bytes());
    [hash[0], hash[1], hash[2], hash[3]]
}

/// A 32-byte ABI word.
pub type Word = [u8; 32];

/// An address as a word.
pub fn address_word(address: Address) -> Word {
    let mut word = [0u8; 32];
    word[12..].copy_from_slice(address.as_slice());
    word
}

/// A uint256 as a word.
pub fn uint_word(value: U256) -> Word {
    value.to_be_bytes::<32>()
}

/// Call data for `signature` with word-sized arguments.
pub fn call(signature: &str, args: &[Word]) -> Vec<u8> {
    let mut data = selector(signature).to_vec();
    for arg in args {
        data.extend_from_slice(arg);
    }
    data
}

/// One call of a Multicall3 batch.
#[derive(Clone, Debug)]
pub struct Call3 {
    /// Contract called.
    pub target: Address,
    /// Call data.
    pub data: Vec<u8>,
}

/// `aggregate3((address,bool,bytes)[])` with allowFailure on every call.
pub fn aggregate3(calls: &[Call3]) -> Vec<u8> {
    let mut out = selector("aggregate3((address,bool,bytes)[])").to_vec();
    out.extend_from_slice(&uint_word(U256::from(32)));
    out.extend_from_slice(&uint_word(U256::from(calls.len())));
    // Each tuple: address, bool, offset of bytes (0x60), length, padded data.
    let sizes: Vec<usize> = calls.iter().map(|c| 32 * 4 + c.data.len().div_ceil(32) * 32).collect();
    let mut offset = 32 * calls.len();
    for size in &sizes {
        out.extend_from_slice(&uint_word(U256::from(offset)));
        offset += size;
    }
    for call in calls {
        out.extend_from_slice(&address_word(call.target));
        out.extend_from_slice(&uint_word(U256::from(1)));
        out.extend_from_slice(&uint_word(U256::from(96)));
        out.extend_from_slice(&uint_word(U256::from(call.data.len())));
        out.extend_from_slice(&call.data);
        out.resize(out.len() + (32 - call.data.len() % 32) % 32, 0);
    }
    out
}

fn word_at(data: &[u8], offset: usize) -> Option<&[u8]> {
    data.get(offset..offset.checked_add(32)?)
}

fn usize_at(data: &[u8], offset: usize) -> Option<usize> {
    let word = U256::from_be_slice(word_at(data, offset)?);
    usize::try_from(word).ok().filter(|v| *v <= data.len())
}

/// Decode `(bool success, bytes returnData)[]`; None when malformed.
pub fn decode_aggregate3(data: &[u8]) -> Option<Vec<(bool, Vec<u8>)>> {
    let array = usize_at(data, 0)?;
    let count = usize_at(data, array)?;
    let base = array + 32;
    let mut results = Vec::with_capacity(count);
    for i in 0..count {
        let tuple = base + usize_at(data, base + 32 * i)?;
        let success = !U256::from_be_slice(word_at(data, tuple)?).is_zero();
        let bytes_at = tuple + usize_at(data, tuple + 32)?;
        let len = usize_at(data, bytes_at)?;
        let bytes = data.get(bytes_at + 32..bytes_at + 32 + len)?.to_vec();
        results.push((success, bytes));
    }
    Some(results)
}

/// A uint256 answer.
pub fn decode_uint(data: &[u8]) -> Option<U256> {
    word_at(data, 0).map(U256::from_be_slice)
}

/// An address answer (the high 12 bytes must be zero).
pub fn decode_address(data: &[u8]) -> Option<Address> {
    let word = word_at(data, 0)?;
    word[..12].iter().all(|b| *b == 0).then(|| Address::from_slice(&word[12..]))
}

/// A string answer, or a bytes32 one (old tokens), trimmed of NULs.
pub fn decode_string_or_bytes32(data: &[u8]) -> Option<String> {
    if data.len() >= 64 {
        if let (Some(offset), true) = (usize_at(data, 0), data.len() >= 96 || data.len() == 64) {
            if let Some(len) = usize_at(data, offset) {
                if let Some(bytes) = data.get(offset + 32..offset + 32 + len) {
                    return Some(clean_text(bytes));
                }
            }
        }
    }
    if data.len() == 32 {
        let end = data.iter().position(|b| *b == 0).unwrap_or(32);
        return Some(clean_text(&data[..end]));
    }
    None
}

fn clean_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).chars().filter(|c| !c.is_control()).collect::<String>().trim().to_string()
}

/// `getReserves()`: (reserve0, reserve1).
pub fn decode_reserves(data: &[u8]) -> Option<(U256, U256)> {
    Some((U256::from_be_slice(word_at(data, 0)?), U256::from_be_slice(word_at(data, 32)?)))
}

/// The reason of an `Error(string)` revert, if that is what `data` is.
pub fn decode_revert_reason(data: &[u8]) -> Option<String> {
    let body = data.strip_prefix(&selector("Error(string)")[..])?;
    decode_string_or_bytes32(body)
}

/// Hex with 0x.
pub fn to_hex(data: &[u8]) -> String {
    format!("0x{}", hex::encode(data))
}

/// Bytes from 0x-hex.
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    hex::decode(text.strip_prefix("0x").unwrap_or(text)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_match_the_published_ones() {
        assert_eq!(hex::encode(selector("aggregate3((address,bool,bytes)[])")), "82ad56cb");
        assert_eq!(hex::encode(selector("balanceOf(address)")), "70a08231");
        assert_eq!(hex::encode(selector("getPair(address,address)")), "e6a43905");
        assert_eq!(hex::encode(selector("getReserves()")), "0902f1ac");
    }

    #[test]
    fn aggregate3_results_decode() {
        // Two results: (true, 0x2a as uint), (false, empty).
        let mut data = Vec::new();
        data.extend_from_slice(&uint_word(U256::from(32)));
        data.extend_from_slice(&uint_word(U256::from(2)));
        data.extend_from_slice(&uint_word(U256::from(64)));
        data.extend_from_slice(&uint_word(U256::from(64 + 128)));
        data.extend_from_slice(&uint_word(U256::from(1)));
        data.extend_from_slice(&uint_word(U256::from(64)));
        data.extend_from_slice(&uint_word(U256::from(32)));
        data.extend_from_slice(&uint_word(U256::from(42)));
        data.extend_from_slice(&uint_word(U256::ZERO));
        data.extend_from_slice(&uint_word(U256::from(64)));
        data.extend_from_slice(&uint_word(U256::ZERO));
        let results = decode_aggregate3(&data).unwrap();
        assert_eq!(results.len(), 2);
        assert!(results[0].0 && decode_uint(&results[0].1) == Some(U256::from(42)));
        assert!(!results[1].0 && results[1].1.is_empty());
        assert!(decode_aggregate3(&data[..40]).is_none());
    }

    #[test]
    fn names_decode_as_string_or_bytes32() {
        let mut string = Vec::new();
        string.extend_from_slice(&uint_word(U256::from(32)));
        string.extend_from_slice(&uint_word(U256::from(5)));
        let mut word = [0u8; 32];
        word[..5].copy_from_slice(b"Hello");
        string.extend_from_slice(&word);
        assert_eq!(decode_string_or_bytes32(&string).as_deref(), Some("Hello"));
        assert_eq!(decode_string_or_bytes32(&word).as_deref(), Some("Hello"));
    }
}
