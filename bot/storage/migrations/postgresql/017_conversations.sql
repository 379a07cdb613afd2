-- The interactions that answer conversations, and the questions waiting there, as SQLite's 017.
CREATE TABLE conversation_answers (
    channel_id BIGINT PRIMARY KEY,
    application_id BIGINT NOT NULL,
    token TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    followups INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE conversation_posts (
    id BIGSERIAL PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    match_id BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    lang TEXT NOT NULL,
    content TEXT NOT NULL
);
CREATE INDEX conversation_posts_channel ON conversation_posts (channel_id);
