"""The docs say what the code does: read from both sides, so a change to one without the other fails here."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = json.loads((ROOT / "core" / "github-app-manifest.json").read_text())
README = (ROOT / "README.md").read_text()
INFRA = (ROOT / "infra" / "README.md").read_text()


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_manual_app_setup_subscribes_to_every_event_the_manifest_does():
    [by_hand] = re.findall(r"Or by hand: create a GitHub App.*?export the settings below", _flat(README))
    listed = by_hand.partition("events:")[2]
    missing = [e for e in MANIFEST["default_events"] if e.replace("_", " ") not in listed]
    assert not missing, f"README's manual setup omits {missing}"


def test_the_deployment_guide_grants_the_permissions_the_manifest_asks_for():
    [said] = re.findall(r"holds the App: permissions (.*?\(read\))", _flat(INFRA))
    writes, _, reads = said.partition("(write")
    for permission, access in MANIFEST["default_permissions"].items():
        name = permission.replace("_", " ").replace("statuses", "commit statuses")
        where = writes if access == "write" else reads
        assert name in where, f"infra/README.md says {permission} is not {access}"


def test_one_figure_for_the_webhook_package_size():
    sizes = set(re.findall(r"webhook function \(a ([\d.]+) MB", _flat(README)) +
                re.findall(r"webhook ([\d.]+) MB, worker", _flat(README)))
    assert len(sizes) == 1, f"README gives the webhook package as {sizes} MB"


def test_make_serve_takes_a_port():
    out = subprocess.run(["make", "-n", "serve", "PORT=8123"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "memfix serve --port 8123" in out
