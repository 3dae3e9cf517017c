//! The operator's overrides of tokens' labels, as every view shows them:
//! held in memory (the server refreshes them from the store), looked up by
//! token, and applied to a copy of the engine's verdict — the label shown
//! changes and an `override` object tells why, beside the score, signals
//! and label the engine computed, which stay as they were.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use riskintel_store::clock::Clock;
use riskintel_store::{OverrideRow, Store, StoreError};
use riskintel_types::{HoldingRisk, LabelOverride, RiskLabel, TokenAnalysis};

use crate::tokens::{Analysed, AnalysisError, Target};

/// The overrides in memory.
pub struct Overrides {
    clock: Arc<dyn Clock>,
    held: RwLock<Arc<HashMap<Target, OverrideRow>>>,
    /// Analyses as shown, made once per engine result and override: a
    /// popular token with an override is served as cheaply as any other.
    made: Mutex<HashMap<Target, Made>>,
}

/// An analysis as shown, and what it was made from.
struct Made {
    /// The digest of the engine's analysis.
    digest: Arc<str>,
    /// When the override shown was set.
    set_at: chrono::DateTime<chrono::Utc>,
    shown: Analysed,
}

impl Overrides {
    /// None held yet.
    pub fn new(clock: Arc<dyn Clock>) -> Overrides {
        Overrides {
            clock,
            held: RwLock::default(),
            made: Mutex::default(),
        }
    }

    /// Hold `rows` (the store's overrides) instead of what was held.
    pub fn hold(&self, rows: &[OverrideRow]) {
        let held: HashMap<Target, OverrideRow> = rows
            .iter()
            .filter_map(|row| Some((Target::parse(row.chain, &row.token).ok()?, row.clone())))
            .collect();
        self.made
            .lock()
            .expect("shown lock")
            .retain(|target, made| held.get(target).is_some_and(|o| o.set_at == made.set_at));
        *self.held.write().expect("overrides lock") = Arc::new(held);
    }

    /// Read the store's overrides and hold them; what was read.
    pub async fn refresh(&self, store: &dyn Store) -> Result<Vec<OverrideRow>, StoreError> {
        let rows = store.overrides().await?;
        self.hold(&rows);
        Ok(rows)
    }

    /// How many are in force now.
    pub fn in_force(&self) -> usize {
        let now = self.clock.now();
        let held = self.held.read().expect("overrides lock").clone();
        held.values().filter(|o| o.in_force(now)).count()
    }

    /// The override of `target` in force now.
    pub fn of(&self, target: Target) -> Option<OverrideRow> {
        let held = self.held.read().expect("overrides lock");
        held.get(&target)
            .filter(|o| o.in_force(self.clock.now()))
            .cloned()
    }

    /// `analysed` as shown: with its token's override, when one is in force.
    pub fn shown(&self, analysed: Analysed) -> Result<Analysed, AnalysisError> {
        if self.held.read().expect("overrides lock").is_empty() {
            return Ok(analysed);
        }
        let target = riskintel_chains::Chain::parse(&analysed.analysis.chain)
            .and_then(|chain| Target::parse(chain, &analysed.analysis.address).ok());
        match target {
            Some(target) => self.shown_as(target, analysed),
            None => Ok(analysed),
        }
    }

    /// As [`Overrides::shown`] for an analysis of `target`, known already.
    pub fn shown_as(&self, target: Target, analysed: Analysed) -> Result<Analysed, AnalysisError> {
        if self.held.read().expect("overrides lock").is_empty() {
            return Ok(analysed);
        }
        let Some(row) = self.of(target) else {
            return Ok(analysed);
        };
        let made = |m: &Made| m.digest == analysed.digest && m.set_at == row.set_at;
        if let Some(m) = self
            .made
            .lock()
            .expect("shown lock")
            .get(&target)
            .filter(|m| made(m))
        {
            return Ok(m.shown.clone());
        }
        let digest = analysed.digest.clone();
        let mut analysis = Arc::unwrap_or_clone(analysed.analysis);
        apply(&row, &mut analysis.label, &mut analysis.label_override);
        let shown = Analysed::new(analysis)?;
        let made = Made {
            digest,
            set_at: row.set_at,
            shown: shown.clone(),
        };
        self.made.lock().expect("shown lock").insert(target, made);
        Ok(shown)
    }

    /// Show the override of `target`, if any, in its `analysis`.
    pub fn apply_to(&self, target: Target, analysis: &mut TokenAnalysis) {
        if let Some(row) = self.of(target) {
            apply(&row, &mut analysis.label, &mut analysis.label_override);
        }
    }

    /// Show the override of `target`, if any, in a wallet's holding of it.
    pub fn apply_to_holding(&self, target: Target, risk: &mut HoldingRisk) {
        if let Some(row) = self.of(target) {
            apply(&row, &mut risk.label, &mut risk.label_override);
        }
    }
}

/// `row` shown over the engine's `label`: the label replaced, the override
/// (with the engine's label) beside it. Applied twice, it keeps the engine's.
fn apply(row: &OverrideRow, label: &mut RiskLabel, shown: &mut Option<LabelOverride>) {
    let computed = shown.as_ref().map_or(*label, |o| o.computed_label);
    *shown = Some(LabelOverride {
        label: row.label,
        computed_label: computed,
        reason: row.reason.clone(),
        set_by: row.set_by.clone(),
        set_at: row.set_at,
        expires_at: row.expires_at,
    });
    *label = row.label;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(label: RiskLabel) -> OverrideRow {
        OverrideRow {
            chain: riskintel_chains::Chain::Eth,
            token: "0x6B175474E89094C44Da98b954EedeAC495271d0F".into(),
            label,
            reason: "audited".into(),
            set_by: "ops".into(),
            set_at: chrono::DateTime::UNIX_EPOCH,
            expires_at: None,
        }
    }

    #[test]
    fn the_engines_label_is_kept_beside_the_override() {
        let mut label = RiskLabel::Critical;
        let mut shown = None;
        apply(&row(RiskLabel::Safe), &mut label, &mut shown);
        apply(&row(RiskLabel::Caution), &mut label, &mut shown);
        assert_eq!(label, RiskLabel::Caution);
        let shown = shown.unwrap();
        assert_eq!(shown.computed_label, RiskLabel::Critical);
        assert_eq!(shown.label, RiskLabel::Caution);
    }
}
