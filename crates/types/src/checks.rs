//! The checks an analysis makes. One id per check whatever its outcome; a
//! check that finds its risk raises a signal of the same id, and the
//! signal's severity carries the degree.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Declares [`CheckId`] with each id's wire name and description, once.
macro_rules! check_ids {
    ($($(#[doc = $doc:literal])* $variant:ident = $name:literal,)*) => {
        /// A check of a token or wallet analysis, and the signal it raises when it finds its risk.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
        pub enum CheckId {
            $($(#[doc = $doc])* #[serde(rename = $name)] $variant,)*
        }

        impl CheckId {
            /// Every check id.
            pub const ALL: &'static [CheckId] = &[$(CheckId::$variant),*];

            /// The id as written on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(CheckId::$variant => $name,)*
                }
            }
        }
    };
}

check_ids! {
    /// EVM, by probing: a privileged caller can create new tokens.
    MintCapability = "mint_capability",
    /// EVM, by probing: a privileged caller can move other holders' tokens away.
    SeizeBalance = "seize_balance",
    /// EVM, by probing: a privileged caller can burn other holders' tokens.
    BurnFromOthers = "burn_from_others",
    /// EVM, by probing: a privileged caller can stop chosen addresses (or the pool) from moving tokens.
    BlacklistCapability = "blacklist_capability",
    /// EVM, by probing: a privileged caller can stop all trading.
    PauseCapability = "pause_capability",
    /// EVM, by probing: a privileged caller can raise buy, sell or transfer fees (the evidence gives the highest fee reached).
    TaxModifiable = "tax_modifiable",
    /// EVM, by probing: a privileged caller can raise one address's fee alone.
    TaxModifiablePerAddress = "tax_modifiable_per_address",
    /// EVM, by probing: a privileged caller can lower transaction or wallet limits so that normal trades fail.
    MaxTxModifiable = "max_tx_modifiable",
    /// EVM, by probing and reading each simulation as a ledger: value that a role can make flow from buyers, holders, the pool or the token contract's own balance to an address a role chose (its own, or a wallet it set): through fees, the contract's balance, or the pool (the evidence names the path, the role and the share or amount).
    ValueTaken = "value_taken",
    /// EVM, by probing: a caller other than the owner can make itself the owner.
    OwnershipReclaimable = "ownership_reclaimable",
    /// EVM, by probing: `owner()` reports no owner, yet another address (the creator) still exercises a power.
    HiddenOwner = "hidden_owner",
    /// EVM: the symbol reads as a well-known token's of the same chain, at another address.
    Impersonation = "impersonation",
    /// EVM: other tokens of the same creator (the first mint's recipient) turned against their holders (the evidence lists them).
    CreatorHistory = "creator_history",
    /// EVM: the contract still has an owner.
    OwnerNotRenounced = "owner_not_renounced",
    /// EVM: the code contains SELFDESTRUCT.
    SelfdestructPresent = "selfdestruct_present",
    /// EVM: the token's logic contains DELEGATECALL.
    DelegatecallPresent = "delegatecall_present",
    /// EVM: the token is an upgradeable proxy.
    UpgradeableProxy = "upgradeable_proxy",
    /// EVM: the proxy's admin is a single key (an externally owned account).
    ProxyAdminIsEoa = "proxy_admin_is_eoa",
    /// No pool with reserves on the DEXes searched.
    NoLiquidity = "no_liquidity",
    /// Little liquidity in all pools together.
    LowLiquidity = "low_liquidity",
    /// EVM: a Uniswap V4 pool of the token has a hook that can change what swaps pay out, set their fee, or run on every swap (and so revert it), or that has an owner or can be replaced.
    V4HookControlsSwaps = "v4_hook_controls_swaps",
    /// The deepest pool's LP tokens are not burned or locked.
    LpUnlocked = "lp_unlocked",
    /// The owner (on Solana the mint authority) holds LP tokens of the deepest pool.
    OwnerHoldsLp = "owner_holds_lp",
    /// The creator (EVM: the first mint's recipient; Solana: the creator the pool records) holds LP tokens of the deepest pool.
    CreatorHoldsLp = "creator_holds_lp",
    /// The ten largest holders hold most of the supply.
    WhaleConcentration = "whale_concentration",
    /// One holder holds a large share of the supply.
    SingleHolderDominance = "single_holder_dominance",
    /// EVM: the creator and the wallets it handed tokens before the first pool opened, or funded to buy in the opening blocks, still hold 15% of the supply or more (30%: high).
    LaunchCluster = "launch_cluster",
    /// EVM: the creator's cluster bought in the block the first pool opened or the next two; or other wallets (snipers) did, and still hold 30% or more.
    BundledLaunch = "bundled_launch",
    /// EVM: the creator sold most of what it held after the first pool opened within a day of the launch.
    CreatorSold = "creator_sold",
    /// EVM: the owner holds a large share of the supply.
    OwnerBalanceHigh = "owner_balance_high",
    /// The token is young.
    NewToken = "new_token",
    /// By trade simulation: a holder cannot sell (on Solana, where sells are not simulated, always unknown).
    Honeypot = "honeypot",
    /// EVM, by trade simulation: buying fails for everyone, privileged roles included (where they could be tried).
    CannotBuy = "cannot_buy",
    /// EVM, by trade simulation and probing: buying fails for a fresh wallet while a privileged role buys and sells.
    TradingNotEnabled = "trading_not_enabled",
    /// EVM, by trade simulation: a share of every buy is taken as a fee.
    BuyTax = "buy_tax",
    /// EVM, by trade simulation: a share of every sell is taken as a fee.
    SellTax = "sell_tax",
    /// EVM, by trade simulation: a wallet-to-wallet transfer fails.
    TransferBlocked = "transfer_blocked",
    /// EVM, by trade simulation: a wallet-to-wallet transfer delivers less than sent.
    TransferTax = "transfer_tax",
    /// EVM, by trade simulation: only part of a position can be sold at once.
    SellLimit = "sell_limit",
    /// EVM, by tracing the trade simulation: the token calls an address outside the trade while its tokens move.
    ExternalCallInTransfer = "external_call_in_transfer",
    /// EVM, by replaying small exits from the largest holders: some cannot transfer or sell while a fresh wallet can.
    HoldersTrapped = "holders_trapped",
    /// EVM, by trade simulation: a single buy is capped (the evidence gives the largest, in tokens and as a share of the supply).
    MaxTx = "max_tx",
    /// EVM, by trade simulation: what one wallet may hold is capped.
    MaxWallet = "max_wallet",
    /// EVM, by trade simulation across blocks: a sell fails right after buying but passes later.
    TradingCooldown = "trading_cooldown",
    /// EVM, by trade simulation across blocks: a second sell in the same block fails.
    OneSellPerBlock = "one_sell_per_block",
    /// Solana: the mint authority can mint new tokens.
    MintAuthorityActive = "mint_authority_active",
    /// Solana: the freeze authority can freeze any holder's tokens.
    FreezeAuthorityActive = "freeze_authority_active",
    /// Solana (Token-2022): a permanent delegate can move or burn any holder's tokens.
    PermanentDelegate = "permanent_delegate",
    /// Solana (Token-2022): transfers can be paused.
    Pausable = "pausable",
    /// Solana (Token-2022): every transfer runs a hook program.
    TransferHook = "transfer_hook",
    /// Solana (Token-2022): every transfer pays a fee.
    TransferFee = "transfer_fee",
    /// Solana (Token-2022): new token accounts start frozen.
    DefaultFrozen = "default_frozen",
    /// Solana (Token-2022): the tokens cannot be transferred.
    NonTransferable = "non_transferable",
    /// Solana (Token-2022): the mint account can be closed.
    MintCloseAuthority = "mint_close_authority",
    /// Solana (Token-2022): balances and transfers can be hidden.
    ConfidentialTransfers = "confidential_transfers",
    /// Solana: the name, symbol and image can be changed.
    MetadataMutable = "metadata_mutable",
    /// Solana, retired: LP tokens not burned, now reported as `lp_unlocked` as on EVM chains.
    LpUnburned = "lp_unburned",
    /// Solana: pools of some AMM families could not be searched (the node refused) or are not configured.
    OtherAmmPools = "other_amm_pools",
    /// Solana: the token is still sold by a launchpad's bonding curve (pump.fun) and has not graduated to a pool.
    BondingCurveActive = "bonding_curve_active",
    /// Wallet: an unlimited approval to an externally owned account.
    UnlimitedApprovalToEoa = "unlimited_approval_to_eoa",
    /// Wallet: an unlimited approval to a contract that is not a known DEX router.
    UnlimitedApprovalToUnknownContract = "unlimited_approval_to_unknown_contract",
    /// Wallet: holds tokens that cannot be sold.
    HoldsHoneypot = "holds_honeypot",
    /// Wallet: much of the priced portfolio is in risky or critical tokens.
    RiskyExposure = "risky_exposure",
}

impl std::fmt::Display for CheckId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_are_the_serde_names() {
        for id in CheckId::ALL {
            assert_eq!(
                serde_json::to_value(id).unwrap(),
                serde_json::json!(id.as_str())
            );
        }
    }
}
