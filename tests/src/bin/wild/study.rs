//! The labelled sets the report measures against, which signals answer
//! each of their labels, and the report itself.
//!
//! Pied-Piper (2017–2018 tokens): GenerateToken → `mint_capability`,
//! DestroyToken → `burn_from_others`, FreezeAccount →
//! `blacklist_capability`, DisableTransfer → `pause_capability`,
//! ArbitraryTransfer → `seize_balance`.
//!
//! CRPWarner (rug pulls of 2021–2023):
//! - Mint ("a function that generates any number of tokens to any
//!   address") → `mint_capability`;
//! - Leak ("tokens leaked from other users without permission") →
//!   `value_taken` (fees, the contract's balance or the pool taken by a
//!   role), `seize_balance`, `burn_from_others`;
//! - Limit ("a mechanism that restricts users from selling") →
//!   `honeypot`, `blacklist_capability`, `pause_capability`,
//!   `trading_not_enabled`, `holders_trapped`, `sell_limit`,
//!   `max_tx_modifiable`, `tax_modifiable_per_address`,
//!   `transfer_blocked`.

use std::collections::BTreeSet;

use super::Row;

/// A labelled set: its name, its labels with the signals that answer each,
/// and the file of this team's reviews of its labels, if any.
pub(crate) struct Study {
    name: &'static str,
    labels: &'static [(&'static str, &'static [&'static str])],
    /// Pied-Piper: `address, label, add|remove`, shown as a second table.
    /// CRPWarner: `address, label, reason`, listed beside the headline only.
    reviews: &'static str,
    /// Whether the reviews make a second table (else they are only listed).
    reviews_tabled: bool,
}

pub(crate) const PIED_PIPER: Study = Study {
    name: "Pied-Piper",
    labels: &[
        ("mint", &["mint_capability"]),
        ("destroy", &["burn_from_others"]),
        ("freeze", &["blacklist_capability"]),
        ("disable", &["pause_capability"]),
        ("arbitrary", &["seize_balance"]),
    ],
    reviews: "reviewed.tsv",
    reviews_tabled: true,
};

pub(crate) const CRP: Study = Study {
    name: "CRPWarner",
    labels: &[
        ("mint", &["mint_capability"]),
        (
            "leak",
            &["value_taken", "seize_balance", "burn_from_others"],
        ),
        (
            "limit",
            &[
                "honeypot",
                "blacklist_capability",
                "pause_capability",
                "trading_not_enabled",
                "holders_trapped",
                "sell_limit",
                "max_tx_modifiable",
                "tax_modifiable_per_address",
                "transfer_blocked",
            ],
        ),
    ],
    reviews: "crp-disagreements.tsv",
    reviews_tabled: false,
};

impl Study {
    /// Every signal that answers one of the labels.
    pub(crate) fn signals(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.labels.iter().flat_map(|(_, ids)| ids.iter().copied())
    }

    /// The labels `signals` answer.
    pub(crate) fn found(&self, signals: &[String]) -> BTreeSet<String> {
        (self.labels.iter())
            .filter(|(_, ids)| signals.iter().any(|s| ids.contains(&s.as_str())))
            .map(|(label, _)| label.to_string())
            .collect()
    }

    /// This team's reviews of the labels: (address, label, third cell).
    fn reviews(&self) -> Vec<(String, String, String)> {
        let path = format!("{}/wild/{}", env!("CARGO_MANIFEST_DIR"), self.reviews);
        (std::fs::read_to_string(path).unwrap_or_default().lines())
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| {
                let mut cells = l.splitn(3, '\t');
                let (address, label, third) = (cells.next()?, cells.next()?, cells.next()?);
                Some((address.to_lowercase(), label.into(), third.into()))
            })
            .collect()
    }

    /// Per-label precision, recall and F1 against `truth`, and their mean.
    fn table(&self, rows: &[Row], against: &str, truth: impl Fn(&Row) -> BTreeSet<String>) {
        println!(
            "\nper label, on the {} tokens launched and answered, against {against}:",
            rows.len()
        );
        println!("  label      tokens  TP  FP  FN  precision  recall     F1");
        let ratio = |a: usize, b: usize| (b > 0).then(|| a as f64 / b as f64);
        let shown = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
        let mut scores = Vec::new();
        for (label, signals) in self.labels {
            let truth = |r: &Row| truth(r).contains(*label);
            let got = |r: &Row| r.found.contains(*label);
            let tp = rows.iter().filter(|r| truth(r) && got(r)).count();
            let fp = rows.iter().filter(|r| !truth(r) && got(r)).count();
            let fn_ = rows.iter().filter(|r| truth(r) && !got(r)).count();
            let (precision, recall) = (ratio(tp, tp + fp), ratio(tp, tp + fn_));
            // F1 is 0 where nothing true was found, 1 where nothing was
            // there to find and nothing was claimed.
            let f1 = ratio(2 * tp, 2 * tp + fp + fn_).unwrap_or(1.0);
            scores.push(f1);
            println!(
                "  {label:<10} {:>6}  {tp:>2}  {fp:>2}  {fn_:>2}  {:>9}  {:>6}  {f1:>5.2}   ({})",
                tp + fn_,
                shown(precision),
                shown(recall),
                signals.join(", ")
            );
        }
        let macro_f1 = scores.iter().sum::<f64>() / scores.len() as f64;
        println!("  macro F1 {macro_f1:.3}");
    }
}

pub(crate) fn join(labels: &BTreeSet<String>) -> String {
    labels.iter().cloned().collect::<Vec<_>>().join(",")
}

/// A line per token, what could not be launched, the tables, and every
/// honeypot verdict on a token a fresh wallet bought and sold.
pub(crate) fn report(study: &Study, rows: &[Row], failures: &[(String, String, String)]) {
    for row in rows {
        println!(
            "{} {} {:<24} solc {:<7} truth {:<16} found {:<16} {:<8} fresh wallet {} {}{}",
            row.compiled.address,
            row.launched.chain,
            row.compiled.contract,
            row.compiled.compiler,
            join(&row.compiled.labels),
            join(&row.found),
            row.label,
            if row.launched.traded {
                "bought and sold"
            } else {
                "could not trade"
            },
            row.signals.join(" "),
            if row.launched.note.is_empty() {
                String::new()
            } else {
                format!(" ({})", row.launched.note)
            }
        );
    }
    println!("\nnot launched or not answered: {}", failures.len());
    for (address, labels, why) in failures {
        println!(
            "  {address} [{labels}] {}",
            why.lines().next().unwrap_or_default()
        );
    }
    let reviews = study.reviews();
    let name = study.name;
    study.table(
        rows,
        &format!("the {name} study's labels as they are"),
        |r| r.compiled.labels.clone(),
    );
    if study.reviews_tabled {
        let against = format!(
            "the study's labels as reviewed (tests/wild/{})",
            study.reviews
        );
        study.table(rows, &against, |r: &Row| {
            let mut labels = r.compiled.labels.clone();
            for (address, label, verdict) in &reviews {
                if *address == r.compiled.address.to_lowercase() {
                    match verdict.split('\t').next().unwrap_or_default() {
                        "add" => labels.insert(label.clone()),
                        _ => labels.remove(label),
                    };
                }
            }
            labels
        });
    } else if !reviews.is_empty() {
        println!(
            "\nlabels this team disagrees with (tests/wild/{}; they change no number above):",
            study.reviews
        );
        for (address, label, reason) in &reviews {
            println!("  {address} {label}: {reason}");
        }
    }
    let wrong: Vec<&Row> = (rows.iter())
        .filter(|r| r.launched.traded && r.honeypot)
        .collect();
    println!(
        "\nhoneypot verdicts on tokens a fresh wallet bought and sold: {}",
        wrong.len()
    );
    for row in wrong {
        println!("  {} {}", row.compiled.address, row.compiled.contract);
    }
}
