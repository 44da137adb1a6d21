"""The dashboard over HTTP, without a browser: who sees what, sign-in through the fake GitHub's OAuth pages,
curation through the comment commands' services, CSRF, and one-click App registration from the manifest."""

from __future__ import annotations

import html
import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from core.learning.policy import HeldBack
from core.memory.types import Envelope, Insight
from core.pipelines.values import RunRequest
from core.settings import read_env_file

REPO = "acme/api"


def remembered(services, tenant: int, repo: str) -> None:
    """A run on this machine names the repository: memory knows it (an unknown one is a 404)."""
    from core.pipelines.runs import Phase

    run = services.runs.start(RunRequest(tenant, repo, "autofix", "local"), provider="offline", model=None)
    services.runs.phase(run, Phase.DONE, "0 findings")


@pytest.fixture
def serve_settings(request, github_settings, fake_github, tenant_id):
    """Local (this machine only) unless the test is marked `signin` (the App's OAuth client configured) or
    `unregistered` (no App yet: the setup page)."""
    settings = github_settings.with_(local_installation=tenant_id, github_web_url_setting=fake_github.url)
    if request.node.get_closest_marker("signin"):
        settings = settings.with_(github_client_id=fake_github.client_id, session_secret="test-session-secret",
                                  github_client_secret=fake_github.client_secret)
    if request.node.get_closest_marker("unregistered"):
        settings = settings.with_(github_app_id=None)
    return settings


@contextmanager
def client(serve=None) -> Iterator[httpx.Client]:
    """A browser; given memfix serve in local mode, signed in once through the link it printed."""
    with httpx.Client(follow_redirects=True, timeout=20) as web:
        if serve is not None and "?token=" in serve.link:
            opened = web.get(serve.link)
            assert opened.status_code == 200 and "token=" not in str(opened.url)  # the token left behind
        yield web


def form_fields(page: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in re.findall(r'name="([^"]+)" value="([^"]*)"', page)}


def csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page)[1]


def seed(services, tenant: int) -> tuple[int, int]:
    """An insight, a held rule and a run whose model attempt carries its prompt sections."""
    insight = services.insights.save(tenant, Insight(
        repository=REPO, insight_type="pain_point", category="security", severity="high",
        title="SQL built from f-strings", detail="the login query concatenates user input")).insight
    services.policy.hold(tenant, REPO, ["F401"], "bob", None)
    run = services.pipeline_runner.runs.start(RunRequest(tenant, REPO, "autofix", "push", head_sha="abc1234"),
                                              provider="local", model="fake-coder")
    services.healing.record(tenant, Envelope(
        repository=REPO, status="PROMOTED", confidence=0.9, run_id=str(run.id), pipeline="autofix", path="app.py",
        checks={"parses": True, "public_surface": True},
        sections={"Historical learnings": "- #7 [pain_point] SQL built from f-strings", "Memory": "linked #3"}))
    services.pipeline_runner.runs.phase(run, "done", "1 finding")
    return insight.id, run.id


# ---- local: no sign-in configured ----

def test_local_mode_shows_the_local_installation_to_this_machine_only(serve, tenant_id):
    services = serve.services
    insight_id, run_id = seed(services, tenant_id)
    with client(serve) as web:
        home = web.get(f"{serve.url}/")  # the local installation itself: its runs and what it learned
        assert home.status_code == 200 and f"<h1>Installation {tenant_id}</h1>" in home.text
        assert "Local mode" in home.text and REPO in home.text and f'href="/runs/{run_id}"' in home.text
        assert "SQL built from f-strings" in home.text and "register-app" not in home.text
        repo = web.get(f"{serve.url}/installations/{tenant_id}/repos/{REPO}")
        assert "SQL built from f-strings" in repo.text and "held back" in repo.text and "Local mode" in repo.text
        found = web.get(f"{serve.url}/installations/{tenant_id}/repos/{REPO}", params={"q": "login query"})
        assert f'id="insight-{insight_id}"' in found.text
        run = web.get(f"{serve.url}/runs/{run_id}")
        assert "## Historical learnings" in run.text and "linked #3" in run.text and "public_surface" in run.text
        assert web.get(f"{serve.url}/installations/{tenant_id + 1}").status_code == 404
        proxied = web.get(f"{serve.url}/installations/{tenant_id}", headers={"X-Forwarded-For": "203.0.113.7"})
        assert proxied.status_code == 403  # a reverse proxy on this machine forwards strangers
        assert web.get(f"{serve.url}/installations/{tenant_id}/health").status_code == 200


def test_the_link_keeps_the_rest_of_its_address_and_a_new_starts_token_voids_the_old_sessions(serve, tenant_id):
    remembered(serve.services, tenant_id, REPO)
    token = serve.app.config["MEMFIX_DASHBOARD_TOKEN"]
    page = f"{serve.url}/installations/{tenant_id}/repos/{REPO}"
    with client() as web:
        opened = web.get(page, params={"q": "login query", "token": token})
        assert opened.status_code == 200 and opened.history[0].status_code == 302
        assert str(opened.url) == f"{page}?q=login+query"  # the token dropped, the search kept
        kept = serve.app.session_interface.get_signing_serializer(serve.app).loads(web.cookies["session"])
        assert "MEMFIX_DASHBOARD_TOKEN" in kept and token not in str(kept)  # a digest of it, never the token
        serve.app.config["MEMFIX_DASHBOARD_TOKEN"] = "the-next-start"  # the same session secret, a new token
        refused = web.get(page)
        assert refused.status_code == 403 and "Open the link memfix serve printed" in refused.text


def test_curation_needs_the_csrf_token_and_goes_through_the_commands(serve, tenant_id):
    services = serve.services
    insight_id, _ = seed(services, tenant_id)
    base = f"{serve.url}/installations/{tenant_id}/repos/{REPO}"
    with client(serve) as web:
        page = web.get(base).text
        assert web.post(f"{base}/rules", data={"action": "enable", "rule": "F401"}).status_code == 403  # no token
        done = web.post(f"{base}/rules", data={"action": "enable", "rule": "F401", "csrf": csrf(page)})
        assert "propose F401 fixes in this repository again" in done.text
        assert services.policy.holds(tenant_id, REPO) == []
        web.post(f"{base}/insights/{insight_id}", data={"action": "edit", "csrf": csrf(page), "title": "SQL from "
                 "f-strings in login", "detail": "use parameters", "suggestion": ""})
        assert services.insights.get(tenant_id, insight_id).title == "SQL from f-strings in login"
        empty = web.post(f"{base}/insights/{insight_id}", data={"action": "edit", "csrf": csrf(page), "title": " ",
                                                                "detail": "", "suggestion": ""})
        assert "Not done: could not save that insight: title is empty" in empty.text  # said, not a 500
        unknown = web.post(f"{base}/insights/{insight_id + 1000}", data={"action": "edit", "csrf": csrf(page),
                                                                        "title": "x", "detail": "", "suggestion": ""})
        assert f"Not done: there is no insight {insight_id + 1000} in this" in unknown.text
        assert services.insights.get(tenant_id, insight_id).title == "SQL from f-strings in login"
        gone = web.post(f"{base}/insights/{insight_id}", data={"action": "forget", "csrf": csrf(page)})
        assert f"Forgot insight {insight_id}" in gone.text and services.insights.get(tenant_id, insight_id) is None
        log = [(c.actor, c.action) for c in services.dashboard.curations(tenant_id, REPO)]
        assert log == [("local", "forget"), ("local", "edit"), ("local", "remember")]  # not done: not recorded


def test_every_list_of_every_page_shows_its_rows(serve, tenant_id):
    """Rows of each table the pages read, through their owners: breakers, action points, letters, envelopes, ring
    reads, the rules a run chose, PR outcomes per week."""
    from datetime import date

    from core.memory.types import MemoryEntry

    services = serve.services
    _, run_id = seed(services, tenant_id)
    other = services.insights.save(tenant_id, Insight(repository="acme/web", insight_type="solution",
                                                      category="security", title="Parameterised queries")).insight
    with services.db.tenant(tenant_id) as conn:  # what cross-project detection leaves behind
        conn.execute("INSERT INTO action_points (tenant_id, source_insight_id, source_repository, target_repository,"
                     " similarity) VALUES (%s, %s, 'acme/web', %s, 0.9)", (tenant_id, other.id, REPO))
    services.tenants.register(tenant_id, "acme", ((7, "acme/web"),))  # a repository of the installation
    for _ in range(3):
        services.breakers.record(tenant_id, REPO, "autofix", "syntax")
    run = services.runs.start(RunRequest(tenant_id, REPO, "autofix", "push"), provider="offline", model=None)
    services.runs.chose(run, ["F401", "E711"], "ruff.toml", ["B006"])
    services.healing.recent(tenant_id, REPO)  # a ring read, counted with the next envelope
    services.healing.record(tenant_id, Envelope(repository=REPO, status="RETRY", run_id=str(run.id),
                                                error_message="E711 still present", error_hash="f" * 64))
    for n, state in enumerate(("open", "merged", "closed")):
        services.proposals.save(tenant_id, repository=REPO, pipeline="autofix", fingerprint=f"fp{n}", path="app.py",
                                branch=f"memfix/autofix/app-{n}", base_branch="main", pr_number=10 + n, state=state,
                                finding_codes=["F401"], ci_failures=int(state == "closed"))
    services.entries.add(tenant_id, MemoryEntry(title="Pager rotation", content="weekly", source="github",
                                                repository=REPO, letter_date=date(2024, 3, 1),
                                                source_ref=f"github://{REPO}/.memory/letter_20240301_q1x9.md"))
    with client(serve) as web:
        home = web.get(f"{serve.url}/installations/{tenant_id}").text
        assert '<td class="bad">open</td>' in home  # the breaker
        assert "<td>acme/api</td><td>acme/web</td><td>Parameterised queries</td>" in home  # the action point
        assert "<td>2</td><td>3</td><td>1</td><td>1</td><td>1</td><td>0.33</td>" in home  # runs, PRs, outcomes
        page = html.unescape(web.get(f"{serve.url}/installations/{tenant_id}/repos/{REPO}").text)
        assert "<code>F401, E711</code></td><td>ruff.toml; beyond it" in page and "<code>B006</code>" in page
        assert "1 merged, 0 closed, 1 failed CI in this repository" in page  # closed while red: counted once, as red
        assert "entry:" in page and "Pager rotation" in page and "2024-03-01 github://acme/api/.memory/" in page
        assert "E711 still present <code>ffffffffff</code>" in page and f'href="/runs/{run_id}"' in page
        health = web.get(f"{serve.url}/installations/{tenant_id}/health").text
        assert "<td>acme/api</td><td>0</td><td>1</td><td>0%</td>" in health


def test_the_policy_table_shows_each_holds_scope_and_the_record_per_kind_of_place(serve, tenant_id):
    services = serve.services
    for n, (path, state) in enumerate((("shop/__init__.py", "closed"), ("api/__init__.py", "closed"),
                                       ("web/api/__init__.py", "closed"), ("shop/cart.py", "merged"))):
        services.proposals.save(tenant_id, repository=REPO, pipeline="autofix", fingerprint=f"ctx{n}", path=path,
                                branch=f"memfix/autofix/ctx-{n}", base_branch="main", pr_number=20 + n, state=state,
                                finding_codes=["F401"])
    [learned] = services.policy.learn(tenant_id, REPO, "autofix")
    services.policy.keep_held(tenant_id, REPO, "autofix", [HeldBack("F401", "web/__init__.py", "init"),
                                                           HeldBack("F401", "cli/__init__.py", "init")])
    with services.db.tenant(tenant_id) as conn:  # a failure a re-run of the same commit overturned
        conn.execute("UPDATE proposals SET ci_flakes = 1 WHERE fingerprint = 'ctx3'")
    with client(serve) as web:
        page = html.unescape(web.get(f"{serve.url}/installations/{tenant_id}/repos/{REPO}").text)
    assert "its checks failed memfix's commits and passed when run again 1 time(s)" in page
    row = page[page.index('id="rule-F401"'):].split("</tr>")[0]
    assert "2 file(s) held back, proposed again when the hold lifts" in row
    assert "1 merged, 3 closed in this repository" in row
    assert "0 merged, 3 closed in package __init__ and index files" in row
    assert "1 merged, 0 closed in library modules" in row
    assert "held back</span> in package __init__ and index files — reviewers closed 3 of its 3 PRs" in row
    assert '<span class="ok">proposed</span> elsewhere' in row and learned.split("`")[-2] in row  # insight:N


def propose(services, tenant: int, repo: str, outcomes: list[tuple[str, str, str]]) -> None:
    """memfix's PRs in `repo` and what became of them: (rule, file, state) each."""
    for n, (code, path, state) in enumerate(outcomes):
        services.proposals.save(tenant, repository=repo, pipeline="autofix", fingerprint=f"{repo}-{n}", path=path,
                                branch=f"memfix/autofix/{n}", base_branch="main", pr_number=40 + n, state=state,
                                finding_codes=[code])


def hold_row(page: str, insight_id: int) -> str:
    return page[page.index(f'id="hold-{insight_id}"'):].split("</tr>")[0]


def lift_fields(page: str, insight_id: int) -> dict[str, str]:
    """What the hold's lift button posts, read from its own form."""
    return {k: html.unescape(v) for k, v in re.findall(r'name="([^"]+)" value="([^"]*)"', hold_row(page, insight_id))}


def test_each_hold_in_force_is_explained_by_its_evidence_chance_decider_and_next_try_and_lifts_in_one_click(
        serve, tenant_id):
    from core.learning.policy import LEARNED

    services = serve.services
    propose(services, tenant_id, REPO, [("F401", "shop/__init__.py", "closed"), ("F401", "api/__init__.py", "closed"),
                                        ("F401", "web/api/__init__.py", "closed"), ("F401", "shop/cart.py", "merged"),
                                        ("E501", "lib/x.py", "merged")])
    services.policy.learn(tenant_id, REPO, "autofix")
    [learned] = services.policy.holds(tenant_id, REPO)
    assert (learned.code, learned.scope, learned.by) == ("F401", "kind:init", LEARNED)
    [person] = services.policy.hold(tenant_id, REPO, ["E711"], "bob", None)
    [odd] = services.policy.hold(tenant_id, REPO, ["F841"], "bob", None, scope="x<b>y/**")  # names are data
    retry = learned.retry_at(services.policy.evidence(tenant_id, REPO, "autofix"))
    base = f"{serve.url}/installations/{tenant_id}/repos/{REPO}"
    with client(serve) as web:
        raw = web.get(base).text
        page = html.unescape(raw)
        row = hold_row(page, learned.insight_id)
        assert "reviewers closed 3 of its 3 PRs where they close 17% of memfix's others" in row  # its reason
        assert "F401: 0 merged, 3 closed in package __init__ and index files" in row  # where it is held
        assert "F401: 1 merged, 3 closed in this repository" in row  # in the whole repository
        assert "every rule: 0 merged, 3 closed in package __init__ and index files" in row  # the place's, any rule
        assert "reviewers close 17% of memfix's PRs of other rules here" in row  # chance: 0 of E501's 1, prior 1/5
        assert f"learned on {learned.decided_at:%Y-%m-%d}" in row and f"insight:{learned.insight_id}" in row
        assert retry is not None and f"from {retry:%Y-%m-%d}" in row and 'class="lift"' in row
        row = hold_row(page, person)
        assert "@bob asked memfix not to propose E711 fixes here" in row and "E711: no record in this repository" in row
        assert "reviewers close 40% of memfix's PRs of other rules here" in row  # 3 closed of 5, with the prior
        assert "@bob on" in row and "only a person lifts it" in row and "every rule:" not in row
        assert "<b>" not in raw and "x&lt;b&gt;y/**" in raw  # a scope is shown as text, never as markup

        with services.db.tenant(tenant_id) as conn:  # four weeks on (three closes: a week doubled twice)
            conn.execute("UPDATE rule_decisions SET created_at = created_at - interval '29 days'")
            conn.execute("UPDATE proposals SET updated_at = updated_at - interval '29 days'")
        assert "now: the next run may try it" in hold_row(web.get(base).text, learned.insight_id)

        assert lift_fields(raw, learned.insight_id) == {"csrf": csrf(raw), "action": "enable", "rule": "F401",
                                                        "place": "kind:init"}
        done = html.unescape(web.post(f"{base}/rules", data=lift_fields(raw, learned.insight_id)).text)
        assert "memfix will propose F401 fixes in package `__init__` and index files of this repository again" in done
        assert f'id="hold-{learned.insight_id}"' not in done and f'id="hold-{person}"' in done
        for lifted in (person, odd):
            done = web.post(f"{base}/rules", data=lift_fields(raw, lifted)).text
            assert f'id="hold-{lifted}"' not in done
        assert "Nothing is held back here." in done
    assert services.policy.for_run(tenant_id, REPO, "autofix").holds == []
    assert services.policy.holds(tenant_id, REPO) == []
    log = [c.target for c in services.dashboard.curations(tenant_id, REPO)]
    assert log == ["decision enable F841 in x<b>y/**", "decision enable E711", "decision enable F401 in kind:init"]


def test_a_places_hold_on_every_rule_shows_the_places_record_and_lifts_for_good(serve, tenant_id):
    from core.languages.registry import EVERY_RULE

    services = serve.services
    repo = "acme/vendored"
    propose(services, tenant_id, repo, [*((("E711", f"app/m{n}.py", "merged")) for n in range(3)),
                                        ("F401", "vendor/a.py", "closed"), ("F841", "vendor/b.py", "closed")])
    services.policy.learn(tenant_id, repo, "autofix")
    [hold] = services.policy.holds(tenant_id, repo)
    assert (hold.code, hold.scope) == (EVERY_RULE, "vendor/**")
    base = f"{serve.url}/installations/{tenant_id}/repos/{repo}"
    with client(serve) as web:
        raw = web.get(base).text
        row = html.unescape(hold_row(raw, hold.insight_id))
        assert "<code>every rule</code> in vendor/**" in row
        assert "reviewers closed 2 PRs of 2 rules here (F401, F841), merged none, and close 12% elsewhere" in row
        assert "every rule: 0 merged, 2 closed in vendor/**" in row  # the place's record, whatever the rules
        assert "reviewers close 12% of memfix's PRs elsewhere in this repository" in row  # 0 of 3, the prior
        assert "learned on" in row and "from " in row
        assert lift_fields(raw, hold.insight_id)["rule"] == "*"
        done = web.post(f"{base}/rules", data=lift_fields(raw, hold.insight_id)).text
        assert f'id="hold-{hold.insight_id}"' not in done and "Nothing is held back here." in done
    assert services.policy.for_run(tenant_id, repo, "autofix").holds == []
    propose(services, tenant_id, repo, [("E711", "app/m9.py", "merged")])  # the next outcome: learned again
    services.policy.learn(tenant_id, repo, "autofix")
    assert services.policy.for_run(tenant_id, repo, "autofix").holds == []  # the lift stands: no new evidence


def test_a_hold_in_a_folder_no_decision_can_name_is_lifted_by_forgetting_it(serve, tenant_id):
    services = serve.services
    repo = "acme/spaced"
    propose(services, tenant_id, repo, [*(("F401", f"app/m{n}.py", "merged") for n in range(3)),
                                        *(("F401", f"legacy code/{n}.py", "closed") for n in range(3))])
    services.policy.learn(tenant_id, repo, "autofix")
    [hold] = services.policy.holds(tenant_id, repo)
    assert hold.scope == "legacy code/**"  # `decision enable F401 in legacy code/**` is no decision
    base = f"{serve.url}/installations/{tenant_id}/repos/{repo}"
    with client(serve) as web:
        raw = web.get(base).text
        assert lift_fields(raw, hold.insight_id) == {"csrf": csrf(raw), "action": "forget"}
        assert f'action="/installations/{tenant_id}/repos/{repo}/insights/{hold.insight_id}"' in hold_row(
            raw, hold.insight_id)
        done = web.post(f"{base}/insights/{hold.insight_id}", data=lift_fields(raw, hold.insight_id)).text
        assert f"Forgot insight {hold.insight_id}" in done and f'id="hold-{hold.insight_id}"' not in done
    assert services.policy.for_run(tenant_id, repo, "autofix").holds == []


def test_a_repository_without_pr_outcomes_offers_the_decision_form_and_the_next_run_follows_it(serve, tenant_id,
                                                                                                tmp_path):
    from core.pipelines.workspace import LocalWorkspace

    services = serve.services
    repo = "local/sample"
    (tmp_path / "tests").mkdir()
    (tmp_path / "app.py").write_text('print(f"hello")\n')
    (tmp_path / "ruff.toml").write_text("line-length = 88\n")  # the team runs ruff at its defaults
    (tmp_path / "tests" / "test_app.py").write_text('print(f"test")\n')
    base = f"{serve.url}/installations/{tenant_id}/repos/{repo}"

    def run() -> dict[str, list[str]]:
        request = RunRequest(tenant_id, repo, "autofix", "local")
        report = services.pipeline_runner.run(request, LocalWorkspace(tmp_path))
        return {o.path: [f.code for f in o.findings] for o in report.promoted}

    with client(serve) as web:
        unknown = web.get(base)  # no run, PR or installation names it yet: said, with what memory holds
        assert unknown.status_code == 404 and "memfix has no memory of local/sample" in html.unescape(unknown.text)
    assert run() == {"app.py": ["F541"], "tests/test_app.py": ["F541"]}
    with client(serve) as web:
        page = web.get(base).text
        assert "No PR outcomes yet." in page and 'id="decide"' in page and 'id="decide-place"' in page
        fields = {"csrf": csrf(page), "action": "hold", "rule": "F541"}
        bad = web.post(f"{base}/rules", data={**fields, "rule": "F999"})
        assert "Not done: F999 is not a rule of the linters memfix runs" in html.unescape(bad.text)
        bad = web.post(f"{base}/rules", data={**fields, "place": "../elsewhere/**"})
        assert "is not a repository path pattern" in html.unescape(bad.text)
        bad = web.post(f"{base}/rules", data={**fields, "rule": ""})
        assert "Not done: nothing was saved: a decision reads" in html.unescape(bad.text)
        assert services.policy.holds(tenant_id, repo) == [] and \
            [i for i in services.insights.for_repository(tenant_id, repo) if i.insight_type == "decision"] == []
        done = html.unescape(web.post(f"{base}/rules", data={**fields, "place": "tests/**"}).text)
        assert "memfix will not propose F541 fixes in `tests/**` of this repository" in done
        assert "held back</span> in tests/** — @local asked memfix not to propose F541 fixes in `tests/**`" in done

    assert run() == {"app.py": ["F541"]}  # held in tests/**, fixed elsewhere
    with client(serve) as web:
        page = web.get(base).text
        web.post(f"{base}/rules", data={"csrf": csrf(page), "action": "enable", "rule": "F541", "place": "tests/**"})
    assert run() == {"app.py": ["F541"], "tests/test_app.py": ["F541"]}
    log = [(c.actor, c.target) for c in services.dashboard.curations(tenant_id, repo)]
    assert log == [("local", "decision enable F541 in tests/**"), ("local", "decision hold F541 in tests/**")]


def test_the_decision_form_takes_any_tools_rule_as_written_and_shows_it_with_its_tool(serve, tenant_id, tmp_path):
    """ESLint's and Biome's rules are held from the form as from a comment, listed with their tool, and a hold on
    another language's rule is never handed to ruff (which refuses a selector it does not know)."""
    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    services = serve.services
    repo = "local/named"
    remembered(services, tenant_id, repo)
    (tmp_path / "app.py").write_text('print(f"hello")\n')
    (tmp_path / "ruff.toml").write_text("line-length = 88\n")  # the team runs ruff at its defaults
    base = f"{serve.url}/installations/{tenant_id}/repos/{repo}"
    with client(serve) as web:
        fields = {"csrf": csrf(web.get(base).text), "action": "hold"}
        bad = html.unescape(web.post(f"{base}/rules", data={**fields, "rule": "lint/Style/useConst"}).text)
        assert "Not done: `lint/Style/useConst` is not a rule; a rule is named as its tool names it" in bad
        done = html.unescape(web.post(f"{base}/rules", data={**fields, "rule": "eslint:indent"}).text)
        assert "memfix will not propose eslint:indent fixes in this repository" in done
        done = html.unescape(web.post(f"{base}/rules", data={**fields, "rule": "biome:lint/style/useConst"}).text)
        assert "memfix will not propose biome:lint/style/useConst fixes in this repository" in done
        assert '<tr id="rule-lint/style/useConst"><td><code>biome:lint/style/useConst</code></td>' in done
        assert '<tr id="rule-eslint:indent"><td><code>eslint:indent</code></td>' in done
    assert sorted(h.code for h in services.policy.holds(tenant_id, repo)) == ["eslint:indent", "lint/style/useConst"]
    report = services.pipeline_runner.run(RunRequest(tenant_id, repo, "autofix", "local"), LocalWorkspace(tmp_path))
    assert not report.failed and [f.code for o in report.promoted for f in o.findings] == ["F541"]


# ---- sign-in with GitHub ----



def sign_in(serve, web: httpx.Client) -> httpx.Response:
    authorize = web.get(f"{serve.url}/login")
    assert "Authorize memfix" in authorize.text
    return web.post(str(authorize.url).split("?")[0], data=form_fields(authorize.text))


@pytest.mark.signin
def test_a_person_sees_only_what_github_lets_them_and_curates_only_where_they_write(serve, fake_github, tenant_id):
    other = tenant_id + 1
    fake_github.add_installation(tenant_id, [REPO])
    fake_github.add_installation(other, ["acme/secret"])
    fake_github._repos["acme/secret"].collaborators = {"mallory": "admin"}
    seed(serve.services, tenant_id)
    seed_other = serve.services.insights.save(other, Insight(repository="acme/secret", insight_type="decision",
                                                             category="security", title="secret plans")).insight
    with client(serve) as web:
        assert "Sign in with GitHub" in web.get(f"{serve.url}/").text
        home = sign_in(serve, web)
        assert f"/installations/{tenant_id}" in home.text and f"/installations/{other}" not in home.text
        assert "signed in as @alice" in home.text
        assert web.get(f"{serve.url}/installations/{other}").status_code == 404
        assert web.get(f"{serve.url}/installations/{tenant_id}/repos/acme/secret").status_code == 404
        assert "<strong>secret plans</strong>" not in web.get(f"{serve.url}/installations/{tenant_id}/repos/{REPO}",
                                             params={"q": "secret plans"}).text
        assert seed_other.id
        page = web.get(f"{serve.url}/installations/{tenant_id}/repos/{REPO}").text
        assert "Propose again" in page and 'class="lift"' in page  # alice may write here
        web.post(f"{serve.url}/logout", data={"csrf": csrf(page)})
        assert "Sign in with GitHub" in web.get(f"{serve.url}/").text


@pytest.mark.signin
def test_a_reader_sees_but_cannot_curate(serve, fake_github, tenant_id):
    fake_github.add_installation(tenant_id, [REPO])
    fake_github._repos[REPO].collaborators["alice"] = "read"
    seed(serve.services, tenant_id)
    with client(serve) as web:
        sign_in(serve, web)
        page = web.get(f"{serve.url}/installations/{tenant_id}/repos/{REPO}").text
        assert "held back" in page and "Propose again" not in page
        assert 'class="hold"' in page and "only a person lifts it" in page and 'class="lift"' not in page
        refused = web.post(f"{serve.url}/installations/{tenant_id}/repos/{REPO}/rules",
                           data={"action": "enable", "rule": "F401", "place": "", "csrf": csrf(page)})
        assert refused.status_code == 403 and serve.services.policy.holds(tenant_id, REPO)


@pytest.mark.signin
def test_a_forged_or_replayed_sign_in_is_refused(serve, fake_github, tenant_id):
    with client(serve) as web:
        forged = web.get(f"{serve.url}/oauth/callback", params={"code": "x", "state": "not-mine"})
        assert forged.status_code == 400 and "Sign-in refused" in forged.text
        web.get(f"{serve.url}/")  # a session, with no sign-in started
        assert web.get(f"{serve.url}/installations/{tenant_id}").status_code == 200  # → the sign-in page
        assert "Sign in with GitHub" in web.get(f"{serve.url}/installations/{tenant_id}").text


# ---- one-click registration ----

@pytest.fixture
def unregistered(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMFIX_ENV_FILE", str(tmp_path / ".env"))
    return tmp_path / ".env"


@pytest.mark.unregistered
def test_the_manifest_flow_registers_the_app_and_saves_its_credentials(unregistered, fake_github, serve):
    seed(serve.services, serve.services.settings.local_installation)
    with client(serve) as web:
        home = web.get(f"{serve.url}/")  # local runs and memory, with registration offered as a section
        assert "register-app" in home.text and 'href="/setup"' in home.text and "SQL built from f-strings" in home.text
        setup = web.get(f"{serve.url}/setup")
        assert f"{serve.url}/webhook" in setup.text
        action = re.search(r'<form id="register" method="post" action="([^"]+)"', setup.text)[1].replace("&amp;", "&")
        manifest = re.search(r"name=\"manifest\" value='([^']+)'", setup.text)[1]
        create = web.post(action, data={"manifest": html.unescape(manifest)})  # as a browser decodes the attribute
        done = web.post(str(create.url).rsplit("/settings", 1)[0] + "/settings/apps/new/confirm",
                        data=form_fields(create.text))
    assert done.status_code == 200 and "is registered" in done.text and "/installations/new" in done.text
    [app] = fake_github.apps_created
    assert app["hook_url"] == f"{serve.url}/webhook" and "check_suite" in app["events"]
    saved = read_env_file(unregistered)
    assert saved["GITHUB_APP_ID"] == str(app["id"]) and saved["GITHUB_CLIENT_SECRET"] == app["client_secret"]
    assert "\\n" in saved["GITHUB_APP_PRIVATE_KEY"] and "PRIVATE KEY" in saved["GITHUB_APP_PRIVATE_KEY"]
    assert stat.S_IMODE(os.stat(unregistered).st_mode) == 0o600
    assert app["pem"] not in done.text and app["client_secret"] not in done.text  # never shown


@pytest.mark.unregistered
def test_a_refused_or_expired_registration_saves_nothing(unregistered, fake_github, serve):
    with client(serve) as web:
        setup = web.get(f"{serve.url}/setup")
        state = re.search(r"state=([^\"&]+)", setup.text)[1]
        expired = web.get(f"{serve.url}/setup/callback", params={"code": "no-such-code", "state": state})
        assert expired.status_code == 400 and "Registration failed" in expired.text
        replay = web.get(f"{serve.url}/setup/callback", params={"code": "x", "state": state})
        assert replay.status_code == 400 and "Registration refused" in replay.text  # the state was used up
    assert not unregistered.exists()


def test_the_dashboard_lambda_serves_api_gateway_events_and_answers_no_stranger_without_sign_in(pg_url, monkeypatch):
    from core.settings import get_settings
    from handlers import dashboard_lambda

    monkeypatch.setenv("DATABASE_URL", pg_url)
    for name in ("GITHUB_CLIENT_ID", "GITHUB_APP_ID"):
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    dashboard_lambda.app.cache_clear()
    event = {"version": "2.0", "routeKey": "GET /{proxy+}", "rawPath": "/installations/1", "rawQueryString": "",
             "headers": {"host": "abc.execute-api.eu-west-1.amazonaws.com", "x-forwarded-proto": "https"},
             "requestContext": {"http": {"method": "GET", "path": "/installations/1", "sourceIp": "203.0.113.9",
                                         "protocol": "HTTP/1.1"}, "stage": "$default"},
             "isBase64Encoded": False}
    try:
        answer = dashboard_lambda.handler(event, None)
    finally:
        get_settings.cache_clear()
        dashboard_lambda.app.cache_clear()
    assert answer["statusCode"] == 403 and "answers this machine only" in answer["body"]


@pytest.mark.unregistered
def test_a_code_older_than_an_hour_is_refused_and_nothing_is_saved(unregistered, fake_github, serve):
    with client(serve) as web:
        setup = web.get(f"{serve.url}/setup")
        action = re.search(r'<form id="register" method="post" action="([^"]+)"', setup.text)[1].replace("&amp;", "&")
        manifest = html.unescape(re.search(r"name=\"manifest\" value='([^']+)'", setup.text)[1])
        create = web.post(action, data={"manifest": manifest})
        fields = form_fields(create.text)
        confirm = web.post(str(create.url).rsplit("/settings", 1)[0] + "/settings/apps/new/confirm", data=fields,
                           follow_redirects=False)
        fake_github.expire_manifest_codes()  # ... and comes back after the hour
        done = web.get(confirm.headers["location"])
    assert done.status_code == 400 and "good once, for an hour" in done.text
    assert not unregistered.exists() and fake_github.apps_created == []


# ---- what a page may say, and to whom ----

def test_a_link_cannot_make_a_page_say_something(serve, tenant_id):
    seed(serve.services, tenant_id)
    base = f"{serve.url}/installations/{tenant_id}/repos/{REPO}"
    with client(serve) as web:
        page = web.get(base, params={"done": "Your session expired: sign in at evil.example"}).text
        assert "evil.example" not in page
        done = web.post(f"{base}/rules", data={"action": "enable", "rule": "F401", "csrf": csrf(page)})
        assert "propose F401 fixes in this repository again" in done.text  # said once, from the session
        assert "propose F401 fixes" not in web.get(base).text


def test_a_nul_in_a_search_or_a_form_is_refused_by_name(serve, tenant_id):
    insight_id, _ = seed(serve.services, tenant_id)
    base = f"{serve.url}/installations/{tenant_id}/repos/{REPO}"
    with client(serve) as web:
        searched = web.get(base, params={"q": "sql\x00injection"})
        assert searched.status_code == 400 and "NUL character" in searched.text
        page = web.get(base).text
        edited = web.post(f"{base}/insights/{insight_id}", data={"action": "edit", "csrf": csrf(page),
                                                                 "title": "a\x00b", "detail": "", "suggestion": ""})
        assert edited.status_code == 400 and "NUL character" in edited.text
    assert serve.services.insights.get(tenant_id, insight_id).title == "SQL built from f-strings"
    with pytest.raises(Exception, match="NUL character"):  # the search itself refuses it too, for every caller
        serve.services.insights.search(tenant_id, "sql\x00")


@pytest.mark.signin
def test_memory_of_a_repository_a_person_cannot_see_is_not_shown_through_another(serve, fake_github, tenant_id):
    fake_github.add_installation(tenant_id, [REPO, "acme/secret"])
    fake_github._repos["acme/secret"].collaborators = {"octocat": "admin"}  # alice sees acme/api only
    services = serve.services
    services.insights.save(tenant_id, Insight(repository="acme/secret", insight_type="pain_point",
                                              category="security", severity="high", title="Payroll keys in git"))
    services.policy.hold(tenant_id, "acme/secret", ["F401"], "octocat", None)
    with services.db.tenant(tenant_id) as conn:  # what cross-project detection and a learned hold leave behind
        for row in conn.execute("SELECT id FROM workflow_insights WHERE repository = 'acme/secret'").fetchall():
            conn.execute("INSERT INTO action_points (tenant_id, source_insight_id, source_repository,"
                         " target_repository, similarity) VALUES (%s, %s, 'acme/secret', %s, 0.9)",
                         (tenant_id, row["id"], REPO))
    assert len(services.insights.action_points(tenant_id, REPO)) == 2
    with client(serve) as web:
        sign_in(serve, web)
        page = web.get(f"{serve.url}/installations/{tenant_id}").text
        assert "acme/secret" not in page and "Payroll keys" not in page and "Hold back F401" not in page
    [suggestion] = services.policy.for_run(tenant_id, REPO, "autofix").suggestions  # what a reply in acme/api says
    assert "holds back F401" in suggestion and "acme/secret" not in suggestion


@pytest.mark.signin
def test_re_embedding_the_installation_is_for_its_admins(serve, fake_github, tenant_id):
    fake_github.add_installation(tenant_id, [REPO])
    base = f"{serve.url}/installations/{tenant_id}"
    with client(serve) as web:
        sign_in(serve, web)  # alice may write to acme/api, not administer it
        page = web.get(f"{base}/health").text
        refused = web.post(f"{base}/reembed", data={"csrf": csrf(page)})
        assert refused.status_code == 403 and "admin" in refused.text
    fake_github._repos[REPO].collaborators["alice"] = "admin"
    with client(serve) as web:
        sign_in(serve, web)
        page = web.get(f"{base}/health").text
        done = web.post(f"{base}/reembed", data={"csrf": csrf(page)})
        assert done.status_code == 200 and "Embedded 0 insight(s)." in done.text


@pytest.mark.signin
def test_access_is_asked_of_github_again_when_it_is_an_hour_old(serve, fake_github, tenant_id):
    fake_github.add_installation(tenant_id, [REPO])
    services = serve.services
    with client(serve) as web:
        sign_in(serve, web)
        assert web.get(f"{serve.url}/installations/{tenant_id}/repos/{REPO}").status_code == 200
        assert set(_session_minutes(services, tenant_id)) == {60}  # what GitHub said is good for an hour
        _age_sessions(services)  # an hour passes
        fake_github._repos[REPO].collaborators.pop("alice")  # meanwhile, access was taken away on GitHub
        again = web.get(f"{serve.url}/installations/{tenant_id}/repos/{REPO}")
        assert "Authorize memfix" in again.text  # sent through GitHub, not shown the page
        fake_github._repos[REPO].collaborators["alice"] = "write"
        back = web.post(str(again.url).split("?")[0], data=form_fields(again.text))
        assert back.status_code == 200 and str(back.url).endswith(f"/installations/{tenant_id}/repos/{REPO}")


def _session_minutes(services, tenant_id: int) -> list[int]:
    import psycopg

    with psycopg.connect(services.settings.database_url, autocommit=True) as conn:  # as the owner: this test's only
        return [int(r[0]) for r in conn.execute(
            "SELECT ceil(extract(epoch FROM expires_at - now()) / 60) FROM dashboard_sessions WHERE access ? %s",
            (str(tenant_id),))]


def _age_sessions(services) -> None:
    import psycopg

    with psycopg.connect(services.settings.database_url, autocommit=True) as conn:  # as the owner: the app cannot
        conn.execute("UPDATE dashboard_sessions SET expires_at = now() - interval '1 second'")


def test_the_run_page_shows_each_files_diff_and_titles_keep_the_rules_words(serve, tenant_id):
    from pathlib import Path

    from core.pipelines.values import RunRequest
    from core.pipelines.workspace import LocalWorkspace

    shop = Path(__file__).resolve().parents[1] / "samples" / "shop"
    report = serve.services.pipeline_runner.run(RunRequest(tenant_id, REPO, "autofix", "local"), LocalWorkspace(shop))
    assert report.promoted
    with client(serve) as web:
        run = web.get(f"{serve.url}/runs/{report.run_id}").text
        assert "What it changed" in run and '<span class="del">-' in run and '<span class="add">+' in run
        changed = report.promoted[0].patch
        assert html.escape(f"+++ b/{changed.path}", quote=False) in run
        page = web.get(f"{serve.url}/installations/{tenant_id}/repos/{REPO}").text
        assert "Use of `assert` detected" in html.unescape(page)  # the rule's words, not "Use of `…` detected"
        assert 'id="rules-in-force"' in page and "[tool.ruff] in pyproject.toml selects (E4, E7, E9, F, B, S)" in page
        left = [o for o in report.outcomes if o.status != "PROMOTED"]  # the sample shop has findings no fix makes
        assert left and 'id="left"' in run and html.escape(left[0].path) in run.split('id="left"')[1]
