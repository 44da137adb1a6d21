-- A 6 KB vector stored out of line costs a TOAST lookup for every candidate a search scores exactly: keep vectors
-- in the row (they do not compress; a row with one still fits a page, its texts are toasted first), and move the
-- existing ones back in.
ALTER TABLE workflow_insights ALTER COLUMN embedding SET STORAGE PLAIN;
UPDATE workflow_insights SET embedding = embedding::text::vector WHERE embedding IS NOT NULL;
