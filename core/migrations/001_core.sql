-- Tenants (GitHub installations), their repositories, runs, jobs and webhook deliveries.
-- The application acts as role memfix_app, which owns nothing: row-level security applies to it.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memfix_app') THEN
    CREATE ROLE memfix_app NOLOGIN;
  END IF;
END $$;

DO $$
BEGIN
  EXECUTE format('GRANT memfix_app TO %I', current_user);
EXCEPTION WHEN others THEN NULL;  -- already a member, or a superuser
END $$;

-- Fails closed: with no tenant set, no tenant row is visible.
CREATE OR REPLACE FUNCTION memfix_tenant() RETURNS bigint
  LANGUAGE sql STABLE AS $$ SELECT NULLIF(current_setting('app.tenant_id', true), '')::bigint $$;

CREATE TABLE installations (
  tenant_id     bigint PRIMARY KEY,
  account_login text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE repositories (
  tenant_id      bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repo_id        bigint NOT NULL,
  full_name      text NOT NULL,
  default_branch text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, repo_id)
);
CREATE UNIQUE INDEX repositories_name ON repositories (tenant_id, full_name);

-- Idempotency ledger: one row per job key; a redelivered job finds its row and does not act twice.
CREATE TABLE jobs (
  tenant_id        bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  job_key          text NOT NULL,
  kind             text NOT NULL,
  repository       text,
  status           text NOT NULL CHECK (status IN ('running', 'done', 'failed', 'dead')),
  attempts         integer NOT NULL DEFAULT 0,
  reply_comment_id bigint,
  result           text,
  error            text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, job_key)
);

CREATE TABLE runs (
  id           bigserial PRIMARY KEY,
  tenant_id    bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repository   text NOT NULL,
  job_key      text,
  pipeline     text NOT NULL,
  phase        text NOT NULL DEFAULT 'queued'
               CHECK (phase IN ('queued', 'scanning', 'fixing', 'verifying', 'publishing', 'done', 'failed')),
  provider     text,
  model        text,
  findings     integer NOT NULL DEFAULT 0,
  patches      integer NOT NULL DEFAULT 0,
  prs_opened   integer NOT NULL DEFAULT 0,
  error        text,
  started_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz
);
CREATE INDEX runs_repository ON runs (tenant_id, repository, started_at DESC);

-- Delivery dedupe happens before a tenant is known, so this table has no row-level security.
CREATE TABLE webhook_deliveries (
  delivery_id text PRIMARY KEY,
  event       text NOT NULL,
  tenant_id   bigint,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_received ON webhook_deliveries (received_at);

-- Every tenant table: row-level security that even the owner obeys, one policy, the application's grants.
CREATE FUNCTION memfix_isolate(t text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
  EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
  EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = memfix_tenant())'
                 ' WITH CHECK (tenant_id = memfix_tenant())', t);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO memfix_app', t);
END $$;

SELECT memfix_isolate(t) FROM unnest(ARRAY['installations', 'repositories', 'jobs', 'runs']) AS t;

GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_deliveries TO memfix_app;
GRANT USAGE, SELECT ON SEQUENCE runs_id_seq TO memfix_app;
GRANT SELECT ON schema_migrations TO memfix_app;
