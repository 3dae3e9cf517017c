//! Launching a labelled token as its creator would (see `main.rs`).

use alloy_dyn_abi::{DynSolType, DynSolValue};
use alloy_primitives::{Address, U256};
use anyhow::{bail, Context as _};
use riskintel_tests::rig::{self, e18, Arg, Node, RigChain, DEAD};
use serde_json::Value;

use super::{Compiled, Launched};

/// Words in the names of functions that make supply, and of functions that
/// let a token move where it starts locked.
const MINTS: [&str; 7] = [
    "mint", "generate", "create", "issue", "emit", "allocate", "make",
];
const UNLOCKS: [&str; 10] = [
    "enable", "unlock", "unfreeze", "defrost", "release", "start", "open", "unpause", "thaw",
    "activate",
];

/// Launch `token` as its creator would (see the module's text).
pub(crate) fn launch(
    node: &Node,
    chain: &RigChain,
    n: u64,
    token: &Compiled,
) -> anyhow::Result<Launched> {
    let creator = node.creator(1_000 + n, chain.weth)?;
    let mut data = token.bytecode.clone();
    // Its libraries first, each address written where the code links it.
    for (code, offsets) in &token.libraries {
        let (library, _) = deploy(node, creator, code.clone()).context("deploy a library")?;
        for &at in offsets {
            data.get_mut(at..at + 20)
                .context("a library offset past the code")?
                .copy_from_slice(library.as_slice());
        }
    }
    data.extend(constructor_args(&token.abi, creator, chain.router)?);
    let (address, receipt) = deploy(node, creator, data)?;
    open(node, chain, n, &token.abi, creator, address, &receipt)
}

/// PancakeSwap V2's router and WBNB, as a token's code names them.
const BNB_CHAIN_NAMES: [&str; 2] = [
    "10ed43c718714eb63d5aa57b78b54704e256024e",
    "bb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c",
];

/// Whether `bytecode` names BNB Chain's router or wrapped native currency
/// (the chain its creator wrote it for).
pub(crate) fn names_bnb_chain(bytecode: &[u8]) -> bool {
    let code = hex::encode(bytecode);
    BNB_CHAIN_NAMES.iter().any(|name| code.contains(name))
}

/// Deploy `data` (code and constructor arguments) from `creator`: the
/// contract's address and the deployment's receipt.
pub(crate) fn deploy(
    node: &Node,
    creator: Address,
    data: Vec<u8>,
) -> anyhow::Result<(Address, Value)> {
    let receipt = node
        .send(creator, None, data, U256::ZERO)
        .context("deploy")?;
    let address: Address = receipt["contractAddress"]
        .as_str()
        .context("no contract address")?
        .parse()?;
    Ok((address, receipt))
}

/// Launch the deployed `address` (deployed by `creator`, `receipt`) as its
/// creator would: a pool, holders, a fresh wallet's trade.
pub(crate) fn open(
    node: &Node,
    chain: &RigChain,
    n: u64,
    abi: &[Value],
    creator: Address,
    address: Address,
    receipt: &Value,
) -> anyhow::Result<Launched> {
    let balance = |who: Address| node.view_word(address, "balanceOf(address)", &[Arg::Addr(who)]);
    let mut notes = Vec::new();
    // Whoever the constructor gave the supply to launches it (a wallet the
    // source names, the owner it sets): found in the deployment's Transfer
    // events, acted as by impersonation.
    let mut holder = creator;
    if balance(creator)?.is_zero() {
        if let Some(to) = largest_recipient(receipt, address) {
            node.impersonate(to)?;
            node.call(
                "anvil_setBalance",
                serde_json::json!([format!("{to:#x}"), format!("{:#x}", e18(1_000))]),
            )?;
            node.send(
                to,
                Some(chain.weth),
                rig::calldata("deposit()", &[]),
                e18(50),
            )?;
            holder = to;
            notes.push(format!("supply held by {to:#x}"));
        }
    }
    if balance(holder)?.is_zero() {
        // Tokens minted after deployment: the creator mints its own supply,
        // by whichever function makes it, at the largest amount it takes.
        let minted = mint_own_supply(node, abi, address, creator)?;
        match minted {
            Some(f) => {
                holder = creator;
                notes.push(format!("supply by {f}"));
            }
            None => bail!("its creator holds none of it after deployment"),
        }
    }
    let supply = balance(holder)?;
    let pair = match node.view_address(
        chain.factory,
        "getPair(address,address)",
        &[Arg::Addr(address), Arg::Addr(chain.weth)],
    )? {
        pair if pair.is_zero() => {
            node.exec(
                holder,
                chain.factory,
                "createPair(address,address)",
                &[Arg::Addr(address), Arg::Addr(chain.weth)],
            )?;
            node.view_address(
                chain.factory,
                "getPair(address,address)",
                &[Arg::Addr(address), Arg::Addr(chain.weth)],
            )?
        }
        pair => pair,
    };
    let dead: Address = DEAD.parse()?;
    let fill = || -> anyhow::Result<()> {
        let to_pool = supply * U256::from(4u64) / U256::from(10u64);
        node.exec(
            holder,
            address,
            "transfer(address,uint256)",
            &[Arg::Addr(pair), Arg::Uint(to_pool)],
        )?;
        node.exec(
            holder,
            chain.weth,
            "transfer(address,uint256)",
            &[Arg::Addr(pair), Arg::Uint(e18(10))],
        )?;
        node.exec(holder, pair, "mint(address)", &[Arg::Addr(dead)])
    };
    let mut opened = false;
    if fill().is_err() {
        let unlocked = open_trading(node, abi, address, holder);
        opened = true;
        fill().with_context(|| {
            format!("its holder cannot fill a pool (unlocks tried: {unlocked:?})")
        })?;
        notes.push(format!("unlocked by {}", unlocked.join(",")));
    }
    rig::distribute_each(
        node,
        holder,
        address,
        500_000 + 100 * n,
        supply / U256::from(100u64),
    )
    .context("its holder cannot hand it to holders")?;
    let trade = || -> anyhow::Result<bool> {
        let buyer = rig::random_address();
        node.impersonate(buyer)?;
        Ok(
            rig::buy(node, chain, buyer, address, e18(1) / U256::from(10u64)).is_ok()
                && balance(buyer).is_ok_and(|b| !b.is_zero())
                && rig::sell_with_fee(
                    node,
                    chain,
                    buyer,
                    address,
                    balance(buyer)? / U256::from(2u64),
                )
                .is_ok(),
        )
    };
    let mut traded = trade()?;
    if !traded && !opened {
        // A token that starts closed is opened by its creator at launch.
        let unlocked = open_trading(node, abi, address, holder);
        traded = trade()?;
        if traded {
            notes.push(format!("opened by {}", unlocked.join(",")));
        }
    }
    Ok(Launched {
        token: address,
        chain: if chain.chain_id == 56 { "bsc" } else { "eth" },
        traded,
        note: notes.join("; "),
    })
}

/// The token's state-changing functions whose names hold one of `words`:
/// (name, input types).
fn functions(abi: &[Value], words: &[&str]) -> Vec<(String, Vec<String>)> {
    (abi.iter())
        .filter(|f| f["type"] == "function" && f["constant"] != true)
        .filter(|f| !matches!(f["stateMutability"].as_str(), Some("view" | "pure")))
        .filter_map(|f| {
            let name = f["name"].as_str()?;
            let lower = name.to_ascii_lowercase();
            words.iter().any(|w| lower.contains(w)).then_some(())?;
            let inputs = (f["inputs"].as_array()?.iter())
                .map(|i| i["type"].as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()?;
            Some((name.to_string(), inputs))
        })
        .collect()
}

/// What a creator calls to open its token: each function named to unlock
/// with no argument or `true`, and each setter named to lock with `false`
/// (`setLocked(false)`); the ones that went through.
fn open_trading(node: &Node, abi: &[Value], token: Address, holder: Address) -> Vec<String> {
    let opening = functions(abi, &UNLOCKS)
        .into_iter()
        .filter(|(_, inputs)| inputs.is_empty() || inputs == &["bool"])
        .map(|f| (f, true));
    let closing = functions(abi, &["lock", "freeze", "pause", "stop"])
        .into_iter()
        .filter(|(name, inputs)| {
            let lower = name.to_ascii_lowercase();
            inputs == &["bool"] && !UNLOCKS.iter().any(|w| lower.contains(w))
        })
        .map(|f| (f, false));
    opening
        .chain(closing)
        .filter(|((name, inputs), value)| {
            let values = inputs.iter().map(|_| DynSolValue::Bool(*value)).collect();
            node.send(holder, Some(token), call(name, inputs, values), U256::ZERO)
                .is_ok()
        })
        .map(|((name, _), value)| format!("{name}({value})"))
        .collect()
}

/// Calldata of `name(inputs)` with `values`.
fn call(name: &str, inputs: &[String], values: Vec<DynSolValue>) -> Vec<u8> {
    let signature = format!("{name}({})", inputs.join(","));
    let mut data = alloy_primitives::keccak256(signature.as_bytes())[..4].to_vec();
    data.extend(DynSolValue::Tuple(values).abi_encode_params());
    data
}

/// Mint the creator's own supply: each supply-making function of the
/// shapes `(address, amount)`, `(amount)` or `(address[], amount[])`,
/// with amounts from 10^27 down, until the creator's balance rises.
fn mint_own_supply(
    node: &Node,
    abi: &[Value],
    token: Address,
    creator: Address,
) -> anyhow::Result<Option<String>> {
    let balance = || node.view_word(token, "balanceOf(address)", &[Arg::Addr(creator)]);
    for (name, inputs) in functions(abi, &MINTS) {
        let shape: Vec<&str> = inputs
            .iter()
            .map(|t| t.trim_end_matches(char::is_numeric))
            .collect();
        for exponent in [27u32, 24, 21, 18, 9] {
            let amount = U256::from(10u64).pow(U256::from(exponent));
            let uint = |t: &str| {
                let bits = t.trim_start_matches("uint").parse().unwrap_or(256);
                DynSolValue::Uint(amount, bits)
            };
            let values = match shape.as_slice() {
                ["address", "uint"] => vec![DynSolValue::Address(creator), uint(&inputs[1])],
                ["uint"] => vec![uint(&inputs[0])],
                ["address[]", "uint[]"] => vec![
                    DynSolValue::Array(vec![DynSolValue::Address(creator)]),
                    DynSolValue::Array(vec![uint(inputs[1].trim_end_matches("[]"))]),
                ],
                _ => break,
            };
            let sent = node.send(
                creator,
                Some(token),
                call(&name, &inputs, values),
                U256::ZERO,
            );
            if sent.is_ok() && !balance()?.is_zero() {
                return Ok(Some(name));
            }
        }
    }
    Ok(None)
}

/// The address the deployment's `Transfer` events of `token` gave the most.
fn largest_recipient(receipt: &Value, token: Address) -> Option<Address> {
    let transfer = alloy_primitives::keccak256("Transfer(address,address,uint256)");
    (receipt["logs"].as_array()?.iter())
        .filter(|log| {
            log["address"]
                .as_str()
                .and_then(|a| a.parse::<Address>().ok())
                == Some(token)
        })
        .filter_map(|log| {
            let topics = log["topics"].as_array()?;
            (topics.first()?.as_str()? == format!("{transfer:#x}")).then_some(())?;
            let to = topics.get(2)?.as_str()?;
            let to = Address::from_slice(&hex::decode(to.trim_start_matches("0x")).ok()?[12..]);
            let data = hex::decode(log["data"].as_str()?.trim_start_matches("0x")).ok()?;
            Some((U256::from_be_slice(data.get(..32)?), to))
        })
        .filter(|(_, to)| !to.is_zero())
        .max()
        .map(|(_, to)| to)
}

/// Constructor arguments made from their types and names: the chain's V2
/// router for an address named a router, the creator for other addresses,
/// 18 for decimals, a billion for amounts, a name and a symbol.
fn constructor_args(abi: &[Value], creator: Address, router: Address) -> anyhow::Result<Vec<u8>> {
    let Some(inputs) = abi
        .iter()
        .find(|f| f["type"] == "constructor")
        .and_then(|c| c["inputs"].as_array())
    else {
        return Ok(Vec::new());
    };
    let mut values = Vec::new();
    for input in inputs {
        let kind: DynSolType = input["type"].as_str().unwrap_or_default().parse()?;
        let name = input["name"]
            .as_str()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let who = if name.contains("router") {
            router
        } else {
            creator
        };
        values.push(value_of(&kind, &name, who));
    }
    Ok(DynSolValue::Tuple(values).abi_encode_params())
}

fn value_of(kind: &DynSolType, name: &str, creator: Address) -> DynSolValue {
    let amount = |bits: usize| {
        let n = if bits <= 8 || name.contains("decimal") {
            18u64
        } else {
            1_000_000_000
        };
        U256::from(n)
    };
    match kind {
        DynSolType::Address => DynSolValue::Address(creator),
        DynSolType::Bool => DynSolValue::Bool(false),
        DynSolType::Uint(bits) => DynSolValue::Uint(amount(*bits), *bits),
        DynSolType::Int(bits) => DynSolValue::Int(
            alloy_primitives::I256::try_from(amount(*bits)).unwrap_or_default(),
            *bits,
        ),
        DynSolType::String if name.contains("symbol") => DynSolValue::String("WILD".into()),
        DynSolType::String => DynSolValue::String("Wild Token".into()),
        DynSolType::Bytes => DynSolValue::Bytes(Vec::new()),
        DynSolType::FixedBytes(size) => DynSolValue::FixedBytes(Default::default(), *size),
        DynSolType::Array(_) => DynSolValue::Array(Vec::new()),
        DynSolType::FixedArray(inner, len) => {
            DynSolValue::FixedArray(vec![value_of(inner, name, creator); *len])
        }
        DynSolType::Tuple(parts) => {
            DynSolValue::Tuple(parts.iter().map(|p| value_of(p, name, creator)).collect())
        }
        _ => DynSolValue::Uint(U256::ZERO, 256),
    }
}
