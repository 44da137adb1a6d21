"""A JavaScript or TypeScript project as its maintainers declared it, read from its files (never by running them):
the lint configuration that decides which Biome rules are proposed, the paths never touched, and the oldest runtime
a fix must still run on.

The configuration, in order: the repository's `biome.json`/`biome.jsonc` (and what it `extends`, inside the
repository); else its ESLint configuration when it is data (`.eslintrc.json`, `.eslintrc`, `.eslintrc.yml`,
`package.json` `eslintConfig`), translated by `biome migrate eslint` in a scratch folder where no `node` can be found
(Biome runs Node to load a JavaScript configuration: memfix never lets it); else Biome's recommended correctness
rules. A configuration that is code (`eslint.config.js`, `.eslintrc.js`) is not run, and the run says so. memfix only
lints: it never formats, so a team that formats with Prettier (or anything) gets no formatting changes.

The runtime: `engines.node` in package.json, else `compilerOptions.target` in tsconfig.json (following `extends`
inside the repository). A fix that introduces syntax or an API the runtime lacks (`?.`, `??`, `**`, `Object.hasOwn`,
`.at()`, …) is held back, and the run says why.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from core.bounded import ConfigRefused, read_config
from core.pipelines.biome import RECOMMENDED_FILES
from core.pipelines.config import path_matches
from core.pipelines.jscheck import pieces

Read = Callable[[str], str | None]
Migrate = Callable[[dict[str, str]], tuple[str | None, str]]

BIOME_FILES = ("biome.json", "biome.jsonc")
ESLINT_DATA = (".eslintrc.json", ".eslintrc", ".eslintrc.yml", ".eslintrc.yaml")
ESLINT_CODE = ("eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", ".eslintrc.js",
               ".eslintrc.cjs")
METADATA_FILES = ("package.json", "tsconfig.json", ".gitignore", ".eslintignore", *BIOME_FILES, *ESLINT_DATA,
                  *ESLINT_CODE)
NEVER_TOUCHED = ("node_modules", "dist", "build", "coverage", "vendor", "**/*.min.js", "**/*.bundle.js",
                 "**/*.d.ts")
MAX_EXTENDS = 5

# What a fix may introduce, and the Node and ECMAScript versions that first have it.
FEATURES: dict[str, tuple[tuple[int, int], int]] = {
    "optional chaining (`?.`)": ((14, 0), 2020),
    "nullish coalescing (`??`)": ((14, 0), 2020),
    "logical assignment (`??=`, `||=`, `&&=`)": ((15, 0), 2021),
    "numeric separators (`1_000`)": ((12, 5), 2021),
    "`Object.hasOwn`": ((16, 9), 2022),
    "`.at()`": ((16, 6), 2022),
    "`.replaceAll()`": ((15, 0), 2021),
    "`.flat()`/`.flatMap()`": ((11, 0), 2019),
    "the exponent operator (`**`)": ((7, 0), 2016),
    "optional catch binding (`catch {`)": ((10, 0), 2019),
    "arrow functions (`=>`)": ((4, 0), 2015),
    "template literals": ((4, 0), 2015),
    "`let`/`const`": ((6, 0), 2015),
    "spread (`...`)": ((8, 3), 2018),
    "`class`": ((6, 0), 2015),
}
_PATTERNS = {
    "optional chaining (`?.`)": r"\?\.(?!\d)",
    "nullish coalescing (`??`)": r"\?\?(?!=)",
    "logical assignment (`??=`, `||=`, `&&=`)": r"\?\?=|\|\|=|&&=",
    "numeric separators (`1_000`)": r"\b\d+_\d",
    "`Object.hasOwn`": r"\bObject\.hasOwn\b",
    "`.at()`": r"\.at\(",
    "`.replaceAll()`": r"\.replaceAll\(",
    "`.flat()`/`.flatMap()`": r"\.(?:flat|flatMap)\(",
    "the exponent operator (`**`)": r"\*\*",
    "optional catch binding (`catch {`)": r"\bcatch\s*\{",
    "arrow functions (`=>`)": r"=>",
    "`let`/`const`": r"\b(?:let|const)\s",
    "spread (`...`)": r"\.\.\.",
    "`class`": r"\bclass\s",
}
_ES_TARGETS = {"es3": 1999, "es5": 2009, "es6": 2015, "esnext": 9999}


@dataclass(frozen=True)
class Runtime:
    """The oldest runtime the project supports: a Node version and/or an ECMAScript year (None: not declared)."""

    node: tuple[int, int] | None = None
    es: int | None = None
    source: str = ""

    def allows(self, feature: str) -> bool:
        node, es = FEATURES[feature]
        return (self.node is None or self.node >= node) and (self.es is None or self.es >= es)

    def describe(self) -> str:
        if self.node is None and self.es is None:
            return "a current Node (nothing in the repository says which: assumed; set engines.node in package.json)"
        parts = ([f"Node {self.node[0]}.{self.node[1]}+"] if self.node else []) + \
            ([f"ES{self.es}" if self.es < 9999 else "ESNext"] if self.es else [])
        return f"{' and '.join(parts)} ({self.source})"


@dataclass(frozen=True)
class JsProfile:
    files: dict[str, str]  # the Biome configuration a run writes beside its copies: name → text
    chosen_by: str
    runtime: Runtime = Runtime()
    ignored: tuple[str, ...] = ()  # the team's patterns in order, `!` re-inclusions kept
    problems: tuple[str, ...] = field(default=())

    def config_files(self) -> dict[str, str]:
        return dict(self.files)

    def ignored_path(self, path: str) -> bool:
        """Generated, vendored and installed files always; otherwise the team's last matching pattern decides."""
        if any(path_matches(pattern, path) for pattern in NEVER_TOUCHED):
            return True
        ignored = False
        for pattern in self.ignored:
            if path_matches(pattern.removeprefix("!"), path):
                ignored = not pattern.startswith("!")
        return ignored


def read_js_profile(read: Read, migrate: Migrate | None = None) -> JsProfile:
    problems: list[str] = []
    package = _json(read("package.json"), "package.json", problems)
    files, chosen_by = _configuration(read, package, migrate, problems)
    return JsProfile(files, chosen_by, find_runtime(read, package, problems), _ignored(read),
                     tuple(problems))


def _configuration(read: Read, package: dict[str, Any], migrate: Migrate | None,
                   problems: list[str]) -> tuple[dict[str, str], str]:
    recommended = dict(RECOMMENDED_FILES)
    fallback = "Biome's recommended correctness rules (no lint configuration memfix can read)"
    for name in BIOME_FILES:
        text = read(name)
        if text is not None:
            files = {name: text, **_extended(read, name, text, problems)}
            return files, f"the repository's {name}"
    eslint = next(((name, text) for name in ESLINT_DATA if (text := read(name)) is not None), None)
    if eslint is None and isinstance(package.get("eslintConfig"), dict):
        eslint = ("package.json eslintConfig", json.dumps(package["eslintConfig"]))
    if eslint is not None:
        data = _eslint_data(*eslint, problems)
        if data is not None and migrate is not None:
            config, said = migrate({".eslintrc.json": json.dumps(data)})
            if config is not None:
                return {"biome.json": _with_environments(config, data)}, f"the ESLint configuration in " \
                    f"{eslint[0]}, translated by `biome migrate eslint`"
            problems.append(f"{eslint[0]} could not be translated to Biome's rules ({said}); Biome's recommended "
                            "correctness rules are proposed")
        return recommended, fallback
    if code := [name for name in ESLINT_CODE if read(name) is not None]:
        problems.append(f"{code[0]} is code, which memfix never runs: its rules are not known, so Biome's recommended "
                        "correctness rules are proposed (a biome.json says exactly which)")
        return recommended, fallback
    return recommended, "Biome's recommended correctness rules (no lint configuration in the repository)"


def _extended(read: Read, name: str, text: str, problems: list[str], depth: int = 0) -> dict[str, str]:
    """The configurations `extends` names, relative to the repository (a package's is not installed here)."""
    data = _json(text, name, problems)
    found: dict[str, str] = {}
    extends = data.get("extends")
    for item in [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []:
        if not isinstance(item, str) or not item.startswith("."):
            problems.append(f"{name} extends {str(item)[:80]!r}, a package memfix does not install; Biome runs "
                            "without it")
            continue
        path = PurePosixPath(name).parent / item
        target = os.path.normpath(str(path)).replace(os.sep, "/")
        if target.startswith("../") or depth >= MAX_EXTENDS:
            problems.append(f"{name} extends {item!r}, outside the repository or too deep; not followed")
            continue
        extended = read(target)
        if extended is None:
            problems.append(f"{name} extends {item!r}, which is not in the repository")
            continue
        found[target] = extended
        found.update(_extended(read, target, extended, problems, depth + 1))
    return found


def _eslint_data(name: str, text: str, problems: list[str]) -> dict[str, Any] | None:
    """The configuration as data for `biome migrate eslint`, without what Biome would load with Node: `extends`
    (shared configurations and plugins are packages, `eslint:recommended` is `@eslint/js`) and `plugins`."""
    json_like = text.lstrip().startswith("{")  # JSON with comments; YAML's `#` comments are YAML's own
    try:
        data = read_config(text, "jsonc" if json_like else "yaml", name)
    except ConfigRefused as exc:
        problems.append(f"{exc}; not read")
        return None
    if not isinstance(data, dict):
        problems.append(f"{name} is not an ESLint configuration memfix can read (a JSON or YAML object)")
        return None
    dropped = [key for key in ("extends", "plugins", "parser") if data.get(key)]
    if dropped:
        problems.append(f"{name}: its {', '.join(f'`{k}`' for k in dropped)} name packages, which memfix neither "
                        "installs nor runs; only the rules it sets itself are proposed")
    kept = {key: value for key, value in data.items() if key not in ("extends", "plugins", "parser")}
    if isinstance(kept.get("overrides"), list):  # an override's own extends would be loaded the same way
        kept["overrides"] = [{k: v for k, v in o.items() if k not in ("extends", "plugins", "parser")}
                             for o in kept["overrides"] if isinstance(o, dict)]
    return kept


# The globals an ESLint environment declares, which `biome migrate` does not carry over: without them Biome's
# noUndeclaredVariables reports `require` in every CommonJS file of a team that enabled `no-undef`.
ENVIRONMENTS = {
    "node": ("require", "module", "exports", "__dirname", "__filename", "process", "Buffer", "global",
             "setImmediate", "clearImmediate"),
    "commonjs": ("require", "module", "exports"),
    "browser": ("window", "document", "navigator", "location", "localStorage", "sessionStorage", "fetch",
                "XMLHttpRequest", "HTMLElement", "Event", "CustomEvent", "self", "alert"),
    "mocha": ("describe", "it", "before", "after", "beforeEach", "afterEach", "context", "specify", "xit",
              "xdescribe"),
    "jest": ("describe", "it", "test", "expect", "jest", "beforeAll", "afterAll", "beforeEach", "afterEach"),
    "jasmine": ("describe", "it", "expect", "jasmine", "spyOn", "beforeEach", "afterEach", "beforeAll", "afterAll"),
    "amd": ("define", "require"),
    "worker": ("self", "postMessage", "importScripts", "onmessage"),
}


def _with_environments(config: str, eslint: dict[str, Any]) -> str:
    """The translated configuration with the globals of the ESLint environments the team turned on."""
    env = eslint.get("env")
    names = {name for key, on in (env.items() if isinstance(env, dict) else ()) if on
             for name in ENVIRONMENTS.get(key, ())}
    if not names:
        return config
    try:
        data = read_config(config, "jsonc", "the translated configuration")
    except ConfigRefused:
        return config
    javascript = data.setdefault("javascript", {})
    javascript["globals"] = sorted({*javascript.get("globals", []), *names})
    return json.dumps(data, indent=2)


def biome_migrate(binary: str) -> Migrate:
    """`biome migrate eslint --write` on data-only configuration files in an empty scratch folder, with no Node.js
    on the PATH (Biome would run Node to load a configuration that is code, or a plugin's): Biome's configuration as
    text, or None and what Biome said."""
    def migrate(files: dict[str, str]) -> tuple[str | None, str]:
        with tempfile.TemporaryDirectory(prefix="memfix-migrate-") as scratch:
            folder = Path(scratch)
            for name, text in files.items():
                (folder / name).write_text(text, encoding="utf-8")
            (folder / "biome.json").write_text("{}", encoding="utf-8")
            empty = folder / "no-node"
            empty.mkdir()
            env = {"PATH": str(empty), "HOME": scratch, "LANG": os.environ.get("LANG", "C.UTF-8")}
            try:
                proc = subprocess.run([binary, "migrate", "eslint", "--write", "--colors=off"], cwd=folder, env=env,
                                      capture_output=True, text=True, timeout=60)
            except (OSError, subprocess.TimeoutExpired) as exc:
                return None, f"Biome could not run: {exc.__class__.__name__}"
            config = (folder / "biome.json").read_text(encoding="utf-8")
        if proc.returncode != 0 or config.strip() == "{}":
            said = " ".join(line.strip(" ×") for line in (proc.stderr + proc.stdout).splitlines() if "×" in line)
            return None, said[:300] or f"exit {proc.returncode}"
        return config, ""
    return migrate


def find_runtime(read: Read, package: dict[str, Any], problems: list[str]) -> Runtime:
    node = None
    engines = package.get("engines")
    spec = engines.get("node") if isinstance(engines, dict) else None
    if isinstance(spec, str):
        node = oldest_node(spec)
        if node is None:
            problems.append(f"engines.node {spec[:60]!r} in package.json names no lowest version memfix can read")
    es, where = _ts_target(read, "tsconfig.json", problems)
    sources = ([f"engines.node {spec!r} in package.json"] if node else []) + ([where] if es else [])
    return Runtime(node, es, "; ".join(sources))


def oldest_node(spec: str) -> tuple[int, int] | None:
    """The lowest Node version a semver range admits: `>=6`, `^14.17.0 || >=16`, `>= 0.10`, `6.x`."""
    lows = []
    for alternative in spec.split("||"):
        match = re.search(r"(?:^|\s)(?:>=|\^|~|=|v)?\s*(\d+)(?:\.(\d+|x|\*))?", alternative.replace(">= ", ">="))
        if match and not re.match(r"\s*<", alternative):
            minor = match.group(2)
            lows.append((int(match.group(1)), int(minor) if minor and minor.isdigit() else 0))
    return min(lows) if lows else None


def _ts_target(read: Read, name: str, problems: list[str], depth: int = 0) -> tuple[int | None, str]:
    data = _json(read(name), name, problems, jsonc=True)
    target = (data.get("compilerOptions") or {}).get("target") if isinstance(data.get("compilerOptions"), dict) \
        else None
    if isinstance(target, str):
        year = _ES_TARGETS.get(target.lower()) or (int(target[2:]) if re.fullmatch(r"(?i)es20\d\d", target) else None)
        return year, f"compilerOptions.target {target!r} in {name}"
    extends = data.get("extends")
    if isinstance(extends, str) and extends.startswith(".") and depth < MAX_EXTENDS:
        parent = os.path.normpath(str(PurePosixPath(name).parent / extends)).replace(os.sep, "/")
        if not parent.startswith("../"):
            return _ts_target(read, parent if parent.endswith(".json") else parent + ".json", problems, depth + 1)
    return None, ""


def introduced(before: str, after: str) -> set[str]:
    """The features of FEATURES that `after` uses more often than `before` (strings, comments and regular
    expressions left out; template literals counted as such)."""
    def counts(text: str) -> dict[str, int]:
        code, templates = [], 0
        for kind, part in pieces(text):
            if kind == "code":
                code.append(part)
            elif kind == "string" and part.startswith("`"):
                templates += 1
        joined = " ".join(code)
        found = {name: len(re.findall(pattern, joined)) for name, pattern in _PATTERNS.items()}
        found["template literals"] = templates
        return found
    was, now = counts(before), counts(after)
    return {name for name in now if now[name] > was.get(name, 0)}


def _ignored(read: Read) -> tuple[str, ...]:
    """The team's ignore patterns in order, `!` re-inclusions kept (a `.gitignore` that ignores `/*` and re-includes
    its sources is common): the last pattern that matches a path decides, as in git."""
    patterns: list[str] = []
    for name in (".gitignore", ".eslintignore"):
        text = read(name) or ""
        patterns += [line.strip().rstrip("/") for line in text.splitlines()[:2000]
                     if line.strip() and not line.lstrip().startswith("#")]
    for name in ESLINT_DATA:
        data = _json(read(name), name, [], jsonc=True) if name.endswith(".json") or name == ".eslintrc" else {}
        listed = data.get("ignorePatterns")
        patterns += [p.rstrip("/") for p in ([listed] if isinstance(listed, str) else listed or [])
                     if isinstance(p, str)]
    return tuple(p for p in patterns if p.strip("!") and len(p) < 300 and ".." not in p.split("/"))


def _json(text: str | None, name: str, problems: list[str], *, jsonc: bool = False) -> dict[str, Any]:
    """A JSON file's object through the bounded reader (comments and trailing commas where the tool allows them),
    or {} and a problem saying why it was not read."""
    if text is None:
        return {}
    try:
        data = read_config(text, "jsonc" if jsonc or name.endswith((".jsonc", "biome.json")) else "json", name)
    except ConfigRefused as exc:
        problems.append(f"{exc}; not read")
        return {}
    return data if isinstance(data, dict) else {}
