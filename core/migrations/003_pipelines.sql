-- Pipelines: circuit breakers every worker sees, the proposals memfix made (one per fingerprint),
-- and what a run needs to mirror itself on GitHub.
CREATE TABLE breakers (
  tenant_id        bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repository       text NOT NULL,
  pipeline         text NOT NULL,
  state            text NOT NULL DEFAULT 'closed' CHECK (state IN ('closed', 'open', 'half_open')),
  syntax_failures  integer NOT NULL DEFAULT 0,
  logic_failures   integer NOT NULL DEFAULT 0,
  opened_at        timestamptz,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, repository, pipeline)
);

CREATE TABLE proposals (
  id            bigserial PRIMARY KEY,
  tenant_id     bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repository    text NOT NULL,
  pipeline      text NOT NULL,
  fingerprint   text NOT NULL,
  path          text NOT NULL,
  branch        text NOT NULL,
  base_branch   text NOT NULL,
  pr_number     integer,
  state         text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'merged', 'closed')),
  run_id        bigint REFERENCES runs (id) ON DELETE SET NULL,
  insight_ids   bigint[] NOT NULL DEFAULT '{}',
  finding_codes text[] NOT NULL DEFAULT '{}',
  diff          text NOT NULL DEFAULT '',
  rationale     text NOT NULL DEFAULT '',
  provider      text,
  model         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, repository, fingerprint)
);
CREATE INDEX proposals_branch ON proposals (tenant_id, repository, branch);

ALTER TABLE runs ADD COLUMN head_sha text, ADD COLUMN check_run_id bigint, ADD COLUMN trigger text,
  ADD COLUMN learnings integer NOT NULL DEFAULT 0, ADD COLUMN prompt_tokens integer NOT NULL DEFAULT 0,
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

SELECT memfix_isolate(t) FROM unnest(ARRAY['breakers', 'proposals']) AS t;
GRANT USAGE, SELECT ON SEQUENCE proposals_id_seq TO memfix_app;
