use alloy_primitives::{Address, Bytes, B256, U256, U64};
use alloy_sol_types::SolEvent;

use super::*;
use riskintel_chains::evm::types::{Block, FullBlock, Transaction};

fn a(n: u8) -> Address {
    Address::repeat_byte(n)
}

fn h(n: u8) -> B256 {
    B256::repeat_byte(n)
}

const TOKEN: u8 = 0xee;
const CREATOR: u8 = 0xc0;
const POOL: u8 = 0x90;
const ROUTER: u8 = 0x91;

fn early(address: u8, held: u64, from: u8, block: u64) -> EarlyHolder {
    EarlyHolder {
        address: a(address),
        held: U256::from(held),
        first_from: if from == 0 { Address::ZERO } else { a(from) },
        first_block: block,
    }
}

fn transfer(from: u8, to: u8, value: u64, block: u64, tx: u8) -> Log {
    Log {
        address: a(TOKEN),
        topics: vec![
            Transfer::SIGNATURE_HASH,
            a(from).into_word(),
            a(to).into_word(),
        ],
        data: Bytes::from(U256::from(value).to_be_bytes::<32>().to_vec()),
        block_number: Some(U64::from(block)),
        log_index: Some(U64::ZERO),
        transaction_hash: Some(h(tx)),
        block_timestamp: Some(U64::from(1_000 + block * 12)),
    }
}

fn tx(hash: u8, from: u8, to: u8, value: u64) -> Transaction {
    Transaction {
        hash: h(hash),
        from: a(from),
        to: Some(a(to)),
        value: U256::from(value),
    }
}

fn block(number: u64, transactions: Vec<Transaction>) -> FullBlock {
    FullBlock {
        header: Block {
            number: U64::from(number),
            hash: h(number as u8),
            timestamp: U64::from(1_000 + number * 12),
        },
        transactions,
    }
}

fn parties<'a>(sources: &'a [Address], excluded: &'a [Address]) -> Parties<'a> {
    Parties {
        token: a(TOKEN),
        creator: a(CREATOR),
        owner: Some(a(CREATOR)),
        sources,
        excluded,
        cap: 500,
    }
}

#[test]
fn handed_funded_bought_for_and_snipers_are_told_apart() {
    let sources = [a(POOL), a(ROUTER)];
    let excluded = [Address::repeat_byte(0xdd)];
    // Block 10 mints to the creator; 11 and 12 hand tokens to 0x01, then
    // 0x01 hands some to 0x02; the pool opens at 20.
    let rows = LaunchRows {
        opened: 20,
        early: vec![
            early(CREATOR, 100, 0, 10),
            early(0x01, 40, CREATOR, 11),
            early(0x02, 30, 0x01, 12),
            early(0x30, 5, 0x40, 15), // from a stranger before the opening: not an insider
            early(POOL, 400, CREATOR, 20),
            early(0x03, 50, POOL, 20),
            early(0x04, 60, POOL, 20),
            early(0x05, 70, POOL, 21),
            early(0x06, 80, POOL, 22),
        ],
    };
    let reads = Reads {
        opening: Some(vec![
            transfer(CREATOR, POOL, 400, 20, 0xa0),
            transfer(POOL, 0x03, 50, 20, 0xa1),
            transfer(POOL, 0x04, 60, 20, 0xa2),
            transfer(POOL, 0x05, 70, 21, 0xa3),
            transfer(POOL, 0x06, 80, 22, 0xa4),
            transfer(POOL, 0x02, 9, 22, 0xa5),
        ]),
        blocks: Some(vec![
            // The creator funds 0x03 before the opening.
            block(18, vec![tx(0xb0, CREATOR, 0x03, 1)]),
            block(19, vec![tx(0xb1, 0x40, 0x06, 1)]),
            block(
                20,
                vec![
                    tx(0xa0, CREATOR, ROUTER, 10),
                    tx(0xa1, 0x03, ROUTER, 1),
                    // The creator sends 0x04's buy.
                    tx(0xa2, CREATOR, ROUTER, 1),
                ],
            ),
            block(21, vec![tx(0xa3, 0x05, ROUTER, 1)]),
            block(
                22,
                vec![tx(0xa4, 0x06, ROUTER, 1), tx(0xa5, 0x02, ROUTER, 1)],
            ),
        ]),
        creator_is_contract: Some(false),
        creator: Some(vec![
            transfer(CREATOR, POOL, 60, 30, 0xc1),
            transfer(CREATOR, 0x07, 10, 31, 0xc2),
        ]),
    };
    let launch = classify(&parties(&sources, &excluded), &rows, &reads);
    let insiders: Vec<_> = launch.insiders.iter().map(|m| (m.address, m.via)).collect();
    assert_eq!(
        insiders,
        vec![(a(0x01), Some(a(CREATOR))), (a(0x02), Some(a(0x01)))]
    );
    let bundlers: Vec<_> = launch.bundlers.iter().map(|m| (m.address, m.how)).collect();
    assert_eq!(
        bundlers,
        vec![
            (a(0x03), "funded"),
            (a(0x04), "bought_for"),
            (a(0x02), "handed")
        ]
    );
    let snipers: Vec<_> = launch.snipers.iter().map(|m| m.address).collect();
    assert_eq!(snipers, vec![a(0x05), a(0x06)]);
    assert_eq!(launch.creator_held(), U256::from(100));
    // 100 (creator) + 40 + 30 (insiders) + 50 + 60 (bundled buyers).
    assert_eq!(launch.cluster_held(), U256::from(280));
    assert_eq!(launch.opened_time, Some(1_000 + 20 * 12));
    let sales = launch.sales.expect("sales read");
    // Holds 100 now; of what it sent since the opening, 60 went to the pool.
    assert_eq!(sales.held, U256::from(100));
    let sell = Sell {
        block: 30,
        time: Some(1_000 + 30 * 12),
        amount: U256::from(60),
    };
    assert_eq!(sales.sells, vec![sell]);
}

#[test]
fn a_plain_launch_has_no_cluster_and_unread_reads_find_nothing() {
    let sources = [a(POOL)];
    let rows = LaunchRows {
        opened: 20,
        early: vec![early(CREATOR, 600, 0, 10), early(POOL, 400, CREATOR, 20)],
    };
    let launch = classify(&parties(&sources, &[]), &rows, &Reads::default());
    assert!(launch.members().is_empty());
    assert!(launch.snipers.is_empty());
    assert_eq!(launch.sales, None);
    assert_eq!(launch.opened_time, None);
}

#[test]
fn a_launchpad_creator_sold_before_the_pool_and_its_buyers_are_not_insiders() {
    let sources = [a(POOL)];
    // The creator is a curve contract: it sold to 0x01 and 0x02 before the
    // pool opened, then moved the rest into the pool.
    let rows = LaunchRows {
        opened: 20,
        early: vec![
            early(CREATOR, 0, 0, 10),
            early(0x01, 40, CREATOR, 11),
            early(0x02, 30, CREATOR, 12),
            early(POOL, 400, CREATOR, 20),
        ],
    };
    let reads = Reads {
        creator_is_contract: Some(true),
        creator: Some(vec![transfer(CREATOR, POOL, 60, 30, 0xc1)]),
        ..Reads::default()
    };
    let launch = classify(&parties(&sources, &[]), &rows, &reads);
    assert!(launch.members().is_empty());
    assert!(launch.side.iter().all(|(a, _)| *a != a_creator()));
    let sales = launch.sales.expect("sales read");
    assert!(sales.sells.is_empty());
}

fn a_creator() -> Address {
    a(CREATOR)
}
