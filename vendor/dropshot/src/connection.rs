//! Caller control over how accepted connections are served: see
//! [`ConfigConnections`].

use std::fmt;
use std::future::Future as _;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body as HttpBody, Bytes, Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A byte stream that a connection is served over.
pub trait Connection: AsyncRead + AsyncWrite + Send + 'static {}

impl<T: AsyncRead + AsyncWrite + Send + 'static> Connection for T {}

/// A connection as returned by an [`AcceptHook`].
pub type BoxedConnection = Pin<Box<dyn Connection>>;

/// Called with each accepted TCP connection and its peer's address: returns
/// the stream to serve (the connection itself, or a wrapper that counts or
/// times it), or `None` to drop it without serving it (the hook may answer
/// it itself first).
pub type AcceptHook =
    Arc<dyn Fn(TcpStream, SocketAddr) -> Option<BoxedConnection> + Send + Sync>;

/// How accepted connections are served. Every field is optional; the
/// default serves them as plain `ServerBuilder::start` always has.
#[derive(Clone, Default)]
pub struct ConfigConnections {
    /// Called with each accepted connection before it is served (plain HTTP
    /// only: a server with TLS refuses to build with it).
    pub accept: Option<AcceptHook>,
    /// Serve HTTP/1 only, with these limits: no HTTP/2 with prior
    /// knowledge, and no upgrades (so no websockets). `None`: HTTP/1 and
    /// HTTP/2 with hyper's defaults.
    pub http1: Option<ConfigHttp1>,
    /// Longest a request's whole body, trailers included, may take to
    /// arrive once its head has: past it reading the body fails, and the
    /// handler's body extractor answers 400.
    pub request_body_timeout: Option<Duration>,
    /// If set, an incoming `x-request-id` header that this accepts becomes
    /// the request's id (its log lines, `RequestContext::request_id` and the
    /// answer's header) instead of a new one.
    pub accept_request_id: Option<fn(&str) -> bool>,
}

impl fmt::Debug for ConfigConnections {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConfigConnections")
            .field("accept", &self.accept.as_ref().map(|_| "<hook>"))
            .field("http1", &self.http1)
            .field("request_body_timeout", &self.request_body_timeout)
            .field("accept_request_id", &self.accept_request_id.is_some())
            .finish()
    }
}

/// Limits of a server that serves HTTP/1 only.
#[derive(Clone, Debug, Default)]
pub struct ConfigHttp1 {
    /// Longest wait for a request's head: from the connection's start for
    /// the first request, from the previous answer for the next (hyper's
    /// `header_read_timeout`; `None`: hyper's default, 30 s).
    pub header_read_timeout: Option<Duration>,
    /// Largest request head, and largest chunked trailer section, in bytes
    /// (hyper's `max_header_size`): a larger head is answered 431.
    pub max_header_size: Option<usize>,
}

impl ConfigHttp1 {
    pub(crate) fn builder(self) -> hyper::server::conn::http1::Builder {
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.timer(hyper_util::rt::TokioTimer::new());
        if let Some(timeout) = self.header_read_timeout {
            builder.header_read_timeout(timeout);
        }
        if let Some(max) = self.max_header_size {
            builder.max_header_size(max);
        }
        builder
    }
}

/// A request body that fails once `timeout` has passed since it was made.
pub(crate) struct DeadlineBody<B> {
    inner: B,
    deadline: tokio::time::Instant,
    timeout: Duration,
    /// Armed at the first wait for data.
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<B> DeadlineBody<B> {
    pub(crate) fn new(inner: B, timeout: Duration) -> Self {
        let deadline = tokio::time::Instant::now() + timeout;
        DeadlineBody { inner, deadline, timeout, timer: None }
    }
}

impl<B> HttpBody for DeadlineBody<B>
where
    B: HttpBody<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        let deadline = this.deadline;
        let timer = this
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(
                std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!(
                        "the body did not arrive within {} ms",
                        this.timeout.as_millis()
                    ),
                ),
            )))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
