-- Timers are claimed with a lease, as SQLite's 009: `claimed_by` names the batch that holds a timer, `lease_until`
-- when the claim runs out (any process fires it again then); `fired_at` marks a timer whose handler finished.
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN lease_until DOUBLE PRECISION;
UPDATE timers SET fired_at = NULL
WHERE fired_at IS NOT NULL AND kind IN ('turn_deadline', 'turn_reminder')
  AND ref_id IN (SELECT id FROM matches WHERE status = 'active');
-- Every dispatcher listens: a timer written (or given back) by one process wakes the others at once when it is due
-- before their next look, instead of at their next periodic look. The payload is the time it is due.
CREATE FUNCTION strategos_timer_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('strategos_timers', NEW.due_at::text);
    RETURN NULL;
END
$$;
CREATE TRIGGER timers_written AFTER INSERT OR UPDATE OF due_at, claimed_by ON timers
    FOR EACH ROW WHEN (NEW.fired_at IS NULL AND NEW.claimed_by IS NULL) EXECUTE FUNCTION strategos_timer_written();
