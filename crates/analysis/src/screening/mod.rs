//! Address screening: is an address on a sanctions list (`lists` parses
//! them, `load` stores them, `index` holds them in memory), what does the
//! service's own record hold against it (`intel`), and what kind of account
//! is it (`facts`). One address is screened with its chain facts; a batch
//! is served from memory.

pub mod facts;
pub mod index;
pub mod intel;
pub mod lists;
pub mod load;

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use riskintel_chains::Chain;
use riskintel_store::clock::Clock;
use riskintel_store::{Store, StoreError};
use riskintel_types::{AddressFlag, AddressFlagKind, AddressKind, AddressScreen, ScreenRisk};

use crate::tokens::{AnalysisError, Analyzer, Target};
use index::{ListIndex, LoadedList};
use intel::Intel;

/// How old the record may be when a request reads it: one page of newer
/// analyses is read first, unless a round is under way (the background loop
/// reads everything every `sync_ms` anyway).
const RECORD_FRESH: Duration = Duration::from_secs(1);

/// Screening over the lists loaded and the service's record.
pub struct Screening {
    analyzer: Arc<Analyzer>,
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    /// Refresh intervals of the lists a configured source keeps current.
    refreshed: HashMap<String, Duration>,
    index: RwLock<Arc<ListIndex>>,
    intel: Intel,
}

/// What reloading the lists from the store found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reloaded {
    /// Whether a list's entries changed (the index was rebuilt and swapped).
    pub rebuilt: bool,
    /// Addresses held.
    pub addresses: usize,
}

impl Screening {
    /// Over `analyzer`'s chains and `store`; `refreshed` names the lists kept
    /// current by a source, with its interval (a list past it by a day is stale).
    pub fn new(
        analyzer: Arc<Analyzer>,
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        refreshed: HashMap<String, Duration>,
    ) -> Screening {
        Screening {
            analyzer,
            store,
            clock,
            refreshed,
            index: RwLock::new(Arc::new(ListIndex::default())),
            intel: Intel::default(),
        }
    }

    fn index(&self) -> Arc<ListIndex> {
        self.index.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The service's record of addresses.
    pub fn intel(&self) -> &Intel {
        &self.intel
    }

    /// Read the lists from the store; when a version changed, build the new
    /// index beside the one in use and swap it in (requests never wait on it).
    pub async fn reload(&self) -> Result<Reloaded, StoreError> {
        let rows = self.store.screening_lists().await?;
        let current = self.index();
        let held: HashMap<&str, (&str, chrono::DateTime<chrono::Utc>)> = (current.lists().iter())
            .map(|l| {
                (
                    l.row.name.as_str(),
                    (l.row.version.as_str(), l.row.loaded_at),
                )
            })
            .collect();
        let same_versions = rows.len() == held.len()
            && (rows.iter())
                .all(|r| held.get(r.name.as_str()) == Some(&(r.version.as_str(), r.loaded_at)));
        let loaded = |row: riskintel_store::ScreeningListRow| LoadedList {
            refreshed_every: self.refreshed.get(&row.name).copied(),
            row,
        };
        let next = if same_versions {
            current.with_lists(rows.into_iter().map(loaded).collect())
        } else {
            let mut lists = Vec::new();
            for row in rows {
                let entries = self.store.screening_entries(&row.name).await?;
                lists.push((loaded(row), entries));
            }
            ListIndex::build(lists)
        };
        let addresses = next.addresses();
        *self.index.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(next);
        Ok(Reloaded {
            rebuilt: !same_versions,
            addresses,
        })
    }

    /// Read what is new into the record for a request, within half the
    /// analysis deadline; if it cannot be read in time (or at all), the
    /// lists and flags in memory answer.
    async fn freshen_record(&self) {
        let catch_up = self.intel.catch_up_briefly(&*self.store, RECORD_FRESH);
        let _ = tokio::time::timeout(self.analyzer.deadline() / 2, catch_up).await;
    }

    /// Screen one address, with its chain facts, within the analysis deadline.
    pub async fn screen(
        &self,
        chain: Chain,
        address: &str,
    ) -> Result<AddressScreen, AnalysisError> {
        let target = Target::parse(chain, address)?;
        let started = std::time::Instant::now();
        let deadline = self.analyzer.deadline();
        self.freshen_record().await;
        let mut screen = self.screened(chain, &target.address());
        let key = index_key(&target);
        let read = facts::read(self.analyzer.chains(), &*self.store, &target, &key);
        let left = deadline.saturating_sub(started.elapsed());
        let facts = match tokio::time::timeout(left, read).await {
            Ok(facts) => facts?,
            Err(_) => riskintel_types::AddressFacts {
                kind: AddressKind::Unknown,
                tx_count: None,
                first_seen_block: None,
            },
        };
        if facts.kind == AddressKind::Eoa && facts.tx_count == Some(0) {
            screen.flags.push(AddressFlag {
                kind: AddressFlagKind::NewAddress,
                risk: ScreenRisk::Low,
                detail: "An EOA that has never sent a transaction".into(),
                evidence: Vec::new(),
                seen_at: None,
            });
            screen.risk = screen.risk.max(ScreenRisk::Low);
        }
        screen.facts = Some(facts);
        Ok(screen)
    }

    /// Screen many addresses from memory, each answered or refused on its
    /// own (an item whose chain could not be read carries its error).
    pub async fn screen_batch<'a>(
        &self,
        items: impl IntoIterator<Item = Result<(Chain, &'a str), AnalysisError>>,
    ) -> Vec<Result<AddressScreen, AnalysisError>> {
        self.freshen_record().await;
        (items.into_iter())
            .map(|item| {
                let (chain, address) = item?;
                let target = Target::parse(chain, address)?;
                Ok(self.screened(chain, &target.address()))
            })
            .collect()
    }

    /// Screen an address already validated (as the API writes it) from memory.
    pub fn screened(&self, chain: Chain, address: &str) -> AddressScreen {
        let index = self.index();
        let now = self.clock.now();
        let matches = index.matches(chain, address);
        let lists: Vec<_> = index.lists().iter().map(|l| l.view(now)).collect();
        let mut flags = self.intel.flags(chain, address);
        flags.sort_by_key(|f| std::cmp::Reverse(f.risk));
        let sanctioned = matches.iter().any(|m| m.applies);
        let risk = if sanctioned {
            ScreenRisk::Severe
        } else {
            flags
                .iter()
                .map(|f| f.risk)
                .max()
                .unwrap_or(ScreenRisk::None)
        };
        AddressScreen {
            chain: chain.id().to_string(),
            address: address.to_string(),
            sanctioned,
            stale: lists.iter().any(|l| l.stale),
            matches,
            lists,
            flags,
            facts: None,
            risk,
        }
    }
}

/// An address as the service's indexes key it (lower-case hex, or base58).
fn index_key(target: &Target) -> String {
    lists::normalise(&target.address())
}
