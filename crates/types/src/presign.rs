//! Before a user signs: what a transaction or a signature request will do
//! to the wallet that signs it, the risks found, and a verdict.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::token::{RiskLabel, Severity};
use crate::wallet::AccountKind;

/// Calls one EVM simulation runs, at most.
pub const SIMULATION_MAX_CALLS: usize = 10;

/// One EVM call to simulate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EvmCall {
    /// Sender: the wallet that would sign (0x-prefixed hex). In a bundle, a
    /// call without it is sent by the request's `from`.
    pub from: Option<String>,
    /// Callee (0x-prefixed hex).
    pub to: String,
    /// Native currency sent, in wei: decimal or 0x-prefixed hex.
    pub value: Option<String>,
    /// Call data, 0x-prefixed hex.
    pub data: Option<String>,
    /// Gas the call may use: decimal or 0x-prefixed hex (default 30,000,000).
    pub gas: Option<String>,
}

/// A transaction to simulate before it is signed.
///
/// EVM chains: `from` and `to` (with `value`, `data`, `gas`) for one call,
/// or `calls` for up to 10 calls run in order in one block (a bundle:
/// approve then swap), on top of `block` (a number; default the latest).
/// `sol`: `transaction` (base64, legacy or v0, signed or not) and `signer`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TxSimulationRequest {
    /// Chain id: `eth`, `bsc`, `sol`, `base`, `arb`, `poly`, `avax` or `ftm`.
    pub chain: String,
    /// EVM: the signing wallet.
    pub from: Option<String>,
    /// EVM: the callee of a single call.
    pub to: Option<String>,
    /// EVM: native currency sent with a single call, in wei (decimal or 0x hex).
    pub value: Option<String>,
    /// EVM: call data of a single call (0x hex).
    pub data: Option<String>,
    /// EVM: gas limit of a single call (decimal or 0x hex).
    pub gas: Option<String>,
    /// EVM: the block to simulate on top of (a number, decimal or 0x hex); default the latest.
    pub block: Option<String>,
    /// EVM: a bundle of up to 10 calls run in order, instead of `to`/`value`/`data`/`gas`.
    pub calls: Option<Vec<EvmCall>>,
    /// `sol`: the transaction, base64 of its wire form (legacy or v0; signatures not checked).
    pub transaction: Option<String>,
    /// `sol`: the wallet that would sign (base58).
    pub signer: Option<String>,
}

/// Whether the simulation ran and how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SimulationStatus {
    /// Every call succeeded.
    Success,
    /// A call reverted (its reason in `revert_reason`); nothing would change.
    Reverted,
    /// The simulation could not run (the node lacks the method or failed); `unknown_reason` says why.
    Unknown,
}

/// The verdict on what the user is asked to sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PresignVerdict {
    /// It ran and nothing in `risks` above low was found.
    Benign,
    /// Something needs the user's attention: a high or medium risk, a revert, or parts not checked.
    Warning,
    /// Signing it would likely lose funds: a critical risk.
    Malicious,
    /// It could not be judged (the simulation did not run); never to be read as benign.
    Unknown,
}

/// What kind of asset moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AssetKind {
    /// The chain's native currency (ETH, BNB, SOL, …).
    Native,
    /// An ERC-20 token.
    Erc20,
    /// An ERC-721 token (one NFT).
    Erc721,
    /// An ERC-1155 token.
    Erc1155,
    /// An SPL token (Token or Token-2022).
    Spl,
}

/// Which way an asset moved for the signing wallet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Into the wallet.
    In,
    /// Out of the wallet.
    Out,
}

/// The engine's verdict on a token involved, attached where it was known
/// or could be made within the request's deadline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TokenVerdict {
    /// Score, 0 (safe) to 100.
    pub score: f64,
    /// Label.
    pub label: RiskLabel,
    /// Its detected signal ids.
    pub signals: Vec<crate::CheckId>,
}

impl From<&crate::TokenAnalysis> for TokenVerdict {
    fn from(analysis: &crate::TokenAnalysis) -> Self {
        TokenVerdict {
            score: analysis.score,
            label: analysis.label,
            signals: analysis.signals.iter().map(|s| s.id).collect(),
        }
    }
}

/// How one asset's balance of the signing wallet changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AssetChange {
    /// Native, ERC-20, ERC-721, ERC-1155 or SPL.
    pub asset: AssetKind,
    /// The token (contract or mint); null for the native currency.
    pub token: Option<String>,
    /// Symbol, where known.
    pub symbol: Option<String>,
    /// The NFT's id (ERC-721 and ERC-1155), decimal.
    pub token_id: Option<String>,
    /// In or out.
    pub direction: Direction,
    /// Net amount in base units, decimal.
    pub amount_raw: String,
    /// Net amount in whole units, where decimals are known.
    pub amount: Option<f64>,
    /// Value in US dollars, where a price is known.
    pub value_usd: Option<f64>,
    /// Taken by the token on this move (a transfer tax or fee), in base units, decimal; null when none was seen.
    pub fee_raw: Option<String>,
    /// That fee as a share of the gross move, 0..1.
    pub fee_share: Option<f64>,
    /// The other side of the move: where it went or came from.
    pub counterparties: Vec<String>,
    /// The engine's verdict on the token, where known.
    pub token_verdict: Option<TokenVerdict>,
}

/// How a permission was granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalKind {
    /// ERC-20 `approve` (or ERC-721 `approve` of one NFT).
    Approve,
    /// `increaseAllowance`.
    IncreaseAllowance,
    /// An EIP-2612 or DAI-style `permit`.
    Permit,
    /// A Permit2 allowance or signature transfer.
    Permit2,
    /// `setApprovalForAll`: every NFT of a collection.
    SetApprovalForAll,
    /// Solana SPL `Approve`: a delegate over a token account.
    Delegate,
}

/// A permission over the wallet's tokens that signing would grant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ApprovalChange {
    /// How it is granted.
    pub kind: ApprovalKind,
    /// The token (contract or mint).
    pub token: String,
    /// Symbol, where known.
    pub symbol: Option<String>,
    /// Who may spend.
    pub spender: String,
    /// EOA, contract, or a router the service knows.
    pub spender_kind: AccountKind,
    /// The name the service knows the spender by.
    pub spender_name: Option<String>,
    /// Amount in base units, decimal; null for `setApprovalForAll` and one NFT.
    pub amount_raw: Option<String>,
    /// Whether it is unlimited (or every NFT of the collection).
    pub unlimited: bool,
    /// When it ends, where it does.
    pub expires_at: Option<DateTime<Utc>>,
    /// Whether it is a revocation (amount zero, or approval withdrawn).
    pub revoked: bool,
}

/// A change of who controls an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AuthorityKind {
    /// The owner of a token account (who may move its tokens).
    AccountOwner,
    /// Who may close a token account.
    CloseAuthority,
    /// Who may mint a mint's tokens.
    MintTokens,
    /// Who may freeze a mint's accounts.
    FreezeAccount,
    /// The account is closed, its rent sent to `new_authority`.
    CloseAccount,
    /// Any other authority a `SetAuthority` names.
    Other,
}

/// A change of authority the transaction makes (Solana).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AuthorityChange {
    /// What authority.
    pub kind: AuthorityKind,
    /// The account or mint whose authority changes.
    pub account: String,
    /// The new authority (or, for a close, who receives the rent); null when removed.
    pub new_authority: Option<String>,
}

/// A contract the transaction calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ContractCalled {
    /// Its address (an EVM contract or a Solana program).
    pub address: String,
    /// The name the service knows it by.
    pub name: Option<String>,
}

/// What was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RiskKind {
    /// A permission or authority handed to an externally owned account.
    GrantToEoa,
    /// A permission or authority handed to an address with no code.
    GrantToNoCode,
    /// A permission to a contract created less than a day ago.
    GrantToNewContract,
    /// An unlimited permission to a contract the service does not know.
    UnlimitedGrantToUnknown,
    /// A permission that lasts a long time (a signature valid for months).
    LongLivedGrant,
    /// Everything of a kind leaves the wallet with nothing back.
    DrainsAsset,
    /// A token the engine labels `risky` or `critical` is received.
    ReceivesRiskyToken,
    /// A counterparty the service's record flags (tokens it deployed turned
    /// on their holders, a drainer's pattern, a flagged power).
    FlaggedCounterparty,
    /// A counterparty on a sanctions list for this chain.
    SanctionedCounterparty,
    /// Native value sent to a contract that reverts or keeps it.
    NativeToContract,
    /// The transaction reverts.
    Reverts,
    /// The simulation could not run.
    NotSimulated,
    /// Part of the request could not be checked.
    NotChecked,
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Risk {
    /// What was found.
    pub kind: RiskKind,
    /// How serious.
    pub severity: Severity,
    /// The address it is about, where one.
    pub address: Option<String>,
    /// One plain sentence.
    pub description: String,
}

/// What a transaction would do to the signing wallet, and the verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TxSimulation {
    /// Chain id.
    pub chain: String,
    /// The signing wallet.
    pub signer: String,
    /// Benign, warning, malicious or unknown (see the rule in the document's description).
    pub verdict: PresignVerdict,
    /// Whether it ran and how it ended.
    pub status: SimulationStatus,
    /// The decoded revert reason (`Error(string)`, `Panic(uint256)` or a custom error's selector).
    pub revert_reason: Option<String>,
    /// The call of a bundle that reverted (0-based).
    pub failed_call: Option<u32>,
    /// Why the simulation could not run.
    pub unknown_reason: Option<String>,
    /// The block (EVM) or slot (`sol`) simulated on.
    pub block: Option<u64>,
    /// How the wallet's balances change.
    pub asset_changes: Vec<AssetChange>,
    /// Permissions granted or withdrawn.
    pub approvals: Vec<ApprovalChange>,
    /// Authorities changed (Solana).
    pub authority_changes: Vec<AuthorityChange>,
    /// Every contract (or program) called.
    pub contracts_called: Vec<ContractCalled>,
    /// Findings, most serious first.
    pub risks: Vec<Risk>,
}

/// A signature request to scan before it is signed: EIP-712 typed data
/// (as passed to `eth_signTypedData_v4`) or a `personal_sign` message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SignatureScanRequest {
    /// Chain id of the wallet's network (EVM chains).
    pub chain: String,
    /// The signing wallet (0x-prefixed hex).
    pub signer: String,
    /// EIP-712 typed data: `{types, primaryType, domain, message}`.
    pub typed_data: Option<serde_json::Map<String, serde_json::Value>>,
    /// A `personal_sign` message: text, or 0x-prefixed hex of its bytes.
    pub message: Option<String>,
}

/// What a signature request is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SignatureKind {
    /// EIP-2612 `Permit`.
    Permit,
    /// DAI-style `Permit` (`holder`, `spender`, `nonce`, `expiry`, `allowed`).
    DaiPermit,
    /// Permit2 `PermitSingle`.
    Permit2Single,
    /// Permit2 `PermitBatch`.
    Permit2Batch,
    /// Permit2 `PermitTransferFrom` (a one-time transfer by signature).
    Permit2TransferFrom,
    /// Permit2 `PermitBatchTransferFrom`.
    Permit2BatchTransferFrom,
    /// A Seaport order (an NFT marketplace listing).
    SeaportOrder,
    /// Typed data of a kind not decoded here.
    OtherTypedData,
    /// A `personal_sign` message.
    PersonalMessage,
}

/// What a signature would do to the signing wallet, and the verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SignatureScan {
    /// Chain id.
    pub chain: String,
    /// The signing wallet.
    pub signer: String,
    /// What it is.
    pub kind: SignatureKind,
    /// Benign, warning, malicious or unknown.
    pub verdict: PresignVerdict,
    /// The contract that would act on it (the domain's `verifyingContract`).
    pub verifying_contract: Option<String>,
    /// The name the service knows that contract by.
    pub verifying_contract_name: Option<String>,
    /// Permissions it grants.
    pub approvals: Vec<ApprovalChange>,
    /// What leaves the wallet when it is used (Permit2 transfers, orders).
    pub asset_changes: Vec<AssetChange>,
    /// A `personal_sign` message as text, where it is text.
    pub message_text: Option<String>,
    /// Findings, most serious first.
    pub risks: Vec<Risk>,
}
