-- The outbox also holds what a league's changes announce (bot/matches/leagues.py, league_rounds.py): such a row
-- names its league, and no match or challenge.
ALTER TABLE outbox ADD COLUMN league_id BIGINT REFERENCES leagues (id) ON DELETE CASCADE;
