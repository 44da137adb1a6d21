-- The learned policy's decisions as rows (core/pipelines/policy.py): a rule held back in a repository, or re-enabled
-- there, by a person or by the evidence. The `decision` insight stays the record people see (`/recall` shows it); the
-- row is what the policy reads, never its tags. Forgetting the insight (`/forget insight:N`) deletes its row with it.
CREATE TABLE rule_decisions (
  id          bigserial PRIMARY KEY,
  tenant_id   bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repository  text NOT NULL,
  rule        text NOT NULL,
  stance      text NOT NULL CHECK (stance IN ('hold', 'enable')),
  pipeline    text CHECK (pipeline IN ('autofix', 'refactor')),  -- NULL: every pipeline (a person's word)
  decided_by  text NOT NULL,  -- the person's login, or 'learned'
  reason      text NOT NULL DEFAULT '',
  insight_id  bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, insight_id) REFERENCES workflow_insights (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX rule_decisions_repository ON rule_decisions (tenant_id, repository, stance);
CREATE INDEX rule_decisions_insight ON rule_decisions (tenant_id, insight_id);

-- The decisions so far, from their insights' tags ('policy', 'hold' or 'enable', the rule in lower case, 'by:<login>'
-- on a person's). The migrating owner is no superuser on Aurora: row-level security it forces on itself is lifted for
-- this one statement, inside the migration's transaction.
ALTER TABLE workflow_insights NO FORCE ROW LEVEL SECURITY;
INSERT INTO rule_decisions (tenant_id, repository, rule, stance, pipeline, decided_by, reason, insight_id, created_at)
SELECT wi.tenant_id, wi.repository, upper(t.tag),
       CASE WHEN 'hold' = ANY (wi.tags) THEN 'hold' ELSE 'enable' END,
       NULLIF(wi.workflow_type, 'review'),
       coalesce((SELECT substr(b.tag, 4) FROM unnest(wi.tags) AS b (tag) WHERE b.tag LIKE 'by:%' LIMIT 1), 'learned'),
       CASE WHEN 'hold' = ANY (wi.tags) THEN split_part(wi.detail, E'\n', 1) ELSE '' END,
       wi.id, wi.created_at
FROM workflow_insights AS wi, unnest(wi.tags) AS t (tag)
WHERE wi.insight_type = 'decision' AND 'policy' = ANY (wi.tags)
  AND ('hold' = ANY (wi.tags) OR 'enable' = ANY (wi.tags)) AND t.tag ~ '^[A-Za-z]{1,8}[0-9]{1,4}$';
ALTER TABLE workflow_insights FORCE ROW LEVEL SECURITY;

SELECT memfix_isolate('rule_decisions');
GRANT USAGE, SELECT ON SEQUENCE rule_decisions_id_seq TO memfix_app;
