//! Byte sequences a hostile (or merely odd) client sends, tried against
//! `riskintel serve` as it runs: each case, on a raw connection of its own,
//! must be answered or closed within the configured limit; then, with the
//! same bytes sent on a new connection that is still open, SIGTERM must end
//! the server within `shutdown_timeout_ms`. One HTTP parser (hyper's)
//! decides what every sequence means, so none of them can hold a
//! connection, or a shutdown, past a limit.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const HEADER_MS: u64 = 1_000;
const BODY_MS: u64 = 1_500;
const WRITE_MS: u64 = 1_000;
const SHUTDOWN_MS: u64 = 1_500;
/// Scheduling slack on a loaded two-core machine.
const SLACK: Duration = Duration::from_millis(1_500);

fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}

/// What a case sends after connecting.
enum Send {
    /// These bytes at once.
    Bytes(Vec<u8>),
    /// The head at once, then the body one byte a second from another thread.
    Drip(Vec<u8>, Vec<u8>),
    /// The head, then (once `100 Continue` has come) the body.
    AfterContinue(Vec<u8>, Vec<u8>),
    /// Nothing at all.
    Nothing,
    /// These bytes from another thread, never reading the answers.
    NeverRead(Vec<u8>),
}

struct Case {
    name: &'static str,
    send: Send,
    /// The connection must be closed this long after it opened.
    closed_within: Duration,
    /// Checks what was read before the close.
    check: fn(&str) -> Result<(), String>,
}

fn head(method: &str, path: &str, headers: &str) -> String {
    format!("{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\n{headers}\r\n")
}

fn chunked(headers: &str, body: &str) -> Vec<u8> {
    let mut bytes = head(
        "POST",
        "/v1/webhooks",
        &format!("content-type: application/json\r\n{headers}"),
    );
    bytes.push_str(body);
    bytes.into_bytes()
}

/// Refused or answered with a client error, or closed without a word.
fn refused_or_closed(read: &str) -> Result<(), String> {
    if read.is_empty() || read.starts_with("HTTP/1.1 4") || read.starts_with("HTTP/1.1 5") {
        Ok(())
    } else {
        Err(format!("unexpected answer: {read:?}"))
    }
}

/// The status lines of the answers read (an answer's body ends without a
/// line break, so the next status line may follow it on the same line).
fn statuses(read: &str) -> Vec<&str> {
    read.match_indices("HTTP/1.")
        .map(|(at, _)| read[at..].split("\r\n").next().unwrap_or_default())
        .collect()
}

fn cases() -> Vec<Case> {
    let header = ms(HEADER_MS) + SLACK;
    let body = ms(BODY_MS) + SLACK;
    let chunked_te = "transfer-encoding: chunked\r\n";
    vec![
        Case {
            name: "a trailer line ending in a bare LF",
            send: Send::Bytes(chunked(chunked_te, "2\r\n{}\r\n0\r\nx: 1\n\r\n")),
            closed_within: body.max(header),
            check: refused_or_closed,
        },
        Case {
            name: "a trailer line ending in CRLF",
            send: Send::Bytes(chunked(chunked_te, "2\r\n{}\r\n0\r\nx: 1\r\n\r\n")),
            // Answered at once (the body lacks a URL), then kept alive
            // until the next head is late.
            closed_within: header,
            check: |read| match statuses(read).as_slice() {
                [one] if one.starts_with("HTTP/1.1 4") => Ok(()),
                other => Err(format!("{other:?}")),
            },
        },
        Case {
            name: "Content-Length with Transfer-Encoding",
            send: Send::Bytes(chunked(
                "content-length: 5\r\ntransfer-encoding: chunked\r\n",
                "2\r\n{}\r\n0\r\n\r\n",
            )),
            closed_within: body.max(header),
            check: refused_or_closed,
        },
        Case {
            name: "two Transfer-Encoding headers",
            send: Send::Bytes(chunked(
                "transfer-encoding: chunked\r\ntransfer-encoding: chunked\r\n",
                "2\r\n{}\r\n0\r\n\r\n",
            )),
            closed_within: body.max(header),
            check: refused_or_closed,
        },
        Case {
            name: "chunked not the last coding",
            send: Send::Bytes(chunked("transfer-encoding: chunked, identity\r\n", "2\r\n{}\r\n0\r\n\r\n")),
            closed_within: body.max(header),
            check: refused_or_closed,
        },
        Case {
            name: "a 20-digit chunk size",
            send: Send::Bytes(chunked(chunked_te, "ffffffffffffffffffff\r\n{}")),
            closed_within: body.max(header),
            check: refused_or_closed,
        },
        Case {
            name: "an obs-folded header",
            send: Send::Bytes(head("GET", "/v1/health", "x-a: b\r\n c\r\n").into_bytes()),
            closed_within: header,
            check: refused_or_closed,
        },
        Case {
            name: "a 100 KiB head",
            send: Send::Bytes(head("GET", "/v1/health", &format!("x-big: {}\r\n", "a".repeat(100 * 1024))).into_bytes()),
            closed_within: header,
            check: |read| {
                refused_or_closed(read)?;
                (!read.contains(" 200 ")).then_some(()).ok_or_else(|| "served".to_string())
            },
        },
        Case {
            name: "an HTTP/2 prior-knowledge preface",
            send: Send::Bytes(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00".to_vec()),
            closed_within: header,
            check: refused_or_closed,
        },
        Case {
            name: "three pipelined requests with their own ids",
            send: Send::Bytes(
                [
                    head("GET", "/v1/health", "x-request-id: first-1\r\n"),
                    head("GET", "/v1/health", ""),
                    head("GET", "/v1/health", "x-request-id: third.3\r\nconnection: close\r\n"),
                ]
                .concat()
                .into_bytes(),
            ),
            closed_within: header,
            check: |read| {
                let ids: Vec<&str> = read
                    .split("\r\n")
                    .filter_map(|l| l.strip_prefix("x-request-id: "))
                    .collect();
                match (statuses(read).len(), ids.as_slice()) {
                    (3, ["first-1", made, "third.3"]) if made.len() == 36 => Ok(()),
                    other => Err(format!("{other:?} in {read:?}")),
                }
            },
        },
        Case {
            name: "Expect: 100-continue",
            send: Send::AfterContinue(
                head(
                    "POST",
                    "/v1/webhooks",
                    "content-type: application/json\r\ncontent-length: 2\r\nexpect: 100-continue\r\nconnection: close\r\n",
                )
                .into_bytes(),
                b"{}".to_vec(),
            ),
            closed_within: header,
            check: |read| match statuses(read).as_slice() {
                // The body is read (and found to lack a URL).
                [cont, answer] if cont.starts_with("HTTP/1.1 100") && answer.starts_with("HTTP/1.1 4") => Ok(()),
                other => Err(format!("{other:?}")),
            },
        },
        Case {
            name: "HTTP/1.0 keep-alive",
            send: Send::Bytes(b"GET /v1/health HTTP/1.0\r\nconnection: keep-alive\r\n\r\n".to_vec()),
            closed_within: header,
            check: |read| match statuses(read).as_slice() {
                [one] if one.contains(" 200 ") && read.to_ascii_lowercase().contains("connection: keep-alive") => Ok(()),
                other => Err(format!("{other:?} in {read:?}")),
            },
        },
        Case {
            name: "a body dripped one byte a second",
            send: Send::Drip(
                head("POST", "/v1/webhooks", "content-type: application/json\r\ncontent-length: 60\r\n").into_bytes(),
                format!("{{\"url\":\"{}\"}}", "x".repeat(50)).into_bytes(),
            ),
            // The body's deadline: answered 400 and closed.
            closed_within: body,
            check: |read| {
                read.starts_with("HTTP/1.1 400")
                    .then_some(())
                    .ok_or_else(|| format!("not a 400: {read:?}"))
            },
        },
        Case {
            name: "a connection that sends nothing",
            send: Send::Nothing,
            closed_within: header,
            check: |read| read.is_empty().then_some(()).ok_or_else(|| read.to_string()),
        },
        Case {
            name: "a client that never reads a large answer",
            send: Send::NeverRead(head("GET", "/docs/errors", "").repeat(4_000).into_bytes()),
            closed_within: ms(WRITE_MS) + SLACK * 2,
            check: |_| Ok(()),
        },
    ]
}

/// `riskintel serve` with the test's limits, on a database of its own.
struct Server {
    child: Child,
    port: u16,
    dir: std::path::PathBuf,
}

impl Server {
    fn start(name: &str) -> Server {
        let dir =
            std::env::temp_dir().join(format!("riskintel-hostile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("hostile.db").display());
        let mut child = Command::new(env!("CARGO_BIN_EXE_riskintel"))
            .args(["serve", "--listen", "127.0.0.1:0", "--database-url", &url])
            .env("RISKINTEL_MARKET_ENABLED", "false")
            .env("RISKINTEL_SCREENING_SOURCES", "[]")
            .env("RISKINTEL_METRICS_LISTEN", "")
            .env(
                "RISKINTEL_CONNECTIONS_HEADER_READ_TIMEOUT_MS",
                HEADER_MS.to_string(),
            )
            .env(
                "RISKINTEL_CONNECTIONS_BODY_READ_TIMEOUT_MS",
                BODY_MS.to_string(),
            )
            .env(
                "RISKINTEL_CONNECTIONS_WRITE_TIMEOUT_MS",
                WRITE_MS.to_string(),
            )
            .env(
                "RISKINTEL_CONNECTIONS_SHUTDOWN_TIMEOUT_MS",
                SHUTDOWN_MS.to_string(),
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        for line in lines.by_ref() {
            let line = line.unwrap();
            if let Some(addr) = line.strip_prefix("riskintel listening on http://") {
                let port = addr.rsplit(':').next().unwrap().parse::<u16>().unwrap();
                // Keep draining what it prints, so it never blocks on the pipe.
                std::thread::spawn(move || lines.for_each(drop));
                return Server { child, port, dir };
            }
        }
        let _ = child.kill();
        panic!("serve exited before listening");
    }

    fn connect(&self) -> TcpStream {
        TcpStream::connect(("127.0.0.1", self.port)).unwrap()
    }

    /// SIGTERM; how long it took to exit, and whether it exited cleanly.
    fn terminate(mut self) -> Result<Duration, String> {
        let started = Instant::now();
        Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        let limit = ms(SHUTDOWN_MS) + SLACK;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let _ = std::fs::remove_dir_all(&self.dir);
                return if status.success() {
                    Ok(started.elapsed())
                } else {
                    Err(format!("exited with {status}"))
                };
            }
            if started.elapsed() > limit {
                let _ = self.child.kill();
                let _ = self.child.wait();
                let _ = std::fs::remove_dir_all(&self.dir);
                return Err(format!("still running {limit:?} after SIGTERM"));
            }
            std::thread::sleep(ms(20));
        }
    }
}

/// Send what the case sends on `stream` (a thread for drips and floods).
fn send(stream: &TcpStream, send: &Send) {
    let mut writer = stream.try_clone().unwrap();
    match send {
        Send::Bytes(bytes) => {
            let _ = writer.write_all(bytes);
        }
        Send::Drip(head, body) => {
            let _ = writer.write_all(head);
            let body = body.clone();
            std::thread::spawn(move || {
                for byte in body {
                    if writer.write_all(&[byte]).is_err() {
                        return;
                    }
                    std::thread::sleep(ms(1_000));
                }
            });
        }
        Send::NeverRead(bytes) => {
            let bytes = bytes.clone();
            std::thread::spawn(move || {
                let _ = writer.write_all(&bytes);
            });
        }
        Send::AfterContinue(head, body) => {
            let _ = writer.write_all(head);
            let mut reader = stream.try_clone().unwrap();
            let _ = reader.set_read_timeout(Some(ms(HEADER_MS)));
            let mut seen = Vec::new();
            let mut buf = [0u8; 256];
            while !String::from_utf8_lossy(&seen).contains("\r\n\r\n") {
                match reader.read(&mut buf) {
                    Ok(n) if n > 0 => seen.extend_from_slice(&buf[..n]),
                    _ => break,
                }
            }
            let _ = writer.write_all(body);
            // What came first is read again by the case: keep it readable.
            CONTINUED.with(|c| *c.borrow_mut() = seen);
        }
        Send::Nothing => {}
    }
}

thread_local! {
    /// The `100 Continue` a case read while sending.
    static CONTINUED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Read until the server closes the connection or `until` passes; what was
/// read, and whether it closed.
fn read_until_closed(stream: &mut TcpStream, until: Instant) -> (Vec<u8>, bool) {
    let mut read = CONTINUED.with(|c| std::mem::take(&mut *c.borrow_mut()));
    let mut buf = [0u8; 16 * 1024];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return (read, false);
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buf) {
            Ok(0) => return (read, true),
            Ok(n) => read.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return (read, false)
            }
            Err(_) => return (read, true),
        }
    }
}

/// One case: its own server, the case, then SIGTERM with the case's bytes
/// sent again on a connection left open.
fn run(case: &Case, index: usize) -> Result<String, String> {
    let server = Server::start(&index.to_string());
    let mut stream = server.connect();
    let opened = Instant::now();
    send(&stream, &case.send);
    let outcome = if let Send::NeverRead(_) = case.send {
        // Read nothing until well past the write limit, then see whether
        // the server is still there: it cut the connection while its
        // answers waited for the client.
        std::thread::sleep(case.closed_within);
        let (read, closed) = read_until_closed(&mut stream, Instant::now() + SLACK);
        let whole = 4_000 * 3_000;
        if closed && read.len() < whole {
            Ok(format!("cut after {} bytes of answers", read.len()))
        } else {
            Err(format!(
                "not cut: read {} bytes, closed {closed}",
                read.len()
            ))
        }
    } else {
        let (read, closed) = read_until_closed(&mut stream, opened + case.closed_within);
        let took = opened.elapsed();
        let text = String::from_utf8_lossy(&read).into_owned();
        if !closed {
            Err(format!("still open after {took:?}; read {text:?}"))
        } else {
            (case.check)(&text).map(|()| {
                let first = text.lines().next().unwrap_or("(closed without an answer)");
                format!("{first} — closed after {} ms", took.as_millis())
            })
        }
    };
    // The same bytes on a connection left open, then SIGTERM.
    let held = server.connect();
    if let Send::AfterContinue(head, _) = &case.send {
        let _ = (&held).write_all(head);
    } else {
        send(&held, &case.send);
    }
    std::thread::sleep(ms(100));
    let shutdown = server.terminate();
    drop(held);
    let outcome = outcome?;
    let took = shutdown.map_err(|e| format!("{outcome}; SIGTERM: {e}"))?;
    Ok(format!(
        "{outcome}; SIGTERM ended the server in {} ms",
        took.as_millis()
    ))
}

#[test]
fn hostile_byte_sequences_never_hold_a_connection_or_a_shutdown() {
    let cases = cases();
    let results: Vec<(String, Result<String, String>)> = std::thread::scope(|scope| {
        // Four at a time: the limits are short, the machine small.
        let mut results = Vec::new();
        for (chunk_index, chunk) in cases.chunks(4).enumerate() {
            let handles: Vec<_> = chunk
                .iter()
                .enumerate()
                .map(|(i, case)| {
                    scope.spawn(move || (case.name.to_string(), run(case, chunk_index * 4 + i)))
                })
                .collect();
            results.extend(handles.into_iter().map(|h| h.join().unwrap()));
        }
        results
    });
    let mut failed = Vec::new();
    for (name, result) in &results {
        match result {
            Ok(what) => println!("{name}: {what}"),
            Err(why) => {
                println!("{name}: FAILED: {why}");
                failed.push(name.clone());
            }
        }
    }
    assert!(failed.is_empty(), "failed: {failed:?}");
}
