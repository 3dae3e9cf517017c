//! Access rules as data: every metered operation's scope and whether it is
//! premium, side by side, one constant each. Each handler passes its
//! operation's constant to the authenticate-and-meter step (so a rule
//! cannot be missing at run time); a test walks the table for every
//! operation of the API description.

use riskintel_api::Scope;

/// Who may call one operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// The operation id (the handler's name).
    pub operation: &'static str,
    /// The scope a key needs.
    pub scope: Scope,
    /// For a premium operation (Pro and Pro+), the feature as named in the refusal.
    pub premium: Option<&'static str>,
}

const fn open(operation: &'static str, scope: Scope) -> Access {
    Access {
        operation,
        scope,
        premium: None,
    }
}

const fn premium(operation: &'static str, scope: Scope, feature: &'static str) -> Access {
    Access {
        operation,
        scope,
        premium: Some(feature),
    }
}

/// `billing_status_get`.
pub const BILLING_STATUS_GET: Access = open("billing_status_get", Scope::BillingRead);
/// `api_key_list`.
pub const API_KEY_LIST: Access = open("api_key_list", Scope::KeysWrite);
/// `api_key_create`.
pub const API_KEY_CREATE: Access = open("api_key_create", Scope::KeysWrite);
/// `api_key_get`.
pub const API_KEY_GET: Access = open("api_key_get", Scope::KeysWrite);
/// `api_key_delete`.
pub const API_KEY_DELETE: Access = open("api_key_delete", Scope::KeysWrite);
/// `api_key_rotate`.
pub const API_KEY_ROTATE: Access = open("api_key_rotate", Scope::KeysWrite);
/// `token_meta_get`.
pub const TOKEN_META_GET: Access = open("token_meta_get", Scope::TokenRead);
/// `token_analyze`.
pub const TOKEN_ANALYZE: Access = open("token_analyze", Scope::TokenRead);
/// `token_analyze_query`.
pub const TOKEN_ANALYZE_QUERY: Access = open("token_analyze_query", Scope::TokenRead);
/// `token_explanation_get`.
pub const TOKEN_EXPLANATION_GET: Access = open("token_explanation_get", Scope::TokenRead);
/// `token_badge_get`.
pub const TOKEN_BADGE_GET: Access = open("token_badge_get", Scope::TokenRead);
/// `token_sentiment_get` (premium: token sentiment).
pub const TOKEN_SENTIMENT_GET: Access =
    premium("token_sentiment_get", Scope::TokenRead, "token sentiment");
/// `token_batch_analyze` (premium: batch analysis).
pub const TOKEN_BATCH_ANALYZE: Access =
    premium("token_batch_analyze", Scope::TokenRead, "batch analysis");
/// `wallet_analyze` (premium: wallet analysis).
pub const WALLET_ANALYZE: Access = premium("wallet_analyze", Scope::WalletRead, "wallet analysis");
/// `market_overview_get`.
pub const MARKET_OVERVIEW_GET: Access = open("market_overview_get", Scope::MarketRead);
/// `market_top_tokens_list`.
pub const MARKET_TOP_TOKENS_LIST: Access = open("market_top_tokens_list", Scope::MarketRead);
/// `feed_risk_alerts_list` (premium: the risk-alert feed).
pub const FEED_RISK_ALERTS_LIST: Access = premium(
    "feed_risk_alerts_list",
    Scope::FeedRead,
    "the risk-alert feed",
);
/// `webhook_list` (premium: webhooks).
pub const WEBHOOK_LIST: Access = premium("webhook_list", Scope::WebhooksWrite, "webhooks");
/// `webhook_create` (premium: webhooks).
pub const WEBHOOK_CREATE: Access = premium("webhook_create", Scope::WebhooksWrite, "webhooks");
/// `webhook_get` (premium: webhooks).
pub const WEBHOOK_GET: Access = premium("webhook_get", Scope::WebhooksWrite, "webhooks");
/// `webhook_update` (premium: webhooks).
pub const WEBHOOK_UPDATE: Access = premium("webhook_update", Scope::WebhooksWrite, "webhooks");
/// `webhook_delete` (premium: webhooks).
pub const WEBHOOK_DELETE: Access = premium("webhook_delete", Scope::WebhooksWrite, "webhooks");
/// `webhook_secret_rotate` (premium: webhooks).
pub const WEBHOOK_SECRET_ROTATE: Access =
    premium("webhook_secret_rotate", Scope::WebhooksWrite, "webhooks");
/// `webhook_enable` (premium: webhooks).
pub const WEBHOOK_ENABLE: Access = premium("webhook_enable", Scope::WebhooksWrite, "webhooks");
/// `webhook_test_send` (premium: webhooks).
pub const WEBHOOK_TEST_SEND: Access =
    premium("webhook_test_send", Scope::WebhooksWrite, "webhooks");
/// `webhook_delivery_list` (premium: webhooks).
pub const WEBHOOK_DELIVERY_LIST: Access =
    premium("webhook_delivery_list", Scope::WebhooksWrite, "webhooks");
/// `webhook_redeliver` (premium: webhooks).
pub const WEBHOOK_REDELIVER: Access =
    premium("webhook_redeliver", Scope::WebhooksWrite, "webhooks");
/// `webhook_recover` (premium: webhooks).
pub const WEBHOOK_RECOVER: Access = premium("webhook_recover", Scope::WebhooksWrite, "webhooks");

/// Every metered operation. Health and the error reference need no key.
pub const OPERATIONS: &[Access] = &[
    BILLING_STATUS_GET,
    API_KEY_LIST,
    API_KEY_CREATE,
    API_KEY_GET,
    API_KEY_DELETE,
    API_KEY_ROTATE,
    TOKEN_META_GET,
    TOKEN_ANALYZE,
    TOKEN_ANALYZE_QUERY,
    TOKEN_EXPLANATION_GET,
    TOKEN_BADGE_GET,
    TOKEN_SENTIMENT_GET,
    TOKEN_BATCH_ANALYZE,
    WALLET_ANALYZE,
    MARKET_OVERVIEW_GET,
    MARKET_TOP_TOKENS_LIST,
    FEED_RISK_ALERTS_LIST,
    WEBHOOK_LIST,
    WEBHOOK_CREATE,
    WEBHOOK_GET,
    WEBHOOK_UPDATE,
    WEBHOOK_DELETE,
    WEBHOOK_SECRET_ROTATE,
    WEBHOOK_ENABLE,
    WEBHOOK_TEST_SEND,
    WEBHOOK_DELIVERY_LIST,
    WEBHOOK_REDELIVER,
    WEBHOOK_RECOVER,
];

/// The operations that need no key.
pub const UNMETERED: &[&str] = &["health_get", "error_reference_get"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_of_the_api_has_exactly_one_rule() {
        let document: serde_json::Value =
            serde_json::from_str(&riskintel_api::openapi_document()).expect("document");
        let mut described: Vec<String> = document["paths"]
            .as_object()
            .expect("paths")
            .values()
            .flat_map(|item| {
                item.as_object()
                    .expect("path item")
                    .values()
                    .map(|op| op["operationId"].as_str().expect("id").to_string())
            })
            .chain(["error_reference_get".to_string()])
            .collect();
        described.sort();
        let mut ruled: Vec<String> = OPERATIONS
            .iter()
            .map(|a| a.operation.to_string())
            .chain(UNMETERED.iter().map(|o| o.to_string()))
            .collect();
        ruled.sort();
        assert_eq!(described, ruled);
    }
}
