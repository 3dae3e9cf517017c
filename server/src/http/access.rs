//! Access rules as data: every metered operation's scope and whether it is
//! premium, side by side. The authenticate-and-meter step reads this table
//! by the request's operation id; a test walks it for every operation.

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

/// Every metered operation. Health and the error reference need no key.
pub const OPERATIONS: &[Access] = &[
    open("billing_status_get", Scope::BillingRead),
    open("api_key_list", Scope::KeysWrite),
    open("api_key_create", Scope::KeysWrite),
    open("api_key_get", Scope::KeysWrite),
    open("api_key_delete", Scope::KeysWrite),
    open("api_key_rotate", Scope::KeysWrite),
    open("token_meta_get", Scope::TokenRead),
    open("token_analyze", Scope::TokenRead),
    open("token_analyze_query", Scope::TokenRead),
    open("token_explanation_get", Scope::TokenRead),
    open("token_badge_get", Scope::TokenRead),
    premium("token_sentiment_get", Scope::TokenRead, "token sentiment"),
    premium("token_batch_analyze", Scope::TokenRead, "batch analysis"),
    premium("wallet_analyze", Scope::WalletRead, "wallet analysis"),
    open("market_overview_get", Scope::MarketRead),
    open("market_top_tokens_list", Scope::MarketRead),
    premium(
        "feed_risk_alerts_list",
        Scope::FeedRead,
        "the risk-alert feed",
    ),
    premium("webhook_list", Scope::WebhooksWrite, "webhooks"),
    premium("webhook_create", Scope::WebhooksWrite, "webhooks"),
    premium("webhook_get", Scope::WebhooksWrite, "webhooks"),
    premium("webhook_update", Scope::WebhooksWrite, "webhooks"),
    premium("webhook_delete", Scope::WebhooksWrite, "webhooks"),
    premium("webhook_secret_rotate", Scope::WebhooksWrite, "webhooks"),
    premium("webhook_enable", Scope::WebhooksWrite, "webhooks"),
    premium("webhook_test_send", Scope::WebhooksWrite, "webhooks"),
    premium("webhook_delivery_list", Scope::WebhooksWrite, "webhooks"),
    premium("webhook_redeliver", Scope::WebhooksWrite, "webhooks"),
    premium("webhook_recover", Scope::WebhooksWrite, "webhooks"),
];

/// The operations that need no key.
pub const UNMETERED: &[&str] = &["health_get", "error_reference_get"];

/// The rule of `operation`, if it is metered.
pub fn rule(operation: &str) -> Option<&'static Access> {
    OPERATIONS.iter().find(|a| a.operation == operation)
}

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
