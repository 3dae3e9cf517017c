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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{OnceLock, RwLock};
use std::time::Duration;

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
pub use riskintel_analysis::metrics::{analysis, CacheOutcome, ANALYSIS_CACHE};
pub use riskintel_chains::metrics::{
    index_lag, upstream_error, upstream_refused, upstream_request, INDEX_LAG, UPSTREAM_CALLS,
    UPSTREAM_DURATION, UPSTREAM_ERRORS, UPSTREAM_REQUESTS,
};

/// Histogram buckets, in seconds: from a cached answer (sub-millisecond)
/// to an analysis at its deadline.
const LATENCY_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 15.0,
];

/// How often the recorder's histograms are drained into their buckets,
/// whether or not anything scrapes `/metrics`: the exporter keeps every
/// sample until an upkeep, so a server nobody scrapes would otherwise grow
/// with every request.
pub const UPKEEP_EVERY: Duration = Duration::from_secs(1);

/// Upkeeps the schedule has run in this process (a scrape's are not counted).
static SCHEDULED_UPKEEPS: AtomicU64 = AtomicU64::new(0);

/// The schedule's upkeep: drain the recorded samples into the histograms' buckets.
pub fn scheduled_upkeep() {
    handle().run_upkeep();
    SCHEDULED_UPKEEPS.fetch_add(1, Ordering::Relaxed);
}

/// Upkeeps the schedule has run so far in this process.
pub fn scheduled_upkeeps() -> u64 {
    SCHEDULED_UPKEEPS.load(Ordering::Relaxed)
}

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
    describe_gauge!(
        BACKGROUND_TASKS,
        "1 while a background task runs (market index, webhook worker, usage flush, rate sync, key sync, leases, pruning), 0 once it ended"
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
    describe_gauge!(
        REPORTS,
        "Users' reports of verdicts, by kind and status, as the database holds them"
    );
    describe_gauge!(
        OVERRIDES_IN_FORCE,
        "The operator's overrides of tokens' labels in force"
    );
    describe_gauge!(
        LEASES,
        "1 while this instance holds the lease (market:<chain>: it runs that chain's market index; maintenance: it prunes), 0 while another instance does"
    );
    describe_counter!(
        SCREENING_REFRESHES,
        "Reads of a sanctions list's source, by list and outcome (replaced, unchanged, failed, refused); a failed or refused read keeps the previous list"
    );
    describe_gauge!(
        SCREENING_ENTRIES,
        "Addresses this instance screens against, over every sanctions list"
    );
}

/// `riskintel_http_requests_total{operation, status}`.
pub const REQUESTS: &str = "riskintel_http_requests_total";
/// `riskintel_http_request_duration_seconds{operation}`.
pub const REQUEST_DURATION: &str = "riskintel_http_request_duration_seconds";
/// `riskintel_usage_flush_lag_seconds`.
pub const FLUSH_LAG: &str = "riskintel_usage_flush_lag_seconds";
/// `riskintel_open_connections`.
pub const CONNECTIONS: &str = "riskintel_open_connections";
/// `riskintel_background_task_running{task}`.
pub const BACKGROUND_TASKS: &str = "riskintel_background_task_running";
/// `riskintel_webhook_deliveries_total{outcome}`.
pub const WEBHOOK_DELIVERIES: &str = "riskintel_webhook_deliveries_total";
/// `riskintel_webhook_delivery_duration_seconds`.
pub const WEBHOOK_DURATION: &str = "riskintel_webhook_delivery_duration_seconds";

/// `riskintel_reports{kind, status}`.
pub const REPORTS: &str = "riskintel_reports";
/// `riskintel_overrides_in_force`.
pub const OVERRIDES_IN_FORCE: &str = "riskintel_overrides_in_force";
/// `riskintel_lease_held{lease}`.
pub const LEASES: &str = "riskintel_lease_held";

/// `riskintel_screening_refreshes_total{list, outcome}`.
pub const SCREENING_REFRESHES: &str = "riskintel_screening_refreshes_total";
/// `riskintel_screening_entries`.
pub const SCREENING_ENTRIES: &str = "riskintel_screening_entries";

/// A sanctions list's source was read, with `outcome`.
pub fn screening_refresh(list: &str, outcome: &'static str) {
    handle();
    metrics::counter!(SCREENING_REFRESHES, "list" => list.to_string(), "outcome" => outcome)
        .increment(1);
}

/// The addresses this instance screens against.
pub fn screening_entries(addresses: usize) {
    handle();
    metrics::gauge!(SCREENING_ENTRIES).set(addresses as f64);
}

/// Whether this instance holds the lease `name` now.
pub fn lease_held(name: &str, held: bool) {
    handle();
    metrics::gauge!(LEASES, "lease" => name.to_string()).set(if held { 1.0 } else { 0.0 });
}

/// The reports the database holds of `kind` with `status`.
pub fn reports(kind: riskintel_api::ReportKind, status: riskintel_api::ReportStatus, count: u64) {
    use riskintel_api::WireName as _;
    metrics::gauge!(REPORTS, "kind" => kind.wire_name(), "status" => status.wire_name())
        .set(count as f64);
}

/// The overrides in force.
pub fn overrides_in_force(count: usize) {
    metrics::gauge!(OVERRIDES_IN_FORCE).set(count as f64);
}

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

/// The background task `task` started (`true`) or ended.
pub fn background_task(task: &'static str, running: bool) {
    handle();
    metrics::gauge!(BACKGROUND_TASKS, "task" => task).set(if running { 1.0 } else { 0.0 });
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
    fn recorded_series_render_in_the_text_format() {
        request_answered("token_analyze", 200, Duration::from_millis(3));
        upstream_request(
            riskintel_chains::Chain::Eth,
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
