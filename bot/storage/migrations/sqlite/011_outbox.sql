-- The outbox: what a unit of work committed that must still be announced (serialized service events), written in
-- the same unit as the change. The process that wrote a row presents it and deletes it; a row a stop or a crash
-- left behind is presented at the next start (bot/matches/outbox.py). `token` names the unit that wrote it.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    token      TEXT NOT NULL,
    events     TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX outbox_token ON outbox (token);
