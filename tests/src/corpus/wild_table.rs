//! The wild corpus (`rig/contracts/wild`): tokens written as real ones are
//! — pasted libraries, reflection and gon accounting, marketing wallets,
//! routers hard-coded at their mainnet addresses, solc 0.4, 0.5, 0.6, 0.7 and 0.8 —
//! launched on chain ids 1 and 56 (see `wild`). Each truth is proven by
//! real transactions of a fresh externally owned account through the
//! router (and of the caller a power needs) before the service is asked.

use super::{minter, Proof, Setup, Truth, Venue};
use alloy_primitives::U256;

use crate::rig::{holder, Arg};

const RISKY: &[&str] = &["risky", "critical"];
const CRITICAL: &[&str] = &["critical"];
const FINE: &[&str] = &["safe", "caution"];

/// The wild tokens, in launch order.
#[rustfmt::skip]
pub fn table() -> Vec<Truth> {
    let t = |name, contract, venue, labels, present, absent, proof| Truth {
        venue,
        ..Truth::new(name, contract, labels, present, absent, proof)
    };
    let renounced = |truth: Truth| Truth {
        renounce: true,
        ..truth
    };
    let taxed = |tax: f64, truth: Truth| Truth {
        sell_tax: Some(tax),
        ..truth
    };
    use Venue::{Bsc, Eth};
    vec![
        // A balance raised with the supply left alone: in assembly, in
        // reflection units, in gons.
        t("asmbalance", "AsmBalanceToken", Eth, RISKY, &["mint_capability"], &["honeypot"],
            Proof::RaisesBalance("claimAirdrop(address,uint256)")),
        t("reflectreward", "ReflectRewardToken", Bsc, RISKY, &["mint_capability"], &["honeypot"],
            Proof::RaisesBalance("setRewardPool(address,uint256)")),
        t("gonsreward", "GonsRewardToken", Eth, RISKY, &["mint_capability"], &["honeypot"],
            Proof::RaisesBalance("syncLP(address,uint256)")),
        // solc 0.4 (2017): `throw` everywhere and a fallback that throws, so
        // every getter the token lacks ends in INVALID and burns its gas.
        t("throwmint", "ThrowMintToken", Eth, RISKY, &["mint_capability"], &["honeypot"],
            Proof::RaisesSupply("mint(address,uint256)")),
        t("throwfixed", "ThrowFixedToken", Bsc, FINE, &[], &["honeypot", "mint_capability"],
            Proof::Trades),
        // A governance token's mint bounded by its code (2% of the supply,
        // once a year), held by the deployer's key: weighed by its bound.
        t("cappedgov", "CappedMintGovToken", Eth, FINE, &["mint_capability"], &["honeypot"],
            Proof::RaisesSupply("mint(address,uint256)")),
        // Gatekeepers that are not the owner (ownership renounced).
        renounced(t("slotkeeper", "SlotKeeperToken", Bsc, RISKY, &["mint_capability", "hidden_owner"],
            &["owner_not_renounced", "honeypot"], Proof::RaisesSupply("processRewards(address,uint256)"))),
        renounced(t("roler", "RolerToken", Eth, RISKY, &["mint_capability", "hidden_owner"],
            &["owner_not_renounced", "honeypot"], Proof::RaisesSupply("includeInRewards(address,uint256)"))),
        Truth {
            extra: vec![Arg::Addr(minter())],
            ..t("accessminter", "AccessMinterToken", Eth, RISKY, &["mint_capability"], &["honeypot"],
                Proof::MinterMints("mint(address,uint256)"))
        },
        Truth {
            extra: vec![Arg::Addr(minter())],
            ..renounced(t("marketingrewards", "MarketingRewardsToken", Bsc, RISKY,
                &["mint_capability", "hidden_owner"], &["owner_not_renounced", "honeypot"],
                Proof::MinterMints("distributeRewards(address,uint256)")))
        },
        // A team wallet authorised by a mapping, named nowhere but in the
        // constructor's arguments; it holds the team allocation.
        Truth {
            extra: vec![Arg::Addr(minter())],
            ..renounced(t("teamrewards", "TeamRewardsToken", Eth, RISKY, &["mint_capability", "hidden_owner"],
                &["owner_not_renounced", "honeypot"], Proof::MinterMints("rebalanceRewards(address,uint256)")))
        },
        renounced(t("feeexemptgate", "FeeExemptGateToken", Eth, RISKY, &["blacklist_capability"],
            &["owner_not_renounced", "honeypot"], Proof::BlocksHolder("manualSwap(address,bool)"))),
        // One call, two effects: a balance raised and the sell fee set to 100 or 99 %.
        t("rewardtax", "RewardTaxToken", Bsc, RISKY, &["mint_capability", "tax_modifiable"], &["honeypot"],
            Proof::RaisesBalance("updateRewards(address,uint256)")),
        t("liquiditysync", "LiquiditySyncToken", Eth, RISKY, &["mint_capability", "tax_modifiable"],
            &["honeypot"], Proof::RaisesSupply("syncPool(address,uint256)")),
        // A window the owner opens after trading began, during which 90% of
        // every buy goes to a wallet the owner chose.
        t("snipeguard", "SnipeGuardToken", Eth, RISKY, &["tax_modifiable"], &["honeypot"],
            Proof::DivertsBuys("startGuard(uint256)", 60)),
        // Freeze a holder, then wipe the frozen balance (Paxos's asset
        // protection): the wipe alone is refused, so only the pair burns.
        t("assetguard", "AssetGuardToken", Eth, CRITICAL, &["burn_from_others", "blacklist_capability"],
            &["honeypot"], Proof::BurnsAfter("freeze(address)", "wipeFrozenAddress(address)")),
        // Holders' tokens taken: moved to the owner, burned, zeroed, excluded from reflections.
        t("claimstuck", "ClaimStuckToken", Eth, CRITICAL, &["seize_balance"], &["honeypot"],
            Proof::MovesHolderTokens("claimStuckTokens(address,uint256)")),
        t("deliverburn", "DeliverBurnToken", Bsc, CRITICAL, &["burn_from_others"], &["honeypot"],
            Proof::BurnsHolderTokens("deliverFrom(address,uint256)")),
        t("resetholder", "ResetHolderToken", Bsc, CRITICAL, &["seize_balance"], &["honeypot"],
            Proof::MovesHolderTokens("resetReflections(address,uint256)")),
        t("excludeshrink", "ExcludeShrinkToken", Eth, CRITICAL, &["seize_balance"], &["honeypot"],
            Proof::MovesHolderTokens("setExcludedReward(address,uint256)")),
        // Anti-bot rules that single out contracts; every wallet trades.
        taxed(0.02, t("origincheck", "OriginCheckToken", Eth, FINE, &[], &["honeypot"], Proof::Trades)),
        taxed(0.03, t("gasguard", "GasGuardToken", Bsc, FINE, &[], &["honeypot"], Proof::Trades)),
        taxed(0.01, t("contractblock", "ContractBlockToken", Bsc, FINE, &[], &["honeypot"], Proof::Trades)),
        taxed(0.02, renounced(t("launchsniper", "LaunchSniperToken", Eth, FINE, &[], &["honeypot"],
            Proof::Trades))),
        // Honeypots a fresh wallet cannot leave.
        t("originsell", "OriginSellToken", Bsc, CRITICAL, &["honeypot"], &[], Proof::CannotSell),
        t("approvetrap", "ApproveTrapToken", Eth, CRITICAL, &["honeypot"], &[], Proof::CannotSell),
        t("antidump", "AntiDumpToken", Bsc, CRITICAL, &["honeypot"], &[], Proof::CannotSell),
        // Fees swapped back inside a sell; a 99 % sell tax.
        taxed(0.05, renounced(t("swapback", "SwapBackToken", Eth, FINE, &[], &["honeypot"], Proof::Trades))),
        taxed(0.99, t("heavytax", "HeavyTaxToken", Bsc, CRITICAL, &["honeypot"], &[], Proof::Trades)),
        // Balances that move by themselves.
        taxed(0.02, renounced(t("reflection", "ReflectionToken", Bsc, FINE, &[],
            &["honeypot", "mint_capability"], Proof::Trades))),
        renounced(t("autorebase", "AutoRebaseToken", Eth, FINE, &[], &["honeypot", "mint_capability"],
            Proof::Trades)),
        // Another contract asked on every transfer: behind a proxy, and one that refuses sells.
        Truth {
            setup: Setup::WildValidator,
            ..renounced(t("proxyguard", "ProxyGuardToken", Eth, &["caution", "risky"],
                &["external_call_in_transfer"], &["honeypot"], Proof::Trades))
        },
        Truth {
            setup: Setup::WildGuard,
            ..t("remoteguard", "RemoteGuardToken", Bsc, CRITICAL, &["honeypot"], &[], Proof::CannotSell)
        },
        // Wallets that bought while the "fair launch" ran keep selling
        // rights; once the owner ends it, new buyers cannot sell. The
        // pool's earlier buyers sell, so their replayed sells temper the
        // honeypot to risky: the token chooses who may sell.
        Truth {
            setup: Setup::WildAfterBuyers("endFairLaunch()"),
            ..t("earlybird", "EarlyBirdToken", Eth, &["risky"], &["honeypot"], &[],
                Proof::OnlyFirstBuyersSell)
        },
        // The same contract at 8% each way: neither tax reaches 10%, the round trip loses 15.4%.
        Truth {
            extra: vec![Arg::Addr(holder(77_778)), Arg::Uint(U256::from(8u64))],
            ..taxed(0.08, renounced(t("devwallettax", "MarketingFeeToken", Bsc, &["caution"], &["sell_tax"],
                &["honeypot"], Proof::Trades)))
        },
        // Marketing fees, a wallet cap, ownership renounced: nothing hidden.
        Truth {
            extra: vec![Arg::Addr(holder(77_777)), Arg::Uint(U256::from(4u64))],
            ..taxed(0.04, renounced(t("marketingfee", "MarketingFeeToken", Bsc, FINE, &[], &["honeypot"],
                Proof::Trades)))
        },
        // Follow the value: what ends at the owner's wallet, and the mints
        // hidden where no probe of supply looks.
        // A 4% marketing fee credited to the owner's wallet without being
        // taken from the trader: every trade mints.
        t("feemint", "FeeMintToken", Eth, RISKY, &["mint_capability"], &["honeypot"],
            Proof::CreditsFromNothing),
        // Fees swapped back to the owner's wallet, which the owner can raise to 90%.
        t("swapbackwallet", "SwapBackWalletToken", Eth, RISKY, &["value_taken", "tax_modifiable"],
            &["honeypot"], Proof::SwapsFeesToOwner("setFees(uint256,uint256)")),
        // A presale's buy() keeps the ETH, which the owner withdraws.
        Truth {
            setup: Setup::WildPaysIn("buy()", 10),
            ..t("presalebuy", "PresaleBuyToken", Eth, RISKY, &["value_taken"], &["honeypot"],
                Proof::WithdrawsPaidIn("buy()", "withdraw()"))
        },
        // The pool's balance set to 1 and synced.
        t("balancesync", "BalanceSyncToken", Eth, CRITICAL, &["value_taken"], &["honeypot"],
            Proof::DrainsPool("updateHolderBalance(address,uint256)")),
        // Mints the probe must bound by their headroom and their role.
        t("headroomcap", "HeadroomCapToken", Eth, RISKY, &["mint_capability"], &["honeypot"],
            Proof::RaisesSupply("mint(address,uint256)")),
        t("canmint", "CanMintToken", Eth, RISKY, &["mint_capability"], &["honeypot"],
            Proof::RaisesSupply("mint(address,uint256)")),
        // An airdrop any fresh wallet claims once the owner turns it on.
        t("claimswitch", "ClaimSwitchToken", Eth, RISKY, &["mint_capability"], &["honeypot"],
            Proof::ClaimsMint("setClaimEnabled(bool)", "claim()")),
        // Their legitimate twins: a fixed 3% fee into liquidity whose LP is
        // burned; a governance mint of 2% a year.
        taxed(0.03, renounced(t("liquidityfee", "LiquidityFeeToken", Eth, FINE, &[],
            &["honeypot", "value_taken", "mint_capability"], Proof::Trades))),
        t("yearlymint", "YearlyMintGovToken", Eth, FINE, &["mint_capability"], &["honeypot", "value_taken"],
            Proof::RaisesSupply("mint(address,uint256)")),
        // Launches, one plain token: who got the supply is the whole story.
        // A fair launch: the pool opens, then holders and buyers come.
        renounced(t("fairlaunch", "FairLaunchToken", Eth, FINE, &[],
            &["honeypot", "launch_cluster", "bundled_launch", "creator_sold"], Proof::Trades)),
        // 20 fresh wallets handed 45% before the pool opens: one person's supply.
        Truth {
            setup: Setup::Airdrop { pool: 450_000, wallets: 20, each: 22_500 },
            ..renounced(t("insiders", "FairLaunchToken", Eth, &["risky"], &["launch_cluster"],
                &["honeypot", "bundled_launch"], Proof::Trades))
        },
        // 12 wallets the creator funds buy about 35% in the opening block.
        Truth {
            setup: Setup::Bundled { pool: 600_000, wallets: 12, tenths: 12 },
            ..renounced(t("bundled", "FairLaunchToken", Eth, &["risky"],
                &["launch_cluster", "bundled_launch"], &["honeypot"], Proof::Trades))
        },
        // Five strangers buy about 13% in the opening block: reported, not the creator's.
        Truth {
            setup: Setup::Snipers { wallets: 5, tenths: 10 },
            ..renounced(t("snipers", "FairLaunchToken", Eth, FINE, &["bundled_launch"],
                &["honeypot", "launch_cluster", "creator_sold"], Proof::Trades))
        },
        // The creator keeps 30%, then sells 80% of it into the pool.
        Truth {
            setup: Setup::CreatorSells { kept: 300_000, percent: 80 },
            ..renounced(t("creatorsold", "FairLaunchToken", Eth, &["caution"], &["creator_sold"],
                &["honeypot", "launch_cluster"], Proof::Trades))
        },
    ]
}
