//! `GET /v1/health`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Overall state of the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HealthStatus {
    /// Everything the service needs answers.
    Ok,
    /// The service runs but a dependency (the database, or a chain's
    /// node) does not answer.
    Degraded,
}

/// Health of the service, its database and its chains' nodes.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Health {
    /// `ok` when the database answers and no chain's node is down,
    /// `degraded` otherwise.
    pub status: HealthStatus,
    /// Version of the running service.
    pub version: String,
    /// This instance's name (the `instance` setting, or one made at start):
    /// what a chain's `market_index_leader` names when this instance leads it.
    pub instance: String,
    /// State of the database.
    pub database: DatabaseHealth,
    /// Each served chain's node, from the service's recent calls to it (no
    /// node is called for this answer), in chain order.
    pub chains: Vec<ChainHealth>,
    /// Server time (UTC) when this answer was made.
    pub time: chrono::DateTime<chrono::Utc>,
}

/// State of the database the service stores accounts, keys and usage in.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct DatabaseHealth {
    /// `sqlite` or `postgres`.
    pub backend: String,
    /// Whether a trivial query succeeded just now.
    pub reachable: bool,
    /// How long that query took, in milliseconds.
    pub latency_ms: f64,
}

/// State of a chain's node, from recent upstream calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NodeStatus {
    /// The last calls reached the node.
    Up,
    /// Marked down after consecutive connection failures or timeouts:
    /// analyses on this chain answer at once (an earlier result marked
    /// `stale`, or 503) while one probe at a time tests recovery.
    Down,
    /// No call has reached the node since the service started.
    Unknown,
}

/// A served chain's node.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ChainHealth {
    /// Chain id.
    pub chain: String,
    /// Up, down or unknown.
    pub status: NodeStatus,
    /// When a call last reached the node.
    pub last_success: Option<chrono::DateTime<chrono::Utc>>,
    /// When a call last failed to reach the node.
    pub last_error_at: Option<chrono::DateTime<chrono::Utc>>,
    /// Why that call failed.
    pub last_error: Option<String>,
    /// Since when the node is marked down.
    pub down_since: Option<chrono::DateTime<chrono::Utc>>,
    /// Blocks between the chain's head and the market index at its last
    /// poll, with the market index on (on Solana, slots: the signatures a
    /// poll left for the next one); absent before its first poll.
    pub market_index_lag_blocks: Option<u64>,
    /// The instance that runs this chain's market index now: instances
    /// sharing one PostgreSQL elect one per chain with a lease, and another
    /// takes over within `market.lease_ms` when it stops. Absent when the
    /// index is off, or while the lease is between holders.
    pub market_index_leader: Option<String>,
}
