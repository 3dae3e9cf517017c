//! The delivery worker every instance runs: claim the due events (each is
//! claimed by one instance at a time), POST each, signed, to its
//! subscription's URL through the guard, and record the attempt — a 2xx
//! delivers it; anything else schedules a retry with exponential back-off
//! (jittered) until the event is `retry_for_hours` old (counted from its
//! last redelivery, if any), and a subscription
//! that failed for as long without a success is disabled.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use futures::StreamExt as _;
use rand::Rng as _;
use riskintel_api::{WebhookEvent, WebhookEventType};

use super::sealing::{SealError, Sealer};
use super::{guard, signing, WebhooksConfig};
use crate::feed::alerts::to_wire;
use riskintel_store::clock::Clock;
use riskintel_store::{Attempt, EventRow, Outcome, Store, StoreError, SubscriptionRow};

/// The header carrying the event's id.
pub const EVENT_ID_HEADER: &str = "Riskintel-Event-Id";

/// Delivers the outbox.
pub struct Deliverer {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    config: WebhooksConfig,
    /// Opens the stored signing secrets.
    sealer: Arc<Sealer>,
    /// This instance, in its claims.
    instance: String,
    /// When the delivery log was last pruned (by this instance's clock).
    pruned_at: std::sync::Mutex<Option<DateTime<Utc>>>,
    /// Whether this instance prunes (the maintenance lease).
    leases: crate::leases::Leases,
    /// HTTP clients by host and checked addresses.
    clients: std::sync::Mutex<HashMap<(String, Vec<SocketAddr>), reqwest::Client>>,
    log: slog::Logger,
}

/// Clients kept at most (all are dropped when more are needed).
const MAX_CLIENTS: usize = 256;

/// The wait before retry number `attempt` (1 for the first retry): the
/// first wait doubled each time, at most `max`.
pub fn backoff(first: Duration, max: Duration, attempt: u32) -> Duration {
    let factor = 2u32.saturating_pow(attempt.saturating_sub(1).min(30));
    first.saturating_mul(factor).min(max)
}

impl Deliverer {
    /// A worker for `store`'s outbox.
    pub fn new(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        config: &WebhooksConfig,
        sealer: Arc<Sealer>,
        log: slog::Logger,
    ) -> Deliverer {
        Deliverer {
            store,
            clock,
            config: config.clone(),
            sealer,
            instance: crate::keys::new_key_id(),
            pruned_at: Default::default(),
            leases: crate::leases::Leases::solo("webhooks", []),
            clients: Default::default(),
            log,
        }
    }

    /// Deliver every `every` and whenever `wake` is told, until `stop`
    /// turns true (a run under way finishes first). A failing run is
    /// logged once until one works again.
    pub async fn run(
        self,
        every: Duration,
        wake: Arc<tokio::sync::Notify>,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut failing = false;
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = wake.notified() => {}
                _ = stop.changed() => return,
            }
            if let Err(error) = self.prune_if_due().await {
                slog::warn!(self.log, "pruning the webhook delivery log failed"; "error" => %error);
            }
            match self.run_backlog(&stop).await {
                Ok(()) => failing = false,
                Err(error) if !failing => {
                    failing = true;
                    slog::warn!(self.log, "claiming webhook deliveries failed; retrying"; "error" => %error);
                }
                Err(_) => {}
            }
        }
    }

    /// Deliver what is due, claiming again while claims come back full
    /// (until `stop` turns true).
    async fn run_backlog(
        &self,
        stop: &tokio::sync::watch::Receiver<bool>,
    ) -> Result<(), StoreError> {
        while self.run_once().await? >= self.batch() && !*stop.borrow() {}
        Ok(())
    }

    /// Prune the delivery log only while `leases` names this instance the
    /// maintenance jobs' holder (by default, always).
    pub fn with_leases(mut self, leases: crate::leases::Leases) -> Deliverer {
        self.leases = leases;
        self
    }

    /// Once an hour, delete the finished events older than the log keeps
    /// (one instance does, the holder of the maintenance lease).
    async fn prune_if_due(&self) -> Result<(), StoreError> {
        if !self.leases.holds(crate::leases::MAINTENANCE) {
            return Ok(());
        }
        let now = self.clock.now_seconds();
        {
            let mut pruned_at = self.pruned_at.lock().expect("prune lock");
            if pruned_at.is_some_and(|at| now - at < chrono::Duration::hours(1)) {
                return Ok(());
            }
            *pruned_at = Some(now);
        }
        let days = self.config.log_retention_days.min(36_500) as i64;
        self.store
            .webhook_prune(now - chrono::Duration::days(days))
            .await?;
        Ok(())
    }

    fn batch(&self) -> usize {
        self.config.concurrency.max(1) as usize * 4
    }

    /// Claim the events due now and deliver them; how many were attempted.
    pub async fn run_once(&self) -> Result<usize, StoreError> {
        let now = self.clock.now_seconds();
        // A claim outlives the attempts it covers (the timeout, the
        // database), so it only expires when its instance died.
        let lease = chrono::Duration::milliseconds(self.config.timeout_ms as i64 * 2 + 30_000);
        let claim = format!("{}-{}", self.instance, crate::keys::new_key_id());
        let events = self
            .store
            .webhook_claim(&claim, now, now + lease, self.batch() as i64)
            .await?;
        let count = events.len();
        futures::stream::iter(events)
            .for_each_concurrent(self.config.concurrency.max(1) as usize, |event| {
                let claim = claim.clone();
                async move {
                    if let Err(error) = self.deliver(event, &claim).await {
                        slog::warn!(self.log, "recording a webhook delivery failed"; "error" => %error);
                    }
                }
            })
            .await;
        Ok(count)
    }

    async fn deliver(&self, event: EventRow, claim: &str) -> Result<(), StoreError> {
        let Some(subscription) = self.store.webhook(None, &event.subscription_id).await? else {
            // Deleted meanwhile, its events with it.
            return Ok(());
        };
        let body = match self.body(&event).await? {
            Some(body) => body,
            None => {
                return self
                    .record(
                        &event,
                        &subscription,
                        claim,
                        Outcome::Failed {
                            status: None,
                            error: "the event's alert no longer exists".into(),
                            retry_at: None,
                        },
                    )
                    .await;
            }
        };
        let secrets = match self.secrets(&subscription) {
            Ok(secrets) => secrets,
            Err(error) => {
                // The operator's key, not the receiver: the event waits,
                // and the subscription is not counted as failing.
                slog::error!(self.log, "a webhook signing secret cannot be opened; the event waits";
                    "webhook" => &subscription.id, "event" => &event.event_id, "error" => %error);
                let at = self.clock.now_seconds()
                    + chrono::Duration::seconds(self.config.retry_first_seconds.max(1) as i64);
                self.store
                    .webhook_defer(&event.event_id, claim, at, &error.to_string())
                    .await?;
                return Ok(());
            }
        };
        let started = Instant::now();
        let outcome = self.post(&event, &subscription, &secrets, body).await;
        let label = match &outcome {
            Outcome::Delivered(_) => "delivered",
            Outcome::Failed {
                retry_at: Some(_), ..
            } => "retry",
            Outcome::Failed { retry_at: None, .. } => "failed",
        };
        crate::telemetry::webhook_attempt(label, started.elapsed());
        if let Outcome::Failed {
            status,
            error,
            retry_at,
        } = &outcome
        {
            slog::info!(self.log, "webhook delivery failed";
                "webhook" => &subscription.id, "event" => &event.event_id,
                "attempt" => event.attempts + 1, "status" => status, "error" => error,
                "retry_at" => retry_at.map(|t| t.to_rfc3339()));
        }
        self.record(&event, &subscription, claim, outcome).await
    }

    /// The event's body: kept (test events), or made from its alert.
    async fn body(&self, event: &EventRow) -> Result<Option<String>, StoreError> {
        if let Some(body) = &event.body {
            return Ok(Some(body.clone()));
        }
        let Some(alert_id) = event.alert_id else {
            return Ok(None);
        };
        let Some(alert) = self.store.alert(alert_id).await? else {
            return Ok(None);
        };
        let event = WebhookEvent {
            id: event.event_id.clone(),
            event_type: WebhookEventType::RiskAlert,
            created_at: event.created_at,
            webhook_id: event.subscription_id.clone(),
            data: Some(to_wire(&alert)),
            report: None,
        };
        Ok(Some(
            serde_json::to_string(&event).expect("an event serialises"),
        ))
    }

    /// The subscription's signing secrets, opened: its own, and the one
    /// its last rotation replaced while that still signs.
    fn secrets(&self, subscription: &SubscriptionRow) -> Result<Vec<String>, SealError> {
        let open = |stored: &str| self.sealer.open(&subscription.id, stored);
        let mut secrets = vec![open(&subscription.secret)?];
        if let (Some(previous), Some(until)) = (
            subscription.previous_secret.as_deref(),
            subscription.previous_valid_until,
        ) {
            if until > self.clock.now() {
                secrets.push(open(previous)?);
            }
        }
        Ok(secrets)
    }

    /// One attempt: the guard, then the signed POST; a retry time on failure.
    async fn post(
        &self,
        event: &EventRow,
        subscription: &SubscriptionRow,
        secrets: &[String],
        body: String,
    ) -> Outcome {
        let answer = match guard::check(&subscription.url, self.config.allow_private_targets).await
        {
            Ok(target) => self.send(&target, event, secrets, body).await,
            Err(refused) => Err((None, refused.to_string())),
        };
        match answer {
            Ok(status) => Outcome::Delivered(status),
            Err((status, error)) => Outcome::Failed {
                status,
                error,
                retry_at: self.retry_at(event),
            },
        }
    }

    async fn send(
        &self,
        target: &guard::Target,
        event: &EventRow,
        secrets: &[String],
        body: String,
    ) -> Result<u16, (Option<u16>, String)> {
        let timeout = Duration::from_millis(self.config.timeout_ms.max(1));
        let client = self
            .client(target, timeout)
            .map_err(|e| (None, format!("could not prepare the request: {e}")))?;
        let signature = signing::sign(secrets, self.clock.now().timestamp(), body.as_bytes());
        let answer = client
            .post(target.url.clone())
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(signing::HEADER, signature)
            .header(EVENT_ID_HEADER, &event.event_id)
            .body(body)
            .send()
            .await
            .map_err(|e| {
                let what = if e.is_timeout() {
                    format!("no answer within {} ms", timeout.as_millis())
                } else if e.is_connect() {
                    "could not connect to the receiver".to_string()
                } else {
                    "the request failed before an answer".to_string()
                };
                (None, what)
            })?;
        let status = answer.status().as_u16();
        if answer.status().is_success() {
            Ok(status)
        } else if answer.status().is_redirection() {
            Err((
                Some(status),
                format!("the receiver answered {status} (redirects are not followed)"),
            ))
        } else {
            Err((Some(status), format!("the receiver answered {status}")))
        }
    }

    /// A client that connects to `target`'s checked addresses only, never
    /// to a new lookup (kept per host and addresses, so a receiver's
    /// connections are reused while its name resolves the same).
    fn client(
        &self,
        target: &guard::Target,
        timeout: Duration,
    ) -> Result<reqwest::Client, reqwest::Error> {
        let host = target.url.host_str().unwrap_or_default().to_string();
        let key = (host, target.addresses.clone());
        let mut clients = self.clients.lock().expect("clients lock");
        if let Some(client) = clients.get(&key) {
            return Ok(client.clone());
        }
        let mut builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(timeout)
            .pool_max_idle_per_host(2)
            .user_agent(concat!("riskintel-webhooks/", env!("CARGO_PKG_VERSION")));
        if !key.0.is_empty() {
            builder = builder.resolve_to_addrs(&key.0, &key.1);
        }
        let client = builder.build()?;
        if clients.len() >= MAX_CLIENTS {
            clients.clear();
        }
        clients.insert(key, client.clone());
        Ok(client)
    }

    /// When to try `event` again after this failed attempt; None when that
    /// would be past the time events are retried.
    fn retry_at(&self, event: &EventRow) -> Option<DateTime<Utc>> {
        let attempt = u32::try_from(event.attempts + 1).unwrap_or(u32::MAX);
        let wait = backoff(
            Duration::from_secs(self.config.retry_first_seconds.max(1)),
            Duration::from_secs(self.config.retry_max_seconds.max(1)),
            attempt,
        );
        // Up to a tenth more, so receivers that failed together are not
        // retried together.
        let jitter = rand::rng().random_range(0..=wait.as_millis() as u64 / 10);
        let wait = wait + Duration::from_millis(jitter);
        let at =
            self.clock.now_seconds() + chrono::Duration::seconds(wait.as_secs_f64().ceil() as i64);
        let retry_until = event.attempts_since() + self.retry_for();
        (at <= retry_until).then_some(at)
    }

    fn retry_for(&self) -> chrono::Duration {
        chrono::Duration::hours(self.config.retry_for_hours as i64)
    }

    async fn record(
        &self,
        event: &EventRow,
        subscription: &SubscriptionRow,
        claim: &str,
        outcome: Outcome,
    ) -> Result<(), StoreError> {
        let at = self.clock.now_seconds();
        self.store
            .webhook_record(&Attempt {
                event_id: event.event_id.clone(),
                subscription_id: subscription.id.clone(),
                claim: claim.to_string(),
                at,
                outcome,
                disable_if_failing_since: at - self.retry_for(),
            })
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_wait_twice_as_long_each_time_up_to_the_most() {
        let first = Duration::from_secs(30);
        let max = Duration::from_secs(6 * 3600);
        let waits: Vec<u64> = (1..=12).map(|n| backoff(first, max, n).as_secs()).collect();
        assert_eq!(
            waits,
            [30, 60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 21600, 21600]
        );
        assert_eq!(backoff(first, max, u32::MAX), max);
    }
}
