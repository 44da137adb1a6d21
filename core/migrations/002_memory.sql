-- Memory: layer 1 (memory_entries, searchable), layer 2 (workflow_insights, vectorised),
-- cross-project action points, and the full history of healing envelopes.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE memory_entries (
  id          bigserial PRIMARY KEY,
  tenant_id   bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repository  text,
  title       text NOT NULL,
  content     text NOT NULL DEFAULT '',
  tags        text[] NOT NULL DEFAULT '{}',
  source      text NOT NULL CHECK (source IN ('manual', 'github', 'import')),
  source_ref  text,
  letter_date date,
  search_vector tsvector,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, source_ref)
);
CREATE INDEX memory_entries_search ON memory_entries USING gin (search_vector);
CREATE INDEX memory_entries_repository ON memory_entries (tenant_id, repository);

CREATE FUNCTION memory_entries_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(array_to_string(NEW.tags, ' '), '')), 'B') ||
    setweight(to_tsvector('english', coalesce(NEW.content, '')), 'C');
  RETURN NEW;
END $$;
CREATE TRIGGER memory_entries_search_vector BEFORE INSERT OR UPDATE OF title, content, tags
  ON memory_entries FOR EACH ROW EXECUTE FUNCTION memory_entries_search_vector();

CREATE TABLE workflow_insights (
  id                bigserial PRIMARY KEY,
  tenant_id         bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repository        text NOT NULL,
  workflow_type     text NOT NULL CHECK (workflow_type IN ('autofix', 'refactor', 'review')),
  workflow_id       text,
  insight_type      text NOT NULL
                    CHECK (insight_type IN ('pain_point', 'strength', 'solution', 'pattern', 'decision')),
  category          text NOT NULL,
  severity          text CHECK (severity IN ('blocker', 'high', 'medium', 'low')),
  title             text NOT NULL,
  title_key         text GENERATED ALWAYS AS (btrim(lower(regexp_replace(title, '[^[:alnum:]]+', ' ', 'g')))) STORED,
  detail            text NOT NULL DEFAULT '',
  suggestion        text NOT NULL DEFAULT '',
  tags              text[] NOT NULL DEFAULT '{}',
  source_ref        text,
  paired_insight_id bigint REFERENCES workflow_insights (id) ON DELETE SET NULL,
  embedding         vector(1536),
  embedding_model   text,
  search_vector     tsvector,
  accepted_count    integer NOT NULL DEFAULT 0,
  rejected_count    integer NOT NULL DEFAULT 0,
  seen_count        integer NOT NULL DEFAULT 1,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workflow_insights_embedding ON workflow_insights
  USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64);
CREATE INDEX workflow_insights_search ON workflow_insights USING gin (search_vector);
CREATE INDEX workflow_insights_filter ON workflow_insights (tenant_id, repository, workflow_type, insight_type);
CREATE INDEX workflow_insights_title ON workflow_insights (tenant_id, repository, insight_type, title_key);

CREATE FUNCTION workflow_insights_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW.detail, '')), 'B') ||
    setweight(to_tsvector('english', coalesce(NEW.suggestion, '')), 'C') ||
    setweight(to_tsvector('english', NEW.category || ' ' || coalesce(array_to_string(NEW.tags, ' '), '')), 'D');
  RETURN NEW;
END $$;
CREATE TRIGGER workflow_insights_search_vector BEFORE INSERT OR UPDATE OF title, detail, suggestion, category, tags
  ON workflow_insights FOR EACH ROW EXECUTE FUNCTION workflow_insights_search_vector();

CREATE TABLE action_points (
  id                bigserial PRIMARY KEY,
  tenant_id         bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  source_insight_id bigint NOT NULL REFERENCES workflow_insights (id) ON DELETE CASCADE,
  source_repository text NOT NULL,
  target_repository text NOT NULL,
  target_insight_id bigint REFERENCES workflow_insights (id) ON DELETE SET NULL,
  similarity        real NOT NULL,
  status            text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done', 'dismissed')),
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (source_insight_id, target_repository)
);

CREATE TABLE healing_envelopes (
  id             text PRIMARY KEY,
  tenant_id      bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repository     text NOT NULL,
  pipeline       text,
  run_id         text,
  attempt        integer NOT NULL DEFAULT 1,
  patch_id       text,
  status         text NOT NULL CHECK (status IN ('PROMOTED', 'RETRY', 'REJECTED', 'HUMAN_REVIEW')),
  confidence     real NOT NULL DEFAULT 0,
  breaker_state  text NOT NULL DEFAULT 'closed',
  error_message  text,
  error_hash     text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX healing_envelopes_recent ON healing_envelopes (tenant_id, repository, created_at DESC);

SELECT memfix_isolate(t) FROM unnest(ARRAY['memory_entries', 'workflow_insights', 'action_points', 'healing_envelopes']) AS t;
GRANT USAGE, SELECT ON SEQUENCE memory_entries_id_seq, workflow_insights_id_seq, action_points_id_seq TO memfix_app;
