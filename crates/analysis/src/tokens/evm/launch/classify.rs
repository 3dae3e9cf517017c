//! Sorting the launch's wallets: insiders, bundled buyers, snipers, and the
//! creator's sells. Pure: from the index's early holders and the reads.

use std::collections::HashMap;

use alloy_primitives::{Address, B256, U256};

use super::{EarlyHolder, Launch, LaunchRows, Member, Reads, Sales};
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
    /// Never members: burn addresses, lockers.
    pub excluded: &'a [Address],
    /// The cap on early holders the index listed.
    pub cap: usize,
}

impl Parties<'_> {
    /// The creator's side: the creator and the owner.
    fn side(&self) -> Vec<Address> {
        let mut side = vec![self.creator];
        side.extend(self.owner.filter(|o| *o != self.creator));
        side
    }

    /// Never a member: pools, routers, burn addresses, lockers, the token.
    fn outside(&self, a: &Address) -> bool {
        *a == self.token || self.sources.contains(a) || self.excluded.contains(a)
    }
}

fn transfer(log: &Log) -> Option<(Address, Address, U256)> {
    let t = log.decode::<Transfer>().filter(|_| log.topics.len() == 3)?;
    Some((t.from, t.to, t.value))
}

/// The launch, from the index's early holders and the reads.
pub fn classify(parties: &Parties<'_>, rows: &LaunchRows, reads: &Reads) -> Launch {
    let opened = rows.opened;
    let side = parties.side();
    let held: HashMap<Address, &EarlyHolder> = rows.early.iter().map(|h| (h.address, h)).collect();
    let held_by = |a: &Address| held.get(a).map_or(U256::ZERO, |h| h.held);

    // Insiders: handed tokens before the opening by the creator's side, the
    // token itself, a mint, or an insider already found.
    let mut insiders: Vec<Member> = Vec::new();
    for h in rows.early.iter().filter(|h| h.first_block < opened) {
        if parties.outside(&h.address) || side.contains(&h.address) {
            continue;
        }
        let from = h.first_from;
        let handed = side.contains(&from)
            || from == parties.token
            || from.is_zero()
            || insiders.iter().any(|m| m.address == from);
        if handed {
            insiders.push(Member {
                address: h.address,
                held: h.held,
                block: h.first_block,
                bought: U256::ZERO,
                via: (!from.is_zero()).then_some(from),
                how: "handed",
            });
        }
    }

    // The opening blocks' buys, per buyer: amount, first block, first transaction.
    let mut creator_bought = U256::ZERO;
    let mut buys: Vec<(Address, U256, u64, Option<B256>)> = Vec::new();
    for log in reads.opening.iter().flatten() {
        let Some((from, to, value)) = transfer(log) else {
            continue;
        };
        if !parties.sources.contains(&from) || parties.outside(&to) {
            continue;
        }
        if side.contains(&to) {
            creator_bought += value;
        } else if let Some(buy) = buys.iter_mut().find(|b| b.0 == to) {
            buy.1 += value;
        } else {
            buys.push((to, value, log.block(), log.transaction_hash));
        }
    }

    // Who sent each transaction, and who the cluster funded, in the window.
    let cluster_sender = |a: &Address, insiders: &[Member]| {
        side.contains(a) || insiders.iter().any(|m| m.address == *a)
    };
    let mut sender: HashMap<B256, Address> = HashMap::new();
    let mut funded: HashMap<Address, Address> = HashMap::new();
    for tx in reads.blocks.iter().flatten().flat_map(|b| &b.transactions) {
        sender.insert(tx.hash, tx.from);
        if let Some(to) = tx.to {
            if !tx.value.is_zero() && cluster_sender(&tx.from, &insiders) {
                funded.entry(to).or_insert(tx.from);
            }
        }
    }
    let mut bundlers = Vec::new();
    let mut snipers = Vec::new();
    for (address, bought, block, hash) in buys {
        let sent_by = hash.and_then(|h| sender.get(&h)).copied();
        let insider = insiders.iter().find(|m| m.address == address);
        let (how, via) = if let Some(m) = insider {
            ("handed", m.via)
        } else if let Some(by) =
            sent_by.filter(|by| *by != address && cluster_sender(by, &insiders))
        {
            ("bought_for", Some(by))
        } else if let Some(by) = funded.get(&address) {
            ("funded", Some(*by))
        } else {
            ("sniper", None)
        };
        let member = Member {
            address,
            held: held_by(&address),
            block,
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
        // A token that minted to itself sells its own fees: no wallet's sells.
        held: if creator == parties.token {
            U256::ZERO
        } else {
            held_by(&creator)
        },
        sells: if creator == parties.token {
            Vec::new()
        } else {
            out.iter()
                .filter_map(|log| Some((log.block(), transfer(log)?)))
                .filter(|(_, (_, to, _))| parties.sources.contains(to))
                .map(|(block, (_, _, value))| (block, value))
                .collect()
        },
    });

    Launch {
        opened,
        opened_time: reads
            .blocks
            .iter()
            .flatten()
            .find(|b| b.number() == opened)
            .map(|b| b.time()),
        creator,
        creator_held: side.iter().map(held_by).fold(U256::ZERO, |a, b| a + b),
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
