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

-- strategos_commit_move (010), and the move's outbox row when p_outbox_token is not NULL: still one round trip.
CREATE FUNCTION strategos_commit_move(
    p_match BIGINT, p_version INTEGER, p_state TEXT, p_now DOUBLE PRECISION,
    p_seat INTEGER, p_move TEXT, p_private INTEGER, p_events TEXT,
    p_clock_kinds TEXT[], p_cancel INTEGER[],
    p_arm_kinds TEXT[], p_arm_seats INTEGER[], p_arm_due DOUBLE PRECISION[],
    p_outbox_token TEXT, p_outbox_events TEXT
) RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
    written INTEGER;
BEGIN
    written := strategos_commit_move(p_match, p_version, p_state, p_now, p_seat, p_move, p_private, p_events,
                                     p_clock_kinds, p_cancel, p_arm_kinds, p_arm_seats, p_arm_due);
    IF written IS NOT NULL AND p_outbox_token IS NOT NULL THEN
        INSERT INTO outbox (match_id, version, token, events, created_at)
        VALUES (p_match, written, p_outbox_token, p_outbox_events, p_now);
    END IF;
    RETURN written;
END
$$;
