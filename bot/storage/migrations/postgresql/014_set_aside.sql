-- A damaged match set aside, as SQLite's 014: why (`set_aside`) and since when (`set_aside_at`).
ALTER TABLE matches ADD COLUMN set_aside TEXT;
ALTER TABLE matches ADD COLUMN set_aside_at DOUBLE PRECISION;
