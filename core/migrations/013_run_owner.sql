-- Which process runs a run (host:pid): a run whose process is gone is marked failed at the next start on that host,
-- not only once it has made no progress for a while (a killed CLI run, say).
ALTER TABLE runs ADD COLUMN owner text;
