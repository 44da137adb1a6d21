"""Scanners of repository text: each one on pathological input at 256 KiB and at 1 MiB, and the ratio of the times.

Run: `python -m benchmarks.scanners` (MEMFIX_BENCH_TIMEOUT=seconds per measurement, 60 by default; arguments keep
the cases whose scanner and kind hold one of them). Prints numbers; asserts nothing. About 15 minutes.

Whoever can put a file in a repository chooses what memfix's readers see. A reader linear in its input takes about 4×
as long on 1 MiB as on 256 KiB; a ratio above 6 is flagged NOT LINEAR where the larger run takes 50 ms or more (below
that, the memory's caches decide the ratio). A reader that refuses input over a size limit is measured just under its
limit and at a quarter of that (said on its line), so the ratio still means the same. Each scanner × input runs in a
forked process, the two sizes in turn: the CPU seconds of the best of a few runs at each, every run on an input made
afresh before the clock starts. A run past the timeout stops the process; its ratio then is at least what it says.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

KIB = 1024
SMALL, LARGE = 256 * KIB, 1024 * KIB
RATIO_LIMIT = 6.0
# Below this at the larger size, a ratio is the memory's (a million small strings outgrow the caches: `str.split` alone
# goes ×9 from 64 KiB to 256 KiB here), not the scanner's; nothing quadratic in its input is this fast at these sizes.
FLOOR = 0.05
TIMEOUT = float(os.environ.get("MEMFIX_BENCH_TIMEOUT", "60"))
# Each size is run as many times (the best run counts), so neither gets more chances at a quiet moment: RUNS times,
# or MIN_RUNS where that would take longer than MAX_SECONDS.
RUNS, MIN_RUNS, MAX_SECONDS = 7, 3, 10.0


@dataclass(frozen=True)
class Case:
    scanner: str
    kind: str
    make: Callable[[int], Any]  # size in characters → the scanner's input
    run: Callable[[Any], object]
    limit: int | None = None  # the most its input may have (it refuses more): measured just under and at a quarter


def repeat(unit: str, size: int, head: str = "", tail: str = "") -> str:
    """`head`, `unit` as many times as fit in `size` characters with `tail`, and `tail`."""
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


def numbered(unit: str, size: int) -> str:
    """`unit` with its `{}` numbered 0, 1, 2, … as many times as fit in `size` characters."""
    parts, used = [], 0
    while used + len(part := unit.format(len(parts))) <= size:
        parts.append(part)
        used += len(part)
    return "".join(parts)


def _sizes(case: Case) -> tuple[int, int]:
    if case.limit is None:
        return SMALL, LARGE
    under = case.limit - min(KIB, case.limit // 64)
    return under // 4, under


# ---- the readers ----


def _config(fmt: str) -> Callable[[str], object]:
    from core.bounded import ConfigRefused, read_config

    def run(text: str) -> object:
        try:
            return read_config(text, fmt, "bench")  # type: ignore[arg-type]
        except ConfigRefused as exc:
            return exc
    return run


def bounded_cases() -> list[Case]:
    nested = "[" * 31 + "]" * 31
    json_like = {
        "deep nesting (31 levels, repeated)": lambda n: repeat(nested + ",", n, "[", nested + "]"),
        "many keys": lambda n: repeat('"k": 1, ', n, "{", '"end": 0}'),
        "a long string": lambda n: repeat("a", n, '{"k": "', '"}'),
        "many unterminated comments `/* `": lambda n: repeat("/* ", n, "{"),
        "many quotes": lambda n: repeat('"', n),
        "many escaped quotes, unterminated": lambda n: repeat('\\"', n, '["'),
        "many single quotes": lambda n: repeat("'", n),
    }
    cases = [Case(f"bounded.read_config {fmt}", kind, make, _config(fmt))
             for fmt in ("json", "jsonc", "json5") for kind, make in json_like.items()]
    yaml = {
        "deep nesting (31 levels, repeated)": lambda n: repeat(nested + ", ", n, "[", nested + "]"),
        "many keys": lambda n: repeat("k: 1\n", n),
        "a long string": lambda n: repeat("a", n, "k: '", "'"),
        "many unterminated comments `/* `": lambda n: repeat("/* ", n, "k: "),
        "many quotes": lambda n: repeat("'", n, "k: "),
        "many escapes in a double-quoted string": lambda n: repeat('\\"', n, 'k: "', '"'),
    }
    toml = {
        "a long dotted key `a.a.a… = 1`": lambda n: repeat("a.", n, "", "a = 1\n"),
        "deep nesting (31 levels, repeated)": lambda n: repeat(nested + ", ", n, "k = [", nested + "]\n"),
        "many keys": lambda n: numbered("k{} = 1\n", n),
        "a long string": lambda n: repeat("a", n, 'k = "', '"\n'),
        "an unterminated multi-line string": lambda n: repeat("a'", n, "k = '''"),
        "many quotes": lambda n: repeat('"', n, "k = "),
        "many comments": lambda n: repeat("# /* \n", n),
    }
    ini = {
        "many keys": lambda n: repeat("k = 1\n", n, "[s]\n"),
        "many sections": lambda n: numbered("[s{}]\nk = 1\n", n),
        "a long value": lambda n: repeat("a", n, "[s]\nk = "),
        "many continuation lines": lambda n: repeat("  a\n", n, "[s]\nk =\n"),
        "many unterminated comments `/* `": lambda n: repeat("/* ", n, "[s]\nk = "),
        "many quotes": lambda n: repeat('"', n, "[s]\nk = "),
    }
    cases += [Case("bounded.read_config yaml", kind, make, _config("yaml")) for kind, make in yaml.items()]
    cases += [Case("bounded.read_config toml", kind, make, _config("toml")) for kind, make in toml.items()]
    cases += [Case("bounded.read_config ini", kind, make, _config("ini")) for kind, make in ini.items()]
    return cases


JS_TEXTS: dict[str, Callable[[int], str]] = {
    "many unterminated comments `/* `": lambda n: repeat("/* ", n),
    "an unterminated template of escaped backticks before `${`": lambda n: repeat("\\`", n, "`", "${"),
    "many unterminated templates": lambda n: repeat("`${", n),
    "a line of escaped quotes, unterminated": lambda n: repeat('\\"', n, '"'),
    "a line of escaped single quotes, unterminated": lambda n: repeat("\\'", n, "'"),
    "many quotes": lambda n: repeat("\"'`", n),
    "many regular-expression starts `(/`": lambda n: repeat("(/a", n),
    "a long member chain with spaces `a . a . …`": lambda n: repeat("a  .  ", n, "", "1"),
    "many names then spaces": lambda n: repeat("a" + " " * 30, n),
    "many numbers": lambda n: repeat("1.5e3, ", n),
}


# What the pieces of a text (strings, templates, regular expressions, comments) are told apart on.
PIECES = ("many unterminated comments `/* `", "an unterminated template of escaped backticks before `${`",
          "many unterminated templates", "a line of escaped quotes, unterminated", "many quotes",
          "many regular-expression starts `(/`")


def literal_cases() -> list[Case]:
    from core.languages.javascript import literal

    cases = [Case("literal.tokens", kind, make, literal.tokens) for kind, make in JS_TEXTS.items()]
    config = {
        "a real configuration, many rules": lambda n: repeat('  "rule-x": ["error", { "a": [1, 2] }],\n', n,
                                                             "export default [{ rules: {\n", "}}];\n"),
        "nesting to the limit, repeated": lambda n: repeat("[" * 39 + "]" * 39 + ",", n, "export default [", "];"),
        "many unknown expressions": lambda n: repeat("a(b)(c) || d, ", n, "export default [", "];"),
        "many declarations, then the export": lambda n: repeat("const a = {b: 1};\n", n, "", "export default a;"),
        "many templates with substitutions": lambda n: repeat("`${a}/b`, ", n, "export default [", "];"),
        "many unterminated comments `/* `": lambda n: repeat("/* ", n, "export default [1] "),
        "an unterminated template of escaped backticks before `${`": lambda n: repeat("\\`", n, "export default `",
                                                                                        "${"),
    }
    cases += [Case("literal.exported", kind, make, literal.exported, literal.MAX_CHARS)
              for kind, make in config.items()]
    cases.append(Case("literal.imports", "many unterminated requires", lambda n: repeat('const a = require("', n),
                      literal.imports))
    return cases


def _layout_run(rules: dict[str, Any], path: str = "a.js") -> Callable[[tuple[str, str]], object]:
    from core.languages.javascript.layout import Layout, edits

    layout = Layout(**rules)
    return lambda texts: edits(texts[0], texts[1], layout, path)


def _with_semicolons(unit: str) -> Callable[[int], tuple[str, str]]:
    """An original of `unit` statements, and as formatted: each statement ends with a semicolon."""
    def make(n: int) -> tuple[str, str]:
        original = repeat(unit, n)
        return original, original.replace("\n", ";\n")
    return make


def layout_cases() -> list[Case]:
    lines = {"trailing_spaces": (False, False), "blank": (1, 1, 1), "eol_last": True}
    template = "a = `x  \n  y  `\n"
    cases = [
        Case("layout.edits", "template literals with trailing spaces (line rules, semicolons added)",
             _with_semicolons(template), _layout_run({**lines, "semi": "always"})),
        Case("layout.edits", "template literals, trailing spaces and comments (comments skipped)",
             _with_semicolons("a = `x  \n  y  ` /* c */  \n"),
             _layout_run({"trailing_spaces": (True, True), "semi": "always"})),
        Case("layout.edits", "many blank lines, in templates and between them",
             lambda n: (repeat("a = `x\n\n\n`\n\n\n\n", n), repeat("a = `x\n\n\n`;\n\n\n\n", n)),
             _layout_run({**lines, "semi": "always"})),
        Case("layout.edits", "many statements, semicolons added",
             _with_semicolons("go()\n"), _layout_run({"semi": "always"})),
        Case("layout.edits", "many statements, semicolons taken away",
             lambda n: (repeat("go();\n", n), repeat("go()\n", n)), _layout_run({"semi": "never"})),
        Case("layout.edits", "many extra semicolons",
             lambda n: (repeat("go();;\n", n), repeat("go();\n", n)), _layout_run({"extra_semi": True})),
        Case("layout.edits", "many dangling commas taken away",
             lambda n: (repeat("[a,]\n", n), repeat("[a]\n", n)), _layout_run({"commas": "never"})),
        Case("layout.edits", "many commas added to multi-line lists",
             lambda n: (repeat("f([\n  a\n])\n", n), repeat("f([\n  a,\n])\n", n)),
             _layout_run({"commas": "always-multiline"})),
        Case("layout.edits", "many quotes changed",
             lambda n: (repeat('"a"\n', n), repeat("'a'\n", n)), _layout_run({"quotes": "'"})),
        Case("layout.edits", "texts that part ways at every token",
             lambda n: (repeat("a b ", n), repeat("b a ", n)), _layout_run({"semi": "always"})),
        Case("layout.edits", "texts that differ at every fifth token",
             lambda n: (repeat("a a a a x ", n), repeat("a a a a y ", n)), _layout_run({"semi": "always"})),
        Case("layout.edits", "long runs of punctuation that differ",
             lambda n: (repeat(";;,,,,", n, "a"), repeat(";,,,,,", n, "a")), _layout_run({"semi": "always"})),
    ]
    from core.languages.javascript.layout import keyed, same_layout, tokens

    cases += [Case("layout.tokens", kind, JS_TEXTS[kind], tokens) for kind in PIECES]
    cases += [Case("layout.keyed", "many unterminated templates", JS_TEXTS["many unterminated templates"], keyed),
              Case("layout.same_layout", "many blank lines", lambda n: repeat("a\n\n\n", n),
                   lambda text: same_layout(text, text))]
    return cases


def checks_cases() -> list[Case]:
    from collections import deque

    from core.change import Finding, Patch
    from core.languages.javascript import checks

    exports = {
        "many unterminated export lists `export {`": lambda n: repeat("export {", n),
        "many blank lines": lambda n: repeat("\n", n, "x"),
        "many `export` then spaces": lambda n: repeat("export" + " " * 30, n),
        "many exports of every kind": lambda n: repeat(
            "export const a = 1; export { b as c }; export * as d from 'e'; module.exports.f = 1;\n", n),
    }
    directives = {
        "a directive with a long run of spaces": lambda n: repeat(" ", n, "/* eslint-disable a", "b */"),
        "many directives, each a new rule": lambda n: numbered("/* eslint-disable r{} */\n", n),
        "many rules disabled, then many enabled": lambda n: numbered("/* eslint-disable r{} */\n", n // 2) + numbered(
            "/* eslint-enable x{} */\n", n // 2),
        "many next-line directives": lambda n: repeat("// eslint-disable-next-line a, b -- why\nx\n", n),
    }
    pieces = {kind: JS_TEXTS[kind] for kind in PIECES}
    cases = []
    for name, run, texts in (("checks.pieces", lambda t: deque(checks.pieces(t), maxlen=0), pieces),
                             ("checks.disabled", checks.disabled, directives),
                             ("checks.exports", checks.exports, exports),
                             ("checks.directives", checks.directives, directives)):
        cases += [Case(name, kind, make, run) for kind, make in texts.items()]

    def patch(original: str, updated: str) -> Patch:
        return Patch("a.js", original, updated, (Finding("a.js", 1, 1, "lint/x", "x", source="biome"),), "biome")

    def suppressed(p: Patch) -> object:
        return checks.suppressed_change(p, lambda names: frozenset())
    changed = "/* eslint-disable r */\n" + "a\n}\n" * 2
    cases += [
        Case("checks.suppressed_change", "every other line changed, many identical lines",
             lambda n: patch(repeat("x\n}\n", n, changed), repeat("y\n}\n", n, changed)), suppressed),
        Case("checks.suppressed_change", "a region disabled, one line changed in many identical lines",
             lambda n: patch(repeat("}\n", n, changed), repeat("}\n", n // 2, changed) + "y\n" +
                             repeat("}\n", n // 2)), suppressed),
        Case("checks.suppressed_change", "distinct lines, every other one changed",
             lambda n: patch(changed + numbered("a{}\n", n), changed + numbered("a{}\n", n).replace("0\n", "0;\n")),
             suppressed),
        Case("checks.suppressed_change", "a file of identical lines, its ends changed",
             lambda n: patch(repeat("}\n", n, changed + "a\n", "a\n"), repeat("}\n", n, changed + "b\n", "b\n")),
             suppressed),
    ]
    return cases


def paths_cases() -> list[Case]:
    from core.paths import MAX_PATH_CHARS, MAX_PATTERN_CHARS, path_matches

    def deep(n: int) -> tuple[str, str]:
        pattern = ("**/a/" * (MAX_PATTERN_CHARS // 5))[:MAX_PATTERN_CHARS - 2] + "/b"
        return pattern, repeat("a/", n, "", "c")[:MAX_PATH_CHARS]

    def stars(n: int) -> tuple[str, str]:
        pattern = "*a" * (MAX_PATTERN_CHARS // 2 - 1) + "b"
        return pattern, "a" * n

    def runs(n: int) -> tuple[str, str]:
        pattern = ("**/" + "a/" * 9 + "b/") * (MAX_PATTERN_CHARS // 24) + "c"
        return pattern, repeat("a/", n, "", "c")[:MAX_PATH_CHARS]

    def run(pair: tuple[str, str]) -> object:
        return path_matches(*pair)
    limit = MAX_PATH_CHARS  # a repository path's own limit
    return [Case("paths.path_matches", "`**/a/**/a/**/…/b` against a deep path `a/a/a/…/c`", deep, run, limit),
            Case("paths.path_matches", "`*a*a*a…b` against a segment `aaa…`", stars, run, limit),
            Case("paths.path_matches", "`**/a/a/…/a/b/**/a/a/…` (runs of ten) against a deep path `a/a/a/…/c`",
                 runs, run, limit)]


def js_project_cases() -> list[Case]:
    from core.languages.javascript import project

    def profile(files: dict[str, str]) -> object:
        read_profile = project.read_js_profile(files.get)
        return read_profile.ignored_path("src/a/b/c.js")

    return [
        Case("js project.oldest_node", "a range with long runs of spaces", lambda n: repeat(" ", n, ">=", "x"),
             project.oldest_node),
        Case("js project.find_runtime", "a CI's node-version of many digits and a newline",
             lambda n: {".github/workflows/ci.yml": repeat("1", n, 'jobs: {t: {steps: [{with: {node-version: "',
                                                           '\\n"}}]}}')},
             lambda files: project.find_runtime(files.get, {}, [])),
        Case("js project.find_runtime", "a browserslist query with long runs of spaces",
             lambda n: {".browserslistrc": repeat(" ", n, "ie", "x")},
             lambda files: project.find_runtime(files.get, {}, [])),
        Case("js project.introduced", "many features, templates and strings",
             lambda n: repeat("a?.b ?? c; `t`; 'node:x'; x => 1;\n", n), lambda text: project.introduced("", text)),
        Case("js project.introduced", "long runs of digits", lambda n: repeat("1" * 60 + " ", n),
             lambda text: project.introduced("", text)),
        Case("js project.read_js_profile", "a flat configuration of unterminated comments",
             lambda n: {"eslint.config.js": repeat("/* ", n, "export default [")}, profile,
             limit=_literal_limit()),
        Case("js project.read_js_profile", "many ignore patterns `**/a/**/…` in .eslintrc.json",
             lambda n: {".eslintrc.json": repeat('"**/a/**/a/**/a/**/a/**/z",', n, '{"ignorePatterns": [', '"x"]}')},
             profile),
        Case("js project.read_js_profile", "a .gitignore of long lines",
             lambda n: {".gitignore": repeat("*a" * 100 + "\n", n)}, profile),
    ]


def _literal_limit() -> int:
    from core.languages.javascript.literal import MAX_CHARS

    return MAX_CHARS


def python_cases() -> list[Case]:
    from core.change import Patch
    from core.languages.python import comments, hidden, project, team
    from core.languages.python.syntax import parse

    def comment_patch(n: int) -> Patch:
        original = repeat("x = 1  # a comment\n", n)
        return Patch("a.py", original, original.replace("# a", "# b", 1), (), "ruff")

    def sources(n: int) -> dict[str, str]:
        unit = "import inspect\ninspect.getsource(m)\nopen(__file__)\n'/m.py'\n"
        return {f"pkg/m{i}.py": unit for i in range(n // (len(unit) + 10))}

    def pages(n: int) -> tuple[dict[str, str], dict[str, str]]:
        texts = {f"docs/p{i}.txt": ">>> x\n" for i in range(n // 64)}  # each page a file, and each Sphinx folder
        texts |= {f"d{i}/conf.py": "sphinx.ext.doctest" for i in range(n // 64)}
        return {"setup.cfg": numbered("--doctest-glob=*a*a*a*b{} ", n // 2)}, texts

    def hidden_use(n: int) -> tuple[Any, Any]:
        text = repeat('x: "List[int]" = 1  # type: ignore\ndef f():\n    """>>> os.path"""\n', n, "import os\n")
        return parse(text), parse(text.replace("import os\n", ""))

    def profile(files: dict[str, str]) -> object:
        return project.read_profile(files.get)

    def data_reason(text: str) -> object:
        return hidden.data_reason("pkg/a.py", text)

    return [
        Case("py hidden.data_reason", "many `open(` and spaces", lambda n: repeat("open(" + " " * 20, n), data_reason),
        Case("py hidden.data_reason", "a long run of spaces", lambda n: repeat(" ", n, "Path(", "x"), data_reason),
        Case("py comments.comment_problem", "many commented lines", comment_patch, comments.comment_problem),
        Case("py hidden.read_as_data", "many sources that read files", sources,
             lambda found: hidden.read_as_data("pkg/other.py", found)),
        Case("py hidden.doctest_code", "many pages, globs and Sphinx folders", pages,
             lambda both: hidden.doctest_code(*both)),
        Case("py hidden.hidden_use", "many annotations, doctests and type comments", hidden_use,
             lambda both: hidden.hidden_use(both[0], both[1], set())),
        Case("py project.read_profile", "a setup.py of many setup() calls",
             lambda n: {"setup.py": repeat("setup(python_requires='>=3.8')\n", n)}, profile),
        Case("py project.read_profile", "a requires-python of a long version",
             lambda n: {"pyproject.toml": repeat("1.", n, '[project]\nrequires-python = ">=', '1"\n')}, profile),
        Case("py project.read_profile", "tox commands of many words",
             lambda n: {"tox.ini": repeat("flake8 ", n, "[testenv]\ncommands = ")}, profile),
        Case("py project.read_profile", "a mypy exclude with long runs of spaces",
             lambda n: {"mypy.ini": repeat(" ", n, "[mypy]\nexclude = a", "b")}, profile),
        Case("py project.read_profile", "requirements naming many plugins",
             lambda n: {"requirements.txt": repeat("flake8-bugbeard\n", n), ".flake8": "[flake8]\n"}, profile),
        Case("py team.set_aside", "norecursedirs of many words",
             lambda n: {"pytest.ini": repeat("a ", n, "[pytest]\nnorecursedirs = ")}, team.set_aside),
    ]


def letter_cases() -> list[Case]:
    from core.memory.letters import MAX_LETTER_BYTES, LetterError, parse_letter

    def run(raw: bytes) -> object:
        try:
            return parse_letter("o/r", ".memory/letter_20240101_abcd.md", raw)
        except LetterError as exc:
            return exc

    def letter(front: str, body: str) -> Callable[[int], bytes]:
        return lambda n: (front + body * max(1, (n - len(front)) // len(body))).encode()
    return [Case("letters.parse_letter", kind, make, run, MAX_LETTER_BYTES) for kind, make in {
        "a heading with a long run of spaces": lambda n: repeat(" ", n, "# a", "b\n").encode(),
        "a heading of spaces then closing hashes": lambda n: repeat(" #", n, "# a").encode(),
        "many fences": letter("", "```\n# x\n"),
        "front matter of many keys": lambda n: ("---\n" + numbered("k{}: v\n", n - 16) + "---\n# T\n").encode(),
        "front matter never closed": letter("---\n", "k\n"),
        "many lines, no heading": letter("", "text\n"),
    }.items()]


def sanitize_cases() -> list[Case]:
    from core.memory.sanitize import inert

    return [Case("sanitize.inert", kind, make, inert) for kind, make in {
        "many short code spans": lambda n: repeat("`a", n),
        "many mentions, links and escapes": lambda n: repeat("@a #1 https://x [y] <z> ", n),
        "long backtick runs": lambda n: repeat("``a`", n),
        "runs of backticks, each longer than any after it": _shrinking_runs,
    }.items()]


def _shrinking_runs(n: int) -> str:
    """Backtick runs of lengths k, k-1, …, 1 (k² / 2 ≈ n): a run closes only on one of its own length, so each is
    looked for to the end of the text."""
    k = int((2 * n) ** 0.5)
    return "a".join("`" * length for length in range(k, 0, -1))


def cases() -> list[Case]:
    return [*bounded_cases(), *literal_cases(), *layout_cases(), *checks_cases(), *paths_cases(),
            *js_project_cases(), *python_cases(), *letter_cases(), *sanitize_cases()]


# ---- measuring ----


def _measure(case: Case, sizes: tuple[int, int], send: Any) -> None:
    """In the forked child: a run at each size in turn (alternating, so both sizes meet the machine's same moments),
    each run's CPU seconds sent as it ends; what a run raised is sent instead, and ends the measuring."""
    spent = 0.0
    for run in range(RUNS):
        if run >= MIN_RUNS and spent > MAX_SECONDS:
            break
        for n, size in enumerate(sizes):
            value = case.make(size)  # afresh for each run: a reader may keep what it found (a tree's lists of nodes)
            gc.collect()
            start = time.process_time()  # the child's own CPU time: other work on the machine weighs less
            try:
                case.run(value)
            except Exception as exc:  # a reader that raises on what a repository may hold: said, not timed
                send.send((n, f"{type(exc).__name__}: {str(exc)[:80]}"))
                return
            took = time.process_time() - start
            spent += took
            send.send((n, took))
    send.send(None)


@dataclass
class Timing:
    best: list[float | None]  # the best run's seconds at each size; None: no run ended within the timeout
    raised: str = ""  # what a run raised, if one did

    def verdict(self) -> tuple[float, str]:
        """(ratio, verdict) of the two sizes."""
        first, second = self.best
        ratio = (second if second is not None else TIMEOUT) / max(first if first is not None else TIMEOUT, 1e-9)
        if self.raised:
            return ratio, f"RAISED {self.raised}"
        if second is None or ratio > RATIO_LIMIT and second >= FLOOR:
            return ratio, "NOT LINEAR"
        if ratio > RATIO_LIMIT:
            return ratio, f"linear (under {FLOOR * 1000:.0f} ms: too fast for the ratio to tell)"
        return ratio, "linear"


def timed(case: Case, sizes: tuple[int, int]) -> Timing:
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_measure, args=(case, sizes, send))
    child.start()
    send.close()  # the child's end only: its death ends the waiting
    timing = Timing([None, None])
    try:
        while receive.poll(TIMEOUT) and (message := receive.recv()) is not None:
            n, took = message
            if isinstance(took, str):
                timing.raised = took
                break
            timing.best[n] = min(took, timing.best[n] or took)
    except EOFError:
        timing.raised = timing.raised or "the measuring process died"
    child.join(1)
    if child.is_alive():
        child.kill()
        child.join()
    return timing


def _size(chars: int) -> str:
    if chars < 4 * KIB:
        return f"{chars:,} characters"
    return f"{chars / KIB:.0f} KiB" if chars < LARGE else f"{chars / LARGE:.2f} MiB".replace(".00", "")


def _seconds(value: float | None) -> str:
    return f"> {TIMEOUT:.0f} s" if value is None else f"{value:.4f} s" if value < 1 else f"{value:.2f} s"


def main(argv: list[str]) -> None:
    chosen = [c for c in cases() if not argv or any(a in f"{c.scanner} {c.kind}" for a in argv)]
    print(f"scanners benchmark: {len(chosen)} scanner × input kinds, each at 256 KiB and 1 MiB (linear ≈ 4, "
          f"flagged above {RATIO_LIMIT:g}); timeout {TIMEOUT:g} s")
    worst: tuple[float, str] = (0.0, "")
    flagged = []
    for case in chosen:
        small, large = _sizes(case)
        timing = timed(case, (small, large))
        ratio, verdict = timing.verdict()
        name = f"{case.scanner}: {case.kind}"
        limit = f" (its input at most {_size(case.limit)}: just under that and a quarter)" if case.limit else ""
        first, second = timing.best
        print(f"  {name}{limit}: {_size(small)} {_seconds(first)}, {_size(large)} {_seconds(second)}: "
              f"×{ratio:.1f}{'+' if second is None else ''} {verdict}", flush=True)
        if not verdict.startswith("linear"):
            flagged.append(name)
        worst = max(worst, (ratio, name))
    if flagged:
        print(f"summary: {len(flagged)} of {len(chosen)} NOT LINEAR or raising: {'; '.join(flagged)}")
    else:
        print(f"summary: all {len(chosen)} linear; the worst ratio ×{worst[0]:.1f} ({worst[1]})")


if __name__ == "__main__":
    main(sys.argv[1:])
