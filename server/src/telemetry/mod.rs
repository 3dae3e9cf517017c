//! Metrics in the Prometheus text format, through the `metrics` facade and
//! its Prometheus exporter: one process-wide recorder, the named series the
//! service records (this module is the only place their names and labels
//! are spelled), and the separate listener that serves them
//! ([`endpoint::serve`]).
//!
//! Every label takes its values from a closed set (operation ids, status
//! codes, configured chains, the JSON-RPC methods the code calls), so the
//! number of series stays bounded whatever clients send.

pub mod endpoint;

use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};
use std::time::Duration;

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

/// Histogram buckets, in seconds: from a cached answer (sub-millisecond)
/// to an analysis at its deadline.
const LATENCY_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 15.0,
];

/// The process's recorder, installed on first use. Several servers in one
/// process (the tests) share it, as they share the process.
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new()
            .set_buckets(&LATENCY_BUCKETS)
            .expect("the latency buckets are not empty");
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        // Another recorder installed first (an embedding program's) keeps
        // its place; this one still renders what is recorded through it.
        let _ = metrics::set_global_recorder(recorder);
        describe();
        handle
    })
}

/// The help text of every series.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(REQUESTS, "API requests answered, by operation and status");
    describe_histogram!(
        REQUEST_DURATION,
        Unit::Seconds,
        "Time to answer an API request, by operation"
    );
    describe_counter!(
        UPSTREAM_REQUESTS,
        "HTTP requests to chain nodes, by chain and JSON-RPC method (`batch` for several methods)"
    );
    describe_counter!(
        UPSTREAM_CALLS,
        "JSON-RPC calls sent to chain nodes (a batch counts each), by chain and method"
    );
    describe_counter!(
        UPSTREAM_ERRORS,
        "Failed JSON-RPC requests and calls, by chain, method and kind (unavailable: not reached or timed out; upstream: the node's error; refused: not sent, the node being marked down)"
    );
    describe_histogram!(
        UPSTREAM_DURATION,
        Unit::Seconds,
        "Time of one HTTP request to a chain node, by chain and method"
    );
    describe_counter!(
        ANALYSIS_CACHE,
        "Token analyses asked for, by outcome: hit (memory or store), miss (analysed now), joined (waited for the same analysis under way), stale (an earlier result while the chain is down)"
    );
    describe_gauge!(
        INDEX_LAG,
        "Blocks the market index is behind the chain's head"
    );
    describe_gauge!(
        FLUSH_LAG,
        Unit::Seconds,
        "Seconds since usage counts were last written to the database"
    );
    describe_gauge!(
        CONNECTIONS,
        "Client connections open on the public listener"
    );
    describe_counter!(
        WEBHOOK_DELIVERIES,
        "Webhook delivery attempts, by outcome: delivered (2xx), retry (failed, tried again later), failed (failed, no more attempts)"
    );
    describe_histogram!(
        WEBHOOK_DURATION,
        Unit::Seconds,
        "Time of one webhook delivery attempt, until the receiver's answer or the failure"
    );
}

/// `riskintel_http_requests_total{operation, status}`.
pub const REQUESTS: &str = "riskintel_http_requests_total";
/// `riskintel_http_request_duration_seconds{operation}`.
pub const REQUEST_DURATION: &str = "riskintel_http_request_duration_seconds";
/// `riskintel_upstream_requests_total{chain, method}`.
pub const UPSTREAM_REQUESTS: &str = "riskintel_upstream_requests_total";
/// `riskintel_upstream_calls_total{chain, method}`.
pub const UPSTREAM_CALLS: &str = "riskintel_upstream_calls_total";
/// `riskintel_upstream_errors_total{chain, method, kind}`.
pub const UPSTREAM_ERRORS: &str = "riskintel_upstream_errors_total";
/// `riskintel_upstream_request_duration_seconds{chain, method}`.
pub const UPSTREAM_DURATION: &str = "riskintel_upstream_request_duration_seconds";
/// `riskintel_analysis_cache_total{outcome}`.
pub const ANALYSIS_CACHE: &str = "riskintel_analysis_cache_total";
/// `riskintel_market_index_lag_blocks{chain}`.
pub const INDEX_LAG: &str = "riskintel_market_index_lag_blocks";
/// `riskintel_usage_flush_lag_seconds`.
pub const FLUSH_LAG: &str = "riskintel_usage_flush_lag_seconds";
/// `riskintel_open_connections`.
pub const CONNECTIONS: &str = "riskintel_open_connections";
/// `riskintel_webhook_deliveries_total{outcome}`.
pub const WEBHOOK_DELIVERIES: &str = "riskintel_webhook_deliveries_total";
/// `riskintel_webhook_delivery_duration_seconds`.
pub const WEBHOOK_DURATION: &str = "riskintel_webhook_delivery_duration_seconds";

/// The series of one operation and status, made once: every request then
/// records without allocating or looking its series up.
type RequestSeries = (metrics::Counter, metrics::Histogram);

/// An API request answered with `status` after `latency`.
pub fn request_answered(operation: &str, status: u16, latency: Duration) {
    static SERIES: OnceLock<RwLock<HashMap<String, HashMap<u16, RequestSeries>>>> = OnceLock::new();
    let series = SERIES.get_or_init(Default::default);
    let known = series
        .read()
        .expect("request series lock")
        .get(operation)
        .and_then(|statuses| statuses.get(&status))
        .cloned();
    let (count, duration) = known.unwrap_or_else(|| {
        handle();
        let made = (
            metrics::counter!(REQUESTS, "operation" => operation.to_string(), "status" => status.to_string()),
            metrics::histogram!(REQUEST_DURATION, "operation" => operation.to_string()),
        );
        series
            .write()
            .expect("request series lock")
            .entry(operation.to_string())
            .or_default()
            .insert(status, made.clone());
        made
    });
    count.increment(1);
    duration.record(latency.as_secs_f64());
}

/// The outcome of asking for a token's analysis.
#[derive(Clone, Copy, Debug)]
pub enum CacheOutcome {
    /// Served from this instance's memory.
    MemoryHit,
    /// Served from the shared store.
    StoreHit,
    /// Analysed now.
    Miss,
    /// Joined the same analysis under way.
    Joined,
    /// An earlier result, the chain being down.
    Stale,
}

/// A token analysis asked for.
pub fn analysis(outcome: CacheOutcome) {
    static COUNTERS: OnceLock<[metrics::Counter; 5]> = OnceLock::new();
    let counters = COUNTERS.get_or_init(|| {
        handle();
        ["memory_hit", "store_hit", "miss", "joined", "stale"]
            .map(|outcome| metrics::counter!(ANALYSIS_CACHE, "outcome" => outcome))
    });
    counters[outcome as usize].increment(1);
}

/// One HTTP request to `chain`'s node carrying `methods`, which took
/// `latency`; `failed` names the kind of a failure of the whole request.
pub fn upstream_request(chain: &str, methods: &[&str], latency: Duration, failed: Option<&str>) {
    handle();
    let method = request_method(methods);
    let chain = chain.to_string();
    metrics::counter!(UPSTREAM_REQUESTS, "chain" => chain.clone(), "method" => method.clone())
        .increment(1);
    metrics::histogram!(UPSTREAM_DURATION, "chain" => chain.clone(), "method" => method.clone())
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
        metrics::counter!(UPSTREAM_CALLS, "chain" => chain.clone(), "method" => call.to_string())
            .increment(n);
    }
    if let Some(kind) = failed {
        upstream_error(&chain, &method, kind);
    }
}

/// A request not sent: `chain`'s node is marked down.
pub fn upstream_refused(chain: &str, methods: &[&str]) {
    upstream_error(chain, &request_method(methods), "refused");
}

/// One JSON-RPC call that the node answered with an error.
pub fn upstream_error(chain: &str, method: &str, kind: &str) {
    handle();
    metrics::counter!(UPSTREAM_ERRORS, "chain" => chain.to_string(), "method" => method.to_string(), "kind" => kind.to_string())
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
pub fn index_lag(chain: &str, blocks: u64) {
    handle();
    metrics::gauge!(INDEX_LAG, "chain" => chain.to_string()).set(blocks as f64);
}

/// Usage counts were last written `lag` ago.
pub fn flush_lag(lag: Duration) {
    handle();
    metrics::gauge!(FLUSH_LAG).set(lag.as_secs_f64());
}

/// A client connection opened (`+1`) or closed (`-1`).
pub fn connections(change: f64) {
    handle();
    metrics::gauge!(CONNECTIONS).increment(change);
}

/// One webhook delivery attempt, by outcome (`delivered`, `retry`, `failed`).
pub fn webhook_attempt(outcome: &'static str, took: Duration) {
    handle();
    metrics::counter!(WEBHOOK_DELIVERIES, "outcome" => outcome).increment(1);
    metrics::histogram!(WEBHOOK_DURATION).record(took.as_secs_f64());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_of_several_methods_is_a_batch() {
        assert_eq!(request_method(&["eth_call", "eth_call"]), "eth_call");
        assert_eq!(request_method(&["eth_call", "eth_getCode"]), "batch");
        assert_eq!(request_method(&[]), "none");
    }

    #[test]
    fn recorded_series_render_in_the_text_format() {
        request_answered("token_analyze", 200, Duration::from_millis(3));
        upstream_request(
            "eth",
            &["eth_call", "eth_getCode"],
            Duration::from_millis(5),
            Some("unavailable"),
        );
        let text = handle().render();
        assert!(
            text.contains("# TYPE riskintel_http_requests_total counter"),
            "{text}"
        );
        assert!(
            text.contains(
                r#"riskintel_http_requests_total{operation="token_analyze",status="200"}"#
            ),
            "{text}"
        );
        assert!(
            text.contains(r#"riskintel_http_request_duration_seconds_bucket{operation="token_analyze",le="0.005"}"#),
            "{text}"
        );
        assert!(
            text.contains(
                r#"riskintel_upstream_errors_total{chain="eth",method="batch",kind="unavailable"}"#
            ),
            "{text}"
        );
        assert!(
            text.contains(r#"riskintel_upstream_calls_total{chain="eth",method="eth_getCode"}"#),
            "{text}"
        );
    }
}
