//! The error envelope every failed request answers with.

use std::sync::OnceLock;

use dropshot::{ErrorStatusCode, HttpError, HttpResponseError};
use riskintel_types::{ErrorCode, ErrorDetail};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The body of every error response.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ApiError {
    /// What went wrong.
    pub error: ErrorDetail,
    /// Seconds the client should wait before retrying; sent as `Retry-After`.
    #[serde(skip)]
    #[schemars(skip)]
    pub retry_after: Option<u64>,
}

static DOCS_BASE_URL: OnceLock<String> = OnceLock::new();

/// Where the error reference is published; `docs_url` is this plus `#<code>`.
/// The first call in a process wins; later calls are ignored.
pub fn set_docs_base_url(url: &str) {
    let _ = DOCS_BASE_URL.set(url.trim_end_matches('/').to_string());
}

/// The base of every `docs_url`.
pub fn docs_base_url() -> &'static str {
    DOCS_BASE_URL
        .get()
        .map(String::as_str)
        .unwrap_or(DEFAULT_DOCS_BASE_URL)
}

/// Used until the server configures the published address of the reference.
pub const DEFAULT_DOCS_BASE_URL: &str = "http://127.0.0.1:8080/docs/errors";

impl ApiError {
    /// An error with this code and message; `docs_url` is filled in.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError {
            error: ErrorDetail {
                code,
                message: message.into(),
                docs_url: format!("{}#{}", docs_base_url(), code.anchor()),
            },
            retry_after: None,
        }
    }

    /// The same error, telling the client to retry after `seconds`.
    pub fn with_retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// The code of this error.
    pub fn code(&self) -> ErrorCode {
        self.error.code
    }

    /// The HTTP status of this error.
    pub fn http_status(&self) -> http::StatusCode {
        http::StatusCode::from_u16(self.error.code.status())
            .expect("every error code has a valid status")
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.error.code.as_str(), self.error.message)
    }
}

impl std::error::Error for ApiError {}

impl HttpResponseError for ApiError {
    fn status_code(&self) -> ErrorStatusCode {
        ErrorStatusCode::from_u16(self.error.code.status())
            .expect("every error code is a 4xx or 5xx status")
    }
}

/// Errors dropshot raises itself (path, query and body extraction) keep their
/// message but take our envelope.
impl From<HttpError> for ApiError {
    fn from(error: HttpError) -> Self {
        let code = ErrorCode::from_status(error.status_code.as_u16());
        let message = if code == ErrorCode::InternalError {
            "internal error".to_string()
        } else {
            error.external_message
        };
        ApiError::new(code, message)
    }
}
