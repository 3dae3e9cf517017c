-- Token analyses (the cache, and the stale fallback), and the holder index.
CREATE TABLE token_analyses (
    chain TEXT NOT NULL,
    address TEXT NOT NULL,
    result TEXT NOT NULL,
    analysed_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (chain, address)
);

-- How far a log index has read: kind 'holders' (subject: a token's
-- Transfer logs) or 'wallet' (subject: a wallet's Transfer and Approval logs).
CREATE TABLE log_indexes (
    chain TEXT NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    start_block BIGINT NOT NULL,
    next_block BIGINT NOT NULL,
    first_block BIGINT,
    -- holders: the recipient of the first mint (the token's creator), when the index starts at genesis.
    first_party TEXT,
    PRIMARY KEY (chain, kind, subject)
);

-- Net balance per holder from the indexed Transfer logs (signed decimal
-- text; `sort_key` is the same value as a float, for ordering).
CREATE TABLE holder_balances (
    chain TEXT NOT NULL,
    token TEXT NOT NULL,
    holder TEXT NOT NULL,
    balance TEXT NOT NULL,
    sort_key DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (chain, token, holder)
);
CREATE INDEX holder_balances_top ON holder_balances (chain, token, sort_key);
