-- Leases of the jobs one instance is enough for (a chain's market index,
-- periodic pruning): held by `holder` until `expires_at`, renewed by it,
-- taken by another instance once expired. `since` is when the current
-- holder took it.
CREATE TABLE leases (
    name TEXT PRIMARY KEY NOT NULL,
    holder TEXT NOT NULL,
    since TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
