"""JavaScript and TypeScript end to end: signed webhooks → memfix serve → the fake GitHub, Biome's real binary,
real PostgreSQL. The team's configuration decides which rules are proposed; the project's runtime decides which
fixes may introduce newer syntax; nothing of the repository is run."""

from __future__ import annotations

import json

from tests.fakes import payloads as P
from tests.test_pipelines import memfix_pulls, push

REPO = "acme/api"
# `outer:` labels nothing a break or continue names: Biome removes it (a safe fix)
LABEL = "export function first(items: number[]): number {\n  outer: for (const item of items) {\n" \
        "    return item;\n  }\n  return -1;\n}\n"
NEG_ZERO = "export function isZero(x) {\n  return x === -0;\n}\n"  # noCompareNegZero: `x === 0` (a safe fix)


def command(serve, gh, tenant: int, text: str) -> str:
    """A slash command by a maintainer on issue #2; memfix's one reply to it."""
    gh.open_issue(REPO, "please")
    cid = gh.add_comment(REPO, 2, text, user="alice")["id"]
    serve("issue_comment", P.issue_comment(text, installation=tenant, repo=REPO, number=2, comment_id=cid,
                                           pull_request=False))
    assert serve.drain()
    [reply] = [c["body"] for c in gh.comments(REPO, 2) if c["user"]["login"] == "memfix[bot]"]
    return reply


def runs(serve, tenant: int) -> list[dict]:
    with serve.services.db.tenant(tenant) as conn:
        return conn.execute("SELECT language, phase, findings, patches FROM runs ORDER BY id").fetchall()


def test_a_typescript_push_opens_one_verified_single_file_pr_with_biomes_fix(serve, fake_github, tenant_id):
    push(serve, fake_github, tenant_id, {"src/first.ts": LABEL, "app/util.py": "import os\n",
                                         "ruff.toml": "line-length = 88\n"})  # the team lints its Python only

    prs = memfix_pulls(fake_github)
    [pr] = [p for p in prs if "first-ts" in p["head"]["ref"]]
    fixed = fake_github.file(REPO, pr["head"]["ref"], "src/first.ts")
    assert "outer:" not in fixed and "for (const item of items)" in fixed
    assert "lint/correctness/noUnusedLabels" in pr["body"] and "### Verification" in pr["body"]
    assert "### memfix's own suggestion" in pr["body"]  # no JavaScript configuration: Biome's rules are memfix's own
    assert "Biome's recommended correctness rules (no lint configuration" in \
        [r for r in fake_github.check_runs(REPO) if r["name"] == "memfix autofix"][-1]["output"]["summary"]
    assert {r["language"] for r in runs(serve, tenant_id)} == {"python", "javascript"}  # one run per language
    assert all(r["phase"] == "done" for r in runs(serve, tenant_id))


def test_an_eslint_team_gets_only_the_rules_it_enabled(serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", {".eslintrc.json": json.dumps({"rules": {"no-compare-neg-zero": "error"}}),
                                    "lib/zero.js": NEG_ZERO, "lib/label.js": LABEL.replace(": number[]", "")
                                    .replace("): number {", ") {")})
    push(serve, fake_github, tenant_id, {"lib/zero.js": NEG_ZERO + "\n"}, listed=["lib/zero.js", "lib/label.js"])

    [pr] = memfix_pulls(fake_github)
    assert "lib/zero.js" in pr["title"] and "lint/suspicious/noCompareNegZero" in pr["body"]
    assert "x === 0" in fake_github.file(REPO, pr["head"]["ref"], "lib/zero.js")
    assert ".eslintrc.json" in pr["body"]  # the team's configuration chose the rules, and the PR says which


def test_a_prettier_team_gets_no_formatting_change(serve, fake_github, tenant_id):
    odd = "export function isZero(x){return x===-0}\n"  # formatted its own way: Biome's formatter must not touch it
    fake_github.push(REPO, "main", {".prettierrc": "{}", ".eslintrc.json": json.dumps(
        {"rules": {"no-compare-neg-zero": "error"}}), "lib/zero.js": odd})
    push(serve, fake_github, tenant_id, {"lib/zero.js": odd}, listed=["lib/zero.js"])
    [pr] = memfix_pulls(fake_github)
    assert fake_github.file(REPO, pr["head"]["ref"], "lib/zero.js") == "export function isZero(x){return x===0}\n"


def test_an_old_node_gets_no_fix_that_needs_newer_syntax(serve, fake_github, tenant_id):
    old = {"package.json": json.dumps({"name": "old", "engines": {"node": ">=6"}}),
           "biome.json": json.dumps({"linter": {"rules": {"recommended": False,
                                                          "style": {"useExponentiationOperator": "error"}}}}),
           "lib/pow.js": "export function square(x) {\n  return Math.pow(x, 2);\n}\n"}
    fake_github.push(REPO, "main", old)
    reply = command(serve, fake_github, tenant_id, "/refactor lib/pow.js")
    assert memfix_pulls(fake_github) == []
    assert "exponent" in reply and "Node" in reply  # held back, and said why


def test_a_file_biome_cannot_parse_and_a_configuration_it_refuses_are_said_and_the_run_goes_on(
        serve, fake_github, tenant_id):
    fake_github.push(REPO, "main", {"biome.json": '{"linter": {"rulez": 1}}', "src/bad.js": "let x = ;\n",
                                    "src/first.ts": LABEL})
    reply = command(serve, fake_github, tenant_id, "/autofix")
    assert "the repository's biome.json was refused by Biome (it does not accept `rulez`); Biome's recommended " \
        "correctness rules are used" in reply  # in memfix's words: Biome's own quote the file
    assert "src/bad.js" in reply and "parse" in reply
    assert [p for p in memfix_pulls(fake_github) if "src/first.ts" in p["title"]]  # the rest still gets its fix


def test_a_model_fix_with_optional_chaining_is_held_back_on_an_old_node(model_settings, serve, fake_github,
                                                                       model_server, tenant_id):
    chain = {"edits": [{"search": "return user && user.name;", "replace": "return user?.name;"}],
             "confidence": 0.95, "rationale": "an optional chain says the same"}
    model_server.script_chat(chain, chain, chain)  # useOptionalChain's fix is unsafe: the model's to make
    fake_github.push(REPO, "main", {
        "package.json": json.dumps({"name": "old", "engines": {"node": ">=6"}}),
        "biome.json": json.dumps({"linter": {"rules": {"recommended": False,
                                                       "complexity": {"useOptionalChain": "error"}}}}),
        "lib/name.js": "export function nameOf(user) {\n  return user && user.name;\n}\n"})
    reply = command(serve, fake_github, tenant_id, "/refactor lib/name.js")
    assert memfix_pulls(fake_github) == []
    assert "optional chaining" in reply and "Node 6.0+" in reply
    [ask, *_] = [body for path, body in model_server.requests if path.endswith("/chat/completions")]
    assert "```javascript\n" in ask["messages"][-1]["content"]  # the model is shown JavaScript as JavaScript


def test_a_minified_bundle_and_a_generated_folder_are_never_touched(serve, fake_github, tenant_id):
    bundle = "var a=1;" * 700_000  # 5.6 MB on one line
    push(serve, fake_github, tenant_id, {"public/app.min.js": bundle, "dist/index.js": LABEL.replace(": number[]", "")
                                         .replace("): number {", ") {"), "src/first.ts": LABEL})
    titles = [p["title"] for p in memfix_pulls(fake_github)]
    assert any("src/first.ts" in t for t in titles) and not any("dist/" in t or "app.min.js" in t for t in titles)
    [js] = [r for r in runs(serve, tenant_id) if r["language"] == "javascript"]
    assert js["phase"] == "done"


def test_a_push_that_brings_a_missing_semicolon_gets_it_where_the_teams_semi_asks_and_nowhere_else(
        serve, fake_github, tenant_id):
    rules = {"semi": ["error", "always"], "quotes": ["error", "single"], "indent": ["error", 4]}
    before = "const a = 1\nexport default a;\n"  # its missing semicolon is older than the push: left to the team
    base = fake_github.push(REPO, "main", {".eslintrc.json": json.dumps({"rules": rules}), "lib/a.js": before})
    after = fake_github.push(REPO, "main", {"lib/a.js": before + "console.log(\"a\", {b: 1})\n"})
    serve("push", P.push(installation=tenant_id, repo=REPO, before=base, after=after,
                         commits=[{"added": [], "modified": ["lib/a.js"], "removed": []}]))
    assert serve.drain()

    [pr] = memfix_pulls(fake_github)
    assert fake_github.file(REPO, pr["head"]["ref"], "lib/a.js") == \
        "const a = 1\nexport default a;\nconsole.log('a', {b: 1});\n"  # only its own rules: no spacing, no indent
    assert "format/semi" in pr["body"] and "format/quotes" in pr["body"] and "`semi`" in pr["body"]
    assert "Biome's fixes for" in pr["body"] and "ruff" not in pr["body"]
