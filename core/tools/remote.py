"""The sandbox on AWS: a fixer function of its own (template.yaml `FixerFunction`: no permissions, no VPC
configuration, no secrets, no environment of memfix's) that installs the team's tool from its registry and runs it on
the copy it is handed, invoked by the worker. Lambda gives no user namespaces, so no bubblewrap: the function is the
sandbox — there is nothing of memfix's in it to read but the code that installs and runs the tool, and its role may
call nothing.

The worker's paths are not the function's. What a command names under the scratch copy, the tool's folder or its
runtime's goes as a mark the function puts its own path in; the function's paths in what the tool prints come back
as the worker's (the copy as the sandbox's `/sandbox/work`), so a linter reads the same output from either sandbox.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from core import deadline
from core.tools import process
from core.tools.install import InstallFailed, ToolCache
from core.tools.pins import Pin
from core.tools.process import Finished, ToolFailed
from core.tools.sandbox import WORK, Copies

WORK_MARK = "\x00work\x00"
MAX_REQUEST_BYTES = 5 << 20  # Lambda takes 6 MB in a synchronous request, and as much in its answer
MAX_OUTPUT_BYTES = 2 << 20  # of each stream, so the answer fits
Invoke = Callable[[str, bytes, float], bytes]  # (function, request, seconds) → its answer


def _tool_mark(index: int) -> str:
    return f"\x00tool{index}\x00"


@dataclass(frozen=True)
class LambdaSandbox(Copies):
    """The fixer function `function`, which installs `pin` under `root` (its own tool cache) from `pypi_index` or
    `npm_registry` and runs a command there; `invoke` calls it (core/aws.py `invoke`, or a test's stand-in)."""

    function: str
    pin: Pin
    root: str
    pypi_index: str
    npm_registry: str
    seconds: float = deadline.TOOL_SECONDS
    invoke: Invoke | None = field(default=None, compare=False, repr=False)

    def limited(self, seconds: float) -> LambdaSandbox:
        return replace(self, seconds=seconds)

    def run(self, command: Sequence[str], *, work: Path, what: str, tools: Sequence[Path] = (),
            env: Mapping[str, str] | None = None, cap: float | None = None) -> Finished:
        seconds = deadline.limit(self.seconds if cap is None else cap)
        marks = {str(work): WORK_MARK, WORK: WORK_MARK, **{str(t): _tool_mark(i) for i, t in enumerate(tools)}}
        request = json.dumps({
            "pin": asdict(self.pin), "root": self.root, "pypi_index": self.pypi_index,
            "npm_registry": self.npm_registry, "seconds": seconds,
            "command": [_marked(a, marks) for a in command],
            "env": {k: _marked(v, marks) for k, v in (env or {}).items()},
            **_laid_out(work, marks)}).encode()
        if len(request) > MAX_REQUEST_BYTES:
            raise ToolFailed(f"{what} was not run: its copy of the checkout is larger than the fixer function takes "
                             f"({len(request) >> 20} MiB)")
        answer = self._answer(request, seconds, what)
        # the tool's folder and its runtime's, in the order both sides list them (a runtime the system has: none)
        back = {answer["work"]: WORK, **{mine: str(theirs) for mine, theirs in zip(answer["tools"], tools,
                                                                                   strict=False)}}
        return Finished(int(answer["returncode"]), _unmarked(answer["stdout"], back), _unmarked(answer["stderr"], back))


    def _answer(self, request: bytes, seconds: float, what: str) -> dict[str, Any]:
        """The fixer function's answer to the request; ToolFailed where it could not run the tool."""
        call = self.invoke or _aws_invoke
        try:
            answer: dict[str, Any] = json.loads(call(self.function, request, seconds))
        except (RuntimeError, OSError, ValueError) as exc:
            raise ToolFailed(f"{what} could not be run by the fixer function: {exc}") from None
        if "error" in answer:
            raise ToolFailed(f"{what}: {answer['error']}")
        return answer


def _aws_invoke(function: str, request: bytes, seconds: float) -> bytes:
    from core.aws import invoke  # noqa: PLC0415 — boto3 only where the fixer function is configured

    return invoke(function, request, seconds)


def _marked(text: str, marks: Mapping[str, str]) -> str:
    for path, mark in sorted(marks.items(), key=lambda item: -len(item[0])):  # the longest path first
        text = text.replace(path, mark)
    return text


def _unmarked(text: str, paths: Mapping[str, str]) -> str:
    for theirs, mine in sorted(paths.items(), key=lambda item: -len(item[0])):
        text = text.replace(theirs, mine)
    return text


def _laid_out(work: Path, marks: Mapping[str, str]) -> dict[str, Any]:
    """The scratch copy as the request carries it: each file's bytes, each link's target (marked)."""
    files, links = {}, {}
    for folder, dirs, names in os.walk(work):  # a link to a folder (node_modules) is among `dirs`, never entered
        for name in (*dirs, *names):
            path = Path(folder, name)
            relative = path.relative_to(work).as_posix()
            if path.is_symlink():
                links[relative] = _marked(os.readlink(path), marks)
            elif path.is_file():
                files[relative] = base64.b64encode(path.read_bytes()).decode()
    return {"files": files, "links": links}


# ---- inside the fixer function ----

def serve(request: Mapping[str, Any]) -> dict[str, Any]:
    """One tool run, as the fixer function does it: the tool installed (once a container) into its own cache, the copy
    laid out in a scratch folder, the command run there within its time, its output capped to fit the answer."""
    pin = Pin(**{**request["pin"], "plugins": tuple(request["pin"]["plugins"])})
    cache = ToolCache(Path(request["root"]), request["pypi_index"], request["npm_registry"], python=sys.executable)
    try:
        installed = cache.ensure(pin)
    except InstallFailed as exc:
        return {"error": str(exc)}
    tools = [str(installed.folder), *(str(f) for f in cache.runtime_folders(pin))]
    work = Path(tempfile.mkdtemp(prefix="memfix-fixer-"))
    try:
        paths = {WORK_MARK: str(work), **{_tool_mark(i): t for i, t in enumerate(tools)}}
        for relative, data in request["files"].items():
            target = _inside(work, relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(base64.b64decode(data))
        for relative, target in request["links"].items():
            _inside(work, relative).symlink_to(_unmarked(target, paths))
        env = {"PATH": ":".join([*(f"{t}/bin" for t in tools), "/usr/local/bin", "/usr/bin", "/bin"]),
               "HOME": str(work), "LANG": "C.UTF-8",
               **{k: _unmarked(v, paths) for k, v in request["env"].items()}}
        try:
            done = process.run([_unmarked(a, paths) for a in request["command"]], what="the tool", cwd=work, env=env,
                               cap=float(request["seconds"]), max_output=MAX_OUTPUT_BYTES)
        except ToolFailed as exc:
            return {"error": str(exc).removeprefix("the tool ")}
        return {"returncode": done.returncode, "stdout": done.stdout, "stderr": done.stderr, "work": str(work),
                "tools": tools}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _inside(work: Path, relative: str) -> Path:
    target = (work / relative).resolve()
    if not target.is_relative_to(work.resolve()) or target == work.resolve():
        raise ValueError(f"{relative} is outside the copy")
    return target
