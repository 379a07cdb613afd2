-- The time a move charged to its mover's clock, in seconds (NULL: a match without a clock, a move nobody chose,
-- or a move logged before this), beside the `created_at` every move already has: /history and the export show
-- both.
ALTER TABLE moves ADD COLUMN clock_used DOUBLE PRECISION;
-- How many players of each division a repeating round-robin league promotes and relegates when it opens its
-- next season (bot/leagues/seasons.py).
ALTER TABLE leagues ADD COLUMN promotion INTEGER NOT NULL DEFAULT 2;
-- A member's choice that a turn with a single legal move is played for her at once (bot/matches/actions.py).
ALTER TABLE members ADD COLUMN autoplay INTEGER NOT NULL DEFAULT 0;

-- strategos_commit_move (011), and the move's clock_used: still one round trip.
CREATE FUNCTION strategos_commit_move(
    p_match BIGINT, p_version INTEGER, p_state TEXT, p_now DOUBLE PRECISION,
    p_seat INTEGER, p_move TEXT, p_private INTEGER, p_events TEXT,
    p_clock_kinds TEXT[], p_cancel INTEGER[],
    p_arm_kinds TEXT[], p_arm_seats INTEGER[], p_arm_due DOUBLE PRECISION[],
    p_outbox_token TEXT, p_outbox_events TEXT, p_clock_used DOUBLE PRECISION
) RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
    written INTEGER;
BEGIN
    written := strategos_commit_move(p_match, p_version, p_state, p_now, p_seat, p_move, p_private, p_events,
                                     p_clock_kinds, p_cancel, p_arm_kinds, p_arm_seats, p_arm_due,
                                     p_outbox_token, p_outbox_events);
    IF written IS NOT NULL AND p_clock_used IS NOT NULL THEN
        UPDATE moves SET clock_used = p_clock_used WHERE match_id = p_match AND version = written;
    END IF;
    RETURN written;
END
$$;
