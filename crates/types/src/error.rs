//! What every error envelope holds: its code and its detail. (The envelope
//! itself, `riskintel_types::ApiError`, sits with the HTTP trait: dropshot
//! requires its error type to convert from dropshot's own errors.)

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Machine-readable error code. Handle errors by this value, never by the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// 400: the request is malformed (unparsable body, missing parameter, key in the query string).
    BadRequest,
    /// 401: the `x-api-key` header is missing, or the key is unknown, revoked or expired.
    Unauthorized,
    /// 402: the free plan's monthly quota is used up; upgrade to continue.
    PaymentRequired,
    /// 403: the key is valid but lacks the scope this operation needs.
    Forbidden,
    /// 403: the operation needs the Pro or Pro+ plan.
    PremiumRequired,
    /// 404: the resource does not exist (or belongs to another account).
    NotFound,
    /// 409: the resource already exists, for example a duplicate key name.
    Conflict,
    /// 422: a parameter value failed validation; the message names the parameter and the rule.
    ValidationError,
    /// 429: too many requests; wait for the number of seconds in `Retry-After`.
    RateLimited,
    /// 500: unexpected server error; retry with exponential back-off.
    InternalError,
    /// 502: the on-chain data provider answered with an error.
    UpstreamError,
    /// 503: the on-chain data provider (or a service we depend on) is temporarily unavailable.
    UpstreamUnavailable,
}

impl ErrorCode {
    /// Every code, in the order of the error reference.
    pub const ALL: [ErrorCode; 12] = [
        ErrorCode::BadRequest,
        ErrorCode::Unauthorized,
        ErrorCode::PaymentRequired,
        ErrorCode::Forbidden,
        ErrorCode::PremiumRequired,
        ErrorCode::NotFound,
        ErrorCode::Conflict,
        ErrorCode::ValidationError,
        ErrorCode::RateLimited,
        ErrorCode::InternalError,
        ErrorCode::UpstreamError,
        ErrorCode::UpstreamUnavailable,
    ];

    /// The code as it appears on the wire, e.g. `RATE_LIMITED`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "BAD_REQUEST",
            ErrorCode::Unauthorized => "UNAUTHORIZED",
            ErrorCode::PaymentRequired => "PAYMENT_REQUIRED",
            ErrorCode::Forbidden => "FORBIDDEN",
            ErrorCode::PremiumRequired => "PREMIUM_REQUIRED",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::Conflict => "CONFLICT",
            ErrorCode::ValidationError => "VALIDATION_ERROR",
            ErrorCode::RateLimited => "RATE_LIMITED",
            ErrorCode::InternalError => "INTERNAL_ERROR",
            ErrorCode::UpstreamError => "UPSTREAM_ERROR",
            ErrorCode::UpstreamUnavailable => "UPSTREAM_UNAVAILABLE",
        }
    }

    /// The HTTP status this code is always sent with.
    pub fn status(self) -> u16 {
        match self {
            ErrorCode::BadRequest => 400,
            ErrorCode::Unauthorized => 401,
            ErrorCode::PaymentRequired => 402,
            ErrorCode::Forbidden | ErrorCode::PremiumRequired => 403,
            ErrorCode::NotFound => 404,
            ErrorCode::Conflict => 409,
            ErrorCode::ValidationError => 422,
            ErrorCode::RateLimited => 429,
            ErrorCode::InternalError => 500,
            ErrorCode::UpstreamError => 502,
            ErrorCode::UpstreamUnavailable => 503,
        }
    }

    /// The anchor of this code's entry in the error reference (`rate_limited`).
    pub fn anchor(self) -> String {
        self.as_str().to_ascii_lowercase()
    }

    /// One sentence on what the code means, as printed in the error reference.
    pub fn meaning(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "The request is malformed: a body that is not valid JSON for the operation, a missing required parameter, or an API key sent in the URL query string.",
            ErrorCode::Unauthorized => "The x-api-key header is missing, or the key is unknown, revoked, expired, or a rotated key whose 24-hour grace period has ended.",
            ErrorCode::PaymentRequired => "The free plan's monthly quota of included requests is used up.",
            ErrorCode::Forbidden => "The key is valid but does not hold the scope this operation needs.",
            ErrorCode::PremiumRequired => "The operation (or option) is available on the Pro and Pro+ plans only.",
            ErrorCode::NotFound => "The resource does not exist, or belongs to another account.",
            ErrorCode::Conflict => "The resource already exists, for example an API key with the same name in this account.",
            ErrorCode::ValidationError => "A parameter value failed validation; the message names the parameter and the rule it broke.",
            ErrorCode::RateLimited => "Too many requests: the per-minute limit of the account's plan, the per-IP limit on failed authentication, or the account's 50 reports of verdicts in 24 hours, was exceeded.",
            ErrorCode::InternalError => "An unexpected error on our side.",
            ErrorCode::UpstreamError => "The on-chain data provider answered with an error or with data that could not be decoded.",
            ErrorCode::UpstreamUnavailable => "A service the request depends on (the on-chain data provider, or the database) is unreachable or timed out.",
        }
    }

    /// What a client should do about it, as printed in the error reference.
    pub fn remedy(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "Fix the request as the message says; do not retry it unchanged. Send keys only in the x-api-key header.",
            ErrorCode::Unauthorized => "Send a current key in the x-api-key header. After a rotation, switch to the new key within 24 hours.",
            ErrorCode::PaymentRequired => "Wait for the next UTC calendar month, or ask for the Pro plan (500,000 included requests).",
            ErrorCode::Forbidden => "Use a key created with the scope the message names.",
            ErrorCode::PremiumRequired => "Upgrade the account to Pro or Pro+.",
            ErrorCode::NotFound => "Check the identifier; do not retry unchanged.",
            ErrorCode::Conflict => "Choose another name, or use the existing resource.",
            ErrorCode::ValidationError => "Correct the parameter named in the message.",
            ErrorCode::RateLimited => "Wait the number of seconds in the Retry-After header before retrying; upgrade the plan for a higher limit.",
            ErrorCode::InternalError => "Retry with exponential back-off; report the x-request-id header if it persists.",
            ErrorCode::UpstreamError => "Retry later with back-off; the provider's answer is named in the message.",
            ErrorCode::UpstreamUnavailable => "Wait the number of seconds in the Retry-After header, then retry.",
        }
    }

    /// The code an error status raised outside the service's own errors
    /// (dropshot's extractors) maps to.
    pub fn from_status(status: u16) -> ErrorCode {
        match status {
            401 => ErrorCode::Unauthorized,
            402 => ErrorCode::PaymentRequired,
            403 => ErrorCode::Forbidden,
            404 | 405 => ErrorCode::NotFound,
            409 => ErrorCode::Conflict,
            422 => ErrorCode::ValidationError,
            429 => ErrorCode::RateLimited,
            502 => ErrorCode::UpstreamError,
            503 => ErrorCode::UpstreamUnavailable,
            400..=499 => ErrorCode::BadRequest,
            _ => ErrorCode::InternalError,
        }
    }
}

/// What went wrong, for programs (`code`) and for people (`message`, `docs_url`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ErrorDetail {
    /// Machine-readable error code.
    pub code: ErrorCode,
    /// Human-readable explanation of this particular failure.
    pub message: String,
    /// Link to this code's entry in the error reference.
    pub docs_url: String,
}
