//! The launch's reads. [`open`] runs beside round 2 (its own request, so a
//! refused launch read costs only the launch checks): the opening's
//! transactions and the creator's signatures. [`finish`] is the one extra
//! round trip: the creator's transactions around the opening and what each
//! wallet of the launch holds now.

use std::collections::{HashMap, HashSet};

use serde_json::json;

use super::classify::{self, Judged};
use super::{SolLaunch, OPENING_SLOTS};
use crate::tokens::launch::LaunchLimits;
use riskintel_chains::rpc::{Batch, Slot};
use riskintel_chains::solana::pools::{self, Family, PoolState};
use riskintel_chains::solana::transaction::ParsedTransaction;
use riskintel_chains::solana::types::{Account, SignatureInfo, WithContext};
use riskintel_chains::solana::{self as sol, layouts, Pubkey, SolanaChain};

/// Signatures of the creator read: one page.
const CREATOR_SIGNATURES: u64 = 1000;
/// Keys a node answers in one `getMultipleAccounts`.
const KEYS_PER_CALL: usize = 100;

/// When the mint opened for trading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The slot.
    pub slot: u64,
    /// Its time.
    pub time: Option<i64>,
    /// Whether a bonding curve launched it: the opening is its creation.
    pub at_creation: bool,
    /// The pool whose recorded opening time set it (not a curve's launch).
    pub pool: Option<Pubkey>,
}

/// The pool whose recorded opening time is the earliest.
fn first_opened(pools: &[PoolState]) -> Option<&PoolState> {
    (pools.iter().filter(|p| p.opened_at.is_some())).min_by_key(|p| p.opened_at)
}

/// The creator the launch's own pool records: a bonding curve's, else
/// PumpSwap's coin creator (a graduated curve's), else the creator of the
/// pool that opened first. Never another pool's: anyone can open a pool.
pub fn creator_of(pools: &[PoolState]) -> Option<Pubkey> {
    let of = |family: Family| {
        pools
            .iter()
            .find(|p| p.family == family)
            .and_then(|p| p.creator)
    };
    of(Family::PumpFun)
        .or_else(|| of(Family::PumpSwap))
        .or_else(|| first_opened(pools).and_then(|p| p.creator))
}

/// Where the launch opened: a bonding curve's mint at its first successful
/// transaction's slot; otherwise at the first transaction at or after its
/// earliest pool's recorded opening time. `signatures` are newest first.
pub fn opening(
    pools: &[PoolState],
    signatures: &[SignatureInfo],
    complete: bool,
) -> Result<Opening, String> {
    let succeeded = || signatures.iter().filter(|s| s.succeeded());
    if pools.iter().any(|p| p.family == Family::PumpFun) {
        if !complete {
            return Err(format!("the mint has more than {} transactions, so its first one (its launch) is further back than the launch reads go", signatures.len()));
        }
        let first = (signatures.iter().rev())
            .find(|s| s.succeeded())
            .ok_or("the mint has no successful transaction")?;
        return Ok(Opening {
            slot: first.slot,
            time: first.block_time,
            at_creation: true,
            pool: None,
        });
    }
    let pool = first_opened(pools).ok_or("the mint's pools do not record when they opened")?;
    let opened_at = pool.opened_at.unwrap_or_default();
    let reached = complete
        || signatures
            .last()
            .and_then(|s| s.block_time)
            .is_some_and(|t| t < opened_at);
    if !reached {
        return Err(format!("the mint has more than {} transactions since its pool opened, so its opening is further back than the launch reads go", signatures.len()));
    }
    let first = (succeeded().collect::<Vec<_>>().into_iter().rev())
        .find(|s| s.block_time.is_some_and(|t| t >= opened_at))
        .ok_or("no transaction of the mint since its pool opened is read")?;
    Ok(Opening {
        slot: first.slot,
        time: first.block_time,
        at_creation: false,
        pool: Some(pool.address),
    })
}

/// Keep at most `cap` of `list`, noting in `partial` what was kept when
/// some were left out (`what(kept, of)`).
fn capped<T>(
    list: &mut Vec<T>,
    cap: usize,
    partial: &mut Vec<String>,
    what: impl Fn(usize, usize) -> String,
) {
    if list.len() > cap {
        partial.push(what(cap, list.len()));
        list.truncate(cap);
    }
}

fn get_transaction(batch: &mut Batch, signature: &str) -> Slot<Option<ParsedTransaction>> {
    batch.call(
        "getTransaction",
        json!([signature, {"encoding": "jsonParsed", "maxSupportedTransactionVersion": 0, "commitment": "confirmed"}]),
    )
}

/// What the first launch reads found.
pub struct Started {
    opening: Opening,
    creator: String,
    /// The signature of the transaction that created the mint, when that opened it.
    create: Option<String>,
    /// The opening's transactions and those before it.
    transactions: Vec<ParsedTransaction>,
    /// The creator's signatures, newest first, or why not read.
    creator_signatures: Result<Vec<SignatureInfo>, String>,
    partial: Vec<String>,
}

/// The first launch reads, beside round 2: the transactions of `signatures`
/// (the mint's first page, newest first; `complete` when it holds them all)
/// up to the opening's last slot, and the signatures of the creator `pools` record.
pub async fn open(
    chain: &SolanaChain,
    mint: &Pubkey,
    pools: &[PoolState],
    signatures: Result<&[SignatureInfo], String>,
    complete: bool,
    limits: LaunchLimits,
) -> Result<Started, String> {
    let signatures = signatures?;
    let opening = opening(pools, signatures, complete)?;
    let mut partial = Vec::new();
    if !complete {
        partial.push("the mint's transactions before its newest 1,000 were not read".to_string());
    }
    // The opening slots' transactions first (oldest first), then the newest
    // before them; failed ones are no buy.
    let end = opening.slot.saturating_add(OPENING_SLOTS);
    let ok = signatures.iter().filter(|s| s.succeeded() && s.slot < end);
    let mut at_opening: Vec<&SignatureInfo> =
        ok.clone().filter(|s| s.slot >= opening.slot).collect();
    at_opening.reverse();
    let mut before: Vec<&SignatureInfo> = ok.filter(|s| s.slot < opening.slot).collect();
    capped(
        &mut at_opening,
        limits.transactions,
        &mut partial,
        |kept, of| format!("the first {kept} of the mint's {of} transactions in its opening slots"),
    );
    let room = limits.transactions - at_opening.len();
    capped(&mut before, room, &mut partial, |kept, of| {
        format!("the newest {kept} of the mint's {of} transactions before its opening")
    });
    let wanted: Vec<&SignatureInfo> = at_opening.into_iter().chain(before).collect();
    let mut batch = Batch::new();
    let slots: Vec<_> = (wanted.iter())
        .map(|s| get_transaction(&mut batch, &s.signature))
        .collect();
    let layout_creator = creator_of(pools).map(|c| sol::encode(&c));
    let creator_slot = layout_creator.as_ref().map(|c| {
        batch.call::<Vec<SignatureInfo>>(
            "getSignaturesForAddress",
            json!([c, {"limit": CREATOR_SIGNATURES}]),
        )
    });
    let mut answers = (chain.rpc.send(batch).await)
        .map_err(|e| format!("the launch's transactions could not be read: {e}"))?;
    let mut transactions = Vec::new();
    let mut pruned = 0;
    for slot in slots {
        match answers.take(slot) {
            Ok(Some(tx)) => transactions.push(tx),
            Ok(None) => pruned += 1,
            Err(e) => return Err(format!("the launch's transactions could not be read: {e}")),
        }
    }
    if pruned > 0 {
        partial.push(format!(
            "{pruned} of the opening's transactions are no longer kept by the node"
        ));
    }
    let m = sol::encode(mint);
    let create = (opening.at_creation)
        .then(|| classify::create_of(&transactions, &m, opening.slot, &pool_accounts(pools)))
        .flatten();
    let create_payer = create.and_then(|t| t.fee_payer().map(str::to_string));
    let create = create.and_then(|t| t.transaction.signatures.first().cloned());
    let creator_signatures = match creator_slot {
        Some(slot) => answers
            .take(slot)
            .map_err(|e| format!("the creator's transactions could not be read: {e}")),
        None => Err("the mint's pools do not record its creator, so its creator's transactions were not read".into()),
    };
    let creator = (layout_creator.or(create_payer))
        .ok_or("the mint's creator is not recorded by its pools or its creation")?;
    Ok(Started {
        opening,
        creator,
        create,
        transactions,
        creator_signatures,
        partial,
    })
}

/// The creator's signatures to read from slot `from` on (at most `cap`,
/// oldest first), and why its sells cannot be judged when its history
/// since the opening is not all there.
fn creator_reads<'a>(
    list: &'a [SignatureInfo],
    from: u64,
    opened: u64,
    cap: usize,
    partial: &mut Vec<String>,
) -> (Vec<&'a SignatureInfo>, Result<(), String>) {
    let mut reads = Ok(());
    let oldest = list.last().map_or(0, |s| s.slot);
    if list.len() as u64 >= CREATOR_SIGNATURES && oldest > from {
        partial.push(format!(
            "the creator's transactions before slot {oldest} were not read"
        ));
        if oldest > opened {
            reads = Err(
                "the creator has made more transactions since the launch than are read".to_string(),
            );
        }
    }
    let mut wanted: Vec<&SignatureInfo> = (list.iter().rev())
        .filter(|s| s.succeeded() && s.slot >= from)
        .collect();
    if wanted.len() > cap {
        partial.push(format!(
            "the creator's first {cap} transactions since slot {from}"
        ));
        if wanted[cap..].iter().any(|s| s.slot >= opened) {
            reads = Err(format!("the creator made more than {cap} transactions since the launch; its sells are not all read"));
        }
        wanted.truncate(cap);
    }
    (wanted, reads)
}

/// The launch's last reads (one round trip): the creator's transactions
/// from `limits.window_slots` before the opening, and what the creator and
/// each wallet of the opening hold now; then the launch judged. `pools`:
/// the pools' addresses and vaults; `largest`: the largest holders by owner.
pub async fn finish(
    chain: &SolanaChain,
    started: Started,
    mint: &Pubkey,
    token_program: &str,
    pools: &HashSet<String>,
    largest: &[(String, u64)],
    limits: LaunchLimits,
) -> Result<SolLaunch, String> {
    let m = sol::encode(mint);
    let Started {
        opening,
        creator,
        create,
        transactions,
        creator_signatures,
        mut partial,
    } = started;
    let opened = classify::opened(
        &m,
        opening.slot,
        create.as_deref(),
        &creator,
        &transactions,
        pools,
    );
    if opened.unnamed {
        partial.push("some of the opening's token balances do not name their owner".into());
    }
    let from = opening.slot.saturating_sub(limits.window_slots);
    let mut batch = Batch::new();
    let (creator_slots, mut creator_reads) = match &creator_signatures {
        Ok(list) => {
            let (wanted, reads) =
                creator_reads(list, from, opening.slot, limits.transactions, &mut partial);
            let slots: Vec<_> = (wanted.iter())
                .map(|s| (s.slot, get_transaction(&mut batch, &s.signature)))
                .collect();
            (slots, reads)
        }
        Err(e) => (Vec::new(), Err(e.clone())),
    };
    let mut wallets: Vec<String> = std::iter::once(creator.as_str())
        .chain(opened.wallets())
        .map(str::to_string)
        .collect();
    capped(&mut wallets, limits.holders, &mut partial, |kept, of| {
        format!("what the first {kept} of the opening's {of} wallets hold")
    });
    let atas: Vec<(String, Pubkey)> = (wallets.iter())
        .filter_map(|w| {
            let owner = sol::parse_pubkey(w).ok()?;
            Some((
                w.clone(),
                sol::associated_token_address(&owner, mint, token_program)?,
            ))
        })
        .collect();
    let keys: Vec<Pubkey> = atas.iter().map(|(_, a)| *a).collect();
    let lists: Vec<(Vec<String>, Slot<WithContext<Vec<Option<Account>>>>)> =
        pools::chunks(&keys, KEYS_PER_CALL)
            .into_iter()
            .map(|keys| {
                let slot = batch.call(
                    "getMultipleAccounts",
                    json!([keys, {"encoding": "base64", "commitment": "confirmed"}]),
                );
                (keys, slot)
            })
            .collect();
    let mut answers = (chain.rpc.send(batch).await)
        .map_err(|e| format!("the launch's holders could not be read: {e}"))?;
    let mut holdings: HashMap<String, u64> = HashMap::new();
    let by_ata: HashMap<String, &String> = atas.iter().map(|(w, a)| (sol::encode(a), w)).collect();
    for (keys, slot) in lists {
        let list = (answers.take(slot))
            .map_err(|e| format!("the launch's holders could not be read: {e}"))?;
        for (key, account) in keys.iter().zip(list.value) {
            let amount = (account.as_ref())
                .and_then(|a| layouts::decode_token_account(&a.data))
                .map_or(0, |t| t.amount);
            if let Some(wallet) = by_ata.get(key) {
                holdings.insert((*wallet).clone(), amount);
            }
        }
    }
    let mut txs = Vec::new();
    for (slot, read) in creator_slots {
        match answers.take(read) {
            Ok(Some(tx)) => txs.push(tx),
            // A sell the node no longer keeps would go unseen.
            Ok(None) if slot >= opening.slot && creator_reads.is_ok() => {
                creator_reads = Err("some of the creator's transactions since the launch are no longer kept by the node".into());
            }
            Ok(None) => {}
            Err(e) => {
                creator_reads = Err(format!("the creator's transactions could not be read: {e}"))
            }
        }
    }
    let activity = classify::activity(&m, &creator, opening.slot, limits.window_slots, &txs, pools);
    if creator_signatures.is_err() {
        partial.push("the creator's funding was not read".into());
    }
    Ok(classify::classify(Judged {
        opened: (opening.slot, opening.time),
        creator,
        opening: opened,
        activity,
        sales: creator_reads,
        holdings: &holdings,
        largest,
        partial: (!partial.is_empty()).then(|| partial.join("; ")),
    }))
}

/// Keys as strings, for matching a transaction's accounts.
pub fn pool_accounts(pools: &[PoolState]) -> HashSet<String> {
    (pools.iter())
        .flat_map(|p| std::iter::once(p.address).chain(p.vaults.iter().flatten().copied()))
        .map(|k| sol::encode(&k))
        .collect()
}
