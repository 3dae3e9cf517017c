//! The launch judged from transactions written as a node answers them.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use super::*;

const MINT: &str = "Mint1";
const CURVE: &str = "Curve1";
const CREATOR: &str = "Creator1";

/// A token balance change of `owner` (its account `owner`+"Ata") from `before` to `after`.
struct Move(&'static str, u64, u64);

/// A transaction in slot `slot` paid by `payer`, moving the mint as
/// `moves` say and sending SOL as `transfers` say.
fn tx(
    slot: u64,
    signature: &str,
    payer: &str,
    moves: &[Move],
    transfers: &[(&str, &str, u64)],
) -> ParsedTransaction {
    let mut keys: Vec<Value> = vec![json!({"pubkey": payer, "signer": true})];
    let (mut pre, mut post) = (Vec::new(), Vec::new());
    for Move(owner, before, after) in moves {
        let index = keys.len();
        keys.push(json!({"pubkey": format!("{owner}Ata"), "signer": false}));
        let balance = |amount: &u64| json!({"accountIndex": index, "mint": MINT, "owner": owner, "uiTokenAmount": {"amount": amount.to_string()}});
        if *before > 0 {
            pre.push(balance(before));
        }
        post.push(balance(after));
    }
    let instructions: Vec<Value> = (transfers.iter())
        .map(|(from, to, lamports)| json!({"program": "system", "parsed": {"type": "transfer", "info": {"source": from, "destination": to, "lamports": lamports}}}))
        .collect();
    serde_json::from_value(json!({
        "slot": slot,
        "blockTime": 1_000_000 + slot as i64,
        "meta": {"err": null, "preTokenBalances": pre, "postTokenBalances": post, "innerInstructions": []},
        "transaction": {"signatures": [signature], "message": {"accountKeys": keys, "instructions": instructions}},
    }))
    .expect("a transaction")
}

fn pools() -> HashSet<String> {
    HashSet::from([CURVE.to_string()])
}

#[test]
fn buys_in_the_create_transaction_and_for_the_creator_are_bundled_others_snipe() {
    let txs = [
        // create: the curve gets the supply; the creator and a co-signer buy.
        tx(
            1000,
            "Create",
            CREATOR,
            &[
                Move(CURVE, 0, 850),
                Move(CREATOR, 0, 50),
                Move("Friend", 0, 100),
            ],
            &[],
        ),
        // the creator pays for a buy that lands in another wallet.
        tx(
            1000,
            "For",
            CREATOR,
            &[Move(CURVE, 850, 800), Move("Alt", 0, 50)],
            &[],
        ),
        // a stranger buys in the next slot, and again later.
        tx(
            1001,
            "Snipe",
            "Stranger",
            &[Move(CURVE, 800, 780), Move("Stranger", 0, 20)],
            &[],
        ),
        tx(
            1003,
            "Late",
            "Stranger",
            &[Move(CURVE, 780, 770), Move("Stranger", 20, 30)],
            &[],
        ),
    ];
    let opened = opened(MINT, 1000, Some("Create"), CREATOR, &txs, &pools());
    assert_eq!(opened.creator_bought, 50);
    let by = |w: &str| opened.buys.iter().find(|b| b.wallet == w).cloned();
    assert_eq!(
        by("Friend").and_then(|b| b.by_cluster),
        Some((CREATOR.into(), "create_transaction"))
    );
    assert_eq!(
        by("Alt").and_then(|b| b.by_cluster),
        Some((CREATOR.into(), "bought_for"))
    );
    assert_eq!(
        by("Stranger").map(|b| (b.amount, b.by_cluster)),
        Some((20, None))
    );
}

#[test]
fn wallets_the_creator_funded_before_the_opening_are_bundled_and_its_sells_counted() {
    let txs = [
        tx(1000, "Create", CREATOR, &[Move(CURVE, 0, 1000)], &[]),
        tx(
            1000,
            "Buy1",
            "Funded",
            &[Move(CURVE, 1000, 700), Move("Funded", 0, 300)],
            &[],
        ),
        tx(
            1002,
            "Buy2",
            "Stranger",
            &[Move(CURVE, 700, 690), Move("Stranger", 0, 10)],
            &[],
        ),
    ];
    let opening = opened(MINT, 1000, Some("Create"), CREATOR, &txs, &pools());
    let creator_txs = [
        // funding long before the window does not count; in it, it does.
        tx(10, "Old", CREATOR, &[], &[(CREATOR, "Stranger", 1)]),
        tx(
            990,
            "Fund",
            CREATOR,
            &[],
            &[(CREATOR, "Funded", 5), (CREATOR, "Whale", 5)],
        ),
        tx(1000, "Create", CREATOR, &[Move(CURVE, 0, 1000)], &[]),
        tx(
            1010,
            "Got",
            "Funded",
            &[Move("Funded", 300, 200), Move(CREATOR, 0, 100)],
            &[],
        ),
        tx(
            1500,
            "Sell",
            CREATOR,
            &[Move(CREATOR, 100, 20), Move(CURVE, 690, 770)],
            &[],
        ),
    ];
    let activity = activity(MINT, CREATOR, 1000, 100, &creator_txs, &pools());
    assert_eq!(
        activity.funded.keys().collect::<HashSet<_>>(),
        HashSet::from([&"Funded".to_string(), &"Whale".to_string()])
    );
    assert_eq!(
        (activity.peak, activity.sells.clone()),
        (100, vec![(1500, Some(1_001_500), 80)])
    );
    let holdings = HashMap::from([
        (CREATOR.to_string(), 20),
        ("Funded".to_string(), 200),
        ("Stranger".to_string(), 10),
    ]);
    let largest = [
        ("Funded".to_string(), 200),
        ("Whale".to_string(), 90),
        ("Stranger".to_string(), 10),
    ];
    let launch = classify(Judged {
        opened: (1000, Some(1_001_000)),
        creator: CREATOR.into(),
        opening,
        activity,
        sales: Ok(()),
        holdings: &holdings,
        largest: &largest,
        partial: None,
    });
    let listed = |m: &[Member]| {
        m.iter()
            .map(|m| (m.address.clone(), m.how, m.held))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        listed(&launch.bundlers),
        vec![("Funded".into(), "funded", 200)]
    );
    assert_eq!(
        listed(&launch.insiders),
        vec![("Whale".into(), "funded", 90)]
    );
    assert_eq!(
        listed(&launch.snipers),
        vec![("Stranger".into(), "sniper", 10)]
    );
    assert_eq!(
        launch.sales.map(|s| (s.held, s.peak, s.sells.len())),
        Ok((20, 100, 1))
    );
}

#[test]
fn tokens_handed_before_a_pool_opens_make_insiders_but_a_pool_deposit_does_not() {
    let txs = [
        tx(900, "Mint", CREATOR, &[Move(CREATOR, 0, 1000)], &[]),
        tx(
            910,
            "Hand",
            CREATOR,
            &[Move(CREATOR, 1000, 700), Move("Insider", 0, 300)],
            &[],
        ),
        // the insider passes some on: still the cluster's.
        tx(
            920,
            "Pass",
            "Insider",
            &[Move("Insider", 300, 200), Move("Second", 0, 100)],
            &[],
        ),
        // a stranger's own transfer is not the cluster's.
        tx(
            930,
            "Other",
            "Stranger",
            &[Move("Stranger", 50, 0), Move("Third", 0, 50)],
            &[],
        ),
        // liquidity added: the pool is no insider.
        tx(
            950,
            "Add",
            CREATOR,
            &[Move(CREATOR, 700, 100), Move(CURVE, 0, 600)],
            &[],
        ),
    ];
    let opening = opened(MINT, 1000, None, CREATOR, &txs, &pools());
    let handed: Vec<(&str, &str)> = opening
        .handed
        .iter()
        .map(|h| (h.wallet.as_str(), h.via.as_str()))
        .collect();
    assert_eq!(handed, vec![("Insider", CREATOR), ("Second", "Insider")]);
    assert!(opening.buys.is_empty());
}

#[test]
fn the_create_is_found_by_what_it_did_not_by_where_the_node_lists_it() {
    // The node lists a sniper's buy of the same slot after the create.
    let txs = [
        tx(
            1000,
            "Snipe",
            "Stranger",
            &[Move(CURVE, 1000, 990), Move("Stranger", 0, 10)],
            &[],
        ),
        tx(1000, "Create", CREATOR, &[Move(CURVE, 0, 1000)], &[]),
    ];
    let create = create_of(&txs, MINT, 1000, &pools()).map(|t| t.transaction.signatures[0].clone());
    assert_eq!(create.as_deref(), Some("Create"));
    let opening = opened(MINT, 1000, create.as_deref(), CREATOR, &txs, &pools());
    assert_eq!(
        opening.buys.first().map(|b| b.by_cluster.clone()),
        Some(None)
    );
}

#[test]
fn a_vault_owned_by_a_shared_authority_is_no_buyer() {
    // An AMM's vault belongs to the program's authority, not to the pool.
    let pools = HashSet::from(["AuthorityAta".to_string()]);
    let txs = [tx(
        1000,
        "Add",
        CREATOR,
        &[Move(CREATOR, 100, 0), Move("Authority", 0, 100)],
        &[],
    )];
    let opening = opened(MINT, 1000, None, CREATOR, &txs, &pools);
    assert!(opening.buys.is_empty(), "{:?}", opening.buys);
    let sold = activity(MINT, CREATOR, 1000, 0, &txs, &pools);
    assert_eq!(sold.sells, vec![(1000, Some(1_001_000), 100)]);
}
