//! The series the chain floor records, through the `metrics` facade:
//! requests to nodes, their calls and errors, and the market index's lag.
//! The server installs the recorder (and describes every series) before
//! anything is recorded; here only their names and labels are spelled.

use std::time::Duration;

use crate::Chain;

/// `riskintel_upstream_requests_total{chain, method}`.
pub const UPSTREAM_REQUESTS: &str = "riskintel_upstream_requests_total";
/// `riskintel_upstream_calls_total{chain, method}`.
pub const UPSTREAM_CALLS: &str = "riskintel_upstream_calls_total";
/// `riskintel_upstream_errors_total{chain, method, kind}`.
pub const UPSTREAM_ERRORS: &str = "riskintel_upstream_errors_total";
/// `riskintel_upstream_request_duration_seconds{chain, method}`.
pub const UPSTREAM_DURATION: &str = "riskintel_upstream_request_duration_seconds";
/// `riskintel_market_index_lag_blocks{chain}`.
pub const INDEX_LAG: &str = "riskintel_market_index_lag_blocks";

/// One HTTP request to `chain`'s node carrying `methods`, which took
/// `latency`; `failed` names the kind of a failure of the whole request.
pub fn upstream_request(chain: Chain, methods: &[&str], latency: Duration, failed: Option<&str>) {
    let method = request_method(methods);
    let label = chain.id();
    metrics::counter!(UPSTREAM_REQUESTS, "chain" => label, "method" => method.clone()).increment(1);
    metrics::histogram!(UPSTREAM_DURATION, "chain" => label, "method" => method.clone())
        .record(latency.as_secs_f64());
    // A batch is mostly one method many times: one increment per method.
    let mut counted: Vec<(&str, u64)> = Vec::new();
    for call in methods {
        match counted.iter_mut().find(|(method, _)| method == call) {
            Some((_, n)) => *n += 1,
            None => counted.push((call, 1)),
        }
    }
    for (call, n) in counted {
        metrics::counter!(UPSTREAM_CALLS, "chain" => label, "method" => call.to_string())
            .increment(n);
    }
    if let Some(kind) = failed {
        upstream_error(chain, &method, kind);
    }
}

/// A request not sent: `chain`'s node is marked down.
pub fn upstream_refused(chain: Chain, methods: &[&str]) {
    upstream_error(chain, &request_method(methods), "refused");
}

/// One JSON-RPC call that `chain`'s node answered with an error.
pub fn upstream_error(chain: Chain, method: &str, kind: &str) {
    metrics::counter!(UPSTREAM_ERRORS, "chain" => chain.id(), "method" => method.to_string(), "kind" => kind.to_string())
        .increment(1);
}

/// The method label of a request: its one method, or `batch`.
fn request_method(methods: &[&str]) -> String {
    match methods.split_first() {
        Some((first, rest)) if rest.iter().all(|m| m == first) => first.to_string(),
        Some(_) => "batch".to_string(),
        None => "none".to_string(),
    }
}

/// The market index of `chain` is `blocks` behind its head.
pub fn index_lag(chain: Chain, blocks: u64) {
    metrics::gauge!(INDEX_LAG, "chain" => chain.id()).set(blocks as f64);
}

#[cfg(test)]
mod tests {
    use super::request_method;

    #[test]
    fn a_request_of_several_methods_is_a_batch() {
        assert_eq!(request_method(&["eth_call", "eth_call"]), "eth_call");
        assert_eq!(request_method(&["eth_call", "eth_getCode"]), "batch");
        assert_eq!(request_method(&[]), "none");
    }
}
