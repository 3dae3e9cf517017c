//! The Solana node's answers as types (accounts are asked for in base64
//! and decoded here).

use base64::Engine as _;
use serde::{Deserialize, Deserializer};

/// The slot an answer was read at.
#[derive(Clone, Debug, Deserialize)]
pub struct Context {
    /// Slot.
    pub slot: u64,
}

/// An answer with its context (`getAccountInfo`, `getMultipleAccounts`, …).
#[derive(Clone, Debug, Deserialize)]
pub struct WithContext<T> {
    /// Where it was read.
    pub context: Context,
    /// The answer.
    pub value: T,
}

/// An account, read with `encoding: base64`.
#[derive(Clone, Debug, Deserialize)]
pub struct Account {
    /// Its data.
    #[serde(deserialize_with = "base64_data")]
    pub data: Vec<u8>,
    /// The program that owns it.
    pub owner: String,
    /// Its balance in lamports.
    #[serde(default)]
    pub lamports: u64,
    /// Whether it is a program.
    #[serde(default)]
    pub executable: bool,
}

impl Account {
    /// Whether it is a program or owned by one other than the system program.
    pub fn is_program_owned(&self) -> bool {
        self.executable || self.owner != super::SYSTEM_PROGRAM
    }
}

fn base64_data<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
    let (data, _encoding): (String, String) = Deserialize::deserialize(deserializer)?;
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(serde::de::Error::custom)
}

/// An account with its address (`getProgramAccounts`, `getTokenAccountsByOwner`).
#[derive(Clone, Debug, Deserialize)]
pub struct KeyedAccount {
    /// Its address.
    pub pubkey: String,
    /// The account.
    pub account: Account,
}

/// One of `getTokenLargestAccounts`.
#[derive(Clone, Debug, Deserialize)]
pub struct LargestAccount {
    /// The token account.
    pub address: String,
    /// Its balance, base units, as decimal text.
    pub amount: String,
}

/// One of `getSignaturesForAddress`.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignatureInfo {
    /// The signature.
    pub signature: String,
    /// Its slot.
    pub slot: u64,
    /// Its time, unix seconds, where known.
    pub block_time: Option<i64>,
    /// Why its transaction failed, when it did.
    #[serde(default)]
    pub err: Option<serde_json::Value>,
}

impl SignatureInfo {
    /// Whether its transaction succeeded.
    pub fn succeeded(&self) -> bool {
        self.err.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accounts_decode_from_base64_answers() {
        let answer: WithContext<Option<Account>> = serde_json::from_value(json!({
            "context": {"slot": 7},
            "value": {"data": ["AQID", "base64"], "owner": "11111111111111111111111111111111", "lamports": 5, "executable": false, "rentEpoch": 0}
        }))
        .unwrap();
        let account = answer.value.unwrap();
        assert_eq!(
            (answer.context.slot, &account.data[..], account.lamports),
            (7, &[1u8, 2, 3][..], 5)
        );
        assert!(!account.is_program_owned());
    }
}
