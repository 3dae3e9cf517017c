//! Address screening: whether an address is on a sanctions list, what the
//! service's own record holds against it, and what kind of account it is.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::ErrorDetail;

/// The most addresses one batch screening may hold.
pub const SCREEN_BATCH_MAX: usize = 1_000;

/// An address to screen, on a chain.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct AddressPath {
    /// Chain id: `eth`, `bsc`, `sol`, `base`, `arb`, `poly`, `avax` or `ftm`.
    pub chain: String,
    /// The address: 0x-prefixed hex on EVM chains (EIP-55 checksum checked
    /// when mixed case), base58 on `sol`.
    pub address: String,
}

/// How serious what was found is, overall.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ScreenRisk {
    /// Nothing found.
    None,
    /// Worth a look (a brand-new address).
    Low,
    /// Close to something that went wrong (a launch cluster of a token
    /// whose liquidity was removed).
    Medium,
    /// The service's own record holds harm against it (tokens it deployed
    /// turned on their holders; a drainer's pattern; a power it holds was
    /// flagged).
    High,
    /// On a sanctions list for this chain: do not transact.
    Severe,
}

/// An entry of a sanctions list that names the address.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SanctionMatch {
    /// The list (`ofac_sdn`, or an operator's list name).
    pub list: String,
    /// The list's own id of the entry (the SDN's entry number).
    pub entry_id: String,
    /// Who is listed (the SDN's name), or the operator's reason.
    pub name: String,
    /// What the list names the address for: a currency code of the SDN
    /// (`ETH`, `USDT`, `XBT`, `TRX`, …), a chain id, or `any`.
    pub listed_for: String,
    /// Whether the entry applies to the asked chain. An EVM address listed
    /// for any EVM currency applies on every EVM chain (one key holds it
    /// on each); an entry for another chain is reported but does not make
    /// the address sanctioned here.
    pub applies: bool,
    /// When the service first loaded the entry.
    pub listed_at: DateTime<Utc>,
}

/// A sanctions list as loaded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ScreeningList {
    /// Its name.
    pub name: String,
    /// Its version: the publication date it gives and a digest of its entries.
    pub version: String,
    /// When this version was loaded.
    pub loaded_at: DateTime<Utc>,
    /// When its source was last read successfully (the same version or a new one).
    pub checked_at: DateTime<Utc>,
    /// Addresses it lists.
    pub entries: u64,
    /// True when it was last read successfully more than a day past its
    /// refresh interval: newer listings may be missing.
    pub stale: bool,
}

/// What the service's own record holds against an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AddressFlagKind {
    /// It deployed (was handed the first mint of) tokens the service labels
    /// `critical`.
    CriticalTokenDeployer,
    /// It is in the launch cluster (insiders or bundled buyers) of a token
    /// whose liquidity was removed.
    RuggedLaunchCluster,
    /// Tokens moved to it out of several unrelated wallets that had
    /// approved it to spend them: a drainer's pattern.
    Drainer,
    /// It holds a power over a token the service flagged: the upgrade
    /// admin of a proxy held by one key, or a Uniswap V4 hook that controls
    /// swaps.
    FlaggedPower,
    /// An EOA that has never sent a transaction.
    NewAddress,
}

/// One finding of the service's own record, with what it rests on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AddressFlag {
    /// What was found.
    pub kind: AddressFlagKind,
    /// How serious it is on its own.
    pub risk: ScreenRisk,
    /// One plain sentence with the numbers.
    pub detail: String,
    /// The tokens (or wallets, for a drainer) it rests on, at most 20.
    pub evidence: Vec<String>,
    /// When the latest of it was seen (an analysis, an alert, an index
    /// read); absent for facts read now.
    pub seen_at: Option<DateTime<Utc>>,
}

/// What kind of account an address is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AddressKind {
    /// One private key (EVM without code; Solana system-owned or unused).
    Eoa,
    /// An EVM contract.
    Contract,
    /// A Solana program.
    Program,
    /// A Solana account holding a program's data (a token account, a PDA).
    Account,
    /// The chain could not be read in time.
    Unknown,
}

/// Facts of the address read from the chain and the service's indexes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AddressFacts {
    /// What kind of account it is.
    pub kind: AddressKind,
    /// Transactions it has sent (the EVM nonce); absent on Solana or when unread.
    pub tx_count: Option<u64>,
    /// The earliest block at which the service's holder index saw it receive
    /// tokens, where it did.
    pub first_seen_block: Option<u64>,
}

/// The screening of one address.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AddressScreen {
    /// Chain id.
    pub chain: String,
    /// The address as the API writes it (EIP-55 checksummed, or base58).
    pub address: String,
    /// Whether a list entry that applies to this chain names it.
    pub sanctioned: bool,
    /// Every list entry that names it, for this chain or another.
    pub matches: Vec<SanctionMatch>,
    /// The lists it was screened against.
    pub lists: Vec<ScreeningList>,
    /// True when a list is stale (see `lists`).
    pub stale: bool,
    /// What the service's own record holds against it, most serious first.
    pub flags: Vec<AddressFlag>,
    /// What kind of account it is; absent in batch answers (they are served
    /// from memory, without reading the chain).
    pub facts: Option<AddressFacts>,
    /// The most serious of the matches and the flags.
    pub risk: ScreenRisk,
}

/// Addresses to screen in one request.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct AddressScreenBatchRequest {
    /// The addresses, 1 to 1,000, on any chains; answered in this order.
    #[schemars(length(min = 1, max = 1000))]
    pub items: Vec<AddressPath>,
}

/// The answer for one address of a batch: its screening, or its own error.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct AddressScreenEntry {
    /// The item's chain, as asked.
    pub chain: String,
    /// The item's address, as asked.
    pub address: String,
    /// The HTTP status the item would have had alone: 200, or its error's
    /// (422 a bad chain or address).
    pub status: u16,
    /// The screening, when `status` is 200 (without `facts`).
    pub screen: Option<AddressScreen>,
    /// What went wrong, otherwise.
    pub error: Option<ErrorDetail>,
}

/// The answer to a batch screening: one entry per item, in the order asked.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct AddressScreenBatch {
    /// One entry per item, in the request's order.
    pub results: Vec<AddressScreenEntry>,
    /// Entries answered with a screening (each counts as one request).
    pub screened: u32,
    /// Entries answered with an error.
    pub failed: u32,
    /// How many screenings found a sanctioned address.
    pub sanctioned: u32,
}
