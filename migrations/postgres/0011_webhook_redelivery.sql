-- An event sent again on request (`POST …/deliveries/{eventId}/redeliver`):
-- when it was queued again. Its attempts count from then, and it is retried
-- for as long from then as a new event is from its creation.
ALTER TABLE webhook_events ADD COLUMN redelivered_at TIMESTAMPTZ;

-- Alerts are queued only for active subscriptions at or below their severity.
CREATE INDEX webhook_subscriptions_active ON webhook_subscriptions (state, min_severity_rank);
