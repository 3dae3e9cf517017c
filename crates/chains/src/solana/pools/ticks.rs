//! Concentrated liquidity in ticks, as Raydium CLMM and Orca Whirlpools
//! keep it: the pool's price and active liquidity, and tick arrays at
//! program-derived addresses. Only the arrays within reach of ±2% are read
//! (an array that does not exist holds no initialised tick).

use super::super::Pubkey;
use super::{clmm_ticks, whirlpool_ticks, Accounts};
use crate::depth::Concentrated;

/// Ticks read each side of the current one: ±2% is 198 ticks up, 202 down.
const REACH: i32 = 210;

/// Whose tick arrays these are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TickLayout {
    /// Raydium CLMM: 60 ticks an array.
    Raydium,
    /// Orca Whirlpools: 88 ticks an array.
    Orca,
}

/// A pool's ticks near its price.
#[derive(Clone, Debug, PartialEq)]
pub struct Ticks {
    /// Whose layout.
    pub layout: TickLayout,
    /// √price in Q64.64 (√(token 1 per token 0), base units).
    pub sqrt_price_x64: u128,
    /// Active liquidity.
    pub liquidity: u128,
    /// The current tick.
    pub tick: i32,
    /// Tick spacing.
    pub spacing: u16,
    /// Owed out of each vault (uncollected protocol fees).
    pub owed: [u64; 2],
}

impl Ticks {
    fn span(&self) -> i32 {
        let per_array = match self.layout {
            TickLayout::Raydium => 60,
            TickLayout::Orca => 88,
        };
        per_array * i32::from(self.spacing)
    }

    /// Start ticks of the arrays within reach of the price.
    fn starts(&self) -> Vec<i32> {
        let span = self.span();
        if span == 0 {
            return Vec::new();
        }
        let first = (self.tick.saturating_sub(REACH)).div_euclid(span);
        let last = (self.tick.saturating_add(REACH)).div_euclid(span);
        (first..=last).map(|i| i * span).collect()
    }

    fn address(&self, program: &Pubkey, pool: &Pubkey, start: i32) -> Option<Pubkey> {
        match self.layout {
            TickLayout::Raydium => clmm_ticks::tick_array_address(pool, start, program),
            TickLayout::Orca => whirlpool_ticks::tick_array_address(pool, start, program),
        }
    }

    /// The tick arrays to read.
    pub fn arrays(&self, program: &Pubkey, pool: &Pubkey) -> Vec<Pubkey> {
        self.starts()
            .into_iter()
            .filter_map(|start| self.address(program, pool, start))
            .collect()
    }

    /// The pool near its price, from the arrays read.
    pub fn concentrated(
        &self,
        program: &Pubkey,
        pool: &Pubkey,
        accounts: &Accounts,
    ) -> Concentrated {
        let mut ticks: Vec<(i32, f64)> = Vec::new();
        for start in self.starts() {
            let Some(account) = self
                .address(program, pool, start)
                .and_then(|a| accounts.get(&a))
            else {
                continue;
            };
            let read = match self.layout {
                TickLayout::Raydium => clmm_ticks::decode_ticks(&account.data, pool),
                TickLayout::Orca => {
                    whirlpool_ticks::decode_ticks(&account.data, pool, self.spacing)
                }
            };
            ticks.extend(read.unwrap_or_default());
        }
        ticks.sort_by_key(|t| t.0);
        Concentrated {
            sqrt_price: self.sqrt_price_x64 as f64 / 2f64.powi(64),
            tick: self.tick,
            liquidity: self.liquidity as f64,
            ticks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_cover_two_percent_each_side() {
        let t = Ticks {
            layout: TickLayout::Raydium,
            sqrt_price_x64: 1 << 64,
            liquidity: 0,
            tick: -5,
            spacing: 1,
            owed: [0, 0],
        };
        // 60-tick arrays from −215 to 205: starts −240 … 180.
        assert_eq!(t.starts(), vec![-240, -180, -120, -60, 0, 60, 120, 180]);
        let wide = Ticks {
            layout: TickLayout::Orca,
            spacing: 64,
            ..t
        };
        // One 5,632-tick array each side of zero.
        assert_eq!(wide.starts(), vec![-5632, 0]);
    }
}
