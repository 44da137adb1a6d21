-- A hold is stored once: two jobs learning at once (a PR's close and its CI's event) each stored the same learned
-- hold, and `/forget` of one left the others in force. The copies go (their insights, and with them their rows), the
-- first decision stays; from here a second insert of a standing hold does nothing. The owner lifts the row-level
-- security it forces on itself for these statements alone, as 015 did.
ALTER TABLE workflow_insights NO FORCE ROW LEVEL SECURITY;
ALTER TABLE rule_decisions NO FORCE ROW LEVEL SECURITY;
DELETE FROM workflow_insights AS wi
USING rule_decisions AS d
WHERE d.tenant_id = wi.tenant_id AND d.insight_id = wi.id AND d.stance = 'hold' AND EXISTS (
  SELECT 1 FROM rule_decisions AS first
  WHERE first.tenant_id = d.tenant_id AND first.repository = d.repository AND first.rule = d.rule
    AND first.stance = 'hold' AND first.pipeline IS NOT DISTINCT FROM d.pipeline
    AND first.scope IS NOT DISTINCT FROM d.scope AND first.insight_id < d.insight_id);
ALTER TABLE rule_decisions FORCE ROW LEVEL SECURITY;
ALTER TABLE workflow_insights FORCE ROW LEVEL SECURITY;
CREATE UNIQUE INDEX rule_decisions_one_hold ON rule_decisions
  (tenant_id, repository, rule, coalesce(pipeline, ''), coalesce(scope, '')) WHERE stance = 'hold';
