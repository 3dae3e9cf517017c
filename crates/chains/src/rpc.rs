//! The one JSON-RPC client, for EVM and Solana nodes alike: batching,
//! per-request timeouts, bounded retries with back-off, a concurrency cap,
//! and error classification (the node's error or nonsense → `Upstream`;
//! refused, reset or timed out → `Unavailable`).
//!
//! A [`Batch`] hands out one typed [`Slot`] per call; each slot carries its
//! own decoder, so answers are taken by name, never by position.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use super::circuit::{Admission, Circuit};
use super::stale;

mod size;
use size::{cuts_by_size, MAX_BODY_BYTES};

/// What went wrong talking to a node.
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum RpcError {
    /// The node answered with an error, or with something that is not a JSON-RPC answer.
    #[error("upstream error: {0}")]
    Upstream(String),
    /// The node could not be reached, reset the connection, or timed out.
    #[error("upstream unavailable: {0}")]
    Unavailable(String),
}

/// Tuning of a client.
#[derive(Clone, Debug)]
pub struct RpcSettings {
    /// Timeout of one HTTP request.
    pub timeout: Duration,
    /// Retries after the first attempt, for unavailability only.
    pub retries: u32,
    /// First back-off; doubles each retry.
    pub backoff: Duration,
    /// Requests in flight at once.
    pub concurrency: usize,
}

/// A JSON-RPC client for one node.
pub struct RpcClient {
    http: reqwest::Client,
    url: String,
    settings: RpcSettings,
    circuit: Arc<Circuit>,
    permits: Semaphore,
    requests: AtomicU64,
    next_id: AtomicU64,
}

impl RpcClient {
    /// A client for the node at `url`, over a shared HTTP client, behind
    /// the chain's `circuit`.
    pub fn new(
        http: reqwest::Client,
        url: &str,
        settings: RpcSettings,
        circuit: Arc<Circuit>,
    ) -> RpcClient {
        RpcClient {
            http,
            url: url.to_string(),
            circuit,
            permits: Semaphore::new(settings.concurrency.max(1)),
            settings,
            requests: AtomicU64::new(0),
            next_id: AtomicU64::new(1),
        }
    }

    /// The chain's circuit.
    pub fn circuit(&self) -> &Arc<Circuit> {
        &self.circuit
    }

    /// HTTP requests made so far (for tests and benchmarks).
    pub fn requests_made(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    /// One call, its answer decoded as `T`.
    pub async fn call<T: DeserializeOwned>(
        &self,
        method: &str,
        params: Value,
    ) -> Result<T, RpcError> {
        let mut batch = Batch::new();
        let slot = batch.call(method, params);
        let mut answers = self.send(batch).await?;
        answers.take(slot)
    }

    /// Every call of `batch` in one HTTP request. The outer error (the
    /// node unavailable) fails them all; each slot then yields its own
    /// answer or error. A batch the node refuses whole (too large, or
    /// answered with one error) is sent again in halves, down to single
    /// calls, so each call gets its own answer or the node's words. Calls
    /// added with a fallback ([`Batch::call_or`]) that the node answered
    /// with an error are made again from their fallback calls, all of them
    /// in one more request: only a node that lacks the feature pays for it.
    pub async fn send(&self, batch: Batch) -> Result<Answers, RpcError> {
        let Batch { calls, fallbacks } = batch;
        let mut results = self.in_parts(calls).await?;
        let refused: Vec<(usize, Fallback)> = fallbacks
            .into_iter()
            .filter(|(index, _)| matches!(results[*index], Err(RpcError::Upstream(_))))
            .collect();
        let again: Vec<(String, Value)> = refused
            .iter()
            .flat_map(|(_, fallback)| fallback.calls.iter().cloned())
            .collect();
        // A fallback request that fails whole leaves the first refusals.
        if let Ok(answers) = self.in_parts(again).await {
            let mut answers = answers.into_iter();
            for (index, fallback) in refused {
                let parts = answers.by_ref().take(fallback.calls.len()).collect();
                results[index] = (fallback.combine)(parts);
            }
        }
        Ok(Answers {
            results: results.into_iter().map(Some).collect(),
        })
    }

    /// `raw_batch`, in parts of at most [`MAX_BODY_BYTES`] sent side by
    /// side, each split in halves while the node refuses it whole.
    fn in_parts(
        &self,
        mut calls: Vec<(String, Value)>,
    ) -> futures::future::BoxFuture<'_, Result<Vec<Result<Value, RpcError>>, RpcError>> {
        Box::pin(async move {
            let cuts = cuts_by_size(&calls, MAX_BODY_BYTES);
            if !cuts.is_empty() {
                let mut parts = Vec::new();
                for cut in cuts.into_iter().rev() {
                    parts.push(calls.split_off(cut));
                }
                parts.push(calls);
                parts.reverse();
                let answered =
                    futures::future::join_all(parts.into_iter().map(|p| self.in_parts(p))).await;
                let mut answers = Vec::new();
                for part in answered {
                    answers.extend(part?);
                }
                return Ok(answers);
            }
            match self.raw_batch(&calls).await {
                Err(RpcError::Upstream(why)) if calls.len() == 1 => {
                    Ok(vec![Err(RpcError::Upstream(why))])
                }
                Err(RpcError::Upstream(_)) if calls.len() > 1 => {
                    let second = calls.split_off(calls.len() / 2);
                    let (first, second) =
                        futures::future::join(self.in_parts(calls), self.in_parts(second)).await;
                    let mut answers = first?;
                    answers.extend(second?);
                    Ok(answers)
                }
                other => other,
            }
        })
    }

    /// Several calls in one HTTP request, answered in order.
    async fn raw_batch(
        &self,
        calls: &[(String, Value)],
    ) -> Result<Vec<Result<Value, RpcError>>, RpcError> {
        if calls.is_empty() {
            return Ok(Vec::new());
        }
        let first_id = self
            .next_id
            .fetch_add(calls.len() as u64, Ordering::Relaxed);
        let body: Vec<Value> = calls
            .iter()
            .enumerate()
            .map(|(i, (method, params))| {
                json!({"jsonrpc": "2.0", "id": first_id + i as u64, "method": method, "params": params})
            })
            .collect();
        let methods: Vec<&str> = calls.iter().map(|(method, _)| method.as_str()).collect();
        let answer = self
            .post_with_retries(&Value::Array(body), &methods)
            .await?;
        let Value::Array(items) = answer else {
            // Some nodes answer a batch failure with a single error object.
            if let Some(error) = answer.get("error") {
                return Err(RpcError::Upstream(format!("node error: {error}")));
            }
            return Err(RpcError::Upstream("batch answer is not an array".into()));
        };
        let mut results: Vec<Option<Result<Value, RpcError>>> = vec![None; calls.len()];
        for item in items {
            let Some(index) = item
                .get("id")
                .and_then(Value::as_u64)
                .and_then(|id| id.checked_sub(first_id))
            else {
                continue;
            };
            let Some(slot) = results.get_mut(index as usize) else {
                continue;
            };
            *slot = Some(if let Some(error) = item.get("error") {
                crate::metrics::upstream_error(
                    self.circuit.chain(),
                    methods[index as usize],
                    "upstream",
                );
                Err(RpcError::Upstream(node_error_text(error)))
            } else if let Some(result) = item.get("result") {
                Ok(result.clone())
            } else {
                Err(RpcError::Upstream(
                    "answer has neither result nor error".into(),
                ))
            });
        }
        Ok(results
            .into_iter()
            .map(|r| {
                r.unwrap_or_else(|| Err(RpcError::Upstream("node left a call unanswered".into())))
            })
            .collect())
    }

    /// Retries within the caller's deadline (the caller drops this future
    /// when it passes) and only while the chain is not marked down.
    async fn post_with_retries(&self, body: &Value, methods: &[&str]) -> Result<Value, RpcError> {
        let mut attempt = 0;
        loop {
            match self.post(body, methods).await {
                Err(RpcError::Unavailable(_))
                    if attempt < self.settings.retries && !self.circuit.is_down() =>
                {
                    attempt += 1;
                    let wait = self.settings.backoff * 2u32.saturating_pow(attempt - 1);
                    tokio::time::sleep(wait).await;
                }
                other => return other,
            }
        }
    }

    /// One HTTP request, admitted by the circuit (after the concurrency
    /// wait, so calls queued when the chain went down fail at once).
    async fn post(&self, body: &Value, methods: &[&str]) -> Result<Value, RpcError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| RpcError::Unavailable("client closed".into()))?;
        let probe = match self.circuit.admit() {
            Admission::Go => false,
            Admission::Probe => true,
            Admission::Refuse { retry_after, cause } => {
                crate::metrics::upstream_refused(self.circuit.chain(), methods);
                return Err(RpcError::Unavailable(format!(
                    "the node is marked down after repeated failures ({cause}); next check in {} s",
                    retry_after.as_secs()
                )));
            }
        };
        let mut call = Call {
            circuit: &self.circuit,
            probe,
            ended: false,
        };
        let started = std::time::Instant::now();
        let outcome = self.post_once(body).await;
        call.ended = true;
        let failed = match &outcome {
            Ok(_) => None,
            Err(RpcError::Unavailable(_)) => Some("unavailable"),
            Err(RpcError::Upstream(_)) => Some("upstream"),
        };
        crate::metrics::upstream_request(self.circuit.chain(), methods, started.elapsed(), failed);
        match &outcome {
            Err(RpcError::Unavailable(cause)) => self.circuit.failed(cause, call.probe),
            _ => self.circuit.succeeded(),
        }
        outcome
    }

    async fn post_once(&self, body: &Value) -> Result<Value, RpcError> {
        let mut again = 0;
        let response = loop {
            self.requests.fetch_add(1, Ordering::Relaxed);
            let request = self
                .http
                .post(&self.url)
                .timeout(self.settings.timeout)
                .json(body);
            match request.send().await {
                Ok(response) => break response,
                // A connection the node had closed: again, on a new one.
                Err(e) if stale::is_stale(&e) && again < stale::STALE_RETRIES => again += 1,
                Err(e) if e.is_timeout() => {
                    return Err(RpcError::Unavailable("the node timed out".into()))
                }
                Err(e) => {
                    return Err(RpcError::Unavailable(format!(
                        "the node could not be reached ({})",
                        stale::causes(&e.without_url())
                    )))
                }
            }
        };
        let status = response.status();
        if status.is_server_error() || status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            return Err(RpcError::Unavailable(format!(
                "the node answered HTTP {status}"
            )));
        }
        let text = response.text().await.map_err(|e| {
            if e.is_timeout() {
                RpcError::Unavailable("the node timed out".into())
            } else {
                RpcError::Unavailable(format!("the connection broke ({})", e.without_url()))
            }
        })?;
        serde_json::from_str(&text).map_err(|_| {
            let start: String = text.chars().take(80).collect();
            RpcError::Upstream(format!(
                "the node answered HTTP {status} with something that is not JSON: {start:?}"
            ))
        })
    }
}

/// A call under way. A caller that gives up first (its deadline passed)
/// counts as a failure of the node to answer in time; a probe given up lets
/// the next one go.
struct Call<'a> {
    circuit: &'a Circuit,
    probe: bool,
    ended: bool,
}

impl Drop for Call<'_> {
    fn drop(&mut self) {
        if !self.ended {
            self.circuit
                .failed("no answer before the caller's deadline", self.probe);
        }
    }
}

/// Calls to send in one HTTP request.
#[derive(Default)]
pub struct Batch {
    calls: Vec<(String, Value)>,
    /// A call's index, and how to make its answer when the node answers
    /// it with an error.
    fallbacks: Vec<(usize, Fallback)>,
}

/// Calls that make a refused call's answer, and how: for a feature some
/// nodes lack (an `eth_call` state override), the same answer made the
/// long way.
pub struct Fallback {
    /// The calls (method, params), sent together.
    pub calls: Vec<(String, Value)>,
    /// Their answers, in order, made into the refused call's answer.
    pub combine: fn(Vec<Result<Value, RpcError>>) -> Result<Value, RpcError>,
}

/// Where one call's answer will be, and how to decode it.
#[must_use = "a slot is how its call's answer is taken"]
pub struct Slot<T> {
    index: usize,
    decode: fn(Value) -> Result<T, RpcError>,
    _answer: PhantomData<fn() -> T>,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Whether it has no call.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// Add a call whose answer decodes as `T` (serde).
    pub fn call<T: DeserializeOwned>(&mut self, method: &str, params: Value) -> Slot<T> {
        self.call_with(method, params, decode_json::<T>)
    }

    /// Add a call that relies on a feature some nodes lack: when the node
    /// answers it with an error, its answer is made from `fallback`.
    pub fn call_or<T: DeserializeOwned>(
        &mut self,
        method: &str,
        params: Value,
        fallback: Fallback,
    ) -> Slot<T> {
        let slot = self.call(method, params);
        self.fallbacks.push((slot.index, fallback));
        slot
    }

    /// The calls added so far (method, params), for tests of what is sent.
    #[cfg(test)]
    pub(crate) fn calls(&self) -> &[(String, Value)] {
        &self.calls
    }

    /// Add a call with its own decoder.
    pub fn call_with<T>(
        &mut self,
        method: &str,
        params: Value,
        decode: fn(Value) -> Result<T, RpcError>,
    ) -> Slot<T> {
        self.calls.push((method.to_string(), params));
        Slot {
            index: self.calls.len() - 1,
            decode,
            _answer: PhantomData,
        }
    }
}

fn decode_json<T: DeserializeOwned>(value: Value) -> Result<T, RpcError> {
    serde_json::from_value(value)
        .map_err(|e| RpcError::Upstream(format!("undecodable answer: {e}")))
}

/// The answers of a sent batch.
pub struct Answers {
    results: Vec<Option<Result<Value, RpcError>>>,
}

impl Answers {
    /// The answer of `slot`'s call, decoded by its decoder.
    pub fn take<T>(&mut self, slot: Slot<T>) -> Result<T, RpcError> {
        let answer = self
            .results
            .get_mut(slot.index)
            .and_then(Option::take)
            .unwrap_or_else(|| Err(RpcError::Upstream("missing answer".into())))?;
        (slot.decode)(answer)
    }
}

fn node_error_text(error: &Value) -> String {
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("unknown error");
    match error.get("code") {
        Some(code) => format!("node error {code}: {message}"),
        None => format!("node error: {message}"),
    }
}
