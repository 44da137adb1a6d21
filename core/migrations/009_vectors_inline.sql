-- A 6 KB vector stored out of line costs a TOAST lookup for every candidate a search scores exactly: keep vectors
-- in the row (they do not compress; a row with one still fits a page, its texts are toasted first), and move the
-- existing ones back in.
ALTER TABLE workflow_insights ALTER COLUMN embedding SET STORAGE PLAIN;
-- ... and the row's texts stay in it too: with a 6 KB vector the default target (2 KB) would push the tsvector,
-- title and detail out of line, a TOAST lookup per row on the text side of every search.
ALTER TABLE workflow_insights SET (toast_tuple_target = 8160);
UPDATE workflow_insights SET embedding = embedding::text::vector, detail = detail || '' WHERE embedding IS NOT NULL;
