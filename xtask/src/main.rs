//! Project tasks: `cargo xtask <task>`.
//!
//! - `openapi generate`: rewrite `openapi/riskintel.json` from the API trait.
//! - `openapi check`: fail when the checked-in document is stale.
//! - `openapi validate`: run an independent OpenAPI validator on it.
//! - `rig`: set up the test rig (anvil, Uniswap V2 artifacts, solcjs; compile the test contracts).
//! - `integrators`: install the integrators' tools (Redocly, the Python and
//!   TypeScript client generators, schemathesis, the validator).
//! - `test`: the whole test suite, with what it needs (PostgreSQL, the rig,
//!   the integrators' tools).
//! - `bench`: load numbers for health and billing status (needs `wrk`), the
//!   token benchmark, and the hot path against a bare dropshot endpoint.
//! - `vendor-check`: vendor/dropshot is the published crate plus its patch.
//! - `detection`: the adversarial corpus report (confusion table, honeypot precision and recall, tax error, round trips).
//! - `wild`: real tokens labelled by others (the Pied-Piper set), compiled with
//!   their own compilers, launched on anvil and analysed; per-label precision
//!   and recall; with `--crp`, the CRPWarner study's rug pulls of 2021–2023
//!   (the development half), F1 per Mint / Leak / Limit. Not part of the
//!   test command (CI has no copy of the sets).

use std::net::{TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use clap::{Parser, Subcommand};

mod hooks;
mod integrators;
mod vendor;

#[derive(Parser)]
#[command(name = "xtask", about = "Project tasks for riskintel")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// The OpenAPI document.
    #[command(subcommand)]
    Openapi(OpenapiTask),
    /// Set up the test rig: npm packages in tests/rig, test contracts compiled.
    Rig,
    /// Install the integrators' tools (Redocly, the client generators,
    /// schemathesis, openapi-spec-validator) from the npm and Python registries.
    Integrators,
    /// Check that vendor/dropshot is the published crate plus its patch
    /// (fetching the published crate through cargo).
    VendorCheck {
        /// Rewrite vendor/dropshot-<version>.patch from vendor/dropshot first.
        #[arg(long)]
        write_patch: bool,
    },
    /// Run the whole test suite (PostgreSQL included).
    Test {
        /// Extra arguments for `cargo test`.
        #[arg(trailing_var_arg = true)]
        args: Vec<String>,
    },
    /// The detection report: the adversarial corpus, proven on anvil, then
    /// analysed; confusion table, honeypot precision and recall, tax error,
    /// round trips and wall time per token.
    Detection {
        /// Latency added to every upstream request (ms).
        #[arg(long, default_value_t = 20)]
        latency_ms: u64,
        /// Fail on any wrong band, missing or unexpected signal, honeypot
        /// error, tax error over 1 pp, or more than 4 round trips.
        #[arg(long)]
        check: bool,
        /// Report one venue only: `rig` (the base scenario's corpus) or
        /// `wild` (tokens written as real ones are, on chain ids 1 and 56).
        #[arg(long)]
        only: Option<String>,
    },
    /// The real-token report: the Pied-Piper study's labelled tokens, each
    /// compiled with the compiler its pragma names, launched on anvil with
    /// Uniswap V2 at its mainnet addresses and analysed; per-label
    /// precision and recall, what could not be launched and why.
    Wild {
        /// The Pied-Piper repository (a checkout, or the bare repository
        /// the search tool's fetch brings); or RISKINTEL_WILD_DATA.
        #[arg(long, env = "RISKINTEL_WILD_DATA", required_unless_present = "control")]
        data: Option<PathBuf>,
        /// Only this token address.
        #[arg(long)]
        only: Option<String>,
        /// Print each label check that came back unknown, with its reason.
        #[arg(long)]
        verbose: bool,
        /// The study's injected set (contracts/manualcontract: one label
        /// per folder) instead of its labelled real tokens.
        #[arg(long)]
        injected: bool,
        /// The CRPWarner study's real rug pulls instead (--data is that
        /// repository): only the addresses of --dev, labelled Mint / Leak /
        /// Limit by the study's ground truth; F1 per label and their mean.
        #[arg(long, conflicts_with_all = ["injected", "control"])]
        crp: bool,
        /// The addresses of the CRPWarner set to measure on (the
        /// development half; the rest is held out and never read).
        #[arg(long, default_value = "../shared/eval/crpwarner-dev.txt")]
        dev: PathBuf,
        /// The legitimate control set (tests/wild/control.json) instead:
        /// each token's band against the bands written down for it.
        #[arg(long, requires = "mirrors")]
        control: bool,
        /// Where the control set's repositories are mirrored
        /// (<owner>+<name>/repo, bare, as the search tool's fetch brings them).
        #[arg(long, env = "RISKINTEL_WILD_MIRRORS")]
        mirrors: Option<PathBuf>,
    },
    /// Benchmarks: requests per second of health and billing status (release
    /// build, wrk), then token analysis on the rig (round trips, shared
    /// analyses, cached throughput).
    Bench {
        /// Seconds per measurement.
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Open connections.
        #[arg(long, default_value_t = 32)]
        connections: u64,
        /// Database URL to bench against (default: a fresh SQLite file).
        #[arg(long)]
        database_url: Option<String>,
    },
}

#[derive(Subcommand)]
enum OpenapiTask {
    /// Rewrite openapi/riskintel.json.
    Generate,
    /// Fail if openapi/riskintel.json is not what the trait generates.
    Check,
    /// Validate openapi/riskintel.json with openapi-spec-validator (PyPI).
    Validate,
    /// Record every operation's example (openapi/examples.json) from the
    /// partners' TypeScript smoke script against the test rig, then rewrite
    /// the document.
    Examples,
}

fn main() {
    if let Err(error) = run(Cli::parse()) {
        eprintln!("xtask: {error:#}");
        std::process::exit(1);
    }
}

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn document_path() -> PathBuf {
    root().join("openapi/riskintel.json")
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.task {
        Task::Openapi(OpenapiTask::Generate) => {
            std::fs::write(document_path(), riskintel_api::openapi_document())?;
            println!("wrote {}", document_path().display());
            Ok(())
        }
        Task::Openapi(OpenapiTask::Check) => openapi_check(),
        Task::Openapi(OpenapiTask::Validate) => openapi_validate(),
        Task::Openapi(OpenapiTask::Examples) => {
            rig()?;
            integrators::install()?;
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let examples = root().join("openapi/examples.json");
            let recorded = Command::new(&cargo)
                .current_dir(root())
                .args([
                    "test",
                    "--quiet",
                    "--package",
                    "riskintel-tests",
                    "--test",
                    "integrators",
                ])
                .env("RISKINTEL_EXAMPLES_OUT", &examples)
                .status()?;
            if !recorded.success() {
                bail!("recording the examples failed");
            }
            println!("wrote {}", examples.display());
            // The document embeds them: this binary's copy is the old one.
            let generated = Command::new(&cargo)
                .current_dir(root())
                .args(["xtask", "openapi", "generate"])
                .status()?;
            if !generated.success() {
                bail!("rewriting the document failed");
            }
            Ok(())
        }
        Task::Rig => rig(),
        Task::Integrators => integrators::install(),
        Task::VendorCheck { write_patch } => {
            if write_patch {
                vendor::write_patch()
            } else {
                vendor::check_and_report()
            }
        }
        Task::Test { args } => test(&args),
        Task::Detection {
            latency_ms,
            check,
            only,
        } => {
            rig()?;
            let mut args = vec![
                "run".to_string(),
                "--release".into(),
                "--quiet".into(),
                "--package".into(),
                "riskintel-tests".into(),
            ];
            args.extend([
                "--bin".into(),
                "detection".into(),
                "--".into(),
                "--latency-ms".into(),
                latency_ms.to_string(),
            ]);
            if check {
                args.push("--check".into());
            }
            if let Some(only) = only {
                args.extend(["--only".into(), only]);
            }
            let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .current_dir(root())
                .args(&args)
                .status()?;
            if !status.success() {
                bail!("the detection report failed");
            }
            Ok(())
        }
        Task::Wild {
            data,
            only,
            verbose,
            injected,
            crp,
            dev,
            control,
            mirrors,
        } => {
            rig()?;
            let out = root().join("target/wild");
            if control {
                return wild_control(&out, mirrors.as_deref(), only.as_deref());
            }
            let data = data.context("--data DIR")?;
            let tokens = out.join(match (injected, crp) {
                (true, _) => "injected",
                (_, true) => "crp",
                _ => "tokens",
            });
            // A run starts from the set as it is: no artifact of another --only.
            let _ = std::fs::remove_dir_all(&tokens);
            let mut compile = Command::new("node");
            compile
                .arg("wild_real.js")
                .arg("--data")
                .arg(&data)
                .arg("--out")
                .arg(&tokens)
                .args(injected.then_some("--injected"))
                .current_dir(root().join("tests/rig"));
            if crp {
                compile.arg("--crp").arg(root().join(&dev));
            }
            if let Some(only) = &only {
                compile.args(["--only", only]);
            }
            if !compile.status().context("running node")?.success() {
                bail!("compiling the labelled tokens failed");
            }
            let status = wild_report(&tokens)
                .args(verbose.then_some("--verbose"))
                .args(crp.then_some("--crp"))
                .status()?;
            if !status.success() {
                bail!("the real-token report failed");
            }
            Ok(())
        }
        Task::Bench {
            seconds,
            connections,
            database_url,
        } => {
            bench(seconds, connections, database_url)?;
            rig()?;
            for bench in [
                "token-bench",
                "batch-bench",
                "webhook-bench",
                "presign-bench",
                "screening-bench",
                "hot-path-bench",
                "sol-market-bench",
            ] {
                let status =
                    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                        .current_dir(root())
                        .args([
                            "run",
                            "--release",
                            "--quiet",
                            "--package",
                            "riskintel-tests",
                            "--bin",
                            bench,
                        ])
                        .status()?;
                if !status.success() {
                    bail!("the {bench} benchmark failed");
                }
            }
            Ok(())
        }
    }
}

fn openapi_check() -> anyhow::Result<()> {
    let current = std::fs::read_to_string(document_path()).unwrap_or_default();
    if current != riskintel_api::openapi_document() {
        bail!("openapi/riskintel.json is stale: run `cargo xtask openapi generate` and commit it");
    }
    println!("openapi/riskintel.json is current");
    Ok(())
}

fn openapi_validate() -> anyhow::Result<()> {
    integrators::install()?;
    let python = integrators::python();
    let status = Command::new(&python)
        .args(["-m", "openapi_spec_validator"])
        .arg(document_path())
        .status()
        .with_context(|| format!("running {}", python.display()))?;
    if !status.success() {
        bail!("openapi-spec-validator rejected the document");
    }
    Ok(())
}

/// PostgreSQL for the tests: the URL tests use, reachable, or started here.
fn ensure_postgres() -> anyhow::Result<()> {
    let url = std::env::var("RISKINTEL_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let host_port = url
        .split_once("://")
        .map(|(_, rest)| rest)
        .and_then(|rest| rest.rsplit_once('@').map(|(_, h)| h).or(Some(rest)))
        .and_then(|rest| rest.split('/').next())
        .unwrap_or("127.0.0.1:5432");
    let host_port = if host_port.contains(':') {
        host_port.to_string()
    } else {
        format!("{host_port}:5432")
    };
    let reachable = || {
        host_port
            .to_socket_addrs()
            .ok()
            .and_then(|mut addrs| addrs.next())
            .is_some_and(|addr| TcpStream::connect_timeout(&addr, Duration::from_secs(2)).is_ok())
    };
    if reachable() {
        return Ok(());
    }
    // A local Debian cluster that is installed but stopped: start it.
    if let Ok(versions) = std::fs::read_dir("/etc/postgresql") {
        for version in versions.flatten() {
            let version = version.file_name().to_string_lossy().into_owned();
            println!("xtask: starting PostgreSQL {version} (main cluster)");
            let _ = Command::new("pg_ctlcluster")
                .args(["--skip-systemctl-redirect", &version, "main", "start"])
                .status();
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if reachable() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }
    bail!(
        "PostgreSQL is not reachable at {host_port}. The suite runs on PostgreSQL as well as SQLite: \
         install it (Debian: `apt-get install postgresql`) and start it, or set \
         RISKINTEL_TEST_POSTGRES_URL to a server where the user may create databases"
    )
}

fn newest_mtime(dir: &Path) -> Option<std::time::SystemTime> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter_map(|e| e.metadata().ok()?.modified().ok())
        .max()
}

/// The rig: `npm install` in tests/rig when its packages are missing or stale,
/// then the test contracts compiled with solcjs when their sources changed.
fn rig() -> anyhow::Result<()> {
    let dir = root().join("tests/rig");
    let stale = integrators::npm_install(
        &dir,
        "the test rig's npm packages (anvil, Uniswap V2 artifacts, solc)",
    )?;
    let built = newest_mtime(&dir.join("build"));
    let sources = newest_mtime(&dir.join("contracts"))
        .into_iter()
        .chain(std::fs::metadata(dir.join("compile.js"))?.modified().ok())
        .max();
    // The Solana fixture's scripts and its hook programs' sources.
    let fixture_scripts = (std::fs::read_dir(&dir)?.flatten())
        .filter(|e| e.file_name().to_string_lossy().starts_with("solana"))
        .filter_map(|e| e.metadata().ok()?.modified().ok())
        .chain(newest_mtime(&dir.join("hooks")));
    let sources = sources.into_iter().chain(fixture_scripts).max();
    // The service's own injected contracts are compiled with the rig too.
    let injected = [
        "crates/analysis/src/simulation/simulator",
        "crates/chains/src/evm/pools/lens",
        "crates/chains/src/evm/multicall",
    ]
    .into_iter()
    .filter_map(|d| newest_mtime(&root().join(d)));
    let sources = sources.into_iter().chain(injected).max();
    let outputs = ["build/solana.json", "build/Multicall3.json"];
    if built.is_none() || built < sources || stale || !outputs.iter().all(|o| dir.join(o).exists())
    {
        hooks::assemble(&dir)?;
        for (script, what) in [
            ("compile.js", "compiling the test contracts"),
            ("solana.mjs", "building the Solana fixture"),
        ] {
            let status = Command::new("node")
                .arg(script)
                .current_dir(&dir)
                .status()
                .context("running node: the test rig needs Node.js")?;
            if !status.success() {
                bail!("{what} failed");
            }
        }
    }
    Ok(())
}

fn test(args: &[String]) -> anyhow::Result<()> {
    ensure_postgres()?;
    rig()?;
    integrators::install()?;
    openapi_check()?;
    openapi_validate()?;
    vendor::check_and_report()?;
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root())
        .args(["test", "--workspace", "--no-fail-fast"])
        .args(args)
        .status()
        .context("running cargo test")?;
    if !status.success() {
        bail!("tests failed");
    }
    Ok(())
}

/// Pro+ accounts the authenticated load is spread over (6,000 a minute each).
const BENCH_ACCOUNTS: usize = 300;

fn bench(seconds: u64, connections: u64, database_url: Option<String>) -> anyhow::Result<()> {
    if Command::new("wrk")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_err()
    {
        bail!("wrk is needed for the benchmark: apt-get install wrk");
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let built = Command::new(&cargo)
        .current_dir(root())
        .args([
            "build",
            "--release",
            "--package",
            "riskintel-server",
            "--bin",
            "riskintel",
        ])
        .status()?;
    if !built.success() {
        bail!("release build failed");
    }
    let dir = std::env::temp_dir().join(format!("riskintel-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let database_url =
        database_url.unwrap_or_else(|| format!("sqlite://{}", dir.join("bench.db").display()));
    let listen = "127.0.0.1:18181";
    // Per-account limits would cap the measurement (Pro+ allows 6,000 a
    // minute): spread the load over many Pro+ accounts, round robin.
    let riskintel = root().join("target/release/riskintel");
    let mut keys = Vec::new();
    for n in 0..BENCH_ACCOUNTS {
        let output = Command::new(&riskintel)
            .args([
                "accounts",
                "create",
                "--name",
                &format!("bench-{n}"),
                "--plan",
                "pro_plus",
                "--json",
            ])
            .args(["--database-url", &database_url])
            .output()?;
        if !output.status.success() {
            bail!(
                "creating bench accounts: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let line = String::from_utf8_lossy(&output.stdout).into_owned();
        let key = line
            .split('"')
            .find(|w| w.starts_with("ri_live_"))
            .context("accounts create printed no key")?
            .to_string();
        keys.push(key);
    }
    let script = dir.join("keys.lua");
    let quoted: Vec<String> = keys.iter().map(|k| format!("\"{k}\"")).collect();
    std::fs::write(
        &script,
        format!(
            "local keys = {{{}}}\nlocal i = 0\nrequest = function()\n  i = i + 1\n  \
             return wrk.format(\"GET\", nil, {{[\"x-api-key\"] = keys[(i % #keys) + 1]}})\nend\n",
            quoted.join(", ")
        ),
    )?;
    let mut server = Command::new(&riskintel)
        .args([
            "serve",
            "--listen",
            listen,
            "--database-url",
            &database_url,
            "--no-bootstrap",
        ])
        .env("RISKINTEL_LOG_LEVEL", "warn")
        .env("RISKINTEL_METRICS_LISTEN", "127.0.0.1:0")
        // Measure the API alone: no market index polling the mainnet defaults.
        .env("RISKINTEL_MARKET_ENABLED", "false")
        // … nor reading the Treasury's sanctions list.
        .env("RISKINTEL_SCREENING_SOURCES", "[]")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let result = (|| -> anyhow::Result<()> {
        let stdout = server.stdout.take().context("server stdout")?;
        wait_for_listening(stdout)?;
        let base = format!("http://{listen}");
        let health = wrk(&format!("{base}/v1/health"), None, seconds, connections)?;
        let billing = wrk(
            &format!("{base}/v1/billing/status"),
            Some(&script),
            seconds,
            connections,
        )?;
        println!("GET /v1/health           {health:>10.0} requests/s");
        println!("GET /v1/billing/status   {billing:>10.0} requests/s (authenticated, metered; {database_url})");
        Ok(())
    })();
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn wait_for_listening(stdout: std::process::ChildStdout) -> anyhow::Result<()> {
    use std::io::BufRead;
    for line in std::io::BufReader::new(stdout).lines() {
        if line?.contains("listening on") {
            return Ok(());
        }
    }
    bail!("the server exited before listening")
}

fn wrk(url: &str, script: Option<&Path>, seconds: u64, connections: u64) -> anyhow::Result<f64> {
    let mut command = Command::new("wrk");
    command.args([
        "-t2",
        &format!("-c{connections}"),
        &format!("-d{seconds}s"),
        "--latency",
    ]);
    if let Some(script) = script {
        command.arg("-s").arg(script);
    }
    let output = command.arg(url).output()?;
    let text = String::from_utf8_lossy(&output.stdout);
    print!("{text}");
    if text.contains("Non-2xx") {
        bail!("some answers were not 2xx (a limit was hit?); see above");
    }
    text.lines()
        .find_map(|l| l.strip_prefix("Requests/sec:"))
        .and_then(|v| v.trim().parse().ok())
        .context("wrk printed no Requests/sec")
}

/// `cargo xtask wild --control`: compile the control set from the mirrors,
/// then launch, analyse and report it.
fn wild_control(out: &Path, mirrors: Option<&Path>, only: Option<&str>) -> anyhow::Result<()> {
    let tokens = out.join("control");
    let _ = std::fs::remove_dir_all(&tokens);
    let mut compile = Command::new("node");
    compile
        .arg("wild_control.js")
        .arg("--manifest")
        .arg(root().join("tests/wild/control.json"))
        .arg("--mirrors")
        .arg(mirrors.context("--mirrors DIR")?)
        .arg("--out")
        .arg(&tokens)
        .current_dir(root().join("tests/rig"));
    if let Some(only) = only {
        compile.args(["--only", only]);
    }
    if !compile.status().context("running node")?.success() {
        bail!("compiling the control set failed");
    }
    let status = wild_report(&tokens).arg("--control").status()?;
    if !status.success() {
        bail!("the control-set report failed");
    }
    Ok(())
}

/// The `wild` binary's report on the compiled tokens in `artifacts`.
fn wild_report(artifacts: &Path) -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command
        .current_dir(root())
        .args([
            "run",
            "--quiet",
            "--package",
            "riskintel-tests",
            "--bin",
            "wild",
            "--",
        ])
        .arg("--artifacts")
        .arg(artifacts);
    command
}
