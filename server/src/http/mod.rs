//! The HTTP layer: implements the API trait. Every handler reads the same
//! way: extract, call [`ServerContext::metered`] (authenticate, meter, check
//! the scope and premium rule of [`access`], count usage), call the domain,
//! map errors.

pub mod access;
mod api_keys;
mod batch;
mod client_ip;
mod conditional;
mod context;
mod errors;
mod health;
mod pages;
mod reference;
mod reports;
mod screening;
mod webhooks;

use dropshot::{
    Body, EmptyScanParams, FreeformBody, HttpResponseCreated, HttpResponseDeleted, HttpResponseOk,
    PaginationParams, Path, Query, RequestContext, ResultsPage, TypedBody, WhichPage,
};
use riskintel_api::token::{TokenQueryParams, TokenQueryRoute};
use riskintel_api::{
    AddressPath, AddressScreen, AddressScreenBatch, AddressScreenBatchRequest, Alert, AlertFilter,
    AlertPageSelector, AnalysisOptions, ApiError, ApiKey, ApiKeyCreate, ApiKeyPageSelector,
    ApiKeyPath, ApiKeySecret, BillingStatus, ErrorCode, Health, MarketOverview, Metered,
    OkSerialized, OverviewQuery, RiskIntelApi, SignatureScan, SignatureScanRequest, TokenAnalysis,
    TokenAt, TokenExplanation, TokenMetaReport, TokenPath, TokenSentiment, TopToken,
    TopTokensFilter, TopTokensPageSelector, TxSimulation, TxSimulationRequest, WalletAnalysis,
    WalletPath, Webhook, WebhookCreate, WebhookDelivery, WebhookDeliveryPageSelector,
    WebhookPageSelector, WebhookPath, WebhookSecret, WebhookTestEvent,
};

pub use context::{Caller, ServerContext};
use pages::{page_limit, page_of};

pub use errors::reference_html;
use errors::Wire;

use crate::metering::Meter;
use riskintel_analysis::scoring::{badge, explain};
use riskintel_analysis::tokens::{Analysed, AnalysisError};

/// A chain id as a user wrote it, read at the edge: every floor below
/// takes the typed chain (422 when unknown).
fn chain_id(text: &str) -> Result<riskintel_chains::Chain, ApiError> {
    riskintel_chains::chain_from_id(text).map_err(|e| AnalysisError::from(e).wire())
}

/// The analysis of a token, for an authenticated caller.
async fn token_analysis(
    ctx: &ServerContext,
    caller: &Caller,
    chain: &str,
    address: &str,
    options: &AnalysisOptions,
) -> Result<Analysed, ApiError> {
    let chain = chain_id(chain)?;
    let fresh = options.fresh.unwrap_or(false);
    // The cached path: found by the address as written, nothing else done.
    if !fresh {
        if let Some((target, analysed)) = ctx.analyzer.recent_as_written(chain, address, caller.now)
        {
            return (ctx.analyzer.overrides())
                .shown_as(target, analysed)
                .map_err(Wire::wire);
        }
    }
    let target = ctx.analyzer.target(chain, address).map_err(Wire::wire)?;
    if fresh {
        Meter::require_premium(&caller.account, "fresh=true")?;
    }
    let analysed = ctx
        .analyzer
        .analysed(target, fresh)
        .await
        .map_err(Wire::wire)?;
    (ctx.analyzer.overrides())
        .shown_as(target, analysed)
        .map_err(Wire::wire)
}

/// A view of a token's analysis, made by `make`: metered, and conditional
/// on the analysis's `ETag` for `view` (304 when the client has it).
async fn analysis_view<R: dropshot::HttpCodedResponse>(
    rqctx: &RequestContext<ServerContext>,
    access: &'static access::Access,
    path: &TokenPath,
    options: &AnalysisOptions,
    view: &'static str,
    make: impl FnOnce(Analysed) -> R,
) -> Result<Metered<R>, ApiError> {
    let ctx = rqctx.context();
    let validators = conditional::Slot::default();
    ctx.metered_with(
        rqctx,
        access,
        async |caller| {
            let analysed =
                token_analysis(ctx, &caller, &path.chain, &path.address, options).await?;
            validators.keep(ctx, &analysed, view, caller.now);
            Ok(make(analysed))
        },
        |answer| validators.apply(&rqctx.request, answer),
    )
    .await
}

/// The implementation of [`RiskIntelApi`].
pub enum RiskIntelImpl {}

impl RiskIntelApi for RiskIntelImpl {
    type Context = ServerContext;

    async fn health_get(
        rqctx: RequestContext<ServerContext>,
    ) -> Result<HttpResponseOk<Health>, ApiError> {
        health::get(rqctx).await
    }

    async fn error_reference_get(
        _rqctx: RequestContext<ServerContext>,
    ) -> Result<http::Response<Body>, ApiError> {
        http::Response::builder()
            .status(http::StatusCode::OK)
            .header(http::header::CONTENT_TYPE, "text/html; charset=utf-8")
            .header(http::header::CACHE_CONTROL, "public, max-age=3600")
            .body(Body::from(reference_html()))
            .map_err(|e| ApiError::new(ErrorCode::InternalError, e.to_string()))
    }

    async fn docs_get(
        rqctx: RequestContext<ServerContext>,
    ) -> Result<http::Response<Body>, ApiError> {
        reference::docs(&rqctx.request)
    }

    async fn docs_script_get(
        rqctx: RequestContext<ServerContext>,
    ) -> Result<http::Response<Body>, ApiError> {
        reference::docs_bundle(&rqctx.request)
    }

    async fn openapi_get(
        rqctx: RequestContext<ServerContext>,
    ) -> Result<http::Response<Body>, ApiError> {
        reference::openapi(&rqctx.request)
    }

    async fn billing_status_get(
        rqctx: RequestContext<ServerContext>,
    ) -> Result<Metered<HttpResponseOk<BillingStatus>>, ApiError> {
        let ctx = rqctx.context();
        ctx.metered(&rqctx, &access::BILLING_STATUS_GET, async |caller| {
            let used = ctx.meter.used(&caller.account).await?;
            let status = ctx.billing.status(&caller.account, used);
            Ok(HttpResponseOk(status))
        })
        .await
    }

    async fn api_key_list(
        rqctx: RequestContext<ServerContext>,
        query: Query<PaginationParams<EmptyScanParams, ApiKeyPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<ApiKey>>>, ApiError> {
        api_keys::list(rqctx, query).await
    }

    async fn api_key_create(
        rqctx: RequestContext<ServerContext>,
        body: TypedBody<ApiKeyCreate>,
    ) -> Result<Metered<HttpResponseCreated<ApiKeySecret>>, ApiError> {
        api_keys::create(rqctx, body).await
    }

    async fn api_key_get(
        rqctx: RequestContext<ServerContext>,
        path: Path<ApiKeyPath>,
    ) -> Result<Metered<HttpResponseOk<ApiKey>>, ApiError> {
        api_keys::get(rqctx, path).await
    }

    async fn api_key_delete(
        rqctx: RequestContext<ServerContext>,
        path: Path<ApiKeyPath>,
    ) -> Result<Metered<HttpResponseDeleted>, ApiError> {
        api_keys::delete(rqctx, path).await
    }

    async fn api_key_rotate(
        rqctx: RequestContext<ServerContext>,
        path: Path<ApiKeyPath>,
    ) -> Result<Metered<HttpResponseOk<ApiKeySecret>>, ApiError> {
        api_keys::rotate(rqctx, path).await
    }

    async fn token_meta_get(
        rqctx: RequestContext<ServerContext>,
        path: TokenAt,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<HttpResponseOk<TokenMetaReport>>, ApiError> {
        let (path, options) = (path.into_inner(), query.into_inner());
        analysis_view(
            &rqctx,
            &access::TOKEN_META_GET,
            &path,
            &options,
            "meta",
            |analysed| {
                let analysis = std::sync::Arc::unwrap_or_clone(analysed.analysis);
                HttpResponseOk(TokenMetaReport {
                    chain: analysis.chain,
                    address: analysis.address,
                    meta: analysis.meta,
                    cached_at: analysis.cached_at,
                    as_of_block: analysis.as_of_block,
                    stale: analysis.stale,
                })
            },
        )
        .await
    }

    async fn token_analyze(
        rqctx: RequestContext<ServerContext>,
        path: TokenAt,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<OkSerialized<TokenAnalysis>>, ApiError> {
        let (path, options) = (path.into_inner(), query.into_inner());
        analysis_view(
            &rqctx,
            &access::TOKEN_ANALYZE,
            &path,
            &options,
            "analysis",
            |analysed| OkSerialized(analysed.json),
        )
        .await
    }

    async fn token_analyze_query(
        rqctx: RequestContext<ServerContext>,
        path: Path<TokenQueryRoute>,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<OkSerialized<TokenAnalysis>>, ApiError> {
        let ctx = rqctx.context();
        let route = path.into_inner();
        let options = query.into_inner();
        // `chain` is both the route's variable and a query parameter here,
        // which no extractor can express: read the query string directly.
        let params: Result<TokenQueryParams, _> =
            serde_urlencoded::from_str(rqctx.request.uri().query().unwrap_or_default());
        let validators = conditional::Slot::default();
        let response = ctx
            .metered_with(
                &rqctx,
                &access::TOKEN_ANALYZE_QUERY,
                async |caller| {
                    if route.chain != "analyze" {
                        return Err(ApiError::new(
                            ErrorCode::NotFound,
                            "no such path: did you mean /v1/token/analyze?chain=…&address=…",
                        ));
                    }
                    let params = params.map_err(|e| {
                        ApiError::new(
                            ErrorCode::BadRequest,
                            format!("unable to parse query string: {e}"),
                        )
                    })?;
                    let (Some(chain), Some(address)) = (params.chain, params.address) else {
                        return Err(ApiError::new(
                            ErrorCode::BadRequest,
                            "the query parameters `chain` and `address` are required",
                        ));
                    };
                    let analysed = token_analysis(ctx, &caller, &chain, &address, &options).await?;
                    validators.keep(ctx, &analysed, "analysis", caller.now);
                    Ok(OkSerialized(analysed.json))
                },
                |answer| validators.apply(&rqctx.request, answer),
            )
            .await?;
        Ok(response)
    }

    async fn token_batch_analyze(
        rqctx: RequestContext<ServerContext>,
        body: TypedBody<riskintel_api::BatchAnalysisRequest>,
    ) -> Result<Metered<HttpResponseOk<riskintel_api::BatchAnalysis>>, ApiError> {
        batch::token_batch_analyze(rqctx, body).await
    }

    async fn token_explanation_get(
        rqctx: RequestContext<ServerContext>,
        path: TokenAt,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<HttpResponseOk<TokenExplanation>>, ApiError> {
        let (path, options) = (path.into_inner(), query.into_inner());
        analysis_view(
            &rqctx,
            &access::TOKEN_EXPLANATION_GET,
            &path,
            &options,
            "explanation",
            |analysed| HttpResponseOk(explain::explain(&analysed.analysis)),
        )
        .await
    }

    async fn token_badge_get(
        rqctx: RequestContext<ServerContext>,
        path: TokenAt,
    ) -> Result<Metered<HttpResponseOk<FreeformBody>>, ApiError> {
        let path = path.into_inner();
        let response = analysis_view(
            &rqctx,
            &access::TOKEN_BADGE_GET,
            &path,
            &AnalysisOptions::default(),
            "badge",
            |a| HttpResponseOk(FreeformBody(Body::from(badge::render(&a.analysis)))),
        )
        .await
        .unwrap_or_else(|error| Metered::new(Err(error)))
        // A page embedding the badge shows a grey badge, not a broken image.
        .with_error_body(|status, message| {
            (
                "image/svg+xml; charset=utf-8",
                badge::render_error(status, message).into_bytes(),
            )
        });
        Ok(response.with_success_header(
            http::header::CONTENT_TYPE,
            http::HeaderValue::from_static("image/svg+xml; charset=utf-8"),
        ))
    }

    async fn wallet_analyze(
        rqctx: RequestContext<ServerContext>,
        path: Path<WalletPath>,
    ) -> Result<Metered<HttpResponseOk<WalletAnalysis>>, ApiError> {
        let ctx = rqctx.context();
        let path = path.into_inner();
        ctx.metered(&rqctx, &access::WALLET_ANALYZE, async |_caller| {
            Ok(HttpResponseOk(
                ctx.wallets
                    .analyze(chain_id(&path.chain)?, &path.address)
                    .await
                    .map_err(Wire::wire)?,
            ))
        })
        .await
    }

    async fn tx_simulate(
        rqctx: RequestContext<ServerContext>,
        body: TypedBody<TxSimulationRequest>,
    ) -> Result<Metered<HttpResponseOk<TxSimulation>>, ApiError> {
        let ctx = rqctx.context();
        let request = body.into_inner();
        ctx.metered(&rqctx, &access::TX_SIMULATE, async |_caller| {
            Ok(HttpResponseOk(
                ctx.presign.simulate(&request).await.map_err(Wire::wire)?,
            ))
        })
        .await
    }

    async fn address_screen(
        rqctx: RequestContext<ServerContext>,
        path: Path<AddressPath>,
    ) -> Result<Metered<HttpResponseOk<AddressScreen>>, ApiError> {
        screening::address_screen(rqctx, path).await
    }

    async fn address_batch_screen(
        rqctx: RequestContext<ServerContext>,
        body: TypedBody<AddressScreenBatchRequest>,
    ) -> Result<Metered<HttpResponseOk<AddressScreenBatch>>, ApiError> {
        screening::address_batch_screen(rqctx, body).await
    }

    async fn signature_scan(
        rqctx: RequestContext<ServerContext>,
        body: TypedBody<SignatureScanRequest>,
    ) -> Result<Metered<HttpResponseOk<SignatureScan>>, ApiError> {
        let ctx = rqctx.context();
        let request = body.into_inner();
        ctx.metered(&rqctx, &access::SIGNATURE_SCAN, async |_caller| {
            Ok(HttpResponseOk(
                ctx.presign
                    .scan_signature(&request)
                    .await
                    .map_err(Wire::wire)?,
            ))
        })
        .await
    }

    async fn token_sentiment_get(
        rqctx: RequestContext<ServerContext>,
        path: TokenAt,
    ) -> Result<Metered<HttpResponseOk<TokenSentiment>>, ApiError> {
        let ctx = rqctx.context();
        let path = path.into_inner();
        ctx.metered(&rqctx, &access::TOKEN_SENTIMENT_GET, async |_caller| {
            Ok(HttpResponseOk(
                ctx.sentiment
                    .of(chain_id(&path.chain)?, &path.address)
                    .await
                    .map_err(Wire::wire)?,
            ))
        })
        .await
    }

    async fn market_overview_get(
        rqctx: RequestContext<ServerContext>,
        query: Query<OverviewQuery>,
    ) -> Result<Metered<HttpResponseOk<MarketOverview>>, ApiError> {
        let ctx = rqctx.context();
        let query = query.into_inner();
        ctx.metered(&rqctx, &access::MARKET_OVERVIEW_GET, async |_caller| {
            Ok(HttpResponseOk(
                ctx.market
                    .overview(query.chain.as_deref().map(chain_id).transpose()?)
                    .await
                    .map_err(Wire::wire)?,
            ))
        })
        .await
    }

    async fn market_top_tokens_list(
        rqctx: RequestContext<ServerContext>,
        query: Query<PaginationParams<TopTokensFilter, TopTokensPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<TopToken>>>, ApiError> {
        let ctx = rqctx.context();
        let query = query.into_inner();
        ctx.metered(&rqctx, &access::MARKET_TOP_TOKENS_LIST, async |_caller| {
            let limit = page_limit(&rqctx, &query)?;
            let (filter, after) = match &query.page {
                WhichPage::First(filter) => (filter.clone(), None),
                WhichPage::Next(s) => (
                    s.filter.clone(),
                    Some((s.last_value, s.last_chain.clone(), s.last_address.clone())),
                ),
            };
            let rows = ctx
                .market
                .top_tokens(&filter, after, limit + 1)
                .await
                .map_err(Wire::wire)?;
            let values: std::collections::HashMap<(String, String), f64> = rows
                .iter()
                .map(|(t, v)| ((t.chain.clone(), t.address.clone()), *v))
                .collect();
            let items: Vec<TopToken> = rows.into_iter().map(|(t, _)| t).collect();
            let page = page_of(
                items,
                limit,
                &filter,
                |t: &TopToken, filter: &TopTokensFilter| TopTokensPageSelector {
                    filter: filter.clone(),
                    last_value: values
                        .get(&(t.chain.clone(), t.address.clone()))
                        .copied()
                        .unwrap_or_default(),
                    last_chain: t.chain.clone(),
                    last_address: t.address.clone(),
                },
            )?;
            Ok(HttpResponseOk(page))
        })
        .await
    }

    async fn feed_risk_alerts_list(
        rqctx: RequestContext<ServerContext>,
        query: Query<PaginationParams<AlertFilter, AlertPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<Alert>>>, ApiError> {
        let ctx = rqctx.context();
        let query = query.into_inner();
        ctx.metered(&rqctx, &access::FEED_RISK_ALERTS_LIST, async |_caller| {
            let limit = page_limit(&rqctx, &query)?;
            let (filter, before) = match &query.page {
                WhichPage::First(filter) => (filter.clone(), None),
                WhichPage::Next(s) => (s.filter.clone(), Some(s.last_id)),
            };
            let rows = ctx
                .feed
                .page(&filter, before, limit + 1)
                .await
                .map_err(Wire::wire)?;
            let ids: std::collections::HashMap<String, i64> =
                rows.iter().map(|(a, id)| (a.id.clone(), *id)).collect();
            let items: Vec<Alert> = rows.into_iter().map(|(a, _)| a).collect();
            let page = page_of(items, limit, &filter, |a: &Alert, filter: &AlertFilter| {
                AlertPageSelector {
                    filter: filter.clone(),
                    last_id: ids.get(&a.id).copied().unwrap_or_default(),
                }
            })?;
            Ok(HttpResponseOk(page))
        })
        .await
    }

    async fn report_create(
        rqctx: RequestContext<ServerContext>,
        path: TokenAt,
        body: TypedBody<riskintel_api::ReportCreate>,
    ) -> Result<Metered<HttpResponseCreated<riskintel_api::Report>>, ApiError> {
        reports::create(rqctx, path, body).await
    }

    async fn report_list(
        rqctx: RequestContext<ServerContext>,
        query: Query<
            PaginationParams<riskintel_api::ReportFilter, riskintel_api::ReportPageSelector>,
        >,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<riskintel_api::Report>>>, ApiError> {
        reports::list(rqctx, query).await
    }

    async fn report_get(
        rqctx: RequestContext<ServerContext>,
        path: Path<riskintel_api::ReportPath>,
    ) -> Result<Metered<HttpResponseOk<riskintel_api::Report>>, ApiError> {
        reports::get(rqctx, path).await
    }

    async fn webhook_list(
        rqctx: RequestContext<ServerContext>,
        query: Query<PaginationParams<EmptyScanParams, WebhookPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<Webhook>>>, ApiError> {
        webhooks::list(rqctx, query).await
    }

    async fn webhook_create(
        rqctx: RequestContext<ServerContext>,
        body: TypedBody<WebhookCreate>,
    ) -> Result<Metered<HttpResponseCreated<WebhookSecret>>, ApiError> {
        webhooks::create(rqctx, body).await
    }

    async fn webhook_get(
        rqctx: RequestContext<ServerContext>,
        path: Path<WebhookPath>,
    ) -> Result<Metered<HttpResponseOk<Webhook>>, ApiError> {
        webhooks::get(rqctx, path).await
    }

    async fn webhook_update(
        rqctx: RequestContext<ServerContext>,
        path: Path<WebhookPath>,
        body: TypedBody<riskintel_api::WebhookUpdate>,
    ) -> Result<Metered<HttpResponseOk<Webhook>>, ApiError> {
        webhooks::update(rqctx, path, body).await
    }

    async fn webhook_delete(
        rqctx: RequestContext<ServerContext>,
        path: Path<WebhookPath>,
    ) -> Result<Metered<HttpResponseDeleted>, ApiError> {
        webhooks::delete(rqctx, path).await
    }

    async fn webhook_secret_rotate(
        rqctx: RequestContext<ServerContext>,
        path: Path<WebhookPath>,
    ) -> Result<Metered<HttpResponseOk<WebhookSecret>>, ApiError> {
        webhooks::rotate(rqctx, path).await
    }

    async fn webhook_enable(
        rqctx: RequestContext<ServerContext>,
        path: Path<WebhookPath>,
    ) -> Result<Metered<HttpResponseOk<Webhook>>, ApiError> {
        webhooks::enable(rqctx, path).await
    }

    async fn webhook_test_send(
        rqctx: RequestContext<ServerContext>,
        path: Path<WebhookPath>,
    ) -> Result<Metered<dropshot::HttpResponseAccepted<WebhookTestEvent>>, ApiError> {
        webhooks::test_send(rqctx, path).await
    }

    async fn webhook_delivery_list(
        rqctx: RequestContext<ServerContext>,
        path: Path<WebhookPath>,
        query: Query<PaginationParams<EmptyScanParams, WebhookDeliveryPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<WebhookDelivery>>>, ApiError> {
        webhooks::deliveries(rqctx, path, query).await
    }

    async fn webhook_redeliver(
        rqctx: RequestContext<ServerContext>,
        path: Path<riskintel_api::WebhookDeliveryPath>,
    ) -> Result<Metered<dropshot::HttpResponseAccepted<WebhookDelivery>>, ApiError> {
        webhooks::redeliver(rqctx, path).await
    }

    async fn webhook_recover(
        rqctx: RequestContext<ServerContext>,
        path: Path<WebhookPath>,
        body: TypedBody<riskintel_api::WebhookRecover>,
    ) -> Result<Metered<dropshot::HttpResponseAccepted<riskintel_api::WebhookRecovery>>, ApiError>
    {
        webhooks::recover(rqctx, path, body).await
    }
}
