-- Planned replies: a player's answers, chosen in advance, to the moves she expects from her opponent.
-- One plan per player of a match. `version` is the match version the plan answers from (her opponent to move);
-- `tree` is JSON {"<opponent move>": {"reply": "<her move>", "expect": "<digest of her view>", "then": {...}}}.
CREATE TABLE plans (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    version INTEGER NOT NULL,
    tree TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (match_id, seat)
);

-- The moves a planned reply made, by the match version they created: /history marks them once the match is over.
CREATE TABLE planned_moves (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    PRIMARY KEY (match_id, version)
);
