//! The state every request shares, and the one authenticate-and-meter
//! step every metered operation goes through.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::{timeout_at, Instant};

use dropshot::{HttpCodedResponse, RequestContext};
use riskintel_api::{ApiError, ErrorCode, Metered, RateLimit};

use super::access::Access;
use super::client_ip::client_ip;
use crate::billing::Billing;
use crate::config::AuthConfig;
use crate::feed::Feed;
use crate::keys::{KeyError, Keys};
use crate::market::Market;
use crate::metering::{Meter, MeterError, WindowState};
use crate::sentiment::Sentiment;
use crate::webhooks::Webhooks;
use chrono::{DateTime, Utc};
use riskintel_analysis::presign::Presign;
use riskintel_analysis::screening::Screening;
use riskintel_analysis::tokens::Analyzer;
use riskintel_analysis::wallets::Wallets;
use riskintel_store::clock::Clock;
use riskintel_store::{KeyWithAccount, Store};

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
    /// Reverse proxies whose `X-Forwarded-For` names the client.
    trusted_proxies: Vec<IpAddr>,
    /// The longest a metered request may take: past it, 503 with
    /// `Retry-After` (a database that stopped answering mid-query, which
    /// no pool or statement timeout of ours can see).
    request_deadline: Duration,
    /// Token analysis.
    pub analyzer: Arc<Analyzer>,
    /// Wallet analysis.
    pub wallets: Wallets,
    /// Transactions and signatures before they are signed.
    pub presign: Presign,
    /// Address screening.
    pub screening: Arc<Screening>,
    /// Market queries.
    pub market: Market,
    /// Token sentiment.
    pub sentiment: Sentiment,
    /// The risk-alert feed.
    pub feed: Feed,
    /// Plans and billing status.
    pub billing: Billing,
    /// Webhook subscriptions.
    pub webhooks: Webhooks,
    /// Users' reports of verdicts.
    pub reports: crate::disputes::Reports,
    /// The leases of jobs one instance runs (which chains' index this one leads).
    pub leases: crate::leases::Leases,
}

/// The authenticated caller of one request: its key and account (read
/// through `Deref`: `caller.key`, `caller.account`), shared with the key
/// cache rather than copied, and the time the request is served at.
#[derive(Clone, Debug)]
pub struct Caller {
    found: Arc<KeyWithAccount>,
    /// The request's time: the clock is read once per request.
    pub now: DateTime<Utc>,
}

impl std::ops::Deref for Caller {
    type Target = KeyWithAccount;

    fn deref(&self) -> &KeyWithAccount {
        &self.found
    }
}

impl ServerContext {
    /// Shared state over a store and clock.
    pub fn new(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        auth: &AuthConfig,
        analyzer: Arc<Analyzer>,
        wallets: Wallets,
        request_deadline: Duration,
        webhooks: &crate::webhooks::WebhooksConfig,
        leases: crate::leases::Leases,
        screening: Arc<Screening>,
    ) -> anyhow::Result<Self> {
        let trusted_proxies = auth
            .trusted_proxies
            .iter()
            .map(|p| {
                p.parse::<IpAddr>().map_err(|_| {
                    anyhow::anyhow!("auth.trusted_proxies: {p:?} is not an IP address")
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(ServerContext {
            keys: Keys::new(store.clone(), clock.clone()),
            meter: Meter::new(
                store.clone(),
                clock.clone(),
                auth.failed_auth_per_minute,
                leases.instance(),
            ),
            market: Market::new(analyzer.clone(), store.clone(), clock.clone()),
            wallets,
            presign: Presign::new(
                analyzer.clone(),
                store.clone(),
                clock.clone(),
                screening.clone(),
            ),
            screening,
            sentiment: Sentiment::new(analyzer.clone(), store.clone(), clock.clone()),
            feed: Feed::new(store.clone()),
            billing: Billing::new(clock.clone()),
            reports: crate::disputes::Reports::new(store.clone(), clock.clone()),
            webhooks: Webhooks::new(store.clone(), clock.clone(), webhooks)
                .map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?,
            analyzer,
            store,
            clock,
            trusted_proxies,
            request_deadline,
            leases,
        })
    }

    /// The one authenticate-and-meter step every authenticated operation
    /// goes through: refuse a key in the query string, apply the per-IP
    /// failed-authentication limit, authenticate, count the request in the
    /// account's rate window, check the operation's scope and premium rule
    /// (from [`super::access::OPERATIONS`]), count it in the monthly usage
    /// (refusing an exhausted free quota), run `operation`, and take the
    /// usage back if the answer is not 2xx. The response carries the
    /// rate-limit headers whatever the outcome.
    pub async fn metered<R: HttpCodedResponse>(
        &self,
        rqctx: &RequestContext<Self>,
        rule: &'static Access,
        operation: impl AsyncFnOnce(Caller) -> Result<R, ApiError>,
    ) -> Result<Metered<R>, ApiError> {
        self.metered_with(rqctx, rule, operation, |answer| answer)
            .await
    }

    /// As [`ServerContext::metered`], with `finish` applied to the answer
    /// before it is logged (a conditional answer's 304).
    pub async fn metered_with<R: HttpCodedResponse>(
        &self,
        rqctx: &RequestContext<Self>,
        rule: &'static Access,
        operation: impl AsyncFnOnce(Caller) -> Result<R, ApiError>,
        finish: impl FnOnce(Metered<R>) -> Metered<R>,
    ) -> Result<Metered<R>, ApiError> {
        self.metered_as(rqctx, rule, Cost::One, operation, finish)
            .await
    }

    /// As [`ServerContext::metered`] for a request of `items` items (a
    /// batch): the rate window counts every item, and the monthly usage
    /// counts what `operation` adds itself ([`Meter::add_usage`]), not the
    /// request.
    pub async fn metered_items<R: HttpCodedResponse>(
        &self,
        rqctx: &RequestContext<Self>,
        rule: &'static Access,
        items: u64,
        operation: impl AsyncFnOnce(Caller) -> Result<R, ApiError>,
    ) -> Result<Metered<R>, ApiError> {
        self.metered_as(rqctx, rule, Cost::Items(items), operation, |answer| answer)
            .await
    }

    async fn metered_as<R: HttpCodedResponse>(
        &self,
        rqctx: &RequestContext<Self>,
        rule: &'static Access,
        cost: Cost,
        operation: impl AsyncFnOnce(Caller) -> Result<R, ApiError>,
        finish: impl FnOnce(Metered<R>) -> Metered<R>,
    ) -> Result<Metered<R>, ApiError> {
        // The handler passes its own operation's rule (the conformance
        // suite calls every operation, so a handler passing another's fails it).
        debug_assert_eq!(rule.operation.id(), rqctx.endpoint.operation_id);
        let started = Instant::now();
        let account = std::sync::Mutex::new(None);
        let answer = self
            .metered_inner(rqctx, rule, cost, async |caller: Caller| {
                *account.lock().expect("account lock") = Some(caller.found.clone());
                operation(caller).await
            })
            .await
            .map(finish);
        // One line per answered request: operation, status, latency and the
        // account (never the key); the request id comes with rqctx.log.
        let status = match &answer {
            Ok(metered) => dropshot::HttpResponse::status_code(metered).as_u16(),
            Err(error) => error.http_status().as_u16(),
        };
        let account = account.into_inner().expect("account lock");
        let latency = started.elapsed();
        crate::telemetry::request_answered(&rqctx.endpoint.operation_id, status, latency);
        if !slog::Drain::is_info_enabled(&rqctx.log) {
            return answer;
        }
        slog::info!(rqctx.log, "answered";
            "operation" => &rqctx.endpoint.operation_id,
            "status" => status,
            "latency_ms" => format!("{:.3}", latency.as_secs_f64() * 1000.0),
            "account" => account.as_ref().map_or("-", |f| f.account.id.as_str()),
        );
        answer
    }

    async fn metered_inner<R: HttpCodedResponse>(
        &self,
        rqctx: &RequestContext<Self>,
        rule: &'static Access,
        cost: Cost,
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
        let ip = client_ip(
            request.remote_addr().ip(),
            request.headers(),
            &self.trusted_proxies,
        );
        let deadline = Instant::now() + self.request_deadline;
        let now = self.clock.now();
        let caller = match timeout_at(deadline, self.authenticate(ip, request.headers(), now)).await
        {
            Ok(Ok(caller)) => caller,
            Ok(Err((error, window))) => {
                return Ok(refuse(error, window));
            }
            Err(_) => return Ok(refuse(past_deadline(), None)),
        };
        let window = match cost {
            Cost::One => self.meter.hit(&caller.account, now),
            Cost::Items(items) => self.meter.hit_by(&caller.account, items, now),
        };
        if window.exceeded {
            return Ok(refuse(
                Meter::rate_limited(&caller.account, &window).into(),
                Some(window),
            ));
        }
        if !caller.key.scopes.contains(&rule.scope) {
            return Ok(refuse(
                KeyError::MissingScope(rule.scope).into(),
                Some(window),
            ));
        }
        if let Some(feature) = rule.premium {
            if let Err(refused) = Meter::require_premium(&caller.account, feature) {
                return Ok(refuse(refused.into(), Some(window)));
            }
        }
        let reservation = match timeout_at(deadline, self.meter.reserve(&caller.found, now)).await {
            Ok(Ok(reservation)) => reservation,
            Ok(Err(error)) => return Ok(refuse(error.into(), Some(window))),
            Err(_) => return Ok(refuse(past_deadline(), Some(window))),
        };
        let outcome = timeout_at(deadline, operation(caller))
            .await
            .unwrap_or_else(|_| Err(past_deadline()));
        // Usage counts 2xx answers only (a batch's answered items, counted
        // by the operation).
        self.meter
            .settle(reservation, outcome.is_ok() && matches!(cost, Cost::One));
        Ok(Metered::new(outcome).with_rate_limit(headers_of(&window)))
    }

    async fn authenticate(
        &self,
        ip: IpAddr,
        headers: &http::HeaderMap,
        now: DateTime<Utc>,
    ) -> Result<Caller, (ApiError, Option<WindowState>)> {
        let Some(raw) = headers.get("x-api-key") else {
            return Err(self.refused(
                ip,
                ApiError::new(
                    ErrorCode::Unauthorized,
                    "missing API key: send it in the x-api-key header",
                ),
                false,
            ));
        };
        let outcome = match raw.to_str() {
            Ok(raw) => self.keys.authenticate(raw.trim(), now).await,
            Err(_) => Err(KeyError::Unauthenticated(
                "malformed API key: not printable ASCII",
            )),
        };
        match outcome {
            Ok(found) => Ok(Caller { found, now }),
            Err(error @ KeyError::Unauthenticated(_)) => Err(self.refused(ip, error.into(), true)),
            // The database failed: the address's window is the only one known.
            Err(error) => Err((error.into(), Some(self.meter.failed_auth_state(ip)))),
        }
    }

    /// A failed authentication from `ip`: past the address's failure limit,
    /// 429 at once (a valid key is still served: known keys and unknown ids
    /// are answered from memory, so a key flood costs no database work);
    /// otherwise `error`, counted as a failure when `count`.
    fn refused(&self, ip: IpAddr, error: ApiError, count: bool) -> (ApiError, Option<WindowState>) {
        let window = self.meter.failed_auth_state(ip);
        if window.exceeded {
            let limited = MeterError::AuthFailuresLimited {
                limit: window.limit,
                retry_after: window.retry_after,
            };
            (limited.into(), Some(window))
        } else if count {
            (error, Some(self.meter.failed_auth_record(ip)))
        } else {
            (error, Some(window))
        }
    }
}

/// What a request counts in the rate window and the monthly usage.
#[derive(Clone, Copy)]
enum Cost {
    /// One request.
    One,
    /// A batch of items: each counts in the window; usage is counted by
    /// the operation.
    Items(u64),
}

/// A request that ran out of time (the database stopped answering).
fn past_deadline() -> ApiError {
    ApiError::new(
        ErrorCode::UpstreamUnavailable,
        "the request could not be completed in time (a dependency is not answering); retry shortly",
    )
    .with_retry_after(5)
}

fn refuse<R: HttpCodedResponse>(error: ApiError, window: Option<WindowState>) -> Metered<R> {
    let response = Metered::new(Err(error));
    match window {
        Some(window) => response.with_rate_limit(headers_of(&window)),
        None => response,
    }
}

fn headers_of(window: &WindowState) -> RateLimit {
    RateLimit {
        limit: window.limit,
        remaining: window.remaining,
        reset: window.reset,
    }
}

/// The name of a query parameter that carries a key, if any.
fn key_in_query(query: Option<&str>) -> Option<String> {
    query?.split('&').find_map(|pair| {
        let name = pair.split('=').next().unwrap_or_default();
        let name = name.to_ascii_lowercase();
        KEY_QUERY_PARAMS.contains(&name.as_str()).then_some(name)
    })
}
