//! Judging a mint's launch from its transactions: who bought at the
//! opening and for whom, who was handed tokens before it, whom the creator
//! funded with SOL in the launch window, and what the creator sold.

use std::collections::{HashMap, HashSet};

use super::{Member, Sales, SolLaunch, OPENING_SLOTS};
use riskintel_chains::solana::transaction::ParsedTransaction;

/// A buy at the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buy {
    /// The wallet that received the tokens.
    pub wallet: String,
    /// Its first buy's slot.
    pub slot: u64,
    /// What it bought at the opening.
    pub amount: u64,
    /// When the cluster made the buy: who, and how (`create_transaction`:
    /// in the transaction that created the mint; `bought_for`: the
    /// creator's side paid for the transaction).
    pub by_cluster: Option<(String, &'static str)>,
}

/// A wallet handed tokens before the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handed {
    /// The wallet.
    pub wallet: String,
    /// Its first tokens' slot.
    pub slot: u64,
    /// Who of the cluster handed them.
    pub via: String,
}

/// What the opening's transactions show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opened {
    /// What the creator bought at the opening.
    pub creator_bought: u64,
    /// Others' buys at the opening, one per wallet.
    pub buys: Vec<Buy>,
    /// Wallets handed tokens before the opening.
    pub handed: Vec<Handed>,
}

impl Opened {
    /// Every wallet the opening names, each once.
    pub fn wallets(&self) -> Vec<&str> {
        let mut wallets: Vec<&str> = self.handed.iter().map(|h| h.wallet.as_str()).collect();
        for b in &self.buys {
            if !wallets.contains(&b.wallet.as_str()) {
                wallets.push(&b.wallet);
            }
        }
        wallets
    }
}

/// Whether `tx` moved `mint` in or out of a pool (`pools`: pool
/// addresses, which own a curve's tokens, and pool vaults).
fn pool_balance(tx: &ParsedTransaction, mint: &str, pools: &HashSet<String>) -> (bool, bool) {
    let mut moved = (false, false);
    for a in tx.token_accounts(mint) {
        let pool =
            pools.contains(&a.account) || a.owner.as_ref().is_some_and(|o| pools.contains(o));
        if pool && a.after > a.before {
            moved.1 = true;
        }
        if pool && a.after != a.before {
            moved.0 = true;
        }
    }
    moved
}

/// The opening's transactions (`txs`, oldest first) of `mint`, which
/// opened in slot `opened` (`create`: the signature that created it, when
/// the opening is its creation).
pub fn opened(
    mint: &str,
    opened: u64,
    create: Option<&str>,
    creator: &str,
    txs: &[ParsedTransaction],
    pools: &HashSet<String>,
) -> Opened {
    let mut out = Opened::default();
    let mut cluster: HashSet<String> = HashSet::from([creator.to_string()]);
    for tx in txs.iter().filter(|t| t.succeeded()) {
        let changes = tx.token_changes(mint);
        let payer = tx.fee_payer().unwrap_or_default().to_string();
        let in_create =
            create.is_some() && tx.transaction.signatures.first().map(String::as_str) == create;
        let (pool_moved, _) = pool_balance(tx, mint, pools);
        let gainers = (changes.iter())
            .filter(|(owner, change)| *change > 0 && !pools.contains(owner))
            .map(|(owner, change)| (owner.clone(), *change as u64));
        if tx.slot < opened && !in_create {
            // Before trading opened, tokens move only from whoever has them:
            // the cluster's, when one of it sent them or paid for the move.
            let via = (changes.iter())
                .find(|(owner, change)| *change < 0 && cluster.contains(owner))
                .map(|(owner, _)| owner.clone())
                .or_else(|| cluster.contains(&payer).then(|| payer.clone()));
            let Some(via) = via.filter(|_| !pool_moved) else {
                continue;
            };
            for (wallet, _) in gainers {
                if cluster.insert(wallet.clone()) {
                    out.handed.push(Handed {
                        wallet,
                        slot: tx.slot,
                        via: via.clone(),
                    });
                }
            }
        } else if tx.slot < opened + OPENING_SLOTS && pool_moved {
            for (wallet, amount) in gainers {
                if wallet == creator {
                    out.creator_bought = out.creator_bought.saturating_add(amount);
                    continue;
                }
                let by_cluster = if in_create {
                    Some((payer.clone(), "create_transaction"))
                } else if cluster.contains(&payer) {
                    Some((payer.clone(), "bought_for"))
                } else {
                    None
                };
                match out.buys.iter_mut().find(|b| b.wallet == wallet) {
                    Some(b) => {
                        b.amount = b.amount.saturating_add(amount);
                        b.by_cluster = b.by_cluster.take().or(by_cluster);
                    }
                    None => out.buys.push(Buy {
                        wallet,
                        slot: tx.slot,
                        amount,
                        by_cluster,
                    }),
                }
            }
        }
    }
    out
}

/// What the creator's transactions around the opening show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Activity {
    /// Wallets it sent SOL in the launch window, with the slot.
    pub funded: HashMap<String, u64>,
    /// Its sells into a pool since the opening: (slot, time, amount).
    pub sells: Vec<(u64, Option<i64>, u64)>,
    /// The most it held in any of them.
    pub peak: u64,
}

/// The creator's transactions (`txs`) around an opening at slot `opened`,
/// funding counted from `window` slots before it.
pub fn activity(
    mint: &str,
    creator: &str,
    opened: u64,
    window: u64,
    txs: &[ParsedTransaction],
    pools: &HashSet<String>,
) -> Activity {
    let mut out = Activity::default();
    for tx in txs.iter().filter(|t| t.succeeded()) {
        for a in tx.token_accounts(mint) {
            if a.owner.as_deref() == Some(creator) {
                out.peak = out.peak.max(a.before).max(a.after);
            }
        }
        if tx.slot.saturating_add(window) >= opened && tx.slot < opened + OPENING_SLOTS {
            for (from, to, _) in tx.sol_transfers() {
                if from == creator && to != creator && !pools.contains(&to) {
                    out.funded.entry(to).or_insert(tx.slot);
                }
            }
        }
        if tx.slot >= opened {
            let change = (tx.token_changes(mint).into_iter())
                .find(|(owner, _)| owner == creator)
                .map_or(0, |(_, c)| c);
            let (_, into_pool) = pool_balance(tx, mint, pools);
            if change < 0 && into_pool {
                out.sells
                    .push((tx.slot, tx.block_time, change.unsigned_abs() as u64));
            }
        }
    }
    out
}

/// Everything read of a launch, judged.
pub struct Judged<'a> {
    /// The opening slot and its time.
    pub opened: (u64, Option<i64>),
    /// The creator.
    pub creator: String,
    /// What the opening showed.
    pub opening: Opened,
    /// What the creator's transactions showed, or why they could not be read.
    pub activity: Result<Activity, String>,
    /// What each wallet holds now (the creator's and the opening's wallets).
    pub holdings: &'a HashMap<String, u64>,
    /// The largest holders by owner, with what each holds.
    pub largest: &'a [(String, u64)],
    /// Why the cluster may be larger than seen.
    pub partial: Option<String>,
}

/// The launch from what was read.
pub fn classify(j: Judged) -> SolLaunch {
    let held = |w: &str| {
        let largest = j
            .largest
            .iter()
            .find(|(o, _)| o == w)
            .map_or(0, |(_, h)| *h);
        j.holdings.get(w).copied().unwrap_or(0).max(largest)
    };
    let funded = j
        .activity
        .as_ref()
        .map(|a| a.funded.clone())
        .unwrap_or_default();
    let mut insiders: Vec<Member> = (j.opening.handed.iter())
        .map(|h| Member {
            address: h.wallet.clone(),
            held: held(&h.wallet),
            slot: h.slot,
            bought: 0,
            via: Some(h.via.clone()),
            how: "handed",
        })
        .collect();
    let (mut bundlers, mut snipers) = (Vec::new(), Vec::new());
    for b in &j.opening.buys {
        let member = |via: Option<String>, how| Member {
            address: b.wallet.clone(),
            held: held(&b.wallet),
            slot: b.slot,
            bought: b.amount,
            via,
            how,
        };
        match (&b.by_cluster, funded.contains_key(&b.wallet)) {
            (Some((via, how)), _) => bundlers.push(member(Some(via.clone()), how)),
            (None, true) => bundlers.push(member(Some(j.creator.clone()), "funded")),
            (None, false) => snipers.push(member(None, "sniper")),
        }
    }
    // Large holders the creator funded in the window, though they did not buy at the opening.
    let named: HashSet<&str> = j.opening.wallets().into_iter().collect();
    for (owner, amount) in j.largest {
        if let Some(slot) = funded.get(owner) {
            if !named.contains(owner.as_str()) && *owner != j.creator {
                insiders.push(Member {
                    address: owner.clone(),
                    held: *amount,
                    slot: *slot,
                    bought: 0,
                    via: Some(j.creator.clone()),
                    how: "funded",
                });
            }
        }
    }
    let creator_held = held(&j.creator);
    SolLaunch {
        opened: j.opened.0,
        opened_time: j.opened.1,
        creator: j.creator.clone(),
        creator_held,
        insiders,
        bundlers,
        creator_bought: j.opening.creator_bought,
        snipers,
        sales: j.activity.map(|a| Sales {
            held: creator_held,
            peak: a.peak,
            sells: a.sells,
        }),
        partial: j.partial,
    }
}

#[cfg(test)]
mod tests;
