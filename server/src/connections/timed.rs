//! One client connection, timed at the socket: the first byte must arrive
//! within the header limit, no byte either way may be missing for the idle
//! limit, and a write the client does not take may not wait past the
//! write limit. Past a limit, or once the server cuts every connection at
//! the end of a shutdown, reads and writes fail and hyper closes the
//! connection. Heads and bodies are hyper's and dropshot's to time.

use std::future::Future as _;
use std::io;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures::task::AtomicWaker;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

use super::Gate;

/// A connection served by dropshot, counted open by [`Gate`] until dropped.
pub(super) struct Timed {
    stream: TcpStream,
    gate: Arc<Gate>,
    /// Where the server's cut reaches this connection.
    waker: Arc<AtomicWaker>,
    /// Its key in the gate's list of open connections.
    key: usize,
    started: Instant,
    /// Whether the client has sent a byte.
    heard: bool,
    /// The last byte either way.
    last_io: Instant,
    /// Since when a write has waited for the client.
    stalled_since: Option<Instant>,
    /// One timer for every limit, re-armed only when it fires: activity
    /// only moves deadlines later, so a timer that fires early looks again.
    timer: Pin<Box<Sleep>>,
    timer_at: Instant,
}

impl Timed {
    pub(super) fn new(
        stream: TcpStream,
        gate: Arc<Gate>,
        key: usize,
        waker: Arc<AtomicWaker>,
    ) -> Self {
        let started = Instant::now();
        let timer_at = started + gate.limits.first_byte;
        Timed {
            stream,
            gate,
            waker,
            key,
            started,
            heard: false,
            last_io: started,
            stalled_since: None,
            timer: Box::pin(tokio::time::sleep_until(timer_at)),
            timer_at,
        }
    }

    /// The nearest deadline in force, and its limit's name.
    fn deadline(&self) -> (Instant, &'static str) {
        let limits = &self.gate.limits;
        let mut nearest = (self.last_io + limits.idle, "idle");
        if !self.heard {
            nearest = nearest.min((self.started + limits.first_byte, "first byte"));
        }
        if let Some(since) = self.stalled_since {
            nearest = nearest.min((since + limits.write, "write"));
        }
        nearest
    }

    /// Wait for the nearest deadline (or the cut): the error ending the
    /// connection once it passes.
    fn poll_limits(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        self.waker.register(cx.waker());
        if self.gate.cut.load(Ordering::Acquire) {
            return Poll::Ready(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "server shut down",
            ));
        }
        let (deadline, limit) = self.deadline();
        loop {
            if Instant::now() >= deadline {
                slog::debug!(self.gate.log, "closed a slow connection"; "limit" => limit,
                    "remote_addr" => self.stream.peer_addr().map(|a| a.to_string()).unwrap_or_default());
                return Poll::Ready(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("the {limit} limit passed"),
                ));
            }
            if self.timer_at > deadline {
                self.timer.as_mut().reset(deadline);
                self.timer_at = deadline;
            }
            match self.timer.as_mut().poll(cx) {
                Poll::Pending => return Poll::Pending,
                // Early: activity moved the deadline since it was armed.
                Poll::Ready(()) => {
                    self.timer.as_mut().reset(deadline);
                    self.timer_at = deadline;
                }
            }
        }
    }

    fn wrote(
        &mut self,
        result: Poll<io::Result<usize>>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<usize>> {
        match result {
            Poll::Ready(Ok(n)) => {
                self.stalled_since = None;
                self.last_io = Instant::now();
                Poll::Ready(Ok(n))
            }
            Poll::Pending => {
                self.stalled_since.get_or_insert_with(Instant::now);
                self.poll_limits(cx).map(Err)
            }
            error => error,
        }
    }
}

impl AsyncRead for Timed {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    this.heard = true;
                    this.last_io = Instant::now();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending => this.poll_limits(cx).map(Err),
            error => error,
        }
    }
}

impl AsyncWrite for Timed {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let result = Pin::new(&mut this.stream).poll_write(cx, data);
        this.wrote(result, cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let result = Pin::new(&mut this.stream).poll_write_vectored(cx, data);
        this.wrote(result, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

impl Drop for Timed {
    fn drop(&mut self) {
        self.gate.closed(self.key);
    }
}
