//! The adversarial corpus: tokens written like real scams and real
//! legitimate tokens (`rig/contracts/Adversarial.sol`), the truth about
//! each — proven with real transactions on anvil before the service is
//! asked (`proof`) — and the band and signals the service must report
//! (`table`). One table serves the conformance test and `cargo xtask
//! detection`.

mod launches;
mod proof;
mod solana;
mod table;
mod wild;
mod wild_table;

use alloy_primitives::{Address, U256};

use crate::rig::{self, e18, holder, Arg, Node, RigChain, DEAD};

pub use proof::{prove_all, verify};
pub use solana::table as solana_table;
pub use table::table;
pub use wild::{
    bnb_chain as wild_bnb_chain, ethereum as wild_ethereum, launch_named, mainnet_chains_config,
    WildRig,
};

/// What a real transaction must show for a corpus token.
#[derive(Clone, Copy, Debug)]
pub enum Proof {
    /// The owner's call raises the total supply.
    RaisesSupply(&'static str),
    /// The owner's call leaves the total supply as it was.
    KeepsSupply(&'static str),
    /// The owner's call raises a holder's balance while the total supply
    /// stays (a balance written directly).
    RaisesBalance(&'static str),
    /// A call from this address (a constant in the code) raises the supply.
    RaisesSupplyFrom(&'static str, &'static str),
    /// The owner's call on a holder stops that holder's transfers.
    BlocksHolder(&'static str),
    /// The owner's call (with this fee value) takes most of a sell.
    RaisesSellFee(&'static str, u64),
    /// The owner's call (with this value) sends most of a later buy
    /// elsewhere: a fresh wallet gets under a fifth of what it got before.
    DivertsBuys(&'static str, u64),
    /// The owner's call moves a holder's tokens away; the supply stays.
    MovesHolderTokens(&'static str),
    /// The owner's call burns a holder's tokens.
    BurnsHolderTokens(&'static str),
    /// The owner's first call on a holder (freezing it) makes its second
    /// (wiping it) burn the holder's tokens, which the second alone cannot.
    BurnsAfter(&'static str, &'static str),
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
    /// A fresh wallet's sell through the router fails; the launch's first
    /// buyer (who bought through the router too) sells.
    OnlyFirstBuyersSell,
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
    /// A fresh wallet's buy credits tokens nobody was debited for: the
    /// buyer's, the pool's, the owner's and the contract's balances rise
    /// together while the supply stays (a fee minted in the transfer).
    CreditsFromNothing,
    /// After the owner's call (90 and 90: fees), a holder's sell pays the
    /// owner's wallet more native currency than the holder receives.
    SwapsFeesToOwner(&'static str),
    /// A wallet pays 1 ETH into the first call; the owner's second call
    /// moves the contract's native balance to the owner.
    WithdrawsPaidIn(&'static str, &'static str),
    /// After the owner's first call (`true`), two fresh wallets' second
    /// call each raise the supply.
    ClaimsMint(&'static str, &'static str),
    /// The owner's call (the pool, 1) sets the pool's token balance and
    /// reserve to almost nothing while holders keep theirs.
    DrainsPool(&'static str),
    /// Solana: the launch's history as the fixture's node answers it
    /// (`rig/solana_launches.mjs`): pump.fun's programs cannot run here, so
    /// nothing is proven by a transaction.
    Canned,
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
    /// `UpgradeableTokenLogic` behind OpenZeppelin's
    /// `TransparentUpgradeableProxy`, whose ProxyAdmin is owned by a
    /// `TimelockController` with a two-day delay.
    ProxyAdminTimelock,
    /// The same, its ProxyAdmin owned by the creator's key.
    ProxyAdminKey,
    /// Wild: its last constructor argument is a `ValidatorLogic` behind a
    /// `ValidatorProxy` whose admin is the creator.
    WildValidator,
    /// Wild: its last constructor argument is a fresh `RemoteGuard`.
    WildGuard,
    /// Wild: once its first buyers have bought, the owner makes this call.
    WildAfterBuyers(&'static str),
    /// Wild: once its first buyers have bought, a wallet makes this call
    /// paying this many tenths of an ETH (a presale's buyers).
    WildPaysIn(&'static str, u64),
    /// Wild launch: the creator puts `pool` tokens in the pool, and before
    /// it opens hands `each` tokens to `wallets` fresh wallets (insiders).
    Airdrop { pool: u64, wallets: u64, each: u64 },
    /// Wild launch: the creator funds `wallets` fresh wallets with ETH,
    /// which buy `tenths` tenths of an ETH each in the block it opens the
    /// pool with `pool` tokens (a bundled launch).
    Bundled {
        pool: u64,
        wallets: u64,
        tenths: u64,
    },
    /// Wild launch: `wallets` wallets the creator never touched buy
    /// `tenths` tenths of an ETH each in the block the pool opens (snipers).
    Snipers { wallets: u64, tenths: u64 },
    /// Wild launch: the creator keeps `kept` tokens, hands out the rest
    /// after the pool opens, then sells `percent`% of what it kept.
    CreatorSells { kept: u64, percent: u64 },
}

impl Setup {
    /// Whether the token is a proxy (its logic has no `setPair`).
    fn proxied(self) -> bool {
        matches!(
            self,
            Setup::TimelockedProxy | Setup::ProxyAdminTimelock | Setup::ProxyAdminKey
        )
    }
}

/// Where a corpus token is launched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Venue {
    /// The base scenario (`Adversarial.sol` and friends, the rig's own router).
    Rig,
    /// The wild venue's Ethereum (chain id 1, Uniswap V2 at its mainnet addresses).
    Eth,
    /// The wild venue's BNB Chain (chain id 56, PancakeSwap V2's addresses).
    Bsc,
    /// The Solana fixture's node (`rig/solana.mjs`).
    Sol,
}

impl Venue {
    /// The chain the service serves it as.
    pub fn chain(self) -> &'static str {
        match self {
            Venue::Bsc => "bsc",
            Venue::Sol => "sol",
            _ => "eth",
        }
    }
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
    /// Contract in the rig's contracts (empty for tokens of the base scenario).
    pub contract: &'static str,
    /// Extra constructor arguments after name, symbol and supply (wild tokens: the only ones).
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
    /// A creator shared with other corpus tokens (by number); None: a creator of its own.
    pub shared_creator: Option<u64>,
    /// Where it is launched.
    pub venue: Venue,
}

impl Truth {
    /// A token of the base scenario, set up as standard, with its expected
    /// band, the signals it must and must not show, and its proof.
    pub fn new(
        name: &'static str,
        contract: &'static str,
        labels: &'static [&'static str],
        present: &'static [&'static str],
        absent: &'static [&'static str],
        proof: Proof,
    ) -> Truth {
        Truth {
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
            shared_creator: None,
            venue: Venue::Rig,
        }
    }
}

/// The account that creates a corpus token (see [`Truth::shared_creator`]).
fn creator_number(index: usize, truth: &Truth) -> u64 {
    truth.shared_creator.map_or(200 + index as u64, |n| 900 + n)
}

/// Deploy the adversarial tokens of [`table`] on the base scenario `chain`
/// (called by `rig::deploy_scenario`) as it deploys its trade tokens: 40 %
/// in a pool with 10 WETH (LP burned), 60 % to 30 holders; the owner keeps
/// its powers unless the token renounces. Each token, its pair and its
/// creator by name.
pub fn deploy(
    node: &Node,
    chain: &RigChain,
) -> anyhow::Result<Vec<(&'static str, Address, Address, Address)>> {
    let dead: Address = DEAD.parse()?;
    let mut deployed = Vec::new();
    for (i, truth) in table()
        .into_iter()
        .enumerate()
        .filter(|(_, t)| !t.contract.is_empty() && t.venue == Venue::Rig)
    {
        let deployer = node.creator(creator_number(i, &truth), chain.weth)?;
        let (name, symbol) = match truth.naming {
            Some((name, symbol)) => (Arg::Str(name.into()), Arg::Str(symbol.into())),
            None => (
                Arg::Str(format!("{} token", truth.name)),
                Arg::Str(truth.name.to_ascii_uppercase()),
            ),
        };
        let token = if truth.setup.proxied() {
            // Who administers the proxy (TestProxy) or owns its ProxyAdmin.
            let admin = match truth.setup {
                Setup::TimelockedProxy => node.deploy(
                    deployer,
                    "MiniTimelock",
                    &[Arg::Uint(U256::from(TIMELOCK_DELAY))],
                )?,
                Setup::ProxyAdminTimelock => node.deploy(
                    deployer,
                    "GovernanceTimelock",
                    &[Arg::Uint(U256::from(TIMELOCK_DELAY)), Arg::Addr(deployer)],
                )?,
                _ => deployer,
            };
            let logic = node.deploy(deployer, "UpgradeableTokenLogic", &[])?;
            let init = rig::calldata(
                "initialize(string,string,uint256,address)",
                &[name, symbol, Arg::Uint(e18(1_000_000)), Arg::Addr(deployer)],
            );
            node.deploy(
                deployer,
                truth.contract,
                &[Arg::Addr(logic), Arg::Addr(admin), Arg::Bytes(init)],
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
        if !truth.setup.proxied() {
            node.exec(deployer, token, "setPair(address)", &[Arg::Addr(pair)])?;
        }
        rig::distribute(node, deployer, token, 40_000 + 100 * i as u64)?;
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
        deployed.push((truth.name, token, pair, deployer));
    }
    Ok(deployed)
}
