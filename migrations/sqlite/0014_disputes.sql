-- Disputed verdicts: users' reports of a verdict they believe wrong, and
-- the operator's overrides of a token's label.
--
-- A report is open until the operator answers it (accepted or rejected,
-- with a message). An account holds at most one open report per token
-- (the partial unique index); `reason` and `contact` are kept as given.
-- `score` and `label` are the verdict the reporter saw.
CREATE TABLE reports (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    chain TEXT NOT NULL,
    token TEXT NOT NULL,
    kind TEXT NOT NULL,
    reason TEXT NOT NULL,
    contact TEXT,
    score DOUBLE PRECISION NOT NULL,
    label TEXT NOT NULL,
    status TEXT NOT NULL,
    answer TEXT,
    answered_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX reports_one_open ON reports (account_id, chain, token) WHERE status = 'open';
CREATE INDEX reports_by_account ON reports (account_id, created_at, id);
CREATE INDEX reports_by_status ON reports (status, created_at, id);

-- The operator's overrides: one per token, in force until removed or
-- until `expires_at` (null: until removed). The engine's score and
-- signals are kept apart; only the label shown changes.
CREATE TABLE label_overrides (
    chain TEXT NOT NULL,
    token TEXT NOT NULL,
    label TEXT NOT NULL,
    reason TEXT NOT NULL,
    set_by TEXT NOT NULL,
    set_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP,
    PRIMARY KEY (chain, token)
);
