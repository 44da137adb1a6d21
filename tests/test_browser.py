"""The dashboard in a real headless Chromium (Debian's, driven by Playwright; nothing is downloaded): sign in through
the fake GitHub's OAuth pages, see only the permitted installation, search insights, open a run and read the exact
sections the model was given, propose a held-back rule again, be refused another installation by URL. Screenshots
of each page go to build/browser/. Without a browser these tests skip, and the run's summary says so loudly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_dashboard import REPO, seed

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = Path(__file__).resolve().parents[1] / "build" / "browser"  # the suite writes in the checkout only under build/
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(CHROMIUM is None, reason="NO BROWSER: install Debian's chromium to run the "
                                                           "browser tests (.ci/run does)")]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def serve_settings(request, github_settings, fake_github, tenant_id):
    """Sign-in with GitHub for a test marked `signin`; else local mode (the link memfix serve prints)."""
    settings = github_settings.with_(local_installation=tenant_id, github_web_url_setting=fake_github.url)
    if request.node.get_closest_marker("signin"):
        settings = settings.with_(github_client_id=fake_github.client_id, session_secret="browser-test-secret",
                                  github_client_secret=fake_github.client_secret)
    return settings


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.signin
def test_a_maintainer_signs_in_searches_reads_a_run_and_re_enables_a_rule(chromium, serve, fake_github, tenant_id):
    other = tenant_id + 1
    fake_github.add_installation(tenant_id, [REPO])
    fake_github.add_installation(other, ["acme/secret"])
    fake_github._repos["acme/secret"].collaborators = {"mallory": "admin"}
    insight_id, run_id = seed(serve.services, tenant_id)
    page = chromium.new_page()
    try:
        page.goto(serve.url)
        shot(page, "1-sign-in")
        page.click("#signin")
        page.wait_for_selector("#authorize")  # the fake GitHub's authorization page
        shot(page, "2-github-authorize")
        page.click("#authorize")
        page.wait_for_url(f"{serve.url}/")
        assert page.locator(f"a[href='/installations/{tenant_id}']").count() == 1
        assert page.locator(f"a[href='/installations/{other}']").count() == 0
        assert "signed in as @alice" in page.inner_text("header")
        shot(page, "3-installations")

        page.click(f"a[href='/installations/{tenant_id}']")
        assert page.locator("#curve").count() == 1 and REPO in page.inner_text("#repos")
        shot(page, "4-installation")

        page.click(f"#repos a[href$='{REPO}']")
        page.fill("#q", "login query")
        page.click("#search")
        page.wait_for_selector(f"#insight-{insight_id}")
        assert "SQL built from f-strings" in page.inner_text(f"#insight-{insight_id}")
        shot(page, "5-repository-search")

        assert "held back" in page.inner_text("#rule-F401")
        page.click("#rule-F401 button.enable")
        page.wait_for_selector("#done")
        assert "propose F401 fixes in this repository again" in page.inner_text("#done")
        assert page.locator("#rule-F401").count() == 0 or "held back" not in page.inner_text("#rule-F401")
        assert "remember decision enable F401" in page.inner_text("#curations")
        shot(page, "6-rule-re-enabled")

        page.goto(f"{serve.url}/runs/{run_id}")
        sections = page.inner_text("details.sections")
        assert "## Historical learnings" in sections and "- #7 [pain_point] SQL built from f-strings" in sections
        shot(page, "7-run-model-sections")

        page.goto(f"{serve.url}/installations/{tenant_id}/health")
        assert "Hybrid search measured now" in page.inner_text("#latency")
        shot(page, "8-memory-health")

        refused = page.goto(f"{serve.url}/installations/{other}")
        assert refused.status == 404
        shot(page, "9-other-installation-refused")
    finally:
        page.close()
    assert serve.services.policy.holds(tenant_id, REPO) == []


def test_the_local_dashboard_opens_by_its_link_and_holds_a_rule_in_a_place_before_any_pr(chromium, serve, tenant_id):
    from tests.test_dashboard import remembered

    repo = "local/sample"
    remembered(serve.services, tenant_id, repo)  # a run here, no PR yet
    page = chromium.new_page()
    try:
        refused = page.goto(serve.url)  # a browser without the link: told where it is, shown nothing
        assert refused.status == 403 and "Open the link memfix serve printed" in page.inner_text("main")
        shot(page, "10-local-without-the-link")

        page.goto(serve.link)
        page.wait_for_url(f"{serve.url}/")  # signed in, and the token gone from the address bar and the history
        assert "Local mode" in page.inner_text("#local-mode")
        page.goto(f"{serve.url}/installations/{tenant_id}/repos/{repo}")  # a checkout with a run, no PR yet
        assert "No PR outcomes yet." in page.inner_text("#policy")
        page.fill("#decide-rule", "F541")
        page.fill("#decide-place", "tests/**")
        page.click("#decide button.hold")
        page.wait_for_selector("#done")
        assert "memfix will not propose F541 fixes in `tests/**` of this repository" in page.inner_text("#done")
        assert "held back in tests/**" in page.inner_text("#rule-F541")
        shot(page, "11-local-rule-held-in-a-place")
    finally:
        page.close()
    [hold] = serve.services.policy.holds(tenant_id, repo)
    assert (hold.code, hold.scope, hold.by) == ("F541", "tests/**", "local")


def test_a_maintainer_reads_why_a_rule_is_held_and_lifts_the_hold_in_one_click(chromium, serve, tenant_id):
    from tests.test_dashboard import propose

    services = serve.services
    propose(services, tenant_id, REPO, [("F401", f"{p}/__init__.py", "closed") for p in ("shop", "api", "web")])
    services.policy.learn(tenant_id, REPO, "autofix")
    [hold] = services.policy.holds(tenant_id, REPO)
    page = chromium.new_page()
    try:
        page.goto(serve.link)
        page.wait_for_url(f"{serve.url}/")
        page.goto(f"{serve.url}/installations/{tenant_id}/repos/{REPO}")
        row = page.inner_text(f"#hold-{hold.insight_id}")
        assert "F401: 0 merged, 3 closed in package __init__ and index files" in row
        assert "reviewers close 20% of memfix's PRs of other rules here" in row and "learned" in row
        shot(page, "12-a-hold-explained")
        page.click(f"#hold-{hold.insight_id} button.lift")
        page.wait_for_selector("#done")
        assert "memfix will propose F401 fixes in package `__init__` and index files" in page.inner_text("#done")
        assert page.locator(f"#hold-{hold.insight_id}").count() == 0
        assert "Nothing is held back here." in page.inner_text("#holds")
        shot(page, "13-the-hold-lifted")
    finally:
        page.close()
    assert services.policy.for_run(tenant_id, REPO, "autofix").holds == []
