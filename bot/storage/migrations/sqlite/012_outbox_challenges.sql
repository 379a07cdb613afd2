-- The outbox also holds what a new match's start and a challenge's end announce (bot/matches/challenges.py): a
-- challenge's end belongs to no match, so a row names its match, its challenge or both. SQLite cannot drop a NOT
-- NULL: the table is rebuilt with its rows.
CREATE TABLE outbox_012 (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id     INTEGER REFERENCES matches (id) ON DELETE CASCADE,
    version      INTEGER NOT NULL,
    token        TEXT NOT NULL,
    events       TEXT NOT NULL,
    created_at   REAL NOT NULL,
    challenge_id INTEGER REFERENCES challenges (id) ON DELETE CASCADE
);
INSERT INTO outbox_012 (id, match_id, version, token, events, created_at)
    SELECT id, match_id, version, token, events, created_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_012 RENAME TO outbox;
CREATE INDEX outbox_token ON outbox (token);
