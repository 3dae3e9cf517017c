//! Wallet analysis: what a wallet holds and what it has approved, read per
//! chain family (`evm`, `solana`; the EVM wallet index in `index`), then
//! the holdings' risk from their token analyses, exposure, approval checks
//! and an explanation, the same for every chain.

mod evm;
mod index;
mod screened;
mod solana;

use std::collections::HashMap;
use std::sync::Arc;

use riskintel_types::{
    AccountKind, Approval, CheckId, Exposure, Holding, HoldingRisk, LaunchRole, RiskLabel,
    Severity, SignalCategory, TokenAnalysis, WalletAnalysis, WalletFacts,
};
use serde_json::json;

use crate::config::AnalysisConfig;
use crate::scoring::Builder;
use crate::screening::Screening;
use crate::tokens::{AnalysisError, Analyzer, Target};
use riskintel_chains::evm::logs::ScanLimits;
use riskintel_chains::Chain;
use riskintel_store::clock::Clock;
use riskintel_store::Store;

/// Wallet analysis over the token analysis engine.
#[derive(Clone)]
pub struct Wallets {
    analyzer: Arc<Analyzer>,
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    limits: ScanLimits,
    max_analyses: usize,
    screening: Arc<Screening>,
}

/// A token a wallet holds, before its risk is looked up.
struct Held {
    target: Target,
    symbol: String,
    amount: f64,
    amount_raw: String,
    supply_share: f64,
}

/// How complete the wallet's history is.
struct IndexView {
    complete: bool,
    reason: Option<String>,
    first_activity: Option<u64>,
}

impl Wallets {
    /// Wallet analysis on `analyzer`'s chains, indexing wallets in `store`
    /// within the `[analysis]` settings' look-back, and analysing at most
    /// `wallet_max_analyses` of a wallet's tokens per request; `screening`
    /// reports the wallet and its spenders when sanctioned or flagged.
    pub fn new(
        analyzer: Arc<Analyzer>,
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        settings: &AnalysisConfig,
        screening: Arc<Screening>,
    ) -> Wallets {
        Wallets {
            screening,
            analyzer,
            store,
            clock,
            limits: ScanLimits::from(settings),
            max_analyses: settings.wallet_max_analyses as usize,
        }
    }

    /// Analyse a wallet, within the analysis deadline (the holdings'
    /// analyses share it).
    pub async fn analyze(
        &self,
        chain: Chain,
        address: &str,
    ) -> Result<WalletAnalysis, AnalysisError> {
        let deadline = self.analyzer.deadline();
        match tokio::time::timeout(deadline, self.analyze_now(chain, address)).await {
            Ok(result) => result,
            Err(_) => Err(AnalysisError::past_deadline(
                "the wallet analysis",
                deadline,
            )),
        }
    }

    async fn analyze_now(
        &self,
        chain: Chain,
        address: &str,
    ) -> Result<WalletAnalysis, AnalysisError> {
        if chain == Chain::Sol {
            let Target::Sol(owner) = self.analyzer.target(chain, address)? else {
                unreachable!("sol targets are Solana keys")
            };
            return solana::analyze(self, owner).await;
        }
        let wallet = self.analyzer.token_ref(chain, address)?;
        evm::analyze(self, wallet).await
    }

    /// Holdings' risk (cached analyses first, then the largest unknown
    /// ones), exposure, signals and the result, for any chain.
    #[allow(clippy::too_many_arguments)]
    async fn finish(
        &self,
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
            match self.analyzer.any_cached(h.target).await? {
                Some(analysis) => {
                    analyses.insert(h.target, analysis);
                }
                None => unknown.push((h.target, h.supply_share)),
            }
        }
        unknown.sort_by(|a, b| b.1.total_cmp(&a.1));
        let to_analyse: Vec<Target> = unknown
            .iter()
            .take(self.max_analyses)
            .map(|(t, _)| *t)
            .collect();
        let outcomes =
            futures::future::join_all(to_analyse.iter().map(|t| self.analyzer.analyze(*t, false)))
                .await;
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
                    symbol: analysis
                        .map(|a| a.meta.symbol.clone())
                        .filter(|s| !s.is_empty())
                        .unwrap_or_else(|| h.symbol.clone()),
                    amount: h.amount,
                    amount_raw: h.amount_raw.clone(),
                    value_usd: analysis
                        .and_then(|a| a.meta.price_usd)
                        .map(|p| p * h.amount),
                    risk: analysis.map(|a| {
                        let mut risk = HoldingRisk {
                            score: a.score,
                            label: a.label,
                            label_override: None,
                            signals: a.signals.iter().map(|s| s.id).collect(),
                            launch_role: launch_role(a, &address),
                        };
                        self.analyzer
                            .overrides()
                            .apply_to_holding(h.target, &mut risk);
                        risk
                    }),
                }
            })
            .collect();
        holdings.sort_by(|a, b| {
            b.value_usd
                .unwrap_or(-1.0)
                .total_cmp(&a.value_usd.unwrap_or(-1.0))
        });
        let exposure = exposure_of(&holdings);
        let mut b = Builder::new(block);
        assess_approvals(&mut b, &approval_list, &index);
        assess_exposure(&mut b, &holdings, &exposure);
        let verdict = b.verdict();
        let (score, label, coverage) = (verdict.score, verdict.label, verdict.coverage);
        let explanation = explain(
            &holdings,
            &exposure,
            &approval_list,
            &verdict.signals,
            &coverage,
            label,
            score,
        );
        let screened = screened::screened(&self.screening, chain, &address, &approval_list);
        let analysis = WalletAnalysis {
            chain: chain.id().to_string(),
            address,
            score,
            label,
            signals: verdict.signals,
            coverage,
            facts,
            holdings,
            exposure,
            screened,
            approvals: approval_list,
            explanation,
            as_of_block: block,
            analysed_at: self.clock.now_seconds(),
        };
        riskintel_types::tidy::tidy(analysis)
            .map_err(|e| riskintel_store::StoreError::Corrupt(e.to_string()).into())
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
                if risk.signals.contains(&CheckId::Honeypot) {
                    e.honeypots.push(h.token.clone());
                }
                if risk.signals.iter().any(|s| {
                    [
                        CheckId::Honeypot,
                        CheckId::SellLimit,
                        CheckId::TransferBlocked,
                    ]
                    .contains(s)
                }) {
                    e.unsellable.push(h.token.clone());
                }
            }
        }
    }
    if e.total_value_usd > 0.0 {
        e.risky_or_critical_share =
            Some((e.risky_value_usd + e.critical_value_usd) / e.total_value_usd);
    }
    e
}

fn assess_approvals(b: &mut Builder, approvals: &[Approval], index: &IndexView) {
    let rpc = "eth_getLogs(Approval by the wallet), then eth_call allowance() via Multicall3, eth_getCode(spender)";
    for (id, kind, severity, weight, title, whom) in [
        (
            CheckId::UnlimitedApprovalToEoa,
            AccountKind::Eoa,
            Severity::High,
            0.3,
            "Unlimited approval to a single key",
            "an externally owned account",
        ),
        (
            CheckId::UnlimitedApprovalToUnknownContract,
            AccountKind::Contract,
            Severity::Medium,
            0.15,
            "Unlimited approval to an unknown contract",
            "a contract that is not a known DEX router",
        ),
    ] {
        let found: Vec<&Approval> = approvals
            .iter()
            .filter(|a| a.unlimited && a.spender_kind == kind)
            .collect();
        if !found.is_empty() {
            let list: Vec<String> = found
                .iter()
                .map(|a| format!("{} to {}", a.token_symbol, a.spender))
                .collect();
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
    let reason = format!(
        "{} holding(s) not analysed yet; they are analysed on later requests",
        exposure.not_analysed.len()
    );
    if !exposure.honeypots.is_empty() {
        b.detected(
            CheckId::HoldsHoneypot,
            SignalCategory::Trading,
            Severity::High,
            0.3,
            "Holds honeypots",
            format!(
                "The wallet holds {} token(s) that cannot be sold: {}.",
                exposure.honeypots.len(),
                exposure.honeypots.join(", ")
            ),
            rpc,
            json!({"honeypots": exposure.honeypots, "unsellable": exposure.unsellable}),
        );
    } else if missing {
        b.unknown(CheckId::HoldsHoneypot, reason.clone());
    } else {
        b.clear(CheckId::HoldsHoneypot);
    }
    match exposure.risky_or_critical_share {
        Some(share) if share > 0.2 => {
            let (severity, weight) = if share > 0.5 {
                (Severity::High, 0.3)
            } else {
                (Severity::Medium, 0.15)
            };
            b.detected(
                CheckId::RiskyExposure,
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
        _ if missing => b.unknown(CheckId::RiskyExposure, reason),
        _ if holdings.iter().any(|h| h.value_usd.is_none())
            && exposure.total_value_usd == 0.0
            && !holdings.is_empty() =>
        {
            b.unknown(CheckId::RiskyExposure, "no holding could be priced in USD")
        }
        _ => b.clear(CheckId::RiskyExposure),
    }
}

fn explain(
    holdings: &[Holding],
    exposure: &Exposure,
    approvals: &[Approval],
    signals: &[riskintel_types::Signal],
    coverage: &riskintel_types::Coverage,
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
    text.push_str(&format!(
        " and has {} open approval(s), {unlimited} of them unlimited.",
        approvals.len()
    ));
    if !exposure.honeypots.is_empty() {
        text.push_str(&format!(
            " {} holding(s) are honeypots and cannot be sold.",
            exposure.honeypots.len()
        ));
    }
    if signals
        .iter()
        .any(|s| s.id == CheckId::UnlimitedApprovalToEoa)
    {
        text.push_str(" An unlimited approval to a single private key lets its holder take those tokens at any time; revoke it (approve 0).");
    }
    let unknown: Vec<String> = coverage
        .checks
        .iter()
        .filter(|c| c.status == riskintel_types::CheckStatus::Unknown)
        .map(|c| format!("{} ({})", c.id, c.reason.clone().unwrap_or_default()))
        .collect();
    if !unknown.is_empty() {
        text.push_str(&format!(" Not checked: {}.", unknown.join("; ")));
    }
    text
}

/// `wallet`'s part in the launch of `analysis`'s token, from the wallets its
/// launch signals list.
fn launch_role(analysis: &TokenAnalysis, wallet: &str) -> Option<LaunchRole> {
    let is = |v: &serde_json::Value| v.as_str().is_some_and(|a| a.eq_ignore_ascii_case(wallet));
    if analysis
        .meta
        .creator
        .as_deref()
        .is_some_and(|c| c.eq_ignore_ascii_case(wallet))
    {
        return Some(LaunchRole::Creator);
    }
    let listed = |id: CheckId, list: &str| {
        (analysis.signals.iter())
            .filter(|s| s.id == id)
            .filter_map(|s| s.evidence.raw[list].as_array())
            .flatten()
            .find(|m| is(&m["address"]))
            .cloned()
    };
    // A member that bought at the opening is a bundled buyer; one handed
    // tokens, or funded without buying then, an insider.
    if let Some(member) = listed(CheckId::LaunchCluster, "members") {
        let bought = member["bought"].as_str().is_some_and(|b| b != "0");
        return Some(if member["how"] != "handed" && bought {
            LaunchRole::BundledBuyer
        } else {
            LaunchRole::Insider
        });
    }
    if listed(CheckId::BundledLaunch, "bundlers").is_some() {
        return Some(LaunchRole::BundledBuyer);
    }
    listed(CheckId::BundledLaunch, "snipers").map(|_| LaunchRole::Sniper)
}
