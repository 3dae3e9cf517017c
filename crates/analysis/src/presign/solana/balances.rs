//! What a simulated Solana transaction does to the signer's balances:
//! SOL, each mint over the signer's token accounts (with the other side),
//! the fee a Token-2022 mint takes on the signer's transfers (what was sent
//! less what arrived), and the tokens' facts and verdicts.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use riskintel_chains::solana::layouts::{decode_mint, TokenAccount};
use riskintel_chains::solana::{self as sol, Account, Pubkey};
use riskintel_types::{AssetChange, AssetKind, Direction, Risk, RiskKind, Severity, TokenVerdict};

use super::ops::TokenOp;
use crate::presign::{judge, Presign};
use crate::tokens::Target;

/// Per mint: the signer's net change, its balance before, the other side.
pub(super) type Nets = BTreeMap<Pubkey, (i128, u64, BTreeSet<String>)>;

/// The signer's net change per mint, and the fees taken on its transfers.
pub(super) fn nets(
    watched: &[Pubkey],
    signer: Pubkey,
    ops: &[TokenOp],
    succeeded: bool,
    before: impl Fn(&Pubkey) -> Option<TokenAccount>,
    after: impl Fn(&Pubkey) -> Option<TokenAccount>,
) -> (Nets, BTreeMap<Pubkey, (u64, u64)>) {
    let mut nets: BTreeMap<Pubkey, (i128, u64, BTreeSet<String>)> = BTreeMap::new();
    for key in watched {
        let (a, b) = (before(key), after(key));
        let Some(mint) = a.as_ref().or(b.as_ref()).map(|t| t.mint) else {
            continue;
        };
        let owned_by_signer = a.as_ref().is_some_and(|t| t.owner == signer)
            || b.as_ref().is_some_and(|t| t.owner == signer);
        let delta = i128::from(b.as_ref().map_or(0, |t| t.amount))
            - i128::from(a.as_ref().map_or(0, |t| t.amount));
        if owned_by_signer && delta != 0 {
            let entry = nets.entry(mint).or_default();
            entry.0 += delta;
            entry.1 += a
                .as_ref()
                .filter(|t| t.owner == signer)
                .map_or(0, |t| t.amount);
        }
    }
    // Counterparties: other owners whose balance of the mint moved the other way.
    for key in watched {
        let (a, b) = (before(key), after(key));
        let Some(t) = a.as_ref().or(b.as_ref()) else {
            continue;
        };
        let delta = i128::from(b.as_ref().map_or(0, |t| t.amount))
            - i128::from(a.as_ref().map_or(0, |t| t.amount));
        if let Some(entry) = nets.get_mut(&t.mint) {
            if t.owner != signer && delta != 0 && (delta > 0) != (entry.0 > 0) {
                entry.2.insert(sol::encode(&t.owner));
            }
        }
    }
    // Fees: what a transfer from the signer sent and what arrived.
    let mut fees: BTreeMap<Pubkey, (u64, u64)> = BTreeMap::new();
    for op in ops {
        if let TokenOp::Transfer {
            source,
            destination,
            owner,
            amount,
        } = op
        {
            let (Some(from), Some(to_before), Some(to_after)) =
                (before(source), before(destination), after(destination))
            else {
                continue;
            };
            let arrived = to_after.amount.saturating_sub(to_before.amount);
            if *owner == signer && from.owner == signer && arrived < *amount && succeeded {
                let fee = fees.entry(from.mint).or_default();
                fee.0 += amount - arrived;
                fee.1 += amount;
            }
        }
    }
    (nets, fees)
}

pub(super) fn drain(what: String, token: Option<String>) -> Risk {
    judge::risk(
        RiskKind::DrainsAsset,
        Severity::Critical,
        token,
        format!("All of your {what} leaves the wallet and nothing comes back."),
    )
}

#[allow(clippy::too_many_arguments)]
pub(super) fn change(
    asset: AssetKind,
    token: Option<String>,
    symbol: Option<String>,
    incoming: bool,
    amount: u128,
    decimals: Option<u8>,
    fee: Option<(u64, u64)>,
    counterparties: Vec<String>,
    verdict: Option<(TokenVerdict, Option<f64>)>,
) -> AssetChange {
    let whole = decimals.map(|d| amount as f64 / 10f64.powi(i32::from(d)));
    AssetChange {
        asset,
        token,
        symbol,
        token_id: None,
        direction: if incoming {
            Direction::In
        } else {
            Direction::Out
        },
        amount_raw: amount.to_string(),
        amount: whole,
        value_usd: whole
            .zip(verdict.as_ref().and_then(|v| v.1))
            .map(|(a, p)| a * p),
        fee_raw: fee.map(|f| f.0.to_string()),
        fee_share: fee.map(|(f, gross)| f as f64 / (gross.max(1)) as f64),
        counterparties,
        token_verdict: verdict.map(|v| v.0),
    }
}

/// A mint's symbol and decimals, from its account.
pub(super) fn mint_facts(
    chain: &sol::SolanaChain,
    mint: &Pubkey,
    account: Option<Account>,
) -> (Option<String>, Option<u8>) {
    let decoded = account.and_then(|a| decode_mint(&a.data, &a.owner));
    let symbol = (decoded.as_ref())
        .and_then(|m| m.metadata.as_ref().map(|md| md.symbol.clone()))
        .filter(|s| !s.is_empty())
        .or_else(|| Some(chain.symbol_of(mint)).filter(|s| !s.is_empty()));
    (symbol, decoded.map(|m| m.decimals))
}

/// The engine's verdicts (with the price) on the mints received, within `remaining`.
pub(super) async fn verdicts(
    presign: &Presign,
    nets: &Nets,
    remaining: std::time::Duration,
) -> HashMap<Pubkey, (TokenVerdict, Option<f64>)> {
    let received: Vec<Pubkey> = nets
        .iter()
        .filter(|(_, n)| n.0 > 0)
        .map(|(m, _)| *m)
        .collect();
    let analyses = tokio::time::timeout(
        remaining.saturating_sub(std::time::Duration::from_millis(100)),
        futures::future::join_all(
            received
                .iter()
                .map(|m| presign.analyzer.analysed(Target::Sol(*m), false)),
        ),
    )
    .await
    .unwrap_or_default();
    received
        .iter()
        .zip(analyses)
        .filter_map(|(mint, outcome)| {
            let a = outcome.ok()?.analysis;
            Some((*mint, (TokenVerdict::from(&*a), a.meta.price_usd)))
        })
        .collect()
}
