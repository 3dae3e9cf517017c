//! The EVM launch's findings, for the launch checks (`tokens::launch`):
//! amounts as shares of the supply, and the creator's sells within a day
//! at the chain's pace since the opening.

use serde_json::{json, Map};

use super::{total, Launch};
use crate::scoring::Builder;
use crate::tokens::evm::facts::{share, EvmFacts};
use crate::tokens::launch::{self, Amount, Findings, Parts, Selling};
use riskintel_chains::evm::addr;

const RPC: &str = "eth_getLogs(Transfer) index; eth_getLogs(Transfer) of the opening blocks; eth_getBlockByNumber(launch window, full transactions)";

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
    let mut extra = Map::new();
    extra.insert("early_holders_read".into(), json!(launch.early_listed.0));
    let parts = Parts {
        unit: "block",
        opened: launch.opened,
        creator: &launch.creator,
        creator_held: launch.creator_held(),
        insiders: &launch.insiders,
        bundlers: &launch.bundlers,
        snipers: &launch.snipers,
        creator_bought: launch.creator_bought,
        supply: facts.total_supply,
        partial: launch
            .early_listed
            .1
            .then(|| "the earliest holders only".into()),
        extra,
        rpc: RPC,
    };
    Findings::of(parts, addr)
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
        first_day: Amount::of(in_day, facts.total_supply),
        first_day_of_allocation: share(in_day, sales.held.saturating_add(all)),
        since_opening: all.to_string(),
        sells: sales.sells.len(),
        extra,
        rpc: "eth_getLogs(Transfer) from and to the creator since the opening block",
    })
}
