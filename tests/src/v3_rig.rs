//! The V3 family on a rig chain: the real Uniswap V3 factory, position
//! manager and swap router (from `@uniswap/v3-core` / `-periphery`), and
//! PancakeSwap V3's real factory and pool (`@pancakeswap/v3-core`) behind
//! the rig's own pool deployer, with pools created, priced and filled the
//! way a token's launcher would.

use alloy_primitives::{keccak256, Address, U256};
use anyhow::Context as _;

use crate::rig::{artifact, Arg, Node};

/// The fee tier of the rig's Uniswap V3 pools (0.3%) and its tick spacing.
pub const UNISWAP_FEE: u32 = 3_000;
const UNISWAP_SPACING: i64 = 60;
/// The fee tier of the rig's PancakeSwap V3 pools (0.25%) and its tick spacing.
pub const PANCAKE_FEE: u32 = 2_500;
pub const PANCAKE_SPACING: i64 = 50;
const MAX_TICK: i64 = 887_272;

/// The V3 contracts of one rig chain.
#[derive(Clone, Debug)]
pub struct V3Rig {
    /// Uniswap V3 factory.
    pub factory: Address,
    /// Uniswap V3 NonfungiblePositionManager.
    pub position_manager: Address,
    /// Uniswap V3 SwapRouter.
    pub router: Address,
    /// PancakeSwap V3 factory.
    pub pancake_factory: Address,
    /// The rig's helper that adds liquidity straight to a pool.
    pub liquidity: Address,
}

/// Deploy the V3 family from `deployer` on a chain whose wrapped native is `weth`.
pub fn deploy(node: &Node, deployer: Address, weth: Address) -> anyhow::Result<V3Rig> {
    let factory = node.deploy(deployer, "UniswapV3Factory", &[])?;
    let position_manager = node.deploy(
        deployer,
        "NonfungiblePositionManager",
        &[
            Arg::Addr(factory),
            Arg::Addr(weth),
            Arg::Addr(Address::ZERO),
        ],
    )?;
    let router = node.deploy(
        deployer,
        "SwapRouter",
        &[Arg::Addr(factory), Arg::Addr(weth)],
    )?;
    // PancakeSwap's pool deployer CREATE2s the pool's creation code, kept as
    // the code of an otherwise empty account.
    let pool_code = Address::from_slice(&keccak256(b"rig pancake v3 pool code")[12..]);
    node.set_code(pool_code, &artifact("PancakeV3Pool")?.bytecode)?;
    let pool_deployer = node.deploy(deployer, "RigPancakeDeployer", &[Arg::Addr(pool_code)])?;
    let pancake_factory = node.deploy(deployer, "PancakeV3Factory", &[Arg::Addr(pool_deployer)])?;
    node.exec(
        deployer,
        pool_deployer,
        "setFactoryAddress(address)",
        &[Arg::Addr(pancake_factory)],
    )?;
    let liquidity = node.deploy(deployer, "RigV3Liquidity", &[])?;
    Ok(V3Rig {
        factory,
        position_manager,
        router,
        pancake_factory,
        liquidity,
    })
}

/// A signed 24-bit value as its ABI word (two's complement).
pub fn int(value: i64) -> Arg {
    if value < 0 {
        Arg::Uint(U256::ZERO.wrapping_sub(U256::from(value.unsigned_abs())))
    } else {
        Arg::Uint(U256::from(value as u64))
    }
}

/// The full range of a tick spacing.
pub fn full_range(spacing: i64) -> (i64, i64) {
    let edge = MAX_TICK / spacing * spacing;
    (-edge, edge)
}

/// `sqrtPriceX96` of a pool holding `token_amount` of `token` against
/// `quote_amount` of `quote` (raw units).
pub fn sqrt_price_x96(
    token: Address,
    token_amount: U256,
    quote: Address,
    quote_amount: U256,
) -> U256 {
    let (t, q) = (f64::from(token_amount), f64::from(quote_amount));
    let price = if token < quote { q / t } else { t / q };
    // √price · 2^64 fits a u128 for every price the rig uses; shifted by 32 more.
    U256::from((price.sqrt() * 2f64.powi(64)) as u128) << 32
}

/// Full-range liquidity for the amounts: L = √(x·y), a little under so the amounts cover it.
pub fn full_range_liquidity(token_amount: U256, quote_amount: U256) -> u128 {
    ((f64::from(token_amount) * f64::from(quote_amount)).sqrt() * 0.99) as u128
}

/// `factory.getPool(token, quote, fee)`.
fn pool_of(
    node: &Node,
    factory: Address,
    token: Address,
    quote: Address,
    fee: u32,
) -> anyhow::Result<Address> {
    node.view_address(
        factory,
        "getPool(address,address,uint24)",
        &[
            Arg::Addr(token),
            Arg::Addr(quote),
            Arg::Uint(U256::from(fee)),
        ],
    )
}

/// Uniswap V3: a pool of `token` and `quote` in the 0.3% tier, priced at
/// the amounts' ratio, filled over the full range by `from` through the
/// position manager, whose NFT goes to `lp_to`. The pool.
#[allow(clippy::too_many_arguments)]
pub fn add_uniswap_pool(
    node: &Node,
    v3: &V3Rig,
    from: Address,
    token: Address,
    token_amount: U256,
    quote: Address,
    quote_amount: U256,
    lp_to: Address,
) -> anyhow::Result<Address> {
    let (token0, token1) = if token < quote {
        (token, quote)
    } else {
        (quote, token)
    };
    let (amount0, amount1) = if token < quote {
        (token_amount, quote_amount)
    } else {
        (quote_amount, token_amount)
    };
    node.exec(
        from,
        v3.position_manager,
        "createAndInitializePoolIfNecessary(address,address,uint24,uint160)",
        &[
            Arg::Addr(token0),
            Arg::Addr(token1),
            Arg::Uint(U256::from(UNISWAP_FEE)),
            Arg::Uint(sqrt_price_x96(token, token_amount, quote, quote_amount)),
        ],
    )?;
    for t in [token0, token1] {
        node.exec(
            from,
            t,
            "approve(address,uint256)",
            &[Arg::Addr(v3.position_manager), Arg::Uint(U256::MAX)],
        )?;
    }
    let (lower, upper) = full_range(UNISWAP_SPACING);
    node.exec(
        from,
        v3.position_manager,
        "mint((address,address,uint24,int24,int24,uint256,uint256,uint256,uint256,address,uint256))",
        &[
            Arg::Addr(token0),
            Arg::Addr(token1),
            Arg::Uint(U256::from(UNISWAP_FEE)),
            int(lower),
            int(upper),
            Arg::Uint(amount0),
            Arg::Uint(amount1),
            Arg::Uint(U256::ZERO),
            Arg::Uint(U256::ZERO),
            Arg::Addr(lp_to),
            Arg::Uint(U256::MAX),
        ],
    )?;
    pool_of(node, v3.factory, token, quote, UNISWAP_FEE)
}

/// PancakeSwap V3: a pool in the 0.25% tier, priced at the amounts'
/// ratio, filled over the full range straight through the pool (no
/// position manager ships with the artifacts); the position is `lp_to`'s.
#[allow(clippy::too_many_arguments)]
pub fn add_pancake_pool(
    node: &Node,
    v3: &V3Rig,
    from: Address,
    token: Address,
    token_amount: U256,
    quote: Address,
    quote_amount: U256,
    lp_to: Address,
) -> anyhow::Result<Address> {
    node.exec(
        from,
        v3.pancake_factory,
        "createPool(address,address,uint24)",
        &[
            Arg::Addr(token),
            Arg::Addr(quote),
            Arg::Uint(U256::from(PANCAKE_FEE)),
        ],
    )?;
    let pool = pool_of(node, v3.pancake_factory, token, quote, PANCAKE_FEE)?;
    node.exec(
        from,
        pool,
        "initialize(uint160)",
        &[Arg::Uint(sqrt_price_x96(
            token,
            token_amount,
            quote,
            quote_amount,
        ))],
    )?;
    let liquidity = full_range_liquidity(token_amount, quote_amount);
    for (t, amount) in [(token, token_amount), (quote, quote_amount)] {
        node.exec(
            from,
            t,
            "transfer(address,uint256)",
            &[Arg::Addr(v3.liquidity), Arg::Uint(amount)],
        )?;
    }
    let (lower, upper) = full_range(PANCAKE_SPACING);
    node.exec(
        from,
        v3.liquidity,
        "add(address,address,int24,int24,uint128)",
        &[
            Arg::Addr(pool),
            Arg::Addr(lp_to),
            int(lower),
            int(upper),
            Arg::Uint(U256::from(liquidity)),
        ],
    )
    .context("adding liquidity to the PancakeSwap V3 pool")?;
    Ok(pool)
}

/// `trader` swaps `amount` of `token_in` (held) for `token_out` through the
/// Uniswap V3 SwapRouter in the rig's 0.3% tier.
pub fn swap_exact_input(
    node: &Node,
    v3: &V3Rig,
    trader: Address,
    token_in: Address,
    token_out: Address,
    amount: U256,
) -> anyhow::Result<()> {
    node.exec(
        trader,
        token_in,
        "approve(address,uint256)",
        &[Arg::Addr(v3.router), Arg::Uint(amount)],
    )?;
    node.exec(
        trader,
        v3.router,
        "exactInputSingle((address,address,uint24,address,uint256,uint256,uint256,uint160))",
        &[
            Arg::Addr(token_in),
            Arg::Addr(token_out),
            Arg::Uint(U256::from(UNISWAP_FEE)),
            Arg::Addr(trader),
            Arg::Uint(U256::MAX),
            Arg::Uint(amount),
            Arg::Uint(U256::ZERO),
            Arg::Uint(U256::ZERO),
        ],
    )
}
