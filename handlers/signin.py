"""Who asks the dashboard, and what they may see.

With the App's OAuth client configured, a person signs in with GitHub and sees the installations and repositories
GitHub says they can access, curating only where they may write; every query runs under row-level security for one
installation. Without it (local), the dashboard is for the person who started it: the link `memfix serve` prints
carries a token that signs their browser in, and even then only this machine may look (loopback, no proxy's
forwarding header, a Host naming this machine), at the local installation, and every page says so. A page a person
may not see is 404, never another installation's data.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlencode, urlsplit

from flask import (
    abort,
    current_app,
    g,
    redirect,
    request,
    session,
    url_for,
)

from core.errors import MemfixError

if TYPE_CHECKING:
    from collections.abc import Callable

    from werkzeug.wrappers import Response


from handlers.site import bp, page, public_url, site

SESSION_HOURS = 8


# What proxies add to say whom they forward for (waitress is told to leave them in: the local rule must see them).
FORWARDING = ("Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Forwarded-Port",
              "X-Forwarded-Server", "X-Forwarded-By", "X-Real-IP", "X-Client-IP", "X-Cluster-Client-IP",
              "X-Original-Forwarded-For", "CF-Connecting-IP", "True-Client-IP", "Fastly-Client-IP", "Via",
              "X-ProxyUser-Ip", "X-Envoy-External-Address")


WRITERS = ("admin", "write", True)  # True: a session saved before roles were kept (may write)


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
        _signed_in(sid)
    if request.method == "POST" and not hmac.compare_digest(request.form.get("csrf", ""), g.csrf):
        abort(403, "the form's CSRF token does not match this session; reload the page and try again")
    return _without_token() if g.local else None


def _signed_in(sid: str) -> None:
    """Who the session's sign-in says asks, and what they may see; where that lapsed (an hour), stale: GitHub is asked
    again before anything is shown."""
    if found := site().services.sessions.load(sid):
        g.who, g.access = found.login, found.access
    else:
        g.stale = True


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


def require_visible(installation: int, repo: str) -> None:
    if not visible(installation, repo):
        abort(404)


def require_writable(installation: int, repo: str) -> None:
    require_visible(installation, repo)
    if not writable(installation, repo):
        abort(403, "curation needs write access to this repository")


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


def _local_path(path: str) -> str | None:
    """Where to return after signing in: a path on this server only, never another host."""
    ok = path.startswith("/") and not path.startswith("//") and "\\" not in path and not any(c < " " for c in path)
    return path if ok else None


def _loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:
        return False
