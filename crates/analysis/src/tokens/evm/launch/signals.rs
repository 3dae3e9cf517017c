//! The EVM launch's findings, for the launch checks (`tokens::launch`):
//! amounts as shares of the supply, and the creator's sells within a day
//! of the opening by their blocks' own times.

use serde_json::{json, Map};

use super::{total, Launch, Sell};
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
    // A day by the blocks' own clocks: a chain's pace since the opening
    // says nothing of when each sell happened once its clock has jumped.
    let opened_time = (launch.opened_time).ok_or("the opening block's time could not be read")?;
    let day_ends = opened_time + DAY_SECONDS;
    let in_day = within(&sales.sells, day_ends).ok_or_else(|| {
        format!(
            "the times of {} of the creator's sells could not be read",
            sales.sells.iter().filter(|s| s.time.is_none()).count()
        )
    })?;
    let first_day = &sales.sells[..in_day];
    let in_day = total(first_day, |s| s.amount);
    let all = total(&sales.sells, |s| s.amount);
    let mut extra = Map::new();
    extra.insert("day_ends_at".into(), json!(day_ends));
    // The block of the day's last sell.
    extra.insert(
        "day_ends_block".into(),
        json!(first_day.last().map(|s| s.block)),
    );
    Ok(Selling {
        creator: addr(&launch.creator),
        held: sales.held.to_string(),
        first_day: Amount::of(in_day, facts.total_supply),
        first_day_of_allocation: share(in_day, sales.held.saturating_add(all)),
        since_opening: all.to_string(),
        sells: sales.sells.len(),
        extra,
        rpc: "eth_getLogs(Transfer) from and to the creator since the opening block (each log's blockTimestamp, else its block's header)",
    })
}

/// A day, in seconds.
const DAY_SECONDS: i64 = 86_400;

/// How many of `sells` (in block order) came by `day_ends`, by their
/// blocks' times; an undated sell counts by its dated neighbours (times
/// only grow with the block). None when the day's end falls among undated sells.
fn within(sells: &[Sell], day_ends: i64) -> Option<usize> {
    // The first sell known to be past the day's end, and the last known within it.
    let past = (sells.iter()).position(|s| s.time.is_some_and(|t| t > day_ends));
    let upto = past.unwrap_or(sells.len());
    let last_in = (sells[..upto].iter()).rposition(|s| s.time.is_some());
    let undated_between = match last_in {
        Some(i) => sells[i + 1..upto].iter().any(|s| s.time.is_none()),
        None => upto > 0,
    };
    (!undated_between).then_some(upto)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::U256;

    fn sell(block: u64, time: Option<i64>) -> Sell {
        Sell {
            block,
            time,
            amount: U256::from(1),
        }
    }

    #[test]
    fn a_day_is_judged_by_each_sell_s_own_time_not_the_chain_s_pace() {
        // Sold within hours, then the chain's clock jumped by days: the
        // pace since the opening would put the day's end a few blocks in.
        let sells = [
            sell(10, Some(3_600)),
            sell(40, Some(7_200)),
            sell(41, Some(900_000)),
        ];
        assert_eq!(within(&sells, DAY_SECONDS), Some(2));
    }

    #[test]
    fn undated_sells_count_by_their_dated_neighbours() {
        let sells = [
            sell(10, None),
            sell(11, Some(3_600)),
            sell(12, None),
            sell(13, Some(90_000)),
        ];
        // 12 lies between a sell inside the day and one past it: unknown.
        assert_eq!(within(&sells, DAY_SECONDS), None);
        let sells = [
            sell(10, None),
            sell(11, Some(3_600)),
            sell(13, Some(90_000)),
            sell(14, None),
        ];
        assert_eq!(within(&sells, DAY_SECONDS), Some(2));
        assert_eq!(within(&[sell(5, None)], DAY_SECONDS), None);
        assert_eq!(within(&[], DAY_SECONDS), Some(0));
    }
}
