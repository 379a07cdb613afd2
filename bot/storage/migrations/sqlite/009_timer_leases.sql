-- Timers are claimed with a lease, so several bot processes can share them: `claimed_by` names the batch that holds
-- a timer, `lease_until` when the claim runs out (any process fires it again then); `fired_at` now marks a timer
-- whose handler finished, not one merely claimed.
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN lease_until REAL;
-- A clock timer of a running match claimed before this migration may have been cut off by a stop before it was
-- settled: due again, as the start-up repair used to make it (settling checks that it still stands).
UPDATE timers SET fired_at = NULL
WHERE fired_at IS NOT NULL AND kind IN ('turn_deadline', 'turn_reminder')
  AND ref_id IN (SELECT id FROM matches WHERE status = 'active');
