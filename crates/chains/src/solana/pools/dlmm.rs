//! Meteora DLMM (`lb_clmm`): liquidity in price bins, bin k pricing token Y
//! per token X at (1 + bin_step/10⁴)^k. Layouts `LbPair` and `BinArray`
//! from the IDL `@meteora-ag/dlmm` embeds (lb_clmm 0.12.0), whose Anchor
//! coder builds the test fixture; bytemuck structs, so the memory layout
//! is the Borsh one.

use super::super::bytes::{i32_at, i64_at, is_account, pubkey_at, u128_at, u16_at, u32_at, u64_at};
use super::super::{find_program_address, Pubkey};
use super::{Accounts, At, Family, Fee, Model, PoolState};
use crate::depth::Depth;

/// The program on mainnet.
pub const PROGRAM: &str = "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo";
/// An `LbPair`'s size.
pub const SIZE: usize = 904;
/// Offsets of `token_x_mint` and `token_y_mint`.
pub const MINT_OFFSETS: [usize; 2] = [88, 120];
/// Bins in a bin array.
const BINS_PER_ARRAY: i64 = 70;
/// Size of one bin.
const BIN_SIZE: usize = 144;

/// A pair's bins near its price.
#[derive(Clone, Debug, PartialEq)]
pub struct Bins {
    /// The active bin.
    pub active_id: i32,
    /// Price step between bins, basis points.
    pub bin_step: u16,
    /// Owed out of each reserve (uncollected protocol fees).
    pub owed: [u64; 2],
    /// Whether points in time (activation, locks) are unix times, not slots.
    pub by_time: bool,
}

/// One bin's amounts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bin {
    /// Its id.
    pub id: i32,
    /// Token X in it, base units.
    pub x: u64,
    /// Token Y in it, base units.
    pub y: u64,
    /// Liquidity shares issued in it.
    pub supply: u128,
}

impl Bins {
    fn step(&self) -> f64 {
        1.0 + f64::from(self.bin_step) / 10_000.0
    }

    /// Token Y per token X (base units) in bin `id`.
    pub fn price_at(&self, id: i32) -> f64 {
        self.step().powi(id)
    }

    /// Bins each side of the active one that ±2% can reach.
    fn reach(&self) -> i32 {
        if self.bin_step == 0 {
            return 0;
        }
        (1.02f64.ln() / self.step().ln()).ceil() as i32 + 1
    }

    fn indexes(&self) -> std::ops::RangeInclusive<i64> {
        let (low, high) = (
            i64::from(self.active_id) - i64::from(self.reach()),
            i64::from(self.active_id) + i64::from(self.reach()),
        );
        low.div_euclid(BINS_PER_ARRAY)..=high.div_euclid(BINS_PER_ARRAY)
    }

    /// The bin arrays to read.
    pub fn arrays(&self, program: &Pubkey, pair: &Pubkey) -> Vec<Pubkey> {
        self.indexes()
            .filter_map(|i| bin_array_address(pair, i, program))
            .collect()
    }

    /// The bins read near the price.
    pub fn read(&self, program: &Pubkey, pair: &Pubkey, accounts: &Accounts) -> Vec<Bin> {
        self.indexes()
            .filter_map(|i| accounts.get(&bin_array_address(pair, i, program)?))
            .filter_map(|a| decode_bins(&a.data, pair))
            .flatten()
            .collect()
    }

    /// Depth in raw quote units: buying the token through the bins that
    /// hold it, up to +2%, and selling it into the bins that hold the quote,
    /// down to −2%.
    pub fn depth(&self, bins: &[Bin], token_is_x: bool) -> Depth {
        let p = self.price_at(self.active_id);
        let tolerance = 1e-12;
        let mut depth = Depth::default();
        for bin in bins {
            let price = self.price_at(bin.id);
            if token_is_x {
                if bin.id >= self.active_id && price <= p * 1.02 * (1.0 + tolerance) {
                    depth.up += bin.x as f64 * price;
                }
                if bin.id <= self.active_id && price >= p * 0.98 * (1.0 - tolerance) {
                    depth.down += bin.y as f64;
                }
            } else {
                // Y's price in X is 1/p: it rises as the bins' price falls.
                if bin.id <= self.active_id && price >= p / 1.02 * (1.0 - tolerance) {
                    depth.up += bin.y as f64 / price;
                }
                if bin.id >= self.active_id && price <= p / 0.98 * (1.0 + tolerance) {
                    depth.down += bin.x as f64;
                }
            }
        }
        depth
    }
}

/// Decode an `LbPair`.
pub fn decode(at: At, data: &[u8]) -> Option<PoolState> {
    if data.len() != SIZE || !is_account(data, "LbPair") {
        return None;
    }
    let bin_step = u16_at(data, 80)?;
    // Activation by timestamp (type 1) dates the pair's opening.
    let opened_at = (data[86] == 1)
        .then(|| i64_at(data, 816))
        .flatten()
        .filter(|t| *t > 0);
    Some(PoolState {
        family: Family::MeteoraDlmm,
        program: at.program,
        address: at.address,
        mints: [pubkey_at(data, 88)?, pubkey_at(data, 120)?],
        vaults: [Some(pubkey_at(data, 152)?), Some(pubkey_at(data, 184)?)],
        decimals: [None, None],
        model: Model::Bins(Bins {
            active_id: i32_at(data, 76)?,
            bin_step,
            owed: [u64_at(data, 216)?, u64_at(data, 224)?],
            by_time: data[86] == 1,
        }),
        lp: None,
        creator: super::super::bytes::optional_key(data, 848),
        fee: Fee::Bps(fee_bps(data, bin_step)?),
        opened_at,
    })
}

/// Base fee plus variable fee (from the volatility now), capped at 10%:
/// units of 10⁻⁹, as the SDK's `getTotalFee` computes them.
fn fee_bps(data: &[u8], bin_step: u16) -> Option<f64> {
    let base_factor = u128::from(u16_at(data, 8)?);
    let power = u32::from(data[34]);
    // Saturating: a hostile account's factors must not overflow (the cap holds).
    let base = (base_factor * u128::from(bin_step) * 10)
        .saturating_mul(10u128.checked_pow(power).unwrap_or(u128::MAX));
    let control = u128::from(u32_at(data, 16)?);
    let volatility = u128::from(u32_at(data, 40)?) * u128::from(bin_step);
    let variable = volatility
        .saturating_mul(volatility)
        .saturating_mul(control)
        .div_ceil(100_000_000_000);
    let total = base.saturating_add(variable).min(100_000_000);
    Some(total as f64 / 100_000.0)
}

/// Bin array `index` of `pair` (little-endian i64 in the seed).
pub fn bin_array_address(pair: &Pubkey, index: i64, program: &Pubkey) -> Option<Pubkey> {
    find_program_address(&[b"bin_array", pair, &index.to_le_bytes()], program)
}

/// The bins of a `BinArray` of `pair` that hold anything.
pub fn decode_bins(data: &[u8], pair: &Pubkey) -> Option<Vec<Bin>> {
    if !is_account(data, "BinArray") || pubkey_at(data, 24)? != *pair {
        return None;
    }
    let index = i64_at(data, 8)?;
    let mut bins = Vec::new();
    for i in 0..BINS_PER_ARRAY {
        let at = 56 + i as usize * BIN_SIZE;
        let (x, y) = (u64_at(data, at)?, u64_at(data, at + 8)?);
        if x > 0 || y > 0 {
            let id = i32::try_from(index.checked_mul(BINS_PER_ARRAY)? + i).ok()?;
            bins.push(Bin {
                id,
                x,
                y,
                supply: u128_at(data, at + 32)?,
            });
        }
    }
    Some(bins)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_sums_the_bins_within_two_percent() {
        // Step 1%: bin 2 is at +2.01%, bin −2 at −1.97%, bin −3 beyond.
        let pair = Bins {
            active_id: 0,
            bin_step: 100,
            owed: [0, 0],
            by_time: false,
        };
        let bins: Vec<Bin> = (-3..=3)
            .map(|id| Bin {
                id,
                x: if id >= 0 { 100 } else { 0 },
                y: if id <= 0 { 100 } else { 0 },
                supply: 1,
            })
            .collect();
        let d = pair.depth(&bins, true);
        // Buying X: bins 0 and 1, paid in Y at each bin's price.
        assert!((d.up - 100.0 * (1.0 + 1.01)).abs() < 1e-9, "{d:?}");
        // Selling X: the Y of bins 0, −1 and −2.
        assert!((d.down - 300.0).abs() < 1e-9, "{d:?}");
        // Seen from Y (priced 1/p in X): buying Y through bins 0 and −1
        // (bin −2's 1/p is 2.01% up), paying 1.01 X a Y in bin −1; selling
        // Y into bins 0, 1 and 2 (1.0201 ≤ 1/0.98).
        let d = pair.depth(&bins, false);
        assert!((d.up - (100.0 + 101.0)).abs() < 1e-9, "{d:?}");
        assert!((d.down - 300.0).abs() < 1e-9, "{d:?}");
    }

    #[test]
    fn fees_follow_the_sdk() {
        let mut data = vec![0u8; SIZE];
        data[8..10].copy_from_slice(&10_000u16.to_le_bytes());
        // base = 10,000 · 25 · 10 = 2,500,000 (10⁻⁹) = 0.25%.
        assert_eq!(fee_bps(&data, 25), Some(25.0));
    }
}
