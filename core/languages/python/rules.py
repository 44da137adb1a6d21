"""Python's rules as ruff names them: how a person writes one, which selectors cover it, how risky its fix is, and
what it is about. The registry asks this; nothing outside core/languages/python/ reads ruff's codes.

ruff's codes are flake8's and its plugins' (F401, E501, B008): one namespace, so a rule is its bare code, and
`ruff:F401` or `flake8:E501` name the same rule. pylint's message ids are ruff's `PL` codes (`pylint:C0414` is
`PLC0414`); pylint's symbolic names (`unused-import`) map to no code memfix can be sure of, so they are refused."""

from __future__ import annotations

import re

NAME = "python"
ALIASES = ("py",)
LINTER = "ruff"
FIXERS: dict[str, str] = {}  # flake8 reports, memfix's ruff fixes: no finding's source fixes itself
FIXER = "ruff"  # whose fix a PR says it is
# What a PR's verification section says each project check kept, in this language's words.
SAID = {"runtime": "the project's oldest Python",
        "surface": "public surface and dynamic uses kept (exports, `__all__`, import probes, exec/locals(), "
                   "side-effect imports, doctests, string annotations, data files)",
        "comments": "comments kept where they apply (`# pragma`, `# noqa`, `# type:`)"}
READS_REPOSITORY = True  # its checks read every source of the repository (the public surface, dynamic uses)
PLACES = {  # the kinds of place (core/learning/places.py) its file names say
    "generated": ("**/*_pb2.py", "**/*_pb2_grpc.py", "**/*_pb2.pyi"),
    "test": ("test_*.py", "*_test.py", "conftest.py"),
    "script": ("setup.py", "noxfile.py", "fabfile.py", "manage.py", "tasks.py"),
    "init": ("__init__.py",),
}
_CODE = re.compile(r"[A-Z]{1,8}[0-9]{1,4}")
_SELECTOR = re.compile(r"[A-Z]{1,8}[0-9]{0,4}")  # a linter's prefix, optionally narrowed by digits (`UP`, `S6`)
_PYLINT = re.compile(r"[CRWE][0-9]{0,4}")  # pylint's message ids, which ruff's `PL` codes carry
FORMATTER = "black:format"  # the team's black's one rule: its layout (core/languages/formatter.py)
# the team's pre-commit hooks that rewrite files, each one rule: its rewrite (core/languages/formatter.py)
REWRITES = {"autoflake": "autoflake:rewrite", "pyupgrade": "pyupgrade:rewrite", "isort": "isort:rewrite"}
FORMATTERS = (*REWRITES.values(), FORMATTER)
TOOLS = ("ruff", "flake8", "pylint")  # the tools whose names may prefix a rule: `ruff:F401`, `flake8:E501`
FORMS = "`F401`, `ruff:F401`, `flake8:E501`, `pylint:C0414` (ruff's `PLC0414`), `UP` for a linter's every rule"

# Risk class by rule prefix; the longest matching prefix wins, unknown rules are medium.
RISK = {
    # low: the fix cannot change what the program does
    "F541": "low", "F632": "low", "E711": "low", "E712": "low", "E713": "low", "E714": "low", "UP034": "low",
    "UP039": "low", "PIE790": "low", "PIE804": "low", "RUF005": "low", "C4": "low",
    # medium: behaviour is kept when nothing else depends on what goes (the surface checks look for that)
    "F": "medium", "RET": "medium", "SIM": "medium", "PERF": "medium", "FURB": "medium", "B": "medium",
    "UP": "medium", "E": "medium", "PIE": "medium", "RUF": "medium",
    # high: different objects, exceptions or evaluation at run time, even when ruff calls the fix safe
    "UP017": "high", "UP041": "high", "UP024": "high", "UP035": "high", "UP006": "high", "UP007": "high",
    "UP045": "high", "B905": "high",
    FORMATTER: "low",  # a formatter keeps the syntax tree: black refuses any rewrite that changes it
    "isort:rewrite": "low", "pyupgrade:rewrite": "medium", "autoflake:rewrite": "medium",
}
# What a rule is about, by its linter (a prefix names a whole linter only: `S` is bandit's S101, not SIM102).
CATEGORY = (("S", "security"), ("PERF", "performance"), ("PLE", "correctness"), ("F", "correctness"),
            ("E9", "correctness"), ("E7", "correctness"), ("B", "correctness"), ("UP", "maintainability"),
            ("SIM", "maintainability"), ("C4", "maintainability"), ("RET", "maintainability"),
            ("PIE", "maintainability"), ("FURB", "maintainability"))


def kind(message: str) -> str:
    """What a finding's message says of its kind: ruff quotes the code's own names, which the insight strips."""
    return message


def owns(path: str) -> bool:
    return path.endswith(".py")


def fence(path: str) -> str:
    """The code fence a prompt shows the file in."""
    return "python"


_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w. \t,]+)", re.M)
_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]*(\([^)]{0,4000}\)?|[^\n]*)", re.M)


def imports(importer: str, text: str, target: str) -> bool:
    """Whether the module `importer` (its text) imports the file `target`, read from its import lines alone (never
    run): `import a.b`, `from a.b import x`, `from a import b`, and relative imports resolved against its package."""
    module = module_name(target)
    package = module_name(importer).split(".")[:None if importer.endswith("__init__.py") else -1]
    named = [name.split()[0] for m in _IMPORT.finditer(text) for name in m.group(1).split(",") if name.split()]
    for m in _FROM.finditer(text):
        named += _from_import(m.group(1), m.group(2), package)
    return any(n == module or n.startswith(f"{module}.") for n in named if n)


def _from_import(written: str, listed: str, package: list[str]) -> list[str]:
    """The modules `from <written> import <listed>` may name: the source, resolved against `package` where it is
    relative, and each name under it."""
    source, level = written.lstrip("."), len(written) - len(written.lstrip("."))
    if level:
        source = ".".join([*package[:len(package) - level + 1], *([source] if source else [])])
    names = listed.split("#", 1)[0].strip("()\\ \t")
    return [source, *(f"{source}.{n.split()[0]}" for n in names.split(",") if n.split())]


def module_name(path: str) -> str:
    """A module's dotted name from its path (`src/` and `lib/` layouts are the package's root)."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if parts and parts[0] in ("src", "lib"):
        parts = parts[1:]
    return ".".join(parts)


def code(text: str) -> str | None:
    """One rule as a person writes it (any case, with or without its tool: `f401`, `ruff:F401`, `pylint:C0414`), as
    ruff spells it; None when it is not one."""
    found = selector(text)
    return found if found is not None and (_CODE.fullmatch(found) or found in FORMATTERS) else None


def selector(text: str, any_case: bool = True) -> str | None:
    """A rule or a selector of rules (`F401`, `UP`, `ALL`) as a person writes it, as ruff spells it. Without
    `any_case` a bare name counts only in ruff's own upper case, where a lower-case word is more likely a path
    (`/refactor UP app`); a name with its tool's prefix is never a path."""
    if text.strip() in FORMATTERS:
        return text.strip()
    tool, colon, name = text.strip().partition(":")
    if not colon:
        upper = tool.upper()
        return upper if _SELECTOR.fullmatch(upper) and (any_case or upper == tool) else None
    upper = name.upper()
    if tool.lower() == "pylint":
        return f"PL{upper}" if _PYLINT.fullmatch(upper) else None
    return upper if tool.lower() in ("ruff", "flake8") and _SELECTOR.fullmatch(upper) else None


def unnamed(text: str) -> str | None:
    """Why a name given with one of these tools' prefixes names no rule, when more can be said than the forms."""
    if text.strip().lower().startswith("pylint:"):
        return "pylint's rules are named by their message id (`pylint:C0414`, which ruff runs as `PLC0414`)"
    return None


def shown(rule: str) -> str:
    """A rule as a person reads it: its bare code, which ruff and flake8 share."""
    return rule


def covers(wide: str, narrow: str) -> bool:
    """A ruff selector covers a code or narrower selector of its own linter: `F` covers `F401`, not `FURB105`;
    `ALL` covers everything."""
    if wide == "ALL":
        return True
    wide_match, narrow_match = re.fullmatch(r"([A-Z]+)(\d*)", wide), re.fullmatch(r"([A-Z]+)(\d*)", narrow)
    if wide_match is None or narrow_match is None:
        return False
    (wl, wd), (nl, nd) = wide_match.groups(), narrow_match.groups()
    if wl == "PL" and not wd:  # pylint's selector covers its four kinds
        return nl in ("PL", "PLC", "PLE", "PLR", "PLW")
    return wl == nl and nd.startswith(wd)


def risk(rule: str) -> str:
    best = max((p for p in RISK if rule.startswith(p)), key=len, default=None)
    return RISK[best] if best else "medium"


def category(rule: str) -> str:
    return next((c for prefix, c in CATEGORY if rule.startswith(prefix)
                 and not (prefix[-1].isalpha() and rule[len(prefix):len(prefix) + 1].isalpha())), "maintainability")
