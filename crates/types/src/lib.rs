//! The ground floor of the Risk Intelligence Service: the ids and enums
//! (`ChainId`, `CheckId`, severities, plans, scopes), and the wire views of
//! every resource (one module each) with their serde and schemars derives,
//! shared by every floor above. It knows no HTTP: the endpoint trait and what
//! exists for HTTP alone live in `riskintel-api`.

pub mod batch;
pub mod billing;
pub mod chain;
pub mod checks;
pub mod disputes;
pub mod error;
pub mod health;
pub mod keys;
pub mod market;
pub mod presign;
pub mod screening;
pub mod serialized;
pub mod stored;
pub mod tidy;
pub mod token;
pub mod wallet;
pub mod webhooks;

pub use batch::{BatchAnalysis, BatchAnalysisRequest, BatchEntry, BatchItem, BATCH_MAX_ITEMS};
pub use billing::{BillingStatus, Plan};
pub use chain::ChainId;
pub use checks::CheckId;
pub use disputes::{
    LabelOverride, Report, ReportCreate, ReportFilter, ReportKind, ReportPageSelector, ReportPath,
    ReportStatus, REPORTS_PER_DAY, REPORT_CONTACT_MAX, REPORT_REASON_MAX,
};
pub use error::{ErrorCode, ErrorDetail};
pub use health::{ChainHealth, DatabaseHealth, Health, HealthStatus, NodeStatus};
pub use keys::{ApiKey, ApiKeyCreate, ApiKeyPageSelector, ApiKeyPath, ApiKeySecret, Scope};
pub use market::{
    Alert, AlertFilter, AlertKind, AlertPageSelector, FlowWindow, LabelCounts, MarketOverview,
    MarketSummary, Mover, OverviewQuery, SentimentComponents, SentimentLabel, SeverityCounts,
    TokenSentiment, TopToken, TopTokensFilter, TopTokensPageSelector, TopTokensSort,
};
pub use presign::{
    ApprovalChange, ApprovalKind, AssetChange, AssetKind, AuthorityChange, AuthorityKind,
    ContractCalled, Direction, EvmCall, PresignVerdict, Risk, RiskKind, SignatureKind,
    SignatureScan, SignatureScanRequest, SimulationStatus, TokenVerdict, TxSimulation,
    TxSimulationRequest, SIMULATION_MAX_CALLS,
};
pub use screening::{
    AddressFacts, AddressFlag, AddressFlagKind, AddressKind, AddressPath, AddressScreen,
    AddressScreenBatch, AddressScreenBatchRequest, AddressScreenEntry, SanctionMatch, ScreenRisk,
    ScreeningList, SCREEN_BATCH_MAX,
};
pub use serialized::Serialized;
pub use stored::WireName;
pub use token::{
    AnalysisOptions, BuyLimits, Check, CheckStatus, Coverage, Evidence, Horizon, HorizonSell, Pool,
    PoolKind, RiskLabel, Severity, Signal, SignalCategory, SignalExplanation, TokenAnalysis,
    TokenExplanation, TokenMeta, TokenMetaReport, TokenPath, TradeSimulation, TradeStep,
    UncheckedItem,
};
pub use wallet::{
    AccountKind, Approval, Exposure, Holding, HoldingRisk, LaunchRole, PartyRole, ScreenedParty,
    WalletAnalysis, WalletFacts, WalletPath,
};
pub use webhooks::{
    DeliveryState, Webhook, WebhookCreate, WebhookDelivery, WebhookDeliveryPageSelector,
    WebhookDeliveryPath, WebhookEvent, WebhookEventType, WebhookPageSelector, WebhookPath,
    WebhookRecover, WebhookRecovery, WebhookSecret, WebhookState, WebhookTestEvent, WebhookUpdate,
    WATCHED_TOKENS_MAX, WEBHOOKS_PER_ACCOUNT,
};
