//! Wallet analysis: holdings, risk exposure and dangerous approvals.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::token::{Coverage, RiskLabel, Signal};

/// Path of one wallet: `/v1/wallet/{chain}/{address}/…`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct WalletPath {
    /// Chain id: `eth`, `bsc`, `sol`, `base`, `arb`, `poly`, `avax` or `ftm`.
    pub chain: String,
    /// Wallet address: 0x-prefixed hex on EVM chains (EIP-55 checksum checked when mixed case), base58 on `sol`.
    pub address: String,
}

/// What kind of account an address is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccountKind {
    /// An externally owned account: one private key.
    Eoa,
    /// A contract (a smart wallet, multisig, or any other contract).
    Contract,
    /// A DEX router named in the server's configuration.
    KnownRouter,
}

/// Basic facts of a wallet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WalletFacts {
    /// EOA or contract.
    pub kind: AccountKind,
    /// Native balance in whole units (ETH, BNB, …).
    pub native_balance: f64,
    /// Transactions sent (the account nonce); on `sol`, signatures of the wallet's latest 1,000 transactions.
    pub transaction_count: u64,
    /// First block with a token transfer or approval by or to the wallet, where the index reaches back far enough.
    pub first_activity_block: Option<u64>,
}

/// Risk of one holding's token.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HoldingRisk {
    /// The token's score.
    pub score: f64,
    /// The token's label: the engine's, or the operator's when an override is in force.
    pub label: RiskLabel,
    /// The operator's override of the token's label, with the engine's own
    /// label; null when none is in force.
    #[serde(rename = "override", default)]
    pub label_override: Option<crate::LabelOverride>,
    /// Its detected signal ids.
    pub signals: Vec<crate::CheckId>,
    /// The wallet's part in the token's launch, as the token's analysis
    /// found it (EVM; among the wallets its launch signals list); absent when it had none.
    pub launch_role: Option<LaunchRole>,
}

/// A wallet's part in a token's launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LaunchRole {
    /// It created the token (received the first mint).
    Creator,
    /// The creator's side handed it tokens before the first pool opened.
    Insider,
    /// It bought in the opening blocks with the creator's funding, or the creator sent its buy.
    BundledBuyer,
    /// It bought in the opening blocks, not linked to the creator.
    Sniper,
}

/// A token the wallet holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Holding {
    /// Token address.
    pub token: String,
    /// Symbol.
    pub symbol: String,
    /// Balance in whole tokens.
    pub amount: f64,
    /// Balance in base units, decimal.
    pub amount_raw: String,
    /// Value in US dollars, where the token is priced.
    pub value_usd: Option<f64>,
    /// The token's risk, when analysed; null when not yet analysed.
    pub risk: Option<HoldingRisk>,
}

/// How much of the portfolio sits in dangerous tokens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Exposure {
    /// Value of all priced holdings.
    pub total_value_usd: f64,
    /// Value in tokens labelled `risky`.
    pub risky_value_usd: f64,
    /// Value in tokens labelled `critical`.
    pub critical_value_usd: f64,
    /// Share of the priced value in `risky` or `critical` tokens, 0..1 (null with nothing priced).
    pub risky_or_critical_share: Option<f64>,
    /// Honeypots held (token addresses).
    pub honeypots: Vec<String>,
    /// Tokens held that cannot be sold (honeypots, capped sells, blocked transfers).
    pub unsellable: Vec<String>,
    /// Holdings not analysed in this request (analysed on later requests).
    pub not_analysed: Vec<String>,
}

/// A current allowance the wallet granted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Approval {
    /// Token address.
    pub token: String,
    /// Token symbol.
    pub token_symbol: String,
    /// Who may spend.
    pub spender: String,
    /// EOA, contract, or a configured DEX router.
    pub spender_kind: AccountKind,
    /// The router's DEX name, for a known router.
    pub spender_name: Option<String>,
    /// Allowance in base units, decimal (confirmed with `allowance()`).
    pub amount_raw: String,
    /// Whether the allowance is unlimited (2^255 or more).
    pub unlimited: bool,
}

/// How an address a wallet deals with relates to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PartyRole {
    /// The wallet itself.
    Wallet,
    /// The spender of one of its approvals.
    Spender,
}

/// An address a wallet deals with that screening finds sanctioned or flagged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ScreenedParty {
    /// The address.
    pub address: String,
    /// How it relates to the wallet.
    pub role: PartyRole,
    /// Whether a sanctions list entry for this chain names it.
    pub sanctioned: bool,
    /// The most serious of its matches and flags.
    pub risk: crate::ScreenRisk,
    /// What was found, in words (list entries, then the service's flags).
    pub findings: Vec<String>,
}

/// A wallet's analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WalletAnalysis {
    /// Chain id.
    pub chain: String,
    /// Wallet address (checksummed).
    pub address: String,
    /// Score, 0 (safe) to 100 (critical), same model as tokens.
    pub score: f64,
    /// Label from the score.
    pub label: RiskLabel,
    /// Detected risks, with evidence.
    pub signals: Vec<Signal>,
    /// Which checks ran.
    pub coverage: Coverage,
    /// Basic facts.
    pub facts: WalletFacts,
    /// Tokens held (non-zero balances), largest value first.
    pub holdings: Vec<Holding>,
    /// Exposure to dangerous tokens.
    pub exposure: Exposure,
    /// Current non-zero allowances (on `sol`: token-account delegations).
    pub approvals: Vec<Approval>,
    /// The addresses the wallet deals with (itself, its approvals'
    /// spenders) that address screening finds sanctioned or flagged; empty
    /// when none is.
    #[serde(default)]
    pub screened: Vec<ScreenedParty>,
    /// A short explanation for a person.
    pub explanation: String,
    /// Block the wallet was read at.
    pub as_of_block: u64,
    /// When the analysis was made.
    pub analysed_at: DateTime<Utc>,
}
