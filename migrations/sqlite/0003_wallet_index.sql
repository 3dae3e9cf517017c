-- What a wallet's index (log_indexes kind 'wallet') found: tokens it moved
-- (kind 'token', spender '') and (token, spender) pairs it approved
-- (kind 'approval').
CREATE TABLE wallet_contacts (
    chain TEXT NOT NULL,
    wallet TEXT NOT NULL,
    kind TEXT NOT NULL,
    token TEXT NOT NULL,
    spender TEXT NOT NULL,
    PRIMARY KEY (chain, wallet, kind, token, spender)
);
