//! `vendor/dropshot` is the published dropshot crate plus exactly
//! `vendor/dropshot-<version>.patch`: the crate as crates.io serves it
//! (checked against the checksum the lockfile pinned before the patch), the
//! patch applied, and the result compared with the vendored tree file by
//! file. `cargo xtask vendor-check` fetches the crate through cargo and
//! checks; `--write-patch` rewrites the patch from the vendored tree.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, ensure, Context as _};
use sha2::{Digest, Sha256};

/// The published version vendored.
const VERSION: &str = "0.18.0";
/// The sha256 of `dropshot-0.18.0.crate` on crates.io (the registry's own
/// checksum, as Cargo.lock recorded it before the patch).
const CHECKSUM: &str = "4a9e64e150bf661306cc9fa32c25996cb37025edebcbe55e80669750aa90b703";

fn vendored() -> PathBuf {
    crate::root().join("vendor/dropshot")
}

fn patch_file() -> PathBuf {
    crate::root().join(format!("vendor/dropshot-{VERSION}.patch"))
}

fn cargo_home() -> PathBuf {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from(".cargo"))
}

/// The published `.crate` in cargo's download cache, if it is there.
fn cached_crate() -> Option<PathBuf> {
    let cache = cargo_home().join("registry/cache");
    let name = format!("dropshot-{VERSION}.crate");
    std::fs::read_dir(cache)
        .ok()?
        .flatten()
        .map(|index| index.path().join(&name))
        .find(|path| path.is_file())
}

/// Have cargo download the published crate into its cache (the workspace
/// patches dropshot away, so a build never does): a throw-away package that
/// depends on exactly this version, fetched with the workspace's lockfile
/// so nothing else moves.
pub fn fetch() -> anyhow::Result<PathBuf> {
    if let Some(found) = cached_crate() {
        return Ok(found);
    }
    let dir = crate::root().join("target/vendor-check/fetch");
    std::fs::create_dir_all(dir.join("src"))?;
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"dropshot-fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n[dependencies]\ndropshot = \"={VERSION}\"\n\n[workspace]\n"
        ),
    )?;
    std::fs::write(dir.join("src/lib.rs"), "")?;
    let lock = std::fs::read_to_string(crate::root().join("Cargo.lock"))?;
    std::fs::write(dir.join("Cargo.lock"), lock)?;
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&dir)
        .args(["fetch", "--quiet"])
        .status()
        .context("running cargo fetch")?;
    ensure!(status.success(), "cargo could not fetch dropshot {VERSION}");
    cached_crate()
        .with_context(|| format!("dropshot {VERSION} is not in cargo's cache after cargo fetch"))
}

/// Fetch the crate if needed, then check.
pub fn check_and_report() -> anyhow::Result<()> {
    let published = fetch()?;
    let files = check(&published, &vendored())?;
    println!(
        "vendor/dropshot is dropshot {VERSION} as published plus vendor/dropshot-{VERSION}.patch ({files} files compared)"
    );
    Ok(())
}

/// A fresh directory for one check's work.
fn scratch(what: &str) -> anyhow::Result<PathBuf> {
    // Outside the repository, so `git apply` works as a plain patch tool.
    let dir = std::env::temp_dir().join(format!(
        "riskintel-vendor-{what}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Unpack the published crate (its checksum checked) into `into`; the
/// crate's own directory.
fn unpack(published: &Path, into: &Path) -> anyhow::Result<PathBuf> {
    let bytes = std::fs::read(published)?;
    let digest = hex(&Sha256::digest(&bytes));
    ensure!(
        digest == CHECKSUM,
        "{} has sha256 {digest}, not the published {CHECKSUM}",
        published.display()
    );
    let status = Command::new("tar")
        .arg("xzf")
        .arg(published)
        .arg("-C")
        .arg(into)
        .status()
        .context("running tar")?;
    ensure!(
        status.success(),
        "tar could not unpack {}",
        published.display()
    );
    Ok(into.join(format!("dropshot-{VERSION}")))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Check `vendored` (`vendor/dropshot`) against the published crate plus
/// the patch; the number of files compared.
pub fn check(published: &Path, vendored: &Path) -> anyhow::Result<usize> {
    let work = scratch("check")?;
    let result = (|| {
        let tree = unpack(published, &work)?;
        let status = Command::new("git")
            .current_dir(&tree)
            .args(["apply", "-p1", "--whitespace=nowarn"])
            .arg(patch_file())
            .status()
            .context("running git apply")?;
        ensure!(
            status.success(),
            "the patch does not apply to the published crate"
        );
        let expected = files(&tree)?;
        let actual = files(vendored)?;
        let mut differences = Vec::new();
        for (path, bytes) in &expected {
            match actual.get(path) {
                None => differences.push(format!("missing from vendor/dropshot: {path}")),
                Some(found) if found != bytes => {
                    differences.push(format!("differs from published + patch: {path}"))
                }
                Some(_) => {}
            }
        }
        for path in actual.keys().filter(|p| !expected.contains_key(*p)) {
            differences.push(format!("not in published + patch: {path}"));
        }
        if !differences.is_empty() {
            bail!(
                "vendor/dropshot is not dropshot {VERSION} plus vendor/dropshot-{VERSION}.patch:\n  {}\n\
                 (after an intended change: cargo xtask vendor-check --write-patch)",
                differences.join("\n  ")
            );
        }
        Ok(expected.len())
    })();
    let _ = std::fs::remove_dir_all(&work);
    result
}

/// Rewrite the patch from the vendored tree.
pub fn write_patch() -> anyhow::Result<()> {
    let published = fetch()?;
    let work = scratch("write")?;
    let result = (|| {
        let tree = unpack(&published, &work)?;
        std::fs::rename(&tree, work.join("a"))?;
        copy_tree(&vendored(), &work.join("b"))?;
        let output = Command::new("git")
            .current_dir(&work)
            .args(["diff", "--no-index", "--no-prefix", "--no-color", "a", "b"])
            .output()
            .context("running git diff")?;
        // 1: the trees differ (the patch is not empty).
        ensure!(
            output.status.code() == Some(1) || output.status.success(),
            "git diff failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        // `--no-prefix` with the trees named `a` and `b`: the usual `-p1` form.
        std::fs::write(patch_file(), output.stdout)?;
        println!("wrote {}", patch_file().display());
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&work);
    result?;
    check_and_report()
}

fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    for (path, bytes) in files(from)? {
        let target = to.join(&path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(target, bytes)?;
    }
    Ok(())
}

/// Every file under `root`, by its path relative to it.
fn files(root: &Path) -> anyhow::Result<BTreeMap<String, Vec<u8>>> {
    let mut found = BTreeMap::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path
                    .strip_prefix(root)?
                    .to_string_lossy()
                    .replace('\\', "/");
                found.insert(relative, std::fs::read(&path)?);
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    /// The check itself, in the test suite: `cargo xtask test` fetches the
    /// published crate first (`cargo xtask vendor-check` does too).
    #[test]
    fn vendored_dropshot_is_the_published_crate_plus_the_patch() {
        let published = super::cached_crate().unwrap_or_else(|| {
            panic!(
                "dropshot {} is not in cargo's cache: run `cargo xtask vendor-check` (the test command does)",
                super::VERSION
            )
        });
        let files =
            super::check(&published, &super::vendored()).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(files > 50, "only {files} files compared");
    }

    #[test]
    fn a_vendored_tree_changed_beyond_the_patch_is_caught() {
        let Some(published) = super::cached_crate() else {
            panic!("dropshot is not in cargo's cache: run `cargo xtask vendor-check`");
        };
        let work = super::scratch("negative").unwrap();
        let copy = work.join("dropshot");
        super::copy_tree(&super::vendored(), &copy).unwrap();
        let readme = copy.join("README-crates.io.md");
        let mut text = std::fs::read(&readme).unwrap();
        text.push(b' ');
        std::fs::write(&readme, text).unwrap();
        std::fs::write(copy.join("src/extra.rs"), "").unwrap();
        let error = super::check(&published, &copy).expect_err("a changed tree passed");
        let _ = std::fs::remove_dir_all(&work);
        let message = format!("{error:#}");
        assert!(
            message.contains("differs from published + patch: README-crates.io.md"),
            "{message}"
        );
        assert!(
            message.contains("not in published + patch: src/extra.rs"),
            "{message}"
        );
    }
}
