-- A conversation where Strategos is no member (a DM, a group DM, a server without the bot: bot/presenters/
-- conversation.py) is answered through the latest interaction there. Kept here so that a restart within the
-- token's life (15 minutes) still answers: the application id and token rebuild the interaction's webhook,
-- `created_at` says until when it lasts, `followups` how many of its five follow-ups are spent.
CREATE TABLE conversation_answers (
    channel_id INTEGER PRIMARY KEY,
    application_id INTEGER NOT NULL,
    token TEXT NOT NULL,
    created_at REAL NOT NULL,
    followups INTEGER NOT NULL DEFAULT 0
);
-- A question (a draw offer, a take-back) that could go nowhere there (no live interaction, the DMs closed): it
-- waits for the conversation's next action, which shows it if its match is still where it was asked.
CREATE TABLE conversation_posts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id INTEGER NOT NULL,
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    lang TEXT NOT NULL,
    content TEXT NOT NULL
);
CREATE INDEX conversation_posts_channel ON conversation_posts (channel_id);
