"""The team's ESLint layout rules carried to Biome's formatter where they map exactly, and only their part of its
output kept (core/languages/javascript/layout.py): one test per kind of layout fix, each from an example of ours."""

from __future__ import annotations

import pytest

from core.languages.javascript.biome import Biome, find_biome
from core.languages.javascript.layout import Layout, applied, edits, read_layout

SEMI = Layout(semi="always")


@pytest.fixture(scope="module")
def biome():
    if not find_biome():
        pytest.skip("the Biome binary is not installed")
    return Biome()


def fixed(biome: Biome, text: str, layout: Layout, path: str = "a.js") -> str:
    """The text with its layout fixes made: the formatter's output is only the oracle."""
    formatted = biome._formatted({path: text}, layout)[path]
    return applied(text, edits(text, formatted, layout, path))


def test_the_teams_layout_rules_are_carried_where_their_options_map_exactly():
    layout, said = read_layout([(None, {"semi": [2, "always"], "quotes": ["error", "single", "avoid-escape"],
                                        "comma-dangle": [2, "never"], "no-trailing-spaces": 2, "eol-last": "error",
                                        "no-multiple-empty-lines": [2, {"max": 1}], "indent": [2, 2],
                                        "keyword-spacing": "error"})], ".eslintrc.json")
    assert layout == Layout(semi="always", quotes="'", commas="never", trailing_spaces=(False, False), eol_last=True,
                            blank=(1, 1, 1))
    assert said == [".eslintrc.json: `indent`, `keyword-spacing`: layout Biome's formatter cannot carry exactly, so "
                    "memfix does not fix it"]
    assert read_layout([(None, {"@stylistic/semi": ["error", "never"]})], "x")[0] == Layout(semi="never")


def test_a_layout_rule_with_options_the_formatter_cannot_follow_or_set_otherwise_in_a_folder_is_not_carried():
    layout, said = read_layout([(None, {"semi": [2, "always", {"omitLastInOneLineBlock": True}], "quotes": 2}),
                                (["test/**"], {"quotes": [2, "single"]})], ".eslintrc")
    assert layout is None
    assert "`semi` [\"always\", {\"omitLastInOneLineBlock\": true}]" in said[0] and \
        "`quotes` (set otherwise for some files)" in said[0]
    # a flat element for every JavaScript file is the whole repository's, not a folder's
    assert read_layout([(["**/*.js"], {"semi": "error"})], "eslint.config.js")[0] == SEMI
    typed = read_layout([(None, {"semi": "error"}), (["**/*.ts"], {"semi": ["error", "never"]})], "x")
    assert typed[0] is None and "`semi` (set otherwise for some files)" in typed[1][0]  # TypeScript's own
    assert read_layout([(None, {"semi": "off"}), (["lib/**"], {"semi": "off"})], "x") == (None, [])


def test_a_semicolon_goes_where_the_formatter_puts_it_and_nothing_else_of_its_output_does(biome):
    text = "const o = {a: 1}\nfoo(a,\n    b) // why\nif (a) b()\nconst long = [1,2,\n  3]\n"
    assert fixed(biome, text, SEMI) == \
        "const o = {a: 1};\nfoo(a,\n    b); // why\nif (a) b();\nconst long = [1,2,\n  3];\n"


def test_a_team_without_semicolons_loses_only_those_asi_does_not_need(biome):
    text = "const a = 1;\n;[1, 2].forEach(go);\nlet b = 2;;\nfor (let i = 0; i < 2; i++) {}\n"
    assert fixed(biome, text, Layout(semi="never")) == \
        "const a = 1\n;[1, 2].forEach(go)\nlet b = 2\nfor (let i = 0; i < 2; i++) {}\n"
    assert fixed(biome, "let b = 2;;\n", Layout(semi="always", extra_semi=True)) == "let b = 2;\n"
    # a semicolon the line still needs stays: two statements on one line, a next line ASI would join
    hazards = "a(); b();\nvar c = {};\n// why\n(function () {})();\n"
    assert fixed(biome, hazards, Layout(semi="never")) == "a(); b()\nvar c = {};\n// why\n(function () {})()\n"


def test_quotes_turn_only_toward_the_teams_and_an_escape_is_left_for_the_team(biome):
    text = "const a = \"x\"\nconst b = 'it\\'s'\nconst c = `t ${\"y\"}`\n"
    assert fixed(biome, text, Layout(quotes="'")) == "const a = 'x'\nconst b = 'it\\'s'\nconst c = `t ${\"y\"}`\n"
    jsx = "const el = <a href='x'>{'y'}</a>\n"
    assert fixed(biome, jsx, Layout(quotes='"'), "a.jsx") == jsx  # JSX is jsx-quotes' business, not quotes'


def test_trailing_commas_as_the_team_asks_and_never_in_a_call_an_old_runtime_cannot_parse(biome):
    text = "const a = [\n  1,\n  2,\n]\nconst b = {x: 1,}\n"
    assert fixed(biome, text, Layout(commas="never")) == "const a = [\n  1,\n  2\n]\nconst b = {x: 1}\n"
    multi = "const a = [\n  1,\n  2 /* two */\n]\ngo(\n  a,\n  b\n)\nconst b = {x: 1,}\n"
    assert fixed(biome, multi, Layout(commas="always-multiline")) == \
        "const a = [\n  1,\n  2, /* two */\n]\ngo(\n  a,\n  b\n)\nconst b = {x: 1}\n"  # before its comment


def test_trailing_spaces_blank_lines_and_the_last_newline_outside_template_literals(biome):
    text = "const a = 1;   \n\n\n\nconst t = `x   \n\n\n\ny`;\n// note  \nend();"
    layout = Layout(trailing_spaces=(False, True), blank=(1, 1, 0), eol_last=True)
    assert fixed(biome, text, layout) == "const a = 1;\n\nconst t = `x   \n\n\n\ny`;\n// note  \nend();\n"


def test_typescript_members_keep_their_separators(biome):
    text = "interface A {\n  a: string\n}\nconst x = 1\n"
    assert fixed(biome, text, SEMI, "a.ts") == text  # `semi` does not check a type's members: not touched there


def test_a_layout_fix_is_a_finding_of_the_teams_rule_that_its_comments_can_turn_off(biome, tmp_path):
    (tmp_path / "a.js").write_text("go()\nstop() // eslint-disable-line semi\nstop(\"q\")\n")
    linter = biome.with_config({"biome.json": "{}"}, layout=Layout(semi="always", quotes="'"))
    found = [(f.line, f.code) for f in linter.check(tmp_path, ["a.js"], ("lint", "format"))]
    assert found == [(1, "format/semi"), (3, "format/quotes"), (3, "format/semi")]
    assert linter.check(tmp_path, ["a.js"], ("lint",)) == []  # Refactor's groups have no layout
    held = biome.with_config({"biome.json": "{}"}, skip=("format/semi",), layout=Layout(semi="always", quotes="'"))
    assert [f.code for f in held.check(tmp_path, ["a.js"], ("format",))] == ["format/quotes"]
    only = linter.fix_texts({"a.js": (tmp_path / "a.js").read_text()}, ("format/quotes",))
    assert only == {"a.js": "go()\nstop() // eslint-disable-line semi\nstop('q')\n"}


def test_a_legacy_configuration_extending_eslint_recommended_carries_its_no_extra_semi():
    import json

    from core.languages.javascript.eslintrc import read_eslint

    files = {".eslintrc.json": json.dumps({"extends": "eslint:recommended", "rules": {"semi": 2}})}
    problems: list[str] = []
    eslint = read_eslint(files.get, {}, (), problems)
    assert eslint is not None and eslint.layout == Layout(semi="always", extra_semi=True)
    assert any("`no-mixed-spaces-and-tabs`" in p and "does not fix it" in p for p in problems)


def test_a_hole_is_no_trailing_comma_and_a_string_of_a_semicolon_is_no_semicolon(biome):
    text = "const holes = [a,,];\nconst s = ';'\n"
    assert fixed(biome, text, Layout(commas="never", semi="always")) == "const holes = [a,,];\nconst s = ';';\n"


# Each kind of fix on a file holding it many times (a file of a few hundred lines written as an attacker would): every
# fix made, each on its own line. Found from the start of the text, or from every template literal, for every fix
# before, these took minutes on a quarter of a megabyte (the formatter's text here is written by hand, as it would be).
MANY = 300
LINES = Layout(trailing_spaces=(False, False), blank=(1, 1, 1), eol_last=True, semi="always")


@pytest.mark.parametrize(("unit", "formatted", "fixed_unit", "layout", "lines"), [
    ("a = `x  \n  y  `  \n", "a = `x  \n  y  `;\n", "a = `x  \n  y  `;\n", LINES, [2, 2]),  # templates keep theirs
    ("a = `x  \n  y  ` /* c  \n  d */  \n", "a = `x  \n  y  `; /* c  \n  d */\n", "a = `x  \n  y  `; /* c  \n  d */\n",
     Layout(trailing_spaces=(True, True), semi="always"), [2, 3]),  # comments keep theirs where the team says so
    ("a = `x\n\n\n\n`\n\n\n\n", "a = `x\n\n\n\n`;\n\n\n\n", "a = `x\n\n\n\n`;\n\n", LINES, [5, 7]),  # blank runs
    ("go();\n", "go()\n", "go()\n", Layout(semi="never"), [1]),
    ("go();;\n", "go();\n", "go();\n", Layout(extra_semi=True), [1]),
    ("[a,]\n", "[a]\n", "[a]\n", Layout(commas="never"), [1]),
    ("f([\n  a\n])\n", "f([\n  a,\n])\n", "f([\n  a,\n])\n", Layout(commas="always-multiline"), [2]),
    ('"a"\n', "'a';\n", "'a'\n", Layout(quotes="'"), [1]),
    ("go(a)\nx = (1)\n", "go(a);\nx = 1;\n", "go(a);\nx = (1)\n", SEMI, [1]),  # the texts part at every `(1)`
])
def test_a_file_of_many_fixes_gets_every_one_on_its_line(unit, formatted, fixed_unit, layout, lines):
    found = edits(unit * MANY, formatted * MANY, layout)
    assert applied(unit * MANY, found) == fixed_unit * MANY
    height = unit.count("\n")
    assert [e.line for e in found] == [n * height + line for n in range(MANY) for line in lines]


def test_a_file_whose_layout_runs_past_its_share_is_said_and_the_others_are_read(biome, tmp_path, monkeypatch):
    from core import deadline
    from core.languages.javascript import layout as layouts

    real = layouts.edits

    def slow_for_one(original, formatted, layout, path=""):
        if path == "slow.js":  # as a scan that cannot finish in its share would, when it looks at the clock
            raise deadline.Overrun(next(d for d in deadline._IN_FORCE.get() if d.what == "the layout of slow.js"))
        return real(original, formatted, layout, path)

    monkeypatch.setattr("core.languages.javascript.biome.edits", slow_for_one)
    for name in ("slow.js", "quick.js"):
        (tmp_path / name).write_text("let a = 1\n")
    found = biome.with_config({"biome.json": "{}"}, layout=SEMI).check(tmp_path, ["slow.js", "quick.js"], ("format",))
    assert [(f.path, f.code, f.message) for f in found] == [
        ("quick.js", "format/semi", "Missing semicolon."),
        ("slow.js", "unreadable", "reading its layout took longer than 20 s")]


def test_the_job_running_out_while_a_layout_is_read_stops_the_run_not_only_the_file(biome, tmp_path):
    from core import deadline

    (tmp_path / "a.js").write_text("let a = 1\n" * 5000)
    formatted = biome._formatted({"a.js": (tmp_path / "a.js").read_text()}, SEMI)["a.js"]
    with deadline.budget(0.0, "the job") as job, pytest.raises(deadline.Overrun) as stopped:
        edits((tmp_path / "a.js").read_text(), formatted, SEMI, "a.js")
    assert stopped.value.of(job)
