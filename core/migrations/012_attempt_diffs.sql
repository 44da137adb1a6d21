-- Each attempt keeps the change it tried, as a unified diff: the run page shows what was changed, not only that
-- something was (database only; the ring stays small).
ALTER TABLE healing_envelopes ADD COLUMN diff text;
