//! Configuration: one TOML file deserialised into typed structs; every key
//! can be overridden by an environment variable `RISKINTEL_<PATH>`, where
//! the path joins the key's table names and its name with `_`, upper-cased
//! (`[auth] failed_auth_per_minute` → `RISKINTEL_AUTH_FAILED_AUTH_PER_MINUTE`).

use std::path::Path;

use serde::{Deserialize, Serialize};

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
    /// Address the HTTP server listens on.
    pub listen: String,
    /// `sqlite://FILE` (created on first start) or `postgres://USER@HOST/DB`.
    pub database_url: String,
    /// Published address of the error reference; every error's `docs_url`
    /// is this plus `#<code>`. Empty: the server's own `/docs/errors`.
    pub docs_base_url: String,
    /// Log level: `trace`, `debug`, `info`, `warn`, `error`.
    pub log_level: String,
    /// Largest request body accepted, in bytes.
    pub request_body_max_bytes: usize,
    /// Authentication.
    pub auth: AuthConfig,
}

/// Authentication settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AuthConfig {
    /// Failed authentications allowed per client IP per minute; past it, 429.
    pub failed_auth_per_minute: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: "127.0.0.1:8080".into(),
            database_url: "sqlite://riskintel.db".into(),
            docs_base_url: String::new(),
            log_level: "info".into(),
            request_body_max_bytes: 64 * 1024,
            auth: AuthConfig::default(),
        }
    }
}

impl Default for AuthConfig {
    fn default() -> Self {
        AuthConfig { failed_auth_per_minute: 60 }
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
            let text = std::fs::read_to_string(path)
                .map_err(|source| ConfigError::Read { path: path.display().to_string(), source })?;
            let from_file: toml::Table = text
                .parse()
                .map_err(|e| ConfigError::Invalid(format!("{}: {e}", path.display())))?;
            merge(&mut tree, from_file);
        }
        for (name, value) in env {
            let Some(rest) = name.strip_prefix(ENV_PREFIX) else { continue };
            apply_override(&mut tree, &rest.to_ascii_lowercase(), &value)
                .map_err(|e| ConfigError::Invalid(format!("{name}: {e}")))?;
        }
        Config::deserialize(toml::Value::Table(tree)).map_err(|e| ConfigError::Invalid(e.to_string()))
    }
}

fn merge(into: &mut toml::Table, from: toml::Table) {
    for (key, value) in from {
        match (into.get_mut(&key), value) {
            (Some(toml::Value::Table(existing)), toml::Value::Table(table)) => merge(existing, table),
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
        toml::Value::Integer(_) => {
            toml::Value::Integer(value.trim().parse().map_err(|_| format!("{value:?} is not an integer"))?)
        }
        toml::Value::Boolean(_) => {
            toml::Value::Boolean(value.trim().parse().map_err(|_| format!("{value:?} is not true or false"))?)
        }
        toml::Value::Float(_) => {
            toml::Value::Float(value.trim().parse().map_err(|_| format!("{value:?} is not a number"))?)
        }
        toml::Value::Table(_) | toml::Value::Array(_) => {
            return Err("names a table; set one of its keys".into());
        }
        _ => toml::Value::String(value.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn file_then_environment_override_defaults() {
        let dir = std::env::temp_dir().join(format!("riskintel-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("config.toml");
        std::fs::write(&file, "listen = \"0.0.0.0:9000\"\n[auth]\nfailed_auth_per_minute = 5\n").unwrap();
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
    }

    #[test]
    fn bad_overrides_and_unknown_keys_are_errors() {
        assert!(Config::load(None, env(&[("RISKINTEL_AUTH_FAILED_AUTH_PER_MINUTE", "many")])).is_err());
        assert!(Config::load(None, env(&[("RISKINTEL_NO_SUCH_KEY", "1")])).is_err());
        let dir = std::env::temp_dir().join(format!("riskintel-config-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("config.toml");
        std::fs::write(&file, "lisen = \"x\"\n").unwrap();
        assert!(Config::load(Some(&file), Vec::new()).is_err());
    }
}
