-- Defence in depth: the tenant of a transaction is fixed by a setter the application's own SQL cannot undo.
-- `set_config('app.tenant_id', …)` no longer chooses what row-level security shows: the tenant lives in an
-- owner-only table, written once per transaction by memfix_enter_tenant(), read by memfix_tenant().
CREATE UNLOGGED TABLE tenant_sessions (
  pid       integer PRIMARY KEY,  -- one row per backend, overwritten by its next transaction
  xid       xid8 NOT NULL,
  tenant_id bigint NOT NULL
);
REVOKE ALL ON tenant_sessions FROM PUBLIC;

CREATE FUNCTION memfix_enter_tenant(t bigint) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  current bigint;
BEGIN
  IF t IS NULL THEN
    RAISE EXCEPTION 'a tenant is required' USING ERRCODE = '22004';
  END IF;
  SELECT tenant_id INTO current FROM tenant_sessions
   WHERE pid = pg_backend_pid() AND xid = pg_current_xact_id();
  IF current IS NOT NULL AND current <> t THEN
    RAISE EXCEPTION 'this transaction already belongs to another tenant' USING ERRCODE = '42501';
  END IF;
  INSERT INTO tenant_sessions (pid, xid, tenant_id) VALUES (pg_backend_pid(), pg_current_xact_id(), t)
  ON CONFLICT (pid) DO UPDATE SET xid = EXCLUDED.xid, tenant_id = EXCLUDED.tenant_id;
END $$;
REVOKE ALL ON FUNCTION memfix_enter_tenant(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memfix_enter_tenant(bigint) TO memfix_app;

-- Fails closed: no tenant entered in this transaction, no tenant row visible.
CREATE OR REPLACE FUNCTION memfix_tenant() RETURNS bigint
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  SELECT tenant_id FROM tenant_sessions WHERE pid = pg_backend_pid() AND xid = pg_current_xact_id_if_assigned()
$$;

-- Every policy again, with the tenant read once per query (an init plan), not once per row.
CREATE OR REPLACE FUNCTION memfix_isolate(t text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
  EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
  EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %I', t);
  EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = (SELECT memfix_tenant()))'
                 ' WITH CHECK (tenant_id = (SELECT memfix_tenant()))', t);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO memfix_app', t);
END $$;
SELECT memfix_isolate(t) FROM unnest(ARRAY['installations', 'repositories', 'jobs', 'runs', 'memory_entries',
  'workflow_insights', 'action_points', 'healing_envelopes', 'breakers', 'proposals']) AS t;

-- References carry the tenant, so a row can only ever point at its own tenant's rows (and a missing id's
-- error says nothing about other tenants).
ALTER TABLE workflow_insights ADD CONSTRAINT workflow_insights_tenant_id UNIQUE (tenant_id, id);
ALTER TABLE runs ADD CONSTRAINT runs_tenant_id UNIQUE (tenant_id, id);
ALTER TABLE workflow_insights DROP CONSTRAINT workflow_insights_paired_insight_id_fkey,
  ADD CONSTRAINT workflow_insights_paired_insight_id_fkey FOREIGN KEY (tenant_id, paired_insight_id)
    REFERENCES workflow_insights (tenant_id, id) ON DELETE SET NULL (paired_insight_id);
ALTER TABLE action_points DROP CONSTRAINT action_points_source_insight_id_fkey,
  ADD CONSTRAINT action_points_source_insight_id_fkey FOREIGN KEY (tenant_id, source_insight_id)
    REFERENCES workflow_insights (tenant_id, id) ON DELETE CASCADE,
  DROP CONSTRAINT action_points_target_insight_id_fkey,
  ADD CONSTRAINT action_points_target_insight_id_fkey FOREIGN KEY (tenant_id, target_insight_id)
    REFERENCES workflow_insights (tenant_id, id) ON DELETE SET NULL (target_insight_id);
ALTER TABLE proposals DROP CONSTRAINT proposals_run_id_fkey,
  ADD CONSTRAINT proposals_run_id_fkey FOREIGN KEY (tenant_id, run_id)
    REFERENCES runs (tenant_id, id) ON DELETE SET NULL (run_id);

-- Deliveries are claimed before a tenant is known: through two functions, never by reading the table.
REVOKE ALL ON webhook_deliveries FROM memfix_app;
CREATE FUNCTION memfix_claim_delivery(key text, event text, tenant bigint) RETURNS boolean
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  WITH claimed AS (
    INSERT INTO webhook_deliveries (delivery_id, event, tenant_id) VALUES (key, event, tenant)
    ON CONFLICT (delivery_id) DO NOTHING RETURNING 1
  ) SELECT EXISTS (SELECT 1 FROM claimed)
$$;
CREATE FUNCTION memfix_release_delivery(key text) RETURNS void
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  DELETE FROM webhook_deliveries WHERE delivery_id = key
$$;
REVOKE ALL ON FUNCTION memfix_claim_delivery(text, text, bigint), memfix_release_delivery(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memfix_claim_delivery(text, text, bigint), memfix_release_delivery(text) TO memfix_app;

-- The application needs nothing of the migration record.
REVOKE ALL ON schema_migrations FROM memfix_app;
