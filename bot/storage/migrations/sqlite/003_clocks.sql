-- Clocks: a per-move time limit chosen with the challenge, members' time away and notification choices, and
-- per-server settings. Deadlines and reminders themselves are rows of `timers` (kinds 'turn_deadline' and
-- 'turn_reminder', seat = the player's seat), so they survive restarts like every other deadline.

-- Seconds a player has for each move; NULL is "no clock". Matches that predate clocks keep running without one.
ALTER TABLE challenges ADD COLUMN clock_seconds INTEGER;
ALTER TABLE matches ADD COLUMN clock_seconds INTEGER;

-- One row per member who changed something; a member without a row has the defaults.
CREATE TABLE members (
    user_id    INTEGER PRIMARY KEY,
    turn_dms   INTEGER NOT NULL DEFAULT 0,   -- a DM each time her turn begins
    reminders  INTEGER NOT NULL DEFAULT 1,   -- a DM when her time runs short
    away_until REAL                          -- her clocks are paused until then (NULL or past: not away)
);

-- Values of the settings declared in bot/matches/server_settings.py; a missing row means the declared default.
CREATE TABLE server_settings (
    guild_id INTEGER NOT NULL,
    key      TEXT    NOT NULL,
    value    TEXT    NOT NULL,               -- JSON
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;

-- The clock timers of one match are looked up by match and seat.
CREATE INDEX timers_by_ref ON timers(ref_id, kind);
