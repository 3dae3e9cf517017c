//! Uniswap V4 on a rig chain: the real PoolManager and its test routers
//! (`PoolModifyLiquidityTest`, `PoolSwapTest`) from `@uniswap/v4-core`,
//! pools initialized and filled as a launcher would, and the rig's hook
//! that takes half of every sell, placed at an address carrying its
//! permission bits (as v4's own tests place hooks).

use alloy_primitives::{keccak256, Address, U256};
use anyhow::Context as _;
use riskintel_server::chains::evm::pools::v4::PoolKey;

use crate::rig::{Arg, Node};
use crate::v3_rig::{full_range, full_range_liquidity, int, sqrt_price_x96};

/// The V4 contracts of one rig chain.
#[derive(Clone, Debug)]
pub struct V4Rig {
    /// The PoolManager.
    pub manager: Address,
    /// v4-core's liquidity router.
    pub liquidity: Address,
    /// v4-core's swap router.
    pub swaps: Address,
}

/// A V4 pool's key (the server's own type: its id is what the server computes).
pub type Key = PoolKey;

/// A key's fields as call arguments.
fn key_args(key: &Key) -> Vec<Arg> {
    vec![
        Arg::Addr(key.currency0),
        Arg::Addr(key.currency1),
        Arg::Uint(U256::from(key.fee)),
        int(i64::from(key.spacing)),
        Arg::Addr(key.hooks),
    ]
}

const KEY: &str = "(address,address,uint24,int24,address)";

/// Deploy the PoolManager and v4-core's routers from `deployer`.
pub fn deploy(node: &Node, deployer: Address) -> anyhow::Result<V4Rig> {
    let manager = node.deploy(deployer, "PoolManager", &[Arg::Addr(deployer)])?;
    let liquidity = node.deploy(deployer, "PoolModifyLiquidityTest", &[Arg::Addr(manager)])?;
    let swaps = node.deploy(deployer, "PoolSwapTest", &[Arg::Addr(manager)])?;
    Ok(V4Rig {
        manager,
        liquidity,
        swaps,
    })
}

/// The rig's sell-tax hook for `token`, placed at an address whose low
/// bits are afterSwap and afterSwapReturnsDelta (0x0044).
pub fn sell_tax_hook(
    node: &Node,
    v4: &V4Rig,
    deployer: Address,
    token: Address,
) -> anyhow::Result<Address> {
    let built = node.deploy(
        deployer,
        "RigSellTaxHook",
        &[Arg::Addr(v4.manager), Arg::Addr(token)],
    )?;
    let code = node.call(
        "eth_getCode",
        serde_json::json!([format!("{built:#x}"), "latest"]),
    )?;
    let code = hex::decode(code.as_str().context("code")?.trim_start_matches("0x"))?;
    let mut bytes = [0u8; 20];
    bytes.copy_from_slice(&keccak256(token.as_slice())[12..]);
    bytes[18] = 0;
    bytes[19] = 0x44;
    let hook = Address::from(bytes);
    node.set_code(hook, &code)?;
    Ok(hook)
}

/// A pool of `token` and `quote` (zero: native currency) with `hooks`,
/// priced at the amounts' ratio and filled over the full range by `from`
/// through v4-core's liquidity router. Its key.
#[allow(clippy::too_many_arguments)]
pub fn add_pool(
    node: &Node,
    v4: &V4Rig,
    from: Address,
    token: Address,
    token_amount: U256,
    quote: Address,
    quote_amount: U256,
    (fee, spacing): (u32, i32),
    hooks: Address,
) -> anyhow::Result<Key> {
    let key = PoolKey::new(token, quote, fee, spacing, hooks);
    let mut args = key_args(&key);
    args.push(Arg::Uint(sqrt_price_x96(
        token,
        token_amount,
        quote,
        quote_amount,
    )));
    node.exec(
        from,
        v4.manager,
        &format!("initialize({KEY},uint160)"),
        &args,
    )
    .context("initializing the V4 pool")?;
    for t in [token, quote].into_iter().filter(|t| !t.is_zero()) {
        node.exec(
            from,
            t,
            "approve(address,uint256)",
            &[Arg::Addr(v4.liquidity), Arg::Uint(U256::MAX)],
        )?;
    }
    let liquidity = full_range_liquidity(token_amount, quote_amount);
    let native = if quote.is_zero() {
        quote_amount
    } else {
        U256::ZERO
    };
    modify_liquidity(node, v4, from, &key, U256::from(liquidity), native)
        .context("adding liquidity to the V4 pool")?;
    Ok(key)
}

/// Take `liquidity` out of the full-range position v4-core's liquidity
/// router holds in the pool of `key` (anyone may, through that router).
pub fn remove_liquidity(
    node: &Node,
    v4: &V4Rig,
    from: Address,
    key: &Key,
    liquidity: u128,
) -> anyhow::Result<()> {
    let delta = U256::ZERO.wrapping_sub(U256::from(liquidity));
    modify_liquidity(node, v4, from, key, delta, U256::ZERO).context("removing V4 liquidity")
}

/// v4-core's liquidity router changes the full-range position of `key` by
/// `delta` (an int256 word), paying `value` of native currency.
fn modify_liquidity(
    node: &Node,
    v4: &V4Rig,
    from: Address,
    key: &Key,
    delta: U256,
    value: U256,
) -> anyhow::Result<()> {
    let (lower, upper) = full_range(i64::from(key.spacing));
    let mut args = key_args(key);
    args.extend([
        int(lower),
        int(upper),
        Arg::Uint(delta),
        Arg::Uint(U256::ZERO),
        Arg::Bytes(Vec::new()),
    ]);
    let data = crate::rig::calldata(
        &format!("modifyLiquidity({KEY},(int24,int24,int256,bytes32),bytes)"),
        &args,
    );
    node.send(from, Some(v4.liquidity), data, value).map(|_| ())
}

/// `trader` swaps `amount` of `token_in` (held; zero: native currency)
/// for the key's other currency through v4-core's swap router, exact input.
pub fn swap_exact_input(
    node: &Node,
    v4: &V4Rig,
    trader: Address,
    key: &Key,
    token_in: Address,
    amount: U256,
) -> anyhow::Result<()> {
    if !token_in.is_zero() {
        node.exec(
            trader,
            token_in,
            "approve(address,uint256)",
            &[Arg::Addr(v4.swaps), Arg::Uint(amount)],
        )?;
    }
    let zero_for_one = token_in == key.currency0;
    let limit = if zero_for_one {
        U256::from(4_295_128_740u64)
    } else {
        "1461446703485210103287273052203988822378723970341".parse()?
    };
    let mut args = key_args(key);
    args.extend([
        Arg::Bool(zero_for_one),
        Arg::Uint(U256::ZERO.wrapping_sub(amount)),
        Arg::Uint(limit),
        Arg::Bool(false),
        Arg::Bool(false),
        Arg::Bytes(Vec::new()),
    ]);
    let data = crate::rig::calldata(
        &format!("swap({KEY},(bool,int256,uint160),(bool,bool),bytes)"),
        &args,
    );
    let value = if token_in.is_zero() {
        amount
    } else {
        U256::ZERO
    };
    node.send(trader, Some(v4.swaps), data, value)
        .map(|_| ())
        .context("swapping through the V4 pool")
}
