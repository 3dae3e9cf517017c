//! The one place an analysis error becomes a wire error.

use riskintel_api::{ApiError, ErrorCode};
use riskintel_chains::rpc::RpcError;

use super::AnalysisError;

/// Seconds to wait after the chain's node could not be reached.
const UPSTREAM_RETRY_AFTER: u64 = 5;

impl From<AnalysisError> for ApiError {
    fn from(error: AnalysisError) -> Self {
        let message = error.to_string();
        match error {
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
            AnalysisError::Store(store) => store.into(),
        }
    }
}
