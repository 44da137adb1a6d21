"""The dashboard: server-rendered pages of what memfix learned and what the model saw, sign-in with GitHub, curation,
and one-click App registration. Served by `memfix serve` at `/`, and on AWS by its own function (dashboard_lambda).

Who asks and what they may see is handlers/signin.py's; what every page stands on (the blueprint, `Site`),
handlers/site.py's. The views live on the `dashboard` blueprint; `install` registers it and leaves what they need
on the app as one `Site` (`site()`). Every URL of its own, in Python and in the templates, is built by `url_for`.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import (
    Flask,
    abort,
    current_app,
    flash,
    g,
    redirect,
    request,
    session,
    url_for,
)

from core.errors import MemfixError
from core.memory.types import Stance
from handlers.signin import (
    SESSION_HOURS,
    administers,
    repos_of,
    require_visible,
    require_writable,
    signed_in,
    visible,
    writable,
)
from handlers.site import RepoConverter, Site, bp, page, public_url, site

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.dashboard import Week
    from core.wire import JobResult
    from core.wiring import Services


def install(app: Flask, services: Services) -> None:
    """The dashboard on `app`: cookies signed with MEMFIX_SESSION_SECRET, secure, http-only, same-site."""
    s = services.settings
    app.secret_key = s.session_secret or secrets.token_urlsafe(32)
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax",
                      SESSION_COOKIE_SECURE=bool(s.public_url and s.public_url.startswith("https://")),
                      PERMANENT_SESSION_LIFETIME=SESSION_HOURS * 3600)
    app.extensions["memfix"] = here = Site(services, signs_in=bool(s.github_client_id and s.github_client_secret))
    if not here.signs_in:  # local: for whoever holds the link memfix serve prints, whatever address they seem at
        app.config["MEMFIX_DASHBOARD_TOKEN"] = secrets.token_urlsafe(32)
    app.url_map.converters["repo"] = RepoConverter  # before the blueprint's rules, which use it, are added
    app.register_blueprint(bp)


def dashboard_link(app: Flask) -> str:
    """Where a browser opens the dashboard: in local mode with the token that signs it in (printed once, at start)."""
    address = (app.config.get("MEMFIX_ADDRESS") or "http://127.0.0.1").rstrip("/")
    token = app.config.get("MEMFIX_DASHBOARD_TOKEN")
    return f"{address}/?token={token}" if token else f"{address}/"





@bp.get("/")
def index() -> Any:
    s = site().settings
    if g.local:  # this machine's own runs and memory, with registration offered while there is no App
        return installation_page(s.local_installation, register=not s.github_app_id)
    if not s.github_app_id:
        return redirect(url_for("dashboard.setup"))
    if g.who is None:
        return page("signin.html")
    return page("index.html", installations=sorted(g.access))


# ---- pages ----

@bp.get("/installations/<int:installation>")
@signed_in
def installation(installation: int) -> Any:
    return installation_page(installation)


def installation_page(installation: int, register: bool = False) -> str:
    repos_of(installation)
    view = site().board.installation(installation, lambda repo: visible(installation, repo))
    return page("installation.html", view=view, chart=_chart(view.weeks), register=register)


@bp.get("/installations/<int:installation>/repos/<repo:repo>")
@signed_in
def repository(installation: int, repo: str) -> Any:
    require_visible(installation, repo)
    board = site().board
    known = board.repositories(installation, lambda name: visible(installation, name)) if g.local else [repo]
    if repo not in known:  # this machine's memory never heard of it (GitHub's word decides for an App's visitors)
        held = ", ".join(known[:50]) + (f" and {len(known) - 50} more" if len(known) > 50 else "") if known \
            else "none yet"
        return page("message.html", title=f"No memory of {repo}",
                    text=f"memfix has no memory of {repo} in this installation: no run, pull request or "
                         f"installation names it. Memory holds: {held}."), 404
    filters = {k: request.args.get(k, "") for k in ("type", "severity", "category")}
    view = board.repository(installation, repo, filters, request.args.get("q", "")[:500])
    return page("repository.html", view=view, may_write=writable(installation, repo),
                curations=board.curations(installation, repo))


@bp.get("/runs/<int:run_id>")
@signed_in
def run(run_id: int) -> Any:
    board = site().board
    tenant = board.run_installation(run_id, sorted(g.access))
    view = board.run(tenant, run_id) if tenant is not None else None
    if tenant is None or view is None or not visible(tenant, view.run.repository):
        abort(404)
    return page("run.html", view=view)


@bp.get("/installations/<int:installation>/health")
@signed_in
def health(installation: int) -> Any:
    board = site().board
    repos = board.repositories(installation, lambda repo: visible(installation, repo))
    return page("health.html", view=board.health(installation, repos), may_administer=administers(installation))


# ---- curation: through the comment commands' own services, recorded ----

@bp.post("/installations/<int:installation>/repos/<repo:repo>/rules")
@signed_in
def rule(installation: int, repo: str) -> Any:
    """A person's decision on a rule, in a place or everywhere: `/remember decision hold|enable RULE [in PLACE]`."""
    require_writable(installation, repo)
    verb, code, place = (request.form.get(k, "").strip() for k in ("action", "rule", "place"))
    if verb not in tuple(Stance):
        abort(400, "action must be enable or hold")
    decision = f"decision {verb} {code}" + (f" in {place}" if place else "")
    flash(_curate(lambda: site().board.curate(installation, repo, g.who, "remember", decision)))
    return redirect(url_for("dashboard.repository", installation=installation, repo=repo))


@bp.post("/installations/<int:installation>/repos/<repo:repo>/insights/<int:insight>")
@signed_in
def insight(installation: int, repo: str, insight: int) -> Any:
    require_writable(installation, repo)
    if request.form.get("action") == "forget":
        flash(_curate(lambda: site().board.curate(installation, repo, g.who, "forget", f"insight:{insight}")))
    elif request.form.get("action") == "edit":
        flash(_curate(lambda: _edit(installation, repo, insight)))
    else:
        abort(400, "action must be forget or edit")
    return redirect(url_for("dashboard.repository", installation=installation, repo=repo))


def _edit(installation: int, repo: str, insight: int) -> JobResult:
    return site().board.edit(installation, repo, g.who, insight, title=request.form.get("title", "")[:300],
                             detail=request.form.get("detail", "")[:4000],
                             suggestion=request.form.get("suggestion", "")[:2000])


@bp.post("/installations/<int:installation>/reembed")
@signed_in
def reembed(installation: int) -> Any:
    if not administers(installation):
        abort(403, "re-embedding the whole installation's memory needs admin rights on its repositories")
    flash(_curate(lambda: f"Embedded {site().board.reembed(installation, g.who)} insight(s)."))
    return redirect(url_for("dashboard.health", installation=installation))


# ---- one-click App registration (only while the App has no credentials) ----

@bp.get("/setup")
def setup() -> Any:
    from core.registration import manifest, new_app_url

    s = site().settings
    if s.github_app_id:
        abort(404)
    if (done := _registered()) is not None:
        return done
    organization = request.args.get("organization", "").strip() or None
    session["setup_state"] = state = secrets.token_urlsafe(24)
    return page("setup.html", action=new_app_url(s.github_web_url, state, organization),
                manifest=manifest(public_url(), request.args.get("name") or None), organization=organization)


@bp.get("/setup/callback")
def setup_callback() -> Any:
    from core.github.client import convert_manifest
    from core.registration import save_credentials

    expected = session.pop("setup_state", None)
    if site().settings.github_app_id:
        abort(404)
    if (done := _registered()) is not None:
        return done
    if not expected or not hmac.compare_digest(request.args.get("state", ""), expected):
        return page("message.html", title="Registration refused",
                    text="This registration did not start on this page, or it was already used. Start again."), 400
    try:
        app = convert_manifest(site().settings, request.args.get("code", ""))
        saved = save_credentials(app, _env_file())
        current_app.config["MEMFIX_SETUP_TOKEN"] = None  # used: registration happens once
        session.pop("MEMFIX_SETUP_TOKEN", None)
    except MemfixError as exc:
        return page("message.html", title="Registration failed",
                    text=f"{exc}. GitHub's codes are good once, for an hour: start again."), 400
    return page("registered.html", app=app, saved=saved, env_file=str(_env_file().resolve()))


def _registered() -> Any:
    """Registration happens once: an App saved by this server is never replaced by a second one."""
    from core.settings import read_env_file

    if not read_env_file(_env_file()).get("GITHUB_APP_ID"):
        return None
    return page("message.html", title="memfix is registered",
                text=f"An App is already saved in {_env_file().resolve()}; restart memfix serve to use it. "
                     "Registration happens once: to register another App, remove its lines from that file "
                     "first."), 409


def _env_file() -> Path:
    return Path(os.environ.get("MEMFIX_ENV_FILE") or ".env")


def _curate(action: Callable[[], str | JobResult]) -> str:
    try:
        result = action()
    except MemfixError as exc:
        return f"Not done: {exc}"
    return result if isinstance(result, str) else result.summary


def _chart(weeks: list[Week]) -> dict[str, Any]:
    """The learning curve as SVG coordinates: PRs opened per week as bars, the acceptance rate as a line."""
    width, height, pad = 640, 180, 24
    if not weeks:
        return {"width": width, "height": height, "bars": [], "line": "", "labels": []}
    step = (width - 2 * pad) / len(weeks)
    top = max((w.opened for w in weeks), default=1) or 1
    bars, points, labels = [], [], []
    for i, w in enumerate(weeks):
        x = pad + i * step
        for kind, value, offset in (("merged", w.merged, 0), ("closed", w.closed, w.merged),
                                    ("ci_failed", w.ci_failed, w.merged + w.closed)):
            h = (height - 2 * pad) * value / top
            y = height - pad - (height - 2 * pad) * offset / top - h
            bars.append({"x": round(x + 2, 1), "y": round(y, 1), "w": round(step * 0.6, 1), "h": round(h, 1),
                         "kind": kind, "title": f"{w.week}: {value} {kind.replace('_', '-')}"})
        if w.acceptance is not None:
            points.append(f"{x + step * 0.3:.1f},{height - pad - (height - 2 * pad) * w.acceptance:.1f}")
        labels.append({"x": round(x + 2, 1), "text": w.week[5:]})
    return {"width": width, "height": height, "bars": bars, "line": " ".join(points), "labels": labels}
