-- A take-back request waits for the other players' answers: JSON {"seat": s, "version": v, "agreed": [seats]}.
-- It is only valid while the match is still at `version`, so any move (or the take-back itself) retires it
-- without anyone having to clear it; NULL when nothing was asked.
ALTER TABLE matches ADD COLUMN takeback TEXT;

-- The finished match a challenge is the rematch of: a second player pressing Rematch accepts the open one rather
-- than opening another.
ALTER TABLE challenges ADD COLUMN rematch_of INTEGER REFERENCES matches(id);
CREATE INDEX challenges_rematch_of ON challenges(rematch_of) WHERE rematch_of IS NOT NULL;
