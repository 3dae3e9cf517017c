//! How client connections are served: dropshot (hyper) accepts and parses
//! them, the one HTTP parser; the [`Gate`] it calls with each accepted
//! connection caps how many are open (refusing the rest with a 503 rather
//! than running out of file descriptors) and wraps each in a [`timed`]
//! stream (first byte, idle and write limits). hyper bounds each head and
//! the wait for the next one, dropshot each body: the settings for both
//! come from [`Gate::dropshot`] through the in-tree dropshot patch
//! (`vendor/README.md`). At the end of a shutdown that ran out of time the
//! gate cuts whatever connections are left.

mod timed;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::task::AtomicWaker;
use serde::{Deserialize, Serialize};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

use riskintel_api::{ApiError, ErrorCode};

/// Limits on client connections (the `[connections]` table).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConnectionsConfig {
    /// Longest a client may take to send a request's head (ms): for the
    /// first request counted from the connection's start (so a connection
    /// that sends nothing is closed), for the next from the previous answer
    /// (so it also bounds an idle keep-alive connection).
    pub header_read_timeout_ms: u64,
    /// Longest a request's whole body, chunked trailers included, may take
    /// to arrive once its head has (ms); past it the request is answered
    /// 400 and the connection closed.
    pub body_read_timeout_ms: u64,
    /// Longest a connection may go without a byte either way (ms), whatever
    /// it is doing; raised to the longest request deadline, so a request
    /// being answered is never cut by it.
    pub idle_timeout_ms: u64,
    /// Longest a client may take to accept the bytes of an answer (ms).
    pub write_timeout_ms: u64,
    /// Largest request head, and largest chunked trailer section (bytes,
    /// at least 1024); a larger one is answered 431 and the connection
    /// closed.
    pub max_head_bytes: usize,
    /// Most client connections open at once; past it new ones are answered
    /// 503 and closed. 0: derived from the file-descriptor limit (one
    /// descriptor each, with 256 kept for the rest).
    pub max_connections: usize,
    /// Longest a graceful shutdown waits for requests under way (ms); then
    /// the connections left are cut.
    pub shutdown_timeout_ms: u64,
}

impl Default for ConnectionsConfig {
    fn default() -> Self {
        ConnectionsConfig {
            header_read_timeout_ms: 10_000,
            body_read_timeout_ms: 30_000,
            idle_timeout_ms: 30_000,
            write_timeout_ms: 30_000,
            max_head_bytes: 64 * 1024,
            max_connections: 0,
            shutdown_timeout_ms: 10_000,
        }
    }
}

/// The smallest head limit taken (a request line and a few headers).
const MIN_HEAD_BYTES: usize = 1024;

/// The socket-level limits, as durations.
#[derive(Clone, Debug)]
struct Limits {
    first_byte: Duration,
    idle: Duration,
    write: Duration,
}

/// Whether a client's request id is kept as the request's own (in the
/// answer and on every log line): at most 128 characters of
/// `[A-Za-z0-9._-]`; any other is replaced by a new one.
pub fn acceptable_request_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The connections open now, and what every one of them needs.
pub struct Gate {
    config: ConnectionsConfig,
    limits: Limits,
    /// The cap in force.
    pub max_connections: usize,
    /// The open connections, each by its key with where to wake it.
    open: Mutex<HashMap<usize, Arc<AtomicWaker>>>,
    next_key: AtomicUsize,
    /// Set by [`Gate::cut`]: every read and write fails from then on.
    cut: AtomicBool,
    /// Refusals being written, bounded so refusing cannot exhaust descriptors.
    refusing: AtomicUsize,
    refusal: Vec<u8>,
    log: slog::Logger,
}

impl Gate {
    /// A gate for `config`; `request_deadline` is the longest any request
    /// may take to be answered (the idle limit is at least that).
    pub fn new(
        config: &ConnectionsConfig,
        request_deadline: Duration,
        log: slog::Logger,
    ) -> Arc<Gate> {
        let ms = |v: u64| Duration::from_millis(v.max(1));
        let max_connections = match config.max_connections {
            0 => max_from_descriptors(),
            n => n,
        };
        Arc::new(Gate {
            config: config.clone(),
            limits: Limits {
                first_byte: ms(config.header_read_timeout_ms),
                idle: ms(config.idle_timeout_ms).max(request_deadline),
                write: ms(config.write_timeout_ms),
            },
            max_connections,
            open: Mutex::new(HashMap::new()),
            next_key: AtomicUsize::new(0),
            cut: AtomicBool::new(false),
            refusing: AtomicUsize::new(0),
            refusal: refusal_bytes(),
            log,
        })
    }

    /// How dropshot is to serve connections: through this gate, HTTP/1
    /// only, with the head, buffer and body limits, keeping acceptable
    /// client request ids.
    pub fn dropshot(self: &Arc<Self>) -> dropshot::ConfigConnections {
        let gate = self.clone();
        dropshot::ConfigConnections {
            accept: Some(Arc::new(move |stream, peer| gate.accept(stream, peer))),
            http1: Some(dropshot::ConfigHttp1 {
                header_read_timeout: Some(Duration::from_millis(
                    self.config.header_read_timeout_ms.max(1),
                )),
                max_header_size: Some(self.config.max_head_bytes.max(MIN_HEAD_BYTES)),
            }),
            request_body_timeout: Some(Duration::from_millis(
                self.config.body_read_timeout_ms.max(1),
            )),
            accept_request_id: Some(acceptable_request_id),
        }
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.lock().len()
    }

    /// End every connection still open (the end of a shutdown).
    pub fn cut(&self) {
        self.cut.store(true, Ordering::Release);
        for waker in self.lock().values() {
            waker.wake();
        }
    }

    /// Wait up to `limit` for every connection to end.
    pub async fn drained(&self, limit: Duration) {
        let until = tokio::time::Instant::now() + limit;
        while self.open() > 0 && tokio::time::Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<usize, Arc<AtomicWaker>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A connection accepted by dropshot: served, timed, or refused.
    fn accept(
        self: &Arc<Self>,
        stream: TcpStream,
        _peer: SocketAddr,
    ) -> Option<dropshot::BoxedConnection> {
        let waker = Arc::new(AtomicWaker::new());
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        {
            let mut open = self.lock();
            if open.len() >= self.max_connections || self.cut.load(Ordering::Acquire) {
                drop(open);
                self.refuse(stream);
                return None;
            }
            open.insert(key, waker.clone());
        }
        crate::telemetry::connections(1.0);
        let _ = stream.set_nodelay(true);
        Some(Box::pin(timed::Timed::new(
            stream,
            self.clone(),
            key,
            waker,
        )))
    }

    /// A connection ended.
    fn closed(&self, key: usize) {
        self.lock().remove(&key);
        crate::telemetry::connections(-1.0);
    }

    /// Answer 503 on a connection over the cap, without reading its
    /// request, and close it once the client has had a moment to read it.
    fn refuse(self: &Arc<Self>, socket: TcpStream) {
        if self.refusing.fetch_add(1, Ordering::Relaxed) >= MAX_REFUSING {
            self.refusing.fetch_sub(1, Ordering::Relaxed);
            return;
        }
        let gate = self.clone();
        tokio::spawn(async move {
            let mut socket = socket;
            // The answer fits the socket's send buffer: one try, never a wait.
            if socket.try_write(&gate.refusal).is_ok() {
                let _ = tokio::io::AsyncWriteExt::shutdown(&mut socket).await;
                // Drain what the client sent, so closing does not reset the
                // connection before it reads the answer.
                let mut sink = [0u8; 1024];
                let _ = tokio::time::timeout(Duration::from_secs(1), async {
                    while let Ok(n) = socket.read(&mut sink).await {
                        if n == 0 {
                            break;
                        }
                    }
                })
                .await;
            }
            gate.refusing.fetch_sub(1, Ordering::Relaxed);
        });
    }
}

/// Most refusals written at once; past it, refused connections are just closed.
const MAX_REFUSING: usize = 64;

/// The 503 sent to connections over the cap, in the API's error envelope.
fn refusal_bytes() -> Vec<u8> {
    let error = ApiError::new(
        ErrorCode::UpstreamUnavailable,
        "the server has too many open connections; retry shortly",
    );
    let body = serde_json::to_vec(&error).unwrap_or_default();
    let mut bytes = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    bytes.extend_from_slice(&body);
    bytes
}

/// The cap when none is configured: the descriptors this process may open
/// (one a connection), keeping 256 for the database, upstream nodes and logs.
fn max_from_descriptors() -> usize {
    let limit = raise_descriptor_limit().unwrap_or(1024);
    limit.saturating_sub(256).max(16) as usize
}

/// Raise the soft descriptor limit to the hard one, as servers do; the
/// limit in force afterwards.
fn raise_descriptor_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return None;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    Some((limit.rlim_cur as u64).min(1 << 20))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_short_request_ids_are_acceptable() {
        assert!(acceptable_request_id("abc-DEF_1.2"));
        assert!(acceptable_request_id(&"a".repeat(128)));
        assert!(!acceptable_request_id(&"a".repeat(129)));
        assert!(!acceptable_request_id(""));
        assert!(!acceptable_request_id("a b"));
        assert!(!acceptable_request_id("a\r\nx-evil: 1"));
        assert!(!acceptable_request_id("ä"));
    }
}
