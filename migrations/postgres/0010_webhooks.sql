-- Signed webhooks: subscriptions and their outbox.
--
-- `chains`, `kinds` and `tokens` are JSON arrays of strings (empty: all).
-- The signing secret is kept as is, because every delivery is signed with
-- it; `previous_secret` signs too until `previous_valid_until`.
CREATE TABLE webhook_subscriptions (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    url TEXT NOT NULL,
    chains TEXT NOT NULL,
    kinds TEXT NOT NULL,
    tokens TEXT NOT NULL,
    min_severity TEXT NOT NULL,
    min_severity_rank BIGINT NOT NULL,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_valid_until TIMESTAMPTZ,
    secret_rotated_at TIMESTAMPTZ,
    state TEXT NOT NULL,
    disabled_reason TEXT,
    failing_since TIMESTAMPTZ,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX webhook_subscriptions_by_account ON webhook_subscriptions (account_id, created_at, id);

-- The outbox: one row per event and subscription, written in the
-- transaction that records the alert (so an alert is never without its
-- deliveries), and the delivery log. `event_id` is unique, so an event is
-- queued once; an instance claims a due row until `claimed_until`, and
-- only its `claim` may record the attempt. `body` is kept for test events;
-- an alert's is made from the alert, the same on every attempt.
CREATE TABLE webhook_events (
    event_id TEXT PRIMARY KEY NOT NULL,
    subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    event_type TEXT NOT NULL,
    alert_id BIGINT,
    body TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    state TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    next_attempt_at TIMESTAMPTZ NOT NULL,
    claim TEXT,
    claimed_until TIMESTAMPTZ,
    last_status BIGINT,
    last_error TEXT,
    delivered_at TIMESTAMPTZ
);
CREATE INDEX webhook_events_due ON webhook_events (state, next_attempt_at);
CREATE INDEX webhook_events_log ON webhook_events (subscription_id, created_at, event_id);
