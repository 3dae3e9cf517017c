//! From a Solana mint's facts to its checks, signals and metadata.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{DateTime, Utc};
use riskintel_api::{CheckId, Pool, PoolKind, Severity, SignalCategory, TokenAnalysis, TokenMeta};
use serde_json::{json, Value};

use super::facts::SolanaFacts;
use crate::chains::evm::pools::depth::Depth;
use crate::chains::solana::layouts;
use crate::chains::solana::{self as sol, Pubkey, SolanaChain};
use crate::config::AllowlistEntry;
use crate::scoring::{band, low_liquidity_degree, new_token_degree, pct, tax_degree, Builder};

fn amount_units(amount: u64, decimals: u8) -> f64 {
    amount as f64 / 10f64.powi(decimals as i32)
}

/// The analysis of a mint from its facts, made at `now`.
pub fn analysis(
    chain: &SolanaChain,
    f: &SolanaFacts,
    allow: Option<&AllowlistEntry>,
    now: DateTime<Utc>,
) -> TokenAnalysis {
    // Prices: SOL from the price pool; stablecoins at $1.
    let mut usd: HashMap<Pubkey, f64> = chain.stables.iter().map(|(k, _)| (*k, 1.0)).collect();
    if let Some(p) = &f.price_pool {
        let (a0, a1) = (f.token_amount(&p.vault_0), f.token_amount(&p.vault_1));
        if let (Some(a0), Some(a1)) = (a0, a1) {
            let (sol_amount, stable_amount) = if p.mint_0 == chain.wsol {
                (
                    amount_units(a0, p.decimals.0),
                    amount_units(a1, p.decimals.1),
                )
            } else {
                (
                    amount_units(a1, p.decimals.1),
                    amount_units(a0, p.decimals.0),
                )
            };
            if sol_amount > 0.0 {
                usd.insert(chain.wsol, stable_amount / sol_amount);
            }
        }
    }
    let symbol_of = |k: &Pubkey| chain.symbol_of(k);

    let mut b = Builder::new(f.slot.unwrap_or_default());
    let allow_note = allow.map(|a| format!("{} is an allow-listed issuer: {}", a.issuer, a.reason));
    let mint_rpc = "getAccountInfo(mint, base64)";
    let issuer = |b: &mut Builder,
                  id: CheckId,
                  severity: Severity,
                  weight: f64,
                  title: &str,
                  detail: String,
                  raw: Value| match &allow_note {
        Some(note) => b.detected(
            id,
            SignalCategory::Contract,
            Severity::Info,
            0.0,
            title,
            format!("{detail} {note}."),
            mint_rpc,
            raw,
        ),
        None => b.detected(
            id,
            SignalCategory::Contract,
            severity,
            weight,
            title,
            detail,
            mint_rpc,
            raw,
        ),
    };
    match f.mint.mint_authority {
        Some(a) => issuer(
            &mut b,
            CheckId::MintAuthorityActive,
            Severity::High,
            band::RISKY,
            "Mint authority is active",
            format!("{} can mint new tokens at will.", sol::encode(&a)),
            json!({"mint_authority": sol::encode(&a)}),
        ),
        None => b.clear(CheckId::MintAuthorityActive),
    }
    match f.mint.freeze_authority {
        Some(a) => issuer(
            &mut b,
            CheckId::FreezeAuthorityActive,
            Severity::High,
            0.35,
            "Freeze authority is active",
            format!("{} can freeze any holder's tokens.", sol::encode(&a)),
            json!({"freeze_authority": sol::encode(&a)}),
        ),
        None => b.clear(CheckId::FreezeAuthorityActive),
    }
    match f.mint.permanent_delegate {
        Some(a) => issuer(
            &mut b,
            CheckId::PermanentDelegate,
            Severity::Critical,
            band::CRITICAL,
            "Permanent delegate",
            format!(
                "{} can move or burn tokens from any account, without the holder's signature.",
                sol::encode(&a)
            ),
            json!({"delegate": sol::encode(&a)}),
        ),
        None => b.clear(CheckId::PermanentDelegate),
    }
    match f.mint.pausable {
        Some((authority, paused)) => issuer(
            &mut b,
            CheckId::Pausable,
            Severity::High,
            0.3,
            "Transfers can be paused",
            format!(
                "The mint is pausable{}; paused now: {paused}.",
                authority
                    .map(|a| format!(" by {}", sol::encode(&a)))
                    .unwrap_or_default()
            ),
            json!({"authority": authority.map(|a| sol::encode(&a)), "paused": paused}),
        ),
        None => b.clear(CheckId::Pausable),
    }
    match f.mint.transfer_hook {
        Some((Some(program), authority)) => b.detected(
            CheckId::TransferHook,
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
        _ => b.clear(CheckId::TransferHook),
    }
    match &f.mint.transfer_fee {
        Some(fee) if fee.basis_points > 0 => {
            // A fee on every transfer is a tax on every sell: the tax bands,
            // one level more when its authority can change it.
            let (severity, weight) = tax_degree(
                fee.basis_points as f64 / 10_000.0,
                fee.config_authority.is_some(),
            );
            b.detected(
                CheckId::TransferFee,
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
        _ => b.clear(CheckId::TransferFee),
    }
    for (id, on, title, detail) in [
        (CheckId::DefaultFrozen, f.mint.default_frozen, "New accounts start frozen", "Token accounts are created frozen; holders can move tokens only after the freeze authority thaws them."),
        (CheckId::NonTransferable, f.mint.non_transferable, "Non-transferable", "The tokens cannot be transferred at all, so they cannot be sold."),
    ] {
        if on {
            b.detected(id, SignalCategory::Trading, Severity::Critical, 0.6, title, detail.into(), mint_rpc, json!({"extension": id}));
        } else {
            b.clear(id);
        }
    }
    match f.mint.close_authority {
        Some(a) => b.detected(
            CheckId::MintCloseAuthority,
            SignalCategory::Contract,
            Severity::Low,
            0.05,
            "Mint can be closed",
            format!(
                "{} can close the mint account once supply is zero.",
                sol::encode(&a)
            ),
            mint_rpc,
            json!({"close_authority": sol::encode(&a)}),
        ),
        None => b.clear(CheckId::MintCloseAuthority),
    }
    if f.mint.confidential_transfers {
        b.detected(CheckId::ConfidentialTransfers, SignalCategory::Distribution, Severity::Medium, 0.1, "Confidential transfers", "Balances and transfers can be hidden, so holder concentration cannot be fully checked.".into(), mint_rpc, json!({"extension": "confidentialTransferMint"}));
    } else {
        b.clear(CheckId::ConfidentialTransfers);
    }

    // Age.
    let complete_history = f.complete_history && f.signatures.is_ok();
    let oldest = match &f.signatures {
        Ok(list) if complete_history => list.last().and_then(|s| Some((s.slot, s.block_time?))),
        _ => None,
    };
    let now_time = f.chain_time.unwrap_or(now.timestamp());
    let age = oldest.map(|(_, t)| (now_time - t).max(0));

    // Metadata.
    let metadata = f.mint.metadata.clone().or(f.metaplex.clone());
    match &metadata {
        Some(meta) if meta.is_mutable => {
            let young = age.is_some_and(|a| a < 86_400);
            let (severity, weight) = if young {
                (Severity::Medium, 0.1)
            } else {
                (Severity::Low, 0.05)
            };
            b.detected(
                CheckId::MetadataMutable,
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
        Some(_) => b.clear(CheckId::MetadataMutable),
        None => b.unknown(
            CheckId::MetadataMutable,
            "the mint has no Token-2022 metadata and no Metaplex metadata account",
        ),
    }

    // Liquidity.
    let mut pool_rows = Vec::new();
    let mut vaults: HashSet<Pubkey> = HashSet::new();
    let mut liquidity_total = 0.0;
    let mut priced = false;
    let mut best: Option<(f64, f64)> = None;
    let mut lp_burned: Option<(f64, String)> = None;
    for p in &f.pools {
        vaults.extend([p.pool.vault_0, p.pool.vault_1]);
        let (token_vault, quote_vault, quote_mint, quote_decimals) = if p.token_is_0 {
            (
                p.pool.vault_0,
                p.pool.vault_1,
                p.pool.mint_1,
                p.pool.decimals.1,
            )
        } else {
            (
                p.pool.vault_1,
                p.pool.vault_0,
                p.pool.mint_0,
                p.pool.decimals.0,
            )
        };
        let reserve_token =
            amount_units(f.token_amount(&token_vault).unwrap_or(0), f.mint.decimals);
        let reserve_quote = amount_units(f.token_amount(&quote_vault).unwrap_or(0), quote_decimals);
        let liquidity_usd = usd
            .get(&quote_mint)
            .map(|price| 2.0 * reserve_quote * price);
        if let Some(l) = liquidity_usd {
            priced = true;
            liquidity_total += l;
            if reserve_token > 0.0 && best.is_none_or(|(depth, _)| l > depth) {
                best = Some((l, l / 2.0 / reserve_token));
            }
        }
        let lp_supply_now = f
            .accounts
            .get(&sol::encode(&p.pool.lp_mint))
            .and_then(|a| layouts::decode_mint(&a.data, &a.owner))
            .map(|lp| lp.supply);
        let burned_share = lp_supply_now
            .filter(|_| p.pool.lp_supply > 0)
            .map(|now| 1.0 - now as f64 / p.pool.lp_supply as f64);
        if let Some(share) = burned_share {
            if lp_burned
                .as_ref()
                .is_none_or(|_| liquidity_usd.unwrap_or(0.0) >= best.map_or(0.0, |b| b.0))
            {
                lp_burned = Some((share, sol::encode(&p.address)));
            }
        }
        pool_rows.push(Pool {
            dex: "Raydium CPMM".into(),
            kind: PoolKind::ConstantProduct,
            fee_bps: None,
            address: sol::encode(&p.address),
            hook: None,
            hook_flags: Vec::new(),
            quote_address: sol::encode(&quote_mint),
            quote_symbol: symbol_of(&quote_mint),
            reserve_token,
            reserve_quote,
            liquidity_usd,
            depth_2pct_usd: liquidity_usd.map(|l| Depth::constant_product(l / 2.0).total()),
            tvl_usd: liquidity_usd,
            lp_burned_share: burned_share,
            lp_locked_share: burned_share,
            lp_owner_share: None,
            lp_creator_share: None,
        });
    }
    let pools_rpc =
        "getProgramAccounts(Raydium CPMM, memcmp mint), getMultipleAccounts(vaults, LP mint)";
    if let Some(reason) = &f.pool_error {
        for id in [
            CheckId::NoLiquidity,
            CheckId::LowLiquidity,
            CheckId::LpUnburned,
        ] {
            b.unknown(id, reason.clone());
        }
    } else if pool_rows.iter().all(|p| p.reserve_token == 0.0) {
        b.detected(CheckId::NoLiquidity, SignalCategory::Liquidity, Severity::High, 0.4, "No liquidity pool", "No Raydium CPMM pool with reserves was found for this mint; other AMM families (Raydium AMM v4, Orca, Meteora, PumpSwap) are not searched yet.".into(), pools_rpc, json!({"pools_found": pool_rows.len(), "families_searched": ["raydium_cpmm"]}));
        b.unknown(CheckId::LowLiquidity, "there is no pool to measure");
        b.unknown(CheckId::LpUnburned, "there is no pool");
    } else {
        b.clear(CheckId::NoLiquidity);
        if !priced {
            b.unknown(CheckId::LowLiquidity, "the pools' quote tokens have no USD price (no price pool is configured or readable)");
        } else if let Some((severity, weight)) = low_liquidity_degree(liquidity_total) {
            b.detected(
                CheckId::LowLiquidity,
                SignalCategory::Liquidity,
                severity,
                weight,
                "Low liquidity",
                format!("The Raydium CPMM pools hold ${liquidity_total:.2} of liquidity."),
                pools_rpc,
                json!({"liquidity_usd": liquidity_total}),
            );
        } else {
            b.clear(CheckId::LowLiquidity);
        }
        match &lp_burned {
            Some((share, pool)) if *share < 0.95 => b.detected(CheckId::LpUnburned, SignalCategory::Liquidity, Severity::High, 0.25, "LP tokens not burned", format!("Only {} of pool {pool}'s LP tokens are burned; their holders can withdraw the liquidity.", pct(*share)), pools_rpc, json!({"pool": pool, "lp_burned_share": share})),
            Some(_) => b.clear(CheckId::LpUnburned),
            None => b.unknown(CheckId::LpUnburned, "the LP mint could not be read"),
        }
    }

    // Families of pools not searched: named, so coverage says what was not looked at.
    b.unknown(
        CheckId::OtherAmmPools,
        "pools of Raydium AMM v4, Orca Whirlpools, Meteora and PumpSwap are not discovered yet; only Raydium CPMM pools count",
    );

    // Holders: the largest token accounts, resolved to their owners; pool vaults and the incinerator excluded.
    let incinerator = sol::key(sol::INCINERATOR);
    let mut by_owner: BTreeMap<Pubkey, u64> = BTreeMap::new();
    for (address, amount) in f.largest.iter().flatten() {
        let Ok(account_key) = sol::parse_pubkey(address) else {
            continue;
        };
        if vaults.contains(&account_key) {
            continue;
        }
        let Some(account) = f
            .accounts
            .get(address)
            .and_then(|a| layouts::decode_token_account(&a.data))
        else {
            continue;
        };
        if account.owner == incinerator {
            continue;
        }
        *by_owner.entry(account.owner).or_default() += amount;
    }
    let mut owners: Vec<(Pubkey, u64)> = by_owner.into_iter().collect();
    owners.sort_by_key(|o| std::cmp::Reverse(o.1));
    let supply = f.mint.supply;
    let holders_rpc = "getTokenLargestAccounts, getMultipleAccounts(token accounts → owners)";
    if f.largest.is_none() {
        b.unknown(
            CheckId::WhaleConcentration,
            "the node did not list the largest token accounts",
        );
        b.unknown(
            CheckId::SingleHolderDominance,
            "the node did not list the largest token accounts",
        );
    } else if supply == 0 {
        b.clear(CheckId::WhaleConcentration);
        b.clear(CheckId::SingleHolderDominance);
    } else {
        let share = |amount: u64| amount as f64 / supply as f64;
        let top10: u64 = owners.iter().take(10).map(|(_, a)| a).sum();
        let top = owners.iter().take(10).map(|(o, a)| json!({"owner": sol::encode(o), "amount": a.to_string(), "share": share(*a)})).collect::<Vec<_>>();
        if share(top10) > 0.5 {
            let (severity, weight) = if share(top10) > 0.7 {
                (Severity::Critical, 0.5)
            } else {
                (Severity::High, 0.3)
            };
            b.detected(
                CheckId::WhaleConcentration,
                SignalCategory::Distribution,
                severity,
                weight,
                "Supply concentrated in few wallets",
                format!(
                    "The 10 largest owners (pool vaults and burn excluded) hold {} of the supply.",
                    pct(share(top10))
                ),
                holders_rpc,
                json!({"top10_share": share(top10), "top": top}),
            );
        } else {
            b.clear(CheckId::WhaleConcentration);
        }
        match owners.first() {
            Some((owner, amount)) if share(*amount) > 0.2 => {
                let (severity, weight) = if share(*amount) > 0.5 {
                    (Severity::Critical, 0.6)
                } else {
                    (Severity::High, 0.25)
                };
                b.detected(CheckId::SingleHolderDominance, SignalCategory::Distribution, severity, weight, "One owner holds a large share", format!("{} holds {} of the supply across its token accounts.", sol::encode(owner), pct(share(*amount))), holders_rpc, json!({"owner": sol::encode(owner), "amount": amount.to_string(), "share": share(*amount)}));
            }
            _ => b.clear(CheckId::SingleHolderDominance),
        }
    }

    match (age.map(|age| (age, new_token_degree(age))), &f.signatures) {
        (Some((age, Some((severity, weight, band)))), _) => {
            b.detected(
                CheckId::NewToken,
                SignalCategory::Market,
                severity,
                weight,
                "New token",
                format!(
                    "The mint's first transaction was {band} ago ({} hours).",
                    age / 3_600
                ),
                "getSignaturesForAddress(mint), getBlockTime",
                json!({"first_signature_slot": oldest.map(|o| o.0), "age_seconds": age}),
            );
        }
        (Some(_), _) => b.clear(CheckId::NewToken),
        (None, Ok(list)) if !complete_history => {
            // More history than we page through: the newest page's oldest entry bounds the age.
            match list.last().and_then(|s| s.block_time) {
                Some(t) if now_time - t >= 7 * 86_400 => b.clear(CheckId::NewToken),
                _ => b.unknown(
                    CheckId::NewToken,
                    format!(
                        "the mint has more than {} signatures; its first one was not reached",
                        list.len()
                    ),
                ),
            }
        }
        _ => b.unknown(
            CheckId::NewToken,
            "the mint's signature history could not be read",
        ),
    }

    let verdict = b.verdict();
    let price_usd = best.map(|(_, p)| p);
    let supply_units = amount_units(supply, f.mint.decimals);
    TokenAnalysis {
        chain: "sol".into(),
        address: sol::encode(&f.mint_address),
        score: verdict.score,
        label: verdict.label,
        signals: verdict.signals,
        meta: TokenMeta {
            name: metadata
                .as_ref()
                .map(|d| d.name.clone())
                .unwrap_or_default(),
            symbol: metadata
                .as_ref()
                .map(|d| d.symbol.clone())
                .unwrap_or_default(),
            price_usd,
            market_cap_usd: price_usd.map(|p| p * supply_units),
            decimals: Some(f.mint.decimals),
            total_supply: Some(supply.to_string()),
            liquidity_usd: priced.then_some(liquidity_total),
            pools: pool_rows,
            owner: f.mint.mint_authority.map(|a| sol::encode(&a)),
            creator: None,
            is_proxy: false,
            implementation: None,
            token_program: Some(
                if f.mint.token_2022 {
                    "token-2022"
                } else {
                    "spl-token"
                }
                .into(),
            ),
            first_seen_block: oldest.map(|o| o.0),
            buy_tax: None,
            sell_tax: None,
            transfer_tax: f
                .mint
                .transfer_fee
                .as_ref()
                .map(|f| f.basis_points as f64 / 10_000.0),
        },
        cached_at: now,
        as_of_block: f.slot,
        coverage: verdict.coverage,
        simulations: Vec::new(),
        stale: false,
    }
}
