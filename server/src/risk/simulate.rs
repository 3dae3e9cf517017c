//! Trade simulation: the project's simulator contract, injected by an
//! `eth_call` state override at a fresh random address, buys the token with
//! the pool's quote token (the wrapped native, or a stablecoin it buys with
//! the wrapped native first), probes a transfer and sells — on every such
//! pool. Nothing is sent; no state changes.

use alloy_primitives::{Address, U256};
use rand::Rng;
use riskintel_api::{TradeSimulation, TradeStep};
use serde_json::{json, Value};

use super::evm::{units, Dex, EvmChain, Quote};
use crate::chains::evm::abi::{self, selector};
use crate::chains::evm::rpc::RpcError;

/// The simulator's runtime code, compiled from `simulator/TradeSimulator.sol`.
pub const SIMULATOR_RUNTIME_HEX: &str = include_str!("simulator/TradeSimulator.runtime.hex");

/// Share of the pool's quote reserve spent on the buy (basis points).
const BUY_BPS: u64 = 100;
/// Steps of the binary search for the largest sellable amount.
const SEARCH_STEPS: u64 = 16;

/// A simulation request for one pool.
pub struct Planned {
    /// The DEX.
    pub dex: String,
    /// The pair.
    pub pair: Address,
    /// Its quote asset.
    pub quote: Quote,
    /// Where the simulator runs.
    pub simulator: Address,
    /// The call.
    pub call: (String, Value),
}

fn random_address() -> Address {
    let mut bytes = [0u8; 20];
    rand::rng().fill(&mut bytes);
    Address::from(bytes)
}

/// The `eth_call`s that simulate trades on `pairs` at `block`: pools quoted
/// in the wrapped native, and pools quoted in a stablecoin that one of
/// `price_pairs` (wrapped native/stablecoin) lets the simulator buy first.
pub fn plan(
    chain: &EvmChain,
    token: Address,
    pairs: &[(Dex, Quote, Address)],
    price_pairs: &[(Quote, Address)],
    block: &str,
) -> Vec<Planned> {
    pairs
        .iter()
        .filter_map(|(dex, quote, pair)| {
            if quote.address == chain.wrapped.address {
                Some((dex, quote, pair, Address::ZERO))
            } else {
                price_pairs.iter().find(|(stable, _)| stable.address == quote.address).map(|(_, price)| (dex, quote, pair, *price))
            }
        })
        .map(|(dex, quote, pair, price_pair)| {
            let fee_bps = dex.fee_bps;
            let simulator = random_address();
            let caller = random_address();
            let recipient = random_address();
            let data = abi::call(
                "simulate((address,address,address,address,address,uint256,address,uint256),uint256)",
                &[
                    abi::address_word(*pair),
                    abi::address_word(token),
                    abi::address_word(chain.wrapped.address),
                    abi::address_word(quote.address),
                    abi::address_word(price_pair),
                    abi::uint_word(U256::from(fee_bps)),
                    abi::address_word(recipient),
                    abi::uint_word(U256::from(SEARCH_STEPS)),
                    abi::uint_word(U256::from(BUY_BPS)),
                ],
            );
            let overrides = json!({
                format!("{simulator:#x}"): {
                    "code": SIMULATOR_RUNTIME_HEX.trim(),
                    // Enough native currency for any buy; wrapped by the simulator.
                    "balance": format!("{:#x}", U256::from(10).pow(U256::from(30))),
                }
            });
            let call = (
                "eth_call".to_string(),
                json!([{"from": format!("{caller:#x}"), "to": format!("{simulator:#x}"), "data": abi::to_hex(&data), "gas": "0x2faf080"}, block, overrides]),
            );
            Planned { dex: dex.name.clone(), pair: *pair, quote: quote.clone(), simulator, call }
        })
        .collect()
}

/// A revert reason in words.
pub fn revert_reason(data: &[u8]) -> String {
    if data.is_empty() {
        return "reverted without a reason".into();
    }
    if let Some(text) = abi::decode_revert_reason(data) {
        return text;
    }
    if data.len() >= 36 && data[..4] == selector("Panic(uint256)") {
        return format!("panic {:#x}", U256::from_be_slice(&data[4..36]));
    }
    if data.len() >= 4 {
        return format!("custom error {}", abi::to_hex(&data[..4]));
    }
    format!("reverted with {}", abi::to_hex(data))
}

struct Reader<'a> {
    data: &'a [u8],
    base: usize,
}

impl Reader<'_> {
    fn word(&self, i: usize) -> Option<U256> {
        let at = self.base + 32 * i;
        self.data.get(at..at + 32).map(U256::from_be_slice)
    }

    fn uint(&self, i: usize) -> Option<U256> {
        self.word(i)
    }

    fn flag(&self, i: usize) -> Option<bool> {
        self.word(i).map(|w| !w.is_zero())
    }

    fn bytes(&self, i: usize) -> Option<Vec<u8>> {
        let offset = usize::try_from(self.word(i)?).ok()?;
        let at = self.base.checked_add(offset)?;
        let len = usize::try_from(U256::from_be_slice(self.data.get(at..at + 32)?)).ok()?;
        self.data.get(at + 32..at + 32 + len).map(<[u8]>::to_vec)
    }
}

fn tax(expected: U256, actual: U256) -> Option<f64> {
    if expected.is_zero() {
        return None;
    }
    Some((1.0 - units(actual, 0) / units(expected, 0)).clamp(0.0, 1.0))
}

fn gas(value: U256) -> Option<u64> {
    u64::try_from(value).ok()
}

/// Decode one simulation answer. `Err` with a reason when it did not run.
pub fn decode(planned: &Planned, token_decimals: u8, answer: Result<Value, RpcError>) -> Result<TradeSimulation, String> {
    let value = answer.map_err(|e| format!("the node refused the simulation call ({e}); it may not support eth_call state overrides"))?;
    let data = value.as_str().and_then(abi::from_hex).ok_or("the simulation answer is not hex")?;
    if data.is_empty() {
        return Err("the node ignored the eth_call state override (the simulator had no code)".into());
    }
    let base = usize::try_from(U256::from_be_slice(data.get(..32).ok_or("short simulation answer")?)).map_err(|_| "bad offset")?;
    let r = Reader { data: &data, base };
    let bad = || "the simulation answer could not be decoded".to_string();
    let quote_decimals = planned.quote.decimals;
    let amount_in = r.uint(0).ok_or_else(bad)?;
    if amount_in.is_zero() {
        return Err("the pool's wrapped-native reserve is empty".into());
    }
    let buy_ok = r.flag(1).ok_or_else(bad)?;
    let expected_buy = r.uint(3).ok_or_else(bad)?;
    let received = r.uint(4).ok_or_else(bad)?;
    let buy = TradeStep {
        ok: buy_ok,
        amount_in: Some(units(amount_in, quote_decimals)),
        expected_out: Some(units(expected_buy, token_decimals)),
        actual_out: buy_ok.then(|| units(received, token_decimals)),
        tax: if buy_ok { tax(expected_buy, received) } else { None },
        gas_used: gas(r.uint(5).ok_or_else(bad)?),
        revert_reason: (!buy_ok).then(|| revert_reason(&r.bytes(2).unwrap_or_default())),
    };
    let (transfer, sell, max_sell_share) = if buy_ok && !received.is_zero() {
        let transfer_ok = r.flag(6).ok_or_else(bad)?;
        let sent = r.uint(8).ok_or_else(bad)?;
        let arrived = r.uint(9).ok_or_else(bad)?;
        let transfer = TradeStep {
            ok: transfer_ok,
            amount_in: Some(units(sent, token_decimals)),
            expected_out: Some(units(sent, token_decimals)),
            actual_out: transfer_ok.then(|| units(arrived, token_decimals)),
            tax: if transfer_ok { tax(sent, arrived) } else { None },
            gas_used: None,
            revert_reason: (!transfer_ok).then(|| revert_reason(&r.bytes(7).unwrap_or_default())),
        };
        let sell_ok = r.flag(10).ok_or_else(bad)?;
        let sell_amount = r.uint(12).ok_or_else(bad)?;
        let expected_sell = r.uint(13).ok_or_else(bad)?;
        let sold = r.uint(14).ok_or_else(bad)?;
        let sell = TradeStep {
            ok: sell_ok,
            amount_in: Some(units(sell_amount, token_decimals)),
            expected_out: Some(units(expected_sell, quote_decimals)),
            actual_out: sell_ok.then(|| units(sold, quote_decimals)),
            tax: if sell_ok { tax(expected_sell, sold) } else { None },
            gas_used: gas(r.uint(15).ok_or_else(bad)?),
            revert_reason: (!sell_ok).then(|| revert_reason(&r.bytes(11).unwrap_or_default())),
        };
        let max_sellable = r.uint(16).ok_or_else(bad)?;
        (Some(transfer), Some(sell), Some(units(max_sellable, 0) / units(received, 0)))
    } else {
        (None, None, None)
    };
    Ok(TradeSimulation {
        dex: planned.dex.clone(),
        pool: planned.pair.to_checksum(None),
        quote_symbol: planned.quote.symbol.clone(),
        simulator: planned.simulator.to_checksum(None),
        buy,
        transfer,
        sell,
        max_sell_share,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revert_reasons_are_decoded() {
        let mut error = selector("Error(string)").to_vec();
        error.extend_from_slice(&abi::uint_word(U256::from(32)));
        error.extend_from_slice(&abi::uint_word(U256::from(4)));
        let mut word = [0u8; 32];
        word[..4].copy_from_slice(b"nope");
        error.extend_from_slice(&word);
        assert_eq!(revert_reason(&error), "nope");
        let mut panic = selector("Panic(uint256)").to_vec();
        panic.extend_from_slice(&abi::uint_word(U256::from(0x11)));
        assert_eq!(revert_reason(&panic), "panic 0x11");
        assert_eq!(revert_reason(&[0xde, 0xad, 0xbe, 0xef]), "custom error 0xdeadbeef");
        assert_eq!(revert_reason(&[]), "reverted without a reason");
    }

    #[test]
    fn committed_runtime_is_hex() {
        let code = abi::from_hex(SIMULATOR_RUNTIME_HEX.trim()).expect("hex");
        assert!(code.len() > 1000);
    }
}
