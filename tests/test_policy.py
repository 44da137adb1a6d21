"""The learned policy: blame, the estimate, holds as decision insights, a person's word, and the run it shapes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.memory.embeddings import NoEmbedder
from core.memory.insights import Insights
from core.pipelines.confidence import Record
from core.pipelines.policy import Policy, hold_reason, records_from
from core.pipelines.proposals import ProposalOutcome

REPO = "acme/policy"


def row(codes, state="open", ci_failures=0, ci_passes=0, refines=0):
    return ProposalOutcome(tuple(codes), state, datetime.now(UTC), ci_failures, ci_passes, refines)


def test_a_closed_pr_is_blamed_on_the_rules_never_merged_here():
    records = records_from([row(["F541"], "merged"), row(["F401", "F541"], "closed"), row(["F401"], "closed")])
    assert records["F401"] == Record(merged=0, closed=2)
    assert records["F541"] == Record(merged=1, closed=0)


def test_with_every_rule_merged_before_a_close_blames_them_all():
    records = records_from([row(["F541"], "merged"), row(["F401"], "merged"), row(["F401", "F541"], "closed")])
    assert records["F401"].closed == records["F541"].closed == 1


def test_ci_and_refine_evidence_is_counted():
    records = records_from([row(["B009"], "open", ci_failures=1, refines=2), row(["B009"], "merged", ci_passes=1)])
    assert records["B009"] == Record(merged=1, closed=0, ci_failed=1, ci_passed=1, refined=2)


@pytest.mark.parametrize("record, held", [
    (Record(), False),
    (Record(closed=1), False),
    (Record(closed=2), True),
    (Record(merged=1, closed=2), False),
    (Record(ci_failed=1), True),
    (Record(merged=1, ci_failed=1), False),
    (Record(merged=1, closed=5), False),  # estimate 2/8 = 0.25: not below
    (Record(merged=1, closed=6), True),  # 2/9
    (Record(merged=2, closed=3), False),
])
def test_hold_reason(record, held):
    assert (hold_reason("X1", record) is not None) == held


def test_the_estimate_is_a_beta_posterior_mean():
    assert Record().posterior == 0.5
    assert Record(closed=2).posterior == 0.25
    assert Record(merged=4).posterior == pytest.approx(5 / 6)
    assert Record(merged=4).describe() == "4 merged, 0 closed in this repository"


@pytest.fixture
def policy(db):
    return Policy(db, Insights(db, NoEmbedder()))


def propose(db, tenant, codes, state, fingerprint, **ci):
    with db.tenant(tenant, register=True) as conn:
        conn.execute(
            "INSERT INTO proposals (tenant_id, repository, pipeline, fingerprint, path, branch, base_branch, state,"
            " finding_codes, ci_failures) VALUES (%s, %s, 'autofix', %s, 'a.py', %s, 'main', %s, %s, %s)",
            (tenant, REPO, fingerprint, f"memfix/autofix/{fingerprint}", state, codes, ci.get("ci_failures", 0)))


def test_learn_holds_a_rule_as_a_decision_insight_and_forget_lifts_it(db, policy, tenant_id):
    propose(db, tenant_id, ["F401"], "closed", "a1")
    assert policy.learn(tenant_id, REPO, "autofix") == []
    propose(db, tenant_id, ["F401"], "closed", "a2")
    [changed] = policy.learn(tenant_id, REPO, "autofix")
    assert changed.startswith("now holding back F401")
    plan = policy.for_run(tenant_id, REPO, "autofix")
    assert plan.held == ("F401",) and "2 closed" in plan.records["F401"].describe()
    hold = plan.holds["F401"]
    decision = policy.insights.get(tenant_id, hold.insight_id)
    assert decision.insight_type == "decision" and "policy" in decision.tags
    assert policy.learn(tenant_id, REPO, "autofix") == []  # no new evidence, no second decision
    assert policy.insights.delete(tenant_id, hold.insight_id, repository=REPO)  # /forget
    assert policy.for_run(tenant_id, REPO, "autofix").held == ()


def test_always_propose_overrides_a_hold_and_says_so(db, policy, tenant_id):
    propose(db, tenant_id, ["B009"], "open", "b1", ci_failures=1)
    policy.learn(tenant_id, REPO, "autofix")
    plan = policy.for_run(tenant_id, REPO, "autofix", always=("B009",))
    assert plan.held == () and "always_propose" in plan.used()[0]


def test_a_person_holds_and_enables(db, policy, tenant_id):
    [i] = policy.hold(tenant_id, REPO, ["S311"], "alice", None)
    assert policy.for_run(tenant_id, REPO, "refactor").holds["S311"].by == "alice"  # a person's: every pipeline
    assert policy.enable(tenant_id, REPO, ["S311"], "bob", None) == [i]
    assert policy.for_run(tenant_id, REPO, "autofix").held == ()


def test_a_learned_hold_the_evidence_no_longer_supports_is_lifted(db, policy, tenant_id):
    propose(db, tenant_id, ["F811"], "closed", "c1")
    propose(db, tenant_id, ["F811"], "closed", "c2")
    policy.learn(tenant_id, REPO, "autofix")
    propose(db, tenant_id, ["F811"], "merged", "c3")  # e.g. a person re-enabled it and reviewers took the next one
    [changed] = policy.learn(tenant_id, REPO, "autofix")
    assert changed.startswith("proposing F811 again")


def test_a_hold_is_offered_to_the_other_repositories_never_applied(db, policy, tenant_id):
    propose(db, tenant_id, ["F401"], "closed", "d1")
    propose(db, tenant_id, ["F401"], "closed", "d2")
    with db.tenant(tenant_id) as conn:
        conn.execute("INSERT INTO repositories (tenant_id, repo_id, full_name) VALUES (%s, %s, 'acme/other')",
                     (tenant_id, tenant_id * 100 + 1))
    policy.learn(tenant_id, REPO, "autofix")
    other = policy.for_run(tenant_id, "acme/other", "autofix")
    assert other.held == ()
    [suggestion] = other.suggestions
    assert "holds back F401" in suggestion and "/remember decision hold F401" in suggestion
    assert REPO not in suggestion  # read in acme/other by people who may not see acme/policy
