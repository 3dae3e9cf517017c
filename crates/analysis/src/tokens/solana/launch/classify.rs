//! Judging a mint's launch from its transactions: who bought at the
//! opening and for whom, who was handed tokens before it, whom the creator
//! funded with SOL in the launch window, and what the creator sold.

use std::collections::{HashMap, HashSet};

use super::{Member, Sales, SolLaunch, OPENING_SLOTS};
use riskintel_chains::solana::transaction::{ParsedTransaction, TokenAccountChange};

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
    /// Whether some token balance did not name its owner (older history):
    /// its buys are not seen.
    pub unnamed: bool,
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

/// Whether a token account (by its address or its owner) is a pool's
/// (`pools`: pool addresses, which own a curve's tokens, and pool vaults).
fn is_pool(a: &TokenAccountChange, pools: &HashSet<String>) -> bool {
    pools.contains(&a.account) || a.owner.as_ref().is_some_and(|o| pools.contains(o))
}

/// How `tx` moved `mint`: whether a pool's balance changed, whether one
/// grew, each owner's change outside the pools, and whether some account's
/// owner was not named (older history).
struct Moves {
    pool_changed: bool,
    pool_grew: bool,
    owners: Vec<(String, i128)>,
    unnamed: bool,
}

fn moves(tx: &ParsedTransaction, mint: &str, pools: &HashSet<String>) -> Moves {
    let mut m = Moves {
        pool_changed: false,
        pool_grew: false,
        owners: Vec::new(),
        unnamed: false,
    };
    for a in tx.token_accounts(mint) {
        let change = a.after as i128 - a.before as i128;
        if is_pool(&a, pools) {
            m.pool_changed |= change != 0;
            m.pool_grew |= change > 0;
            continue;
        }
        let Some(owner) = a.owner else {
            m.unnamed |= change != 0;
            continue;
        };
        match m.owners.iter_mut().find(|(o, _)| *o == owner) {
            Some((_, sum)) => *sum += change,
            None => m.owners.push((owner, change)),
        }
    }
    m.owners.retain(|(_, change)| *change != 0);
    m
}

/// Of the transactions of the opening slot, the one that created `mint`:
/// it initialised the mint, or (a curve's launch) minted the supply to a
/// pool's account that had none. A node lists one slot's signatures in no
/// particular order, so the oldest listed is not the create.
pub fn create_of<'a>(
    txs: &'a [ParsedTransaction],
    mint: &str,
    slot: u64,
    pools: &HashSet<String>,
) -> Option<&'a ParsedTransaction> {
    let first = txs.iter().filter(|t| t.slot == slot && t.succeeded());
    (first.clone())
        .find(|t| t.initializes_mint(mint))
        .or_else(|| {
            first.into_iter().find(|t| {
                (t.token_accounts(mint).iter())
                    .any(|a| is_pool(a, pools) && a.before == 0 && a.after > 0)
            })
        })
}

/// The opening's transactions (`txs`) of `mint`, which opened in slot
/// `opened` (`create`: the signature that created it, when the opening is
/// its creation).
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
    let mut ordered: Vec<&ParsedTransaction> = txs.iter().filter(|t| t.succeeded()).collect();
    ordered.sort_by_key(|t| t.slot);
    for tx in ordered {
        let m = moves(tx, mint, pools);
        out.unnamed |= m.unnamed;
        let payer = tx.fee_payer().unwrap_or_default().to_string();
        let signature = tx.transaction.signatures.first().map(String::as_str);
        let in_create = create.is_some() && signature == create;
        let gainers = (m.owners.iter())
            .filter(|(_, change)| *change > 0)
            .map(|(owner, change)| (owner.clone(), u64::try_from(*change).unwrap_or(u64::MAX)));
        if tx.slot < opened && !in_create {
            // Before trading opened, tokens move only from whoever has them:
            // the cluster's, when one of it sent them or paid for the move.
            let via = (m.owners.iter())
                .find(|(owner, change)| *change < 0 && cluster.contains(owner))
                .map(|(owner, _)| owner.clone())
                .or_else(|| cluster.contains(&payer).then(|| payer.clone()));
            let Some(via) = via.filter(|_| !m.pool_changed) else {
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
        } else if tx.slot < opened.saturating_add(OPENING_SLOTS) && m.pool_changed {
            for (wallet, amount) in gainers {
                if wallet == creator {
                    out.creator_bought = out.creator_bought.saturating_add(amount);
                    continue;
                }
                // An insider's own buy keeps it an insider.
                if cluster.contains(&wallet) {
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
        if tx.slot.saturating_add(window) >= opened
            && tx.slot < opened.saturating_add(OPENING_SLOTS)
        {
            for (from, to, _) in tx.sol_transfers() {
                if from == creator && to != creator && !pools.contains(&to) {
                    out.funded.entry(to).or_insert(tx.slot);
                }
            }
        }
        if tx.slot >= opened {
            let m = moves(tx, mint, pools);
            let change = (m.owners.iter())
                .find(|(owner, _)| owner == creator)
                .map_or(0, |(_, c)| *c);
            if change < 0 && m.pool_grew {
                let sold = u64::try_from(change.unsigned_abs()).unwrap_or(u64::MAX);
                out.sells.push((tx.slot, tx.block_time, sold));
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
    /// What the creator's transactions read showed.
    pub activity: Activity,
    /// Whether they hold all its sells since the opening, or why not.
    pub sales: Result<(), String>,
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
    let funded = j.activity.funded.clone();
    let mut insiders: Vec<Member> = (j.opening.handed.iter())
        .map(|h| Member {
            address: h.wallet.clone(),
            held: held(&h.wallet),
            at: h.slot,
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
            at: b.slot,
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
                    at: *slot,
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
        sales: j.sales.map(|()| Sales {
            held: creator_held,
            peak: j.activity.peak,
            sells: j.activity.sells,
        }),
        partial: j.partial,
    }
}

#[cfg(test)]
mod tests;
