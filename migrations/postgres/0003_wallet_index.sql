-- The wallet index: how far a wallet's Transfer and Approval logs were read,
-- and the tokens and (token, spender) pairs they showed.
CREATE TABLE wallet_index (
    chain TEXT NOT NULL,
    wallet TEXT NOT NULL,
    start_block BIGINT NOT NULL,
    next_block BIGINT NOT NULL,
    first_activity_block BIGINT,
    PRIMARY KEY (chain, wallet)
);

-- kind 'token' (spender is '') or 'approval'.
CREATE TABLE wallet_contacts (
    chain TEXT NOT NULL,
    wallet TEXT NOT NULL,
    kind TEXT NOT NULL,
    token TEXT NOT NULL,
    spender TEXT NOT NULL,
    PRIMARY KEY (chain, wallet, kind, token, spender)
);
