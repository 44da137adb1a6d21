-- The rules each run proposed fixes for and which configuration chose them: the dashboard shows the rules in force.
ALTER TABLE runs ADD COLUMN rules jsonb;
