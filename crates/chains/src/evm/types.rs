//! Typed answers of EVM nodes: blocks, logs, quantities. Decoded with
//! serde at the edge, so nothing above reads raw JSON.

use alloy_primitives::{Address, Bytes, B256, U256, U64};
use serde::{Deserialize, Serialize};

/// A block as `eth_getBlockByNumber(…, false)` answers it (the fields we use).
#[derive(Clone, Debug, Deserialize)]
pub struct Block {
    /// Its number.
    pub number: U64,
    /// Its hash.
    pub hash: B256,
    /// Its time, unix seconds.
    pub timestamp: U64,
}

impl Block {
    /// Its number as a `u64`.
    pub fn number(&self) -> u64 {
        self.number.to()
    }

    /// Its time as unix seconds.
    pub fn time(&self) -> i64 {
        self.timestamp.to::<u64>() as i64
    }
}

/// A block with its transactions, as `eth_getBlockByNumber(…, true)`
/// answers it (the fields we use).
#[derive(Clone, Debug, Deserialize)]
pub struct FullBlock {
    /// Its header's fields.
    #[serde(flatten)]
    pub header: Block,
    /// Its transactions, in order.
    pub transactions: Vec<Transaction>,
}

/// A transaction of a [`FullBlock`] (the fields we use).
#[derive(Clone, Debug, Deserialize)]
pub struct Transaction {
    /// Its hash.
    pub hash: B256,
    /// Its sender.
    pub from: Address,
    /// Its recipient (none for a contract creation).
    pub to: Option<Address>,
    /// The native currency it sends.
    pub value: U256,
}

/// A block number or tag, as a request parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockTag {
    /// The node's latest block.
    Latest,
    /// A fixed block.
    Number(u64),
}

impl Serialize for BlockTag {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            BlockTag::Latest => serializer.serialize_str("latest"),
            BlockTag::Number(n) => serializer.serialize_str(&format!("{n:#x}")),
        }
    }
}

/// A log as `eth_getLogs` answers it.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Log {
    /// The contract that emitted it.
    pub address: Address,
    /// Its topics (the event signature first).
    pub topics: Vec<B256>,
    /// Its data.
    pub data: Bytes,
    /// Its block.
    pub block_number: Option<U64>,
    /// Its position in the block.
    pub log_index: Option<U64>,
    /// The transaction that emitted it.
    #[serde(default)]
    pub transaction_hash: Option<B256>,
    /// Its block's time, where the node says it (geth 1.16 on, anvil, reth, erigon).
    #[serde(default)]
    pub block_timestamp: Option<U64>,
}

impl Log {
    /// The event signature.
    pub fn topic0(&self) -> Option<B256> {
        self.topics.first().copied()
    }

    /// Its block's time, unix seconds, where the node says it.
    pub fn time(&self) -> Option<i64> {
        self.block_timestamp.map(|t| t.to::<u64>() as i64)
    }

    /// Its block number (0 when the node left it out, as for pending logs).
    pub fn block(&self) -> u64 {
        self.block_number.map_or(0, |b| b.to())
    }

    /// Its index in the block.
    pub fn index(&self) -> u64 {
        self.log_index.map_or(0, |i| i.to())
    }

    /// Decode it as event `E`; None when it is not one.
    pub fn decode<E: alloy_sol_types::SolEvent>(&self) -> Option<E> {
        E::decode_raw_log(self.topics.iter().copied(), &self.data).ok()
    }
}

/// An address as a log topic (left-padded to 32 bytes).
pub fn address_topic(address: Address) -> B256 {
    address.into_word()
}

/// EIP-1967's implementation slot.
pub const IMPLEMENTATION_SLOT: &str =
    "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";

/// A storage slot's value read as an address; None when it is zero.
pub fn slot_address(word: B256) -> Option<Address> {
    let address = Address::from_word(word);
    (!address.is_zero()).then_some(address)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_and_logs_decode_from_node_answers() {
        let block: Block = serde_json::from_value(json!({"number": "0x10", "hash": format!("0x{}", "ab".repeat(32)), "timestamp": "0x5", "extra": 1})).unwrap();
        assert_eq!((block.number(), block.time()), (16, 5));
        let log: Log = serde_json::from_value(json!({
            "address": "0x0000000000000000000000000000000000000001",
            "topics": [format!("0x{}", "00".repeat(32))],
            "data": "0x",
            "blockNumber": "0x2a",
            "logIndex": "0x1",
        }))
        .unwrap();
        assert_eq!((log.block(), log.index()), (42, 1));
        assert_eq!(
            serde_json::to_value(BlockTag::Number(255)).unwrap(),
            json!("0xff")
        );
    }
}
