//! Disputed verdicts, through the generated client and the operator's
//! command line: a report's life (made, refused twice over, listed in
//! pages, answered, followed, told by webhook), and bad reports refused
//! with the envelope. The operator's overrides are in `overrides.rs`.

use anyhow::{ensure, Context as _};
use riskintel_api::Plan;
use riskintel_client::types::{self, ErrorCode};
use riskintel_server::clock::Clock;
use riskintel_server::config::Config;
use riskintel_tests::receiver::Receiver;
use riskintel_tests::rig::{self, random_address};
use riskintel_tests::{arg, err, header, ok, Backend, TestServer};

use super::webhooks::{received, subscription};

/// The rig's chains, webhooks to 127.0.0.1 looked for every 20 ms.
pub(crate) fn disputes_config() -> anyhow::Result<Config> {
    let rig = rig::shared()?;
    let mut config = super::webhooks::config();
    config.chains = rig::chains_config(&[("eth", &rig.a), ("bsc", &rig.b)]);
    Ok(config)
}

/// `client`'s report of `token` on `eth`.
async fn report_eth(
    client: &riskintel_client::Client,
    token: &str,
    kind: types::ReportKind,
    reason: &str,
) -> Result<riskintel_client::ResponseValue<types::Report>, riskintel_client::Error<types::ApiError>>
{
    client
        .report_create(arg("eth"), &arg(token), &report(kind, reason))
        .await
}

fn report(kind: types::ReportKind, reason: &str) -> types::ReportCreate {
    types::ReportCreate {
        kind,
        reason: arg(reason),
        contact: None,
    }
}

conformance!(reports_are_made_answered_and_followed);
pub async fn reports_are_made_answered_and_followed(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_with(backend, disputes_config()?).await?;
    let rig = rig::shared()?;
    let token = rig.a.tokens["plain"].to_checksum(None);
    let free = server.account("free reporter", Plan::Free).await?;
    let client = server.client(&free.key.key);
    let path = format!("/v1/token/eth/{token}/reports");

    // Nothing to report before the token has a verdict.
    let unknown = err(
        report_eth(&client, &token, types::ReportKind::FalsePositive, "fine").await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    ensure!(
        unknown.error.message.contains("analyse it first"),
        "{:?}",
        unknown.error
    );
    let analysis = ok(client.token_analyze(arg("eth"), &arg(&token), None).await)?.into_inner();

    // Bad input gets the envelope: an empty or too long reason, NUL, an
    // unknown kind, a malformed address, a token of no verdict.
    let key = &free.key.key;
    for (body, status, code) in [
        (
            serde_json::json!({"kind": "other", "reason": ""}),
            422,
            ErrorCode::ValidationError,
        ),
        (
            serde_json::json!({"kind": "other", "reason": "x".repeat(2001)}),
            422,
            ErrorCode::ValidationError,
        ),
        (
            serde_json::json!({"kind": "other", "reason": "a\u{0}b"}),
            422,
            ErrorCode::ValidationError,
        ),
        (
            serde_json::json!({"kind": "other", "reason": "ok", "contact": "y".repeat(321)}),
            422,
            ErrorCode::ValidationError,
        ),
    ] {
        server.raw_err(key, &path, Some(body), status, code).await?;
    }
    // A body that is no report is refused before the handler (and its
    // metering) runs: 400 in the envelope.
    for body in [
        serde_json::json!({"kind": "wrong_label", "reason": "ok"}),
        serde_json::json!({"reason": "ok"}),
    ] {
        let answer = server.raw(key, &path, Some(body)).await?;
        ensure!(answer.status() == 400, "{}", answer.status());
        let error: types::ApiError = answer.json().await?;
        ensure!(error.error.code == ErrorCode::BadRequest && !error.error.message.is_empty());
    }
    server
        .raw_err(
            key,
            "/v1/token/eth/0x1234/reports",
            Some(serde_json::json!({"kind": "other", "reason": "ok"})),
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    let nobody = random_address().to_checksum(None);
    server
        .raw_err(
            key,
            &format!("/v1/token/eth/{nobody}/reports"),
            Some(serde_json::json!({"kind": "other", "reason": "ok"})),
            404,
            ErrorCode::NotFound,
        )
        .await?;

    // 2,000 characters (not bytes), markup and all, are kept as given.
    let reason = format!("<script>alert(1)</script> {}", "é".repeat(1974));
    ensure!(reason.chars().count() == 2000);
    let made = ok(client
        .report_create(
            arg("eth"),
            &arg(&token),
            &types::ReportCreate {
                kind: types::ReportKind::FalsePositive,
                reason: arg(&reason),
                contact: Some(arg("ops@example.org")),
            },
        )
        .await)?;
    ensure!(made.status().as_u16() == 201, "{}", made.status());
    let made = made.into_inner();
    ensure!(
        made.id.starts_with("rep_") && made.id.len() == 16,
        "{}",
        made.id
    );
    ensure!(made.status == types::ReportStatus::Open && made.answer.is_none());
    ensure!(made.reason == reason && made.contact.as_deref() == Some("ops@example.org"));
    ensure!(made.address == token && made.chain == "eth");
    ensure!(made.score == analysis.score && made.label == analysis.label);

    // One open report per token.
    let again = err(
        report_eth(&client, &token, types::ReportKind::Other, "again").await,
        409,
        ErrorCode::Conflict,
        true,
    )?;
    ensure!(
        again.error.message.contains("open report"),
        "{:?}",
        again.error
    );

    // A webhook of a paying account hears of the answer; the free account
    // has none, so the reporter here is a Pro account.
    let pro = server.account("pro reporter", Plan::Pro).await?;
    let pro_client = server.client(&pro.key.key);
    let receiver = Receiver::start(&[], 204).await?;
    let mut hook = subscription(&receiver.url);
    // Its filters choose alerts; an answer reaches it whatever they are.
    hook.kinds = Some(vec![types::AlertKind::HoneypotDetected]);
    let hook = ok(pro_client.webhook_create(&hook).await)?.into_inner();
    let pro_report = ok(report_eth(
        &pro_client,
        &token,
        types::ReportKind::FalseNegative,
        "it rugged my friend",
    )
    .await)?
    .into_inner();

    // An id of no report's form, or a page token edited to hold a NUL,
    // never reaches the database.
    for id in ["rep_%00", "%00", "rep_ZZZZZZZZZZZZ"] {
        let path = format!("/v1/reports/{id}");
        (server.raw_err(&pro.key.key, &path, None, 404, ErrorCode::NotFound)).await?;
    }
    let edited = serde_json::json!({"v": "v1", "page_start": {
        "filter": {}, "created_at": "2026-11-21T12:00:10Z", "id": "rep_\u{0}"
    }});
    let edited = {
        use base64::Engine as _;
        base64::engine::general_purpose::URL_SAFE.encode(edited.to_string())
    };
    let path = format!("/v1/reports?page_token={edited}");
    (server.raw_err(&pro.key.key, &path, None, 400, ErrorCode::BadRequest)).await?;

    // Another account sees neither the report nor it in its list.
    err(
        pro_client.report_get(&arg(&made.id)).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    let theirs = ok(pro_client.report_list(None, None, None).await)?.into_inner();
    ensure!(theirs.items.len() == 1 && theirs.items[0].id == pro_report.id);

    // The operator answers from the command line; the reporter sees it.
    server
        .operator(&[
            "reports",
            "answer",
            "--id",
            &pro_report.id,
            "--accept",
            "--message",
            "Relabelled: thanks.",
        ])
        .await?;
    let followed = ok(pro_client.report_get(&arg(&pro_report.id)).await)?.into_inner();
    ensure!(followed.status == types::ReportStatus::Accepted);
    ensure!(followed.answer.as_deref() == Some("Relabelled: thanks."));
    ensure!(followed.answered_at == Some(server.clock.now_seconds()));
    let answered_twice = server
        .operator(&[
            "reports",
            "answer",
            "--id",
            &pro_report.id,
            "--reject",
            "--message",
            "no",
        ])
        .await;
    ensure!(
        format!(
            "{:#}",
            answered_twice.as_ref().err().context("a second answer")?
        )
        .contains("answered already"),
        "{answered_twice:?}"
    );
    let delivered = received(&receiver, 1).await?;
    let event = delivered[0].json();
    ensure!(
        event["type"] == "report_answered" && event["webhook_id"] == hook.webhook.id.as_str(),
        "{event}"
    );
    ensure!(
        event["report"]["id"] == pro_report.id.as_str() && event["report"]["status"] == "accepted",
        "{event}"
    );
    ensure!(event["data"].is_null(), "{event}");
    ensure!(delivered[0]
        .header("riskintel-event-id")
        .starts_with("evt_report_"));
    let log = super::webhooks::deliveries(&pro_client, &hook.webhook.id).await?;
    ensure!(log
        .iter()
        .any(|d| d.event_type == types::WebhookEventType::ReportAnswered));

    // Answered, a token may be reported again: 50 reports in 24 hours,
    // then 429 with the time to wait, and again once the day has passed.
    let reject = async |id: &str| {
        let answer = [
            "reports",
            "answer",
            "--id",
            id,
            "--reject",
            "--message",
            "no",
        ];
        server.operator(&answer).await
    };
    let mut open = made.id.clone();
    for n in 1..50 {
        reject(&open).await?;
        open = ok(report_eth(
            &client,
            &token,
            types::ReportKind::Other,
            &format!("report {n}"),
        )
        .await)?
        .into_inner()
        .id;
        server.clock.advance(chrono::Duration::seconds(60));
    }
    reject(&open).await?;
    let limited = report_eth(&client, &token, types::ReportKind::Other, "one too many").await;
    let limited = err(limited, 429, ErrorCode::RateLimited, true)?;
    let wait: i64 = header(limited.headers(), "retry-after")?.parse()?;
    // The first of the 50 was made 49 minutes ago.
    ensure!(wait == 24 * 3600 - 49 * 60, "Retry-After {wait}");
    server.clock.advance(chrono::Duration::seconds(wait));
    ok(report_eth(&client, &token, types::ReportKind::Other, "a new day").await)?;

    // Pages, newest first, each carrying its filter.
    let open: Vec<types::Report> = client
        .report_list_stream(
            std::num::NonZeroU32::new(7),
            Some(types::ReportStatus::Open),
        )
        .try_collect_all()
        .await?;
    ensure!(open.len() == 1 && open[0].reason == "a new day", "{open:?}");
    let all: Vec<types::Report> = client
        .report_list_stream(std::num::NonZeroU32::new(7), None)
        .try_collect_all()
        .await?;
    ensure!(all.len() == 51, "{}", all.len());
    ensure!(all
        .windows(2)
        .all(|w| (w[0].created_at, &w[0].id) >= (w[1].created_at, &w[1].id)));
    ensure!(all.last().map(|r| r.created_at) == Some(made.created_at));
    let rejected = all
        .iter()
        .filter(|r| r.status == types::ReportStatus::Rejected)
        .count();
    ensure!(rejected == 50, "{rejected}");
    Ok(())
}

/// Collect every item of a page stream.
pub(crate) trait CollectAll<T> {
    async fn try_collect_all(self) -> anyhow::Result<Vec<T>>;
}

impl<T, S> CollectAll<T> for S
where
    S: futures::Stream<Item = Result<T, riskintel_client::Error<types::ApiError>>> + Send,
{
    async fn try_collect_all(self) -> anyhow::Result<Vec<T>> {
        use futures::TryStreamExt as _;
        self.try_collect()
            .await
            .map_err(|e| anyhow::anyhow!(riskintel_tests::describe(&e)))
    }
}
