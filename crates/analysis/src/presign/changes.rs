//! How the moves of a simulation change one wallet: the net amount of each
//! asset in or out, who was on the other side, and what a token took on
//! the way (a transfer tax or fee).
//!
//! A fee is read from how fee-taking tokens move value: one transfer of a
//! token by a sender is logged as the principal move plus, next to it, the
//! smaller moves the token took from the same sender (to a treasury, to
//! itself, or burnt). A sender's consecutive moves of one token, the
//! largest the principal and the others smaller, are read that way.

use std::collections::BTreeMap;

use alloy_primitives::{Address, U256};

use super::events::{Move, Standard};

/// The net change of one asset for the wallet.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Its standard.
    pub standard: Standard,
    /// The token.
    pub token: Address,
    /// The NFT id.
    pub id: Option<U256>,
    /// In (true) or out.
    pub incoming: bool,
    /// Net amount.
    pub amount: U256,
    /// Taken on the way, where seen.
    pub fee: Option<U256>,
    /// Gross amount of the moves the fee was taken from.
    pub gross: Option<U256>,
    /// The other side of the moves.
    pub counterparties: Vec<Address>,
}

#[derive(Default)]
struct Tally {
    incoming: U256,
    outgoing: U256,
    fee: U256,
    gross: U256,
    counterparties: Vec<Address>,
}

/// The wallet's changes from `moves`, in a stable order (native first).
/// `native_delta`, when read from balances, replaces the native moves' sum.
pub fn of_wallet(
    wallet: Address,
    moves: &[Move],
    native_delta: Option<(bool, U256)>,
) -> Vec<Change> {
    let mut tallies: BTreeMap<(Standard, Address, Option<U256>), Tally> = BTreeMap::new();
    for m in moves {
        if m.from == m.to || (m.from != wallet && m.to != wallet) {
            continue;
        }
        let tally = tallies.entry((m.standard, m.token, m.id)).or_default();
        let other = if m.to == wallet {
            tally.incoming += m.amount;
            m.from
        } else {
            tally.outgoing += m.amount;
            m.to
        };
        if !tally.counterparties.contains(&other) {
            tally.counterparties.push(other);
        }
    }
    for (token, fee, gross) in fees(wallet, moves) {
        if let Some(tally) = tallies.get_mut(&(Standard::Erc20, token, None)) {
            tally.fee += fee;
            tally.gross += gross;
        }
    }
    if let Some((incoming, amount)) = native_delta {
        let key = (
            Standard::Native,
            riskintel_chains::evm::simulate::NATIVE_TRANSFERS,
            None,
        );
        let tally = tallies.entry(key).or_default();
        (tally.incoming, tally.outgoing) = if incoming {
            (amount, U256::ZERO)
        } else {
            (U256::ZERO, amount)
        };
    }
    tallies
        .into_iter()
        .filter(|(_, t)| t.incoming != t.outgoing)
        .map(|((standard, token, id), t)| {
            let incoming = t.incoming > t.outgoing;
            Change {
                standard,
                token,
                id,
                incoming,
                amount: if incoming {
                    t.incoming - t.outgoing
                } else {
                    t.outgoing - t.incoming
                },
                fee: (!t.fee.is_zero()).then_some(t.fee),
                gross: (!t.fee.is_zero()).then_some(t.gross),
                counterparties: t.counterparties,
            }
        })
        .collect()
}

/// Fees taken on the wallet's ERC-20 moves: (token, fee, gross).
fn fees(wallet: Address, moves: &[Move]) -> Vec<(Address, U256, U256)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < moves.len() {
        let first = &moves[i];
        let mut end = i + 1;
        while end < moves.len()
            && moves[end].standard == Standard::Erc20
            && moves[end].token == first.token
            && moves[end].from == first.from
        {
            end += 1;
        }
        let run = &moves[i..end];
        if first.standard == Standard::Erc20 && run.len() > 1 {
            let principal = run
                .iter()
                .max_by_key(|m| m.amount)
                .expect("a run is not empty");
            let rest: U256 = run
                .iter()
                .filter(|m| !std::ptr::eq(*m, principal))
                .fold(U256::ZERO, |sum, m| sum + m.amount);
            let wallet_side = principal.to == wallet || principal.from == wallet;
            if wallet_side && rest < principal.amount && !rest.is_zero() {
                out.push((first.token, rest, rest + principal.amount));
            }
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::address;

    const WALLET: Address = address!("00000000000000000000000000000000000000aa");
    const PAIR: Address = address!("00000000000000000000000000000000000000bb");
    const TOKEN: Address = address!("00000000000000000000000000000000000000cc");
    const TREASURY: Address = address!("00000000000000000000000000000000000000dd");
    const WETH: Address = address!("00000000000000000000000000000000000000ee");

    fn erc20(token: Address, from: Address, to: Address, amount: u64) -> Move {
        Move {
            standard: Standard::Erc20,
            token,
            id: None,
            from,
            to,
            amount: U256::from(amount),
        }
    }

    #[test]
    fn a_taxed_buy_shows_what_arrived_and_what_the_token_took() {
        let moves = vec![
            erc20(WETH, WALLET, PAIR, 10),
            erc20(TOKEN, PAIR, TREASURY, 3),
            erc20(TOKEN, PAIR, WALLET, 97),
        ];
        let changes = of_wallet(WALLET, &moves, None);
        assert_eq!(changes.len(), 2);
        let bought = changes.iter().find(|c| c.token == TOKEN).unwrap();
        assert!(bought.incoming);
        assert_eq!(
            (bought.amount, bought.fee, bought.gross),
            (U256::from(97), Some(U256::from(3)), Some(U256::from(100)))
        );
        assert_eq!(bought.counterparties, vec![PAIR]);
        let paid = changes.iter().find(|c| c.token == WETH).unwrap();
        assert!(!paid.incoming && paid.fee.is_none());
    }

    #[test]
    fn moves_that_cancel_out_are_no_change_and_others_moves_are_ignored() {
        let moves = vec![
            erc20(TOKEN, WALLET, PAIR, 5),
            erc20(TOKEN, PAIR, WALLET, 5),
            erc20(WETH, PAIR, TREASURY, 7),
        ];
        assert!(of_wallet(WALLET, &moves, None).is_empty());
    }

    #[test]
    fn a_native_balance_read_replaces_the_native_moves() {
        let native = riskintel_chains::evm::simulate::NATIVE_TRANSFERS;
        let moves = vec![Move {
            standard: Standard::Native,
            token: native,
            id: None,
            from: WALLET,
            to: PAIR,
            amount: U256::from(4),
        }];
        let changes = of_wallet(WALLET, &moves, Some((false, U256::from(9))));
        assert_eq!(
            (changes[0].standard, changes[0].incoming, changes[0].amount),
            (Standard::Native, false, U256::from(9))
        );
        assert_eq!(changes[0].counterparties, vec![PAIR]);
    }
}
