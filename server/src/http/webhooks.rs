//! `/v1/webhooks`: the account's webhook subscriptions, their secrets,
//! test events and delivery logs (Pro and Pro+, `webhooks:write`).

use dropshot::{
    EmptyScanParams, HttpResponseAccepted, HttpResponseCreated, HttpResponseDeleted,
    HttpResponseOk, PaginationParams, Path, Query, RequestContext, ResultsPage, TypedBody,
    WhichPage,
};
use riskintel_api::{
    ApiError, Metered, Webhook, WebhookCreate, WebhookDelivery, WebhookDeliveryPageSelector,
    WebhookDeliveryPath, WebhookPageSelector, WebhookPath, WebhookRecover, WebhookRecovery,
    WebhookSecret, WebhookTestEvent, WebhookUpdate,
};

use super::pages::{page_limit, page_of};
use super::{access, ServerContext};
use crate::webhooks::{delivery_view, view};
use riskintel_store::SubscriptionRow;

/// A subscription with the secret just issued for it.
fn secret_view(ctx: &ServerContext, (row, secret): (SubscriptionRow, String)) -> WebhookSecret {
    WebhookSecret {
        secret,
        webhook: view(&row, ctx.clock.now()),
    }
}

pub(super) async fn list(
    rqctx: RequestContext<ServerContext>,
    query: Query<PaginationParams<EmptyScanParams, WebhookPageSelector>>,
) -> Result<Metered<HttpResponseOk<ResultsPage<Webhook>>>, ApiError> {
    let ctx = rqctx.context();
    let query = query.into_inner();
    ctx.metered(&rqctx, &access::WEBHOOK_LIST, async |caller| {
        let limit = page_limit(&rqctx, &query)?;
        let after = match &query.page {
            WhichPage::First(_) => None,
            WhichPage::Next(selector) => Some((selector.created_at, selector.id.clone())),
        };
        let rows = ctx
            .webhooks
            .list(&caller.account.id, after, limit + 1)
            .await?;
        let now = ctx.clock.now();
        let items = rows.iter().map(|r| view(r, now)).collect();
        let page = page_of(items, limit, &EmptyScanParams {}, |w: &Webhook, _| {
            WebhookPageSelector {
                created_at: w.created_at,
                id: w.id.clone(),
            }
        })?;
        Ok(HttpResponseOk(page))
    })
    .await
}

pub(super) async fn create(
    rqctx: RequestContext<ServerContext>,
    body: TypedBody<WebhookCreate>,
) -> Result<Metered<HttpResponseCreated<WebhookSecret>>, ApiError> {
    let ctx = rqctx.context();
    let body = body.into_inner();
    ctx.metered(&rqctx, &access::WEBHOOK_CREATE, async |caller| {
        let issued = ctx.webhooks.create(&caller.account.id, body).await?;
        Ok(HttpResponseCreated(secret_view(ctx, issued)))
    })
    .await
}

pub(super) async fn get(
    rqctx: RequestContext<ServerContext>,
    path: Path<WebhookPath>,
) -> Result<Metered<HttpResponseOk<Webhook>>, ApiError> {
    let ctx = rqctx.context();
    let id = path.into_inner().webhook_id;
    ctx.metered(&rqctx, &access::WEBHOOK_GET, async |caller| {
        let row = ctx.webhooks.get(&caller.account.id, &id).await?;
        Ok(HttpResponseOk(view(&row, ctx.clock.now())))
    })
    .await
}

pub(super) async fn update(
    rqctx: RequestContext<ServerContext>,
    path: Path<WebhookPath>,
    body: TypedBody<WebhookUpdate>,
) -> Result<Metered<HttpResponseOk<Webhook>>, ApiError> {
    let ctx = rqctx.context();
    let id = path.into_inner().webhook_id;
    let change = body.into_inner();
    ctx.metered(&rqctx, &access::WEBHOOK_UPDATE, async |caller| {
        let row = ctx.webhooks.update(&caller.account.id, &id, change).await?;
        Ok(HttpResponseOk(view(&row, ctx.clock.now())))
    })
    .await
}

pub(super) async fn delete(
    rqctx: RequestContext<ServerContext>,
    path: Path<WebhookPath>,
) -> Result<Metered<HttpResponseDeleted>, ApiError> {
    let ctx = rqctx.context();
    let id = path.into_inner().webhook_id;
    ctx.metered(&rqctx, &access::WEBHOOK_DELETE, async |caller| {
        ctx.webhooks.delete(&caller.account.id, &id).await?;
        Ok(HttpResponseDeleted())
    })
    .await
}

pub(super) async fn rotate(
    rqctx: RequestContext<ServerContext>,
    path: Path<WebhookPath>,
) -> Result<Metered<HttpResponseOk<WebhookSecret>>, ApiError> {
    let ctx = rqctx.context();
    let id = path.into_inner().webhook_id;
    ctx.metered(&rqctx, &access::WEBHOOK_SECRET_ROTATE, async |caller| {
        let issued = ctx.webhooks.rotate(&caller.account.id, &id).await?;
        Ok(HttpResponseOk(secret_view(ctx, issued)))
    })
    .await
}

pub(super) async fn enable(
    rqctx: RequestContext<ServerContext>,
    path: Path<WebhookPath>,
) -> Result<Metered<HttpResponseOk<Webhook>>, ApiError> {
    let ctx = rqctx.context();
    let id = path.into_inner().webhook_id;
    ctx.metered(&rqctx, &access::WEBHOOK_ENABLE, async |caller| {
        let row = ctx.webhooks.enable(&caller.account.id, &id).await?;
        Ok(HttpResponseOk(view(&row, ctx.clock.now())))
    })
    .await
}

pub(super) async fn test_send(
    rqctx: RequestContext<ServerContext>,
    path: Path<WebhookPath>,
) -> Result<Metered<HttpResponseAccepted<WebhookTestEvent>>, ApiError> {
    let ctx = rqctx.context();
    let id = path.into_inner().webhook_id;
    ctx.metered(&rqctx, &access::WEBHOOK_TEST_SEND, async |caller| {
        let event_id = ctx.webhooks.ping(&caller.account.id, &id).await?;
        Ok(HttpResponseAccepted(WebhookTestEvent { event_id }))
    })
    .await
}

pub(super) async fn deliveries(
    rqctx: RequestContext<ServerContext>,
    path: Path<WebhookPath>,
    query: Query<PaginationParams<EmptyScanParams, WebhookDeliveryPageSelector>>,
) -> Result<Metered<HttpResponseOk<ResultsPage<WebhookDelivery>>>, ApiError> {
    let ctx = rqctx.context();
    let id = path.into_inner().webhook_id;
    let query = query.into_inner();
    ctx.metered(&rqctx, &access::WEBHOOK_DELIVERY_LIST, async |caller| {
        let limit = page_limit(&rqctx, &query)?;
        let before = match &query.page {
            WhichPage::First(_) => None,
            WhichPage::Next(s) => Some((s.created_at, s.event_id.clone())),
        };
        let rows = ctx
            .webhooks
            .deliveries(&caller.account.id, &id, before, limit + 1)
            .await?;
        let items = rows.iter().map(delivery_view).collect();
        let page = page_of(
            items,
            limit,
            &EmptyScanParams {},
            |d: &WebhookDelivery, _| WebhookDeliveryPageSelector {
                created_at: d.created_at,
                event_id: d.event_id.clone(),
            },
        )?;
        Ok(HttpResponseOk(page))
    })
    .await
}

pub(super) async fn redeliver(
    rqctx: RequestContext<ServerContext>,
    path: Path<WebhookDeliveryPath>,
) -> Result<Metered<HttpResponseAccepted<WebhookDelivery>>, ApiError> {
    let ctx = rqctx.context();
    let path = path.into_inner();
    ctx.metered(&rqctx, &access::WEBHOOK_REDELIVER, async |caller| {
        let event = ctx
            .webhooks
            .redeliver(&caller.account.id, &path.webhook_id, &path.event_id)
            .await?;
        Ok(HttpResponseAccepted(delivery_view(&event)))
    })
    .await
}

pub(super) async fn recover(
    rqctx: RequestContext<ServerContext>,
    path: Path<WebhookPath>,
    body: TypedBody<WebhookRecover>,
) -> Result<Metered<HttpResponseAccepted<WebhookRecovery>>, ApiError> {
    let ctx = rqctx.context();
    let id = path.into_inner().webhook_id;
    let since = body.into_inner().since;
    ctx.metered(&rqctx, &access::WEBHOOK_RECOVER, async |caller| {
        let queued = ctx.webhooks.recover(&caller.account.id, &id, since).await?;
        Ok(HttpResponseAccepted(WebhookRecovery { queued }))
    })
    .await
}
