-- Planned replies, as SQLite's 007 (comments on meaning there).
CREATE TABLE plans (
    match_id   BIGINT  NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    BIGINT  NOT NULL,
    version    INTEGER NOT NULL,
    tree       TEXT    NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE planned_moves (
    match_id BIGINT  NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    version  INTEGER NOT NULL,
    PRIMARY KEY (match_id, version)
);
