"""Insights on real PostgreSQL+pgvector with embeddings from a fake OpenAI-compatible HTTP server."""

from __future__ import annotations

import pytest

from core.memory.embeddings import NoEmbedder, OpenAIEmbedder
from core.memory.insights import Insights, SearchSettings
from core.memory.types import Insight, InsightError

REPO = "acme/api"


def pain(title, detail="", *, repo=REPO, category="security", severity="medium", **kw) -> Insight:
    return Insight(repository=repo, insight_type="pain_point", category=category, severity=severity,
                   title=title, detail=detail, workflow_type=kw.pop("workflow_type", "autofix"), **kw)


def solution(title, detail="", *, repo=REPO, category="security", **kw) -> Insight:
    return Insight(repository=repo, insight_type="solution", category=category, title=title, detail=detail,
                   workflow_type=kw.pop("workflow_type", "autofix"), **kw)


@pytest.fixture
def insights(db, embedder) -> Insights:
    return Insights(db, embedder)


def test_hybrid_ranking_needs_both_signals(db, embedder, tenant_id):
    # Given three insights: V shares only stop words with the query (close for the bag-of-words embedding,
    # invisible to full text), T matches the terms in its title but is buried in unrelated words, and R is
    # decent on both.
    corpus = {
        "V": pain("When is it", "when is it the one, after all"),
        "T": pain("Database retry timeout", "unrelated words about logging formats, colours, dashboards, "
                  "release notes, packaging metadata, changelog entries and locale files"),
        "R": pain("Connection handling", "a database retry after a timeout in the pool"),
    }
    ids = {}
    for name, insight in corpus.items():
        ids[name] = Insights(db, embedder).save(tenant_id, insight).insight.id
    query = "when is the database retry after the timeout"
    top = lambda w: Insights(db, embedder, SearchSettings(*w)).search(tenant_id, query, k=3)[0].insight.id

    # Then each signal alone picks the wrong one; the hybrid picks R.
    assert top((1.0, 0.0)) == ids["V"]
    assert top((0.0, 1.0)) == ids["T"]
    assert top((0.7, 0.3)) == ids["R"]


def test_scores_are_the_design_formula(insights, tenant_id, model_server):
    insights.save(tenant_id, pain("SQL injection in user input", "query built with f-strings"))
    [hit] = insights.search(tenant_id, "sql injection", k=1)
    assert hit.score == pytest.approx(0.7 * hit.vector_score + 0.3 * hit.text_score)
    assert 0 < hit.text_score < 1 and 0 < hit.vector_score <= 1


def test_text_only_without_embeddings(db, tenant_id):
    plain = Insights(db, NoEmbedder())
    result = plain.save(tenant_id, pain("Hard-coded password in settings", "move it to the secrets store"))
    assert result.embedded is False
    [hit] = plain.search(tenant_id, "password settings")
    assert hit.insight.id == result.insight.id and hit.vector_score is None and hit.score == hit.text_score
    assert plain.search(tenant_id, "kubernetes") == []


def test_provider_outage_stores_without_embedding_and_reembed_fills_it(db, embedder, model_server, tenant_id):
    model_server.fail_next(r"/v1/embeddings", 503, times=1)
    saved = Insights(db, embedder).save(tenant_id, pain("Unbounded cache growth", category="performance"))
    assert saved.embedded is False
    assert Insights(db, embedder).reembed(tenant_id) == 1
    with db.tenant(tenant_id) as conn:
        row = conn.execute("SELECT embedding_model, embedding IS NOT NULL AS has FROM workflow_insights WHERE id = %s",
                           (saved.insight.id,)).fetchone()
    assert row == {"embedding_model": "text-embedding-3-small", "has": True}


def test_vectors_of_another_model_are_never_compared(db, model_server, tenant_id):
    old = OpenAIEmbedder("text-embedding-3-small", "k", model_server.openai_url, max_retries=0)
    new = OpenAIEmbedder("other-model", "k", model_server.openai_url, max_retries=0)
    Insights(db, old).save(tenant_id, pain("Race condition in cache warmup", category="reliability"))
    [hit] = Insights(db, new).search(tenant_id, "race condition cache")
    assert hit.vector_score is None  # found by text only
    assert Insights(db, new).reembed(tenant_id) == 1
    assert Insights(db, new).search(tenant_id, "race condition cache")[0].vector_score is not None


def test_filters(insights, tenant_id):
    insights.save(tenant_id, pain("Flaky network test", category="testing", workflow_type="autofix"))
    insights.save(tenant_id, pain("Flaky network test", category="testing", repo="acme/web"))
    insights.save(tenant_id, solution("Flaky network test fixed with a fake server", category="testing",
                                      workflow_type="refactor"))
    by = lambda **f: {(h.insight.repository, h.insight.insight_type, h.insight.workflow_type)
                      for h in insights.search(tenant_id, "flaky network test", k=10, **f)}
    assert by(repository="acme/web") == {("acme/web", "pain_point", "autofix")}
    assert by(repository=REPO, workflow_type="refactor") == {(REPO, "solution", "refactor")}
    assert by(insight_type="pain_point") == {(REPO, "pain_point", "autofix"), ("acme/web", "pain_point", "autofix")}


def test_filtered_search_returns_k_rows_whenever_k_exist(db, embedder, tenant_id):
    """A repository with 12 insights among 400 others: the vector side must still yield k = 10."""
    with db.tenant(tenant_id, register=True) as conn:
        vectors = embedder.embed([f"insight number {i} about topic {i % 7}" for i in range(412)])
        for i, vector in enumerate(vectors):
            conn.execute(
                "INSERT INTO workflow_insights (tenant_id, repository, workflow_type, insight_type, category, title,"
                " embedding, embedding_model) VALUES (%s, %s, 'autofix', 'pattern', 'style', %s, %s, %s)",
                (tenant_id, "acme/small" if i < 12 else f"acme/big{i % 5}", f"t{i}", vector, embedder.model),
            )
    insights = Insights(db, embedder, SearchSettings(candidates=10, ef_search=10))
    hits = insights.search(tenant_id, "zebra quantum", repository="acme/small", k=10)  # no text match at all
    assert len(hits) == 10 and {h.insight.repository for h in hits} == {"acme/small"}


def test_pairing_both_directions(insights, tenant_id):
    p = insights.save(tenant_id, pain("SQL built from strings", "login query concatenates input"))
    assert p.paired_with is None
    s = insights.save(tenant_id, solution("Parameterised queries", "use placeholders everywhere"))
    assert s.paired_with == p.insight.id
    assert insights.get(tenant_id, p.insight.id).paired_insight_id == s.insight.id
    # The other direction: a pain point finds an existing strength of its category.
    strength = insights.save(tenant_id, Insight(repository=REPO, insight_type="strength", category="testing",
                                                title="Fixtures isolate the database"))
    later = insights.save(tenant_id, pain("Tests share state", category="testing"))
    assert later.paired_with == strength.insight.id
    assert insights.get(tenant_id, strength.insight.id).paired_insight_id == later.insight.id
    # No partner of another category.
    assert insights.save(tenant_id, pain("N+1 queries", category="performance")).paired_with is None


def test_near_duplicates_merge_instead_of_piling_up(insights, tenant_id):
    first = insights.save(tenant_id, pain("SQL injection in user input!", "old detail"))
    again = insights.save(tenant_id, pain("sql  injection in user-input", "newest detail"))
    assert again.merged and again.insight.id == first.insight.id
    assert again.insight.seen_count == 2 and again.insight.detail == "newest detail"
    close = insights.save(tenant_id, pain("User input SQL injection", "newest detail"))  # same words, other order
    assert close.merged and close.insight.seen_count == 3
    assert not insights.save(tenant_id, pain("SQL injection in user input", repo="acme/web")).merged
    assert not insights.save(tenant_id, solution("SQL injection in user input")).merged


def test_cross_project_action_point_once(insights, tenant_id):
    insights.save(tenant_id, pain("Secrets committed in config files", repo="acme/web", severity="low"))
    insights.save(tenant_id, pain("Unrelated flaky UI animation", repo="acme/mobile", category="testing"))
    high = insights.save(tenant_id, pain("Secrets committed in config files", "found in settings.py",
                                         severity="high"))
    [point_id] = high.action_points
    [point] = insights.action_points(tenant_id)
    assert (point.id, point.target_repository, point.source_repository) == (point_id, "acme/web", REPO)
    assert point.similarity >= 0.65
    again = insights.save(tenant_id, pain("Secrets committed in config files", "seen again", severity="high"))
    assert again.merged and again.action_points == []
    assert len(insights.action_points(tenant_id)) == 1
    # Medium severity never scans.
    assert insights.save(tenant_id, pain("Secrets committed in env files", severity="medium")).action_points == []


def test_validation_names_every_bad_field(insights, tenant_id):
    bad = Insight(repository="nope", insight_type="bug", category="vibes", severity="urgent", title=" ")
    with pytest.raises(InsightError) as err:
        insights.save(tenant_id, bad)
    for word in ("insight_type 'bug'", "category 'vibes'", "severity 'urgent'", "title is empty", "owner/name"):
        assert word in str(err.value)


def test_outcomes_and_delete(insights, tenant_id):
    a = insights.save(tenant_id, solution("Use context managers for files")).insight
    assert insights.record_outcome(tenant_id, [a.id], accepted=True) == 1
    insights.record_outcome(tenant_id, [a.id], accepted=False)
    insights.record_outcome(tenant_id, [a.id], accepted=True)
    got = insights.get(tenant_id, a.id)
    assert (got.accepted_count, got.rejected_count) == (2, 1)
    assert not insights.delete(tenant_id, a.id, repository="acme/other")  # not that repository's memory
    assert insights.delete(tenant_id, a.id, repository=REPO) and insights.get(tenant_id, a.id) is None
    assert not insights.delete(tenant_id, a.id, repository=None)


def test_rrf_ranker(db, embedder, tenant_id):
    ins = Insights(db, embedder, SearchSettings(ranker="rrf"))
    a = ins.save(tenant_id, pain("Timeout on database retry")).insight
    ins.save(tenant_id, pain("Colour of the dashboard", category="style"))
    hits = ins.search(tenant_id, "database retry timeout", k=2)
    assert hits[0].insight.id == a.id and hits[0].score == pytest.approx(2 / 61)


def test_other_tenants_insights_are_invisible(insights, tenant_id):
    insights.save(tenant_id + 1, pain("Victim's private finding about tokens"))
    assert insights.search(tenant_id, "private finding tokens") == []


def test_a_finding_is_paired_only_with_the_fix_of_the_same_rule(insights, tenant_id):
    def found(code: str, title: str, kind: str = "pain_point", tag: str = "detected") -> Insight:
        return Insight(repository=REPO, insight_type=kind, category="correctness", title=title, tags=(code, tag))

    e713 = insights.save(tenant_id, found("E713", "E713 fixed with ruff's safe fix", "solution", "fixed"))
    person = insights.save(tenant_id, Insight(repository=REPO, insight_type="solution", category="correctness",
                                              title="Guard clauses before loops"))
    s608 = insights.save(tenant_id, found("S608", "S608: Possible SQL injection vector"))
    assert s608.paired_with is None  # the only fixes are of another rule, or a person's: nothing to pair
    f401 = insights.save(tenant_id, found("F401", "F401: `…` imported but unused"))
    f401_fix = insights.save(tenant_id, found("F401", "F401 fixed with ruff's safe fix", "solution", "fixed"))
    assert f401_fix.paired_with == f401.insight.id
    problem = insights.save(tenant_id, Insight(repository=REPO, insight_type="pain_point", category="correctness",
                                               title="Loops nested four deep"))
    assert problem.paired_with == person.insight.id and e713.paired_with is None  # people's with people's
