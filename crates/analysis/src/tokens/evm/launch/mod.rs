//! Who really holds the supply since the launch: the creator's cluster
//! (wallets it handed tokens before the first pool opened, wallets it
//! funded that bought in the opening blocks, buys it sent for others),
//! the snipers beside it, and what the creator sold.
//!
//! The holder index gives the opening block (when a pool first received
//! the token) and the holders whose first tokens came by the end of the
//! opening blocks. The last round adds, in the same batch as the rest (no
//! extra round trip): the opening blocks' transfers, the launch window's
//! blocks with their transactions (bounded by `launch_window_blocks`, never
//! the whole chain), and the creator's transfers since the opening.

mod classify;
mod reads;
mod signals;

use alloy_primitives::{Address, U256};

pub use crate::tokens::launch::LaunchLimits;
pub use classify::{classify, Parties};
pub use reads::{read, Reads};
pub use signals::assess;

use crate::tokens::launch::each_once;
pub use crate::tokens::launch::total;

/// The blocks a launch opens with: the pool's first and the next two.
pub const OPENING_BLOCKS: u64 = 3;

/// A holder whose first tokens came by the end of the opening blocks (the index's row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EarlyHolder {
    /// The holder.
    pub address: Address,
    /// What it holds now, by the index (zero when it has sent more than it got).
    pub held: U256,
    /// Who sent its first tokens.
    pub first_from: Address,
    /// In which block.
    pub first_block: u64,
}

/// What the holder index knows of the launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchRows {
    /// The block a pool first received the token.
    pub opened: u64,
    /// The holders whose first tokens came by the end of the opening
    /// blocks, earliest first (at most [`LaunchLimits::holders`]).
    pub early: Vec<EarlyHolder>,
}

/// A wallet of the launch: an insider, a bundled buyer or a sniper (its
/// `at` is a block).
pub type Member = crate::tokens::launch::Member<Address, U256>;

/// The creator's sells since the opening, and what it still holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sales {
    /// What it holds now.
    pub held: U256,
    /// Each transfer it made to a pool or router since then, in block order.
    pub sells: Vec<Sell>,
}

/// One of the creator's transfers to a pool or router.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sell {
    /// Its block.
    pub block: u64,
    /// Its block's time (unix seconds): from the log where the node says
    /// it, else from the block's header; None when neither was read.
    pub time: Option<i64>,
    /// What it sent.
    pub amount: U256,
}

/// What is known of the launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The block a pool first received the token.
    pub opened: u64,
    /// That block's time, when it was read.
    pub opened_time: Option<i64>,
    /// The creator (the first mint's recipient).
    pub creator: Address,
    /// The creator's side (the creator and the owner; not a contract that
    /// sold the token before its pool, nor the token itself) and what each holds now.
    pub side: Vec<(Address, U256)>,
    /// Wallets handed tokens by the creator's side before the opening.
    pub insiders: Vec<Member>,
    /// Cluster wallets that bought in the opening blocks (funded by the
    /// cluster, or whose buy the cluster sent).
    pub bundlers: Vec<Member>,
    /// Whether the creator's side itself bought in the opening blocks.
    pub creator_bought: U256,
    /// Other buyers of the opening blocks.
    pub snipers: Vec<Member>,
    /// The creator's sells; None when they could not be read (a gap).
    pub sales: Option<Sales>,
    /// How many early holders the index listed, and whether that was its cap.
    pub early_listed: (usize, bool),
}

impl Launch {
    /// The cluster beyond the creator's side: insiders and bundled buyers, each once.
    pub fn members(&self) -> Vec<&Member> {
        each_once(&self.insiders, &self.bundlers)
    }

    /// What the creator's side holds now.
    pub fn creator_held(&self) -> U256 {
        total(&self.side, |(_, held)| *held)
    }

    /// What the cluster holds now, the creator's side included.
    pub fn cluster_held(&self) -> U256 {
        self.creator_held().saturating_add(self.members_held())
    }

    /// What the cluster holds beyond the creator's side.
    pub fn members_held(&self) -> U256 {
        total(self.members(), |m| m.held)
    }

    /// Every wallet of the cluster, the creator's side included, with what
    /// the index says it holds.
    pub fn wallets(&self) -> Vec<(Address, U256)> {
        let mut wallets = self.side.clone();
        wallets.extend(self.members().iter().map(|m| (m.address, m.held)));
        wallets
    }
}
