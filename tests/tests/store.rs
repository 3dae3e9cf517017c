//! The store test suite, run on both backends, and the schema parity test.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use riskintel_api::{AlertKind, ChainId, Plan, RiskLabel, Scope, Severity, WireName};
use riskintel_server::store::db::Db;
use riskintel_server::store::{
    self, Account, AlertQuery, AlertRow, AnalysisRow, ContactKind, CreatorToken, Cursor,
    HolderBalance, KeyRecord, LogIndexKind, LogIndexState, Revocation, RoleMember, Side, Store,
    StoreError, SwapRow, SyncRow, TrackedPair, TrackedSource, TrackedToken, WalletContact,
};
use riskintel_tests::{Backend, TestDatabase};

#[path = "store/disputes.rs"]
mod disputes;
#[path = "store/leases.rs"]
mod leases;
#[path = "store/outbox.rs"]
mod outbox;
#[path = "store/screening.rs"]
mod screening;

async fn open(backend: Backend) -> (Arc<dyn Store>, TestDatabase) {
    let database = TestDatabase::create(backend).await.expect("test database");
    let store = store::open(&database.url)
        .await
        .expect("store opens and migrates");
    (store, database)
}

async fn close(store: Arc<dyn Store>, database: TestDatabase) {
    store.close().await;
    database.drop_database().await.expect("drop test database");
}

fn t(minute: u32, second: u32) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 12, minute, second)
        .unwrap()
}

fn account(id: &str) -> Account {
    Account {
        id: id.into(),
        name: format!("{id} name"),
        plan: Plan::Free,
        created_at: t(0, 0),
    }
}

fn key(id: &str, account_id: &str, name: &str, created: u32) -> KeyRecord {
    KeyRecord {
        id: id.into(),
        account_id: account_id.into(),
        name: name.into(),
        scopes: vec![Scope::TokenRead, Scope::KeysWrite],
        secret_hash: format!("hash-{id}"),
        previous_secret_hash: None,
        previous_valid_until: None,
        created_at: t(0, created),
        expires_at: Some(t(59, 0)),
        last_used_at: None,
        rotated_at: None,
        revoked_at: None,
    }
}

macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test] async fn $name() { super::$name(riskintel_tests::Backend::Sqlite).await })*
        }
        mod postgres {
            $(#[tokio::test] async fn $name() { super::$name(riskintel_tests::Backend::Postgres).await })*
        }
    };
}

on_both_backends!(
    alerts_are_unique_and_listed_newest_first,
    market_cursor_and_swaps_are_exactly_once,
    tracked_pairs_keep_their_baseline,
    accounts_round_trip,
    keys_round_trip_and_names_are_unique,
    key_listing_pages_by_creation,
    rotation_is_guarded_and_revocation_is_final,
    the_last_key_writer_is_kept,
    rate_windows_count_and_prune,
    usage_reserves_up_to_a_cap_and_releases,
    migrations_are_idempotent,
    log_indexes_round_trip_with_their_first_party,
    wallet_contacts_round_trip,
    tracked_tokens_and_swaps_round_trip,
    analyses_round_trip,
    alert_rows_round_trip,
    creator_tokens_carry_their_analyses_and_alerts,
    alerts_are_queued_for_the_subscriptions_they_match,
    the_delivery_log_is_pruned_of_old_finished_events,
    reports_are_one_open_per_token_and_limited,
    overrides_change_with_their_alerts_and_end_once,
    leases_have_one_holder_until_they_lapse,
    many_asking_at_once_leave_one_holder,
    screening_lists_are_replaced_whole,
    the_record_of_addresses_reads_in_order
);

use screening::{screening_lists_are_replaced_whole, the_record_of_addresses_reads_in_order};

use leases::{leases_have_one_holder_until_they_lapse, many_asking_at_once_leave_one_holder};

use disputes::{
    overrides_change_with_their_alerts_and_end_once, reports_are_one_open_per_token_and_limited,
};

use outbox::{
    alerts_are_queued_for_the_subscriptions_they_match,
    the_delivery_log_is_pruned_of_old_finished_events,
};

async fn accounts_round_trip(backend: Backend) {
    let (store, db) = open(backend).await;
    assert_eq!(store.backend(), backend.name());
    store.ping().await.unwrap();
    assert_eq!(store.account_count().await.unwrap(), 0);
    store.account_insert(&account("acct_a")).await.unwrap();
    assert!(matches!(
        store.account_insert(&account("acct_a")).await,
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(
        store.account_get("acct_a").await.unwrap(),
        Some(account("acct_a"))
    );
    assert_eq!(store.account_get("acct_x").await.unwrap(), None);
    assert!(store
        .account_set_plan("acct_a", Plan::ProPlus)
        .await
        .unwrap());
    assert!(!store.account_set_plan("acct_x", Plan::Pro).await.unwrap());
    assert_eq!(
        store.account_get("acct_a").await.unwrap().unwrap().plan,
        Plan::ProPlus
    );
    assert_eq!(store.account_list().await.unwrap().len(), 1);
    assert_eq!(store.account_count().await.unwrap(), 1);
    close(store, db).await;
}

async fn keys_round_trip_and_names_are_unique(backend: Backend) {
    let (store, db) = open(backend).await;
    store.account_insert(&account("acct_a")).await.unwrap();
    store.account_insert(&account("acct_b")).await.unwrap();
    let k = key("aaaaaaaaaaaa", "acct_a", "bot", 1);
    store.key_insert(&k).await.unwrap();
    let found = store.key_get("aaaaaaaaaaaa").await.unwrap().unwrap();
    assert_eq!(found.key, k);
    assert_eq!(found.account.id, "acct_a");
    // Same name, same account: conflict. Other account: fine.
    let dup = store
        .key_insert(&key("bbbbbbbbbbbb", "acct_a", "bot", 2))
        .await;
    assert!(matches!(dup, Err(StoreError::Conflict(_))), "{dup:?}");
    store
        .key_insert(&key("cccccccccccc", "acct_b", "bot", 2))
        .await
        .unwrap();
    // Revoked keys free their name.
    assert!(store.key_revoke("aaaaaaaaaaaa", t(1, 0)).await.unwrap());
    store
        .key_insert(&key("dddddddddddd", "acct_a", "bot", 3))
        .await
        .unwrap();
    // Last uses ride in the usage flush and never move back.
    let last_used = async |store: &Arc<dyn Store>| {
        let found = store.key_get("dddddddddddd").await.unwrap().unwrap();
        found.key.last_used_at
    };
    let used = |at| vec![("dddddddddddd".to_string(), at)];
    let version = store.auth_version().await.unwrap();
    store.usage_add(&[], &used(t(2, 0))).await.unwrap();
    assert_eq!(last_used(&store).await, Some(t(2, 0)));
    store.usage_add(&[], &used(t(1, 30))).await.unwrap();
    assert_eq!(last_used(&store).await, Some(t(2, 0)));
    // A last use is not a change the key caches need to hear of.
    assert_eq!(store.auth_version().await.unwrap(), version);
    close(store, db).await;
}

async fn key_listing_pages_by_creation(backend: Backend) {
    let (store, db) = open(backend).await;
    store.account_insert(&account("acct_a")).await.unwrap();
    // Two keys in the same second: the id breaks the tie.
    for (id, created) in [
        ("key000000003", 5),
        ("key000000001", 1),
        ("key000000002", 5),
        ("key000000004", 9),
    ] {
        store
            .key_insert(&key(id, "acct_a", id, created))
            .await
            .unwrap();
    }
    store.key_revoke("key000000004", t(3, 0)).await.unwrap();
    let first = store.key_list("acct_a", None, 2).await.unwrap();
    let ids: Vec<_> = first.iter().map(|k| k.id.as_str()).collect();
    assert_eq!(ids, ["key000000001", "key000000002"]);
    let last = first.last().unwrap();
    let rest = store
        .key_list("acct_a", Some((last.created_at, last.id.clone())), 2)
        .await
        .unwrap();
    let ids: Vec<_> = rest.iter().map(|k| k.id.as_str()).collect();
    assert_eq!(ids, ["key000000003"], "revoked keys are not listed");
    close(store, db).await;
}

async fn rotation_is_guarded_and_revocation_is_final(backend: Backend) {
    let (store, db) = open(backend).await;
    store.account_insert(&account("acct_a")).await.unwrap();
    store
        .key_insert(&key("aaaaaaaaaaaa", "acct_a", "bot", 1))
        .await
        .unwrap();
    let until = t(10, 0) + Duration::hours(24);
    assert!(store
        .key_rotate(
            "aaaaaaaaaaaa",
            "hash-2",
            "hash-aaaaaaaaaaaa",
            until,
            t(10, 0)
        )
        .await
        .unwrap());
    // A second rotation that read the old current hash loses the race.
    assert!(!store
        .key_rotate(
            "aaaaaaaaaaaa",
            "hash-3",
            "hash-aaaaaaaaaaaa",
            until,
            t(10, 0)
        )
        .await
        .unwrap());
    let k = store.key_get("aaaaaaaaaaaa").await.unwrap().unwrap().key;
    assert_eq!(k.secret_hash, "hash-2");
    assert_eq!(k.previous_secret_hash.as_deref(), Some("hash-aaaaaaaaaaaa"));
    assert_eq!(k.previous_valid_until, Some(until));
    assert!(store.key_revoke("aaaaaaaaaaaa", t(11, 0)).await.unwrap());
    assert!(!store.key_revoke("aaaaaaaaaaaa", t(12, 0)).await.unwrap());
    assert!(!store
        .key_rotate("aaaaaaaaaaaa", "hash-4", "hash-2", until, t(12, 0))
        .await
        .unwrap());
    let k = store.key_get("aaaaaaaaaaaa").await.unwrap().unwrap().key;
    assert_eq!(k.revoked_at, Some(t(11, 0)));
    assert_eq!(
        k.previous_secret_hash, None,
        "revocation ends the grace secret"
    );
    close(store, db).await;
}

async fn the_last_key_writer_is_kept(backend: Backend) {
    let (store, db) = open(backend).await;
    store.account_insert(&account("acct_a")).await.unwrap();
    store.account_insert(&account("acct_b")).await.unwrap();
    let reader = KeyRecord {
        scopes: vec![Scope::TokenRead],
        ..key("rrrrrrrrrrrr", "acct_a", "reader", 1)
    };
    let expired = KeyRecord {
        expires_at: Some(t(5, 0)),
        ..key("eeeeeeeeeeee", "acct_a", "expired", 2)
    };
    for k in [
        key("aaaaaaaaaaaa", "acct_a", "one", 3),
        key("bbbbbbbbbbbb", "acct_a", "two", 4),
        key("cccccccccccc", "acct_b", "theirs", 5),
        reader,
        expired,
    ] {
        store.key_insert(&k).await.unwrap();
    }
    let revoke = |id: &'static str, account: &'static str| {
        let store = store.clone();
        async move {
            store
                .key_revoke_keeping_writer(account, id, t(10, 0))
                .await
                .unwrap()
        }
    };
    // Another account's writer and an expired writer do not count.
    assert_eq!(revoke("aaaaaaaaaaaa", "acct_a").await, Revocation::Revoked);
    assert_eq!(
        revoke("bbbbbbbbbbbb", "acct_a").await,
        Revocation::LastWriter
    );
    assert!(store
        .key_get("bbbbbbbbbbbb")
        .await
        .unwrap()
        .unwrap()
        .key
        .revoked_at
        .is_none());
    // A key without keys:write goes whatever is left; a revoked one is not active.
    assert_eq!(revoke("rrrrrrrrrrrr", "acct_a").await, Revocation::Revoked);
    assert_eq!(
        revoke("aaaaaaaaaaaa", "acct_a").await,
        Revocation::NotActive
    );
    // A key is revoked only in its own account.
    assert_eq!(
        revoke("cccccccccccc", "acct_a").await,
        Revocation::NotActive
    );
    close(store, db).await;
}

async fn rate_windows_count_and_prune(backend: Backend) {
    let (store, db) = open(backend).await;
    let counts = |pairs: &[(&str, i64)]| -> Vec<(String, i64)> {
        pairs.iter().map(|(a, n)| (a.to_string(), *n)).collect()
    };
    let others = |instance: &'static str, minute: u32| {
        let store = store.clone();
        async move {
            let mut found = store
                .rate_counts_others(instance, t(minute, 0))
                .await
                .unwrap();
            found.sort();
            found
        }
    };
    store
        .rate_counts_publish("i1", t(1, 0), &counts(&[("acct_a", 3), ("acct_b", 1)]))
        .await
        .unwrap();
    store
        .rate_counts_publish("i2", t(1, 0), &counts(&[("acct_a", 4)]))
        .await
        .unwrap();
    // A later publication replaces the instance's earlier count.
    store
        .rate_counts_publish("i1", t(1, 0), &counts(&[("acct_a", 5)]))
        .await
        .unwrap();
    store
        .rate_counts_publish("i1", t(2, 0), &counts(&[("acct_a", 1)]))
        .await
        .unwrap();
    assert_eq!(
        others("i3", 1).await,
        counts(&[("acct_a", 9), ("acct_b", 1)])
    );
    assert_eq!(others("i1", 1).await, counts(&[("acct_a", 4)]));
    assert_eq!(others("i2", 2).await, counts(&[("acct_a", 1)]));
    assert_eq!(store.rate_window_prune(t(2, 0)).await.unwrap(), 3);
    assert!(others("i3", 1).await.is_empty());
    // Many accounts in one publication (more than one statement's worth).
    let many: Vec<(String, i64)> = (0..2_500).map(|i| (format!("acct_{i}"), i)).collect();
    store
        .rate_counts_publish("i1", t(3, 0), &many)
        .await
        .unwrap();
    assert_eq!(others("i2", 3).await.len(), 2_500);
    close(store, db).await;
}

async fn usage_reserves_up_to_a_cap_and_releases(backend: Backend) {
    let (store, db) = open(backend).await;
    let period = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap();
    assert_eq!(store.usage_get("acct_a", period).await.unwrap(), 0);
    assert_eq!(
        store
            .usage_reserve("acct_a", period, Some(2))
            .await
            .unwrap(),
        Some(1)
    );
    assert_eq!(
        store
            .usage_reserve("acct_a", period, Some(2))
            .await
            .unwrap(),
        Some(2)
    );
    assert_eq!(
        store
            .usage_reserve("acct_a", period, Some(2))
            .await
            .unwrap(),
        None
    );
    store.usage_release("acct_a", period).await.unwrap();
    assert_eq!(store.usage_get("acct_a", period).await.unwrap(), 1);
    assert_eq!(
        store.usage_reserve("acct_a", period, None).await.unwrap(),
        Some(2)
    );
    store.usage_set("acct_a", period, 9_999).await.unwrap();
    // Concurrent reservations against a cap: exactly the room left succeeds.
    let tries = futures::future::join_all(
        (0..20).map(|_| store.usage_reserve("acct_a", period, Some(10_005))),
    )
    .await;
    let granted = tries
        .into_iter()
        .filter(|r| matches!(r, Ok(Some(_))))
        .count();
    assert_eq!(granted, 6);
    assert_eq!(store.usage_get("acct_a", period).await.unwrap(), 10_005);
    // Flushes add in one transaction and learn the totals back, in order.
    let next = period + Duration::days(30);
    let keys = [
        ("acct_a".to_string(), period),
        ("acct_b".to_string(), period),
        ("acct_a".to_string(), next),
    ];
    let added = store
        .usage_add(
            &[
                (keys[0].clone(), 5),
                (keys[1].clone(), 2),
                (keys[2].clone(), 1),
            ],
            &[],
        )
        .await
        .unwrap();
    assert_eq!(added, vec![10_010, 2, 1]);
    assert_eq!(
        store.usage_add(&[(keys[1].clone(), 3)], &[]).await.unwrap(),
        vec![5]
    );
    let unknown = ("acct_z".to_string(), period);
    assert_eq!(
        store
            .usage_totals(&[keys[2].clone(), unknown, keys[0].clone()])
            .await
            .unwrap(),
        vec![1, 0, 10_010]
    );
    close(store, db).await;
}

async fn migrations_are_idempotent(backend: Backend) {
    let (store, db) = open(backend).await;
    store.migrate().await.unwrap();
    store.migrate().await.unwrap();
    close(store, db).await;
}

/// Column facts compared across dialects: name, type family, nullability.
type Schema = BTreeMap<String, BTreeMap<String, (String, bool)>>;

fn family(declared: &str) -> String {
    let d = declared.to_ascii_lowercase();
    if d.contains("timestamp") || d.contains("datetime") {
        "time"
    } else if d.contains("int") {
        "integer"
    } else if d.contains("text") || d.contains("char") {
        "text"
    } else if d.contains("double") || d.contains("real") || d.contains("float") {
        "float"
    } else {
        return d;
    }
    .into()
}

#[tokio::test]
async fn sqlite_and_postgres_schemas_match() {
    let sqlite_db = TestDatabase::create(Backend::Sqlite).await.unwrap();
    let sqlite = store::connect(&sqlite_db.url).await.unwrap();
    riskintel_server::store::Store::migrate(&sqlite)
        .await
        .unwrap();
    let Db::Sqlite(sqlite_pool) = sqlite.db().clone() else {
        panic!("a SQLite store")
    };
    let postgres_db = TestDatabase::create(Backend::Postgres).await.unwrap();
    let postgres = store::connect(&postgres_db.url).await.unwrap();
    riskintel_server::store::Store::migrate(&postgres)
        .await
        .unwrap();
    let Db::Postgres(postgres_pool) = postgres.db().clone() else {
        panic!("a PostgreSQL store")
    };

    let mut lite = Schema::new();
    let tables: Vec<(String,)> = sqlx::query_as(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%'",
    )
    .fetch_all(&sqlite_pool)
    .await
    .unwrap();
    for (table,) in tables {
        let columns: Vec<(String, String, i64, i64)> =
            sqlx::query_as("SELECT name, type, \"notnull\", pk FROM pragma_table_info($1)")
                .bind(&table)
                .fetch_all(&sqlite_pool)
                .await
                .unwrap();
        let entry = lite.entry(table).or_default();
        for (name, declared, not_null, pk) in columns {
            entry.insert(name, (family(&declared), not_null == 1 || pk > 0));
        }
    }

    let mut pg = Schema::new();
    let columns: Vec<(String, String, String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, data_type::text, is_nullable::text \
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name NOT LIKE '_sqlx%'",
    )
    .fetch_all(&postgres_pool)
    .await
    .unwrap();
    for (table, name, declared, nullable) in columns {
        pg.entry(table)
            .or_default()
            .insert(name, (family(&declared), nullable == "NO"));
    }
    assert!(!lite.is_empty());
    assert_eq!(lite, pg, "the SQLite and PostgreSQL schemas differ");

    let lite_indexes: Vec<(String,)> = sqlx::query_as(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'",
    )
    .fetch_all(&sqlite_pool)
    .await
    .unwrap();
    let pg_indexes: Vec<(String,)> = sqlx::query_as(
        // Primary keys and UNIQUE columns get implicit indexes in both (SQLite's are sqlite_autoindex_*).
        "SELECT indexname::text FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey' \
         AND indexname NOT LIKE '%_key' AND tablename NOT LIKE '_sqlx%'",
    )
    .fetch_all(&postgres_pool)
    .await
    .unwrap();
    let mut lite_indexes: Vec<_> = lite_indexes.into_iter().map(|r| r.0).collect();
    let mut pg_indexes: Vec<_> = pg_indexes.into_iter().map(|r| r.0).collect();
    lite_indexes.sort();
    pg_indexes.sort();
    assert_eq!(lite_indexes, pg_indexes, "secondary indexes differ");

    let versions = |dir: &str| {
        let mut names: Vec<String> = std::fs::read_dir(format!(
            "{}/../migrations/{dir}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
        names.sort();
        names
    };
    assert_eq!(
        versions("sqlite"),
        versions("postgres"),
        "migration versions and names differ"
    );

    riskintel_server::store::Store::close(&sqlite).await;
    riskintel_server::store::Store::close(&postgres).await;
    sqlite_db.drop_database().await.unwrap();
    postgres_db.drop_database().await.unwrap();
}

fn alert(key: &str, chain: &str, kind: &str, rank: i64, minute: u32) -> AlertRow {
    let kind = AlertKind::from_wire_name(kind).expect("an alert kind");
    AlertRow {
        id: 0,
        event_key: key.into(),
        chain: ChainId::parse(chain).expect("a chain"),
        token: "0xToken".into(),
        kind,
        severity: Severity::High,
        severity_rank: rank,
        title: "t".into(),
        detail: "d".into(),
        score_before: None,
        label_before: None,
        score_after: Some(50.0),
        label_after: Some(RiskLabel::Risky),
        block: 7,
        observed_at: t(minute, 0),
    }
}

async fn alerts_are_unique_and_listed_newest_first(backend: Backend) {
    let (store, db) = open(backend).await;
    let a = store
        .alert_insert(&alert("e1", "eth", "new_token", 1, 1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        store
            .alert_insert(&alert("e1", "eth", "new_token", 1, 1))
            .await
            .unwrap(),
        None,
        "one alert per event"
    );
    let b = store
        .alert_insert(&alert("e2", "bsc", "honeypot_detected", 4, 2))
        .await
        .unwrap()
        .unwrap();
    let c = store
        .alert_insert(&alert("e3", "eth", "label_changed", 2, 3))
        .await
        .unwrap()
        .unwrap();
    assert!(a < b && b < c);
    let all = store
        .alerts(&AlertQuery {
            limit: 10,
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(all.iter().map(|r| r.id).collect::<Vec<_>>(), vec![c, b, a]);
    let page = store
        .alerts(&AlertQuery {
            limit: 10,
            before_id: Some(c),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(page.iter().map(|r| r.id).collect::<Vec<_>>(), vec![b, a]);
    let eth = store
        .alerts(&AlertQuery {
            chain: Some(ChainId::Eth),
            limit: 10,
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(eth.len(), 2);
    let severe = store
        .alerts(&AlertQuery {
            min_rank: 3,
            limit: 10,
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(severe.iter().map(|r| r.id).collect::<Vec<_>>(), vec![b]);
    let kind = store
        .alerts(&AlertQuery {
            kind: Some(AlertKind::LabelChanged),
            limit: 10,
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(kind.len(), 1);
    let recent = store
        .alerts(&AlertQuery {
            since: Some(t(2, 0)),
            limit: 10,
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(recent.len(), 2);
    assert_eq!(recent[0].label_after, Some(RiskLabel::Risky));
    close(store, db).await;
}

fn swap(block: i64, log_index: i64) -> SwapRow {
    SwapRow {
        chain: ChainId::Eth,
        pair: "0xpair".into(),
        block,
        log_index,
        token: "0xToken".into(),
        trader: "0xtrader".into(),
        side: Side::Buy,
        amount_token: 10.0,
        amount_usd: 5.0,
        price_usd: 0.5,
        observed_at: t(5, 0),
    }
}

async fn market_cursor_and_swaps_are_exactly_once(backend: Backend) {
    let (store, db) = open(backend).await;
    assert_eq!(
        store.cursor_get(ChainId::Eth, "market").await.unwrap(),
        None
    );
    let sync = |block: i64, reserve: f64| SyncRow {
        chain: ChainId::Eth,
        pair: "0xpair".into(),
        block,
        log_index: 1,
        reserve_quote: reserve,
        observed_at: t(5, 0),
    };
    assert!(store
        .cursor_advance(
            ChainId::Eth,
            "market",
            None,
            11,
            "0xa",
            &[swap(10, 0)],
            &[sync(10, 5.0)]
        )
        .await
        .unwrap());
    // A second indexer that read the same range loses: nothing is counted twice.
    assert!(!store
        .cursor_advance(ChainId::Eth, "market", None, 11, "0xa", &[swap(10, 0)], &[])
        .await
        .unwrap());
    assert!(!store
        .cursor_advance(
            ChainId::Eth,
            "market",
            Some(5),
            11,
            "0xa",
            &[swap(10, 1)],
            &[]
        )
        .await
        .unwrap());
    assert!(store
        .cursor_advance(
            ChainId::Eth,
            "market",
            Some(11),
            21,
            "0xb",
            &[swap(20, 0), swap(20, 0)],
            &[sync(20, 2.0)]
        )
        .await
        .unwrap());
    let history = store
        .liquidity_history(ChainId::Eth, "0xpair", t(0, 0))
        .await
        .unwrap();
    assert_eq!(
        history.iter().map(|h| h.reserve_quote).collect::<Vec<_>>(),
        vec![5.0, 2.0]
    );
    assert_eq!(
        store.cursor_get(ChainId::Eth, "market").await.unwrap(),
        Some(Cursor {
            next_block: 21,
            last_hash: "0xb".into()
        })
    );
    assert_eq!(
        store
            .swaps_since(ChainId::Eth, "0xToken", t(0, 0))
            .await
            .unwrap()
            .len(),
        2
    );
    // A re-organisation rewinds and forgets what it read from there.
    store
        .cursor_rewind(ChainId::Eth, "market", 15)
        .await
        .unwrap();
    assert_eq!(
        store.cursor_get(ChainId::Eth, "market").await.unwrap(),
        Some(Cursor {
            next_block: 15,
            last_hash: String::new()
        })
    );
    assert_eq!(
        store
            .swaps_since(ChainId::Eth, "0xToken", t(0, 0))
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        store
            .liquidity_history(ChainId::Eth, "0xpair", t(0, 0))
            .await
            .unwrap()
            .len(),
        1
    );
    close(store, db).await;
}

async fn tracked_pairs_keep_their_baseline(backend: Backend) {
    let (store, db) = open(backend).await;
    let pair = |reserve: f64| TrackedPair {
        chain: ChainId::Eth,
        pair: "0xpair".into(),
        token: "0xToken".into(),
        quote: "0xweth".into(),
        dex: "dex".into(),
        reserve_quote: reserve,
        fee: None,
        tick_spacing: None,
        hooks: None,
    };
    store.tracked_pair_add(&pair(0.0)).await.unwrap();
    store.tracked_pair_add(&pair(10.0)).await.unwrap();
    assert_eq!(
        store.tracked_pairs(ChainId::Eth).await.unwrap()[0].reserve_quote,
        10.0,
        "a new pair takes its first baseline"
    );
    store.tracked_pair_add(&pair(3.0)).await.unwrap();
    assert_eq!(
        store.tracked_pairs(ChainId::Eth).await.unwrap()[0].reserve_quote,
        10.0,
        "an existing baseline stays"
    );
    store
        .tracked_pair_reserve(ChainId::Eth, "0xpair", 4.0)
        .await
        .unwrap();
    assert_eq!(
        store.tracked_pairs(ChainId::Eth).await.unwrap()[0].reserve_quote,
        4.0
    );
    // A V4 pool keeps the rest of its key, and is found by its token.
    let v4 = TrackedPair {
        pair: format!("0x{}", "ab".repeat(32)),
        fee: Some(8_388_608),
        tick_spacing: Some(-3),
        hooks: Some("0x0000000000000000000000000000000000000044".into()),
        ..pair(0.0)
    };
    store.tracked_pair_add(&v4).await.unwrap();
    assert_eq!(
        store
            .tracked_v4_pools(ChainId::Eth, "0xToken")
            .await
            .unwrap(),
        vec![v4],
        "only the V4 pool, with its key"
    );
    assert!(store
        .tracked_v4_pools(ChainId::Eth, "0xOther")
        .await
        .unwrap()
        .is_empty());
    close(store, db).await;
}

async fn log_indexes_round_trip_with_their_first_party(backend: Backend) {
    let (store, db) = open(backend).await;
    let state = LogIndexState {
        start_block: 0,
        next_block: 11,
        first_block: Some(3),
        first_party: Some("0xcreator".into()),
    };
    let balances = vec![
        HolderBalance {
            holder: "0xa".into(),
            balance: "700".into(),
            sort_key: 700.0,
            first_from: Some("0xpool".into()),
            first_block: Some(4),
        },
        HolderBalance {
            holder: "0xb".into(),
            balance: "-5".into(),
            sort_key: -5.0,
            first_from: None,
            first_block: None,
        },
        HolderBalance {
            holder: "0xc".into(),
            balance: "900".into(),
            sort_key: 900.0,
            first_from: Some("0xcreator".into()),
            first_block: Some(3),
        },
    ];
    let member = |role: &str, member: &str, granted| RoleMember {
        role: role.into(),
        member: member.into(),
        granted,
    };
    let roles = [
        member("0xminter", "0xm1", true),
        member("0xminter", "0xm2", true),
    ];
    assert!(store
        .holder_index_apply(ChainId::Eth, "0xtoken", None, &state, &balances, &roles)
        .await
        .unwrap());
    assert_eq!(
        store
            .log_index_get(ChainId::Eth, LogIndexKind::Holders, "0xtoken")
            .await
            .unwrap(),
        Some(state.clone())
    );
    // The next update keeps what the first found (the creator above all,
    // and each holder's first receipt: a later one from elsewhere does
    // not replace it).
    let moved = LogIndexState {
        next_block: 20,
        ..state.clone()
    };
    let later = HolderBalance {
        holder: "0xa".into(),
        balance: "800".into(),
        sort_key: 800.0,
        first_from: Some("0xcreator".into()),
        first_block: Some(15),
    };
    assert!(store
        .holder_index_apply(
            ChainId::Eth,
            "0xtoken",
            Some(11),
            &moved,
            &[later],
            &[member("0xminter", "0xm1", false)]
        )
        .await
        .unwrap());
    // Buyers: positive holders whose first tokens came from a source.
    let buyers = store
        .holder_buyers(
            ChainId::Eth,
            "0xtoken",
            &["0xpool".into(), "0xrouter".into()],
            5,
        )
        .await
        .unwrap();
    assert_eq!(
        buyers
            .iter()
            .map(|b| (b.holder.as_str(), b.balance.as_str(), b.first_block))
            .collect::<Vec<_>>(),
        vec![("0xa", "800", Some(4))],
        "0xa bought (its first receipt stands); 0xc was handed its tokens"
    );
    assert!(store
        .holder_buyers(ChainId::Eth, "0xtoken", &[], 5)
        .await
        .unwrap()
        .is_empty());
    // A revocation in later blocks ends the membership; the other stays.
    assert_eq!(
        store.role_members(ChainId::Eth, "0xtoken").await.unwrap(),
        vec![member("0xminter", "0xm2", true)]
    );
    assert_eq!(
        store
            .log_index_get(ChainId::Eth, LogIndexKind::Holders, "0xtoken")
            .await
            .unwrap(),
        Some(moved)
    );
    assert!(
        !store
            .holder_index_apply(ChainId::Eth, "0xtoken", Some(11), &state, &[], &[])
            .await
            .unwrap(),
        "a stale update loses"
    );
    let mut found = store
        .holder_balances_get(
            ChainId::Eth,
            "0xtoken",
            &["0xa".into(), "0xb".into(), "0xc".into()],
        )
        .await
        .unwrap();
    found.sort_by(|a, b| a.holder.cmp(&b.holder));
    let mut expected = balances.clone();
    expected[0].balance = "800".into();
    expected[0].sort_key = 800.0;
    assert_eq!(found, expected);
    assert_eq!(
        store.holder_top(ChainId::Eth, "0xtoken", 10).await.unwrap(),
        vec![expected[2].clone(), expected[0].clone()]
    );
    assert_eq!(
        store.holder_count(ChainId::Eth, "0xtoken").await.unwrap(),
        2
    );
    assert_eq!(
        store
            .log_index_get(ChainId::Eth, LogIndexKind::Wallet, "0xtoken")
            .await
            .unwrap(),
        None,
        "kinds are apart"
    );
    close(store, db).await;
}

async fn wallet_contacts_round_trip(backend: Backend) {
    let (store, db) = open(backend).await;
    let state = LogIndexState {
        start_block: 5,
        next_block: 9,
        first_block: None,
        first_party: None,
    };
    let contacts = vec![
        WalletContact {
            kind: ContactKind::Token,
            token: "0xt".into(),
            spender: String::new(),
        },
        WalletContact {
            kind: ContactKind::Approval,
            token: "0xt".into(),
            spender: "0xs".into(),
        },
    ];
    assert!(store
        .wallet_index_apply(ChainId::Eth, "0xw", None, &state, &contacts)
        .await
        .unwrap());
    assert!(store
        .wallet_index_apply(
            ChainId::Eth,
            "0xw",
            Some(9),
            &LogIndexState {
                next_block: 12,
                ..state.clone()
            },
            &contacts
        )
        .await
        .unwrap());
    let mut found = store.wallet_contacts(ChainId::Eth, "0xw").await.unwrap();
    found.sort();
    let mut expected = contacts.clone();
    expected.sort();
    assert_eq!(found, expected, "each contact once, its kind typed");
    assert_eq!(
        store
            .log_index_get(ChainId::Eth, LogIndexKind::Wallet, "0xw")
            .await
            .unwrap()
            .map(|s| s.next_block),
        Some(12)
    );
    close(store, db).await;
}

async fn tracked_tokens_and_swaps_round_trip(backend: Backend) {
    let (store, db) = open(backend).await;
    let token = TrackedToken {
        chain: ChainId::Eth,
        token: "0xToken".into(),
        source: TrackedSource::PairCreated,
        first_seen_block: 7,
        added_at: t(1, 0),
        last_analysed_at: None,
    };
    assert!(store.tracked_token_add(&token).await.unwrap());
    assert!(!store
        .tracked_token_add(&TrackedToken {
            source: TrackedSource::Analysed,
            ..token.clone()
        })
        .await
        .unwrap());
    assert_eq!(
        store.tracked_tokens(Some(ChainId::Eth)).await.unwrap(),
        vec![token.clone()]
    );
    store
        .tracked_token_analysed(ChainId::Eth, "0xToken", t(2, 0))
        .await
        .unwrap();
    assert_eq!(
        store.tracked_tokens(None).await.unwrap(),
        vec![TrackedToken {
            last_analysed_at: Some(t(2, 0)),
            ..token
        }]
    );
    let sell = SwapRow {
        side: Side::Sell,
        trader: "0xseller".into(),
        ..swap(3, 4)
    };
    let sync = SyncRow {
        chain: ChainId::Eth,
        pair: "0xpair".into(),
        block: 3,
        log_index: 5,
        reserve_quote: 1.5,
        observed_at: t(5, 0),
    };
    assert!(store
        .cursor_advance(
            ChainId::Eth,
            "market",
            None,
            4,
            "0xh",
            &[swap(3, 2), sell.clone()],
            std::slice::from_ref(&sync)
        )
        .await
        .unwrap());
    assert_eq!(
        store
            .swaps_since(ChainId::Eth, "0xToken", t(0, 0))
            .await
            .unwrap(),
        vec![swap(3, 2), sell]
    );
    assert_eq!(
        store
            .liquidity_history(ChainId::Eth, "0xpair", t(0, 0))
            .await
            .unwrap(),
        vec![sync]
    );
    close(store, db).await;
}

async fn analyses_round_trip(backend: Backend) {
    let (store, db) = open(backend).await;
    assert_eq!(
        store.analysis_get(ChainId::Eth, "0xToken").await.unwrap(),
        None
    );
    store
        .analysis_put(ChainId::Eth, "0xToken", "{\"a\":1}", t(1, 0))
        .await
        .unwrap();
    store
        .analysis_put(ChainId::Eth, "0xToken", "{\"a\":2}", t(2, 0))
        .await
        .unwrap();
    let row = AnalysisRow {
        result: "{\"a\":2}".into(),
        analysed_at: t(2, 0),
    };
    assert_eq!(
        store.analysis_get(ChainId::Eth, "0xToken").await.unwrap(),
        Some(row)
    );
    close(store, db).await;
}

async fn alert_rows_round_trip(backend: Backend) {
    let (store, db) = open(backend).await;
    let mut row = alert("k", "bsc", "proxy_upgraded", 4, 3);
    row.severity = Severity::Critical;
    row.score_before = Some(10.0);
    row.label_before = Some(RiskLabel::Safe);
    row.id = store.alert_insert(&row).await.unwrap().unwrap();
    assert_eq!(
        store
            .alerts(&AlertQuery {
                limit: 5,
                ..Default::default()
            })
            .await
            .unwrap(),
        vec![row]
    );
    close(store, db).await;
}

/// A creator's other tokens: found through the holder index's first party
/// (lower-case), joined to their analyses and alerts stored under
/// checksummed addresses; the token asked about, other creators, other
/// chains and other alert kinds left out.
async fn creator_tokens_carry_their_analyses_and_alerts(backend: Backend) {
    let (store, db) = open(backend).await;
    let index = |creator: &str| LogIndexState {
        start_block: 0,
        next_block: 5,
        first_block: Some(1),
        first_party: Some(creator.into()),
    };
    for (chain, token, creator) in [
        (ChainId::Eth, "0xaa", "0xc1"),
        (ChainId::Eth, "0xbb", "0xc1"),
        (ChainId::Eth, "0xcc", "0xc1"),
        (ChainId::Eth, "0xdd", "0xc2"),
        (ChainId::Bsc, "0xee", "0xc1"),
    ] {
        assert!(store
            .holder_index_apply(chain, token, None, &index(creator), &[], &[])
            .await
            .unwrap());
    }
    store
        .analysis_put(ChainId::Eth, "0xBB", "{\"b\":1}", t(1, 0))
        .await
        .unwrap();
    for (key, kind) in [
        ("k1", "honeypot_detected"),
        ("k2", "liquidity_removed"),
        ("k3", "label_changed"),
    ] {
        let row = AlertRow {
            token: "0xCC".into(),
            ..alert(key, "eth", kind, 4, 1)
        };
        store.alert_insert(&row).await.unwrap();
    }
    let found = store
        .creator_tokens(ChainId::Eth, "0xc1", "0xaa", 20)
        .await
        .unwrap();
    assert_eq!(
        found,
        vec![
            CreatorToken {
                token: "0xbb".into(),
                result: Some("{\"b\":1}".into()),
                alerts: 0,
            },
            CreatorToken {
                token: "0xcc".into(),
                result: None,
                alerts: 2,
            },
        ]
    );
    assert_eq!(
        store
            .creator_tokens(ChainId::Eth, "0xc1", "0xaa", 1)
            .await
            .unwrap()
            .len(),
        1,
        "limited"
    );
    assert!(store
        .creator_tokens(ChainId::Eth, "0xc9", "0xaa", 20)
        .await
        .unwrap()
        .is_empty());
    close(store, db).await;
}
