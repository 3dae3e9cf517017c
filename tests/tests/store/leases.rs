//! Leases as stored: taken when free, renewed by their holder only, taken
//! by another once lapsed, given up at once, and never held by two — not
//! even when many instances ask at the same moment.

use std::sync::Arc;

use chrono::Duration;
use riskintel_server::store::{LeaseRow, Store};
use riskintel_tests::Backend;

use super::{close, open, t};

pub(super) async fn leases_have_one_holder_until_they_lapse(backend: Backend) {
    let (store, database) = open(backend).await;
    let lease = |minute| (t(minute, 0), t(minute, 0) + Duration::seconds(15));
    let hold = async |holder: &str, minute: u32| {
        let (now, until) = lease(minute);
        store
            .lease_hold("market:eth", holder, now, until)
            .await
            .unwrap()
    };
    // Free: taken. Held: renewed by its holder, refused to the others.
    assert!(hold("a", 0).await);
    assert!(!hold("b", 0).await, "b took a held lease");
    assert!(hold("a", 0).await, "a could not renew");
    // Another lease is independent.
    assert!(store
        .lease_hold("maintenance", "b", t(0, 0), t(0, 15))
        .await
        .unwrap());
    // Lapsed (a stopped renewing): b takes it, and a can no longer renew.
    assert!(hold("b", 1).await, "b could not take a lapsed lease");
    assert!(!hold("a", 1).await, "a renewed a lease b had taken");
    let rows = store.leases().await.unwrap();
    assert_eq!(
        rows[0],
        LeaseRow {
            name: "maintenance".into(),
            holder: "b".into(),
            since: t(0, 0),
            expires_at: t(0, 15),
        }
    );
    assert_eq!((rows[1].holder.as_str(), rows[1].since), ("b", t(1, 0)));
    // Renewal keeps `since`; giving it up lets another take it at once.
    assert!(hold("b", 2).await);
    assert_eq!(store.leases().await.unwrap()[1].since, t(1, 0));
    store
        .lease_release("market:eth", "a", t(2, 1))
        .await
        .unwrap();
    assert!(!hold("a", 2).await, "a released what it did not hold");
    store
        .lease_release("market:eth", "b", t(2, 1))
        .await
        .unwrap();
    let (now, until) = (t(2, 1), t(2, 16));
    assert!(store
        .lease_hold("market:eth", "a", now, until)
        .await
        .unwrap());
    close(store, database).await;
}

pub(super) async fn many_asking_at_once_leave_one_holder(backend: Backend) {
    let (store, database) = open(backend).await;
    let store: Arc<dyn Store> = store;
    for round in 0..5u32 {
        let name = format!("market:round{round}");
        let asks = (0..8).map(|i| {
            let (store, name) = (store.clone(), name.clone());
            tokio::spawn(async move {
                let (now, until) = (t(round, 0), t(round, 30));
                store
                    .lease_hold(&name, &format!("instance-{i}"), now, until)
                    .await
                    .unwrap()
            })
        });
        let held = futures::future::join_all(asks).await;
        let holders = held.into_iter().filter(|h| *h.as_ref().unwrap()).count();
        assert_eq!(holders, 1, "round {round}: {holders} holders");
    }
    close(store, database).await;
}
