//! A transaction as `getTransaction` answers it with `jsonParsed` (the
//! fields the launch analysis reads): who signed and paid, how each
//! owner's balance of a mint changed, and the SOL moved by the system
//! program's transfers.

use serde::Deserialize;
use serde_json::Value;

/// A confirmed transaction (`getTransaction`, `encoding: jsonParsed`).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ParsedTransaction {
    /// Its slot.
    pub slot: u64,
    /// Its time, unix seconds, when the node knows it.
    pub block_time: Option<i64>,
    /// What it did; absent on a node that keeps no status.
    pub meta: Option<TransactionMeta>,
    /// What it asked.
    pub transaction: TransactionBody,
}

/// The outcome of a transaction.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionMeta {
    /// Why it failed, when it did.
    pub err: Option<Value>,
    /// Token balances of its token accounts before.
    #[serde(default)]
    pub pre_token_balances: Vec<TokenBalance>,
    /// And after.
    #[serde(default)]
    pub post_token_balances: Vec<TokenBalance>,
    /// Instructions its programs ran, per top-level instruction.
    #[serde(default)]
    pub inner_instructions: Vec<InnerInstructions>,
    /// Its programs' logs.
    #[serde(default)]
    pub log_messages: Option<Vec<String>>,
}

/// A token account's balance in a transaction's meta.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenBalance {
    /// The token account's index in the account keys.
    pub account_index: usize,
    /// Its mint.
    pub mint: String,
    /// Its owner.
    pub owner: Option<String>,
    /// The amount.
    pub ui_token_amount: TokenAmount,
}

/// An amount in base units.
#[derive(Clone, Debug, Deserialize)]
pub struct TokenAmount {
    /// Base units, decimal.
    pub amount: String,
    /// The mint's decimals.
    #[serde(default)]
    pub decimals: Option<u8>,
}

/// The instructions one top-level instruction ran.
#[derive(Clone, Debug, Deserialize)]
pub struct InnerInstructions {
    /// The top-level instruction's index.
    pub index: usize,
    /// What it ran.
    pub instructions: Vec<Value>,
}

/// The signed part of a transaction.
#[derive(Clone, Debug, Deserialize)]
pub struct TransactionBody {
    /// Its signatures, the fee payer's first.
    pub signatures: Vec<String>,
    /// Its message.
    pub message: Message,
}

/// A transaction's message.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    /// Every account it touches, the fee payer first.
    pub account_keys: Vec<AccountKey>,
    /// Its top-level instructions (parsed where the node knows the program).
    pub instructions: Vec<Value>,
}

/// A token account a transaction touched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenAccountChange {
    /// The token account.
    pub account: String,
    /// Its owner, where the node names it.
    pub owner: Option<String>,
    /// Its balance before, base units.
    pub before: u64,
    /// And after.
    pub after: u64,
}

/// An account of a message.
#[derive(Clone, Debug, Deserialize)]
pub struct AccountKey {
    /// Its address.
    pub pubkey: String,
    /// Whether it signed.
    pub signer: bool,
}

impl ParsedTransaction {
    /// Whether it succeeded.
    pub fn succeeded(&self) -> bool {
        self.meta.as_ref().is_some_and(|m| m.err.is_none())
    }

    /// Who paid for it (the first signer).
    pub fn fee_payer(&self) -> Option<&str> {
        (self.transaction.message.account_keys.first()).map(|k| k.pubkey.as_str())
    }

    /// Its signers.
    pub fn signers(&self) -> impl Iterator<Item = &str> {
        (self.transaction.message.account_keys.iter())
            .filter(|k| k.signer)
            .map(|k| k.pubkey.as_str())
    }

    /// Each token account of `mint` it touched, with its owner and its
    /// balance before and after (zero where the account did not exist).
    pub fn token_accounts(&self, mint: &str) -> Vec<TokenAccountChange> {
        let Some(meta) = self.meta.as_ref() else {
            return Vec::new();
        };
        let keys = &self.transaction.message.account_keys;
        let mut accounts: Vec<TokenAccountChange> = Vec::new();
        let sides = [
            (&meta.pre_token_balances, false),
            (&meta.post_token_balances, true),
        ];
        for (balances, after) in sides {
            for b in balances.iter().filter(|b| b.mint == mint) {
                let (Some(key), Ok(amount)) = (
                    keys.get(b.account_index),
                    b.ui_token_amount.amount.parse::<u64>(),
                ) else {
                    continue;
                };
                let at = match accounts.iter().position(|a| a.account == key.pubkey) {
                    Some(at) => at,
                    None => {
                        accounts.push(TokenAccountChange {
                            account: key.pubkey.clone(),
                            owner: b.owner.clone(),
                            before: 0,
                            after: 0,
                        });
                        accounts.len() - 1
                    }
                };
                let entry = &mut accounts[at];
                entry.owner = entry.owner.take().or_else(|| b.owner.clone());
                if after {
                    entry.after = amount;
                } else {
                    entry.before = amount;
                }
            }
        }
        accounts
    }

    /// How each owner's balance of `mint` changed, in base units
    /// (owners whose balance did not change are left out).
    pub fn token_changes(&self, mint: &str) -> Vec<(String, i128)> {
        let mut changes: Vec<(String, i128)> = Vec::new();
        for a in self.token_accounts(mint) {
            let Some(owner) = a.owner else { continue };
            let change = a.after as i128 - a.before as i128;
            match changes.iter_mut().find(|(o, _)| *o == owner) {
                Some((_, sum)) => *sum += change,
                None => changes.push((owner, change)),
            }
        }
        changes.retain(|(_, change)| *change != 0);
        changes
    }

    /// Whether it initialised `mint` (`initializeMint` or `initializeMint2`
    /// of either token program, top-level or inner): the mint's creation.
    pub fn initializes_mint(&self, mint: &str) -> bool {
        self.initialized_mints().iter().any(|m| m == mint)
    }

    /// Whether it ran `program`, top-level or inner.
    pub fn invokes(&self, program: &str) -> bool {
        self.instructions().any(|i| i["programId"] == program)
            || (self.transaction.message.account_keys.iter()).any(|k| k.pubkey == program)
    }

    /// The mints it initialised, each once.
    pub fn initialized_mints(&self) -> Vec<String> {
        let mut mints: Vec<String> = Vec::new();
        for i in self.instructions() {
            let kind = i["parsed"]["type"].as_str();
            let token = matches!(i["program"].as_str(), Some("spl-token" | "spl-token-2022"));
            if token && matches!(kind, Some("initializeMint" | "initializeMint2")) {
                if let Some(mint) = i["parsed"]["info"]["mint"].as_str() {
                    if !mints.iter().any(|m| m == mint) {
                        mints.push(mint.to_string());
                    }
                }
            }
        }
        mints
    }

    /// The decimals of `mint`, as its token balances here say.
    pub fn decimals_of(&self, mint: &str) -> Option<u8> {
        let meta = self.meta.as_ref()?;
        (meta
            .pre_token_balances
            .iter()
            .chain(&meta.post_token_balances))
        .find(|b| b.mint == mint)
        .and_then(|b| b.ui_token_amount.decimals)
    }

    /// Its instructions, top-level then inner.
    pub fn instructions(&self) -> impl Iterator<Item = &Value> {
        let inner = (self.meta.iter())
            .flat_map(|m| &m.inner_instructions)
            .flat_map(|i| &i.instructions);
        (self.transaction.message.instructions.iter()).chain(inner)
    }

    /// The system program's SOL transfers it made, top-level and inner:
    /// (source, destination, lamports).
    pub fn sol_transfers(&self) -> Vec<(String, String, u64)> {
        self.instructions()
            .filter(|i| i["program"] == "system" && i["parsed"]["type"] == "transfer")
            .filter_map(|i| {
                let info = &i["parsed"]["info"];
                Some((
                    info["source"].as_str()?.to_string(),
                    info["destination"].as_str()?.to_string(),
                    info["lamports"].as_u64()?,
                ))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn balance(index: usize, mint: &str, owner: &str, amount: u64) -> Value {
        json!({"accountIndex": index, "mint": mint, "owner": owner, "programId": "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "uiTokenAmount": {"amount": amount.to_string(), "decimals": 6, "uiAmount": null, "uiAmountString": "0"}})
    }

    #[test]
    fn a_create_and_buy_reads_as_the_node_answers_it() {
        let answer = json!({
            "slot": 1000,
            "blockTime": 1_799_992_800i64,
            "version": 0,
            "meta": {
                "err": null,
                "fee": 5000,
                "preBalances": [10_000_000_000u64, 0, 0],
                "postBalances": [8_000_000_000u64, 1_000_000_000u64, 0],
                "preTokenBalances": [balance(3, "Mint1", "Curve1", 1_000_000)],
                "postTokenBalances": [
                    balance(3, "Mint1", "Curve1", 700_000),
                    balance(4, "Mint1", "Creator1", 300_000),
                    balance(5, "Other", "Creator1", 5),
                ],
                "innerInstructions": [{"index": 1, "instructions": [
                    {"program": "spl-token", "programId": "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
                     "parsed": {"type": "initializeMint2", "info": {"mint": "Mint1", "decimals": 6}}},
                    {"program": "system", "programId": "11111111111111111111111111111111",
                     "parsed": {"type": "transfer", "info": {"source": "Creator1", "destination": "Curve1", "lamports": 1_000_000_000u64}}}
                ]}],
                "logMessages": []
            },
            "transaction": {
                "signatures": ["Sig1"],
                "message": {
                    "accountKeys": [
                        {"pubkey": "Creator1", "signer": true, "writable": true, "source": "transaction"},
                        {"pubkey": "Curve1", "signer": false, "writable": true, "source": "transaction"},
                        {"pubkey": "Mint1", "signer": true, "writable": true, "source": "transaction"},
                        {"pubkey": "CurveVault1", "signer": false, "writable": true, "source": "transaction"},
                        {"pubkey": "CreatorAta1", "signer": false, "writable": true, "source": "transaction"},
                        {"pubkey": "CreatorOther1", "signer": false, "writable": true, "source": "transaction"}
                    ],
                    "instructions": [
                        {"programId": "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P", "accounts": [], "data": "3Bxs"},
                        {"program": "system", "programId": "11111111111111111111111111111111",
                         "parsed": {"type": "transfer", "info": {"source": "Creator1", "destination": "Wallet1", "lamports": 500u64}}}
                    ],
                    "recentBlockhash": "Hash1"
                }
            }
        });
        let tx: ParsedTransaction = serde_json::from_value(answer).expect("decodes");
        assert!(tx.succeeded());
        assert_eq!(tx.fee_payer(), Some("Creator1"));
        assert_eq!(tx.signers().collect::<Vec<_>>(), vec!["Creator1", "Mint1"]);
        let vault = TokenAccountChange {
            account: "CurveVault1".into(),
            owner: Some("Curve1".into()),
            before: 1_000_000,
            after: 700_000,
        };
        let ata = TokenAccountChange {
            account: "CreatorAta1".into(),
            owner: Some("Creator1".into()),
            before: 0,
            after: 300_000,
        };
        assert_eq!(tx.token_accounts("Mint1"), vec![vault, ata]);
        assert_eq!(
            tx.token_changes("Mint1"),
            vec![
                ("Curve1".to_string(), -300_000),
                ("Creator1".to_string(), 300_000)
            ]
        );
        assert!(tx.initializes_mint("Mint1") && !tx.initializes_mint("Other"));
        assert_eq!(tx.initialized_mints(), vec!["Mint1".to_string()]);
        assert!(tx.invokes("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P") && !tx.invokes("Other"));
        assert_eq!(
            tx.sol_transfers(),
            vec![
                ("Creator1".into(), "Wallet1".into(), 500),
                ("Creator1".into(), "Curve1".into(), 1_000_000_000)
            ]
        );
    }
}
