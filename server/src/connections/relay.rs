//! One client connection relayed to the HTTP server behind, byte for byte,
//! with the client's side timed by [`Framing`]: the head of a request must
//! arrive within the header limit (for the first request, counted from the
//! connection's start, so a connection that sends nothing is closed too),
//! its body within the body limit, and the gap between requests may not
//! exceed the idle limit. A client that does not take its answer within
//! the write limit is dropped. A request that has been forwarded is never
//! cut by these limits: its answer is bounded by the request's own deadline.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{sleep_until, timeout, Instant};

use super::framing::{Framing, Phase};
use super::request_id::Rewriter;
use super::Limits;

/// Bytes read per call, each way.
const BUFFER: usize = 8 * 1024;

/// Why a relay ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ended {
    /// Either side closed, or the server behind finished after a shutdown.
    Closed,
    /// The client was too slow for a limit (named), and was dropped.
    TimedOut(&'static str),
    /// The client's request was incomplete when the server shut down.
    Shutdown,
}

/// What both directions of one connection share.
struct Activity {
    started: Instant,
    /// Milliseconds after `started` of the last byte either way.
    last_activity_ms: AtomicU64,
    /// A complete request has been forwarded and no answer byte has come back.
    awaiting_answer: AtomicBool,
}

impl Activity {
    fn touch(&self) {
        self.touch_at(Instant::now());
    }

    fn touch_at(&self, now: Instant) {
        let ms = now.duration_since(self.started).as_millis() as u64;
        self.last_activity_ms.store(ms, Ordering::Relaxed);
    }

    fn last_activity(&self) -> Instant {
        self.started + Duration::from_millis(self.last_activity_ms.load(Ordering::Relaxed))
    }
}

/// Relay between `client` and `backend` until one side closes or a limit is
/// passed. `stopping` turns true when the server shuts down: an incomplete
/// request is dropped at once, a forwarded one is answered first.
pub(super) async fn relay(
    mut client: TcpStream,
    mut backend: TcpStream,
    limits: &Limits,
    started: Instant,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) -> Ended {
    let activity = Activity {
        started,
        last_activity_ms: AtomicU64::new(0),
        awaiting_answer: AtomicBool::new(false),
    };
    // The clients' request ids, from the requests to their answers.
    let request_ids = std::sync::Mutex::new(Rewriter::default());
    let (mut client_in, mut client_out) = client.split();
    let (mut backend_in, mut backend_out) = backend.split();

    let upstream = async {
        let mut framing = Framing::default();
        let mut buf = vec![0u8; BUFFER];
        // When the current head (or, in the body, the body) began.
        let mut phase_start = started;
        let mut stop_seen = false;
        // One timer per connection, re-armed only when it fires: every
        // event moves the deadline to at least `shortest` after it, so a
        // timer never later than that can only fire early, and then looks
        // again, instead of arming a timer for every request.
        let check = sleep_until(started + limits.header);
        tokio::pin!(check);
        // Made once: a `changed()` made per iteration would register with the
        // channel (activity by every connection, under its lock) per request.
        let stop = stopping.changed();
        tokio::pin!(stop);
        loop {
            tokio::select! {
                read = client_in.read(&mut buf) => {
                    let n = match read {
                        Ok(0) | Err(_) => {
                            if framing.phase() == Phase::Boundary {
                                // The client is done; answers in flight still go back.
                                let _ = backend_out.shutdown().await;
                                return None;
                            }
                            return Some(Ended::Closed);
                        }
                        Ok(n) => n,
                    };
                    let (before, completed) = (framing.phase(), framing.completed());
                    framing.feed(&buf[..n]);
                    if let Some(heads) = framing.take_request_ids() {
                        let mut ids = request_ids.lock().expect("request ids lock");
                        heads.for_each(|id| ids.requested(id));
                    }
                    let now = Instant::now();
                    activity.touch_at(now);
                    let after = framing.phase();
                    let new_request = framing.completed() != completed;
                    // A new head or body starts its clock, except the first
                    // head, whose clock started with the connection.
                    let first_head = after == Phase::Head && framing.completed() == 0;
                    if matches!(after, Phase::Head | Phase::Body)
                        && (after != before || new_request)
                        && !first_head
                    {
                        phase_start = now;
                    }
                    if new_request {
                        activity.awaiting_answer.store(true, Ordering::Relaxed);
                    }
                    if backend_out.write_all(&buf[..n]).await.is_err() {
                        return Some(Ended::Closed);
                    }
                }
                () = &mut check => {
                    let now = Instant::now();
                    let (deadline, limit) = deadline(&framing, phase_start, &activity, limits);
                    if now >= deadline {
                        return Some(Ended::TimedOut(limit));
                    }
                    check.as_mut().reset(deadline.min(now + limits.shortest()));
                }
                changed = &mut stop, if !stop_seen => {
                    stop_seen = true;
                    let idle_from_start = framing.completed() == 0 && framing.phase() == Phase::Boundary;
                    if changed.is_err() || matches!(framing.phase(), Phase::Head | Phase::Body) || idle_from_start {
                        return Some(Ended::Shutdown);
                    }
                    // Between requests: the server behind closes the
                    // connection once its answer (if any) is sent.
                }
            }
        }
    };

    let downstream = async {
        let mut buf = vec![0u8; BUFFER];
        loop {
            match backend_in.read(&mut buf).await {
                Ok(0) | Err(_) => return Ended::Closed,
                Ok(n) => {
                    activity.awaiting_answer.store(false, Ordering::Relaxed);
                    activity.touch();
                    let answer = request_ids
                        .lock()
                        .expect("request ids lock")
                        .rewrite(&buf[..n]);
                    // Most answers fit the socket's buffer at once: no timer then.
                    let rest = match client_out.try_write(&answer) {
                        Ok(written) => &answer[written..],
                        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => &answer[..],
                        Err(_) => return Ended::Closed,
                    };
                    if !rest.is_empty() {
                        match timeout(limits.write, client_out.write_all(rest)).await {
                            Ok(Ok(())) => activity.touch(),
                            Ok(Err(_)) => return Ended::Closed,
                            Err(_) => return Ended::TimedOut("write"),
                        }
                    }
                }
            }
        }
    };

    tokio::pin!(downstream);
    tokio::select! {
        ended = upstream => match ended {
            Some(ended) => ended,
            // The client half-closed: let the answers in flight finish.
            None => downstream.await,
        },
        ended = &mut downstream => ended,
    }
}

/// When the client's side times out in its current phase, and which limit
/// that is.
fn deadline(
    framing: &Framing,
    phase_start: Instant,
    activity: &Activity,
    limits: &Limits,
) -> (Instant, &'static str) {
    // An answer is being prepared: its own deadline bounds it (whatever the
    // client has begun to send meanwhile); look again later. With pipelined
    // requests, the first byte of the first answer ends this wait.
    if activity.awaiting_answer.load(Ordering::Relaxed) {
        return (Instant::now() + limits.idle, "idle");
    }
    match framing.phase() {
        Phase::Head => (phase_start + limits.header, "header"),
        Phase::Body => (phase_start + limits.body, "body"),
        // Nothing sent yet: the first head is due within the header limit.
        Phase::Boundary if framing.completed() == 0 => (activity.started + limits.header, "header"),
        Phase::Boundary | Phase::Opaque => (activity.last_activity() + limits.idle, "idle"),
    }
}
