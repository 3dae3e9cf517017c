//! The supported chains: the one list the document's enum, the error text
//! and the server's routing all read.

use std::fmt;

/// A supported chain, written in paths and bodies by its id (`eth`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChainId {
    /// Ethereum mainnet.
    Eth,
    /// BNB Smart Chain.
    Bsc,
    /// Solana.
    Sol,
    /// Base.
    Base,
    /// Arbitrum One.
    Arb,
    /// Polygon PoS.
    Poly,
    /// Avalanche C-Chain.
    Avax,
    /// Fantom Opera.
    Ftm,
}

impl ChainId {
    /// Every chain, in the order the service lists them.
    pub const ALL: [ChainId; 8] = [
        ChainId::Eth,
        ChainId::Bsc,
        ChainId::Sol,
        ChainId::Base,
        ChainId::Arb,
        ChainId::Poly,
        ChainId::Avax,
        ChainId::Ftm,
    ];

    /// The chain id as written in paths and bodies.
    pub const fn id(self) -> &'static str {
        match self {
            ChainId::Eth => "eth",
            ChainId::Bsc => "bsc",
            ChainId::Sol => "sol",
            ChainId::Base => "base",
            ChainId::Arb => "arb",
            ChainId::Poly => "poly",
            ChainId::Avax => "avax",
            ChainId::Ftm => "ftm",
        }
    }

    /// Parse a chain id.
    pub fn parse(text: &str) -> Option<ChainId> {
        ChainId::ALL.into_iter().find(|c| c.id() == text)
    }

    /// Whether the chain is EVM.
    pub fn is_evm(self) -> bool {
        self != ChainId::Sol
    }

    /// Every id, as a refusal lists them: `eth, bsc, … or ftm`.
    pub fn listed() -> String {
        let ids: Vec<&str> = ChainId::ALL.iter().map(|c| c.id()).collect();
        let (last, rest) = ids.split_last().expect("there are chains");
        format!("{} or {last}", rest.join(", "))
    }
}

impl fmt::Display for ChainId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
