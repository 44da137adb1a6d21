-- A PR that tries a held rule again on purpose (exploration): at most one per repository per week.
ALTER TABLE proposals ADD COLUMN exploratory boolean NOT NULL DEFAULT false;
