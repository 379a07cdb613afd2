-- An analysis of a finished match asked for by one of its players (bot/matches/analysis.py), kept until it is
-- posted in the match's thread, so that a restart before then still posts it; `posted_at` then says it is done
-- (an analysis is made once).
CREATE TABLE analysis_requests (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    guild_id INTEGER,
    lang TEXT NOT NULL,
    asked_by INTEGER NOT NULL,
    asked_at REAL NOT NULL,
    posted_at REAL
);
