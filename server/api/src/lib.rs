//! The Risk Intelligence Service API: one dropshot API trait, what exists
//! for HTTP alone (the error envelope, `Metered`, the operations' table) and
//! the OpenAPI document generated from them. The types it speaks in are
//! `riskintel-types`', re-exported here.
//!
//! Operation names (`<resource>_<verb>`) are part of the client contract.

pub mod error;
pub mod header_cache;
pub mod metered;
pub mod openapi;
pub mod operation;
pub mod prebuilt;
pub mod token_path;

use dropshot::{
    Body, EmptyScanParams, FreeformBody, HttpResponseAccepted, HttpResponseCreated,
    HttpResponseDeleted, HttpResponseOk, PaginationParams, Path, Query, RequestContext,
    ResultsPage, TypedBody,
};

// The shared types, under the names the trait and its users have always
// used (`riskintel_api::TokenAnalysis`, `riskintel_api::token::…`).
pub use riskintel_types::*;

pub use error::ApiError;
pub use metered::{Metered, RateLimit, RateLimitHeaders};
pub use openapi::{openapi_document, OPENAPI_TITLE, OPENAPI_VERSION};
pub use operation::Operation;
pub use prebuilt::OkSerialized;
pub use token_path::TokenAt;

/// The largest body of a batch screening: 1,000 addresses with room to spare.
pub const BATCH_SCREEN_BODY_MAX_BYTES: usize = 256 * 1024;

/// The HTTP interface of the service.
#[dropshot::api_description {
    tag_config = {
        allow_other_tags = false,
        policy = dropshot::EndpointTagPolicy::ExactlyOne,
        tags = {
            "health" = { description = "Liveness of the service, its database and its chains' nodes. No API key needed." },
            "billing" = { description = "Plan, usage and limits of the calling account." },
            "api-keys" = { description = "Create, list, rotate and revoke the account's API keys. Needs the `keys:write` scope." },
            "tokens" = { description = "Token risk analysis, metadata, explanation and badge, read from the chain. Needs the `token:read` scope." },
            "market" = { description = "Market overview and top tokens from the service's own on-chain index, with a risk label on every row. Needs the `market:read` scope." },
            "feed" = { description = "The risk-alert feed. Pro and Pro+; needs the `feed:read` scope." },
            "wallets" = { description = "Wallet analysis: holdings, exposure to dangerous tokens, and approvals. Pro and Pro+; needs the `wallet:read` scope." },
            "webhooks" = { description = "Signed webhooks: the risk-alert feed pushed to your URL. Pro and Pro+; needs the `webhooks:write` scope." },
            "presign" = { description = "Before signing: what a transaction or a signature request would do to the signing wallet, the risks found and a verdict. Pro and Pro+; needs the `token:read` scope." },
            "screening" = { description = "Address screening: whether an address is on a sanctions list (the US Treasury's OFAC SDN list, and any list the operator adds), what the service's own record holds against it, and what kind of account it is. Any plan; needs the `token:read` scope." },
            "reports" = { description = "Disputed verdicts: report a token's verdict you believe wrong and follow the operator's answer. Any plan; needs the `token:read` scope." },
        },
    },
}]
pub trait RiskIntelApi {
    /// Server state shared by every request.
    type Context;

    /// Health check
    ///
    /// Reports whether the service is up, its version, whether its
    /// database answers (within a second), and each chain's node as the
    /// service's recent calls found it, with the market index's lag. Needs
    /// no API key and is not metered.
    #[endpoint { method = GET, path = "/v1/health", tags = ["health"] }]
    async fn health_get(
        rqctx: RequestContext<Self::Context>,
    ) -> Result<HttpResponseOk<Health>, ApiError>;

    /// Error reference
    ///
    /// The HTML page every `docs_url` of an error envelope points into.
    #[endpoint { method = GET, path = "/docs/errors", tags = ["health"], unpublished = true }]
    async fn error_reference_get(
        rqctx: RequestContext<Self::Context>,
    ) -> Result<http::Response<Body>, ApiError>;

    /// API reference
    ///
    /// The browsable reference of this document (Scalar), served by the
    /// binary with its assets. No API key.
    #[endpoint { method = GET, path = "/docs", tags = ["health"], unpublished = true }]
    async fn docs_get(
        rqctx: RequestContext<Self::Context>,
    ) -> Result<http::Response<Body>, ApiError>;

    /// API reference script
    ///
    /// The reference page's script, embedded in the binary.
    #[endpoint { method = GET, path = "/docs/scalar.js", tags = ["health"], unpublished = true }]
    async fn docs_script_get(
        rqctx: RequestContext<Self::Context>,
    ) -> Result<http::Response<Body>, ApiError>;

    /// OpenAPI document
    ///
    /// This document, as served. No API key.
    #[endpoint { method = GET, path = "/openapi.json", tags = ["health"], unpublished = true }]
    async fn openapi_get(
        rqctx: RequestContext<Self::Context>,
    ) -> Result<http::Response<Body>, ApiError>;

    /// Billing status
    ///
    /// The account's plan, the current billing period (UTC calendar month),
    /// requests used and remaining, overage, the per-minute limit, and whether
    /// premium features are available. Needs the `billing:read` scope.
    #[endpoint { method = GET, path = "/v1/billing/status", tags = ["billing"] }]
    async fn billing_status_get(
        rqctx: RequestContext<Self::Context>,
    ) -> Result<Metered<HttpResponseOk<BillingStatus>>, ApiError>;

    /// List API keys
    ///
    /// The account's keys that are not revoked, oldest first, in pages.
    /// Secrets are never listed.
    #[endpoint { method = GET, path = "/v1/developer/api-keys", tags = ["api-keys"] }]
    async fn api_key_list(
        rqctx: RequestContext<Self::Context>,
        query: Query<PaginationParams<EmptyScanParams, ApiKeyPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<ApiKey>>>, ApiError>;

    /// Create an API key
    ///
    /// Issues a new key for the calling account. The full key is in this
    /// response only; store it now. A name already used by another of the
    /// account's keys gives 409 `CONFLICT`.
    #[endpoint { method = POST, path = "/v1/developer/api-keys", tags = ["api-keys"] }]
    async fn api_key_create(
        rqctx: RequestContext<Self::Context>,
        body: TypedBody<ApiKeyCreate>,
    ) -> Result<Metered<HttpResponseCreated<ApiKeySecret>>, ApiError>;

    /// Get an API key
    ///
    /// One key's record. A key id of another account, or of a revoked key,
    /// gives 404 `NOT_FOUND`.
    #[endpoint { method = GET, path = "/v1/developer/api-keys/{keyId}", tags = ["api-keys"] }]
    async fn api_key_get(
        rqctx: RequestContext<Self::Context>,
        path: Path<ApiKeyPath>,
    ) -> Result<Metered<HttpResponseOk<ApiKey>>, ApiError>;

    /// Revoke an API key
    ///
    /// The key, and any previous secret still in its rotation grace period,
    /// stops working at once.
    #[endpoint { method = DELETE, path = "/v1/developer/api-keys/{keyId}", tags = ["api-keys"] }]
    async fn api_key_delete(
        rqctx: RequestContext<Self::Context>,
        path: Path<ApiKeyPath>,
    ) -> Result<Metered<HttpResponseDeleted>, ApiError>;

    /// Rotate an API key
    ///
    /// Issues a new secret under the same key id and name. The secret it
    /// replaces keeps working for 24 hours (`api_key.previous_valid_until`);
    /// a secret replaced by an earlier rotation stops working at once.
    #[endpoint { method = POST, path = "/v1/developer/api-keys/{keyId}/rotate", tags = ["api-keys"] }]
    async fn api_key_rotate(
        rqctx: RequestContext<Self::Context>,
        path: Path<ApiKeyPath>,
    ) -> Result<Metered<HttpResponseOk<ApiKeySecret>>, ApiError>;

    /// Token metadata
    ///
    /// Name, symbol, decimals, total supply, price, market cap, liquidity,
    /// pools, owner, proxy status and first-seen block, read from the chain
    /// (shares the analysis cache).
    #[endpoint { method = GET, path = "/v1/token/{chain}/{address}/meta", tags = ["tokens"] }]
    async fn token_meta_get(
        rqctx: RequestContext<Self::Context>,
        path: TokenAt,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<HttpResponseOk<TokenMetaReport>>, ApiError>;

    /// Deep token analysis
    ///
    /// Score (0 safe … 100 critical), label, every detected risk with its
    /// evidence, coverage of the checks, and metadata. Cached (see
    /// `cached_at`); `fresh=true` analyses now (Pro and Pro+). When the chain
    /// cannot be read and an earlier analysis exists, it is returned with
    /// `stale: true`.
    #[endpoint { method = GET, path = "/v1/token/{chain}/{address}/analyze", tags = ["tokens"] }]
    async fn token_analyze(
        rqctx: RequestContext<Self::Context>,
        path: TokenAt,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<OkSerialized<TokenAnalysis>>, ApiError>;

    /// Token analysis (query form)
    ///
    /// The same result as `GET /v1/token/{chain}/{address}/analyze`, with
    /// `chain` and `address` as query parameters; both forms share one cache
    /// entry.
    // Registered as `/v1/token/{chain}` because the router cannot hold a
    // literal and a variable segment side by side; the published document
    // shows it as `/v1/token/analyze?chain=…&address=…` (see openapi.rs).
    #[endpoint { method = GET, path = "/v1/token/{chain}", tags = ["tokens"] }]
    async fn token_analyze_query(
        rqctx: RequestContext<Self::Context>,
        path: Path<token::TokenQueryRoute>,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<OkSerialized<TokenAnalysis>>, ApiError>;

    /// Batch token analysis
    ///
    /// Up to 100 tokens, on any chains, in one request (Pro and Pro+,
    /// `token:read`): one entry per item in the order asked, each the
    /// token's analysis or that item's own error (422 a bad chain or
    /// address, 404 not a token, 503 its chain cannot be read now); the
    /// batch itself succeeds when the request is well formed. Items share the
    /// cache and the analyses under way with single requests, a token named
    /// twice is analysed once, and the batch has one deadline (the analysis
    /// deadline). Each item counts in the per-minute rate window; each item
    /// answered with an analysis counts as one request in the monthly usage.
    #[endpoint { method = POST, path = "/v1/tokens/analyze", tags = ["tokens"] }]
    async fn token_batch_analyze(
        rqctx: RequestContext<Self::Context>,
        body: TypedBody<BatchAnalysisRequest>,
    ) -> Result<Metered<HttpResponseOk<BatchAnalysis>>, ApiError>;

    /// Token explanation
    ///
    /// A human-readable account of the analysis: a summary a non-expert
    /// understands, what each risk means for a holder with the numbers
    /// behind it, and what could not be checked and why.
    #[endpoint { method = GET, path = "/v1/token/{chain}/{address}/explanation", tags = ["tokens"] }]
    async fn token_explanation_get(
        rqctx: RequestContext<Self::Context>,
        path: TokenAt,
        query: Query<AnalysisOptions>,
    ) -> Result<Metered<HttpResponseOk<TokenExplanation>>, ApiError>;

    /// Token badge
    ///
    /// An SVG badge (`image/svg+xml`) with the label and score, coloured by
    /// label, for embedding in web pages. Errors are badges too (grey, with
    /// the error's status), so a page embedding one never shows a broken image.
    #[endpoint { method = GET, path = "/v1/token/{chain}/{address}/badge", tags = ["tokens"] }]
    async fn token_badge_get(
        rqctx: RequestContext<Self::Context>,
        path: TokenAt,
    ) -> Result<Metered<HttpResponseOk<FreeformBody>>, ApiError>;

    /// Report a verdict
    ///
    /// Tells the operator that this token's verdict looks wrong to you
    /// (`false_positive`: labelled more dangerous than it is;
    /// `false_negative`: more dangerous than its label says; `other`), with
    /// your reason. The report records the verdict as shown now and stays
    /// `open` until the operator answers it; follow it with `GET
    /// /v1/reports/{reportId}`, or receive a `report_answered` webhook event.
    /// The token must have been analysed (404 otherwise). An account may
    /// hold one open report per token (409 for a second) and make 50
    /// reports in any 24 hours (429 past it, with `Retry-After`).
    #[endpoint { method = POST, path = "/v1/token/{chain}/{address}/reports", tags = ["reports"] }]
    async fn report_create(
        rqctx: RequestContext<Self::Context>,
        path: TokenAt,
        body: TypedBody<ReportCreate>,
    ) -> Result<Metered<HttpResponseCreated<Report>>, ApiError>;

    /// List reports
    ///
    /// The account's reports, newest first, in pages, optionally only those
    /// with one status; each with the operator's answer once there is one.
    #[endpoint { method = GET, path = "/v1/reports", tags = ["reports"] }]
    async fn report_list(
        rqctx: RequestContext<Self::Context>,
        query: Query<PaginationParams<ReportFilter, ReportPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<Report>>>, ApiError>;

    /// Get a report
    ///
    /// One of the account's reports: its status, and the operator's answer
    /// and when. A report of another account gives 404 `NOT_FOUND`.
    #[endpoint { method = GET, path = "/v1/reports/{reportId}", tags = ["reports"] }]
    async fn report_get(
        rqctx: RequestContext<Self::Context>,
        path: Path<ReportPath>,
    ) -> Result<Metered<HttpResponseOk<Report>>, ApiError>;

    /// Wallet analysis
    ///
    /// Native balance and activity, token holdings (from Transfer logs,
    /// confirmed with `balanceOf`) with their value and risk, exposure to
    /// risky, critical and unsellable tokens, and current allowances (from
    /// Approval logs, confirmed with `allowance()`) with unlimited approvals
    /// to EOAs and unknown contracts flagged. Scored like tokens. Pro and
    /// Pro+ only.
    #[endpoint { method = GET, path = "/v1/wallet/{chain}/{address}/analyze", tags = ["wallets"] }]
    async fn wallet_analyze(
        rqctx: RequestContext<Self::Context>,
        path: Path<WalletPath>,
    ) -> Result<Metered<HttpResponseOk<WalletAnalysis>>, ApiError>;

    /// Transaction simulation
    ///
    /// What a transaction would do to the wallet that signs it, before it
    /// is signed. EVM chains: one call (`from`, `to`, `value`, `data`,
    /// `gas`) or a bundle of up to 10 (`calls`, run in order in one block:
    /// approve then swap), simulated with `eth_simulateV1` on the chain's
    /// node. The answer lists the wallet's asset changes (native, ERC-20,
    /// ERC-721, ERC-1155: amounts, USD where priced, a token's transfer
    /// fee where it takes one, and the engine's verdict on tokens
    /// received), the approvals granted or revoked, every contract called,
    /// and the findings, most serious first. The verdict follows one rule:
    /// `malicious` when a finding is critical (an approval to an EOA or to
    /// an address without code, everything of a kind leaving the wallet
    /// for nothing back); `warning` when one is high or medium (an
    /// approval to a contract under a day old, or unlimited to a contract
    /// the service does not know; a `risky` or `critical` token received; a
    /// counterparty the service has seen create tokens that turned on their
    /// holders; native value kept by an unknown contract; a revert; a part
    /// not checked); `benign` only when it was simulated and nothing above
    /// was found; `unknown` when it could not be simulated (the node lacks
    /// `eth_simulateV1`), never `benign`. Counted as one request. Pro and
    /// Pro+ only.
    #[endpoint { method = POST, path = "/v1/tx/simulate", tags = ["presign"] }]
    async fn tx_simulate(
        rqctx: RequestContext<Self::Context>,
        body: TypedBody<TxSimulationRequest>,
    ) -> Result<Metered<HttpResponseOk<TxSimulation>>, ApiError>;

    /// Signature scan
    ///
    /// What a signature request would allow, before it is signed: EIP-712
    /// typed data (as a wallet receives it for `eth_signTypedData_v4`) or
    /// a `personal_sign` message. Typed data is decoded by its message's
    /// shape: EIP-2612 and DAI-style `Permit`, Permit2 `PermitSingle`,
    /// `PermitBatch`, `PermitTransferFrom` and `PermitBatchTransferFrom`,
    /// and Seaport orders (what the signer gives and what comes back to
    /// it). The domain's `chainId` must be the chain's. Judged by the same
    /// rule as a transaction: a grant to an EOA, or an order that gives
    /// assets away for nothing, is `malicious`; typed data of another kind
    /// is `unknown`. Counted as one request. Pro and Pro+ only.
    #[endpoint { method = POST, path = "/v1/signature/scan", tags = ["presign"] }]
    async fn signature_scan(
        rqctx: RequestContext<Self::Context>,
        body: TypedBody<SignatureScanRequest>,
    ) -> Result<Metered<HttpResponseOk<SignatureScan>>, ApiError>;

    /// Screen an address
    ///
    /// Whether the address is on a sanctions list for this chain
    /// (`sanctioned`, with every entry naming it in `matches`; an entry for
    /// another chain is listed with `applies: false`), the lists screened
    /// against with their versions (`stale` when one has not been read for
    /// a day past its refresh interval), what the service's own record holds
    /// against it (`flags`: deployer of tokens labelled `critical`, launch
    /// cluster of a token whose liquidity was removed, a drainer's pattern,
    /// a flagged power, a brand-new EOA), what kind of account it is
    /// (`facts`, read from the chain within the analysis deadline) and
    /// `risk`: `severe` when sanctioned, else the most serious flag. EVM
    /// addresses match in any case. Any plan; counted as one request.
    #[endpoint { method = GET, path = "/v1/address/{chain}/{address}/screen", tags = ["screening"] }]
    async fn address_screen(
        rqctx: RequestContext<Self::Context>,
        path: Path<AddressPath>,
    ) -> Result<Metered<HttpResponseOk<AddressScreen>>, ApiError>;

    /// Screen addresses in a batch
    ///
    /// Up to 1,000 addresses on any chains, answered in order from memory
    /// (the lists and the service's record; no chain facts). Each address
    /// counts as one request; one that cannot be screened (a malformed
    /// address, an unknown chain) carries its own error and the others are
    /// answered.
    #[endpoint {
        method = POST,
        path = "/v1/addresses/screen",
        tags = ["screening"],
        request_body_max_bytes = BATCH_SCREEN_BODY_MAX_BYTES,
    }]
    async fn address_batch_screen(
        rqctx: RequestContext<Self::Context>,
        body: TypedBody<AddressScreenBatchRequest>,
    ) -> Result<Metered<HttpResponseOk<AddressScreenBatch>>, ApiError>;

    /// Token sentiment
    ///
    /// Buy and sell counts and volumes, unique buyers and sellers, net flow
    /// and price change over 1 h and 24 h from the token's swaps, combined
    /// into a score from −100 (bearish) to 100 (bullish) with its
    /// components; when there is too little trading, says so instead of a
    /// number. Pro and Pro+ only.
    #[endpoint { method = GET, path = "/v1/token/{chain}/{address}/sentiment", tags = ["tokens"] }]
    async fn token_sentiment_get(
        rqctx: RequestContext<Self::Context>,
        path: TokenAt,
    ) -> Result<Metered<HttpResponseOk<TokenSentiment>>, ApiError>;

    /// Market overview
    ///
    /// Per chain and in total: tokens tracked, new tokens in 24 h, liquidity,
    /// 24 h volume, tokens per label, alerts in 24 h, the native currency's
    /// price and the largest movers.
    #[endpoint { method = GET, path = "/v1/market/overview", tags = ["market"] }]
    async fn market_overview_get(
        rqctx: RequestContext<Self::Context>,
        query: Query<OverviewQuery>,
    ) -> Result<Metered<HttpResponseOk<MarketOverview>>, ApiError>;

    /// Top tokens
    ///
    /// Tracked tokens sorted by liquidity, 24 h volume, market cap or 24 h
    /// price change (largest first), filtered by chain and label, in pages;
    /// every row carries price, liquidity, volume, change, score and label.
    #[endpoint { method = GET, path = "/v1/market/top-tokens", tags = ["market"] }]
    async fn market_top_tokens_list(
        rqctx: RequestContext<Self::Context>,
        query: Query<PaginationParams<TopTokensFilter, TopTokensPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<TopToken>>>, ApiError>;

    /// Risk-alert feed
    ///
    /// Alerts newest first: new tokens, label changes, honeypots, liquidity
    /// removed, ownership changes, proxy upgrades and mints, with the numbers
    /// and the score and label before and after. Filter by chain, minimum
    /// severity, kind and time; pages are stable while new alerts arrive.
    /// Pro and Pro+ only.
    #[endpoint { method = GET, path = "/v1/feed/risk-alerts", tags = ["feed"] }]
    async fn feed_risk_alerts_list(
        rqctx: RequestContext<Self::Context>,
        query: Query<PaginationParams<AlertFilter, AlertPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<Alert>>>, ApiError>;
    /// List webhooks
    ///
    /// The account's webhook subscriptions, oldest first, in pages. Signing
    /// secrets are never listed.
    #[endpoint { method = GET, path = "/v1/webhooks", tags = ["webhooks"] }]
    async fn webhook_list(
        rqctx: RequestContext<Self::Context>,
        query: Query<PaginationParams<EmptyScanParams, WebhookPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<Webhook>>>, ApiError>;

    /// Create a webhook
    ///
    /// Subscribes a URL to the risk-alert feed: from now on, every alert
    /// matching the filters is POSTed to it as a `WebhookEvent` (see the
    /// callback), signed in `Riskintel-Signature: t=<unix>,v1=<hex
    /// HMAC-SHA256 of "<t>.<body>">` with the secret in this response (shown
    /// this once). A delivery succeeds on any 2xx within 10 seconds;
    /// otherwise it is retried with exponential back-off (30 s, 1 min,
    /// 2 min, … at most 6 h apart) for 24 hours, with the same event id.
    /// After 24 hours of nothing but failures the subscription is disabled.
    /// The URL must be `https` to a public address (422 otherwise); an
    /// account holds at most 20 subscriptions (409 past it).
    #[endpoint { method = POST, path = "/v1/webhooks", tags = ["webhooks"] }]
    async fn webhook_create(
        rqctx: RequestContext<Self::Context>,
        body: TypedBody<WebhookCreate>,
    ) -> Result<Metered<HttpResponseCreated<WebhookSecret>>, ApiError>;

    /// Get a webhook
    ///
    /// One subscription: its filters, whether it is active, and since when
    /// its deliveries fail. An id of another account gives 404 `NOT_FOUND`.
    #[endpoint { method = GET, path = "/v1/webhooks/{webhookId}", tags = ["webhooks"] }]
    async fn webhook_get(
        rqctx: RequestContext<Self::Context>,
        path: Path<WebhookPath>,
    ) -> Result<Metered<HttpResponseOk<Webhook>>, ApiError>;

    /// Change a webhook
    ///
    /// Replaces the URL (checked as on creation: 422 when refused) or any
    /// filter given; what is omitted stays. Alerts raised from then on are
    /// matched against the new filters; events already queued go where
    /// they were going. The secret and the state do not change.
    #[endpoint { method = PATCH, path = "/v1/webhooks/{webhookId}", tags = ["webhooks"] }]
    async fn webhook_update(
        rqctx: RequestContext<Self::Context>,
        path: Path<WebhookPath>,
        body: TypedBody<WebhookUpdate>,
    ) -> Result<Metered<HttpResponseOk<Webhook>>, ApiError>;

    /// Delete a webhook
    ///
    /// Stops deliveries at once, those waiting for a retry included, and
    /// forgets the subscription and its delivery log.
    #[endpoint { method = DELETE, path = "/v1/webhooks/{webhookId}", tags = ["webhooks"] }]
    async fn webhook_delete(
        rqctx: RequestContext<Self::Context>,
        path: Path<WebhookPath>,
    ) -> Result<Metered<HttpResponseDeleted>, ApiError>;

    /// Rotate a webhook's signing secret
    ///
    /// Issues a new secret (shown this once). For 24 hours deliveries carry
    /// two signatures, `v1=` with the new secret first and `v1=` with the
    /// one it replaces, so receivers can switch without losing events; a
    /// secret replaced by an earlier rotation stops signing at once.
    #[endpoint { method = POST, path = "/v1/webhooks/{webhookId}/rotate-secret", tags = ["webhooks"] }]
    async fn webhook_secret_rotate(
        rqctx: RequestContext<Self::Context>,
        path: Path<WebhookPath>,
    ) -> Result<Metered<HttpResponseOk<WebhookSecret>>, ApiError>;

    /// Re-enable a webhook
    ///
    /// Makes a disabled subscription active again (an active one is left as
    /// it is): alerts raised from now on are delivered. Events that failed
    /// while it was failing stay failed; `redeliver` sends one again.
    #[endpoint { method = POST, path = "/v1/webhooks/{webhookId}/enable", tags = ["webhooks"] }]
    async fn webhook_enable(
        rqctx: RequestContext<Self::Context>,
        path: Path<WebhookPath>,
    ) -> Result<Metered<HttpResponseOk<Webhook>>, ApiError>;

    /// Send a test event
    ///
    /// Queues a signed `ping` event for the subscription, delivered (and
    /// retried) like any other, so an integrator can check their endpoint
    /// and signature verification; its outcome shows in the delivery log.
    /// A disabled subscription gives 409 `CONFLICT`.
    #[endpoint { method = POST, path = "/v1/webhooks/{webhookId}/test", tags = ["webhooks"] }]
    async fn webhook_test_send(
        rqctx: RequestContext<Self::Context>,
        path: Path<WebhookPath>,
    ) -> Result<Metered<HttpResponseAccepted<WebhookTestEvent>>, ApiError>;

    /// A webhook's delivery log
    ///
    /// The subscription's events, newest first, in pages: whether each was
    /// delivered, is waiting for a retry (and when) or failed, with the
    /// number of attempts and the last status or error.
    #[endpoint { method = GET, path = "/v1/webhooks/{webhookId}/deliveries", tags = ["webhooks"] }]
    async fn webhook_delivery_list(
        rqctx: RequestContext<Self::Context>,
        path: Path<WebhookPath>,
        query: Query<PaginationParams<EmptyScanParams, WebhookDeliveryPageSelector>>,
    ) -> Result<Metered<HttpResponseOk<ResultsPage<WebhookDelivery>>>, ApiError>;

    /// Redeliver an event
    ///
    /// Queues an event of the delivery log for delivery again, at once, with
    /// the same id and body (signed anew): one that failed (say while the
    /// receiver was down, before the subscription was disabled), or one that
    /// was delivered and is wanted again. Its attempts are counted again
    /// from zero, and it is retried for as long as a new event would be. A
    /// pending event is left as it is. The answer is the event's log entry. A disabled subscription
    /// gives 409 `CONFLICT` (enable it first); an event the subscription
    /// does not have, 404.
    #[endpoint {
        method = POST,
        path = "/v1/webhooks/{webhookId}/deliveries/{eventId}/redeliver",
        tags = ["webhooks"]
    }]
    async fn webhook_redeliver(
        rqctx: RequestContext<Self::Context>,
        path: Path<WebhookDeliveryPath>,
    ) -> Result<Metered<HttpResponseAccepted<WebhookDelivery>>, ApiError>;

    /// Recover failed events
    ///
    /// Queues again, at once, every event of the subscription queued at or
    /// after `since` whose delivery failed: after an outage of the receiver,
    /// typically once the subscription is enabled again. Each is sent with
    /// its id and body, like `redeliver`; delivered and pending events are
    /// left as they are. A disabled subscription gives 409 `CONFLICT`.
    #[endpoint { method = POST, path = "/v1/webhooks/{webhookId}/recover", tags = ["webhooks"] }]
    async fn webhook_recover(
        rqctx: RequestContext<Self::Context>,
        path: Path<WebhookPath>,
        body: TypedBody<WebhookRecover>,
    ) -> Result<Metered<HttpResponseAccepted<WebhookRecovery>>, ApiError>;
}
