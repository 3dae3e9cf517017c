//! The test rig: real `anvil` nodes on 127.0.0.1 with Multicall3 (our own
//! implementation, installed at the canonical address), WETH9 and the
//! Uniswap V2 factory from their published build artifacts, a USD
//! stablecoin pair for pricing, and the project's own test tokens. No
//! transaction is signed here: anvil's accounts are unlocked.
//!
//! Set up by `cargo xtask rig` (run by `cargo xtask test`): `npm install` in
//! `tests/rig`, `node tests/rig/compile.js` and `node tests/rig/solana.mjs`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use alloy_primitives::{Address, U256};
use anyhow::{bail, ensure, Context as _};
use serde_json::{json, Value};

/// Multicall3's canonical address.
pub const MULTICALL3: &str = "0xcA11bde05977b3631167028862bE2a173976CA11";
/// The burn address.
pub const DEAD: &str = "0x000000000000000000000000000000000000dEaD";

/// One token unit with 18 decimals.
pub fn e18(n: u64) -> U256 {
    U256::from(n) * U256::from(10).pow(U256::from(18))
}

fn rig_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rig")
}

/// The anvil binary from the npm package.
pub fn anvil_path() -> anyhow::Result<PathBuf> {
    let path = rig_dir().join("node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");
    ensure!(
        path.exists(),
        "anvil is not installed at {}: run `cargo xtask rig` (needs Node.js and npm)",
        path.display()
    );
    Ok(path)
}

/// A compiled artifact: ABI-less, just the code.
pub struct Artifact {
    /// Creation code.
    pub bytecode: Vec<u8>,
    /// Runtime code, where the artifact has it.
    pub deployed: Option<Vec<u8>>,
}

/// Load `tests/rig/build/<name>.json`.
pub fn artifact(name: &str) -> anyhow::Result<Artifact> {
    let path = rig_dir().join("build").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("{} is missing: run `cargo xtask rig`", path.display()))?;
    let json: Value = serde_json::from_str(&text)?;
    let code = |field: &str| {
        json[field]
            .as_str()
            .and_then(|h| hex::decode(h.trim_start_matches("0x")).ok())
    };
    Ok(Artifact {
        bytecode: code("bytecode").context("artifact has no bytecode")?,
        deployed: code("deployedBytecode"),
    })
}

/// An ABI argument.
#[derive(Clone, Debug)]
pub enum Arg {
    /// address
    Addr(Address),
    /// uint256
    Uint(U256),
    /// bool
    Bool(bool),
    /// string
    Str(String),
    /// bytes
    Bytes(Vec<u8>),
    /// address[]
    Addrs(Vec<Address>),
}

fn word(value: U256) -> [u8; 32] {
    value.to_be_bytes::<32>()
}

/// ABI-encode arguments (head/tail).
pub fn encode(args: &[Arg]) -> Vec<u8> {
    let mut head = Vec::new();
    let mut tail = Vec::new();
    let head_len = 32 * args.len();
    for arg in args {
        match arg {
            Arg::Addr(a) => {
                let mut w = [0u8; 32];
                w[12..].copy_from_slice(a.as_slice());
                head.extend_from_slice(&w);
            }
            Arg::Uint(v) => head.extend_from_slice(&word(*v)),
            Arg::Bool(b) => head.extend_from_slice(&word(U256::from(*b as u8))),
            Arg::Addrs(list) => {
                head.extend_from_slice(&word(U256::from(head_len + tail.len())));
                tail.extend_from_slice(&word(U256::from(list.len())));
                for a in list {
                    let mut w = [0u8; 32];
                    w[12..].copy_from_slice(a.as_slice());
                    tail.extend_from_slice(&w);
                }
            }
            Arg::Str(_) | Arg::Bytes(_) => {
                let bytes = match arg {
                    Arg::Str(s) => s.as_bytes().to_vec(),
                    Arg::Bytes(b) => b.clone(),
                    _ => unreachable!(),
                };
                head.extend_from_slice(&word(U256::from(head_len + tail.len())));
                tail.extend_from_slice(&word(U256::from(bytes.len())));
                tail.extend_from_slice(&bytes);
                tail.resize(tail.len() + (32 - bytes.len() % 32) % 32, 0);
            }
        }
    }
    head.extend(tail);
    head
}

/// Call data: selector of `signature` and encoded arguments.
pub fn calldata(signature: &str, args: &[Arg]) -> Vec<u8> {
    let mut data = alloy_primitives::keccak256(signature.as_bytes())[..4].to_vec();
    data.extend(encode(args));
    data
}

/// A JSON-RPC connection to one anvil (blocking, its own HTTP client).
pub struct Node {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    http: reqwest::blocking::Client,
}

impl Node {
    /// A connection to `url`.
    pub fn new(url: &str) -> Node {
        Node {
            url: url.to_string(),
            http: reqwest::blocking::Client::new(),
        }
    }

    /// One call; node errors are errors.
    pub fn call(&self, method: &str, params: Value) -> anyhow::Result<Value> {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let answer: Value = self.http.post(&self.url).json(&body).send()?.json()?;
        if let Some(error) = answer.get("error") {
            bail!("{method}: {error}");
        }
        Ok(answer["result"].clone())
    }

    /// Send a transaction from an unlocked account and require success.
    pub fn send(
        &self,
        from: Address,
        to: Option<Address>,
        data: Vec<u8>,
        value: U256,
    ) -> anyhow::Result<Value> {
        let mut tx = json!({
            "from": format!("{from:#x}"),
            "data": format!("0x{}", hex::encode(&data)),
            // Explicit gas: anvil's estimate is sometimes short.
            "gas": "0x1c9c380",
            "value": format!("{value:#x}"),
        });
        if let Some(to) = to {
            tx["to"] = json!(format!("{to:#x}"));
        }
        let hash = self.call("eth_sendTransaction", json!([tx]))?;
        // Anvil mines at once, but the receipt can lag the answer slightly.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let receipt = self.call("eth_getTransactionReceipt", json!([hash]))?;
            if !receipt.is_null() {
                ensure!(receipt["status"] == "0x1", "transaction failed: {receipt}");
                return Ok(receipt);
            }
            ensure!(
                Instant::now() < deadline,
                "no receipt for {hash} within 10 s"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Deploy `name` with constructor arguments.
    pub fn deploy(&self, from: Address, name: &str, args: &[Arg]) -> anyhow::Result<Address> {
        let mut data = artifact(name)?.bytecode;
        data.extend(encode(args));
        let receipt = self.send(from, None, data, U256::ZERO)?;
        receipt["contractAddress"]
            .as_str()
            .context("no contract address")?
            .parse()
            .context("address")
    }

    /// Call a contract function in a transaction.
    pub fn exec(
        &self,
        from: Address,
        to: Address,
        signature: &str,
        args: &[Arg],
    ) -> anyhow::Result<()> {
        self.send(from, Some(to), calldata(signature, args), U256::ZERO)
            .map(|_| ())
    }

    /// Put `code` at `address` (anvil_setCode).
    pub fn set_code(&self, address: Address, code: &[u8]) -> anyhow::Result<()> {
        self.call(
            "anvil_setCode",
            json!([format!("{address:#x}"), format!("0x{}", hex::encode(code))]),
        )
        .map(|_| ())
    }

    /// Read a view function returning one word.
    pub fn view_word(&self, to: Address, signature: &str, args: &[Arg]) -> anyhow::Result<U256> {
        let data = calldata(signature, args);
        let out = self.call("eth_call", json!([{"to": format!("{to:#x}"), "data": format!("0x{}", hex::encode(data))}, "latest"]))?;
        let bytes = hex::decode(out.as_str().context("hex")?.trim_start_matches("0x"))?;
        ensure!(bytes.len() >= 32, "{signature}: short answer");
        Ok(U256::from_be_slice(&bytes[..32]))
    }

    /// Read a view function returning one address.
    pub fn view_address(
        &self,
        to: Address,
        signature: &str,
        args: &[Arg],
    ) -> anyhow::Result<Address> {
        let word = self.view_word(to, signature, args)?;
        Ok(Address::from_slice(&word.to_be_bytes::<32>()[12..]))
    }

    /// A keyless creator account, the `n`th: impersonated, given 1,000 ETH
    /// and 50 WETH (`weth`) to launch tokens and pools with.
    pub fn creator(&self, n: u64, weth: Address) -> anyhow::Result<Address> {
        let mut bytes = [0u8; 20];
        bytes[0] = 0x22;
        bytes[12..].copy_from_slice(&n.to_be_bytes());
        let creator = Address::from(bytes);
        self.impersonate(creator)?;
        self.call(
            "anvil_setBalance",
            json!([format!("{creator:#x}"), format!("{:#x}", e18(1_000))]),
        )?;
        self.send(creator, Some(weth), calldata("deposit()", &[]), e18(50))?;
        Ok(creator)
    }

    /// Let `account` send transactions (anvil impersonation) and give it gas money.
    pub fn impersonate(&self, account: Address) -> anyhow::Result<()> {
        self.call("anvil_impersonateAccount", json!([format!("{account:#x}")]))?;
        self.call(
            "anvil_setBalance",
            json!([format!("{account:#x}"), format!("{:#x}", e18(10))]),
        )?;
        Ok(())
    }

    /// The unlocked accounts.
    pub fn accounts(&self) -> anyhow::Result<Vec<Address>> {
        let list = self.call("eth_accounts", json!([]))?;
        list.as_array()
            .context("accounts")?
            .iter()
            .map(|a| Ok(a.as_str().context("account")?.parse()?))
            .collect()
    }

    /// The latest block number.
    pub fn block_number(&self) -> anyhow::Result<u64> {
        let n = self.call("eth_blockNumber", json!([]))?;
        Ok(u64::from_str_radix(
            n.as_str().context("hex")?.trim_start_matches("0x"),
            16,
        )?)
    }
}

/// A running anvil.
pub struct Anvil {
    child: Child,
    /// Its URL.
    pub url: String,
    /// Its home directory: anvil writes historical states under
    /// `$HOME/.foundry/anvil/tmp` (hundreds of MB per node) and never
    /// removes them when killed, so each node gets a home of its own,
    /// removed when it stops.
    home: std::path::PathBuf,
}

impl Anvil {
    /// Start anvil with `chain_id` on a free loopback port and wait until it answers.
    pub fn start(chain_id: u64) -> anyhow::Result<Anvil> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let home =
            std::env::temp_dir().join(format!("riskintel-anvil-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&home)?;
        let child = Command::new(anvil_path()?)
            .env("HOME", &home)
            .args([
                "--host",
                "127.0.0.1",
                "--port",
                &port.to_string(),
                "--chain-id",
                &chain_id.to_string(),
            ])
            .args([
                "--accounts",
                "12",
                "--balance",
                "100000",
                "--gas-limit",
                "100000000",
                "--silent",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("starting anvil")?;
        let anvil = Anvil {
            child,
            url: format!("http://127.0.0.1:{port}"),
            home,
        };
        let node = Node::new(&anvil.url);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if node.call("eth_chainId", json!([])).is_ok() {
                return Ok(anvil);
            }
            ensure!(
                Instant::now() < deadline,
                "anvil did not answer within 20 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stop the node.
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.home);
    }
}

impl Drop for Anvil {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A node of its own with the scenario deployed on it (for the tests and
/// benchmarks that slow, stop or load their node).
pub async fn own_scenario(chain_id: u64) -> anyhow::Result<(Anvil, RigChain)> {
    tokio::task::spawn_blocking(move || {
        let anvil = Anvil::start(chain_id)?;
        let chain = deploy_scenario(&anvil.url, chain_id, 0)?;
        Ok((anvil, chain))
    })
    .await?
}

/// What was deployed on one rig chain.
#[derive(Clone, Debug)]
pub struct RigChain {
    /// Node URL.
    pub url: String,
    /// Chain id.
    pub chain_id: u64,
    /// WETH9.
    pub weth: Address,
    /// Test USD (6 decimals).
    pub usd: Address,
    /// Uniswap V2 factory.
    pub factory: Address,
    /// Uniswap V2 Router02.
    pub router: Address,
    /// Uniswap V3 and PancakeSwap V3.
    pub v3: crate::v3_rig::V3Rig,
    /// Uniswap V4.
    pub v4: crate::v4_rig::V4Rig,
    /// Aerodrome (the Solidly family).
    pub solidly: crate::solidly_rig::SolidlyRig,
    /// Deployer (owner of the owned tokens).
    pub deployer: Address,
    /// The EOA used as proxy admin.
    pub proxy_admin: Address,
    /// An account with no code.
    pub eoa: Address,
    /// The wallet holding most of `whale`.
    pub whale_wallet: Address,
    /// Tokens by rig name.
    pub tokens: BTreeMap<&'static str, Address>,
    /// Who created (deployed, and first received) each token that the
    /// deployer did not: every trade token and corpus token has a creator
    /// of its own (or shares one on purpose), so a creator's record
    /// (`creator_history`) reaches only the tokens meant to share it.
    pub creators: BTreeMap<&'static str, Address>,
    /// Token/WETH pairs by rig name.
    pub pairs: BTreeMap<&'static str, Address>,
    /// USD price of WETH set by the rig.
    pub weth_usd: f64,
}

impl RigChain {
    /// A token's address, checksummed.
    pub fn token(&self, name: &str) -> String {
        self.tokens[name].to_checksum(None)
    }
}

/// WETH reserve of the WETH/TUSD pair, and the TUSD reserve: WETH = $3,000.
const PRICE_WETH: u64 = 100;
const PRICE_USD: u64 = 300_000;

/// A fresh random address.
pub fn random_address() -> Address {
    use rand::Rng;
    let mut bytes = [0u8; 20];
    rand::rng().fill(&mut bytes);
    Address::from(bytes)
}

/// The `n`th synthetic holder address the scenario distributes tokens to.
pub fn holder(n: u64) -> Address {
    let mut bytes = [0u8; 20];
    bytes[0] = 0x11;
    bytes[12..].copy_from_slice(&n.to_be_bytes());
    Address::from(bytes)
}

/// Hand 20,000 tokens of `token` from `from` to each of 30 synthetic
/// holders, numbered from `first_holder`.
pub fn distribute(
    node: &Node,
    from: Address,
    token: Address,
    first_holder: u64,
) -> anyhow::Result<()> {
    distribute_each(node, from, token, first_holder, e18(20_000))
}

/// Hand `each` of `token` from `from` to each of 30 synthetic holders,
/// numbered from `first_holder`.
pub fn distribute_each(
    node: &Node,
    from: Address,
    token: Address,
    first_holder: u64,
    each: U256,
) -> anyhow::Result<()> {
    for i in 0..30 {
        node.exec(
            from,
            token,
            "transfer(address,uint256)",
            &[Arg::Addr(holder(first_holder + i)), Arg::Uint(each)],
        )?;
    }
    Ok(())
}

/// Deploy the whole scenario on a fresh node. `salt` deploys that many
/// throw-away contracts first, so the addresses differ between chains.
/// Create a pair of `token` and `quote` on `factory` and add liquidity from `from`; the pair.
#[allow(clippy::too_many_arguments)]
pub fn add_pool(
    node: &Node,
    from: Address,
    factory: Address,
    token: Address,
    token_amount: U256,
    quote: Address,
    quote_amount: U256,
    lp_to: Address,
) -> anyhow::Result<Address> {
    node.exec(
        from,
        factory,
        "createPair(address,address)",
        &[Arg::Addr(token), Arg::Addr(quote)],
    )?;
    let pair = node.view_address(
        factory,
        "getPair(address,address)",
        &[Arg::Addr(token), Arg::Addr(quote)],
    )?;
    node.exec(
        from,
        token,
        "transfer(address,uint256)",
        &[Arg::Addr(pair), Arg::Uint(token_amount)],
    )?;
    node.exec(
        from,
        quote,
        "transfer(address,uint256)",
        &[Arg::Addr(pair), Arg::Uint(quote_amount)],
    )?;
    node.exec(from, pair, "mint(address)", &[Arg::Addr(lp_to)])?;
    Ok(pair)
}

/// The base every scenario stands on: our Multicall3 at the canonical
/// address, WETH9 (funded), a USD stablecoin, the Uniswap V2 factory and
/// router, and a WETH/USD pool pricing WETH at $3,000. `salt` throw-away
/// contracts are deployed first, so addresses differ between chains.
pub fn deploy_base(url: &str, chain_id: u64, salt: usize) -> anyhow::Result<RigChain> {
    let node = Node::new(url);
    let accounts = node.accounts()?;
    let deployer = accounts[0];
    for _ in 0..salt {
        node.deploy(deployer, "NotAToken", &[])?;
    }
    let multicall: Address = MULTICALL3.parse()?;
    let runtime = artifact("Multicall3")?
        .deployed
        .context("Multicall3 runtime code")?;
    node.set_code(multicall, &runtime)?;
    let weth = node.deploy(deployer, "WETH9", &[])?;
    node.send(
        deployer,
        Some(weth),
        calldata("deposit()", &[]),
        e18(10_000),
    )?;
    let usd = node.deploy(
        deployer,
        "TestUSD",
        &[Arg::Uint(
            U256::from(1_000_000_000_000u64) * U256::from(1_000_000u64),
        )],
    )?;
    let factory = node.deploy(deployer, "UniswapV2Factory", &[Arg::Addr(deployer)])?;
    let router = node.deploy(
        deployer,
        "UniswapV2Router02",
        &[Arg::Addr(factory), Arg::Addr(weth)],
    )?;
    let v3 = crate::v3_rig::deploy(&node, deployer, weth)?;
    let v4 = crate::v4_rig::deploy(&node, deployer)?;
    let solidly = crate::solidly_rig::deploy(&node, deployer, weth)?;
    add_pool(
        &node,
        deployer,
        factory,
        weth,
        e18(PRICE_WETH),
        usd,
        U256::from(PRICE_USD) * U256::from(1_000_000u64),
        deployer,
    )?;
    Ok(RigChain {
        url: url.to_string(),
        chain_id,
        weth,
        usd,
        factory,
        router,
        v3,
        v4,
        solidly,
        deployer,
        proxy_admin: accounts[1],
        eoa: accounts[9],
        whale_wallet: accounts[2],
        tokens: BTreeMap::new(),
        pairs: BTreeMap::new(),
        creators: BTreeMap::new(),
        weth_usd: PRICE_USD as f64 / PRICE_WETH as f64,
    })
}

/// Deploy the whole scenario on a fresh node (see [`deploy_base`] for `salt`).
pub fn deploy_scenario(url: &str, chain_id: u64, salt: usize) -> anyhow::Result<RigChain> {
    let base = deploy_base(url, chain_id, salt)?;
    let node = Node::new(url);
    let accounts = node.accounts()?;
    let (deployer, weth, factory) = (base.deployer, base.weth, base.factory);
    let u = |n: u64| Arg::Uint(U256::from(n));
    let dead: Address = DEAD.parse()?;
    let make_pair =
        |token: Address, token_amount: U256, quote: Address, quote_amount: U256, lp_to: Address| {
            add_pool(
                &node,
                deployer,
                factory,
                token,
                token_amount,
                quote,
                quote_amount,
                lp_to,
            )
        };

    let mut tokens = BTreeMap::new();
    let mut pairs = BTreeMap::new();
    let supply = e18(1_000_000);
    let named = |n: &str, s: &str| vec![Arg::Str(n.into()), Arg::Str(s.into()), Arg::Uint(supply)];
    // 40% to the pool with 10 WETH ($60,000 of liquidity), 60% to 30 holders.
    let mut standard = |name: &'static str,
                        token: Address,
                        lp_to: Address,
                        first_holder: u64|
     -> anyhow::Result<()> {
        let pair = make_pair(token, e18(400_000), weth, e18(10), lp_to)?;
        distribute(&node, deployer, token, first_holder)?;
        tokens.insert(name, token);
        pairs.insert(name, pair);
        Ok(())
    };
    standard(
        "plain",
        node.deploy(deployer, "PlainToken", &named("Plain Token", "PLAIN"))?,
        dead,
        1_000,
    )?;
    // The owner keeps the LP tokens of this one.
    standard(
        "mintable",
        node.deploy(deployer, "MintableToken", &named("Mintable Token", "MINT"))?,
        deployer,
        2_000,
    )?;
    standard(
        "blacklist",
        node.deploy(
            deployer,
            "BlacklistToken",
            &named("Blacklist Token", "BLOCK"),
        )?,
        dead,
        3_000,
    )?;
    standard(
        "pausable",
        node.deploy(deployer, "PausableToken", &named("Pausable Token", "PAUSE"))?,
        dead,
        4_000,
    )?;
    let renounced = node.deploy(
        deployer,
        "RenounceableToken",
        &named("Renounced Token", "RNC"),
    )?;
    standard("renounced", renounced, dead, 5_000)?;
    node.exec(deployer, renounced, "renounceOwnership()", &[])?;
    let proxy_admin = accounts[1];
    let logic = node.deploy(deployer, "UpgradeableTokenLogic", &[])?;
    let init = calldata(
        "initialize(string,string,uint256,address)",
        &[
            Arg::Str("Proxy Token".into()),
            Arg::Str("PRX".into()),
            Arg::Uint(supply),
            Arg::Addr(deployer),
        ],
    );
    let proxy = node.deploy(
        deployer,
        "TestProxy",
        &[Arg::Addr(logic), Arg::Addr(proxy_admin), Arg::Bytes(init)],
    )?;
    standard("proxy", proxy, dead, 6_000)?;
    // No owner, but the creator kept the LP tokens.
    standard(
        "creatorlp",
        node.deploy(deployer, "PlainToken", &named("Creator LP Token", "CLP"))?,
        deployer,
        11_000,
    )?;

    // One wallet holds 80%.
    let whale_wallet = accounts[2];
    let whale = node.deploy(deployer, "PlainToken", &named("Whale Token", "WHALE"))?;
    let pair = make_pair(whale, e18(100_000), weth, e18(10), dead)?;
    node.exec(
        deployer,
        whale,
        "transfer(address,uint256)",
        &[Arg::Addr(whale_wallet), Arg::Uint(e18(800_000))],
    )?;
    for i in 0..10 {
        node.exec(
            deployer,
            whale,
            "transfer(address,uint256)",
            &[Arg::Addr(holder(7_000 + i)), Arg::Uint(e18(10_000))],
        )?;
    }
    tokens.insert("whale", whale);
    pairs.insert("whale", pair);

    // Almost no liquidity: 0.5 WETH ($3,000 of liquidity).
    let thin = node.deploy(deployer, "PlainToken", &named("Thin Token", "THIN"))?;
    let pair = make_pair(thin, e18(400_000), weth, e18(1) / U256::from(2), dead)?;
    distribute(&node, deployer, thin, 8_000)?;
    tokens.insert("thin", thin);
    pairs.insert("thin", pair);

    // Trade behaviours, found only by simulating trades.
    let trade_tokens: [(&'static str, &str, Vec<Arg>); 7] = [
        (
            "sellrevert",
            "SellRevertToken",
            named("Sell Revert", "NOSELL"),
        ),
        (
            "whitelist",
            "WhitelistSellToken",
            named("Whitelist Sell", "WLIST"),
        ),
        ("tax99", "HighSellTaxToken", named("Tax 99", "TAX99")),
        ("trap", "BuyerTrapToken", named("Buyer Trap", "TRAP")),
        (
            "maxsell",
            "MaxSellToken",
            vec![
                Arg::Str("Max Sell".into()),
                Arg::Str("MAXS".into()),
                Arg::Uint(supply),
                Arg::Uint(e18(10)),
            ],
        ),
        ("gated", "TradingGateToken", named("Trading Gate", "GATE")),
        ("fee3", "FeeOnTransferToken", named("Fee Three", "FEE3")),
    ];
    let mut creators = BTreeMap::new();
    for (i, (name, contract, args)) in trade_tokens.into_iter().enumerate() {
        let creator = node.creator(100 + i as u64, weth)?;
        let token = node.deploy(creator, contract, &args)?;
        let pair = add_pool(
            &node,
            creator,
            factory,
            token,
            e18(400_000),
            weth,
            e18(10),
            dead,
        )?;
        if contract != "FeeOnTransferToken" {
            node.exec(creator, token, "setPair(address)", &[Arg::Addr(pair)])?;
        }
        distribute(&node, creator, token, 10_000 + 100 * i as u64)?;
        tokens.insert(name, token);
        creators.insert(name, creator);
        pairs.insert(name, pair);
    }

    // Paired only with the stablecoin: the simulator buys TUSD with WETH first.
    // The last is the anti-bot launch token below traded only against the
    // stablecoin (its own WETH pair left empty): no wallet's trade runs
    // there, so the simulator contract's sell, refused by the pool once the
    // token took it all, is all there is.
    let marketing = holder(29_000);
    let usd_tokens = [
        ("usdplain", "PlainToken"),
        ("usdtrap", "SellRevertToken"),
        ("antibotusd", "ShibaSniperGuard"),
    ];
    for (i, (name, contract)) in usd_tokens.into_iter().enumerate() {
        let creator = node.creator(120 + i as u64, weth)?;
        let usd = U256::from(30_000u64) * U256::from(1_000_000u64);
        node.exec(
            deployer,
            base.usd,
            "transfer(address,uint256)",
            &[Arg::Addr(creator), Arg::Uint(usd)],
        )?;
        let args = match contract {
            "ShibaSniperGuard" => vec![Arg::Addr(base.router), Arg::Addr(marketing)],
            _ => named(&format!("{name} token"), &name.to_ascii_uppercase()),
        };
        let token = node.deploy(creator, contract, &args)?;
        let pair = add_pool(
            &node,
            creator,
            factory,
            token,
            e18(400_000),
            base.usd,
            usd,
            dead,
        )?;
        match contract {
            "PlainToken" => {}
            "ShibaSniperGuard" => node.exec(
                creator,
                token,
                "setAutomatedMarketMakerPair(address,bool)",
                &[Arg::Addr(pair), Arg::Bool(true)],
            )?,
            _ => node.exec(creator, token, "setPair(address)", &[Arg::Addr(pair)])?,
        }
        distribute(&node, creator, token, 20_000 + 100 * i as u64)?;
        tokens.insert(name, token);
        creators.insert(name, creator);
        pairs.insert(name, pair);
    }

    // A launch token written as they commonly are (contracts/AntiBot.sol):
    // its constructor makes the pair through the router's factory, and its
    // "anti-bot" rule takes the whole sell of any contract seller; every
    // wallet trades with a 5% fee.
    let creator = node.creator(130, weth)?;
    let token = node.deploy(
        creator,
        "ShibaSniperGuard",
        &[Arg::Addr(base.router), Arg::Addr(marketing)],
    )?;
    let pair = node.view_address(token, "uniswapV2Pair()", &[])?;
    for (asset, amount) in [(token, e18(400_000)), (weth, e18(10))] {
        node.exec(
            creator,
            asset,
            "transfer(address,uint256)",
            &[Arg::Addr(pair), Arg::Uint(amount)],
        )?;
    }
    node.exec(creator, pair, "mint(address)", &[Arg::Addr(dead)])?;
    distribute(&node, creator, token, 25_000)?;
    tokens.insert("antibot", token);
    creators.insert("antibot", creator);
    pairs.insert("antibot", pair);

    tokens.insert("notoken", node.deploy(deployer, "NotAToken", &[])?);
    let old_style = node.deploy(deployer, "Bytes32Token", &[u(1_000_000)])?;
    tokens.insert("bytes32", old_style);

    // The adversarial corpus (see `corpus`).
    for (name, token, pair, creator) in crate::corpus::deploy(&node, &base)? {
        tokens.insert(name, token);
        pairs.insert(name, pair);
        creators.insert(name, creator);
    }

    // Everything above is a month old; what follows is new.
    node.call("evm_increaseTime", json!([30 * 86_400]))?;
    node.call("evm_mine", json!([]))?;
    let fresh = node.deploy(deployer, "PlainToken", &named("Fresh Token", "FRESH"))?;
    let pair = make_pair(fresh, e18(400_000), weth, e18(10), dead)?;
    distribute(&node, deployer, fresh, 9_000)?;
    tokens.insert("fresh", fresh);
    pairs.insert("fresh", pair);

    Ok(RigChain {
        proxy_admin,
        eoa: accounts[9],
        whale_wallet,
        tokens,
        pairs,
        creators,
        ..base
    })
}

/// Buy `token` with `eth` through the router, from `buyer`.
pub fn buy(
    node: &Node,
    chain: &RigChain,
    buyer: Address,
    token: Address,
    eth: U256,
) -> anyhow::Result<()> {
    let data = calldata(
        "swapExactETHForTokens(uint256,address[],address,uint256)",
        &[
            Arg::Uint(U256::ZERO),
            Arg::Addrs(vec![chain.weth, token]),
            Arg::Addr(buyer),
            Arg::Uint(U256::from(u64::MAX)),
        ],
    );
    node.send(buyer, Some(chain.router), data, eth).map(|_| ())
}

/// Sell `amount` of `token` for ETH through the router, from `seller`.
pub fn sell(
    node: &Node,
    chain: &RigChain,
    seller: Address,
    token: Address,
    amount: U256,
) -> anyhow::Result<()> {
    approve_and_sell(node, chain, seller, token, amount, false)
}

/// Approve the router for `amount` and sell it (see [`sell_calldata`]).
fn approve_and_sell(
    node: &Node,
    chain: &RigChain,
    seller: Address,
    token: Address,
    amount: U256,
    with_fee: bool,
) -> anyhow::Result<()> {
    node.exec(
        seller,
        token,
        "approve(address,uint256)",
        &[Arg::Addr(chain.router), Arg::Uint(amount)],
    )?;
    node.send(
        seller,
        Some(chain.router),
        sell_calldata(chain, seller, token, amount, with_fee),
        U256::ZERO,
    )
    .map(|_| ())
}

/// A router sell of `amount` of `token` for ETH to `seller`; through the
/// fee-on-transfer path (which checks only what arrives) when `with_fee`.
fn sell_calldata(
    chain: &RigChain,
    seller: Address,
    token: Address,
    amount: U256,
    with_fee: bool,
) -> Vec<u8> {
    let signature = if with_fee {
        "swapExactTokensForETHSupportingFeeOnTransferTokens(uint256,uint256,address[],address,uint256)"
    } else {
        "swapExactTokensForETH(uint256,uint256,address[],address,uint256)"
    };
    let path = Arg::Addrs(vec![token, chain.weth]);
    calldata(
        signature,
        &[
            Arg::Uint(amount),
            Arg::Uint(U256::ZERO),
            path,
            Arg::Addr(seller),
            Arg::Uint(U256::from(u64::MAX)),
        ],
    )
}

/// Sell `amount` of `token` for ETH through the router's fee-on-transfer
/// path (which checks only what arrives), from `seller`.
pub fn sell_with_fee(
    node: &Node,
    chain: &RigChain,
    seller: Address,
    token: Address,
    amount: U256,
) -> anyhow::Result<()> {
    approve_and_sell(node, chain, seller, token, amount, true)
}

/// Send (without waiting to be mined) a router sell of `amount` of
/// `token` from `seller`, which has approved the router; the transaction hash.
pub fn send_sell(
    node: &Node,
    chain: &RigChain,
    seller: Address,
    token: Address,
    amount: U256,
) -> anyhow::Result<Value> {
    let data = sell_calldata(chain, seller, token, amount, false);
    let tx = json!({"from": format!("{seller:#x}"), "to": format!("{:#x}", chain.router), "data": format!("0x{}", hex::encode(data)), "gas": "0x7a1200"});
    node.call("eth_sendTransaction", json!([tx]))
}

/// Two chains with separate anvils, shared by the tests of one process.
pub struct Rig {
    /// Served as `eth` by test servers.
    pub a: RigChain,
    /// Served as `bsc`, with other addresses and chain id.
    pub b: RigChain,
}

fn processes() -> &'static Mutex<Vec<Anvil>> {
    static PROCESSES: OnceLock<Mutex<Vec<Anvil>>> = OnceLock::new();
    PROCESSES.get_or_init(|| Mutex::new(Vec::new()))
}

/// The shared rig, started on first use (from any runtime).
pub fn shared() -> anyhow::Result<&'static Rig> {
    static RIG: OnceLock<Result<Rig, String>> = OnceLock::new();
    let rig = RIG.get_or_init(|| {
        std::thread::spawn(|| -> anyhow::Result<Rig> {
            let a_node = Anvil::start(31337)?;
            let b_node = Anvil::start(31338)?;
            let a = deploy_scenario(&a_node.url, 31337, 0)?;
            let b = deploy_scenario(&b_node.url, 31338, 3)?;
            keep_until_exit(vec![a_node, b_node]);
            Ok(Rig { a, b })
        })
        .join()
        .map_err(|_| "rig set-up panicked".to_string())
        .and_then(|r| r.map_err(|e| format!("{e:#}")))
    });
    rig.as_ref().map_err(|e| anyhow::anyhow!("test rig: {e}"))
}

/// Keep `nodes` running until the process exits (see [`stop_at_exit`]).
pub(crate) fn keep_until_exit(nodes: Vec<Anvil>) {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    processes().lock().expect("rig lock").extend(nodes);
    REGISTERED.call_once(|| {
        // SAFETY: registers a function that takes nothing and returns
        // nothing, as `atexit` expects; it runs once, at exit.
        unsafe {
            libc::atexit(stop_at_exit);
        }
    });
}

/// Stop the shared rig's nodes when the process exits normally, whether its
/// tests passed or failed (not when it is killed by a signal): a static is
/// never dropped, and an anvil left running keeps its gigabyte of state in
/// the temporary directory.
extern "C" fn stop_at_exit() {
    let mut list = processes().lock().unwrap_or_else(|p| p.into_inner());
    list.clear();
}

/// Stop the shared rig's nodes (call at the end of the test process).
pub fn shutdown() {
    if let Ok(mut list) = processes().lock() {
        list.clear();
    }
}

/// The server configuration for serving rig chains: `(chain id, rig chain)`.
/// Every other chain is left without an RPC URL, so nothing else is called.
pub fn chains_config(
    served: &[(&str, &RigChain)],
) -> BTreeMap<String, riskintel_server::chains::ChainConfig> {
    use riskintel_server::chains::{ChainConfig, ConfiguredToken, DexConfig, DexKind};
    let mut chains: BTreeMap<String, ChainConfig> = BTreeMap::new();
    for (id, chain) in served {
        chains.insert(
            id.to_string(),
            ChainConfig {
                rpc_url: chain.url.clone(),
                multicall3: MULTICALL3.into(),
                wrapped_native: ConfiguredToken {
                    address: chain.weth.to_checksum(None),
                    symbol: "WETH".into(),
                    decimals: 18,
                },
                stablecoins: vec![ConfiguredToken {
                    address: chain.usd.to_checksum(None),
                    symbol: "TUSD".into(),
                    decimals: 6,
                }],
                dexes: vec![
                    DexConfig::v2(
                        "Rig Uniswap V2",
                        &chain.factory.to_checksum(None),
                        &chain.router.to_checksum(None),
                        30,
                    ),
                    DexConfig::v3(
                        DexKind::V3,
                        "Rig Uniswap V3",
                        &chain.v3.factory.to_checksum(None),
                        &chain.v3.router.to_checksum(None),
                        &chain.v3.position_manager.to_checksum(None),
                    ),
                    // PancakeSwap ships no position manager: LP ownership of its pools is not read.
                    DexConfig::v3(
                        DexKind::PancakeV3,
                        "Rig PancakeSwap V3",
                        &chain.v3.pancake_factory.to_checksum(None),
                        &chain.v3.router.to_checksum(None),
                        "",
                    ),
                    // V4 positions are not enumerable by holder: no position manager.
                    DexConfig::v3(
                        DexKind::V4,
                        "Rig Uniswap V4",
                        &chain.v4.manager.to_checksum(None),
                        &chain.v4.swaps.to_checksum(None),
                        "",
                    ),
                    DexConfig::solidly(
                        DexKind::Aerodrome,
                        "Rig Aerodrome",
                        &chain.solidly.factory.to_checksum(None),
                        &chain.solidly.router.to_checksum(None),
                    ),
                ],
                lp_lockers: Vec::new(),
                price_pool: String::new(),
                price_pools: Vec::new(),
            },
        );
    }
    chains
}
