"""The fake GitHub as a process of its own, and the test's handle on it.

`python -m tests.fakes.github_process --fd N` serves a FakeGitHub (tests/fakes/github.py) on the listening socket N
it inherits from the test, which bound it: its URL is known before the process starts, so memfix serve can start
beside it, and no port is free to be taken in between (without --fd it takes an ephemeral port). The App's private
key comes in FAKE_GITHUB_APP_KEY, so the test and memfix sign with the key this fake checks. It prints its URL on its
first line once it serves, and stops on SIGTERM or SIGINT, or when the process that started it is gone.

Besides GitHub's API it answers the test under /_fake/ (this process only, not the FakeGitHub in a thread):
    GET  /_fake/names              {"methods": [...], "attributes": [...]}: what may be called and read
    POST /_fake/call               {"method": "push", "args": [...], "kwargs": {...}} → {"result": ...}
    GET  /_fake/attributes/<name>  → {"value": ...};  PUT with {"value": ...} sets it
An ApiError of the fake comes back as {"error": "ApiError", "status", "message"}, anything else as its traceback.

`GitHubProcess` is the test's side: a context manager that starts and stops that process and forwards calls to it,
so a test reads `gh.add_repo(...)`, `gh.pulls(...)`, `gh.wait_for(...)` as it does with the fake in a thread.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import threading
import traceback
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

from cryptography.hazmat.primitives import serialization
from flask import Flask, Response, request

from tests.fakes.github import ApiError, AppKey, FakeGitHub, generate_app_key
from tests.fakes.process import Child, wait_for

KEY_VARIABLE = "FAKE_GITHUB_APP_KEY"
CONTROL = "/_fake/"
# Public methods that do not travel as JSON: the server's own life, a Python callable, a Hold of threading Events.
LOCAL_ONLY = frozenset({"start", "stop", "wait_for", "hold_next"})


# ---- the process ----


def app_key_from(private_pem: str) -> AppKey:
    key = serialization.load_pem_private_key(private_pem.encode(), password=None)
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo)
    return AppKey(private_pem, public.decode())


def catalogue(fake: FakeGitHub) -> dict[str, list[str]]:
    """The FakeGitHub's public methods the test may call, and its public attributes it may read and set."""
    public = [name for name in dir(fake) if not name.startswith("_") and name not in LOCAL_ONLY | {"app", "name"}]
    methods = [name for name in public if callable(getattr(type(fake), name, None))]
    return {"methods": methods, "attributes": [name for name in public if name not in methods]}


def control_app(fake: FakeGitHub) -> Flask:
    app = Flask("fake_github_control")
    names = catalogue(fake)

    @app.get(f"{CONTROL}names")
    def listed() -> Response:
        return _json(names)

    @app.post(f"{CONTROL}call")
    def call() -> Response:
        order = request.get_json()
        name = order["method"]
        if name not in names["methods"]:
            return _json({"error": "AttributeError", "message": f"the fake GitHub has no method {name!r} to call "
                                                                f"over HTTP"}, 404)
        return _json({"result": getattr(fake, name)(*order.get("args", ()), **order.get("kwargs", {}))})

    @app.route(f"{CONTROL}attributes/<name>", methods=["GET", "PUT"])
    def attribute(name: str) -> Response:
        if name not in names["attributes"]:
            return _json({"error": "AttributeError", "message": f"the fake GitHub has no attribute {name!r}"}, 404)
        if request.method == "PUT":
            setattr(fake, name, request.get_json()["value"])
            return _json({"value": None})
        return _json({"value": getattr(fake, name)})

    @app.errorhandler(ApiError)
    def refused(exc: ApiError) -> Response:
        return _json({"error": "ApiError", "status": exc.status, "message": exc.message}, 422)

    @app.errorhandler(Exception)
    def failed(exc: Exception) -> Response:
        return _json({"error": type(exc).__name__, "message": str(exc),
                      "traceback": "".join(traceback.format_exception(exc))}, 500)

    return app


def _json(value: Any, status: int = 200) -> Response:
    """Strict JSON: a value JSON cannot carry (a timedelta, bytes) is an error here, not a string there."""
    return Response(json.dumps(value), status=status, mimetype="application/json")


class _WithControl:
    """GitHub's API, and the test's control under /_fake/ (which GitHub's token check would refuse)."""

    def __init__(self, api: Callable[..., Any], control: Flask):
        self.api, self.control = api, control

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        app = self.control if environ.get("PATH_INFO", "").startswith(CONTROL) else self.api
        return app(environ, start_response)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fakes.github_process",
                                     description="The fake GitHub as a process of its own.")
    parser.add_argument("--fd", type=int, help="a listening socket inherited from the parent process")
    parser.add_argument("--app-id", type=int, default=4242)
    args = parser.parse_args(argv)
    key = os.environ.get(KEY_VARIABLE)
    fake = FakeGitHub(app_id=args.app_id, app_key=app_key_from(key) if key else None)
    fake.app = _WithControl(fake.app, control_app(fake))
    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())
    parent = os.getppid()
    fake.start(fd=args.fd)
    print(fake.url, flush=True)
    while not stopping.wait(0.5) and os.getppid() == parent:  # a parent killed outright never sends SIGTERM
        pass
    fake.stop()
    return 0


# ---- the test's side ----


class FakeGitHubError(RuntimeError):
    """A call the fake GitHub process could not answer: its traceback, from that process."""


_OWN = frozenset({"folder", "app_key", "app_id", "url"})  # the handle's own attributes, never the process's


class GitHubProcess:
    """The fake GitHub in a process of its own: `with GitHubProcess(tmp_path) as gh:`. It answers what a FakeGitHub
    answers — `gh.url`, `gh.app_id`, `gh.private_key_pem`, any public method (`gh.push(...)`, `gh.pulls(...)`),
    attributes read and set (`gh.requests`) — over HTTP as JSON, so tuples come back as lists, and a method that takes
    or returns Python objects (hold_next) stays with the fake in a thread. `gh.wait_for(condition)` polls here.
    `start()` returns at once (requests wait in the socket's queue meanwhile); `ready()` waits for its first line."""

    def __init__(self, folder: Path, *, app_key: AppKey | None = None, app_id: int = 4242):
        self.folder, self.app_key, self.app_id = folder, app_key or generate_app_key(), app_id
        self._child: Child | None = None
        self._names: dict[str, list[str]] | None = None

    @property
    def private_key_pem(self) -> str:
        return self.app_key.private_pem

    def start(self) -> Self:
        with socket.socket() as listener:  # closed here once the child holds its own copy
            listener.bind(("127.0.0.1", 0))
            listener.listen(128)
            self.url = f"http://127.0.0.1:{listener.getsockname()[1]}"
            self._child = Child("fake-github", ["tests.fakes.github_process", "--fd", str(listener.fileno()),
                                                "--app-id", str(self.app_id)], folder=self.folder,
                                env={**os.environ, KEY_VARIABLE: self.app_key.private_pem},
                                pass_fds=[listener.fileno()])
        return self

    def ready(self, timeout: float = 30.0) -> None:
        line = self.process.first_line(timeout)
        if line != self.url:
            raise AssertionError(f"the fake GitHub process says it serves {line!r}, not {self.url}")

    def stop(self) -> None:
        if self._child is not None:
            self._child.stop(timeout=10)

    def __enter__(self) -> Self:
        self.start()
        self.ready()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def log(self) -> str:
        return self.process.log()

    def wait_for(self, condition: Callable[[], Any], timeout: float = 60.0, what: str = "") -> Any:
        """`condition()`'s first truthy value (it may call this fake's methods); an AssertionError after `timeout`."""
        return wait_for(condition, timeout, what, self.process)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in _OWN:  # `url` before start(), copy's probes: nothing to ask the process
            raise AttributeError(name)
        names = self._catalogue()
        if name in names["methods"]:
            return lambda *args, **kwargs: self._ask("POST", "call", {"method": name, "args": args,
                                                                      "kwargs": kwargs})["result"]
        if name in names["attributes"]:
            return self._ask("GET", f"attributes/{name}")["value"]
        raise AttributeError(f"the fake GitHub has no {name!r} (or it does not travel over HTTP)")

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_") or name in _OWN:
            object.__setattr__(self, name, value)
        elif name in self._catalogue()["attributes"]:
            self._ask("PUT", f"attributes/{name}", {"value": value})
        else:
            raise AttributeError(f"the fake GitHub has no attribute {name!r} to set")

    def _catalogue(self) -> dict[str, list[str]]:
        if self._names is None:
            self._names = self._ask("GET", "names")
        return self._names

    @property
    def process(self) -> Child:
        """The process this handle started."""
        if self._child is None:
            raise RuntimeError("the fake GitHub process has not been started: use `with GitHubProcess(...)`")
        return self._child

    def _ask(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        asked = urllib.request.Request(f"{self.url}{CONTROL}{path}", data=data, method=method,
                                       headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(asked, timeout=30) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as exc:
            problem = json.load(exc)
        except urllib.error.URLError:
            self.process.check()  # it died: say what it said
            raise
        if problem["error"] == "ApiError":
            raise ApiError(problem["status"], problem["message"])
        if problem["error"] == "AttributeError":
            raise AttributeError(problem["message"])
        raise FakeGitHubError(f"{method} {CONTROL}{path} {body!r} failed in the fake GitHub process:\n"
                              f"{problem.get('traceback') or problem['message']}")


if __name__ == "__main__":
    raise SystemExit(main())
