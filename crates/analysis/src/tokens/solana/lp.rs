//! What the configured lock authorities (`chains.sol.lp_lockers`) hold of
//! each pool's LP mint, read in round 2: LP they hold counts as locked, as
//! burned LP does.

use std::collections::HashMap;

use serde_json::json;

use riskintel_chains::rpc::{Answers, Batch, Slot};
use riskintel_chains::solana::layouts;
use riskintel_chains::solana::pools::PoolState;
use riskintel_chains::solana::types::{KeyedAccount, WithContext};
use riskintel_chains::solana::{self as sol, Pubkey};

/// Pools whose LP the lockers' holdings are read of, at most (the likeliest first).
const LOCKED_POOLS: usize = 5;

type Holdings = Slot<WithContext<Vec<KeyedAccount>>>;

/// The reads planned in a batch.
pub struct Planned(Vec<(Pubkey, Vec<Holdings>)>);

/// Ask, in `batch`, for the token accounts each of `lockers` holds of the
/// LP mint of each of `pools` that has one.
pub fn plan(batch: &mut Batch, lockers: &[Pubkey], pools: &[PoolState]) -> Planned {
    let b64 = json!({"encoding": "base64", "commitment": "confirmed"});
    let with_lp = pools
        .iter()
        .filter_map(|p| Some((p.address, p.lp.as_ref()?.mint)));
    Planned(
        (with_lp.take(LOCKED_POOLS))
            .filter(|_| !lockers.is_empty())
            .map(|(pool, mint)| {
                let reads = (lockers.iter())
                    .map(|locker| {
                        let params =
                            json!([sol::encode(locker), {"mint": sol::encode(&mint)}, b64]);
                        batch.call("getTokenAccountsByOwner", params)
                    })
                    .collect();
                (pool, reads)
            })
            .collect(),
    )
}

/// By pool: the LP the lockers hold (None where a read failed).
pub fn take(answers: &mut Answers, planned: Planned) -> HashMap<Pubkey, Option<u64>> {
    let mut locked = HashMap::new();
    for (pool, reads) in planned.0 {
        let mut held = Some(0u64);
        for read in reads {
            held = match (held, answers.take(read)) {
                (Some(sum), Ok(list)) => Some(
                    (list.value.iter())
                        .filter_map(|k| layouts::decode_token_account(&k.account.data))
                        .fold(sum, |s, a| s.saturating_add(a.amount)),
                ),
                _ => None,
            };
        }
        locked.insert(pool, held);
    }
    locked
}
