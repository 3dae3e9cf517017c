//! Step 2: reading the pools found — an ERC-20 LP pool's reserves (a V2
//! pair's `getReserves`, a Solidly-style pool's `metadata()` and fee),
//! LP supply and holders' LP through Multicall3; V3-style and V4 pools
//! through the pool lens — and the LP one late-known holder has.

use std::collections::HashMap;

use alloy_primitives::{Address, U256};

use super::{solidly, v3, Pair, PoolState};
use crate::depth::Depth;
use crate::evm::abi::{units, IUniswapV2Pair};
use crate::evm::multicall::{Call, Multicall, Results};
use crate::evm::types::BlockTag;
use crate::rpc::{Answers, Batch};

/// An ERC-20 LP pool's reads: a V2 pair's reserves, or a Solidly-style
/// pool's metadata and fee; its LP supply and holders' balances.
struct PairReads {
    pair: Pair,
    reserves: ReserveReads,
    supply: Call<IUniswapV2Pair::totalSupplyCall>,
    holders: Vec<(Address, Call<IUniswapV2Pair::balanceOfCall>)>,
}

enum ReserveReads {
    V2(Call<IUniswapV2Pair::getReservesCall>),
    Solidly(solidly::Reads),
}

/// Step 2: reserves, LP supply and the LP balances of `lp_holders`, per pool.
pub struct PoolReads {
    pairs: Vec<PairReads>,
    concentrated: v3::Planned,
}

impl PoolReads {
    /// Add the reads of `pairs` to `calls` (V2) and `batch` (the V3 lens, at `at`).
    pub fn plan(
        pairs: &[Pair],
        lp_holders: &[Address],
        calls: &mut Multicall,
        batch: &mut Batch,
        at: &BlockTag,
    ) -> PoolReads {
        let (concentrated, pairs): (Vec<Pair>, Vec<Pair>) = pairs
            .iter()
            .cloned()
            .partition(|p| p.kind().is_concentrated());
        let pairs = pairs
            .into_iter()
            .map(|pair| {
                let reserves = if pair.kind().is_solidly() {
                    ReserveReads::Solidly(solidly::Reads::plan(&pair, calls))
                } else {
                    ReserveReads::V2(calls.add(pair.address, IUniswapV2Pair::getReservesCall {}))
                };
                let supply = calls.add(pair.address, IUniswapV2Pair::totalSupplyCall {});
                let holders = lp_holders
                    .iter()
                    .map(|holder| {
                        (
                            *holder,
                            calls.add(
                                pair.address,
                                IUniswapV2Pair::balanceOfCall { holder: *holder },
                            ),
                        )
                    })
                    .collect();
                PairReads {
                    pair,
                    reserves,
                    supply,
                    holders,
                }
            })
            .collect();
        PoolReads {
            pairs,
            concentrated: v3::plan(concentrated, lp_holders, at, batch),
        }
    }

    /// The states of the pools that could be read, and why some could not.
    pub fn read(
        self,
        results: &Results,
        answers: &mut Answers,
    ) -> (Vec<PoolState>, Option<String>) {
        let mut states: Vec<PoolState> = self
            .pairs
            .into_iter()
            .filter_map(|reads| {
                let PairReads {
                    mut pair,
                    reserves,
                    supply,
                    holders,
                } = reads;
                let (r0, r1, stable_scales) = match reserves {
                    ReserveReads::V2(call) => {
                        let r = results.get(call)?;
                        (U256::from(r.reserve0), U256::from(r.reserve1), None)
                    }
                    ReserveReads::Solidly(reads) => {
                        let read = reads.read(results)?;
                        // The factory's fee; the configured one (set by the lookup) where it cannot say.
                        if let Some(bps) = read.fee_bps {
                            pair.fee = bps * 100;
                        }
                        let (r0, r1) = read.reserves;
                        (r0, r1, pair.stable.then_some(read.scales))
                    }
                };
                let base_is_token0 = pair.base_is_token0();
                let (reserve_base, reserve_quote) =
                    if base_is_token0 { (r0, r1) } else { (r1, r0) };
                let lp_balances = holders
                    .into_iter()
                    .map(|(h, call)| (h, results.get(call).unwrap_or_default()))
                    .collect();
                let base = units(reserve_base, 0);
                let quote = units(reserve_quote, 0);
                let (price_raw, depth) = match stable_scales {
                    Some((scale0, scale1)) => {
                        let (base_scale, quote_scale) = if base_is_token0 {
                            (scale0, scale1)
                        } else {
                            (scale1, scale0)
                        };
                        solidly::stable((base, base_scale), (quote, quote_scale))
                    }
                    None => (
                        if base > 0.0 { quote / base } else { 0.0 },
                        Depth::constant_product(quote),
                    ),
                };
                Some(PoolState {
                    price_raw,
                    depth,
                    pair,
                    reserve_base,
                    reserve_quote,
                    lp_supply: results.get(supply).unwrap_or_default(),
                    lp_balances,
                    lp_uncounted: Vec::new(),
                })
            })
            .collect();
        let gap = match self.concentrated.take(answers) {
            Ok(more) => {
                states.extend(more);
                None
            }
            Err(reason) => Some(reason),
        };
        (states, gap)
    }
}

/// What one holder known only late (the creator) has of each pool's LP:
/// a pair's `balanceOf`, a V3-style pool's position NFTs through the lens.
pub struct HolderLp {
    holder: Address,
    pairs: Vec<(Address, Call<IUniswapV2Pair::balanceOfCall>)>,
    concentrated: v3::Planned,
}

impl HolderLp {
    /// Add the reads of `holder`'s LP in `pairs` to `calls` and `batch`.
    pub fn plan(
        pairs: &[Pair],
        holder: Address,
        calls: &mut Multicall,
        batch: &mut Batch,
        at: &BlockTag,
    ) -> HolderLp {
        let (concentrated, pairs): (Vec<Pair>, Vec<Pair>) = pairs
            .iter()
            .cloned()
            .partition(|p| p.kind().is_concentrated());
        HolderLp {
            holder,
            pairs: pairs
                .iter()
                .map(|p| {
                    (
                        p.address,
                        calls.add(p.address, IUniswapV2Pair::balanceOfCall { holder }),
                    )
                })
                .collect(),
            concentrated: v3::plan(concentrated, &[holder], at, batch),
        }
    }

    /// The holder's LP by pool address, where it could be counted.
    pub fn read(self, results: &Results, answers: &mut Answers) -> HashMap<Address, U256> {
        let mut held: HashMap<Address, U256> = self
            .pairs
            .into_iter()
            .filter_map(|(pool, call)| Some((pool, results.get(call)?)))
            .collect();
        for state in self.concentrated.take(answers).unwrap_or_default() {
            if let Some(lp) = state.lp_counted(self.holder) {
                held.insert(state.pair.address, lp);
            }
        }
        held
    }
}
