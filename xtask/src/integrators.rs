//! The integrators' tools, from the npm and Python registries: Redocly's
//! linter, openapi-typescript, openapi-fetch and tsc in
//! `tests/integrators/node_modules`; openapi-python-client, schemathesis and
//! openapi-spec-validator in a virtual environment, `target/integrators/venv`.
//! Installed when missing or when their pinned versions change.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{bail, Context as _};

use crate::root;

/// The virtual environment's Python.
pub fn python() -> PathBuf {
    venv().join("bin/python")
}

fn venv() -> PathBuf {
    root().join("target/integrators/venv")
}

/// Install what is missing or stale.
pub fn install() -> anyhow::Result<()> {
    npm_packages()?;
    python_packages()
}

fn modified(path: &std::path::Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).ok()?.modified().ok()
}

fn npm_packages() -> anyhow::Result<()> {
    npm_install(
        &root().join("tests/integrators"),
        "the integrators' npm packages (Redocly CLI, openapi-typescript, openapi-fetch, TypeScript)",
    )
    .map(|_| ())
}

/// `npm install` in `dir` from its committed lockfile, when its packages
/// are missing or older than the lockfile; whether it installed. (`npm ci`
/// refuses a lockfile that lacks other platforms' optional binaries.)
pub fn npm_install(dir: &std::path::Path, what: &str) -> anyhow::Result<bool> {
    let installed = modified(&dir.join("node_modules/.package-lock.json"));
    if installed.is_some() && installed >= modified(&dir.join("package-lock.json")) {
        return Ok(false);
    }
    println!("xtask: installing {what}");
    let status = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(dir)
        .status()
        .context(
            "running npm: the tests need Node.js and npm (Debian: apt-get install nodejs npm)",
        )?;
    if !status.success() {
        bail!("npm install failed in {}", dir.display());
    }
    Ok(true)
}

fn python_packages() -> anyhow::Result<()> {
    let requirements = root().join("tests/integrators/requirements.txt");
    let stamp = venv().join(".installed");
    let stamped = modified(&stamp);
    if stamped.is_some() && stamped >= modified(&requirements) && python().exists() {
        return Ok(());
    }
    if !python().exists() {
        let system = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
        let status = Command::new(&system)
            .args(["-m", "venv"])
            .arg(venv())
            .status()
            .with_context(|| format!("running {system}"))?;
        if !status.success() {
            bail!(
                "creating a Python virtual environment failed: the integrators' checks need \
                 Python 3 with venv (Debian: apt-get install python3-venv)"
            );
        }
    }
    println!("xtask: installing the integrators' Python packages (openapi-python-client, schemathesis, openapi-spec-validator)");
    let status = Command::new(python())
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
        ])
        .arg(&requirements)
        .status()
        .context("running pip")?;
    if !status.success() {
        bail!("pip install failed for tests/integrators/requirements.txt");
    }
    std::fs::write(&stamp, b"")?;
    Ok(())
}
