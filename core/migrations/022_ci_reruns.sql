-- How many times memfix ran the failed checks of the head commit again itself: once where the CI has no record, twice
-- where its record says it lies.
ALTER TABLE proposals ADD COLUMN ci_reruns integer NOT NULL DEFAULT 0;
