//! pump.fun's curve trades (`TradeEvent`) of tracked mints, as swaps.

use std::collections::HashSet;

use super::{tag_of, Quoted};
use riskintel_chains::solana::pools::{pump, pump_trades};
use riskintel_chains::solana::transaction::ParsedTransaction;
use riskintel_chains::solana::{self as sol, Pubkey};
use riskintel_chains::Chain;
use riskintel_store::{Side, SwapRow};

/// The curve trades of tracked mints in `txs`, valued in SOL (priced later).
pub(super) fn trades(
    program: &Pubkey,
    txs: &[ParsedTransaction],
    tracked: &HashSet<String>,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<Quoted> {
    let program_text = sol::encode(program);
    let mut swaps = Vec::new();
    for tx in txs {
        let tag = tag_of(tx);
        for (i, trade) in pump_trades::trades(tx, &program_text)
            .into_iter()
            .enumerate()
        {
            let mint = sol::encode(&trade.mint);
            if !tracked.contains(&mint) {
                continue;
            }
            let decimals = tx.decimals_of(&mint).unwrap_or(6);
            let amount_token = trade.token_amount as f64 / 10f64.powi(decimals as i32);
            if amount_token <= 0.0 {
                continue;
            }
            let amount_sol = trade.sol_amount as f64 / 1e9;
            swaps.push(Quoted {
                in_sol: true,
                row: SwapRow {
                    chain: Chain::Sol,
                    pair: pump::curve_address(&trade.mint, program)
                        .map(|c| sol::encode(&c))
                        .unwrap_or_default(),
                    block: tx.slot as i64,
                    log_index: tag + i as i64,
                    token: mint,
                    trader: sol::encode(&trade.user),
                    side: if trade.is_buy { Side::Buy } else { Side::Sell },
                    amount_token,
                    amount_usd: amount_sol,
                    price_usd: amount_sol / amount_token,
                    observed_at: now,
                },
            });
        }
    }
    swaps
}
