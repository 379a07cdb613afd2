-- A move that does not end its match, in one round trip: the same statements as the move unit in
-- bot/storage/matches.py (move_steps), run by the server; tests/test_move_write_paths.py compares the rows both
-- leave. Sent one by one, with BEGIN and COMMIT, they cost six round trips, and in a burst of 1,000 moves those
-- trips (each answered by a server process the cores must schedule), not the disk, were what made PostgreSQL slow.
-- Returns the new version, or NULL when the match is no longer at p_version (the caller raises VersionConflict;
-- nothing was written).
CREATE FUNCTION strategos_commit_move(
    p_match BIGINT, p_version INTEGER, p_state TEXT, p_now DOUBLE PRECISION,
    p_seat INTEGER, p_move TEXT, p_private INTEGER, p_events TEXT,
    p_clock_kinds TEXT[], p_cancel INTEGER[],
    p_arm_kinds TEXT[], p_arm_seats INTEGER[], p_arm_due DOUBLE PRECISION[]
) RETURNS INTEGER LANGUAGE plpgsql AS $$
BEGIN
    UPDATE matches SET state = p_state, version = p_version + 1, status = 'active', result = NULL,
                       draw_agreed = NULL, updated_at = p_now, standings = NULL, finished_at = NULL
    WHERE id = p_match AND version = p_version AND status = 'active';
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    INSERT INTO moves (match_id, version, seat, move, private, events, created_at)
    VALUES (p_match, p_version + 1, p_seat, p_move, p_private, p_events, p_now);
    IF cardinality(p_cancel) > 0 THEN
        DELETE FROM timers WHERE ref_id = p_match AND seat = ANY (p_cancel) AND kind = ANY (p_clock_kinds);
    END IF;
    INSERT INTO timers (kind, ref_id, seat, due_at)
    SELECT armed.kind, p_match, armed.seat, armed.due_at
    FROM unnest(p_arm_kinds, p_arm_seats, p_arm_due) AS armed (kind, seat, due_at)
    ON CONFLICT (kind, ref_id, seat) DO UPDATE SET due_at = excluded.due_at, fired_at = NULL, claimed_by = NULL,
                                                   lease_until = NULL;
    RETURN p_version + 1;
END
$$;
