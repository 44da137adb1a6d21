"""Fake package registries over real HTTP on 127.0.0.1, speaking the wire formats the installers read.

`FakePyPI(folder)`: a PEP 503 simple index of the wheels (and source archives) in `folder` — `/simple/<project>/`
lists a project's files with their sha256, `/files/<name>` serves one. Point pip at `fake.index` (`--index-url`).
With `uploaded` (file name → ISO time; `requires` file name → requires-python; `yanked` file names), a client that
asks for PEP 691's JSON gets it, with PEP 700's upload times.
`FakeNpm()`: npm's registry — the packument of a package at `/<name>` (`/@scope%2fname` for a scoped one) and its
tarballs; `fake.publish(package_json, files)` packs a package the way `npm pack` does, and
`fake.publish_installed(node_modules)` every package of a tree npm installed (real packages, which `make setup` installs
into .venv/npmhouse), each as the registry served it. Point npm at `fake.url`.
Each records the paths it was asked for (`requests`), so a test can count downloads.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
import re
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

from flask import Flask, Response, abort, request

from tests.fakes.http import FakeServer

_JSON = "application/vnd.pypi.simple.v1+json"


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()  # PEP 503


def _project(filename: str) -> str:
    """A wheel's or source archive's project: the name before its version (`flake8_bugbear-24.2.6-py3-…`)."""
    stem = filename.removesuffix(".whl").removesuffix(".tar.gz").removesuffix(".zip")
    return _normalized(stem.split("-")[0])


class _Recorded(FakeServer):
    def __init__(self) -> None:
        self.requests: list[str] = []
        self._lock = threading.Lock()
        self.app = Flask(self.name)
        self.app.before_request(self._record)

    def _record(self) -> None:
        with self._lock:
            self.requests.append(unquote(request.path))

    def downloads(self, filename: str) -> int:
        return sum(1 for path in self.requests if path.endswith("/" + filename))


class FakePyPI(_Recorded):
    name = "fake-pypi"

    def __init__(self, folder: Path, uploaded: dict[str, str] | None = None, requires: dict[str, str] | None = None,
                 yanked: tuple[str, ...] = ()):
        super().__init__()
        self.folder = folder
        self.uploaded, self.requires, self.yanked = uploaded, requires or {}, yanked
        self.app.add_url_rule("/simple/", view_func=self._root)
        self.app.add_url_rule("/simple/<project>/", view_func=self._listing)
        self.app.add_url_rule("/files/<filename>", view_func=self._file)

    @property
    def index(self) -> str:
        return f"{self.url}/simple"

    def _files(self) -> list[Path]:
        return sorted(p for p in self.folder.iterdir() if p.name.endswith((".whl", ".tar.gz", ".zip")))

    def _root(self) -> Response:
        projects = sorted({_project(p.name) for p in self._files()})
        links = "".join(f'<a href="/simple/{p}/">{p}</a>\n' for p in projects)
        return Response(f"<!DOCTYPE html><html><body>\n{links}</body></html>", mimetype="text/html")

    def _listing(self, project: str) -> Response:
        files = [p for p in self._files() if _project(p.name) == _normalized(project)]
        if not files:
            abort(404)
        if self.uploaded is not None and _JSON in request.headers.get("Accept", ""):
            return Response(json.dumps({"meta": {"api-version": "1.1"}, "name": _normalized(project), "files": [
                self._described(p) for p in files]}), mimetype=_JSON)
        links = "".join(f'<a href="/files/{html.escape(p.name)}#sha256={hashlib.sha256(p.read_bytes()).hexdigest()}">'
                        f"{html.escape(p.name)}</a><br/>\n" for p in files)
        return Response(f"<!DOCTYPE html><html><head><title>Links for {project}</title></head><body>\n"
                        f"<h1>Links for {project}</h1>\n{links}</body></html>",
                        mimetype="application/vnd.pypi.simple.v1+html")

    def _described(self, path: Path) -> dict:
        """A file as PEP 691's JSON lists it, with PEP 700's upload time where the test gave one."""
        entry: dict = {"filename": path.name, "url": f"/files/{path.name}",
                       "hashes": {"sha256": hashlib.sha256(path.read_bytes()).hexdigest()},
                       "yanked": path.name in self.yanked}
        if path.name in (self.uploaded or {}):
            entry["upload-time"] = (self.uploaded or {})[path.name]
        if path.name in self.requires:
            entry["requires-python"] = self.requires[path.name]
        return entry

    def _file(self, filename: str) -> Response:
        path = self.folder / filename
        if "/" in filename or not path.is_file():
            abort(404)
        return Response(path.read_bytes(), mimetype="application/octet-stream")


class FakeNpm(_Recorded):
    name = "fake-npm"

    def __init__(self) -> None:
        super().__init__()
        self.packages: dict[str, dict[str, tuple[dict, bytes]]] = {}  # name → version → (package.json, tarball)
        self.app.add_url_rule("/<path:name>", view_func=self._serve)

    def publish(self, package_json: dict, files: dict[str, str]) -> None:
        """A package as `npm pack` makes it: a gzipped tarball of `package/…`, package.json included."""
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
            for path, text in {"package.json": json.dumps(package_json, indent=2), **files}.items():
                data = text.encode()
                info = tarfile.TarInfo(f"package/{path}")
                info.size, info.mode = len(data), 0o755 if text.startswith("#!") else 0o644
                tar.addfile(info, io.BytesIO(data))
        self.packages.setdefault(package_json["name"], {})[package_json["version"]] = (package_json, buffer.getvalue())

    def publish_installed(self, node_modules: Path) -> int:
        """Every package of an installed tree — scoped ones, and the other versions nested in a package's own
        node_modules — with the package.json npm unpacked (its dependencies, peers, bin and engines are what npm
        resolves by) and a tarball of its files. The packuments then hold every version the tree has, so npm resolves
        the tool's pins to that same tree. Returns how many versions were new."""
        published = 0
        for folder in installed_packages(node_modules):
            manifest = json.loads((folder / "package.json").read_text())
            if manifest.get("bundleDependencies") or manifest.get("bundledDependencies"):
                # its tarball would hold them, and this packs no node_modules: say so rather than serve it short
                raise NotImplementedError(f"{folder} bundles its dependencies, which publish_installed does not pack")
            versions = self.packages.setdefault(manifest["name"], {})
            if manifest["version"] not in versions:
                versions[manifest["version"]] = (manifest, _packed(folder))
                published += 1
        return published

    def _tarball_path(self, name: str, version: str) -> str:
        return f"/{name}/-/{name.rsplit('/', 1)[-1]}-{version}.tgz"

    def _serve(self, name: str) -> Response:
        name = unquote(name)
        if "/-/" in name:
            return self._tarball(name)
        versions = self.packages.get(name)
        if not versions:
            return Response(json.dumps({"error": "Not found"}), status=404, mimetype="application/json")
        document = {"name": name, "dist-tags": {"latest": max(versions, key=_precedence)},
                    "versions": {v: {**meta, "dist": self._dist(name, v, tarball)}
                                 for v, (meta, tarball) in versions.items()}}
        return Response(json.dumps(document), mimetype="application/json")

    def _dist(self, name: str, version: str, tarball: bytes) -> dict:
        return {"tarball": self.url + self._tarball_path(name, version), "shasum": hashlib.sha1(tarball).hexdigest(),
                "integrity": "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()}

    def _tarball(self, path: str) -> Response:
        for name, versions in self.packages.items():
            for version, (_, tarball) in versions.items():
                if "/" + path == self._tarball_path(name, version):
                    return Response(tarball, mimetype="application/octet-stream")
        abort(404)


def _precedence(version: str) -> tuple[tuple[int, ...], bool, str]:
    """Semver's order, near enough for a dist-tag: numbers first, and a pre-release before its release."""
    release, _, pre = version.split("+")[0].partition("-")
    return tuple(int(part) for part in release.split(".")), not pre, pre


def installed_packages(node_modules: Path) -> Iterator[Path]:
    """Each package folder of an installed tree, nested trees included (`.bin` and npm's own records are none)."""
    for entry in sorted(node_modules.iterdir()):
        if entry.name.startswith("."):
            continue
        for folder in sorted(entry.iterdir()) if entry.name.startswith("@") else [entry]:
            if (folder / "package.json").is_file():
                yield folder
                if (folder / "node_modules").is_dir():
                    yield from installed_packages(folder / "node_modules")


def _packed(folder: Path) -> bytes:
    """The package's tarball as the registry has it: its files under `package/`, modes kept, none of its own
    node_modules (each package there is published on its own)."""
    def kept(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as tar:  # fast: the tests pack hundreds
        for path in sorted(folder.iterdir()):
            if path.name != "node_modules":
                tar.add(path, arcname=f"package/{path.name}", filter=kept)
    return buffer.getvalue()
