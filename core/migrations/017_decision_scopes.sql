-- Where a decision on a rule applies (core/pipelines/places.py): NULL, the whole repository (every decision so far);
-- 'kind:<kind>', one kind of place (a package's __init__, tests, ...); or a path glob ('tests/**').
ALTER TABLE rule_decisions ADD COLUMN scope text CHECK (scope IS NULL OR length(scope) BETWEEN 1 AND 200);
-- The kind of place the file a proposal changed was when memfix proposed it (its path, first lines and
-- .gitattributes said so): the policy counts each outcome in that kind. NULL: proposed before kinds were kept (the
-- path alone says which).
ALTER TABLE proposals ADD COLUMN place text
  CHECK (place IN ('library', 'init', 'test', 'script', 'generated'));
