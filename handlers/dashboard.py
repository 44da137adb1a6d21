"""The dashboard: server-rendered pages of what memfix learned and what the model saw, sign-in with GitHub, curation,
and one-click App registration. Served by `memfix serve` at `/`, and on AWS by its own function (dashboard_lambda).

Who sees what: with the App's OAuth client configured, a person signs in with GitHub and sees the installations and
repositories GitHub says they can access, curating only where they may write; every query runs under row-level
security for one installation. Without it (local), the dashboard is for the person who started it: the link `memfix
serve` prints carries a token that signs their browser in, and even then only this machine may look (loopback, no
proxy's forwarding header, a Host naming this machine), at the local installation, and every page says so. A page a
person may not see is 404, never another installation's data.

The views live on the `dashboard` blueprint; `install` registers it and leaves what they need on the app as one
`Site` (`site()`). Every URL of its own, in Python and in the templates, is built by `url_for`.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import secrets
from dataclasses import dataclass
from functools import wraps
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlencode, urlsplit

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    flash,
    g,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.routing import BaseConverter

from core.errors import MemfixError
from core.models import Stance

if TYPE_CHECKING:
    from collections.abc import Callable

    from werkzeug.wrappers import Response

    from core.dashboard import Dashboard, Week
    from core.models import JobResult
    from core.settings import Settings
    from core.wiring import Services

SESSION_HOURS = 8
# What proxies add to say whom they forward for (waitress is told to leave them in: the local rule must see them).
FORWARDING = ("Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Forwarded-Port",
              "X-Forwarded-Server", "X-Forwarded-By", "X-Real-IP", "X-Client-IP", "X-Cluster-Client-IP",
              "X-Original-Forwarded-For", "CF-Connecting-IP", "True-Client-IP", "Fastly-Client-IP", "Via",
              "X-ProxyUser-Ip", "X-Envoy-External-Address")
WRITERS = ("admin", "write", True)  # True: a session saved before roles were kept (may write)

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


def site() -> Site:
    here: Site = current_app.extensions["memfix"]
    return here


def dashboard_link(app: Flask) -> str:
    """Where a browser opens the dashboard: in local mode with the token that signs it in (printed once, at start)."""
    address = (app.config.get("MEMFIX_ADDRESS") or "http://127.0.0.1").rstrip("/")
    token = app.config.get("MEMFIX_DASHBOARD_TOKEN")
    return f"{address}/?token={token}" if token else f"{address}/"


# ---- who asks, and what they may see ----

def public_url() -> str:
    """Where browsers and GitHub reach this server: MEMFIX_PUBLIC_URL, else the address it listens on."""
    return (site().settings.public_url or current_app.config.get("MEMFIX_ADDRESS") or "http://127.0.0.1").rstrip("/")


def holds_link(token_setting: str) -> bool:
    """Whether this browser holds the token of a link memfix serve printed (`token_setting` names it in app.config):
    offered as `?token=`, compared in constant time and then kept in the signed session as a digest (never the token
    itself, and a new start's token makes old sessions void), or kept from before."""
    token = current_app.config.get(token_setting)
    if not token:
        return False
    digest = hashlib.sha256(token.encode()).hexdigest()
    if "token" in request.args:
        if not hmac.compare_digest(request.args["token"].encode(), token.encode()):
            return False
        session[token_setting] = digest
        return True
    return hmac.compare_digest(str(session.get(token_setting, "")).encode(), digest.encode())


def remote_setup() -> bool:
    """MEMFIX_REMOTE_SETUP: /setup and its callback open to whoever holds the one-time token memfix serve printed
    (kept in their signed session for the round trip through GitHub); nothing else opens."""
    return request.endpoint in ("dashboard.setup", "dashboard.setup_callback") and holds_link("MEMFIX_SETUP_TOKEN")


def this_machine(host: str) -> bool:
    """A Host header naming this machine: a page fetched through another name is DNS rebinding."""
    names = {"localhost", "127.0.0.1", "::1", urlsplit(public_url()).hostname}
    try:
        return (urlsplit(f"//{host}").hostname or "") in names
    except ValueError:  # a malformed port or bracket
        return False


@bp.before_request
def who() -> Any:
    """Every dashboard request: who asks (`g.who`), what they may see (`g.access`), and the refusals."""
    g.local, g.csrf = not site().signs_in, session.setdefault("csrf", secrets.token_urlsafe(24))
    g.who, g.access, g.stale = None, {}, False
    if any("\x00" in v for values in request.values.listvalues() for v in values):
        abort(400, "a field of this request contains a NUL character, which memfix neither stores nor searches")
    if g.local:
        if (refused := _local_person()) is not None:
            return refused
    elif sid := session.get("sid"):
        if found := site().services.sessions.load(sid):
            g.who, g.access = found.login, found.access
        else:
            g.stale = True  # what GitHub said lapsed (an hour): ask again before showing anything
    if request.method == "POST" and not hmac.compare_digest(request.form.get("csrf", ""), g.csrf):
        abort(403, "the form's CSRF token does not match this session; reload the page and try again")
    return _without_token() if g.local else None


def _local_person() -> Any:
    """Local mode: the person holding the link memfix serve printed, asking from this machine; else a refusal."""
    if remote_setup():  # registration from the container's host, say: the token shown in the log only
        return None
    _this_machine_only()
    if not holds_link("MEMFIX_DASHBOARD_TOKEN"):  # loopback is no identity: a proxy adding no header looks local
        return _open_the_link()
    g.who, g.access = "local", {site().settings.local_installation: None}  # None: every repository, with write
    return None


def _open_the_link() -> Any:
    """What a browser without the link's token reads: where the link is, and nothing of the dashboard."""
    where = ("Open the link memfix serve printed as it started, on its line `memfix listening on …, dashboard at "
             "http://…/?token=…` in the terminal or log where it runs: it signs this browser in. Each start prints "
             "a new one.")
    if "token" in request.args:
        title, why = "This link is not this dashboard's", ("Its token is not the one this memfix serve printed: a "
                                                           "link from an earlier start, or changed on the way.")
    else:
        title, why = "Open the link memfix serve printed", "This dashboard is for the person who started it."
    return page("message.html", title=title, text=f"{why} {where}"), 403


def _without_token() -> Any:
    """The page asked for again without its token (now kept in the session), so the token stays out of the history
    and of any Referer; None when there is none to drop."""
    if "token" not in request.args or request.method != "GET":
        return None
    query = urlencode([(k, v) for k, v in request.args.items(multi=True) if k != "token"])
    return redirect(request.script_root + request.path + (f"?{query}" if query else ""))


def _this_machine_only() -> None:
    proxied = [h for h in FORWARDING if h in request.headers]
    if proxied or not _loopback(request.remote_addr) or not this_machine(request.host):
        setup = (" To register the GitHub App from this browser, open the one-time link memfix serve printed in "
                 "its log (`Register the GitHub App from any machine, once: …/setup?token=…`; with compose: "
                 "`docker compose logs web`).") if current_app.config.get("MEMFIX_SETUP_TOKEN") else ""
        abort(403, "this dashboard has no sign-in configured, so it answers this machine only: a request "
              "from another address, through a proxy (" + (", ".join(proxied) or "none seen") + ") or for "
              "another host name is refused. To serve it through a proxy, configure sign-in "
              "(GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET)." + setup)


_Page = TypeVar("_Page")  # what a view returns


def signed_in(view: Callable[..., _Page]) -> Callable[..., _Page | Response]:
    @wraps(view)
    def wrapper(**kwargs: Any) -> _Page | Response:
        if g.who is None:
            if g.stale and request.method == "GET":  # GitHub answers at once for a person still authorized
                session["next"] = request.full_path
                return redirect(url_for("dashboard.login"))
            return redirect(url_for("dashboard.index"))
        return view(**kwargs)
    return wrapper


def repos_of(installation: int) -> dict[str, str] | None:
    if installation not in g.access:
        abort(404)
    repos: dict[str, str] | None = g.access[installation]
    return repos


def visible(installation: int, repo: str) -> bool:
    repos = repos_of(installation)
    return repos is None or repo in repos


def writable(installation: int, repo: str) -> bool:
    repos = repos_of(installation)
    return repos is None or repos.get(repo) in WRITERS


def administers(installation: int) -> bool:
    """Installation-wide work (re-embedding all its memory) is for admins: of every repository they can see."""
    repos = repos_of(installation)
    return repos is None or bool(repos) and all(role == "admin" for role in repos.values())


def _require_visible(installation: int, repo: str) -> None:
    if not visible(installation, repo):
        abort(404)


def _require_writable(installation: int, repo: str) -> None:
    _require_visible(installation, repo)
    if not writable(installation, repo):
        abort(403, "curation needs write access to this repository")


def page(template: str, **values: Any) -> str:
    # what a curation did, carried in the signed session: a link can never make a page say something
    values.setdefault("message", " ".join(str(m) for m in get_flashed_messages()))
    return render_template(template, local=g.local, who=g.who, csrf=g.csrf, **values)


# ---- sign-in ----

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


@bp.get("/login")
def login() -> Any:
    s = site().settings
    if not site().signs_in:
        return redirect(url_for("dashboard.index"))
    session["oauth_state"] = state = secrets.token_urlsafe(24)
    query = urlencode({"client_id": s.github_client_id, "state": state, "redirect_uri": _oauth_callback_url()})
    return redirect(f"{s.github_web_url}/login/oauth/authorize?{query}")


def _oauth_callback_url() -> str:
    """GitHub's way back after sign-in, at the public address: a request's Host header never builds it."""
    return public_url() + url_for("dashboard.oauth_callback")


@bp.get("/oauth/callback")
def oauth_callback() -> Any:
    from core.github.client import oauth_token, visitor

    s = site().settings
    expected, after = session.pop("oauth_state", None), _local_path(session.pop("next", ""))
    if not site().signs_in or not expected or not hmac.compare_digest(request.args.get("state", ""), expected):
        return page("message.html", title="Sign-in refused", text="The sign-in did not start here or has "
                    "expired. Sign in again."), 400
    try:
        person = visitor(s, oauth_token(s, request.args.get("code", ""), _oauth_callback_url()))
    except MemfixError as exc:
        return page("message.html", title="Sign-in failed", text=str(exc)), 400
    sid = secrets.token_urlsafe(32)
    site().services.sessions.save(sid, person.login, person.access)  # asked again after an hour
    session.clear()
    session.update(sid=sid, csrf=secrets.token_urlsafe(24))
    session.permanent = True
    return redirect(after or url_for("dashboard.index"))


@bp.post("/logout")
def logout() -> Any:
    if sid := session.get("sid"):
        site().services.sessions.end(sid)
    session.clear()
    return redirect(url_for("dashboard.index"))


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
    _require_visible(installation, repo)
    board = site().board
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
    _require_writable(installation, repo)
    verb, code, place = (request.form.get(k, "").strip() for k in ("action", "rule", "place"))
    if verb not in tuple(Stance):
        abort(400, "action must be enable or hold")
    decision = f"decision {verb} {code}" + (f" in {place}" if place else "")
    flash(_curate(lambda: site().board.curate(installation, repo, g.who, "remember", decision)))
    return redirect(url_for("dashboard.repository", installation=installation, repo=repo))


@bp.post("/installations/<int:installation>/repos/<repo:repo>/insights/<int:insight>")
@signed_in
def insight(installation: int, repo: str, insight: int) -> Any:
    _require_writable(installation, repo)
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


def _local_path(path: str) -> str | None:
    """Where to return after signing in: a path on this server only, never another host."""
    ok = path.startswith("/") and not path.startswith("//") and "\\" not in path and not any(c < " " for c in path)
    return path if ok else None


def _loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:
        return False


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
