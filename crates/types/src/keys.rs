//! API-key management: `/v1/developer/api-keys`.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A permission a key can hold. A key without the scope an operation needs
/// gets 403 `FORBIDDEN`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Scope {
    /// Token analysis, metadata, explanation, sentiment and badges.
    #[serde(rename = "token:read")]
    TokenRead,
    /// Market overview and top tokens.
    #[serde(rename = "market:read")]
    MarketRead,
    /// The risk-alert feed.
    #[serde(rename = "feed:read")]
    FeedRead,
    /// Wallet analysis.
    #[serde(rename = "wallet:read")]
    WalletRead,
    /// Billing status.
    #[serde(rename = "billing:read")]
    BillingRead,
    /// Creating, listing, rotating and revoking the account's keys.
    #[serde(rename = "keys:write")]
    KeysWrite,
    /// Managing the account's webhook subscriptions and reading their delivery logs.
    #[serde(rename = "webhooks:write")]
    WebhooksWrite,
}

impl Scope {
    /// Every scope.
    pub const ALL: [Scope; 7] = [
        Scope::TokenRead,
        Scope::MarketRead,
        Scope::FeedRead,
        Scope::WalletRead,
        Scope::BillingRead,
        Scope::KeysWrite,
        Scope::WebhooksWrite,
    ];

    /// The scopes a new key gets when the request names none.
    pub const READ: [Scope; 5] = [
        Scope::TokenRead,
        Scope::MarketRead,
        Scope::FeedRead,
        Scope::WalletRead,
        Scope::BillingRead,
    ];

    /// The scope as written on the wire, e.g. `token:read`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::TokenRead => "token:read",
            Scope::MarketRead => "market:read",
            Scope::FeedRead => "feed:read",
            Scope::WalletRead => "wallet:read",
            Scope::BillingRead => "billing:read",
            Scope::KeysWrite => "keys:write",
            Scope::WebhooksWrite => "webhooks:write",
        }
    }

    /// Parse the wire form.
    pub fn parse(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|scope| scope.as_str() == s)
    }
}

/// An API key's record. The secret is never part of it.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ApiKey {
    /// The key id: the `<id>` in `ri_live_<id>.<secret>`; stays the same across rotations.
    pub id: String,
    /// The name given at creation, unique among the account's keys.
    pub name: String,
    /// The key with its secret elided, e.g. `ri_live_ab12cd34ef56.…`, for display.
    pub display: String,
    /// What the key may do.
    pub scopes: Vec<Scope>,
    /// When the key was created.
    pub created_at: DateTime<Utc>,
    /// When the key stops working; null for never.
    pub expires_at: Option<DateTime<Utc>>,
    /// When the key was last used to authenticate a request (updated at most once a minute).
    pub last_used_at: Option<DateTime<Utc>>,
    /// When the key was last rotated; null if never.
    pub rotated_at: Option<DateTime<Utc>>,
    /// Until when the secret replaced by the last rotation still works; null when none does.
    pub previous_valid_until: Option<DateTime<Utc>>,
}

/// A request to create a key.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ApiKeyCreate {
    /// A name for the key, unique among the account's keys (1 to 64 characters), e.g. the service that uses it.
    pub name: String,
    /// Scopes for the new key; defaults to every read scope. Only a key holding `keys:write` may grant `keys:write`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes: Option<Vec<Scope>>,
    /// When the key should stop working (must be in the future); omit for a key that does not expire.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<DateTime<Utc>>,
}

/// A newly issued secret: the full key, shown this once, and the key's record.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ApiKeySecret {
    /// The full key, `ri_live_<id>.<64 hex>`. It is not stored and cannot be shown again.
    pub key: String,
    /// The key's record.
    pub api_key: ApiKey,
}

/// Path of one key.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct ApiKeyPath {
    /// The key id (the `<id>` part of the key).
    #[serde(rename = "keyId")]
    pub key_id: String,
}

/// Where a listing of keys resumes: the last key of the previous page.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ApiKeyPageSelector {
    /// Creation time of the last key listed.
    pub created_at: DateTime<Utc>,
    /// Id of the last key listed.
    pub id: String,
}
