//! pump.fun's curve trades (`TradeEvent`) of tracked mints, as swaps.

use std::collections::HashSet;

use super::super::indexer::{Indexer, IndexerError};
use super::fnv1a;
use riskintel_chains::solana::pools::{pump, pump_trades};
use riskintel_chains::solana::transaction::ParsedTransaction;
use riskintel_chains::solana::{self as sol, Pubkey};
use riskintel_chains::Chain;
use riskintel_store::{Side, SwapRow};

impl Indexer {
    /// The curve trades of tracked mints in `txs`, valued at SOL's price now.
    pub(super) fn trades(
        &self,
        program: &Pubkey,
        txs: &[ParsedTransaction],
        tracked: &HashSet<String>,
        sol_usd: f64,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<SwapRow>, IndexerError> {
        let program_text = sol::encode(program);
        let found: Vec<(&ParsedTransaction, usize, pump_trades::Trade)> = (txs.iter())
            .flat_map(|tx| {
                (pump_trades::trades(tx, &program_text)
                    .into_iter()
                    .enumerate())
                .map(move |(i, t)| (tx, i, t))
            })
            .filter(|(_, _, t)| tracked.contains(&sol::encode(&t.mint)))
            .collect();
        let mut swaps = Vec::new();
        for (tx, i, trade) in found {
            let mint = sol::encode(&trade.mint);
            let decimals = tx.decimals_of(&mint).unwrap_or(6);
            let amount_token = trade.token_amount as f64 / 10f64.powi(decimals as i32);
            if amount_token <= 0.0 {
                continue;
            }
            let amount_usd = trade.sol_amount as f64 / 1e9 * sol_usd;
            // Unique per trade whatever the slot's order: from the signature.
            let signature = tx
                .transaction
                .signatures
                .first()
                .map(String::as_str)
                .unwrap_or_default();
            let tag = fnv1a(signature.as_bytes());
            swaps.push(SwapRow {
                chain: Chain::Sol,
                pair: pump::curve_address(&trade.mint, program)
                    .map(|c| sol::encode(&c))
                    .unwrap_or_default(),
                block: tx.slot as i64,
                log_index: i64::from(tag) * 256 + i as i64,
                token: mint,
                trader: sol::encode(&trade.user),
                side: if trade.is_buy { Side::Buy } else { Side::Sell },
                amount_token,
                amount_usd,
                price_usd: amount_usd / amount_token,
                observed_at: now,
            });
        }
        Ok(swaps)
    }
}
