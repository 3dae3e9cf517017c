//! The adversarial corpus: tokens written like real scams and real
//! legitimate tokens (`rig/contracts/Adversarial.sol`), the truth about
//! each — proven with real transactions on anvil before the service is
//! asked — and the band and signals the service must report. One table
//! serves the conformance test and `cargo xtask detection`.

use alloy_primitives::{Address, U256};
use anyhow::{ensure, Context as _};
use serde_json::json;

use crate::rig::{self, e18, holder, Arg, Node, RigChain, DEAD};

/// What a real transaction must show for a corpus token.
#[derive(Clone, Copy, Debug)]
pub enum Proof {
    /// The owner's call raises the total supply.
    RaisesSupply(&'static str),
    /// The owner's call leaves the total supply as it was.
    KeepsSupply(&'static str),
    /// The owner's call on a holder stops that holder's transfers.
    BlocksHolder(&'static str),
    /// The owner's call (with this fee value) takes most of a sell.
    RaisesSellFee(&'static str, u64),
    /// The owner's call moves a holder's tokens away; the supply stays.
    MovesHolderTokens(&'static str),
    /// The owner's call burns a holder's tokens.
    BurnsHolderTokens(&'static str),
    /// A sell right after a buy fails; after this many seconds it passes.
    SellsAfter(u64),
    /// Of two sells mined in one block, the second fails.
    OneSellPerBlock,
    /// A buy and a sell through the router pass.
    Trades,
    /// A buy through the router passes (the token has no `approve`, so the router cannot sell it).
    Buys,
    /// A sell through the router fails.
    CannotSell,
    /// A fresh wallet's buy fails while the owner's passes.
    OnlyOwnerBuys,
    /// The deployer's call makes it the owner again.
    Reclaims(&'static str),
    /// The minter's call raises the supply.
    MinterMints(&'static str),
    /// A buy of 1 ETH fails (over 1 % of the supply); one of 0.25 ETH passes, a second one does not (the wallet would pass 1.5 %).
    Limits,
    /// A holder the owner distributed to cannot transfer; a fresh buyer trades.
    HoldersFrozen,
}

/// How a corpus token is set up beyond the standard launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setup {
    /// Deployed, pooled and distributed by its owner (the deployer).
    Token,
    /// Then owned by a timelock with a two-day delay.
    TimelockedOwner,
    /// `UpgradeableTokenLogic` behind `TestProxy`, whose admin is a timelock with a two-day delay.
    TimelockedProxy,
    /// Its last constructor argument is a fresh `TransferGuard`.
    Guarded,
}

/// The minter of `rolemint`: an address with no key, impersonated by the proof.
pub fn minter() -> Address {
    holder(99_999)
}

/// The delay of the corpus's timelocks.
const TIMELOCK_DELAY: u64 = 2 * 86_400;

/// One corpus token and what the service must say of it.
#[derive(Clone, Debug)]
pub struct Truth {
    /// Rig name.
    pub name: &'static str,
    /// Contract in `Adversarial.sol` (empty for tokens of the base scenario).
    pub contract: &'static str,
    /// Extra constructor arguments after name, symbol and supply.
    pub extra: Vec<Arg>,
    /// Labels accepted (the expected band).
    pub labels: &'static [&'static str],
    /// Signals that must be present.
    pub present: &'static [&'static str],
    /// Signals that must be absent.
    pub absent: &'static [&'static str],
    /// What a real transaction shows.
    pub proof: Proof,
    /// Whether ownership is renounced after launch.
    pub renounce: bool,
    /// How it is set up.
    pub setup: Setup,
    /// Name and symbol, when not derived from the rig name.
    pub naming: Option<(&'static str, &'static str)>,
    /// The sell tax its code takes, where the report compares it.
    pub sell_tax: Option<f64>,
}

/// The corpus: the new adversarial tokens, and the base scenario's tokens
/// that the same expectations cover.
pub fn table() -> Vec<Truth> {
    let t = |name, contract, labels, present, absent, proof| Truth {
        name,
        contract,
        extra: Vec::new(),
        labels,
        present,
        absent,
        proof,
        renounce: false,
        setup: Setup::Token,
        naming: None,
        sell_tax: None,
    };
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
            &["caution", "risky"],
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
            &["caution", "risky"],
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
        t(
            "gated",
            "",
            &["risky"],
            &["trading_not_enabled"],
            &["cannot_buy", "honeypot"],
            Proof::OnlyOwnerBuys,
        ),
    ];
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
    list
}

/// Deploy the adversarial tokens of [`table`] on the base scenario `chain`
/// (called by `rig::deploy_scenario`) as it deploys its trade tokens: 40 %
/// in a pool with 10 WETH (LP burned), 60 % to 30 holders; the owner keeps
/// its powers unless the token renounces. Each token and its pair by name.
pub fn deploy(
    node: &Node,
    chain: &RigChain,
) -> anyhow::Result<Vec<(&'static str, Address, Address)>> {
    let deployer = chain.deployer;
    let dead: Address = DEAD.parse()?;
    let mut deployed = Vec::new();
    for (i, truth) in table()
        .into_iter()
        .enumerate()
        .filter(|(_, t)| !t.contract.is_empty())
    {
        let (name, symbol) = match truth.naming {
            Some((name, symbol)) => (Arg::Str(name.into()), Arg::Str(symbol.into())),
            None => (
                Arg::Str(format!("{} token", truth.name)),
                Arg::Str(truth.name.to_ascii_uppercase()),
            ),
        };
        let token = if truth.setup == Setup::TimelockedProxy {
            let timelock = node.deploy(
                deployer,
                "MiniTimelock",
                &[Arg::Uint(U256::from(TIMELOCK_DELAY))],
            )?;
            let logic = node.deploy(deployer, "UpgradeableTokenLogic", &[])?;
            let init = rig::calldata(
                "initialize(string,string,uint256,address)",
                &[name, symbol, Arg::Uint(e18(1_000_000)), Arg::Addr(deployer)],
            );
            node.deploy(
                deployer,
                truth.contract,
                &[Arg::Addr(logic), Arg::Addr(timelock), Arg::Bytes(init)],
            )?
        } else {
            let mut args = vec![name, symbol, Arg::Uint(e18(1_000_000))];
            args.extend(truth.extra.iter().cloned());
            if truth.setup == Setup::Guarded {
                args.push(Arg::Addr(node.deploy(deployer, "TransferGuard", &[])?));
            }
            node.deploy(deployer, truth.contract, &args)?
        };
        let pair = rig::add_pool(
            node,
            deployer,
            chain.factory,
            token,
            e18(400_000),
            chain.weth,
            e18(10),
            dead,
        )?;
        if truth.setup != Setup::TimelockedProxy {
            node.exec(deployer, token, "setPair(address)", &[Arg::Addr(pair)])?;
        }
        for h in 0..30 {
            node.exec(
                deployer,
                token,
                "transfer(address,uint256)",
                &[
                    Arg::Addr(holder(40_000 + 100 * i as u64 + h)),
                    Arg::Uint(e18(20_000)),
                ],
            )?;
        }
        if truth.setup == Setup::TimelockedOwner {
            let timelock = node.deploy(
                deployer,
                "MiniTimelock",
                &[Arg::Uint(U256::from(TIMELOCK_DELAY))],
            )?;
            node.exec(
                deployer,
                token,
                "transferOwnership(address)",
                &[Arg::Addr(timelock)],
            )?;
        }
        if truth.renounce {
            node.exec(deployer, token, "renounceOwnership()", &[])?;
        }
        deployed.push((truth.name, token, pair));
    }
    Ok(deployed)
}

/// Prove every truth of the table with real transactions, on an anvil of
/// its own (the shared rig's chains must not move under other tests).
pub fn prove_all() -> anyhow::Result<()> {
    let node = rig::Anvil::start(31339)?;
    let chain = rig::deploy_scenario(&node.url, 31339, 0)?;
    table().iter().try_for_each(|truth| verify(&chain, truth))
}

/// Prove `truth` with real transactions on `chain`, leaving the chain as it was.
pub fn verify(chain: &RigChain, truth: &Truth) -> anyhow::Result<()> {
    let node = Node::new(&chain.url);
    let snapshot = node.call("evm_snapshot", json!([]))?;
    let result =
        prove(&node, chain, truth).with_context(|| format!("corpus truth of {}", truth.name));
    node.call("evm_setAutomine", json!([true]))?;
    node.call("evm_revert", json!([snapshot]))?;
    result
}

fn prove(node: &Node, chain: &RigChain, truth: &Truth) -> anyhow::Result<()> {
    let token = chain.tokens[truth.name];
    let owner = chain.deployer;
    let supply = || node.view_word(token, "totalSupply()", &[]);
    let balance = |a: Address| node.view_word(token, "balanceOf(address)", &[Arg::Addr(a)]);
    let trader = rig::random_address();
    node.impersonate(trader)?;
    if let Proof::HoldersFrozen = truth.proof {
        let first = holder(
            40_000
                + 100
                    * table()
                        .iter()
                        .position(|t| t.name == truth.name)
                        .unwrap_or(0) as u64,
        );
        node.impersonate(first)?;
        ensure!(
            node.exec(
                first,
                token,
                "transfer(address,uint256)",
                &[Arg::Addr(trader), Arg::Uint(e18(1))]
            )
            .is_err(),
            "a distributed holder moved tokens"
        );
    }
    if let Proof::OnlyOwnerBuys = truth.proof {
        ensure!(
            rig::buy(node, chain, trader, token, e18(1) / U256::from(10u64)).is_err(),
            "a fresh wallet bought"
        );
        return rig::buy(node, chain, owner, token, e18(1) / U256::from(10u64));
    }
    rig::buy(node, chain, trader, token, e18(1) / U256::from(10u64))?;
    let bought = balance(trader)?;
    ensure!(!bought.is_zero(), "the buy delivered nothing");
    match truth.proof {
        Proof::RaisesSupply(signature) | Proof::KeepsSupply(signature) => {
            let before = supply()?;
            as_owner(
                node,
                chain,
                token,
                signature,
                &[Arg::Addr(trader), Arg::Uint(e18(1_000))],
            )?;
            let raised = supply()? > before;
            ensure!(
                raised == matches!(truth.proof, Proof::RaisesSupply(_)),
                "{signature}: supply {before} → {}",
                supply()?
            );
        }
        Proof::BlocksHolder(signature) => {
            node.exec(
                owner,
                token,
                signature,
                &[Arg::Addr(trader), Arg::Bool(true)],
            )?;
            ensure!(node
                .exec(
                    trader,
                    token,
                    "transfer(address,uint256)",
                    &[Arg::Addr(rig::random_address()), Arg::Uint(bought)]
                )
                .is_err());
        }
        Proof::RaisesSellFee(signature, value) => {
            node.exec(owner, token, signature, &[Arg::Uint(U256::from(value))])?;
            let eth_before = eth_balance(node, trader)?;
            rig::sell_with_fee(node, chain, trader, token, bought)?;
            let received = eth_balance(node, trader)?.saturating_sub(eth_before);
            ensure!(
                received < e18(1) / U256::from(100u64),
                "a sell after {signature} still returned {received} wei"
            );
        }
        Proof::MovesHolderTokens(signature) | Proof::BurnsHolderTokens(signature) => {
            let before = supply()?;
            node.exec(
                owner,
                token,
                signature,
                &[Arg::Addr(trader), Arg::Uint(bought)],
            )?;
            ensure!(
                balance(trader)?.is_zero(),
                "{signature} left the holder's tokens"
            );
            let burned = supply()? < before;
            ensure!(
                burned == matches!(truth.proof, Proof::BurnsHolderTokens(_)),
                "{signature}: supply {before} → {}",
                supply()?
            );
        }
        Proof::SellsAfter(seconds) => {
            ensure!(
                rig::sell(node, chain, trader, token, bought).is_err(),
                "a sell right after the buy passed"
            );
            node.call("evm_increaseTime", json!([seconds]))?;
            node.call("evm_mine", json!([]))?;
            rig::sell(node, chain, trader, token, bought)?;
        }
        Proof::OneSellPerBlock => {
            let second = rig::random_address();
            node.impersonate(second)?;
            rig::buy(node, chain, second, token, e18(1) / U256::from(10u64))?;
            for seller in [trader, second] {
                node.exec(
                    seller,
                    token,
                    "approve(address,uint256)",
                    &[Arg::Addr(chain.router), Arg::Uint(U256::MAX)],
                )?;
            }
            node.call("evm_setAutomine", json!([false]))?;
            let hashes: Vec<_> = [trader, second]
                .into_iter()
                .map(|seller| rig::send_sell(node, chain, seller, token, balance(seller)?))
                .collect::<anyhow::Result<_>>()?;
            node.call("evm_mine", json!([]))?;
            node.call("evm_setAutomine", json!([true]))?;
            let statuses: Vec<_> = hashes
                .iter()
                .map(|h| {
                    Ok(
                        node.call("eth_getTransactionReceipt", json!([h]))?["status"]
                            .as_str()
                            .unwrap_or_default()
                            .to_string(),
                    )
                })
                .collect::<anyhow::Result<_>>()?;
            ensure!(
                statuses == ["0x1", "0x0"],
                "two sells in one block: {statuses:?}"
            );
        }
        Proof::Buys => {}
        Proof::Limits => {
            let other = rig::random_address();
            node.impersonate(other)?;
            node.call(
                "anvil_setBalance",
                json!([format!("{other:#x}"), format!("{:#x}", e18(10))]),
            )?;
            ensure!(
                rig::buy(node, chain, other, token, e18(1)).is_err(),
                "a buy over the transaction cap passed"
            );
            rig::buy(node, chain, other, token, e18(1) / U256::from(4u64))?;
            ensure!(
                rig::buy(node, chain, other, token, e18(1) / U256::from(4u64)).is_err(),
                "a buy over the wallet cap passed"
            );
        }
        Proof::Trades => rig::sell_with_fee(node, chain, trader, token, bought)?,
        Proof::OnlyOwnerBuys => unreachable!("proven before the buy"),
        Proof::MinterMints(signature) => {
            let before = supply()?;
            node.impersonate(minter())?;
            node.exec(
                minter(),
                token,
                signature,
                &[Arg::Addr(trader), Arg::Uint(e18(1_000))],
            )?;
            ensure!(supply()? > before, "{signature} did not mint");
        }
        Proof::Reclaims(signature) => {
            node.exec(owner, token, signature, &[])?;
            let now = node.view_word(token, "owner()", &[])?;
            ensure!(
                Address::from_slice(&now.to_be_bytes::<32>()[12..]) == owner,
                "{signature} did not make the deployer the owner"
            );
        }
        Proof::HoldersFrozen => rig::sell(node, chain, trader, token, bought)?,
        Proof::CannotSell => ensure!(
            rig::sell_with_fee(node, chain, trader, token, bought).is_err(),
            "the sell passed"
        ),
    }
    Ok(())
}

fn eth_balance(node: &Node, account: Address) -> anyhow::Result<U256> {
    let hex = node.call("eth_getBalance", json!([format!("{account:#x}"), "latest"]))?;
    Ok(U256::from_str_radix(
        hex.as_str().context("hex")?.trim_start_matches("0x"),
        16,
    )?)
}

/// Call `signature` on `token` as its owner: the deployer, or through the
/// timelock that owns it (as if its delay had passed).
fn as_owner(
    node: &Node,
    chain: &RigChain,
    token: Address,
    signature: &str,
    args: &[Arg],
) -> anyhow::Result<()> {
    let owner = node.view_word(token, "owner()", &[])?;
    let owner = Address::from_slice(&owner.to_be_bytes::<32>()[12..]);
    // Renounced (or the deployer): the deployer, who may still hold a hidden power.
    if owner == chain.deployer || owner.is_zero() || owner == DEAD.parse::<Address>()? {
        return node.exec(chain.deployer, token, signature, args);
    }
    let data = rig::calldata(signature, args);
    node.exec(
        chain.deployer,
        owner,
        "execute(address,bytes)",
        &[Arg::Addr(token), Arg::Bytes(data)],
    )
}
