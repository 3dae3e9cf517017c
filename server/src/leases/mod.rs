//! Leases of the jobs one instance is enough for: each chain's market
//! index (`market:<chain>`) and the periodic pruning (`maintenance`).
//! Instances sharing PostgreSQL elect a holder per lease through the
//! store ([`LeaseStore`]); the holder renews it every third of its
//! length, the others try to take it as often, and take it once it has
//! lapsed (the holder stopped, hung or lost the database). A job asks
//! [`Leases::holds`] before each round. An instance considers a lease its
//! own only until three quarters of its length after the last renewal it
//! saw succeed, so it stops before another may start even when its clock
//! and the others' differ by a little. On SQLite (one instance), every
//! lease is this instance's and the database is not asked.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use riskintel_store::clock::Clock;
use riskintel_store::{LeaseRow, Store, StoreError};

/// The lease of the maintenance jobs (pruning), one instance's work.
pub const MAINTENANCE: &str = "maintenance";

/// This instance's name: `configured`, or the host's name, the process
/// id and four random hex digits (unique among instances, readable in
/// health and logs).
pub fn instance_name(configured: &str) -> String {
    if !configured.trim().is_empty() {
        return configured.trim().to_string();
    }
    use rand::Rng;
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "riskintel".into());
    let tag: u16 = rand::rng().random();
    format!("{host}-{}-{tag:04x}", std::process::id())
}

/// The lease of `chain`'s market index.
pub fn market(chain: riskintel_chains::Chain) -> String {
    format!("market:{}", chain.id())
}

/// The leases of one instance.
#[derive(Clone)]
pub struct Leases {
    instance: Arc<str>,
    /// The leases this instance asks for.
    names: Arc<[String]>,
    shared: Option<Arc<Shared>>,
}

struct Shared {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    length: Duration,
    /// Each lease asked for, and until when (this process's clock) this
    /// instance may act on it.
    held: Mutex<BTreeMap<String, Option<Instant>>>,
}

impl Leases {
    /// Every lease held by `instance`, without asking anyone (one
    /// instance); `names` are those it runs, for [`Leases::holders`].
    pub fn solo(instance: &str, names: impl IntoIterator<Item = String>) -> Leases {
        Leases {
            instance: instance.into(),
            names: names.into_iter().collect(),
            shared: None,
        }
    }

    /// The leases `names`, elected among instances through `store`, each
    /// `length` long.
    pub fn shared(
        instance: &str,
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        length: Duration,
        names: impl IntoIterator<Item = String>,
    ) -> Leases {
        let names: Arc<[String]> = names.into_iter().collect();
        let held = names.iter().map(|n| (n.clone(), None)).collect();
        Leases {
            instance: instance.into(),
            names,
            shared: Some(Arc::new(Shared {
                store,
                clock,
                length,
                held: Mutex::new(held),
            })),
        }
    }

    /// This instance's name.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// How often [`Leases::renew`] should run: a third of a lease.
    pub fn renew_every(&self) -> Option<Duration> {
        self.shared.as_ref().map(|s| s.length / 3)
    }

    /// Whether this instance may do the work of lease `name` now.
    pub fn holds(&self, name: &str) -> bool {
        let Some(shared) = &self.shared else {
            return true;
        };
        shared
            .held()
            .get(name)
            .copied()
            .flatten()
            .is_some_and(|until| Instant::now() < until)
    }

    /// Take or renew every lease this instance asks for; each one's
    /// outcome is kept for [`Leases::holds`] and the metrics. A failed
    /// read of the database keeps no lease past its margin.
    pub async fn renew(&self) -> Result<(), StoreError> {
        let Some(shared) = &self.shared else {
            return Ok(());
        };
        let names: Vec<String> = shared.held().keys().cloned().collect();
        let span = chrono::Duration::from_std(shared.length).unwrap_or(chrono::Duration::MAX);
        for name in names {
            let asked = Instant::now();
            let now = shared.clock.now();
            let held = shared
                .store
                .lease_hold(&name, &self.instance, now, now + span)
                .await?;
            // Acted on for three quarters of the lease from when it was asked.
            let until = held.then(|| asked + shared.length * 3 / 4);
            crate::telemetry::lease_held(&name, held);
            shared.held().insert(name, until);
        }
        Ok(())
    }

    /// Give every lease up (the server closes): another instance may take
    /// them at once.
    pub async fn release(&self) {
        let Some(shared) = &self.shared else {
            return;
        };
        let names: Vec<String> = std::mem::take(&mut *shared.held()).into_keys().collect();
        for name in names {
            let _ = (shared.store)
                .lease_release(&name, &self.instance, shared.clock.now())
                .await;
            crate::telemetry::lease_held(&name, false);
        }
    }

    /// Who holds each of this instance's leases now (lapsed ones are left
    /// out): from the store when shared, otherwise this instance.
    pub async fn holders(&self) -> Result<BTreeMap<String, String>, StoreError> {
        let names = &self.names;
        let Some(shared) = &self.shared else {
            let me = self.instance.to_string();
            return Ok(names.iter().map(|n| (n.clone(), me.clone())).collect());
        };
        let now = shared.clock.now();
        let rows: Vec<LeaseRow> = shared.store.leases().await?;
        Ok(rows
            .into_iter()
            .filter(|r| r.expires_at > now && names.contains(&r.name))
            .map(|r| (r.name, r.holder))
            .collect())
    }
}

impl Shared {
    fn held(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Option<Instant>>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}
