//! Solana pools of every family the analysis reads. Each family's module
//! holds its program id, where its pools are found (`getProgramAccounts`
//! filters on the offsets of the mints in its layout, or program-derived
//! addresses), and its account layouts decoded in Rust, with the source of
//! each layout named. A decoded pool ([`PoolState`]) says which accounts a
//! second round trip must read (vaults, LP mint, fee configuration, tick or
//! bin arrays around the price), and what the pool is worth once they are
//! read (`value`).

pub mod amm_v4;
pub mod clmm;
pub mod clmm_ticks;
pub mod cpmm;
pub mod dlmm;
pub mod positions;
pub mod pump;
pub mod pump_swap;
pub mod pump_trades;
mod ticks;
mod value;
pub mod whirlpool;
pub mod whirlpool_ticks;

use std::collections::HashMap;

use serde_json::{json, Value};

use super::layouts::{self, Mint};
use super::types::Account;
use super::{encode, Pubkey};
use crate::DexKind;
pub use ticks::Ticks;
pub use value::Valued;

/// A family of Solana pools: one program and one account layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Raydium's constant-product AMM.
    RaydiumCpmm,
    /// Raydium's AMM v4.
    RaydiumAmmV4,
    /// Raydium's concentrated-liquidity AMM.
    RaydiumClmm,
    /// pump.fun bonding curves.
    PumpFun,
    /// PumpSwap, where pump.fun curves graduate.
    PumpSwap,
    /// Orca Whirlpools.
    OrcaWhirlpool,
    /// Meteora DLMM.
    MeteoraDlmm,
}

impl Family {
    /// Every family, in the order they are searched.
    pub const ALL: [Family; 7] = [
        Family::PumpFun,
        Family::PumpSwap,
        Family::RaydiumAmmV4,
        Family::RaydiumCpmm,
        Family::RaydiumClmm,
        Family::OrcaWhirlpool,
        Family::MeteoraDlmm,
    ];

    /// The family a configured DEX kind names; `v2`, the default kind,
    /// names Raydium CPMM (older configurations list it so).
    pub fn of_kind(kind: DexKind) -> Option<Family> {
        Some(match kind {
            DexKind::V2 | DexKind::RaydiumCpmm => Family::RaydiumCpmm,
            DexKind::RaydiumAmmV4 => Family::RaydiumAmmV4,
            DexKind::RaydiumClmm => Family::RaydiumClmm,
            DexKind::PumpFun => Family::PumpFun,
            DexKind::PumpSwap => Family::PumpSwap,
            DexKind::OrcaWhirlpool => Family::OrcaWhirlpool,
            DexKind::MeteoraDlmm => Family::MeteoraDlmm,
            _ => return None,
        })
    }

    /// The configuration's name for the family.
    pub fn kind(self) -> DexKind {
        match self {
            Family::RaydiumCpmm => DexKind::RaydiumCpmm,
            Family::RaydiumAmmV4 => DexKind::RaydiumAmmV4,
            Family::RaydiumClmm => DexKind::RaydiumClmm,
            Family::PumpFun => DexKind::PumpFun,
            Family::PumpSwap => DexKind::PumpSwap,
            Family::OrcaWhirlpool => DexKind::OrcaWhirlpool,
            Family::MeteoraDlmm => DexKind::MeteoraDlmm,
        }
    }

    /// Its identifier in evidence (`raydium_amm_v4`, …).
    pub fn slug(self) -> &'static str {
        match self {
            Family::RaydiumCpmm => "raydium_cpmm",
            Family::RaydiumAmmV4 => "raydium_amm_v4",
            Family::RaydiumClmm => "raydium_clmm",
            Family::PumpFun => "pump_fun",
            Family::PumpSwap => "pump_swap",
            Family::OrcaWhirlpool => "orca_whirlpool",
            Family::MeteoraDlmm => "meteora_dlmm",
        }
    }

    /// Its usual name.
    pub fn name(self) -> &'static str {
        match self {
            Family::RaydiumCpmm => "Raydium CPMM",
            Family::RaydiumAmmV4 => "Raydium AMM v4",
            Family::RaydiumClmm => "Raydium CLMM",
            Family::PumpFun => "pump.fun",
            Family::PumpSwap => "PumpSwap",
            Family::OrcaWhirlpool => "Orca Whirlpools",
            Family::MeteoraDlmm => "Meteora DLMM",
        }
    }

    /// Its program on mainnet.
    pub fn program(self) -> &'static str {
        match self {
            Family::RaydiumCpmm => cpmm::PROGRAM,
            Family::RaydiumAmmV4 => amm_v4::PROGRAM,
            Family::RaydiumClmm => clmm::PROGRAM,
            Family::PumpFun => pump::PROGRAM,
            Family::PumpSwap => pump_swap::PROGRAM,
            Family::OrcaWhirlpool => whirlpool::PROGRAM,
            Family::MeteoraDlmm => dlmm::PROGRAM,
        }
    }

    /// The `getProgramAccounts` filters that find its pools holding `mint`,
    /// one list per query (either side of the pool); none for pump.fun,
    /// whose curves do not store their mint (found by address instead).
    pub fn mint_filters(self, mint: &str) -> Vec<Value> {
        let (size, offsets): (Option<usize>, [usize; 2]) = match self {
            Family::RaydiumCpmm => (Some(cpmm::SIZE), cpmm::MINT_OFFSETS),
            Family::RaydiumAmmV4 => (Some(amm_v4::SIZE), amm_v4::MINT_OFFSETS),
            Family::RaydiumClmm => (Some(clmm::SIZE), clmm::MINT_OFFSETS),
            Family::OrcaWhirlpool => (Some(whirlpool::SIZE), whirlpool::MINT_OFFSETS),
            Family::MeteoraDlmm => (Some(dlmm::SIZE), dlmm::MINT_OFFSETS),
            // Pools have grown over time: no size, the discriminator instead.
            Family::PumpSwap => (None, pump_swap::MINT_OFFSETS),
            Family::PumpFun => return Vec::new(),
        };
        offsets
            .iter()
            .map(|offset| {
                let mut filters = vec![json!({"memcmp": {"offset": offset, "bytes": mint}})];
                match size {
                    Some(size) => filters.insert(0, json!({"dataSize": size})),
                    None => filters.insert(
                        0,
                        json!({"memcmp": {"offset": 0, "bytes": bs58::encode(pump_swap::discriminator()).into_string()}}),
                    ),
                }
                Value::Array(filters)
            })
            .collect()
    }

    /// Decode a pool of this family at `address`, owned by `program`
    /// (pump.fun curves: `pump::decode`, which needs the mint).
    pub fn decode(self, program: Pubkey, address: Pubkey, data: &[u8]) -> Option<PoolState> {
        let at = At { program, address };
        match self {
            Family::RaydiumCpmm => cpmm::decode(at, data),
            Family::RaydiumAmmV4 => amm_v4::decode(at, data),
            Family::RaydiumClmm => clmm::decode(at, data),
            // A curve is read for its mint only (see `pump::decode`).
            Family::PumpFun => None,
            Family::PumpSwap => pump_swap::decode(at, data),
            Family::OrcaWhirlpool => whirlpool::decode(at, data),
            Family::MeteoraDlmm => dlmm::decode(at, data),
        }
    }
}

/// Where a pool account was read: its program and address.
#[derive(Clone, Copy, Debug)]
pub struct At {
    /// The program owning it.
    pub program: Pubkey,
    /// Its address.
    pub address: Pubkey,
}

/// A pool's LP mint and what the pool says it has issued (burns, made with
/// the token program, do not lower it: the gap to the mint's supply is what
/// was burned).
#[derive(Clone, Debug, PartialEq)]
pub struct LpMint {
    /// The LP mint.
    pub mint: Pubkey,
    /// LP the pool has issued and not redeemed.
    pub issued: u64,
}

/// Where a pool's swap fee comes from.
#[derive(Clone, Debug)]
pub enum Fee {
    /// Stored in the pool, basis points.
    Bps(f64),
    /// In a configuration account, read by `read` (basis points).
    Config {
        /// The account.
        account: Pubkey,
        /// Its reader.
        read: fn(&[u8]) -> Option<f64>,
    },
}

/// How a pool prices trades.
#[derive(Clone, Debug, PartialEq)]
pub enum Model {
    /// x·y = k on the vault balances less what the pool owes (protocol and
    /// other fees kept in the vaults), plus a virtual reserve on side 1
    /// (PumpSwap's, which may be negative).
    Pair {
        /// Owed out of each vault.
        owed: [u64; 2],
        /// Added to side 1.
        virtual_1: i128,
    },
    /// A pump.fun bonding curve.
    Curve(pump::Curve),
    /// Concentrated liquidity in ticks (Raydium CLMM, Orca Whirlpools).
    Ticks(Ticks),
    /// Liquidity in price bins (Meteora DLMM).
    Bins(dlmm::Bins),
}

/// A pool as its account describes it.
#[derive(Clone, Debug)]
pub struct PoolState {
    /// Its family.
    pub family: Family,
    /// Its program.
    pub program: Pubkey,
    /// Its address.
    pub address: Pubkey,
    /// Its two mints (side 0, side 1).
    pub mints: [Pubkey; 2],
    /// Their vaults; None where the pool keeps a side in its own accounting.
    pub vaults: [Option<Pubkey>; 2],
    /// Their decimals, where the pool records them.
    pub decimals: [Option<u8>; 2],
    /// How it prices.
    pub model: Model,
    /// Its LP mint, for families that issue one.
    pub lp: Option<LpMint>,
    /// Who created it, where the pool records it.
    pub creator: Option<Pubkey>,
    /// Its swap fee.
    pub fee: Fee,
    /// When it opened (unix seconds), where recorded.
    pub opened_at: Option<i64>,
}

impl PoolState {
    /// Whether `mint` is one of its sides.
    pub fn holds(&self, mint: &Pubkey) -> bool {
        self.mints.contains(mint)
    }

    /// The accounts a second round trip must read to value it.
    pub fn reads(&self) -> Vec<Pubkey> {
        let mut keys: Vec<Pubkey> = self.vaults.iter().flatten().copied().collect();
        keys.extend(self.lp.as_ref().map(|lp| lp.mint));
        if let Fee::Config { account, .. } = &self.fee {
            keys.push(*account);
        }
        for (mint, decimals) in self.mints.iter().zip(self.decimals) {
            if decimals.is_none() {
                keys.push(*mint);
            }
        }
        match &self.model {
            Model::Ticks(t) => keys.extend(t.arrays(&self.program, &self.address)),
            Model::Bins(b) => keys.extend(b.arrays(&self.program, &self.address)),
            Model::Curve(c) => keys.push(c.global),
            Model::Pair { .. } => {}
        }
        keys
    }

    /// Its fee in basis points, where readable.
    pub fn fee_bps(&self, accounts: &Accounts) -> Option<f64> {
        match &self.fee {
            Fee::Bps(bps) => Some(*bps),
            Fee::Config { account, read } => read(&accounts.get(account)?.data),
        }
    }
}

/// Accounts read, by address.
#[derive(Clone, Debug, Default)]
pub struct Accounts(HashMap<Pubkey, Account>);

impl Accounts {
    /// Keep `account` read at `address`.
    pub fn insert(&mut self, address: Pubkey, account: Account) {
        self.0.insert(address, account);
    }

    /// The account at `address`, when it exists.
    pub fn get(&self, address: &Pubkey) -> Option<&Account> {
        self.0.get(address)
    }

    /// The balance of the token account at `address`.
    pub fn token_amount(&self, address: &Pubkey) -> Option<u64> {
        layouts::decode_token_account(&self.get(address)?.data).map(|a| a.amount)
    }

    /// The mint at `address`.
    pub fn mint(&self, address: &Pubkey) -> Option<Mint> {
        let account = self.get(address)?;
        layouts::decode_mint(&account.data, &account.owner)
    }
}

/// The addresses of `keys` in base58, at most `chunk` to a list (a node
/// answers `getMultipleAccounts` for up to 100 keys).
pub fn chunks(keys: &[Pubkey], chunk: usize) -> Vec<Vec<String>> {
    keys.chunks(chunk.max(1))
        .map(|c| c.iter().map(encode).collect())
        .collect()
}

/// The family whose mainnet program is `program`.
pub fn family_of_program(program: &str) -> Option<Family> {
    Family::ALL.into_iter().find(|f| f.program() == program)
}

#[cfg(test)]
mod tests {
    use super::super::bytes::discriminator;
    use super::super::types::Account;
    use super::*;

    /// Pseudo-random bytes (a fixed LCG: the same every run).
    fn noise(len: usize, seed: &mut u64) -> Vec<u8> {
        (0..len)
            .map(|_| {
                *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (*seed >> 56) as u8
            })
            .collect()
    }

    #[test]
    fn hostile_accounts_never_panic() {
        let at = At {
            program: [7; 32],
            address: [8; 32],
        };
        let mut seed = 1;
        let shapes: [(Family, usize, Option<&str>); 6] = [
            (Family::RaydiumCpmm, cpmm::SIZE, Some("PoolState")),
            (Family::RaydiumAmmV4, amm_v4::SIZE, None),
            (Family::RaydiumClmm, clmm::SIZE, Some("PoolState")),
            (Family::PumpSwap, 211, Some("Pool")),
            (Family::OrcaWhirlpool, whirlpool::SIZE, Some("Whirlpool")),
            (Family::MeteoraDlmm, dlmm::SIZE, Some("LbPair")),
        ];
        for _ in 0..200 {
            for (family, size, name) in shapes {
                let mut data = noise(size, &mut seed);
                if let Some(name) = name {
                    data[..8].copy_from_slice(&discriminator(name));
                }
                let Some(pool) = family.decode(at.program, at.address, &data) else {
                    continue;
                };
                // Every account it asks for, filled with noise of its kind.
                let mut accounts = Accounts::default();
                for (i, key) in pool.reads().into_iter().enumerate() {
                    let mut bytes = noise(64 + (i * 977) % 10_300, &mut seed);
                    for name in [
                        "TickArrayState",
                        "TickArray",
                        "DynamicTickArray",
                        "BinArray",
                        "AmmConfig",
                        "Global",
                    ] {
                        if bytes[0] % 6 == name.len() as u8 % 6 {
                            bytes[..8].copy_from_slice(&discriminator(name));
                        }
                    }
                    let account = Account {
                        data: bytes,
                        owner: super::super::TOKEN_PROGRAM.into(),
                        lamports: 1,
                        executable: false,
                    };
                    accounts.insert(key, account);
                }
                for side in pool.mints {
                    let _ = pool.value(&side, &accounts);
                }
            }
            let mut curve = noise(49 + (seed % 100) as usize, &mut seed);
            curve[..8].copy_from_slice(&discriminator("BondingCurve"));
            if let Some(pool) = pump::decode(&[1; 32], at, &curve) {
                let _ = pool.value(&[1; 32], &Accounts::default());
            }
        }
    }
}
