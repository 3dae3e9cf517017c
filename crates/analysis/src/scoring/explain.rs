//! A human-readable account of an analysis.

use riskintel_types::{
    CheckId, CheckStatus, RiskLabel, Severity, SignalExplanation, TokenAnalysis, TokenExplanation,
    UncheckedItem, WireName,
};

/// What a signal means for someone holding or buying the token (or, for
/// wallet checks, for the wallet's owner). Exhaustive: a new check does not
/// compile until it is explained.
pub fn meaning(id: CheckId) -> &'static str {
    match id {
        CheckId::MintCapability => "New tokens can be created at will, diluting every holder; a sudden mint followed by a sell-off is a classic rug pull.",
        CheckId::ValueTaken => "Part of what buyers pay, holders own or the pool holds can end at an address the token's owner or another role chose: through fees, the contract's own balance, or the pool. This is how most money was taken in real rug pulls.",
        CheckId::SeizeBalance => "Tokens can be taken out of your wallet without your signature: whoever holds this power can empty any holder, the pool included.",
        CheckId::BurnFromOthers => "Tokens in your wallet can be destroyed without your signature, wiping out what you hold.",
        CheckId::BlacklistCapability => "Your address can be blocked from selling or transferring, trapping your tokens.",
        CheckId::PauseCapability => "All trading can be frozen at any moment, so you may be unable to sell when you want to.",
        CheckId::TaxModifiable => "The buy or sell fee can be raised after you buy, up to the point where selling returns almost nothing.",
        CheckId::TaxModifiablePerAddress => "A fee can be set for your address alone, which can make your tokens unsellable while others trade normally.",
        CheckId::MaxTxModifiable => "The largest allowed transaction or wallet size can be lowered, which can stop you from selling your position.",
        CheckId::OwnershipReclaimable => "Ownership that looks renounced can be taken back, restoring every owner power.",
        CheckId::HiddenOwner => "Ownership looks renounced, but another address still holds owner powers: the renouncement is a disguise.",
        CheckId::Impersonation => "The token poses as a well-known token under the same symbol; buyers who trust the symbol buy something else entirely.",
        CheckId::OwnerNotRenounced => "Someone still controls the contract; its other risks depend on whether that party can be trusted.",
        CheckId::SelfdestructPresent => "The code can destroy itself in narrow cases; after the Cancun upgrade this rarely matters for live tokens.",
        CheckId::DelegatecallPresent => "The token can execute code from elsewhere with its own storage, which can change balances or rules.",
        CheckId::UpgradeableProxy => "The token's rules can be replaced with new code after you buy.",
        CheckId::ProxyAdminIsEoa => "A single private key can replace the token's code at any time; if it is stolen or misused, holders have no protection.",
        CheckId::NoLiquidity => "There is no pool to sell into on the DEXes we watch, so the token may be impossible to sell.",
        CheckId::LowLiquidity => "Little money sits in the pools, so selling even a small amount moves the price sharply.",
        CheckId::LpUnlocked => "The liquidity providers can withdraw the pool at any time, leaving holders unable to sell.",
        CheckId::V4HookControlsSwaps => "A contract attached to the token's Uniswap V4 pool takes part in every trade and can take a cut or block it.",
        CheckId::OwnerHoldsLp => "The owner can pull their share of the pool's liquidity at any time.",
        CheckId::CreatorHoldsLp => "The wallet that created the token can pull its share of the pool's liquidity at any time.",
        CheckId::WhaleConcentration => "A few wallets hold most of the supply; if they sell, the price collapses.",
        CheckId::SingleHolderDominance => "One wallet could crash the price by selling its tokens.",
        CheckId::LaunchCluster => "The supply looks spread out, but one person controls much of it through wallets fed at the launch; they can sell together.",
        CheckId::BundledLaunch => "Wallets bought the moment trading opened, before anyone else could; when the creator funded them, the launch was staged.",
        CheckId::CreatorSold => "The creator has already cashed out most of its tokens; it has little left at stake in the token.",
        CheckId::OwnerBalanceHigh => "The owner holds enough tokens to crash the price by selling.",
        CheckId::NewToken => "The token is very young; most scams happen in the first hours and days.",
        CheckId::Honeypot => "You can buy but you cannot sell: a simulated sale failed or returned almost nothing, so money put in cannot come out.",
        CheckId::TradingNotEnabled => "Only privileged wallets can trade until the owner opens trading; if you hold tokens, you cannot sell until the owner decides, and may never be able to.",
        CheckId::CannotBuy => "A simulated purchase failed; trading may not be open yet, or buyers are blocked. Whether it can be sold could not be tested.",
        CheckId::BuyTax => "A share of every purchase is taken as a fee, so you receive fewer tokens than the price suggests; the severity grows with the fee.",
        CheckId::SellTax => "A share of every sale is taken as a fee, so selling returns less than the price suggests; the severity grows with the fee.",
        CheckId::TransferBlocked => "Moving tokens between wallets fails, so you may not be able to move or sell them.",
        CheckId::TransferTax => "A share of every wallet-to-wallet transfer is taken as a fee.",
        CheckId::SellLimit => "Only small sales go through, so exiting a position takes many transactions, or is impossible in practice.",
        CheckId::CreatorHistory => "The same creator launched other tokens that trapped or robbed their holders; a creator who did it before can do it again.",
        CheckId::ExternalCallInTransfer => "Every transfer consults another contract that can be changed or switched, so the rules for moving your tokens live outside the token.",
        CheckId::HoldersTrapped => "Some of the largest holders cannot move or sell their tokens while new buyers trade freely: the rules single out holders, and yours could be next.",
        CheckId::MaxTx => "No single buy or sell may exceed a set size, so a large position takes several transactions to build or to leave.",
        CheckId::MaxWallet => "No wallet may hold more than a set amount, so you cannot add to a position past it.",
        CheckId::TradingCooldown => "You cannot sell right after buying; a sell goes through only after a waiting time, so you cannot exit at once if the price turns.",
        CheckId::OneSellPerBlock => "Only one sell goes through per block across all holders, so in a rush to exit most sellers fail and must retry.",
        CheckId::MintAuthorityActive => "The mint authority can create new tokens at will, diluting every holder.",
        CheckId::FreezeAuthorityActive => "The freeze authority can freeze your token account, so you cannot move or sell what you hold.",
        CheckId::PermanentDelegate => "A permanent delegate can move or burn the tokens in your account without your signature.",
        CheckId::Pausable => "All transfers of the token can be paused, so you may be unable to sell when you want to.",
        CheckId::TransferHook => "Every transfer runs a program chosen by the token's authority, which can refuse or tax your transfers.",
        CheckId::TransferFee => "Every transfer pays a fee to the token's authority; a fee that can be changed can be raised after you buy.",
        CheckId::DefaultFrozen => "New token accounts start frozen: you can move tokens only after the freeze authority allows it.",
        CheckId::NonTransferable => "The tokens cannot be transferred at all, so they cannot be sold.",
        CheckId::MintCloseAuthority => "The mint account can be closed once the supply is zero, which can confuse wallets and markets.",
        CheckId::ConfidentialTransfers => "Balances and transfers can be hidden, so who holds the supply cannot be fully checked.",
        CheckId::MetadataMutable => "The token's name, symbol and image can be changed, for example to impersonate another token.",
        CheckId::LpUnburned => "The pool's LP tokens are not burned, so whoever holds them can withdraw the liquidity.",
        CheckId::OtherAmmPools => "Pools of some exchange families could not be searched, so liquidity there is not counted.",
        CheckId::BondingCurveActive => "The token is still sold by its launchpad's bonding curve: its price is set by the curve, and it has not yet graduated to a pool.",
        CheckId::UnlimitedApprovalToEoa => "A single private key may spend an unlimited amount of your tokens at any time; revoke the approval unless you trust it.",
        CheckId::UnlimitedApprovalToUnknownContract => "A contract that is not a known exchange router may spend an unlimited amount of your tokens.",
        CheckId::HoldsHoneypot => "Some of what the wallet holds cannot be sold, so its value on paper cannot be realised.",
        CheckId::RiskyExposure => "Much of the wallet's value is in tokens labelled risky or critical.",
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
    let name = if analysis.meta.symbol.is_empty() {
        analysis.address.clone()
    } else {
        analysis.meta.symbol.clone()
    };
    let mut serious: Vec<&riskintel_types::Signal> = analysis
        .signals
        .iter()
        .filter(|s| s.severity >= Severity::Medium)
        .collect();
    serious.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    let not_checked: Vec<UncheckedItem> = analysis
        .coverage
        .checks
        .iter()
        .filter(|c| c.status == CheckStatus::Unknown)
        .map(|c| UncheckedItem {
            id: c.id,
            reason: c.reason.clone().unwrap_or_default(),
        })
        .collect();
    let computed = (analysis.label_override.as_ref()).map_or(analysis.label, |o| o.computed_label);
    let mut summary = format!(
        "{name} on {} scores {:.1} out of 100 and {}.",
        analysis.chain,
        analysis.score,
        label_phrase(computed)
    );
    if let Some(o) = &analysis.label_override {
        summary.push_str(&format!(
            " The operator has set its label to {} instead of {} (reason: {}); what follows is the engine's own finding.",
            o.label.wire_name(),
            computed.wire_name(),
            o.reason
        ));
    }
    if serious.is_empty() {
        summary.push_str(" We found no medium or serious risk.");
    } else {
        let titles: Vec<String> = serious
            .iter()
            .take(3)
            .map(|s| s.title.to_lowercase())
            .collect();
        summary.push_str(&format!(" The main concerns: {}.", titles.join("; ")));
    }
    match analysis.meta.liquidity_usd {
        Some(l) => summary.push_str(&format!(" Its pools hold about ${l:.0} of liquidity.")),
        None if analysis.meta.pools.is_empty() => {
            summary.push_str(" It has no pool on the DEXes we watch.")
        }
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
        summary
            .push_str(" The chain could not be read just now; this rests on an earlier analysis.");
    }
    TokenExplanation {
        chain: analysis.chain.clone(),
        address: analysis.address.clone(),
        score: analysis.score,
        label: analysis.label,
        label_override: analysis.label_override.clone(),
        summary,
        signals: analysis
            .signals
            .iter()
            .map(|s| SignalExplanation {
                id: s.id,
                severity: s.severity,
                title: s.title.clone(),
                meaning: meaning(s.id).to_string(),
                numbers: s.detail.clone(),
            })
            .collect(),
        not_checked,
        cached_at: analysis.cached_at,
        stale: analysis.stale,
    }
}
