-- The match service owns timers, seat kinds and what was announced; results carry what ratings need.

-- Seats may belong to someone who is not a Discord member (the computer opponent): `kind` says which, and such a
-- seat has no user id. SQLite cannot relax NOT NULL in place, so the table is rebuilt.
CREATE TABLE match_seats_new (
    match_id  INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    kind      TEXT    NOT NULL DEFAULT 'member' CHECK (kind IN ('member', 'computer')),
    user_id   INTEGER,               -- the member (NULL for a computer seat)
    user_name TEXT    NOT NULL,
    level     TEXT,                  -- a computer seat's strength
    PRIMARY KEY (match_id, seat),
    CHECK ((kind = 'member') = (user_id IS NOT NULL))
);
INSERT INTO match_seats_new (match_id, seat, kind, user_id, user_name)
    SELECT match_id, seat, 'member', user_id, user_name FROM match_seats;
DROP TABLE match_seats;
ALTER TABLE match_seats_new RENAME TO match_seats;
CREATE INDEX match_seats_by_user ON match_seats(user_id);

ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE challenge_seats ADD COLUMN kind TEXT NOT NULL DEFAULT 'member';
ALTER TABLE challenge_seats ADD COLUMN level TEXT;

-- The version whose announcement (board post, setup progress) the presenters finished: at start-up every match
-- with announced_version < version is announced again, once.
ALTER TABLE matches ADD COLUMN announced_version INTEGER NOT NULL DEFAULT 0;
UPDATE matches SET announced_version = version;
-- What ratings and records need of a finished match.
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE matches ADD COLUMN standings TEXT;       -- JSON list of seat groups, best first
ALTER TABLE matches ADD COLUMN finished_at REAL;
UPDATE matches SET finished_at = updated_at WHERE status = 'finished';

-- Every deadline is a row; one dispatcher sleeps until the earliest. `fired_at` makes firing happen once.
CREATE TABLE timers (
    id        INTEGER PRIMARY KEY,
    kind      TEXT    NOT NULL,      -- 'challenge_expiry', later clocks and reminders
    ref_id    INTEGER NOT NULL,      -- the challenge or match it belongs to
    seat      INTEGER NOT NULL DEFAULT -1,
    due_at    REAL    NOT NULL,
    fired_at  REAL,
    UNIQUE (kind, ref_id, seat)
);
CREATE INDEX timers_due ON timers(due_at) WHERE fired_at IS NULL;
INSERT INTO timers (kind, ref_id, due_at)
    SELECT 'challenge_expiry', id, expires_at FROM challenges WHERE status = 'open';
