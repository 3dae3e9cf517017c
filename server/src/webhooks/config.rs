//! The `[webhooks]` settings.

use serde::{Deserialize, Serialize};

/// Webhook settings (the `[webhooks]` table).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebhooksConfig {
    /// Run the delivery worker (every instance may: each event is claimed by one).
    pub enabled: bool,
    /// Allow targets that are, or resolve to, private, loopback or other
    /// internal addresses, and plain `http` to them. For tests and private
    /// deployments only: it lets API users make the service send requests
    /// into its own network.
    pub allow_private_targets: bool,
    /// Longest a receiver may take to answer one delivery (ms).
    pub timeout_ms: u64,
    /// Wait before the first retry (seconds); each further retry waits
    /// twice as long as the one before, up to `retry_max_seconds`.
    pub retry_first_seconds: u64,
    /// Longest wait between two attempts (seconds).
    pub retry_max_seconds: u64,
    /// How long an event is retried, and how long a subscription may fail
    /// without a success before it is disabled (hours).
    pub retry_for_hours: u64,
    /// How often the worker looks for due deliveries (ms).
    pub poll_ms: u64,
    /// Deliveries made at once by one instance.
    pub concurrency: u32,
    /// How long the delivery log keeps an event once it is delivered or
    /// failed (days, from when it was queued or last queued again).
    pub log_retention_days: u64,
    /// Seals signing secrets at rest (AES-256-GCM): 64 hex digits, 32
    /// random bytes (`openssl rand -hex 32`). Best set by the environment
    /// (`RISKINTEL_WEBHOOKS_SECRETS_KEY`), away from the database and its
    /// backups. Empty: secrets are stored as they are. Secrets stored
    /// before it was set are sealed when an instance with it starts.
    pub secrets_key: SealingKey,
}

/// The key that seals signing secrets, in hex; `Debug` shows only whether
/// it is set.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SealingKey(pub String);

impl std::fmt::Debug for SealingKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let set = !self.0.trim().is_empty();
        f.write_str(if set {
            "SealingKey(set)"
        } else {
            "SealingKey(unset)"
        })
    }
}

impl Default for WebhooksConfig {
    fn default() -> Self {
        WebhooksConfig {
            enabled: true,
            allow_private_targets: false,
            timeout_ms: 10_000,
            retry_first_seconds: 30,
            retry_max_seconds: 6 * 3_600,
            retry_for_hours: 24,
            poll_ms: 1_000,
            concurrency: 8,
            log_retention_days: 30,
            secrets_key: SealingKey::default(),
        }
    }
}
