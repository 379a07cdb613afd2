-- Server leagues: a league (one season of it), its players and its tables. A table's match is an ordinary match,
-- created from a challenge whose seats are all taken: the table points at the challenge, the challenge at its
-- match, and each link is written once (a table's challenge in the same transaction as the challenge itself, the
-- match by the challenge's own start). Written in SQL that SQLite and PostgreSQL both accept.

CREATE TABLE leagues (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,            -- where the announcement is, and beside it the match threads
    name           TEXT    NOT NULL,
    name_key       TEXT    NOT NULL,            -- the name casefolded: one league of a name per server and season
    season         INTEGER NOT NULL DEFAULT 1,
    previous_id    INTEGER REFERENCES leagues(id),  -- the season this one repeats
    game           TEXT    NOT NULL,
    format         TEXT    NOT NULL CHECK (format IN ('round_robin', 'swiss')),
    rounds         INTEGER,                     -- Swiss rounds asked for (NULL: the default for the field)
    total_rounds   INTEGER,                     -- fixed at the start
    table_size     INTEGER NOT NULL DEFAULT 2,
    clock_seconds  INTEGER,
    rated          INTEGER NOT NULL DEFAULT 1,
    division_size  INTEGER NOT NULL DEFAULT 10,
    signup_hours   REAL    NOT NULL,
    repeat         TEXT    NOT NULL DEFAULT 'none' CHECK (repeat IN ('none', 'monthly')),
    organiser_id   INTEGER NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'signup'
                   CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    signup_ends_at REAL    NOT NULL,
    created_at     REAL    NOT NULL,
    started_at     REAL,
    finished_at    REAL,
    round          INTEGER NOT NULL DEFAULT 0,  -- the newest round whose tables are written (0: none yet)
    results_shown  INTEGER NOT NULL DEFAULT 0,  -- finished tables the last standings post counted
    message_id     INTEGER,                     -- the announcement with Join / Leave
    thread_id      INTEGER,                     -- the league's thread: rounds, standings, the champion
    UNIQUE (guild_id, name_key, season)
);
CREATE INDEX leagues_by_status ON leagues(status);

CREATE TABLE league_players (
    league_id INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL,
    user_name TEXT    NOT NULL,
    joined_at REAL    NOT NULL,
    rating    REAL,                            -- displayed rating at the start: divisions and the last tie-break
    division  INTEGER NOT NULL DEFAULT 1,
    left_at   REAL,                            -- left after the start: out of later rounds, still in the table
    PRIMARY KEY (league_id, user_id)
);

CREATE TABLE league_tables (
    id           INTEGER PRIMARY KEY,
    league_id    INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    round        INTEGER NOT NULL,
    division     INTEGER NOT NULL,
    board        INTEGER NOT NULL,
    players      TEXT    NOT NULL,              -- JSON: member ids in seat order; a single id is a bye
    challenge_id INTEGER REFERENCES challenges(id),
    UNIQUE (league_id, round, division, board)
);
CREATE INDEX league_tables_by_challenge ON league_tables(challenge_id);
