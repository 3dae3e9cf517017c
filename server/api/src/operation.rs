//! Every operation of the API, typed: the server's access rules and the
//! document's precise step match on it (so an operation without a rule
//! or without its statuses does not compile), and a test ties it to the
//! trait's operations both ways.

use riskintel_types::stored::WireName;

/// One operation of [`crate::RiskIntelApi`], by its id (the handler's name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    HealthGet,
    ErrorReferenceGet,
    DocsGet,
    DocsScriptGet,
    OpenapiGet,
    BillingStatusGet,
    ApiKeyList,
    ApiKeyCreate,
    ApiKeyGet,
    ApiKeyDelete,
    ApiKeyRotate,
    TokenMetaGet,
    TokenAnalyze,
    TokenAnalyzeQuery,
    TokenExplanationGet,
    TokenBadgeGet,
    TokenSentimentGet,
    TokenBatchAnalyze,
    WalletAnalyze,
    TxSimulate,
    SignatureScan,
    AddressScreen,
    AddressBatchScreen,
    MarketOverviewGet,
    MarketTopTokensList,
    FeedRiskAlertsList,
    WebhookList,
    WebhookCreate,
    WebhookGet,
    WebhookUpdate,
    WebhookDelete,
    WebhookSecretRotate,
    WebhookEnable,
    WebhookTestSend,
    WebhookDeliveryList,
    WebhookRedeliver,
    WebhookRecover,
    ReportCreate,
    ReportList,
    ReportGet,
}

riskintel_types::wire_names!(Operation {
    HealthGet = "health_get",
    ErrorReferenceGet = "error_reference_get",
    DocsGet = "docs_get",
    DocsScriptGet = "docs_script_get",
    OpenapiGet = "openapi_get",
    BillingStatusGet = "billing_status_get",
    ApiKeyList = "api_key_list",
    ApiKeyCreate = "api_key_create",
    ApiKeyGet = "api_key_get",
    ApiKeyDelete = "api_key_delete",
    ApiKeyRotate = "api_key_rotate",
    TokenMetaGet = "token_meta_get",
    TokenAnalyze = "token_analyze",
    TokenAnalyzeQuery = "token_analyze_query",
    TokenExplanationGet = "token_explanation_get",
    TokenBadgeGet = "token_badge_get",
    TokenSentimentGet = "token_sentiment_get",
    TokenBatchAnalyze = "token_batch_analyze",
    WalletAnalyze = "wallet_analyze",
    TxSimulate = "tx_simulate",
    SignatureScan = "signature_scan",
    AddressScreen = "address_screen",
    AddressBatchScreen = "address_batch_screen",
    MarketOverviewGet = "market_overview_get",
    MarketTopTokensList = "market_top_tokens_list",
    FeedRiskAlertsList = "feed_risk_alerts_list",
    WebhookList = "webhook_list",
    WebhookCreate = "webhook_create",
    WebhookGet = "webhook_get",
    WebhookUpdate = "webhook_update",
    WebhookDelete = "webhook_delete",
    WebhookSecretRotate = "webhook_secret_rotate",
    WebhookEnable = "webhook_enable",
    WebhookTestSend = "webhook_test_send",
    WebhookDeliveryList = "webhook_delivery_list",
    WebhookRedeliver = "webhook_redeliver",
    WebhookRecover = "webhook_recover",
    ReportCreate = "report_create",
    ReportList = "report_list",
    ReportGet = "report_get",
});

impl Operation {
    /// The operation id, as the document and the handler name it.
    pub fn id(self) -> &'static str {
        self.wire_name()
    }

    /// The operation with this id.
    pub fn from_id(id: &str) -> Option<Operation> {
        Operation::from_wire_name(id)
    }

    /// Whether its `200` carries an `ETag` and it answers `If-None-Match`
    /// with `304` (the views of one token's analysis).
    pub fn is_conditional(self) -> bool {
        matches!(
            self,
            Operation::TokenAnalyze
                | Operation::TokenAnalyzeQuery
                | Operation::TokenMetaGet
                | Operation::TokenExplanationGet
                | Operation::TokenBadgeGet
        )
    }
}

impl std::fmt::Display for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operations_are_the_traits() {
        let description = crate::risk_intel_api_mod::stub_api_description()
            .expect("the API description is valid");
        let mut trait_ids: Vec<String> = description
            .into_router()
            .endpoints(None)
            .map(|(_, _, endpoint)| endpoint.operation_id.clone())
            .collect();
        trait_ids.sort();
        let mut ours: Vec<String> = Operation::VARIANTS
            .iter()
            .map(|op| op.id().to_string())
            .collect();
        ours.sort();
        assert_eq!(ours, trait_ids);
    }
}
