-- The outbox: what a unit of work committed that must still be announced (serialized service events), written in
-- the same unit as the change. The process that wrote a row presents it and deletes it; a row a stop or a crash
-- left behind is presented at the next start (bot/matches/outbox.py). `token` names the unit that wrote it.
CREATE TABLE outbox (
    id         BIGSERIAL PRIMARY KEY,
    match_id   BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    token      TEXT NOT NULL,
    events     TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX outbox_token ON outbox (token);

-- strategos_commit_move (010) writes the move's outbox row too (when p_outbox_token is not NULL): still one trip.
DROP FUNCTION strategos_commit_move(BIGINT, INTEGER, TEXT, DOUBLE PRECISION, INTEGER, TEXT, INTEGER, TEXT, TEXT[],
                                    INTEGER[], TEXT[], INTEGER[], DOUBLE PRECISION[]);
CREATE FUNCTION strategos_commit_move(
    p_match BIGINT, p_version INTEGER, p_state TEXT, p_now DOUBLE PRECISION,
    p_seat INTEGER, p_move TEXT, p_private INTEGER, p_events TEXT,
    p_clock_kinds TEXT[], p_cancel INTEGER[],
    p_arm_kinds TEXT[], p_arm_seats INTEGER[], p_arm_due DOUBLE PRECISION[],
    p_outbox_token TEXT, p_outbox_events TEXT
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
    IF p_outbox_token IS NOT NULL THEN
        INSERT INTO outbox (match_id, version, token, events, created_at)
        VALUES (p_match, p_version + 1, p_outbox_token, p_outbox_events, p_now);
    END IF;
    RETURN p_version + 1;
END
$$;
