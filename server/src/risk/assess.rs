//! From facts to signals: every check is tri-state (detected, clear, or
//! unknown with a reason), every signal carries its evidence, and the score
//! is `100 × (1 − Π(1 − weight))`.

use alloy_primitives::{Address, U256};
use riskintel_api::{
    Check, CheckStatus, Coverage, Evidence, Pool, RiskLabel, Severity, Signal, SignalCategory, TokenMeta,
};
use serde_json::json;

use super::capabilities::{self, Capability};
use super::evm::{units, EvmFacts, OwnerFact, DEAD};
use crate::config::AllowlistEntry;

/// Liquidity under this many dollars is `high` risk.
pub const LOW_LIQUIDITY_HIGH_USD: f64 = 10_000.0;
/// Liquidity under this many dollars is `medium` risk.
pub const LOW_LIQUIDITY_MEDIUM_USD: f64 = 50_000.0;

/// Checks, signals and metadata of one token.
pub struct Assessment {
    /// Detected risks.
    pub signals: Vec<Signal>,
    /// Every check.
    pub checks: Vec<Check>,
    /// Metadata.
    pub meta: TokenMeta,
}

/// Collects signals and checks as an assessment runs.
pub(super) struct Builder {
    pub(super) signals: Vec<Signal>,
    pub(super) checks: Vec<Check>,
    block: u64,
}

impl Builder {
    pub(super) fn new(block: u64) -> Builder {
        Builder { signals: Vec::new(), checks: Vec::new(), block }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn detected(
        &mut self,
        id: &str,
        category: SignalCategory,
        severity: Severity,
        weight: f64,
        title: &str,
        detail: String,
        rpc: &str,
        raw: serde_json::Value,
    ) {
        self.checks.push(Check { id: id.into(), status: CheckStatus::Detected, reason: None });
        self.signals.push(Signal {
            id: id.into(),
            severity,
            weight,
            category,
            title: title.into(),
            detail,
            evidence: Evidence { rpc: rpc.into(), block: Some(self.block), raw },
        });
    }

    pub(super) fn clear(&mut self, id: &str) {
        self.checks.push(Check { id: id.into(), status: CheckStatus::Clear, reason: None });
    }

    pub(super) fn unknown(&mut self, id: &str, reason: impl Into<String>) {
        self.checks.push(Check { id: id.into(), status: CheckStatus::Unknown, reason: Some(reason.into()) });
    }
}

fn share(part: U256, whole: U256) -> f64 {
    if whole.is_zero() {
        return 0.0;
    }
    units(part, 0) / units(whole, 0)
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn usd(x: f64) -> String {
    if x >= 1_000_000.0 {
        format!("${:.2}M", x / 1_000_000.0)
    } else {
        format!("${:.2}", x)
    }
}

fn addr(a: &Address) -> String {
    a.to_checksum(None)
}

/// Assess an EVM token.
pub fn assess_evm(token: Address, facts: &EvmFacts, allow: Option<&AllowlistEntry>) -> Assessment {
    let mut b = Builder::new(facts.block);
    let decimals = facts.decimals.unwrap_or(18);
    let supply_units = units(facts.total_supply, decimals);
    let logic_address = facts.proxy.implementation.or(facts.proxy.clone_of).unwrap_or(token);
    let code_rpc = format!("eth_getCode({})", addr(&logic_address));
    let code = capabilities::analyse(&facts.logic_code);

    // Ownership.
    let owner_call = "eth_call owner() / getOwner() via Multicall3";
    let active_owner = match facts.owner {
        OwnerFact::Address(a) if !a.is_zero() && a != DEAD => Some(a),
        _ => None,
    };
    match (&facts.owner, active_owner) {
        (_, Some(owner)) => {
            let kind = match facts.owner_is_contract {
                Some(true) => "a contract (for example a multisig or timelock)",
                _ => "an externally owned account (one private key)",
            };
            let (severity, weight) = if facts.owner_is_contract == Some(true) { (Severity::Info, 0.0) } else { (Severity::Low, 0.05) };
            b.detected(
                "owner_not_renounced",
                SignalCategory::Ownership,
                severity,
                weight,
                "Ownership not renounced",
                format!("The contract has an owner, {}, which is {kind}.", addr(&owner)),
                owner_call,
                json!({"owner": addr(&owner), "owner_is_contract": facts.owner_is_contract}),
            );
        }
        (OwnerFact::Address(_), None) | (OwnerFact::NoOwnerFunction, None) => b.clear("owner_not_renounced"),
    }

    // Privileged powers in the code.
    let issuer_note = allow.map(|a| format!("{} is an allow-listed issuer: {}", a.issuer, a.reason));
    let powers: [(Capability, &str, &str, Severity, f64, SignalCategory, bool); 7] = [
        (Capability::Mint, "mint_capability", "Owner can mint", Severity::High, 0.35, SignalCategory::Contract, true),
        (Capability::Blacklist, "blacklist_capability", "Addresses can be blacklisted", Severity::High, 0.35, SignalCategory::Trading, true),
        (Capability::Pause, "pause_capability", "Transfers can be paused", Severity::Medium, 0.2, SignalCategory::Trading, true),
        (Capability::SetFees, "tax_modifiable", "Fees can be changed", Severity::High, 0.3, SignalCategory::Trading, false),
        (Capability::SetFeePerAddress, "tax_modifiable_per_address", "Fees can be set per address", Severity::Critical, 0.6, SignalCategory::Trading, false),
        (Capability::SetLimits, "max_tx_modifiable", "Transaction limits can be changed", Severity::Medium, 0.15, SignalCategory::Trading, false),
        (Capability::ReclaimOwnership, "ownership_reclaimable", "Ownership can be taken back", Severity::High, 0.3, SignalCategory::Ownership, false),
    ];
    for (capability, id, title, severity, weight, category, issuer_power) in powers {
        let Some(signatures) = code.powers.get(&capability) else {
            b.clear(id);
            continue;
        };
        let raw = json!({"functions": signatures, "code_address": addr(&logic_address), "owner": active_owner.map(|o| addr(&o))});
        let functions = signatures.join(", ");
        if let (true, Some(note)) = (issuer_power, &issuer_note) {
            b.detected(id, category, Severity::Info, 0.0, title, format!("The code has {functions}; {note}."), &code_rpc, raw);
        } else if active_owner.is_some() || facts.owner == OwnerFact::NoOwnerFunction || capability == Capability::ReclaimOwnership {
            let who = match active_owner {
                Some(o) => format!("the owner {}", addr(&o)),
                None => "whoever holds the privileged role (there is no owner() to check)".into(),
            };
            b.detected(id, category, severity, weight, title, format!("The code has {functions}, callable by {who}."), &code_rpc, raw);
        } else {
            b.detected(
                id,
                category,
                Severity::Low,
                0.05,
                title,
                format!("The code has {functions}, but ownership is renounced, so an owner-only call can no longer be made."),
                &code_rpc,
                raw,
            );
        }
    }

    // Opcodes.
    if code.selfdestruct {
        b.detected(
            "selfdestruct_present",
            SignalCategory::Contract,
            Severity::Low,
            0.05,
            "SELFDESTRUCT in code",
            "The code contains SELFDESTRUCT; since EIP-6780 it only removes contracts created in the same transaction.".into(),
            &code_rpc,
            json!({"opcode": "0xff"}),
        );
    } else {
        b.clear("selfdestruct_present");
    }
    if code.delegatecall {
        b.detected(
            "delegatecall_present",
            SignalCategory::Contract,
            Severity::Medium,
            0.15,
            "DELEGATECALL outside a proxy",
            "The token's logic contains DELEGATECALL, so it can run code from another contract with its own storage.".into(),
            &code_rpc,
            json!({"opcode": "0xf4"}),
        );
    } else {
        b.clear("delegatecall_present");
    }

    // Proxies.
    let proxy_rpc = "eth_getStorageAt(EIP-1967 implementation/admin/beacon slots), eth_getCode";
    if facts.proxy.implementation.is_some() || facts.proxy.beacon.is_some() {
        b.detected(
            "upgradeable_proxy",
            SignalCategory::Contract,
            Severity::Medium,
            0.2,
            "Upgradeable proxy",
            format!(
                "The token is an upgradeable proxy; its code lives at {} and can be replaced.",
                facts.proxy.implementation.map(|a| addr(&a)).unwrap_or_else(|| "a beacon's implementation".into())
            ),
            proxy_rpc,
            json!({"implementation": facts.proxy.implementation.map(|a| addr(&a)), "admin": facts.proxy.admin.map(|a| addr(&a)), "beacon": facts.proxy.beacon.map(|a| addr(&a))}),
        );
    } else {
        b.clear("upgradeable_proxy");
    }
    match (facts.proxy.admin, facts.proxy.admin_is_eoa) {
        (Some(admin), Some(true)) => b.detected(
            "proxy_admin_is_eoa",
            SignalCategory::Ownership,
            Severity::High,
            0.3,
            "Proxy admin is a single key",
            format!("The proxy admin {} is an externally owned account: one private key can replace the token's code at any time.", addr(&admin)),
            proxy_rpc,
            json!({"admin": addr(&admin), "admin_code_size": 0}),
        ),
        _ => b.clear("proxy_admin_is_eoa"),
    }

    // Liquidity.
    let mut pools = Vec::new();
    let mut liquidity_total = 0.0;
    let mut priced_any = false;
    let mut best_price: Option<(f64, f64)> = None;
    for p in &facts.pools {
        let reserve_token = units(p.reserve_token, decimals);
        let reserve_quote = units(p.reserve_quote, p.quote.decimals);
        let quote_usd = facts.quote_usd.get(&p.quote.address).copied();
        let liquidity_usd = quote_usd.map(|price| 2.0 * reserve_quote * price);
        if let (Some(l), Some(price)) = (liquidity_usd, quote_usd) {
            priced_any = true;
            liquidity_total += l;
            if reserve_token > 0.0 && best_price.is_none_or(|(depth, _)| l > depth) {
                best_price = Some((l, reserve_quote * price / reserve_token));
            }
        }
        pools.push(Pool {
            dex: p.dex.clone(),
            address: addr(&p.pair),
            quote_address: addr(&p.quote.address),
            quote_symbol: p.quote.symbol.clone(),
            reserve_token,
            reserve_quote,
            liquidity_usd,
            lp_burned_share: (!p.lp_supply.is_zero()).then(|| share(p.lp_burned, p.lp_supply)),
            lp_locked_share: (!p.lp_supply.is_zero()).then(|| share(p.lp_burned + p.lp_locked, p.lp_supply)),
            lp_owner_share: p.lp_owner.filter(|_| !p.lp_supply.is_zero()).map(|o| share(o, p.lp_supply)),
            lp_creator_share: p.lp_creator.filter(|_| !p.lp_supply.is_zero()).map(|c| share(c, p.lp_supply)),
        });
    }
    let price_usd = best_price.map(|(_, p)| p);
    let pools_rpc = "eth_call getPair / getReserves / token0 via Multicall3";
    let live_pools: Vec<&Pool> = pools.iter().filter(|p| p.reserve_token > 0.0 && p.reserve_quote > 0.0).collect();
    if live_pools.is_empty() {
        b.detected(
            "no_liquidity",
            SignalCategory::Liquidity,
            Severity::High,
            0.4,
            "No liquidity pool",
            "No pool with reserves was found for the token on the configured DEXes, so it cannot be sold there.".into(),
            pools_rpc,
            json!({"pools_found": pools.len()}),
        );
        b.unknown("low_liquidity", "there is no pool to measure");
        b.unknown("lp_unlocked", "there is no pool");
        b.unknown("owner_holds_lp", "there is no pool");
        b.unknown("creator_holds_lp", "there is no pool");
    } else {
        b.clear("no_liquidity");
        if !priced_any {
            b.unknown("low_liquidity", facts.pricing_gap.clone().unwrap_or_else(|| "the pools' quote assets have no USD price".into()));
        } else if liquidity_total < LOW_LIQUIDITY_MEDIUM_USD {
            let (severity, weight) =
                if liquidity_total < LOW_LIQUIDITY_HIGH_USD { (Severity::High, 0.3) } else { (Severity::Medium, 0.15) };
            b.detected(
                "low_liquidity",
                SignalCategory::Liquidity,
                severity,
                weight,
                "Low liquidity",
                format!("All pools together hold {} of liquidity; selling a meaningful amount will move the price a lot.", usd(liquidity_total)),
                pools_rpc,
                json!({"liquidity_usd": liquidity_total, "pools": live_pools.len()}),
            );
        } else {
            b.clear("low_liquidity");
        }
        // LP lock and owner LP on the deepest pool.
        let deepest = live_pools
            .iter()
            .max_by(|a, c| a.liquidity_usd.unwrap_or(a.reserve_quote).total_cmp(&c.liquidity_usd.unwrap_or(c.reserve_quote)))
            .expect("non-empty");
        match deepest.lp_locked_share {
            Some(burned) if burned < 0.95 => {
                let young = token_age_seconds(facts).is_some_and(|age| age < 7 * 86_400);
                let (severity, weight) = if burned < 0.5 && young { (Severity::Critical, 0.5) } else { (Severity::High, 0.25) };
                b.detected(
                    "lp_unlocked",
                    SignalCategory::Liquidity,
                    severity,
                    weight,
                    "Liquidity can be withdrawn",
                    format!(
                        "Only {} of the LP tokens of the {} pool are burned or locked; whoever holds the rest can remove that liquidity.",
                        pct(burned),
                        deepest.dex
                    ),
                    "eth_call pair.balanceOf(0x…dEaD, 0x0, lockers) / pair.totalSupply() via Multicall3",
                    json!({"pair": deepest.address, "lp_burned_share": deepest.lp_burned_share, "lp_locked_share": burned}),
                );
            }
            Some(_) => b.clear("lp_unlocked"),
            None => b.unknown("lp_unlocked", "the pool's LP supply is zero"),
        }
        match (active_owner, deepest.lp_owner_share) {
            (Some(owner), Some(owner_share)) if owner_share > 0.05 => b.detected(
                "owner_holds_lp",
                SignalCategory::Liquidity,
                Severity::High,
                0.25,
                "Owner holds LP tokens",
                format!("The owner {} holds {} of the {} pool's LP tokens and can pull that liquidity.", addr(&owner), pct(owner_share), deepest.dex),
                "eth_call pair.balanceOf(owner) via Multicall3",
                json!({"pair": deepest.address, "owner": addr(&owner), "lp_owner_share": owner_share}),
            ),
            _ => b.clear("owner_holds_lp"),
        }
        match (facts.index.creator, deepest.lp_creator_share) {
            // The owner's LP is reported by owner_holds_lp.
            (Some(creator), _) if Some(creator) == active_owner => b.clear("creator_holds_lp"),
            (Some(creator), Some(creator_share)) if creator_share > 0.05 => b.detected(
                "creator_holds_lp",
                SignalCategory::Liquidity,
                Severity::High,
                0.25,
                "Creator holds LP tokens",
                format!(
                    "The creator {} (who received the first mint) holds {} of the {} pool's LP tokens and can pull that liquidity.",
                    addr(&creator),
                    pct(creator_share),
                    deepest.dex
                ),
                "eth_getLogs(first mint), eth_call pair.balanceOf(creator) via Multicall3",
                json!({"pair": deepest.address, "creator": addr(&creator), "lp_creator_share": creator_share}),
            ),
            (Some(_), _) => b.clear("creator_holds_lp"),
            (None, _) => b.unknown(
                "creator_holds_lp",
                facts.index.incomplete_reason.clone().unwrap_or_else(|| "the token's first mint was not found".into()),
            ),
        }
    }

    // Trading, from the simulation on the deepest simulated pool.
    let simulated = facts
        .simulations
        .iter()
        .max_by(|a, c| {
            let depth = |s: &riskintel_api::TradeSimulation| pools.iter().find(|p| p.address == s.pool).map_or(0.0, |p| p.reserve_quote);
            depth(a).total_cmp(&depth(c))
        });
    let trading_checks = ["cannot_buy", "honeypot", "sell_limit", "buy_tax", "sell_tax", "transfer_blocked", "transfer_tax"];
    match simulated {
        None => {
            let reason = format!("trade simulation did not run: {}", facts.simulation_gaps.join("; "));
            for id in trading_checks {
                b.unknown(id, reason.clone());
            }
        }
        Some(sim) => assess_simulation(&mut b, sim),
    }

    // Distribution.
    let holders_rpc = "eth_getLogs(Transfer) index, then eth_call balanceOf via Multicall3";
    if !facts.index.complete {
        let reason = facts.index.incomplete_reason.clone().unwrap_or_else(|| "the holder index is incomplete".into());
        b.unknown("whale_concentration", reason.clone());
        b.unknown("single_holder_dominance", reason);
    } else {
        let top10: U256 = facts.top_holders.iter().take(10).map(|h| h.balance).fold(U256::ZERO, |a, c| a + c);
        let top10_share = share(top10, facts.total_supply);
        let raw_top: Vec<_> = facts
            .top_holders
            .iter()
            .take(10)
            .map(|h| json!({"address": addr(&h.address), "balance": h.balance.to_string(), "share": share(h.balance, facts.total_supply)}))
            .collect();
        if top10_share > 0.5 {
            let (severity, weight) = if top10_share > 0.7 { (Severity::Critical, 0.5) } else { (Severity::High, 0.3) };
            b.detected(
                "whale_concentration",
                SignalCategory::Distribution,
                severity,
                weight,
                "Supply concentrated in few wallets",
                format!("The 10 largest holders (pools and burn addresses excluded) hold {} of the supply.", pct(top10_share)),
                holders_rpc,
                json!({"top10_share": top10_share, "holders": facts.holder_count, "top": raw_top}),
            );
        } else {
            b.clear("whale_concentration");
        }
        match facts.top_holders.first() {
            Some(top) if share(top.balance, facts.total_supply) > 0.2 => {
                let s = share(top.balance, facts.total_supply);
                let (severity, weight) = if s > 0.5 { (Severity::Critical, 0.6) } else { (Severity::High, 0.25) };
                b.detected(
                    "single_holder_dominance",
                    SignalCategory::Distribution,
                    severity,
                    weight,
                    "One wallet holds a large share",
                    format!("{} holds {} of the supply; selling it would crash the price.", addr(&top.address), pct(s)),
                    holders_rpc,
                    json!({"holder": addr(&top.address), "balance": top.balance.to_string(), "share": s}),
                );
            }
            _ => b.clear("single_holder_dominance"),
        }
    }
    match (active_owner, facts.owner_balance) {
        (Some(owner), Some(balance)) if share(balance, facts.total_supply) > 0.05 => {
            let s = share(balance, facts.total_supply);
            let (severity, weight) = if s > 0.2 { (Severity::High, 0.25) } else { (Severity::Medium, 0.1) };
            b.detected(
                "owner_balance_high",
                SignalCategory::Distribution,
                severity,
                weight,
                "Owner holds a large share",
                format!("The owner {} holds {} of the supply.", addr(&owner), pct(s)),
                "eth_call balanceOf(owner) via Multicall3",
                json!({"owner": addr(&owner), "balance": balance.to_string(), "share": s}),
            );
        }
        _ => b.clear("owner_balance_high"),
    }

    // Age.
    match token_age_seconds(facts) {
        Some(age) if age < 7 * 86_400 => {
            let (severity, weight, band) = if age < 3_600 {
                (Severity::High, 0.25, "less than an hour")
            } else if age < 86_400 {
                (Severity::Medium, 0.12, "less than a day")
            } else {
                (Severity::Low, 0.05, "less than a week")
            };
            b.detected(
                "new_token",
                SignalCategory::Market,
                severity,
                weight,
                "New token",
                format!("The token's first transfer was {band} ago ({} hours); most rug pulls happen early.", age / 3_600),
                "eth_getLogs(Transfer) index, eth_getBlockByNumber",
                json!({"first_transfer_block": facts.index.first_transfer_block, "age_seconds": age}),
            );
        }
        Some(_) => b.clear("new_token"),
        None => match facts.index_start_time {
            Some(start) if facts.block_time - start >= 7 * 86_400 => b.clear("new_token"),
            _ => b.unknown("new_token", facts.index.incomplete_reason.clone().unwrap_or_else(|| "no transfer was found to date the token".into())),
        },
    }

    let owner_text = match facts.owner {
        OwnerFact::Address(a) => Some(addr(&a)),
        OwnerFact::NoOwnerFunction => None,
    };
    let meta = TokenMeta {
        name: facts.name.clone().unwrap_or_default(),
        symbol: facts.symbol.clone().unwrap_or_default(),
        price_usd,
        market_cap_usd: price_usd.map(|p| p * supply_units),
        decimals: facts.decimals,
        total_supply: Some(facts.total_supply.to_string()),
        liquidity_usd: priced_any.then_some(liquidity_total),
        pools,
        owner: owner_text,
        creator: facts.index.creator.map(|c| addr(&c)),
        is_proxy: facts.proxy.is_proxy(),
        implementation: facts.proxy.implementation.or(facts.proxy.clone_of).map(|a| addr(&a)),
        token_program: None,
        first_seen_block: if facts.index.complete { facts.index.first_transfer_block } else { None },
        buy_tax: simulated.and_then(|s| s.buy.tax),
        sell_tax: simulated.and_then(|s| s.sell.as_ref().and_then(|x| x.tax)),
        transfer_tax: simulated.and_then(|s| s.transfer.as_ref().and_then(|x| x.tax)),
    };
    Assessment { signals: b.signals, checks: b.checks, meta }
}

/// A tax under this is rounding, not a tax.
const TAX_FLOOR: f64 = 0.005;
/// A sell returning less than this share of its value is a honeypot.
const HONEYPOT_SELL_TAX: f64 = 0.9;

fn tax_band(tax: f64) -> (Severity, f64) {
    if tax > 0.5 {
        (Severity::Critical, 0.6)
    } else if tax > 0.3 {
        (Severity::High, 0.35)
    } else if tax > 0.1 {
        (Severity::Medium, 0.15)
    } else {
        (Severity::Low, 0.05)
    }
}

fn assess_simulation(b: &mut Builder, sim: &riskintel_api::TradeSimulation) {
    let rpc = format!("eth_call simulate() with a state override at {} on pool {} ({})", sim.simulator, sim.pool, sim.dex);
    let step_raw = |step: &riskintel_api::TradeStep| {
        json!({"ok": step.ok, "amount_in": step.amount_in, "expected_out": step.expected_out, "actual_out": step.actual_out,
               "tax": step.tax, "gas_used": step.gas_used, "revert_reason": step.revert_reason})
    };
    if !sim.buy.ok {
        let reason = sim.buy.revert_reason.clone().unwrap_or_default();
        b.detected(
            "cannot_buy",
            SignalCategory::Trading,
            Severity::High,
            0.4,
            "Buying fails",
            format!("A simulated buy of {} {} reverted ({reason}); trading may not be enabled, or buyers are blocked.", sim.buy.amount_in.unwrap_or_default(), sim.quote_symbol),
            &rpc,
            json!({"buy": step_raw(&sim.buy)}),
        );
        for id in ["honeypot", "sell_limit", "buy_tax", "sell_tax", "transfer_blocked", "transfer_tax"] {
            b.unknown(id, "the simulated buy failed, so there was nothing to sell or transfer");
        }
        return;
    }
    b.clear("cannot_buy");
    match sim.buy.tax {
        Some(tax) if tax > TAX_FLOOR => {
            let (severity, weight) = tax_band(tax);
            let id = if tax > 0.1 { "high_buy_tax" } else { "buy_tax" };
            b.detected(
                id,
                SignalCategory::Trading,
                severity,
                weight,
                "Buy tax",
                format!("A simulated buy received {} of the expected tokens: a buy tax of {}.", pct(1.0 - tax), pct(tax)),
                &rpc,
                json!({"buy": step_raw(&sim.buy)}),
            );
        }
        _ => b.clear("buy_tax"),
    }
    match &sim.transfer {
        Some(t) if !t.ok => b.detected(
            "transfer_blocked",
            SignalCategory::Trading,
            Severity::High,
            0.35,
            "Transfers are blocked",
            format!("A simulated transfer between two fresh wallets reverted ({}).", t.revert_reason.clone().unwrap_or_default()),
            &rpc,
            json!({"transfer": step_raw(t)}),
        ),
        Some(t) => {
            b.clear("transfer_blocked");
            match t.tax {
                Some(tax) if tax > TAX_FLOOR => b.detected(
                    "transfer_tax",
                    SignalCategory::Trading,
                    Severity::Medium,
                    0.1,
                    "Transfer tax",
                    format!("A simulated wallet-to-wallet transfer delivered {} of what was sent: a transfer tax of {}.", pct(1.0 - tax), pct(tax)),
                    &rpc,
                    json!({"transfer": step_raw(t)}),
                ),
                _ => b.clear("transfer_tax"),
            }
        }
        None => {
            b.unknown("transfer_blocked", "no tokens were bought to transfer");
            b.unknown("transfer_tax", "no tokens were bought to transfer");
        }
    }
    let Some(sell) = &sim.sell else {
        for id in ["honeypot", "sell_limit", "sell_tax"] {
            b.unknown(id, "no tokens were bought to sell");
        }
        return;
    };
    let max_share = sim.max_sell_share.unwrap_or(0.0);
    let sell_tax = sell.tax.unwrap_or(0.0);
    if (!sell.ok && max_share == 0.0) || (sell.ok && sell_tax >= HONEYPOT_SELL_TAX) {
        let detail = if sell.ok {
            format!("A simulated sell returned only {} of its value (a {} sell tax): holders cannot get their money out.", pct(1.0 - sell_tax), pct(sell_tax))
        } else {
            format!("Every simulated sell reverted ({}), even of a tiny amount: holders cannot sell.", sell.revert_reason.clone().unwrap_or_default())
        };
        b.detected("honeypot", SignalCategory::Trading, Severity::Critical, 1.0, "Honeypot: cannot sell", detail, &rpc, json!({"sell": step_raw(sell), "max_sell_share": max_share}));
    } else {
        b.clear("honeypot");
    }
    if !sell.ok && max_share > 0.0 {
        let (severity, weight) = if max_share < 0.01 {
            (Severity::Critical, 0.9)
        } else if max_share < 0.5 {
            (Severity::High, 0.3)
        } else {
            (Severity::Medium, 0.15)
        };
        b.detected(
            "sell_limit",
            SignalCategory::Trading,
            severity,
            weight,
            "Sells are capped",
            format!(
                "Selling everything bought reverted ({}); the largest sell that succeeded was {} of it.",
                sell.revert_reason.clone().unwrap_or_default(),
                pct(max_share)
            ),
            &rpc,
            json!({"sell": step_raw(sell), "max_sell_share": max_share}),
        );
    } else {
        b.clear("sell_limit");
    }
    match sell.tax {
        Some(tax) if tax > TAX_FLOOR => {
            let (severity, weight) = tax_band(tax);
            let id = if tax > 0.1 { "high_sell_tax" } else { "sell_tax" };
            b.detected(
                id,
                SignalCategory::Trading,
                severity,
                weight,
                "Sell tax",
                format!("A simulated sell received {} of the expected value: a sell tax of {}.", pct(1.0 - tax), pct(tax)),
                &rpc,
                json!({"sell": step_raw(sell)}),
            );
        }
        Some(_) => b.clear("sell_tax"),
        None => b.unknown("sell_tax", "the full sell failed, so its tax could not be measured"),
    }
}

fn token_age_seconds(facts: &EvmFacts) -> Option<i64> {
    facts.first_transfer_time.map(|t| (facts.block_time - t).max(0))
}

/// Score from weights: `100 × (1 − Π(1 − w))`, to one decimal.
pub fn score(signals: &[Signal]) -> f64 {
    let keep: f64 = signals.iter().map(|s| 1.0 - s.weight.clamp(0.0, 1.0)).product();
    ((1.0_f64 - keep) * 1000.0).round() / 10.0
}

/// Coverage of a set of checks.
pub fn coverage(checks: Vec<Check>) -> Coverage {
    let ran = checks.iter().filter(|c| c.status != CheckStatus::Unknown).count();
    let ratio = if checks.is_empty() { 0.0 } else { ((ran as f64 / checks.len() as f64) * 1000.0).round() / 1000.0 };
    Coverage { ratio, checks }
}

/// Checks without which no result is labelled `safe`: whether a holder can
/// sell is the question the label exists to answer.
const REQUIRED_FOR_SAFE: [&str; 1] = ["honeypot"];

/// Label from score and coverage: under 0.6 coverage, or with a check of
/// [`REQUIRED_FOR_SAFE`] unknown, a result is never `safe`.
pub fn label_for(score: f64, coverage: &Coverage) -> RiskLabel {
    let required_unknown = coverage
        .checks
        .iter()
        .any(|c| c.status == CheckStatus::Unknown && REQUIRED_FOR_SAFE.contains(&c.id.as_str()));
    match label(score, coverage.ratio) {
        RiskLabel::Safe if required_unknown => RiskLabel::Caution,
        other => other,
    }
}

/// Label from score and coverage ratio: under 0.6 coverage is never `safe`.
pub fn label(score: f64, coverage: f64) -> RiskLabel {
    let label = if score < 20.0 {
        RiskLabel::Safe
    } else if score < 50.0 {
        RiskLabel::Caution
    } else if score < 80.0 {
        RiskLabel::Risky
    } else {
        RiskLabel::Critical
    };
    if label == RiskLabel::Safe && coverage < 0.6 {
        RiskLabel::Caution
    } else {
        label
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signal(weight: f64) -> Signal {
        Signal {
            id: "x".into(),
            severity: Severity::Low,
            weight,
            category: SignalCategory::Contract,
            title: String::new(),
            detail: String::new(),
            evidence: Evidence { rpc: String::new(), block: None, raw: json!(null) },
        }
    }

    #[test]
    fn score_combines_weights_and_labels_follow_the_bands() {
        assert_eq!(score(&[]), 0.0);
        assert_eq!(score(&[signal(1.0), signal(0.2)]), 100.0);
        assert_eq!(score(&[signal(0.5), signal(0.5)]), 75.0);
        assert_eq!(label(19.9, 1.0), RiskLabel::Safe);
        assert_eq!(label(19.9, 0.59), RiskLabel::Caution);
        assert_eq!(label(20.0, 1.0), RiskLabel::Caution);
        assert_eq!(label(79.9, 1.0), RiskLabel::Risky);
        assert_eq!(label(80.0, 1.0), RiskLabel::Critical);
    }
}
