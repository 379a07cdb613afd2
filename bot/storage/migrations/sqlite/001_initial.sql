-- Challenges: an invitation to a match, with one row per seat (invited member or open), until all seats fill.
CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,
    game          TEXT    NOT NULL,
    options       TEXT    NOT NULL DEFAULT '{}',
    challenger_id INTEGER NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'started', 'declined', 'cancelled', 'expired')),
    created_at    REAL    NOT NULL,
    expires_at    REAL    NOT NULL,
    match_id      INTEGER REFERENCES matches(id)
);
CREATE INDEX challenges_open_by_expiry ON challenges(expires_at) WHERE status = 'open';

CREATE TABLE challenge_seats (
    challenge_id INTEGER NOT NULL REFERENCES challenges(id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    invited_id   INTEGER,            -- NULL: an open seat anyone may take
    user_id      INTEGER,            -- who took it (NULL while empty)
    user_name    TEXT,
    PRIMARY KEY (challenge_id, position)
);

-- Matches: the engine's dumped state is the truth; `version` guards every write (one move per version).
CREATE TABLE matches (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    thread_id        INTEGER,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    seed             INTEGER NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    state            TEXT    NOT NULL,
    version          INTEGER NOT NULL DEFAULT 0,
    board_message_id INTEGER,
    draw_agreed      TEXT,           -- JSON list of seats that offered/accepted a draw, NULL when none pending
    result           TEXT,           -- JSON {"winners": [...], "reason": "..."} once finished
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);
CREATE INDEX matches_by_status ON matches(status);

CREATE TABLE match_seats (
    match_id  INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    user_name TEXT    NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_by_user ON match_seats(user_id);

-- Append-only log: every applied move with its events, and match-layer actions (resign, draw) too.
CREATE TABLE moves (
    id         INTEGER PRIMARY KEY,
    match_id   INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,     -- the match version this entry produced
    seat       INTEGER NOT NULL,
    move       TEXT    NOT NULL,
    private    INTEGER NOT NULL DEFAULT 0,  -- a secret setup move: its text is shown to its seat only
    events     TEXT    NOT NULL DEFAULT '[]',
    created_at REAL    NOT NULL,
    UNIQUE (match_id, version)
);

-- Things only one player may see, and whether they reached her by DM or wait for her next "My view".
CREATE TABLE private_messages (
    id           INTEGER PRIMARY KEY,
    match_id     INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    content      TEXT    NOT NULL,
    with_view    INTEGER NOT NULL DEFAULT 0,  -- attach the seat's private board image
    channel      TEXT    NOT NULL DEFAULT 'pending' CHECK (channel IN ('dm', 'pending', 'ephemeral')),
    created_at   REAL    NOT NULL,
    delivered_at REAL
);
CREATE INDEX private_pending ON private_messages(user_id, match_id) WHERE channel = 'pending';
