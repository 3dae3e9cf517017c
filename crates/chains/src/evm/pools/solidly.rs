//! Solidly-style pools (Aerodrome and Velodrome V2: `getPool(a, b,
//! stable)`; the Velodrome V1 line of forks: `getPair(a, b, stable)`): a
//! volatile pool is a constant-product pair; a stable pool trades on
//! x³y + y³x = k over reserves in whole units. Both are ERC-20 LP pools
//! whose reserves, LP and holders read like a V2 pair's; `metadata()`
//! gives their reserves and decimals at once, and the factory each pool's
//! fee (basis points of 10,000).

use alloy_primitives::{Address, U256};
use alloy_sol_types::sol;

use super::Pair;
use crate::depth::Depth;
use crate::evm::abi::units;
use crate::evm::multicall::{Call, Multicall, Results};
use crate::DexKind;

sol! {
    #![sol(all_derives)]

    /// Aerodrome's (and Velodrome V2's) PoolFactory.
    interface IAerodromeFactory {
        function getPool(address tokenA, address tokenB, bool stable) external view returns (address pool);
        function getFee(address pool, bool stable) external view returns (uint256 fee);

        event PoolCreated(address indexed token0, address indexed token1, bool indexed stable, address pool, uint256 count);
    }

    /// A Solidly fork's PairFactory (Velodrome V1 line).
    interface ISolidlyFactory {
        function getPair(address tokenA, address tokenB, bool stable) external view returns (address pair);
        function getFee(bool stable) external view returns (uint256 fee);

        event PairCreated(address indexed token0, address indexed token1, bool stable, address pair, uint256 count);
    }

    /// A Solidly-style pool: reserves as uint256, decimals as 10^decimals.
    /// The forks' `Swap` is a V2 pair's; Aerodrome's orders it differently.
    interface ISolidlyPool {
        function metadata() external view returns (uint256 dec0, uint256 dec1, uint256 r0, uint256 r1, bool st, address t0, address t1);

        event Swap(address indexed sender, address indexed to, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out);
        event Sync(uint256 reserve0, uint256 reserve1);
    }
}

/// The factory lookup of the `stable` (or volatile) pool of `a` and `b`.
pub struct Lookup {
    stable: bool,
    call: LookupCall,
}

enum LookupCall {
    /// Aerodrome's `getPool`.
    Aerodrome(Call<IAerodromeFactory::getPoolCall>),
    /// A fork's `getPair`.
    Solidly(Call<ISolidlyFactory::getPairCall>),
}

impl Lookup {
    /// Add the lookup on `factory` (of `kind`) to `calls`.
    pub fn plan(
        kind: DexKind,
        factory: Address,
        a: Address,
        b: Address,
        stable: bool,
        calls: &mut Multicall,
    ) -> Lookup {
        let call = if kind == DexKind::Aerodrome {
            let call = IAerodromeFactory::getPoolCall {
                tokenA: a,
                tokenB: b,
                stable,
            };
            LookupCall::Aerodrome(calls.add(factory, call))
        } else {
            let call = ISolidlyFactory::getPairCall {
                tokenA: a,
                tokenB: b,
                stable,
            };
            LookupCall::Solidly(calls.add(factory, call))
        };
        Lookup { stable, call }
    }

    /// Whether it looks for the stable pool.
    pub fn stable(&self) -> bool {
        self.stable
    }

    /// The pool found (zero when there is none).
    pub fn found(self, results: &Results) -> Option<Address> {
        match self.call {
            LookupCall::Aerodrome(call) => results.get(call),
            LookupCall::Solidly(call) => results.get(call),
        }
    }
}

/// A pool's reads: its metadata and its fee, from the factory.
pub struct Reads {
    metadata: Call<ISolidlyPool::metadataCall>,
    fee: FeeRead,
}

enum FeeRead {
    Aerodrome(Call<IAerodromeFactory::getFeeCall>),
    Solidly(Call<ISolidlyFactory::getFeeCall>),
}

/// What a pool's reads said.
pub struct Read {
    /// Reserves of token0 and token1.
    pub reserves: (U256, U256),
    /// 10^decimals of token0 and token1.
    pub scales: (f64, f64),
    /// Its fee in basis points, when the factory said.
    pub fee_bps: Option<u32>,
}

impl Reads {
    /// Add the reads of `pair` to `calls`.
    pub fn plan(pair: &Pair, calls: &mut Multicall) -> Reads {
        let metadata = calls.add(pair.address, ISolidlyPool::metadataCall {});
        let (factory, stable) = (pair.dex.factory, pair.stable);
        let fee = if pair.kind() == DexKind::Aerodrome {
            let call = IAerodromeFactory::getFeeCall {
                pool: pair.address,
                stable,
            };
            FeeRead::Aerodrome(calls.add(factory, call))
        } else {
            FeeRead::Solidly(calls.add(factory, ISolidlyFactory::getFeeCall { stable }))
        };
        Reads { metadata, fee }
    }

    /// The answers; None when the pool's metadata could not be read.
    pub fn read(self, results: &Results) -> Option<Read> {
        let m = results.get(self.metadata)?;
        let fee = match self.fee {
            FeeRead::Aerodrome(call) => results.get(call),
            FeeRead::Solidly(call) => results.get(call),
        };
        Some(Read {
            reserves: (m.r0, m.r1),
            scales: (units(m.dec0, 0), units(m.dec1, 0)),
            fee_bps: fee
                .and_then(|f| u32::try_from(f).ok())
                .filter(|f| *f < 10_000),
        })
    }
}

/// The stable invariant x³y + y³x.
fn k(x: f64, y: f64) -> f64 {
    x * y * (x * x + y * y)
}

/// The price of x in y on the stable curve at (x, y): dy/dx's size.
pub fn stable_price(x: f64, y: f64) -> f64 {
    let denominator = x * x * x + 3.0 * x * y * y;
    if denominator > 0.0 {
        (3.0 * x * x * y + y * y * y) / denominator
    } else {
        0.0
    }
}

/// The x on the stable curve through (x, y) where it holds `y_at` of y.
fn x_at(x: f64, y: f64, y_at: f64) -> f64 {
    let target = k(x, y);
    let mut guess = x;
    for _ in 0..100 {
        let f = guess * guess * guess * y_at + guess * y_at * y_at * y_at - target;
        let slope = 3.0 * guess * guess * y_at + y_at * y_at * y_at;
        if slope <= 0.0 {
            break;
        }
        let next = (guess - f / slope).max(guess / 16.0);
        if (next - guess).abs() <= 1e-15 * guess {
            return next;
        }
        guess = next;
    }
    guess
}

/// The y at which the stable curve through (x, y) prices x at `target`
/// (the price rises with y), found by bisection.
fn y_priced(x: f64, y: f64, target: f64) -> f64 {
    let price = |y_at: f64| stable_price(x_at(x, y, y_at), y_at);
    let (mut lo, mut hi) = if target > price(y) {
        let mut hi = y * 2.0;
        while price(hi) < target && hi < y * 1e12 {
            hi *= 2.0;
        }
        (y, hi)
    } else {
        (0.0, y)
    };
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if price(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// A stable pool's price of the base in the quote (raw units each) and its
/// depth (raw quote units), from raw reserves and each side's 10^decimals.
pub fn stable((base, base_scale): (f64, f64), (quote, quote_scale): (f64, f64)) -> (f64, Depth) {
    if base <= 0.0 || quote <= 0.0 || base_scale <= 0.0 || quote_scale <= 0.0 {
        return (0.0, Depth::default());
    }
    let (x, y) = (base / base_scale, quote / quote_scale);
    let price = stable_price(x, y);
    let depth = Depth {
        up: (y_priced(x, y, price * 1.02) - y) * quote_scale,
        down: (y - y_priced(x, y, price * 0.98)) * quote_scale,
    };
    (price * quote_scale / base_scale, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance * a.abs().max(b.abs())
    }

    /// Output of a swap of `dx` into the stable curve at (x, y), as the
    /// pool computes it (no fee): y − y(x + dx), y from the invariant.
    fn out(x: f64, y: f64, dx: f64) -> f64 {
        // x and y swap roles: solve for the y that keeps k with x + dx.
        y - x_at(y, x, x + dx)
    }

    #[test]
    fn a_balanced_stable_pool_prices_at_one_and_is_far_deeper_than_a_pair() {
        // 1,000,000 of each side: a token of 18 decimals against a 6-decimal stablecoin.
        let (price, depth) = stable((1e6 * 1e18, 1e18), (1e6 * 1e6, 1e6));
        assert!(close(price * 1e18 / 1e6, 1.0, 1e-12), "{price}");
        let pair = Depth::constant_product(1e6 * 1e6);
        assert!(
            depth.up > 20.0 * pair.up && depth.down > 20.0 * pair.down,
            "{depth:?} vs {pair:?}"
        );
        // Symmetric: as much quote in to +2% as out to −2%, within a few percent.
        assert!(close(depth.up, depth.down, 0.1), "{depth:?}");
    }

    #[test]
    fn the_spot_price_is_what_a_small_swap_pays_and_depth_ends_at_two_percent() {
        // An unbalanced pool: 3 of x to 1 of y.
        let (x, y) = (3_000.0, 1_000.0);
        let spot = stable_price(x, y);
        let dx = 1e-3;
        assert!(
            close(out(x, y, dx) / dx, spot, 1e-5),
            "{} vs {spot}",
            out(x, y, dx) / dx
        );
        // At the depth's far end the price is 2% up (quote added, base taken out).
        let (_, depth) = stable((x, 1.0), (y, 1.0));
        let y_up = y + depth.up;
        assert!(close(
            stable_price(x_at(x, y, y_up), y_up),
            spot * 1.02,
            1e-9
        ));
        let y_down = y - depth.down;
        assert!(close(
            stable_price(x_at(x, y, y_down), y_down),
            spot * 0.98,
            1e-9
        ));
        // Staying on the curve.
        assert!(close(k(x_at(x, y, y_up), y_up), k(x, y), 1e-12));
    }
}
