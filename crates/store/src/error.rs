//! What can go wrong in storage, and how database failures are sorted.

/// What can go wrong in storage.
#[derive(Clone, Debug, thiserror::Error)]
pub enum StoreError {
    /// A uniqueness rule was broken (the one place unique violations are recognised).
    #[error("already exists: {0}")]
    Conflict(String),
    /// The database URL is not one we support.
    #[error("unsupported database URL {0:?}: use sqlite://PATH or postgres://…")]
    UnsupportedUrl(String),
    /// The database could not be reached or timed out.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// Any other database failure.
    #[error("database error: {0}")]
    Database(String),
    /// A stored value could not be understood.
    #[error("corrupt stored value: {0}")]
    Corrupt(String),
    /// A value the request carried cannot be stored or looked up (text
    /// with a NUL character, which PostgreSQL refuses).
    #[error("unstorable value: {0}")]
    Unstorable(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> Self {
        match &error {
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                StoreError::Conflict(db.message().to_string())
            }
            // PostgreSQL's character_not_in_repertoire: a NUL in text.
            sqlx::Error::Database(db) if db.code().as_deref() == Some("22021") => {
                StoreError::Unstorable(db.message().to_string())
            }
            sqlx::Error::Database(db) if is_outage(db.as_ref()) => {
                StoreError::Unavailable(error.to_string())
            }
            sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed => {
                StoreError::Unavailable(error.to_string())
            }
            sqlx::Error::ColumnDecode { .. } | sqlx::Error::Decode(_) => {
                StoreError::Corrupt(error.to_string())
            }
            _ => StoreError::Database(error.to_string()),
        }
    }
}

/// Whether a database error code means the database cannot serve now
/// (rather than that the statement is wrong): PostgreSQL's connection
/// exceptions (08…), insufficient resources such as a full disk (53…),
/// statement timeout (57014) and shutdowns (57P…); SQLite's busy, locked,
/// I/O error and full disk (primary codes 5, 6, 10, 13).
fn is_outage(error: &dyn sqlx::error::DatabaseError) -> bool {
    let Some(code) = error.code() else {
        return false;
    };
    if error
        .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
        .is_some()
    {
        return ["08", "53", "57"]
            .iter()
            .any(|class| code.starts_with(class));
    }
    code.parse::<u32>()
        .is_ok_and(|extended| matches!(extended & 0xff, 5 | 6 | 10 | 13))
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(error: sqlx::migrate::MigrateError) -> Self {
        StoreError::Database(format!("migration failed: {error}"))
    }
}
