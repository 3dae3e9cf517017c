//! Responses that carry the rate-limit headers, on success and on error alike.
//!
//! dropshot's error types cannot set headers, so every authenticated
//! operation returns [`Metered`]: it documents the typed success response
//! with [`RateLimitHeaders`], and sends an error envelope with the same
//! headers (plus `Retry-After` where it applies) when the outcome is an error.

use dropshot::{
    ApiEndpointResponse, Body, HttpCodedResponse, HttpError, HttpResponse, HttpResponseHeaders,
};
use http::{HeaderValue, StatusCode};
use schemars::JsonSchema;
use serde::Serialize;

use crate::error::ApiError;

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

impl RateLimitHeaders {
    /// Headers for a window of `limit` requests, `remaining` left, ending at `reset` (unix seconds).
    pub fn new(limit: u64, remaining: u64, reset: i64) -> Self {
        RateLimitHeaders {
            limit: limit.to_string(),
            remaining: remaining.to_string(),
            reset: reset.to_string(),
        }
    }
}

/// An error's body in another form than the JSON envelope: its content
/// type and bytes, from the status and message (the badge's SVG).
pub type ErrorBody = fn(u16, &str) -> (&'static str, Vec<u8>);

/// The outcome of an authenticated operation, with its rate-limit headers.
pub struct Metered<R: HttpCodedResponse> {
    outcome: Result<R, ApiError>,
    headers: Option<RateLimitHeaders>,
    success_headers: http::HeaderMap,
    error_body: Option<ErrorBody>,
    not_modified: bool,
}

impl<R: HttpCodedResponse> Metered<R> {
    /// A response with the given outcome and no headers yet.
    pub fn new(outcome: Result<R, ApiError>) -> Self {
        Metered {
            outcome,
            headers: None,
            success_headers: http::HeaderMap::new(),
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
    pub fn with_rate_limit(mut self, headers: RateLimitHeaders) -> Self {
        self.headers = Some(headers);
        self
    }

    /// Headers set on a successful answer only (replacing the body's own,
    /// e.g. `Content-Type` of an image).
    pub fn with_success_header(
        mut self,
        name: http::header::HeaderName,
        value: HeaderValue,
    ) -> Self {
        self.success_headers.insert(name, value);
        self
    }

    /// The outcome, for inspection.
    pub fn outcome(&self) -> &Result<R, ApiError> {
        &self.outcome
    }

    fn error_response(
        error: ApiError,
        headers: Option<RateLimitHeaders>,
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
            insert_rate_limit(map, &h);
        }
        if let Some(seconds) = error.retry_after {
            map.insert(http::header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        Ok(response)
    }
}

fn insert_rate_limit(map: &mut http::HeaderMap, h: &RateLimitHeaders) {
    for (name, value) in [
        ("x-ratelimit-limit", &h.limit),
        ("x-ratelimit-remaining", &h.remaining),
        ("x-ratelimit-reset", &h.reset),
    ] {
        if let Ok(value) = HeaderValue::from_str(value) {
            map.insert(name, value);
        }
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
                    insert_rate_limit(response.headers_mut(), &h);
                }
                for (name, value) in &success_headers {
                    response.headers_mut().insert(name, value.clone());
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
