-- Searches run at every start-up, made to cost what the active matches cost instead of reading every match ever
-- played: the boards a stop cut off before their post, and the matches with a computer seat to resume.
CREATE INDEX matches_unannounced ON matches(id) WHERE announced_version < version AND thread_id IS NOT NULL;
CREATE INDEX match_seats_computers ON match_seats(match_id) WHERE kind = 'computer';
