"""Rules named by their tool: how the language registry reads a name a person writes, wherever they write it (the
entry points' own tests are in test_cli, test_events, test_memory_commands, test_dashboard, test_pipeline_parts)."""

from __future__ import annotations

import pytest

from core.languages.registry import (
    covers,
    language_of_rule,
    risk_of,
    rule_code,
    rule_like,
    rule_problem,
    rule_selector,
    rule_shown,
    rules_for,
    within,
)


@pytest.mark.parametrize("written, code", [
    ("F401", "F401"), ("f401", "F401"), ("ruff:F401", "F401"), ("RUFF:f401", "F401"), ("flake8:E501", "E501"),
    ("flake8:B008", "B008"), ("pylint:C0414", "PLC0414"), ("pylint:r1705", "PLR1705"),
    ("eslint:indent", "eslint:indent"), ("eslint:import/order", "eslint:import/order"),
    ("eslint:n/no-callback-literal", "eslint:n/no-callback-literal"),
    ("eslint:@typescript-eslint/no-unused-vars", "eslint:@typescript-eslint/no-unused-vars"),
    ("lint/style/useConst", "lint/style/useConst"), ("style/useConst", "lint/style/useConst"),
    ("biome:lint/style/useConst", "lint/style/useConst"), ("format/semi", "format/semi"),
    # not one rule: selectors, a plugin, a name no tool has, a path
    ("UP", None), ("eslint", None), ("eslint:@stylistic", None), ("lint/style", None), ("lint", None),
    ("pylint:unused-import", None), ("black:E501", None), ("lint/Style/useConst", None), ("src/app", None),
    ("eslint:", None), ("MODEL", None),
])
def test_a_rule_is_read_in_its_tools_own_spelling(written, code):
    assert rule_code(written) == code


@pytest.mark.parametrize("written, selector, language", [
    ("UP", "UP", "python"), ("up", "UP", "python"), ("ruff:sim", "SIM", "python"), ("pylint:C", "PLC", "python"),
    ("ALL", "ALL", "python"), ("eslint", "eslint", "javascript"), ("eslint:import", "eslint:import", "javascript"),
    ("eslint:@stylistic", "eslint:@stylistic", "javascript"), ("lint", "lint", "javascript"),
    ("lint/style", "lint/style", "javascript"), ("biome:lint/style", "lint/style", "javascript"),
    ("format", "format", "javascript"), ("LINT", "LINT", "python"),  # as written: ruff's case is upper
])
def test_a_selector_is_read_by_the_language_that_spells_it_so(written, selector, language):
    assert rule_selector(written) == selector and language_of_rule(selector) == language


def test_a_commands_words_take_ruffs_codes_in_its_own_case_only():
    assert rule_selector("UP", any_case=False) == "UP" and rule_selector("up", any_case=False) is None
    assert rule_selector("ruff:up", any_case=False) == "UP"  # with its tool it cannot be a path
    assert rule_selector("eslint:indent", any_case=False) == "eslint:indent"
    assert rule_like("eslint:idnent") and rule_like("black:E501") and not rule_like("lint/rules.js")
    assert not rule_like("C:/Windows/win.ini")  # a drive is a path (refused as one), not a tool


def test_a_plugin_covers_its_rules_and_eslint_every_rule():
    assert covers("eslint", "eslint:indent") and covers("eslint:import", "eslint:import/order")
    assert covers("eslint:@typescript-eslint", "eslint:@typescript-eslint/no-unused-vars")
    assert not covers("eslint:n", "eslint:no-var") and not covers("eslint", "lint/style/useConst")
    assert not covers("lint", "eslint:indent") and not covers("E", "eslint:indent")
    assert within(("eslint:import/order", "eslint:indent", "F401"), ("eslint:import", "F")) == (
        "eslint:import/order", "F401")


@pytest.mark.parametrize("rule, risk", [
    ("eslint:indent", "low"), ("eslint:comma-dangle", "low"), ("eslint:keyword-spacing", "low"),
    ("eslint:space-infix-ops", "low"), ("eslint:no-trailing-spaces", "low"), ("eslint:spaced-comment", "low"),
    ("eslint:@stylistic/js/indent", "low"), ("eslint:@typescript-eslint/indent", "low"),
    ("eslint:prettier/prettier", "low"), ("eslint:import/order", "medium"), ("eslint:no-unused-vars", "medium"),
    ("eslint:n/no-callback-literal", "medium"), ("eslint:@typescript-eslint/no-unused-vars", "medium"),
])
def test_eslints_layout_rules_are_low_risk_and_the_rest_medium(rule, risk):
    assert risk_of(rule) == risk


def test_each_language_is_given_only_its_own_rules():
    mixed = ("F401", "UP", "lint/style/useConst", "eslint:indent", "format/semi", "*")
    assert rules_for("python", mixed) == ("F401", "UP")
    assert rules_for("javascript", mixed) == ("lint/style/useConst", "eslint:indent", "format/semi")


def test_a_rule_is_shown_with_its_tool_where_its_code_does_not_say_it():
    assert [rule_shown(c) for c in ("F401", "lint/style/useConst", "eslint:indent", "format/semi", "*")] == [
        "F401", "biome:lint/style/useConst", "eslint:indent", "format/semi", "*"]
    assert rule_code(rule_shown("lint/style/useConst")) == "lint/style/useConst"  # what is shown is taken back


def test_a_name_that_is_no_rule_is_said_with_the_forms_rules_take():
    said = rule_problem(["black:E501", "pylint:unused-import", "x" * 300])
    assert said.startswith("`black:E501`, `pylint:unused-import`, `" + "x" * 80 + "…` are not rules (")
    assert "memfix names no rules of `black`" in said and "pylint's rules are named by their message id" in said
    assert said.endswith("; a rule is named as its tool names it: `F401`, `ruff:F401`, `flake8:E501`, "
                         "`pylint:C0414` (ruff's `PLC0414`), `UP` for a linter's every rule; `eslint:indent`, "
                         "`eslint:import/order`, `eslint:import` for a plugin's every rule, `lint/style/useConst` or "
                         "`biome:lint/style/useConst`, `lint/style` for a group's")
    assert rule_problem(["a`b"]).startswith("`a'b` is not a rule;")  # a backtick cannot end the quote
