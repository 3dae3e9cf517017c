//! A bare endpoint on the published dropshot with its default settings:
//! `GET /bare` answers the bytes of the file named on the command line.
//! Prints `listening on ADDRESS` once it serves, then runs until killed.
//! Started by the hot-path benchmark (`tests/src/bin/hot_path_bench.rs`).

use std::sync::Arc;

use dropshot::{
    ApiDescription, Body, ConfigDropshot, ConfigLogging, ConfigLoggingLevel, HttpError,
    RequestContext, ServerBuilder,
};

#[dropshot::endpoint { method = GET, path = "/bare" }]
async fn bare(rqctx: RequestContext<Arc<Vec<u8>>>) -> Result<http::Response<Body>, HttpError> {
    http::Response::builder()
        .status(200)
        .header("content-type", "application/json")
        .body(Body::from(rqctx.context().as_ref().clone()))
        .map_err(|e| HttpError::for_internal_error(e.to_string()))
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: stock-dropshot BODY_FILE")?;
    let body = std::fs::read(&path).map_err(|e| format!("reading {path}: {e}"))?;
    // Warnings only, as the service's own bench servers log.
    let log = ConfigLogging::StderrTerminal {
        level: ConfigLoggingLevel::Warn,
    }
    .to_logger("stock-dropshot")
    .map_err(|e| e.to_string())?;
    let mut api = ApiDescription::new();
    api.register(bare).map_err(|e| e.to_string())?;
    let server = ServerBuilder::new(api, Arc::new(body), log)
        .config(ConfigDropshot {
            bind_address: "127.0.0.1:0".parse().expect("an address"),
            ..Default::default()
        })
        .start()
        .map_err(|e| e.to_string())?;
    println!("listening on {}", server.local_addr());
    server.await
}
