//! A local Solana JSON-RPC node for tests, answering the methods the
//! analysis uses from the fixture `cargo xtask rig` builds with LiteSVM
//! (`tests/rig/build/solana.json`): account bytes made by the real SPL Token
//! and Token-2022 programs, served as a node serves them.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, RwLock};

use anyhow::Context as _;
use base64::Engine as _;
use serde_json::{json, Value};

use riskintel_server::chains::{defaults, ChainConfig, ConfiguredToken};

use crate::jsonrpc::{self, Answer};

/// The fixture.
#[derive(Clone, Debug)]
pub struct Fixture {
    /// Slot the accounts are at.
    pub slot: u64,
    /// Chain time, unix seconds.
    pub now: i64,
    /// Named addresses (mints, owners, pools).
    pub scenario: BTreeMap<String, String>,
    /// What the fixture built, for the expected values (`expect` in the JSON).
    pub expect: Value,
    accounts: BTreeMap<String, Value>,
    signatures: BTreeMap<String, Value>,
    /// Canned `getTransaction` answers (jsonParsed), by signature.
    transactions: BTreeMap<String, Value>,
    /// Named changes: accounts as they are after each.
    changes: BTreeMap<String, Value>,
}

impl Fixture {
    /// Load `tests/rig/build/solana.json`.
    pub fn load() -> anyhow::Result<Fixture> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rig/build/solana.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("{} is missing: run `cargo xtask rig`", path.display()))?;
        let json: Value = serde_json::from_str(&text)?;
        let map = |v: &Value| -> BTreeMap<String, Value> {
            v.as_object()
                .map(|o| o.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default()
        };
        Ok(Fixture {
            slot: json["slot"].as_u64().context("slot")?,
            now: json["now"].as_i64().context("now")?,
            scenario: map(&json["scenario"])
                .into_iter()
                .map(|(k, v)| (k, v.as_str().unwrap_or_default().to_string()))
                .collect(),
            expect: json["expect"].clone(),
            accounts: map(&json["accounts"]),
            signatures: map(&json["signatures"]),
            transactions: map(&json["transactions"]),
            changes: map(&json["changes"]),
        })
    }

    /// A named address.
    pub fn named(&self, name: &str) -> String {
        self.scenario[name].clone()
    }

    /// The token account addresses of a mint, with their bytes.
    pub fn token_accounts_of(&self, mint: &str) -> Vec<(String, Vec<u8>)> {
        let mint = bs58::decode(mint).into_vec().unwrap_or_default();
        self.accounts
            .iter()
            .filter_map(|(address, account)| {
                let data = base64::engine::general_purpose::STANDARD
                    .decode(account["data"].as_str()?)
                    .ok()?;
                let is_token_account =
                    data.len() >= 165 && (data.len() == 165 || data.get(165) == Some(&2));
                (is_token_account && data[..32] == mint[..]).then(|| (address.clone(), data))
            })
            .collect()
    }

    fn account_json(&self, address: &str) -> Value {
        match self.accounts.get(address) {
            None => Value::Null,
            Some(a) => {
                let data = a["data"].as_str().unwrap_or_default();
                let space = base64::engine::general_purpose::STANDARD
                    .decode(data)
                    .map(|d| d.len())
                    .unwrap_or(0);
                json!({"data": [data, "base64"], "owner": a["owner"], "lamports": a["lamports"], "executable": a["executable"], "rentEpoch": 0, "space": space})
            }
        }
    }

    fn mint_decimals(&self, mint: &str) -> Option<u8> {
        let account = self.accounts.get(mint)?;
        let data = base64::engine::general_purpose::STANDARD
            .decode(account["data"].as_str()?)
            .ok()?;
        (data.len() >= 82 && (data.len() == 82 || data.get(165) == Some(&1))).then(|| data[44])
    }

    fn answer(&self, method: &str, params: &Value) -> Answer {
        let context = json!({"slot": self.slot});
        let invalid = |m: &str| json!({"code": -32602, "message": m});
        match method {
            "getAccountInfo" => Ok(
                json!({"context": context, "value": self.account_json(params[0].as_str().unwrap_or_default())}),
            ),
            "getMultipleAccounts" => {
                let list: Vec<Value> = params[0]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .map(|k| self.account_json(k.as_str().unwrap_or_default()))
                            .collect()
                    })
                    .unwrap_or_default();
                Ok(json!({"context": context, "value": list}))
            }
            "getTokenLargestAccounts" => {
                let mint = params[0].as_str().unwrap_or_default();
                let decimals = self
                    .mint_decimals(mint)
                    .ok_or_else(|| invalid("Invalid param: not a Token mint"))?;
                let mut accounts: Vec<(String, u64)> = self
                    .token_accounts_of(mint)
                    .into_iter()
                    .map(|(a, d)| (a, u64::from_le_bytes(d[64..72].try_into().unwrap())))
                    .collect();
                accounts.sort_by_key(|a| std::cmp::Reverse(a.1));
                let value: Vec<Value> = accounts
                    .iter()
                    .take(20)
                    .map(|(address, amount)| {
                        let ui = *amount as f64 / 10f64.powi(decimals as i32);
                        json!({"address": address, "amount": amount.to_string(), "decimals": decimals, "uiAmount": ui, "uiAmountString": ui.to_string()})
                    })
                    .collect();
                Ok(json!({"context": context, "value": value}))
            }
            "getSignaturesForAddress" => {
                let all = self
                    .signatures
                    .get(params[0].as_str().unwrap_or_default())
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                let limit = params[1]["limit"].as_u64().unwrap_or(1000) as usize;
                let start = match params[1]["before"].as_str() {
                    Some(before) => all
                        .iter()
                        .position(|s| s["signature"] == before)
                        .map_or(all.len(), |i| i + 1),
                    None => 0,
                };
                // `until`: newer than that signature only.
                let until = params[1]["until"].as_str();
                Ok(Value::Array(
                    all.into_iter()
                        .skip(start)
                        .take_while(|s| until.is_none_or(|u| s["signature"] != u))
                        .take(limit)
                        .collect(),
                ))
            }
            "getBlockTime" => Ok(json!(self.now)),
            "getSlot" => Ok(json!(self.slot)),
            // A node answers null for a transaction it does not know.
            "getTransaction" => Ok(self
                .transactions
                .get(params[0].as_str().unwrap_or_default())
                .cloned()
                .unwrap_or(Value::Null)),
            "getBalance" => Ok(
                json!({"context": context, "value": self.accounts.get(params[0].as_str().unwrap_or_default()).map_or(json!(0), |a| a["lamports"].clone())}),
            ),
            "getTokenAccountsByOwner" => {
                let owner = bs58::decode(params[0].as_str().unwrap_or_default())
                    .into_vec()
                    .unwrap_or_default();
                // Either filter a node takes: the token program, or the mint.
                let program = params[1]["programId"].as_str();
                let mint = (params[1]["mint"].as_str())
                    .map(|m| bs58::decode(m).into_vec().unwrap_or_default());
                let mut found = Vec::new();
                for (address, account) in &self.accounts {
                    let data = base64::engine::general_purpose::STANDARD
                        .decode(account["data"].as_str().unwrap_or_default())
                        .unwrap_or_default();
                    let is_token_account =
                        data.len() >= 165 && (data.len() == 165 || data.get(165) == Some(&2));
                    let filtered = match (program, &mint) {
                        (Some(program), _) => account["owner"] == program,
                        (None, Some(mint)) => is_token_account && data[..32] == mint[..],
                        (None, None) => false,
                    };
                    if filtered && is_token_account && data[32..64] == owner[..] {
                        found.push(
                            json!({"pubkey": address, "account": self.account_json(address)}),
                        );
                    }
                }
                Ok(json!({"context": context, "value": found}))
            }
            "getProgramAccounts" => {
                let program = params[0].as_str().unwrap_or_default();
                let filters = params[1]["filters"].as_array().cloned().unwrap_or_default();
                let mut found = Vec::new();
                for (address, account) in &self.accounts {
                    if account["owner"] != program {
                        continue;
                    }
                    let data = base64::engine::general_purpose::STANDARD
                        .decode(account["data"].as_str().unwrap_or_default())
                        .unwrap_or_default();
                    let pass = filters.iter().all(|f| {
                        if let Some(size) = f["dataSize"].as_u64() {
                            return data.len() as u64 == size;
                        }
                        let offset = f["memcmp"]["offset"].as_u64().unwrap_or(0) as usize;
                        let bytes = bs58::decode(f["memcmp"]["bytes"].as_str().unwrap_or_default())
                            .into_vec()
                            .unwrap_or_default();
                        data.get(offset..offset + bytes.len()) == Some(&bytes[..])
                    });
                    if pass {
                        let mut account = self.account_json(address);
                        if let Some(slice) = params[1].get("dataSlice") {
                            let offset = slice["offset"].as_u64().unwrap_or(0) as usize;
                            let length = slice["length"].as_u64().unwrap_or(0) as usize;
                            let part = data
                                .get(offset.min(data.len())..(offset + length).min(data.len()))
                                .unwrap_or_default();
                            account["data"] = json!([
                                base64::engine::general_purpose::STANDARD.encode(part),
                                "base64"
                            ]);
                        }
                        found.push(json!({"pubkey": address, "account": account}));
                    }
                }
                Ok(Value::Array(found))
            }
            other => Err(json!({"code": -32601, "message": format!("Method not found: {other}")})),
        }
    }
}

/// The `sol` chain's configuration for the fixture served at `url`: every
/// pool family at its program, wrapped SOL, the test USDC, the three
/// SOL/USDC price pools, and the LP lockers.
pub fn chain_config(fixture: &Fixture, url: &str) -> ChainConfig {
    ChainConfig {
        rpc_url: url.into(),
        multicall3: String::new(),
        wrapped_native: ConfiguredToken {
            address: fixture.named("wsol"),
            symbol: "SOL".into(),
            decimals: 9,
        },
        stablecoins: vec![ConfiguredToken {
            address: fixture.named("usdc"),
            symbol: "USDC".into(),
            decimals: 6,
        }],
        dexes: defaults::solana().dexes,
        // Raydium's locking program's authority (the default) and one more.
        lp_lockers: (defaults::solana().lp_lockers.into_iter())
            .chain([fixture.named("test_locker")])
            .collect(),
        price_pool: String::new(),
        price_pools: ["price_pool", "price_pool_v4", "price_pool_pushed"]
            .iter()
            .map(|name| fixture.named(name))
            .collect(),
    }
}

/// `simulateTransaction`, run by LiteSVM with the fixture's accounts
/// (`rig/solana_simulator.mjs`, started on the first simulation and
/// stopped with the node).
#[derive(Default)]
struct Simulator {
    process: tokio::sync::Mutex<Option<SimulatorProcess>>,
}

struct SimulatorProcess {
    _child: tokio::process::Child,
    stdin: tokio::process::ChildStdin,
    stdout: tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
}

impl Simulator {
    async fn simulate(&self, slot: u64, params: &Value) -> Answer {
        use tokio::io::AsyncWriteExt as _;
        let failed = |m: String| json!({"code": -32603, "message": m});
        let mut process = self.process.lock().await;
        if process.is_none() {
            let rig = Path::new(env!("CARGO_MANIFEST_DIR")).join("rig");
            let mut child = tokio::process::Command::new("node")
                .arg(rig.join("solana_simulator.mjs"))
                .arg(rig.join("build/solana.json"))
                .current_dir(&rig)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .kill_on_drop(true)
                .spawn()
                .map_err(|e| failed(format!("the simulator did not start: {e}")))?;
            let (stdin, stdout) = (child.stdin.take(), child.stdout.take());
            let (Some(stdin), Some(stdout)) = (stdin, stdout) else {
                return Err(failed("the simulator has no pipes".into()));
            };
            use tokio::io::AsyncBufReadExt as _;
            *process = Some(SimulatorProcess {
                _child: child,
                stdin,
                stdout: tokio::io::BufReader::new(stdout).lines(),
            });
        }
        let p = process.as_mut().expect("started");
        let request = json!({"tx": params[0], "addresses": params[1]["accounts"]["addresses"]});
        p.stdin
            .write_all(format!("{request}\n").as_bytes())
            .await
            .map_err(|e| failed(format!("the simulator: {e}")))?;
        let line = (p.stdout.next_line().await)
            .map_err(|e| failed(format!("the simulator: {e}")))?
            .ok_or_else(|| failed("the simulator stopped".into()))?;
        let answer: Value = serde_json::from_str(&line).map_err(|e| failed(e.to_string()))?;
        if let Some(why) = answer["rpcError"].as_str() {
            return Err(json!({"code": -32602, "message": format!("invalid transaction: {why}")}));
        }
        Ok(json!({"context": {"slot": slot}, "value": answer}))
    }
}

/// A running test node, whose accounts a trial can change.
pub struct Node {
    /// Its URL.
    pub url: String,
    state: Arc<RwLock<Fixture>>,
}

impl Node {
    /// Apply the fixture's change `name` (its accounts as they are after);
    /// the simulator keeps the accounts as they were.
    pub fn apply(&self, name: &str) -> anyhow::Result<()> {
        let mut fixture = self.state.write().unwrap_or_else(|e| e.into_inner());
        let change = (fixture.changes.get(name).cloned())
            .with_context(|| format!("the fixture has no change {name:?}"))?;
        for (address, account) in change.as_object().into_iter().flatten() {
            fixture.accounts.insert(address.clone(), account.clone());
        }
        Ok(())
    }
}

impl Node {
    /// The canned transactions listed under `address`, newest first.
    pub fn transactions_of(&self, address: &str) -> Vec<Value> {
        let fixture = self.state.read().unwrap_or_else(|e| e.into_inner());
        (fixture.signatures.get(address).and_then(Value::as_array))
            .into_iter()
            .flatten()
            .filter_map(|s| fixture.transactions.get(s["signature"].as_str()?).cloned())
            .collect()
    }

    /// Add `tx` (its first signature its name), listed under every account it names.
    pub fn add_transaction(&self, tx: Value) -> anyhow::Result<()> {
        let signature = (tx["transaction"]["signatures"][0].as_str())
            .context("a transaction's signature")?
            .to_string();
        let slot = tx["slot"].as_u64().context("a transaction's slot")?;
        let mut fixture = self.state.write().unwrap_or_else(|e| e.into_inner());
        let keys = tx["transaction"]["message"]["accountKeys"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for key in keys.iter().filter_map(|k| k["pubkey"].as_str()) {
            let list = fixture
                .signatures
                .entry(key.to_string())
                .or_insert_with(|| json!([]));
            if let Some(list) = list.as_array_mut() {
                let entry = json!({"signature": signature, "slot": slot, "blockTime": tx["blockTime"], "err": null, "memo": null, "confirmationStatus": "finalized"});
                let at = list
                    .iter()
                    .position(|s| s["slot"].as_u64() < Some(slot))
                    .unwrap_or(list.len());
                list.insert(at, entry);
            }
        }
        fixture.transactions.insert(signature, tx);
        Ok(())
    }

    /// Add `n` copies of the transaction listed under `address` whose
    /// signature starts with `like`, at slots from `slot` on, each under
    /// its own signature (`tag` and its number).
    pub fn add_copies(
        &self,
        address: &str,
        like: &str,
        tag: &str,
        n: usize,
        slot: u64,
    ) -> anyhow::Result<()> {
        let tx = (self.transactions_of(address).into_iter())
            .find(|tx| {
                tx["transaction"]["signatures"][0]
                    .as_str()
                    .is_some_and(|s| s.starts_with(like))
            })
            .with_context(|| format!("no transaction {like}… under {address}"))?;
        for i in 0..n {
            self.add_transaction(renamed(&tx, &signature(tag, i), slot + i as u64))?;
        }
        Ok(())
    }

    /// Make `to` a copy of account `from` (a mint under a new address).
    pub fn copy_account(&self, from: &str, to: &str) -> anyhow::Result<()> {
        let mut fixture = self.state.write().unwrap_or_else(|e| e.into_inner());
        let account = fixture
            .accounts
            .get(from)
            .cloned()
            .context("no such account")?;
        fixture.accounts.insert(to.to_string(), account);
        Ok(())
    }
}

/// `tx` under `signature`, at `slot`.
pub fn renamed(tx: &Value, signature: &str, slot: u64) -> Value {
    let mut tx = tx.clone();
    tx["slot"] = slot.into();
    tx["transaction"]["signatures"] = json!([signature]);
    tx
}

/// A signature made of `tag` and `n` (88 characters, as a node's).
pub fn signature(tag: &str, n: usize) -> String {
    (format!("{tag}{n:06}").chars())
        .chain(std::iter::repeat('1'))
        .take(88)
        .collect()
}

/// Serve the fixture; the node's URL.
pub async fn start(fixture: Fixture) -> anyhow::Result<String> {
    Ok(start_node(fixture).await?.url)
}

/// Serve the fixture; the node, which a trial can change.
pub async fn start_node(fixture: Fixture) -> anyhow::Result<Node> {
    let state = Arc::new(RwLock::new(fixture));
    let simulator = Arc::new(Simulator::default());
    let shared = state.clone();
    let url = jsonrpc::serve(Arc::new(move |method: String, params: Value| {
        let (state, simulator) = (shared.clone(), simulator.clone());
        Box::pin(async move {
            let (slot, answer) = {
                let fixture = state.read().unwrap_or_else(|e| e.into_inner());
                match method.as_str() {
                    "simulateTransaction" => (fixture.slot, None),
                    _ => (fixture.slot, Some(fixture.answer(&method, &params))),
                }
            };
            match answer {
                Some(answer) => answer,
                None => simulator.simulate(slot, &params).await,
            }
        })
    }))
    .await?;
    Ok(Node { url, state })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canned_transactions_are_served_and_unknown_ones_are_null() {
        let fixture = Fixture {
            slot: 2000,
            now: 1_800_000_000,
            scenario: BTreeMap::new(),
            expect: Value::Null,
            accounts: BTreeMap::new(),
            signatures: BTreeMap::new(),
            transactions: [("Sig1".to_string(), json!({"slot": 1000}))].into(),
            changes: BTreeMap::new(),
        };
        let known = fixture.answer(
            "getTransaction",
            &json!(["Sig1", {"encoding": "jsonParsed"}]),
        );
        assert_eq!(known.ok(), Some(json!({"slot": 1000})));
        let unknown = fixture.answer("getTransaction", &json!(["Sig2"]));
        assert_eq!(unknown.ok(), Some(Value::Null));
    }
}
