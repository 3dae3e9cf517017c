//! Trading across time: five fresh wallets buy in one simulated block, then
//! sell everything at later horizons (the same block, the next block — two
//! sellers, so a one-sell-per-block rule shows — one hour, one day), in
//! one `eth_simulateV1` whose state carries from block to block. A sell
//! that fails now but passes later is a restriction, not a honeypot. A
//! sixth wallet makes the largest buy it can, and again an hour later: a
//! per-transaction or per-wallet buy limit shows.

use alloy_primitives::{Address, Bytes, U256};
use alloy_sol_types::SolCall;
use riskintel_types::{BuyLimits, Horizon, HorizonSell};
use serde_json::{json, Value};

use super::abi::{ITradeSimulator, Plan, SIMULATOR_RUNTIME_HEX};
use riskintel_chains::evm::abi::{revert_reason, units};
use riskintel_chains::evm::simulate::{simulate_v1, SimBlock, SimCall, SimulatedBlock};
use riskintel_chains::evm::types::Block;
use riskintel_chains::rpc::{Answers, Batch, Slot};

/// The sellers: the horizon of each wallet's sell, and its block among those simulated.
const SELLERS: [(Horizon, usize); 5] = [
    (Horizon::SameBlock, 0),
    (Horizon::NextBlock, 1),
    (Horizon::NextBlock, 1),
    (Horizon::OneHour, 2),
    (Horizon::OneDay, 3),
];
/// Seconds after the base block of each simulated block (the buys are in the first).
const BLOCK_SECONDS: [u64; 4] = [1, 13, 3_601, 86_401];
/// The largest buy searched for: this share of the quote reserve (bps), in this many halvings.
const LIMIT_HIGH_BPS: u64 = 2_000;
const LIMIT_STEPS: u64 = 11;
/// The limit tester buys as much as it can at the end of the first block
/// (after the sellers' calls there) and again in this block.
const LIMIT_AGAIN_BLOCK: usize = 2;

/// Sells across time planned for one pool, waiting for their answer.
pub struct Planned {
    wallets: Vec<Address>,
    slot: Slot<Vec<SimulatedBlock>>,
}

/// Add the `eth_simulateV1` for `plan` on top of `head`; `wallet(i)` names
/// the fresh wallets and `caller` sends the calls.
pub fn plan(
    plan: &Plan,
    buy_bps: u64,
    head: &Block,
    caller: Address,
    wallet: impl Fn(usize) -> Address,
    batch: &mut Batch,
) -> Planned {
    // The sellers, then the limit tester.
    let wallets: Vec<Address> = (0..=SELLERS.len()).map(wallet).collect();
    let call = |to: Address, data: Vec<u8>| SimCall {
        from: caller,
        to,
        data: Bytes::from(data),
        value: U256::ZERO,
    };
    let buy = ITradeSimulator::buyInCall {
        plan: plan.clone(),
        amountBps: U256::from(buy_bps),
    }
    .abi_encode();
    let sell = ITradeSimulator::sellOutCall { plan: plan.clone() }.abi_encode();
    let mut blocks: Vec<SimBlock> = BLOCK_SECONDS
        .iter()
        .map(|s| SimBlock {
            after_seconds: *s,
            calls: Vec::new(),
        })
        .collect();
    for w in &wallets[..SELLERS.len()] {
        blocks[0].calls.push(call(*w, buy.clone()));
    }
    for (w, (_, block)) in wallets.iter().zip(SELLERS) {
        blocks[block].calls.push(call(*w, sell.clone()));
    }
    let tester = wallets[SELLERS.len()];
    let buy_max = ITradeSimulator::buyMaxCall {
        plan: plan.clone(),
        highBps: U256::from(LIMIT_HIGH_BPS),
        steps: U256::from(LIMIT_STEPS),
    }
    .abi_encode();
    for block in [0, LIMIT_AGAIN_BLOCK] {
        blocks[block].calls.push(call(tester, buy_max.clone()));
    }
    let mut overrides = serde_json::Map::new();
    for w in &wallets {
        overrides.insert(
            format!("{w:#x}"),
            json!({"code": SIMULATOR_RUNTIME_HEX.trim(), "balance": super::abi::funds()}),
        );
    }
    let slot = simulate_v1(batch, head, Value::Object(overrides), &blocks);
    Planned { wallets, slot }
}

impl Planned {
    /// Each wallet's buy and later sell; `Err` with the reason when the
    /// node could not simulate them.
    pub fn take(
        self,
        answers: &mut Answers,
        token_decimals: u8,
    ) -> Result<(Vec<HorizonSell>, Option<BuyLimits>), String> {
        let blocks = answers.take(self.slot).map_err(|e| {
            format!("the node could not simulate later blocks (eth_simulateV1: {e})")
        })?;
        let shape_error =
            || "the node's eth_simulateV1 answer has fewer calls than were sent".to_string();
        if blocks.len() != BLOCK_SECONDS.len() {
            return Err(shape_error());
        }
        // Where each block's next sell is: the first block opens with the buys.
        let mut next_call = vec![0usize; BLOCK_SECONDS.len()];
        next_call[0] = SELLERS.len();
        let mut sells = Vec::new();
        for (i, (wallet, (horizon, block))) in self.wallets.iter().zip(SELLERS).enumerate() {
            let bought = blocks[0].calls.get(i).ok_or_else(shape_error)?;
            let sold = blocks[block]
                .calls
                .get(next_call[block])
                .ok_or_else(shape_error)?;
            let second_in_block = next_call[block] > if block == 0 { SELLERS.len() } else { 0 };
            next_call[block] += 1;
            let buy = bought
                .ok()
                .then(|| ITradeSimulator::buyInCall::abi_decode_returns(&bought.return_data).ok())
                .flatten();
            let sell = sold
                .ok()
                .then(|| ITradeSimulator::sellOutCall::abi_decode_returns(&sold.return_data).ok())
                .flatten();
            let bought_ok = buy
                .as_ref()
                .is_some_and(|b| b.buyOk && !b.received.is_zero());
            let mut entry = HorizonSell {
                horizon,
                seconds_after_buy: BLOCK_SECONDS[block] - BLOCK_SECONDS[0],
                second_in_block,
                wallet: wallet.to_checksum(None),
                bought: bought_ok,
                ok: false,
                sold_share: None,
                tax: None,
                revert_reason: None,
            };
            match (buy, sell) {
                (Some(b), _) if !bought_ok => {
                    entry.revert_reason =
                        Some(format!("the buy failed: {}", revert_reason(&b.buyRevert)))
                }
                (None, _) => entry.revert_reason = Some("the buy could not be simulated".into()),
                (Some(_), None) => {
                    entry.revert_reason = Some("the sell could not be simulated".into())
                }
                (Some(_), Some(s)) => {
                    entry.ok = s.sellOk;
                    entry.sold_share = Some(if s.received.is_zero() {
                        0.0
                    } else {
                        units(s.maxSellable, 0) / units(s.received, 0)
                    });
                    entry.tax = s
                        .sellOk
                        .then(|| super::tax(s.expectedSell, s.sellReceived))
                        .flatten();
                    entry.revert_reason = (!s.sellOk).then(|| revert_reason(&s.sellRevert));
                }
            }
            sells.push(entry);
        }
        // The limit tester's calls come last in their blocks.
        let largest = |block: usize| {
            let call = blocks[block].calls.last().filter(|c| c.ok())?;
            ITradeSimulator::buyMaxCall::abi_decode_returns(&call.return_data).ok()
        };
        let limits = largest(0).map(|first| BuyLimits {
            capped: first.capped,
            largest_buy: units(first.received, token_decimals),
            largest_buy_again: largest(LIMIT_AGAIN_BLOCK)
                .map(|again| units(again.received, token_decimals)),
        });
        Ok((sells, limits))
    }
}
