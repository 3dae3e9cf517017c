//! Reports and overrides as stored: one open report per account and token,
//! a daily limit counted in the same transaction, an answer given once
//! (with its events, or neither); an override per token, whose change and
//! end are recorded with their alert, the end once.

use riskintel_api::{AlertKind, ChainId, ReportKind, ReportStatus, RiskLabel};
use riskintel_server::store::{AlertQuery, OverrideRow, ReportRefusal, ReportRow};
use riskintel_tests::Backend;

use super::{account, alert, close, open, t};

fn report(id: &str, account_id: &str, token: &str, minute: u32) -> ReportRow {
    ReportRow {
        id: format!("rep_{id:0>12}"),
        account_id: account_id.into(),
        chain: ChainId::Eth,
        token: token.into(),
        kind: ReportKind::FalsePositive,
        reason: "a reason\u{2028}<b>kept</b>".into(),
        contact: None,
        score: 61.5,
        label: RiskLabel::Risky,
        status: ReportStatus::Open,
        answer: None,
        answered_at: None,
        created_at: t(minute, 0),
    }
}

pub(super) async fn reports_are_one_open_per_token_and_limited(backend: Backend) {
    let (store, db) = open(backend).await;
    for id in ["acct_a", "acct_b"] {
        store.account_insert(&account(id)).await.unwrap();
    }
    let window = t(0, 0);
    let first = report("1", "acct_a", "0xT1", 1);
    assert_eq!(
        store.report_insert(&first, window, 3).await.unwrap(),
        Ok(())
    );
    let twin = report("2", "acct_a", "0xT1", 2);
    assert_eq!(
        store.report_insert(&twin, window, 3).await.unwrap(),
        Err(ReportRefusal::Duplicate)
    );
    // Another account, another token: their own.
    assert_eq!(
        store
            .report_insert(&report("3", "acct_b", "0xT1", 2), window, 3)
            .await
            .unwrap(),
        Ok(())
    );
    assert_eq!(
        store
            .report_insert(&report("4", "acct_a", "0xT2", 3), window, 3)
            .await
            .unwrap(),
        Ok(())
    );

    // Answered once, with nothing queued for an account without subscriptions.
    let answered = ReportRow {
        status: ReportStatus::Rejected,
        answer: Some("no".into()),
        answered_at: Some(t(4, 0)),
        ..first.clone()
    };
    assert!(store.report_answer(&answered, &[]).await.unwrap());
    assert!(!store.report_answer(&answered, &[]).await.unwrap());
    assert_eq!(
        store.report(Some("acct_a"), &first.id).await.unwrap(),
        Some(answered.clone())
    );
    assert_eq!(store.report(Some("acct_b"), &first.id).await.unwrap(), None);

    // Answered, the token may be reported again; a third in the window is the limit.
    assert_eq!(store.report_insert(&twin, window, 3).await.unwrap(), Ok(()));
    assert_eq!(
        store
            .report_insert(&report("5", "acct_a", "0xT3", 5), window, 3)
            .await
            .unwrap(),
        Err(ReportRefusal::Limited(t(1, 0)))
    );
    // Past the first's time, the window has room.
    assert_eq!(
        store
            .report_insert(&report("5", "acct_a", "0xT3", 5), t(1, 0), 3)
            .await
            .unwrap(),
        Ok(())
    );

    // Concurrent reports of one account stop at the limit exactly.
    let many: Vec<ReportRow> = (0..30)
        .map(|n| report(&format!("c{n}"), "acct_b", &format!("0xC{n}"), 6))
        .collect();
    let made = futures::future::join_all(many.iter().map(|r| store.report_insert(r, window, 20)))
        .await
        .into_iter()
        .filter(|outcome| outcome.as_ref().is_ok_and(|o| o.is_ok()))
        .count();
    // acct_b had made one already.
    assert_eq!(made, 19);

    // Newest first, by status, in pages.
    let ids = |rows: Vec<ReportRow>| rows.into_iter().map(|r| r.id).collect::<Vec<_>>();
    let mine = store.reports(Some("acct_a"), None, None, 10).await.unwrap();
    assert_eq!(
        ids(mine.clone()),
        [
            "rep_000000000005",
            "rep_000000000004",
            "rep_000000000002",
            "rep_000000000001"
        ]
    );
    let after = mine.get(1).map(|r| (r.created_at, r.id.clone()));
    assert_eq!(
        ids(store
            .reports(Some("acct_a"), None, after, 10)
            .await
            .unwrap()),
        ["rep_000000000002", "rep_000000000001"]
    );
    let open_ones = store
        .reports(Some("acct_a"), Some(ReportStatus::Open), None, 10)
        .await
        .unwrap();
    assert_eq!(open_ones.len(), 3);
    let mut counts = store.report_counts().await.unwrap();
    counts.sort_by_key(|(_, s, _)| *s as u8);
    assert_eq!(
        counts,
        [
            (ReportKind::FalsePositive, ReportStatus::Open, 23),
            (ReportKind::FalsePositive, ReportStatus::Rejected, 1)
        ]
    );
    close(store, db).await;
}

fn override_row(label: RiskLabel, minute: u32) -> OverrideRow {
    OverrideRow {
        chain: ChainId::Eth,
        token: "0xToken".into(),
        label,
        reason: "why".into(),
        set_by: "ops".into(),
        set_at: t(minute, 0),
        expires_at: Some(t(minute + 10, 0)),
    }
}

pub(super) async fn overrides_change_with_their_alerts_and_end_once(backend: Backend) {
    let (store, db) = open(backend).await;
    let count = async || {
        let query = AlertQuery {
            kind: Some(AlertKind::OverrideChanged),
            limit: 10,
            ..Default::default()
        };
        store.alerts(&query).await.unwrap().len()
    };
    let first = override_row(RiskLabel::Safe, 1);
    store
        .override_set(&first, &alert("set@1", "eth", "override_changed", 0, 1))
        .await
        .unwrap();
    let second = override_row(RiskLabel::Critical, 2);
    store
        .override_set(&second, &alert("set@2", "eth", "override_changed", 4, 2))
        .await
        .unwrap();
    assert_eq!(store.overrides().await.unwrap(), [second.clone()]);
    assert_eq!(
        store.override_get(ChainId::Eth, "0xToken").await.unwrap(),
        Some(second.clone())
    );
    assert!(second.in_force(t(11, 59)) && !second.in_force(t(12, 0)));
    assert_eq!(count().await, 2);

    // The end of the override replaced does nothing (not even its alert),
    // and neither does a second end.
    let delete = async |set_at, key: &str| {
        let end = alert(key, "eth", "override_changed", 0, 12);
        store
            .override_delete(ChainId::Eth, "0xToken", set_at, &end)
            .await
            .unwrap()
    };
    assert!(!delete(first.set_at, "ended@1").await);
    assert_eq!(count().await, 2);
    assert!(delete(second.set_at, "ended@2").await);
    assert!(!delete(second.set_at, "ended@2 again").await);
    assert_eq!(count().await, 3);
    assert!(store.overrides().await.unwrap().is_empty());
    close(store, db).await;
}
