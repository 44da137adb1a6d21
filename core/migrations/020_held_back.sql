-- What a hold held back: each file a run left a held rule's findings in (and the kind of place it was), so that when
-- the hold lifts, by a person's word or a merged exploratory PR, those files come back into the next push's run.
CREATE TABLE held_back (
  tenant_id   bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repository  text NOT NULL,
  pipeline    text NOT NULL CHECK (pipeline IN ('autofix', 'refactor')),
  rule        text NOT NULL,
  path        text NOT NULL,
  place       text NOT NULL CHECK (place IN ('library', 'init', 'test', 'script', 'generated')),
  held_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, repository, pipeline, rule, path)
);
SELECT memfix_isolate('held_back');
