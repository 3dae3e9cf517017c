//! The tracked mints the index watches: their accounts, read in each
//! poll's first request; a mint whose account changed since the last poll
//! is re-analysed at once. The last read of each is kept in memory.

use std::collections::BTreeMap;

use serde_json::json;
use sha2::{Digest, Sha256};

use super::super::indexer::{Indexer, IndexerError};
use riskintel_chains::rpc::{Answers, Batch, Slot};
use riskintel_chains::solana::types::WithContext;
use riskintel_chains::solana::Account;
use riskintel_chains::Chain;

/// Tracked mints whose accounts each poll reads, at most.
const WATCHED: usize = 1000;

/// The watched mints' reads: the keys of each `getMultipleAccounts`.
pub(super) type Watched = Vec<(Vec<String>, Slot<WithContext<Vec<Option<Account>>>>)>;

impl Indexer {
    /// Ask, in `batch`, for the accounts of the tracked mints (at most
    /// `WATCHED`, in chunks of `getMultipleAccounts`' 100).
    pub(super) async fn watch(&self, batch: &mut Batch) -> Result<Watched, IndexerError> {
        let mints: Vec<String> = (self.store.tracked_tokens(Some(Chain::Sol)).await?)
            .into_iter()
            .map(|t| t.token)
            .take(WATCHED)
            .collect();
        Ok(mints
            .chunks(100)
            .map(|keys| {
                let params = json!([keys, {"encoding": "base64", "commitment": "confirmed"}]);
                (keys.to_vec(), batch.call("getMultipleAccounts", params))
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
        for (keys, slot) in watched {
            let accounts = answers.take(slot)?.value;
            for (mint, account) in keys.into_iter().zip(accounts) {
                let Some(account) = account else { continue };
                let hash: [u8; 32] = Sha256::digest(&account.data).into();
                if seen
                    .insert(mint.clone(), hash)
                    .is_some_and(|was| was != hash)
                {
                    changed.insert(mint, false);
                }
            }
        }
        Ok(changed)
    }
}
