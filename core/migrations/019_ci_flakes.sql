-- A repository's CI that lies: failures a re-run of the same commit overturned (the repository's flakiness record),
-- and the head commit whose failed checks memfix ran again itself (once per commit).
ALTER TABLE proposals ADD COLUMN ci_flakes integer NOT NULL DEFAULT 0;
ALTER TABLE proposals ADD COLUMN ci_rerun text;
