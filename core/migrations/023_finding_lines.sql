-- Where each rule's finding was in the file a memfix PR changed ([[line, code], ...] of the original): a comment on a
-- line of a PR with several rules is read as being about the rule whose fix changed that line.
ALTER TABLE proposals ADD COLUMN finding_lines jsonb NOT NULL DEFAULT '[]'::jsonb;
