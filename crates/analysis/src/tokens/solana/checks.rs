//! From a Solana mint's facts to its checks, signals and metadata.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use riskintel_types::{CheckId, Severity, SignalCategory, TokenAnalysis, TokenMeta};
use serde_json::{json, Value};

use super::facts::SolanaFacts;
use super::{holders, launch, liquidity, sell};
use crate::config::AllowlistEntry;
use crate::scoring::{band, new_token_degree, pct, tax_degree, Builder};
use riskintel_chains::solana::{self as sol, Pubkey, SolanaChain};

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
    // Prices: SOL from the price pools; stablecoins at $1.
    let mut usd: HashMap<Pubkey, f64> = chain.stables.iter().map(|(k, _)| (*k, 1.0)).collect();
    if let Some((price, _)) = liquidity::sol_price(chain, f) {
        usd.insert(chain.wsol, price);
    }

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
    let young = age.is_some_and(|a| a < 7 * 86_400);
    let liquidity = liquidity::assess(chain, f, &usd, young, &mut b);

    // Holders: the largest token accounts, resolved to their owners (pools
    // and the incinerator left out); the launch cluster counts as one
    // holder with its creator.
    let pool_accounts = launch::pool_accounts(&f.pools);
    let largest = f.largest.as_deref().unwrap_or_default();
    let mut owners = holders::owners(&f.accounts, largest, &pool_accounts);
    let cluster = (f.launch.as_ref().ok()).filter(|l| !l.members().is_empty());
    if let Some(launch) = cluster {
        let wallets = launch.wallets();
        owners.retain(|(o, _)| !wallets.iter().any(|(w, _)| w == o));
        let held = (wallets.iter()).fold(0u64, |sum, (_, h)| sum.saturating_add(*h));
        owners.push((launch.creator.clone(), held));
        owners.sort_by_key(|o| std::cmp::Reverse(o.1));
    }
    let cluster_of = |owner: &str| {
        cluster
            .filter(|l| l.creator == owner)
            .map(|l| l.members().len())
    };
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
        let top10 = (owners.iter().take(10)).fold(0u64, |sum, (_, a)| sum.saturating_add(*a));
        let top = owners.iter().take(10).map(|(o, a)| json!({"owner": o, "amount": a.to_string(), "share": share(*a), "launch_cluster_wallets": cluster_of(o)})).collect::<Vec<_>>();
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
                let who = match cluster_of(owner) {
                    Some(n) => format!(
                        "The creator {owner} and the {n} wallets of its launch cluster hold"
                    ),
                    None => format!("{owner} holds"),
                };
                b.detected(CheckId::SingleHolderDominance, SignalCategory::Distribution, severity, weight, "One owner holds a large share", format!("{who} {} of the supply across their token accounts.", pct(share(*amount))), holders_rpc, json!({"owner": owner, "amount": amount.to_string(), "share": share(*amount), "launch_cluster_wallets": cluster_of(owner)}));
            }
            _ => b.clear(CheckId::SingleHolderDominance),
        }
    }

    // The sell check on the token's side.
    sell::assess(&mut b, &f.sell);

    // The launch: the creator's cluster, bundled buys, the creator's sells.
    match &f.launch {
        Ok(l) => {
            let (findings, selling) = launch::findings(l, supply);
            let selling = selling.as_ref().map_err(String::as_str);
            crate::tokens::launch::assess(&mut b, Ok(&findings), selling);
        }
        Err(why) => crate::tokens::launch::assess(&mut b, Err(why), Err(why)),
    }

    // The deepest live pool's opening, where its layout records it.
    let pool_age = liquidity.opened_at.map(|t| (now_time - t).max(0));
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
                "getSignaturesForAddress(mint), getBlockTime; the deepest pool's open time",
                json!({"first_signature_slot": oldest.map(|o| o.0), "age_seconds": age, "deepest_pool_age_seconds": pool_age}),
            );
        }
        (Some(_), _) => b.clear(CheckId::NewToken),
        (None, Ok(list)) if !complete_history => {
            // More history than we page through: the newest page's oldest
            // entry, or the deepest pool's opening, bounds the age.
            let bound = list
                .last()
                .and_then(|s| s.block_time)
                .map(|t| now_time - t)
                .max(pool_age);
            match bound {
                Some(a) if a >= 7 * 86_400 => b.clear(CheckId::NewToken),
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
    let price_usd = liquidity.price_usd;
    let supply_units = amount_units(supply, f.mint.decimals);
    TokenAnalysis {
        chain: "sol".into(),
        address: sol::encode(&f.mint_address),
        score: verdict.score,
        label: verdict.label,
        label_override: None,
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
            liquidity_usd: liquidity.total_usd,
            pools: liquidity.pools,
            owner: f.mint.mint_authority.map(|a| sol::encode(&a)),
            creator: (f.launch.as_ref().ok().map(|l| l.creator.clone()))
                .or_else(|| launch::creator_of(&f.pools).map(|c| sol::encode(&c))),
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
