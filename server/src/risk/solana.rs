//! Solana token analysis: mint and Token-2022 extensions, metadata
//! (Token-2022 or Metaplex), holders resolved to owners, Raydium CPMM
//! liquidity priced through a SOL/stablecoin pool, and age — in three
//! sequential round trips of batched JSON-RPC.

use std::collections::{BTreeMap, HashMap, HashSet};

use base64::Engine as _;
use chrono::{DateTime, Utc};
use riskintel_api::{Pool, Severity, SignalCategory, TokenAnalysis, TokenMeta};
use serde_json::{json, Value};

use super::assess::{self, Builder};
use super::AnalysisError;
use crate::chains::evm::rpc::{RpcClient, RpcError};
use crate::chains::solana::{self as sol, CpmmPool, Pubkey};
use crate::chains::ChainConfig;
use crate::config::AllowlistEntry;

/// Signatures fetched per page when dating a mint.
const SIGNATURE_PAGE: u64 = 1000;
/// Pages of signatures read at most; a mint with more history is old enough not to be new.
const SIGNATURE_PAGES: usize = 5;

/// The Solana chain: its node and parsed configuration.
pub struct SolanaChain {
    rpc: RpcClient,
    wsol: Pubkey,
    stables: Vec<(Pubkey, String)>,
    cpmm_program: Option<Pubkey>,
    price_pool: Option<Pubkey>,
}

fn key_of(text: &str, what: &str) -> anyhow::Result<Pubkey> {
    sol::parse_pubkey(text).map_err(|e| anyhow::anyhow!("chains.sol {what}: {e}"))
}

impl SolanaChain {
    /// The node.
    pub fn rpc(&self) -> &RpcClient {
        &self.rpc
    }

    /// Parse `chains.sol`.
    pub fn from_config(config: &ChainConfig, rpc: RpcClient) -> anyhow::Result<SolanaChain> {
        Ok(SolanaChain {
            rpc,
            wsol: key_of(&config.wrapped_native.address, "wrapped_native")?,
            stables: config.stablecoins.iter().map(|s| Ok((key_of(&s.address, "stablecoin")?, s.symbol.clone()))).collect::<anyhow::Result<_>>()?,
            cpmm_program: config.dexes.iter().map(|d| key_of(&d.factory, "dex program")).next().transpose()?,
            price_pool: (!config.price_pool.is_empty()).then(|| key_of(&config.price_pool, "price_pool")).transpose()?,
        })
    }
}

fn account_data(value: &Value) -> Option<(Vec<u8>, String)> {
    let data = value.get("data")?.get(0)?.as_str()?;
    let owner = value.get("owner")?.as_str()?.to_string();
    Some((base64::engine::general_purpose::STANDARD.decode(data).ok()?, owner))
}

fn take(answers: &mut std::vec::IntoIter<Result<Value, RpcError>>) -> Result<Value, RpcError> {
    answers.next().unwrap_or_else(|| Err(RpcError::Upstream("missing answer".into())))
}

fn amount_units(amount: u64, decimals: u8) -> f64 {
    amount as f64 / 10f64.powi(decimals as i32)
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

struct PoolView {
    address: Pubkey,
    pool: CpmmPool,
    token_is_0: bool,
}

/// Analyse a mint.
pub async fn analyze(chain: &SolanaChain, mint: Pubkey, allow: Option<&AllowlistEntry>, now: DateTime<Utc>) -> Result<TokenAnalysis, AnalysisError> {
    let m = sol::encode(&mint);
    let b64 = json!({"encoding": "base64", "commitment": "confirmed"});
    let metaplex = sol::metaplex_address(&mint);
    // Round 1: the mint and everything that only needs its address.
    let mut round1 = vec![
        ("getAccountInfo".to_string(), json!([m, b64])),
        ("getTokenLargestAccounts".to_string(), json!([m, {"commitment": "confirmed"}])),
        ("getSignaturesForAddress".to_string(), json!([m, {"limit": SIGNATURE_PAGE}])),
    ];
    if let Some(pda) = metaplex {
        round1.push(("getAccountInfo".into(), json!([sol::encode(&pda), b64])));
    }
    if let Some(program) = chain.cpmm_program {
        for offset in sol::CPMM_MINT_OFFSETS {
            round1.push((
                "getProgramAccounts".into(),
                json!([sol::encode(&program), {"encoding": "base64", "filters": [{"dataSize": sol::CPMM_POOL_SIZE}, {"memcmp": {"offset": offset, "bytes": m}}]}]),
            ));
        }
    }
    if let Some(pool) = chain.price_pool {
        round1.push(("getAccountInfo".into(), json!([sol::encode(&pool), b64])));
    }
    let mut answers = chain.rpc.batch(round1).await?.into_iter();
    let info = take(&mut answers)?;
    let slot = info.pointer("/context/slot").and_then(Value::as_u64);
    let value = info.get("value").cloned().unwrap_or(Value::Null);
    if value.is_null() {
        return Err(AnalysisError::NotFound(format!("there is no account at {m} on sol")));
    }
    let (data, owner) = account_data(&value).ok_or_else(|| RpcError::Upstream("getAccountInfo answer could not be decoded".into()))?;
    let Some(mint_info) = sol::decode_mint(&data, &owner) else {
        return Err(AnalysisError::NotFound(format!(
            "the account {m} on sol is not a mint of the SPL Token or Token-2022 program (its owner is {owner})"
        )));
    };
    let largest = take(&mut answers).ok();
    let mut signatures = take(&mut answers);
    // Page back to the oldest signature (each page is one more round trip).
    let mut pages = 1;
    let mut reached_end = matches!(&signatures, Ok(Value::Array(list)) if (list.len() as u64) < SIGNATURE_PAGE);
    while let Ok(Value::Array(list)) = &signatures {
        if reached_end || pages >= SIGNATURE_PAGES {
            break;
        }
        let Some(before) = list.last().and_then(|s| s.get("signature")).and_then(Value::as_str).map(String::from) else { break };
        let older = chain.rpc.call("getSignaturesForAddress", json!([m, {"limit": SIGNATURE_PAGE, "before": before}])).await;
        pages += 1;
        match older {
            Ok(Value::Array(more)) => {
                let done = (more.len() as u64) < SIGNATURE_PAGE;
                if let Ok(Value::Array(list)) = &mut signatures {
                    list.extend(more);
                }
                if done {
                    reached_end = true;
                    break;
                }
            }
            other => {
                signatures = other;
                break;
            }
        }
    }
    let metaplex_meta = if metaplex.is_some() {
        take(&mut answers).ok().and_then(|v| v.get("value").cloned()).and_then(|v| account_data(&v)).and_then(|(d, o)| (o == sol::METAPLEX_PROGRAM).then(|| sol::decode_metaplex(&d)).flatten())
    } else {
        None
    };
    let mut pools = Vec::new();
    let mut pool_error = None;
    if chain.cpmm_program.is_some() {
        for _ in sol::CPMM_MINT_OFFSETS {
            match take(&mut answers) {
                Ok(Value::Array(list)) => {
                    for item in list {
                        let (Some(address), Some((data, _))) =
                            (item.get("pubkey").and_then(Value::as_str).and_then(|a| sol::parse_pubkey(a).ok()), item.get("account").and_then(account_data))
                        else {
                            continue;
                        };
                        if let Some(pool) = sol::decode_cpmm_pool(&data) {
                            if (pool.mint_0 == mint || pool.mint_1 == mint)
                                && !pools.iter().any(|p: &PoolView| p.address == address) {
                                    pools.push(PoolView { address, token_is_0: pool.mint_0 == mint, pool });
                                }
                        }
                    }
                }
                Ok(_) => pool_error = Some("getProgramAccounts answered something that is not a list".to_string()),
                Err(e) => pool_error = Some(format!("pool discovery failed ({e}); public nodes often refuse getProgramAccounts")),
            }
        }
    }
    let price_pool = if chain.price_pool.is_some() {
        take(&mut answers).ok().and_then(|v| v.get("value").cloned()).and_then(|v| account_data(&v)).and_then(|(d, _)| sol::decode_cpmm_pool(&d))
    } else {
        None
    };

    // Round 2: token accounts of the largest holders, pool vaults and LP mints, the price pool's vaults; the block time.
    let largest_accounts: Vec<(String, u64)> = largest
        .as_ref()
        .and_then(|l| l.get("value"))
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|i| Some((i.get("address")?.as_str()?.to_string(), i.get("amount")?.as_str()?.parse().ok()?)))
                .collect()
        })
        .unwrap_or_default();
    let mut wanted: Vec<String> = largest_accounts.iter().map(|(a, _)| a.clone()).collect();
    for p in &pools {
        wanted.extend([sol::encode(&p.pool.vault_0), sol::encode(&p.pool.vault_1), sol::encode(&p.pool.lp_mint)]);
    }
    if let Some(p) = &price_pool {
        wanted.extend([sol::encode(&p.vault_0), sol::encode(&p.vault_1)]);
    }
    let mut round2 = vec![("getMultipleAccounts".to_string(), json!([wanted, b64]))];
    if let Some(slot) = slot {
        round2.push(("getBlockTime".into(), json!([slot])));
    }
    let mut answers = chain.rpc.batch(round2).await?.into_iter();
    let accounts: HashMap<String, (Vec<u8>, String)> = match take(&mut answers)?.get("value").and_then(Value::as_array) {
        Some(list) => wanted.iter().cloned().zip(list.iter()).filter_map(|(k, v)| Some((k, account_data(v)?))).collect(),
        None => return Err(RpcError::Upstream("getMultipleAccounts answer could not be decoded".into()).into()),
    };
    let chain_time = if slot.is_some() { take(&mut answers).ok().and_then(|v| v.as_i64()) } else { None };
    let token_amount = |address: &Pubkey| accounts.get(&sol::encode(address)).and_then(|(d, _)| sol::decode_token_account(d)).map(|a| a.amount);

    // Prices: SOL from the price pool; stablecoins at $1.
    let mut usd: HashMap<Pubkey, f64> = chain.stables.iter().map(|(k, _)| (*k, 1.0)).collect();
    if let Some(p) = &price_pool {
        let (a0, a1) = (token_amount(&p.vault_0), token_amount(&p.vault_1));
        if let (Some(a0), Some(a1)) = (a0, a1) {
            let (sol_amount, stable_amount) =
                if p.mint_0 == chain.wsol { (amount_units(a0, p.decimals.0), amount_units(a1, p.decimals.1)) } else { (amount_units(a1, p.decimals.1), amount_units(a0, p.decimals.0)) };
            if sol_amount > 0.0 {
                usd.insert(chain.wsol, stable_amount / sol_amount);
            }
        }
    }
    let symbol_of = |k: &Pubkey| {
        if *k == chain.wsol {
            "SOL".to_string()
        } else {
            chain.stables.iter().find(|(s, _)| s == k).map(|(_, s)| s.clone()).unwrap_or_else(|| sol::encode(k))
        }
    };

    let mut b = Builder::new(slot.unwrap_or_default());
    let allow_note = allow.map(|a| format!("{} is an allow-listed issuer: {}", a.issuer, a.reason));
    let mint_rpc = "getAccountInfo(mint, base64)";
    let issuer = |b: &mut Builder, id: &str, severity: Severity, weight: f64, title: &str, detail: String, raw: Value| match &allow_note {
        Some(note) => b.detected(id, SignalCategory::Contract, Severity::Info, 0.0, title, format!("{detail} {note}."), mint_rpc, raw),
        None => b.detected(id, SignalCategory::Contract, severity, weight, title, detail, mint_rpc, raw),
    };
    match mint_info.mint_authority {
        Some(a) => issuer(&mut b, "mint_authority_active", Severity::High, 0.35, "Mint authority is active", format!("{} can mint new tokens at will.", sol::encode(&a)), json!({"mint_authority": sol::encode(&a)})),
        None => b.clear("mint_authority_active"),
    }
    match mint_info.freeze_authority {
        Some(a) => issuer(&mut b, "freeze_authority_active", Severity::High, 0.35, "Freeze authority is active", format!("{} can freeze any holder's tokens.", sol::encode(&a)), json!({"freeze_authority": sol::encode(&a)})),
        None => b.clear("freeze_authority_active"),
    }
    match mint_info.permanent_delegate {
        Some(a) => issuer(&mut b, "permanent_delegate", Severity::Critical, 0.6, "Permanent delegate", format!("{} can move or burn tokens from any account, without the holder's signature.", sol::encode(&a)), json!({"delegate": sol::encode(&a)})),
        None => b.clear("permanent_delegate"),
    }
    match mint_info.pausable {
        Some((authority, paused)) => issuer(&mut b, "pausable", Severity::High, 0.3, "Transfers can be paused", format!("The mint is pausable{}; paused now: {paused}.", authority.map(|a| format!(" by {}", sol::encode(&a))).unwrap_or_default()), json!({"authority": authority.map(|a| sol::encode(&a)), "paused": paused})),
        None => b.clear("pausable"),
    }
    match mint_info.transfer_hook {
        Some((Some(program), authority)) => b.detected(
            "transfer_hook",
            SignalCategory::Trading,
            Severity::High,
            0.3,
            "Transfer hook",
            format!(
                "Every transfer runs program {}{}, which can refuse or tax it.",
                sol::encode(&program),
                authority.map(|a| format!("; {} can change the hook", sol::encode(&a))).unwrap_or_default()
            ),
            mint_rpc,
            json!({"program": sol::encode(&program), "authority": authority.map(|a| sol::encode(&a))}),
        ),
        _ => b.clear("transfer_hook"),
    }
    match &mint_info.transfer_fee {
        Some(fee) if fee.basis_points > 0 => {
            let level = if fee.basis_points > 1000 { 2 } else if fee.basis_points > 500 { 1 } else { 0 } + usize::from(fee.config_authority.is_some());
            let (severity, weight) = [(Severity::Low, 0.05), (Severity::Medium, 0.15), (Severity::High, 0.3), (Severity::Critical, 0.5)][level.min(3)];
            b.detected(
                "transfer_fee",
                SignalCategory::Trading,
                severity,
                weight,
                "Transfer fee",
                format!(
                    "Every transfer pays {:.2}% (at most {} base units){}.",
                    fee.basis_points as f64 / 100.0,
                    fee.maximum_fee,
                    fee.config_authority.map(|a| format!("; {} can change it", sol::encode(&a))).unwrap_or_default()
                ),
                mint_rpc,
                json!({"basis_points": fee.basis_points, "maximum_fee": fee.maximum_fee, "authority": fee.config_authority.map(|a| sol::encode(&a))}),
            );
        }
        _ => b.clear("transfer_fee"),
    }
    for (id, on, title, detail) in [
        ("default_frozen", mint_info.default_frozen, "New accounts start frozen", "Token accounts are created frozen; holders can move tokens only after the freeze authority thaws them."),
        ("non_transferable", mint_info.non_transferable, "Non-transferable", "The tokens cannot be transferred at all, so they cannot be sold."),
    ] {
        if on {
            b.detected(id, SignalCategory::Trading, Severity::Critical, 0.6, title, detail.into(), mint_rpc, json!({"extension": id}));
        } else {
            b.clear(id);
        }
    }
    match mint_info.close_authority {
        Some(a) => b.detected("mint_close_authority", SignalCategory::Contract, Severity::Low, 0.05, "Mint can be closed", format!("{} can close the mint account once supply is zero.", sol::encode(&a)), mint_rpc, json!({"close_authority": sol::encode(&a)})),
        None => b.clear("mint_close_authority"),
    }
    if mint_info.confidential_transfers {
        b.detected("confidential_transfers", SignalCategory::Distribution, Severity::Medium, 0.1, "Confidential transfers", "Balances and transfers can be hidden, so holder concentration cannot be fully checked.".into(), mint_rpc, json!({"extension": "confidentialTransferMint"}));
    } else {
        b.clear("confidential_transfers");
    }

    // Age.
    let complete_history = reached_end && signatures.is_ok();
    let oldest = match &signatures {
        Ok(Value::Array(list)) if complete_history => list.last().and_then(|s| Some((s.get("slot")?.as_u64()?, s.get("blockTime")?.as_i64()?))),
        _ => None,
    };
    let now_time = chain_time.unwrap_or(now.timestamp());
    let age = oldest.map(|(_, t)| (now_time - t).max(0));

    // Metadata.
    let metadata = mint_info.metadata.clone().or(metaplex_meta);
    match &metadata {
        Some(meta) if meta.is_mutable => {
            let young = age.is_some_and(|a| a < 86_400);
            let (severity, weight) = if young { (Severity::Medium, 0.1) } else { (Severity::Low, 0.05) };
            b.detected(
                "metadata_mutable",
                SignalCategory::Contract,
                severity,
                weight,
                "Metadata can be changed",
                format!(
                    "{} can change the token's name, symbol and image ({} metadata).",
                    meta.update_authority.map(|a| sol::encode(&a)).unwrap_or_default(),
                    meta.source
                ),
                "getAccountInfo(mint / Metaplex metadata PDA)",
                json!({"update_authority": meta.update_authority.map(|a| sol::encode(&a)), "source": meta.source}),
            );
        }
        Some(_) => b.clear("metadata_mutable"),
        None => b.unknown("metadata_mutable", "the mint has no Token-2022 metadata and no Metaplex metadata account"),
    }

    // Liquidity.
    let mut pool_rows = Vec::new();
    let mut vaults: HashSet<Pubkey> = HashSet::new();
    let mut liquidity_total = 0.0;
    let mut priced = false;
    let mut best: Option<(f64, f64)> = None;
    let mut lp_burned: Option<(f64, String)> = None;
    for p in &pools {
        vaults.extend([p.pool.vault_0, p.pool.vault_1]);
        let (token_vault, quote_vault, quote_mint, quote_decimals) = if p.token_is_0 {
            (p.pool.vault_0, p.pool.vault_1, p.pool.mint_1, p.pool.decimals.1)
        } else {
            (p.pool.vault_1, p.pool.vault_0, p.pool.mint_0, p.pool.decimals.0)
        };
        let reserve_token = amount_units(token_amount(&token_vault).unwrap_or(0), mint_info.decimals);
        let reserve_quote = amount_units(token_amount(&quote_vault).unwrap_or(0), quote_decimals);
        let liquidity_usd = usd.get(&quote_mint).map(|price| 2.0 * reserve_quote * price);
        if let Some(l) = liquidity_usd {
            priced = true;
            liquidity_total += l;
            if reserve_token > 0.0 && best.is_none_or(|(depth, _)| l > depth) {
                best = Some((l, l / 2.0 / reserve_token));
            }
        }
        let lp_supply_now = accounts.get(&sol::encode(&p.pool.lp_mint)).and_then(|(d, o)| sol::decode_mint(d, o)).map(|lp| lp.supply);
        let burned_share = lp_supply_now.filter(|_| p.pool.lp_supply > 0).map(|now| 1.0 - now as f64 / p.pool.lp_supply as f64);
        if let Some(share) = burned_share {
            if lp_burned.as_ref().is_none_or(|_| liquidity_usd.unwrap_or(0.0) >= best.map_or(0.0, |b| b.0)) {
                lp_burned = Some((share, sol::encode(&p.address)));
            }
        }
        pool_rows.push(Pool {
            dex: "Raydium CPMM".into(),
            address: sol::encode(&p.address),
            quote_address: sol::encode(&quote_mint),
            quote_symbol: symbol_of(&quote_mint),
            reserve_token,
            reserve_quote,
            liquidity_usd,
            lp_burned_share: burned_share,
            lp_locked_share: burned_share,
            lp_owner_share: None,
            lp_creator_share: None,
        });
    }
    let pools_rpc = "getProgramAccounts(Raydium CPMM, memcmp mint), getMultipleAccounts(vaults, LP mint)";
    if let Some(reason) = &pool_error {
        for id in ["no_liquidity", "low_liquidity", "lp_unburned"] {
            b.unknown(id, reason.clone());
        }
    } else if pool_rows.iter().all(|p| p.reserve_token == 0.0) {
        b.detected("no_liquidity", SignalCategory::Liquidity, Severity::High, 0.4, "No liquidity pool", "No Raydium CPMM pool with reserves was found for this mint; other AMM families (Raydium AMM v4, Orca, Meteora, PumpSwap) are not searched yet.".into(), pools_rpc, json!({"pools_found": pool_rows.len(), "families_searched": ["raydium_cpmm"]}));
        b.unknown("low_liquidity", "there is no pool to measure");
        b.unknown("lp_unburned", "there is no pool");
    } else {
        b.clear("no_liquidity");
        if !priced {
            b.unknown("low_liquidity", "the pools' quote tokens have no USD price (no price pool is configured or readable)");
        } else if liquidity_total < assess::LOW_LIQUIDITY_MEDIUM_USD {
            let (severity, weight) = if liquidity_total < assess::LOW_LIQUIDITY_HIGH_USD { (Severity::High, 0.3) } else { (Severity::Medium, 0.15) };
            b.detected("low_liquidity", SignalCategory::Liquidity, severity, weight, "Low liquidity", format!("The Raydium CPMM pools hold ${liquidity_total:.2} of liquidity."), pools_rpc, json!({"liquidity_usd": liquidity_total}));
        } else {
            b.clear("low_liquidity");
        }
        match &lp_burned {
            Some((share, pool)) if *share < 0.95 => b.detected("lp_unburned", SignalCategory::Liquidity, Severity::High, 0.25, "LP tokens not burned", format!("Only {} of pool {pool}'s LP tokens are burned; their holders can withdraw the liquidity.", pct(*share)), pools_rpc, json!({"pool": pool, "lp_burned_share": share})),
            Some(_) => b.clear("lp_unburned"),
            None => b.unknown("lp_unburned", "the LP mint could not be read"),
        }
    }

    // Families of pools not searched: named, so coverage says what was not looked at.
    b.unknown(
        "other_amm_pools",
        "pools of Raydium AMM v4, Orca Whirlpools, Meteora and PumpSwap are not discovered yet; only Raydium CPMM pools count",
    );

    // Holders: the largest token accounts, resolved to their owners; pool vaults and the incinerator excluded.
    let incinerator = sol::key(sol::INCINERATOR);
    let mut by_owner: BTreeMap<Pubkey, u64> = BTreeMap::new();
    for (address, amount) in &largest_accounts {
        let Ok(account_key) = sol::parse_pubkey(address) else { continue };
        if vaults.contains(&account_key) {
            continue;
        }
        let Some(account) = accounts.get(address).and_then(|(d, _)| sol::decode_token_account(d)) else { continue };
        if account.owner == incinerator {
            continue;
        }
        *by_owner.entry(account.owner).or_default() += amount;
    }
    let mut owners: Vec<(Pubkey, u64)> = by_owner.into_iter().collect();
    owners.sort_by_key(|o| std::cmp::Reverse(o.1));
    let supply = mint_info.supply;
    let holders_rpc = "getTokenLargestAccounts, getMultipleAccounts(token accounts → owners)";
    if largest.is_none() {
        b.unknown("whale_concentration", "the node did not list the largest token accounts");
        b.unknown("single_holder_dominance", "the node did not list the largest token accounts");
    } else if supply == 0 {
        b.clear("whale_concentration");
        b.clear("single_holder_dominance");
    } else {
        let share = |amount: u64| amount as f64 / supply as f64;
        let top10: u64 = owners.iter().take(10).map(|(_, a)| a).sum();
        let top = owners.iter().take(10).map(|(o, a)| json!({"owner": sol::encode(o), "amount": a.to_string(), "share": share(*a)})).collect::<Vec<_>>();
        if share(top10) > 0.5 {
            let (severity, weight) = if share(top10) > 0.7 { (Severity::Critical, 0.5) } else { (Severity::High, 0.3) };
            b.detected("whale_concentration", SignalCategory::Distribution, severity, weight, "Supply concentrated in few wallets", format!("The 10 largest owners (pool vaults and burn excluded) hold {} of the supply.", pct(share(top10))), holders_rpc, json!({"top10_share": share(top10), "top": top}));
        } else {
            b.clear("whale_concentration");
        }
        match owners.first() {
            Some((owner, amount)) if share(*amount) > 0.2 => {
                let (severity, weight) = if share(*amount) > 0.5 { (Severity::Critical, 0.6) } else { (Severity::High, 0.25) };
                b.detected("single_holder_dominance", SignalCategory::Distribution, severity, weight, "One owner holds a large share", format!("{} holds {} of the supply across its token accounts.", sol::encode(owner), pct(share(*amount))), holders_rpc, json!({"owner": sol::encode(owner), "amount": amount.to_string(), "share": share(*amount)}));
            }
            _ => b.clear("single_holder_dominance"),
        }
    }

    match (age, &signatures) {
        (Some(age), _) if age < 7 * 86_400 => {
            let (severity, weight, band) = if age < 3_600 { (Severity::High, 0.25, "less than an hour") } else if age < 86_400 { (Severity::Medium, 0.12, "less than a day") } else { (Severity::Low, 0.05, "less than a week") };
            b.detected("new_token", SignalCategory::Market, severity, weight, "New token", format!("The mint's first transaction was {band} ago ({} hours).", age / 3_600), "getSignaturesForAddress(mint), getBlockTime", json!({"first_signature_slot": oldest.map(|o| o.0), "age_seconds": age}));
        }
        (Some(_), _) => b.clear("new_token"),
        (None, Ok(Value::Array(list))) if !complete_history => {
            // More history than we page through: the newest page's oldest entry bounds the age.
            match list.last().and_then(|s| s.get("blockTime")).and_then(Value::as_i64) {
                Some(t) if now_time - t >= 7 * 86_400 => b.clear("new_token"),
                _ => b.unknown("new_token", format!("the mint has more than {} signatures; its first one was not reached", list.len())),
            }
        }
        _ => b.unknown("new_token", "the mint's signature history could not be read"),
    }

    let score = assess::score(&b.signals);
    let coverage = assess::coverage(b.checks);
    let label = assess::label(score, coverage.ratio);
    let price_usd = best.map(|(_, p)| p);
    let supply_units = amount_units(supply, mint_info.decimals);
    Ok(TokenAnalysis {
        chain: "sol".into(),
        address: m,
        score,
        label,
        signals: b.signals,
        meta: TokenMeta {
            name: metadata.as_ref().map(|d| d.name.clone()).unwrap_or_default(),
            symbol: metadata.as_ref().map(|d| d.symbol.clone()).unwrap_or_default(),
            price_usd,
            market_cap_usd: price_usd.map(|p| p * supply_units),
            decimals: Some(mint_info.decimals),
            total_supply: Some(supply.to_string()),
            liquidity_usd: priced.then_some(liquidity_total),
            pools: pool_rows,
            owner: mint_info.mint_authority.map(|a| sol::encode(&a)),
            creator: None,
            is_proxy: false,
            implementation: None,
            token_program: Some(if mint_info.token_2022 { "token-2022" } else { "spl-token" }.into()),
            first_seen_block: oldest.map(|o| o.0),
            buy_tax: None,
            sell_tax: None,
            transfer_tax: mint_info.transfer_fee.as_ref().map(|f| f.basis_points as f64 / 10_000.0),
        },
        cached_at: now,
        as_of_block: slot,
        coverage,
        simulations: Vec::new(),
        stale: false,
    })
}
