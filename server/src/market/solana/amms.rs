//! What an AMM transaction on Solana did to its pools, read from the
//! pools' own token balances before and after (the node's
//! `pre/postTokenBalances`), whatever the family: a pool is the owner of a
//! pair of token accounts, one of a token and one of a quote (wrapped SOL
//! or a configured stablecoin), that moved in the same transaction.
//! - both were empty before and hold something after: the pool opened
//!   (its first liquidity; a graduation from a curve reads the same);
//! - one grew and the other shrank: a swap, by the transaction's fee payer
//!   (the token leaving the pool is a buy);
//! - both shrank: liquidity withdrawn.
//!
//! Both accounts must be named by one instruction of the source's program
//! (top-level or inner): so families whose accounts are owned by one
//! authority for every pool (Raydium's) are never paired across pools in a
//! route, and escrows of other programs are never pools. The token account
//! of the token is the pool's key here.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use super::super::pool_logs::LiquidityDrop;
use super::{tag_of, Quoted};
use riskintel_chains::solana::transaction::{ParsedTransaction, TokenAccountChange};
use riskintel_chains::Chain;
use riskintel_store::{Side, SwapRow, SyncRow};

/// A withdrawal counts as liquidity pulled when it leaves at most this
/// share of the pool's quote reserve.
const PULLED: f64 = 0.5;

/// The quote mints the index knows, and whether each is a stablecoin.
pub(super) type Quotes = HashMap<String, bool>;

/// One pool's part in a transaction.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PoolMove {
    /// The token (not the quote).
    pub(super) mint: String,
    /// The pool's token account of the token: the pool's key here.
    pub(super) pool: String,
    /// The quote mint.
    pub(super) quote: String,
    /// Whether the quote is a stablecoin (else wrapped SOL).
    pub(super) stable: bool,
    /// The pool's token balance before and after, whole tokens.
    pub(super) token: (f64, f64),
    /// The pool's quote balance before and after, whole units.
    pub(super) reserve: (f64, f64),
    /// Who paid for the transaction.
    pub(super) trader: String,
}

/// What the move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// The pool's first liquidity.
    Opened,
    /// A swap; true when the trader bought the token.
    Swap(bool),
    /// Liquidity taken out.
    Withdrawn,
    /// Liquidity added to a pool that had some.
    Added,
}

impl PoolMove {
    /// What it was.
    pub(super) fn kind(&self) -> Kind {
        let grew = |(a, b): (f64, f64)| b > a;
        let empty_before = self.token.0 == 0.0 && self.reserve.0 == 0.0;
        match (grew(self.token), grew(self.reserve)) {
            _ if empty_before => Kind::Opened,
            (false, true) => Kind::Swap(true),
            (true, false) => Kind::Swap(false),
            (false, false) => Kind::Withdrawn,
            (true, true) => Kind::Added,
        }
    }
}

fn whole(amount: u64, decimals: Option<u8>) -> f64 {
    amount as f64 / 10f64.powi(i32::from(decimals.unwrap_or(0)))
}

/// The account lists of `program`'s instructions in `tx`.
fn account_lists<'a>(tx: &'a ParsedTransaction, program: &str) -> Vec<Vec<&'a str>> {
    (tx.instructions())
        .filter(|i| i["programId"] == program)
        .map(|i| {
            (i["accounts"].as_array().into_iter().flatten())
                .filter_map(|a| a.as_str())
                .collect()
        })
        .collect()
}

/// The pools `tx` moved through `program`: pairs of a token and a quote
/// account with one owner, named by one of the program's instructions.
pub(super) fn moves(tx: &ParsedTransaction, quotes: &Quotes, program: &str) -> Vec<PoolMove> {
    let lists = account_lists(tx, program);
    let together = |a: &str, b: &str| lists.iter().any(|l| l.contains(&a) && l.contains(&b));
    let Some(meta) = tx.meta.as_ref() else {
        return Vec::new();
    };
    let Some(trader) = tx.fee_payer() else {
        return Vec::new();
    };
    let mut mints: Vec<&str> = (meta.pre_token_balances.iter())
        .chain(&meta.post_token_balances)
        .map(|b| b.mint.as_str())
        .collect();
    mints.sort_unstable();
    mints.dedup();
    let (quote_mints, tokens): (Vec<&str>, Vec<&str>) =
        mints.into_iter().partition(|m| quotes.contains_key(*m));
    // Each quote's accounts that moved, read once.
    let quote_sides: Vec<(&str, Option<u8>, Vec<TokenAccountChange>)> = (quote_mints.iter())
        .map(|q| {
            let moved = (tx.token_accounts(q).into_iter())
                .filter(|a| a.before != a.after)
                .collect();
            (*q, tx.decimals_of(q), moved)
        })
        .collect();
    let signers: Vec<&str> = tx.signers().collect();
    let mut moves = Vec::new();
    for mint in tokens {
        let decimals = tx.decimals_of(mint);
        for account in tx.token_accounts(mint) {
            let Some(owner) = account.owner.as_deref() else {
                continue;
            };
            // A signer's accounts are a trader's, never a pool's.
            if account.before == account.after || signers.contains(&owner) {
                continue;
            }
            let quote = quote_sides.iter().find_map(|(q, quote_decimals, moved)| {
                let side = moved.iter().find(|a| {
                    a.owner.as_deref() == Some(owner) && together(&account.account, &a.account)
                })?;
                Some((*q, *quote_decimals, side))
            });
            let Some((quote, quote_decimals, side)) = quote else {
                continue;
            };
            moves.push(PoolMove {
                mint: mint.to_string(),
                pool: account.account.clone(),
                quote: quote.to_string(),
                stable: quotes[quote],
                token: (
                    whole(account.before, decimals),
                    whole(account.after, decimals),
                ),
                reserve: (
                    whole(side.before, quote_decimals),
                    whole(side.after, quote_decimals),
                ),
                trader: trader.to_string(),
            });
        }
    }
    moves
}

/// The tokens whose pools opened, of one transaction's `moves`.
pub(super) fn opened(moves: &[PoolMove]) -> Vec<String> {
    let mut mints: Vec<String> = (moves.iter())
        .filter(|m| m.kind() == Kind::Opened)
        .map(|m| m.mint.clone())
        .collect();
    mints.dedup();
    mints
}

/// What `txs` (with each one's `moves`) did to the pools of `tracked`
/// tokens: their swaps (valued in their quote: SOL, priced later, or a
/// stablecoin's dollars), every pool's quote reserve after each, and the
/// withdrawals that pulled its liquidity.
pub(super) fn rows(
    txs: &[ParsedTransaction],
    moves: &[Vec<PoolMove>],
    tracked: &HashSet<String>,
    now: DateTime<Utc>,
) -> (Vec<Quoted>, Vec<SyncRow>, Vec<(String, LiquidityDrop)>) {
    let (mut swaps, mut syncs, mut drops) = (Vec::new(), Vec::new(), Vec::new());
    for (tx, moved) in txs.iter().zip(moves) {
        // Unique per pool and transaction whatever the slot's order.
        let tag = tag_of(tx);
        for (i, m) in moved
            .iter()
            .enumerate()
            .filter(|(_, m)| tracked.contains(&m.mint))
        {
            let log_index = tag + i as i64;
            syncs.push(SyncRow {
                chain: Chain::Sol,
                pair: m.pool.clone(),
                block: tx.slot as i64,
                log_index,
                reserve_quote: m.reserve.1,
                observed_at: now,
            });
            match m.kind() {
                Kind::Swap(buy) => {
                    let amount_token = (m.token.1 - m.token.0).abs();
                    let quote = (m.reserve.1 - m.reserve.0).abs();
                    if amount_token > 0.0 {
                        swaps.push(Quoted {
                            in_sol: !m.stable,
                            row: SwapRow {
                                chain: Chain::Sol,
                                pair: m.pool.clone(),
                                block: tx.slot as i64,
                                log_index,
                                token: m.mint.clone(),
                                trader: m.trader.clone(),
                                side: if buy { Side::Buy } else { Side::Sell },
                                amount_token,
                                amount_usd: quote,
                                price_usd: quote / amount_token,
                                observed_at: now,
                            },
                        });
                    }
                }
                Kind::Withdrawn if m.reserve.1 <= m.reserve.0 * PULLED => {
                    drops.push((
                        m.mint.clone(),
                        LiquidityDrop {
                            pair: m.pool.clone(),
                            before: m.reserve.0,
                            after: m.reserve.1,
                            block: tx.slot,
                        },
                    ));
                }
                _ => {}
            }
        }
    }
    (swaps, syncs, drops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const WSOL: &str = "So11111111111111111111111111111111111111112";

    fn balance(
        index: usize,
        mint: &str,
        owner: &str,
        amount: u64,
        decimals: u8,
    ) -> serde_json::Value {
        json!({"accountIndex": index, "mint": mint, "owner": owner,
            "uiTokenAmount": {"amount": amount.to_string(), "decimals": decimals}})
    }

    /// A transaction by `trader` whose token balances go from `pre` to `post`.
    fn tx(pre: Vec<serde_json::Value>, post: Vec<serde_json::Value>) -> ParsedTransaction {
        let keys: Vec<serde_json::Value> = (0..6)
            .map(|i| json!({"pubkey": format!("acct{i}"), "signer": i == 0}))
            .collect();
        serde_json::from_value(json!({
            "slot": 10, "blockTime": 1, "meta": {"err": null, "preTokenBalances": pre,
                "postTokenBalances": post, "innerInstructions": [], "logMessages": []},
            "transaction": {"signatures": ["s"], "message": {"accountKeys": keys, "instructions": [
                {"programId": "Amm", "accounts": ["acct2", "acct3"], "data": ""}]}}
        }))
        .unwrap()
    }

    fn quotes() -> Quotes {
        [(WSOL.to_string(), false)].into()
    }

    #[test]
    fn a_pools_balances_say_what_happened_to_it() {
        // Opened: the pool's accounts (2, 3) appear with tokens and SOL.
        let opened = tx(
            vec![balance(1, "M", "acct0", 500_000_000, 6)],
            vec![
                balance(1, "M", "acct0", 0, 6),
                balance(2, "M", "poolAuth", 500_000_000, 6),
                balance(3, WSOL, "poolAuth", 10_000_000_000, 9),
            ],
        );
        let m = moves(&opened, &quotes(), "Amm");
        assert_eq!(m.len(), 1);
        assert_eq!((m[0].pool.as_str(), m[0].kind()), ("acct2", Kind::Opened));
        assert_eq!(m[0].reserve, (0.0, 10.0));
        // A buy: tokens leave the pool, SOL comes in; the trader's own
        // accounts (signer acct0) are never a pool.
        let buy = tx(
            vec![
                balance(2, "M", "poolAuth", 500_000_000, 6),
                balance(3, WSOL, "poolAuth", 10_000_000_000, 9),
                balance(4, WSOL, "acct0", 1_000_000_000, 9),
            ],
            vec![
                balance(1, "M", "acct0", 50_000_000, 6),
                balance(2, "M", "poolAuth", 450_000_000, 6),
                balance(3, WSOL, "poolAuth", 11_000_000_000, 9),
                balance(4, WSOL, "acct0", 0, 9),
            ],
        );
        let m = moves(&buy, &quotes(), "Amm");
        assert_eq!(m.len(), 1);
        assert_eq!(
            (m[0].kind(), m[0].trader.as_str()),
            (Kind::Swap(true), "acct0")
        );
        assert_eq!(m[0].token, (500.0, 450.0));
        // Both sides out: withdrawn.
        let pulled = tx(
            vec![
                balance(2, "M", "poolAuth", 450_000_000, 6),
                balance(3, WSOL, "poolAuth", 11_000_000_000, 9),
            ],
            vec![
                balance(2, "M", "poolAuth", 45_000_000, 6),
                balance(3, WSOL, "poolAuth", 1_100_000_000, 9),
            ],
        );
        assert_eq!(moves(&pulled, &quotes(), "Amm")[0].kind(), Kind::Withdrawn);
        // No quote beside it: not a pool.
        let transfer = tx(
            vec![balance(2, "M", "someone", 5, 6)],
            vec![
                balance(2, "M", "someone", 0, 6),
                balance(3, "M", "other", 5, 6),
            ],
        );
        assert!(moves(&transfer, &quotes(), "Amm").is_empty());
        // Another program's accounts (an escrow's), or accounts no one
        // instruction names together: not a pool of this program.
        assert!(moves(&buy, &quotes(), "Other").is_empty());
    }
}
