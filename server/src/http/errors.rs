//! The one place domain errors become wire errors, and the error reference
//! page. The floors return their own typed errors and know no envelope; the
//! server's own errors convert by `From`, the floors' (`StoreError`,
//! `AnalysisError`) through [`Wire`], since the orphan rule forbids a `From`
//! between two other crates' types.

use riskintel_analysis::tokens::AnalysisError;
use riskintel_api::{ApiError, ErrorCode};
use riskintel_chains::rpc::RpcError;
use riskintel_store::StoreError;

use crate::disputes::DisputeError;
use crate::keys::KeyError;
use crate::metering::MeterError;
use crate::webhooks::WebhookError;

/// Seconds to wait after the database failed to answer.
pub const STORE_RETRY_AFTER: u64 = 5;

/// Seconds to wait after the chain's node could not be reached.
const UPSTREAM_RETRY_AFTER: u64 = 5;

/// A floor's error as the wire envelope: `error.wire()`, or
/// `result.map_err(Wire::wire)`.
pub trait Wire {
    /// The envelope this error answers with.
    fn wire(self) -> ApiError;
}

impl Wire for StoreError {
    fn wire(self) -> ApiError {
        match self {
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

impl Wire for AnalysisError {
    fn wire(self) -> ApiError {
        let message = self.to_string();
        match self {
            AnalysisError::Input(_) | AnalysisError::ChainNotServed(_) => {
                ApiError::new(ErrorCode::ValidationError, message)
            }
            AnalysisError::NotFound(_) => ApiError::new(ErrorCode::NotFound, message),
            AnalysisError::Rpc(RpcError::Upstream(_)) => {
                ApiError::new(ErrorCode::UpstreamError, message)
            }
            AnalysisError::Rpc(RpcError::Unavailable(_)) => {
                ApiError::new(ErrorCode::UpstreamUnavailable, message)
                    .with_retry_after(UPSTREAM_RETRY_AFTER)
            }
            AnalysisError::Store(store) => store.wire(),
        }
    }
}

impl From<KeyError> for ApiError {
    fn from(error: KeyError) -> Self {
        let message = error.to_string();
        match error {
            KeyError::Unauthenticated(_) => ApiError::new(ErrorCode::Unauthorized, message),
            KeyError::MissingScope(_) => ApiError::new(ErrorCode::Forbidden, message),
            KeyError::NotFound(_) => ApiError::new(ErrorCode::NotFound, message),
            KeyError::DuplicateName(_) | KeyError::WouldLockOut(_) => {
                ApiError::new(ErrorCode::Conflict, message)
            }
            KeyError::Invalid(_) => ApiError::new(ErrorCode::ValidationError, message),
            KeyError::Store(store) => store.wire(),
        }
    }
}

impl From<WebhookError> for ApiError {
    fn from(error: WebhookError) -> Self {
        let message = error.to_string();
        match error {
            WebhookError::NotFound(_) | WebhookError::EventNotFound(_) => {
                ApiError::new(ErrorCode::NotFound, message)
            }
            WebhookError::Invalid(_) => ApiError::new(ErrorCode::ValidationError, message),
            WebhookError::Conflict(_) => ApiError::new(ErrorCode::Conflict, message),
            WebhookError::Store(store) => store.wire(),
        }
    }
}

impl From<DisputeError> for ApiError {
    fn from(error: DisputeError) -> Self {
        let message = error.to_string();
        match error {
            DisputeError::NotFound(_) => ApiError::new(ErrorCode::NotFound, message),
            DisputeError::Invalid(_) => ApiError::new(ErrorCode::ValidationError, message),
            DisputeError::Conflict(_) => ApiError::new(ErrorCode::Conflict, message),
            DisputeError::Limited(seconds) => {
                ApiError::new(ErrorCode::RateLimited, message).with_retry_after(seconds)
            }
            DisputeError::Analysis(analysis) => analysis.wire(),
            DisputeError::Store(store) => store.wire(),
        }
    }
}

impl From<MeterError> for ApiError {
    fn from(error: MeterError) -> Self {
        let message = error.to_string();
        let retry_after = error.retry_after();
        let api = match error {
            MeterError::RateLimited { .. } | MeterError::AuthFailuresLimited { .. } => {
                ApiError::new(ErrorCode::RateLimited, message)
            }
            MeterError::QuotaExhausted { .. } => ApiError::new(ErrorCode::PaymentRequired, message),
            MeterError::PremiumRequired { .. } => {
                ApiError::new(ErrorCode::PremiumRequired, message)
            }
            MeterError::Store(store) => return store.wire(),
        };
        match retry_after {
            Some(seconds) => api.with_retry_after(seconds),
            None => api,
        }
    }
}

/// The error reference as an HTML page, one anchored section per code.
pub fn reference_html() -> String {
    let mut html = String::from(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Risk Intelligence Service API: error reference</title></head><body>\n\
         <h1>Error reference</h1>\n<p>Every error body is <code>{\"error\": {\"code\", \"message\", \
         \"docs_url\"}}</code>. Handle errors by <code>code</code>.</p>\n",
    );
    for code in ErrorCode::ALL {
        html.push_str(&format!(
            "<section id=\"{}\"><h2>{} ({})</h2><p>{}</p><p><strong>What to do:</strong> {}</p></section>\n",
            code.anchor(),
            code.as_str(),
            code.status(),
            code.meaning(),
            code.remedy()
        ));
    }
    html.push_str("</body></html>\n");
    html
}

#[cfg(test)]
mod tests {
    use riskintel_api::{ErrorCode, Plan};

    use super::*;
    use crate::metering::Meter;
    use riskintel_store::Account;

    fn account(plan: Plan) -> Account {
        Account {
            id: "acct_x".into(),
            name: "x".into(),
            plan,
            created_at: chrono::Utc::now(),
        }
    }

    #[test]
    fn premium_helper_refuses_free_with_premium_required() {
        let refused =
            Meter::require_premium(&account(Plan::Free), "the risk-alert feed").unwrap_err();
        let wire = ApiError::from(refused);
        assert_eq!(wire.code(), ErrorCode::PremiumRequired);
        assert_eq!(wire.http_status(), 403);
        assert!(wire
            .error
            .message
            .contains("the risk-alert feed needs the Pro or Pro+ plan"));
        assert!(Meter::require_premium(&account(Plan::Pro), "x").is_ok());
        assert!(Meter::require_premium(&account(Plan::ProPlus), "x").is_ok());
    }

    #[test]
    fn unavailable_database_is_503_with_retry_after() {
        let wire = StoreError::Unavailable("gone".into()).wire();
        assert_eq!(wire.code(), ErrorCode::UpstreamUnavailable);
        assert_eq!(wire.retry_after, Some(STORE_RETRY_AFTER));
        let wire = StoreError::Database("syntax".into()).wire();
        assert_eq!(wire.code(), ErrorCode::InternalError);
        assert!(
            !wire.error.message.contains("syntax"),
            "internals are not shown"
        );
    }

    #[test]
    fn a_database_outage_in_any_domain_is_503_with_retry_after() {
        let wire = AnalysisError::Store(StoreError::Unavailable("pool closed".into())).wire();
        assert_eq!(wire.code(), ErrorCode::UpstreamUnavailable);
        assert_eq!(wire.retry_after, Some(STORE_RETRY_AFTER));
        let wire = ApiError::from(MeterError::Store(StoreError::Unavailable(
            "pool closed".into(),
        )));
        assert_eq!(wire.code(), ErrorCode::UpstreamUnavailable);
    }

    #[test]
    fn reference_has_an_entry_per_code() {
        let html = reference_html();
        for code in ErrorCode::ALL {
            assert!(html.contains(&format!("id=\"{}\"", code.anchor())));
        }
        let markdown = include_str!("../../../docs/errors.md");
        for code in ErrorCode::ALL {
            assert!(
                markdown.contains(&format!("## {}", code.as_str())),
                "docs/errors.md lacks {}",
                code.as_str()
            );
        }
    }
}
