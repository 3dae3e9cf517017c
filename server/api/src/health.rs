//! `GET /v1/health`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Overall state of the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HealthStatus {
    /// Everything the service needs answers.
    Ok,
    /// The service runs but a dependency (the database) does not answer.
    Degraded,
}

/// Health of the service and of its database.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Health {
    /// `ok` when the database answers, `degraded` otherwise.
    pub status: HealthStatus,
    /// Version of the running service.
    pub version: String,
    /// State of the database.
    pub database: DatabaseHealth,
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
