//! The ledger's arithmetic and the paths, on made-up probe results.
use super::*;

fn e18(n: u64) -> U256 {
    U256::from(n) * U256::from(10u64).pow(U256::from(18u64))
}

fn ledger(token_gains: &[u64], value_gains: &[u64]) -> Ledger {
    Ledger {
        readsOk: true,
        tokenGains: token_gains.iter().map(|g| e18(*g)).collect(),
        valueGains: value_gains.iter().map(|g| e18(*g)).collect(),
        ..Default::default()
    }
}

/// A buy of 1,000 tokens quoted for 10 ETH, all of it sold back for 10.
fn trade() -> Outcome {
    Outcome {
        amountIn: e18(10),
        buyOk: true,
        expectedBuy: e18(1_000),
        sellOk: true,
        sellAmount: e18(1_000),
        expectedSell: e18(10),
        ..Default::default()
    }
}

#[test]
fn the_fee_share_counts_chosen_wallets_in_tokens_and_currency() {
    let (owner, contract) = (Address::repeat_byte(1), Address::repeat_byte(2));
    let chosen = [Some(owner), None];
    // 4% of 2,000 tokens traded to the owner, 80 to a contract (not chosen).
    let (share, to) = fee_share(&trade(), &ledger(&[80, 80], &[0, 0]), &chosen);
    assert!((share - 0.04).abs() < 1e-9, "{share}");
    assert_eq!(to, vec![owner]);
    // A swap-back: 1 ETH of the 20 paid and received, to the owner.
    let (share, _) = fee_share(&trade(), &ledger(&[0, 0], &[1, 5]), &chosen);
    assert!((share - 0.05).abs() < 1e-9, "{share}");
    let _ = contract;
    // A buy that failed shows nothing.
    let failed = Outcome {
        buyOk: false,
        ..trade()
    };
    assert_eq!(fee_share(&failed, &ledger(&[80], &[0]), &chosen).0, 0.0);
}

#[test]
fn the_fee_path_is_weighed_by_its_share() {
    assert_eq!(fee_degree(0.04), (Severity::Low, 0.05));
    assert_eq!(fee_degree(0.10), (Severity::Low, 0.05));
    assert_eq!(fee_degree(0.12), (Severity::Medium, 0.15));
    assert_eq!(fee_degree(0.49), (Severity::High, 0.35));
}

#[test]
fn tokens_from_nothing_need_more_than_rounding() {
    let supply = e18(1_000_000);
    let credited = |wei: U256| Ledger {
        readsOk: true,
        unaccounted: I256::try_from(wei).unwrap(),
        ..Default::default()
    };
    assert_eq!(from_nothing(&credited(e18(40)), supply), Some(e18(40)));
    // A millionth of the supply is rounding (reflection dust).
    assert_eq!(from_nothing(&credited(e18(1)), supply), None);
    let unread = Ledger {
        readsOk: false,
        ..credited(e18(40))
    };
    assert_eq!(from_nothing(&unread, supply), None);
}

fn probed(before: Snapshot) -> Probed {
    Probed {
        role: Address::repeat_byte(1),
        watch: Vec::new(),
        before,
        role_trade: Outcome::default(),
        baseline: Effect::default(),
        effects: Vec::new(),
        follow_ups: Vec::new(),
    }
}

fn role() -> Role {
    Role {
        address: Address::repeat_byte(1),
        names: vec!["owner"],
        control: Control::Eoa,
    }
}

fn candidate() -> Candidate {
    Candidate {
        selector: [0; 4],
        function: "rescue(address,uint256)".into(),
        data: Default::default(),
        names_pair: false,
        follow_up: false,
    }
}

#[test]
fn a_call_is_judged_by_where_the_contracts_and_the_pools_value_went() {
    let before = Snapshot {
        supply: e18(1_000_000),
        victim: e18(1_000),
        pair: e18(400_000),
        readsOk: true,
        ..Default::default()
    };
    let p = probed(before.clone());
    let (role, candidate) = (role(), candidate());
    let chosen = [Some(role.address)];
    // What the call took, judged from its ledger and the state after it.
    let judge = |call: Ledger, after: Snapshot| {
        let e = Effect {
            ok: true,
            call,
            after_: after,
            ..Default::default()
        };
        by_call(&p, &role, &candidate, &e, &chosen)
    };
    // The contract's 500 tokens to the owner: the contract's balance, high.
    let rescue = Ledger {
        contractLoss: e18(500),
        ..ledger(&[500], &[0])
    };
    let t = judge(rescue, before.clone()).unwrap();
    assert_eq!(
        (t.path, t.amount, t.degree),
        (Path::Contract, e18(500), (Severity::High, 0.35))
    );
    // The same tokens swapped and paid out in ether: the fee path, low.
    let swapped = Ledger {
        contractLoss: e18(500),
        ..ledger(&[0], &[2])
    };
    let t = judge(swapped, before.clone()).unwrap();
    assert_eq!((t.path, t.degree), (Path::Fees, (Severity::Low, 0.05)));
    // The pool's balance set to almost nothing, holders untouched: critical.
    let drained = Snapshot {
        pair: U256::from(1u64),
        ..before.clone()
    };
    let t = judge(ledger(&[0], &[0]), drained).unwrap();
    assert_eq!((t.path, t.degree.0), (Path::Pool, Severity::Critical));
    // Nothing moved: nothing taken.
    assert!(judge(ledger(&[0], &[0]), before).is_none());
}
