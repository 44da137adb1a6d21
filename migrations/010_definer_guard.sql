-- The functions that run with more rights than the application (SECURITY DEFINER) are hardened:
-- * they search pg_catalog, then pg_temp LAST, and name every table with its schema, so a temporary table,
--   view, trigger or function the caller made can never stand in for one of theirs;
-- * they are owned by memfix_definer, a role with no login, no superuser and exactly the table rights they
--   need, not by whoever migrated (a superuser here, the master user on Aurora);
-- * nobody may create temporary objects in this database (the application never needs them);
-- * a tenant is entered first in its transaction: once the transaction has done anything else (a savepoint
--   rolled back included), no tenant can be entered, so ROLLBACK TO SAVEPOINT cannot switch tenants;
-- * a job is queued, and a delivery claimed, only for the tenant the transaction entered.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memfix_definer') THEN
    CREATE ROLE memfix_definer NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION;
  END IF;
END $$;

DO $$
BEGIN
  EXECUTE format('GRANT memfix_definer TO %I', current_user);  -- ALTER ... OWNER TO needs membership
EXCEPTION WHEN others THEN NULL;  -- already a member, or a superuser
END $$;

DO $$
BEGIN
  EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
  EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM memfix_app', current_database());
END $$;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;  -- PostgreSQL 15 and later start so; older ones are brought to it

GRANT USAGE ON SCHEMA public TO memfix_definer;
GRANT SELECT, INSERT, UPDATE ON public.tenant_sessions TO memfix_definer;
GRANT SELECT, INSERT, DELETE ON public.webhook_deliveries TO memfix_definer;
GRANT SELECT, INSERT, UPDATE, DELETE ON public.dashboard_sessions TO memfix_definer;
GRANT SELECT, INSERT, UPDATE ON public.queued_jobs TO memfix_definer;
GRANT USAGE, SELECT ON SEQUENCE public.queued_jobs_id_seq TO memfix_definer;

-- ---- the tenant of a transaction ----

CREATE OR REPLACE FUNCTION memfix_enter_tenant(t bigint) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  assigned xid8 := pg_current_xact_id_if_assigned();
  current bigint;
BEGIN
  IF t IS NULL THEN
    RAISE EXCEPTION 'a tenant is required' USING ERRCODE = '22004';
  END IF;
  SELECT s.tenant_id INTO current FROM public.tenant_sessions AS s
   WHERE s.pid = pg_backend_pid() AND s.xid = assigned;
  IF current IS NULL AND assigned IS NOT NULL THEN  -- the transaction wrote before, or rolled a tenant back
    RAISE EXCEPTION 'a tenant is entered first in its transaction' USING ERRCODE = '42501';
  END IF;
  IF current IS NOT NULL AND current <> t THEN
    RAISE EXCEPTION 'this transaction already belongs to another tenant' USING ERRCODE = '42501';
  END IF;
  INSERT INTO public.tenant_sessions (pid, xid, tenant_id) VALUES (pg_backend_pid(), pg_current_xact_id(), t)
  ON CONFLICT (pid) DO UPDATE SET xid = EXCLUDED.xid, tenant_id = EXCLUDED.tenant_id;
END $$;

CREATE OR REPLACE FUNCTION memfix_tenant() RETURNS bigint
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.tenant_id FROM public.tenant_sessions AS s
   WHERE s.pid = pg_backend_pid() AND s.xid = pg_current_xact_id_if_assigned()
$$;

-- ---- webhook deliveries ----

CREATE OR REPLACE FUNCTION memfix_claim_delivery(key text, event text, tenant bigint) RETURNS boolean
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF tenant IS NOT NULL AND tenant IS DISTINCT FROM public.memfix_tenant() THEN
    RAISE EXCEPTION 'a delivery is claimed in its own tenant''s transaction' USING ERRCODE = '42501';
  END IF;
  INSERT INTO public.webhook_deliveries (delivery_id, event, tenant_id) VALUES (key, event, tenant)
  ON CONFLICT (delivery_id) DO NOTHING;
  RETURN FOUND;
END $$;

CREATE OR REPLACE FUNCTION memfix_release_delivery(key text) RETURNS void
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  DELETE FROM public.webhook_deliveries WHERE delivery_id = key
$$;

-- ---- dashboard sessions ----

CREATE OR REPLACE FUNCTION memfix_session_save(sid text, who text, allowed jsonb, ttl_seconds integer) RETURNS void
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  DELETE FROM public.dashboard_sessions WHERE expires_at < now();
  INSERT INTO public.dashboard_sessions (id, login, access, expires_at)
  VALUES (sid, who, allowed, now() + make_interval(secs => ttl_seconds))
  ON CONFLICT (id) DO UPDATE SET login = EXCLUDED.login, access = EXCLUDED.access, expires_at = EXCLUDED.expires_at
$$;

CREATE OR REPLACE FUNCTION memfix_session_load(sid text) RETURNS TABLE (login text, access jsonb)
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT d.login, d.access FROM public.dashboard_sessions AS d WHERE d.id = sid AND d.expires_at > now()
$$;

CREATE OR REPLACE FUNCTION memfix_session_end(sid text) RETURNS void
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  DELETE FROM public.dashboard_sessions WHERE id = sid
$$;

-- ---- the job queue ----

CREATE OR REPLACE FUNCTION memfix_job_put(q text, key text, tenant bigint, body text) RETURNS boolean
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF tenant IS DISTINCT FROM public.memfix_tenant() THEN
    RAISE EXCEPTION 'a job is queued in its own tenant''s transaction' USING ERRCODE = '42501';
  END IF;
  INSERT INTO public.queued_jobs (queue, claim_key, tenant_id, payload) VALUES (q, key, tenant, body)
  ON CONFLICT (queue, claim_key) DO NOTHING;
  RETURN FOUND;
END $$;

CREATE OR REPLACE FUNCTION memfix_job_take(q text, worker text, lease_seconds double precision)
  RETURNS TABLE (id bigint, payload text, attempt integer)
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  UPDATE public.queued_jobs AS j SET status = 'running', attempt = j.attempt + 1, locked_by = worker,
    locked_until = now() + make_interval(secs => lease_seconds), updated_at = now()
  WHERE j.id = (SELECT c.id FROM public.queued_jobs AS c
                WHERE c.queue = q AND ((c.status = 'queued' AND c.not_before <= now())
                                       OR (c.status = 'running' AND c.locked_until < now()))
                ORDER BY c.not_before, c.id FOR UPDATE SKIP LOCKED LIMIT 1)
  RETURNING j.id, j.payload, j.attempt
$$;

CREATE OR REPLACE FUNCTION memfix_job_extend(job bigint, worker text, lease_seconds double precision) RETURNS boolean
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH kept AS (
    UPDATE public.queued_jobs SET locked_until = now() + make_interval(secs => lease_seconds)
    WHERE id = job AND locked_by = worker AND status = 'running' RETURNING 1
  ) SELECT EXISTS (SELECT 1 FROM kept)
$$;

CREATE OR REPLACE FUNCTION memfix_job_settle(job bigint, worker text, outcome text, delay_seconds double precision,
                                             reason text) RETURNS boolean
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH settled AS (
    UPDATE public.queued_jobs SET status = CASE outcome WHEN 'retry' THEN 'queued' ELSE outcome END,
      not_before = now() + make_interval(secs => delay_seconds), locked_by = NULL, locked_until = NULL,
      error = reason, updated_at = now()
    WHERE id = job AND locked_by = worker AND status = 'running' RETURNING 1
  ) SELECT EXISTS (SELECT 1 FROM settled)
$$;

CREATE OR REPLACE FUNCTION memfix_job_counts(q text) RETURNS TABLE (status text, jobs bigint)
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT j.status, count(*) FROM public.queued_jobs AS j WHERE j.queue = q GROUP BY j.status
$$;

CREATE OR REPLACE FUNCTION memfix_job_requeue(q text, key text) RETURNS integer
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH again AS (
    UPDATE public.queued_jobs SET status = 'queued', attempt = 0, not_before = now(), error = NULL, updated_at = now()
    WHERE queue = q AND (key IS NULL OR claim_key = key) AND status = 'dead' RETURNING 1
  ) SELECT count(*)::integer FROM again
$$;

-- Owned by the role made for them; every other function stays the migrator's and runs with the caller's rights.
ALTER FUNCTION memfix_enter_tenant(bigint) OWNER TO memfix_definer;
ALTER FUNCTION memfix_tenant() OWNER TO memfix_definer;
ALTER FUNCTION memfix_claim_delivery(text, text, bigint) OWNER TO memfix_definer;
ALTER FUNCTION memfix_release_delivery(text) OWNER TO memfix_definer;
ALTER FUNCTION memfix_session_save(text, text, jsonb, integer) OWNER TO memfix_definer;
ALTER FUNCTION memfix_session_load(text) OWNER TO memfix_definer;
ALTER FUNCTION memfix_session_end(text) OWNER TO memfix_definer;
ALTER FUNCTION memfix_job_put(text, text, bigint, text) OWNER TO memfix_definer;
ALTER FUNCTION memfix_job_take(text, text, double precision) OWNER TO memfix_definer;
ALTER FUNCTION memfix_job_extend(bigint, text, double precision) OWNER TO memfix_definer;
ALTER FUNCTION memfix_job_settle(bigint, text, text, double precision, text) OWNER TO memfix_definer;
ALTER FUNCTION memfix_job_counts(text) OWNER TO memfix_definer;
ALTER FUNCTION memfix_job_requeue(text, text) OWNER TO memfix_definer;
