-- Address screening: the sanctions lists as loaded, one row per list
-- (its source, its version, when it was loaded and last read), and their
-- entries, one per listed address. A new version replaces a list's entries
-- in one transaction; `listed_at` is when an entry was first loaded and
-- survives the versions that keep it.
CREATE TABLE screening_lists (
    name TEXT PRIMARY KEY NOT NULL,
    source TEXT NOT NULL,
    version TEXT NOT NULL,
    published TEXT,
    entries BIGINT NOT NULL,
    loaded_at TIMESTAMP NOT NULL,
    checked_at TIMESTAMP NOT NULL
);
CREATE TABLE screening_entries (
    list TEXT NOT NULL,
    address TEXT NOT NULL,
    listed_for TEXT NOT NULL,
    entry_id TEXT NOT NULL,
    name TEXT NOT NULL,
    listed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (list, address, listed_for, entry_id)
);

-- The service's own record of addresses is read from the analyses as they
-- are made (newest last), and from the alerts of liquidity removed.
CREATE INDEX token_analyses_by_time ON token_analyses (analysed_at, chain, address);
CREATE INDEX alerts_by_kind ON alerts (kind, id);
-- Where the holder index first saw an address receive tokens, on any token.
CREATE INDEX holder_balances_by_holder ON holder_balances (chain, holder);
