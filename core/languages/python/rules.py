"""Python's rules as ruff names them: how a person writes one, which selectors cover it, how risky its fix is, and
what it is about. The registry asks this; nothing outside core/languages/python/ reads ruff's codes."""

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


def code(text: str) -> str | None:
    """A ruff code as a person writes it (any case), upper case; None when it is not one."""
    upper = text.strip().upper()
    return upper if _CODE.fullmatch(upper) else None


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
