//! Sanctions lists kept current: each configured source (a URL or a file)
//! is read on its schedule by the instance holding the maintenance lease,
//! parsed, and stored as a new version when it changed; every instance
//! reads the versions stored and swaps its in-memory index when one did.
//! A source that fails, or holds a list cut short or emptied, leaves the
//! previous list in force, with a log line and
//! `riskintel_screening_refreshes_total{outcome="failed"|"refused"}`.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use riskintel_analysis::screening::load::{self, Format, LoadError, Loaded};
use riskintel_analysis::screening::Screening;
use riskintel_store::clock::Clock;
use riskintel_store::Store;
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;

/// The OFAC SDN list as the Treasury publishes it (the legacy XML).
pub const TREASURY_SDN_XML: &str =
    "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.XML";
/// The Treasury's service refuses clients that do not look like a browser.
const USER_AGENT: &str = concat!(
    "Mozilla/5.0 (compatible; riskintel/",
    env!("CARGO_PKG_VERSION"),
    "; sanctions screening)"
);
/// The largest list read (the SDN XML is about 30 MB).
const MAX_BYTES: usize = 256 << 20;
/// A source that failed is read again after this long (or its interval, if shorter).
const RETRY: Duration = Duration::from_secs(600);

/// One list and where it is read from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScreeningSource {
    /// The list's name (`ofac_sdn` for the Treasury's).
    pub list: String,
    /// An `http(s)://` URL or a file path.
    pub location: String,
    /// `sdn_xml`, `sdn_csv` or `operator_csv`; absent: told from the text.
    #[serde(default)]
    pub format: Option<Format>,
    /// For `sdn_csv`: the comments file (`sdn_comments.csv`) whose rows
    /// carry remarks past 1,000 characters.
    #[serde(default)]
    pub comments: Option<String>,
}

/// Address screening settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScreeningConfig {
    /// The lists loaded and kept current. Default: the OFAC SDN XML at the
    /// Treasury's published address. `[]` loads none (lists can still be
    /// loaded by hand with `riskintel screening load`).
    pub sources: Vec<ScreeningSource>,
    /// How often each source is read, in seconds; a list not read for a
    /// day past this is reported `stale`.
    pub refresh_seconds: u64,
    /// How often each instance reads the lists stored and the service's
    /// record of addresses, in milliseconds.
    pub sync_ms: u64,
    /// How often the drainer pattern is looked for in the indexes, in seconds.
    pub drainers_seconds: u64,
}

impl Default for ScreeningConfig {
    fn default() -> Self {
        ScreeningConfig {
            sources: vec![ScreeningSource {
                list: load::SDN.into(),
                location: TREASURY_SDN_XML.into(),
                format: Some(Format::SdnXml),
                comments: None,
            }],
            refresh_seconds: 86_400,
            sync_ms: 5_000,
            drainers_seconds: 300,
        }
    }
}

impl ScreeningConfig {
    /// The lists a source keeps current, with their interval.
    pub fn refreshed(&self) -> HashMap<String, Duration> {
        let every = Duration::from_secs(self.refresh_seconds.max(1));
        (self.sources.iter())
            .map(|s| (s.list.clone(), every))
            .collect()
    }
}

/// Read a URL or a file as text.
pub async fn read_location(location: &str) -> anyhow::Result<String> {
    if location.starts_with("http://") || location.starts_with("https://") {
        let client = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .timeout(Duration::from_secs(120))
            .build()?;
        let mut response = client.get(location).send().await?.error_for_status()?;
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await? {
            body.extend_from_slice(&chunk);
            anyhow::ensure!(
                body.len() <= MAX_BYTES,
                "{location} is over {MAX_BYTES} bytes"
            );
        }
        Ok(String::from_utf8(body)?)
    } else {
        Ok(tokio::fs::read_to_string(location).await?)
    }
}

/// Read `source` and store its list when it changed.
pub async fn load_source(
    store: &dyn Store,
    clock: &dyn Clock,
    source: &ScreeningSource,
    force: bool,
) -> Result<Loaded, LoadError> {
    let read = Read {
        location: &source.location,
        format: source.format,
        comments: source.comments.as_deref(),
        list: Some(&source.list),
    };
    Ok(load_read(store, clock, read, force).await?.1)
}

/// Where a list is read from and how.
pub struct Read<'a> {
    /// A URL or a file.
    pub location: &'a str,
    /// Its format; None: told from the text.
    pub format: Option<Format>,
    /// The SDN CSV's comments file.
    pub comments: Option<&'a str>,
    /// The list's name; None: `ofac_sdn`, or the one list an operator's CSV holds.
    pub list: Option<&'a str>,
}

/// Read a list once and store it when it changed; its name and what loading did.
pub async fn load_read(
    store: &dyn Store,
    clock: &dyn Clock,
    read: Read<'_>,
    force: bool,
) -> Result<(String, Loaded), LoadError> {
    let unreadable = |e: anyhow::Error| {
        LoadError::Unreadable(riskintel_analysis::screening::lists::ListError(format!(
            "reading {}: {}",
            shown(read.location),
            without_query(&format!("{e:#}"))
        )))
    };
    let text = read_location(read.location).await.map_err(unreadable)?;
    let comments = match read.comments {
        Some(location) => Some(read_location(location).await.map_err(unreadable)?),
        None => None,
    };
    let format = read.format.unwrap_or_else(|| Format::detect(&text));
    let (name, parsed) = load::parse(format, &text, comments.as_deref(), read.list)?;
    let loaded = load::apply(
        store,
        &name,
        &shown(read.location),
        parsed,
        force,
        clock.now(),
    )
    .await?;
    Ok((name, loaded))
}

/// A source as logs and the store show it: no credentials, no query string
/// (a signed URL's token stays out of both).
pub fn shown(location: &str) -> String {
    without_query(&crate::redact::redact_url(location))
}

/// `text` with the query string of any URL in it cut (up to the next space,
/// parenthesis or quote).
fn without_query(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut skipping = false;
    for c in text.chars() {
        match c {
            '?' if !skipping => {
                skipping = true;
                out.push_str("?…");
            }
            ' ' | ')' | '"' if skipping => {
                skipping = false;
                out.push(c);
            }
            _ if skipping => {}
            _ => out.push(c),
        }
    }
    out
}

/// The refresh of the configured sources and the reload of the stored lists.
pub struct Refresher {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    screening: Arc<Screening>,
    sources: Vec<ScreeningSource>,
    every: Duration,
    next: Mutex<HashMap<String, Instant>>,
    log: slog::Logger,
}

impl Refresher {
    /// Over `config`'s sources.
    pub fn new(
        config: &ScreeningConfig,
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        screening: Arc<Screening>,
        log: slog::Logger,
    ) -> Refresher {
        Refresher {
            store,
            clock,
            screening,
            sources: config.sources.clone(),
            every: Duration::from_secs(config.refresh_seconds.max(1)),
            next: Mutex::new(HashMap::new()),
            log,
        }
    }

    /// Read the lists stored; swap the index in when one changed.
    pub async fn reload(&self) -> Result<(), riskintel_store::StoreError> {
        let reloaded = self.screening.reload().await?;
        if reloaded.rebuilt {
            crate::telemetry::screening_entries(reloaded.addresses);
            slog::info!(self.log, "sanctions lists swapped in"; "addresses" => reloaded.addresses);
        }
        Ok(())
    }

    /// Read the sources that are due (the maintenance lease's holder does).
    /// A source that fails is read again after [`RETRY`] (or its interval);
    /// the others go on.
    pub async fn refresh_due(&self) -> Result<(), riskintel_store::StoreError> {
        let stored = self.store.screening_lists().await?;
        let now = self.clock.now();
        let mut next = self.next.lock().await;
        for source in &self.sources {
            let due = match next.get(&source.list) {
                Some(at) => Instant::now() >= *at,
                // First round: due unless another instance read it within
                // the interval (then, when the interval ends).
                None => match stored.iter().find(|l| l.name == source.list) {
                    Some(l) => {
                        let since = (now - l.checked_at).to_std().unwrap_or_default();
                        if since < self.every {
                            next.insert(source.list.clone(), Instant::now() + (self.every - since));
                            false
                        } else {
                            true
                        }
                    }
                    None => true,
                },
            };
            if !due {
                continue;
            }
            let wait = match load_source(&*self.store, &*self.clock, source, false).await {
                Ok(Loaded::Replaced {
                    version,
                    entries,
                    added,
                    removed,
                }) => {
                    crate::telemetry::screening_refresh(&source.list, "replaced");
                    slog::info!(self.log, "sanctions list loaded"; "list" => &source.list,
                        "version" => version, "entries" => entries, "added" => added, "removed" => removed);
                    self.every
                }
                Ok(Loaded::Unchanged { .. }) => {
                    crate::telemetry::screening_refresh(&source.list, "unchanged");
                    self.every
                }
                Err(e) => {
                    let outcome = match e {
                        LoadError::Refused(_) => "refused",
                        _ => "failed",
                    };
                    crate::telemetry::screening_refresh(&source.list, outcome);
                    slog::warn!(self.log, "a sanctions list was not refreshed; the previous one stays in force";
                        "list" => &source.list, "source" => shown(&source.location), "error" => %e);
                    RETRY.min(self.every)
                }
            };
            next.insert(source.list.clone(), Instant::now() + wait);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_shown_without_credentials_or_query() {
        assert_eq!(
            shown("https://ops:hunter2@lists.example/sdn.csv?token=s3cret&x=1"),
            "https://ops:***@lists.example/sdn.csv?…"
        );
        assert_eq!(shown("/srv/lists/ours.csv"), "/srv/lists/ours.csv");
        assert_eq!(
            without_query("error sending request for url (https://l.example/a?sig=abc): timed out"),
            "error sending request for url (https://l.example/a?…): timed out"
        );
    }
}
