//! The holder index: net balances from a token's `Transfer` logs, read in
//! adaptive chunks, incremental and persisted in the store, bounded by a
//! look-back so a huge token cannot stall a request. The same requests read
//! its `RoleGranted` and `RoleRevoked` logs (one filter, three topics): who
//! holds an `AccessControl` role is known even where the token cannot list
//! its members (`getRoleMember` is only in the enumerable extension).

use std::collections::HashMap;

use alloy_primitives::{Address, B256, I256, U256};
use alloy_sol_types::SolEvent;
use serde_json::json;

use riskintel_chains::evm::abi::IAccessControl::{RoleGranted, RoleRevoked};
use riskintel_chains::evm::abi::IERC20::Transfer;
use riskintel_chains::evm::logs::{self, ScanLimits};
use riskintel_chains::evm::EvmChain;
use riskintel_chains::rpc::RpcError;
use riskintel_store::{HolderBalance, LogIndexKind, LogIndexState, RoleMember, Store, StoreError};

use super::launch::{EarlyHolder, LaunchRows, OPENING_BLOCKS};

/// What the index knows after an update.
#[derive(Clone, Debug)]
pub struct HolderIndex {
    /// First block indexed (0: from genesis).
    pub start_block: u64,
    /// Whether balances are complete up to the analysed block.
    pub complete: bool,
    /// Why not, when not.
    pub incomplete_reason: Option<String>,
    /// Block of the first Transfer seen.
    pub first_transfer_block: Option<u64>,
    /// The recipient of the first mint (the creator), when the index starts at genesis.
    pub creator: Option<Address>,
    /// The largest positive balances, largest first (candidates for the top holders).
    pub largest: Vec<Address>,
    /// Holders with a positive balance.
    pub holder_count: u64,
    /// `AccessControl` members (role, member) granted and not revoked since,
    /// as far as the index reaches.
    pub role_members: Vec<(B256, Address)>,
    /// The largest holders whose first tokens came from a pool or a router
    /// (they bought, rather than being handed tokens), with their indexed
    /// balances, largest first.
    pub buyers: Vec<(Address, U256)>,
    /// When a pool first received the token, and who got tokens by the end
    /// of the opening blocks; None before any pool has.
    pub launch: Option<LaunchRows>,
}

/// Holders of tokens bought from a pool looked up, at most.
pub const BUYERS: usize = 5;

/// Index failures.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The node failed.
    #[error(transparent)]
    Rpc(#[from] RpcError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Address as stored: lower-case hex with 0x.
pub fn holder_key(address: &Address) -> String {
    format!("{address:#x}")
}

/// Bring the index of `token` up to `latest` (within the limits) and
/// report it, with the `largest` holders asked for and the largest of
/// those whose first tokens came from one of `sources` (its pools and the
/// chain's routers), and the launch's first `launch_holders` holders.
#[allow(clippy::too_many_arguments)]
pub async fn update(
    store: &dyn Store,
    chain: &EvmChain,
    token: Address,
    latest: u64,
    limits: ScanLimits,
    largest: usize,
    sources: Vec<Address>,
    launch_holders: usize,
) -> Result<HolderIndex, IndexError> {
    let token_key = holder_key(&token);
    let existing = store
        .log_index_get(chain.id, LogIndexKind::Holders, &token_key)
        .await?;
    let (start_block, next, expected) = match &existing {
        Some(s) => (
            s.start_block as u64,
            s.next_block as u64,
            Some(s.next_block),
        ),
        None => {
            let start = latest.saturating_sub(limits.lookback_blocks);
            (start, start, None)
        }
    };
    let mut first_transfer = existing
        .as_ref()
        .and_then(|s| s.first_block)
        .map(|b| b as u64);
    let mut creator = existing
        .as_ref()
        .and_then(|s| s.first_party.as_deref())
        .and_then(|c| c.parse::<Address>().ok());
    let topics = [
        Transfer::SIGNATURE_HASH,
        RoleGranted::SIGNATURE_HASH,
        RoleRevoked::SIGNATURE_HASH,
    ];
    let filter = logs::filter(Some(json!(token)), json!([topics]));
    let scan = logs::scan(&chain.rpc, &[filter], next, latest, limits).await?;
    let mut deltas: HashMap<Address, I256> = HashMap::new();
    // Each recipient's first receipt in this scan: (sender, block).
    let mut received: HashMap<Address, (Address, u64)> = HashMap::new();
    // The last event of each (role, member), in log order.
    let mut roles: HashMap<(B256, Address), bool> = HashMap::new();
    for log in &scan.logs {
        let role = |granted: bool| {
            let (role, member) = (log.topics.get(1)?, log.topics.get(2)?);
            Some(((*role, Address::from_word(*member)), granted))
        };
        let change = match log.topic0() {
            Some(t) if t == RoleGranted::SIGNATURE_HASH => role(true),
            Some(t) if t == RoleRevoked::SIGNATURE_HASH => role(false),
            _ => None,
        };
        if let Some((key, granted)) = change {
            roles.insert(key, granted);
            continue;
        }
        // A Transfer with three topics is ERC-20; ERC-721 puts the id in a fourth.
        let Some(transfer) = log.decode::<Transfer>().filter(|_| log.topics.len() == 3) else {
            continue;
        };
        let value = I256::try_from(transfer.value).unwrap_or(I256::MAX);
        *deltas.entry(transfer.from).or_insert(I256::ZERO) -= value;
        *deltas.entry(transfer.to).or_insert(I256::ZERO) += value;
        // A transfer of nothing (anyone may make one to anyone) is no first receipt.
        if !transfer.value.is_zero() {
            received
                .entry(transfer.to)
                .or_insert((transfer.from, log.block()));
        }
        if log.block_number.is_some() {
            first_transfer = Some(first_transfer.map_or(log.block(), |f| f.min(log.block())));
        }
        // The first mint's recipient is the creator — knowable only when the index starts at genesis.
        if creator.is_none() && start_block == 0 && transfer.from.is_zero() {
            creator = Some(transfer.to);
        }
    }
    let next = scan.next;
    if next > start_block || expected.is_none() {
        let touched: Vec<String> = deltas.keys().map(holder_key).collect();
        let current: HashMap<String, I256> = store
            .holder_balances_get(chain.id, &token_key, &touched)
            .await?
            .into_iter()
            .filter_map(|b| b.balance.parse::<I256>().ok().map(|v| (b.holder, v)))
            .collect();
        let balances: Vec<HolderBalance> = deltas
            .iter()
            .map(|(holder, delta)| {
                let key = holder_key(holder);
                let balance = current.get(&key).copied().unwrap_or(I256::ZERO) + *delta;
                let first = received.get(holder);
                HolderBalance {
                    holder: key,
                    sort_key: balance.to_string().parse().unwrap_or(0.0),
                    balance: balance.to_string(),
                    first_from: first.map(|(from, _)| holder_key(from)),
                    first_block: first.map(|(_, block)| *block as i64),
                }
            })
            .collect();
        let state = LogIndexState {
            start_block: start_block as i64,
            next_block: next as i64,
            first_block: first_transfer.map(|b| b as i64),
            first_party: creator.map(|c| holder_key(&c)),
        };
        let roles: Vec<RoleMember> = roles
            .iter()
            .map(|((role, member), granted)| RoleMember {
                role: format!("{role:#x}"),
                member: holder_key(member),
                granted: *granted,
            })
            .collect();
        // If another instance indexed the same blocks first, its result stands.
        store
            .holder_index_apply(chain.id, &token_key, expected, &state, &balances, &roles)
            .await?;
    }
    let largest = store
        .holder_top(chain.id, &token_key, largest as i64)
        .await?
        .into_iter()
        .filter_map(|b| b.holder.parse::<Address>().ok())
        .collect();
    let sources: Vec<String> = sources.iter().map(holder_key).collect();
    let buyers = store
        .holder_buyers(chain.id, &token_key, &sources, BUYERS as i64)
        .await?
        .into_iter()
        .filter_map(|b| Some((b.holder.parse().ok()?, b.balance.parse().ok()?)))
        .collect();
    let launch = launch_rows(store, chain, &token_key, &sources, launch_holders).await?;
    let holder_count = store.holder_count(chain.id, &token_key).await? as u64;
    let role_members = store
        .role_members(chain.id, &token_key)
        .await?
        .into_iter()
        .filter_map(|m| Some((m.role.parse().ok()?, m.member.parse().ok()?)))
        .collect();
    Ok(HolderIndex {
        start_block,
        complete: start_block == 0 && next > latest,
        incomplete_reason: logs::incomplete_reason(
            start_block,
            next,
            latest,
            scan.gave_up,
            "Transfer",
        ),
        first_transfer_block: first_transfer,
        creator,
        largest,
        holder_count,
        role_members,
        buyers,
        launch,
    })
}

/// The block a pool (or router) of `sources` first received the token, and
/// the holders whose first tokens came by the end of the opening blocks,
/// earliest first.
async fn launch_rows(
    store: &dyn Store,
    chain: &EvmChain,
    token_key: &str,
    sources: &[String],
    cap: usize,
) -> Result<Option<LaunchRows>, StoreError> {
    let opened = (store
        .holder_balances_get(chain.id, token_key, sources)
        .await?)
        .into_iter()
        .filter_map(|b| b.first_block)
        .min();
    let Some(opened) = opened else {
        return Ok(None);
    };
    let last = opened + OPENING_BLOCKS as i64 - 1;
    let early = (store
        .holder_first_by(chain.id, token_key, last, cap as i64)
        .await?)
        .into_iter()
        .filter_map(|b| {
            let held = b.balance.parse::<I256>().ok()?;
            Some(EarlyHolder {
                address: b.holder.parse().ok()?,
                held: if held.is_positive() {
                    held.into_raw()
                } else {
                    U256::ZERO
                },
                first_from: b.first_from?.parse().ok()?,
                first_block: b.first_block? as u64,
            })
        })
        .collect();
    Ok(Some(LaunchRows {
        opened: opened as u64,
        early,
    }))
}
