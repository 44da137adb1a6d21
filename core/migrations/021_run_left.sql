-- What a run left unfixed, and why: each file's findings no verified patch fixed (partly fixed files included), so
-- the run page shows them beside the attempts. A list of {path, codes, lines, reason}, bounded by the run.
ALTER TABLE runs ADD COLUMN "left" jsonb;
