//! Sorting the launch's wallets: insiders, bundled buyers, snipers, and the
//! creator's sells. Pure: from the index's early holders and the reads.

use std::collections::HashMap;

use alloy_primitives::{Address, B256, U256};

use super::{EarlyHolder, Launch, LaunchRows, Member, Reads, Sales, Sell};
use riskintel_chains::evm::abi::IERC20::Transfer;
use riskintel_chains::evm::types::Log;

/// Who is who at the launch.
#[derive(Clone, Debug)]
pub struct Parties<'a> {
    /// The token.
    pub token: Address,
    /// The creator (the first mint's recipient).
    pub creator: Address,
    /// The token's owner, when it has one.
    pub owner: Option<Address>,
    /// The token's pools and their routers (a transfer from one is a buy, to one a sell).
    pub sources: &'a [Address],
    /// Never members: burn addresses, lockers, the DEXes' own contracts.
    pub excluded: &'a [Address],
    /// The cap on early holders the index listed.
    pub cap: usize,
}

impl Parties<'_> {
    /// Never a member: pools, routers, burn addresses, lockers, the token.
    fn outside(&self, a: &Address) -> bool {
        *a == self.token || self.sources.contains(a) || self.excluded.contains(a)
    }
}

fn transfer(log: &Log) -> Option<(Address, Address, U256)> {
    let t = log.decode::<Transfer>().filter(|_| log.topics.len() == 3)?;
    // A transfer of nothing (anyone may make one to anyone) moves no supply.
    (!t.value.is_zero()).then_some((t.from, t.to, t.value))
}

/// The launch, from the index's early holders and the reads.
pub fn classify(parties: &Parties<'_>, rows: &LaunchRows, reads: &Reads) -> Launch {
    let opened = rows.opened;
    // A creator that is a contract (a launchpad's curve, a presale) sold
    // its tokens before the pool: who got them from it bought them. Nor is
    // the token itself anyone's wallet.
    let seller = reads.creator_is_contract == Some(true);
    let creator_is_wallet = !seller && parties.creator != parties.token;
    let mut side: Vec<Address> = Vec::new();
    side.extend(Some(parties.creator).filter(|_| creator_is_wallet));
    side.extend(
        parties
            .owner
            .filter(|o| *o != parties.creator && *o != parties.token),
    );
    let held: HashMap<Address, &EarlyHolder> = rows.early.iter().map(|h| (h.address, h)).collect();
    let held_by = |a: &Address| held.get(a).map_or(U256::ZERO, |h| h.held);

    // Insiders: handed tokens by the opening (not by a pool) by the
    // creator's side, the token itself, a mint, or an insider already
    // found; repeated until nobody new is found (one may hand tokens on in
    // the same block).
    let mut insiders: Vec<Member> = Vec::new();
    loop {
        let before = insiders.len();
        for h in rows.early.iter().filter(|h| h.first_block <= opened) {
            let from = h.first_from;
            if parties.outside(&h.address)
                || parties.sources.contains(&from)
                || h.address == parties.creator
                || side.contains(&h.address)
                || insiders.iter().any(|m| m.address == h.address)
            {
                continue;
            }
            let handed = side.contains(&from)
                || (from == parties.creator && !seller)
                || from == parties.token
                || from.is_zero()
                || insiders.iter().any(|m| m.address == from);
            if handed {
                insiders.push(Member {
                    address: h.address,
                    held: h.held,
                    at: h.first_block,
                    bought: U256::ZERO,
                    via: (!from.is_zero()).then_some(from),
                    how: "handed",
                });
            }
        }
        if insiders.len() == before {
            break;
        }
    }

    // Who sent each transaction, and whom the cluster funded, in the window.
    let in_cluster = |a: &Address, insiders: &[Member]| {
        side.contains(a) || insiders.iter().any(|m| m.address == *a)
    };
    let mut sender: HashMap<B256, Address> = HashMap::new();
    let mut funded: HashMap<Address, Address> = HashMap::new();
    for tx in reads.blocks.iter().flatten().flat_map(|b| &b.transactions) {
        sender.insert(tx.hash, tx.from);
        if let Some(to) = tx.to {
            if !tx.value.is_zero() && in_cluster(&tx.from, &insiders) {
                funded.entry(to).or_insert(tx.from);
            }
        }
    }

    // The opening blocks' buys: in each transaction, the largest transfer
    // out of a pool or router (a fee the token takes on the way is not a buy).
    let mut largest: Vec<(B256, Address, U256, u64)> = Vec::new();
    for log in reads.opening.iter().flatten() {
        let (Some((from, to, value)), Some(hash)) = (transfer(log), log.transaction_hash) else {
            continue;
        };
        if !parties.sources.contains(&from) || parties.outside(&to) {
            continue;
        }
        match largest.iter_mut().find(|(h, ..)| *h == hash) {
            Some(entry) if entry.2 >= value => {}
            Some(entry) => *entry = (hash, to, value, log.block()),
            None => largest.push((hash, to, value, log.block())),
        }
    }
    let mut creator_bought = U256::ZERO;
    let mut buys: Vec<(Address, U256, u64, Option<Address>)> = Vec::new();
    for (hash, to, value, block) in largest {
        let sent_by = sender.get(&hash).copied();
        if side.contains(&to) || to == parties.creator {
            // The creator's own buy, when it sent it.
            if sent_by.is_some_and(|s| side.contains(&s)) {
                creator_bought = creator_bought.saturating_add(value);
            }
        } else if let Some(buy) = buys.iter_mut().find(|b| b.0 == to) {
            buy.1 = buy.1.saturating_add(value);
        } else {
            buys.push((to, value, block, sent_by));
        }
    }
    let mut bundlers = Vec::new();
    let mut snipers = Vec::new();
    for (address, bought, block, sent_by) in buys {
        let insider = insiders.iter().find(|m| m.address == address);
        let (how, via) = if let Some(m) = insider {
            ("handed", m.via)
        } else if let Some(by) = sent_by.filter(|by| *by != address && in_cluster(by, &insiders)) {
            ("bought_for", Some(by))
        } else if let Some(by) = funded.get(&address) {
            ("funded", Some(*by))
        } else {
            ("sniper", None)
        };
        let member = Member {
            address,
            held: held_by(&address),
            at: block,
            bought,
            via,
            how,
        };
        if how == "sniper" {
            snipers.push(member);
        } else {
            bundlers.push(member);
        }
    }

    let creator = parties.creator;
    let sales = reads.creator.as_ref().map(|out| Sales {
        held: if creator_is_wallet {
            held_by(&creator)
        } else {
            U256::ZERO
        },
        // A launchpad's or the token's own transfers are its sales and fees.
        sells: if creator_is_wallet {
            out.iter()
                .filter_map(|log| Some((log, transfer(log)?)))
                .filter(|(_, (_, to, _))| parties.sources.contains(to))
                .map(|(log, (_, _, amount))| Sell {
                    block: log.block(),
                    time: log.time(),
                    amount,
                })
                .collect()
        } else {
            Vec::new()
        },
    });
    let side: Vec<(Address, U256)> = side.iter().map(|a| (*a, held_by(a))).collect();

    Launch {
        opened,
        opened_time: reads
            .blocks
            .iter()
            .flatten()
            .find(|b| b.header.number() == opened)
            .map(|b| b.header.time()),
        creator,
        side,
        insiders,
        bundlers,
        creator_bought,
        snipers,
        sales,
        early_listed: (rows.early.len(), rows.early.len() >= parties.cap),
    }
}

#[cfg(test)]
mod tests;
