//! Responses that carry the rate-limit headers, on success and on error alike.
//!
//! dropshot's error types cannot set headers, so every authenticated
//! operation returns [`Metered`]: it documents the typed success response
//! with [`RateLimitHeaders`], and sends an error envelope with the same
//! headers (plus `Retry-After` where it applies) when the outcome is an error.

use dropshot::{
    ApiEndpointResponse, Body, HttpCodedResponse, HttpError, HttpResponse, HttpResponseHeaders,
};
use http::header::HeaderName;
use http::{HeaderValue, StatusCode};
use schemars::JsonSchema;
use serde::Serialize;

use crate::error::ApiError;
use crate::header_cache::{written, HeaderCache};

type HttpHandlerResult = Result<http::Response<Body>, HttpError>;

/// Rate-limit state of the window this request was counted in.
///
/// For a request that failed authentication, the window is the client IP's
/// failed-authentication window.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct RateLimitHeaders {
    /// Maximum requests allowed in the current one-minute window.
    #[serde(rename = "X-RateLimit-Limit")]
    pub limit: String,
    /// Requests left in the current window.
    #[serde(rename = "X-RateLimit-Remaining")]
    pub remaining: String,
    /// Unix time (seconds) at which the current window ends.
    #[serde(rename = "X-RateLimit-Reset")]
    pub reset: String,
}

/// The rate-limit state an answer carries, as numbers; written as the
/// headers [`RateLimitHeaders`] documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimit {
    /// Requests allowed in the window.
    pub limit: u64,
    /// Requests left in it.
    pub remaining: u64,
    /// Unix time (seconds) at which it ends.
    pub reset: i64,
}

// Names made once: a name from a string is copied on every insertion.
const LIMIT: HeaderName = HeaderName::from_static("x-ratelimit-limit");
const REMAINING: HeaderName = HeaderName::from_static("x-ratelimit-remaining");
const RESET: HeaderName = HeaderName::from_static("x-ratelimit-reset");

/// Limits and window ends: a few values, repeated by every request.
static REPEATED: HeaderCache<i64, 8> = HeaderCache::new();

impl RateLimit {
    fn insert_into(&self, map: &mut http::HeaderMap) {
        let number = |n: &dyn std::fmt::Display| {
            written(format_args!("{n}")).expect("digits are a valid header value")
        };
        let repeated = |n: i64| REPEATED.get_or(&n, || Some(number(&n))).expect("made");
        map.insert(
            LIMIT,
            repeated(i64::try_from(self.limit).unwrap_or(i64::MAX)),
        );
        map.insert(REMAINING, number(&self.remaining));
        map.insert(RESET, repeated(self.reset));
    }
}

/// Headers set on a success only: at most this many.
const SUCCESS_HEADERS: usize = 4;

/// An error's body in another form than the JSON envelope: its content
/// type and bytes, from the status and message (the badge's SVG).
pub type ErrorBody = fn(u16, &str) -> (&'static str, Vec<u8>);

/// The outcome of an authenticated operation, with its rate-limit headers.
pub struct Metered<R: HttpCodedResponse> {
    outcome: Result<R, ApiError>,
    headers: Option<RateLimit>,
    success_headers: [Option<(HeaderName, HeaderValue)>; SUCCESS_HEADERS],
    error_body: Option<ErrorBody>,
    not_modified: bool,
}

impl<R: HttpCodedResponse> Metered<R> {
    /// A response with the given outcome and no headers yet.
    pub fn new(outcome: Result<R, ApiError>) -> Self {
        Metered {
            outcome,
            headers: None,
            success_headers: Default::default(),
            error_body: None,
            not_modified: false,
        }
    }

    /// Answer a success as 304 Not Modified: no body, the success headers
    /// (`ETag`, `Cache-Control`) and the rate-limit headers as ever.
    pub fn not_modified(mut self) -> Self {
        self.not_modified = true;
        self
    }

    /// Send an error as `body` makes it (same status and headers) instead of
    /// the JSON envelope.
    pub fn with_error_body(mut self, body: ErrorBody) -> Self {
        self.error_body = Some(body);
        self
    }

    /// Attach the rate-limit headers.
    pub fn with_rate_limit(mut self, headers: RateLimit) -> Self {
        self.headers = Some(headers);
        self
    }

    /// Headers set on a successful answer only (replacing the body's own,
    /// e.g. `Content-Type` of an image); a name set again is replaced. At
    /// most [`SUCCESS_HEADERS`] names (kept in place, not in a map of
    /// their own: an answer's headers cost no allocation beyond their values).
    pub fn with_success_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        let slot = (self.success_headers.iter())
            .position(|s| s.as_ref().is_none_or(|(n, _)| *n == name))
            .expect("at most SUCCESS_HEADERS success headers");
        self.success_headers[slot] = Some((name, value));
        self
    }

    /// The outcome, for inspection.
    pub fn outcome(&self) -> &Result<R, ApiError> {
        &self.outcome
    }

    fn error_response(
        error: ApiError,
        headers: Option<RateLimit>,
        render: Option<ErrorBody>,
    ) -> HttpHandlerResult {
        let status = error.http_status();
        let (content_type, body) = match render {
            Some(render) => render(status.as_u16(), &error.error.message),
            None => (
                "application/json",
                serde_json::to_vec(&error).map_err(|e| {
                    HttpError::for_internal_error(format!("serialising error: {e}"))
                })?,
            ),
        };
        let mut response = http::Response::builder()
            .status(status)
            .header(http::header::CONTENT_TYPE, content_type)
            .body(Body::from(body))
            .map_err(|e| HttpError::for_internal_error(e.to_string()))?;
        let map = response.headers_mut();
        if let Some(h) = headers {
            h.insert_into(map);
        }
        if let Some(seconds) = error.retry_after {
            map.insert(http::header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        Ok(response)
    }
}

impl<R: HttpCodedResponse> HttpResponse for Metered<R> {
    fn to_result(self) -> HttpHandlerResult {
        let Metered {
            outcome,
            headers,
            success_headers,
            error_body,
            not_modified,
        } = self;
        match outcome {
            Ok(body) => {
                let mut response = if not_modified {
                    http::Response::builder()
                        .status(StatusCode::NOT_MODIFIED)
                        .body(Body::empty())
                        .map_err(|e| HttpError::for_internal_error(e.to_string()))?
                } else {
                    body.into()?
                };
                if let Some(h) = headers {
                    h.insert_into(response.headers_mut());
                }
                for (name, value) in success_headers.into_iter().flatten() {
                    response.headers_mut().insert(name, value);
                }
                Ok(response)
            }
            Err(error) => Self::error_response(error, headers, error_body),
        }
    }

    fn response_metadata() -> ApiEndpointResponse {
        HttpResponseHeaders::<R, RateLimitHeaders>::response_metadata()
    }

    fn status_code(&self) -> StatusCode {
        match &self.outcome {
            Ok(_) if self.not_modified => StatusCode::NOT_MODIFIED,
            Ok(_) => R::STATUS_CODE,
            Err(e) => e.http_status(),
        }
    }
}
