-- A match whose stored record is damaged (its state is not valid JSON or its engine refuses it, its seats are
-- missing, or its log does not replay to its state) is set aside: `set_aside` says why, `set_aside_at` since when.
-- The bot then leaves it alone (its timers wait, its players are told) until the operator ends or restores it
-- (python -m bot damaged); the mark also keeps the operator's log line to one per match.
ALTER TABLE matches ADD COLUMN set_aside TEXT;
ALTER TABLE matches ADD COLUMN set_aside_at REAL;
