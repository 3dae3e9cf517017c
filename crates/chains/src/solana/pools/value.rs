//! What a pool is worth once its vaults, configuration and price arrays
//! are read: price, reserves, depth within ±2%, value locked, liquidity
//! (the figure the liquidity checks use), fee and LP burned, in whole
//! units of the token and its quote.

use riskintel_types::PoolKind;

use super::super::Pubkey;
use super::pump::Progress;
use super::{Accounts, Model, PoolState};
use crate::depth::Depth;

/// A pool valued from the token's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Valued {
    /// How it prices.
    pub kind: PoolKind,
    /// The other mint.
    pub quote: Pubkey,
    /// Quote per token, whole units.
    pub price: f64,
    /// Token reserve, whole tokens.
    pub reserve_token: f64,
    /// Quote reserve, whole units.
    pub reserve_quote: f64,
    /// Quote to move the price ±2%, whole units.
    pub depth: Depth,
    /// Value locked, in quote.
    pub tvl: f64,
    /// Liquidity in quote: a pair's or a curve's quote twice over (both
    /// sides); a concentrated or binned pool's pair-equivalent depth within
    /// 2%, capped at its value locked.
    pub liquidity: f64,
    /// Swap fee, basis points.
    pub fee_bps: Option<f64>,
    /// The LP mint's supply now.
    pub lp_supply: Option<u64>,
    /// Share of the LP issued that was burned.
    pub lp_burned: Option<f64>,
    /// Share burned or locked (a curve's reserves belong to its program: all locked).
    pub lp_locked: Option<f64>,
    /// A bonding curve's progress.
    pub curve: Option<Progress>,
}

impl Valued {
    /// Whether it can trade the token now.
    pub fn is_live(&self) -> bool {
        match &self.curve {
            Some(progress) => !progress.complete,
            None => self.reserve_token > 0.0 && self.reserve_quote > 0.0,
        }
    }
}

fn scale(decimals: u8) -> f64 {
    10f64.powi(i32::from(decimals))
}

impl PoolState {
    /// The pool valued from `token`'s side; None when `token` is not one of
    /// its sides or what pricing needs was not read.
    pub fn value(&self, token: &Pubkey, accounts: &Accounts) -> Option<Valued> {
        let side = self.mints.iter().position(|m| m == token)?;
        let q = 1 - side;
        let decimals = |i: usize| {
            self.decimals[i].or_else(|| accounts.mint(&self.mints[i]).map(|m| m.decimals))
        };
        let (st, sq) = (scale(decimals(side)?), scale(decimals(q)?));
        let balance = |i: usize, owed: u64| -> Option<f64> {
            Some(
                accounts
                    .token_amount(&self.vaults[i]?)?
                    .saturating_sub(owed) as f64,
            )
        };
        let mut curve = None;
        let (kind, price, reserve_token, reserve_quote, depth) = match &self.model {
            Model::Pair { owed, virtual_1 } => {
                let raw = |i: usize| -> Option<f64> {
                    let vault = i128::from(accounts.token_amount(&self.vaults[i]?)?);
                    let virtual_part = if i == 1 { *virtual_1 } else { 0 };
                    Some((vault - i128::from(owed[i]) + virtual_part).max(0) as f64)
                };
                let (rt, rq) = (raw(side)? / st, raw(q)? / sq);
                let price = if rt > 0.0 { rq / rt } else { 0.0 };
                (
                    PoolKind::ConstantProduct,
                    price,
                    rt,
                    rq,
                    Depth::constant_product(rq),
                )
            }
            Model::Curve(c) => {
                if side != 0 {
                    return None;
                }
                curve = Some(c.progress(accounts));
                let price = if c.virtual_token > 0 {
                    (c.virtual_quote as f64 / sq) / (c.virtual_token as f64 / st)
                } else {
                    0.0
                };
                let (rt, rq) = (c.real_token as f64 / st, c.real_quote as f64 / sq);
                (PoolKind::BondingCurve, price, rt, rq, c.depth(sq))
            }
            Model::Ticks(t) => {
                let pool = t.concentrated(&self.program, &self.address, accounts);
                let raw = pool.depth(side == 0);
                let depth = Depth {
                    up: raw.up / sq,
                    down: raw.down / sq,
                };
                let price = pool.price(side == 0) * st / sq;
                let (rt, rq) = (
                    balance(side, t.owed[side])? / st,
                    balance(q, t.owed[q])? / sq,
                );
                (PoolKind::Concentrated, price, rt, rq, depth)
            }
            Model::Bins(b) => {
                let bins = b.read(&self.program, &self.address, accounts);
                let raw = b.depth(&bins, side == 0);
                let depth = Depth {
                    up: raw.up / sq,
                    down: raw.down / sq,
                };
                let p = b.price_at(b.active_id);
                let price_raw = if side == 0 { p } else { 1.0 / p };
                let (rt, rq) = (
                    balance(side, b.owed[side])? / st,
                    balance(q, b.owed[q])? / sq,
                );
                (PoolKind::Bins, price_raw * st / sq, rt, rq, depth)
            }
        };
        // A pool whose numbers overflow (a hostile or broken account) is not valued.
        if !(price.is_finite() && depth.total().is_finite()) {
            return None;
        }
        let tvl = reserve_quote + reserve_token * price;
        let liquidity = match kind {
            PoolKind::Concentrated | PoolKind::Bins => {
                (2.0 * depth.pair_equivalent_quote()).min(tvl)
            }
            _ => 2.0 * reserve_quote,
        };
        let lp_supply = self
            .lp
            .as_ref()
            .and_then(|lp| accounts.mint(&lp.mint))
            .map(|m| m.supply);
        let lp_burned = match (&self.lp, lp_supply) {
            (Some(lp), Some(now)) if lp.issued > 0 => {
                Some((1.0 - now as f64 / lp.issued as f64).clamp(0.0, 1.0))
            }
            _ => None,
        };
        Some(Valued {
            kind,
            quote: self.mints[q],
            price,
            reserve_token,
            reserve_quote,
            depth,
            tvl,
            liquidity,
            fee_bps: self.fee_bps(accounts),
            lp_supply,
            lp_burned,
            lp_locked: if curve.is_some() {
                Some(1.0)
            } else {
                lp_burned
            },
            curve,
        })
    }
}
