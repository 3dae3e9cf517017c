-- PostgreSQL's rate_counts.window_start becomes TIMESTAMPTZ in this version;
-- SQLite keeps times as ISO-8601 text, so there is nothing to change here.
-- The file keeps both backends' migration versions the same.
SELECT 1;
