-- Ratings per member, per game, per server. Both tables are derived from the finished rated matches and can be
-- rebuilt from them at any time (`python -m bot ratings --rebuild`); the matches stay the truth.

-- How each rated match moved each of its players' ratings: the final post's "1500 → 1529 (+29)" and the profile
-- chart. One row per (match, member): a match is rated once.
CREATE TABLE rating_changes (
    match_id     INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    member_id    INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    seat         INTEGER NOT NULL,
    place        INTEGER NOT NULL,   -- 1-based place of the member's group in the standings
    outcome      TEXT    NOT NULL CHECK (outcome IN ('W', 'D', 'L')),
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    games        INTEGER NOT NULL,   -- the member's rated games of this game here, this one included
    finished_at  REAL    NOT NULL,
    PRIMARY KEY (match_id, member_id)
) WITHOUT ROWID;
-- A member's history in one game on one server, oldest first (profile chart).
CREATE INDEX rating_changes_history ON rating_changes(guild_id, game, member_id, finished_at, match_id);

-- The current rating: what the leaderboard and profile read without replaying history.
CREATE TABLE ratings (
    guild_id      INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    member_id     INTEGER NOT NULL,
    name          TEXT,               -- the member's name in her latest rated match (she may have left since)
    mu            REAL    NOT NULL,
    sigma         REAL    NOT NULL,
    games         INTEGER NOT NULL,
    wins          INTEGER NOT NULL,
    draws         INTEGER NOT NULL,
    losses        INTEGER NOT NULL,
    streak        INTEGER NOT NULL,   -- length of the run of equal results ending with the last one
    recent        TEXT    NOT NULL,   -- the last results, oldest first: 'WWLDW'
    provisional   INTEGER NOT NULL,   -- 1 until the member's fifth rated game: listed after settled members
    last_match_id INTEGER,
    updated_at    REAL,
    PRIMARY KEY (guild_id, game, member_id)
) WITHOUT ROWID;
-- The leaderboard order (settled first, best mu first, member id to break ties) is this index's order, so a page
-- and a member's rank are range scans of it.
CREATE INDEX ratings_leaderboard ON ratings(guild_id, game, provisional, mu DESC, member_id);
