//! Trade simulation: the project's simulator contract, injected by an
//! `eth_call` state override at a fresh address (derived, used by nobody), buys the token with
//! the pool's quote token (the wrapped native, or a stablecoin it buys with
//! the wrapped native first), probes a transfer and sells — on every such
//! pool. Nothing is sent; no state changes. `checks` turns the outcomes
//! into the trading checks.

pub mod abi;
pub mod buyers;
pub mod callees;
pub mod checks;
pub mod horizons;
pub mod probe;
pub mod replay;
pub mod restrictions;
pub mod route;
pub mod trace;
pub mod wallet;

/// A sell returning less than this share of its value is a honeypot
/// (every judge of a sell shares it: the simulator's, the wallet's, the
/// buyers').
pub const HONEYPOT_SELL_TAX: f64 = 0.9;

use alloy_primitives::aliases::I24;
use alloy_primitives::{keccak256, Address, Bytes, U256};
use alloy_sol_types::SolCall;
use riskintel_types::{TradeSimulation, TradeStep};
use serde_json::json;

pub use self::abi::SIMULATOR_RUNTIME_HEX;
use self::abi::{ITradeSimulator, Plan};
use riskintel_chains::evm::abi::{revert_reason, units};
use riskintel_chains::evm::pools::Pair;
use riskintel_chains::evm::types::{Block, BlockTag};
use riskintel_chains::evm::EvmChain;
use riskintel_chains::rpc::{Answers, Batch, Slot};
use riskintel_chains::DexKind;

/// Share of the pool's quote reserve spent on the buy (basis points).
const BUY_BPS: u64 = 100;
/// Steps of the binary search for the largest sellable amount.
const SEARCH_STEPS: u64 = 16;

/// A simulation sent for one pool, waiting for its answer.
pub struct Planned {
    pair: Pair,
    simulator: Address,
    slot: Slot<Bytes>,
    horizons: horizons::Planned,
    trace: trace::Planned,
    expected: Vec<Address>,
}

/// A fresh address for one role of one simulation: derived from the
/// token, the pool and the block, so it is nobody's (never the deployer's
/// or the owner's) and an analysis of an unchanged chain is repeatable.
pub fn fresh_address(token: Address, pair: Address, block: u64, role: &str) -> Address {
    let seed = format!(
        "riskintel simulation {token:#x} {pair:#x} {:?} {role}",
        BlockTag::Number(block)
    );
    Address::from_slice(&keccak256(seed.as_bytes())[12..])
}

/// The simulator's name for a pool's family (`PoolSwaps.V2`, `.V3`,
/// `.V4`, `.SOLIDLY`).
fn family(pair: &Pair) -> U256 {
    U256::from(match pair.kind() {
        DexKind::V3 | DexKind::PancakeV3 => 1,
        DexKind::V4 => 2,
        DexKind::Aerodrome | DexKind::Solidly => 3,
        // V2; Solana kinds never reach an EVM pool.
        _ => 0u8,
    })
}

/// The simulator's plan for trading `token` on `pair`, when the simulator
/// can buy its quote: the wrapped native, native currency (a V4 pool's),
/// or a stablecoin that one of `price_pairs` (wrapped native/stablecoin,
/// V2 or V3-style) sells.
pub fn trade_plan(
    chain: &EvmChain,
    token: Address,
    pair: &Pair,
    price_pairs: &[Pair],
    block: u64,
) -> Option<Plan> {
    let price_pair = if [chain.wrapped.address, Address::ZERO].contains(&pair.quote.address) {
        None
    } else {
        Some(price_pairs.iter().find(|p| {
            p.quote.address == pair.quote.address
                && p.base == chain.wrapped.address
                && p.v4.is_none()
        })?)
    };
    // A V2 pair's fee in basis points; a V4 pool's key fee.
    let fee = match pair.v4 {
        Some(key) => key.fee,
        None => pair.dex.fee_bps,
    };
    Some(Plan {
        pair: pair.address,
        token,
        wrapped: chain.wrapped.address,
        quote: pair.quote.address,
        pricePair: price_pair.map_or(Address::ZERO, |p| p.address),
        feeBps: U256::from(fee),
        recipient: fresh_address(token, pair.address, block, "recipient"),
        searchSteps: U256::from(SEARCH_STEPS),
        kind: family(pair),
        priceKind: price_pair.map_or(U256::ZERO, family),
        priceFeeBps: U256::from(price_pair.map_or(0, |p| p.dex.fee_bps)),
        spacing: pair
            .v4
            .and_then(|k| I24::try_from(k.spacing).ok())
            .unwrap_or_default(),
        hooks: pair.v4.map_or(Address::ZERO, |k| k.hooks),
    })
}

/// Add to `batch`, for every pool of `token` the simulator can buy into,
/// the `eth_call` that buys, transfers and sells at `head`, and the
/// `eth_simulateV1` of sells at later horizons.
pub fn plan(
    chain: &EvmChain,
    token: Address,
    pairs: &[Pair],
    price_pairs: &[Pair],
    implementation: Option<Address>,
    head: &Block,
    batch: &mut Batch,
    traces: &mut Batch,
) -> Vec<Planned> {
    let block = head.number();
    pairs
        .iter()
        .filter_map(|pair| {
            let plan = trade_plan(chain, token, pair, price_pairs, block)?;
            let simulator = fresh_address(token, pair.address, block, "simulator");
            let caller = fresh_address(token, pair.address, block, "caller");
            let horizons = horizons::plan(&plan, BUY_BPS, head, caller, |i| fresh_address(token, pair.address, block, &format!("seller {i}")), batch);
            let call = ITradeSimulator::simulateCall { plan: plan.clone(), amountBps: U256::from(BUY_BPS) };
            let overrides = json!({
                format!("{simulator:#x}"): {
                    "code": SIMULATOR_RUNTIME_HEX.trim(),
                    // Enough native currency for any buy; wrapped by the simulator.
                    "balance": abi::funds(),
                }
            });
            let request = json!({"from": caller, "to": simulator, "data": Bytes::from(call.abi_encode()), "gas": "0x2faf080"});
            let slot = batch.call::<Bytes>("eth_call", json!([request, BlockTag::Number(block), overrides]));
            let trace = trace::plan(&request, block, &overrides, traces);
            // Who a token's transfer may call without it being news: the trade's own parties.
            let mut expected = vec![pair.address, simulator, caller, plan.recipient, plan.wrapped, plan.quote, plan.pricePair];
            expected.extend(implementation);
            expected.extend(chain.dexes.iter().flat_map(|d| [d.factory, d.router]));
            Some(Planned { pair: pair.clone(), simulator, slot, horizons, trace, expected })
        })
        .collect()
}

/// `1 − actual / expected`, 0..1; None when nothing was expected.
pub fn tax(expected: U256, actual: U256) -> Option<f64> {
    if expected.is_zero() {
        return None;
    }
    Some((1.0 - units(actual, 0) / units(expected, 0)).clamp(0.0, 1.0))
}

impl Planned {
    /// A label for messages: the DEX and the pool.
    pub fn describe(&self) -> String {
        format!("{} pool {}", self.pair.dex.name, self.pair.name())
    }

    /// The simulation's result from the batch's answers; `Err` with a
    /// reason when it did not run.
    pub fn take(
        self,
        answers: &mut Answers,
        traces: &mut Result<Answers, String>,
        token_decimals: u8,
    ) -> Result<TradeSimulation, String> {
        let data = answers
            .take(self.slot)
            .map_err(|e| format!("the node refused the simulation call ({e}); it may not support eth_call state overrides"))?;
        if data.is_empty() {
            return Err(
                "the node ignored the eth_call state override (the simulator had no code)".into(),
            );
        }
        let horizons = self.horizons.take(answers, token_decimals);
        let transfer_calls = self.trace.take(traces, self.pair.base, &self.expected);
        let o = ITradeSimulator::simulateCall::abi_decode_returns(&data)
            .map_err(|_| "the simulation answer could not be decoded".to_string())?;
        let quote_decimals = self.pair.quote.decimals;
        if o.amountIn.is_zero() {
            return Err("the pool's wrapped-native reserve is empty".into());
        }
        let gas = |value: U256| u64::try_from(value).ok();
        let buy = TradeStep {
            ok: o.buyOk,
            amount_in: Some(units(o.amountIn, quote_decimals)),
            expected_out: Some(units(o.expectedBuy, token_decimals)),
            actual_out: o.buyOk.then(|| units(o.received, token_decimals)),
            tax: if o.buyOk {
                tax(o.expectedBuy, o.received)
            } else {
                None
            },
            gas_used: gas(o.buyGas),
            revert_reason: (!o.buyOk).then(|| revert_reason(&o.buyRevert)),
        };
        let bought = o.buyOk && !o.received.is_zero();
        let transfer = bought.then(|| TradeStep {
            ok: o.transferOk,
            amount_in: Some(units(o.transferSent, token_decimals)),
            expected_out: Some(units(o.transferSent, token_decimals)),
            actual_out: o
                .transferOk
                .then(|| units(o.transferReceived, token_decimals)),
            tax: if o.transferOk {
                tax(o.transferSent, o.transferReceived)
            } else {
                None
            },
            gas_used: None,
            revert_reason: (!o.transferOk).then(|| revert_reason(&o.transferRevert)),
        });
        let sell = bought.then(|| TradeStep {
            ok: o.sellOk,
            amount_in: Some(units(o.sellAmount, token_decimals)),
            expected_out: Some(units(o.expectedSell, quote_decimals)),
            actual_out: o.sellOk.then(|| units(o.sellReceived, quote_decimals)),
            tax: if o.sellOk {
                tax(o.expectedSell, o.sellReceived)
            } else {
                None
            },
            gas_used: gas(o.sellGas),
            revert_reason: (!o.sellOk).then(|| revert_reason(&o.sellRevert)),
        });
        Ok(TradeSimulation {
            dex: self.pair.dex.name.clone(),
            pool: self.pair.name(),
            quote_symbol: self.pair.quote.symbol.clone(),
            simulator: self.simulator.to_checksum(None),
            buy,
            transfer,
            sell,
            max_sell_share: bought.then(|| units(o.maxSellable, 0) / units(o.received, 0)),
            horizons_error: horizons.as_ref().err().cloned(),
            buy_limits: horizons.as_ref().ok().and_then(|h| h.1.clone()),
            horizons: horizons.ok().map(|h| h.0),
            transfer_calls_error: transfer_calls.as_ref().err().cloned(),
            transfer_calls: transfer_calls
                .ok()
                .map(|calls| calls.iter().map(|a| a.to_checksum(None)).collect()),
        })
    }
}
