//! Uniswap V4 pools: every pool lives in one singleton `PoolManager`,
//! named by the hash of its key (currencies, fee, tick spacing, hook). A
//! pool is found by computing the id of a key and reading its price word
//! through `extsload` (a price of zero: no such pool), for the usual fee
//! and spacing pairs without a hook — and, for pools with a hook, from the
//! `Initialize` events the market index stored. Its state is read by the
//! pool lens from the manager's storage (see `lens/PoolLens.sol`).

use alloy_primitives::{keccak256, Address, B256, U256};
use alloy_sol_types::{sol, SolValue};

sol! {
    #![sol(all_derives)]

    /// The Uniswap V4 PoolManager: raw storage reads and its pool events.
    interface IPoolManager {
        function extsload(bytes32 slot) external view returns (bytes32 value);

        event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick);
        /// Amounts are the swapper's balance changes: negative paid into the pool.
        event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee);
        event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt);
    }
}

/// The fee of a pool whose hook sets it per swap.
pub const DYNAMIC_FEE: u32 = 0x80_0000;
/// Where the PoolManager keeps its pools' state (the `pools` mapping).
const POOLS_SLOT: u64 = 6;

/// The tick spacing Uniswap pairs with a fee tier (the pools looked up by key).
pub fn standard_spacing(fee: u32) -> Option<i32> {
    match fee {
        100 => Some(1),
        500 => Some(10),
        3_000 => Some(60),
        10_000 => Some(200),
        _ => None,
    }
}

/// A V4 pool's key. Native currency is the zero address, so it is always currency 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PoolKey {
    /// The lower currency.
    pub currency0: Address,
    /// The higher currency.
    pub currency1: Address,
    /// The LP fee in hundredths of a basis point, or [`DYNAMIC_FEE`].
    pub fee: u32,
    /// Tick spacing.
    pub spacing: i32,
    /// The hook contract (zero: none).
    pub hooks: Address,
}

impl PoolKey {
    /// The key of a pool of `a` and `b` (in either order).
    pub fn new(a: Address, b: Address, fee: u32, spacing: i32, hooks: Address) -> PoolKey {
        let (currency0, currency1) = if a < b { (a, b) } else { (b, a) };
        PoolKey {
            currency0,
            currency1,
            fee,
            spacing,
            hooks,
        }
    }

    /// The pool id: keccak256 of the ABI-encoded key.
    pub fn id(&self) -> B256 {
        let spacing = alloy_primitives::I256::try_from(self.spacing).expect("an i32 fits");
        keccak256(
            (
                self.currency0,
                self.currency1,
                U256::from(self.fee),
                spacing,
                self.hooks,
            )
                .abi_encode(),
        )
    }

    /// A key kept as text and integers (the market index's rows); None when
    /// a part does not parse or fit.
    pub fn parse(a: &str, b: &str, fee: i64, spacing: i64, hooks: &str) -> Option<PoolKey> {
        Some(PoolKey::new(
            a.parse().ok()?,
            b.parse().ok()?,
            u32::try_from(fee).ok()?,
            i32::try_from(spacing).ok()?,
            hooks.parse().ok()?,
        ))
    }

    /// The storage slot of the pool's state in the manager (its price word).
    pub fn state_slot(&self) -> B256 {
        keccak256((self.id(), U256::from(POOLS_SLOT)).abi_encode())
    }

    /// The LP fee when fixed (None: the hook sets it).
    pub fn fixed_fee(&self) -> Option<u32> {
        (self.fee & DYNAMIC_FEE == 0).then_some(self.fee)
    }
}

/// Hook permission bits, the low 14 bits of a hook's address, by name
/// (bit 13 first, as Uniswap's `Hooks` library lists them).
const FLAGS: [&str; 14] = [
    "before_initialize",
    "after_initialize",
    "before_add_liquidity",
    "after_add_liquidity",
    "before_remove_liquidity",
    "after_remove_liquidity",
    "before_swap",
    "after_swap",
    "before_donate",
    "after_donate",
    "before_swap_returns_delta",
    "after_swap_returns_delta",
    "after_add_liquidity_returns_delta",
    "after_remove_liquidity_returns_delta",
];

/// The permissions a hook address carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HookFlags(u16);

impl HookFlags {
    /// The flags of `hooks` (its address's low 14 bits).
    pub fn of(hooks: Address) -> HookFlags {
        let bytes = hooks.as_slice();
        HookFlags(u16::from_be_bytes([bytes[18], bytes[19]]) & 0x3fff)
    }

    /// Whether the hook has permission `name` (one of the names [`HookFlags::names`] gives).
    pub fn has(&self, name: &str) -> bool {
        FLAGS
            .iter()
            .position(|f| *f == name)
            .is_some_and(|i| self.0 & (1 << (13 - i)) != 0)
    }

    /// The names of the permissions set, in the library's order.
    pub fn names(&self) -> Vec<&'static str> {
        FLAGS
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << (13 - i)) != 0)
            .map(|(_, name)| *name)
            .collect()
    }

    /// The permissions through which a hook can change what a swap pays
    /// out or whether it runs at all.
    pub fn over_swaps(&self) -> Vec<&'static str> {
        [
            "before_swap_returns_delta",
            "after_swap_returns_delta",
            "before_swap",
            "after_swap",
        ]
        .into_iter()
        .filter(|name| self.has(name))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_ids_are_the_hash_of_the_encoded_key() {
        // A hookless ETH/USDC-style key: id = keccak256 of five words.
        let usdc: Address = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
            .parse()
            .unwrap();
        let key = PoolKey::new(usdc, Address::ZERO, 500, 10, Address::ZERO);
        assert_eq!(key.currency0, Address::ZERO);
        let mut words = Vec::new();
        words.extend([0u8; 32]);
        words.extend([0u8; 12]);
        words.extend(usdc.as_slice());
        words.extend(U256::from(500).to_be_bytes::<32>());
        words.extend(U256::from(10).to_be_bytes::<32>());
        words.extend([0u8; 32]);
        assert_eq!(key.id(), keccak256(&words));
        // A negative spacing would be sign-extended; the slot follows the id.
        let mut slot = key.id().to_vec();
        slot.extend(U256::from(6).to_be_bytes::<32>());
        assert_eq!(key.state_slot(), keccak256(&slot));
    }

    #[test]
    fn hook_flags_are_the_low_bits_of_the_address() {
        // afterSwap (bit 6) and afterSwapReturnsDelta (bit 2).
        let hook: Address = "0x0000000000000000000000000000000000000044"
            .parse()
            .unwrap();
        let flags = HookFlags::of(hook);
        assert_eq!(flags.names(), ["after_swap", "after_swap_returns_delta"]);
        assert_eq!(
            flags.over_swaps(),
            ["after_swap_returns_delta", "after_swap"]
        );
        // Bits above the 14 are not flags.
        let high: Address = "0xffffffffffffffffffffffffffffffffffffc000"
            .parse()
            .unwrap();
        assert!(HookFlags::of(high).names().is_empty());
    }
}
