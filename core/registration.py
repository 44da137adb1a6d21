"""One-click App registration: memfix's manifest (`core/github-app-manifest.json`, package data) with this server's
addresses is posted to GitHub's manifest flow; the App GitHub creates comes back as credentials written to a `.env`
file (mode 0600) that `memfix serve` reads at start (core/settings.py `get_settings`)."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

from core.errors import PermanentError
from core.settings import read_env_file

MANIFEST = resources.files("core") / "github-app-manifest.json"  # package data
_CREDENTIALS = {  # .env key ← the conversion's field
    "GITHUB_APP_ID": "id", "MEMFIX_APP_SLUG": "slug", "GITHUB_APP_PRIVATE_KEY": "pem",
    "GITHUB_WEBHOOK_SECRET": "webhook_secret", "GITHUB_CLIENT_ID": "client_id", "GITHUB_CLIENT_SECRET": "client_secret",
}


def manifest(public_url: str, name: str | None = None) -> dict[str, Any]:
    """The App as memfix needs it, its webhook, registration callback and sign-in callback at `public_url`."""
    data: dict[str, Any] = json.loads(MANIFEST.read_text(encoding="utf-8"))
    data["hook_attributes"]["url"] = f"{public_url}/webhook"
    data["redirect_url"] = f"{public_url}/setup/callback"
    data["callback_urls"] = [f"{public_url}/oauth/callback"]
    data["url"] = public_url
    if name:
        data["name"] = name[:34]  # GitHub's limit for an App's name
    return data


def new_app_url(web_url: str, state: str, organization: str | None = None) -> str:
    """GitHub's page that takes a manifest: for the signed-in person's account, or for an organisation."""
    owner = f"/organizations/{quote(organization, safe='')}" if organization else ""
    return f"{web_url}{owner}/settings/apps/new?state={quote(state, safe='')}"


def _complete(app: Mapping[str, object]) -> None:
    """PermanentError where GitHub's answer lacks a credential or the private key."""
    missing = [field for field in _CREDENTIALS.values() if not app.get(field)]
    if missing or "PRIVATE KEY" not in str(app.get("pem")):
        raise PermanentError(f"GitHub's answer lacks {', '.join(missing) or 'a private key'}; nothing was saved")


def save_credentials(app: dict[str, Any], path: Path) -> dict[str, str]:
    """Write the new App's credentials into `path` (other lines of an existing file kept), readable by this user
    only; returns what was written, the private values masked, for the page that says so."""
    _complete(app)
    kept = read_env_file(path)
    if kept.get("GITHUB_APP_ID"):  # never replaced by a second registration (another tab, or an attacker's)
        raise PermanentError(f"an App (id {kept['GITHUB_APP_ID']}) is already saved in {path}; nothing was saved")
    values = {**kept, **{key: str(app[field]) for key, field in _CREDENTIALS.items()}}
    values.setdefault("MEMFIX_SESSION_SECRET", secrets.token_urlsafe(32))
    text = "".join(f'{key}="{value.replace(chr(10), chr(92) + "n")}"\n' for key, value in values.items())
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.chmod(path, 0o600)  # an existing file keeps its mode through O_CREAT
    return {key: value if key in ("GITHUB_APP_ID", "MEMFIX_APP_SLUG", "GITHUB_CLIENT_ID") else "(saved)"
            for key, value in values.items()}
