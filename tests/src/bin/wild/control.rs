//! The legitimate control set (`cargo xtask wild --control`): widely used
//! tokens from their own repositories at pinned commits
//! (`tests/wild/control.json`, compiled by `rig/wild_control.js`), each
//! deployed with the arguments its entry gives, launched as the labelled
//! tokens are (a pool, 30 holders, a fresh wallet's trade), its powers then
//! handed as on its mainnet (a timelock with a two-day delay, renounced,
//! kept), and analysed cold. The report prints each token's band against
//! the bands its entry expected, written down before any run, with why.

use alloy_dyn_abi::{DynSolType, DynSolValue};
use alloy_primitives::{keccak256, Address, U256};
use anyhow::{bail, Context as _};
use riskintel_server::config::AllowlistEntry;
use riskintel_tests::rig::{self, e18, Arg, Node, RigChain, DEAD};
use serde::Deserialize;
use serde_json::Value;

use super::launch;

/// A token of the set as its entry and the compiler left it.
#[derive(Deserialize)]
struct Entry {
    name: String,
    category: String,
    repo: String,
    commit: String,
    source: String,
    contract: String,
    /// Constructor arguments, as recipes (see [`value`]).
    #[serde(default)]
    constructor: Vec<String>,
    /// Calls its creator makes before the launch (minting, unpausing).
    #[serde(default)]
    before: Vec<Step>,
    /// Calls that hand its powers as on its mainnet, after the launch.
    #[serde(default)]
    after: Vec<Step>,
    /// The bands it may be given.
    bands: Vec<String>,
    why: String,
    /// The regulated issuer the service's allowlist names, if any.
    #[serde(default)]
    issuer: Option<String>,
    /// Where the token's source hard-codes a router of another chain: the
    /// Uniswap V2 router's code is placed there first, as unchanged.
    #[serde(default)]
    router_at: Option<Address>,
    /// The chain's wrapped native currency itself: this build's code placed
    /// at its address, its state kept, analysed there.
    #[serde(default)]
    in_place_of_wrapped_native: bool,
    #[serde(default)]
    built: Option<Built>,
    #[serde(default)]
    error: Option<String>,
}

#[derive(Deserialize)]
struct Built {
    token: Artifact,
}

#[derive(Deserialize)]
struct Artifact {
    abi: Vec<Value>,
    bytecode: String,
    deployed: String,
}

/// One call of the creator's: its signature, its arguments as recipes.
#[derive(Deserialize)]
struct Step {
    call: String,
    #[serde(default)]
    args: Vec<String>,
    /// Ether sent with it, as a recipe.
    #[serde(default)]
    value: Option<String>,
    /// Who sends it: the creator (the default) or its agent.
    #[serde(default)]
    from: Option<String>,
}

/// What the harness deployed for the set: the timelock powers go to.
pub(crate) struct Shared {
    pub(crate) timelock: Address,
}

/// The delay of the timelock powers are handed to.
const TIMELOCK_DELAY: u64 = 2 * 86_400;

/// A row of the report.
pub(crate) struct Row {
    pub(crate) name: String,
    pub(crate) category: String,
    pub(crate) bands: Vec<String>,
    pub(crate) why: String,
    pub(crate) token: Address,
    pub(crate) traded: bool,
    pub(crate) issuer: Option<String>,
    /// Where its source came from: repository, commit, file and contract.
    pub(crate) from: String,
}

/// Read the compiled set in `dir`: the entries, and those that did not compile.
pub(crate) fn read(dir: &std::path::Path) -> anyhow::Result<Vec<serde_json::Value>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| Ok(serde_json::from_str(&std::fs::read_to_string(f)?)?))
        .collect()
}

/// Deploy the timelock powers are handed to.
pub(crate) fn shared(node: &Node, chain: &RigChain) -> anyhow::Result<Shared> {
    let admin = chain.deployer;
    let timelock = node.deploy(
        admin,
        "GovernanceTimelock",
        &[Arg::Uint(U256::from(TIMELOCK_DELAY)), Arg::Addr(admin)],
    )?;
    Ok(Shared { timelock })
}

/// Deploy and launch one entry; the row, or why it could not be.
pub(crate) fn launch_one(
    node: &Node,
    chain: &RigChain,
    shared: &Shared,
    n: u64,
    record: Value,
) -> Result<Row, (String, String)> {
    let entry: Entry = serde_json::from_value(record).map_err(|e| ("?".into(), e.to_string()))?;
    let name = entry.name.clone();
    launch_entry(node, chain, shared, n, entry).map_err(|e| (name, format!("{e:#}")))
}

fn launch_entry(
    node: &Node,
    chain: &RigChain,
    shared: &Shared,
    n: u64,
    entry: Entry,
) -> anyhow::Result<Row> {
    if let Some(error) = &entry.error {
        bail!("compile: {error}");
    }
    let built = entry.built.as_ref().context("not compiled")?;
    if let Some(at) = entry.router_at {
        let code = node.call(
            "eth_getCode",
            serde_json::json!([format!("{:#x}", chain.router), "latest"]),
        )?;
        node.call(
            "anvil_setCode",
            serde_json::json!([format!("{at:#x}"), code]),
        )?;
    }
    if entry.in_place_of_wrapped_native {
        let weth = format!("{:#x}", chain.weth);
        node.call(
            "anvil_setCode",
            serde_json::json!([weth, built.token.deployed]),
        )?;
        // What its constructor would have stored (the rig placed the code
        // without running it): the name, the symbol, the decimals.
        for (slot, text) in [(0u8, "Wrapped Ether"), (1, "WETH")] {
            let mut word = [0u8; 32];
            word[..text.len()].copy_from_slice(text.as_bytes());
            word[31] = 2 * text.len() as u8;
            node.call(
                "anvil_setStorageAt",
                serde_json::json!([
                    weth,
                    format!("{:#x}", U256::from(slot)),
                    format!("0x{}", hex::encode(word))
                ]),
            )?;
        }
        node.call(
            "anvil_setStorageAt",
            serde_json::json!([weth, "0x2", format!("{:#066x}", 18)]),
        )?;
        // As for every token of the set, its pool's LP is burned.
        let pair = node.view_address(
            chain.factory,
            "getPair(address,address)",
            &[Arg::Addr(chain.weth), Arg::Addr(chain.usd)],
        )?;
        let lp = node.view_word(pair, "balanceOf(address)", &[Arg::Addr(chain.deployer)])?;
        node.exec(
            chain.deployer,
            pair,
            "transfer(address,uint256)",
            &[Arg::Addr(DEAD.parse()?), Arg::Uint(lp)],
        )?;
        return Ok(Row {
            from: from(&entry),
            name: entry.name,
            category: entry.category,
            bands: entry.bands,
            why: entry.why,
            token: chain.weth,
            traded: true,
            issuer: entry.issuer,
        });
    }
    let creator = node.creator(2_000 + n, chain.weth)?;
    let agent = node.creator(2_500 + n, chain.weth)?;
    let latest = node.call("eth_getBlockByNumber", serde_json::json!(["latest", false]))?;
    let now = u64::from_str_radix(
        latest["timestamp"]
            .as_str()
            .context("a block time")?
            .trim_start_matches("0x"),
        16,
    )?;
    let ctx = Ctx {
        creator,
        agent,
        timelock: shared.timelock,
        now,
    };
    let inputs: Vec<DynSolType> = (built.token.abi.iter())
        .find(|f| f["type"] == "constructor")
        .and_then(|c| c["inputs"].as_array())
        .into_iter()
        .flatten()
        .map(|i| Ok(i["type"].as_str().unwrap_or_default().parse()?))
        .collect::<anyhow::Result<_>>()?;
    if inputs.len() != entry.constructor.len() {
        bail!(
            "the constructor takes {} arguments, the entry gives {}",
            inputs.len(),
            entry.constructor.len()
        );
    }
    let values = (inputs.iter().zip(&entry.constructor))
        .map(|(t, r)| value(t, r, &ctx))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut data = hex::decode(built.token.bytecode.trim_start_matches("0x"))?;
    data.extend(DynSolValue::Tuple(values).abi_encode_params());
    let (address, receipt) = launch::deploy(node, creator, data)?;
    for step in &entry.before {
        call(node, address, step, &ctx).with_context(|| format!("before: {}", step.call))?;
    }
    let launched = launch::open(
        node,
        chain,
        3_000 + n,
        &built.token.abi,
        creator,
        address,
        &receipt,
    )?;
    // A years-old token's supply is spread: what the creator kept goes
    // to 60 more holders, half a percent or so each.
    let kept = node.view_word(address, "balanceOf(address)", &[Arg::Addr(creator)])?;
    if !kept.is_zero() {
        for first in [700_000 + 100 * n, 700_030 + 100 * n] {
            rig::distribute_each(node, creator, address, first, kept / U256::from(61u64))
                .context("spreading the creator's supply")?;
        }
    }
    for step in &entry.after {
        call(node, address, step, &ctx).with_context(|| format!("after: {}", step.call))?;
    }
    Ok(Row {
        from: from(&entry),
        name: entry.name,
        category: entry.category,
        bands: entry.bands,
        why: entry.why,
        token: address,
        traded: launched.traded,
        issuer: entry.issuer,
    })
}

/// Where an entry's source comes from: repository, commit, file and contract.
fn from(entry: &Entry) -> String {
    format!(
        "{}@{} {}:{}",
        entry.repo,
        &entry.commit[..10.min(entry.commit.len())],
        entry.source,
        entry.contract
    )
}

/// What recipes are made from.
struct Ctx {
    creator: Address,
    agent: Address,
    timelock: Address,
    now: u64,
}

/// The value a recipe names, as `ty`: `creator`, `timelock`, `dead`,
/// `zero`, `days:N` (now plus N days), `e18:N`, `uint:N`, `str:TEXT`,
/// `bool:true`, `keccak:TEXT` (a role's hash), and `[recipe]` for an array
/// of one.
fn value(ty: &DynSolType, recipe: &str, ctx: &Ctx) -> anyhow::Result<DynSolValue> {
    let (kind, rest) = recipe.split_once(':').unwrap_or((recipe, ""));
    let number = |n: U256| match ty {
        DynSolType::Uint(bits) => Ok(DynSolValue::Uint(n, *bits)),
        other => bail!("{recipe} is a number, the argument is {other}"),
    };
    Ok(match (kind, ty) {
        (_, DynSolType::Array(inner)) if recipe.starts_with('[') => {
            let one = recipe.trim_start_matches('[').trim_end_matches(']');
            DynSolValue::Array(vec![value(inner, one, ctx)?])
        }
        ("creator", DynSolType::Address) => DynSolValue::Address(ctx.creator),
        ("agent", DynSolType::Address) => DynSolValue::Address(ctx.agent),
        ("timelock", DynSolType::Address) => DynSolValue::Address(ctx.timelock),
        ("dead", DynSolType::Address) => DynSolValue::Address(DEAD.parse()?),
        ("zero", DynSolType::Address) => DynSolValue::Address(Address::ZERO),
        ("days", _) => number(U256::from(ctx.now + rest.parse::<u64>()? * 86_400))?,
        ("e18", _) => number(e18(rest.parse()?))?,
        ("uint", _) => number(rest.parse()?)?,
        ("str", DynSolType::String) => DynSolValue::String(rest.into()),
        ("bool", DynSolType::Bool) => DynSolValue::Bool(rest == "true"),
        ("keccak", DynSolType::FixedBytes(32)) => {
            DynSolValue::FixedBytes(keccak256(rest.as_bytes()), 32)
        }
        ("bytes32", DynSolType::FixedBytes(32)) => DynSolValue::FixedBytes(rest.parse()?, 32),
        _ => bail!("the recipe {recipe} does not make a {ty}"),
    })
}

/// Make `step`'s call on `token` as the creator.
fn call(node: &Node, token: Address, step: &Step, ctx: &Ctx) -> anyhow::Result<()> {
    let signature = step.call.as_str();
    let types: Vec<DynSolType> = {
        let inner = signature
            .split_once('(')
            .and_then(|(_, rest)| rest.strip_suffix(')'))
            .context("a signature")?;
        if inner.is_empty() {
            Vec::new()
        } else {
            inner
                .split(',')
                .map(|t| Ok(t.parse()?))
                .collect::<anyhow::Result<_>>()?
        }
    };
    if types.len() != step.args.len() {
        bail!("{signature} takes {} arguments", types.len());
    }
    let values = (types.iter().zip(&step.args))
        .map(|(t, r)| value(t, r, ctx))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut data = keccak256(signature.as_bytes())[..4].to_vec();
    data.extend(DynSolValue::Tuple(values).abi_encode_params());
    let value = match &step.value {
        Some(recipe) => match value(&DynSolType::Uint(256), recipe, ctx)? {
            DynSolValue::Uint(v, _) => v,
            _ => U256::ZERO,
        },
        None => U256::ZERO,
    };
    let sender = match step.from.as_deref() {
        None | Some("creator") => ctx.creator,
        Some("agent") => ctx.agent,
        Some(other) => bail!("no sender {other}"),
    };
    node.send(sender, Some(token), data, value)?;
    Ok(())
}

/// The allowlist entries of the rows whose issuer the service's defaults
/// name on mainnet, at the addresses they have here.
pub(crate) fn allowlist(rows: &[Row]) -> Vec<AllowlistEntry> {
    (rows.iter())
        .filter_map(|r| {
            let issuer = r.issuer.clone()?;
            Some(AllowlistEntry {
                chain: "eth".into(),
                address: r.token.to_checksum(None),
                reason: format!("{issuer} is a regulated issuer; minting, freezing and pausing are part of its compliance obligations"),
                issuer,
            })
        })
        .collect()
}

/// Print the report: each token's band against what was expected.
pub(crate) fn report(rows: &[(Row, Value)], failures: &[(String, String)]) {
    let mut outside = Vec::new();
    for (row, answer) in rows {
        let label = answer["label"].as_str().unwrap_or_default();
        let score = answer["score"].as_f64().unwrap_or_default();
        let signals: Vec<String> = (answer["signals"].as_array().into_iter().flatten())
            .filter_map(|s| {
                let id = s["id"].as_str()?;
                Some(format!("{id}:{}", s["severity"].as_str().unwrap_or("?")))
            })
            .collect();
        let within = row.bands.iter().any(|b| b == label);
        if !within {
            outside.push(&row.name);
        }
        println!(
            "{:<8} {:<22} expected {:<16} got {:<8} {:>5.1} {} traded {} {}",
            row.name,
            row.category,
            row.bands.join("|"),
            label,
            score,
            if within { "ok     " } else { "OUTSIDE" },
            row.traded,
            signals.join(" ")
        );
        if !within {
            println!("         expected because: {}", row.why);
            println!(
                "         coverage {}",
                answer["coverage"]["ratio"].as_f64().unwrap_or_default()
            );
            for check in (answer["coverage"]["checks"]
                .as_array()
                .into_iter()
                .flatten())
            .filter(|c| c["status"] == "unknown")
            {
                println!("         unknown {}: {}", check["id"], check["reason"]);
            }
            // What each signal found, in its own words.
            for signal in answer["signals"].as_array().into_iter().flatten() {
                println!(
                    "         {} {}: {}",
                    signal["id"], signal["severity"], signal["detail"]
                );
            }
        }
        println!("         from {}", row.from);
    }
    println!("\nnot launched or not answered: {}", failures.len());
    for (name, why) in failures {
        println!("  {name}: {}", why.lines().next().unwrap_or_default());
    }
    println!(
        "\ncontrol set: {} analysed, {} outside their expected band{}",
        rows.len(),
        outside.len(),
        if outside.is_empty() {
            String::new()
        } else {
            format!(
                " ({})",
                outside
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
}
