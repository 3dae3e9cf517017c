//! The HTTP layer: implements the API trait. Every handler reads the same
//! way: extract, call [`ServerContext::metered`] (authenticate, meter, check
//! the scope, count usage), call the domain, map errors.

mod errors;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use dropshot::{
    Body, EmptyScanParams, FreeformBody, HttpCodedResponse, HttpResponseCreated, HttpResponseDeleted,
    HttpResponseOk, PaginationParams, Path, Query, RequestContext, ResultsPage, TypedBody, WhichPage,
};
use riskintel_api::token::{TokenQueryParams, TokenQueryRoute};
use riskintel_api::{
    Alert, AlertFilter, AlertPageSelector, MarketOverview, OverviewQuery, TokenSentiment, TopToken, TopTokensFilter,
    TopTokensPageSelector,
};
use riskintel_api::{
    AnalysisOptions, ApiError, ApiKey, ApiKeyCreate, ApiKeyPageSelector, ApiKeyPath, ApiKeySecret,
    BillingStatus, DatabaseHealth, ErrorCode, Health, HealthStatus, Metered, RateLimitHeaders,
    RiskIntelApi, Scope, TokenAnalysis, TokenExplanation, TokenMetaReport, TokenPath, WalletAnalysis, WalletPath,
};

pub use errors::reference_html;

use crate::clock::Clock;
use crate::keys::{self, KeyError, Keys};
use crate::metering::{Meter, MeterError, WindowState};
use crate::market::Market;
use crate::risk::{badge, explain, Analyzer};
use crate::store::{Account, KeyRecord, Store};

/// Query parameters that would carry a key in the URL; refused.
const KEY_QUERY_PARAMS: [&str; 5] = ["api_key", "apikey", "x-api-key", "x_api_key", "key"];

/// State shared by every request.
pub struct ServerContext {
    /// Storage.
    pub store: Arc<dyn Store>,
    /// Time.
    pub clock: Arc<dyn Clock>,
    /// Key operations.
    pub keys: Keys,
    /// Metering.
    pub meter: Meter,
    /// Token analysis.
    pub analyzer: Arc<Analyzer>,
    /// Market queries.
    pub market: Market,
}

/// The authenticated caller of one request.
#[derive(Clone, Debug)]
pub struct Caller {
    /// The key it authenticated with.
    pub key: KeyRecord,
    /// Its account.
    pub account: Account,
}

impl ServerContext {
    /// Shared state over a store and clock.
    pub fn new(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        failed_auth_per_minute: u64,
        analyzer: Arc<Analyzer>,
    ) -> Self {
        ServerContext {
            keys: Keys::new(store.clone(), clock.clone()),
            meter: Meter::new(store.clone(), clock.clone(), failed_auth_per_minute),
            market: Market::new(analyzer.clone(), store.clone(), clock.clone()),
            analyzer,
            store,
            clock,
        }
    }

    /// The analysis of a token, for an authenticated caller.
    async fn token_analysis(&self, caller: &Caller, chain: &str, address: &str, options: &AnalysisOptions) -> Result<TokenAnalysis, ApiError> {
        let target = self.analyzer.target(chain, address)?;
        let fresh = options.fresh.unwrap_or(false);
        if fresh {
            Meter::require_premium(&caller.account, "fresh=true")?;
        }
        Ok(self.analyzer.analyze_target(target, fresh).await?)
    }

    /// The one authenticate-and-meter step every authenticated operation
    /// goes through: refuse a key in the query string, apply the per-IP
    /// failed-authentication limit, authenticate, count the request in the
    /// account's rate window, check `scope`, count it in the monthly usage
    /// (refusing an exhausted free quota), run `operation`, and take the
    /// usage back if the answer is not 2xx. The response carries the
    /// rate-limit headers whatever the outcome.
    pub async fn metered<R: HttpCodedResponse>(
        &self,
        rqctx: &RequestContext<Self>,
        scope: Scope,
        operation: impl AsyncFnOnce(Caller) -> Result<R, ApiError>,
    ) -> Result<Metered<R>, ApiError> {
        let request = &rqctx.request;
        if let Some(param) = key_in_query(request.uri().query()) {
            return Ok(Metered::new(Err(ApiError::new(
                ErrorCode::BadRequest,
                format!(
                    "API keys must not be sent in the URL (query parameter `{param}`): \
                     send the key in the x-api-key header"
                ),
            ))));
        }
        let ip = request.remote_addr().ip();
        let caller = match self.authenticate(ip, request.headers()).await {
            Ok(caller) => caller,
            Err((error, window)) => {
                return Ok(refuse(error, window));
            }
        };
        let window = match self.meter.hit(&caller.account).await {
            Ok(window) => window,
            Err(error) => return Ok(Metered::new(Err(error.into()))),
        };
        if window.exceeded {
            return Ok(refuse(Meter::rate_limited(&caller.account, &window).into(), Some(window)));
        }
        if !caller.key.scopes.contains(&scope) {
            return Ok(refuse(KeyError::MissingScope(scope).into(), Some(window)));
        }
        let reservation = match self.meter.reserve(&caller.account).await {
            Ok(reservation) => reservation,
            Err(error) => return Ok(refuse(error.into(), Some(window))),
        };
        let outcome = operation(caller).await;
        if outcome.is_err() {
            // Usage counts 2xx answers only. Should the release itself fail,
            // the request stays counted: over-counting one request is the
            // lesser error, and the operator can correct it.
            let _ = self.meter.release(reservation).await;
        }
        Ok(Metered::new(outcome).with_rate_limit(headers_of(&window)))
    }

    async fn authenticate(
        &self,
        ip: IpAddr,
        headers: &http::HeaderMap,
    ) -> Result<Caller, (ApiError, Option<WindowState>)> {
        let ip_window = self.meter.failed_auth_state(ip);
        if ip_window.exceeded {
            let error = MeterError::AuthFailuresLimited {
                limit: ip_window.limit,
                retry_after: ip_window.retry_after,
            };
            return Err((error.into(), Some(ip_window)));
        }
        let Some(raw) = headers.get("x-api-key") else {
            let error = ApiError::new(
                ErrorCode::Unauthorized,
                "missing API key: send it in the x-api-key header",
            );
            return Err((error, Some(ip_window)));
        };
        let outcome = match raw.to_str() {
            Ok(raw) => self.keys.authenticate(raw.trim()).await,
            Err(_) => Err(KeyError::Unauthenticated("malformed API key: not printable ASCII")),
        };
        match outcome {
            Ok(found) => Ok(Caller { key: found.key, account: found.account }),
            Err(error @ KeyError::Unauthenticated(_)) => {
                let window = self.meter.failed_auth_record(ip);
                Err((error.into(), Some(window)))
            }
            Err(error) => Err((error.into(), None)),
        }
    }
}

fn refuse<R: HttpCodedResponse>(error: ApiError, window: Option<WindowState>) -> Metered<R> {
    let response = Metered::new(Err(error));
    match window {
        Some(window) => response.with_rate_limit(headers_of(&window)),
        None => response,
    }
}

fn headers_of(window: &WindowState) -> RateLimitHeaders {
    RateLimitHeaders::new(window.limit, window.remaining, window.reset)
}

/// The name of a query parameter that carries a key, if any.
fn key_in_query(query: Option<&str>) -> Option<String> {
    query?.split('&').find_map(|pair| {
        let name = pair.split('=').next().unwrap_or_default();
        let name = name.to_ascii_lowercase();
        KEY_QUERY_PARAMS.contains(&name.as_str()).then_some(name)
    })
}

/// The record of a key as the API shows it.
fn api_key_view(record: &KeyRecord, now: chrono::DateTime<chrono::Utc>) -> ApiKey {
    ApiKey {
        id: record.id.clone(),
        name: record.name.clone(),
        display: keys::display_key(&record.id),
        scopes: record.scopes.clone(),
        created_at: record.created_at,
        expires_at: record.expires_at,
        last_used_at: record.last_used_at,
        rotated_at: record.rotated_at,
        previous_valid_until: record.previous_valid_until.filter(|until| *until > now),
    }
}

/// The implementation of [`RiskIntelApi`].
pub enum RiskIntelImpl {}

impl RiskIntelApi for RiskIntelImpl {
    type Context = ServerContext;

    async fn health_get(
        rqctx: RequestContext<ServerContext>,
    ) -> Result<HttpResponseOk<Health>, ApiError> {
        let ctx = rqctx.context();
        let started = Instant::now();
        let reachable = ctx.store.ping().await.is_ok();
        Ok(HttpResponseOk(Health {
            status: if reachable { HealthStatus::Ok } else { HealthStatus::Degraded },
            version: env!("CARGO_PKG_VERSION").to_string(),
            database: DatabaseHealth {
                backend: ctx.store.backend().to_string(),
                reachable,
                latency_ms: started.elapsed().as_secs_f64() * 1000.0,
            },
            time: ctx.clock.now(),
        }))
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

    async fn billing_status_get(
        rqctx: RequestContext<ServerContext>,
    ) -> Result<Metered<HttpResponseOk<BillingStatus>>, ApiError> {
        let ctx = rqctx.context();
        ctx.metered(&rqctx, Scope::BillingRead, async |caller| {
            let status = ctx.meter.billing_status(&caller.account).await?;
            Ok(HttpResponseOk(status))
        })
        .await
    }

    async fn api_key_list(
        rqctx: RequestContext<ServerContext>,
        query: Query<PaginationParams<EmptyScanParams, ApiKeyPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<ApiKey>>>, ApiError> {
        let ctx = rqctx.context();
        let query = query.into_inner();
        let limit = rqctx.page_limit(&query)?.get() as usize;
        ctx.metered(&rqctx, Scope::KeysWrite, async |caller| {
            let after = match &query.page {
                WhichPage::First(_) => None,
                WhichPage::Next(selector) => Some((selector.created_at, selector.id.clone())),
            };
            let records = ctx.keys.list(&caller.account.id, after, limit).await?;
            let now = ctx.clock.now();
            let items = records.iter().map(|r| api_key_view(r, now)).collect();
            let page = ResultsPage::new(items, &EmptyScanParams {}, |key: &ApiKey, _| ApiKeyPageSelector {
                created_at: key.created_at,
                id: key.id.clone(),
            })?;
            Ok(HttpResponseOk(page))
        })
        .await
    }

    async fn api_key_create(
        rqctx: RequestContext<ServerContext>,
        body: TypedBody<ApiKeyCreate>,
    ) -> Result<Metered<HttpResponseCreated<ApiKeySecret>>, ApiError> {
        let ctx = rqctx.context();
        let body = body.into_inner();
        ctx.metered(&rqctx, Scope::KeysWrite, async |caller| {
            let issued = ctx
                .keys
                .create(&caller.account, &body.name, body.scopes, body.expires_at, Some(&caller.key))
                .await?;
            let api_key = api_key_view(&issued.record, ctx.clock.now());
            Ok(HttpResponseCreated(ApiKeySecret { key: issued.key, api_key }))
        })
        .await
    }

    async fn api_key_get(
        rqctx: RequestContext<ServerContext>,
        path: Path<ApiKeyPath>,
    ) -> Result<Metered<HttpResponseOk<ApiKey>>, ApiError> {
        let ctx = rqctx.context();
        let key_id = path.into_inner().key_id;
        ctx.metered(&rqctx, Scope::KeysWrite, async |caller| {
            let record = ctx.keys.get(&caller.account.id, &key_id).await?;
            Ok(HttpResponseOk(api_key_view(&record, ctx.clock.now())))
        })
        .await
    }

    async fn api_key_delete(
        rqctx: RequestContext<ServerContext>,
        path: Path<ApiKeyPath>,
    ) -> Result<Metered<HttpResponseDeleted>, ApiError> {
        let ctx = rqctx.context();
        let key_id = path.into_inner().key_id;
        ctx.metered(&rqctx, Scope::KeysWrite, async |caller| {
            ctx.keys.revoke(&caller.account.id, &key_id).await?;
            Ok(HttpResponseDeleted())
        })
        .await
    }

    async fn api_key_rotate(
        rqctx: RequestContext<ServerContext>,
        path: Path<ApiKeyPath>,
    ) -> Result<Metered<HttpResponseOk<ApiKeySecret>>, ApiError> {
        let ctx = rqctx.context();
        let key_id = path.into_inner().key_id;
        ctx.metered(&rqctx, Scope::KeysWrite, async |caller| {
            let issued = ctx.keys.rotate(&caller.account.id, &key_id).await?;
            let api_key = api_key_view(&issued.record, ctx.clock.now());
            Ok(HttpResponseOk(ApiKeySecret { key: issued.key, api_key }))
        })
        .await
    }

    async fn token_meta_get(
        rqctx: RequestContext<ServerContext>,
        path: Path<TokenPath>,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<HttpResponseOk<TokenMetaReport>>, ApiError> {
        let ctx = rqctx.context();
        let (path, options) = (path.into_inner(), query.into_inner());
        ctx.metered(&rqctx, Scope::TokenRead, async |caller| {
            let analysis = ctx.token_analysis(&caller, &path.chain, &path.address, &options).await?;
            Ok(HttpResponseOk(TokenMetaReport {
                chain: analysis.chain,
                address: analysis.address,
                meta: analysis.meta,
                cached_at: analysis.cached_at,
                as_of_block: analysis.as_of_block,
                stale: analysis.stale,
            }))
        })
        .await
    }

    async fn token_analyze(
        rqctx: RequestContext<ServerContext>,
        path: Path<TokenPath>,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<HttpResponseOk<TokenAnalysis>>, ApiError> {
        let ctx = rqctx.context();
        let (path, options) = (path.into_inner(), query.into_inner());
        ctx.metered(&rqctx, Scope::TokenRead, async |caller| {
            Ok(HttpResponseOk(ctx.token_analysis(&caller, &path.chain, &path.address, &options).await?))
        })
        .await
    }

    async fn token_analyze_query(
        rqctx: RequestContext<ServerContext>,
        path: Path<TokenQueryRoute>,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<HttpResponseOk<TokenAnalysis>>, ApiError> {
        let ctx = rqctx.context();
        if path.into_inner().chain != "analyze" {
            return Err(ApiError::new(ErrorCode::NotFound, "no such path: did you mean /v1/token/analyze?chain=…&address=…"));
        }
        let options = query.into_inner();
        // `chain` is both the route's variable and a query parameter here,
        // which no extractor can express: read the query string directly.
        let params: Result<TokenQueryParams, _> =
            serde_urlencoded::from_str(rqctx.request.uri().query().unwrap_or_default());
        ctx.metered(&rqctx, Scope::TokenRead, async |caller| {
            let params = params.map_err(|e| ApiError::new(ErrorCode::BadRequest, format!("unable to parse query string: {e}")))?;
            let (Some(chain), Some(address)) = (params.chain, params.address) else {
                return Err(ApiError::new(ErrorCode::BadRequest, "the query parameters `chain` and `address` are required"));
            };
            Ok(HttpResponseOk(ctx.token_analysis(&caller, &chain, &address, &options).await?))
        })
        .await
    }

    async fn token_explanation_get(
        rqctx: RequestContext<ServerContext>,
        path: Path<TokenPath>,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<HttpResponseOk<TokenExplanation>>, ApiError> {
        let ctx = rqctx.context();
        let (path, options) = (path.into_inner(), query.into_inner());
        ctx.metered(&rqctx, Scope::TokenRead, async |caller| {
            let analysis = ctx.token_analysis(&caller, &path.chain, &path.address, &options).await?;
            Ok(HttpResponseOk(explain::explain(&analysis)))
        })
        .await
    }

    async fn token_badge_get(
        rqctx: RequestContext<ServerContext>,
        path: Path<TokenPath>,
    ) -> Result<Metered<HttpResponseOk<FreeformBody>>, ApiError> {
        let ctx = rqctx.context();
        let path = path.into_inner();
        let response = ctx
            .metered(&rqctx, Scope::TokenRead, async |caller| {
                let analysis = ctx.token_analysis(&caller, &path.chain, &path.address, &AnalysisOptions::default()).await?;
                Ok(HttpResponseOk(FreeformBody(Body::from(badge::render(&analysis)))))
            })
            .await?;
        // Badges are embedded in pages: cache them about as long as analyses live.
        Ok(response
            .with_success_header(http::header::CONTENT_TYPE, http::HeaderValue::from_static("image/svg+xml; charset=utf-8"))
            .with_success_header(http::header::CACHE_CONTROL, http::HeaderValue::from_static("public, max-age=300")))
    }

    async fn wallet_analyze(
        rqctx: RequestContext<ServerContext>,
        path: Path<WalletPath>,
    ) -> Result<Metered<HttpResponseOk<WalletAnalysis>>, ApiError> {
        let ctx = rqctx.context();
        let path = path.into_inner();
        ctx.metered(&rqctx, Scope::WalletRead, async |caller| {
            Meter::require_premium(&caller.account, "wallet analysis")?;
            Ok(HttpResponseOk(ctx.analyzer.analyze_wallet(&path.chain, &path.address).await?))
        })
        .await
    }

    async fn token_sentiment_get(
        rqctx: RequestContext<ServerContext>,
        path: Path<TokenPath>,
    ) -> Result<Metered<HttpResponseOk<TokenSentiment>>, ApiError> {
        let ctx = rqctx.context();
        let path = path.into_inner();
        ctx.metered(&rqctx, Scope::TokenRead, async |caller| {
            Meter::require_premium(&caller.account, "token sentiment")?;
            Ok(HttpResponseOk(ctx.market.sentiment(&path.chain, &path.address).await?))
        })
        .await
    }

    async fn market_overview_get(
        rqctx: RequestContext<ServerContext>,
        query: Query<OverviewQuery>,
    ) -> Result<Metered<HttpResponseOk<MarketOverview>>, ApiError> {
        let ctx = rqctx.context();
        let query = query.into_inner();
        ctx.metered(&rqctx, Scope::MarketRead, async |_caller| {
            Ok(HttpResponseOk(ctx.market.overview(query.chain.as_deref()).await?))
        })
        .await
    }

    async fn market_top_tokens_list(
        rqctx: RequestContext<ServerContext>,
        query: Query<PaginationParams<TopTokensFilter, TopTokensPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<TopToken>>>, ApiError> {
        let ctx = rqctx.context();
        let query = query.into_inner();
        let limit = rqctx.page_limit(&query)?.get() as usize;
        ctx.metered(&rqctx, Scope::MarketRead, async |_caller| {
            let (filter, after) = match &query.page {
                WhichPage::First(filter) => (filter.clone(), None),
                WhichPage::Next(s) => (s.filter.clone(), Some((s.last_value, s.last_chain.clone(), s.last_address.clone()))),
            };
            let rows = ctx.market.top_tokens(&filter, after, limit).await?;
            let values: std::collections::HashMap<(String, String), f64> =
                rows.iter().map(|(t, v)| ((t.chain.clone(), t.address.clone()), *v)).collect();
            let items: Vec<TopToken> = rows.into_iter().map(|(t, _)| t).collect();
            let page = ResultsPage::new(items, &filter, |t: &TopToken, filter: &TopTokensFilter| TopTokensPageSelector {
                filter: filter.clone(),
                last_value: values.get(&(t.chain.clone(), t.address.clone())).copied().unwrap_or_default(),
                last_chain: t.chain.clone(),
                last_address: t.address.clone(),
            })?;
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
        let limit = rqctx.page_limit(&query)?.get() as usize;
        ctx.metered(&rqctx, Scope::FeedRead, async |caller| {
            Meter::require_premium(&caller.account, "the risk-alert feed")?;
            let (filter, before) = match &query.page {
                WhichPage::First(filter) => (filter.clone(), None),
                WhichPage::Next(s) => (s.filter.clone(), Some(s.last_id)),
            };
            let rows = ctx.market.alerts(&filter, before, limit).await?;
            let ids: std::collections::HashMap<String, i64> = rows.iter().map(|(a, id)| (a.id.clone(), *id)).collect();
            let items: Vec<Alert> = rows.into_iter().map(|(a, _)| a).collect();
            let page = ResultsPage::new(items, &filter, |a: &Alert, filter: &AlertFilter| AlertPageSelector {
                filter: filter.clone(),
                last_id: ids.get(&a.id).copied().unwrap_or_default(),
            })?;
            Ok(HttpResponseOk(page))
        })
        .await
    }
}
