//! A JSON-RPC proxy in front of a real node (anvil) that refuses what a
//! test picks, as real providers do: single calls (a method it lacks, or
//! parameters it does not take) answered with a JSON-RPC error in their
//! place in the batch, and batches larger than it takes refused whole with
//! HTTP 413. Everything else is forwarded, one call at a time.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

/// What the proxy refuses.
#[derive(Clone, Copy)]
pub struct Refusal {
    /// The calls answered with `error` instead of being forwarded.
    pub refuse: fn(&Value) -> bool,
    /// The JSON-RPC error object they get.
    pub error: fn() -> Value,
    /// Batches with more calls than this are refused whole (HTTP 413).
    pub max_batch: Option<usize>,
}

impl Refusal {
    /// Refuse the calls `refuse` picks with "invalid params", as a node
    /// without that feature does.
    pub fn calls(refuse: fn(&Value) -> bool) -> Refusal {
        Refusal {
            refuse,
            error: || json!({"code": -32602, "message": "too many arguments, want at most 2"}),
            max_batch: None,
        }
    }
}

/// Start the proxy in front of `target`; its URL.
pub async fn start(target: String, refusal: Refusal) -> anyhow::Result<String> {
    Ok(start_counted(target, refusal).await?.0)
}

/// [`start`], with the count of calls and batches refused so far.
pub async fn start_counted(
    target: String,
    refusal: Refusal,
) -> anyhow::Result<(String, Arc<AtomicUsize>)> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let http = reqwest::Client::new();
    let refused = Arc::new(AtomicUsize::new(0));
    let counter = refused.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let node = Node {
                http: http.clone(),
                target: target.clone(),
                refusal,
                refused: counter.clone(),
            };
            tokio::spawn(node.serve(socket));
        }
    });
    Ok((url, refused))
}

/// One connection's proxy.
struct Node {
    http: reqwest::Client,
    target: String,
    refusal: Refusal,
    refused: Arc<AtomicUsize>,
}

impl Node {
    async fn serve(self, mut socket: tokio::net::TcpStream) {
        let Node {
            http,
            target,
            refusal,
            refused,
        } = self;
        let mut buffer = Vec::new();
        while let Some(body) = crate::jsonrpc::read_request(&mut socket, &mut buffer).await {
            let Ok(request) = serde_json::from_slice::<Value>(&body) else {
                return;
            };
            let items = request
                .as_array()
                .cloned()
                .unwrap_or_else(|| vec![request.clone()]);
            let (status, body) = if refusal.max_batch.is_some_and(|max| items.len() > max) {
                refused.fetch_add(1, Ordering::Relaxed);
                (
                    "413 Payload Too Large",
                    "request entity too large".to_string(),
                )
            } else {
                let mut answers = Vec::new();
                for item in items {
                    answers.push(if (refusal.refuse)(&item) {
                        refused.fetch_add(1, Ordering::Relaxed);
                        json!({"jsonrpc": "2.0", "id": item["id"], "error": (refusal.error)()})
                    } else {
                        match http.post(&target).json(&item).send().await {
                            Ok(r) => r.json().await.unwrap_or_default(),
                            Err(_) => return,
                        }
                    });
                }
                let body = if request.is_array() {
                    Value::Array(answers)
                } else {
                    answers.remove(0)
                };
                ("200 OK", body.to_string())
            };
            let reply = format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
            if socket.write_all(reply.as_bytes()).await.is_err() {
                return;
            }
        }
    }
}
