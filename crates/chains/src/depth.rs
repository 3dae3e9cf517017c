//! How much a pool can trade near its price: the quote it takes to move
//! the base token's price up 2%, and the quote it pays out moving it down
//! 2% — for a constant-product pair from its reserve, for a V3-style pool
//! by walking its active liquidity across the initialized ticks in between.
//! Amounts are raw quote units; fees are left out.

/// √1.02: the sqrt-price factor of a 2% rise.
const SQRT_UP: f64 = 1.009_950_493_836_207_8;
/// √0.98: the sqrt-price factor of a 2% fall.
const SQRT_DOWN: f64 = 0.989_949_493_661_166_5;

/// Quote it takes to move the base price +2% (`up`, paid in) and quote
/// paid out moving it −2% (`down`), in raw quote units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Depth {
    /// Quote in, to +2%.
    pub up: f64,
    /// Quote out, to −2%.
    pub down: f64,
}

impl Depth {
    /// Of a constant-product pair whose quote reserve is `quote`.
    pub fn constant_product(quote: f64) -> Depth {
        Depth {
            up: quote * (SQRT_UP - 1.0),
            down: quote * (1.0 - SQRT_DOWN),
        }
    }

    /// Both sides together.
    pub fn total(&self) -> f64 {
        self.up + self.down
    }

    /// The reserve a constant-product pair would hold in quote to be this
    /// deep (its liquidity counted as twice that, as for a pair).
    pub fn pair_equivalent_quote(&self) -> f64 {
        self.total() / (SQRT_UP - SQRT_DOWN)
    }
}

/// A V3-style pool near its price: everything in raw units.
#[derive(Clone, Debug)]
pub struct Concentrated {
    /// √(token1 per token0), as a real number (sqrtPriceX96 / 2^96).
    pub sqrt_price: f64,
    /// The current tick.
    pub tick: i32,
    /// Active liquidity.
    pub liquidity: f64,
    /// Initialized ticks near the price and their net liquidity, in order.
    pub ticks: Vec<(i32, f64)>,
}

fn sqrt_at(tick: i32) -> f64 {
    1.0001f64.powf(f64::from(tick) / 2.0)
}

impl Concentrated {
    /// Token0 and token1 moved taking the sqrt price from here to `target`.
    fn swept(&self, target: f64) -> (f64, f64) {
        let (mut l, mut s) = (self.liquidity, self.sqrt_price);
        let (mut a0, mut a1) = (0.0, 0.0);
        let mut segment = |l: f64, from: f64, to: f64| {
            let (lo, hi) = if from < to { (from, to) } else { (to, from) };
            if l > 0.0 && lo > 0.0 {
                a0 += l * (hi - lo) / (lo * hi);
                a1 += l * (hi - lo);
            }
        };
        if target > s {
            for (t, net) in self.ticks.iter().filter(|(t, _)| *t > self.tick) {
                let b = sqrt_at(*t);
                if b >= target {
                    break;
                }
                segment(l, s, b);
                s = b;
                l += net;
            }
        } else {
            for (t, net) in self.ticks.iter().rev().filter(|(t, _)| *t <= self.tick) {
                let a = sqrt_at(*t);
                if a <= target {
                    break;
                }
                segment(l, a, s);
                s = a;
                l -= net;
            }
        }
        segment(l, s, target);
        (a0, a1)
    }

    /// The depth for a base token that is token0 (quote token1) or token1 (quote token0).
    pub fn depth(&self, base_is_token0: bool) -> Depth {
        let s = self.sqrt_price;
        if base_is_token0 {
            // The base's price is token1 per token0: it rises with the pool's price.
            Depth {
                up: self.swept(s * SQRT_UP).1,
                down: self.swept(s * SQRT_DOWN).1,
            }
        } else {
            // The base's price is the inverse: it rises as the pool's falls.
            Depth {
                up: self.swept(s / SQRT_UP).0,
                down: self.swept(s / SQRT_DOWN).0,
            }
        }
    }

    /// Raw quote units per raw base unit.
    pub fn price(&self, base_is_token0: bool) -> f64 {
        let p = self.sqrt_price * self.sqrt_price;
        if base_is_token0 {
            p
        } else if p > 0.0 {
            1.0 / p
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
    }

    #[test]
    fn a_full_range_position_is_as_deep_as_the_pair_it_mirrors() {
        // Price 4 (token1 per token0), L = 1000: the reserves are x = L/√P = 500, y = L·√P = 2000.
        let pool = Concentrated {
            sqrt_price: 2.0,
            tick: (4f64.ln() / 1.0001f64.ln()).floor() as i32,
            liquidity: 1000.0,
            ticks: vec![(-887_220, 1000.0), (887_220, -1000.0)],
        };
        let as_pair = Depth::constant_product(2000.0);
        let d = pool.depth(true);
        assert!(
            close(d.up, as_pair.up) && close(d.down, as_pair.down),
            "{d:?} vs {as_pair:?}"
        );
        assert!(close(d.up, 1000.0 * 2.0 * (SQRT_UP - 1.0)));
        // Seen from token1, the quote is token0, reserve 500.
        let as_pair = Depth::constant_product(500.0);
        let d = pool.depth(false);
        assert!(
            close(d.up, as_pair.up) && close(d.down, as_pair.down),
            "{d:?} vs {as_pair:?}"
        );
        assert!(close(pool.price(true), 4.0) && close(pool.price(false), 0.25));
        assert!(close(as_pair.pair_equivalent_quote(), 500.0));
    }

    #[test]
    fn a_narrow_position_ends_where_its_range_does() {
        // Liquidity only between ticks −100 and +100 (about ±1%), price 1.
        let pool = Concentrated {
            sqrt_price: 1.0,
            tick: 0,
            liquidity: 1000.0,
            ticks: vec![(-100, 1000.0), (100, -1000.0)],
        };
        let d = pool.depth(true);
        // Up to tick 100 only: L·(√1.0001^100 − 1), nothing beyond.
        assert!(close(d.up, 1000.0 * (sqrt_at(100) - 1.0)), "{d:?}");
        assert!(close(d.down, 1000.0 * (1.0 - sqrt_at(-100))), "{d:?}");
        assert!(d.up < Depth::constant_product(1000.0).up);
        // A second position beyond the first adds its own liquidity from its tick on.
        let wider = Concentrated {
            ticks: vec![(-100, 1000.0), (50, 500.0), (100, -1000.0), (150, -500.0)],
            ..pool
        };
        let up = wider.depth(true).up;
        let expected = 1000.0 * (sqrt_at(50) - 1.0)
            + 1500.0 * (sqrt_at(100) - sqrt_at(50))
            + 500.0 * (sqrt_at(150) - sqrt_at(100));
        assert!(close(up, expected), "{up} vs {expected}");
    }
}
