//! The one place a store error becomes a wire error.

use riskintel_api::{ApiError, ErrorCode};

use crate::StoreError;

/// Seconds to wait after the database failed to answer.
pub const STORE_RETRY_AFTER: u64 = 5;

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Unavailable(_) => ApiError::new(
                ErrorCode::UpstreamUnavailable,
                "the database is temporarily unavailable; retry shortly",
            )
            .with_retry_after(STORE_RETRY_AFTER),
            StoreError::Conflict(what) => ApiError::new(ErrorCode::Conflict, what),
            StoreError::Unstorable(_) => ApiError::new(
                ErrorCode::BadRequest,
                "the request holds text that cannot be stored or looked up (a NUL character)",
            ),
            StoreError::UnsupportedUrl(_) | StoreError::Database(_) | StoreError::Corrupt(_) => {
                ApiError::new(ErrorCode::InternalError, "internal error")
            }
        }
    }
}
