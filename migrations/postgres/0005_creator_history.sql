-- A creator's other tokens (creator_history): the holder index names each
-- token's creator (first_party); their latest analyses and alerts are found
-- by the lower-case address the index uses.
CREATE INDEX log_indexes_by_first_party ON log_indexes (chain, kind, first_party);
CREATE INDEX token_analyses_by_lower_address ON token_analyses (chain, LOWER(address));
CREATE INDEX alerts_by_lower_token ON alerts (chain, LOWER(token));
