//! Test databases: a fresh SQLite file, or a fresh PostgreSQL database on
//! the server named by `RISKINTEL_TEST_POSTGRES_URL` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`).

use std::path::PathBuf;

use anyhow::Context as _;
use rand::Rng;
use sqlx::Connection;

/// Which store a test runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Embedded SQLite file.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

impl Backend {
    /// Both backends.
    pub const ALL: [Backend; 2] = [Backend::Sqlite, Backend::Postgres];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// The administrative PostgreSQL URL tests create databases through.
pub fn postgres_admin_url() -> String {
    std::env::var("RISKINTEL_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_string())
}

/// A database that exists for one test.
pub struct TestDatabase {
    /// Its URL, for the server.
    pub url: String,
    backend: Option<Backend>,
    sqlite_dir: Option<PathBuf>,
    postgres_name: Option<String>,
}

fn unique_suffix() -> String {
    let mut rng = rand::rng();
    format!("{}_{:08x}", std::process::id(), rng.random::<u32>())
}

impl TestDatabase {
    /// A fresh, empty database.
    pub async fn create(backend: Backend) -> anyhow::Result<TestDatabase> {
        match backend {
            Backend::Sqlite => {
                let dir = std::env::temp_dir().join(format!("riskintel-test-{}", unique_suffix()));
                std::fs::create_dir_all(&dir)?;
                Ok(TestDatabase {
                    url: format!("sqlite://{}", dir.join("riskintel.db").display()),
                    backend: Some(backend),
                    sqlite_dir: Some(dir),
                    postgres_name: None,
                })
            }
            Backend::Postgres => {
                let admin = postgres_admin_url();
                let mut conn = sqlx::PgConnection::connect(&admin).await.with_context(|| {
                    format!(
                        "PostgreSQL is needed for the PostgreSQL half of the suite and did not answer at {admin}. \
                         Install and start it (Debian: apt-get install postgresql; pg_ctlcluster 15 main start), \
                         or point RISKINTEL_TEST_POSTGRES_URL at a server where this user may create databases. \
                         `cargo xtask test` starts a local cluster when one is installed"
                    )
                })?;
                let name = format!("riskintel_t_{}", unique_suffix());
                // The name is ours, made of [a-z0-9_]: safe to splice.
                sqlx::query(&format!("CREATE DATABASE {name}"))
                    .execute(&mut conn)
                    .await?;
                conn.close().await?;
                let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap_or(&admin);
                Ok(TestDatabase {
                    url: format!("{base}/{name}"),
                    backend: Some(backend),
                    sqlite_dir: None,
                    postgres_name: Some(name),
                })
            }
        }
    }

    /// A placeholder that owns nothing.
    pub fn none() -> TestDatabase {
        TestDatabase {
            url: String::new(),
            backend: None,
            sqlite_dir: None,
            postgres_name: None,
        }
    }

    /// The same database as `url`, owned elsewhere (a second instance's view of it).
    pub fn borrowed(url: &str) -> TestDatabase {
        TestDatabase {
            url: url.to_string(),
            ..TestDatabase::none()
        }
    }

    /// The backend, if any.
    pub fn backend(&self) -> Option<Backend> {
        self.backend
    }

    /// Remove the database.
    pub async fn drop_database(mut self) -> anyhow::Result<()> {
        if let Some(dir) = self.sqlite_dir.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
        if let Some(name) = self.postgres_name.take() {
            let mut conn = sqlx::PgConnection::connect(&postgres_admin_url()).await?;
            sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .execute(&mut conn)
                .await?;
            conn.close().await?;
        }
        Ok(())
    }
}
