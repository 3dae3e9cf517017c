//! The store test suite, run on both backends, and the schema parity test.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use riskintel_api::{Plan, Scope};
use riskintel_server::store::{self, Account, KeyRecord, PostgresStore, SqliteStore, Store, StoreError};
use riskintel_tests::{Backend, TestDatabase};

async fn open(backend: Backend) -> (Arc<dyn Store>, TestDatabase) {
    let database = TestDatabase::create(backend).await.expect("test database");
    let store = store::open(&database.url).await.expect("store opens and migrates");
    (store, database)
}

async fn close(store: Arc<dyn Store>, database: TestDatabase) {
    store.close().await;
    database.drop_database().await.expect("drop test database");
}

fn t(minute: u32, second: u32) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 12, minute, second).unwrap()
}

fn account(id: &str) -> Account {
    Account { id: id.into(), name: format!("{id} name"), plan: Plan::Free, created_at: t(0, 0) }
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

on_both_backends!(accounts_round_trip, keys_round_trip_and_names_are_unique, key_listing_pages_by_creation, rotation_is_guarded_and_revocation_is_final, rate_windows_count_and_prune, usage_reserves_up_to_a_cap_and_releases, migrations_are_idempotent);

async fn accounts_round_trip(backend: Backend) {
    let (store, db) = open(backend).await;
    assert_eq!(store.backend(), backend.name());
    store.ping().await.unwrap();
    assert_eq!(store.account_count().await.unwrap(), 0);
    store.account_insert(&account("acct_a")).await.unwrap();
    assert!(matches!(store.account_insert(&account("acct_a")).await, Err(StoreError::Conflict(_))));
    assert_eq!(store.account_get("acct_a").await.unwrap(), Some(account("acct_a")));
    assert_eq!(store.account_get("acct_x").await.unwrap(), None);
    assert!(store.account_set_plan("acct_a", Plan::ProPlus).await.unwrap());
    assert!(!store.account_set_plan("acct_x", Plan::Pro).await.unwrap());
    assert_eq!(store.account_get("acct_a").await.unwrap().unwrap().plan, Plan::ProPlus);
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
    let dup = store.key_insert(&key("bbbbbbbbbbbb", "acct_a", "bot", 2)).await;
    assert!(matches!(dup, Err(StoreError::Conflict(_))), "{dup:?}");
    store.key_insert(&key("cccccccccccc", "acct_b", "bot", 2)).await.unwrap();
    // Revoked keys free their name.
    assert!(store.key_revoke("aaaaaaaaaaaa", t(1, 0)).await.unwrap());
    store.key_insert(&key("dddddddddddd", "acct_a", "bot", 3)).await.unwrap();
    store.key_touch("dddddddddddd", t(2, 0)).await.unwrap();
    assert_eq!(store.key_get("dddddddddddd").await.unwrap().unwrap().key.last_used_at, Some(t(2, 0)));
    close(store, db).await;
}

async fn key_listing_pages_by_creation(backend: Backend) {
    let (store, db) = open(backend).await;
    store.account_insert(&account("acct_a")).await.unwrap();
    // Two keys in the same second: the id breaks the tie.
    for (id, created) in [("key000000003", 5), ("key000000001", 1), ("key000000002", 5), ("key000000004", 9)] {
        store.key_insert(&key(id, "acct_a", id, created)).await.unwrap();
    }
    store.key_revoke("key000000004", t(3, 0)).await.unwrap();
    let first = store.key_list("acct_a", None, 2).await.unwrap();
    let ids: Vec<_> = first.iter().map(|k| k.id.as_str()).collect();
    assert_eq!(ids, ["key000000001", "key000000002"]);
    let last = first.last().unwrap();
    let rest = store.key_list("acct_a", Some((last.created_at, last.id.clone())), 2).await.unwrap();
    let ids: Vec<_> = rest.iter().map(|k| k.id.as_str()).collect();
    assert_eq!(ids, ["key000000003"], "revoked keys are not listed");
    close(store, db).await;
}

async fn rotation_is_guarded_and_revocation_is_final(backend: Backend) {
    let (store, db) = open(backend).await;
    store.account_insert(&account("acct_a")).await.unwrap();
    store.key_insert(&key("aaaaaaaaaaaa", "acct_a", "bot", 1)).await.unwrap();
    let until = t(10, 0) + Duration::hours(24);
    assert!(store.key_rotate("aaaaaaaaaaaa", "hash-2", "hash-aaaaaaaaaaaa", until, t(10, 0)).await.unwrap());
    // A second rotation that read the old current hash loses the race.
    assert!(!store.key_rotate("aaaaaaaaaaaa", "hash-3", "hash-aaaaaaaaaaaa", until, t(10, 0)).await.unwrap());
    let k = store.key_get("aaaaaaaaaaaa").await.unwrap().unwrap().key;
    assert_eq!(k.secret_hash, "hash-2");
    assert_eq!(k.previous_secret_hash.as_deref(), Some("hash-aaaaaaaaaaaa"));
    assert_eq!(k.previous_valid_until, Some(until));
    assert!(store.key_revoke("aaaaaaaaaaaa", t(11, 0)).await.unwrap());
    assert!(!store.key_revoke("aaaaaaaaaaaa", t(12, 0)).await.unwrap());
    assert!(!store.key_rotate("aaaaaaaaaaaa", "hash-4", "hash-2", until, t(12, 0)).await.unwrap());
    let k = store.key_get("aaaaaaaaaaaa").await.unwrap().unwrap().key;
    assert_eq!(k.revoked_at, Some(t(11, 0)));
    assert_eq!(k.previous_secret_hash, None, "revocation ends the grace secret");
    close(store, db).await;
}

async fn rate_windows_count_and_prune(backend: Backend) {
    let (store, db) = open(backend).await;
    for n in 1..=3 {
        assert_eq!(store.rate_window_hit("acct_a", t(1, 0)).await.unwrap(), n);
    }
    assert_eq!(store.rate_window_hit("acct_b", t(1, 0)).await.unwrap(), 1);
    assert_eq!(store.rate_window_hit("acct_a", t(2, 0)).await.unwrap(), 1);
    assert_eq!(store.rate_window_prune(t(2, 0)).await.unwrap(), 2);
    assert_eq!(store.rate_window_hit("acct_a", t(2, 0)).await.unwrap(), 2);
    // Concurrent hits are each counted once.
    let hits = futures::future::join_all((0..50).map(|_| store.rate_window_hit("acct_c", t(3, 0)))).await;
    let mut counts: Vec<i64> = hits.into_iter().map(Result::unwrap).collect();
    counts.sort();
    assert_eq!(counts, (1..=50).collect::<Vec<_>>());
    close(store, db).await;
}

async fn usage_reserves_up_to_a_cap_and_releases(backend: Backend) {
    let (store, db) = open(backend).await;
    let period = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap();
    assert_eq!(store.usage_get("acct_a", period).await.unwrap(), 0);
    assert_eq!(store.usage_reserve("acct_a", period, Some(2)).await.unwrap(), Some(1));
    assert_eq!(store.usage_reserve("acct_a", period, Some(2)).await.unwrap(), Some(2));
    assert_eq!(store.usage_reserve("acct_a", period, Some(2)).await.unwrap(), None);
    store.usage_release("acct_a", period).await.unwrap();
    assert_eq!(store.usage_get("acct_a", period).await.unwrap(), 1);
    assert_eq!(store.usage_reserve("acct_a", period, None).await.unwrap(), Some(2));
    store.usage_set("acct_a", period, 9_999).await.unwrap();
    // Concurrent reservations against a cap: exactly the room left succeeds.
    let tries = futures::future::join_all((0..20).map(|_| store.usage_reserve("acct_a", period, Some(10_005)))).await;
    let granted = tries.into_iter().filter(|r| matches!(r, Ok(Some(_)))).count();
    assert_eq!(granted, 6);
    assert_eq!(store.usage_get("acct_a", period).await.unwrap(), 10_005);
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
    let sqlite = SqliteStore::connect(&sqlite_db.url).await.unwrap();
    riskintel_server::store::Store::migrate(&sqlite).await.unwrap();
    let postgres_db = TestDatabase::create(Backend::Postgres).await.unwrap();
    let postgres = PostgresStore::connect(&postgres_db.url).await.unwrap();
    riskintel_server::store::Store::migrate(&postgres).await.unwrap();

    let mut lite = Schema::new();
    let tables: Vec<(String,)> = sqlx::query_as(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%'",
    )
    .fetch_all(sqlite.pool())
    .await
    .unwrap();
    for (table,) in tables {
        let columns: Vec<(String, String, i64, i64)> =
            sqlx::query_as("SELECT name, type, \"notnull\", pk FROM pragma_table_info($1)")
                .bind(&table)
                .fetch_all(sqlite.pool())
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
    .fetch_all(postgres.pool())
    .await
    .unwrap();
    for (table, name, declared, nullable) in columns {
        pg.entry(table).or_default().insert(name, (family(&declared), nullable == "NO"));
    }
    assert!(!lite.is_empty());
    assert_eq!(lite, pg, "the SQLite and PostgreSQL schemas differ");

    let lite_indexes: Vec<(String,)> =
        sqlx::query_as("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'")
            .fetch_all(sqlite.pool())
            .await
            .unwrap();
    let pg_indexes: Vec<(String,)> = sqlx::query_as(
        // Primary keys and UNIQUE columns get implicit indexes in both (SQLite's are sqlite_autoindex_*).
        "SELECT indexname::text FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey' \
         AND indexname NOT LIKE '%_key' AND tablename NOT LIKE '_sqlx%'",
    )
    .fetch_all(postgres.pool())
    .await
    .unwrap();
    let mut lite_indexes: Vec<_> = lite_indexes.into_iter().map(|r| r.0).collect();
    let mut pg_indexes: Vec<_> = pg_indexes.into_iter().map(|r| r.0).collect();
    lite_indexes.sort();
    pg_indexes.sort();
    assert_eq!(lite_indexes, pg_indexes, "secondary indexes differ");

    let versions = |dir: &str| {
        let mut names: Vec<String> = std::fs::read_dir(format!("{}/../migrations/{dir}", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(versions("sqlite"), versions("postgres"), "migration versions and names differ");

    sqlite.pool().close().await;
    postgres.pool().close().await;
    sqlite_db.drop_database().await.unwrap();
    postgres_db.drop_database().await.unwrap();
}
