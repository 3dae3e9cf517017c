//! `GET /v1/health`: the database's reachability, and each chain's node
//! circuit and market index lag, read from memory (no node is called), and
//! which instance leads each chain's index (from the leases' table).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use dropshot::{HttpResponseOk, RequestContext};
use riskintel_api::{ApiError, ChainHealth, DatabaseHealth, Health, HealthStatus, NodeStatus};

use riskintel_chains::circuit::NodeState;
use riskintel_chains::registry::Chains;

use super::ServerContext;

/// The longest health waits for the database.
const DATABASE_TIMEOUT: Duration = Duration::from_secs(1);

/// The service's health: never metered, never refused.
pub(super) async fn get(
    rqctx: RequestContext<ServerContext>,
) -> Result<HttpResponseOk<Health>, ApiError> {
    let ctx = rqctx.context();
    let started = Instant::now();
    let reachable = tokio::time::timeout(DATABASE_TIMEOUT, ctx.store.ping())
        .await
        .is_ok_and(|pinged| pinged.is_ok());
    // Who leads each chain's index (unknown while the database does not answer).
    let leaders = if reachable {
        tokio::time::timeout(DATABASE_TIMEOUT, ctx.leases.holders())
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default()
    } else {
        Default::default()
    };
    let chains = chains(ctx.analyzer.chains(), &leaders);
    let all_up = chains.iter().all(|c| c.status != NodeStatus::Down);
    crate::telemetry::request_answered(&rqctx.endpoint.operation_id, 200, started.elapsed());
    Ok(HttpResponseOk(Health {
        status: if reachable && all_up {
            HealthStatus::Ok
        } else {
            HealthStatus::Degraded
        },
        version: env!("CARGO_PKG_VERSION").to_string(),
        instance: ctx.leases.instance().to_string(),
        database: DatabaseHealth {
            backend: ctx.store.backend().to_string(),
            reachable,
            latency_ms: started.elapsed().as_secs_f64() * 1000.0,
        },
        chains,
        time: ctx.clock.now(),
    }))
}

/// Every served chain's node, and its index's leader among `leaders`
/// (lease name → holder).
fn chains(chains: &Chains, leaders: &BTreeMap<String, String>) -> Vec<ChainHealth> {
    chains
        .health()
        .into_iter()
        .map(|(chain, node)| {
            let (last_error_at, last_error) = node.last_error.unzip();
            ChainHealth {
                chain: chain.id().to_string(),
                status: match node.state {
                    NodeState::Up => NodeStatus::Up,
                    NodeState::Down => NodeStatus::Down,
                    NodeState::Unknown => NodeStatus::Unknown,
                },
                last_success: node.last_success,
                last_error_at,
                last_error,
                down_since: node.down_since,
                market_index_lag_blocks: chains.index_lag(chain),
                market_index_leader: leaders.get(&crate::leases::market(chain)).cloned(),
            }
        })
        .collect()
}
