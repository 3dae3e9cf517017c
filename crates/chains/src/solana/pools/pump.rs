//! pump.fun bonding curves. A curve does not store its mint: it is found
//! at its program-derived address. Layouts `BondingCurve` and `Global`
//! from `@pump-fun/pump-sdk`'s IDL (`src/idl/pump.json`), which builds the
//! test fixture; addresses from its `src/pda.ts`. Accounts written before
//! fields were added are shorter: missing fields read as zero, as the SDK
//! reads them.

use super::super::bytes::{is_account, optional_key, u64_at};
use super::super::{find_program_address, key, Pubkey, WSOL_MINT};
use super::{pump_swap, Accounts, At, Family, Fee, Model, PoolState};
use crate::depth::Depth;

/// The program on mainnet.
pub const PROGRAM: &str = "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P";
/// The size every field of a `BondingCurve` takes.
const CURVE_SIZE: usize = 125;

/// A bonding curve: x·y = k on its virtual reserves; what it really holds
/// are its real reserves.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// Virtual token reserve, base units.
    pub virtual_token: u64,
    /// Virtual quote reserve (lamports for SOL).
    pub virtual_quote: u64,
    /// Tokens still for sale on the curve.
    pub real_token: u64,
    /// Quote the curve holds.
    pub real_quote: u64,
    /// Whether the curve is complete (sold out, waiting to migrate or migrated).
    pub complete: bool,
    /// The program's `Global` account (starting reserves, fees).
    pub global: Pubkey,
}

/// How far a curve has come.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Share of the curve's tokens sold, 0..1 (None without `Global`).
    pub sold: Option<f64>,
    /// Whether it is complete.
    pub complete: bool,
}

impl Curve {
    /// Its progress: 1 − tokens for sale / tokens for sale at the start.
    pub fn progress(&self, accounts: &Accounts) -> Progress {
        let start = accounts
            .get(&self.global)
            .filter(|a| is_account(&a.data, "Global"))
            .and_then(|a| u64_at(&a.data, 89))
            .filter(|s| *s > 0);
        Progress {
            sold: start.map(|s| (1.0 - self.real_token as f64 / s as f64).clamp(0.0, 1.0)),
            complete: self.complete,
        }
    }

    /// Depth in whole quote: buying moves the virtual reserves; selling
    /// can take out no more than the curve really holds.
    pub fn depth(&self, quote_scale: f64) -> Depth {
        let d = Depth::constant_product(self.virtual_quote as f64 / quote_scale);
        Depth {
            up: d.up,
            down: d.down.min(self.real_quote as f64 / quote_scale),
        }
    }
}

/// The bonding curve of `mint`.
pub fn curve_address(mint: &Pubkey, program: &Pubkey) -> Option<Pubkey> {
    find_program_address(&[b"bonding-curve", mint], program)
}

/// The canonical PumpSwap pool a curve of `mint` (quoted in SOL) graduates
/// to: index 0, created by the curve's pool authority, against wrapped SOL.
pub fn canonical_pool(mint: &Pubkey, program: &Pubkey, swap: &Pubkey) -> Option<Pubkey> {
    let authority = find_program_address(&[b"pool-authority", mint], program)?;
    pump_swap::pool_address(0, &authority, mint, &key(WSOL_MINT), swap)
}

/// Decode the `BondingCurve` of `mint`.
pub fn decode(mint: &Pubkey, at: At, data: &[u8]) -> Option<PoolState> {
    if data.len() < 49 || !is_account(data, "BondingCurve") {
        return None;
    }
    let mut full = data.to_vec();
    full.resize(full.len().max(CURVE_SIZE), 0);
    let quote = optional_key(&full, 83).unwrap_or_else(|| key(WSOL_MINT));
    let curve = Curve {
        virtual_token: u64_at(&full, 8)?,
        virtual_quote: u64_at(&full, 16)?,
        real_token: u64_at(&full, 24)?,
        real_quote: u64_at(&full, 32)?,
        complete: full[48] == 1,
        global: global_of(&at.program),
    };
    Some(PoolState {
        family: Family::PumpFun,
        program: at.program,
        address: at.address,
        mints: [*mint, quote],
        vaults: [None, None],
        decimals: [None, (quote == key(WSOL_MINT)).then_some(9)],
        model: Model::Curve(curve),
        lp: None,
        creator: optional_key(&full, 49),
        fee: Fee::Config {
            account: global_of(&at.program),
            read: global_fee,
        },
        opened_at: None,
    })
}

/// The program's `Global` account.
pub fn global_of(program: &Pubkey) -> Pubkey {
    find_program_address(&[b"global"], program).expect("a global address")
}

/// The curve's fee from `Global`: `fee_basis_points` (at 105) plus
/// `creator_fee_basis_points` (at 154). pump-fees' market-cap tiers, where
/// mainnet now takes its rate from, are not read.
fn global_fee(data: &[u8]) -> Option<f64> {
    if !is_account(data, "Global") {
        return None;
    }
    Some((u64_at(data, 105)? + u64_at(data, 154).unwrap_or(0)) as f64)
}

#[cfg(test)]
mod tests {
    use super::super::super::encode;
    use super::*;

    #[test]
    fn addresses_are_those_the_sdk_derives() {
        // pump-public-docs: the canonical pool and the global account.
        let mint = key("7LSsEoJGhLeZzGvDofTdNg7M3JttxQqGWNLo6vWMpump");
        let pool = canonical_pool(&mint, &key(PROGRAM), &key(pump_swap::PROGRAM)).unwrap();
        assert_eq!(
            encode(&pool),
            "GseMAnNDvntR5uFePZ51yZBXzNSn7GdFPkfHwfr6d77J"
        );
        assert_eq!(
            encode(&global_of(&key(PROGRAM))),
            "4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf"
        );
    }
}
