//! `/v1/token/{chain}/{address}/reports` and `/v1/reports`: the account's
//! reports of verdicts it believes wrong, and the operator's answers
//! (any plan, `token:read`).

use dropshot::{
    HttpResponseCreated, HttpResponseOk, PaginationParams, Path, Query, RequestContext,
    ResultsPage, TypedBody, WhichPage,
};
use riskintel_api::{
    ApiError, Metered, Report, ReportCreate, ReportFilter, ReportPageSelector, ReportPath, TokenAt,
};

use super::errors::Wire;
use super::pages::{page_limit, page_of};
use super::{access, chain_id, ServerContext};
use crate::disputes::view;

pub(super) async fn create(
    rqctx: RequestContext<ServerContext>,
    path: TokenAt,
    body: TypedBody<ReportCreate>,
) -> Result<Metered<HttpResponseCreated<Report>>, ApiError> {
    let ctx = rqctx.context();
    let path = path.into_inner();
    let body = body.into_inner();
    ctx.metered(&rqctx, &access::REPORT_CREATE, async |caller| {
        let target = ctx
            .analyzer
            .target(chain_id(&path.chain)?, &path.address)
            .map_err(Wire::wire)?;
        let row = ctx
            .reports
            .create(&ctx.analyzer, &caller.account.id, target, body)
            .await?;
        Ok(HttpResponseCreated(view(&row)))
    })
    .await
}

pub(super) async fn list(
    rqctx: RequestContext<ServerContext>,
    query: Query<PaginationParams<ReportFilter, ReportPageSelector>>,
) -> Result<Metered<HttpResponseOk<ResultsPage<Report>>>, ApiError> {
    let ctx = rqctx.context();
    let query = query.into_inner();
    ctx.metered(&rqctx, &access::REPORT_LIST, async |caller| {
        let limit = page_limit(&rqctx, &query)?;
        let (filter, before) = match &query.page {
            WhichPage::First(filter) => (filter.clone(), None),
            WhichPage::Next(s) => (s.filter.clone(), Some((s.created_at, s.id.clone()))),
        };
        let rows = ctx
            .reports
            .list(Some(&caller.account.id), filter.status, before, limit + 1)
            .await?;
        let items = rows.iter().map(view).collect();
        let page = page_of(
            items,
            limit,
            &filter,
            |r: &Report, filter: &ReportFilter| ReportPageSelector {
                filter: filter.clone(),
                created_at: r.created_at,
                id: r.id.clone(),
            },
        )?;
        Ok(HttpResponseOk(page))
    })
    .await
}

pub(super) async fn get(
    rqctx: RequestContext<ServerContext>,
    path: Path<ReportPath>,
) -> Result<Metered<HttpResponseOk<Report>>, ApiError> {
    let ctx = rqctx.context();
    let id = path.into_inner().report_id;
    ctx.metered(&rqctx, &access::REPORT_GET, async |caller| {
        let row = ctx.reports.get(Some(&caller.account.id), &id).await?;
        Ok(HttpResponseOk(view(&row)))
    })
    .await
}
