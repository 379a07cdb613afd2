-- The analyses asked for, until posted, as SQLite's 018.
CREATE TABLE analysis_requests (
    match_id BIGINT PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    guild_id BIGINT,
    lang TEXT NOT NULL,
    asked_by BIGINT NOT NULL,
    asked_at DOUBLE PRECISION NOT NULL,
    posted_at DOUBLE PRECISION
);
