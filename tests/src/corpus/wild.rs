//! The wild venue: tokens written as they are found on Etherscan and
//! BscScan (`rig/contracts/wild`, compiled with solc 0.6, 0.7 and 0.8),
//! launched on anvils with the chain ids of Ethereum (1) and BNB Chain (56)
//! where WETH/WBNB, the Uniswap V2 factory and Router02 sit at their
//! mainnet addresses (Uniswap's and PancakeSwap's, placed with
//! `anvil_setCode`), so tokens that hard-code their router work unchanged.
//! The server analyses them with its own mainnet defaults for `eth` and
//! `bsc`, only the RPC URL and the stablecoin (the rig's) replaced.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use alloy_primitives::{Address, U256};
use anyhow::Context as _;
use serde_json::json;

use super::{creator_number, launches, table, Setup, Truth, Venue};
use crate::rig::{self, e18, Anvil, Arg, Node, RigChain};

/// Where a mainnet's canonical contracts sit.
struct Canon {
    chain_id: u64,
    weth: &'static str,
    factory: &'static str,
    router: &'static str,
}

const ETH: Canon = Canon {
    chain_id: 1,
    weth: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
    factory: "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f",
    router: "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D",
};

/// PancakeSwap V2's addresses, with Uniswap V2's code (its router's pair
/// address formula matches its own pair code, as PancakeSwap's does).
const BSC: Canon = Canon {
    chain_id: 56,
    weth: "0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c",
    factory: "0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73",
    router: "0x10ED43C718714eb63d5aA57B78B54704E256024E",
};

/// The two wild chains and their nodes.
pub struct WildRig {
    /// Served as `eth` (chain id 1).
    pub eth: RigChain,
    /// Served as `bsc` (chain id 56).
    pub bsc: RigChain,
    /// The nodes; stopped when dropped.
    pub nodes: Vec<Anvil>,
}

impl WildRig {
    /// Start both chains and launch every wild token of the table on its own.
    pub fn start() -> anyhow::Result<WildRig> {
        let (eth_node, bsc_node) = (Anvil::start(ETH.chain_id)?, Anvil::start(BSC.chain_id)?);
        let eth = deploy(&eth_node.url, &ETH, Venue::Eth)?;
        let bsc = deploy(&bsc_node.url, &BSC, Venue::Bsc)?;
        Ok(WildRig {
            eth,
            bsc,
            nodes: vec![eth_node, bsc_node],
        })
    }

    /// Prove every wild truth with real transactions (each proof leaves
    /// the chain as it was).
    pub fn prove(&self) -> anyhow::Result<()> {
        table()
            .iter()
            .filter(|truth| truth.venue != Venue::Rig)
            .try_for_each(|truth| super::verify(self.chain(truth.venue), truth))
    }

    /// The wild venue shared by the tests of one process, started and
    /// proven on first use; its nodes stop when the process exits.
    pub fn shared() -> anyhow::Result<&'static WildRig> {
        static WILD: OnceLock<Result<WildRig, String>> = OnceLock::new();
        let wild = WILD.get_or_init(|| {
            std::thread::spawn(|| {
                let mut wild = WildRig::start()?;
                rig::keep_until_exit(std::mem::take(&mut wild.nodes));
                wild.prove()?;
                Ok::<_, anyhow::Error>(wild)
            })
            .join()
            .map_err(|_| "wild venue set-up panicked".to_string())
            .and_then(|r| r.map_err(|e| format!("{e:#}")))
        });
        wild.as_ref()
            .map_err(|e| anyhow::anyhow!("wild venue: {e}"))
    }

    /// The chain a wild truth lives on.
    pub fn chain(&self, venue: Venue) -> &RigChain {
        match venue {
            Venue::Bsc => &self.bsc,
            _ => &self.eth,
        }
    }

    /// The server's chains: its mainnet defaults for `eth` and `bsc`, with
    /// these nodes as RPC and the rig's stablecoin.
    pub fn chains_config(
        &self,
        eth_url: &str,
        bsc_url: &str,
    ) -> BTreeMap<String, riskintel_server::chains::ChainConfig> {
        mainnet_chains_config(&[("eth", &self.eth, eth_url), ("bsc", &self.bsc, bsc_url)])
    }
}

/// The server's chains: its mainnet defaults for each `(id, chain, url)`,
/// with that node as RPC and the rig's stablecoin.
pub fn mainnet_chains_config(
    chains: &[(&str, &RigChain, &str)],
) -> BTreeMap<String, riskintel_server::chains::ChainConfig> {
    use riskintel_server::chains::ConfiguredToken;
    let defaults = riskintel_server::chains::defaults::evm_chains();
    (chains.iter())
        .filter_map(|(id, chain, url)| {
            let mut config = defaults.get(*id)?.clone();
            config.rpc_url = url.to_string();
            config.stablecoins = vec![ConfiguredToken {
                address: chain.usd.to_checksum(None),
                symbol: "TUSD".into(),
                decimals: 6,
            }];
            Some((id.to_string(), config))
        })
        .collect()
}

/// The base rig on `url`, the canonical contracts placed, a WETH/USD pool
/// on the canonical factory for pricing, and the wild tokens of `venue`.
fn deploy(url: &str, canon: &Canon, venue: Venue) -> anyhow::Result<RigChain> {
    let node = Node::new(url);
    let mut chain = mainnet_base(url, canon)?;
    for (i, truth) in table().into_iter().enumerate() {
        if truth.venue == venue {
            launch(&node, &mut chain, creator_number(i, &truth), &truth)
                .with_context(|| format!("launching {}", truth.name))?;
        }
    }
    Ok(chain)
}

/// Ethereum's venue on the node at `url` (chain id 1): the base rig with
/// WETH, the Uniswap V2 factory and Router02 at their mainnet addresses and
/// a WETH/USD pool; no token yet.
pub fn ethereum(url: &str) -> anyhow::Result<RigChain> {
    mainnet_base(url, &ETH)
}

/// BNB Chain's venue on the node at `url` (chain id 56): the base rig with
/// WBNB, PancakeSwap V2's factory and router at their mainnet addresses
/// and a WBNB/USD pool; no token yet.
pub fn bnb_chain(url: &str) -> anyhow::Result<RigChain> {
    mainnet_base(url, &BSC)
}

/// The base rig on `url`, the canonical contracts placed, a WETH/USD pool
/// on the canonical factory for pricing.
fn mainnet_base(url: &str, canon: &Canon) -> anyhow::Result<RigChain> {
    let base = rig::deploy_base(url, canon.chain_id, 0)?;
    let node = Node::new(url);
    let deployer = base.deployer;
    let (weth, factory, router): (Address, Address, Address) = (
        canon.weth.parse()?,
        canon.factory.parse()?,
        canon.router.parse()?,
    );
    place(&node, weth, deployer, "WETH9", &[])?;
    place(
        &node,
        factory,
        deployer,
        "UniswapV2Factory",
        &[Arg::Addr(deployer)],
    )?;
    place(
        &node,
        router,
        deployer,
        "UniswapV2Router02",
        &[Arg::Addr(factory), Arg::Addr(weth)],
    )?;
    node.send(
        deployer,
        Some(weth),
        rig::calldata("deposit()", &[]),
        e18(1_000),
    )?;
    rig::add_pool(
        &node,
        deployer,
        factory,
        weth,
        e18(100),
        base.usd,
        U256::from(300_000u64) * U256::from(1_000_000u64),
        deployer,
    )?;
    Ok(RigChain {
        weth,
        factory,
        router,
        ..base
    })
}

/// Deploy `name` anywhere and put its runtime code at `at`.
fn place(
    node: &Node,
    at: Address,
    deployer: Address,
    name: &str,
    args: &[Arg],
) -> anyhow::Result<()> {
    let deployed = node.deploy(deployer, name, args)?;
    let code = node.call("eth_getCode", json!([format!("{deployed:#x}"), "latest"]))?;
    let code = hex::decode(code.as_str().context("code")?.trim_start_matches("0x"))?;
    node.set_code(at, &code)
}

/// Wallets that buy each wild token after its launch.
const BUYERS: u64 = 3;

/// The `i`th of the wallets that buy every wild token after its launch
/// (the same traders buy many tokens, as real ones do).
pub fn first_buyer(i: u64) -> Address {
    rig::holder(90_000 + i)
}

/// Launch the wild token of the table named `name` on `chain`, as the
/// wild venue launches it.
pub fn launch_named(node: &Node, chain: &mut RigChain, name: &str) -> anyhow::Result<()> {
    let (i, truth) = (table().into_iter().enumerate())
        .find(|(_, t)| t.name == name && t.venue != Venue::Rig)
        .with_context(|| format!("no wild token {name}"))?;
    launch(node, chain, creator_number(i, &truth), &truth)
}

/// Launch a wild token as its creator would: deploy it (its constructor
/// creates the pair through the router it names), add 400,000 tokens and 10
/// ETH through the router (LP to the burn address), hand 20,000 to each of
/// 30 holders, let three wallets buy 0.1 ETH each through the router, and
/// renounce where the truth says.
fn launch(node: &Node, chain: &mut RigChain, creator: u64, truth: &Truth) -> anyhow::Result<()> {
    let deployer = node.creator(creator, chain.weth)?;
    let mut args = truth.extra.clone();
    match truth.setup {
        Setup::WildValidator => {
            let logic = node.deploy(deployer, "ValidatorLogic", &[])?;
            let init = rig::calldata("initialize(address)", &[Arg::Addr(deployer)]);
            args.push(Arg::Addr(node.deploy(
                deployer,
                "ValidatorProxy",
                &[Arg::Addr(logic), Arg::Addr(deployer), Arg::Bytes(init)],
            )?));
        }
        Setup::WildGuard => args.push(Arg::Addr(node.deploy(deployer, "RemoteGuard", &[])?)),
        _ => {}
    }
    let token = node.deploy(deployer, truth.contract, &args)?;
    node.exec(
        deployer,
        token,
        "approve(address,uint256)",
        &[Arg::Addr(chain.router), Arg::Uint(U256::MAX)],
    )?;
    if !launches::launch(node, chain, creator, deployer, token, truth.setup)? {
        open_and_distribute(node, chain, creator, deployer, token)?;
    }
    let pair = node.view_address(
        chain.factory,
        "getPair(address,address)",
        &[Arg::Addr(token), Arg::Addr(chain.weth)],
    )?;
    // Then its first buyers come, through the router, where it lets them
    // (a token that refuses a buyer's buy is launched all the same).
    for i in 0..BUYERS {
        let buyer = first_buyer(i);
        node.impersonate(buyer)?;
        let _refused = rig::buy(node, chain, buyer, token, e18(1) / U256::from(10u64));
    }
    if let Setup::WildAfterBuyers(signature) = truth.setup {
        node.exec(deployer, token, signature, &[])?;
    }
    if let Setup::WildPaysIn(signature, tenths) = truth.setup {
        let buyer = first_buyer(BUYERS);
        node.impersonate(buyer)?;
        let value = e18(tenths) / U256::from(10u64);
        node.send(buyer, Some(token), rig::calldata(signature, &[]), value)?;
    }
    if truth.renounce {
        node.exec(deployer, token, "renounceOwnership()", &[])?;
    }
    chain.tokens.insert(truth.name, token);
    chain.pairs.insert(truth.name, pair);
    chain.creators.insert(truth.name, deployer);
    Ok(())
}

/// The usual launch: 400,000 tokens and 10 ETH through the router (LP to
/// the burn address), then 20,000 to each of 30 holders.
fn open_and_distribute(
    node: &Node,
    chain: &RigChain,
    creator: u64,
    deployer: Address,
    token: Address,
) -> anyhow::Result<()> {
    launches::opening(node, chain, deployer, token, (e18(400_000), e18(10)), &[])?;
    rig::distribute(node, deployer, token, 60_000 + 100 * creator)
}
