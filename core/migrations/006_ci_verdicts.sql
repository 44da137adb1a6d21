-- The repository's CI as the behavioural verifier of memfix's PRs, and who closed them: the evidence the
-- learned policy (core/pipelines/policy.py) is computed from. ci_state: unknown (older rows), waiting (a draft
-- PR waits for the checks on head_sha), passed, failed, absent (no CI: ready at once), silent (no check
-- reported within MEMFIX_CI_WAIT_HOURS).
ALTER TABLE proposals
  ADD COLUMN ci_state text NOT NULL DEFAULT 'unknown'
    CHECK (ci_state IN ('unknown', 'waiting', 'passed', 'failed', 'absent', 'silent')),
  ADD COLUMN ci_since timestamptz,
  ADD COLUMN ci_failures integer NOT NULL DEFAULT 0,
  ADD COLUMN ci_passes integer NOT NULL DEFAULT 0,
  ADD COLUMN ci_detail text NOT NULL DEFAULT '',
  ADD COLUMN ci_reported text,  -- the head_sha whose verdict was commented on: one comment per verdict
  ADD COLUMN ci_refined boolean NOT NULL DEFAULT false,
  ADD COLUMN refines integer NOT NULL DEFAULT 0,
  ADD COLUMN closed_by text;
CREATE INDEX proposals_head ON proposals (tenant_id, repository, head_sha);
CREATE INDEX proposals_waiting ON proposals (tenant_id, repository, ci_since) WHERE ci_state = 'waiting';
