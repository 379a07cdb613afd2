-- Timers are claimed with a lease, as SQLite's 009: `claimed_by` names the batch that holds a timer, `lease_until`
-- when the claim runs out (any process fires it again then); `fired_at` marks a timer whose handler finished.
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN lease_until DOUBLE PRECISION;
UPDATE timers SET fired_at = NULL
WHERE fired_at IS NOT NULL AND kind IN ('turn_deadline', 'turn_reminder')
  AND ref_id IN (SELECT id FROM matches WHERE status = 'active');
