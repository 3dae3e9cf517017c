//! Configuration: one TOML file deserialised into typed structs; every key
//! can be overridden by an environment variable `RISKINTEL_<PATH>`, where
//! the path joins the key's table names and its name with `_`, upper-cased
//! (`[auth] failed_auth_per_minute` → `RISKINTEL_AUTH_FAILED_AUTH_PER_MINUTE`).

pub use riskintel_analysis::config::{AllowlistEntry, AnalysisConfig};
use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use riskintel_chains::ChainConfig;

/// Prefix of every environment override.
pub const ENV_PREFIX: &str = "RISKINTEL_";

/// What can go wrong loading the configuration.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("reading {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file or an override is not valid.
    #[error("invalid configuration: {0}")]
    Invalid(String),
}

/// The service's configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// This instance's name among several on one database (health, the
    /// leases, the shared rate windows). Empty: the host's name, the
    /// process id and four random hex digits.
    pub instance: String,
    /// Address the HTTP server listens on.
    pub listen: String,
    /// Address of the metrics listener (`GET /metrics`, Prometheus text
    /// format); `""` serves no metrics.
    pub metrics_listen: String,
    /// `sqlite://FILE` (created on first start) or `postgres://USER@HOST/DB`.
    pub database_url: String,
    /// Longest wait for a database connection, in milliseconds; past it
    /// the request answers 503 with `Retry-After`.
    pub database_acquire_timeout_ms: u64,
    /// Longest a database statement may run, in milliseconds (PostgreSQL
    /// `statement_timeout`; SQLite's wait for its write lock).
    pub database_query_timeout_ms: u64,
    /// Published address of the error reference; every error's `docs_url`
    /// is this plus `#<code>`. Empty: the server's own `/docs/errors`.
    pub docs_base_url: String,
    /// Log level: `trace`, `debug`, `info`, `warn`, `error`.
    pub log_level: String,
    /// Log lines: `text` (for people) or `json` (one object a line).
    pub log_format: crate::logging::LogFormat,
    /// Largest request body accepted, in bytes.
    pub request_body_max_bytes: usize,
    /// Client connections: time limits, cap, shutdown.
    pub connections: crate::connections::ConnectionsConfig,
    /// Authentication.
    pub auth: AuthConfig,
    /// Counting rate windows and usage in memory.
    pub metering: MeteringConfig,
    /// Token analysis.
    pub analysis: AnalysisConfig,
    /// The market index (discovery, swaps, alerts) that runs inside `serve`.
    pub market: MarketConfig,
    /// Signed webhooks.
    pub webhooks: crate::webhooks::WebhooksConfig,
    /// Address screening: the sanctions lists and how they are kept current.
    pub screening: crate::screening::ScreeningConfig,
    /// Per-chain settings, by chain id (`eth`, `bsc`, …). Defaults: the mainnets.
    pub chains: BTreeMap<String, ChainConfig>,
    /// Known issuers whose power over their token is expected (regulated
    /// stablecoins, wrapped natives): their issuer-power signals are `info`.
    pub allowlist: Vec<AllowlistEntry>,
}

/// Market index settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MarketConfig {
    /// Run the index at all.
    pub enabled: bool,
    /// Time between polls of each chain, in milliseconds.
    pub poll_interval_ms: u64,
    /// Blocks before the head to start from on first start (0: start at the head).
    pub backfill_blocks: u64,
    /// Blocks read per poll at most.
    pub max_blocks_per_poll: u64,
    /// Re-organisations up to this many blocks deep are handled by re-reading.
    pub reorg_depth: u64,
    /// Re-analyse each tracked token at least this often, in seconds.
    pub reanalyse_interval_seconds: u64,
    /// Analyses the index makes per poll at most (user requests keep priority).
    pub max_analyses_per_poll: u32,
    /// Upstream requests in flight at once for the index, per chain.
    pub rpc_concurrency: u32,
    /// With several instances on one PostgreSQL, one instance runs each
    /// chain's index under a lease this long, in milliseconds, renewed every
    /// third of it; when its holder stops or hangs, another instance takes
    /// the chain over within this time. (SQLite: one instance, no lease.)
    pub lease_ms: u64,
}

impl Default for MarketConfig {
    fn default() -> Self {
        MarketConfig {
            enabled: true,
            poll_interval_ms: 15_000,
            backfill_blocks: 0,
            max_blocks_per_poll: 2_000,
            reorg_depth: 12,
            reanalyse_interval_seconds: 3_600,
            max_analyses_per_poll: 10,
            rpc_concurrency: 2,
            lease_ms: 15_000,
        }
    }
}

/// Authentication settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AuthConfig {
    /// Failed authentications allowed per client IP per minute; past it, 429.
    pub failed_auth_per_minute: u64,
    /// How often each instance reads the store's auth version (ms): a key
    /// revoked, rotated or expired early, or a plan changed, by any instance
    /// or the CLI, reaches this instance's key cache within it.
    pub key_sync_ms: u64,
    /// Reverse proxies in front of the server (IP addresses): for a request
    /// from one of them, the client is the last `X-Forwarded-For` hop that
    /// is not itself a trusted proxy.
    pub trusted_proxies: Vec<String>,
}

/// Counting in memory: how often it reaches the database.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MeteringConfig {
    /// How often each instance publishes its rate-window counts and reads
    /// the other instances' (ms). With N instances on one database, an
    /// account can exceed its per-minute limit by at most what the other
    /// N − 1 instances served it in two such intervals.
    pub rate_sync_ms: u64,
    /// How often each instance adds the 2xx answers it counted to the
    /// monthly usage (ms), in one transaction; also on a graceful
    /// shutdown. A crash loses at most this long of one instance's counts.
    pub usage_flush_ms: u64,
}

impl Default for MeteringConfig {
    fn default() -> Self {
        MeteringConfig {
            rate_sync_ms: 250,
            usage_flush_ms: 1_000,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            instance: String::new(),
            listen: "127.0.0.1:8080".into(),
            metrics_listen: "127.0.0.1:9464".into(),
            database_url: "sqlite://riskintel.db".into(),
            database_acquire_timeout_ms: 2_000,
            database_query_timeout_ms: 5_000,
            docs_base_url: String::new(),
            log_level: "info".into(),
            log_format: crate::logging::LogFormat::Text,
            request_body_max_bytes: 64 * 1024,
            connections: Default::default(),
            auth: AuthConfig::default(),
            metering: MeteringConfig::default(),
            analysis: AnalysisConfig::default(),
            market: MarketConfig::default(),
            webhooks: Default::default(),
            screening: Default::default(),
            chains: {
                let mut chains = riskintel_chains::defaults::evm_chains();
                chains.insert("sol".into(), riskintel_chains::defaults::solana());
                chains
            },
            allowlist: default_allowlist(),
        }
    }
}

fn default_allowlist() -> Vec<AllowlistEntry> {
    let entry = |chain: &str, address: &str, issuer: &str| {
        AllowlistEntry {
        chain: chain.into(),
        address: address.into(),
        issuer: issuer.into(),
        reason: format!("{issuer} is a regulated issuer; minting, freezing and pausing are part of its compliance obligations"),
    }
    };
    vec![
        entry(
            "eth",
            "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
            "Circle",
        ),
        entry(
            "eth",
            "0xdAC17F958D2ee523a2206206994597C13D831ec7",
            "Tether",
        ),
        entry(
            "base",
            "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            "Circle",
        ),
        entry(
            "arb",
            "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
            "Circle",
        ),
        entry(
            "poly",
            "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
            "Circle",
        ),
        entry(
            "avax",
            "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E",
            "Circle",
        ),
        entry(
            "sol",
            "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
            "Circle",
        ),
        entry(
            "sol",
            "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
            "Tether",
        ),
    ]
}

impl Default for AuthConfig {
    fn default() -> Self {
        AuthConfig {
            failed_auth_per_minute: 60,
            key_sync_ms: 250,
            trusted_proxies: Vec::new(),
        }
    }
}

impl Config {
    /// Defaults, then the file (if any), then `RISKINTEL_…` variables from `env`.
    pub fn load(
        file: Option<&Path>,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let mut tree = toml::Table::try_from(Config::default())
            .map_err(|e| ConfigError::Invalid(e.to_string()))?;
        if let Some(path) = file {
            let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                path: path.display().to_string(),
                source,
            })?;
            let from_file: toml::Table = text
                .parse()
                .map_err(|e| ConfigError::Invalid(format!("{}: {e}", path.display())))?;
            merge(&mut tree, from_file);
        }
        for (name, value) in env {
            let Some(rest) = name.strip_prefix(ENV_PREFIX) else {
                continue;
            };
            apply_override(&mut tree, &rest.to_ascii_lowercase(), &value)
                .map_err(|e| ConfigError::Invalid(format!("{name}: {e}")))?;
        }
        Config::deserialize(toml::Value::Table(tree))
            .map_err(|e| ConfigError::Invalid(e.to_string()))
    }
}

fn merge(into: &mut toml::Table, from: toml::Table) {
    for (key, value) in from {
        match (into.get_mut(&key), value) {
            (Some(toml::Value::Table(existing)), toml::Value::Table(table)) => {
                merge(existing, table)
            }
            (_, value) => {
                into.insert(key, value);
            }
        }
    }
}

/// Set the key that `path` (lower-case, `_`-joined) names, parsing `value`
/// as the type the key already has. Variables naming no key are errors, so
/// a typo does not pass silently.
fn apply_override(tree: &mut toml::Table, path: &str, value: &str) -> Result<(), String> {
    // Longest key first, so `docs_base_url` wins over a table `docs`.
    let mut keys: Vec<String> = tree.keys().cloned().collect();
    keys.sort_by_key(|k| std::cmp::Reverse(k.len()));
    for key in keys {
        if path == key {
            let slot = tree.get_mut(&key).expect("key exists");
            *slot = parse_like(slot, value)?;
            return Ok(());
        }
        if let Some(rest) = path.strip_prefix(&format!("{key}_")) {
            if let Some(toml::Value::Table(inner)) = tree.get_mut(&key) {
                return apply_override(inner, rest, value);
            }
        }
    }
    Err("names no configuration key".into())
}

fn parse_like(existing: &toml::Value, value: &str) -> Result<toml::Value, String> {
    Ok(match existing {
        toml::Value::Integer(_) => toml::Value::Integer(
            value
                .trim()
                .parse()
                .map_err(|_| format!("{value:?} is not an integer"))?,
        ),
        toml::Value::Boolean(_) => toml::Value::Boolean(
            value
                .trim()
                .parse()
                .map_err(|_| format!("{value:?} is not true or false"))?,
        ),
        toml::Value::Float(_) => toml::Value::Float(
            value
                .trim()
                .parse()
                .map_err(|_| format!("{value:?} is not a number"))?,
        ),
        // A list is written as TOML (`[]`, `[{ list = "x", location = "y" }]`).
        toml::Value::Array(_) => toml::from_str::<toml::Table>(&format!("v = {value}"))
            .ok()
            .and_then(|mut t| t.remove("v"))
            .filter(toml::Value::is_array)
            .ok_or_else(|| format!("{value:?} is not a TOML list"))?,
        toml::Value::Table(_) => {
            return Err("names a table; set one of its keys".into());
        }
        _ => toml::Value::String(value.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn file_then_environment_override_defaults() {
        let dir = std::env::temp_dir().join(format!("riskintel-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("config.toml");
        std::fs::write(
            &file,
            "listen = \"0.0.0.0:9000\"\n[auth]\nfailed_auth_per_minute = 5\n",
        )
        .unwrap();
        let config = Config::load(
            Some(&file),
            env(&[
                ("RISKINTEL_DOCS_BASE_URL", "https://example.test/errors"),
                ("RISKINTEL_AUTH_FAILED_AUTH_PER_MINUTE", "7"),
                ("UNRELATED", "x"),
            ]),
        )
        .unwrap();
        assert_eq!(config.listen, "0.0.0.0:9000");
        assert_eq!(config.docs_base_url, "https://example.test/errors");
        assert_eq!(config.auth.failed_auth_per_minute, 7);
        assert_eq!(config.database_url, Config::default().database_url);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn lists_are_overridable_by_environment_as_toml() {
        let config = Config::load(None, env(&[("RISKINTEL_SCREENING_SOURCES", "[]")])).unwrap();
        assert!(config.screening.sources.is_empty());
        let config = Config::load(
            None,
            env(&[(
                "RISKINTEL_SCREENING_SOURCES",
                r#"[{ list = "ours", location = "/srv/ours.csv" }]"#,
            )]),
        )
        .unwrap();
        assert_eq!(config.screening.sources[0].list, "ours");
        assert!(Config::load(None, env(&[("RISKINTEL_SCREENING_SOURCES", "nope")])).is_err());
    }

    #[test]
    fn chain_rpc_urls_are_overridable_by_environment() {
        let config = Config::load(
            None,
            env(&[("RISKINTEL_CHAINS_ETH_RPC_URL", "http://127.0.0.1:8545")]),
        )
        .unwrap();
        assert_eq!(config.chains["eth"].rpc_url, "http://127.0.0.1:8545");
        assert_eq!(
            config.chains["bsc"].rpc_url,
            Config::default().chains["bsc"].rpc_url
        );
        let config =
            Config::load(None, env(&[("RISKINTEL_ANALYSIS_CACHE_TTL_SECONDS", "5")])).unwrap();
        assert_eq!(config.analysis.cache_ttl_seconds, 5);
    }

    #[test]
    fn bad_overrides_and_unknown_keys_are_errors() {
        assert!(Config::load(
            None,
            env(&[("RISKINTEL_AUTH_FAILED_AUTH_PER_MINUTE", "many")])
        )
        .is_err());
        assert!(Config::load(None, env(&[("RISKINTEL_NO_SUCH_KEY", "1")])).is_err());
        let dir = std::env::temp_dir().join(format!("riskintel-config-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("config.toml");
        std::fs::write(&file, "lisen = \"x\"\n").unwrap();
        assert!(Config::load(Some(&file), Vec::new()).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
