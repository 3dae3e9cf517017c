//! The EVM launch's findings, for the launch checks (`tokens::launch`):
//! amounts as shares of the supply, and the creator's sells within a day
//! at the chain's pace since the opening.

use alloy_primitives::U256;
use serde_json::{json, Map};

use super::{total, Launch, Member};
use crate::scoring::Builder;
use crate::tokens::evm::facts::{share, EvmFacts};
use crate::tokens::launch::{self, Amount, Findings, Selling, Wallet};
use riskintel_chains::evm::addr;

const RPC: &str = "eth_getLogs(Transfer) index; eth_getLogs(Transfer) of the opening blocks; eth_getBlockByNumber(launch window, full transactions)";

fn amount(units: U256, supply: U256) -> Amount {
    Amount {
        units: units.to_string(),
        share: share(units, supply),
    }
}

fn wallets(members: &[&Member], supply: U256) -> Vec<Wallet> {
    (members.iter())
        .map(|m| Wallet {
            address: addr(&m.address),
            how: m.how,
            via: m.via.as_ref().map(addr),
            at: m.block,
            bought: m.bought.to_string(),
            held: amount(m.held, supply),
        })
        .collect()
}

/// Record the launch checks.
pub fn assess(b: &mut Builder, facts: &EvmFacts) {
    let launch = match &facts.launch {
        Ok(launch) => launch,
        Err(reason) => return launch::assess(b, Err(reason), Err(reason)),
    };
    let findings = findings(facts, launch);
    let selling = selling(facts, launch);
    launch::assess(b, Ok(&findings), selling.as_ref().map_err(|e| e.as_str()));
}

fn findings(facts: &EvmFacts, launch: &Launch) -> Findings {
    let supply = facts.total_supply;
    let members = launch.members();
    let snipers: Vec<&Member> = launch.snipers.iter().collect();
    let bundlers: Vec<&Member> = launch.bundlers.iter().collect();
    let bundled = (launch.creator_bought).saturating_add(total(&bundlers, |m| m.bought));
    let mut extra = Map::new();
    extra.insert("early_holders_read".into(), json!(launch.early_listed.0));
    Findings {
        unit: "block",
        opened: launch.opened,
        creator: addr(&launch.creator),
        creator_held: launch.creator_held().to_string(),
        cluster_held: amount(launch.cluster_held(), supply),
        members_held: share(launch.members_held(), supply),
        members_bought: share(total(&members, |m| m.bought), supply),
        members: wallets(&members, supply),
        insiders: launch.insiders.len(),
        bundlers: wallets(&bundlers, supply),
        creator_bought: launch.creator_bought.to_string(),
        bundled: amount(bundled, supply),
        snipers: wallets(&snipers, supply),
        snipers_bought: share(total(&snipers, |m| m.bought), supply),
        snipers_held: share(total(&snipers, |m| m.held), supply),
        partial: launch
            .early_listed
            .1
            .then(|| "the earliest holders only".into()),
        extra,
        rpc: RPC,
    }
}

fn selling(facts: &EvmFacts, launch: &Launch) -> Result<Selling, String> {
    let sales = (launch.sales.as_ref())
        .ok_or("the creator's transfers since the launch could not be read")?;
    // A day in blocks, at the chain's pace since the opening.
    let opened_time = (launch.opened_time).ok_or("the opening block's time could not be read")?;
    let day_end = if facts.block > launch.opened && facts.block_time > opened_time {
        let per_block =
            (facts.block_time - opened_time) as f64 / (facts.block - launch.opened) as f64;
        launch.opened + (86_400.0 / per_block).ceil() as u64
    } else {
        u64::MAX
    };
    let in_day = total(
        sales.sells.iter().filter(|(block, _)| *block <= day_end),
        |(_, sold)| *sold,
    );
    let all = total(&sales.sells, |(_, sold)| *sold);
    let mut extra = Map::new();
    extra.insert(
        "day_ends_block".into(),
        json!((day_end != u64::MAX).then_some(day_end)),
    );
    Ok(Selling {
        creator: addr(&launch.creator),
        held: sales.held.to_string(),
        first_day: amount(in_day, facts.total_supply),
        first_day_of_allocation: share(in_day, sales.held.saturating_add(all)),
        since_opening: all.to_string(),
        sells: sales.sells.len(),
        extra,
        rpc: "eth_getLogs(Transfer) from and to the creator since the opening block",
    })
}
