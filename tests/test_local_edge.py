"""The local dashboard's walls and the webhook's body bound, on a real `memfix serve` process (waitress in front):
the link with its token that the start line prints (a proxy that adds no header, a wrong token, a form without the
session), every forwarding header a proxy adds, a DNS-rebinding Host, IPv6 loopback, a source that is not this
machine (from a network namespace this test makes), registration once, and a body larger than any delivery refused
without the server taking it in."""

from __future__ import annotations

import http.client
import os
import re
import secrets
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from handlers.signin import FORWARDING
from tests.conftest import login_url
from tests.test_serve_stop import _free_port

ROOT = Path(__file__).resolve().parents[1]
TENANT = 73_000_001
REPO = "acme/api"


def wrong(token: str) -> str:
    """The token with its last character changed (to one it is not: a random token may end in any)."""
    return token[:-1] + ("y" if token.endswith("x") else "x")


def start(pg_url: str, tmp_path: Path, *args: str, **extra: str) -> tuple[subprocess.Popen, int, str]:
    """The server, its port, and the dashboard's link from its start line."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": pg_url, "DATABASE_APP_URL": login_url(pg_url),
           "GITHUB_WEBHOOK_SECRET": "s",
           "GITHUB_APP_ID": "1", "MEMFIX_LOCAL_INSTALLATION": str(TENANT), "MEMFIX_ENV_FILE": str(tmp_path / ".env"),
           "MEMFIX_QUEUE_NAME": f"edge-{uuid.uuid4().hex[:8]}", **extra}
    for name in ("GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET", "MEMFIX_PUBLIC_URL"):
        env.setdefault(name, "")
    server = subprocess.Popen([sys.executable, "-m", "handlers.cli", "serve", "--port", str(port), "--grace", "1",
                               *args], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    assert "memfix listening" in line, server.stderr.read() if server.poll() is not None else line
    return server, port, re.search(r"dashboard at (\S+)", line)[1]


def stop(server: subprocess.Popen) -> str:
    """What it wrote after its start line."""
    server.terminate()
    try:
        return "".join(server.communicate(timeout=30))
    except subprocess.TimeoutExpired:
        server.kill()
        return "".join(server.communicate())


def ask(host: str, port: int, path: str, headers: dict[str, str] | None = None, *,
        form: dict[str, str] | None = None) -> http.client.HTTPResponse:
    """One request (a POST when `form` is given), read whole; the answer's headers ride along."""
    conn = http.client.HTTPConnection(host, port, timeout=20)
    try:
        body = None if form is None else urlencode(form)
        extra = {} if form is None else {"Content-Type": "application/x-www-form-urlencoded"}
        conn.request("GET" if form is None else "POST", path, body=body, headers={**extra, **(headers or {})})
        answer = conn.getresponse()
        answer.text = answer.read().decode("utf-8", "replace")  # type: ignore[attr-defined]
        return answer
    finally:
        conn.close()


def get(host: str, port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    answer = ask(host, port, path, headers)
    return answer.status, answer.text  # type: ignore[attr-defined]


def signed_in(link: str) -> dict[str, str]:
    """The cookie header of a browser that opened the printed link (it is sent on to the page without the token)."""
    parts = urlsplit(link)
    answer = ask(parts.hostname or "", parts.port or 80, f"{parts.path}?{parts.query}")
    assert answer.status == 302 and "token" not in answer.getheader("Location", "token"), answer.text
    return {"Cookie": answer.getheader("Set-Cookie", "").split(";")[0]}


@dataclass(frozen=True)
class Local:
    port: int
    link: str
    cookie: dict[str, str]  # a browser signed in through the link


@pytest.fixture(scope="module")
def local(pg_url, tmp_path_factory):
    server, port, link = start(pg_url, tmp_path_factory.mktemp("edge"))
    yield Local(port, link, signed_in(link))
    stop(server)


def test_this_machine_sees_the_local_dashboard_through_the_link_it_printed(local):
    assert local.link.startswith(f"http://127.0.0.1:{local.port}/?token=")
    status, page = get("127.0.0.1", local.port, f"/installations/{TENANT}", local.cookie)
    assert status == 200 and "Local mode" in page
    assert get("127.0.0.1", local.port, f"/installations/{TENANT}", {**local.cookie,
                                                                     "Host": f"localhost:{local.port}"})[0] == 200


@pytest.mark.parametrize("header", FORWARDING)
def test_a_request_a_proxy_forwarded_is_refused(local, header):
    status, page = get("127.0.0.1", local.port, f"/installations/{TENANT}", {**local.cookie, header: "203.0.113.7"})
    assert status == 403 and header in page and "sign-in" in page


def test_the_local_dashboard_is_for_whoever_holds_the_link_its_start_line_printed(pg_url, tmp_path, cli):
    cli("remember", "pain_point security high: Payroll keys in the repository", "--repo", REPO,
        "--installation", str(TENANT))
    server, port, link = start(pg_url, tmp_path)
    token = parse_qs(urlsplit(link).query)["token"][0]
    repo, rules = f"/installations/{TENANT}/repos/{REPO}", f"/installations/{TENANT}/repos/{REPO}/rules"
    proxied = {"Host": f"127.0.0.1:{port}"}  # what a reverse proxy adding no header sends: plain loopback, this Host
    try:
        for path in ("/", f"/installations/{TENANT}", repo, f"/installations/{TENANT}/health", "/runs/1", "/setup"):
            status, page = get("127.0.0.1", port, path, proxied)
            assert status == 403 and "Open the link memfix serve printed" in page and "Payroll" not in page, path
        assert "on its line `memfix listening on …, dashboard at http://…/?token=…` in the terminal" in page
        status, page = get("127.0.0.1", port, f"/?token={wrong(token)}", proxied)
        assert status == 403 and "This link is not this dashboard" in page and "Payroll" not in page
        assert ask("127.0.0.1", port, rules, proxied, form={"action": "hold", "rule": "F401"}).status == 403

        browser = {**proxied, **signed_in(link)}
        status, page = get("127.0.0.1", port, repo, browser)
        assert status == 200 and "Payroll keys in the repository" in page and 'id="rule-F401"' not in page
        form = {"action": "hold", "rule": "F401", "csrf": re.search(r'name="csrf" value="([^"]+)"', page)[1]}
        assert ask("127.0.0.1", port, rules, browser, form=form).status == 302
        assert 'id="rule-F401"' in get("127.0.0.1", port, repo, browser)[1]  # the form of a signed-in browser did
        assert get("127.0.0.1", port, f"/?token={wrong(token)}", browser)[0] == 403  # a wrong token, whoever sends it
    finally:
        said = stop(server)
    assert token not in said  # printed on the start line only


@pytest.mark.parametrize("host", ["rebind.attacker.example", f"rebind.attacker.example:{8000}", "127.0.0.1.nip.io",
                                  "[::ffff:7f00:1]", "localhost:notaport"])
def test_a_page_asked_for_under_another_name_is_refused(local, host):
    assert get("127.0.0.1", local.port, f"/installations/{TENANT}", {**local.cookie, "Host": host})[0] in (400, 403)
    assert get("127.0.0.1", local.port, "/setup", {**local.cookie, "Host": host})[0] in (400, 403)


def test_ipv6_loopback_is_this_machine(pg_url, tmp_path):
    try:
        server, port, link = start(pg_url, tmp_path, "--host", "::1")
    except AssertionError as exc:
        pytest.skip(f"this machine cannot listen on [::1]: {exc}")
    try:
        cookie = signed_in(link)
        assert get("::1", port, f"/installations/{TENANT}", cookie)[0] == 200
        assert get("::1", port, f"/installations/{TENANT}", {**cookie, "Host": "attacker.example"})[0] == 403
    finally:
        stop(server)


@dataclass(frozen=True)
class Peer:
    namespace: str  # a network namespace: a second host on this machine
    host: str  # this machine's address on the link between them


@pytest.fixture
def peer():
    """A second host on this machine: a network namespace joined to this one by a veth pair, on a /30 of
    10.213.0.0/16 drawn at random (parallel tests, and test runs of other checkouts, each have their own link)."""
    name, here, there = f"mfx-{uuid.uuid4().hex[:6]}", f"mfx{uuid.uuid4().hex[:6]}", f"mfx{uuid.uuid4().hex[:6]}"
    link, first = secrets.randbelow(256), secrets.randbelow(64) * 4  # 10.213.link.first/30
    host, other = f"10.213.{link}.{first + 1}", f"10.213.{link}.{first + 2}"
    steps = [["ip", "netns", "add", name], ["ip", "link", "add", here, "type", "veth", "peer", "name", there],
             ["ip", "link", "set", there, "netns", name], ["ip", "addr", "add", f"{host}/30", "dev", here],
             ["ip", "link", "set", here, "up"],
             ["ip", "netns", "exec", name, "ip", "addr", "add", f"{other}/30", "dev", there],
             ["ip", "netns", "exec", name, "ip", "link", "set", there, "up"]]
    try:
        for step in steps:
            subprocess.run(step, check=True, capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as exc:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)
        pytest.skip(f"no network namespace can be made here ({exc}): the non-loopback source is not tried")
    yield Peer(name, host)
    subprocess.run(["ip", "link", "del", here], capture_output=True)
    subprocess.run(["ip", "netns", "del", name], capture_output=True)


def test_a_source_that_is_not_this_machine_is_refused(pg_url, tmp_path, peer):
    server, port, _ = start(pg_url, tmp_path, "--host", peer.host)
    try:
        probe = ("import http.client,sys; c = http.client.HTTPConnection(sys.argv[2], int(sys.argv[1]), timeout=20);"
                 f" c.request('GET', '/installations/{TENANT}', headers={{'Host': 'localhost'}});"
                 " print(c.getresponse().status)")
        out = subprocess.run(["ip", "netns", "exec", peer.namespace, sys.executable, "-c", probe, str(port), peer.host],
                             capture_output=True, text=True, timeout=60)
        assert out.stdout.strip() == "403", out.stderr
    finally:
        stop(server)


def test_registration_happens_once(pg_url, tmp_path):
    (tmp_path / ".env").write_text('GITHUB_APP_ID="4242"\n')  # saved by a first registration, not yet restarted
    server, port, link = start(pg_url, tmp_path, GITHUB_APP_ID="")
    try:
        cookie = signed_in(link)
        status, page = get("127.0.0.1", port, "/setup", cookie)
        assert status == 409 and "already saved" in page
        assert get("127.0.0.1", port, "/setup/callback?code=attacker&state=x", cookie)[0] == 409
    finally:
        stop(server)
    assert (tmp_path / ".env").read_text() == 'GITHUB_APP_ID="4242"\n'


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_body_larger_than_any_delivery_is_refused_without_being_taken_in(pg_url, tmp_path):
    server, port, _ = start(pg_url, tmp_path, MEMFIX_MAX_BODY_BYTES=str(1024 * 1024))
    try:
        before = _rss_kib(server.pid)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.putrequest("POST", "/webhook")  # says 400 MiB, sends a little: refused on what it says
        conn.putheader("Content-Length", str(400 * 1024 * 1024))
        conn.endheaders()
        conn.send(b"{" * 4096)
        assert conn.getresponse().status == 413
        conn.close()
        status, sent = _chunked(port, 64)  # 64 MiB, chunked: no length to refuse it by
        assert status in ("413", "reset") and sent < 32 * 1024 * 1024, (status, sent)  # cut off long before the end
        grown = _rss_kib(server.pid) - before
        assert grown < 32 * 1024, f"the server grew by {grown} KiB taking in a refused body"
    finally:
        stop(server)


def _chunked(port: int, mebibytes: int) -> tuple[str, int]:
    """POST a chunked body of `mebibytes`; (the answer's status, or "reset" when the server hung up on the sender
    first, as it may once it has answered; the bytes sent by then)."""
    import socket

    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"100000\r\n" + b"x" * 0x100000 + b"\r\n"
        try:
            for _ in range(mebibytes):
                sock.sendall(chunk)
                sent += len(chunk)
            sock.sendall(b"0\r\n\r\n")
        except OSError:  # refused mid-body: the answer may still be readable
            pass
        try:
            answer = sock.recv(64)
        except OSError:
            return "reset", sent
        return (answer.split(b" ")[1].decode() if answer.startswith(b"HTTP/") else "reset"), sent


def test_registration_from_another_machine_needs_the_one_time_token_from_the_log(pg_url, tmp_path, peer):
    server, port, dashboard = start(pg_url, tmp_path, "--host", peer.host, GITHUB_APP_ID="",
                                    MEMFIX_REMOTE_SETUP="1")
    try:
        link = server.stdout.readline().strip()
        assert link.startswith(f"Register the GitHub App from any machine, once: http://{peer.host}:")
        token = link.rsplit("token=", 1)[1]
        probe = ("import http.client,sys; c = http.client.HTTPConnection(sys.argv[4], int(sys.argv[1]), timeout=20);"
                 " c.request('GET', sys.argv[2], headers={'Host': 'localhost', 'Cookie': sys.argv[3]});"
                 " a = c.getresponse(); b = a.read(); print(a.status, a.getheader('Location', '-'),"
                 " a.getheader('Set-Cookie', '') or '-', 'names-the-link' if b'one-time link' in b else 'silent')")

        def answer(path: str, cookie: str = "") -> list[str]:
            out = subprocess.run(["ip", "netns", "exec", peer.namespace, sys.executable, "-c", probe, str(port), path,
                                  cookie, peer.host], capture_output=True, text=True, timeout=60)
            return out.stdout.split() or [out.stderr]

        def status(path: str, cookie: str = "") -> str:
            return answer(path, cookie)[0]
        opened = answer(f"/setup?token={token}")  # the container's host, say, with the link from the log …
        assert opened[:2] == ["302", "/setup"]  # … is sent on without the token, kept in its session
        assert status("/setup", opened[2].rstrip(";")) == "200"
        assert status("/setup") == "403" and status(f"/setup?token={wrong(token)}") == "403"
        assert status(f"/installations/{TENANT}?token={token}") == "403"  # the token opens registration only
        assert status("/setup/callback?code=x&state=y") == "403"
        assert status(urlsplit(dashboard).path + "?" + urlsplit(dashboard).query) == "403"  # this machine only
        assert answer("/")[:1] + answer("/")[-1:] == ["403", "names-the-link"]  # the refusal says where the way in is
    finally:
        stop(server)
