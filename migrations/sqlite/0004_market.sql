-- Market intelligence: tracked tokens and pairs, swaps, indexer progress
-- and the risk-alert feed.

-- Tokens the service watches (discovered by PairCreated, or analysed by a user).
CREATE TABLE tracked_tokens (
    chain TEXT NOT NULL,
    token TEXT NOT NULL,
    source TEXT NOT NULL,
    first_seen_block BIGINT NOT NULL,
    added_at TIMESTAMP NOT NULL,
    last_analysed_at TIMESTAMP,
    PRIMARY KEY (chain, token)
);

-- Pairs of tracked tokens; `quote` is the other token.
CREATE TABLE tracked_pairs (
    chain TEXT NOT NULL,
    pair TEXT NOT NULL,
    token TEXT NOT NULL,
    quote TEXT NOT NULL,
    dex TEXT NOT NULL,
    reserve_quote DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (chain, pair)
);

-- One row per Swap log of a tracked pair (idempotent: keyed by its log).
CREATE TABLE swaps (
    chain TEXT NOT NULL,
    pair TEXT NOT NULL,
    block BIGINT NOT NULL,
    log_index BIGINT NOT NULL,
    token TEXT NOT NULL,
    trader TEXT NOT NULL,
    side TEXT NOT NULL,
    amount_token DOUBLE PRECISION NOT NULL,
    amount_usd DOUBLE PRECISION NOT NULL,
    price_usd DOUBLE PRECISION NOT NULL,
    observed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (chain, pair, block, log_index)
);
CREATE INDEX swaps_by_token ON swaps (chain, token, observed_at);

-- Liquidity history: one row per Sync log of a tracked pair (keyed by its log).
CREATE TABLE liquidity_history (
    chain TEXT NOT NULL,
    pair TEXT NOT NULL,
    block BIGINT NOT NULL,
    log_index BIGINT NOT NULL,
    reserve_quote DOUBLE PRECISION NOT NULL,
    observed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (chain, pair, block, log_index)
);

-- Indexer progress per chain, and the hash of the last block read (re-organisations).
CREATE TABLE index_cursors (
    chain TEXT NOT NULL,
    source TEXT NOT NULL,
    next_block BIGINT NOT NULL,
    last_hash TEXT NOT NULL,
    PRIMARY KEY (chain, source)
);

-- The risk-alert feed. `event_key` makes each event's alert unique.
CREATE TABLE alerts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_key TEXT NOT NULL UNIQUE,
    chain TEXT NOT NULL,
    token TEXT NOT NULL,
    kind TEXT NOT NULL,
    severity TEXT NOT NULL,
    severity_rank BIGINT NOT NULL,
    title TEXT NOT NULL,
    detail TEXT NOT NULL,
    score_before DOUBLE PRECISION,
    label_before TEXT,
    score_after DOUBLE PRECISION,
    label_after TEXT,
    block BIGINT NOT NULL,
    observed_at TIMESTAMP NOT NULL
);
CREATE INDEX alerts_by_time ON alerts (observed_at);
