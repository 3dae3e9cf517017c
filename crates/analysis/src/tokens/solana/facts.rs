//! Reading a Solana mint's facts in two round trips. Round 1 asks for the
//! mint, its largest token accounts, its signatures, its Metaplex metadata,
//! the pools of every configured family holding it (`getProgramAccounts`
//! on the mint's offsets), its pump.fun curve and canonical PumpSwap pool
//! (by address) and the SOL price pools. Round 2 reads what those name:
//! holders' token accounts, pool vaults, LP mints and the LP accounts of
//! the mint authority and pool creators, fee configurations, tick and bin
//! arrays around each price; and the chain time. Older signature pages are
//! read alongside round 2, one round trip each, followed by the launch's
//! first reads; the launch's last reads are one more round trip (`launch`).

use std::collections::{HashMap, HashSet};

use serde_json::json;

use super::launch::{self, SolLaunch};
use super::sell::{self, SellCheck};
use super::{history, holders, lp};
use crate::tokens::launch::LaunchLimits;
use crate::tokens::AnalysisError;
use riskintel_chains::rpc::{Batch, RpcError, Slot};
use riskintel_chains::solana::layouts::{self, Mint};
use riskintel_chains::solana::pools::positions::{self, Part, Position};
use riskintel_chains::solana::pools::{self, pump, Accounts, At, Family, Model, PoolState};
use riskintel_chains::solana::types::{
    Account, KeyedAccount, LargestAccount, SignatureInfo, WithContext,
};
use riskintel_chains::solana::{self as sol, Pubkey, SolanaChain};

/// Keys a node answers in one `getMultipleAccounts`.
const KEYS_PER_CALL: usize = 100;
/// Pools read at most: a quote asset such as USDC sits in thousands.
const MAX_POOLS: usize = 40;
/// Concentrated or binned pools whose positions are listed, at most.
const POSITION_POOLS: usize = 3;

/// At most [`MAX_POOLS`] of `pools`, the likeliest to matter first: its
/// curve and canonical pool, then pools quoted in one of `quotes` (SOL and
/// the stablecoins: the ones that can be priced), each family's deepest by its own active
/// liquidity where it records one.
fn keep_the_likeliest(
    quotes: &[Pubkey],
    mint: &Pubkey,
    mut pools: Vec<PoolState>,
) -> Vec<PoolState> {
    let priced = |p: &PoolState| p.mints.iter().any(|m| m != mint && quotes.contains(m));
    let active = |p: &PoolState| match &p.model {
        Model::Ticks(t) => t.liquidity,
        _ => 0,
    };
    pools.sort_by_key(|p| {
        (
            p.family != Family::PumpFun && p.family != Family::PumpSwap,
            !priced(p),
            std::cmp::Reverse(active(p)),
        )
    });
    pools.truncate(MAX_POOLS);
    pools
}

/// Everything read about a mint.
pub struct SolanaFacts {
    /// The mint's address.
    pub mint_address: Pubkey,
    /// Slot read at.
    pub slot: Option<u64>,
    /// The mint.
    pub mint: Mint,
    /// Metaplex metadata, when the account exists.
    pub metaplex: Option<layouts::Metadata>,
    /// The largest token accounts (address, amount); None when the node did not list them.
    pub largest: Option<Vec<(String, u64)>>,
    /// Signatures, newest first, as far back as paged; Err when unreadable.
    pub signatures: Result<Vec<SignatureInfo>, RpcError>,
    /// Whether `signatures` reaches the mint's first one.
    pub complete_history: bool,
    /// Pools holding the mint, of every family searched.
    pub pools: Vec<PoolState>,
    /// Families whose pools could not be searched, with why.
    pub families_failed: Vec<(Family, String)>,
    /// The SOL price pools.
    pub price_pools: Vec<PoolState>,
    /// Accounts read (the mint, round 2's), by address.
    pub accounts: Accounts,
    /// Positions of the concentrated and binned pools, by pool (absent
    /// where they could not be listed).
    pub positions: HashMap<Pubkey, Vec<Position>>,
    /// Mints of which the mint authority and the pools' creators hold at
    /// least one token (position NFTs), by holder (absent where unreadable).
    pub held_mints: HashMap<Pubkey, HashSet<Pubkey>>,
    /// The chain's time at `slot`.
    pub chain_time: Option<i64>,
    /// By pool with an LP mint: the LP the configured lockers hold (None
    /// where it could not be read; absent where not asked).
    pub locked_lp: HashMap<Pubkey, Option<u64>>,
    /// Who holds the supply since the launch, or why that could not be judged.
    pub launch: Result<SolLaunch, String>,
    /// The sell check's simulated transfers, or why none was made.
    pub sell: Result<SellCheck, String>,
}

impl SolanaFacts {
    /// The balance of a token account read in round 2.
    pub fn token_amount(&self, address: &Pubkey) -> Option<u64> {
        self.accounts.token_amount(address)
    }

    /// Who controls the mint: its mint authority while there is one.
    pub fn owner(&self) -> Option<Pubkey> {
        self.mint.mint_authority
    }
}

/// A pool account asked for by address in round 1.
enum Known {
    Curve,
    CanonicalPool,
    PricePool,
}

/// Read every fact about `mint`.
pub async fn gather(
    chain: &SolanaChain,
    mint: Pubkey,
    limits: LaunchLimits,
) -> Result<SolanaFacts, AnalysisError> {
    let m = sol::encode(&mint);
    let b64 = json!({"encoding": "base64", "commitment": "confirmed"});
    let metaplex = layouts::metaplex_address(&mint);
    // Round 1: the mint and everything that only needs its address.
    let mut batch = Batch::new();
    let info = batch.call::<WithContext<Option<Account>>>("getAccountInfo", json!([m, b64]));
    let largest = batch.call::<WithContext<Vec<LargestAccount>>>(
        "getTokenLargestAccounts",
        json!([m, {"commitment": "confirmed"}]),
    );
    let signatures = batch.call::<Vec<SignatureInfo>>(
        "getSignaturesForAddress",
        json!([m, {"limit": history::SIGNATURE_PAGE}]),
    );
    let metaplex = metaplex.map(|pda| {
        batch
            .call::<WithContext<Option<Account>>>("getAccountInfo", json!([sol::encode(&pda), b64]))
    });
    let mut searches: Vec<(Family, Pubkey, Slot<Vec<KeyedAccount>>)> = Vec::new();
    for dex in &chain.dexes {
        for filters in dex.family.mint_filters(&m) {
            let params = json!([sol::encode(&dex.program), {"encoding": "base64", "commitment": "confirmed", "filters": filters}]);
            searches.push((
                dex.family,
                dex.program,
                batch.call("getProgramAccounts", params),
            ));
        }
    }
    let mut known: Vec<(Known, Pubkey)> = Vec::new();
    if let Some(pump) = chain.dex(Family::PumpFun) {
        known.extend(pump::curve_address(&mint, &pump.program).map(|a| (Known::Curve, a)));
        if let Some(swap) = chain.dex(Family::PumpSwap) {
            known.extend(
                pump::canonical_pool(&mint, &pump.program, &swap.program)
                    .map(|a| (Known::CanonicalPool, a)),
            );
        }
    }
    known.extend(chain.price_pools.iter().map(|p| (Known::PricePool, *p)));
    let known_keys: Vec<String> = known.iter().map(|(_, k)| sol::encode(k)).collect();
    let known_slot = (!known.is_empty()).then(|| {
        batch.call::<WithContext<Vec<Option<Account>>>>(
            "getMultipleAccounts",
            json!([known_keys, b64]),
        )
    });
    let mut answers = chain.rpc.send(batch).await?;
    let info = answers.take(info)?;
    let slot = Some(info.context.slot);
    let Some(account) = info.value else {
        return Err(AnalysisError::NotFound(format!(
            "there is no account at {m} on sol"
        )));
    };
    let Some(mint_info) = layouts::decode_mint(&account.data, &account.owner) else {
        return Err(AnalysisError::NotFound(format!(
            "the account {m} on sol is not a mint of the SPL Token or Token-2022 program (its owner is {})",
            account.owner
        )));
    };
    let largest: Option<Vec<(String, u64)>> = answers.take(largest).ok().map(|l| {
        l.value
            .into_iter()
            .filter_map(|a| Some((a.address, a.amount.parse().ok()?)))
            .collect()
    });
    let first_signatures = answers.take(signatures);
    let metaplex = metaplex
        .and_then(|slot| answers.take(slot).ok())
        .and_then(|a| a.value)
        .filter(|a| a.owner == sol::METAPLEX_PROGRAM)
        .and_then(|a| layouts::decode_metaplex(&a.data));

    let mut pools: Vec<PoolState> = Vec::new();
    let mut families_failed: Vec<(Family, String)> = Vec::new();
    let keep = |pool: PoolState, pools: &mut Vec<PoolState>| {
        if pool.holds(&mint) && !pools.iter().any(|p| p.address == pool.address) {
            pools.push(pool);
        }
    };
    for (family, program, search) in searches {
        match answers.take(search) {
            Ok(list) => {
                for item in list {
                    let Ok(address) = sol::parse_pubkey(&item.pubkey) else {
                        continue;
                    };
                    if let Some(pool) = family.decode(program, address, &item.account.data) {
                        keep(pool, &mut pools);
                    }
                }
            }
            Err(e) if !families_failed.iter().any(|(f, _)| *f == family) => {
                families_failed.push((family, e.to_string()));
            }
            Err(_) => {}
        }
    }
    let mut price_pools = Vec::new();
    // Unreadable, they are missing: the liquidity checks say so.
    let found = known_slot
        .and_then(|slot| answers.take(slot).ok())
        .map(|w| w.value)
        .unwrap_or_default();
    for ((kind, address), account) in known.iter().zip(found) {
        let Some(account) = account else { continue };
        let Ok(program) = sol::parse_pubkey(&account.owner) else {
            continue;
        };
        let at = At {
            program,
            address: *address,
        };
        match kind {
            Known::Curve => {
                if let Some(curve) = pump::decode(&mint, at, &account.data) {
                    keep(curve, &mut pools);
                }
            }
            Known::CanonicalPool => {
                if let Some(pool) = Family::PumpSwap.decode(program, *address, &account.data) {
                    keep(pool, &mut pools);
                }
            }
            Known::PricePool => {
                if let Some(pool) = chain
                    .family_of(&account.owner)
                    .and_then(|f| f.decode(program, *address, &account.data))
                {
                    price_pools.push(pool);
                }
            }
        }
    }
    let mut accounts = Accounts::default();
    accounts.insert(mint, account);
    let quotes: Vec<Pubkey> = std::iter::once(chain.wsol)
        .chain(chain.stables.iter().map(|(s, _)| *s))
        .collect();
    let pools = keep_the_likeliest(&quotes, &mint, pools);

    // Round 2: token accounts of the largest holders; what each pool and
    // price pool needs; the LP accounts of the mint authority and of each
    // pool's creator; the block time.
    let mut wanted: Vec<Pubkey> = largest
        .iter()
        .flatten()
        .filter_map(|(a, _)| sol::parse_pubkey(a).ok())
        .collect();
    for pool in pools.iter().chain(&price_pools) {
        wanted.extend(pool.reads());
    }
    // A hooked mint's list of the extra accounts its hook needs (the sell check's transfers carry them).
    if let Some((Some(program), _)) = mint_info.transfer_hook {
        wanted.extend(sol::hook::list_address(&mint, &program));
    }
    for pool in &pools {
        let Some(lp) = &pool.lp else { continue };
        for holder in [mint_info.mint_authority, pool.creator]
            .into_iter()
            .flatten()
        {
            wanted.extend(sol::associated_token_address(
                &holder,
                &lp.mint,
                sol::TOKEN_PROGRAM,
            ));
        }
    }
    let mut seen = HashSet::new();
    wanted.retain(|k| accounts.get(k).is_none() && seen.insert(*k));
    let mut batch = Batch::new();
    let lists: Vec<(Vec<String>, Slot<WithContext<Vec<Option<Account>>>>)> =
        pools::chunks(&wanted, KEYS_PER_CALL)
            .into_iter()
            .map(|keys| {
                let slot = batch.call("getMultipleAccounts", json!([keys, b64]));
                (keys, slot)
            })
            .collect();
    // Who holds the positions of concentrated and binned pools.
    let listings: Vec<(Pubkey, Part, Slot<Vec<KeyedAccount>>)> = pools
        .iter()
        .filter(|p| matches!(p.model, Model::Ticks(_) | Model::Bins(_)))
        .take(POSITION_POOLS)
        .flat_map(|pool| {
            positions::queries(pool)
                .into_iter()
                .map(|q| (pool.address, q.part, q.params))
                .collect::<Vec<_>>()
        })
        .map(|(pool, part, params)| (pool, part, batch.call("getProgramAccounts", params)))
        .collect();
    let mut holders: Vec<Pubkey> = Vec::new();
    if pools.iter().any(|p| matches!(p.model, Model::Ticks(_))) {
        holders.extend(mint_info.mint_authority);
        holders.extend(pools.iter().filter_map(|p| p.creator));
    }
    holders.sort();
    holders.dedup();
    let holdings: Vec<(Pubkey, Slot<WithContext<Vec<KeyedAccount>>>)> = holders
        .iter()
        .flat_map(|h| [sol::TOKEN_PROGRAM, sol::TOKEN_2022_PROGRAM].map(|program| (*h, program)))
        .map(|(h, program)| {
            let params = json!([sol::encode(&h), {"programId": program}, b64]);
            (h, batch.call("getTokenAccountsByOwner", params))
        })
        .collect();
    let lockers = lp::plan(&mut batch, &chain.lockers, &pools);
    let time = slot.map(|slot| batch.call::<Option<i64>>("getBlockTime", json!([slot])));
    // Older pages of signatures need nothing round 2 reads: they go
    // alongside, and so do the launch's first reads, from the first page
    // (so that the launch costs one round trip more, never one per page).
    let first_page = match &first_signatures {
        Ok(list) => Ok(list.clone()),
        Err(e) => Err(format!("the mint's signatures could not be read: {e}")),
    };
    let complete_page = first_page
        .as_ref()
        .is_ok_and(|l| (l.len() as u64) < history::SIGNATURE_PAGE);
    // Older pages of signatures go alongside everything after round 1: the
    // last round (the launch's last reads, the sell check) never waits on them.
    let paging = history::page_signatures(chain, &m, first_signatures);
    let rounds = async {
        let (answers, started) = tokio::join!(
            chain.rpc.send(batch),
            launch::open(
                chain,
                &mint,
                &pools,
                first_page.as_deref().map_err(String::clone),
                complete_page,
                limits
            ),
        );
        let mut answers = answers?;
        for (keys, slot) in lists {
            for (k, v) in keys.iter().zip(answers.take(slot)?.value) {
                if let (Ok(k), Some(v)) = (sol::parse_pubkey(k), v) {
                    accounts.insert(k, v);
                }
            }
        }
        let chain_time = time.and_then(|slot| answers.take(slot).ok()).flatten();
        let locked_lp = lp::take(&mut answers, lockers);
        let mut lists: HashMap<Pubkey, Option<Vec<(Part, Vec<KeyedAccount>)>>> = HashMap::new();
        for (pool, part, slot) in listings {
            let entry = lists.entry(pool).or_insert_with(|| Some(Vec::new()));
            match (answers.take(slot), entry.as_mut()) {
                (Ok(list), Some(parts)) => parts.push((part, list)),
                _ => *entry = None,
            }
        }
        let now = (slot.unwrap_or_default(), chain_time.unwrap_or_default());
        let positions = pools
            .iter()
            .filter_map(|pool| {
                let parts = lists.get(&pool.address)?.as_ref()?;
                Some((pool.address, positions::collect(pool, parts, now)))
            })
            .collect();
        let mut held_mints: HashMap<Pubkey, HashSet<Pubkey>> = HashMap::new();
        let mut unreadable = HashSet::new();
        for (holder, slot) in holdings {
            match answers.take(slot) {
                Ok(list) => held_mints.entry(holder).or_default().extend(
                    list.value
                        .iter()
                        .filter_map(|k| layouts::decode_token_account(&k.account.data))
                        .filter(|a| a.amount > 0)
                        .map(|a| a.mint),
                ),
                Err(_) => {
                    unreadable.insert(holder);
                }
            }
        }
        held_mints.retain(|holder, _| !unreadable.contains(holder));
        // The launch's last reads: one more round trip.
        let pool_accounts = launch::pool_accounts(&pools);
        let largest_owners = holders::owners(
            &accounts,
            largest.as_deref().unwrap_or_default(),
            &pool_accounts,
        );
        let token_program = if mint_info.token_2022 {
            sol::TOKEN_2022_PROGRAM
        } else {
            sol::TOKEN_PROGRAM
        };
        // The sell check's simulations: a request of its own beside the launch's last reads.
        let largest_keys: Vec<Pubkey> = (largest.iter().flatten())
            .filter(|(a, _)| !pool_accounts.contains(a))
            .filter_map(|(a, _)| sol::parse_pubkey(a).ok())
            .collect();
        let mut sell_batch = Batch::new();
        let planned = sell::plan(
            &mut sell_batch,
            &mint,
            &mint_info,
            &pools,
            &accounts,
            &largest_keys,
        );
        let (launch, sell) = tokio::join!(
            async {
                match started {
                    Ok(started) => {
                        launch::finish(
                            chain,
                            started,
                            &mint,
                            token_program,
                            &pool_accounts,
                            &largest_owners,
                            limits,
                        )
                        .await
                    }
                    Err(why) => Err(why),
                }
            },
            async {
                match planned {
                    Ok(planned) => sell::simulate(chain, planned, sell_batch).await,
                    Err(why) => Err(why),
                }
            },
        );
        Ok::<_, AnalysisError>((chain_time, positions, held_mints, locked_lp, launch, sell))
    };
    let ((signatures, complete_history), rounds) = tokio::join!(paging, rounds);
    let (chain_time, positions, held_mints, locked_lp, launch, sell) = rounds?;
    Ok(SolanaFacts {
        mint_address: mint,
        slot,
        mint: mint_info,
        metaplex,
        largest,
        signatures,
        complete_history,
        pools,
        families_failed,
        price_pools,
        accounts,
        positions,
        held_mints,
        chain_time,
        locked_lp,
        launch,
        sell,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use riskintel_chains::solana::pools::Fee;

    fn pool(n: u8, quote: Pubkey, family: Family) -> PoolState {
        PoolState {
            family,
            program: [0; 32],
            address: [n; 32],
            mints: [[1; 32], quote],
            vaults: [None, None],
            decimals: [Some(6), Some(6)],
            model: Model::Pair {
                owed: [0, 0],
                virtual_1: 0,
            },
            lp: None,
            creator: None,
            fee: Fee::Bps(25.0),
            opened_at: None,
        }
    }

    #[test]
    fn a_mint_in_thousands_of_pools_keeps_the_priceable_ones() {
        let (mint, sol, other) = ([1; 32], [2; 32], [3; 32]);
        let mut pools: Vec<PoolState> = (10..60)
            .map(|n| pool(n, other, Family::RaydiumAmmV4))
            .collect();
        pools.push(pool(99, sol, Family::RaydiumCpmm));
        pools.push(pool(98, sol, Family::PumpSwap));
        let kept = keep_the_likeliest(&[sol], &mint, pools);
        assert_eq!(kept.len(), MAX_POOLS);
        assert_eq!((kept[0].address[0], kept[1].address[0]), (98, 99));
    }
}
