//! The circuit of one chain's node: after consecutive connection failures
//! or timeouts the chain is marked down and calls stop queuing on it (they
//! fail at once); one probe at a time tests recovery, with back-off. The
//! state feeds health and the log, which hears of each change once (down,
//! still down every few minutes with a count, back up).

use crate::Chain;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

/// Consecutive connection failures or timeouts that mark a chain down.
const FAILURES_TO_OPEN: u32 = 3;
/// The first wait before a probe; it doubles with each failed probe.
const FIRST_PROBE_AFTER: Duration = Duration::from_secs(1);
/// The longest wait between probes.
const LONGEST_PROBE_AFTER: Duration = Duration::from_secs(60);
/// How often the log is reminded that a chain is still down.
const REMIND_EVERY: Duration = Duration::from_secs(300);

/// What the circuit lets a call do.
#[derive(Debug, PartialEq, Eq)]
pub enum Admission {
    /// Go ahead.
    Go,
    /// Go ahead as the one probe of a chain that is down.
    Probe,
    /// Fail at once: the chain is down and a probe is not due.
    Refuse {
        /// Until the next probe is due.
        retry_after: Duration,
        /// The last failure's cause.
        cause: String,
    },
}

/// The state of a chain's node, as health reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeState {
    /// No call has been made yet.
    Unknown,
    /// The last calls reached the node.
    Up,
    /// Marked down after consecutive failures.
    Down,
}

/// What health shows of a chain's node.
#[derive(Clone, Debug)]
pub struct NodeHealth {
    /// Up, down or unknown.
    pub state: NodeState,
    /// When a call last reached the node.
    pub last_success: Option<DateTime<Utc>>,
    /// When a call last failed to reach it, and why.
    pub last_error: Option<(DateTime<Utc>, String)>,
    /// Since when it is down.
    pub down_since: Option<DateTime<Utc>>,
}

#[derive(Default)]
struct State {
    consecutive_failures: u32,
    down: Option<Down>,
    last_success: Option<DateTime<Utc>>,
    last_error: Option<(DateTime<Utc>, String)>,
}

struct Down {
    since: DateTime<Utc>,
    next_probe: Instant,
    wait: Duration,
    probing: bool,
    reminded: Instant,
}

/// The circuit of one chain (shared by its clients).
pub struct Circuit {
    chain: Chain,
    url: String,
    log: slog::Logger,
    state: Mutex<State>,
}

impl Circuit {
    /// The circuit of `chain`'s node at `url` (logged without credentials).
    pub fn new(chain: Chain, url: &str, log: slog::Logger) -> Arc<Circuit> {
        Arc::new(Circuit {
            chain,
            url: public_url(url),
            log,
            state: Mutex::new(State::default()),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The chain's id.
    pub fn chain(&self) -> Chain {
        self.chain
    }

    /// Whether the chain is marked down.
    pub fn is_down(&self) -> bool {
        self.state().down.is_some()
    }

    /// What health shows.
    pub fn health(&self) -> NodeHealth {
        let state = self.state();
        NodeHealth {
            state: match (&state.down, state.last_success) {
                (Some(_), _) => NodeState::Down,
                (None, Some(_)) => NodeState::Up,
                // Never reached yet (failures below the threshold included).
                (None, None) => NodeState::Unknown,
            },
            last_success: state.last_success,
            last_error: state.last_error.clone(),
            down_since: state.down.as_ref().map(|d| d.since),
        }
    }

    /// May a call go now?
    pub fn admit(&self) -> Admission {
        let mut state = self.state();
        let State {
            down, last_error, ..
        } = &mut *state;
        let Some(down) = down.as_mut() else {
            return Admission::Go;
        };
        let now = Instant::now();
        if !down.probing && now >= down.next_probe {
            down.probing = true;
            return Admission::Probe;
        }
        Admission::Refuse {
            retry_after: down
                .next_probe
                .saturating_duration_since(now)
                .max(Duration::from_secs(1)),
            cause: last_error
                .as_ref()
                .map(|(_, cause)| cause.clone())
                .unwrap_or_default(),
        }
    }

    /// A call reached the node (an answer of any kind, errors included).
    pub fn succeeded(&self) {
        let mut state = self.state();
        let failures = std::mem::take(&mut state.consecutive_failures);
        state.last_success = Some(Utc::now());
        if let Some(down) = state.down.take() {
            let for_seconds = (Utc::now() - down.since).num_seconds();
            slog::info!(self.log, "chain node is back up";
                "chain" => self.chain.id(), "url" => &self.url,
                "down_for_s" => for_seconds, "failed_calls" => failures);
        }
    }

    /// A call could not reach the node (refused, reset, timed out, 5xx).
    /// `probe` when it was the probe of a chain that is down.
    pub fn failed(&self, cause: &str, probe: bool) {
        let mut state = self.state();
        let now = Instant::now();
        state.consecutive_failures = state.consecutive_failures.saturating_add(1);
        state.last_error = Some((Utc::now(), cause.to_string()));
        let failures = state.consecutive_failures;
        match state.down.as_mut() {
            Some(down) => {
                if probe {
                    down.probing = false;
                    down.wait = (down.wait * 2).min(LONGEST_PROBE_AFTER);
                    down.next_probe = now + down.wait;
                }
                if now.duration_since(down.reminded) >= REMIND_EVERY {
                    down.reminded = now;
                    slog::warn!(self.log, "chain node still down";
                        "chain" => self.chain.id(), "url" => &self.url, "cause" => cause,
                        "failed_calls" => failures,
                        "down_for_s" => (Utc::now() - down.since).num_seconds());
                }
            }
            None if failures >= FAILURES_TO_OPEN => {
                slog::warn!(self.log, "chain node down: calls fail at once until a probe gets through";
                    "chain" => self.chain.id(), "url" => &self.url, "cause" => cause,
                    "consecutive_failures" => failures);
                state.down = Some(Down {
                    since: Utc::now(),
                    next_probe: now + FIRST_PROBE_AFTER,
                    wait: FIRST_PROBE_AFTER,
                    probing: false,
                    reminded: now,
                });
            }
            None => {}
        }
    }
}

/// `url` as logs and health may show it: scheme, host and port only (node
/// URLs often carry an API key in their path, query or user info).
pub fn public_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "[unparsable URL]".into();
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    let elided = if rest.len() > authority.len() && rest[authority.len()..] != *"/" {
        "/…"
    } else {
        ""
    };
    format!("{scheme}://{host}{elided}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circuit() -> Arc<Circuit> {
        Circuit::new(
            Chain::Eth,
            "http://127.0.0.1:1",
            slog::Logger::root(slog::Discard, slog::o!()),
        )
    }

    #[test]
    fn opens_after_consecutive_failures_and_lets_one_probe_through() {
        let c = circuit();
        assert_eq!(c.health().state, NodeState::Unknown);
        for _ in 0..FAILURES_TO_OPEN - 1 {
            c.failed("refused", false);
            assert_eq!(c.admit(), Admission::Go);
        }
        c.succeeded();
        for _ in 0..FAILURES_TO_OPEN {
            c.failed("refused", false);
        }
        assert!(c.is_down());
        assert!(matches!(c.admit(), Admission::Refuse { .. }));
        // Once the probe is due, exactly one call gets it.
        c.state().down.as_mut().unwrap().next_probe = Instant::now();
        assert_eq!(c.admit(), Admission::Probe);
        assert!(matches!(c.admit(), Admission::Refuse { .. }));
        // A failed probe doubles the wait.
        c.failed("refused", true);
        assert_eq!(c.state().down.as_ref().unwrap().wait, FIRST_PROBE_AFTER * 2);
        c.state().down.as_mut().unwrap().next_probe = Instant::now();
        assert_eq!(c.admit(), Admission::Probe);
        c.succeeded();
        assert_eq!(c.admit(), Admission::Go);
        assert_eq!(c.health().state, NodeState::Up);
    }

    #[test]
    fn urls_lose_their_credentials() {
        assert_eq!(
            public_url("https://user:pw@127.0.0.1:8545/v3/SECRET?x=1"),
            "https://127.0.0.1:8545/…"
        );
        assert_eq!(public_url("http://127.0.0.1:8545"), "http://127.0.0.1:8545");
        assert_eq!(
            public_url("http://127.0.0.1:8545/"),
            "http://127.0.0.1:8545"
        );
    }
}
