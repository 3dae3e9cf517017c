//! The `riskintel` command line, run as a user runs it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn temp_db(name: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("riskintel-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("cli.db").display());
    (dir, url)
}

fn riskintel(args: &[&str], database_url: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_riskintel"))
        .args(args)
        .env("RISKINTEL_DATABASE_URL", database_url)
        .env("RISKINTEL_MARKET_ENABLED", "false")
        .env("RISKINTEL_SCREENING_SOURCES", "[]")
        .output()
        .expect("riskintel runs")
}

fn json_of(output: &Output) -> serde_json::Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON output")
}

#[test]
fn every_command_has_help() {
    for args in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["migrate", "--help"],
        vec!["accounts", "--help"],
        vec!["accounts", "create", "--help"],
        vec!["accounts", "set-plan", "--help"],
        vec!["accounts", "list", "--help"],
        vec!["keys", "--help"],
        vec!["keys", "create", "--help"],
        vec!["keys", "list", "--help"],
        vec!["keys", "revoke", "--help"],
        vec!["reports", "--help"],
        vec!["reports", "list", "--help"],
        vec!["reports", "answer", "--help"],
        vec!["overrides", "--help"],
        vec!["overrides", "set", "--help"],
        vec!["overrides", "list", "--help"],
        vec!["overrides", "remove", "--help"],
        vec!["openapi", "--help"],
    ] {
        let output = riskintel(&args, "sqlite::memory:");
        assert!(output.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stdout).contains("Usage:"),
            "{args:?}"
        );
    }
}

#[test]
fn accounts_and_keys_are_managed_from_the_command_line() {
    let (dir, url) = temp_db("accounts");
    let migrated = riskintel(&["migrate"], &url);
    assert!(migrated.status.success());
    assert!(String::from_utf8_lossy(&migrated.stdout).contains("up to date"));

    let created = json_of(&riskintel(
        &[
            "accounts", "create", "--name", "acme", "--plan", "free", "--json",
        ],
        &url,
    ));
    let account = created["account_id"].as_str().unwrap().to_string();
    let key = created["key"].as_str().unwrap();
    assert!(account.starts_with("acct_"));
    assert!(key.starts_with(&format!("ri_live_{}.", created["key_id"].as_str().unwrap())));
    assert_eq!(created["plan"], "free");

    let set = riskintel(
        &[
            "accounts",
            "set-plan",
            "--account",
            &account,
            "--plan",
            "pro",
        ],
        &url,
    );
    assert!(set.status.success());
    let listed = json_of(&riskintel(&["accounts", "list", "--json"], &url));
    assert_eq!(listed[0]["plan"], "pro");

    let made = json_of(&riskintel(
        &[
            "keys",
            "create",
            "--account",
            &account,
            "--name",
            "ci",
            "--scope",
            "token:read",
            "--json",
        ],
        &url,
    ));
    assert_eq!(made["scopes"], serde_json::json!(["token:read"]));
    let key_id = made["key_id"].as_str().unwrap().to_string();
    let keys = json_of(&riskintel(
        &["keys", "list", "--account", &account, "--json"],
        &url,
    ));
    assert_eq!(keys.as_array().unwrap().len(), 2);
    assert!(
        !keys.to_string().contains(made["key"].as_str().unwrap()),
        "listing shows no secret"
    );

    let dup = riskintel(
        &["keys", "create", "--account", &account, "--name", "ci"],
        &url,
    );
    assert!(!dup.status.success());
    assert!(String::from_utf8_lossy(&dup.stderr).contains("already has a key named"));

    assert!(riskintel(&["keys", "revoke", "--key-id", &key_id], &url)
        .status
        .success());
    let keys = json_of(&riskintel(
        &["keys", "list", "--account", &account, "--json"],
        &url,
    ));
    assert_eq!(keys.as_array().unwrap().len(), 1);

    let bad_plan = riskintel(
        &["accounts", "create", "--name", "x", "--plan", "gold"],
        &url,
    );
    assert!(!bad_plan.status.success());
    assert!(String::from_utf8_lossy(&bad_plan.stderr).contains("unknown plan"));
    let bad_scope = riskintel(
        &[
            "keys",
            "create",
            "--account",
            &account,
            "--name",
            "y",
            "--scope",
            "root",
        ],
        &url,
    );
    assert!(String::from_utf8_lossy(&bad_scope.stderr).contains("unknown scope"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn openapi_prints_the_published_document() {
    let output = riskintel(&["openapi"], "sqlite::memory:");
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        riskintel_api::openapi_document()
    );
}

#[test]
fn bad_configuration_is_reported() {
    let output = Command::new(env!("CARGO_BIN_EXE_riskintel"))
        .args(["accounts", "list"])
        .env("RISKINTEL_AUTH_FAILED_AUTH_PER_MINUTE", "lots")
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("RISKINTEL_AUTH_FAILED_AUTH_PER_MINUTE")
    );
    let output = riskintel(&["accounts", "list"], "mysql://nope");
    assert!(String::from_utf8_lossy(&output.stderr).contains("unsupported database URL"));
    // A sealing key that is not 32 bytes of hex stops `serve` before it listens.
    let (dir, url) = temp_db("sealing-key");
    let output = Command::new(env!("CARGO_BIN_EXE_riskintel"))
        .args(["serve", "--listen", "127.0.0.1:0", "--database-url", &url])
        .env("RISKINTEL_MARKET_ENABLED", "false")
        .env("RISKINTEL_SCREENING_SOURCES", "[]")
        .env("RISKINTEL_METRICS_LISTEN", "")
        .env("RISKINTEL_WEBHOOKS_SECRETS_KEY", "0badc0de")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("webhooks.secrets_key: must be 64 hex digits"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&output.stdout).contains("listening"));
    let _ = std::fs::remove_dir_all(dir);
}

/// Start `serve` on `url`; the child, the key it printed (if any), and its port.
fn spawn_serve(url: &str) -> (std::process::Child, Option<String>, u16) {
    spawn_serve_with(url, &[])
}

/// [`spawn_serve`] with more configuration from the environment.
fn spawn_serve_with(url: &str, env: &[(&str, &str)]) -> (std::process::Child, Option<String>, u16) {
    // No chain is reachable from tests: keep the market index from polling the mainnet defaults.
    let mut server = Command::new(env!("CARGO_BIN_EXE_riskintel"))
        .args(["serve", "--listen", "127.0.0.1:0", "--database-url", url])
        .env("RISKINTEL_MARKET_ENABLED", "false")
        .env("RISKINTEL_SCREENING_SOURCES", "[]")
        .env("RISKINTEL_METRICS_LISTEN", "127.0.0.1:0")
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut key = None;
    for line in BufReader::new(server.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(k) = line.split_whitespace().find(|w| w.starts_with("ri_live_")) {
            key = Some(k.to_string());
        }
        if let Some(addr) = line.strip_prefix("riskintel listening on http://") {
            let port = addr.rsplit(':').next().unwrap().parse::<u16>().unwrap();
            return (server, key, port);
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    panic!("serve exited before listening");
}

/// [`spawn_serve`] with metrics on a port of their own: the child, the key
/// it printed (if any), its port and its metrics port.
fn spawn_serve_with_metrics(url: &str) -> (std::process::Child, Option<String>, u16, u16) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_riskintel"))
        .args(["serve", "--listen", "127.0.0.1:0", "--database-url", url])
        .env("RISKINTEL_MARKET_ENABLED", "false")
        .env("RISKINTEL_SCREENING_SOURCES", "[]")
        .env("RISKINTEL_METRICS_LISTEN", "127.0.0.1:0")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (mut metrics_port, mut key) = (None, None);
    for line in BufReader::new(server.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(k) = line.split_whitespace().find(|w| w.starts_with("ri_live_")) {
            key = Some(k.to_string());
        }
        let port_of = |addr: &str| {
            addr.trim_end_matches("/metrics")
                .rsplit(':')
                .next()
                .unwrap()
                .parse::<u16>()
                .unwrap()
        };
        if let Some(addr) = line.strip_prefix("riskintel metrics on http://") {
            metrics_port = Some(port_of(addr));
        }
        if let Some(addr) = line.strip_prefix("riskintel listening on http://") {
            let metrics_port = metrics_port.expect("metrics address printed");
            return (server, key, port_of(addr), metrics_port);
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    panic!("serve exited before listening");
}

/// `serve` on an empty database prints an owner key once, and that key
/// works against the running server; a restart prints none.
#[test]
fn serve_bootstraps_an_owner_and_its_key_works() {
    let (dir, url) = temp_db("serve");
    let (mut server, key, port) = spawn_serve(&url);
    let key = key.expect("a key was printed");
    let response = get(port, "/v1/billing/status", Some(&key));
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("\"plan\":\"pro_plus\""), "{response}");
    assert!(
        response
            .to_ascii_lowercase()
            .contains("x-ratelimit-remaining: 5999"),
        "{response}"
    );
    // Graceful shutdown on SIGTERM.
    Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    let status = server.wait().unwrap();
    assert!(status.success(), "clean exit on SIGTERM: {status}");

    // Second start: no new owner, the old key still works, usage was kept.
    let (mut server, second_key, port) = spawn_serve(&url);
    assert!(second_key.is_none(), "no second owner key");
    let response = get(port, "/v1/billing/status", Some(&key));
    assert!(response.contains("\"requests_used\":2"), "{response}");
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(dir);
}

/// `serve` prints where its metrics are; they answer in the Prometheus
/// text format, counting the requests served, and the public port has none.
/// `RISKINTEL_METRICS_LISTEN=""` turns them off.
#[test]
fn serve_exposes_metrics_on_their_own_listener() {
    let (dir, url) = temp_db("metrics");
    let (mut server, key, port, metrics_port) = spawn_serve_with_metrics(&url);
    let answered = get(port, "/v1/billing/status", key.as_deref());
    assert!(answered.starts_with("HTTP/1.1 200"), "{answered}");
    let metrics = get(metrics_port, "/metrics", None);
    assert!(metrics.starts_with("HTTP/1.1 200"), "{metrics}");
    assert!(
        metrics.contains("content-type: text/plain; version=0.0.4"),
        "{metrics}"
    );
    assert!(
        metrics.contains(
            r#"riskintel_http_requests_total{operation="billing_status_get",status="200"} 1"#
        ),
        "{metrics}"
    );
    assert!(get(port, "/metrics", None).starts_with("HTTP/1.1 404"));
    let _ = server.kill();
    let _ = server.wait();

    // Off: no metrics line, and the server still starts.
    let (mut server, _, port) = spawn_serve_with(&url, &[("RISKINTEL_METRICS_LISTEN", "")]);
    assert!(get(port, "/v1/health", None).starts_with("HTTP/1.1 200"));
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(dir);
}

/// SIGKILL in the middle of steady traffic loses at most the usage
/// answered since the last flush: every 2xx answered more than one flush
/// interval (plus scheduling slack) before the kill is counted after a
/// restart, and nothing is counted twice.
#[test]
fn sigkill_under_load_loses_at_most_one_flush_interval() {
    const FLUSH_MS: u64 = 500;
    const SLACK_MS: u64 = 500;
    const CLIENTS: usize = 4;
    let (dir, url) = temp_db("sigkill");
    let flush = FLUSH_MS.to_string();
    let env = [("RISKINTEL_METERING_USAGE_FLUSH_MS", flush.as_str())];
    let (mut server, key, port) = spawn_serve_with(&url, &env);
    let key = key.expect("a key was printed");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Fewer than the owner's 6,000 a minute, so the read after the restart
    // is never rate-limited however fast the machine is.
    let attempts = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (key, stop, attempts) = (key.clone(), stop.clone(), attempts.clone());
            std::thread::spawn(move || {
                let mut answered = Vec::new();
                while !stop.load(std::sync::atomic::Ordering::Relaxed)
                    && attempts.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 5_000
                {
                    match try_get(port, "/v1/billing/status", Some(&key)) {
                        Some(r) if r.starts_with("HTTP/1.1 200") => {
                            answered.push(std::time::Instant::now())
                        }
                        Some(_) => {}
                        None => break,
                    }
                }
                answered
            })
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(2_200));
    let killed_at = std::time::Instant::now();
    server.kill().unwrap();
    let _ = server.wait();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let answered: Vec<std::time::Instant> = clients
        .into_iter()
        .flat_map(|c| c.join().unwrap())
        .collect();
    let window = std::time::Duration::from_millis(FLUSH_MS + SLACK_MS);
    let before_window = answered.iter().filter(|t| **t + window < killed_at).count();

    let (mut server, _, port) = spawn_serve_with(&url, &env);
    let response = get(port, "/v1/billing/status", Some(&key));
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(dir);
    let body = response.split("\r\n\r\n").nth(1).unwrap_or_default();
    let used = serde_json::from_str::<serde_json::Value>(body).unwrap()["requests_used"]
        .as_i64()
        .unwrap_or_else(|| panic!("requests_used in {response}"));
    // This request counts itself.
    let stored = used as usize - 1;
    assert!(
        before_window > 50,
        "load too light to judge: {before_window}"
    );
    assert!(
        stored >= before_window,
        "lost usage answered more than {window:?} before the kill: stored {stored}, answered by then {before_window}, in all {}",
        answered.len()
    );
    assert!(
        stored <= answered.len() + CLIENTS,
        "counted more than was answered: stored {stored}, answered {}",
        answered.len()
    );
}

fn get(port: u16, path: &str, key: Option<&str>) -> String {
    try_get(port, path, key).expect("the server answers")
}

/// One request on a new connection; None when the connection fails.
fn try_get(port: u16, path: &str, key: Option<&str>) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    let key_header = key
        .map(|k| format!("x-api-key: {k}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{key_header}Connection: close\r\n\r\n"
    )
    .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    Some(response)
}

/// The operator's side of disputes: overrides set, listed and removed,
/// reports listed and answered (refusals included), and both in the
/// metrics of a running server.
#[test]
fn disputes_are_handled_from_the_command_line() {
    let (dir, url) = temp_db("disputes");
    let set = json_of(&riskintel(
        &[
            "overrides",
            "set",
            "--chain",
            "eth",
            "--address",
            "0x6b175474e89094c44da98b954eedeac495271d0f",
            "--label",
            "safe",
            "--reason",
            "Audited: the mint role is a timelock",
            "--expires",
            "30d",
            "--by",
            "alice",
            "--json",
        ],
        &url,
    ));
    assert_eq!(set["address"], "0x6B175474E89094C44Da98b954EedeAC495271d0F");
    assert_eq!(
        (set["label"].as_str(), set["set_by"].as_str()),
        (Some("safe"), Some("alice"))
    );
    assert!(set["expires_at"].is_string(), "{set}");
    let listed = json_of(&riskintel(&["overrides", "list", "--json"], &url));
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");

    let token = "0x6b175474e89094c44da98b954eedeac495271d0f";
    for (line, says) in [
        (format!("overrides set --chain eth --address {token} --label fine --reason r"), "safe, caution, risky, critical"),
        (format!("overrides set --chain eth --address {token} --label safe --reason r --expires soon"), "--expires"),
        (format!("overrides set --chain doge --address {token} --label safe --reason r"), "--chain"),
        ("overrides remove --chain eth --address 0x0000000000000000000000000000000000000001".into(), "has no override"),
        ("reports list --status closed".into(), "open, accepted, rejected"),
        ("reports answer --id rep_zzzzzzzzzzzz --accept --message m".into(), "not found"),
        ("reports answer --id rep_zzzzzzzzzzzz --message m".into(), "--reject"),
    ] {
        let args: Vec<&str> = line.split_whitespace().collect();
        let output = riskintel(&args, &url);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success() && stderr.contains(says),
            "{args:?}: {stderr}"
        );
    }
    assert_eq!(
        json_of(&riskintel(&["reports", "list", "--json"], &url)),
        serde_json::json!([])
    );

    // A report as a user's request leaves it (written here with Python's
    // sqlite3: no chain answers in this test), listed and answered once.
    let account = json_of(&riskintel(
        &["accounts", "create", "--name", "reporter", "--json"],
        &url,
    ));
    let written = Command::new("python3")
        .args(["-c", INSERT_REPORT])
        .arg(dir.join("cli.db"))
        .arg(account["account_id"].as_str().unwrap())
        .status()
        .expect("python3 runs");
    assert!(written.success());
    let listed = json_of(&riskintel(
        &["reports", "list", "--status", "open", "--json"],
        &url,
    ));
    assert_eq!(listed[0]["id"], "rep_000000000001", "{listed}");
    assert_eq!(listed[0]["account_id"], account["account_id"], "{listed}");
    assert_eq!(listed[0]["reason"], "spam\u{1b}[2J <b>kept</b>", "{listed}");
    let text = riskintel(&["reports", "list"], &url);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("\\u{1b}[2J") && !text.contains('\u{1b}'),
        "escaped for a terminal: {text}"
    );
    let answer = [
        "reports",
        "answer",
        "--id",
        "rep_000000000001",
        "--accept",
        "--message",
        "Relabelled",
        "--json",
    ];
    let answered = json_of(&riskintel(&answer, &url));
    assert_eq!(
        (answered["status"].as_str(), answered["answer"].as_str()),
        (Some("accepted"), Some("Relabelled"))
    );
    let again = riskintel(&answer, &url);
    assert!(
        !again.status.success()
            && String::from_utf8_lossy(&again.stderr).contains("answered already")
    );

    let (mut server, _, _, metrics_port) = spawn_serve_with_metrics(&url);
    let metrics = get(metrics_port, "/metrics", None);
    assert!(
        metrics.contains("riskintel_overrides_in_force 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains(r#"riskintel_reports{kind="false_positive",status="accepted"} 1"#)
            && metrics.contains(r#"riskintel_reports{kind="false_positive",status="open"} 0"#),
        "{metrics}"
    );
    let _ = server.kill();
    let _ = server.wait();

    let removed = riskintel(
        &[
            "overrides",
            "remove",
            "--chain",
            "eth",
            "--address",
            "0x6B175474E89094C44Da98b954EedeAC495271d0F",
        ],
        &url,
    );
    assert!(
        removed.status.success(),
        "{}",
        String::from_utf8_lossy(&removed.stderr)
    );
    assert_eq!(
        json_of(&riskintel(&["overrides", "list", "--json"], &url)),
        serde_json::json!([])
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Writes one open report of the account `argv[2]` into the SQLite file `argv[1]`.
const INSERT_REPORT: &str = r#"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute(
    "INSERT INTO reports (id, account_id, chain, token, kind, reason, contact, score, label, status, "
    "answer, answered_at, created_at) VALUES ('rep_000000000001', ?, 'eth', "
    "'0x6B175474E89094C44Da98b954EedeAC495271d0F', 'false_positive', ?, NULL, 61.5, 'risky', 'open', "
    "NULL, NULL, '2026-11-28T06:00:00+00:00')",
    (sys.argv[2], "spam\x1b[2J <b>kept</b>"),
)
db.commit()
"#;
