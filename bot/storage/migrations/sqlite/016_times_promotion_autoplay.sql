-- The time a move charged to its mover's clock, in seconds (NULL: a match without a clock, a move nobody chose,
-- or a move logged before this), beside the `created_at` every move already has: /history and the export show
-- both.
ALTER TABLE moves ADD COLUMN clock_used REAL;
-- How many players of each division a repeating round-robin league promotes and relegates when it opens its
-- next season (bot/leagues/seasons.py).
ALTER TABLE leagues ADD COLUMN promotion INTEGER NOT NULL DEFAULT 2;
-- A member's choice that a turn with a single legal move is played for her at once (bot/matches/actions.py).
ALTER TABLE members ADD COLUMN autoplay INTEGER NOT NULL DEFAULT 0;
