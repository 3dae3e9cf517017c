//! Access rules as data: every metered operation's scope and whether it is
//! premium, side by side, one constant each. Each handler passes its
//! operation's constant to the authenticate-and-meter step (so a rule
//! cannot be missing at run time); a test walks the table for every
//! operation of the API description.

use riskintel_api::{Operation, Scope};

/// Who may call one operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// The operation.
    pub operation: Operation,
    /// The scope a key needs.
    pub scope: Scope,
    /// For a premium operation (Pro and Pro+), the feature as named in the refusal.
    pub premium: Option<&'static str>,
}

const fn open(operation: Operation, scope: Scope) -> Access {
    Access {
        operation,
        scope,
        premium: None,
    }
}

const fn premium(operation: Operation, scope: Scope, feature: &'static str) -> Access {
    Access {
        operation,
        scope,
        premium: Some(feature),
    }
}

/// `billing_status_get`.
pub const BILLING_STATUS_GET: Access = open(Operation::BillingStatusGet, Scope::BillingRead);
/// `api_key_list`.
pub const API_KEY_LIST: Access = open(Operation::ApiKeyList, Scope::KeysWrite);
/// `api_key_create`.
pub const API_KEY_CREATE: Access = open(Operation::ApiKeyCreate, Scope::KeysWrite);
/// `api_key_get`.
pub const API_KEY_GET: Access = open(Operation::ApiKeyGet, Scope::KeysWrite);
/// `api_key_delete`.
pub const API_KEY_DELETE: Access = open(Operation::ApiKeyDelete, Scope::KeysWrite);
/// `api_key_rotate`.
pub const API_KEY_ROTATE: Access = open(Operation::ApiKeyRotate, Scope::KeysWrite);
/// `token_meta_get`.
pub const TOKEN_META_GET: Access = open(Operation::TokenMetaGet, Scope::TokenRead);
/// `token_analyze`.
pub const TOKEN_ANALYZE: Access = open(Operation::TokenAnalyze, Scope::TokenRead);
/// `token_analyze_query`.
pub const TOKEN_ANALYZE_QUERY: Access = open(Operation::TokenAnalyzeQuery, Scope::TokenRead);
/// `token_explanation_get`.
pub const TOKEN_EXPLANATION_GET: Access = open(Operation::TokenExplanationGet, Scope::TokenRead);
/// `token_badge_get`.
pub const TOKEN_BADGE_GET: Access = open(Operation::TokenBadgeGet, Scope::TokenRead);
/// `token_sentiment_get` (premium: token sentiment).
pub const TOKEN_SENTIMENT_GET: Access = premium(
    Operation::TokenSentimentGet,
    Scope::TokenRead,
    "token sentiment",
);
/// `token_batch_analyze` (premium: batch analysis).
pub const TOKEN_BATCH_ANALYZE: Access = premium(
    Operation::TokenBatchAnalyze,
    Scope::TokenRead,
    "batch analysis",
);
/// `wallet_analyze` (premium: wallet analysis).
pub const WALLET_ANALYZE: Access = premium(
    Operation::WalletAnalyze,
    Scope::WalletRead,
    "wallet analysis",
);
/// `tx_simulate` (premium: transaction simulation).
pub const TX_SIMULATE: Access = premium(
    Operation::TxSimulate,
    Scope::TokenRead,
    "transaction simulation",
);
/// `signature_scan` (premium: signature scanning).
pub const SIGNATURE_SCAN: Access = premium(
    Operation::SignatureScan,
    Scope::TokenRead,
    "signature scanning",
);
/// `address_screen`: every plan.
pub const ADDRESS_SCREEN: Access = open(Operation::AddressScreen, Scope::TokenRead);
/// `address_batch_screen`: every plan, each address counted.
pub const ADDRESS_BATCH_SCREEN: Access = open(Operation::AddressBatchScreen, Scope::TokenRead);
/// `market_overview_get`.
pub const MARKET_OVERVIEW_GET: Access = open(Operation::MarketOverviewGet, Scope::MarketRead);
/// `market_top_tokens_list`.
pub const MARKET_TOP_TOKENS_LIST: Access = open(Operation::MarketTopTokensList, Scope::MarketRead);
/// `feed_risk_alerts_list` (premium: the risk-alert feed).
pub const FEED_RISK_ALERTS_LIST: Access = premium(
    Operation::FeedRiskAlertsList,
    Scope::FeedRead,
    "the risk-alert feed",
);
/// `webhook_list` (premium: webhooks).
pub const WEBHOOK_LIST: Access = premium(Operation::WebhookList, Scope::WebhooksWrite, "webhooks");
/// `webhook_create` (premium: webhooks).
pub const WEBHOOK_CREATE: Access =
    premium(Operation::WebhookCreate, Scope::WebhooksWrite, "webhooks");
/// `webhook_get` (premium: webhooks).
pub const WEBHOOK_GET: Access = premium(Operation::WebhookGet, Scope::WebhooksWrite, "webhooks");
/// `webhook_update` (premium: webhooks).
pub const WEBHOOK_UPDATE: Access =
    premium(Operation::WebhookUpdate, Scope::WebhooksWrite, "webhooks");
/// `webhook_delete` (premium: webhooks).
pub const WEBHOOK_DELETE: Access =
    premium(Operation::WebhookDelete, Scope::WebhooksWrite, "webhooks");
/// `webhook_secret_rotate` (premium: webhooks).
pub const WEBHOOK_SECRET_ROTATE: Access = premium(
    Operation::WebhookSecretRotate,
    Scope::WebhooksWrite,
    "webhooks",
);
/// `webhook_enable` (premium: webhooks).
pub const WEBHOOK_ENABLE: Access =
    premium(Operation::WebhookEnable, Scope::WebhooksWrite, "webhooks");
/// `webhook_test_send` (premium: webhooks).
pub const WEBHOOK_TEST_SEND: Access =
    premium(Operation::WebhookTestSend, Scope::WebhooksWrite, "webhooks");
/// `webhook_delivery_list` (premium: webhooks).
pub const WEBHOOK_DELIVERY_LIST: Access = premium(
    Operation::WebhookDeliveryList,
    Scope::WebhooksWrite,
    "webhooks",
);
/// `webhook_redeliver` (premium: webhooks).
pub const WEBHOOK_REDELIVER: Access = premium(
    Operation::WebhookRedeliver,
    Scope::WebhooksWrite,
    "webhooks",
);
/// `webhook_recover` (premium: webhooks).
pub const WEBHOOK_RECOVER: Access =
    premium(Operation::WebhookRecover, Scope::WebhooksWrite, "webhooks");

/// `report_create`.
pub const REPORT_CREATE: Access = open(Operation::ReportCreate, Scope::TokenRead);
/// `report_list`.
pub const REPORT_LIST: Access = open(Operation::ReportList, Scope::TokenRead);
/// `report_get`.
pub const REPORT_GET: Access = open(Operation::ReportGet, Scope::TokenRead);

/// Every metered operation. Health, the error reference, the API reference
/// and the document need no key.
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
    TX_SIMULATE,
    SIGNATURE_SCAN,
    ADDRESS_SCREEN,
    ADDRESS_BATCH_SCREEN,
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
    REPORT_CREATE,
    REPORT_LIST,
    REPORT_GET,
];

/// The operations that need no key.
pub const UNMETERED: &[Operation] = &[
    Operation::HealthGet,
    Operation::ErrorReferenceGet,
    Operation::DocsGet,
    Operation::DocsScriptGet,
    Operation::OpenapiGet,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_of_the_api_has_exactly_one_rule() {
        // `Operation` is the trait's operations (a test of the API crate).
        for op in <Operation as riskintel_api::WireName>::VARIANTS {
            let rules = OPERATIONS.iter().filter(|a| a.operation == *op).count();
            let open = UNMETERED.contains(op) as usize;
            assert_eq!(rules + open, 1, "{op}");
        }
    }
}
