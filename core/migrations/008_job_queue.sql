-- The self-hosted job queue: a delivery answered 202 is a row here before the answer goes out, so a crash or
-- kill -9 loses nothing; any number of `memfix serve` workers share it (FOR UPDATE SKIP LOCKED), each job held
-- under a lease its worker keeps alive, taken again when a dead worker's lease lapses. Workers take jobs of every
-- installation, so the table is reached through these functions only, like webhook_deliveries.
CREATE TABLE queued_jobs (
  id           bigserial PRIMARY KEY,
  queue        text NOT NULL DEFAULT 'default',
  claim_key    text NOT NULL,  -- tenant:job key, from signed content: a job is queued once
  tenant_id    bigint NOT NULL,
  payload      text NOT NULL,
  attempt      integer NOT NULL DEFAULT 0,
  status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'dead')),
  not_before   timestamptz NOT NULL DEFAULT now(),
  locked_by    text,
  locked_until timestamptz,
  error        text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (queue, claim_key)
);
CREATE INDEX queued_jobs_ready ON queued_jobs (queue, not_before, id) WHERE status IN ('queued', 'running');

CREATE FUNCTION memfix_job_put(q text, key text, tenant bigint, body text) RETURNS boolean
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  WITH put AS (
    INSERT INTO queued_jobs (queue, claim_key, tenant_id, payload) VALUES (q, key, tenant, body)
    ON CONFLICT (queue, claim_key) DO NOTHING RETURNING 1
  ) SELECT EXISTS (SELECT 1 FROM put)
$$;
CREATE FUNCTION memfix_job_take(q text, worker text, lease_seconds double precision)
  RETURNS TABLE (id bigint, payload text, attempt integer)
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  UPDATE queued_jobs AS j SET status = 'running', attempt = j.attempt + 1, locked_by = worker,
    locked_until = now() + make_interval(secs => lease_seconds), updated_at = now()
  WHERE j.id = (SELECT c.id FROM queued_jobs AS c
                WHERE c.queue = q AND ((c.status = 'queued' AND c.not_before <= now())
                                       OR (c.status = 'running' AND c.locked_until < now()))
                ORDER BY c.not_before, c.id FOR UPDATE SKIP LOCKED LIMIT 1)
  RETURNING j.id, j.payload, j.attempt
$$;
CREATE FUNCTION memfix_job_extend(job bigint, worker text, lease_seconds double precision) RETURNS boolean
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  WITH kept AS (
    UPDATE queued_jobs SET locked_until = now() + make_interval(secs => lease_seconds)
    WHERE id = job AND locked_by = worker AND status = 'running' RETURNING 1
  ) SELECT EXISTS (SELECT 1 FROM kept)
$$;
-- outcome: done | retry (after delay_seconds) | dead; only the worker holding the job may settle it
CREATE FUNCTION memfix_job_settle(job bigint, worker text, outcome text, delay_seconds double precision,
                                  reason text) RETURNS boolean
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  WITH settled AS (
    UPDATE queued_jobs SET status = CASE outcome WHEN 'retry' THEN 'queued' ELSE outcome END,
      not_before = now() + make_interval(secs => delay_seconds), locked_by = NULL, locked_until = NULL,
      error = reason, updated_at = now()
    WHERE id = job AND locked_by = worker AND status = 'running' RETURNING 1
  ) SELECT EXISTS (SELECT 1 FROM settled)
$$;
CREATE FUNCTION memfix_job_counts(q text) RETURNS TABLE (status text, jobs bigint)
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  SELECT status, count(*) FROM queued_jobs WHERE queue = q GROUP BY status
$$;
-- dead jobs back in the queue (`memfix replay-dlq`): one by its key, or every one when key is NULL
CREATE FUNCTION memfix_job_requeue(q text, key text) RETURNS integer
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  WITH again AS (
    UPDATE queued_jobs SET status = 'queued', attempt = 0, not_before = now(), error = NULL, updated_at = now()
    WHERE queue = q AND (key IS NULL OR claim_key = key) AND status = 'dead' RETURNING 1
  ) SELECT count(*)::integer FROM again
$$;
REVOKE ALL ON queued_jobs FROM memfix_app;
REVOKE ALL ON FUNCTION memfix_job_put(text, text, bigint, text), memfix_job_take(text, text, double precision),
  memfix_job_extend(bigint, text, double precision),
  memfix_job_settle(bigint, text, text, double precision, text), memfix_job_counts(text),
  memfix_job_requeue(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memfix_job_put(text, text, bigint, text), memfix_job_take(text, text, double precision),
  memfix_job_extend(bigint, text, double precision),
  memfix_job_settle(bigint, text, text, double precision, text), memfix_job_counts(text),
  memfix_job_requeue(text, text) TO memfix_app;
