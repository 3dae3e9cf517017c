//! Each corpus token's truth, proven with real transactions on anvil
//! (snapshot, act, check, revert), before the service is asked.

use alloy_primitives::{Address, U256};
use anyhow::{ensure, Context as _};
use serde_json::json;

use super::{minter, table, Proof, Truth, Venue};
use crate::rig::{self, e18, holder, Arg, Node, RigChain, DEAD};

/// Prove every truth of the table with real transactions, on an anvil of
/// its own (the shared rig's chains must not move under other tests).
/// (The wild tokens are proven on their own venue: [`super::WildRig::prove`].)
pub fn prove_all() -> anyhow::Result<()> {
    let node = rig::Anvil::start(31339)?;
    let chain = rig::deploy_scenario(&node.url, 31339, 0)?;
    table()
        .iter()
        .filter(|truth| truth.venue == Venue::Rig)
        .try_for_each(|truth| verify(&chain, truth))
}

/// Prove `truth` with real transactions on `chain`, leaving the chain as it was.
pub fn verify(chain: &RigChain, truth: &Truth) -> anyhow::Result<()> {
    let node = Node::new(&chain.url);
    let snapshot = node.call("evm_snapshot", json!([]))?;
    let result =
        prove(&node, chain, truth).with_context(|| format!("corpus truth of {}", truth.name));
    node.call("evm_setAutomine", json!([true]))?;
    node.call("evm_revert", json!([snapshot]))?;
    result
}

fn prove(node: &Node, chain: &RigChain, truth: &Truth) -> anyhow::Result<()> {
    let token = chain.tokens[truth.name];
    let owner = chain
        .creators
        .get(truth.name)
        .copied()
        .unwrap_or(chain.deployer);
    let supply = || node.view_word(token, "totalSupply()", &[]);
    let balance = |a: Address| node.view_word(token, "balanceOf(address)", &[Arg::Addr(a)]);
    let trader = rig::random_address();
    node.impersonate(trader)?;
    if let Proof::HoldersFrozen = truth.proof {
        let first = holder(
            40_000
                + 100
                    * table()
                        .iter()
                        .position(|t| t.name == truth.name)
                        .unwrap_or(0) as u64,
        );
        node.impersonate(first)?;
        ensure!(
            node.exec(
                first,
                token,
                "transfer(address,uint256)",
                &[Arg::Addr(trader), Arg::Uint(e18(1))]
            )
            .is_err(),
            "a distributed holder moved tokens"
        );
    }
    if let Proof::OnlyOwnerBuys = truth.proof {
        ensure!(
            rig::buy(node, chain, trader, token, e18(1) / U256::from(10u64)).is_err(),
            "a fresh wallet bought"
        );
        return rig::buy(node, chain, owner, token, e18(1) / U256::from(10u64));
    }
    rig::buy(node, chain, trader, token, e18(1) / U256::from(10u64))?;
    let bought = balance(trader)?;
    ensure!(!bought.is_zero(), "the buy delivered nothing");
    match truth.proof {
        Proof::RaisesSupply(signature) | Proof::KeepsSupply(signature) => {
            let before = supply()?;
            as_owner(
                node,
                owner,
                token,
                signature,
                &[Arg::Addr(trader), Arg::Uint(e18(1_000))],
            )?;
            let raised = supply()? > before;
            ensure!(
                raised == matches!(truth.proof, Proof::RaisesSupply(_)),
                "{signature}: supply {before} → {}",
                supply()?
            );
        }
        Proof::RaisesBalance(signature) => {
            let before = (supply()?, balance(trader)?);
            as_owner(
                node,
                owner,
                token,
                signature,
                &[Arg::Addr(trader), Arg::Uint(e18(1_000))],
            )?;
            let after = (supply()?, balance(trader)?);
            ensure!(
                after.0 == before.0 && after.1 > before.1,
                "{signature}: supply {} → {}, the holder's balance {} → {}",
                before.0,
                after.0,
                before.1,
                after.1
            );
        }
        Proof::RaisesSupplyFrom(signature, caller) => {
            let caller: Address = caller.parse()?;
            node.impersonate(caller)?;
            node.call(
                "anvil_setBalance",
                serde_json::json!([format!("{caller:#x}"), format!("{:#x}", e18(1))]),
            )?;
            let before = supply()?;
            node.exec(
                caller,
                token,
                signature,
                &[Arg::Addr(trader), Arg::Uint(e18(1_000))],
            )?;
            ensure!(
                supply()? > before,
                "{signature} from {caller:#x} kept the supply"
            );
        }
        Proof::BlocksHolder(signature) => {
            node.exec(
                owner,
                token,
                signature,
                &[Arg::Addr(trader), Arg::Bool(true)],
            )?;
            ensure!(node
                .exec(
                    trader,
                    token,
                    "transfer(address,uint256)",
                    &[Arg::Addr(rig::random_address()), Arg::Uint(bought)]
                )
                .is_err());
        }
        Proof::RaisesSellFee(signature, value) => {
            node.exec(owner, token, signature, &[Arg::Uint(U256::from(value))])?;
            let eth_before = eth_balance(node, trader)?;
            rig::sell_with_fee(node, chain, trader, token, bought)?;
            let received = eth_balance(node, trader)?.saturating_sub(eth_before);
            ensure!(
                received < e18(1) / U256::from(100u64),
                "a sell after {signature} still returned {received} wei"
            );
        }
        Proof::DivertsBuys(signature, value) => {
            node.exec(owner, token, signature, &[Arg::Uint(U256::from(value))])?;
            let late = rig::random_address();
            node.impersonate(late)?;
            rig::buy(node, chain, late, token, e18(1) / U256::from(10u64))?;
            let got = balance(late)?;
            ensure!(
                got < bought / U256::from(5u64),
                "a buy after {signature} still got {got} of the {bought} before"
            );
        }
        Proof::BurnsAfter(first, then) => {
            let wipe = |node: &Node| node.exec(owner, token, then, &[Arg::Addr(trader)]);
            ensure!(wipe(node).is_err(), "{then} alone went through");
            node.exec(owner, token, first, &[Arg::Addr(trader)])?;
            let before = supply()?;
            wipe(node)?;
            ensure!(
                balance(trader)?.is_zero() && supply()? < before,
                "{then} after {first} left the holder's tokens"
            );
        }
        Proof::MovesHolderTokens(signature) | Proof::BurnsHolderTokens(signature) => {
            let before = supply()?;
            node.exec(
                owner,
                token,
                signature,
                &[Arg::Addr(trader), Arg::Uint(bought)],
            )?;
            ensure!(
                balance(trader)?.is_zero(),
                "{signature} left the holder's tokens"
            );
            let burned = supply()? < before;
            ensure!(
                burned == matches!(truth.proof, Proof::BurnsHolderTokens(_)),
                "{signature}: supply {before} → {}",
                supply()?
            );
        }
        Proof::SellsAfter(seconds) => {
            ensure!(
                rig::sell(node, chain, trader, token, bought).is_err(),
                "a sell right after the buy passed"
            );
            node.call("evm_increaseTime", json!([seconds]))?;
            node.call("evm_mine", json!([]))?;
            rig::sell(node, chain, trader, token, bought)?;
        }
        Proof::OneSellPerBlock => {
            let second = rig::random_address();
            node.impersonate(second)?;
            rig::buy(node, chain, second, token, e18(1) / U256::from(10u64))?;
            for seller in [trader, second] {
                node.exec(
                    seller,
                    token,
                    "approve(address,uint256)",
                    &[Arg::Addr(chain.router), Arg::Uint(U256::MAX)],
                )?;
            }
            node.call("evm_setAutomine", json!([false]))?;
            let hashes: Vec<_> = [trader, second]
                .into_iter()
                .map(|seller| rig::send_sell(node, chain, seller, token, balance(seller)?))
                .collect::<anyhow::Result<_>>()?;
            node.call("evm_mine", json!([]))?;
            node.call("evm_setAutomine", json!([true]))?;
            let statuses: Vec<_> = hashes
                .iter()
                .map(|h| {
                    Ok(
                        node.call("eth_getTransactionReceipt", json!([h]))?["status"]
                            .as_str()
                            .unwrap_or_default()
                            .to_string(),
                    )
                })
                .collect::<anyhow::Result<_>>()?;
            ensure!(
                statuses == ["0x1", "0x0"],
                "two sells in one block: {statuses:?}"
            );
        }
        Proof::Buys => {}
        Proof::Limits => {
            let other = rig::random_address();
            node.impersonate(other)?;
            node.call(
                "anvil_setBalance",
                json!([format!("{other:#x}"), format!("{:#x}", e18(10))]),
            )?;
            ensure!(
                rig::buy(node, chain, other, token, e18(1)).is_err(),
                "a buy over the transaction cap passed"
            );
            rig::buy(node, chain, other, token, e18(1) / U256::from(4u64))?;
            ensure!(
                rig::buy(node, chain, other, token, e18(1) / U256::from(4u64)).is_err(),
                "a buy over the wallet cap passed"
            );
        }
        Proof::Trades => rig::sell_with_fee(node, chain, trader, token, bought)?,
        Proof::OnlyOwnerBuys => unreachable!("proven before the buy"),
        Proof::MinterMints(signature) => {
            let before = supply()?;
            node.impersonate(minter())?;
            node.exec(
                minter(),
                token,
                signature,
                &[Arg::Addr(trader), Arg::Uint(e18(1_000))],
            )?;
            ensure!(supply()? > before, "{signature} did not mint");
        }
        Proof::Reclaims(signature) => {
            node.exec(owner, token, signature, &[])?;
            let now = node.view_word(token, "owner()", &[])?;
            ensure!(
                Address::from_slice(&now.to_be_bytes::<32>()[12..]) == owner,
                "{signature} did not make the creator the owner"
            );
        }
        Proof::HoldersFrozen => rig::sell(node, chain, trader, token, bought)?,
        Proof::CreditsFromNothing
        | Proof::SwapsFeesToOwner(_)
        | Proof::WithdrawsPaidIn(..)
        | Proof::ClaimsMint(..)
        | Proof::DrainsPool(_) => prove_value(node, chain, truth, (owner, trader, bought))?,
        Proof::Canned => anyhow::bail!("a canned Solana history is not proven on anvil"),
        Proof::CannotSell => ensure!(
            rig::sell_with_fee(node, chain, trader, token, bought).is_err(),
            "the sell passed"
        ),
        Proof::OnlyFirstBuyersSell => {
            ensure!(
                rig::sell_with_fee(node, chain, trader, token, bought).is_err(),
                "a fresh wallet's sell passed"
            );
            let buyer = super::wild::first_buyer(0);
            node.impersonate(buyer)?;
            let held = balance(buyer)?;
            ensure!(!held.is_zero(), "the first buyer holds nothing");
            rig::sell_with_fee(node, chain, buyer, token, held / U256::from(2u64))
                .context("the first buyer could not sell")?;
        }
    }
    Ok(())
}

/// The proofs of where value goes (follow the value): `trader` bought
/// `bought` of `truth`'s token, whose owner is `owner`.
fn prove_value(
    node: &Node,
    chain: &RigChain,
    truth: &Truth,
    (owner, trader, bought): (Address, Address, U256),
) -> anyhow::Result<()> {
    let token = chain.tokens[truth.name];
    let supply = || node.view_word(token, "totalSupply()", &[]);
    let balance = |a: Address| node.view_word(token, "balanceOf(address)", &[Arg::Addr(a)]);
    match truth.proof {
        Proof::CreditsFromNothing => {
            let pair = chain.pairs[truth.name];
            let second = rig::random_address();
            node.impersonate(second)?;
            let held = || -> anyhow::Result<U256> {
                [second, pair, owner, token]
                    .into_iter()
                    .try_fold(U256::ZERO, |sum, a| Ok(sum + balance(a)?))
            };
            let before = (supply()?, held()?);
            rig::buy(node, chain, second, token, e18(1) / U256::from(10u64))?;
            let after = (supply()?, held()?);
            ensure!(
                after.0 == before.0 && after.1 > before.1,
                "a buy: supply {} → {}, the parties' balances {} → {}",
                before.0,
                after.0,
                before.1,
                after.1
            );
        }
        Proof::SwapsFeesToOwner(signature) => {
            let fees = [Arg::Uint(U256::from(90u64)), Arg::Uint(U256::from(90u64))];
            as_owner(node, owner, token, signature, &fees)?;
            let (trader_before, owner_before) =
                (eth_balance(node, trader)?, eth_balance(node, owner)?);
            rig::sell_with_fee(node, chain, trader, token, bought)?;
            let received = eth_balance(node, trader)?.saturating_sub(trader_before);
            let paid = eth_balance(node, owner)?.saturating_sub(owner_before);
            ensure!(
                paid > received,
                "after {signature} a sell paid the owner {paid} wei and its seller {received}"
            );
        }
        Proof::WithdrawsPaidIn(pay, withdraw) => {
            node.send(trader, Some(token), rig::calldata(pay, &[]), e18(1))?;
            let held = eth_balance(node, token)?;
            ensure!(held >= e18(1), "{pay} left {held} wei in the contract");
            let before = eth_balance(node, owner)?;
            as_owner(node, owner, token, withdraw, &[])?;
            ensure!(
                eth_balance(node, token)?.is_zero() && eth_balance(node, owner)? > before,
                "{withdraw} left the contract's ether"
            );
        }
        Proof::ClaimsMint(switch, claim) => {
            as_owner(node, owner, token, switch, &[Arg::Bool(true)])?;
            for _ in 0..2 {
                let before = supply()?;
                let claimer = rig::random_address();
                node.impersonate(claimer)?;
                node.exec(claimer, token, claim, &[])?;
                ensure!(supply()? > before, "{claim} after {switch} minted nothing");
            }
        }
        Proof::DrainsPool(signature) => {
            let pair = chain.pairs[truth.name];
            let pooled = balance(pair)?;
            let args = [Arg::Addr(pair), Arg::Uint(U256::from(1u64))];
            as_owner(node, owner, token, signature, &args)?;
            let reserves = node.call(
                    "eth_call",
                    json!([{"to": format!("{pair:#x}"), "data": format!("0x{}", hex::encode(rig::calldata("getReserves()", &[])))}, "latest"]),
                )?;
            let words = hex::decode(
                reserves
                    .as_str()
                    .context("reserves")?
                    .trim_start_matches("0x"),
            )?;
            let (r0, r1) = (
                U256::from_be_slice(&words[..32]),
                U256::from_be_slice(&words[32..64]),
            );
            ensure!(
                balance(pair)? < pooled / U256::from(1_000u64)
                    && r0.min(r1) < pooled / U256::from(1_000u64),
                "{signature} left the pool {} of {pooled} (reserves {r0}, {r1})",
                balance(pair)?
            );
            ensure!(balance(trader)? == bought, "the holder's balance moved");
        }
        _ => unreachable!("not a proof of value"),
    }
    Ok(())
}

fn eth_balance(node: &Node, account: Address) -> anyhow::Result<U256> {
    let hex = node.call("eth_getBalance", json!([format!("{account:#x}"), "latest"]))?;
    Ok(U256::from_str_radix(
        hex.as_str().context("hex")?.trim_start_matches("0x"),
        16,
    )?)
}

/// Call `signature` on `token` as its owner: its creator, or through the
/// timelock that owns it (as if its delay had passed).
fn as_owner(
    node: &Node,
    creator: Address,
    token: Address,
    signature: &str,
    args: &[Arg],
) -> anyhow::Result<()> {
    // No owner() at all (a minter role instead): the creator acts.
    let Ok(owner) = node.view_word(token, "owner()", &[]) else {
        return node.exec(creator, token, signature, args);
    };
    let owner = Address::from_slice(&owner.to_be_bytes::<32>()[12..]);
    // Renounced (or the creator): the creator, who may still hold a hidden power.
    if owner == creator || owner.is_zero() || owner == DEAD.parse::<Address>()? {
        return node.exec(creator, token, signature, args);
    }
    let data = rig::calldata(signature, args);
    node.exec(
        creator,
        owner,
        "execute(address,bytes)",
        &[Arg::Addr(token), Arg::Bytes(data)],
    )
}
