//! Instances of the service as separate processes (so a test can kill one
//! with `SIGKILL`, as a crash would): the conformance binary runs `riskintel
//! serve` itself when started with [`SERVE_ENV`] set, so no other binary
//! needs building. Each instance's log goes to a file beside its config.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{bail, Context as _};

/// Set (to anything) in a child's environment: the binary serves instead
/// of running tests.
pub const SERVE_ENV: &str = "RISKTEST_SERVE_INSTANCE";

/// Run the command line of this process as `riskintel …` would, and exit
/// with its outcome (called first thing by a test binary's `main` when
/// [`SERVE_ENV`] is set).
pub fn serve_here() -> ! {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    match runtime.block_on(riskintel_server::cli::main()) {
        Ok(()) => std::process::exit(0),
        Err(error) => {
            eprintln!("error: {error:#}");
            std::process::exit(1)
        }
    }
}

/// One instance: `riskintel serve` on a database, in a process of its own.
pub struct Instance {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base_url: String,
    /// The owner key it printed, when it made the database's owner.
    pub owner_key: Option<String>,
}

impl Instance {
    /// Start an instance named `name` with the configuration file `config`
    /// (written by [`write_config`]) on `database_url`.
    pub fn spawn(name: &str, config: &Path, database_url: &str) -> anyhow::Result<Instance> {
        let log = config.with_file_name(format!("{name}.log"));
        let mut command = Command::new(std::env::current_exe()?);
        // Its configuration is the file's: the suite's own `RISKINTEL_…`
        // variables (the test database's URL) name no key of it.
        for (variable, _) in std::env::vars() {
            if variable.starts_with(riskintel_server::config::ENV_PREFIX) {
                command.env_remove(variable);
            }
        }
        let mut child = command
            .args(["serve", "--listen", "127.0.0.1:0", "--config"])
            .arg(config)
            .args(["--database-url", database_url])
            .env(SERVE_ENV, "1")
            .env("RISKINTEL_INSTANCE", name)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log)?)
            .spawn()
            .context("starting an instance")?;
        let mut lines = BufReader::new(child.stdout.take().context("its stdout")?).lines();
        let mut owner_key = None;
        for line in lines.by_ref() {
            let line = line?;
            if let Some(key) = line.split_whitespace().find(|w| w.starts_with("ri_live_")) {
                owner_key = Some(key.to_string());
            }
            if let Some(address) = line.strip_prefix("riskintel listening on ") {
                // Whatever it prints later is read and dropped.
                std::thread::spawn(move || lines.for_each(drop));
                return Ok(Instance {
                    child,
                    base_url: address.trim().to_string(),
                    owner_key,
                });
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        bail!(
            "instance {name} exited before listening: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        )
    }

    /// A client of it with `key`.
    pub fn client(&self, key: &str) -> riskintel_client::Client {
        riskintel_client::Client::with_api_key(&self.base_url, key).expect("client builds")
    }

    /// A client of it sending no key.
    pub fn anonymous(&self) -> riskintel_client::Client {
        riskintel_client::Client::new(&self.base_url)
    }

    /// Kill it at once (`SIGKILL`: nothing is given up or flushed).
    pub fn kill(&mut self) -> anyhow::Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Write `config` as the TOML file `dir/riskintel.toml`; its path. A file's
/// chains are merged into the defaults (the mainnets), so every default
/// chain `config` leaves out is written switched off (`rpc_url = ""`):
/// nothing is called outside this machine.
pub fn write_config(
    dir: &Path,
    config: &riskintel_server::config::Config,
) -> anyhow::Result<PathBuf> {
    let mut config = crate::offline_lists(config.clone());
    for (id, mut chain) in riskintel_server::config::Config::default().chains {
        chain.rpc_url = String::new();
        config.chains.entry(id).or_insert(chain);
    }
    std::fs::create_dir_all(dir)?;
    let path = dir.join("riskintel.toml");
    std::fs::write(&path, toml::to_string(&config)?)?;
    Ok(path)
}
