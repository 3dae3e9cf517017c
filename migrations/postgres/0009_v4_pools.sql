-- Uniswap V4 pools have no address of their own: `pair` holds the pool id
-- (0x and 64 hex digits), and the rest of the pool's key is kept so an
-- analysis can find the pool again (pools with a hook are found only from
-- the index's Initialize events). `fee` is in hundredths of a basis point;
-- `hooks` is set for V4 pools only (the zero address when there is none).
ALTER TABLE tracked_pairs ADD COLUMN fee BIGINT;
ALTER TABLE tracked_pairs ADD COLUMN tick_spacing BIGINT;
ALTER TABLE tracked_pairs ADD COLUMN hooks TEXT;
CREATE INDEX tracked_pairs_by_token ON tracked_pairs (chain, token);
