"""Words that become decisions, read without a model (what they name; an objection on a changed line) and with the
fake model over HTTP (its decisions checked before they are offered). The end-to-end paths are in test_pipelines."""

from __future__ import annotations

import pytest

from core.learning.offers import Line, Words, decision_offers, objects, offer_decisions
from core.settings import Settings

CODES, PATH = ("F401", "F541"), "pkg/__init__.py"
REMOVED = Line(PATH, "@@ -1,3 +1,2 @@\n-import os\n")  # the comment sits on the line the fix removed
KEPT = Line(PATH, "@@ -1,3 +1,2 @@\n-import os\n import sys")  # ... on a line the fix left alone


def offered(texts: list[str], codes: tuple[str, ...] = CODES, line: Line | None = None) -> list[str]:
    return [o.markdown() for o in decision_offers(Words(tuple(texts), codes, PATH, line))]


def test_words_on_a_closed_pr_naming_a_rule_or_a_place_are_offered_back_as_the_command_that_decides_them():
    assert offered(["We keep these f401 imports: they are re-exported."]) == [
        "Hold F401 in this repository? Reply `/remember decision hold F401`."]
    assert offered(["Not in pkg/__init__.py please"]) == [
        "Hold F401 in `pkg/__init__.py`? Reply `/remember decision hold F401 in pkg/__init__.py`.",
        "Hold F541 in `pkg/__init__.py`? Reply `/remember decision hold F541 in pkg/__init__.py`."]
    assert offered(["F541 is fine, but nothing under pkg"]) == [
        "Hold F541 in `pkg/**`? Reply `/remember decision hold F541 in pkg/**`."]
    assert offered(["thanks, not now"]) == []
    assert offered(["happy to take the package's other fixes"]) == []  # `pkg` is a folder's name, not a word's part


def test_a_comment_on_a_line_naming_a_rule_is_offered_for_the_file_it_is_on():
    assert offered(["F401 stays here"], line=KEPT) == [
        "Hold F401 in `pkg/__init__.py`? Reply `/remember decision hold F401 in pkg/__init__.py`."]
    assert offered(["nothing of this under pkg/ please"], codes=("F401",), line=KEPT) == [
        "Hold F401 in `pkg/**`? Reply `/remember decision hold F401 in pkg/**`."]


def test_an_objection_on_a_line_the_fix_changed_offers_the_prs_one_rule_there():
    said = ["Keep this: the plugin loader imports it by name."]
    assert offered(said, codes=("F401",), line=REMOVED) == [
        "Hold F401 in `pkg/__init__.py`? Reply `/remember decision hold F401 in pkg/__init__.py`."]
    assert offered(said, codes=("F401",), line=KEPT) == []  # the fix did not touch that line
    assert offered(said, codes=CODES, line=REMOVED) == []  # which of two rules? nothing says where each fix is
    assert offered(said, codes=("F401",)) == []  # when closing, an objection names no place


@pytest.mark.parametrize("text", [
    "keep", "Don't remove this, please.", "We do not want this change", "this import is needed by the CLI",
    "It is used in the doctests.", "revert this line", "This breaks the plugin loader", "leave it as it was",
    "Why? It is re-exported on purpose.",
])
def test_words_that_object(text):
    assert objects(text)


def test_an_objection_on_a_line_of_a_pr_with_several_rules_is_about_the_rule_whose_fix_changed_it():
    hunk = "@@ -1,6 +1,4 @@\n-import os\n import sys\n \n-x = f'total'\n+x = 'total'"
    words = Words(("This breaks the banner: keep it.",), CODES, PATH, Line(PATH, hunk), ((1, "F401"), (4, "F541")))
    assert [o.markdown() for o in decision_offers(words)] == [
        "Hold F541 in `pkg/__init__.py`? Reply `/remember decision hold F541 in pkg/__init__.py`."]
    on_import = Words(("keep this",), CODES, PATH, REMOVED, ((1, "F401"), (4, "F541")))
    assert [o.codes for o in decision_offers(on_import)] == [("F401",)]


@pytest.mark.parametrize("text", [
    "nice, thanks", "LGTM 👍", "Is this used anywhere?", "Why remove it?", "Keep up the good work!",
    "Right, this import is not needed.", "Good: it was never used.", "Don't worry, looks good.",
    "No problem, thanks!", "Never mind, this is fine.",
])
def test_praise_and_questions_object_to_nothing(text):
    assert not objects(text)
    assert offered([text], codes=("F401",), line=REMOVED) == []


@pytest.fixture
def llm(model_server):
    from core.llm import llm_from_settings

    return llm_from_settings(Settings(llm_provider="local", llm_model="fake-coder",
                                      llm_base_url=model_server.openai_url, llm_max_retries=0))


def test_with_a_model_the_words_become_its_checked_decisions(llm, model_server):
    model_server.script_chat({"reading": "keep re-exports in pkg/__init__.py, and F841 is noise in tests",
                              "decisions": [
                                  {"stance": "hold", "codes": ["f401"], "scope": "pkg/__init__.py",
                                   "why": "re-exported names"},
                                  {"stance": "hold", "codes": ["F841", "E501"], "scope": "tests/**", "why": "noise"},
                                  {"stance": "hold", "codes": ["F401"], "scope": "../elsewhere/**", "why": "x"}]})
    words = Words(("Keep {{ these }} re-exports; and F841 is noise in tests.",), ("F401",), PATH, REMOVED)

    offers = offer_decisions(llm, words)

    assert offers.lines("your comment") == [
        "memfix read your comment as: keep re-exports in pkg/__init__.py, and F841 is noise in tests",
        "- Hold F401 in `pkg/__init__.py`? Reply `/remember decision hold F401 in pkg/__init__.py`. "
        "(re-exported names)",
        # E501 is neither the PR's rule nor named by the person; a scope outside the repository drops its decision
        "- Hold F841 in `tests/**`? Reply `/remember decision hold F841 in tests/**`. (noise)"]
    [(_, ask)] = model_server.requests
    prompt = ask["messages"][-1]["content"]
    assert "Keep { { these } } re-exports" in prompt and "-import os" in prompt and "a line the fix changed" in prompt
    assert ask["tool_choice"]["function"]["name"] == "offer_decisions"


def test_the_models_no_decision_stands_but_an_unusable_answer_falls_back_to_the_words(llm, model_server):
    words = Words(("F401 is noise here",), ("F401",), PATH)
    model_server.script_chat({"reading": "a remark, no decision", "decisions": []})
    assert offer_decisions(llm, words).decisions == ()
    model_server.script_chat({"reading": "?", "decisions": [{"stance": "hold", "codes": ["MODEL"], "scope": None,
                                                            "why": ""}]})
    fallback = offer_decisions(llm, words)
    assert (fallback.reading, [o.command for o in fallback.decisions]) == ("", ["/remember decision hold F401"])
    model_server.fail_next("/v1/chat/completions", 500)
    assert [o.command for o in offer_decisions(llm, words).decisions] == ["/remember decision hold F401"]


def test_without_a_model_or_words_no_model_is_asked(model_server):
    from core.llm import OfflineLLM

    assert offered([], line=REMOVED) == []
    assert offer_decisions(OfflineLLM(), Words(("F401 is noise",), ("F401",), PATH)).reading == ""
    assert model_server.requests == []


def test_the_rules_words_point_to_are_the_ones_a_text_names_or_whose_fix_changed_the_line_commented_on():
    from core.learning.offers import pointed

    lines = ((1, "F401"), (4, "F541"))
    assert pointed(Words(("The f-string was fine (F541); the import could go.",), CODES, PATH)) == ("F541",)
    assert pointed(Words(("f541 and F401 both: no",), CODES, PATH)) == ("F401", "F541")
    assert pointed(Words(("Not now, please.",), CODES, PATH)) == ()  # names no rule: blame as the evidence says
    hunk = "@@ -1,6 +1,4 @@\n-import os\n import sys\n \n-x = f'total'\n+x = 'total'"
    assert pointed(Words(("why?",), CODES, PATH, Line(PATH, hunk), lines)) == ("F541",)  # the line its fix changed
    assert pointed(Words(("all of pkg/__init__.py is upstream's",), CODES, PATH)) == ()  # a place: every rule's
