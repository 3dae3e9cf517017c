//! `/v1/keys`: the account's API keys, their rotation and revocation.

use dropshot::{
    EmptyScanParams, HttpResponseCreated, HttpResponseDeleted, HttpResponseOk, PaginationParams,
    Path, Query, RequestContext, ResultsPage, TypedBody, WhichPage,
};
use riskintel_api::{
    ApiError, ApiKey, ApiKeyCreate, ApiKeyPageSelector, ApiKeyPath, ApiKeySecret, Metered,
};
use riskintel_store::KeyRecord;

use super::pages::{page_limit, page_of};
use super::{access, ServerContext};

/// The record of a key as the API shows it.
fn api_key_view(record: &KeyRecord, now: chrono::DateTime<chrono::Utc>) -> ApiKey {
    ApiKey {
        id: record.id.clone(),
        name: record.name.clone(),
        display: crate::keys::display_key(&record.id),
        scopes: record.scopes.clone(),
        created_at: record.created_at,
        expires_at: record.expires_at,
        last_used_at: record.last_used_at,
        rotated_at: record.rotated_at,
        previous_valid_until: record.previous_valid_until.filter(|until| *until > now),
    }
}

pub(super) async fn list(
    rqctx: RequestContext<ServerContext>,
    query: Query<PaginationParams<EmptyScanParams, ApiKeyPageSelector>>,
) -> Result<Metered<HttpResponseOk<ResultsPage<ApiKey>>>, ApiError> {
    let ctx = rqctx.context();
    let query = query.into_inner();
    ctx.metered(&rqctx, &access::API_KEY_LIST, async |caller| {
        let limit = page_limit(&rqctx, &query)?;
        let after = match &query.page {
            WhichPage::First(_) => None,
            WhichPage::Next(selector) => Some((selector.created_at, selector.id.clone())),
        };
        let records = ctx.keys.list(&caller.account.id, after, limit + 1).await?;
        let now = ctx.clock.now();
        let items = records.iter().map(|r| api_key_view(r, now)).collect();
        let page = page_of(items, limit, &EmptyScanParams {}, |key: &ApiKey, _| {
            ApiKeyPageSelector {
                created_at: key.created_at,
                id: key.id.clone(),
            }
        })?;
        Ok(HttpResponseOk(page))
    })
    .await
}

pub(super) async fn create(
    rqctx: RequestContext<ServerContext>,
    body: TypedBody<ApiKeyCreate>,
) -> Result<Metered<HttpResponseCreated<ApiKeySecret>>, ApiError> {
    let ctx = rqctx.context();
    let body = body.into_inner();
    ctx.metered(&rqctx, &access::API_KEY_CREATE, async |caller| {
        let issued = ctx
            .keys
            .create(
                &caller.account,
                &body.name,
                body.scopes,
                body.expires_at,
                Some(&caller.key),
            )
            .await?;
        let api_key = api_key_view(&issued.record, ctx.clock.now());
        Ok(HttpResponseCreated(ApiKeySecret {
            key: issued.key,
            api_key,
        }))
    })
    .await
}

pub(super) async fn get(
    rqctx: RequestContext<ServerContext>,
    path: Path<ApiKeyPath>,
) -> Result<Metered<HttpResponseOk<ApiKey>>, ApiError> {
    let ctx = rqctx.context();
    let key_id = path.into_inner().key_id;
    ctx.metered(&rqctx, &access::API_KEY_GET, async |caller| {
        let record = ctx.keys.get(&caller.account.id, &key_id).await?;
        Ok(HttpResponseOk(api_key_view(&record, ctx.clock.now())))
    })
    .await
}

pub(super) async fn delete(
    rqctx: RequestContext<ServerContext>,
    path: Path<ApiKeyPath>,
) -> Result<Metered<HttpResponseDeleted>, ApiError> {
    let ctx = rqctx.context();
    let key_id = path.into_inner().key_id;
    ctx.metered(&rqctx, &access::API_KEY_DELETE, async |caller| {
        ctx.keys
            .revoke_by(&caller.account.id, &key_id, &caller.key.id)
            .await?;
        Ok(HttpResponseDeleted())
    })
    .await
}

pub(super) async fn rotate(
    rqctx: RequestContext<ServerContext>,
    path: Path<ApiKeyPath>,
) -> Result<Metered<HttpResponseOk<ApiKeySecret>>, ApiError> {
    let ctx = rqctx.context();
    let key_id = path.into_inner().key_id;
    ctx.metered(&rqctx, &access::API_KEY_ROTATE, async |caller| {
        let issued = ctx.keys.rotate(&caller.account.id, &key_id).await?;
        let api_key = api_key_view(&issued.record, ctx.clock.now());
        Ok(HttpResponseOk(ApiKeySecret {
            key: issued.key,
            api_key,
        }))
    })
    .await
}
