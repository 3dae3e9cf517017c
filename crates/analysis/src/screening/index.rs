//! The sanctions lists held in memory: every entry keyed by its address as
//! matched, so a screening (or a thousand) reads no database. A new version
//! is built beside the one in use and swapped in whole.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use riskintel_chains::Chain;
use riskintel_store::{ScreeningEntryRow, ScreeningListRow};
use riskintel_types::{SanctionMatch, ScreeningList};

use super::lists::normalise;

/// One list as loaded, with whether it is refreshed from a source.
#[derive(Clone, Debug)]
pub struct LoadedList {
    /// The list's row.
    pub row: ScreeningListRow,
    /// Its refresh interval, when a configured source refreshes it.
    pub refreshed_every: Option<Duration>,
}

impl LoadedList {
    /// The list as an answer shows it at `now`.
    pub fn view(&self, now: DateTime<Utc>) -> ScreeningList {
        let stale = self.refreshed_every.is_some_and(|every| {
            let allowed = chrono::Duration::from_std(every).unwrap_or(chrono::Duration::MAX)
                + chrono::Duration::days(1);
            now - self.row.checked_at > allowed
        });
        ScreeningList {
            name: self.row.name.clone(),
            version: self.row.version.clone(),
            loaded_at: self.row.loaded_at,
            checked_at: self.row.checked_at,
            entries: self.row.entries.max(0) as u64,
            stale,
        }
    }
}

/// An entry under its list's name.
#[derive(Clone, Debug)]
struct Entry {
    list: Arc<str>,
    row: ScreeningEntryRow,
}

/// Every list and its entries by address.
#[derive(Clone, Debug, Default)]
pub struct ListIndex {
    lists: Vec<LoadedList>,
    by_address: Arc<HashMap<String, Vec<Entry>>>,
}

/// Whether an entry listed for `listed_for` under `address` applies on
/// `chain`: `any` everywhere; a chain id on that chain; an SDN currency code
/// on every EVM chain for an `0x` address (one key holds it on each), `SOL`
/// on Solana, other codes (XBT, TRX, …) on none of the chains served.
pub fn applies(listed_for: &str, address: &str, chain: Chain) -> bool {
    if listed_for.eq_ignore_ascii_case("any") {
        return true;
    }
    if let Some(listed) = Chain::parse(listed_for) {
        return listed == chain;
    }
    if address.starts_with("0x") {
        chain.is_evm()
    } else {
        listed_for.eq_ignore_ascii_case("SOL") && chain == Chain::Sol
    }
}

impl ListIndex {
    /// An index of `lists`, each with its entries.
    pub fn build(lists: Vec<(LoadedList, Vec<ScreeningEntryRow>)>) -> ListIndex {
        let mut by_address: HashMap<String, Vec<Entry>> = HashMap::new();
        let mut loaded = Vec::new();
        for (list, entries) in lists {
            let name: Arc<str> = Arc::from(list.row.name.as_str());
            for row in entries {
                (by_address.entry(row.address.clone()).or_default()).push(Entry {
                    list: name.clone(),
                    row,
                });
            }
            loaded.push(list);
        }
        loaded.sort_by(|a, b| a.row.name.cmp(&b.row.name));
        ListIndex {
            lists: loaded,
            by_address: Arc::new(by_address),
        }
    }

    /// The same entries under `lists` read again (the same versions, read at another time).
    pub fn with_lists(&self, mut lists: Vec<LoadedList>) -> ListIndex {
        lists.sort_by(|a, b| a.row.name.cmp(&b.row.name));
        ListIndex {
            lists,
            by_address: self.by_address.clone(),
        }
    }

    /// The lists.
    pub fn lists(&self) -> &[LoadedList] {
        &self.lists
    }

    /// Every entry naming `address` (as the API writes it), each said to
    /// apply on `chain` or not.
    pub fn matches(&self, chain: Chain, address: &str) -> Vec<SanctionMatch> {
        let key = normalise(address);
        let Some(entries) = self.by_address.get(&key) else {
            return Vec::new();
        };
        let mut found: Vec<SanctionMatch> = entries
            .iter()
            .map(|e| SanctionMatch {
                list: e.list.to_string(),
                entry_id: e.row.entry_id.clone(),
                name: e.row.name.clone(),
                listed_for: e.row.listed_for.clone(),
                applies: applies(&e.row.listed_for, &key, chain),
                listed_at: e.row.listed_at,
            })
            .collect();
        found.sort_by(|a, b| {
            (!a.applies, &a.list, &a.entry_id).cmp(&(!b.applies, &b.list, &b.entry_id))
        });
        found
    }

    /// How many addresses are held.
    pub fn addresses(&self) -> usize {
        self.by_address.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(address: &str, listed_for: &str) -> ScreeningEntryRow {
        ScreeningEntryRow {
            address: normalise(address),
            listed_for: listed_for.into(),
            entry_id: "1".into(),
            name: "someone".into(),
            listed_at: DateTime::UNIX_EPOCH,
        }
    }

    fn list(name: &str) -> LoadedList {
        LoadedList {
            row: ScreeningListRow {
                name: name.into(),
                source: "test".into(),
                version: "v".into(),
                published: None,
                entries: 1,
                loaded_at: DateTime::UNIX_EPOCH,
                checked_at: DateTime::UNIX_EPOCH,
            },
            refreshed_every: Some(Duration::from_secs(3_600)),
        }
    }

    #[test]
    fn evm_addresses_match_in_any_case_on_every_evm_chain() {
        let a = "0x8589427373D6D84E98730D7795D8f6f8731FDA16";
        let index = ListIndex::build(vec![(
            list("ofac_sdn"),
            vec![entry(a, "ETH"), entry("bc1qsanctioned", "XBT")],
        )]);
        for chain in [Chain::Eth, Chain::Bsc, Chain::Arb] {
            let found = index.matches(chain, &a.to_ascii_lowercase());
            assert_eq!(found.len(), 1);
            assert!(found[0].applies);
        }
        assert!(index
            .matches(Chain::Sol, "bc1qsanctioned")
            .iter()
            .all(|m| !m.applies));
        assert!(!applies("bsc", "0xab", Chain::Eth));
        assert!(applies("any", "somekey", Chain::Sol));
        assert!(applies("SOL", "somekey", Chain::Sol));
    }

    #[test]
    fn a_list_past_its_interval_by_a_day_is_stale() {
        let l = list("x");
        let fresh = DateTime::UNIX_EPOCH + chrono::Duration::hours(24);
        assert!(!l.view(fresh).stale);
        assert!(l.view(fresh + chrono::Duration::hours(2)).stale);
    }
}
