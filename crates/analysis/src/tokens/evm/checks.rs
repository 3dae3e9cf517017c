//! From an EVM token's facts to its checks: contract and ownership here,
//! `liquidity` and `distribution` beside, trading in `simulation::checks`.
//! Every check is tri-state (detected, clear, or unknown with a reason) and
//! every signal carries its evidence.

use alloy_primitives::Address;
use riskintel_types::{CheckId, Pool, Severity, SignalCategory, TokenMeta, TradeSimulation};
use serde_json::json;

use super::facts::{EvmFacts, OwnerFact};
use super::history::{self, CreatorHistory};
use super::{distribution, hooks, liquidity};
use super::{impersonation, powers};
use crate::config::AllowlistEntry;
use crate::scoring::{band, Builder, Verdict};
use crate::simulation;
use riskintel_chains::evm::abi::units;
use riskintel_chains::evm::addr;

/// The verdict and metadata of one token.
pub struct Assessment {
    /// Score, label, coverage and signals.
    pub verdict: Verdict,
    /// Metadata.
    pub meta: TokenMeta,
}

/// Assess an EVM token: every check recorded, the verdict and the metadata.
pub fn assess(
    token: Address,
    facts: &EvmFacts,
    history: &CreatorHistory,
    allow: Option<&AllowlistEntry>,
) -> Assessment {
    let mut b = Builder::new(facts.block);
    history::assess(&mut b, history);
    let supply_units = units(facts.total_supply, facts.decimals.unwrap_or(18));
    let active_owner = facts.owner.active();
    assess_contract(&mut b, token, facts, allow);
    let liquidity = liquidity::assess(&mut b, facts, active_owner);
    hooks::assess(&mut b, &facts.pools, &facts.hooks);
    let simulated = deepest_simulation(facts, &liquidity.pools);
    match simulated {
        None => {
            let reason = format!(
                "trade simulation did not run: {}",
                facts.simulation_gaps.join("; ")
            );
            for id in simulation::checks::TRADING_CHECKS {
                b.unknown(id, reason.clone());
            }
        }
        Some(sim) => {
            simulation::checks::assess(&mut b, sim, &powers::privileged_buy(facts), supply_units);
            simulation::restrictions::require_proof(&mut b, sim);
        }
    }
    simulation::callees::assess(&mut b, &facts.callees);
    if let Some(Ok(trip)) = &facts.wallet {
        simulation::wallet::assess(&mut b, trip);
    }
    let buyers_sell_tax = sell_tax(simulated, facts);
    simulation::checks::judge_round_trip(
        &mut b,
        simulated.and_then(|s| s.buy.tax),
        buyers_sell_tax,
    );
    simulation::replay::assess_holders(&mut b, &facts.replay, facts.decimals.unwrap_or(18));
    distribution::assess(&mut b, facts, active_owner);
    super::launch::assess(&mut b, facts);
    facts.gaps.apply(&mut b);
    let meta = TokenMeta {
        name: facts.name.clone().unwrap_or_default(),
        symbol: facts.symbol.clone().unwrap_or_default(),
        price_usd: liquidity.price_usd,
        market_cap_usd: liquidity.price_usd.map(|p| p * supply_units),
        decimals: facts.decimals,
        total_supply: Some(facts.total_supply.to_string()),
        liquidity_usd: liquidity.total_usd,
        pools: liquidity.pools,
        owner: match facts.owner {
            OwnerFact::Address(a) => Some(addr(&a)),
            OwnerFact::NoOwnerFunction => None,
        },
        creator: facts.index.creator.map(|c| addr(&c)),
        is_proxy: facts.proxy.is_proxy(),
        implementation: facts
            .proxy
            .implementation
            .or(facts.proxy.clone_of)
            .map(|a| addr(&a)),
        token_program: None,
        first_seen_block: if facts.index.complete {
            facts.index.first_transfer_block
        } else {
            None
        },
        buy_tax: simulated.and_then(|s| s.buy.tax),
        sell_tax: buyers_sell_tax,
        transfer_tax: simulated.and_then(|s| s.transfer.as_ref().and_then(|x| x.tax)),
    };
    Assessment {
        verdict: b.verdict(),
        meta,
    }
}

/// The sell tax buyers pay: the simulator contract's measure, or the fresh
/// wallet's where the contract's is missing or critical while the wallet sold
/// (the contract was singled out, as bots are).
fn sell_tax(simulated: Option<&TradeSimulation>, facts: &EvmFacts) -> Option<f64> {
    let contract = simulated.and_then(|s| s.sell.as_ref().and_then(|x| x.tax));
    let wallet = match &facts.wallet {
        Some(Ok(trip)) if trip.sold() => trip.best_sell().and_then(|s| s.tax()),
        _ => None,
    };
    match (contract, wallet) {
        (Some(c), Some(w)) if c >= simulation::HONEYPOT_SELL_TAX => Some(w),
        (Some(c), _) => Some(c),
        (None, w) => w,
    }
}

/// The simulation of the deepest simulated pool.
fn deepest_simulation<'a>(facts: &'a EvmFacts, pools: &[Pool]) -> Option<&'a TradeSimulation> {
    facts.simulations.iter().max_by(|a, c| {
        let depth = |s: &TradeSimulation| {
            pools
                .iter()
                .find(|p| p.address == s.pool)
                .map_or(0.0, |p| p.reserve_quote)
        };
        depth(a).total_cmp(&depth(c))
    })
}

/// Ownership, the privileged powers in the code, opcodes and proxies.
fn assess_contract(
    b: &mut Builder,
    token: Address,
    facts: &EvmFacts,
    allow: Option<&AllowlistEntry>,
) {
    let logic_address = facts
        .proxy
        .implementation
        .or(facts.proxy.clone_of)
        .unwrap_or(token);
    let code_rpc = format!("eth_getCode({})", addr(&logic_address));
    let code = &facts.code;

    // Ownership.
    let owner_call = "eth_call owner() / getOwner() via Multicall3";
    let active_owner = facts.owner.active();
    match (&facts.owner, active_owner) {
        (_, Some(owner)) => {
            let kind = match facts.owner_is_contract {
                Some(true) => "a contract (for example a multisig or timelock)",
                _ => "an externally owned account (one private key)",
            };
            let (severity, weight) = if facts.owner_is_contract == Some(true) {
                (Severity::Info, 0.0)
            } else {
                (Severity::Low, 0.05)
            };
            b.detected(
                CheckId::OwnerNotRenounced,
                SignalCategory::Ownership,
                severity,
                weight,
                "Ownership not renounced",
                format!(
                    "The contract has an owner, {}, which is {kind}.",
                    addr(&owner)
                ),
                owner_call,
                json!({"owner": addr(&owner), "owner_is_contract": facts.owner_is_contract}),
            );
        }
        (OwnerFact::Address(_), None) | (OwnerFact::NoOwnerFunction, None) => {
            b.clear(CheckId::OwnerNotRenounced)
        }
    }

    // Privileged powers, by their effect when called as each role.
    powers::assess(b, facts, allow);
    impersonation::assess(
        b,
        token,
        facts.symbol.as_deref(),
        &facts.known_tokens,
        allow.is_some(),
    );

    // Opcodes.
    if code.selfdestruct {
        b.detected(
            CheckId::SelfdestructPresent,
            SignalCategory::Contract,
            Severity::Low,
            0.05,
            "SELFDESTRUCT in code",
            "The code contains SELFDESTRUCT; since EIP-6780 it only removes contracts created in the same transaction.".into(),
            &code_rpc,
            json!({"opcode": "0xff"}),
        );
    } else {
        b.clear(CheckId::SelfdestructPresent);
    }
    if code.delegatecall {
        b.detected(
            CheckId::DelegatecallPresent,
            SignalCategory::Contract,
            Severity::Medium,
            0.15,
            "DELEGATECALL outside a proxy",
            "The token's logic contains DELEGATECALL, so it can run code from another contract with its own storage.".into(),
            &code_rpc,
            json!({"opcode": "0xf4"}),
        );
    } else {
        b.clear(CheckId::DelegatecallPresent);
    }

    // Proxies.
    let proxy_rpc = "eth_getStorageAt(EIP-1967 implementation/admin/beacon slots), eth_getCode";
    if facts.proxy.implementation.is_some() || facts.proxy.beacon.is_some() {
        let code_at = facts
            .proxy
            .implementation
            .map(|a| addr(&a))
            .unwrap_or_else(|| "a beacon's implementation".into());
        // Power times control: an admin contract without a day's delay can replace the code at once.
        let (severity, weight, who) = match (facts.proxy.admin, facts.proxy.admin_control) {
            (Some(admin), Some(control)) => {
                let (severity, weight) = control.cap(Severity::High, band::RISKY);
                let held = match facts.proxy.admin_owner {
                    Some(owner) => format!(
                        "{}, a contract owned by {} {}",
                        addr(&admin),
                        addr(&owner),
                        control.words()
                    ),
                    None => format!("{} {}", addr(&admin), control.words()),
                };
                let who = if weight < band::RISKY {
                    format!(" by its admin {held}, so holders have time to leave before an upgrade")
                } else {
                    format!(" at once by its admin {held}")
                };
                (severity, weight, who)
            }
            _ => (Severity::Medium, band::CAUTION, String::new()),
        };
        b.detected(
            CheckId::UpgradeableProxy,
            SignalCategory::Contract,
            severity,
            weight,
            "Upgradeable proxy",
            format!("The token is an upgradeable proxy; its code lives at {code_at} and can be replaced{who}."),
            proxy_rpc,
            json!({"implementation": facts.proxy.implementation.map(|a| addr(&a)), "admin": facts.proxy.admin.map(|a| addr(&a)), "beacon": facts.proxy.beacon.map(|a| addr(&a)),
                   "admin_control": facts.proxy.admin_control.map(|c| c.raw()),
                   "admin_owner": facts.proxy.admin_owner.map(|a| addr(&a))}),
        );
    } else {
        b.clear(CheckId::UpgradeableProxy);
    }
    match (facts.proxy.admin, facts.proxy.admin_is_eoa) {
        (Some(admin), Some(true)) => b.detected(
            CheckId::ProxyAdminIsEoa,
            SignalCategory::Ownership,
            Severity::High,
            band::RISKY,
            "Proxy admin is a single key",
            format!("The proxy admin {} is an externally owned account: one private key can replace the token's code at any time.", addr(&admin)),
            proxy_rpc,
            json!({"admin": addr(&admin), "admin_code_size": 0}),
        ),
        _ => b.clear(CheckId::ProxyAdminIsEoa),
    }
}
