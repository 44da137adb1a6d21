"""Which release an unpinned tool is: the newest its registry had published at the run's time, as the team's CI would
have installed it then (a pin with no version, or a range, is whatever pip resolved on the day the CI ran).

Resolved before installing, so the tool cache holds that exact version (an unpinned tool installed once would
otherwise stay at the release of its first install for ever). The run's time is now, or the time a replayed push
was made (`released_by`). PyPI only: its simple index's JSON form (PEP 691) gives each file's upload time (PEP 700)
and the Python versions it supports. An index that gives neither, or cannot be reached, leaves the pin as it is
(the installer's newest then stands in). npm ranges are left to npm and its lockfile.
"""

from __future__ import annotations

import json
import logging
import platform
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from datetime import UTC, datetime

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import Version

from core.bounded import shown
from core.tools.pins import Pin

log = logging.getLogger(__name__)

INDEX_SECONDS = 20.0  # one look at a project's listing
MAX_LISTING_BYTES = 16 << 20  # a project with thousands of files lists a few MB
NOW_SECONDS = 3600.0  # how long "the newest release now" is taken as known
_JSON = "application/vnd.pypi.simple.v1+json"

_RELEASED_BY: ContextVar[datetime | None] = ContextVar("memfix_released_by", default=None)
_listings: dict[tuple[str, str], tuple[float, list[dict[str, object]] | None]] = {}  # (index, project) → files
_lock = threading.Lock()


@contextmanager
def released_by(when: datetime) -> Iterator[None]:
    """Within it, an unpinned tool is the release current at `when` (a replayed push's time), not now."""
    token = _RELEASED_BY.set(when)
    try:
        yield
    finally:
        _RELEASED_BY.reset(token)


def dated(pin: Pin, index: str, python: tuple[int, int]) -> Pin:
    """`pin` with the tool and each plugin of it that names no exact version at the newest release `index` had
    published by the run's time (in its range, with a wheel for `python`); as it is where that cannot be told."""
    when = _RELEASED_BY.get()
    version = pin.version or _newest(index, pin.package, pin.specifier, python, when)
    plugins = tuple(_plugin(text, index, python, when) for text in pin.plugins)
    if version == pin.version and plugins == pin.plugins:
        return pin
    day = (when or datetime.now(UTC)).date().isoformat()
    said = f"{pin.package} {version}" if version != pin.version else "its plugins"
    return replace(pin, version=version, specifier="" if version else pin.specifier, plugins=plugins,
                   source=f"{pin.source}; {said} as released by {day}")


def _plugin(text: str, index: str, python: tuple[int, int], when: datetime | None) -> str:
    try:
        requirement = Requirement(text)
    except InvalidRequirement:
        return text
    if any(s.operator in ("==", "===") and "*" not in s.version for s in requirement.specifier):
        return text
    version = _newest(index, requirement.name, str(requirement.specifier), python, when)
    return f"{requirement.name}=={version}" if version else text


def _newest(index: str, package: str, specifier: str, python: tuple[int, int], when: datetime | None) -> str | None:
    """The newest version of `package` in `specifier` with a wheel for `python` uploaded by `when` (now: None)."""
    key = (index, canonicalize_name(package))
    with _lock:
        known = _listings.get(key)
    if known is None or time.monotonic() - known[0] >= NOW_SECONDS:  # a listing read once an hour
        known = (time.monotonic(), _listing(*key))
        with _lock:
            _listings[key] = known
    return _choose(known[1], specifier, python, when) if known[1] is not None else None


def _listing(index: str, package: str) -> list[dict[str, object]] | None:
    """The project's files as its index's JSON lists them; None where the index gives no JSON or cannot be read."""
    url = f"{index.rstrip('/')}/{package}/"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": _JSON}),
                                    timeout=INDEX_SECONDS) as answer:
            if not answer.headers.get("Content-Type", "").startswith(_JSON):
                return None
            body = answer.read(MAX_LISTING_BYTES + 1)
    except (OSError, ValueError) as exc:
        log.info("the index's listing of %s could not be read (%s): the installer's newest stands in",
                 shown(package), exc)
        return None
    if len(body) > MAX_LISTING_BYTES:
        return None
    try:
        files = json.loads(body).get("files")
    except (ValueError, AttributeError):
        return None
    return [f for f in files if isinstance(f, dict)] if isinstance(files, list) else None


def _choose(files: list[dict[str, object]], specifier: str, python: tuple[int, int],
            when: datetime | None) -> str | None:
    try:
        wanted = SpecifierSet(specifier)
    except InvalidSpecifier:
        return None
    versions = [v for f in files if (v := _usable(f, python, when)) is not None]
    chosen = max(wanted.filter(versions), default=None)
    return str(chosen) if chosen is not None else None


def _usable(file: dict[str, object], python: tuple[int, int], when: datetime | None) -> Version | None:
    """The version of a wheel `python` can install, uploaded by `when` and not yanked; None for any other file."""
    name = _published(file, when)
    if name is None or not _supports(file.get("requires-python"), python):
        return None
    try:
        _, version, _, tags = parse_wheel_filename(name)
    except InvalidWheelFilename:
        return None
    return version if any(_runs(tag.interpreter, tag.abi, tag.platform, python) for tag in tags) else None


def _published(file: dict[str, object], when: datetime | None) -> str | None:
    """A wheel's file name where it was uploaded by `when` (now: None) and not yanked."""
    name, uploaded = file.get("filename"), file.get("upload-time")
    if not isinstance(name, str) or not name.endswith(".whl") or file.get("yanked"):
        return None
    if when is not None and not (isinstance(uploaded, str) and _time(uploaded) <= when):
        return None
    return name


def _supports(requires: object, python: tuple[int, int]) -> bool:
    """Whether a file's `requires-python` admits `python` (none given: it does)."""
    try:
        return not (isinstance(requires, str) and requires) or SpecifierSet(requires).contains(
            f"{python[0]}.{python[1]}", prereleases=True)
    except InvalidSpecifier:
        return False


def _runs(interpreter: str, abi: str, where: str, python: tuple[int, int]) -> bool:
    """Whether a wheel tag installs on this machine's CPython `python` (Linux, its processor)."""
    if where != "any" and not (where.startswith(("manylinux", "linux")) and where.endswith(platform.machine())):
        return False
    if interpreter in ("py3", f"py{python[0]}{python[1]}"):
        return True
    if not interpreter.startswith("cp3") or not interpreter[3:].isdigit():
        return False
    minor = int(interpreter[3:])
    return minor == python[1] or abi == "abi3" and minor <= python[1]


def _time(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return datetime.max.replace(tzinfo=UTC)
