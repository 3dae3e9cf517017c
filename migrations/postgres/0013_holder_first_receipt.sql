-- Where each holder's first tokens came from, and when: the sender and
-- block of the first Transfer to it that the holder index read. A holder
-- whose first tokens came from a pool or a router bought them; one whose
-- first tokens came from the creator was handed them.
ALTER TABLE holder_balances ADD COLUMN first_from TEXT;
ALTER TABLE holder_balances ADD COLUMN first_block BIGINT;

-- Holder indexes read before receipts were kept start again, so every
-- holder's first receipt is known (each is rebuilt on its token's next
-- analysis, within the configured look-back).
DELETE FROM holder_balances;
DELETE FROM log_indexes WHERE kind = 'holders';
