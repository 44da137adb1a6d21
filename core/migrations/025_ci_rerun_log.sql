-- Each time memfix asked GitHub to run a memfix PR's failed checks again, or was refused: the weekly cap counts the
-- re-runs asked, and the first of each answer in a repository is said on its PR (and never again).
ALTER TABLE proposals ADD CONSTRAINT proposals_tenant_id UNIQUE (tenant_id, id);
CREATE TABLE ci_reruns (
  id          bigserial PRIMARY KEY,
  tenant_id   bigint NOT NULL REFERENCES installations (tenant_id) ON DELETE CASCADE,
  repository  text NOT NULL,
  proposal_id bigint NOT NULL,
  head_sha    text NOT NULL,
  answer      text NOT NULL CHECK (answer IN ('asked', 'refused')),
  asked_at    timestamptz NOT NULL DEFAULT now(),
  said        boolean NOT NULL DEFAULT false,  -- the re-run the PR's announcement was made for
  FOREIGN KEY (tenant_id, proposal_id) REFERENCES proposals (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX ci_reruns_by_week ON ci_reruns (tenant_id, repository, asked_at);
SELECT memfix_isolate('ci_reruns');
GRANT USAGE, SELECT ON SEQUENCE ci_reruns_id_seq TO memfix_app;
