//! A webhook receiver on 127.0.0.1 for the tests: it records every request
//! (headers and body, with when it arrived) and answers each with the next
//! status of its script (then with its default status).

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    /// The request line's path.
    pub path: String,
    /// Headers, names in lower case.
    pub headers: BTreeMap<String, String>,
    /// The raw body.
    pub body: Vec<u8>,
    /// When it arrived.
    pub at: Instant,
    /// The status it was answered with.
    pub status: u16,
}

impl Received {
    /// A header's value, or "".
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map(String::as_str).unwrap_or("")
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

#[derive(Default)]
struct State {
    received: Vec<Received>,
    script: VecDeque<u16>,
    default_status: u16,
}

/// A running receiver.
#[derive(Clone)]
pub struct Receiver {
    state: Arc<Mutex<State>>,
    /// `http://127.0.0.1:PORT/hook`.
    pub url: String,
    task: Arc<tokio::task::JoinHandle<()>>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        if Arc::strong_count(&self.task) == 1 {
            self.task.abort();
        }
    }
}

impl Receiver {
    /// A receiver answering `script` in order, then `default_status`.
    pub async fn start(script: &[u16], default_status: u16) -> anyhow::Result<Receiver> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/hook", listener.local_addr()?);
        let state = Arc::new(Mutex::new(State {
            received: Vec::new(),
            script: script.iter().copied().collect(),
            default_status,
        }));
        let shared = state.clone();
        let task = tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve(socket, shared.clone()));
            }
        });
        Ok(Receiver {
            state,
            url,
            task: Arc::new(task),
        })
    }

    /// Everything received so far.
    pub fn received(&self) -> Vec<Received> {
        self.state.lock().expect("receiver lock").received.clone()
    }

    /// Answer the next requests with `script`, then `default_status`.
    pub fn answer(&self, script: &[u16], default_status: u16) {
        let mut state = self.state.lock().expect("receiver lock");
        state.script = script.iter().copied().collect();
        state.default_status = default_status;
    }
}

async fn serve(mut socket: tokio::net::TcpStream, state: Arc<Mutex<State>>) {
    let mut buffer = Vec::new();
    loop {
        let Some((path, headers, body)) = read(&mut socket, &mut buffer).await else {
            return;
        };
        let status = {
            let mut state = state.lock().expect("receiver lock");
            let status = state.script.pop_front().unwrap_or(state.default_status);
            state.received.push(Received {
                path,
                headers,
                body,
                at: Instant::now(),
                status,
            });
            status
        };
        let answer = format!("HTTP/1.1 {status} X\r\ncontent-length: 2\r\n\r\nok");
        if socket.write_all(answer.as_bytes()).await.is_err() {
            return;
        }
    }
}

type Request = (String, BTreeMap<String, String>, Vec<u8>);

async fn read(socket: &mut tokio::net::TcpStream, buffer: &mut Vec<u8>) -> Option<Request> {
    let end = loop {
        if let Some(i) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let mut chunk = [0u8; 16_384];
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buffer[..end]).to_string();
    let mut lines = head.split("\r\n");
    let path = lines.next()?.split(' ').nth(1)?.to_string();
    let headers: BTreeMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    while buffer.len() < end + length {
        let mut chunk = [0u8; 16_384];
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    let body = buffer[end..end + length].to_vec();
    buffer.drain(..end + length);
    Some((path, headers, body))
}
