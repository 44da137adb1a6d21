-- What the dashboard shows: each attempt's file, named checks and, for model attempts, the exact sections the
-- model was given; the hot ring's hits and misses; curation done from the dashboard; and its sessions.
ALTER TABLE healing_envelopes ADD COLUMN path text, ADD COLUMN checks jsonb, ADD COLUMN sections jsonb;
CREATE INDEX healing_envelopes_run ON healing_envelopes (tenant_id, run_id);

CREATE TABLE ring_reads (
  tenant_id   bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repository  text NOT NULL,
  day         date NOT NULL DEFAULT current_date,
  hits        integer NOT NULL DEFAULT 0,  -- recent-attempt context served by the ring alone
  misses      integer NOT NULL DEFAULT 0,  -- ... that needed the database
  PRIMARY KEY (tenant_id, repository, day)
);

CREATE TABLE curations (
  id          bigserial PRIMARY KEY,
  tenant_id   bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repository  text,
  actor       text NOT NULL,
  action      text NOT NULL,
  target      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX curations_recent ON curations (tenant_id, created_at DESC);

SELECT memfix_isolate(t) FROM unnest(ARRAY['ring_reads', 'curations']) AS t;
GRANT USAGE, SELECT ON SEQUENCE curations_id_seq TO memfix_app;

-- Signed-in people and what GitHub said they may see, looked up by an unguessable session id before any tenant
-- is known (like webhook_deliveries): reached only through these functions.
CREATE TABLE dashboard_sessions (
  id          text PRIMARY KEY,
  login       text NOT NULL,
  access      jsonb NOT NULL,  -- {"<installation id>": {"<owner/name>": true if they may write}}
  expires_at  timestamptz NOT NULL
);
CREATE FUNCTION memfix_session_save(sid text, who text, allowed jsonb, ttl_seconds integer) RETURNS void
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  DELETE FROM dashboard_sessions WHERE expires_at < now();
  INSERT INTO dashboard_sessions (id, login, access, expires_at)
  VALUES (sid, who, allowed, now() + make_interval(secs => ttl_seconds))
  ON CONFLICT (id) DO UPDATE SET login = EXCLUDED.login, access = EXCLUDED.access, expires_at = EXCLUDED.expires_at
$$;
CREATE FUNCTION memfix_session_load(sid text) RETURNS TABLE (login text, access jsonb)
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  SELECT login, access FROM dashboard_sessions WHERE id = sid AND expires_at > now()
$$;
CREATE FUNCTION memfix_session_end(sid text) RETURNS void
  LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  DELETE FROM dashboard_sessions WHERE id = sid
$$;
REVOKE ALL ON dashboard_sessions FROM memfix_app;
REVOKE ALL ON FUNCTION memfix_session_save(text, text, jsonb, integer), memfix_session_load(text),
  memfix_session_end(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memfix_session_save(text, text, jsonb, integer), memfix_session_load(text),
  memfix_session_end(text) TO memfix_app;
