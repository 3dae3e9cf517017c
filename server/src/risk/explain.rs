//! A human-readable account of an analysis.

use riskintel_api::{
    CheckStatus, RiskLabel, Severity, SignalExplanation, TokenAnalysis, TokenExplanation, UncheckedItem,
};

/// What a signal means for someone holding or buying the token.
fn meaning(id: &str) -> &'static str {
    match id {
        "mint_capability" => "New tokens can be created at will, diluting every holder; a sudden mint followed by a sell-off is a classic rug pull.",
        "blacklist_capability" => "Your address can be blocked from selling or transferring, trapping your tokens.",
        "pause_capability" => "All trading can be frozen at any moment, so you may be unable to sell when you want to.",
        "tax_modifiable" => "The buy or sell fee can be raised after you buy, up to the point where selling returns almost nothing.",
        "tax_modifiable_per_address" => "A fee can be set for your address alone, which can make your tokens unsellable while others trade normally.",
        "max_tx_modifiable" => "The largest allowed transaction or wallet size can be lowered, which can stop you from selling your position.",
        "ownership_reclaimable" => "Ownership that looks renounced can be taken back, restoring every owner power.",
        "owner_not_renounced" => "Someone still controls the contract; its other risks depend on whether that party can be trusted.",
        "selfdestruct_present" => "The code can destroy itself in narrow cases; after the Cancun upgrade this rarely matters for live tokens.",
        "delegatecall_present" => "The token can execute code from elsewhere with its own storage, which can change balances or rules.",
        "upgradeable_proxy" => "The token's rules can be replaced with new code after you buy.",
        "proxy_admin_is_eoa" => "A single private key can replace the token's code at any time; if it is stolen or misused, holders have no protection.",
        "no_liquidity" => "There is no pool to sell into on the DEXes we watch, so the token may be impossible to sell.",
        "low_liquidity" => "Little money sits in the pools, so selling even a small amount moves the price sharply.",
        "lp_unlocked" => "The liquidity providers can withdraw the pool at any time, leaving holders unable to sell.",
        "owner_holds_lp" => "The owner can pull their share of the pool's liquidity at any time.",
        "whale_concentration" => "A few wallets hold most of the supply; if they sell, the price collapses.",
        "single_holder_dominance" => "One wallet could crash the price by selling its tokens.",
        "owner_balance_high" => "The owner holds enough tokens to crash the price by selling.",
        "new_token" => "The token is very young; most scams happen in the first hours and days.",
        "honeypot" => "You can buy but you cannot sell: a simulated sale failed or returned almost nothing, so money put in cannot come out.",
        "cannot_buy" => "A simulated purchase failed; trading may not be open yet, or buyers are blocked. Whether it can be sold could not be tested.",
        "buy_tax" => "A small share of every purchase is taken as a fee.",
        "high_buy_tax" => "A large share of every purchase is taken as a fee, so you receive far fewer tokens than the price suggests.",
        "sell_tax" => "A small share of every sale is taken as a fee.",
        "high_sell_tax" => "A large share of every sale is taken as a fee, so selling returns much less than the price suggests.",
        "transfer_blocked" => "Moving tokens between wallets fails, so you may not be able to move or sell them.",
        "transfer_tax" => "A share of every wallet-to-wallet transfer is taken as a fee.",
        "sell_limit" => "Only small sales go through, so exiting a position takes many transactions, or is impossible in practice.",
        _ => "A risk the analysis detected.",
    }
}

fn label_phrase(label: RiskLabel) -> &'static str {
    match label {
        RiskLabel::Safe => "looks safe by every check we could run",
        RiskLabel::Caution => "needs caution",
        RiskLabel::Risky => "is risky",
        RiskLabel::Critical => "is very likely to lose you money",
    }
}

/// Explain an analysis.
pub fn explain(analysis: &TokenAnalysis) -> TokenExplanation {
    let name = if analysis.meta.symbol.is_empty() { analysis.address.clone() } else { analysis.meta.symbol.clone() };
    let mut serious: Vec<&riskintel_api::Signal> =
        analysis.signals.iter().filter(|s| s.severity >= Severity::Medium).collect();
    serious.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    let not_checked: Vec<UncheckedItem> = analysis
        .coverage
        .checks
        .iter()
        .filter(|c| c.status == CheckStatus::Unknown)
        .map(|c| UncheckedItem { id: c.id.clone(), reason: c.reason.clone().unwrap_or_default() })
        .collect();
    let mut summary = format!(
        "{name} on {} scores {:.1} out of 100 and {}.",
        analysis.chain,
        analysis.score,
        label_phrase(analysis.label)
    );
    if serious.is_empty() {
        summary.push_str(" We found no medium or serious risk.");
    } else {
        let titles: Vec<String> = serious.iter().take(3).map(|s| s.title.to_lowercase()).collect();
        summary.push_str(&format!(" The main concerns: {}.", titles.join("; ")));
    }
    match analysis.meta.liquidity_usd {
        Some(l) => summary.push_str(&format!(" Its pools hold about ${l:.0} of liquidity.")),
        None if analysis.meta.pools.is_empty() => summary.push_str(" It has no pool on the DEXes we watch."),
        None => {}
    }
    if !not_checked.is_empty() {
        summary.push_str(&format!(
            " {} of {} checks could not be made (listed below), so treat this result with extra care.",
            not_checked.len(),
            analysis.coverage.checks.len()
        ));
    }
    if analysis.stale {
        summary.push_str(" The chain could not be read just now; this rests on an earlier analysis.");
    }
    TokenExplanation {
        chain: analysis.chain.clone(),
        address: analysis.address.clone(),
        score: analysis.score,
        label: analysis.label,
        summary,
        signals: analysis
            .signals
            .iter()
            .map(|s| SignalExplanation {
                id: s.id.clone(),
                severity: s.severity,
                title: s.title.clone(),
                meaning: meaning(&s.id).to_string(),
                numbers: s.detail.clone(),
            })
            .collect(),
        not_checked,
        cached_at: analysis.cached_at,
        stale: analysis.stale,
    }
}
