//! What partners do with the published document, against the real server:
//! Redocly's linter finds no error; a Python client (openapi-python-client)
//! and a TypeScript client (openapi-typescript + openapi-fetch, default
//! options, `tsc`) generated from it call every operation and parse every
//! answer, errors and the badge included; and schemathesis, with all its
//! checks, finds no failure.
//!
//! The tools come from the npm and Python registries: `cargo xtask test`
//! installs them (`tests/integrators/node_modules`,
//! `target/integrators/venv`) before running this.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _};
use riskintel_server::config::Config;
use riskintel_tests::solana_node::{self, Fixture};
use riskintel_tests::{rig, Backend, TestServer};

#[path = "../../client/examples/quickstart.rs"]
mod quickstart;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// The installed tools, or a message saying how to install them.
struct Tools {
    /// `tests/integrators`, with its node_modules.
    node: PathBuf,
    /// The Python virtual environment's `bin`.
    python: PathBuf,
}

impl Tools {
    fn find() -> anyhow::Result<Tools> {
        let node = root().join("tests/integrators");
        let python = root().join("target/integrators/venv/bin");
        for needed in [
            node.join("node_modules/.bin/redocly"),
            node.join("node_modules/.bin/tsc"),
            python.join("openapi-python-client"),
            python.join("st"),
        ] {
            if !needed.exists() {
                bail!(
                    "{} is missing: `cargo xtask integrators` installs the integrators' tools \
                     (`cargo xtask test` does it first)",
                    needed.display()
                );
            }
        }
        Ok(Tools { node, python })
    }

    /// Run `program` (from node_modules/.bin, or the venv's bin with
    /// `python`) in `tests/integrators`; its output when it fails.
    fn run(&self, what: &str, program: &Path, args: &[&str]) -> anyhow::Result<String> {
        self.run_with(what, program, args, &[])
    }

    /// [`Tools::run`] with variables added to the environment.
    fn run_with(
        &self,
        what: &str,
        program: &Path,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> anyhow::Result<String> {
        let started = std::time::Instant::now();
        let output = Command::new(program)
            .args(args)
            .envs(env.iter().copied())
            .current_dir(&self.node)
            .output()
            .with_context(|| format!("running {}", program.display()))?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        println!("{what}: {:.1} s", started.elapsed().as_secs_f64());
        if !output.status.success() {
            bail!("{what} failed ({}):\n{text}", output.status);
        }
        Ok(text)
    }

    fn npm_bin(&self, name: &str) -> PathBuf {
        self.node.join("node_modules/.bin").join(name)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partners_generate_clients_that_work_and_fuzzing_finds_nothing() -> anyhow::Result<()> {
    let tools = Tools::find()?;
    let document = root().join("openapi/riskintel.json");
    let document = document.to_str().context("a UTF-8 path")?;
    let work = root().join("target/integrators");

    // The linter: no error (a warning is reported, not fatal).
    let lint = tools.run(
        "redocly lint",
        &tools.npm_bin("redocly"),
        &["lint", document, "--format", "stylish"],
    )?;
    println!(
        "{}",
        lint.lines()
            .filter(|l| l.contains("error") || l.contains("warning"))
            .collect::<Vec<_>>()
            .join("\n")
    );

    // Every example in the document validates against its schema.
    let examples = tools.run(
        "examples against their schemas",
        &tools.python.join("python"),
        &["examples_valid.py", document],
    )?;
    println!("{}", examples.trim());

    // The generators, with default options (the Python one told to read the
    // badge's SVG as text, which it does not know).
    let python_client = work.join("python-client");
    let _ = std::fs::remove_dir_all(&python_client);
    let generated = tools.run(
        "openapi-python-client generate",
        &tools.python.join("openapi-python-client"),
        &[
            "generate",
            "--path",
            document,
            "--config",
            "python-client.yaml",
            "--output-path",
            python_client.to_str().context("a UTF-8 path")?,
        ],
    )?;
    if generated.contains("WARNING") {
        bail!("openapi-python-client left parts of the document out:\n{generated}");
    }
    // The generated package installs with pip, as a partner installs it.
    tools.run(
        "pip install (python client)",
        &tools.python.join("python"),
        &[
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-build-isolation",
            "--no-deps",
            "--force-reinstall",
            python_client.to_str().context("a UTF-8 path")?,
        ],
    )?;
    // The TypeScript quickstart compiles beside the smoke script.
    std::fs::copy(
        root().join("docs/quickstarts/quickstart.ts"),
        tools.node.join("quickstart.ts"),
    )?;
    tools.run(
        "openapi-typescript",
        &tools.npm_bin("openapi-typescript"),
        &[document, "--output", "riskintel.d.ts"],
    )?;
    tools.run("tsc", &tools.npm_bin("tsc"), &["-p", "."])?;

    // The real server, serving every chain id: the seven EVM ids on the
    // rig's chain, `sol` on the Solana fixture.
    let rig = rig::shared()?;
    let fixture = Fixture::load()?;
    let node = solana_node::start(fixture.clone()).await?;
    let evm_ids = ["eth", "bsc", "base", "arb", "poly", "avax", "ftm"];
    let mut config = Config {
        chains: rig::chains_config(&evm_ids.map(|id| (id, &rig.a))),
        ..Config::default()
    };
    config
        .chains
        .insert("sol".into(), solana_node::chain_config(&fixture, &node));
    config.market.enabled = false;
    // The fuzzer sends requests without a key on purpose, many a minute.
    config.auth.failed_auth_per_minute = 1_000_000;
    // The smoke scripts' webhook receivers listen on 127.0.0.1.
    config.webhooks.allow_private_targets = true;
    config.webhooks.poll_ms = 50;
    let server = TestServer::start_with(Backend::Sqlite, config).await?;
    // Receivers check a signature's time against their own clock.
    server.clock.set(chrono::Utc::now());
    let key = server.owner_key();
    let evm_token = rig.a.token("plain");
    let not_a_token = rig::holder(7).to_checksum(None);
    let (mint, wallet) = (fixture.named("launch"), fixture.named("holder"));
    let risky = rig.a.token("tax99");
    let values = [
        server.base_url.as_str(),
        key.as_str(),
        evm_token.as_str(),
        mint.as_str(),
        wallet.as_str(),
        not_a_token.as_str(),
        risky.as_str(),
    ];

    let client_dir = python_client.to_str().context("a UTF-8 path")?;
    let python = tools.run(
        "python client",
        &tools.python.join("python"),
        &[&["smoke.py", client_dir], &values[..]].concat(),
    )?;
    println!("{}", python.trim());
    let typescript = tools.run(
        "typescript client",
        Path::new("node"),
        &[&["build/smoke.js"], &values[..]].concat(),
    )?;
    println!("{}", typescript.trim());
    // The README's quickstarts, each the file it shows: health, then a
    // corpus token's analysis and its signals.
    let honeypot = rig.a.token("serial1");
    let quick_env = [
        ("RISKINTEL_URL", server.base_url.as_str()),
        ("RISKINTEL_KEY", key.as_str()),
    ];
    let python_quick = tools.run_with(
        "python quickstart",
        &tools.python.join("python"),
        &[
            root()
                .join("docs/quickstarts/quickstart.py")
                .to_str()
                .context("a UTF-8 path")?,
            "eth",
            &honeypot,
        ],
        &quick_env,
    )?;
    let typescript_quick = tools.run_with(
        "typescript quickstart",
        Path::new("node"),
        &["build/quickstart.js", "eth", &honeypot],
        &quick_env,
    )?;
    let rust_quick = quickstart::quickstart(&server.base_url, &key, "eth", &honeypot)
        .await
        .map_err(|e| anyhow::anyhow!("rust quickstart: {e}"))?
        .join("\n");
    for (language, said) in [
        ("python", &python_quick),
        ("typescript", &typescript_quick),
        ("rust", &rust_quick),
    ] {
        println!("{language} quickstart:\n{}", said.trim());
        anyhow::ensure!(
            said.contains("service ok")
                && said.contains(": critical (")
                && said.contains("honeypot"),
            "the {language} quickstart printed:\n{said}"
        );
    }

    // The reference as a browser shows it, offline: headless Chromium on
    // `/docs` with every request outside 127.0.0.1 refused.
    let screenshot = work.join("docs-reference.png");
    let chromium =
        std::env::var("RISKINTEL_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    anyhow::ensure!(
        Path::new(&chromium).exists(),
        "{chromium} is missing: install Debian's `chromium` package (`.ci/run` does), or set RISKINTEL_CHROMIUM"
    );
    let rendered = tools.run(
        "the API reference in Chromium",
        Path::new("node"),
        &[
            "docs_page.mjs",
            server.base_url.as_str(),
            screenshot.to_str().context("a UTF-8 path")?,
        ],
    )?;
    println!("{} (screenshot {})", rendered.trim(), screenshot.display());
    anyhow::ensure!(
        screenshot.exists(),
        "no screenshot at {}",
        screenshot.display()
    );

    // Each calls every operation the document publishes.
    let published: usize =
        serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(document)?)?["paths"]
            .as_object()
            .map_or(0, |paths| {
                paths
                    .values()
                    .filter_map(|item| item.as_object())
                    .map(|item| item.len())
                    .sum()
            });
    for said in [&python, &typescript] {
        anyhow::ensure!(
            said.contains(&format!(": {published} operations answered")),
            "a smoke script called fewer than the document's {published} operations:\n{said}"
        );
    }

    // The fuzzer: every check, a bounded number of examples per operation,
    // in two passes. The key operations run with a key of their own: they
    // may rotate it twice, ending its first secret as documented, or revoke
    // it, and every later request would be a 401. The rest run with the
    // owner's key, which nothing then touches.
    let own = riskintel_tests::ok(
        server
            .client(&key)
            .api_key_create(&riskintel_client::types::ApiKeyCreate {
                name: riskintel_tests::arg("fuzzer of keys"),
                scopes: Some(vec![riskintel_client::types::Scope::KeysWrite]),
                expires_at: None,
            })
            .await,
    )?
    .into_inner()
    .key;
    for (pass, key, filter) in [
        ("schemathesis", &key, "--exclude-tag"),
        ("schemathesis (api-keys)", &own, "--include-tag"),
    ] {
        let header = format!("x-api-key: {key}");
        let fuzzed = tools.run(
            pass,
            &tools.python.join("st"),
            &[
                "--config-file",
                "schemathesis.toml",
                "--no-color",
                "run",
                document,
                "--url",
                &server.base_url,
                "--header",
                &header,
                filter,
                "api-keys",
                "--checks",
                "all",
                "--max-examples",
                "15",
                "--seed",
                "20261125",
            ],
        )?;
        println!(
            "{}",
            fuzzed
                .lines()
                .skip_while(|l| !l.contains("WARNINGS") && !l.contains("SUMMARY"))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    server.stop().await
}
