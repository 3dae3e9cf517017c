//! Logging through slog, with every line passed through a redactor so that
//! no API-key secret reaches a log, whatever logs it (dropshot logs request
//! URIs, which is where a key sent in the query string would appear).

use std::fmt::Write as _;
use std::io::Write;
use std::sync::{Arc, Mutex};

use slog::{Drain, Key, Level, OwnedKVList, Record, KV};

/// Where log lines go.
#[derive(Clone)]
pub enum LogSink {
    /// Standard error.
    Stderr,
    /// An in-memory buffer (tests read it).
    Buffer(Arc<Mutex<Vec<u8>>>),
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// `<time> <LEVEL> <message> key=value …`, for people.
    #[default]
    Text,
    /// One JSON object a line (`time`, `level`, `msg`, then every key), for
    /// log pipelines.
    Json,
}

/// A root logger at `level` (`info`, `debug`, …) writing redacted lines to `sink`.
pub fn logger(level: &str, sink: LogSink) -> slog::Logger {
    logger_with(level, LogFormat::Text, sink)
}

/// A root logger at `level` writing redacted lines in `format` to `sink`.
pub fn logger_with(level: &str, format: LogFormat, sink: LogSink) -> slog::Logger {
    let level = level.parse::<Level>().unwrap_or(Level::Info);
    let drain = RedactingDrain {
        level,
        format,
        sink: Mutex::new(sink),
    };
    slog::Logger::root(drain.fuse(), slog::o!())
}

struct RedactingDrain {
    level: Level,
    format: LogFormat,
    sink: Mutex<LogSink>,
}

/// Key-value pairs in order, as text.
struct Pairs(Vec<(String, String)>);

impl slog::Serializer for Pairs {
    fn emit_arguments(&mut self, key: Key, value: &std::fmt::Arguments) -> slog::Result {
        self.0.push((key.to_string(), value.to_string()));
        Ok(())
    }
}

impl Drain for RedactingDrain {
    type Ok = ();
    type Err = slog::Never;

    fn is_enabled(&self, level: Level) -> bool {
        level.is_at_least(self.level)
    }

    fn log(&self, record: &Record, values: &OwnedKVList) -> Result<(), slog::Never> {
        if !record.level().is_at_least(self.level) {
            return Ok(());
        }
        let time = chrono::Utc::now()
            .format("%Y-%m-%dT%H:%M:%S%.3fZ")
            .to_string();
        let mut pairs = Pairs(Vec::new());
        let _ = record.kv().serialize(record, &mut pairs);
        let _ = values.serialize(record, &mut pairs);
        let msg = record.msg().to_string();
        let mut line = match self.format {
            LogFormat::Text => {
                let mut line = format!("{time} {} {msg}", record.level().as_short_str());
                for (k, v) in &pairs.0 {
                    let _ = write!(line, " {k}={v}");
                }
                redact_secrets(&line)
            }
            LogFormat::Json => {
                let mut object = serde_json::Map::new();
                object.insert("time".into(), time.into());
                object.insert("level".into(), record.level().as_str().into());
                object.insert("msg".into(), redact_secrets(&msg).into());
                for (k, v) in pairs.0 {
                    object.entry(k).or_insert_with(|| redact_secrets(&v).into());
                }
                serde_json::Value::Object(object).to_string()
            }
        };
        line.push('\n');
        match &*self.sink.lock().expect("log sink lock") {
            LogSink::Stderr => {
                let _ = std::io::stderr().write_all(line.as_bytes());
            }
            LogSink::Buffer(buffer) => buffer
                .lock()
                .expect("log buffer lock")
                .extend_from_slice(line.as_bytes()),
        }
        Ok(())
    }
}

/// Where an API key's secret can sit in a line: after a key's
/// `ri_live_<id>.`, or as the value of a query parameter that carries keys.
const KEY_PREFIX: &str = "ri_live_";
const KEY_PARAMS: [&str; 4] = ["api_key=", "apikey=", "x-api-key=", "key="];

/// Remove API-key secrets, and only those: addresses, hashes and ids stay
/// readable (they are what an operator searches for).
pub fn redact_secrets(text: &str) -> String {
    if text.contains(crate::webhooks::SECRET_PREFIX) {
        redact_keys(&redact_webhook_secrets(text))
    } else {
        redact_keys(text)
    }
}

/// Webhook signing secrets, `whsec_<hex>`: the prefix kept, the rest dropped.
fn redact_webhook_secrets(text: &str) -> String {
    let prefix = crate::webhooks::SECRET_PREFIX;
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        out.push_str(&rest[..at + prefix.len()]);
        let secret = &rest[at + prefix.len()..];
        let len = secret
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(secret.len());
        if len > 0 {
            out.push_str("[redacted]");
        }
        rest = &secret[len..];
    }
    out.push_str(rest);
    out
}

fn redact_keys(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let key_at = rest.find(KEY_PREFIX).map(|i| (i, true));
        let param_at = KEY_PARAMS
            .iter()
            .filter_map(|p| {
                rest.match_indices(p)
                    .find(|(i, _)| *i == 0 || matches!(rest.as_bytes()[i - 1], b'?' | b'&' | b' '))
                    .map(|(i, _)| (i, p.len()))
            })
            .min();
        let key_first = match (key_at, param_at) {
            (None, None) => {
                out.push_str(rest);
                return out;
            }
            (Some((k, _)), Some((p, _))) => k <= p,
            (Some(_), None) => true,
            (None, Some(_)) => false,
        };
        match (key_at, param_at) {
            (Some((k, _)), _) if key_first => {
                // ri_live_<id>.<secret>: keep the id, drop the secret.
                let after = &rest[k + KEY_PREFIX.len()..];
                let id_len = after
                    .find(|c: char| !c.is_ascii_alphanumeric())
                    .unwrap_or(after.len());
                out.push_str(&rest[..k + KEY_PREFIX.len() + id_len]);
                rest = &after[id_len..];
                if let Some(secret) = rest.strip_prefix('.') {
                    let len = secret
                        .find(|c: char| !c.is_ascii_alphanumeric())
                        .unwrap_or(secret.len());
                    out.push_str(".[redacted]");
                    rest = &secret[len..];
                }
            }
            (_, Some((p, len))) => {
                // A key-carrying parameter: drop its whole value.
                out.push_str(&rest[..p + len]);
                let value = &rest[p + len..];
                let end = value.find(['&', ' ', '"', '\'']).unwrap_or(value.len());
                if end > 0 {
                    out.push_str("[redacted]");
                }
                rest = &value[end..];
            }
            _ => unreachable!("one of the two was found"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webhook_secrets_are_redacted() {
        let secret = "ab".repeat(32);
        let line = format!("secret=whsec_{secret} and ri_live_abcdefghijkl.{secret}");
        let redacted = redact_secrets(&line);
        assert!(!redacted.contains(&secret), "{redacted}");
        assert_eq!(
            redacted,
            "secret=whsec_[redacted] and ri_live_abcdefghijkl.[redacted]"
        );
    }

    #[test]
    fn secrets_are_redacted_and_other_text_kept() {
        let secret = "0123456789abcdef".repeat(4);
        let line =
            format!("uri=/v1/billing/status?api_key=ri_live_abcdefghijkl.{secret} status=400");
        let redacted = redact_secrets(&line);
        assert!(!redacted.contains(&secret), "{redacted}");
        assert!(
            redacted.contains("api_key=[redacted] status=400"),
            "{redacted}"
        );
        let line = format!("key ri_live_abcdefghijkl.{secret} in a message");
        assert_eq!(
            redact_secrets(&line),
            "key ri_live_abcdefghijkl.[redacted] in a message"
        );
        let line = format!("uri=/v1/x?chain=eth&key={secret}&b=1");
        assert_eq!(
            redact_secrets(&line),
            "uri=/v1/x?chain=eth&key=[redacted]&b=1"
        );
        // Addresses, hashes and words that merely contain "key=" stay.
        let kept = format!(
            "uri=/v1/token/eth/0x6B175474E89094C44Da98b954EedeAC495271d0F/analyze tx=0x{secret} monkey=1"
        );
        assert_eq!(redact_secrets(&kept), kept);
    }

    #[test]
    fn json_lines_are_objects_with_every_key() {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let log = logger_with("info", LogFormat::Json, LogSink::Buffer(buffer.clone()));
        let secret = "ab".repeat(32);
        slog::info!(log, "answered"; "operation" => "token_analyze", "uri" => format!("/v1?api_key=ri_live_x.{secret}"));
        let text = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
        let line: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        assert_eq!(line["msg"], "answered");
        assert_eq!(line["level"], "INFO");
        assert_eq!(line["operation"], "token_analyze");
        assert!(!text.contains(&secret), "{text}");
    }
}
