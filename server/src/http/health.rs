//! What `GET /v1/health` shows of the chains: each node's circuit and the
//! market index's lag, read from memory (no node is called).

use riskintel_api::{ChainHealth, NodeStatus};

use riskintel_chains::circuit::NodeState;
use riskintel_chains::registry::Chains;

/// Every served chain's node.
pub fn chains(chains: &Chains) -> Vec<ChainHealth> {
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
                market_index_lag_blocks: chains.evm(chain).ok().and_then(|evm| evm.index_lag()),
            }
        })
        .collect()
}
