//! Address screening as stored: a list replaced whole with its alerts, the
//! analyses and liquidity-removed alerts read in order, and the drainer
//! pattern found across the holder and wallet indexes.

use riskintel_api::{AlertKind, ChainId, Severity};
use riskintel_server::store::{
    AlertRow, ContactKind, HolderBalance, LogIndexState, ScreeningEntryRow, ScreeningListRow,
    WalletContact,
};
use riskintel_tests::Backend;

use super::{close, open, t};

fn entry(address: &str, entry_id: &str) -> ScreeningEntryRow {
    ScreeningEntryRow {
        address: address.into(),
        listed_for: "ETH".into(),
        entry_id: entry_id.into(),
        name: format!("entry {entry_id}"),
        listed_at: t(0, 0),
    }
}

fn list(version: &str, entries: i64, minute: u32) -> ScreeningListRow {
    ScreeningListRow {
        name: "ofac_sdn".into(),
        source: "https://example.invalid/SDN.XML".into(),
        version: version.into(),
        published: Some("11/20/2026".into()),
        entries,
        loaded_at: t(minute, 0),
        checked_at: t(minute, 0),
    }
}

fn alert(key: &str) -> AlertRow {
    AlertRow {
        id: 0,
        event_key: key.into(),
        chain: ChainId::Eth,
        token: "ofac_sdn".into(),
        kind: AlertKind::SanctionsListUpdated,
        severity: Severity::High,
        severity_rank: Severity::High.rank(),
        title: "Sanctions list ofac_sdn updated".into(),
        detail: "1 added, 1 removed".into(),
        score_before: None,
        label_before: None,
        score_after: None,
        label_after: None,
        block: 0,
        observed_at: t(1, 0),
    }
}

pub(super) async fn screening_lists_are_replaced_whole(backend: Backend) {
    let (store, database) = open(backend).await;
    // 1,200 entries: more than one INSERT statement.
    let many: Vec<_> = (0..1_200)
        .map(|i| entry(&format!("0x{i:040x}"), &i.to_string()))
        .collect();
    store
        .screening_replace(&list("v1", 1_200, 0), &many, &[])
        .await
        .unwrap();
    assert_eq!(
        store.screening_entries("ofac_sdn").await.unwrap().len(),
        1_200
    );
    let next = vec![entry("0xabc", "9")];
    store
        .screening_replace(
            &list("v2", 1, 1),
            &next,
            &[alert("sanctions:ofac_sdn:v2:eth")],
        )
        .await
        .unwrap();
    assert_eq!(store.screening_entries("ofac_sdn").await.unwrap(), next);
    let lists = store.screening_lists().await.unwrap();
    assert_eq!(lists, vec![list("v2", 1, 1)]);
    store.screening_checked("ofac_sdn", t(2, 0)).await.unwrap();
    assert_eq!(
        store.screening_lists().await.unwrap()[0].checked_at,
        t(2, 0)
    );
    // Its alert was recorded with it: the same event is not recorded twice.
    let again = store
        .alert_insert(&alert("sanctions:ofac_sdn:v2:eth"))
        .await;
    assert_eq!(again.unwrap(), None);
    assert!(store
        .liquidity_removed_after(0, 10)
        .await
        .unwrap()
        .is_empty());
    close(store, database).await;
}

pub(super) async fn the_record_of_addresses_reads_in_order(backend: Backend) {
    let (store, database) = open(backend).await;
    for (minute, token) in [(3, "0xB"), (1, "0xA"), (3, "0xC")] {
        store
            .analysis_put(ChainId::Eth, token, "{}", t(minute, 0))
            .await
            .unwrap();
    }
    let first = store.analyses_after(None, 2).await.unwrap();
    let names: Vec<&str> = first.iter().map(|a| a.address.as_str()).collect();
    assert_eq!(names, ["0xA", "0xB"]);
    let last = first.last().unwrap();
    let rest = store
        .analyses_after(
            Some((last.analysed_at, last.chain, last.address.clone())),
            2,
        )
        .await
        .unwrap();
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].address, "0xC");

    // A drainer: three wallets approved 0xd for a token, and the index saw
    // 0xd's first tokens of each come from one of them; 0xe got tokens from
    // a wallet that never approved it.
    let state = LogIndexState {
        start_block: 0,
        next_block: 10,
        first_block: Some(1),
        first_party: None,
    };
    for (n, (token, victim)) in [("0xt1", "0xv1"), ("0xt2", "0xv2"), ("0xt3", "0xv3")]
        .into_iter()
        .enumerate()
    {
        let received = |holder: &str, from: &str| HolderBalance {
            holder: holder.into(),
            balance: "5".into(),
            sort_key: 5.0,
            first_from: Some(from.into()),
            first_block: Some(n as i64 + 1),
        };
        let balances = [received("0xd", victim), received("0xe", "0xnobody")];
        assert!(store
            .holder_index_apply(ChainId::Eth, token, None, &state, &balances, &[])
            .await
            .unwrap());
        let approval = WalletContact {
            kind: ContactKind::Approval,
            token: token.into(),
            spender: "0xd".into(),
        };
        assert!(store
            .wallet_index_apply(ChainId::Eth, victim, None, &state, &[approval])
            .await
            .unwrap());
    }
    let found = store.spent_approvals(3).await.unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].spender.as_str(), found[0].wallets, found[0].tokens),
        ("0xd", 3, 3)
    );
    assert!(store.spent_approvals(4).await.unwrap().is_empty());
    assert_eq!(
        store.holder_first_seen(ChainId::Eth, "0xd").await.unwrap(),
        Some(1)
    );
    assert_eq!(
        store
            .holder_first_seen(ChainId::Eth, "0xnone")
            .await
            .unwrap(),
        None
    );
    close(store, database).await;
}
