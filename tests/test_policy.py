"""The learned policy: blame, the estimate, decisions as rows with insights as their record, a person's word, and
the run it shapes."""

from __future__ import annotations

import shutil
from dataclasses import replace
from datetime import UTC, datetime

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from core.db import migrate, migration_files
from core.learning.policy import (
    ALPHA,
    LEARNED,
    Decision,
    Enable,
    Hold,
    Policy,
    RepoPolicy,
    evidence_from,
    hold_reason,
    hold_scopes,
    in_doubt,
    records_from,
)
from core.learning.record import Chance, Record, beyond_chance
from core.memory.embeddings import NoEmbedder
from core.memory.insights import Insights
from core.memory.proposals import ProposalOutcome
from core.memory.types import Stance

REPO = "acme/policy"
ROOT_F401 = "F401 in the files at the repository's root (`/*.py`)"  # closed in a.py: held where they were


def row(codes, state="open", ci_failures=0, ci_passes=0, refines=0, path="a.py", place=None, blamed=()):
    return ProposalOutcome(tuple(codes), state, datetime.now(UTC), ci_failures, ci_passes, refines, path, place,
                           tuple(blamed))


def test_a_closed_pr_is_blamed_on_the_rules_never_merged_here():
    records = records_from([row(["F541"], "merged"), row(["F401", "F541"], "closed"), row(["F401"], "closed")])
    assert records["F401"] == Record(merged=0, closed=2, lately=2)
    assert records["F541"] == Record(merged=1, closed=0)


def test_with_every_rule_merged_before_a_close_blames_them_all():
    records = records_from([row(["F541"], "merged"), row(["F401"], "merged"), row(["F401", "F541"], "closed")])
    assert records["F401"].closed == records["F541"].closed == 1


def test_a_rule_reviewers_merged_and_now_turn_down_three_times_in_a_row_is_held():
    def took():  # rows are dated when made: the order they are made in is the order they happened in
        return [row(["F401"], "merged", path=f"m{i}.py") for i in range(6)]

    def turned(n=3):
        return [row(["F401"], "closed", path=f"n{i}.py") for i in range(n)]

    record = records_from([*took(), *turned()])["F401"]
    assert (record.merged, record.closed, record.lately) == (6, 3, 3) and record.posterior > 0.6
    rare = Chance(closes=0.05)  # reviewers here close one PR of memfix's in twenty
    assert "turned down its last 3 PRs after merging 6: their taste changed" in hold_reason("F401", record, rare)
    assert hold_reason("F401", record, Chance(closes=0.3)) is None  # where they close 30 %, three in a row is luck
    assert hold_reason("F401", records_from([*took(), *turned(2)])["F401"], rare) is None  # two closes may be chance
    closed_first = records_from([*turned(), *took()])["F401"]  # closed, then merged since: nothing turned
    assert closed_first.lately == 0 and hold_reason("F401", closed_first) is None
    failed = records_from([*took(), row(["F401"], "open", ci_failures=2), row(["F401"], "closed")])["F401"]
    assert failed.lately == 3


def test_ci_and_refine_evidence_is_counted():
    records = records_from([row(["B009"], "open", ci_failures=1, refines=2), row(["B009"], "merged", ci_passes=1)])
    assert records["B009"] == Record(merged=1, closed=0, ci_failed=1, ci_passed=1, refined=2)


@pytest.mark.parametrize("record, chance, held", [
    (Record(), Chance(), False),
    (Record(closed=1), Chance(), False),  # one close is a person's moment, never a pattern
    (Record(closed=2), Chance(), True),  # both closed where one in five is: chance 0.04
    (Record(closed=2), Chance(closes=0.3), False),  # where they close 30 % of memfix's PRs: 0.09
    (Record(merged=1, closed=2), Chance(), False),  # 0.10
    (Record(merged=1, closed=5), Chance(), True),
    (Record(merged=20, closed=4), Chance(closes=0.15), False),  # a reviewer's random closes
    (Record(ci_failed=1), Chance(), False),  # red once where nothing says the CI is green: chance 0.1
    (Record(ci_failed=1), Chance(reds=0.04), True),  # red once where it is green on memfix's other fixes
    (Record(ci_failed=2), Chance(), True),
    (Record(merged=1, ci_failed=1, ci_passed=5), Chance(), False),  # merged: red as often as chance reddens
    (Record(merged=1, ci_failed=3, ci_passed=2), Chance(reds=0.05, runs=100), True),  # far more than known chance
    (Record(merged=1, ci_failed=3, ci_passed=2), Chance(), False),  # a rate of one in ten from ten runs is unsure
    (Record(merged=3, closed=1), Chance(), False),
])
def test_a_hold_needs_a_record_chance_would_rarely_give(record, chance, held):
    assert (hold_reason("X1", record, chance) is not None) == held


def test_the_more_places_are_looked_at_the_more_a_record_must_say():
    assert hold_reason("X1", Record(closed=2), Chance(closes=0.1)) is not None  # 0.01
    assert hold_reason("X1", Record(closed=2), Chance(closes=0.1), looks=10) is None  # 0.01 ≥ 0.05 / 10
    assert hold_reason("X1", Record(closed=3), Chance(closes=0.1), looks=10) is not None  # 0.001


def test_beyond_chance_is_the_binomial_tail_and_a_close_or_two_is_only_a_discount():
    assert beyond_chance(2, 2, 0.2) == pytest.approx(0.04) and beyond_chance(0, 5, 0.5) == 1.0
    assert beyond_chance(1, 3, 0.5) == pytest.approx(0.875)
    assert Chance.of(0, 0, 0, 0) == Chance(0.2, 0.1) and Chance.of(3, 15, 1, 10) == Chance(0.2, 0.1, runs=20)
    assert Record(closed=2).factor == 1.0 and 0.85 * Record(closed=5).factor < 0.8  # five unanswered closes do


def test_the_estimate_is_a_beta_posterior_mean():
    assert Record().posterior == 0.5
    assert Record(closed=2).posterior == 0.25
    assert Record(merged=4).posterior == pytest.approx(5 / 6)
    assert Record(merged=4).describe() == "4 merged, 0 closed in this repository"


@pytest.fixture
def policy(db):
    return Policy(db, Insights(db, NoEmbedder()))


def propose(db, tenant, codes, state, fingerprint, path="a.py", place=None, **ci):
    with db.tenant(tenant, register=True) as conn:
        conn.execute(
            "INSERT INTO proposals (tenant_id, repository, pipeline, fingerprint, path, branch, base_branch, state,"
            " finding_codes, ci_failures, place) VALUES (%s, %s, 'autofix', %s, %s, %s, 'main', %s, %s, %s, %s)",
            (tenant, REPO, fingerprint, path, f"memfix/autofix/{fingerprint}", state, codes, ci.get("ci_failures", 0),
             place))


def test_learn_holds_a_rule_as_a_decision_insight_and_forget_lifts_it(db, policy, tenant_id):
    propose(db, tenant_id, ["F401"], "closed", "a1")
    assert policy.learn(tenant_id, REPO, "autofix") == []  # one close is a person's moment, not a pattern
    propose(db, tenant_id, ["F401"], "closed", "a2")  # two of two, where chance closes one in five: a hold, said
    [changed] = policy.learn(tenant_id, REPO, "autofix")
    assert changed.startswith("now holding back F401") and "closed 2 of its 2 PRs where they close 20%" in changed
    propose(db, tenant_id, ["F401"], "closed", "a3")
    assert policy.learn(tenant_id, REPO, "autofix") == []  # still held: one decision, not two
    plan = policy.for_run(tenant_id, REPO, "autofix")
    assert plan.held_for("a.py", "library") == ("F401",) and "3 closed" in plan.records["F401"].describe()
    [hold] = plan.holds
    decision = policy.insights.get(tenant_id, hold.insight_id)
    assert decision.insight_type == "decision" and "policy" in decision.tags
    assert policy.learn(tenant_id, REPO, "autofix") == []  # no new evidence, no second decision
    assert policy.insights.delete(tenant_id, hold.insight_id, repository=REPO)  # /forget
    assert policy.for_run(tenant_id, REPO, "autofix").held_for("a.py", "library") == ()


def test_always_propose_overrides_a_hold_and_says_so(db, policy, tenant_id):
    propose(db, tenant_id, ["B009"], "open", "b1", ci_failures=1)
    propose(db, tenant_id, ["B009"], "open", "b2", ci_failures=1)  # red twice: more than chance
    policy.learn(tenant_id, REPO, "autofix")
    plan = policy.for_run(tenant_id, REPO, "autofix", always=("B009",))
    assert plan.holds == [] and [h.code for h in plan.overridden] == ["B009"] and "always_propose" in plan.used()[0]


def test_a_person_holds_and_enables(db, policy, tenant_id):
    [i] = policy.hold(tenant_id, REPO, ["S311"], "alice", None)
    [hold] = policy.for_run(tenant_id, REPO, "refactor").holds
    assert (hold.code, hold.by, hold.scope) == ("S311", "alice", None)  # a person's: every pipeline, everywhere
    assert policy.enable(tenant_id, REPO, ["S311"], "bob", None) == [i]
    assert policy.for_run(tenant_id, REPO, "autofix").holds == []


def test_a_learned_hold_the_evidence_no_longer_supports_is_lifted(db, policy, tenant_id):
    propose(db, tenant_id, ["F811"], "closed", "c1")
    propose(db, tenant_id, ["F811"], "closed", "c2")
    [held] = policy.learn(tenant_id, REPO, "autofix")
    assert held.startswith("now holding back F811")
    propose(db, tenant_id, ["F811"], "merged", "c3")  # e.g. a person re-enabled it and reviewers took the next ones
    [changed] = policy.learn(tenant_id, REPO, "autofix")  # 1 merged, 2 closed: chance could do that
    assert changed.startswith("proposing F811 again")


def test_a_hold_is_offered_to_the_other_repositories_never_applied(db, policy, tenant_id):
    propose(db, tenant_id, ["F401"], "closed", "d1")
    propose(db, tenant_id, ["F401"], "closed", "d2")
    with db.tenant(tenant_id) as conn:
        conn.execute("INSERT INTO repositories (tenant_id, repo_id, full_name) VALUES (%s, %s, 'acme/other')",
                     (tenant_id, tenant_id * 100 + 1))
    policy.learn(tenant_id, REPO, "autofix")
    other = policy.for_run(tenant_id, "acme/other", "autofix")
    assert other.holds == []
    [suggestion] = other.suggestions
    assert "holds back F401" in suggestion and "/remember decision hold F401" in suggestion
    assert REPO not in suggestion  # read in acme/other by people who may not see acme/policy


def decisions(db, tenant):
    with db.tenant(tenant) as conn:
        return conn.execute("SELECT rule, stance, pipeline, decided_by, reason, insight_id FROM rule_decisions"
                            " WHERE repository = %s ORDER BY id", (REPO,)).fetchall()


def test_a_decision_is_a_row_its_insight_the_record_and_forgetting_the_insight_lifts_it(db, policy, tenant_id):
    [held] = policy.hold(tenant_id, REPO, ["S311"], "Alice", None)
    reason = "@Alice asked memfix not to propose S311 fixes here"
    assert decisions(db, tenant_id) == [{"rule": "S311", "stance": "hold", "pipeline": None, "decided_by": "Alice",
                                         "reason": reason, "insight_id": held}]
    record = policy.insights.get(tenant_id, held)
    assert record.insight_type == "decision" and record.title == f"Hold back S311 fixes in {REPO}"
    with db.tenant(tenant_id) as conn:  # the policy reads the row: the record's tags decide nothing
        conn.execute("UPDATE workflow_insights SET tags = '{}' WHERE id = %s", (held,))
    assert policy.holds(tenant_id, REPO, "refactor") == [Hold("S311", reason, held, "Alice")]
    assert policy.insights.delete(tenant_id, held, repository=REPO)  # /forget insight:N
    assert decisions(db, tenant_id) == [] and policy.holds(tenant_id, REPO) == []


def test_a_learned_hold_is_for_its_own_pipeline(db, policy, tenant_id):
    propose(db, tenant_id, ["F401"], "closed", "e1")
    propose(db, tenant_id, ["F401"], "closed", "e2")
    policy.learn(tenant_id, REPO, "autofix")
    [row] = decisions(db, tenant_id)
    assert (row["rule"], row["stance"], row["pipeline"], row["decided_by"]) == ("F401", "hold", "autofix", "learned")
    assert row["reason"] == "reviewers closed 2 of its 2 PRs where they close 20% of memfix's others (chance: 0.040)"
    assert policy.for_run(tenant_id, REPO, "autofix").held_for("a.py", "library") == ("F401",)
    assert policy.for_run(tenant_id, REPO, "refactor").held_for("a.py", "library") == ()


def test_an_enable_is_a_row_the_rules_record_starts_from_until_it_is_forgotten(db, policy, tenant_id):
    propose(db, tenant_id, ["F841"], "closed", "g1")
    propose(db, tenant_id, ["F841"], "closed", "g2")
    [changed] = policy.learn(tenant_id, REPO, "autofix")
    [hold] = [r["insight_id"] for r in decisions(db, tenant_id)]
    assert policy.enable(tenant_id, REPO, ["F841"], "bob", None) == [hold]
    [enabled] = decisions(db, tenant_id)
    assert (enabled["rule"], enabled["stance"], enabled["pipeline"], enabled["decided_by"]) == \
        ("F841", "enable", None, "bob")
    assert "F841" not in policy.records(tenant_id, REPO) and policy.learn(tenant_id, REPO, "autofix") == []
    assert policy.insights.delete(tenant_id, enabled["insight_id"], repository=REPO)  # the old record counts again
    assert policy.records(tenant_id, REPO)["F841"].closed == 2


def test_a_models_own_findings_are_no_rule_to_hold(db, policy, tenant_id):
    propose(db, tenant_id, ["MODEL"], "closed", "h1")
    propose(db, tenant_id, ["MODEL"], "closed", "h2")
    assert policy.learn(tenant_id, REPO, "autofix") == [] and decisions(db, tenant_id) == []


def test_the_migration_makes_rows_of_the_decisions_tags_also_as_an_owner_that_is_no_superuser(tmp_path, data_dir):
    """Aurora's master owns the tables without being a superuser, so the row-level security they force applies to
    it: the decisions made before the table existed must still become rows."""
    from tests.test_definer_guard import own_cluster

    before = tmp_path / "before"
    before.mkdir()
    for path in migration_files():
        if path.name < "015":
            shutil.copy(path, before / path.name)
    tagged = [("autofix", "reviewers closed 2 of its PRs and merged none\nEvidence: 0 merged, 2 closed.",
               ["policy", "hold", "f401", "by:learned"]),
              ("review", "@alice asked memfix not to propose S311 fixes here\nEvidence: none.",
               ["policy", "hold", "s311", "by:alice"]),
              ("review", "@bob re-enabled E711 fixes", ["policy", "enable", "e711", "by:bob"]),
              ("review", "Use fixtures, not setUp", ["review"]),  # a decision a person wrote: no rule in it
              ("autofix", "reviewers closed 2 of its PRs", ["policy", "hold", "model", "by:learned"]),
              # learned twice at once before 026: the copy goes; a person's hold on the same rule is another decision
              ("autofix", "reviewers closed 2 of its PRs and merged none\nEvidence: 0 merged, 2 closed.",
               ["policy", "hold", "f401", "by:learned"]),
              ("review", "@alice asked memfix not to propose F401 fixes here", ["policy", "hold", "f401", "by:alice"])]
    with own_cluster(data_dir) as url:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE ROLE master LOGIN CREATEROLE")
            conn.execute("CREATE DATABASE app OWNER master")
        with psycopg.connect(make_conninfo(url, dbname="app"), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION vector")
        master = make_conninfo(url, user="master", dbname="app")
        migrate(master, before)
        with psycopg.connect(master) as conn:
            conn.execute("SELECT memfix_enter_tenant(7)")
            conn.execute("INSERT INTO installations (tenant_id) VALUES (7)")
            ids = [conn.execute("INSERT INTO workflow_insights (tenant_id, repository, workflow_type, insight_type,"
                                " category, title, detail, tags) VALUES (7, 'acme/app', %s, 'decision',"
                                " 'maintainability', 'a decision', %s, %s) RETURNING id", row).fetchone()[0]
                   for row in tagged]
        assert migrate(master) == [p.stem for p in migration_files() if p.name >= "015"]
        with psycopg.connect(master) as conn:
            conn.execute("SELECT memfix_enter_tenant(7)")
            rows = conn.execute("SELECT rule, stance, pipeline, decided_by, reason, insight_id FROM rule_decisions"
                                " ORDER BY insight_id").fetchall()
            forced = conn.execute("SELECT bool_and(relforcerowsecurity) FROM pg_class"
                                  " WHERE relname IN ('workflow_insights', 'rule_decisions')").fetchone()[0]
            kept = [r[0] for r in conn.execute("SELECT id FROM workflow_insights ORDER BY id")]
    assert rows == [("F401", "hold", "autofix", "learned", "reviewers closed 2 of its PRs and merged none", ids[0]),
                    ("S311", "hold", None, "alice", "@alice asked memfix not to propose S311 fixes here", ids[1]),
                    ("E711", "enable", None, "bob", "", ids[2]),
                    ("F401", "hold", None, "alice", "@alice asked memfix not to propose F401 fixes here", ids[6])]
    assert kept == [ids[0], ids[1], ids[2], ids[3], ids[4], ids[6]]  # the copy's record went with its row
    assert forced  # lifted for the migrations' statements only


def _age_decisions(db, tenant, days: int) -> None:
    """Days pass: the decisions and the PRs they came from move into the past."""
    with db.tenant(tenant) as conn:
        conn.execute("UPDATE rule_decisions SET created_at = created_at - make_interval(days => %s)", (days,))
        conn.execute("UPDATE proposals SET created_at = created_at - make_interval(days => %s),"
                     " updated_at = updated_at - make_interval(days => %s)", (days, days))


def test_a_learned_hold_is_tried_again_in_two_weeks_and_each_closed_try_doubles_the_wait(db, tenant_id):
    import random

    policy = Policy(db, Insights(db, NoEmbedder()), rng=random.Random(5))
    propose(db, tenant_id, ["F401"], "closed", "e1")
    propose(db, tenant_id, ["F401"], "closed", "e0")
    policy.learn(tenant_id, REPO, "autofix")
    assert policy.for_run(tenant_id, REPO, "autofix").named() == (ROOT_F401,)  # just decided
    [hold] = policy.for_run(tenant_id, REPO, "autofix").holds
    when = hold.retry_at(policy.evidence(tenant_id, REPO, "autofix"))
    assert when is not None and 13.9 < (when - datetime.now(UTC)).days + 1 <= 14  # two closes: two weeks
    _age_decisions(db, tenant_id, 8)
    assert policy.for_run(tenant_id, REPO, "autofix").exploring is None  # a week on: still held
    _age_decisions(db, tenant_id, 7)
    plan = policy.for_run(tenant_id, REPO, "autofix")
    assert plan.named() == () and plan.exploring is not None and plan.exploring.code == "F401"
    assert any("tried again in this run on purpose" in line for line in plan.used())
    with db.tenant(tenant_id) as conn:  # the run opened its exploratory PR: the week's budget is spent
        conn.execute("UPDATE proposals SET exploratory = true WHERE fingerprint = 'e1'")
        conn.execute("UPDATE proposals SET created_at = now()")
    assert policy.for_run(tenant_id, REPO, "autofix").named() == (ROOT_F401,)
    with db.tenant(tenant_id) as conn:  # the try was closed: four weeks, never the same wait again; then eight
        conn.execute("UPDATE proposals SET exploratory = false")
    for n, days in ((2, 28), (3, 56)):
        propose(db, tenant_id, ["F401"], "closed", f"e{n}")
        [hold] = policy.for_run(tenant_id, REPO, "autofix").holds
        when = hold.retry_at(policy.evidence(tenant_id, REPO, "autofix"))
        assert when is not None and days - 1 <= (when - datetime.now(UTC)).days <= days


def test_a_persons_hold_is_never_explored_and_a_rule_the_team_now_names_is_tried_at_once(db, tenant_id):
    import random

    policy = Policy(db, Insights(db, NoEmbedder()), rng=random.Random(5))
    policy.hold(tenant_id, REPO, ["S311"], "alice", None)
    _age_decisions(db, tenant_id, 30)
    assert policy.for_run(tenant_id, REPO, "autofix").held == ("S311",)
    propose(db, tenant_id, ["F401"], "closed", "f1")
    propose(db, tenant_id, ["F401"], "closed", "f2")
    policy.learn(tenant_id, REPO, "autofix")  # a fresh learned hold, under a week old
    assert policy.for_run(tenant_id, REPO, "autofix").named() == ("S311", ROOT_F401)
    plan = policy.for_run(tenant_id, REPO, "autofix", named=("F401",))  # the team's ruff config now selects it
    assert plan.exploring is not None and plan.exploring.code == "F401" and plan.named() == ("S311",)
# ---- context: evidence per kind of place and folder, holds as narrow as it supports ----

def test_evidence_is_kept_per_kind_of_place_and_folder_with_the_repositorys_blame():
    evidence = evidence_from([row(["F541"], "merged", path="src/a.py"),
                              row(["F401", "F541"], "closed", path="src/pkg/__init__.py"),
                              row(["F401"], "closed", path="tests/test_a.py", place="generated")])  # as proposed
    one = Record(closed=1, lately=1)
    assert evidence.records["F401"] == Record(closed=2, lately=2)
    assert evidence.kinds("F401") == {"kind:init": one, "kind:generated": one}
    assert evidence.kinds("F541") == {"kind:library": Record(merged=1), "kind:init": Record()}  # not blamed
    assert evidence.record("F401", "src/**") == evidence.record("F401", "src/pkg/**") == one
    assert evidence.record("F401", "tests/**") == one


def closed_in(*paths):
    return evidence_from([row(["F401"], "closed", path=p) for p in paths])


@pytest.mark.parametrize("evidence, scopes", [
    (closed_in("a/__init__.py", "b/__init__.py"), ["kind:init"]),
    (evidence_from([row(["F401"], "closed", path="a/__init__.py"), row(["F401"], "closed", path="b/__init__.py"),
                    row(["F401"], "closed", path="c/__init__.py"), row(["F401"], "merged", path="a/models.py")]),
     ["kind:init"]),  # library modules take it
    (closed_in("a/__init__.py", "a/models.py"), [None]),  # two kinds agree
    (closed_in("a/__init__.py", "b/__init__.py", "tests/test_a.py"), [None]),
    (evidence_from([*(row(["F401"], "closed", path=f"{p}/__init__.py") for p in "abc"),
                    *(row(["F401"], "closed", path=f"tests/test_{p}.py") for p in "abc"),
                    *[row(["F401"], "merged", path=f"lib/m{i}.py") for i in range(8)]]),
     ["kind:init", "kind:test"]),  # each bad on its own, and library modules take it: not the whole repository
    (evidence_from([*(row(["F401"], "closed", path=f"legacy/old/{p}.py") for p in "abc"),
                    row(["F401"], "closed", path="legacy/c.py"), row(["F401"], "merged", path="legacy/d.py"),
                    *[row(["F401"], "merged", path=f"src/m{i}.py") for i in range(4)]]),
     ["legacy/old/**"]),  # no kind is bad as a whole: the narrowest folder that is (legacy/ takes it elsewhere)
    (evidence_from([*(row(["F401"], "closed", path=f"legacy/old/{p}.py") for p in "abc"),
                    row(["F401"], "closed", path="legacy/c.py"),
                    *[row(["F401"], "merged", path=f"src/m{i}.py") for i in range(4)]]),
     ["legacy/**"]),  # closed beside legacy/old/ too, and merged nowhere in legacy/: the narrower hold explains less
    (closed_in("a/__init__.py"), []),  # one close is no pattern, anywhere
])
def test_a_hold_takes_the_narrowest_scope_the_evidence_supports(evidence, scopes):
    assert sorted(hold_scopes("F401", evidence), key=str) == sorted(scopes, key=str)


def test_f401_closed_in_package_inits_is_held_there_and_still_proposed_in_library_modules(db, policy, tenant_id):
    propose(db, tenant_id, ["F401"], "closed", "i1", path="shop/__init__.py")
    propose(db, tenant_id, ["F401"], "merged", "i2", path="shop/cart.py")
    propose(db, tenant_id, ["F401"], "closed", "i3", path="shop/api/__init__.py")
    propose(db, tenant_id, ["F401"], "closed", "i4", path="shop/web/__init__.py")
    [changed] = policy.learn(tenant_id, REPO, "autofix")
    assert changed.startswith("now holding back F401 in package `__init__` and index files: reviewers closed 3")
    plan = policy.for_run(tenant_id, REPO, "autofix")
    assert plan.held == () and plan.scoped  # not left out of the linter: it is fixed elsewhere
    assert plan.held_for("shop/orders/__init__.py", "init") == ("F401",)
    assert plan.held_for("shop/orders/cart.py", "library") == ()
    assert plan.named() == ("F401 in package `__init__` and index files",)
    assert "F401 held back in package `__init__` and index files (learned)" in plan.used()[0]
    assert "`/remember decision enable F401 in kind:init`" in plan.used()[0]
    [hold] = plan.holds
    record = policy.insights.get(tenant_id, hold.insight_id)  # what /recall shows
    assert record.title == f"Hold back F401 fixes in {REPO} (package `__init__` and index files only)"
    assert "Evidence: 0 merged, 3 closed in package `__init__` and index files." in record.detail


def test_closed_in_two_kinds_holds_the_rule_in_the_whole_repository(db, policy, tenant_id):
    propose(db, tenant_id, ["F401"], "closed", "j1", path="shop/__init__.py")
    propose(db, tenant_id, ["F401"], "closed", "j2", path="shop/cart.py")
    [changed] = policy.learn(tenant_id, REPO, "autofix")
    assert changed == "now holding back F401: reviewers closed 2 of its 2 PRs where they close 20% of memfix's " \
        f"others (chance: 0.040) (decision `insight:{policy.holds(tenant_id, REPO)[0].insight_id}`)"
    assert policy.for_run(tenant_id, REPO, "autofix").held == ("F401",)  # the linter leaves it out everywhere


def test_a_narrow_hold_widens_when_another_kind_agrees_and_narrows_when_one_disagrees(db, policy, tenant_id):
    propose(db, tenant_id, ["F401"], "closed", "k1", path="shop/__init__.py")
    propose(db, tenant_id, ["F401"], "closed", "k2", path="shop/api/__init__.py")
    propose(db, tenant_id, ["F401"], "closed", "k2b", path="shop/web/__init__.py")
    policy.learn(tenant_id, REPO, "autofix")
    propose(db, tenant_id, ["F401"], "closed", "k3", path="shop/cart.py")
    assert policy.learn(tenant_id, REPO, "autofix")[0] == \
        "widening the hold on F401 in package `__init__` and index files to this repository"
    [hold] = policy.holds(tenant_id, REPO)
    assert hold.scope is None
    for n in range(4):  # library modules' fixes are merged after all (a person re-ran them)
        propose(db, tenant_id, ["F401"], "merged", f"k{4 + n}", path=f"shop/m{n}.py")
    lifted, narrowed = policy.learn(tenant_id, REPO, "autofix")
    assert lifted.startswith("proposing F401 again: 4 merged, 4 closed in this repository")
    assert narrowed.startswith("now holding back F401 in package `__init__` and index files")
    assert [h.scope for h in policy.holds(tenant_id, REPO)] == ["kind:init"]


def test_a_person_holds_a_rule_in_a_glob_only(db, policy, tenant_id):
    [i] = policy.hold(tenant_id, REPO, ["F401"], "alice", None, "tests/**")
    plan = policy.for_run(tenant_id, REPO, "refactor")
    assert plan.held_for("tests/x.py", "test") == ("F401",)
    assert plan.held_for("tests/unit/x.py", "test") == ("F401",)
    assert plan.held_for("src/x.py", "library") == plan.held_for("src/tests.py", "library") == ()
    assert plan.held == ()
    assert plan.holds == [Hold("F401", "@alice asked memfix not to propose F401 fixes in `tests/**`", i, "alice",
                               "tests/**")]
    assert decisions(db, tenant_id)[0]["rule"] == "F401"
    assert policy.learn(tenant_id, REPO, "autofix") == []


def test_an_enable_in_a_scope_lifts_the_holds_within_it_and_excepts_itself_from_wider_ones(db, policy, tenant_id):
    [everywhere] = policy.hold(tenant_id, REPO, ["F401"], "alice", None)
    [legacy] = policy.hold(tenant_id, REPO, ["F401"], "alice", None, "src/legacy/**")
    [tests] = policy.hold(tenant_id, REPO, ["F401"], "alice", None, "kind:test")
    assert policy.enable(tenant_id, REPO, ["F401"], "bob", None, "src/**") == [legacy]  # within src/**
    plan = policy.for_run(tenant_id, REPO, "autofix")
    assert [h.insight_id for h in plan.holds] == [everywhere, tests]
    assert plan.held_for("src/legacy/a.py", "library") == plan.held_for("src/a.py", "library") == ()
    assert plan.held_for("src/test_a.py", "test") == ()  # the enable came after the hold on tests
    assert plan.held_for("lib/a.py", "library") == plan.held_for("tests/test_a.py", "test") == ("F401",)
    assert plan.held == ()  # fixed in src/**: the linter cannot leave it out
    assert any("F401 proposed in `src/**` all the same" in line for line in plan.used())
    [later] = policy.hold(tenant_id, REPO, ["F401"], "carol", None, "src/**")  # a later hold applies again
    assert policy.for_run(tenant_id, REPO, "autofix").held_for("src/a.py", "library") == ("F401",)
    assert policy.enable(tenant_id, REPO, ["F401"], "bob", None) == [everywhere, tests, later]  # every hold
    assert policy.holds(tenant_id, REPO) == []


def test_a_fix_where_a_person_enabled_its_rule_is_judged_without_the_record_that_held_it():
    evidence = evidence_from([row(["F401"], "closed", path="app/util.py"), row(["E711"], "closed", path="app/x.py")])
    plan = RepoPolicy(contexts=evidence.contexts, enables=[
        Enable("F401", "app/a.py", 9, datetime.now(UTC)), Enable("E711", None, 10, datetime.now(UTC))])
    assert set(plan.records_for("app/b.py", "library")) == {"F401", "E711"}  # library modules' record counts here
    assert set(plan.records_for("app/a.py", "library")) == {"E711"}  # the person's word where the fix is
    tried = RepoPolicy(contexts=evidence.contexts, exploring=Hold("F401", "closed", 1, "learned", "kind:library"))
    assert set(tried.records_for("app/b.py", "library")) == {"E711"}  # a try is not judged by what held it


def test_an_enable_in_a_scope_restarts_the_record_there_only(db, policy, tenant_id):
    propose(db, tenant_id, ["F841"], "closed", "m1", path="src/a.py")
    propose(db, tenant_id, ["F841"], "closed", "m2", path="lib/b.py")
    policy.enable(tenant_id, REPO, ["F841"], "bob", None, "src/**")
    evidence = policy.evidence(tenant_id, REPO)
    assert evidence.records["F841"] == Record(closed=1, lately=1)
    assert evidence.record("F841", "lib/**") == Record(closed=1, lately=1)
    assert evidence.record("F841", "src/**") == Record()


def test_rejections_of_several_rules_in_one_place_hold_every_rule_there_as_narrowly_as_the_evidence():
    from core.learning.policy import place_scopes

    rows = [row(["F401"], "closed", path="lib/upstream/a.py"), row(["F841"], "closed", path="lib/upstream/b.py"),
            row(["E711"], "closed", path="lib/upstream/deep/c.py"),
            row(["F401"], "merged", path="lib/own.py"), row(["F841"], "merged", path="app/x.py")]
    held = place_scopes(rows)
    assert list(held) == ["lib/upstream/**"]  # not lib/** (a merge there), not the deep folder (one rule only)
    assert "closed 3 PRs of 3 rules here (E711, F401, F841), merged none" in held["lib/upstream/**"]
    one_rule = [row(["F401"], "closed", path="vendor/a.py"), row(["F401"], "closed", path="vendor/b.py")]
    assert place_scopes(one_rule) == {}  # one rule's record holds that rule, not the place
    assert place_scopes([row(["F401", "F841"], "closed", path="vendor/a.py")]) == {}  # one PR is one rejection
    merged_there = [*rows, row(["E501"], "merged", path="lib/upstream/d.py")]
    assert place_scopes(merged_there) == {}


def test_a_place_held_for_every_rule_leaves_its_files_alone_and_says_so(db, policy, tenant_id):
    from core.languages.registry import EVERY_RULE

    for n in range(3):  # the team takes memfix's PRs elsewhere: two closes in one place are more than chance
        propose(db, tenant_id, ["E711"], "merged", f"m{n}", path=f"app/m{n}.py")
    for n, (code, path) in enumerate((("F401", "vendor/a.py"), ("F841", "vendor/b.py"))):
        propose(db, tenant_id, [code], "closed", f"v{n}", path=path)
    changed = policy.learn(tenant_id, REPO, "autofix")
    assert any(c.startswith("now holding back every rule in `vendor/**`") for c in changed)
    plan = policy.for_run(tenant_id, REPO, "autofix")
    assert plan.held_for("vendor/new.py", "library") == (EVERY_RULE,) and plan.held_for("app.py", "library") == ()
    assert "every rule in `vendor/**`" in plan.named()
    # the place's closes count against no rule: a fix of the same kind of file elsewhere is judged without them
    assert all(r.closed == 0 for r in plan.records_for("app.py", "library").values())
    assert all(r.closed == 0 for r in policy.evidence(tenant_id, REPO).records.values())


def test_a_person_lifting_a_places_hold_starts_its_record_afresh_and_turns_no_close_on_a_rule(db, policy, tenant_id):
    from core.languages.registry import EVERY_RULE

    for n in range(3):
        propose(db, tenant_id, ["E711"], "merged", f"m{n}", path=f"app/m{n}.py")
    for n, (code, path) in enumerate((("F401", "vendor/a.py"), ("F841", "vendor/b.py"), ("F401", "vendor/c.py"))):
        propose(db, tenant_id, [code], "closed", f"v{n}", path=path)
    policy.learn(tenant_id, REPO, "autofix")
    [hold] = policy.holds(tenant_id, REPO, "autofix")
    assert (hold.code, hold.scope, hold.pipeline) == (EVERY_RULE, "vendor/**", "autofix")
    evidence = policy.evidence(tenant_id, REPO, "autofix")
    assert evidence.record(EVERY_RULE, "vendor/**").closed == 3 and evidence.whole.closed == 3
    assert evidence.chance(EVERY_RULE, "vendor/**").closes == pytest.approx(1 / 8)  # 0 of the 3 elsewhere, prior

    assert policy.enable(tenant_id, REPO, [EVERY_RULE], "alice", None, "vendor/**") == [hold.insight_id]
    assert policy.for_run(tenant_id, REPO, "autofix").holds == []
    propose(db, tenant_id, ["E711"], "merged", "m3", path="app/m3.py")  # another outcome: the policy learns again
    assert policy.learn(tenant_id, REPO, "autofix") == []  # neither the place nor F401 (closed twice there) is held
    assert policy.holds(tenant_id, REPO) == [] and policy.evidence(tenant_id, REPO).record("F401").closed == 0
    assert policy.evidence(tenant_id, REPO).record(EVERY_RULE, "vendor/**") == Record()  # afresh
    for n, code in enumerate(("E713", "F541")):  # new closes there, of rules no one rule explains: held again
        propose(db, tenant_id, [code], "closed", f"w{n}", path=f"vendor/w{n}.py")
    assert any(c.startswith("now holding back every rule in `vendor/**`") for c in policy.learn(tenant_id, REPO,
                                                                                                "autofix"))


# ---- evidence beyond chance: random reviewers, blame by words, places no rule explains ----

def test_a_reviewer_who_closes_at_random_leaves_the_policy_where_it_was():
    import random

    luck = random.Random(7)
    rows = [row([code], "closed" if luck.random() < 0.15 else "merged", path=f"{folder}/m{i}.py")
            for i in range(60) for code, folder in [(("F401", "E711", "F841")[i % 3], ("app", "lib", "tests")[i % 3])]]
    evidence = evidence_from(rows)
    assert sum(r.closed for r in evidence.records.values()) >= 6  # it did close some
    assert {code: hold_scopes(code, evidence) for code in evidence.records} == {"F401": {}, "E711": {}, "F841": {}}
    from core.learning.policy import place_scopes

    assert place_scopes(rows) == {}


def test_a_pr_of_two_rules_closed_over_one_blames_the_one_the_words_named():
    rows = [row(["F401", "F841"], "closed", path="app/a.py", blamed=["F841"]),
            row(["F401", "F841"], "closed", path="app/b.py", blamed=["F841"])]
    evidence = evidence_from(rows)
    assert evidence.records["F841"].closed == 2 and evidence.records["F401"].closed == 0
    assert hold_scopes("F401", evidence) == {} and hold_scopes("F841", evidence) != {}
    unsaid = evidence_from([row(["F401", "F841"], "closed", path="app/a.py")])  # nobody said: both never merged
    assert unsaid.records["F401"].closed == unsaid.records["F841"].closed == 1


def test_a_place_is_held_for_every_rule_only_where_no_one_rule_explains_its_closes():
    from core.learning.policy import place_scopes

    taken = [row(["E711"], "merged", path=f"app/m{i}.py") for i in range(4)]
    carried = [row(["F401", "F841"], "closed", path="vendor/a.py"), row(["F841"], "closed", path="vendor/b.py"),
               row(["F841", "E711"], "closed", path="vendor/c.py")]
    assert place_scopes([*taken, *carried]) == {}  # F841 was in every closed PR: its hold, not the folder's
    named = [row(["F401", "E711"], "closed", path="vendor/a.py", blamed=["F401"]),
             row(["E711", "F541"], "closed", path="vendor/b.py", blamed=["E711"])]
    assert place_scopes([*taken, *named]) == {}  # people named the rule each time
    mixed = [row(["F401"], "closed", path="vendor/a.py"), row(["F841"], "closed", path="vendor/b.py"),
             row(["E713"], "closed", path="vendor/c.py")]
    assert list(place_scopes([*taken, *mixed])) == ["vendor/**"]


def test_closes_of_files_at_the_root_hold_the_roots_own_files_never_every_library_module():
    from core.learning.policy import place_scopes

    taken = [row(["E711"], "merged", path=f"pkg/m{i}.py") for i in range(4)]
    root = [row(["F401"], "closed", path="setup.py"), row(["F841"], "closed", path="tasks.py"),
            row(["E713"], "closed", path="conftest_old.py")]
    assert list(place_scopes([*taken, *root])) == ["/*.py"]
    one_rule = [row(["F401"], "closed", path=f"util_{p}.py") for p in "abc"]  # library modules, at the root
    assert list(hold_scopes("F401", evidence_from([*taken, *one_rule]))) == ["/*.py"]


def test_a_places_hold_is_explored_too_and_later_the_more_its_evidence_grows(db, tenant_id):
    import random

    from core.languages.registry import EVERY_RULE

    policy = Policy(db, Insights(db, NoEmbedder()), rng=random.Random(5))
    for n in range(3):
        propose(db, tenant_id, ["E711"], "merged", f"m{n}", path=f"app/m{n}.py")
    for n, code in enumerate(("F401", "F841")):
        propose(db, tenant_id, [code], "closed", f"v{n}", path=f"vendor/{n}.py")
    policy.learn(tenant_id, REPO, "autofix")
    assert policy.for_run(tenant_id, REPO, "autofix").named() == ("every rule in `vendor/**`",)
    _age_decisions(db, tenant_id, 15)
    plan = policy.for_run(tenant_id, REPO, "autofix")
    assert plan.exploring is not None and (plan.exploring.code, plan.exploring.scope) == (EVERY_RULE, "vendor/**")
    assert plan.held_for("vendor/2.py", "generated") == ()  # the try may land there
    for n in range(3):  # closed again and again: the next try waits longer each time
        propose(db, tenant_id, ["E713"], "closed", f"w{n}", path=f"vendor/w{n}.py")
    [hold] = policy.holds(tenant_id, REPO, "autofix")
    when = hold.retry_at(policy.evidence(tenant_id, REPO, "autofix"))
    assert when is not None and (when - datetime.now(UTC)).days >= 111  # five closes: the four months' cap


# ---- the kinds of issue 38's reviewers: a hold as wide as its closes, looks counted once, streaks of noise ----

def test_a_hold_stays_as_wide_as_closes_no_narrower_folder_explains():
    """The pair reviewer: F841 closed wherever it is; two closes in nltk/app/ and one in nltk/corpus/reader/."""
    taken = [row(["E713"], "merged", path=f"nltk/parse/m{i}.py") for i in range(6)]
    closed = [row(["F841"], "closed", path="nltk/app/chartparser_app.py"),
              row(["F841"], "closed", path="nltk/corpus/reader/framenet.py")]
    assert list(hold_scopes("F841", evidence_from([*taken, *closed]))) == ["nltk/**"]
    tried = row(["F841"], "closed", path="nltk/app/chunkparser_app.py")  # the try, closed in nltk/app/ again
    assert list(hold_scopes("F841", evidence_from([*taken, *closed, tried]))) == ["nltk/**"]  # not narrowed to it
    merged = row(["F841"], "merged", path="nltk/parse/corenlp.py")  # reviewers take it outside nltk/app/
    assert list(hold_scopes("F841", evidence_from([*taken, *closed, tried, merged]))) == ["nltk/app/**"]


def test_nested_folders_with_the_same_prs_are_one_chance_of_bad_luck_not_one_each():
    """Two closes of two, three folders deep, where nothing else is known (chance: one in five, so 0.04)."""
    closed = [row(["F401"], "closed", path=f"x/y/z/{n}.py") for n in "ab"]
    assert list(hold_scopes("F401", evidence_from([*closed, row(["F401"], "merged", path="lib/m.py")]))) == \
        ["x/y/z/**"]  # x/**, x/y/** and x/y/z/** hold the same two PRs: one look, not three (0.04 ≥ 0.05 / 3)
    beside = row(["F401"], "closed", path="x/q.py")  # x/** now holds another close of its own: a look of its own
    assert hold_reason("F401", Record(closed=2), Chance(), looks=2) is None
    assert list(hold_scopes("F401", evidence_from([*closed, beside, row(["F401"], "merged", path="lib/m.py")]))) \
        == ["x/**"]  # three of three in x/, merged nowhere there


def test_a_place_whose_prs_are_another_places_is_one_chance_and_a_wider_place_keeps_its_own_closes():
    from core.learning.policy import place_scopes

    taken = [row(["E711"], "merged", path=f"app/m{i}.py") for i in range(2)]
    # vendor/**, vendor/pkg/** and generated files hold the same two closes: one chance (1/7 squared is 0.02)
    two = [row(["F401"], "closed", path="vendor/pkg/a.py"), row(["F841"], "closed", path="vendor/pkg/b.py")]
    assert list(place_scopes([*taken, *two])) == ["vendor/pkg/**"]
    more = [row(["E711"], "merged", path=f"lib/m{i}.py") for i in range(6)]
    beside = row(["E713"], "closed", path="vendor/c.py")  # closed in vendor/ outside vendor/pkg/, merged nowhere there
    assert list(place_scopes([*taken, *more, *two, beside])) == ["vendor/**"]


def test_a_streak_of_red_ci_where_the_ci_is_red_at_random_is_no_turned_taste():
    """flaky-quiet: F401 merged 16 times, then red three times in a row where CI is red one run in five."""
    record = records_from([*(row(["F401"], "merged", ci_passes=1, path=f"m{i}.py") for i in range(16)),
                           *(row(["F401"], "closed", ci_failures=1, path=f"r{i}.py") for i in range(3))])["F401"]
    assert (record.merged, record.ci_failed, record.ci_passed, record.lately, record.lately_red) == (16, 3, 16, 3, 3)
    assert hold_reason("F401", record, Chance(closes=0.05, reds=0.2)) is None  # 0.2³ × 19 is no rarity
    assert hold_reason("F401", record, Chance(closes=0.05, reds=0.01)) is not None  # where CI is green: it is
    mixed = records_from([row(["F401"], "merged", path="m.py"), row(["F401"], "closed", path="c.py"),
                          row(["F401"], "closed", ci_failures=1, path="r.py")])["F401"]
    assert (mixed.lately, mixed.lately_red) == (2, 1) and Chance(0.1, 0.5).streak(mixed) == pytest.approx(0.05)
    # flaky-quiet, another order: F401 merged 4 times in library modules, then red 3 times in a row there, where
    # memfix's other PRs had 1 red run in 5: a red rate of 2 in 15 is an estimate, 3 reds in a row no rarity
    library = records_from([*(row(["F401"], "merged", ci_passes=1, path=f"nltk/m{i}.py") for i in range(4)),
                            *(row(["F401"], "closed", ci_failures=1, path=f"nltk/r{i}.py") for i in range(3))])["F401"]
    early = Chance.of(0, 5, 1, 5)
    assert early.reds ** 3 * 7 < 0.025 and hold_reason("F401", library, early, looks=2) is None
    assert hold_reason("F401", library, Chance.of(0, 30, 0, 60), looks=2) is not None  # a CI green sixty times


def test_two_red_runs_early_are_weighed_against_how_unsure_the_cis_red_rate_still_is():
    """flaky-quiet, push 5: F401's two fixes in tests both red; memfix's other PRs: one red run of three."""
    early = Chance.of(0, 3, 1, 3)  # one in seven and a bit, from thirteen runs with the prior's ten
    assert beyond_chance(2, 2, early.reds) < 0.025  # as if the rate were known: a hold (0.024)
    assert early.red_tail(2, 2) > 0.025 and hold_reason("F401", Record(ci_failed=2), early) is None  # 0.033
    known = Chance.of(0, 3, 0, 40)  # forty green runs of other rules: two reds in a row are the fix's
    assert hold_reason("F841", Record(ci_failed=2), known) is not None
    assert beyond_chance(2, 2, 0.1, weight=1e9) == pytest.approx(0.01, rel=1e-5)  # sure of the rate: binomial


def test_each_rule_the_ci_judged_is_one_more_chance_of_a_red_streak():
    """status-ci, push 5: E713's first two fixes both red, memfix's six other PRs green, across five rules."""
    others = [row([code], "merged", ci_passes=1, path=f"nltk/{code}{i}.py")
              for i, code in enumerate(["F401", "F841", "E711", "E712", "F401", "E722"])]
    red = [row(["E713"], "closed", ci_failures=1, path=f"nltk/r{i}.py") for i in range(2)]
    evidence = evidence_from([*others, *red])
    assert evidence.chance("E713").tested == 6  # E713 and the five rules of the green PRs
    assert evidence.chance("E713").red_tail(2, 2) < ALPHA / 2  # one rule alone: a hold (0.007)
    assert hold_reason("E713", evidence.record("E713"), evidence.chance("E713")) is None  # one of six: noise
    assert hold_reason("E713", evidence.record("E713"), replace(evidence.chance("E713"), tested=1)) is not None
    thrice = evidence_from([*others, *red, row(["E713"], "closed", ci_failures=1, path="nltk/r3.py")])
    reason = hold_reason("E713", thrice.record("E713"), thrice.chance("E713"))  # three in a row is the fix
    assert reason is not None and reason.endswith("one of 6 rules the CI judged here)")


def test_a_hold_standing_already_is_not_stored_again(db, policy, tenant_id):
    """Two jobs learn at once (a PR's close and its CI's event): the second finds the hold standing, writes nothing
    and says nothing, so `/forget` of the one record lifts it."""
    for fingerprint in ("h1", "h2"):
        propose(db, tenant_id, ["F401"], "closed", fingerprint)
    first = policy.learn(tenant_id, REPO, "autofix")
    assert len(first) == 1 and first[0].startswith("now holding back F401")
    [held] = policy.holds(tenant_id, REPO, "autofix")
    decision = Decision("F401", Stance.HOLD, LEARNED, "the same evidence", "autofix", held.scope)
    assert policy._hold(tenant_id, REPO, decision, Record(closed=2), None) == (held.insight_id, False)
    assert len(decisions(db, tenant_id)) == 1 and policy.learn(tenant_id, REPO, "autofix") == []
    with db.tenant(tenant_id) as conn:
        assert conn.execute("SELECT count(*) AS n FROM workflow_insights WHERE insight_type = 'decision'"
                            ).fetchone()["n"] == 1
    [alice] = policy.hold(tenant_id, REPO, ["F401"], "alice", None)  # a person's word is a decision of its own
    assert alice != held.insight_id and policy.hold(tenant_id, REPO, ["F401"], "bob", None) == [alice]
    assert len(decisions(db, tenant_id)) == 2


def test_a_rule_is_in_doubt_when_its_reds_are_more_than_the_cis_noise_for_it_alone():
    """One PR a run for a rule in doubt: red where the CI passed memfix's twelve other fixes; not where it is red one
    run in five, nor once merged since, nor before any red."""
    green = Chance.of(0, 12, 0, 12)  # one red is under 1 in 20 here, though not a hold among two rules
    assert in_doubt(Record(ci_failed=1, lately=1, lately_red=1), green)
    assert not hold_reason("F401", Record(ci_failed=1, lately=1, lately_red=1), replace(green, tested=2))
    assert not in_doubt(Record(ci_failed=1, lately=1, lately_red=1), Chance.of(0, 40, 10, 50))  # a noisy CI
    assert not in_doubt(Record(merged=1, ci_failed=1, ci_passed=1), green)  # merged since: it works
    assert not in_doubt(Record(merged=3, ci_passed=3), green)


def test_each_rule_with_the_closes_a_hold_needs_is_one_more_chance_of_a_run_of_closes():
    """A reviewer who closes a quarter of memfix's PRs at random: three rules closed twice among six merges each,
    and a fourth closed three times of three. Each rule closes could hold is one more chance (Tarone's count)."""
    others = [row([code], state, path=f"nltk/{code}{i}.py") for code in ("E711", "E712", "E722")
              for i, state in enumerate(["closed"] * 2 + ["merged"] * 6)]
    three = [row(["F401"], "closed", path=f"nltk/f{i}.py") for i in range(3)]
    evidence = evidence_from([*others, *three])
    chance = evidence.chance("F401")
    assert chance.closing == 4 and ALPHA / 4 < beyond_chance(3, 3, chance.closes) < ALPHA  # 0.014: alone, a hold
    assert hold_reason("F401", evidence.record("F401"), chance) is None
    taste = evidence_from([*(row(["E711"], "merged", path=f"nltk/m{i}.py") for i in range(24)), *three])
    reason = hold_reason("F401", taste.record("F401"), taste.chance("F401"))  # the only rule they close
    assert reason is not None and "one of" not in reason
