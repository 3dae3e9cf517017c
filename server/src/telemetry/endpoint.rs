//! The metrics listener: `GET /metrics` in the Prometheus text format, on
//! its own address (`metrics_listen`), apart from the public API, so it is
//! neither metered nor published, and can be kept off the public network.

use std::net::SocketAddr;

use anyhow::Context as _;
use dropshot::{
    ApiDescription, Body, ConfigDropshot, HttpError, HttpServer, RequestContext, ServerBuilder,
};
use slog::Drain as _;

/// The content type of the Prometheus text exposition format.
const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The current value of every series.
#[dropshot::endpoint { method = GET, path = "/metrics" }]
async fn metrics_get(_rqctx: RequestContext<()>) -> Result<http::Response<Body>, HttpError> {
    let handle = super::handle();
    handle.run_upkeep();
    http::Response::builder()
        .status(http::StatusCode::OK)
        .header(http::header::CONTENT_TYPE, TEXT_FORMAT)
        .header(http::header::CACHE_CONTROL, "no-store")
        .body(Body::from(handle.render()))
        .map_err(|e| HttpError::for_internal_error(e.to_string()))
}

/// Serve metrics on `listen` (`IP:PORT`); `""` serves none.
pub fn serve(listen: &str, log: &slog::Logger) -> anyhow::Result<Option<HttpServer<()>>> {
    if listen.is_empty() {
        return Ok(None);
    }
    let bind_address: SocketAddr = listen
        .parse()
        .with_context(|| format!("metrics_listen {listen:?} is not IP:PORT (or \"\" for none)"))?;
    super::handle();
    let mut api = ApiDescription::new();
    api.register(metrics_get)
        .map_err(|e| anyhow::anyhow!("describing the metrics endpoint: {e}"))?;
    // A scrape every few seconds is not worth a log line each.
    let quiet = slog::Logger::root(
        slog::LevelFilter::new(log.clone(), slog::Level::Warning).fuse(),
        slog::o!(),
    );
    let server = ServerBuilder::new(api, (), quiet)
        .config(ConfigDropshot {
            bind_address,
            ..Default::default()
        })
        // A scraper sends one short GET: a head that dawdles or a body is
        // not waited for long.
        .connections(dropshot::ConfigConnections {
            http1: Some(dropshot::ConfigHttp1 {
                header_read_timeout: Some(std::time::Duration::from_secs(10)),
                max_header_size: Some(16 * 1024),
            }),
            request_body_timeout: Some(std::time::Duration::from_secs(10)),
            ..Default::default()
        })
        .start()
        .map_err(|e| anyhow::anyhow!("serving metrics on {bind_address}: {e}"))?;
    Ok(Some(server))
}
