-- The outbox also holds what a league's changes announce (bot/matches/leagues.py, league_rounds.py): such a row
-- names its league, and no match or challenge.
ALTER TABLE outbox ADD COLUMN league_id BIGINT REFERENCES leagues (id) ON DELETE CASCADE;
-- The last round whose pairings were announced: written with that announcement once the round's matches started,
-- so a stop between the two announces it at the next start (leagues before this: every round announced).
ALTER TABLE leagues ADD COLUMN announced_round INTEGER NOT NULL DEFAULT 0;
UPDATE leagues SET announced_round = round;
