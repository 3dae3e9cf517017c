-- 0007 gave rate_counts.window_start a TIMESTAMP; every other time column is
-- TIMESTAMPTZ, and the bound values are timestamptz, so the column follows.
-- The stored values were written in UTC (sqlx's session time zone).
ALTER TABLE rate_counts
    ALTER COLUMN window_start TYPE TIMESTAMPTZ USING window_start AT TIME ZONE 'UTC';
