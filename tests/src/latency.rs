//! A loopback JSON-RPC proxy that waits before forwarding each request (a
//! wait that can change while it runs: a slow or hanging node), counts
//! requests, and measures how many sequential round trips an analysis made
//! (the longest chain of requests each sent after the previous one was
//! answered). Used by the benchmarks and the bounded-time tests.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A running proxy.
pub struct LatencyProxy {
    /// Its URL.
    pub url: String,
    /// Requests forwarded.
    pub requests: Arc<AtomicU64>,
    spans: Arc<Mutex<Vec<(Instant, Instant)>>>,
    delay_ms: Arc<AtomicU64>,
}

impl LatencyProxy {
    /// Requests forwarded so far.
    pub fn count(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    /// Wait `delay` before forwarding each request from now on.
    pub fn set_delay(&self, delay: Duration) {
        self.delay_ms
            .store(delay.as_millis() as u64, Ordering::Relaxed);
    }

    /// Forget the requests seen so far.
    pub fn reset(&self) {
        self.requests.store(0, Ordering::Relaxed);
        self.spans.lock().expect("spans").clear();
    }

    /// Sequential round trips since the last reset: the longest chain of
    /// requests each sent after the one before was answered.
    pub fn round_trips(&self) -> usize {
        let mut spans = self.spans.lock().expect("spans").clone();
        spans.sort();
        let mut depth: Vec<usize> = Vec::with_capacity(spans.len());
        for (i, (start, _)) in spans.iter().enumerate() {
            let before = (0..i)
                .filter(|j| spans[*j].1 <= *start)
                .map(|j| depth[j])
                .max()
                .unwrap_or(0);
            depth.push(before + 1);
        }
        depth.into_iter().max().unwrap_or(0)
    }
}

/// Start a proxy to `target` that waits `delay` before forwarding each request.
pub async fn latency_proxy(target: String, delay: Duration) -> anyhow::Result<LatencyProxy> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let requests = Arc::new(AtomicU64::new(0));
    let spans = Arc::new(Mutex::new(Vec::new()));
    let delay_ms = Arc::new(AtomicU64::new(delay.as_millis() as u64));
    let (counter, recorded, delay) = (requests.clone(), spans.clone(), delay_ms.clone());
    let http = reqwest::Client::new();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let (http, target, counter, recorded, delay) = (
                http.clone(),
                target.clone(),
                counter.clone(),
                recorded.clone(),
                delay.clone(),
            );
            tokio::spawn(async move {
                let _ = serve_connection(socket, http, target, counter, recorded, delay).await;
            });
        }
    });
    Ok(LatencyProxy {
        url,
        requests,
        spans,
        delay_ms,
    })
}

async fn serve_connection(
    mut socket: tokio::net::TcpStream,
    http: reqwest::Client,
    target: String,
    counter: Arc<AtomicU64>,
    spans: Arc<Mutex<Vec<(Instant, Instant)>>>,
    delay: Arc<AtomicU64>,
) -> anyhow::Result<()> {
    let mut buffer = Vec::new();
    loop {
        // Read one request: headers, then content-length bytes of body.
        let header_end = loop {
            if let Some(i) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let mut chunk = [0u8; 8192];
            let n = socket.read(&mut chunk).await?;
            if n == 0 {
                return Ok(());
            }
            buffer.extend_from_slice(&chunk[..n]);
        };
        let head = String::from_utf8_lossy(&buffer[..header_end]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        while buffer.len() < header_end + length {
            let mut chunk = [0u8; 8192];
            let n = socket.read(&mut chunk).await?;
            if n == 0 {
                return Ok(());
            }
            buffer.extend_from_slice(&chunk[..n]);
        }
        let body = buffer[header_end..header_end + length].to_vec();
        buffer.drain(..header_end + length);
        counter.fetch_add(1, Ordering::Relaxed);
        let started = Instant::now();
        tokio::time::sleep(Duration::from_millis(delay.load(Ordering::Relaxed))).await;
        let answer = http
            .post(&target)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await?
            .bytes()
            .await?;
        let reply = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            answer.len()
        );
        socket.write_all(reply.as_bytes()).await?;
        socket.write_all(&answer).await?;
        spans.lock().expect("spans").push((started, Instant::now()));
    }
}
