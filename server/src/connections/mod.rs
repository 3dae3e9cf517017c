//! Connection hygiene in front of the HTTP server. dropshot binds and
//! accepts on its own listener and exposes none of hyper's connection
//! settings, so the public address is served by this front: it accepts,
//! caps the number of open connections (refusing the rest with a 503
//! rather than running out of file descriptors), and relays each
//! connection to dropshot on a loopback port, timing the client's side
//! ([`relay`]). The client's real address reaches the handlers through
//! [`Peers`]. On shutdown it stops accepting and drops incomplete requests
//! at once; requests already forwarded are answered.

mod framing;
mod relay;
pub mod request_id;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::AsyncReadExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::Instant;

use riskintel_api::{ApiError, ErrorCode};

use relay::Ended;

/// Limits on client connections (the `[connections]` table).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConnectionsConfig {
    /// Serve the public address through the front (these limits). `false`
    /// lets dropshot listen on it directly, without any of them: only
    /// behind a reverse proxy that enforces its own, where the front's
    /// extra loopback hop (a quarter of the cached hot path's throughput)
    /// buys nothing.
    pub front: bool,
    /// Longest a client may take to send a request's head (ms), counted
    /// from the connection's start for its first request (so a connection
    /// that sends nothing is closed) and from the head's first byte after.
    pub header_read_timeout_ms: u64,
    /// Longest a client may take to send a request's body once its head
    /// has arrived (ms): an announced length never met, or chunks that
    /// never end, close the connection.
    pub body_read_timeout_ms: u64,
    /// Longest a keep-alive connection may sit idle between requests (ms).
    pub idle_timeout_ms: u64,
    /// Longest a client may take to accept the bytes of an answer (ms).
    pub write_timeout_ms: u64,
    /// Most client connections open at once; past it new ones are answered
    /// 503 and closed. 0: derived from the file-descriptor limit (each
    /// connection holds three descriptors, with 256 kept for the rest).
    pub max_connections: usize,
    /// Longest a graceful shutdown waits for forwarded requests (ms).
    pub shutdown_timeout_ms: u64,
}

impl Default for ConnectionsConfig {
    fn default() -> Self {
        ConnectionsConfig {
            front: true,
            header_read_timeout_ms: 10_000,
            body_read_timeout_ms: 30_000,
            idle_timeout_ms: 30_000,
            write_timeout_ms: 30_000,
            max_connections: 0,
            shutdown_timeout_ms: 10_000,
        }
    }
}

/// The time limits, as durations.
#[derive(Clone, Debug)]
struct Limits {
    header: Duration,
    body: Duration,
    idle: Duration,
    write: Duration,
}

impl Limits {
    /// The shortest of the client-side limits.
    fn shortest(&self) -> Duration {
        self.header.min(self.body).min(self.idle)
    }

    fn from_config(config: &ConnectionsConfig) -> Limits {
        let ms = |v: u64| Duration::from_millis(v.max(1));
        Limits {
            header: ms(config.header_read_timeout_ms),
            body: ms(config.body_read_timeout_ms),
            idle: ms(config.idle_timeout_ms),
            write: ms(config.write_timeout_ms),
        }
    }
}

/// The client behind each relayed connection, by the loopback port the
/// front connected from: what the handlers see as the peer is the front.
#[derive(Debug, Default)]
pub struct Peers {
    by_port: Mutex<HashMap<u16, SocketAddr>>,
}

impl Peers {
    /// The client whose connection reached the server from `peer`: the
    /// relayed client when `peer` is one of the front's own connections,
    /// else `peer` itself.
    pub fn client(&self, peer: SocketAddr) -> SocketAddr {
        if !peer.ip().is_loopback() {
            return peer;
        }
        let by_port = self.by_port.lock().unwrap_or_else(|e| e.into_inner());
        by_port.get(&peer.port()).copied().unwrap_or(peer)
    }

    fn insert(&self, port: u16, client: SocketAddr) {
        let mut by_port = self.by_port.lock().unwrap_or_else(|e| e.into_inner());
        by_port.insert(port, client);
    }

    fn remove(&self, port: u16) {
        let mut by_port = self.by_port.lock().unwrap_or_else(|e| e.into_inner());
        by_port.remove(&port);
    }
}

/// The front listener.
pub struct Front {
    local_addr: SocketAddr,
    stopping: watch::Sender<bool>,
    accept: tokio::task::JoinHandle<()>,
    shared: Arc<Shared>,
    /// The connection cap in force.
    pub max_connections: usize,
}

/// What every connection task needs.
struct Shared {
    backend: SocketAddr,
    limits: Limits,
    peers: Arc<Peers>,
    /// Client connections open now.
    open: AtomicUsize,
    max: usize,
    /// Refusals being written, bounded so refusing cannot exhaust descriptors.
    refusing: AtomicUsize,
    refusal: Vec<u8>,
    stopping: watch::Receiver<bool>,
    log: slog::Logger,
}

impl Front {
    /// Listen on `address` and relay to the server at `backend`.
    pub async fn start(
        address: SocketAddr,
        backend: SocketAddr,
        config: &ConnectionsConfig,
        peers: Arc<Peers>,
        log: slog::Logger,
    ) -> std::io::Result<Front> {
        let listener = TcpListener::bind(address).await?;
        let local_addr = listener.local_addr()?;
        let max = match config.max_connections {
            0 => max_from_descriptors(),
            n => n,
        };
        let (stopping, stopped) = watch::channel(false);
        let shared = Arc::new(Shared {
            backend,
            limits: Limits::from_config(config),
            peers,
            open: AtomicUsize::new(0),
            max,
            refusing: AtomicUsize::new(0),
            refusal: refusal_bytes(),
            stopping: stopped,
            log,
        });
        let accept = tokio::spawn(accept_loop(listener, shared.clone()));
        Ok(Front {
            local_addr,
            stopping,
            accept,
            shared,
            max_connections: max,
        })
    }

    /// The public address.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Stop accepting; drop connections with an incomplete request or none
    /// yet. Connections with a forwarded request end when the server behind
    /// closes them after answering (its own graceful shutdown).
    pub fn stop(&self) {
        let _ = self.stopping.send(true);
        self.accept.abort();
    }

    /// Wait up to `limit` for every connection to end.
    pub async fn drained(&self, limit: Duration) {
        let until = Instant::now() + limit;
        while self.shared.open.load(Ordering::Relaxed) > 0 && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

async fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    let mut failing = false;
    loop {
        match listener.accept().await {
            Ok((socket, peer)) => {
                failing = false;
                if shared.open.load(Ordering::Relaxed) >= shared.max {
                    refuse(&shared, socket);
                    continue;
                }
                shared.open.fetch_add(1, Ordering::Relaxed);
                crate::telemetry::connections(1.0);
                tokio::spawn(connection(shared.clone(), socket, peer));
            }
            Err(error) => match error.kind() {
                std::io::ErrorKind::ConnectionAborted
                | std::io::ErrorKind::ConnectionReset
                | std::io::ErrorKind::ConnectionRefused => {}
                // Out of descriptors (the cap leaves room, but other files
                // count too): wait for some to close.
                _ => {
                    if !failing {
                        failing = true;
                        slog::warn!(shared.log, "accepting connections failed; retrying";
                            "error" => %error, "open" => shared.open.load(Ordering::Relaxed));
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
        }
    }
}

/// Relay one client connection.
async fn connection(shared: Arc<Shared>, client: TcpStream, peer: SocketAddr) {
    let started = Instant::now();
    let _open = OpenGuard(shared.clone());
    let backend = match tokio::time::timeout(
        shared.limits.header,
        TcpStream::connect(shared.backend),
    )
    .await
    {
        Ok(Ok(backend)) => backend,
        _ => {
            slog::warn!(
                shared.log,
                "the HTTP server behind the front did not take a connection"
            );
            return;
        }
    };
    let _ = client.set_nodelay(true);
    let _ = backend.set_nodelay(true);
    let Ok(port) = backend.local_addr().map(|a| a.port()) else {
        return;
    };
    shared.peers.insert(port, peer);
    let ended = relay::relay(
        client,
        backend,
        &shared.limits,
        started,
        shared.stopping.clone(),
    )
    .await;
    shared.peers.remove(port);
    if let Ended::TimedOut(limit) = ended {
        slog::debug!(shared.log, "closed a slow connection"; "remote_addr" => %peer, "limit" => limit);
    }
}

/// Counts a connection open until dropped.
struct OpenGuard(Arc<Shared>);

impl Drop for OpenGuard {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::Relaxed);
        crate::telemetry::connections(-1.0);
    }
}

/// Most refusals written at once; past it, refused connections are just closed.
const MAX_REFUSING: usize = 64;

/// Answer 503 on a connection over the cap, without reading its request,
/// and close it once the client has had a moment to read the answer.
fn refuse(shared: &Arc<Shared>, socket: TcpStream) {
    if shared.refusing.fetch_add(1, Ordering::Relaxed) >= MAX_REFUSING {
        shared.refusing.fetch_sub(1, Ordering::Relaxed);
        return;
    }
    let shared = shared.clone();
    tokio::spawn(async move {
        let mut socket = socket;
        // The answer fits the socket's send buffer: one try, never a wait.
        if socket.try_write(&shared.refusal).is_ok() {
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
        shared.refusing.fetch_sub(1, Ordering::Relaxed);
    });
}

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

/// The cap when none is configured: a third of the descriptors this
/// process may open (client, front-to-server and server sockets), keeping
/// 256 for the database, upstream nodes and logs.
fn max_from_descriptors() -> usize {
    let limit = raise_descriptor_limit().unwrap_or(1024);
    (limit.saturating_sub(256) / 3).max(16) as usize
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
