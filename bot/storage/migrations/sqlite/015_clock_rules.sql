-- How a clock runs besides its time (bot/domain/matches.py ClockRules), as JSON: a Fischer clock's increment and
-- cap. NULL: "days per move", as every clock before this.
ALTER TABLE challenges ADD COLUMN clock_rules TEXT;
ALTER TABLE matches ADD COLUMN clock_rules TEXT;
ALTER TABLE leagues ADD COLUMN clock_rules TEXT;
-- A Fischer clock's banks per seat, as the match's last action left them, and as they were just before it (which a
-- take-back gives back), as JSON. NULL: every bank full, or a clock without banks.
ALTER TABLE matches ADD COLUMN clock_banks TEXT;
-- Each member's vacation days (bot/matches/clocks.py): the seconds of time away she used in `vacation_year`, a
-- calendar year (UTC); another year's count starts again from nothing.
ALTER TABLE members ADD COLUMN vacation_year INTEGER;
ALTER TABLE members ADD COLUMN vacation_used REAL NOT NULL DEFAULT 0;
-- Her time zone, an IANA name (`/timezone`): a match with quiet weekends stops her clock from Saturday 00:00 to
-- Monday 00:00 there. NULL: the server's time zone (its setting, UTC by default).
ALTER TABLE members ADD COLUMN time_zone TEXT;
