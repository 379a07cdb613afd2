-- Server leagues, as SQLite's 006 (comments on meaning there).
CREATE TABLE leagues (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id       BIGINT  NOT NULL,
    channel_id     BIGINT  NOT NULL,
    name           TEXT    NOT NULL,
    name_key       TEXT    NOT NULL,
    season         INTEGER NOT NULL DEFAULT 1,
    previous_id    BIGINT  REFERENCES leagues(id),
    game           TEXT    NOT NULL,
    format         TEXT    NOT NULL CHECK (format IN ('round_robin', 'swiss')),
    rounds         INTEGER,
    total_rounds   INTEGER,
    table_size     INTEGER NOT NULL DEFAULT 2,
    clock_seconds  INTEGER,
    rated          INTEGER NOT NULL DEFAULT 1,
    division_size  INTEGER NOT NULL DEFAULT 10,
    signup_hours   DOUBLE PRECISION NOT NULL,
    repeat         TEXT    NOT NULL DEFAULT 'none' CHECK (repeat IN ('none', 'monthly')),
    organiser_id   BIGINT  NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'signup'
                   CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    signup_ends_at DOUBLE PRECISION NOT NULL,
    created_at     DOUBLE PRECISION NOT NULL,
    started_at     DOUBLE PRECISION,
    finished_at    DOUBLE PRECISION,
    round          INTEGER NOT NULL DEFAULT 0,
    results_shown  INTEGER NOT NULL DEFAULT 0,
    message_id     BIGINT,
    thread_id      BIGINT,
    UNIQUE (guild_id, name_key, season)
);
CREATE INDEX leagues_by_status ON leagues(status);

CREATE TABLE league_players (
    league_id BIGINT  NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    user_id   BIGINT  NOT NULL,
    user_name TEXT    NOT NULL,
    joined_at DOUBLE PRECISION NOT NULL,
    rating    DOUBLE PRECISION,
    division  INTEGER NOT NULL DEFAULT 1,
    left_at   DOUBLE PRECISION,
    PRIMARY KEY (league_id, user_id)
);

CREATE TABLE league_tables (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id    BIGINT  NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    round        INTEGER NOT NULL,
    division     INTEGER NOT NULL,
    board        INTEGER NOT NULL,
    players      TEXT    NOT NULL,
    challenge_id BIGINT  REFERENCES challenges(id),
    UNIQUE (league_id, round, division, board)
);
CREATE INDEX league_tables_by_challenge ON league_tables(challenge_id);
