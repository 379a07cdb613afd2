-- The outbox also holds what a new match's start and a challenge's end announce (bot/matches/challenges.py): a
-- challenge's end belongs to no match, so a row names its match, its challenge or both.
ALTER TABLE outbox ALTER COLUMN match_id DROP NOT NULL;
ALTER TABLE outbox ADD COLUMN challenge_id BIGINT REFERENCES challenges (id) ON DELETE CASCADE;
