"""Memory is kept by a repository's GitHub id: a rename or transfer takes it along, a name another repository takes
later starts empty (the former repository's memory is kept apart, never shown or used for the new one)."""

from __future__ import annotations

from core.events import route
from core.learning.policy import Policy
from core.memory.embeddings import NoEmbedder
from core.memory.entries import Entries
from core.memory.insights import Insights
from core.memory.ring import HealingLog, LocalRing
from core.memory.types import Envelope, Insight, MemoryEntry
from core.tenants import Tenants
from core.wire import RepositoryJob
from tests.fakes import payloads as P

BOT = "memfix[bot]"


def remember(db, tenant: int, repo: str, title: str) -> int:
    return Insights(db, NoEmbedder()).save(tenant, Insight(repository=repo, insight_type="pain_point",
                                                           category="security", title=title)).insight.id


def titles(db, tenant: int, repo: str) -> list[str]:
    return [i.title for i in Insights(db, NoEmbedder()).for_repository(tenant, repo)]


def test_a_rename_takes_memory_holds_and_letters_along(db, tenant_id):
    tenants, ring = Tenants(db), LocalRing()
    tenants.observe(tenant_id, 501, "acme/old")
    remember(db, tenant_id, "acme/old", "Tokens logged in debug output")
    Policy(db, Insights(db, NoEmbedder())).hold(tenant_id, "acme/old", ["F401"], "alice", None)
    Entries(db).add(tenant_id, MemoryEntry(title="Deploys freeze on Fridays", content="no", repository="acme/old",
                                           source="github", source_ref="github://acme/old/.memory/letter_20240101_a1b2.md"))
    HealingLog(ring, db).record(tenant_id, Envelope(repository="acme/old", status="PROMOTED", path="a.py"))
    said = tenants.observe(tenant_id, 501, "acme/new")
    assert said == "acme/old is now acme/new: its memory moved with it"
    assert titles(db, tenant_id, "acme/old") == []
    assert "Tokens logged in debug output" in titles(db, tenant_id, "acme/new")
    assert [h.code for h in Policy(db, Insights(db, NoEmbedder())).holds(tenant_id, "acme/new")] == ["F401"]
    [(entry, _)] = Entries(db).search(tenant_id, "deploys fridays", repository="acme/new")
    assert entry.source_ref == "github://acme/new/.memory/letter_20240101_a1b2.md"  # the letter's next sync matches
    assert [e.path for e in HealingLog(ring, db).recent(tenant_id, "acme/new")] == ["a.py"]
    assert tenants.observe(tenant_id, 501, "acme/new") is None  # seen again: nothing to do


def test_a_name_another_repository_takes_starts_empty_and_the_former_memory_is_kept_apart(db, tenant_id):
    tenants, ring = Tenants(db, lambda tenant, repo: ring.forget(tenant, repo)), LocalRing()
    tenants.observe(tenant_id, 601, "acme/app")
    remember(db, tenant_id, "acme/app", "Payroll keys in the repository")
    Policy(db, Insights(db, NoEmbedder())).hold(tenant_id, "acme/app", ["S101"], "bob", None)
    HealingLog(ring, db).record(tenant_id, Envelope(repository="acme/app", status="REJECTED", path="pay.py"))
    tenants.forget_repositories(tenant_id, [601])  # the first repository leaves (removed, or deleted on GitHub)...
    said = tenants.observe(tenant_id, 602, "acme/app")  # ... and a new one takes its name
    assert said == ("acme/app is another repository now (id 602); the memory of the former one (id 601) is kept "
                    "apart as acme/app#601")
    assert titles(db, tenant_id, "acme/app") == []
    assert Policy(db, Insights(db, NoEmbedder())).holds(tenant_id, "acme/app") == []
    assert HealingLog(ring, db).recent(tenant_id, "acme/app") == []  # the ring forgot the name too
    assert "Payroll keys in the repository" in titles(db, tenant_id, "acme/app#601")  # kept, apart
    assert Tenants(db).repositories(tenant_id) == ["acme/app"]


def test_installation_events_follow_ids_too(db, tenant_id):
    tenants = Tenants(db)
    tenants.register(tenant_id, "acme", ((701, "acme/one"),))
    remember(db, tenant_id, "acme/one", "Flaky test in CI")
    tenants.register(tenant_id, "acme", ((701, "acme/uno"), (702, "acme/one")))  # renamed, and the name reused
    assert titles(db, tenant_id, "acme/uno") == ["Flaky test in CI"] and titles(db, tenant_id, "acme/one") == []


def test_every_job_carries_its_repositorys_id_and_the_repository_event_routes():
    job = route("issue_comment", P.issue_comment("/recall x", installation=7, repo="o/r"), "d", BOT).job
    assert job.repo_id == P.repo_id("o/r")  # the payload's repository.id
    renamed = P.example("repository", "renamed")
    job = route("repository", renamed, "d", BOT).job
    assert isinstance(job, RepositoryJob) and job.repo == "Octocoders/Hello-World" and job.repo_id == 186853261
    assert job.former == "Octocoders/Hello-World" and job.action == "renamed"
    transferred = P.example("repository", "transferred")
    transferred["installation"] = {"id": 7}
    moved = route("repository", transferred, "d", BOT).job
    assert moved.former == "octocat/Hello-World" and moved.repo == "Octocoders/Hello-World"
    assert route("repository", P.example("repository", "publicized"), "d", BOT).job is None


def test_a_renamed_repository_keeps_its_memory_end_to_end(serve, fake_github, tenant_id):
    """Through the webhook, the queue and the worker: a rename event, then a /recall under the new name."""
    old = P.issue_comment("/recall tokens", installation=tenant_id, repo="acme/api")
    repo_id = old["repository"]["id"]
    serve.services.tenants.observe(tenant_id, repo_id, "acme/api")
    remember(serve.services.db, tenant_id, "acme/api", "Tokens logged in debug output")
    renamed = P.example("repository", "renamed")
    renamed["installation"] = {"id": tenant_id}
    renamed["repository"].update(id=repo_id, full_name="acme/service", name="service")
    renamed["changes"] = {"repository": {"name": {"from": "api"}}}
    assert serve("repository", renamed) == 202
    assert serve.drain()
    fake_github.add_repo("acme/service", {"app.py": "import os\n"})
    number = fake_github.open_issue("acme/service", "stand-in")
    cid = fake_github.add_comment("acme/service", number, "/recall tokens", user="alice")["id"]
    payload = P.issue_comment("/recall tokens", installation=tenant_id, repo="acme/service", number=number,
                              comment_id=cid, pull_request=False)
    payload["repository"]["id"] = repo_id
    assert serve("issue_comment", payload) == 202
    assert serve.drain()
    [reply] = [c["body"] for c in fake_github.comments("acme/service", number) if c["user"]["login"] == BOT]
    assert "Tokens logged in debug output" in reply
