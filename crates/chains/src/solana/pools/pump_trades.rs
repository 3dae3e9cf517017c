//! pump.fun's trades, from the `TradeEvent` its program emits with each buy
//! and sell: as a `Program data:` log, or (Anchor's event CPI) as the data
//! of an instruction the program calls on itself. Only the fields every
//! version of the event begins with are read.

use base64::Engine as _;

use crate::solana::transaction::ParsedTransaction;
use crate::solana::Pubkey;

/// `TradeEvent`'s discriminator (Anchor: `event:TradeEvent`).
const TRADE_EVENT: [u8; 8] = [189, 219, 127, 211, 78, 230, 97, 238];
/// The tag of Anchor's event CPI instruction.
const EVENT_CPI: [u8; 8] = [0xe4, 0x45, 0xa5, 0x2e, 0x51, 0xcb, 0x9a, 0x1d];

/// A buy or a sell on a curve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trade {
    /// The mint traded.
    pub mint: Pubkey,
    /// Lamports paid or received.
    pub sol_amount: u64,
    /// Base units bought or sold.
    pub token_amount: u64,
    /// A buy (else a sell).
    pub is_buy: bool,
    /// The trader.
    pub user: Pubkey,
}

/// A `TradeEvent` from its bytes (its discriminator first).
pub fn decode(data: &[u8]) -> Option<Trade> {
    let body = data.strip_prefix(&TRADE_EVENT)?;
    let key = |at: usize| -> Option<Pubkey> { body.get(at..at + 32)?.try_into().ok() };
    let u64_at = |at: usize| -> Option<u64> {
        Some(u64::from_le_bytes(body.get(at..at + 8)?.try_into().ok()?))
    };
    Some(Trade {
        mint: key(0)?,
        sol_amount: u64_at(32)?,
        token_amount: u64_at(40)?,
        is_buy: *body.get(48)? == 1,
        user: key(49)?,
    })
}

/// The trades of `tx` by pump.fun's `program`, in the order emitted.
pub fn trades(tx: &ParsedTransaction, program: &str) -> Vec<Trade> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let logged = (tx.meta.iter())
        .flat_map(|m| m.log_messages.iter().flatten())
        .filter_map(|l| l.strip_prefix("Program data: "))
        .filter_map(|d| b64.decode(d).ok());
    let called = (tx.instructions())
        .filter(|i| i["programId"] == program)
        .filter_map(|i| bs58::decode(i["data"].as_str()?).into_vec().ok())
        .filter_map(|d| d.strip_prefix(&EVENT_CPI).map(<[u8]>::to_vec));
    // pump.fun emits each trade both ways (a log and an event CPI): once each.
    let mut trades: Vec<Trade> = Vec::new();
    for trade in logged.chain(called).filter_map(|d| decode(&d)) {
        if !trades.contains(&trade) {
            trades.push(trade);
        }
    }
    trades
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trade_event_reads_from_its_first_fields() {
        let mut data = TRADE_EVENT.to_vec();
        data.extend([7u8; 32]);
        data.extend(2_000_000_000u64.to_le_bytes());
        data.extend(5_000_000u64.to_le_bytes());
        data.push(1);
        data.extend([9u8; 32]);
        data.extend([0u8; 40]); // later fields: not read
        let trade = decode(&data).expect("a trade");
        assert_eq!(
            trade,
            Trade {
                mint: [7; 32],
                sol_amount: 2_000_000_000,
                token_amount: 5_000_000,
                is_buy: true,
                user: [9; 32]
            }
        );
        assert!(decode(&data[1..]).is_none());
    }
}
