//! Solana launches: who bought in a pump.fun mint's create transaction and
//! its first slots, whom the creator funded or bought for, and what the
//! creator sold, read from the launch's transactions as a node answers
//! them, within one round trip more than the rest of the analysis.

use anyhow::{ensure, Context as _};
use riskintel_client::types::{self, CheckStatus, LaunchRole, RiskLabel, Severity};
use serde_json::Value;

use riskintel_tests::corpus;
use riskintel_tests::solana_node::Fixture;
use riskintel_tests::{arg, ok, Backend};

use super::solana::{analyse_counted, counted_sol_server, ids, signal};

fn status(a: &types::TokenAnalysis, id: &str) -> Option<CheckStatus> {
    (a.coverage.checks.iter())
        .find(|c| c.id.to_string() == id)
        .map(|c| c.status)
}

/// The listed wallets of `list` in `raw`, as (address, how).
fn listed(raw: &Value, list: &str) -> Vec<(String, String)> {
    (raw[list].as_array().into_iter().flatten())
        .map(|m| {
            let text = |k: &str| m[k].as_str().unwrap_or_default().to_string();
            (text("address"), text("how"))
        })
        .collect()
}

fn named_list(fixture: &Fixture, launch: &str, list: &str) -> Vec<String> {
    (fixture.expect[launch][list]
        .as_array()
        .into_iter()
        .flatten())
    .filter_map(|v| v.as_str().map(str::to_string))
    .collect()
}

conformance!(solana_launches_are_found_in_their_transactions);
pub async fn solana_launches_are_found_in_their_transactions(
    backend: Backend,
) -> anyhow::Result<()> {
    let (fixture, proxy, server) = counted_sol_server(backend).await?;
    let client = server.client(&server.owner_key());
    // Round 1, round 2 with the launch's first reads beside it, and the
    // launch's last reads: one round trip more.
    let analyse = |name: &'static str| {
        let (client, proxy, fixture) = (&client, &proxy, &fixture);
        async move {
            let (a, round_trips) = analyse_counted(client, proxy, fixture, name).await?;
            ensure!(round_trips == 3, "{name}: {round_trips} round trips");
            anyhow::Ok(a)
        }
    };

    // The creator buys 5% in its create transaction beside a co-signer's
    // 20%, pays for three 4% buys in the same slot, sells 4% of its 5%
    // within the hour: the cluster holds 33% and counts as one holder.
    let bundle = analyse("launch_bundle").await?;
    let creator = fixture.named("launch_bundle_creator");
    let friend = fixture.named("launch_bundle_friend");
    let alts = named_list(&fixture, "launch_bundle", "alts");
    ensure!(
        bundle.meta.creator.as_deref() == Some(creator.as_str()),
        "{:?}",
        bundle.meta.creator
    );
    let cluster = signal(&bundle, "launch_cluster")?;
    let raw = &cluster.evidence.raw;
    let members = listed(raw, "members");
    ensure!(
        cluster.severity == Severity::High
            && raw["share"]
                .as_f64()
                .is_some_and(|s| (0.329..0.331).contains(&s))
            && raw["opened_slot"] == 20_000
            && members.contains(&(friend.clone(), "create_transaction".into()))
            && alts
                .iter()
                .all(|a| members.contains(&(a.clone(), "bought_for".into())))
            && members.len() == 4,
        "{raw}"
    );
    let bundled = signal(&bundle, "bundled_launch")?;
    ensure!(
        bundled.severity == Severity::Medium
            && bundled.evidence.raw["creator_bought"] == "50000000000000"
            && bundled.evidence.raw["bundled_share"]
                .as_f64()
                .is_some_and(|s| (0.369..0.371).contains(&s))
            && listed(&bundled.evidence.raw, "snipers").len() == 2,
        "{}",
        bundled.evidence.raw
    );
    let sold = signal(&bundle, "creator_sold")?;
    ensure!(
        sold.severity == Severity::Medium
            && sold.evidence.raw["share_first_day"]
                .as_f64()
                .is_some_and(|s| (0.79..0.81).contains(&s)),
        "{}",
        sold.evidence.raw
    );
    let single = signal(&bundle, "single_holder_dominance")?;
    ensure!(
        single.evidence.raw["owner"] == creator.as_str()
            && single.evidence.raw["launch_cluster_wallets"] == 4,
        "{}",
        single.evidence.raw
    );
    ensure!(
        matches!(bundle.label, RiskLabel::Risky | RiskLabel::Critical),
        "launch_bundle: {:?} {:?}",
        bundle.label,
        ids(&bundle)
    );

    // Ten fresh wallets the creator funded five slots before its create
    // buy 35% in the first three slots; two strangers beside them snipe.
    let funded = analyse("launch_funded").await?;
    let cluster = signal(&funded, "launch_cluster")?;
    let wallets = named_list(&fixture, "launch_funded", "funded");
    let bundlers = listed(&signal(&funded, "bundled_launch")?.evidence.raw, "bundlers");
    ensure!(
        cluster.severity == Severity::High
            && wallets
                .iter()
                .all(|w| bundlers.contains(&(w.clone(), "funded".into())))
            && bundlers.len() == 10,
        "{}",
        cluster.evidence.raw
    );
    let snipers = listed(&signal(&funded, "bundled_launch")?.evidence.raw, "snipers");
    ensure!(
        snipers.len() == 2
            && named_list(&fixture, "launch_funded", "snipers")
                .iter()
                .all(|s| snipers.contains(&(s.clone(), "sniper".into()))),
        "{snipers:?}"
    );
    ensure!(status(&funded, "creator_sold") == Some(CheckStatus::Clear));

    // Strangers buy 4% in the next slot; the creator funded nobody who
    // bought: snipers reported, no cluster, nothing sold.
    let clean = analyse("launch_clean").await?;
    ensure!(
        status(&clean, "launch_cluster") == Some(CheckStatus::Clear),
        "{:?}",
        ids(&clean)
    );
    ensure!(status(&clean, "creator_sold") == Some(CheckStatus::Clear));
    let snipers = signal(&clean, "bundled_launch")?;
    ensure!(
        snipers.severity == Severity::Info && listed(&snipers.evidence.raw, "snipers").len() == 4,
        "{}",
        snipers.evidence.raw
    );

    // The detection report's bands (`corpus::solana_table`).
    for truth in corpus::solana_table() {
        let a = match truth.name {
            "launch_bundle" => &bundle,
            "launch_funded" => &funded,
            _ => &clean,
        };
        let (label, got) = (a.label.to_string(), ids(a));
        ensure!(
            truth.labels.contains(&label.as_str())
                && truth.present.iter().all(|id| got.contains(*id))
                && !truth.absent.iter().any(|id| got.contains(*id)),
            "{}: {label} {got:?}, want {:?} with {:?} and without {:?}",
            truth.name,
            truth.labels,
            truth.present,
            truth.absent
        );
    }

    // The explanation and the wallets' own analyses carry the same facts.
    let explained = ok(client
        .token_explanation_get(arg("sol"), &arg(&fixture.named("launch_bundle")), None)
        .await)?
    .into_inner();
    ensure!(
        (explained.signals.iter())
            .any(|s| s.id == types::CheckId::LaunchCluster && s.numbers.contains("33.0%")),
        "{:?}",
        explained.signals
    );
    for (wallet, role) in [
        (&friend, LaunchRole::BundledBuyer),
        (&creator, LaunchRole::Creator),
    ] {
        let analysis = ok(client.wallet_analyze(arg("sol"), &arg(wallet)).await)?.into_inner();
        let holding = (analysis.holdings.iter())
            .find(|h| h.token == fixture.named("launch_bundle"))
            .with_context(|| format!("{:?}", analysis.holdings))?;
        ensure!(
            holding.risk.as_ref().and_then(|r| r.launch_role) == Some(role),
            "{wallet}: {:?}",
            holding.risk
        );
    }
    Ok(())
}
