-- Accounts, API keys and metering.
CREATE TABLE accounts (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    plan TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    name TEXT NOT NULL,
    scopes TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    previous_secret_hash TEXT,
    previous_valid_until TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP,
    last_used_at TIMESTAMP,
    rotated_at TIMESTAMP,
    revoked_at TIMESTAMP
);

-- A name is unique among an account's keys that are not revoked.
CREATE UNIQUE INDEX api_keys_active_name ON api_keys (account_id, name) WHERE revoked_at IS NULL;
CREATE INDEX api_keys_listing ON api_keys (account_id, created_at, id);

-- Requests per account in each fixed one-minute window.
CREATE TABLE rate_windows (
    account_id TEXT NOT NULL,
    window_start TIMESTAMP NOT NULL,
    requests BIGINT NOT NULL,
    PRIMARY KEY (account_id, window_start)
);

-- Requests answered 2xx per account in each billing period (UTC calendar month).
CREATE TABLE monthly_usage (
    account_id TEXT NOT NULL,
    period_start TIMESTAMP NOT NULL,
    requests BIGINT NOT NULL,
    PRIMARY KEY (account_id, period_start)
);
