//! Reading a Solana mint's facts: round 1 asks for the mint, its largest
//! token accounts, its signatures, its Metaplex metadata, Raydium CPMM
//! pools holding it and the SOL price pool; round 2 reads the accounts
//! those name (holders' token accounts, pool vaults, LP mints) and the
//! chain time. Older signature pages add one round trip each.

use std::collections::HashMap;

use serde_json::json;

use crate::chains::rpc::{Batch, RpcError, Slot};
use crate::chains::solana::layouts::{self, CpmmPool, Mint};
use crate::chains::solana::node::{
    Account, KeyedAccount, LargestAccount, SignatureInfo, WithContext,
};
use crate::chains::solana::{self as sol, Pubkey, SolanaChain};
use crate::tokens::AnalysisError;

/// Signatures fetched per page when dating a mint.
const SIGNATURE_PAGE: u64 = 1000;
/// Pages of signatures read at most; a mint with more history is old enough not to be new.
const SIGNATURE_PAGES: usize = 5;

/// A CPMM pool holding the mint.
pub struct PoolView {
    /// The pool's address.
    pub address: Pubkey,
    /// Its state.
    pub pool: CpmmPool,
    /// Whether the mint is its token 0.
    pub token_is_0: bool,
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
    /// CPMM pools of the mint.
    pub pools: Vec<PoolView>,
    /// Why pools could not be discovered, when they could not.
    pub pool_error: Option<String>,
    /// The price pool's state.
    pub price_pool: Option<CpmmPool>,
    /// Accounts read in round 2, by address.
    pub accounts: HashMap<String, Account>,
    /// The chain's time at `slot`.
    pub chain_time: Option<i64>,
}

impl SolanaFacts {
    /// The balance of a token account read in round 2.
    pub fn token_amount(&self, address: &Pubkey) -> Option<u64> {
        self.accounts
            .get(&sol::encode(address))
            .and_then(|a| layouts::decode_token_account(&a.data))
            .map(|a| a.amount)
    }
}

/// Read every fact about `mint`.
pub async fn gather(chain: &SolanaChain, mint: Pubkey) -> Result<SolanaFacts, AnalysisError> {
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
        json!([m, {"limit": SIGNATURE_PAGE}]),
    );
    let metaplex = metaplex.map(|pda| {
        batch
            .call::<WithContext<Option<Account>>>("getAccountInfo", json!([sol::encode(&pda), b64]))
    });
    let pool_queries: Vec<Slot<Vec<KeyedAccount>>> = match chain.cpmm_program {
        Some(program) => layouts::CPMM_MINT_OFFSETS
            .iter()
            .map(|offset| {
                let filters = json!([{"dataSize": layouts::CPMM_POOL_SIZE}, {"memcmp": {"offset": offset, "bytes": m}}]);
                batch.call("getProgramAccounts", json!([sol::encode(&program), {"encoding": "base64", "filters": filters}]))
            })
            .collect(),
        None => Vec::new(),
    };
    let price_pool = chain.price_pool.map(|pool| {
        batch.call::<WithContext<Option<Account>>>(
            "getAccountInfo",
            json!([sol::encode(&pool), b64]),
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
    let (signatures, complete_history) = page_signatures(chain, &m, answers.take(signatures)).await;
    let metaplex = metaplex
        .and_then(|slot| answers.take(slot).ok())
        .and_then(|a| a.value)
        .filter(|a| a.owner == sol::METAPLEX_PROGRAM)
        .and_then(|a| layouts::decode_metaplex(&a.data));
    let mut pools: Vec<PoolView> = Vec::new();
    let mut pool_error = None;
    for query in pool_queries {
        match answers.take(query) {
            Ok(list) => {
                for item in list {
                    let (Ok(address), Some(pool)) = (
                        sol::parse_pubkey(&item.pubkey),
                        layouts::decode_cpmm_pool(&item.account.data),
                    ) else {
                        continue;
                    };
                    if (pool.mint_0 == mint || pool.mint_1 == mint)
                        && !pools.iter().any(|p| p.address == address)
                    {
                        pools.push(PoolView {
                            address,
                            token_is_0: pool.mint_0 == mint,
                            pool,
                        });
                    }
                }
            }
            Err(e) => {
                pool_error = Some(format!(
                    "pool discovery failed ({e}); public nodes often refuse getProgramAccounts"
                ))
            }
        }
    }
    let price_pool = price_pool
        .and_then(|slot| answers.take(slot).ok())
        .and_then(|a| a.value)
        .and_then(|a| layouts::decode_cpmm_pool(&a.data));

    // Round 2: token accounts of the largest holders, pool vaults and LP mints, the price pool's vaults; the block time.
    let mut wanted: Vec<String> = largest.iter().flatten().map(|(a, _)| a.clone()).collect();
    for p in &pools {
        wanted.extend([
            sol::encode(&p.pool.vault_0),
            sol::encode(&p.pool.vault_1),
            sol::encode(&p.pool.lp_mint),
        ]);
    }
    if let Some(p) = &price_pool {
        wanted.extend([sol::encode(&p.vault_0), sol::encode(&p.vault_1)]);
    }
    let mut batch = Batch::new();
    let found = batch
        .call::<WithContext<Vec<Option<Account>>>>("getMultipleAccounts", json!([wanted, b64]));
    let time = slot.map(|slot| batch.call::<Option<i64>>("getBlockTime", json!([slot])));
    let mut answers = chain.rpc.send(batch).await?;
    let accounts = wanted
        .into_iter()
        .zip(answers.take(found)?.value)
        .filter_map(|(k, v)| Some((k, v?)))
        .collect();
    let chain_time = time.and_then(|slot| answers.take(slot).ok()).flatten();
    Ok(SolanaFacts {
        mint_address: mint,
        slot,
        mint: mint_info,
        metaplex,
        largest,
        signatures,
        complete_history,
        pools,
        pool_error,
        price_pool,
        accounts,
        chain_time,
    })
}

/// Page back from the first page of signatures to the oldest one (each
/// page one more round trip, at most [`SIGNATURE_PAGES`]); the list and
/// whether it reached the first signature.
async fn page_signatures(
    chain: &SolanaChain,
    mint: &str,
    first: Result<Vec<SignatureInfo>, RpcError>,
) -> (Result<Vec<SignatureInfo>, RpcError>, bool) {
    let mut list = match first {
        Ok(list) => list,
        Err(e) => return (Err(e), false),
    };
    let mut reached_end = (list.len() as u64) < SIGNATURE_PAGE;
    let mut pages = 1;
    while !reached_end && pages < SIGNATURE_PAGES {
        let Some(before) = list.last().map(|s| s.signature.clone()) else {
            break;
        };
        pages += 1;
        match chain
            .rpc
            .call::<Vec<SignatureInfo>>(
                "getSignaturesForAddress",
                json!([mint, {"limit": SIGNATURE_PAGE, "before": before}]),
            )
            .await
        {
            Ok(more) => {
                reached_end = (more.len() as u64) < SIGNATURE_PAGE;
                list.extend(more);
            }
            Err(e) => return (Err(e), false),
        }
    }
    (Ok(list), reached_end)
}
