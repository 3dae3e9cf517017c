//! How the wild venue's creators launch when the launch itself is the
//! story: insiders handed tokens before the pool opens, wallets the creator
//! funds that buy in the opening block, snipers in that block, a creator
//! who sells what it kept. Each opens the pool through the router (10 ETH;
//! 20 where the creator will sell into it, so its dump does not leave the
//! pool thin), then hands what the creator does not keep to 30 holders.

use alloy_primitives::{Address, U256};
use serde_json::json;

use super::Setup;
use crate::rig::{self, e18, Arg, Node, RigChain, DEAD};

/// The `k`th wallet of creator `creator`'s launch (insiders, bundlers, snipers).
pub fn wallet(creator: u64, k: u64) -> Address {
    let mut bytes = [0u8; 20];
    bytes[0] = 0x33;
    bytes[4..12].copy_from_slice(&creator.to_be_bytes());
    bytes[12..].copy_from_slice(&k.to_be_bytes());
    Address::from(bytes)
}

fn tenths(n: u64) -> U256 {
    e18(n) / U256::from(10u64)
}

/// Launch `token` as `setup` says; false when `setup` is not a launch pattern.
pub fn launch(
    node: &Node,
    chain: &RigChain,
    creator: u64,
    deployer: Address,
    token: Address,
    setup: Setup,
) -> anyhow::Result<bool> {
    let first_holder = 60_000 + 100 * creator;
    let mut kept = U256::ZERO;
    match setup {
        Setup::Airdrop {
            pool,
            wallets,
            each,
        } => {
            for k in 0..wallets {
                transfer(node, deployer, token, wallet(creator, k), e18(each))?;
            }
            opening(node, chain, deployer, token, (e18(pool), e18(10)), &[])?;
        }
        Setup::Bundled {
            pool,
            wallets,
            tenths: spend,
        } => {
            let buyers = buyers(node, creator, wallets, spend)?;
            for (buyer, eth) in &buyers {
                // Only the creator's ETH: no balance of its own.
                node.call("anvil_setBalance", json!([format!("{buyer:#x}"), "0x0"]))?;
                node.send(deployer, Some(*buyer), Vec::new(), *eth + e18(1))?;
            }
            opening(node, chain, deployer, token, (e18(pool), e18(10)), &buyers)?;
        }
        Setup::Snipers {
            wallets,
            tenths: spend,
        } => {
            let buyers = buyers(node, creator, wallets, spend)?;
            opening(
                node,
                chain,
                deployer,
                token,
                (e18(400_000), e18(10)),
                &buyers,
            )?;
        }
        Setup::CreatorSells { kept: k, .. } => {
            kept = e18(k);
            opening(node, chain, deployer, token, (e18(400_000), e18(20)), &[])?;
        }
        _ => return Ok(false),
    }
    let left = node.view_word(token, "balanceOf(address)", &[Arg::Addr(deployer)])?;
    let each = left.saturating_sub(kept) / U256::from(30u64);
    rig::distribute_each(node, deployer, token, first_holder, each)?;
    if let Setup::CreatorSells { percent, .. } = setup {
        let amount = kept * U256::from(percent) / U256::from(100u64);
        rig::sell(node, chain, deployer, token, amount)?;
    }
    Ok(true)
}

/// Creator `creator`'s first `wallets` launch wallets, unlocked, each to
/// spend `spend` tenths of an ETH.
fn buyers(
    node: &Node,
    creator: u64,
    wallets: u64,
    spend: u64,
) -> anyhow::Result<Vec<(Address, U256)>> {
    (0..wallets)
        .map(|k| {
            let buyer = wallet(creator, k);
            node.impersonate(buyer)?;
            Ok((buyer, tenths(spend)))
        })
        .collect()
}

fn transfer(
    node: &Node,
    from: Address,
    token: Address,
    to: Address,
    amount: U256,
) -> anyhow::Result<()> {
    node.exec(
        from,
        token,
        "transfer(address,uint256)",
        &[Arg::Addr(to), Arg::Uint(amount)],
    )
    .map(|_| ())
}

/// Open the pool with `(tokens, eth)` through the router (LP to the burn
/// address); with `buyers`, their router buys land in the same block.
pub(super) fn opening(
    node: &Node,
    chain: &RigChain,
    deployer: Address,
    token: Address,
    (tokens, eth): (U256, U256),
    buyers: &[(Address, U256)],
) -> anyhow::Result<()> {
    let add = rig::calldata(
        "addLiquidityETH(address,uint256,uint256,uint256,address,uint256)",
        &[
            Arg::Addr(token),
            Arg::Uint(tokens),
            Arg::Uint(U256::ZERO),
            Arg::Uint(U256::ZERO),
            Arg::Addr(DEAD.parse()?),
            Arg::Uint(U256::from(u64::MAX)),
        ],
    );
    if buyers.is_empty() {
        node.send(deployer, Some(chain.router), add, eth)?;
        return Ok(());
    }
    node.call("evm_setAutomine", json!([false]))?;
    let sent = (|| {
        let mut hashes = vec![pending(node, deployer, chain.router, add, eth)?];
        for (buyer, eth) in buyers {
            let buy = rig::calldata(
                "swapExactETHForTokens(uint256,address[],address,uint256)",
                &[
                    Arg::Uint(U256::ZERO),
                    Arg::Addrs(vec![chain.weth, token]),
                    Arg::Addr(*buyer),
                    Arg::Uint(U256::from(u64::MAX)),
                ],
            );
            hashes.push(pending(node, *buyer, chain.router, buy, *eth)?);
        }
        node.call("evm_mine", json!([]))?;
        Ok::<_, anyhow::Error>(hashes)
    })();
    node.call("evm_setAutomine", json!([true]))?;
    let mut blocks = Vec::new();
    for hash in sent? {
        let receipt = node.call("eth_getTransactionReceipt", json!([hash]))?;
        anyhow::ensure!(
            receipt["status"] == "0x1",
            "a transaction of the opening block failed: {receipt}"
        );
        blocks.push(receipt["blockNumber"].clone());
    }
    anyhow::ensure!(
        blocks.windows(2).all(|w| w[0] == w[1]),
        "the opening's transactions landed in several blocks: {blocks:?}"
    );
    Ok(())
}

/// Send a transaction without waiting for it to be mined; its hash.
fn pending(
    node: &Node,
    from: Address,
    to: Address,
    data: Vec<u8>,
    value: U256,
) -> anyhow::Result<serde_json::Value> {
    let tx = json!({
        "from": format!("{from:#x}"),
        "to": format!("{to:#x}"),
        "data": format!("0x{}", hex::encode(data)),
        "value": format!("{value:#x}"),
        "gas": "0xf4240",
    });
    node.call("eth_sendTransaction", json!([tx]))
}
