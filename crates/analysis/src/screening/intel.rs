//! The service's own record of addresses, held in memory and kept current
//! from the store: who deployed the tokens labelled `critical`, who sat in
//! the launch clusters of tokens whose liquidity was later removed, who
//! holds a power over a token that was flagged (a proxy's upgrade key, a V4
//! hook), and who received tokens out of wallets that had approved it (a
//! drainer's pattern). Analyses are read in the order they were made, so a
//! re-analysis replaces what its token said before.

use std::collections::{BTreeSet, HashMap};
use std::sync::RwLock;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use riskintel_chains::Chain;
use riskintel_store::{AnalysedToken, SpentApprovals, Store, StoreError};
use riskintel_types::{AddressFlag, AddressFlagKind, ScreenRisk};
use serde_json::Value;

use super::lists::normalise;

/// Analyses or alerts read per query.
const PAGE: i64 = 500;
/// How far back each round looks for analyses written late (an analysis
/// is stamped when it begins; the deadline and clocks apart are well within).
const OVERLAP: chrono::Duration = chrono::Duration::minutes(10);
/// Keys of that window read per round, at most.
const KEYS: i64 = 20_000;
/// Analyses a request reads into the record at most (the loop reads the rest).
const BRIEF_READS: usize = 20;
/// Alert ids before the last seen read again (ids are taken before commit).
const ALERT_OVERLAP: i64 = 200;
/// Wallets a spender must have received tokens from, out of their approvals.
pub const DRAINER_WALLETS: i64 = 3;
/// Tokens or wallets listed in a flag's evidence, at most.
const EVIDENCE: usize = 20;

type Key = (Chain, String);

/// What one token's latest analysis says about addresses.
#[derive(Clone, Debug, Default)]
struct TokenRecord {
    /// The token as the API writes it.
    address: String,
    critical: bool,
    creator: Option<String>,
    cluster: Vec<String>,
    powers: Vec<String>,
    analysed_at: DateTime<Utc>,
}

impl TokenRecord {
    fn read(row: &AnalysedToken) -> Option<TokenRecord> {
        let json: Value = serde_json::from_str(&row.result).ok()?;
        let label = json["override"]["label"]
            .as_str()
            .or_else(|| json["label"].as_str());
        let mut record = TokenRecord {
            address: row.address.clone(),
            critical: label == Some("critical"),
            creator: json["meta"]["creator"].as_str().map(normalise),
            analysed_at: row.analysed_at,
            ..TokenRecord::default()
        };
        for signal in json["signals"].as_array().into_iter().flatten() {
            let raw = &signal["evidence"]["raw"];
            match signal["id"].as_str() {
                Some("launch_cluster" | "bundled_launch") => {
                    for wallet in ["members", "bundlers"]
                        .iter()
                        .flat_map(|k| raw[k].as_array().into_iter().flatten())
                    {
                        if let Some(a) = wallet["address"].as_str().or(wallet.as_str()) {
                            record.cluster.push(normalise(a));
                        }
                    }
                }
                Some("proxy_admin_is_eoa") => {
                    record.powers.extend(raw["admin"].as_str().map(normalise))
                }
                Some("v4_hook_controls_swaps") => {
                    record.powers.extend(raw["hook"].as_str().map(normalise))
                }
                _ => {}
            }
        }
        Some(record)
    }

    fn addresses(&self) -> impl Iterator<Item = &String> {
        (self.creator.iter())
            .chain(&self.cluster)
            .chain(&self.powers)
    }
}

#[derive(Default)]
struct State {
    tokens: HashMap<Key, TokenRecord>,
    related: HashMap<Key, BTreeSet<String>>,
    removed: HashMap<Key, DateTime<Utc>>,
    drainers: HashMap<Key, (SpentApprovals, DateTime<Utc>)>,
    /// When each token's analysis applied was made.
    seen: HashMap<Key, DateTime<Utc>>,
    /// The latest of those (None until the first round has read them all).
    high_water: Option<DateTime<Utc>>,
    alerts_after: i64,
}

impl State {
    fn put(&mut self, chain: Chain, record: TokenRecord) {
        let token = normalise(&record.address);
        if let Some(old) = self.tokens.remove(&(chain, token.clone())) {
            for a in old.addresses() {
                if let Some(set) = self.related.get_mut(&(chain, a.clone())) {
                    set.remove(&token);
                }
            }
        }
        for a in record.addresses() {
            (self.related.entry((chain, a.clone())).or_default()).insert(token.clone());
        }
        self.tokens.insert((chain, token), record);
    }
}

/// The record, and when it was last brought up to date.
#[derive(Default)]
pub struct Intel {
    state: RwLock<State>,
    round: tokio::sync::Mutex<Option<Instant>>,
}

fn flag(
    kind: AddressFlagKind,
    risk: ScreenRisk,
    detail: String,
    mut evidence: Vec<(String, DateTime<Utc>)>,
) -> AddressFlag {
    evidence.sort_by_key(|e| std::cmp::Reverse(e.1));
    let seen_at = evidence.first().map(|e| e.1);
    AddressFlag {
        kind,
        risk,
        detail,
        evidence: evidence.into_iter().take(EVIDENCE).map(|e| e.0).collect(),
        seen_at,
    }
}

impl Intel {
    /// Read everything the store holds that the record has not seen (the
    /// background loop), waiting for a round under way.
    pub async fn catch_up(&self, store: &dyn Store) -> Result<(), StoreError> {
        let mut last = self.round.lock().await;
        self.read_new(store, usize::MAX).await?;
        *last = Some(Instant::now());
        Ok(())
    }

    /// For a request: read one page of what is new, unless a round is under
    /// way or one ended within `fresh` (the request is answered from memory).
    pub async fn catch_up_briefly(
        &self,
        store: &dyn Store,
        fresh: Duration,
    ) -> Result<(), StoreError> {
        let Ok(mut last) = self.round.try_lock() else {
            return Ok(());
        };
        if last.is_some_and(|at| at.elapsed() < fresh) {
            return Ok(());
        }
        self.read_new(store, 1).await?;
        *last = Some(Instant::now());
        Ok(())
    }

    async fn read_new(&self, store: &dyn Store, pages: usize) -> Result<(), StoreError> {
        let high_water = self.read_state().high_water;
        match high_water {
            // The first round reads every analysis, a page at a time.
            None if pages == usize::MAX => {
                let mut cursor = None;
                loop {
                    let rows = store.analyses_after(cursor.clone(), PAGE).await?;
                    self.apply(rows.iter().map(|row| {
                        (
                            row.chain,
                            row.address.clone(),
                            row.analysed_at,
                            TokenRecord::read(row),
                        )
                    }));
                    if let Some(last) = rows.last() {
                        cursor = Some((last.analysed_at, last.chain, last.address.clone()));
                    }
                    if (rows.len() as i64) < PAGE {
                        break;
                    }
                }
                // Read through, even when there was nothing to read.
                let mut state = self.state.write().unwrap_or_else(|e| e.into_inner());
                state.high_water.get_or_insert(DateTime::UNIX_EPOCH);
            }
            // A request before the first round: answered from memory.
            None => {}
            // Later: the keys of a window reaching back `OVERLAP` (an analysis
            // is stamped when it begins and written when it ends, possibly
            // after a later one), and the analyses not seen yet.
            Some(high_water) => {
                let keys = store.analyses_since(high_water - OVERLAP, KEYS).await?;
                let fresh: Vec<_> = {
                    let state = self.read_state();
                    (keys.into_iter())
                        .filter(|k| {
                            let key = (k.chain, normalise(&k.address));
                            state.seen.get(&key).is_none_or(|at| *at < k.analysed_at)
                        })
                        .take(if pages == usize::MAX {
                            usize::MAX
                        } else {
                            BRIEF_READS
                        })
                        .collect()
                };
                let mut read = Vec::new();
                for key in fresh {
                    if let Some(row) = store.analysis_get(key.chain, &key.address).await? {
                        let row = AnalysedToken {
                            chain: key.chain,
                            address: key.address,
                            result: row.result,
                            analysed_at: row.analysed_at,
                        };
                        let record = TokenRecord::read(&row);
                        read.push((row.chain, row.address, row.analysed_at, record));
                    }
                }
                self.apply(read);
            }
        }
        // Alerts: ids are taken before their transactions commit, so a few
        // before the last one seen are read again.
        let mut after = self.read_state().alerts_after.saturating_sub(ALERT_OVERLAP);
        for _ in 0..pages {
            let rows = store.liquidity_removed_after(after, PAGE).await?;
            let mut state = self.state.write().unwrap_or_else(|e| e.into_inner());
            for row in &rows {
                (state.removed).insert((row.chain, normalise(&row.token)), row.observed_at);
                state.alerts_after = state.alerts_after.max(row.id);
                after = row.id;
            }
            if (rows.len() as i64) < PAGE {
                break;
            }
        }
        Ok(())
    }

    fn read_state(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Apply analyses read (parsed before the lock is taken).
    fn apply(
        &self,
        read: impl IntoIterator<Item = (Chain, String, DateTime<Utc>, Option<TokenRecord>)>,
    ) {
        let mut state = self.state.write().unwrap_or_else(|e| e.into_inner());
        for (chain, address, analysed_at, record) in read {
            let key = (chain, normalise(&address));
            if state.seen.get(&key).is_some_and(|at| *at >= analysed_at) {
                continue;
            }
            state.seen.insert(key, analysed_at);
            state.high_water = state.high_water.max(Some(analysed_at));
            if let Some(record) = record {
                state.put(chain, record);
            }
        }
    }

    /// Read the addresses showing a drainer's pattern again (a heavier query,
    /// run by the background loop).
    pub async fn refresh_drainers(
        &self,
        store: &dyn Store,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let found = store.spent_approvals(DRAINER_WALLETS).await?;
        let mut state = self.state.write().unwrap_or_else(|e| e.into_inner());
        let before = std::mem::take(&mut state.drainers);
        for row in found {
            let key = (row.chain, row.spender.clone());
            let since = before.get(&key).map_or(now, |(_, at)| *at);
            state.drainers.insert(key, (row, since));
        }
        Ok(())
    }

    /// What the record holds against `address` (as the API writes it) on
    /// `chain`, most serious first.
    pub fn flags(&self, chain: Chain, address: &str) -> Vec<AddressFlag> {
        let address = normalise(address);
        let state = self.state.read().unwrap_or_else(|e| e.into_inner());
        let mut flags = Vec::new();
        if let Some((row, since)) = state.drainers.get(&(chain, address.clone())) {
            flags.push(flag(
                AddressFlagKind::Drainer,
                ScreenRisk::High,
                format!(
                    "Received tokens out of {} wallets that had approved it to spend them ({} tokens)",
                    row.wallets, row.tokens
                ),
                vec![(row.example.clone(), *since)],
            ));
        }
        let tokens = state.related.get(&(chain, address.clone()));
        let records =
            (tokens.into_iter().flatten()).filter_map(|t| state.tokens.get(&(chain, t.clone())));
        let (mut deployed, mut clusters, mut powers) = (Vec::new(), Vec::new(), Vec::new());
        for r in records {
            let seen = (r.address.clone(), r.analysed_at);
            if r.critical && r.creator.as_ref() == Some(&address) {
                deployed.push(seen.clone());
            }
            if r.powers.contains(&address) {
                powers.push(seen.clone());
            }
            if r.cluster.contains(&address) {
                if let Some(at) = state.removed.get(&(chain, normalise(&r.address))) {
                    clusters.push((r.address.clone(), *at));
                }
            }
        }
        if !deployed.is_empty() {
            flags.push(flag(
                AddressFlagKind::CriticalTokenDeployer,
                ScreenRisk::High,
                format!(
                    "Deployed {} tokens the service labels critical",
                    deployed.len()
                ),
                deployed,
            ));
        }
        if !powers.is_empty() {
            flags.push(flag(
                AddressFlagKind::FlaggedPower,
                ScreenRisk::High,
                format!(
                    "Holds a flagged power (a proxy's upgrade key, a V4 hook) over {} tokens",
                    powers.len()
                ),
                powers,
            ));
        }
        if !clusters.is_empty() {
            flags.push(flag(
                AddressFlagKind::RuggedLaunchCluster,
                ScreenRisk::Medium,
                format!(
                    "In the launch cluster of {} tokens whose liquidity was then removed",
                    clusters.len()
                ),
                clusters,
            ));
        }
        flags
    }

    /// Tokens whose analyses the record holds.
    pub fn tokens(&self) -> usize {
        self.state
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .tokens
            .len()
    }
}
