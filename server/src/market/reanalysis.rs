//! What the market index does with what it read: re-analyse the tokens it
//! marked (new, changed, or due) and raise the alerts the differences
//! mean, liquidity removal among them.

use std::collections::BTreeMap;

use riskintel_api::{AlertKind, TokenAnalysis};

use super::indexer::{Indexer, IndexerError};
use super::pool_logs::LiquidityDrop;
use crate::feed::{alerts, powers};
use riskintel_chains::Chain;

impl Indexer {
    /// Re-analyse the marked tokens (`true`: newly discovered) and the
    /// tracked tokens due for it, and raise the alerts the changes mean.
    pub(super) async fn reanalyse(
        &self,
        chain: Chain,
        mut marked: BTreeMap<String, bool>,
        drops: Vec<(String, LiquidityDrop)>,
    ) -> Result<(), IndexerError> {
        let now = self.clock.now_seconds();
        let due = chrono::Duration::seconds(self.settings.reanalyse_interval_seconds as i64);
        for tracked in self.store.tracked_tokens(Some(chain)).await? {
            if tracked.last_analysed_at.is_none_or(|at| now - at >= due) {
                // One spelling per token: EVM addresses checksummed, as the index marks them.
                let token = match tracked.token.parse::<alloy_primitives::Address>() {
                    Ok(address) if chain.is_evm() => address.to_checksum(None),
                    _ => tracked.token.clone(),
                };
                marked
                    .entry(token)
                    .or_insert(tracked.last_analysed_at.is_none());
            }
        }
        // Tokens whose pools were pulled first, and never left out by the
        // cap: their alerts come from what was read, which is not read again.
        let pulled = |t: &str| drops.iter().any(|(d, _)| d.eq_ignore_ascii_case(t));
        let (first, rest): (Vec<_>, Vec<_>) = marked.into_iter().partition(|(t, _)| pulled(t));
        let cap = self.settings.max_analyses_per_poll as usize;
        for (token, new) in first.into_iter().chain(rest.into_iter().take(cap)) {
            // Not an address of the chain after all: nothing to analyse.
            let Ok(target) = self.analyzer.target(chain, &token) else {
                continue;
            };
            let before = self.analyzer.latest(target).await?;
            let after = match self.analyzer.analyze(target, true).await {
                Ok(after) => after,
                Err(_) => match before.clone().filter(|_| pulled(&token)) {
                    // The node failed: a pull is still alerted, with the last analysis.
                    Some(last) => last,
                    // Not a token after all, or the node failed: try again next time.
                    None => continue,
                },
            };
            let at = self.clock.now_seconds();
            let mut rows = alerts::diff(
                chain,
                if new { None } else { before.as_ref() },
                &after,
                new,
                at,
            );
            // Solana: what the mint's own settings and the pools' liquidity say.
            // (A pull read from the pool's own transaction is alerted below, once.)
            if let (false, false, Some(before)) = (new, chain.is_evm(), before.as_ref()) {
                let pulled = drops.iter().any(|(t, _)| t.eq_ignore_ascii_case(&token));
                rows.extend(
                    powers::diff(chain, before, &after, at)
                        .into_iter()
                        .filter(|r| !(pulled && r.kind == AlertKind::LiquidityRemoved)),
                );
            }
            for (_, drop) in drops.iter().filter(|(t, _)| t.eq_ignore_ascii_case(&token)) {
                rows.push(liquidity_alert(chain, drop, before.as_ref(), &after, at));
            }
            for row in rows {
                if self.store.alert_insert(&row).await?.is_some() {
                    if let Some(alerted) = &self.alerted {
                        alerted.notify_one();
                    }
                }
            }
            self.store
                .tracked_token_analysed(chain, &after.address, at)
                .await?;
        }
        Ok(())
    }
}

fn liquidity_alert(
    chain: Chain,
    drop: &LiquidityDrop,
    before: Option<&TokenAnalysis>,
    after: &TokenAnalysis,
    at: chrono::DateTime<chrono::Utc>,
) -> riskintel_store::AlertRow {
    let symbol = alerts::symbol_of(after);
    let fall = 1.0 - drop.after / drop.before;
    alerts::row(
        chain,
        AlertKind::LiquidityRemoved,
        alerts::liquidity_severity(fall),
        &format!("{}:{}", drop.pair, drop.block),
        format!("{symbol}: liquidity removed"),
        format!(
            "Pool {} lost {:.1}% of its liquidity (quote reserve {:.4} → {:.4}) at block {}.",
            drop.pair,
            fall * 100.0,
            drop.before,
            drop.after,
            drop.block
        ),
        before,
        after,
        drop.block,
        at,
    )
}
