//! Loading a list: its text read in its format, checked against the version
//! stored (the same version only marks it read; an empty list never
//! replaces entries, nor one that loses more than half of them, unless
//! forced), then stored in one transaction with an alert per chain whose
//! entries changed.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{DateTime, Utc};
use riskintel_chains::Chain;
use riskintel_store::{AlertRow, ScreeningEntryRow, ScreeningListRow, Store, StoreError};
use riskintel_types::{AlertKind, Severity};
use serde::{Deserialize, Serialize};

use super::index::applies;
use super::lists::{self, ListError, ParsedList};

/// How a list's text is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// The OFAC SDN XML (`SDN.XML`).
    SdnXml,
    /// The OFAC SDN CSV (`SDN.CSV`), with its comments file where given.
    SdnCsv,
    /// An operator's CSV: `address,chain,list,entry_id,reason`.
    OperatorCsv,
}

impl Format {
    /// The format `text` is written in: XML, the operator's header, or else the SDN CSV.
    pub fn detect(text: &str) -> Format {
        let start = text.trim_start_matches('\u{feff}').trim_start();
        if start.starts_with('<') {
            Format::SdnXml
        } else if start.to_ascii_lowercase().starts_with("address,") {
            Format::OperatorCsv
        } else {
            Format::SdnCsv
        }
    }
}

/// The name the OFAC SDN list is stored under.
pub const SDN: &str = "ofac_sdn";

/// Read `text` as `format` into the list `name` (for an operator's CSV,
/// its rows of that list; `None` takes the one list it holds).
pub fn parse(
    format: Format,
    text: &str,
    comments: Option<&str>,
    name: Option<&str>,
) -> Result<(String, ParsedList), ListError> {
    match format {
        Format::SdnXml => Ok((name.unwrap_or(SDN).to_string(), lists::sdn_xml(text)?)),
        Format::SdnCsv => Ok((
            name.unwrap_or(SDN).to_string(),
            lists::sdn_csv(text, comments)?,
        )),
        Format::OperatorCsv => {
            let name = match name {
                Some(name) => name.to_string(),
                None => {
                    let names = lists::operator_list_names(text)?;
                    match names.as_slice() {
                        [one] => one.clone(),
                        _ => {
                            return Err(ListError(format!(
                                "the file holds the lists {}: name the one to load",
                                names.join(", ")
                            )))
                        }
                    }
                }
            };
            let parsed = lists::operator_csv(text, &name)?;
            Ok((name, parsed))
        }
    }
}

/// What loading a list did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loaded {
    /// A new version was stored.
    Replaced {
        /// Its version.
        version: String,
        /// Its addresses.
        entries: usize,
        /// Entries that were not in the previous version.
        added: usize,
        /// Entries of the previous version it no longer holds.
        removed: usize,
    },
    /// The version stored already; it was marked as read now.
    Unchanged {
        /// Its version.
        version: String,
    },
}

/// Why a list was not loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Its text could not be read.
    #[error("the list cannot be read: {0}")]
    Unreadable(#[from] ListError),
    /// It would empty or halve the list stored; the previous one is kept.
    #[error("{0}; the previous version is kept (force to load it anyway)")]
    Refused(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

type Key = (String, String, String);

fn key(address: &str, listed_for: &str, entry_id: &str) -> Key {
    (address.into(), listed_for.into(), entry_id.into())
}

/// Store `parsed` as the list `name` read from `source` at `now`.
pub async fn apply(
    store: &dyn Store,
    name: &str,
    source: &str,
    parsed: ParsedList,
    force: bool,
    now: DateTime<Utc>,
) -> Result<Loaded, LoadError> {
    let stored = store.screening_lists().await?;
    let previous = stored.iter().find(|l| l.name == name);
    if let Some(previous) = previous {
        if previous.version == parsed.version {
            store.screening_checked(name, now).await?;
            return Ok(Loaded::Unchanged {
                version: parsed.version,
            });
        }
        let had = previous.entries.max(0) as usize;
        let has = parsed.listed.len();
        if !force && had > 0 && has * 2 < had {
            return Err(LoadError::Refused(if has == 0 {
                format!("the new version of {name} lists no address, the stored one {had}")
            } else {
                format!("the new version of {name} lists {has} addresses, under half of the {had} stored")
            }));
        }
    }
    let old: HashMap<Key, ScreeningEntryRow> = match previous {
        Some(_) => (store.screening_entries(name).await?.into_iter())
            .map(|e| (key(&e.address, &e.listed_for, &e.entry_id), e))
            .collect(),
        None => HashMap::new(),
    };
    let entries: Vec<ScreeningEntryRow> = parsed
        .listed
        .iter()
        .map(|l| ScreeningEntryRow {
            address: l.address.clone(),
            listed_for: l.chain.clone(),
            entry_id: l.entry_id.clone(),
            name: l.name.clone(),
            listed_at: (old.get(&key(&l.address, &l.chain, &l.entry_id)))
                .map_or(now, |e| e.listed_at),
        })
        .collect();
    let new: BTreeSet<Key> = (entries.iter())
        .map(|e| key(&e.address, &e.listed_for, &e.entry_id))
        .collect();
    let added: Vec<&Key> = new.iter().filter(|k| !old.contains_key(*k)).collect();
    let removed: Vec<&Key> = old.keys().filter(|k| !new.contains(*k)).collect();
    let alerts = match previous {
        Some(previous) => alerts(
            name,
            &previous.version,
            &parsed.version,
            &added,
            &removed,
            now,
        ),
        None => Vec::new(),
    };
    let row = ScreeningListRow {
        name: name.to_string(),
        source: source.to_string(),
        version: parsed.version.clone(),
        published: parsed.published.clone(),
        entries: entries.len() as i64,
        loaded_at: now,
        checked_at: now,
    };
    store.screening_replace(&row, &entries, &alerts).await?;
    Ok(Loaded::Replaced {
        version: parsed.version,
        entries: entries.len(),
        added: added.len(),
        removed: removed.len(),
    })
}

/// One `sanctions_list_updated` alert per chain that entries added or removed apply to.
fn alerts(
    name: &str,
    from: &str,
    version: &str,
    added: &[&Key],
    removed: &[&Key],
    now: DateTime<Utc>,
) -> Vec<AlertRow> {
    let mut by_chain: BTreeMap<Chain, (usize, usize)> = BTreeMap::new();
    for (keys, removal) in [(added, false), (removed, true)] {
        for (address, listed_for, _) in keys.iter().copied() {
            for chain in Chain::ALL {
                if applies(listed_for, address, chain) {
                    let counts = by_chain.entry(chain).or_default();
                    if removal {
                        counts.1 += 1;
                    } else {
                        counts.0 += 1;
                    }
                }
            }
        }
    }
    by_chain
        .into_iter()
        .map(|(chain, (added, removed))| {
            let severity = if added > 0 {
                Severity::High
            } else {
                Severity::Info
            };
            AlertRow {
                id: 0,
                // A list may come back to a version it had: the change is from one to the other.
                event_key: format!("sanctions:{name}:{from}->{version}:{}", chain.id()),
                chain,
                token: name.to_string(),
                kind: AlertKind::SanctionsListUpdated,
                severity,
                severity_rank: severity.rank(),
                title: format!("Sanctions list {name} updated"),
                detail: format!(
                    "{name} version {version}: {added} added, {removed} removed of the entries that apply on {}",
                    chain.id()
                ),
                score_before: None,
                label_before: None,
                score_after: None,
                label_after: None,
                block: 0,
                observed_at: now,
            }
        })
        .collect()
}
