-- A take-back request waits for the other players' answers: JSON {"seat": s, "version": v, "agreed": [seats]}.
-- It is only valid while the match is still at `version`, so any move (or the take-back itself) retires it
-- without anyone having to clear it; NULL when nothing was asked.
ALTER TABLE matches ADD COLUMN takeback TEXT;
