//! The corpus table: every token, its expected band and signals, and how its truth is proven.

use alloy_primitives::U256;

use super::{minter, Proof, Setup, Truth};
use crate::rig::Arg;

/// The corpus: the new adversarial tokens, and the base scenario's tokens
/// that the same expectations cover.
pub fn table() -> Vec<Truth> {
    let t = Truth::new;
    let mut list = vec![
        t(
            "renamedmint",
            "RewardSyncToken",
            &["risky", "critical"],
            &["mint_capability"],
            &["honeypot"],
            Proof::RaisesSupply("syncRewards(address,uint256)"),
        ),
        t(
            "fakemint",
            "FakeMintToken",
            &["safe", "caution"],
            &[],
            &["mint_capability", "honeypot"],
            Proof::KeepsSupply("mint(address,uint256)"),
        ),
        t(
            "renamedblock",
            "OptimizerToken",
            &["risky"],
            &["blacklist_capability"],
            &["honeypot"],
            Proof::BlocksHolder("optimize(address,bool)"),
        ),
        t(
            "feesetter",
            "ConfigurableFeeToken",
            &["caution", "risky"],
            &["tax_modifiable"],
            &["honeypot"],
            Proof::RaisesSellFee("configure(uint256)", 9_900),
        ),
        t(
            "seizer",
            "RescueToken",
            &["critical"],
            &["seize_balance"],
            &["honeypot"],
            Proof::MovesHolderTokens("rescue(address,uint256)"),
        ),
        t(
            "burner",
            "RebalanceToken",
            &["critical"],
            &["burn_from_others"],
            &["honeypot"],
            Proof::BurnsHolderTokens("rebalance(address,uint256)"),
        ),
        Truth {
            extra: vec![Arg::Uint(U256::from(60u64))],
            ..t(
                "cooldown",
                "CooldownToken",
                &["caution"],
                &["trading_cooldown"],
                &["honeypot"],
                Proof::SellsAfter(61),
            )
        },
        t(
            "onesell",
            "OneSellPerBlockToken",
            &["caution"],
            &["one_sell_per_block"],
            &["honeypot"],
            Proof::OneSellPerBlock,
        ),
        Truth {
            renounce: true,
            ..t(
                "renouncedfee",
                "CappedFeeToken",
                &["safe", "caution"],
                &[],
                &["mint_capability", "tax_modifiable", "honeypot"],
                Proof::Trades,
            )
        },
        t(
            "plain",
            "",
            &["safe"],
            &[],
            &["mint_capability", "honeypot", "trading_cooldown"],
            Proof::Trades,
        ),
        t(
            "renounced",
            "",
            &["safe"],
            &[],
            &["mint_capability", "honeypot"],
            Proof::Trades,
        ),
        t(
            "mintable",
            "",
            &["risky", "critical"],
            &["mint_capability"],
            &["honeypot"],
            Proof::RaisesSupply("mint(address,uint256)"),
        ),
        t(
            "blacklist",
            "",
            &["risky"],
            &["blacklist_capability"],
            &["honeypot"],
            Proof::BlocksHolder("setBlacklist(address,bool)"),
        ),
        t(
            "fee3",
            "",
            &["safe", "caution"],
            &["sell_tax"],
            &["honeypot"],
            Proof::Trades,
        ),
        t(
            "sellrevert",
            "",
            &["critical"],
            &["honeypot"],
            &["trading_cooldown"],
            Proof::CannotSell,
        ),
        t(
            "whitelist",
            "",
            &["critical"],
            &["honeypot"],
            &["trading_cooldown"],
            Proof::CannotSell,
        ),
        t(
            "tax99",
            "",
            &["critical"],
            &["honeypot"],
            &["trading_cooldown"],
            Proof::Trades,
        ),
        t(
            "trap",
            "",
            &["critical"],
            &["honeypot"],
            &["trading_cooldown"],
            Proof::CannotSell,
        ),
        t(
            "holdertrap",
            "HolderTrapToken",
            &["risky", "critical"],
            &["holders_trapped"],
            &["honeypot"],
            Proof::HoldersFrozen,
        ),
        Truth {
            setup: Setup::TimelockedOwner,
            ..t(
                "timelockowner",
                "RewardSyncToken",
                &["caution"],
                &["mint_capability"],
                &["honeypot"],
                Proof::RaisesSupply("syncRewards(address,uint256)"),
            )
        },
        Truth {
            setup: Setup::TimelockedProxy,
            ..t(
                "timelockproxy",
                "TestProxy",
                &["caution"],
                &["upgradeable_proxy"],
                &["proxy_admin_is_eoa", "honeypot"],
                Proof::Buys,
            )
        },
        // OpenZeppelin's transparent proxy: the admin is a ProxyAdmin, and
        // whoever owns it (a two-day TimelockController; one key) can upgrade.
        Truth {
            setup: Setup::ProxyAdminTimelock,
            ..t(
                "governedproxy",
                "GovernedTokenProxy",
                &["caution"],
                &["upgradeable_proxy"],
                &["proxy_admin_is_eoa", "honeypot"],
                Proof::Buys,
            )
        },
        Truth {
            setup: Setup::ProxyAdminKey,
            ..t(
                "keyedproxy",
                "GovernedTokenProxy",
                &["risky"],
                &["upgradeable_proxy"],
                &["proxy_admin_is_eoa", "honeypot"],
                Proof::Buys,
            )
        },
        Truth {
            renounce: true,
            ..t(
                "hiddenowner",
                "HiddenOperatorToken",
                &["risky", "critical"],
                &["mint_capability", "hidden_owner"],
                &["owner_not_renounced", "honeypot"],
                Proof::RaisesSupply("reward(address,uint256)"),
            )
        },
        Truth {
            renounce: true,
            ..t(
                "reclaim",
                "RestorableToken",
                &["caution", "risky"],
                &["ownership_reclaimable"],
                &["honeypot"],
                Proof::Reclaims("restore()"),
            )
        },
        Truth {
            // The rig's stablecoin is TUSD; here its T is Cyrillic.
            naming: Some(("Test USD", "\u{0422}USD")),
            ..t(
                "lookalike",
                "LookalikeToken",
                &["critical"],
                &["impersonation"],
                &["honeypot"],
                Proof::Trades,
            )
        },
        Truth {
            renounce: true,
            extra: vec![Arg::Addr(minter())],
            ..t(
                "rolemint",
                "MinterRoleToken",
                &["risky", "critical"],
                &["mint_capability", "hidden_owner"],
                &["owner_not_renounced", "honeypot"],
                Proof::MinterMints("issue(address,uint256)"),
            )
        },
        Truth {
            setup: Setup::Guarded,
            ..t(
                "callout",
                "GuardedToken",
                &["caution"],
                &["external_call_in_transfer"],
                &["honeypot"],
                Proof::Trades,
            )
        },
        t(
            "limits",
            "LimitedToken",
            &["caution"],
            &["max_tx", "max_wallet"],
            &["honeypot", "cannot_buy"],
            Proof::Limits,
        ),
        Truth {
            renounce: true,
            extra: vec![Arg::Addr(minter())],
            ..t(
                "keeper",
                "KeeperToken",
                &["risky", "critical"],
                &["mint_capability", "hidden_owner"],
                &["owner_not_renounced", "honeypot"],
                Proof::MinterMints("distribute(address,uint256)"),
            )
        },
        t(
            "gated",
            "",
            &["risky"],
            &["trading_not_enabled"],
            &["cannot_buy", "honeypot"],
            Proof::OnlyOwnerBuys,
        ),
    ];
    // One creator launches three honeypots, then a token that behaves: its
    // creator's record is what gives it away (analysed after the others).
    for name in ["serial1", "serial2", "serial3"] {
        list.push(Truth {
            shared_creator: Some(1),
            ..t(
                name,
                "SellRevertToken",
                &["critical"],
                &["honeypot"],
                &[],
                Proof::CannotSell,
            )
        });
    }
    list.push(Truth {
        shared_creator: Some(1),
        ..t(
            "serialnext",
            "LookalikeToken",
            &["critical"],
            &["creator_history"],
            &["honeypot", "mint_capability"],
            Proof::Trades,
        )
    });
    // A mint that writes the balance and leaves totalSupply alone.
    list.push(t(
        "ghostmint",
        "GhostRewardToken",
        &["risky", "critical"],
        &["mint_capability"],
        &["honeypot"],
        Proof::RaisesBalance("airdropReward(address,uint256)"),
    ));
    // One call that mints and raises the sell fee: both are reported.
    list.push(t(
        "sweeper",
        "RewardSweepToken",
        &["risky", "critical"],
        &["mint_capability", "tax_modifiable"],
        &["honeypot"],
        Proof::RaisesSupply("sweep(address,uint256)"),
    ));
    // A developer address written in the code gates a mint; ownership renounced.
    list.push(Truth {
        renounce: true,
        ..t(
            "devconstant",
            "DevConstantToken",
            &["risky", "critical"],
            &["mint_capability", "hidden_owner"],
            &["owner_not_renounced", "honeypot"],
            Proof::RaisesSupplyFrom(
                "syncBalances(address,uint256)",
                "0x5C0Dec0dE5c0dec0De5C0dec0De5C0dec0De5C0D",
            ),
        )
    });
    // The sell taxes their code takes.
    for (name, tax) in [
        ("feesetter", 0.02),
        ("renouncedfee", 0.03),
        ("plain", 0.0),
        ("fee3", 0.03),
        ("tax99", 0.99),
    ] {
        if let Some(truth) = list.iter_mut().find(|t| t.name == name) {
            truth.sell_tax = Some(tax);
        }
    }
    list.extend(super::wild_table::table());
    list
}
