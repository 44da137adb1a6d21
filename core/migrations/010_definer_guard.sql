-- Definer functions nothing in a session can redirect (issue 16). They ran as the migrating superuser (the master
-- user on Aurora) with `search_path = pg_catalog, public`, which searches the session's temporary schema first: a
-- temporary `tenant_sessions` chose another tenant, and a trigger on it ran as the owner. Now each names its tables
-- with their schema, searches pg_temp last, and belongs to memfix_definer, a role with no rights but the tables these
-- functions use; the application may create no temporary objects; a transaction enters its tenant first, once (a
-- savepoint rolled back cannot change it); jobs and delivery claims belong to the tenant the transaction entered.
-- A new SECURITY DEFINER function must follow the same rules and be handed over with memfix_to_definer (below);
-- tests/test_definer_guard.py checks every one.

DO $$
BEGIN
  CREATE ROLE memfix_definer NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT;
EXCEPTION WHEN duplicate_object THEN NULL;  -- roles are per cluster: another database of it made this one
END $$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'memfix_definer' AND (rolsuper OR rolcanlogin
             OR rolbypassrls OR rolcreaterole OR rolcreatedb OR rolreplication)) THEN
    RAISE EXCEPTION 'role memfix_definer has more rights than memfix gives it (it must be NOLOGIN NOSUPERUSER '
                    'NOBYPASSRLS NOCREATEROLE NOCREATEDB NOREPLICATION)';
  END IF;
END $$;

DO $$
BEGIN
  EXECUTE format('GRANT memfix_definer TO %I', current_user);  -- an RDS master (CREATEROLE) may then give it functions
EXCEPTION WHEN others THEN NULL;  -- already a member, or a superuser
END $$;

-- Exactly what the functions below touch.
GRANT USAGE ON SCHEMA public TO memfix_definer;
GRANT SELECT, INSERT, UPDATE ON public.tenant_sessions TO memfix_definer;
GRANT SELECT, INSERT, DELETE ON public.webhook_deliveries TO memfix_definer;
GRANT SELECT, INSERT, UPDATE, DELETE ON public.dashboard_sessions TO memfix_definer;
GRANT SELECT, INSERT, UPDATE ON public.queued_jobs TO memfix_definer;
GRANT USAGE ON SEQUENCE public.queued_jobs_id_seq TO memfix_definer;

-- Fails closed: no tenant entered in this transaction, no tenant row visible. (Same signature: the policies keep it.)
CREATE OR REPLACE FUNCTION public.memfix_tenant() RETURNS bigint
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.tenant_id FROM public.tenant_sessions AS s
   WHERE s.pid = pg_backend_pid() AND s.xid = pg_current_xact_id_if_assigned()
$$;

CREATE OR REPLACE FUNCTION public.memfix_enter_tenant(t bigint) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  entered bigint;
BEGIN
  IF t IS NULL THEN
    RAISE EXCEPTION 'a tenant is required' USING ERRCODE = '22004';
  END IF;
  SELECT s.tenant_id INTO entered FROM public.tenant_sessions AS s
   WHERE s.pid = pg_backend_pid() AND s.xid = pg_current_xact_id_if_assigned();
  IF entered IS NOT NULL THEN
    IF entered <> t THEN
      RAISE EXCEPTION 'this transaction already belongs to another tenant' USING ERRCODE = '42501';
    END IF;
    RETURN;
  END IF;
  -- A transaction that has written already (entering a tenant in a savepoint it rolled back is such a write) chose
  -- its tenant, or none, before: it may not choose one now.
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    RAISE EXCEPTION 'a tenant is entered first in its transaction' USING ERRCODE = '42501';
  END IF;
  INSERT INTO public.tenant_sessions (pid, xid, tenant_id) VALUES (pg_backend_pid(), pg_current_xact_id(), t)
  ON CONFLICT (pid) DO UPDATE SET xid = EXCLUDED.xid, tenant_id = EXCLUDED.tenant_id;
END $$;

-- The entered tenant of a key that names it first ('<tenant>:<job key>', core/intake.py claim_key), or a refusal.
CREATE FUNCTION public.memfix_tenant_of(key text) RETURNS bigint
  LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  entered bigint := public.memfix_tenant();
BEGIN
  IF entered IS NULL THEN
    RAISE EXCEPTION 'no tenant entered in this transaction' USING ERRCODE = '42501';
  END IF;
  IF key IS NULL OR split_part(key, ':', 1) <> entered::text THEN
    RAISE EXCEPTION 'this key belongs to another tenant' USING ERRCODE = '42501';
  END IF;
  RETURN entered;
END $$;

-- Claimed and released inside the job's tenant: no transaction can claim (and so silence) another tenant's job.
DROP FUNCTION public.memfix_claim_delivery(text, text, bigint);
CREATE FUNCTION public.memfix_claim_delivery(key text, event text) RETURNS boolean
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH claimed AS (
    INSERT INTO public.webhook_deliveries (delivery_id, event, tenant_id)
    VALUES (key, event, public.memfix_tenant_of(key))
    ON CONFLICT (delivery_id) DO NOTHING RETURNING 1
  ) SELECT EXISTS (SELECT 1 FROM claimed)
$$;
CREATE OR REPLACE FUNCTION public.memfix_release_delivery(key text) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  entered bigint := public.memfix_tenant_of(key);
BEGIN
  DELETE FROM public.webhook_deliveries AS d WHERE d.delivery_id = key AND d.tenant_id = entered;
END $$;

CREATE OR REPLACE FUNCTION public.memfix_session_save(sid text, who text, allowed jsonb, ttl_seconds integer)
  RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  DELETE FROM public.dashboard_sessions WHERE expires_at < now();
  INSERT INTO public.dashboard_sessions (id, login, access, expires_at)
  VALUES (sid, who, allowed, now() + make_interval(secs => ttl_seconds))
  ON CONFLICT (id) DO UPDATE SET login = EXCLUDED.login, access = EXCLUDED.access, expires_at = EXCLUDED.expires_at
$$;
CREATE OR REPLACE FUNCTION public.memfix_session_load(sid text) RETURNS TABLE (login text, access jsonb)
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT s.login, s.access FROM public.dashboard_sessions AS s WHERE s.id = sid AND s.expires_at > now()
$$;
CREATE OR REPLACE FUNCTION public.memfix_session_end(sid text) RETURNS void
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  DELETE FROM public.dashboard_sessions WHERE id = sid
$$;

-- A job is put inside its tenant's transaction, under a key that names that tenant; the worker runs a job only if
-- its body names the tenant it was put for (core/queue.py: a body may hold text jsonb cannot, so not checked here).
-- Workers take, keep and settle jobs of every tenant (they enter each job's tenant to run it).
DROP FUNCTION public.memfix_job_put(text, text, bigint, text);
CREATE FUNCTION public.memfix_job_put(q text, key text, body text) RETURNS boolean
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH put AS (
    INSERT INTO public.queued_jobs (queue, claim_key, tenant_id, payload)
    VALUES (q, key, public.memfix_tenant_of(key), body)
    ON CONFLICT (queue, claim_key) DO NOTHING RETURNING 1
  ) SELECT EXISTS (SELECT 1 FROM put)
$$;
DROP FUNCTION public.memfix_job_take(text, text, double precision);
CREATE FUNCTION public.memfix_job_take(q text, worker text, lease_seconds double precision)
  RETURNS TABLE (id bigint, tenant_id bigint, payload text, attempt integer)
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  UPDATE public.queued_jobs AS j SET status = 'running', attempt = j.attempt + 1, locked_by = worker,
    locked_until = now() + make_interval(secs => lease_seconds), updated_at = now()
  WHERE j.id = (SELECT c.id FROM public.queued_jobs AS c
                WHERE c.queue = q AND ((c.status = 'queued' AND c.not_before <= now())
                                       OR (c.status = 'running' AND c.locked_until < now()))
                ORDER BY c.not_before, c.id FOR UPDATE SKIP LOCKED LIMIT 1)
  RETURNING j.id, j.tenant_id, j.payload, j.attempt
$$;
CREATE OR REPLACE FUNCTION public.memfix_job_extend(job bigint, worker text, lease_seconds double precision)
  RETURNS boolean LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH kept AS (
    UPDATE public.queued_jobs SET locked_until = now() + make_interval(secs => lease_seconds)
    WHERE id = job AND locked_by = worker AND status = 'running' RETURNING 1
  ) SELECT EXISTS (SELECT 1 FROM kept)
$$;
CREATE OR REPLACE FUNCTION public.memfix_job_settle(job bigint, worker text, outcome text,
                                                    delay_seconds double precision, reason text)
  RETURNS boolean LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH settled AS (
    UPDATE public.queued_jobs SET status = CASE outcome WHEN 'retry' THEN 'queued' ELSE outcome END,
      not_before = now() + make_interval(secs => delay_seconds), locked_by = NULL, locked_until = NULL,
      error = reason, updated_at = now()
    WHERE id = job AND locked_by = worker AND status = 'running' RETURNING 1
  ) SELECT EXISTS (SELECT 1 FROM settled)
$$;
CREATE OR REPLACE FUNCTION public.memfix_job_counts(q text) RETURNS TABLE (status text, jobs bigint)
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT j.status, count(*) FROM public.queued_jobs AS j WHERE j.queue = q GROUP BY j.status
$$;
CREATE OR REPLACE FUNCTION public.memfix_job_requeue(q text, key text) RETURNS integer
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH again AS (
    UPDATE public.queued_jobs SET status = 'queued', attempt = 0, not_before = now(), error = NULL, updated_at = now()
    WHERE queue = q AND (key IS NULL OR claim_key = key) AND status = 'dead' RETURNING 1
  ) SELECT count(*)::integer FROM again
$$;

-- Every definer function to memfix_definer, through the one helper a later migration's new one uses too:
-- `SELECT memfix_to_definer('public.memfix_x(text)');`. A non-superuser (Aurora's master) may give a function only to
-- a role that may create in its schema: memfix_definer may, for that statement only.
CREATE FUNCTION public.memfix_to_definer(f regprocedure) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  GRANT CREATE ON SCHEMA public TO memfix_definer;
  EXECUTE format('ALTER FUNCTION %s OWNER TO memfix_definer', f);
  REVOKE CREATE ON SCHEMA public FROM memfix_definer;
END $$;
REVOKE ALL ON FUNCTION public.memfix_to_definer(regprocedure) FROM PUBLIC;
SELECT public.memfix_to_definer(p.oid) FROM pg_catalog.pg_proc AS p
 WHERE p.pronamespace = 'public'::regnamespace AND p.proname LIKE 'memfix\_%'
   AND (p.prosecdef OR p.proname = 'memfix_tenant_of');

REVOKE ALL ON FUNCTION public.memfix_tenant_of(text), public.memfix_claim_delivery(text, text),
  public.memfix_job_put(text, text, text), public.memfix_job_take(text, text, double precision) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.memfix_claim_delivery(text, text), public.memfix_job_put(text, text, text),
  public.memfix_job_take(text, text, double precision) TO memfix_app;

-- Trigger functions run as whoever writes the row: they search pg_catalog, then nothing the session made.
ALTER FUNCTION public.memory_entries_search_vector() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION public.workflow_insights_search_vector() SET search_path = pg_catalog, pg_temp;
REVOKE ALL ON FUNCTION public.memfix_isolate(text) FROM PUBLIC;  -- the migrations' helper, theirs alone

-- The application creates nothing: no temporary objects (which a session's own statements find first), nothing in
-- public (databases made before PostgreSQL 15 still let PUBLIC create there). Checked, not assumed: a REVOKE by a
-- role that is not the database's owner only warns.
DO $$
BEGIN
  EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC, memfix_app', current_database());
  REVOKE CREATE ON SCHEMA public FROM PUBLIC, memfix_app;
  IF has_database_privilege('memfix_app', current_database(), 'TEMPORARY')
     OR has_schema_privilege('memfix_app', 'public', 'CREATE') THEN
    RAISE EXCEPTION 'memfix_app may still create objects in database %: migrate as its owner', current_database();
  END IF;
END $$;
