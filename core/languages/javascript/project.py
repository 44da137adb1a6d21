"""A JavaScript or TypeScript project as its maintainers declared it, read from its files (never by running them):
the lint configuration that decides which Biome rules are proposed, the paths never touched, and the oldest runtime
a fix must still run on.

The configuration, in order: the repository's `biome.json`/`biome.jsonc` (and what it `extends`, inside the
repository), read by memfix and written again as JSON for Biome, so Biome never follows a path of the repository's
to a file elsewhere; else its ESLint configuration when it is data (`.eslintrc.json`, `.eslintrc`, `.eslintrc.yml`,
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from core.bounded import ConfigFormat, ConfigRefused, Table, array, read_config, shown, table
from core.languages.javascript.biome import RECOMMENDED_FILES
from core.languages.javascript.checks import pieces
from core.languages.javascript.eslintrc import ESLINT_CODE, ESLINT_DATA, Eslint, Migrate, narrowed, read_eslint
from core.languages.javascript.layout import Layout
from core.paths import WORKFLOW_FILES, PathError, ignored_by, repo_path

Read = Callable[[str], str | None]


BIOME_FILES = ("biome.json", "biome.jsonc")
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
    "`node:` imports": ((14, 18), 0),  # Node's own modules by `node:` name: no browser has them either way
    "`Number.` statics (`Number.isNaN`, `Number.parseInt`, …)": ((0, 12), 2015),
    "`.includes()`": ((6, 0), 2016),
    "`Object.entries`/`Object.values`": ((7, 0), 2017),
    "`.padStart()`/`.padEnd()`": ((8, 0), 2017),
    "`Object.fromEntries`": ((12, 0), 2019),
    "`globalThis`": ((12, 0), 2020),
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
    "`Number.` statics (`Number.isNaN`, `Number.parseInt`, …)": r"\bNumber\.(?:isNaN|isFinite|isInteger|isSafeInteger|"
                                                             r"parseInt|parseFloat|EPSILON|MAX_SAFE_INTEGER)\b",
    "`.includes()`": r"\.includes\(",
    "`Object.entries`/`Object.values`": r"\bObject\.(?:entries|values)\b",
    "`.padStart()`/`.padEnd()`": r"\.pad(?:Start|End)\(",
    "`Object.fromEntries`": r"\bObject\.fromEntries\b",
    "`globalThis`": r"\bglobalThis\b",
}
_NODE_PREFIX = re.compile(r"""(?:require\(\s*|\bfrom\s+|import\(\s*)['"]node:""")
_ES_TARGETS = {"es3": 1999, "es5": 2009, "es6": 2015, "esnext": 9999}
# A version's start, the rest of its line what it may: a `.*` to the end made each shorter run of digits try again.
# No version has more than a few digits (Python reads no integer of more than 4,300).
_NODE_VERSION = re.compile(r"v?(\d{1,6})(?:\.(\d{1,6}|x))?(?!\d)")
# A version where an operator or a space starts it: a lookbehind, so a run of spaces is not read from each of its
# places, each reading on to the end of the run.
_LOWEST = re.compile(r"(?:^|(?<=\s))(?!\s)(?:>=|\^|~|=|v)?\s*(\d{1,6})(?:\.(\d{1,6}|x|\*))?(?!\d)")


@dataclass(frozen=True)
class Runtime:
    """The oldest runtime the project supports: a Node version and/or an ECMAScript year (None: not declared)."""

    node: tuple[int, int] | None = None
    es: int | None = None
    source: str = ""
    node_source: str = ""  # what says the Node version
    guessed: bool = False  # the ECMAScript year is only the code's own era (no ES2015 syntax anywhere)

    def declared(self) -> Runtime:
        """What the team declares or tests, without the era's guess: where the team's own linter parses and judges
        each fix, its parser's settings say which syntax the project writes, not the code's past."""
        return Runtime(self.node, None, self.node_source, self.node_source) if self.guessed else self

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
    layout: Layout | None = None  # the team's ESLint layout rules Biome's formatter carries
    reading: tuple[str, ...] = ()  # of `problems`, those of the translation to Biome (moot where ESLint itself runs)

    def config_files(self) -> dict[str, str]:
        return dict(self.files)

    def ignored_path(self, path: str) -> bool:
        """Generated, vendored and installed files always; otherwise the team's last matching pattern decides."""
        return ignored_by(NEVER_TOUCHED, path) or ignored_by(self.ignored, path)


def read_js_profile(read: Read, migrate: Migrate | None = None, sources: tuple[str, ...] = ()) -> JsProfile:
    """The project from its files; `sources` are the run's source paths (whose folders may hold ESLint
    configurations of their own, and whose era says the runtime where nothing else does)."""
    problems: list[str] = []
    package = _json(read("package.json"), "package.json", problems)
    reading: list[str] = []
    files, chosen_by, layout = _configuration(read, package, migrate, sources, reading)
    problems += reading
    return JsProfile(files, chosen_by, find_runtime(read, package, problems, sources), _ignored(read),
                     tuple(problems), layout, tuple(reading))


def _configuration(read: Read, package: Table, migrate: Migrate | None, sources: tuple[str, ...],
                   problems: list[str]) -> tuple[dict[str, str], str, Layout | None]:
    """Biome's configuration, what chose it, and the team's layout rules it carries to the formatter."""
    for name in BIOME_FILES:
        text = read(name)
        if text is not None:
            files = biome_configuration(read, name, text, problems)
            return (files, f"the repository's {name}", None) if files else _recommended(FALLBACK)
    eslint = read_eslint(read, package, sources, problems)
    if eslint is not None:
        translated = _translated(eslint, migrate, problems) if migrate is not None else None
        return translated or _recommended(FALLBACK)
    return _without_eslint_read(read, package, problems)


FALLBACK = "Biome's recommended correctness rules (no lint configuration memfix can read)"


def _recommended(why: str) -> tuple[dict[str, str], str, Layout | None]:
    return dict(RECOMMENDED_FILES), why, None


def _without_eslint_read(read: Read, package: Table,
                         problems: list[str]) -> tuple[dict[str, str], str, Layout | None]:
    """Where no Biome or ESLint configuration could be read: an ESLint wrapper's rules (none), or Biome's
    recommended ones, and why."""
    if wrapper := _eslint_wrapper(package):
        problems.append(f"{wrapper} lints this repository: ESLint with a shareable configuration memfix neither "
                        "installs nor runs, so none of its rules is selected (a biome.json or an ESLint "
                        "configuration file says which)")
        return dict(NOTHING_FILES), f"{wrapper}, whose rules memfix does not run: none selected", None
    if code := [name for name in ESLINT_CODE if read(name) is not None]:  # read_eslint said what it could not read
        problems.append(f"{code[0]} is code memfix does not run, and its rules could not be read from its literals: "
                        "Biome's recommended correctness rules are proposed instead (a biome.json says exactly which)")
        return _recommended(FALLBACK)
    return _recommended(UNCONFIGURED)


def _translated(eslint: Eslint, migrate: Migrate,
                problems: list[str]) -> tuple[dict[str, str], str, Layout | None] | None:
    """The team's ESLint configuration as Biome's, by `biome migrate eslint`; None (and a problem) where Biome wrote
    nothing memfix can read."""
    config, said = migrate({".eslintrc.json": json.dumps(eslint.config)})
    data = _object(config, "biome.json", [], jsonc=True) if config is not None else None
    if data is None:
        why = said or "Biome wrote no configuration memfix can read"
        problems.append(f"{eslint.where} could not be translated to Biome's rules ({why}); Biome's recommended "
                        "correctness rules are proposed")
        return None
    data = narrowed(data, eslint.on, migrate, problems)
    return {"biome.json": json.dumps(_handed(data, drop=_NOT_HANDED), indent=2)}, \
        f"the ESLint configuration in {eslint.where}, translated by `biome migrate eslint`", eslint.layout


UNCONFIGURED = "Biome's recommended correctness rules (no lint configuration in the repository)"


# Keys whose values name files Biome reads itself: GritQL plugins (at the top and in `overrides`), a VCS root, and a
# schema; memfix runs none of them (a plugin's findings are no rule memfix proposes, and VCS ignores are its own).
_NOT_HANDED = ("plugins", "vcs", "$schema")


# Linters that are ESLint with their own shareable configuration, configured in package.json.
ESLINT_WRAPPERS = ("xo", "standard", "semistandard", "ts-standard")
NOTHING_FILES = {"biome.json": json.dumps({"formatter": {"enabled": False}, "assist": {"enabled": False},
                                           "linter": {"enabled": True, "rules": {"recommended": False}}})}


def _eslint_wrapper(package: Table) -> str | None:
    """The ESLint wrapper the team lints with (XO, standard): its package.json key or its devDependency."""
    dev = package.get("devDependencies")
    found = next((w for w in ESLINT_WRAPPERS if w in package or isinstance(dev, dict) and w in dev), None)
    return f"{'XO' if found == 'xo' else found} (package.json)" if found else None


def biome_configuration(read: Read, name: str, text: str, problems: list[str]) -> dict[str, str] | None:
    """The Biome configuration memfix builds from the repository's `name` (biome.json or biome.jsonc): that file and
    each configuration its `extends` names inside the repository, each read through the bounded reader and written
    back as JSON by memfix, so Biome never reads a path memfix did not choose. A kept `extends` is rewritten to the
    copy written beside it, and Biome merges them as it always does (merging here would be a second, drifting copy
    of Biome's rules for `overrides` and presets); an extended file's own `extends` is dropped, as Biome ignores it.
    {path: JSON text}, or None (and a problem) when `name` itself cannot be read."""
    data = _object(text, name, problems, jsonc=True)
    if data is None:
        return None
    files: dict[str, str] = {}
    plugins = _plugins(data)
    for target, extended in _extended(read, name, data.get("extends"), problems).items():
        base = _object(extended, target, problems, jsonc=True)
        if base is not None:
            files[target] = json.dumps(_handed(base, drop=("extends", *_NOT_HANDED)), indent=2)
            plugins = plugins or _plugins(base)
    handed = _handed(data, drop=("extends", *_NOT_HANDED))
    if files:
        handed["extends"] = [f"./{target}" for target in files]
    if plugins:
        problems.append(f"{name}: its Biome plugins are not run (memfix proposes Biome's own rules only)")
    return {name: json.dumps(handed, indent=2), **files}


def _extended(read: Read, name: str, extends: object, problems: list[str]) -> dict[str, str]:
    """The configurations `extends` names that memfix follows, {repository path: text}: relative, inside the
    repository once normalised, JSON, and a regular file there (never a link, a FIFO or a device: `read` says).
    Each one left out is said in memfix's words; nothing of it is read."""
    found: dict[str, str] = {}
    for item in [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []:
        said = f"{name} extends {shown(item)}"
        target, why = _extend_target(name, item)
        if target in found:
            continue
        if target is not None and not why:
            text, why = _extended_text(read, name, target, len(found))
            if text is not None:
                found[target] = text
                continue
        problems.append(f"{said}{why}")
    return found


def _extend_target(name: str, item: object) -> tuple[str | None, str]:
    """The repository path an `extends` item of `name` names, or None and why it is not followed."""
    if not isinstance(item, str) or not item.strip():
        return None, ", which is not a path; not followed"
    if item.startswith(("/", "~", "\\")) or re.match(r"[A-Za-z]:", item):
        return None, ", a path outside the repository; not followed"
    if not item.startswith("."):
        return None, ", a package memfix does not install; Biome runs without it"
    try:
        return repo_path(os.path.normpath(str(PurePosixPath(name).parent / item)).replace(os.sep, "/")), ""
    except PathError:
        return None, ", a path outside the repository; not followed"


def _extended_text(read: Read, name: str, target: str, followed: int) -> tuple[str | None, str]:
    """The text of a configuration `name` extends, or None and why it is not followed (`followed`: how many are)."""
    if target == name or not target.endswith((".json", ".jsonc")):
        return None, ", which is not another JSON configuration; not followed"
    if followed >= MAX_EXTENDS:
        return None, f": more than {MAX_EXTENDS} configurations extended; not followed"
    if (text := read(target)) is None:
        return None, (", which is not a file memfix reads in the repository (missing, a link, or not a regular "
                      "file); not followed")
    return text, ""


def _handed(data: Table, drop: tuple[str, ...]) -> Table:
    """The configuration without the keys memfix does not hand Biome, at the top and in each override."""
    kept = {key: value for key, value in data.items() if key not in drop}
    if isinstance(overrides := kept.get("overrides"), list):
        kept["overrides"] = [{k: v for k, v in o.items() if k not in drop} if isinstance(o, dict) else o
                             for o in overrides]
    return kept


def _plugins(data: Table) -> bool:
    overrides = data.get("overrides")
    return bool(data.get("plugins")) or isinstance(overrides, list) and any(
        isinstance(o, dict) and o.get("plugins") for o in overrides)


def find_runtime(read: Read, package: Table, problems: list[str], files: tuple[str, ...] = ()) -> Runtime:
    """The oldest runtime, from what the team declares first (`engines.node`, tsconfig's target), then from what it
    tests and ships for where it declares nothing: the Node versions its CI runs, the browsers its browserslist
    names, and the code's own era (sources with no ES2015 syntax anywhere are ES5)."""
    node, node_where = _engines_node(package, problems)
    if node is None:
        node, node_where = _ci_node(read)
    es, where = _ts_target(read, "tsconfig.json", problems)
    if es is None:
        es, where = _browsers(read, package)
    if es is None:
        es, where = _era(read, files, package)
        if es is not None:
            return Runtime(node, es, "; ".join(w for w in (node_where, where) if w), node_where, guessed=True)
    return Runtime(node, es, "; ".join(w for w in (node_where, where) if w))


def _engines_node(package: Table, problems: list[str]) -> tuple[tuple[int, int] | None, str]:
    """The lowest Node version package.json's `engines.node` admits, and where that is said."""
    engines = package.get("engines")
    spec = engines.get("node") if isinstance(engines, dict) else None
    if not isinstance(spec, str):
        return None, ""
    if (node := oldest_node(spec)) is None:
        problems.append(f"engines.node {spec[:60]!r} in package.json names no lowest version memfix can read")
        return None, ""
    return node, f"engines.node {spec!r} in package.json"


# Where a CI names the Node versions it tests on: GitHub Actions' matrices and setup-node, Travis' `node_js`.
_NODE_KEYS = ("node-version", "node_version", "node", "node_js", "nodejs", "node-versions")
MAX_ERA_FILES = 300  # sources read for the code's own era
MIN_ERA_FILES = 3  # fewer say nothing of an era (a config file or two)


def _ci_node(read: Read) -> tuple[tuple[int, int] | None, str]:
    """The oldest Node version the team's CI runs, and the file that says so."""
    found: list[tuple[tuple[int, int], str]] = []
    for name in (*WORKFLOW_FILES, ".travis.yml"):
        text = read(name)
        if text is None:
            continue
        try:
            data = read_config(text, "yaml", name)
        except ConfigRefused:
            continue
        found += [(version, name) for version in _node_versions(data)]
    if not found:
        return None, ""
    version, name = min(found)
    return version, f"the oldest Node its CI runs ({version[0]}, in {name})"


def _node_versions(data: object, depth: int = 0) -> list[tuple[int, int]]:
    """Every Node version named under a node key anywhere in a CI file (`lts/*` and `${{ … }}` name none)."""
    if depth > 12:
        return []
    if isinstance(data, list):
        return [v for item in data for v in _node_versions(item, depth + 1)]
    if not isinstance(data, dict):
        return []
    versions = []
    for key, value in data.items():
        if str(key).lower() in _NODE_KEYS:
            versions += _named_versions(value)
        else:
            versions += _node_versions(value, depth + 1)
    return versions


def _named_versions(value: object) -> list[tuple[int, int]]:
    """The Node versions a node key names: one, or a matrix's list."""
    return [v for item in (value if isinstance(value, list) else [value]) if (v := _node_version(item)) is not None]


def _node_version(item: object) -> tuple[int, int] | None:
    """A CI's Node version (`14`, `16.3`, `"18.x"`) as (major, minor); None for what names none (`lts/*`)."""
    if not isinstance(item, int | float | str):
        return None
    match = _NODE_VERSION.match(str(item).strip())
    if not match or "\n" in match.string:
        return None
    return int(match[1]), int(match[2]) if match[2] and match[2].isdigit() else 0


def _browsers(read: Read, package: Table) -> tuple[int | None, str]:
    """ES5 where the team's browserslist names Internet Explorer (the last browser without ES2015)."""
    listed = package.get("browserslist")
    values = listed.values() if isinstance(listed, dict) else listed if isinstance(listed, list) else [listed or ""]
    text, where = "\n".join(str(v) for v in values), "browserslist in package.json"
    if not text.strip() and (found := read(".browserslistrc")) is not None:
        text, where = found, ".browserslistrc"
    for query in re.split(r"[\n,]", text):
        if re.match(r"\s*(?:ie|explorer)\b\s*(?:\d|>|<)", query, re.IGNORECASE):
            return 2009, f"ES5: its {where} names Internet Explorer ({query.strip()[:40]!r})"
    return None, ""


def _era(read: Read, files: tuple[str, ...], package: Table) -> tuple[int | None, str]:
    """ES5 where none of the project's JavaScript sources uses ES2015 syntax (`const`, arrows, classes, template
    literals): the team writes for runtimes that lack it, whatever it declares."""
    sources = _era_sources(files, package)
    if len(sources) < MIN_ERA_FILES or not all(_written_in_es5(read(path)) for path in sources):
        return None, ""
    shipped = " for browsers (its package.json has a `browser` field)" if package.get("browser") else ""
    return 2009, f"ES5: none of its {len(sources)} JavaScript file(s) uses ES2015 syntax{shipped}"


def _era_sources(files: tuple[str, ...], package: Table) -> list[str]:
    """The sources that tell the code's era, or none: TypeScript compiles to its own target, and a module package
    is ES2015 by being one."""
    typed = any(p.endswith((".ts", ".tsx", ".mts", ".cts")) for p in files)
    if typed or package.get("type") == "module":
        return []
    return [p for p in files if p.endswith((".js", ".cjs")) and not p.endswith(".min.js")][:MAX_ERA_FILES]


_ES2015 = ("arrow functions (`=>`)", "template literals", "`let`/`const`", "`class`")


def _written_in_es5(text: str | None) -> bool:
    """A source that uses none of ES2015's syntax (one that cannot be read says nothing of an era)."""
    return text is not None and not any(feature in introduced("", text) for feature in _ES2015)


def oldest_node(spec: str) -> tuple[int, int] | None:
    """The lowest Node version a semver range admits: `>=6`, `^14.17.0 || >=16`, `>= 0.10`, `6.x`."""
    lows = []
    for alternative in spec.split("||"):
        match = _LOWEST.search(alternative.replace(">= ", ">="))
        if match and not re.match(r"\s*<", alternative):
            minor = match.group(2)
            lows.append((int(match.group(1)), int(minor) if minor and minor.isdigit() else 0))
    return min(lows) if lows else None


def _ts_target(read: Read, name: str, problems: list[str], depth: int = 0) -> tuple[int | None, str]:
    data = _json(read(name), name, problems, jsonc=True)
    target = table(data.get("compilerOptions")).get("target")
    if isinstance(target, str):
        return _es_year(target), f"compilerOptions.target {target!r} in {name}"
    extends = data.get("extends")
    if isinstance(extends, str) and extends.startswith(".") and depth < MAX_EXTENDS:
        parent = os.path.normpath(str(PurePosixPath(name).parent / extends)).replace(os.sep, "/")
        if not parent.startswith("../"):
            return _ts_target(read, parent if parent.endswith(".json") else parent + ".json", problems, depth + 1)
    return None, ""


def _es_year(target: str) -> int | None:
    """The ECMAScript year a TypeScript `target` compiles to (`ES5`: 2009, `ES2017`: 2017)."""
    return _ES_TARGETS.get(target.lower()) or (int(target[2:]) if re.fullmatch(r"(?i)es20\d\d", target) else None)


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
        found["`node:` imports"] = len(_NODE_PREFIX.findall(text))  # the name is a string: read in the whole text
        return found
    was, now = counts(before), counts(after)
    return {name for name in now if now[name] > was.get(name, 0)}


def _ignored(read: Read) -> tuple[str, ...]:
    """The team's ignore patterns in order, `!` re-inclusions kept (a `.gitignore` that ignores `/*` and re-includes
    its sources is common): the last pattern that matches a path decides, as in git."""
    patterns: list[str] = []
    for name in (".gitignore", ".eslintignore"):
        patterns += _ignore_lines(read(name) or "")
    for name in ESLINT_DATA:
        patterns += _ignore_patterns(read, name)
    return tuple(p for p in patterns if p.strip("!") and len(p) < 300 and ".." not in p.split("/"))


def _ignore_lines(text: str) -> list[str]:
    """An ignore file's patterns, blank lines and comments left out (its first 2,000 lines)."""
    return [line.strip() for line in text.splitlines()[:2000] if line.strip() and not line.lstrip().startswith("#")]


def _ignore_patterns(read: Read, name: str) -> list[str]:
    """The `ignorePatterns` of a legacy ESLint configuration held as JSON (a JavaScript or YAML one is not read)."""
    data = _json(read(name), name, [], jsonc=True) if name.endswith(".json") or name == ".eslintrc" else {}
    listed = data.get("ignorePatterns")
    return [p for p in ([listed] if isinstance(listed, str) else array(listed)) if isinstance(p, str)]


def _json(text: str | None, name: str, problems: list[str], *, jsonc: bool = False) -> Table:
    """A JSON file's object, or {} (missing, or refused and said why)."""
    return _object(text, name, problems, jsonc=jsonc) or {}


def _object(text: str | None, name: str, problems: list[str], *, jsonc: bool = False, fmt: ConfigFormat | None = None,
            not_object: str = "is not a JSON object; not read") -> Table | None:
    """A configuration file's object through the bounded reader (JSON by default, with comments and trailing commas
    where the tool allows them), or None: missing, or refused with a problem saying why."""
    if text is None:
        return None
    try:
        data = read_config(text, fmt or ("jsonc" if jsonc or name.endswith(".jsonc") else "json"), name)
    except ConfigRefused as exc:
        problems.append(f"{exc}; not read")
        return None
    if not isinstance(data, dict):
        problems.append(f"{name} {not_object}")
        return None
    return data
