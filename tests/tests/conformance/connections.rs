//! Connection hygiene: a connection that sends nothing, a head or a body
//! that never completes, and an idle keep-alive connection are each closed
//! within their limits; past the connection cap new connections get a
//! clean 503 and service resumes once others close; shutdown waits for an
//! incomplete request no longer than its own limit. (The hostile byte
//! sequences, and SIGTERM, are tried against the real binary in
//! `server/tests/hostile_connections.rs`.)

use std::time::{Duration, Instant};

use anyhow::{ensure, Context as _};
use riskintel_server::config::Config;
use riskintel_tests::{Backend, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const HEADER_MS: u64 = 600;
const BODY_MS: u64 = 800;
const SHUTDOWN_MS: u64 = 300;
/// Slack for scheduling on a loaded two-core machine.
const SLACK: Duration = Duration::from_millis(1_000);

fn address(server: &TestServer) -> String {
    server.base_url.trim_start_matches("http://").to_string()
}

/// Read until the server closes the connection (or `limit` passes); what
/// was read and how long after `since` the close came.
async fn until_closed(
    stream: &mut TcpStream,
    since: Instant,
    limit: Duration,
) -> anyhow::Result<(Vec<u8>, Duration)> {
    let mut read = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at((since + limit).into(), stream.read(&mut buf)).await {
            Err(_) => anyhow::bail!(
                "still open after {limit:?}; read {:?}",
                String::from_utf8_lossy(&read)
            ),
            Ok(Ok(0)) | Ok(Err(_)) => return Ok((read, since.elapsed())),
            Ok(Ok(n)) => read.extend_from_slice(&buf[..n]),
        }
    }
}

/// Send `chunks` with `gap` between them, ignoring a connection the server
/// has already closed.
async fn trickle(stream: &mut TcpStream, chunks: &[&[u8]], gap: Duration) {
    for chunk in chunks {
        if stream.write_all(chunk).await.is_err() {
            return;
        }
        tokio::time::sleep(gap).await;
    }
}

conformance!(slow_and_idle_connections_are_closed_and_capped);
pub async fn slow_and_idle_connections_are_closed_and_capped(
    backend: Backend,
) -> anyhow::Result<()> {
    let mut config = server_config();
    config.connections.header_read_timeout_ms = HEADER_MS;
    config.connections.body_read_timeout_ms = BODY_MS;
    config.connections.shutdown_timeout_ms = SHUTDOWN_MS;
    let server = TestServer::start_with(backend, config).await?;
    let addr = address(&server);
    let key = server.owner_key();
    let header = Duration::from_millis(HEADER_MS);

    // A connection that sends nothing.
    let started = Instant::now();
    let mut silent = TcpStream::connect(&addr).await?;
    let (_, took) = until_closed(&mut silent, started, header + SLACK)
        .await
        .context("a connection that sends nothing")?;
    ensure!(
        took >= header - Duration::from_millis(50),
        "closed early: {took:?}"
    );
    println!("silent connection closed after {took:?} (limit {HEADER_MS} ms)");

    // A head sent a few bytes at a time, never finished.
    let started = Instant::now();
    let mut slow_head = TcpStream::connect(&addr).await?;
    let mut parts: Vec<&[u8]> = vec![b"GET /v1/health HTTP/1.1\r\n"];
    parts.extend([&b"x-a: b\r\n"[..]; 40]);
    let trickling = trickle(&mut slow_head, &parts, Duration::from_millis(100));
    let _ = tokio::time::timeout(header + SLACK, trickling).await;
    let (_, took) = until_closed(&mut slow_head, started, header + SLACK)
        .await
        .context("a head that never completes")?;
    println!("slow head closed after {took:?} (limit {HEADER_MS} ms)");

    // A body announced as 100 bytes that sends 10.
    let body = Duration::from_millis(BODY_MS);
    let mut short_body = TcpStream::connect(&addr).await?;
    short_body
        .write_all(
            format!(
                "POST /v1/developer/api-keys HTTP/1.1\r\nhost: {addr}\r\nx-api-key: {key}\r\n\
                 content-type: application/json\r\ncontent-length: 100\r\n\r\n{{\"name\":\"a"
            )
            .as_bytes(),
        )
        .await?;
    let started = Instant::now();
    let (answer, took) = until_closed(&mut short_body, started, body + SLACK)
        .await
        .context("a body that never completes")?;
    // Answered 400 (the body's deadline) and closed.
    let answer = String::from_utf8_lossy(&answer);
    ensure!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    ensure!(answer.contains("did not arrive within"), "{answer}");
    ensure!(
        took >= body - Duration::from_millis(50),
        "closed early: {took:?}"
    );
    println!("short body closed after {took:?} (limit {BODY_MS} ms)");

    // A chunked body whose chunks keep coming but never end.
    let mut endless = TcpStream::connect(&addr).await?;
    endless
        .write_all(
            format!(
                "POST /v1/developer/api-keys HTTP/1.1\r\nhost: {addr}\r\nx-api-key: {key}\r\n\
                 content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
            )
            .as_bytes(),
        )
        .await?;
    let started = Instant::now();
    let _ = tokio::time::timeout(
        body + SLACK,
        trickle(
            &mut endless,
            &[&b"1\r\n \r\n"[..]; 40],
            Duration::from_millis(100),
        ),
    )
    .await;
    let (_, took) = until_closed(&mut endless, started, body + SLACK)
        .await
        .context("chunks that never end")?;
    println!("endless chunked body closed after {took:?} (limit {BODY_MS} ms)");

    // A keep-alive connection left idle after a complete exchange: the
    // next head is due within the header limit.
    let idle = Duration::from_millis(HEADER_MS);
    let mut kept = TcpStream::connect(&addr).await?;
    kept.write_all(format!("GET /v1/health HTTP/1.1\r\nhost: {addr}\r\n\r\n").as_bytes())
        .await?;
    let started = Instant::now();
    let (answer, took) = until_closed(&mut kept, started, idle + SLACK)
        .await
        .context("an idle keep-alive connection")?;
    let answer = String::from_utf8_lossy(&answer);
    ensure!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    ensure!(
        took >= idle - Duration::from_millis(50),
        "closed early: {took:?}"
    );
    println!("idle keep-alive connection closed after {took:?} (limit {HEADER_MS} ms)");

    // A complete request sent slowly but within the limits is served.
    let mut patient = TcpStream::connect(&addr).await?;
    let request = format!("GET /v1/health HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n");
    let (first, second) = request.as_bytes().split_at(10);
    trickle(&mut patient, &[first, second], Duration::from_millis(200)).await;
    let (answer, _) = until_closed(&mut patient, Instant::now(), SLACK).await?;
    ensure!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&answer)
    );

    // Shutdown with a head half sent: it waits for it no longer than the
    // shutdown limit (then the connection is cut).
    let mut half = TcpStream::connect(&addr).await?;
    half.write_all(b"GET /v1/health HTTP/1.1\r\nhost: x\r\n")
        .await?;
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Timed: the server's shutdown alone, not the dropping of its test database after.
    let started = Instant::now();
    let database = server.stop_keeping_database().await?;
    let took = started.elapsed();
    database.drop_database().await?;
    ensure!(
        took < Duration::from_millis(SHUTDOWN_MS) + SLACK / 2,
        "shutdown took {took:?}"
    );
    let mut rest = Vec::new();
    let cut = tokio::time::timeout(SLACK, half.read_to_end(&mut rest)).await;
    ensure!(
        matches!(cut, Ok(_)),
        "the half-sent head's connection is still open"
    );
    println!("shutdown with a half-sent head took {took:?}");
    Ok(())
}

conformance!(connections_past_the_cap_are_refused_cleanly);
pub async fn connections_past_the_cap_are_refused_cleanly(backend: Backend) -> anyhow::Result<()> {
    const CAP: usize = 4;
    let mut config = server_config();
    config.connections.max_connections = CAP;
    let server = TestServer::start_with(backend, config).await?;
    let addr = address(&server);

    let mut held = Vec::new();
    for _ in 0..CAP {
        held.push(TcpStream::connect(&addr).await?);
    }
    // Let the front count them.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut over = TcpStream::connect(&addr).await?;
    over.write_all(format!("GET /v1/health HTTP/1.1\r\nhost: {addr}\r\n\r\n").as_bytes())
        .await?;
    let (answer, _) = until_closed(&mut over, Instant::now(), SLACK * 3).await?;
    let answer = String::from_utf8_lossy(&answer);
    ensure!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    ensure!(
        answer.to_ascii_lowercase().contains("retry-after: 1"),
        "{answer}"
    );
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    let envelope: serde_json::Value = serde_json::from_str(body).context("refusal body")?;
    ensure!(
        envelope["error"]["code"] == "UPSTREAM_UNAVAILABLE",
        "{envelope}"
    );

    // Others close: service resumes.
    held.truncate(CAP - 2);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let health = server.anonymous().health_get().await?.into_inner();
    ensure!(health.database.reachable, "{health:?}");
    drop(held);
    server.stop().await
}

/// A server serving no chain, without the market index.
fn server_config() -> Config {
    let mut config = Config {
        chains: Default::default(),
        ..Config::default()
    };
    config.market.enabled = false;
    config
}
