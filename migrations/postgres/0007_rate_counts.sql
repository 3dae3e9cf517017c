-- Rate windows are counted in memory by each instance and published here
-- every sync interval: one row per instance, account and one-minute
-- window; each instance enforces its own count plus the others' latest.
DROP TABLE rate_windows;
CREATE TABLE rate_counts (
    instance TEXT NOT NULL,
    account_id TEXT NOT NULL,
    window_start TIMESTAMP NOT NULL,
    requests BIGINT NOT NULL,
    PRIMARY KEY (instance, account_id, window_start)
);
CREATE INDEX rate_counts_by_window ON rate_counts (window_start, account_id);
