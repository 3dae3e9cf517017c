//! Who holds a concentrated or binned pool's liquidity. Raydium CLMM and
//! Orca Whirlpools positions belong to whoever holds their NFT; Meteora
//! DLMM positions name their owner. Positions are listed with
//! `getProgramAccounts` on the pool's address (sliced to the fields read),
//! locks likewise: Raydium's locking program (`LockedClmmPositionState`),
//! Orca's `LockConfig`, a DLMM position's `lock_release_point`. Layouts
//! from the sources named in `clmm`, `whirlpool` and `dlmm`, and Raydium's
//! `LockClPositionLayoutV2`.

use std::collections::HashSet;

use serde_json::{json, Value};

use super::super::bytes::{discriminator, i32_at, pubkey_at, u128_at, u64_at};
use super::super::types::KeyedAccount;
use super::super::{encode, key, parse_pubkey, Pubkey};
use super::{dlmm, Accounts, Family, Model, PoolState};

/// Raydium's locking program for CLMM positions ("Burn & Earn").
pub const RAYDIUM_LOCK_PROGRAM: &str = "LockrWmn6K5twhz3y9w1dQERbmgSaRkfnTeTKbpofwE";

/// What one listing asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Part {
    /// Positions (for DLMM: owners and shares).
    Positions,
    /// Locks (for DLMM: position ranges and lock times).
    Locks,
}

/// One `getProgramAccounts` listing.
pub struct Query {
    /// What it lists.
    pub part: Part,
    /// Its parameters.
    pub params: Value,
}

fn listing(program: &Pubkey, filters: Value, slice: Option<(usize, usize)>) -> Value {
    let mut options = json!({"encoding": "base64", "commitment": "confirmed", "filters": filters});
    if let Some((offset, length)) = slice {
        options["dataSlice"] = json!({"offset": offset, "length": length});
    }
    json!([encode(program), options])
}

fn bytes(text: &[u8]) -> String {
    bs58::encode(text).into_string()
}

/// The listings that find `pool`'s positions and locks; none for pools
/// with an LP mint.
pub fn queries(pool: &PoolState) -> Vec<Query> {
    let p = encode(&pool.address);
    let memcmp = |offset: usize, b: &str| json!({"memcmp": {"offset": offset, "bytes": b}});
    let q = |part, params| Query { part, params };
    match pool.family {
        // PersonalPositionState (281): nft_mint 9, ticks 73/77, liquidity 81.
        Family::RaydiumClmm => vec![
            q(
                Part::Positions,
                listing(
                    &pool.program,
                    json!([{"dataSize": 281}, memcmp(41, &p)]),
                    Some((9, 88)),
                ),
            ),
            q(
                Part::Locks,
                listing(
                    &key(RAYDIUM_LOCK_PROGRAM),
                    json!([
                        memcmp(0, &bytes(&discriminator("LockedClmmPositionState"))),
                        memcmp(41, &p)
                    ]),
                    Some((73, 32)),
                ),
            ),
        ],
        // Position (216): position_mint 40, liquidity 72, ticks 88/92.
        Family::OrcaWhirlpool => vec![
            q(
                Part::Positions,
                listing(
                    &pool.program,
                    json!([{"dataSize": 216}, memcmp(8, &p)]),
                    Some((40, 56)),
                ),
            ),
            q(
                Part::Locks,
                listing(
                    &pool.program,
                    json!([
                        memcmp(0, &bytes(&discriminator("LockConfig"))),
                        memcmp(72, &p)
                    ]),
                    Some((8, 32)),
                ),
            ),
        ],
        // PositionV2: owner 40, liquidity_shares 72 (70 × u128); bins 7912/7916, lock 7992.
        Family::MeteoraDlmm => {
            let filters = json!([
                memcmp(0, &bytes(&discriminator("PositionV2"))),
                memcmp(8, &p)
            ]);
            vec![
                q(
                    Part::Positions,
                    listing(&pool.program, filters.clone(), Some((40, 32 + 70 * 16))),
                ),
                q(
                    Part::Locks,
                    listing(&pool.program, filters, Some((7912, 88))),
                ),
            ]
        }
        _ => Vec::new(),
    }
}

/// What a position holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Stake {
    /// Liquidity between two ticks.
    Range {
        /// Lower tick.
        lower: i32,
        /// Upper tick.
        upper: i32,
        /// Its liquidity.
        liquidity: f64,
    },
    /// Shares of bins from `lower` on.
    Bins {
        /// Its first bin.
        lower: i32,
        /// Its shares, bin by bin.
        shares: Vec<u128>,
    },
}

/// A position.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// Its NFT (CLMM, Whirlpools), whose holder owns it.
    pub nft: Option<Pubkey>,
    /// Its owner (DLMM).
    pub owner: Option<Pubkey>,
    /// Locked: by a locking program, or a DLMM lock not yet released.
    pub locked: bool,
    /// What it holds.
    pub stake: Stake,
}

/// The positions of `pool` from its listings; `now` is (slot, unix time),
/// against which a DLMM position's lock is read.
pub fn collect(
    pool: &PoolState,
    lists: &[(Part, Vec<KeyedAccount>)],
    now: (u64, i64),
) -> Vec<Position> {
    let keyed = |part: Part| {
        lists
            .iter()
            .filter(move |(p, _)| *p == part)
            .flat_map(|(_, l)| l)
            .filter_map(|k| Some((parse_pubkey(&k.pubkey).ok()?, &k.account.data)))
    };
    match pool.family {
        Family::RaydiumClmm | Family::OrcaWhirlpool => {
            let clmm = pool.family == Family::RaydiumClmm;
            // A Raydium lock names the position account; an Orca lock too.
            let locked: HashSet<Pubkey> = keyed(Part::Locks)
                .filter_map(|(_, d)| pubkey_at(d, 0))
                .collect();
            keyed(Part::Positions)
                .filter_map(|(address, d)| {
                    let (ticks, liquidity) = if clmm { (64, 72) } else { (48, 32) };
                    Some(Position {
                        nft: pubkey_at(d, 0),
                        owner: None,
                        locked: locked.contains(&address),
                        stake: Stake::Range {
                            lower: i32_at(d, ticks)?,
                            upper: i32_at(d, ticks + 4)?,
                            liquidity: u128_at(d, liquidity)? as f64,
                        },
                    })
                })
                .collect()
        }
        Family::MeteoraDlmm => {
            let by_time = matches!(&pool.model, Model::Bins(b) if b.by_time);
            let ranges: Vec<(Pubkey, i32, bool)> = keyed(Part::Locks)
                .filter_map(|(address, d)| {
                    let release = u64_at(d, 80)?;
                    let locked = if by_time {
                        i64::try_from(release).is_ok_and(|r| r > now.1)
                    } else {
                        release > now.0
                    };
                    Some((address, i32_at(d, 0)?, locked))
                })
                .collect();
            keyed(Part::Positions)
                .filter_map(|(address, d)| {
                    let (_, lower, locked) = ranges.iter().find(|r| r.0 == address)?;
                    Some(Position {
                        nft: None,
                        owner: pubkey_at(d, 0),
                        locked: *locked,
                        stake: Stake::Bins {
                            lower: *lower,
                            shares: (0..70).filter_map(|i| u128_at(d, 32 + 16 * i)).collect(),
                        },
                    })
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The share of `pool`'s liquidity near its price held by the positions
/// `pick` chooses: for ticks, in-range liquidity against the pool's active
/// liquidity; for bins, value in the bins read against theirs. None when
/// the pool has none to divide.
pub fn share(
    pool: &PoolState,
    positions: &[Position],
    accounts: &Accounts,
    pick: impl Fn(&Position) -> bool,
) -> Option<f64> {
    match &pool.model {
        Model::Ticks(t) => {
            let active = t.liquidity as f64;
            let held: f64 = positions
                .iter()
                .filter(|p| pick(p))
                .filter_map(|p| match p.stake {
                    Stake::Range {
                        lower,
                        upper,
                        liquidity,
                    } if lower <= t.tick && t.tick < upper => Some(liquidity),
                    _ => None,
                })
                .sum();
            (active > 0.0).then(|| (held / active).min(1.0))
        }
        Model::Bins(b) => {
            let bins = b.read(&pool.program, &pool.address, accounts);
            let value = |bin: &dlmm::Bin| bin.x as f64 * b.price_at(bin.id) + bin.y as f64;
            let total: f64 = bins.iter().map(value).sum();
            let held: f64 = positions
                .iter()
                .filter(|p| pick(p))
                .filter_map(|p| match &p.stake {
                    Stake::Bins { lower, shares } => Some(
                        bins.iter()
                            .filter(|bin| bin.supply > 0)
                            .filter_map(|bin| {
                                let i = usize::try_from(bin.id - lower).ok()?;
                                Some(value(bin) * *shares.get(i)? as f64 / bin.supply as f64)
                            })
                            .sum::<f64>(),
                    ),
                    _ => None,
                })
                .sum();
            (total > 0.0).then(|| (held / total).min(1.0))
        }
        _ => None,
    }
}
