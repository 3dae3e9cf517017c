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

/// A root logger at `level` (`info`, `debug`, …) writing redacted lines to `sink`.
pub fn logger(level: &str, sink: LogSink) -> slog::Logger {
    let level = level.parse::<Level>().unwrap_or(Level::Info);
    let drain = RedactingDrain {
        level,
        sink: Mutex::new(sink),
    };
    slog::Logger::root(drain.fuse(), slog::o!())
}

struct RedactingDrain {
    level: Level,
    sink: Mutex<LogSink>,
}

struct LineSerializer<'a>(&'a mut String);

impl slog::Serializer for LineSerializer<'_> {
    fn emit_arguments(&mut self, key: Key, value: &std::fmt::Arguments) -> slog::Result {
        let _ = write!(self.0, " {key}={value}");
        Ok(())
    }
}

impl Drain for RedactingDrain {
    type Ok = ();
    type Err = slog::Never;

    fn log(&self, record: &Record, values: &OwnedKVList) -> Result<(), slog::Never> {
        if !record.level().is_at_least(self.level) {
            return Ok(());
        }
        let mut line = format!(
            "{} {} {}",
            chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.3fZ"),
            record.level().as_short_str(),
            record.msg()
        );
        let _ = record
            .kv()
            .serialize(record, &mut LineSerializer(&mut line));
        let _ = values.serialize(record, &mut LineSerializer(&mut line));
        let mut line = redact_secrets(&line);
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

/// Replace every run of 32 or more hexadecimal digits (a key secret is 64)
/// with `[redacted]`.
pub fn redact_secrets(text: &str) -> String {
    const MIN_RUN: usize = 32;
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    for c in text.chars() {
        if c.is_ascii_hexdigit() {
            run.push(c);
            continue;
        }
        flush_run(&mut out, &mut run, MIN_RUN);
        out.push(c);
    }
    flush_run(&mut out, &mut run, MIN_RUN);
    out
}

fn flush_run(out: &mut String, run: &mut String, min: usize) {
    if run.len() >= min {
        out.push_str("[redacted]");
    } else {
        out.push_str(run);
    }
    run.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_redacted_and_other_text_kept() {
        let secret = "0123456789abcdef".repeat(4);
        let line =
            format!("uri=/v1/billing/status?api_key=ri_live_abcdefghijkl.{secret} status=400");
        let redacted = redact_secrets(&line);
        assert!(!redacted.contains(&secret));
        assert!(redacted.contains("ri_live_abcdefghijkl.[redacted] status=400"));
        assert_eq!(
            redact_secrets("request id 42 deadbeef"),
            "request id 42 deadbeef"
        );
    }
}
