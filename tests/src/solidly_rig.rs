//! Aerodrome (the Solidly family) on a rig chain: the pool implementation
//! and factory compiled from a published copy of Aerodrome's sources
//! (`sphere-mezo-solidity-files`), pools created by the factory as clones
//! and filled, and swapped in, as Aerodrome's router would (tokens sent to
//! the pool, then `mint` or `swap`).

use alloy_primitives::{Address, U256};
use anyhow::Context as _;

use crate::rig::{Arg, Node};

/// The Solidly-family contracts of one rig chain.
#[derive(Clone, Debug)]
pub struct SolidlyRig {
    /// Aerodrome's PoolFactory.
    pub factory: Address,
    /// Aerodrome's Router (named in the configuration; the rig trades
    /// against pools directly).
    pub router: Address,
}

/// Deploy the pool implementation, the factory and the router (no
/// gauges: `deployer` stands in for the voter and factory registry) from `deployer`.
pub fn deploy(node: &Node, deployer: Address, weth: Address) -> anyhow::Result<SolidlyRig> {
    let implementation = node.deploy(deployer, "AerodromePool", &[])?;
    let factory = node.deploy(
        deployer,
        "AerodromePoolFactory",
        &[Arg::Addr(implementation)],
    )?;
    let router = node.deploy(
        deployer,
        "AerodromeRouter",
        &[
            Arg::Addr(Address::ZERO),
            Arg::Addr(deployer),
            Arg::Addr(factory),
            Arg::Addr(deployer),
            Arg::Addr(weth),
        ],
    )?;
    Ok(SolidlyRig { factory, router })
}

/// The pool of `a` and `b` (`stable` or volatile); zero when there is none.
pub fn pool_of(
    node: &Node,
    rig: &SolidlyRig,
    a: Address,
    b: Address,
    stable: bool,
) -> anyhow::Result<Address> {
    node.view_address(
        rig.factory,
        "getPool(address,address,bool)",
        &[Arg::Addr(a), Arg::Addr(b), Arg::Bool(stable)],
    )
}

/// Create the `stable` (or volatile) pool of `token` and `quote` and add
/// the amounts from `from`, the LP tokens going to `lp_to`; the pool. A
/// stable pool's first deposit must be equal in whole units (Aerodrome's rule).
#[allow(clippy::too_many_arguments)]
pub fn add_pool(
    node: &Node,
    rig: &SolidlyRig,
    from: Address,
    token: Address,
    token_amount: U256,
    quote: Address,
    quote_amount: U256,
    stable: bool,
    lp_to: Address,
) -> anyhow::Result<Address> {
    node.exec(
        from,
        rig.factory,
        "createPool(address,address,bool)",
        &[Arg::Addr(token), Arg::Addr(quote), Arg::Bool(stable)],
    )
    .context("creating the Aerodrome pool")?;
    let pool = pool_of(node, rig, token, quote, stable)?;
    anyhow::ensure!(!pool.is_zero(), "the factory made no pool");
    for (t, amount) in [(token, token_amount), (quote, quote_amount)] {
        node.exec(
            from,
            t,
            "transfer(address,uint256)",
            &[Arg::Addr(pool), Arg::Uint(amount)],
        )?;
    }
    node.exec(from, pool, "mint(address)", &[Arg::Addr(lp_to)])
        .context("minting the Aerodrome pool's first LP")?;
    Ok(pool)
}

/// What the pool pays for `amount` of `token_in`, by its own curve and fee.
pub fn amount_out(
    node: &Node,
    pool: Address,
    token_in: Address,
    amount: U256,
) -> anyhow::Result<U256> {
    node.view_word(
        pool,
        "getAmountOut(uint256,address)",
        &[Arg::Uint(amount), Arg::Addr(token_in)],
    )
}

/// `trader` swaps `amount` of `token_in` (held) for the pool's other
/// token: sent to the pool, then `swap` for what the pool quotes.
pub fn swap_exact_input(
    node: &Node,
    trader: Address,
    pool: Address,
    token_in: Address,
    amount: U256,
) -> anyhow::Result<()> {
    let out = amount_out(node, pool, token_in, amount)?;
    let token0 = node.view_address(pool, "token0()", &[])?;
    node.exec(
        trader,
        token_in,
        "transfer(address,uint256)",
        &[Arg::Addr(pool), Arg::Uint(amount)],
    )?;
    let (out0, out1) = if token_in == token0 {
        (U256::ZERO, out)
    } else {
        (out, U256::ZERO)
    };
    node.exec(
        trader,
        pool,
        "swap(uint256,uint256,address,bytes)",
        &[
            Arg::Uint(out0),
            Arg::Uint(out1),
            Arg::Addr(trader),
            Arg::Bytes(Vec::new()),
        ],
    )
    .context("swapping in the Aerodrome pool")
}

/// `from` takes `lp` of its LP tokens out of `pool` (sent back, then `burn`).
pub fn remove_liquidity(node: &Node, from: Address, pool: Address, lp: U256) -> anyhow::Result<()> {
    node.exec(
        from,
        pool,
        "transfer(address,uint256)",
        &[Arg::Addr(pool), Arg::Uint(lp)],
    )?;
    node.exec(from, pool, "burn(address)", &[Arg::Addr(from)])
        .context("burning Aerodrome LP")
}
