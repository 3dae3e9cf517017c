//! Signed webhooks: subscriptions to the risk-alert feed (this module),
//! the signature receivers verify ([`signing`]), the guard that keeps
//! deliveries off private networks ([`guard`]), and the worker that
//! delivers the outbox ([`deliver`]). Alerts are queued for delivery in
//! the transaction that records them (the store's `alert_insert`).
//! HTTP-agnostic.

mod config;
pub mod deliver;
mod events;
pub mod guard;
pub mod sealing;
pub mod signing;

pub use config::{SealingKey, WebhooksConfig};
pub use events::kept_event;

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use riskintel_api::{
    AlertKind, DeliveryState, Severity, Webhook, WebhookCreate, WebhookDelivery, WebhookEventType,
    WebhookState, WebhookUpdate, WireName, WATCHED_TOKENS_MAX, WEBHOOKS_PER_ACCOUNT,
};

use crate::feed::alerts::severity_rank;
use riskintel_chains::parse_evm_address;
use riskintel_store::clock::Clock;
use riskintel_store::{EventRow, Store, StoreError, SubscriptionRow};

/// What a signing secret starts with (the log redactor knows it).
pub const SECRET_PREFIX: &str = "whsec_";

/// How long a rotated-out secret still signs.
const ROTATION_GRACE_HOURS: i64 = 24;

/// Why a webhook operation was refused.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    /// No such subscription in the account.
    #[error("webhook {0:?} not found")]
    NotFound(String),
    /// No such event in the subscription's delivery log.
    #[error("event {0:?} not found in the webhook's delivery log")]
    EventNotFound(String),
    /// A value of the request is not acceptable.
    #[error("{0}")]
    Invalid(String),
    /// The request conflicts with the subscription's state or the account's limit.
    #[error("{0}")]
    Conflict(String),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why an operation that queues events refuses a disabled subscription.
fn disabled(id: &str) -> WebhookError {
    WebhookError::Conflict(format!("webhook {id:?} is disabled; enable it first"))
}

/// A fresh subscription id.
fn new_id() -> String {
    format!("wh_{}", crate::keys::new_key_id())
}

/// A fresh signing secret.
fn new_secret() -> String {
    format!("{SECRET_PREFIX}{}", crate::keys::new_secret())
}

/// A watch-list entry in the form alerts carry: an EVM address checksummed,
/// a Solana address as given (base58 of 32 bytes).
fn watched_token(text: &str) -> Result<String, WebhookError> {
    let text = text.trim();
    if text.starts_with("0x") || text.starts_with("0X") {
        let address =
            parse_evm_address(text).map_err(|e| WebhookError::Invalid(format!("tokens: {e}")))?;
        return Ok(address.to_checksum(None));
    }
    match bs58::decode(text).into_vec() {
        Ok(bytes) if bytes.len() == 32 => Ok(text.to_string()),
        _ => Err(WebhookError::Invalid(format!(
            "tokens: {text:?} is neither an EVM address (0x and 40 hex digits) nor a Solana address (base58 of 32 bytes)"
        ))),
    }
}

fn sorted_unique(mut items: Vec<String>) -> Vec<String> {
    items.sort();
    items.dedup();
    items
}

fn json_list(items: &[String]) -> String {
    serde_json::to_string(items).expect("strings serialise")
}

/// The subscription as the API shows it, at `now`.
pub fn view(row: &SubscriptionRow, now: DateTime<Utc>) -> Webhook {
    Webhook {
        id: row.id.clone(),
        url: row.url.clone(),
        chains: row.chain_ids(),
        kinds: row
            .kind_names()
            .iter()
            .filter_map(|k| AlertKind::from_wire_name(k))
            .collect(),
        min_severity: row.min_severity,
        tokens: row.token_addresses(),
        state: row.state,
        disabled_reason: row.disabled_reason.clone(),
        failing_since: row.failing_since,
        created_at: row.created_at,
        secret_rotated_at: row.secret_rotated_at,
        previous_secret_valid_until: row.previous_valid_until.filter(|until| *until > now),
    }
}

/// An event's delivery as the API shows it.
pub fn delivery_view(row: &EventRow) -> WebhookDelivery {
    WebhookDelivery {
        event_id: row.event_id.clone(),
        event_type: row.event_type,
        alert_id: row.alert_id.map(|id| id.to_string()),
        state: row.state,
        attempts: row.attempts.clamp(0, i64::from(u32::MAX)) as u32,
        last_status: row.last_status.and_then(|s| u16::try_from(s).ok()),
        last_error: row.last_error.clone(),
        created_at: row.created_at,
        next_attempt_at: (row.state == DeliveryState::Pending).then_some(row.next_attempt_at),
        delivered_at: row.delivered_at,
        redelivered_at: row.redelivered_at,
    }
}

/// The account side of webhooks: subscriptions, secrets, test events, the log.
#[derive(Clone)]
pub struct Webhooks {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    allow_private_targets: bool,
    /// Seals signing secrets for the store.
    sealer: Arc<sealing::Sealer>,
    /// Wakes the delivery worker.
    wake: Arc<tokio::sync::Notify>,
}

impl Webhooks {
    /// Webhooks over `store`; an error when the sealing key is malformed.
    pub fn new(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        config: &WebhooksConfig,
    ) -> Result<Webhooks, String> {
        Ok(Webhooks {
            store,
            clock,
            allow_private_targets: config.allow_private_targets,
            sealer: Arc::new(sealing::Sealer::new(&config.secrets_key.0)?),
            wake: Arc::new(tokio::sync::Notify::new()),
        })
    }

    /// With a sealing key, seal the secrets stored as issued (before the key
    /// was set); how many subscriptions were sealed.
    pub async fn seal_stored(&self) -> Result<usize, WebhookError> {
        if !self.sealer.seals() {
            return Ok(0);
        }
        let mut sealed = 0;
        for row in self.store.webhook_unsealed(SECRET_PREFIX).await? {
            let seal = |stored: &str| match stored.starts_with(SECRET_PREFIX) {
                true => self.sealer.seal(&row.id, stored),
                false => stored.to_string(),
            };
            let secret = seal(&row.secret);
            let previous = row.previous_secret.as_deref().map(seal);
            // Changed meanwhile (rotated by a request): sealed then, or next start.
            if self
                .store
                .webhook_reseal(&row, &secret, previous.as_deref())
                .await?
            {
                sealed += 1;
            }
        }
        Ok(sealed)
    }

    /// What seals and opens the stored signing secrets (the delivery worker's too).
    pub fn sealer(&self) -> Arc<sealing::Sealer> {
        self.sealer.clone()
    }

    /// What wakes this instance's delivery worker: told when an event is queued here.
    pub fn wake(&self) -> Arc<tokio::sync::Notify> {
        self.wake.clone()
    }

    /// Subscribe `request.url` for `account_id`; the row and its secret.
    pub async fn create(
        &self,
        account_id: &str,
        request: WebhookCreate,
    ) -> Result<(SubscriptionRow, String), WebhookError> {
        let secret = new_secret();
        let id = new_id();
        let mut row = SubscriptionRow {
            secret: self.sealer.seal(&id, &secret),
            id,
            account_id: account_id.to_string(),
            url: String::new(),
            chains: json_list(&[]),
            kinds: json_list(&[]),
            tokens: json_list(&[]),
            min_severity: Severity::Info,
            min_severity_rank: severity_rank(Severity::Info),
            previous_secret: None,
            previous_valid_until: None,
            secret_rotated_at: None,
            state: WebhookState::Active,
            disabled_reason: None,
            failing_since: None,
            created_at: self.clock.now_seconds(),
        };
        let change = WebhookUpdate {
            url: Some(request.url),
            chains: request.chains,
            kinds: request.kinds,
            min_severity: request.min_severity,
            tokens: request.tokens,
        };
        self.apply(&mut row, change).await?;
        if !self
            .store
            .webhook_insert(&row, WEBHOOKS_PER_ACCOUNT as i64)
            .await?
        {
            return Err(WebhookError::Conflict(format!(
                "the account already has {WEBHOOKS_PER_ACCOUNT} webhooks, the most it may hold; delete one first"
            )));
        }
        Ok((row, secret))
    }

    /// Change the URL or filters of one of the account's subscriptions.
    pub async fn update(
        &self,
        account_id: &str,
        id: &str,
        change: WebhookUpdate,
    ) -> Result<SubscriptionRow, WebhookError> {
        let mut row = self.get(account_id, id).await?;
        self.apply(&mut row, change).await?;
        if !self.store.webhook_update(&row).await? {
            return Err(WebhookError::NotFound(id.to_string()));
        }
        Ok(row)
    }

    /// Check each value `change` gives and set it on `row`.
    async fn apply(
        &self,
        row: &mut SubscriptionRow,
        change: WebhookUpdate,
    ) -> Result<(), WebhookError> {
        if let Some(url) = change.url {
            if url.len() > 2048 {
                return Err(WebhookError::Invalid("url: at most 2048 characters".into()));
            }
            let target = guard::check(&url, self.allow_private_targets)
                .await
                .map_err(|e| WebhookError::Invalid(e.to_string()))?;
            row.url = target.url.to_string();
        }
        if let Some(chains) = change.chains {
            for chain in &chains {
                riskintel_chains::chain_from_id(chain)
                    .map_err(|e| WebhookError::Invalid(format!("chains: {e}")))?;
            }
            row.chains = json_list(&sorted_unique(chains));
        }
        if let Some(kinds) = change.kinds {
            let kinds = kinds
                .into_iter()
                .map(|k| k.wire_name().to_string())
                .collect();
            row.kinds = json_list(&sorted_unique(kinds));
        }
        if let Some(tokens) = change.tokens {
            if tokens.len() > WATCHED_TOKENS_MAX {
                return Err(WebhookError::Invalid(format!(
                    "tokens: at most {WATCHED_TOKENS_MAX} addresses, not {}",
                    tokens.len()
                )));
            }
            let tokens = tokens
                .iter()
                .map(|t| watched_token(t))
                .collect::<Result<Vec<_>, _>>()?;
            row.tokens = json_list(&sorted_unique(tokens));
        }
        if let Some(min_severity) = change.min_severity {
            row.min_severity = min_severity;
            row.min_severity_rank = severity_rank(min_severity);
        }
        Ok(())
    }

    /// The account's subscriptions, oldest first, after `after`.
    pub async fn list(
        &self,
        account_id: &str,
        after: Option<(DateTime<Utc>, String)>,
        limit: usize,
    ) -> Result<Vec<SubscriptionRow>, WebhookError> {
        Ok(self.store.webhooks(account_id, after, limit as i64).await?)
    }

    /// One of the account's subscriptions.
    pub async fn get(&self, account_id: &str, id: &str) -> Result<SubscriptionRow, WebhookError> {
        self.store
            .webhook(Some(account_id), id)
            .await?
            .ok_or_else(|| WebhookError::NotFound(id.to_string()))
    }

    /// Delete one of the account's subscriptions, its queued events with it.
    pub async fn delete(&self, account_id: &str, id: &str) -> Result<(), WebhookError> {
        if self.store.webhook_delete(account_id, id).await? {
            Ok(())
        } else {
            Err(WebhookError::NotFound(id.to_string()))
        }
    }

    /// A new signing secret; the old one signs too for 24 hours.
    pub async fn rotate(
        &self,
        account_id: &str,
        id: &str,
    ) -> Result<(SubscriptionRow, String), WebhookError> {
        let secret = new_secret();
        let now = self.clock.now_seconds();
        let until = now + Duration::hours(ROTATION_GRACE_HOURS);
        if !self
            .store
            .webhook_rotate(account_id, id, &self.sealer.seal(id, &secret), now, until)
            .await?
        {
            return Err(WebhookError::NotFound(id.to_string()));
        }
        Ok((self.get(account_id, id).await?, secret))
    }

    /// Make a disabled subscription active again.
    pub async fn enable(
        &self,
        account_id: &str,
        id: &str,
    ) -> Result<SubscriptionRow, WebhookError> {
        let row = self.get(account_id, id).await?;
        if row.state == WebhookState::Active {
            return Ok(row);
        }
        if !self.store.webhook_enable(account_id, id).await? {
            return Err(WebhookError::NotFound(id.to_string()));
        }
        self.get(account_id, id).await
    }

    /// One of the account's subscriptions, refused (409) when disabled.
    async fn active(&self, account_id: &str, id: &str) -> Result<SubscriptionRow, WebhookError> {
        let row = self.get(account_id, id).await?;
        match row.state {
            WebhookState::Active => Ok(row),
            WebhookState::Disabled => Err(disabled(id)),
        }
    }

    /// Queue a `ping` event for one of the account's subscriptions; its id.
    pub async fn ping(&self, account_id: &str, id: &str) -> Result<String, WebhookError> {
        let row = self.active(account_id, id).await?;
        let event = kept_event(
            "ping",
            row.id,
            WebhookEventType::Ping,
            None,
            self.clock.now_seconds(),
        );
        self.store.webhook_event_insert(&event).await?;
        self.wake.notify_one();
        Ok(event.event_id)
    }

    /// Queue an event of one of the account's subscriptions again (one
    /// pending already is left as it is); the event.
    pub async fn redeliver(
        &self,
        account_id: &str,
        id: &str,
        event_id: &str,
    ) -> Result<EventRow, WebhookError> {
        self.active(account_id, id).await?;
        let event = self
            .store
            .webhook_redeliver(id, event_id, self.clock.now_seconds())
            .await?
            .ok_or_else(|| WebhookError::EventNotFound(event_id.to_string()))?;
        if event.state != DeliveryState::Pending {
            // Disabled since it was read above.
            return Err(disabled(id));
        }
        self.wake.notify_one();
        Ok(event)
    }

    /// Queue again every failed event of one of the account's subscriptions
    /// queued at or after `since`; how many.
    pub async fn recover(
        &self,
        account_id: &str,
        id: &str,
        since: DateTime<Utc>,
    ) -> Result<u64, WebhookError> {
        self.active(account_id, id).await?;
        // Nothing was queued in the future, nor before 1970 (and no
        // database need see a time far outside its range).
        let now = self.clock.now_seconds();
        if since > now {
            return Ok(0);
        }
        let since = since.max(DateTime::UNIX_EPOCH);
        let queued = self.store.webhook_recover(id, since, now).await?;
        if queued == 0 {
            // Disabled since it was read above?
            self.active(account_id, id).await?;
        }
        self.wake.notify_one();
        Ok(queued)
    }

    /// A page of one of the account's subscriptions' delivery log, newest first.
    pub async fn deliveries(
        &self,
        account_id: &str,
        id: &str,
        before: Option<(DateTime<Utc>, String)>,
        limit: usize,
    ) -> Result<Vec<EventRow>, WebhookError> {
        self.get(account_id, id).await?;
        Ok(self.store.webhook_events(id, before, limit as i64).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watched_tokens_take_the_form_alerts_carry() {
        assert_eq!(
            watched_token("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48").unwrap(),
            "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
        );
        assert!(watched_token("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eb48").is_err());
        let mint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
        assert_eq!(watched_token(mint).unwrap(), mint);
        assert!(watched_token("not-an-address").is_err());
        assert!(watched_token("0x1234").is_err());
    }
}
