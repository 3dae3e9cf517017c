//! Wallet analysis: facts, holdings from Transfer logs (bounded, persisted
//! and incremental like the holder index) confirmed with `balanceOf`,
//! exposure from the holdings' token analyses, and current allowances from
//! Approval logs confirmed with `allowance()`.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use alloy_primitives::{Address, U256};
use riskintel_api::{
    AccountKind, Approval, Exposure, Holding, HoldingRisk, RiskLabel, Severity, SignalCategory, TokenAnalysis,
    WalletAnalysis, WalletFacts,
};
use serde_json::{json, Value};

use super::assess::{self, Builder};
use super::evm::{units, EvmChain};
use super::holders::{self, holder_key, TRANSFER_TOPIC};
use super::{AnalysisError, Analyzer, Target, TokenRef};
use crate::chains::solana::{self as sol, Pubkey};
use crate::chains::Chain;
use base64::Engine as _;
use crate::chains::evm::abi::{self, Call3};
use crate::chains::evm::rpc::RpcError;
use crate::store::{LogIndexKind, LogIndexState, WalletContact};

/// `Approval(address,address,uint256)` topic.
const APPROVAL_TOPIC: &str = "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925";

fn topic_of(address: Address) -> String {
    format!("0x{:0>64}", hex::encode(address.as_slice()))
}

fn hex_u64(value: &Value) -> Result<u64, RpcError> {
    value
        .as_str()
        .and_then(|t| u64::from_str_radix(t.trim_start_matches("0x"), 16).ok())
        .ok_or_else(|| RpcError::Upstream(format!("not a hex number: {value}")))
}

fn hex_u256(value: &Value) -> Result<U256, RpcError> {
    value
        .as_str()
        .and_then(|t| U256::from_str_radix(t.trim_start_matches("0x"), 16).ok())
        .ok_or_else(|| RpcError::Upstream(format!("not a hex number: {value}")))
}

fn next_answer(answers: &mut std::vec::IntoIter<Result<Value, RpcError>>) -> Result<Value, RpcError> {
    answers.next().unwrap_or_else(|| Err(RpcError::Upstream("missing answer".into())))
}

/// The system program: accounts it owns are plain wallets.
const SYSTEM_PROGRAM: &str = "11111111111111111111111111111111";

/// A token a wallet holds, before its risk is looked up.
struct Held {
    target: Target,
    symbol: String,
    amount: f64,
    amount_raw: String,
    supply_share: f64,
}

struct IndexView {
    complete: bool,
    reason: Option<String>,
    first_activity: Option<u64>,
}

impl Analyzer {
    /// Analyse a wallet.
    pub async fn analyze_wallet(self: &Arc<Self>, chain: &str, address: &str) -> Result<WalletAnalysis, AnalysisError> {
        if chain == Chain::Sol.id() {
            return self.analyze_sol_wallet(address).await;
        }
        let wallet = self.token_ref(chain, address)?;
        let evm = self.chains.get(&wallet.chain).expect("validated chain").clone();
        let w = format!("{:#x}", wallet.address);
        // Round 1: the wallet itself.
        let mut answers = evm
            .rpc
            .batch(vec![
                ("eth_getBlockByNumber".into(), json!(["latest", false])),
                ("eth_getCode".into(), json!([w, "latest"])),
                ("eth_getBalance".into(), json!([w, "latest"])),
                ("eth_getTransactionCount".into(), json!([w, "latest"])),
            ])
            .await?
            .into_iter();
        let block_info = next_answer(&mut answers)?;
        let block = block_info.get("number").map(hex_u64).transpose()?.ok_or_else(|| RpcError::Upstream("block has no number".into()))?;
        let code = next_answer(&mut answers)?;
        let is_contract = code.as_str().is_some_and(|c| c.len() > 2);
        let native = hex_u256(&next_answer(&mut answers)?)?;
        let nonce = hex_u64(&next_answer(&mut answers)?)?;
        let at = format!("{block:#x}");

        // The index of the wallet's Transfer and Approval logs.
        let index = self.update_wallet_index(&evm, wallet.address, block).await?;
        let contacts = self.store.wallet_contacts(&evm.id, &holder_key(&wallet.address)).await?;
        let tokens: Vec<Address> = contacts.iter().filter(|c| c.kind == "token").filter_map(|c| c.token.parse().ok()).collect();
        let approvals: Vec<(Address, Address)> = contacts
            .iter()
            .filter(|c| c.kind == "approval")
            .filter_map(|c| Some((c.token.parse().ok()?, c.spender.parse().ok()?)))
            .collect();
        let approval_tokens: BTreeSet<Address> = approvals.iter().map(|(t, _)| *t).collect();
        let symbol_tokens: Vec<Address> = tokens.iter().copied().chain(approval_tokens.iter().copied()).collect::<BTreeSet<_>>().into_iter().collect();

        // Round 2: balances, metadata and allowances, and the spenders' code.
        let mut calls = Vec::new();
        for token in &tokens {
            calls.push(Call3 { target: *token, data: abi::call("balanceOf(address)", &[abi::address_word(wallet.address)]) });
            calls.push(Call3 { target: *token, data: abi::call("decimals()", &[]) });
            calls.push(Call3 { target: *token, data: abi::call("totalSupply()", &[]) });
        }
        for token in &symbol_tokens {
            calls.push(Call3 { target: *token, data: abi::call("symbol()", &[]) });
        }
        for (token, spender) in &approvals {
            calls.push(Call3 {
                target: *token,
                data: abi::call("allowance(address,address)", &[abi::address_word(wallet.address), abi::address_word(*spender)]),
            });
        }
        let spenders: Vec<Address> = approvals.iter().map(|(_, s)| *s).collect::<BTreeSet<_>>().into_iter().collect();
        let mut round2 = Vec::new();
        if !calls.is_empty() {
            round2.push(("eth_call".to_string(), json!([{"to": format!("{:#x}", evm.multicall), "data": abi::to_hex(&abi::aggregate3(&calls))}, at])));
        }
        for spender in &spenders {
            round2.push(("eth_getCode".to_string(), json!([format!("{spender:#x}"), at])));
        }
        let mut answers = evm.rpc.batch(round2).await?.into_iter();
        let results: Vec<Option<Vec<u8>>> = if calls.is_empty() {
            Vec::new()
        } else {
            let data = next_answer(&mut answers)?
                .as_str()
                .and_then(abi::from_hex)
                .ok_or_else(|| RpcError::Upstream("Multicall3 answer is not hex".into()))?;
            abi::decode_aggregate3(&data)
                .filter(|r| r.len() == calls.len())
                .ok_or_else(|| RpcError::Upstream("Multicall3 answer could not be decoded".into()))?
                .into_iter()
                .map(|(ok, d)| ok.then_some(d))
                .collect()
        };
        let mut spender_has_code = HashMap::new();
        for spender in &spenders {
            let code = next_answer(&mut answers)?;
            spender_has_code.insert(*spender, code.as_str().is_some_and(|c| c.len() > 2));
        }
        let mut r = results.into_iter();
        let mut held = Vec::new();
        for token in &tokens {
            let balance = r.next().flatten().as_deref().and_then(abi::decode_uint);
            let decimals = r.next().flatten().as_deref().and_then(abi::decode_uint).and_then(|d| u8::try_from(d).ok());
            let supply = r.next().flatten().as_deref().and_then(abi::decode_uint);
            // ERC-20 only: a token without decimals() (an NFT collection) is not a holding here.
            if let (Some(balance), Some(decimals)) = (balance, decimals) {
                if !balance.is_zero() {
                    held.push((*token, balance, decimals, supply.unwrap_or_default()));
                }
            }
        }
        let mut symbols = HashMap::new();
        for token in &symbol_tokens {
            let symbol = r.next().flatten().as_deref().and_then(abi::decode_string_or_bytes32).unwrap_or_default();
            symbols.insert(*token, symbol);
        }
        let routers: HashMap<Address, String> = evm.dexes.iter().map(|d| (d.router, d.name.clone())).collect();
        let unlimited_floor = U256::from(1) << 255;
        let mut approval_list = Vec::new();
        for (token, spender) in &approvals {
            let Some(amount) = r.next().flatten().as_deref().and_then(abi::decode_uint).filter(|a| !a.is_zero()) else { continue };
            let (kind, name) = match routers.get(spender) {
                Some(name) => (AccountKind::KnownRouter, Some(name.clone())),
                None if spender_has_code.get(spender).copied().unwrap_or(false) => (AccountKind::Contract, None),
                None => (AccountKind::Eoa, None),
            };
            approval_list.push(Approval {
                token: token.to_checksum(None),
                token_symbol: symbols.get(token).cloned().unwrap_or_default(),
                spender: spender.to_checksum(None),
                spender_kind: kind,
                spender_name: name,
                amount_raw: amount.to_string(),
                unlimited: amount >= unlimited_floor,
            });
        }

        let facts = WalletFacts {
            kind: if is_contract { AccountKind::Contract } else { AccountKind::Eoa },
            native_balance: units(native, 18),
            transaction_count: nonce,
            first_activity_block: if index.complete { index.first_activity } else { None },
        };
        let held = held
            .into_iter()
            .map(|(token, balance, decimals, supply)| Held {
                target: TokenRef { chain: wallet.chain, address: token }.into(),
                symbol: symbols.get(&token).cloned().unwrap_or_default(),
                amount: units(balance, decimals),
                amount_raw: balance.to_string(),
                supply_share: units(balance, 0) / units(supply, 0).max(1.0),
            })
            .collect();
        let address = wallet.address.to_checksum(None);
        self.finish_wallet(wallet.chain, address, held, approval_list, index, facts, block).await
    }

    /// Holdings' risk (cached analyses first, then the largest unknown
    /// ones), exposure, signals and the result, for any chain.
    #[allow(clippy::too_many_arguments)]
    async fn finish_wallet(
        self: &Arc<Self>,
        chain: Chain,
        address: String,
        held: Vec<Held>,
        approval_list: Vec<Approval>,
        index: IndexView,
        facts: WalletFacts,
        block: u64,
    ) -> Result<WalletAnalysis, AnalysisError> {
        let mut analyses: HashMap<Target, Arc<TokenAnalysis>> = HashMap::new();
        let mut unknown = Vec::new();
        for h in &held {
            match self.any_cached(h.target).await? {
                Some(analysis) => {
                    analyses.insert(h.target, analysis);
                }
                None => unknown.push((h.target, h.supply_share)),
            }
        }
        unknown.sort_by(|a, b| b.1.total_cmp(&a.1));
        let to_analyse: Vec<Target> = unknown.iter().take(self.wallet_max_analyses).map(|(t, _)| *t).collect();
        let outcomes = futures::future::join_all(to_analyse.iter().map(|t| self.analyze_target(*t, false))).await;
        for (token, outcome) in to_analyse.iter().zip(outcomes) {
            if let Ok(analysis) = outcome {
                analyses.insert(*token, Arc::new(analysis));
            }
        }
        let mut holdings: Vec<Holding> = held
            .iter()
            .map(|h| {
                let analysis = analyses.get(&h.target);
                Holding {
                    token: h.target.address(),
                    symbol: analysis.map(|a| a.meta.symbol.clone()).filter(|s| !s.is_empty()).unwrap_or_else(|| h.symbol.clone()),
                    amount: h.amount,
                    amount_raw: h.amount_raw.clone(),
                    value_usd: analysis.and_then(|a| a.meta.price_usd).map(|p| p * h.amount),
                    risk: analysis.map(|a| HoldingRisk {
                        score: a.score,
                        label: a.label,
                        signals: a.signals.iter().map(|s| s.id.clone()).collect(),
                    }),
                }
            })
            .collect();
        holdings.sort_by(|a, b| b.value_usd.unwrap_or(-1.0).total_cmp(&a.value_usd.unwrap_or(-1.0)));
        let exposure = exposure_of(&holdings);
        let mut b = Builder::new(block);
        assess_approvals(&mut b, &approval_list, &index);
        assess_exposure(&mut b, &holdings, &exposure);
        let score = assess::score(&b.signals);
        let coverage = assess::coverage(b.checks);
        let label = assess::label(score, coverage.ratio);
        let explanation = explain(&holdings, &exposure, &approval_list, &b.signals, &coverage, label, score);
        Ok(WalletAnalysis {
            chain: chain.id().to_string(),
            address,
            score,
            label,
            signals: b.signals,
            coverage,
            facts,
            holdings,
            exposure,
            approvals: approval_list,
            explanation,
            as_of_block: block,
            analysed_at: self.clock.now_seconds(),
        })
    }

    /// A Solana wallet: its token accounts of both token programs (current
    /// state, so nothing is missed), their delegations as approvals, and
    /// its signatures (the latest 1,000) for activity.
    async fn analyze_sol_wallet(self: &Arc<Self>, address: &str) -> Result<WalletAnalysis, AnalysisError> {
        let Target::Sol(owner) = self.target("sol", address)? else { unreachable!("sol targets are Solana keys") };
        let chain = self.solana.clone().expect("validated chain");
        let w = sol::encode(&owner);
        let b64 = json!({"encoding": "base64", "commitment": "confirmed"});
        let mut answers = chain
            .rpc()
            .batch(vec![
                ("getAccountInfo".into(), json!([w, b64])),
                ("getTokenAccountsByOwner".into(), json!([w, {"programId": sol::TOKEN_PROGRAM}, b64])),
                ("getTokenAccountsByOwner".into(), json!([w, {"programId": sol::TOKEN_2022_PROGRAM}, b64])),
                ("getSignaturesForAddress".into(), json!([w, {"limit": 1000}])),
            ])
            .await?
            .into_iter();
        let info = next_answer(&mut answers)?;
        let slot = info.pointer("/context/slot").and_then(Value::as_u64).unwrap_or_default();
        let account = info.get("value").filter(|v| !v.is_null()).cloned();
        let lamports = account.as_ref().and_then(|a| a.get("lamports")).and_then(Value::as_u64).unwrap_or(0);
        let is_program = account.as_ref().is_some_and(|a| a.get("executable") == Some(&Value::Bool(true)) || a.get("owner").and_then(Value::as_str) != Some(SYSTEM_PROGRAM));
        let mut token_accounts = Vec::new();
        for _ in 0..2 {
            let list = next_answer(&mut answers)?;
            for item in list.get("value").and_then(Value::as_array).cloned().unwrap_or_default() {
                let data = item.pointer("/account/data/0").and_then(Value::as_str).and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok());
                if let Some(parsed) = data.as_deref().and_then(sol::decode_token_account) {
                    token_accounts.push((parsed, data.as_deref().and_then(sol::decode_delegation)));
                }
            }
        }
        let signatures = next_answer(&mut answers).ok().and_then(|v| v.as_array().cloned()).unwrap_or_default();
        let mints: Vec<Pubkey> = token_accounts.iter().map(|(a, _)| a.mint).collect::<BTreeSet<_>>().into_iter().collect();
        let delegates: Vec<Pubkey> = token_accounts.iter().filter_map(|(_, d)| d.map(|d| d.0)).collect::<BTreeSet<_>>().into_iter().collect();
        let wanted: Vec<String> = mints.iter().chain(&delegates).map(sol::encode).collect();
        let looked_up: HashMap<String, Value> = if wanted.is_empty() {
            HashMap::new()
        } else {
            let answer = chain.rpc().call("getMultipleAccounts", json!([wanted, b64])).await?;
            let list = answer.get("value").and_then(Value::as_array).cloned().unwrap_or_default();
            wanted.iter().cloned().zip(list).collect()
        };
        let mint_of = |k: &Pubkey| -> Option<sol::Mint> {
            let v = looked_up.get(&sol::encode(k))?;
            let data = base64::engine::general_purpose::STANDARD.decode(v.pointer("/data/0")?.as_str()?).ok()?;
            sol::decode_mint(&data, v.get("owner")?.as_str()?)
        };
        let mut held = Vec::new();
        let mut approval_list = Vec::new();
        for (account, delegation) in &token_accounts {
            let Some(mint) = mint_of(&account.mint) else { continue };
            if account.amount > 0 {
                held.push(Held {
                    target: Target::Sol(account.mint),
                    symbol: mint.metadata.as_ref().map(|m| m.symbol.clone()).unwrap_or_default(),
                    amount: account.amount as f64 / 10f64.powi(mint.decimals as i32),
                    amount_raw: account.amount.to_string(),
                    supply_share: account.amount as f64 / (mint.supply.max(1) as f64),
                });
            }
            if let Some((delegate, amount)) = delegation.filter(|(_, a)| *a > 0) {
                let delegate_account = looked_up.get(&sol::encode(&delegate)).filter(|v| !v.is_null());
                let kind = match delegate_account {
                    Some(v) if v.get("executable") == Some(&Value::Bool(true)) || v.get("owner").and_then(Value::as_str) != Some(SYSTEM_PROGRAM) => AccountKind::Contract,
                    _ => AccountKind::Eoa,
                };
                approval_list.push(Approval {
                    token: sol::encode(&account.mint),
                    token_symbol: mint.metadata.as_ref().map(|m| m.symbol.clone()).unwrap_or_default(),
                    spender: sol::encode(&delegate),
                    spender_kind: kind,
                    spender_name: None,
                    amount_raw: amount.to_string(),
                    unlimited: amount >= u64::MAX / 2,
                });
            }
        }
        let complete_history = signatures.len() < 1000;
        let first = if complete_history { signatures.last().and_then(|s| s.get("slot")).and_then(Value::as_u64) } else { None };
        let facts = WalletFacts {
            kind: if is_program { AccountKind::Contract } else { AccountKind::Eoa },
            native_balance: lamports as f64 / 1e9,
            transaction_count: signatures.len() as u64,
            first_activity_block: first,
        };
        // Token accounts are read as they are now: holdings and delegations are complete.
        let index = IndexView { complete: true, reason: None, first_activity: first };
        self.finish_wallet(Chain::Sol, w, held, approval_list, index, facts, slot).await
    }

    async fn update_wallet_index(&self, evm: &EvmChain, wallet: Address, latest: u64) -> Result<IndexView, AnalysisError> {
        let key = holder_key(&wallet);
        let existing = self.store.log_index_get(&evm.id, LogIndexKind::Wallet, &key).await?;
        let (start, next, expected) = match &existing {
            Some(s) => (s.start_block as u64, s.next_block as u64, Some(s.next_block)),
            None => {
                let start = latest.saturating_sub(self.limits.lookback_blocks);
                (start, start, None)
            }
        };
        let me = topic_of(wallet);
        let filters = [
            json!({"topics": [TRANSFER_TOPIC, null, me]}),
            json!({"topics": [TRANSFER_TOPIC, me]}),
            json!({"topics": [APPROVAL_TOPIC, me]}),
        ];
        let scan = holders::scan_logs(&evm.rpc, &filters, next, latest, self.limits).await?;
        let mut first = existing.as_ref().and_then(|s| s.first_block).map(|b| b as u64);
        let mut contacts = BTreeSet::new();
        for log in &scan.logs {
            let Some(token) = log.get("address").and_then(Value::as_str).map(str::to_ascii_lowercase) else { continue };
            let topics: Vec<&str> = log.get("topics").and_then(Value::as_array).map(|t| t.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            if topics.first() == Some(&APPROVAL_TOPIC) {
                if let Some(spender) = topics.get(2).and_then(|t| t.get(26..)) {
                    contacts.insert(WalletContact { kind: "approval".into(), token, spender: format!("0x{spender}") });
                }
            } else {
                contacts.insert(WalletContact { kind: "token".into(), token, spender: String::new() });
            }
            if let Some(b) = log.get("blockNumber").and_then(|b| hex_u64(b).ok()) {
                first = Some(first.map_or(b, |f| f.min(b)));
            }
        }
        let state = LogIndexState {
            start_block: start as i64,
            next_block: scan.next as i64,
            first_block: first.map(|b| b as i64),
            first_party: None,
        };
        let contacts: Vec<WalletContact> = contacts.into_iter().collect();
        self.store.wallet_index_apply(&evm.id, &key, expected, &state, &contacts).await?;
        Ok(IndexView {
            complete: start == 0 && scan.next > latest,
            reason: holders::incomplete_reason(start, scan.next, latest, scan.gave_up, "wallet"),
            first_activity: first,
        })
    }

    /// A cached analysis of any age (fresh or not): a wallet view may rest on it.
    async fn any_cached(&self, token: Target) -> Result<Option<Arc<TokenAnalysis>>, AnalysisError> {
        if let Some(analysis) = self.recent_hit(token) {
            return Ok(Some(analysis));
        }
        let cached = self.cached(token.chain().id(), &token.address()).await?;
        Ok(cached.map(|(analysis, _)| Arc::new(analysis)))
    }
}

fn exposure_of(holdings: &[Holding]) -> Exposure {
    let mut e = Exposure {
        total_value_usd: 0.0,
        risky_value_usd: 0.0,
        critical_value_usd: 0.0,
        risky_or_critical_share: None,
        honeypots: Vec::new(),
        unsellable: Vec::new(),
        not_analysed: Vec::new(),
    };
    for h in holdings {
        let value = h.value_usd.unwrap_or(0.0);
        e.total_value_usd += value;
        match &h.risk {
            None => e.not_analysed.push(h.token.clone()),
            Some(risk) => {
                match risk.label {
                    RiskLabel::Risky => e.risky_value_usd += value,
                    RiskLabel::Critical => e.critical_value_usd += value,
                    _ => {}
                }
                if risk.signals.iter().any(|s| s == "honeypot") {
                    e.honeypots.push(h.token.clone());
                }
                if risk.signals.iter().any(|s| ["honeypot", "sell_limit", "transfer_blocked"].contains(&s.as_str())) {
                    e.unsellable.push(h.token.clone());
                }
            }
        }
    }
    if e.total_value_usd > 0.0 {
        e.risky_or_critical_share = Some((e.risky_value_usd + e.critical_value_usd) / e.total_value_usd);
    }
    e
}

fn assess_approvals(b: &mut Builder, approvals: &[Approval], index: &IndexView) {
    let rpc = "eth_getLogs(Approval by the wallet), then eth_call allowance() via Multicall3, eth_getCode(spender)";
    for (id, kind, severity, weight, title, whom) in [
        ("unlimited_approval_to_eoa", AccountKind::Eoa, Severity::High, 0.3, "Unlimited approval to a single key", "an externally owned account"),
        ("unlimited_approval_to_unknown_contract", AccountKind::Contract, Severity::Medium, 0.15, "Unlimited approval to an unknown contract", "a contract that is not a known DEX router"),
    ] {
        let found: Vec<&Approval> = approvals.iter().filter(|a| a.unlimited && a.spender_kind == kind).collect();
        if !found.is_empty() {
            let list: Vec<String> = found.iter().map(|a| format!("{} to {}", a.token_symbol, a.spender)).collect();
            b.detected(
                id,
                SignalCategory::Ownership,
                severity,
                weight,
                title,
                format!("The wallet lets {whom} spend an unlimited amount: {}.", list.join(", ")),
                rpc,
                json!({"approvals": found.iter().map(|a| json!({"token": a.token, "spender": a.spender, "amount": a.amount_raw})).collect::<Vec<_>>()}),
            );
        } else if let (false, Some(reason)) = (index.complete, &index.reason) {
            b.unknown(id, reason.clone());
        } else {
            b.clear(id);
        }
    }
}

fn assess_exposure(b: &mut Builder, holdings: &[Holding], exposure: &Exposure) {
    let rpc = "token analyses of the holdings (cached or made now), balanceOf via Multicall3";
    let missing = !exposure.not_analysed.is_empty();
    let reason = format!("{} holding(s) not analysed yet; they are analysed on later requests", exposure.not_analysed.len());
    if !exposure.honeypots.is_empty() {
        b.detected(
            "holds_honeypot",
            SignalCategory::Trading,
            Severity::High,
            0.3,
            "Holds honeypots",
            format!("The wallet holds {} token(s) that cannot be sold: {}.", exposure.honeypots.len(), exposure.honeypots.join(", ")),
            rpc,
            json!({"honeypots": exposure.honeypots, "unsellable": exposure.unsellable}),
        );
    } else if missing {
        b.unknown("holds_honeypot", reason.clone());
    } else {
        b.clear("holds_honeypot");
    }
    match exposure.risky_or_critical_share {
        Some(share) if share > 0.2 => {
            let (severity, weight) = if share > 0.5 { (Severity::High, 0.3) } else { (Severity::Medium, 0.15) };
            b.detected(
                "risky_exposure",
                SignalCategory::Market,
                severity,
                weight,
                "Much of the portfolio is in risky tokens",
                format!(
                    "{:.1}% of the priced portfolio (${:.2} of ${:.2}) is in tokens labelled risky or critical.",
                    share * 100.0,
                    exposure.risky_value_usd + exposure.critical_value_usd,
                    exposure.total_value_usd
                ),
                rpc,
                json!({"share": share, "risky_usd": exposure.risky_value_usd, "critical_usd": exposure.critical_value_usd, "total_usd": exposure.total_value_usd}),
            );
        }
        _ if missing => b.unknown("risky_exposure", reason),
        _ if holdings.iter().any(|h| h.value_usd.is_none()) && exposure.total_value_usd == 0.0 && !holdings.is_empty() => {
            b.unknown("risky_exposure", "no holding could be priced in USD")
        }
        _ => b.clear("risky_exposure"),
    }
}

fn explain(
    holdings: &[Holding],
    exposure: &Exposure,
    approvals: &[Approval],
    signals: &[riskintel_api::Signal],
    coverage: &riskintel_api::Coverage,
    label: RiskLabel,
    score: f64,
) -> String {
    let mut text = format!(
        "This wallet scores {score:.1} ({}). It holds {} token(s) worth about ${:.2} where priced",
        match label {
            RiskLabel::Safe => "safe",
            RiskLabel::Caution => "caution",
            RiskLabel::Risky => "risky",
            RiskLabel::Critical => "critical",
        },
        holdings.len(),
        exposure.total_value_usd
    );
    let unlimited = approvals.iter().filter(|a| a.unlimited).count();
    text.push_str(&format!(" and has {} open approval(s), {unlimited} of them unlimited.", approvals.len()));
    if !exposure.honeypots.is_empty() {
        text.push_str(&format!(" {} holding(s) are honeypots and cannot be sold.", exposure.honeypots.len()));
    }
    if signals.iter().any(|s| s.id == "unlimited_approval_to_eoa") {
        text.push_str(" An unlimited approval to a single private key lets its holder take those tokens at any time; revoke it (approve 0).");
    }
    let unknown: Vec<String> = coverage
        .checks
        .iter()
        .filter(|c| c.status == riskintel_api::CheckStatus::Unknown)
        .map(|c| format!("{} ({})", c.id, c.reason.clone().unwrap_or_default()))
        .collect();
    if !unknown.is_empty() {
        text.push_str(&format!(" Not checked: {}.", unknown.join("; ")));
    }
    text
}
