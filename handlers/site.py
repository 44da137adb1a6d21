"""What every dashboard page stands on: the `dashboard` blueprint, the `Site` its views need (kept on the app), the
page every view renders, and the public address. The sign-in (handlers/signin.py) and the views
(handlers/dashboard.py) both add their routes to this one blueprint, so every URL is `dashboard.…` in `url_for`.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from flask import (
    Blueprint,
    current_app,
    g,
    get_flashed_messages,
    render_template,
)
from werkzeug.routing import BaseConverter

if TYPE_CHECKING:


    from core.dashboard import Dashboard
    from core.settings import Settings
    from core.wiring import Services


bp = Blueprint("dashboard", __name__, template_folder=str(resources.files("handlers") / "templates"))


@dataclass(frozen=True)
class Site:
    """What the views need, kept on the app as `app.extensions["memfix"]`. Where the server listens
    (MEMFIX_ADDRESS) and the tokens of the links `memfix serve` prints (MEMFIX_DASHBOARD_TOKEN, made here in local
    mode; the one-time MEMFIX_SETUP_TOKEN) stay in `app.config`: whoever serves the app sets the address once it
    has bound its port, and prints the links."""

    services: Services
    signs_in: bool  # the App's OAuth client is configured; without it, local mode: the printed link, this machine

    @property
    def settings(self) -> Settings:
        return self.services.settings

    @property
    def board(self) -> Dashboard:
        return self.services.dashboard


class RepoConverter(BaseConverter):
    """`<repo:repo>`: a repository's OWNER/NAME, two path segments taken and built whole."""

    regex = "[^/]+/[^/]+"


def site() -> Site:
    here: Site = current_app.extensions["memfix"]
    return here


def page(template: str, **values: Any) -> str:
    # what a curation did, carried in the signed session: a link can never make a page say something
    values.setdefault("message", " ".join(str(m) for m in get_flashed_messages()))
    return render_template(template, local=g.local, who=g.who, csrf=g.csrf, **values)


def public_url() -> str:
    """Where browsers and GitHub reach this server: MEMFIX_PUBLIC_URL, else the address it listens on."""
    return (site().settings.public_url or current_app.config.get("MEMFIX_ADDRESS") or "http://127.0.0.1").rstrip("/")
