"""Which of the team's tools a repository pins, and at which versions: read from its pre-commit hooks, requirements
files, pyproject.toml, tox.ini and package.json with its lockfile, never by running anything. Pure functions over the
repository's texts; every file through the bounded reader. A file memfix will not read, or an entry it cannot install
from a registry, is said in `Pins.problems`; a hook it does not install, with why, in `Pins.skipped`.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from core.bounded import (
    MAX_CONFIG_CHARS,
    MAX_CONFIG_VALUES,
    ConfigFormat,
    ConfigRefused,
    read_config,
    shown,
    strings,
    table,
)
from core.tools.workflows import LINT_WORKFLOWS, commands, run_tool, steps

Read = Callable[[str], "str | None"]
Registry = Literal["pypi", "npm"]

PRE_COMMIT = ".pre-commit-config.yaml"
REQUIREMENTS_FILES = ("requirements.txt", "requirements-dev.txt", "requirements_dev.txt", "dev-requirements.txt",
                      "requirements-test.txt", "test-requirements.txt", "requirements-lint.txt", "requirements/dev.txt",
                      "requirements/lint.txt", "requirements/test.txt", "requirements/tests.txt")
# Files where a team installs its tools (read at the repository root).
TOOL_FILES = (PRE_COMMIT, *REQUIREMENTS_FILES)
PYTHON_LOCKFILES = ("poetry.lock", "uv.lock")  # [[package]] name, version: what pyproject.toml's groups resolved to
NPM_LOCKFILES = ("package-lock.json", "yarn.lock", "pnpm-lock.yaml")
MAX_LOCKFILE_VALUES = 1 << 20  # a lockfile lists every package with its hashes: far more values than a configuration
MAX_ENTRIES = 2_000  # hooks, requirement lines or dependencies read from one file

# A well-known hook repository's `rev` is its package's version (pre-commit's mirrors are tagged as the package is).
HOOK_REPOSITORIES: dict[str, tuple[str, Registry, str]] = {  # repository → (tool, registry, package)
    "github.com/astral-sh/ruff-pre-commit": ("ruff", "pypi", "ruff"),
    "github.com/charliermarsh/ruff-pre-commit": ("ruff", "pypi", "ruff"),
    "github.com/pycqa/flake8": ("flake8", "pypi", "flake8"),
    "gitlab.com/pycqa/flake8": ("flake8", "pypi", "flake8"),
    "github.com/psf/black": ("black", "pypi", "black"),
    "github.com/psf/black-pre-commit-mirror": ("black", "pypi", "black"),
    "github.com/pycqa/isort": ("isort", "pypi", "isort"),
    "github.com/asottile/pyupgrade": ("pyupgrade", "pypi", "pyupgrade"),
    "github.com/pycqa/autoflake": ("autoflake", "pypi", "autoflake"),
    "github.com/myint/autoflake": ("autoflake", "pypi", "autoflake"),
    "github.com/pycqa/pylint": ("pylint", "pypi", "pylint"),
    "github.com/pre-commit/mirrors-eslint": ("eslint", "npm", "eslint"),
    "github.com/pre-commit/mirrors-prettier": ("prettier", "npm", "prettier"),
    "github.com/biomejs/pre-commit": ("biome", "npm", "@biomejs/biome"),
}
PYTHON_TOOLS = ("ruff", "flake8", "pylint", "black", "isort", "pyupgrade", "autoflake")  # in requirements and groups
FLAKE8_PLUGINS = ("pep8-naming", "pandas-vet", "tryceratops", "darglint", "dlint", "wemake-python-styleguide")
ESLINT_CONFIGS = ("eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", ".eslintrc.js",
                  ".eslintrc.cjs", ".eslintrc.yaml", ".eslintrc.yml", ".eslintrc.json", ".eslintrc")  # at the root
NPM_TOOLS = {"eslint": "eslint", "prettier": "prettier", "@biomejs/biome": "biome"}  # package → tool
_ESLINT_PART = re.compile(r"eslint-(?:plugin|config|import-resolver)-[\w.-]+|@[\w.-]+/eslint-(?:plugin|config|parser)"
                          r"(?:-[\w.-]+)?|@eslint/[\w.-]+|typescript-eslint|@typescript-eslint/[\w.-]+"
                          r"|[\w.-]+-eslint-parser|globals")  # what an ESLint configuration loads
_PRETTIER_PART = re.compile(r"prettier-plugin-[\w.-]+|@[\w.-]+/prettier-plugin(?:-[\w.-]+)?|@prettier/plugin-[\w.-]+")
_PEERS = {"typescript-eslint": "typescript", "@typescript-eslint/parser": "typescript",
          "@typescript-eslint/eslint-plugin": "typescript", "eslint-plugin-prettier": "prettier"}  # loaded, not listed
_NPM_NAME = re.compile(r"(?:@[a-z0-9][\w.~-]*/)?[a-z0-9][\w.~-]*", re.IGNORECASE)
_NPM_RANGE = re.compile(r"[\w.^~<>=|*+ -]{1,100}")  # a semver range; `file:`, `git+…`, `npm:` aliases are not
_SEMVER = re.compile(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?")
_COMMIT = re.compile(r"[0-9a-f]{7,40}")


@dataclass(frozen=True)
class Pin:
    """One tool as the repository pins it: its package on a registry, the version (None where the repository gives
    a range, in `specifier`, or nothing), the plugins installed beside it as written ("flake8-bugbear==24.2.6",
    "eslint-config-standard@17.1.0", a bare name), and where it was read, in words. `lockfile`: the hash of a
    lockfile installed whole, where the install follows one (it is then part of what makes the install distinct)."""

    tool: str
    registry: Registry
    package: str
    version: str | None
    plugins: tuple[str, ...] = ()
    source: str = ""
    specifier: str = ""  # PEP 440 for PyPI (">=7,<8"), a semver range for npm ("^8.56.0"); "" where pinned or none
    lockfile: str = ""
    args: tuple[str, ...] = field(default=(), compare=False)  # a hook's `args`, as the team's hook runs it

    @property
    def requirement(self) -> str:
        """The tool as its installer is given it: `flake8==7.1.1`, `flake8>=7,<8`, `eslint@8.56.0`, `eslint`."""
        at = "==" if self.registry == "pypi" else "@"
        if self.version:
            return f"{self.package}{at}{self.version}"
        if self.specifier:
            return f"{self.package}{self.specifier}" if self.registry == "pypi" else f"{self.package}@{self.specifier}"
        return self.package

    def described(self) -> str:
        """In words: "flake8 7.1.1 with flake8-bugbear 24.2.6", "eslint (^8.0.0)"."""
        version = self.version or (f"({self.specifier})" if self.specifier else "(its newest release)")
        plugins = [re.sub(r"==|(?<=.)@(?=[\d^~<>=*])", " ", p, count=1) for p in self.plugins]
        return f"{self.package} {version}" + (f" with {', '.join(plugins)}" if plugins else "")


@dataclass(frozen=True)
class Skipped:
    """A hook or entry the team runs that memfix does not install, and why (said, never silently dropped)."""

    what: str
    why: str


@dataclass(frozen=True)
class Pins:
    """Every tool the repository pins, the most authoritative source first for each; what is skipped; the files
    and entries memfix would not read, in words."""

    tools: tuple[Pin, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    problems: tuple[str, ...] = ()

    def get(self, tool: str) -> Pin | None:
        return next((pin for pin in self.tools if pin.tool == tool), None)


@dataclass
class _Found:
    """What the sources said so far: the first pin of each tool stands (sources are read in order of authority)."""

    tools: dict[str, Pin] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def add(self, pin: Pin) -> None:
        self.tools.setdefault(pin.tool, pin)

    def refused(self, exc: ConfigRefused) -> None:
        self.problems.append(f"{exc}: not read for the tools it pins")


def find_pins(read: Read) -> Pins:
    """The tools `read`'s repository pins. A tool the CI runs itself (a workflow's lint step) is the one the CI
    installs, since it judges the team's merges: its `pip install` words first, then the project's own environment.
    Every other tool: pre-commit's hooks first, then requirements files, pyproject.toml's extras and groups (Poetry's
    too) and tox.ini's deps, then package.json's at its lockfile's versions."""
    found = _Found()
    ci = _ci(read, found)
    requirements = [*ci.installs, *_requirements_files(read, found), *_pyproject(read, found), *_tox(read, found)]
    locked = _python_locked(read, found)
    _python_environment(requirements, locked, found, ci.runs)
    _pre_commit(read, found)
    _python_environment(requirements, locked, found, PYTHON_TOOLS)
    _package_json(read, found)
    return Pins(tuple(found.tools.values()), tuple(found.skipped), tuple(found.problems))


def _data(read: Read, name: str, fmt: ConfigFormat, found: _Found, *, values: int = MAX_CONFIG_VALUES) -> object:
    """A root file's data through the bounded reader; None when it is absent or refused (said in `found`)."""
    text = read(name)
    if text is None:
        return None
    try:
        return read_config(text, fmt, name, values=values)
    except ConfigRefused as exc:
        found.refused(exc)
        return None


def _strings(value: object) -> list[str]:
    return strings(value)[:MAX_ENTRIES]


# ---- pre-commit ----

def _pre_commit(read: Read, found: _Found) -> None:
    repos = table(_data(read, PRE_COMMIT, "yaml", found)).get("repos")
    for entry in repos[:MAX_ENTRIES] if isinstance(repos, list) else ():
        repo = table(entry)
        listed = repo.get("hooks")
        hooks = [h for h in map(table, listed if isinstance(listed, list) else []) if isinstance(h.get("id"), str)]
        url = repo.get("repo")
        if url == "local":
            for hook in hooks:
                _local_hook(hook, found)
        elif url == "meta":
            continue  # pre-commit's checks of its own configuration: nothing to install
        elif isinstance(url, str):
            _hook_repository(url, repo.get("rev"), hooks, found)


def _hook_repository(url: str, rev: object, hooks: list[dict[str, object]], found: _Found) -> None:
    """A hook repository: a well-known one's `rev` is its package's version, its hooks' additional_dependencies the
    plugins; any other is said and skipped."""
    ids = ", ".join(str(h["id"]) for h in hooks) or "no hooks"
    known = HOOK_REPOSITORIES.get(_repository_key(url))
    if known is None:
        found.skipped.append(Skipped(f"the {ids} hook of {shown(url)} in {PRE_COMMIT}",
                                     "not a hook repository memfix knows the package of"))
        return
    tool, registry, package = known
    plugins, own = _plugins([d for h in hooks for d in _strings(h.get("additional_dependencies"))], registry,
                            package, found, f"the {tool} hook's additional_dependencies in {PRE_COMMIT}")
    where = f"the {tool} hook's rev in {PRE_COMMIT}"
    if own is not None:  # biomejs/pre-commit names Biome's version as a dependency; its rev is the hook's own
        version, specifier, where = own[0], own[1], f"the {tool} hook's additional_dependencies in {PRE_COMMIT}"
    elif isinstance(rev, str):
        version, specifier, where = _rev_version(rev, registry, where)
    else:
        version, specifier = None, ""
        found.problems.append(f"{PRE_COMMIT}: the {tool} hook's rev {shown(rev)} is not text: {tool}'s newest "
                              "release stands in")
    args = tuple(_strings(hooks[0].get("args"))) if hooks else ()
    found.add(Pin(tool, registry, package, version, plugins, where, specifier, args=args))


def _repository_key(url: str) -> str:
    """`https://github.com/PyCQA/flake8.git/` and `git@github.com:PyCQA/flake8` → `github.com/pycqa/flake8`."""
    key = url.strip().lower()
    if key.startswith("git@"):
        key = key.removeprefix("git@").replace(":", "/", 1)
    return re.sub(r"^[a-z+]+://", "", key).rstrip("/").removesuffix(".git")


def _rev_version(rev: str, registry: Registry, where: str) -> tuple[str | None, str, str]:
    """A hook repository's tag as its package's version (`v0.6.9` → 0.6.9); a commit or a branch is no version."""
    version = rev.strip().removeprefix("v")
    if _version(version, registry):
        return version, "", where
    kind = "a commit" if _COMMIT.fullmatch(rev.strip()) else "not a release tag"
    return None, "", f"{where} ({shown(rev)}, {kind}: the newest release stands in)"


def _version(text: str, registry: Registry) -> bool:
    if registry == "npm":
        return bool(_SEMVER.fullmatch(text))
    return bool(re.fullmatch(r"\d+(?:\.\d+)*(?:(?:a|b|rc|\.post|\.dev)\d+)*", text))


_LOCAL_LANGUAGES: dict[str, Registry] = {"python": "pypi", "node": "npm"}


def _local_hook(hook: dict[str, object], found: _Found) -> None:
    """A `repo: local` hook: `language: python|node` installs its additional_dependencies (the one named by its
    entry, or its id, is the tool; the rest its plugins); a program of the machine's (`system`, `script`) is not
    memfix's to install."""
    hook_id, language = str(hook["id"]), hook.get("language")
    what = f"the local {hook_id} hook in {PRE_COMMIT}"
    registry = _LOCAL_LANGUAGES.get(language) if isinstance(language, str) else None
    dependencies = _strings(hook.get("additional_dependencies"))
    if registry is None:
        why = (f"it runs a program of the machine's or the repository's (`language: {language}`), not one memfix "
               "installs" if language in ("system", "script") else
               f"`language: {shown(language)}` is not one memfix installs")
        found.skipped.append(Skipped(what, why))
        return
    if not dependencies:
        found.skipped.append(Skipped(what, f"`language: {language}` with no additional_dependencies installs nothing "
                                           "memfix could run"))
        return
    entry = hook.get("entry")
    program = str(entry).split()[0].rsplit("/", 1)[-1] if isinstance(entry, str) and entry.split() else hook_id
    plugins, _ = _plugins(dependencies, registry, "", found, f"{what}'s additional_dependencies")
    names = [_name(p, registry) for p in plugins]
    main = next((i for i, n in enumerate(names) if n in (program, hook_id)), 0) if plugins else None
    if main is None:
        return
    version, specifier = _pinned(plugins[main], registry)
    found.add(Pin(hook_id, registry, names[main], version, plugins[:main] + plugins[main + 1:],
                  f"{what}'s additional_dependencies", specifier))


def _plugins(written: list[str], registry: Registry, package: str, found: _Found,
             where: str) -> tuple[tuple[str, ...], tuple[str | None, str] | None]:
    """The dependencies a registry can install, as written, and the tool's own (version, specifier) where one of them
    is `package` itself; the others said as problems."""
    kept: list[str] = []
    own = None
    for text in written:
        text = text.strip()
        if not installable(text, registry):
            found.problems.append(f"{where}: {shown(text)} is not a package from the registry memfix can install")
        elif package and _name(text, registry) == package:
            own = _pinned(text, registry)
        else:
            kept.append(text)
    return tuple(dict.fromkeys(kept)), own


def installable(text: str, registry: Registry) -> bool:
    """A package named on its registry, with a version or range at most: never a URL, a path, a flag or an alias."""
    if registry == "npm":
        name, _, spec = text[1:].partition("@")
        return bool(_NPM_NAME.fullmatch(text[0] + name if text else "") and (not spec or _NPM_RANGE.fullmatch(spec)))
    try:
        requirement = Requirement(text)
    except InvalidRequirement:
        return False
    return requirement.url is None and not text.startswith("-")


def _name(text: str, registry: Registry) -> str:
    if registry == "npm":
        return text[0] + text[1:].partition("@")[0] if text else ""
    return canonicalize_name(Requirement(text).name)


def _pinned(text: str, registry: Registry) -> tuple[str | None, str]:
    """(version, specifier) of an installable requirement: an exact pin is a version, anything else a range."""
    if registry == "npm":
        spec = text[1:].partition("@")[2].strip()
        return (spec, "") if _SEMVER.fullmatch(spec) else (None, spec)
    specifiers = list(Requirement(text).specifier)
    if len(specifiers) == 1 and specifiers[0].operator in ("==", "===") and "*" not in specifiers[0].version:
        return specifiers[0].version, ""
    return None, ",".join(str(s) for s in specifiers)


# ---- the project's own environment: requirements files, pyproject.toml, tox.ini ----

@dataclass(frozen=True)
class _Requirement:
    name: str  # canonical
    text: str  # as written, without its environment marker
    where: str


def _python_environment(requirements: list[_Requirement], locked: dict[str, tuple[str, str]], found: _Found,
                        tools: Iterable[str]) -> None:
    """`tools` not pinned yet as the project installs them (the CI's `pip install` words, requirements files,
    pyproject.toml, tox.ini: `requirements` in that order), each from the first place that names it, with every plugin
    of it named anywhere; a range that poetry.lock or uv.lock resolves is its locked version."""
    for tool in (tool for tool in tools if tool not in found.tools):
        own = next((r for r in requirements if r.name == tool), None)
        plugins = [r for r in requirements if _plugin_of(r.name) == tool]
        if own is None and not plugins:
            continue
        kept = tuple({r.name: _locked_text(r, locked) for r in reversed(plugins)}.values())[::-1]
        if own is None:
            found.add(Pin(tool, "pypi", tool, None, kept, f"its plugins in {plugins[0].where} ({tool} itself is not "
                                                          "pinned: the version they need stands in)"))
            continue
        version, specifier = _pinned(own.text, "pypi")
        where = f"{own.text} in {own.where}"
        if version is None and own.where.endswith("pyproject.toml") and (lock := locked.get(tool)):
            version, specifier, where = lock[0], "", f"{where}, at {lock[1]}'s version"
        elif version is None:
            where += " (a range, not a version: the newest release in it at the run's time stands in)" if specifier \
                else " (no version: the newest release at the run's time stands in)"
        found.add(Pin(tool, "pypi", tool, version, kept, where, specifier))


def _plugin_of(name: str) -> str | None:
    if name.startswith("flake8-") or name in FLAKE8_PLUGINS:
        return "flake8"
    return "pylint" if name.startswith("pylint-") else None


def _locked_text(requirement: _Requirement, locked: dict[str, tuple[str, str]]) -> str:
    """A plugin named without a version in pyproject.toml, at the lockfile's version."""
    lock = locked.get(requirement.name)
    if lock and requirement.where.endswith("pyproject.toml") and _pinned(requirement.text, "pypi")[0] is None:
        return f"{requirement.name}=={lock[0]}"
    return requirement.text


def _requirements_files(read: Read, found: _Found) -> Iterator[_Requirement]:
    for name in REQUIREMENTS_FILES:
        yield from _requirement_file(read, name, found)


def _lines(text: str) -> list[str]:
    """A requirements file's requirements: comments, options (`-r`, `-e`, `--hash=…`) and continuations undone."""
    joined = re.sub(r"\\\r?\n", " ", text)
    lines = []
    for line in joined.splitlines()[:MAX_ENTRIES]:
        line = re.sub(r"(?:^|\s)#.*", "", line).strip()
        line = re.split(r"\s--?[a-z]", line)[0].strip()  # one space before the flag: `\s+` would be quadratic
        if line and not line.startswith("-"):
            lines.append(line)
    return lines


def _requirement_lines(lines: list[str], where: str, found: _Found) -> Iterator[_Requirement]:
    """Each line that names a registry's package, as a requirement; a line that seems to name a tool memfix cannot
    install from the registry (`git+https://…/flake8`) is said."""
    for line in lines:
        text = line.split(";", 1)[0].strip()
        if installable(text, "pypi"):
            yield _Requirement(_name(text, "pypi"), text, where)
        elif any(tool in line.lower() for tool in PYTHON_TOOLS):
            found.problems.append(f"{where}: {shown(line)} is not a package from the registry memfix can install: "
                                  "left out")


def _pyproject(read: Read, found: _Found) -> Iterator[_Requirement]:
    """`[project.optional-dependencies]`, `[dependency-groups]` and Poetry's groups (its dev-dependencies too)."""
    data = table(_data(read, "pyproject.toml", "toml", found))
    where = "pyproject.toml"
    for group, value in table(table(data.get("project")).get("optional-dependencies")).items():
        yield from _requirement_lines(_strings(value), f"the {group} extra in {where}", found)
    for group, value in table(data.get("dependency-groups")).items():
        yield from _requirement_lines(_strings(value), f"the {group} dependency group in {where}", found)
    poetry = table(table(data.get("tool")).get("poetry"))
    groups = {name: table(table(g).get("dependencies")) for name, g in table(poetry.get("group")).items()}
    if dev := table(poetry.get("dev-dependencies")):
        groups["dev"] = {**dev, **groups.get("dev", {})}
    for group, dependencies in groups.items():
        lines = [line for name, spec in list(dependencies.items())[:MAX_ENTRIES] if (line := _poetry_line(name, spec))]
        yield from _requirement_lines(lines, f"Poetry's {group} group in {where}", found)


def _poetry_line(name: str, spec: object) -> str:
    """A Poetry dependency as a requirement: `"0.6.9"` is exact, `^`/`~` ranges as PEP 440's; a path, a URL or a
    repository is no registry package (left out, with the others pip cannot read)."""
    if isinstance(spec, dict):
        if any(key in spec for key in ("path", "url", "git")):
            return f"{name} @ {spec.get('path') or spec.get('url') or spec.get('git')}"
        spec = spec.get("version", "*")
    if not isinstance(spec, str):
        return ""
    spec = spec.strip()
    if spec in ("", "*"):
        return name
    if re.fullmatch(r"\d+(?:\.\d+)*", spec):
        return f"{name}=={spec}"
    if found := re.fullmatch(r"([\^~])\s*(\d+(?:\.\d+)*)", spec):
        return f"{name}>={found[2]},<{_poetry_ceiling(found[1], found[2])}"
    return f"{name}{spec}"


def _poetry_ceiling(operator: str, version: str) -> str:
    """Poetry's caret (`^0.6.9` < 0.7.0, `^1.2` < 2.0) and tilde (`~1.2.3` < 1.3.0, `~1` < 2) upper bounds."""
    parts = [int(p) for p in version.split(".")]
    if operator == "^":
        keep = next((i for i, p in enumerate(parts) if p), len(parts) - 1)
    else:
        keep = min(1, len(parts) - 1)
    return ".".join(str(p) for p in [*parts[:keep], parts[keep] + 1, *[0] * (len(parts) - keep - 1)])


def _tox(read: Read, found: _Found) -> Iterator[_Requirement]:
    """Every test environment's `deps =` (a factor's `lint: flake8` condition dropped)."""
    for section, options in table(_data(read, "tox.ini", "ini", found)).items():
        deps = table(options).get("deps")
        if not (section == "testenv" or section.startswith("testenv:")) or not isinstance(deps, str):
            continue
        lines = [re.sub(r"^[\w,!-]+:\s+", "", line) for line in _lines(deps) if "{" not in line]
        yield from _requirement_lines(lines, f"[{section}] deps in tox.ini", found)


def _python_locked(read: Read, found: _Found) -> dict[str, tuple[str, str]]:
    """poetry.lock's or uv.lock's packages: canonical name → (version, lockfile)."""
    for name in PYTHON_LOCKFILES:
        packages = table(_data(read, name, "toml", found, values=MAX_LOCKFILE_VALUES)).get("package")
        if isinstance(packages, list):
            locked = [(table(p).get("name"), table(p).get("version")) for p in packages]
            return {canonicalize_name(n): (v, name) for n, v in locked if isinstance(n, str) and isinstance(v, str)}
    return {}


# ---- the CI's own steps ----

# pip's options that take the next word as their value (a requirement file's path is read, the others skipped)
_PIP_VALUED = {"-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url",
               "--extra-index-url", "-f", "--find-links", "-t", "--target", "--prefix", "--root", "--python",
               "--platform", "--python-version", "--implementation", "--abi", "--progress-bar", "--src",
               "--upgrade-strategy"}
_PIP_PROGRAMS = ("pip", "pip3", "pipx")


@dataclass(frozen=True)
class _Ci:
    """The Python tools a CI workflow runs itself, and the requirements its `pip install` steps install."""

    runs: tuple[str, ...] = ()
    installs: tuple[_Requirement, ...] = ()


def _ci(read: Read, found: _Found) -> _Ci:
    """What the workflows run themselves (`black --check .`, `python -m flake8`) and install (`pip install black
    ruff==0.1.0`, `pip install -r requirements/lint.txt`, `uv pip install …`), read from their `run:` steps."""
    runs: list[str] = []
    installs: list[_Requirement] = []
    for name in LINT_WORKFLOWS:
        for step in steps(read(name), name):
            for words in commands(step.script):
                if (ran := run_tool(words, PYTHON_TOOLS)) is not None:
                    runs.append(ran[0])
                else:
                    installs += _pip_install(words, read, step.cwd, f"the CI's `pip install` in {name}", found)
    return _Ci(tuple(dict.fromkeys(runs)), tuple(installs))


def _pip_install(words: list[str], read: Read, cwd: str, where: str, found: _Found) -> list[_Requirement]:
    """The requirements a `pip install` (`python -m pip`, `pip3`, `pipx`, `uv pip`) names, with those of the
    requirement files it is given; nothing for any other command."""
    ran = run_tool(words, _PIP_PROGRAMS)
    if ran is None or ran[1][:1] != ["install"]:
        return []
    texts: list[str] = []
    requirements: list[_Requirement] = []
    skip = ""
    for word in ran[1][1:]:
        if skip in ("-r", "--requirement"):
            requirements += _requirement_file(read, posixpath.normpath(posixpath.join(cwd, word)), found)
        if skip:
            skip = ""
        elif word.startswith("-"):
            skip = word if word in _PIP_VALUED else ""
        else:
            texts.append(word)
    return [*_requirement_lines([t for t in texts if installable(t, "pypi")], where, found), *requirements]


def _requirement_file(read: Read, name: str, found: _Found) -> Iterator[_Requirement]:
    """A requirements file's requirements, one too large to be one said (a path memfix cannot read is none)."""
    text = read(name) if not name.startswith(("/", "..")) and "$" not in name else None
    if text is None:
        return
    if len(text) > MAX_CONFIG_CHARS:
        found.problems.append(f"{name}: larger than {MAX_CONFIG_CHARS >> 20} MiB, more than any requirements "
                              "file needs: not read for the tools it pins")
        return
    yield from _requirement_lines(_lines(text), name, found)


# ---- package.json and its lockfile ----

def _package_json(read: Read, found: _Found) -> None:
    """ESLint with its plugins, configs and parsers, Prettier with its plugins, and Biome, from package.json's
    devDependencies and dependencies, at the lockfile's versions (without one, package.json's ranges stand)."""
    data = table(_data(read, "package.json", "json", found))
    both = {**table(data.get("dependencies")), **table(data.get("devDependencies"))}
    wanted = {n: s for n, s in list(both.items())[:MAX_ENTRIES] if isinstance(s, str)}
    if not any(n in NPM_TOOLS for n in wanted):
        return
    locked, lockfile = _npm_locked(read, wanted, found)
    configured = "\n".join([json.dumps(data.get("eslintConfig", "")), *(read(n) or "" for n in ESLINT_CONFIGS)])
    for package, tool in NPM_TOOLS.items():
        if package in wanted:
            _npm_pin(tool, package, wanted, (locked, lockfile), found, configured if tool == "eslint" else "")


def _npm_pin(tool: str, package: str, wanted: dict[str, str], lock: tuple[dict[str, str], str], found: _Found,
             configured: str = "") -> None:
    """`package` as the repository pins it, with the parts its configuration loads (`configured`: its text)."""
    locked, lockfile = lock
    version, specifier = _npm_version(package, wanted[package], locked)
    if not version and specifier and not _NPM_RANGE.fullmatch(specifier):
        found.problems.append(f"package.json: {package} {shown(specifier)} is not a version from the registry memfix "
                              "can install")
        return
    parts = _npm_parts(package, wanted, configured)
    plugins = tuple(p for name in parts if (p := _npm_plugin(name, wanted[name], locked, found)))
    where = f"package.json's {package}"
    if package in locked:
        where += f", at {lockfile}'s version"
    elif not version:
        unresolved = f"{lockfile} does not resolve it" if lockfile else "there is no lockfile"
        where += f" ({shown(wanted[package])}, a range: {unresolved}, so the newest release in it stands in)"
    found.add(Pin(tool, "npm", package, version, plugins, where, specifier))


def _npm_parts(package: str, wanted: dict[str, str], configured: str = "") -> list[str]:
    """What a tool's configuration loads beside it: ESLint's plugins, configs and parsers by their names, and any
    other package the configuration names (`extends: ./node_modules/gts/`, `import neostandard`), with the peers
    they need that the project pins; Prettier's plugins."""
    if package == "eslint":
        parts = [n for n in wanted if n != package and (_ESLINT_PART.fullmatch(n) or _named(n, configured))]
        return parts + [p for p in dict.fromkeys(_PEERS[n] for n in parts if n in _PEERS) if p in wanted]
    if package == "prettier":
        return [n for n in wanted if _PRETTIER_PART.fullmatch(n)]
    return []


def _named(name: str, text: str) -> bool:
    """Whether a configuration's text names the package `name`: as a string, a path's part, or a module specifier."""
    return bool(text) and re.search(rf"(?:^|[\"'`/]){re.escape(name)}(?:$|[\"'`/])", text, re.MULTILINE) is not None


def _npm_version(package: str, spec: str, locked: dict[str, str]) -> tuple[str | None, str]:
    if package in locked:
        return locked[package], ""
    spec = spec.strip()
    return (spec, "") if _SEMVER.fullmatch(spec) else (None, spec if spec not in ("*", "latest", "") else "")


def _npm_plugin(name: str, spec: str, locked: dict[str, str], found: _Found) -> str:
    version, specifier = _npm_version(name, spec, locked)
    text = f"{name}@{version or specifier}" if version or specifier else name
    if not installable(text, "npm"):
        found.problems.append(f"package.json: {name} ({shown(spec)}) is not a package from the registry memfix can "
                              "install: left out")
        return ""
    return text


def _npm_locked(read: Read, wanted: dict[str, str], found: _Found) -> tuple[dict[str, str], str]:
    """The lockfile's version of each top-level package (package-lock.json, yarn.lock or pnpm-lock.yaml, the first
    there is), and the lockfile's name."""
    for name, reader in (("package-lock.json", _package_lock), ("yarn.lock", _yarn_lock),
                         ("pnpm-lock.yaml", _pnpm_lock)):
        text = read(name)
        if text is None:
            continue
        try:
            return reader(text, wanted), name
        except ConfigRefused as exc:
            found.refused(exc)
            return {}, name
    return {}, ""


def _package_lock(text: str, wanted: dict[str, str]) -> dict[str, str]:
    """package-lock.json: v2 and v3's `packages["node_modules/<name>"]`, v1's `dependencies[<name>]`."""
    data = table(read_config(text, "json", "package-lock.json", values=MAX_LOCKFILE_VALUES))
    packages, dependencies = table(data.get("packages")), table(data.get("dependencies"))
    locked = {}
    for name in wanted:
        version = table(packages.get(f"node_modules/{name}")).get("version") or \
            table(dependencies.get(name)).get("version")
        if isinstance(version, str) and _SEMVER.fullmatch(version):
            locked[name] = version
    return locked


_YARN_DESCRIPTOR = re.compile(r"(@?[^@\s]+)@(?:npm:)?(.*)")


def _yarn_lock(text: str, wanted: dict[str, str]) -> dict[str, str]:
    """yarn.lock (Yarn 1's own format and Berry's YAML alike), one line at a time: an entry's header lists the
    `name@range` it resolves; its `version` line follows. Only the entry whose header has package.json's range."""
    if len(text) > MAX_CONFIG_CHARS:
        raise ConfigRefused("yarn.lock", f"larger than {MAX_CONFIG_CHARS >> 20} MiB, more than memfix reads")
    locked: dict[str, str] = {}
    current: list[str] = []
    for line in text.splitlines():
        if line and not line[0].isspace() and line.endswith(":") and not line.startswith("#"):
            descriptors = [_YARN_DESCRIPTOR.fullmatch(d.strip().strip('"')) for d in line[:-1].split(", ")]
            current = [m[1] for m in descriptors if m and m[1] in wanted and m[2].strip() == wanted[m[1]].strip()]
        elif current and (version := re.fullmatch(r'\s+version:?\s+"?([^"\s]+)"?\s*', line)):
            for name in current:
                if _SEMVER.fullmatch(version[1]):
                    locked.setdefault(name, version[1])
            current = []
    return locked


def _pnpm_lock(text: str, wanted: dict[str, str]) -> dict[str, str]:
    """pnpm-lock.yaml: the root project's `devDependencies`/`dependencies` (under `importers: .` from lockfile v6 on,
    at the top before), read from the part before the long `packages:` list. A version's peer suffix
    (`8.56.0(typescript@5.3.3)`, `8.56.0_typescript@5.3.3`) is not part of it."""
    head = re.split(r"(?m)^(?:packages|snapshots):", text, maxsplit=1)[0]
    data = table(read_config(head, "yaml", "pnpm-lock.yaml", values=MAX_LOCKFILE_VALUES))
    root = table(table(data.get("importers")).get(".")) or data
    locked = {}
    for section in ("dependencies", "devDependencies"):
        for name, entry in table(root.get(section)).items():
            version = table(entry).get("version") if isinstance(entry, dict) else entry
            version = re.split(r"[(_]", version, maxsplit=1)[0] if isinstance(version, str) else ""
            if name in wanted and _SEMVER.fullmatch(version):
                locked[name] = version
    return locked

