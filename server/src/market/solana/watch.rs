//! The tracked mints the index watches: each mint's account and its
//! Metaplex metadata account, read in each poll's first request; a mint
//! either of whose accounts changed since the last poll is re-analysed at
//! once. A hash of the last read of each is kept in memory.

use std::collections::BTreeMap;

use serde_json::json;
use sha2::{Digest, Sha256};

use super::super::indexer::{Indexer, IndexerError};
use riskintel_chains::rpc::{Answers, Batch, Slot};
use riskintel_chains::solana::types::WithContext;
use riskintel_chains::solana::{self as sol, Account};
use riskintel_chains::Chain;

/// Tracked mints whose accounts each poll reads, at most.
const WATCHED: usize = 1000;

/// The watched mints' reads: the keys of each `getMultipleAccounts`.
pub(super) type Watched = Vec<(Vec<String>, Slot<WithContext<Vec<Option<Account>>>>)>;

impl Indexer {
    /// Ask, in `batch`, for the accounts of the tracked mints and their
    /// metadata (at most `WATCHED` mints, 50 with their metadata to each
    /// `getMultipleAccounts` of 100 keys).
    pub(super) async fn watch(&self, batch: &mut Batch) -> Result<Watched, IndexerError> {
        // The newest first: past `WATCHED`, the oldest are left to the schedule.
        let mut tracked = self.store.tracked_tokens(Some(Chain::Sol)).await?;
        tracked.sort_by_key(|t| std::cmp::Reverse(t.added_at));
        let mints: Vec<String> = tracked.into_iter().map(|t| t.token).take(WATCHED).collect();
        let metaplex = sol::key(sol::METAPLEX_PROGRAM);
        let mut seen = self.mints_seen.lock().unwrap_or_else(|e| e.into_inner());
        Ok(mints
            .chunks(50)
            .map(|mints| {
                let keys: Vec<String> = (mints.iter())
                    .flat_map(|m| {
                        // Derived on a mint's first watch only.
                        let (metadata, _) = seen.entry(m.clone()).or_insert_with(|| {
                            let metadata = (sol::parse_pubkey(m).ok())
                                .and_then(|k| {
                                    sol::find_program_address(
                                        &[b"metadata", &metaplex, &k],
                                        &metaplex,
                                    )
                                })
                                .map_or_else(|| m.clone(), |k| sol::encode(&k));
                            (metadata, None)
                        });
                        [m.clone(), metadata.clone()]
                    })
                    .collect();
                let params = json!([keys, {"encoding": "base64", "commitment": "confirmed"}]);
                (mints.to_vec(), batch.call("getMultipleAccounts", params))
            })
            .collect())
    }

    /// The watched mints whose accounts differ from the last poll's read
    /// (an authority set or handed on, a fee, hook, delegate or metadata
    /// changed), marked for re-analysis now. The first read of a mint only
    /// remembers it.
    pub(super) fn changed(
        &self,
        answers: &mut Answers,
        watched: Watched,
    ) -> Result<BTreeMap<String, bool>, IndexerError> {
        let mut changed = BTreeMap::new();
        let mut seen = self.mints_seen.lock().unwrap_or_else(|e| e.into_inner());
        for (mints, slot) in watched {
            let accounts = answers.take(slot)?.value;
            for (mint, pair) in mints.into_iter().zip(accounts.chunks(2)) {
                let [Some(account), metadata] = pair else {
                    continue;
                };
                let mut hasher = Sha256::new();
                hasher.update(settings(&account.data));
                hasher.update(metadata.as_ref().map_or(&[][..], |m| &m.data[..]));
                let hash: [u8; 32] = hasher.finalize().into();
                let Some((_, last)) = seen.get_mut(&mint) else {
                    continue;
                };
                if last.replace(hash).is_some_and(|was| was != hash) {
                    changed.insert(mint, false);
                }
            }
        }
        Ok(changed)
    }
}

/// A mint's bytes without what moves on its own (the supply, with every
/// mint and burn; the fee withheld in the mint, with every harvest): what
/// is left are its authorities and its extensions' settings.
fn settings(data: &[u8]) -> Vec<u8> {
    let mut data = data.to_vec();
    if let Some(supply) = data.get_mut(36..44) {
        supply.fill(0);
    }
    // Token-2022's extensions: type and length (u16 each), then the value.
    let mut at = 166;
    while data.len() > 165 && data[165] == 1 && at + 4 <= data.len() {
        let kind = u16::from_le_bytes([data[at], data[at + 1]]);
        let len = usize::from(u16::from_le_bytes([data[at + 2], data[at + 3]]));
        if kind == 1 {
            // TransferFeeConfig: the withheld amount at 64..72.
            if let Some(withheld) = data.get_mut(at + 4 + 64..at + 4 + 72) {
                withheld.fill(0);
            }
        }
        if kind == 0 {
            break;
        }
        at += 4 + len;
    }
    data
}

#[cfg(test)]
mod tests {
    use super::settings;

    #[test]
    fn supply_and_withheld_fees_are_not_settings() {
        let mut mint = vec![0u8; 166];
        mint[165] = 1;
        // A TransferFeeConfig of 108 bytes.
        mint.extend(1u16.to_le_bytes());
        mint.extend(108u16.to_le_bytes());
        mint.extend([0u8; 108]);
        let mut burned = mint.clone();
        burned[36] = 9;
        burned[166 + 4 + 64] = 5;
        assert_eq!(settings(&mint), settings(&burned));
        let mut raised = mint.clone();
        raised[166 + 4 + 106] = 7;
        assert_ne!(settings(&mint), settings(&raised));
        // Short or odd data never panics.
        let _ = settings(&[1, 2, 3]);
        let mut odd = mint.clone();
        odd[168] = 0xff;
        let _ = settings(&odd);
    }
}
