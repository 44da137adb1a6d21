"""Honest confidence: checks × the rule's risk × its record in this repository, and the words for how."""

from __future__ import annotations

import pytest

from core.change import Finding, Patch, Verification
from core.languages.registry import risk_of
from core.learning.record import Record
from core.pipelines.confidence import score
from core.pipelines.verify import status_for

PASSED = Verification(parses=True, targeted_gone=True)


def _patch(*codes: str) -> Patch:
    return Patch("a.py", "x\n", "y\n", tuple(Finding("a.py", 1, 1, c, "m") for c in codes), "ruff")


@pytest.mark.parametrize("code, risk", [("F541", "low"), ("F401", "medium"), ("RET505", "medium"),
                                        ("UP032", "medium"), ("UP017", "high"), ("UP041", "high"), ("XYZ1", "medium")])
def test_risk_classes(code, risk):
    assert risk_of(code) == risk


def test_a_verified_fix_is_promoted_by_its_risk_and_record_not_by_ruff_calling_it_safe():
    low = score(PASSED, 1.0, _patch("F541"), {})
    assert low.value == 0.95 and "F541: low risk" in low.why and "no record in this repository" in low.why
    high = score(PASSED, 1.0, _patch("F541", "UP017"), {})  # the worst rule of the patch decides
    assert high.value == 0.7 and status_for(PASSED, high.value, 1, 1) == "HUMAN_REVIEW"
    medium = score(PASSED, 1.0, _patch("F401"), {})
    assert status_for(PASSED, medium.value, 1, 1) == "PROMOTED"
    twice = score(PASSED, 1.0, _patch("F401"), {"F401": Record(merged=0, closed=2)})
    assert twice.value == 0.85 and "0 merged, 2 closed in this repository" in twice.why  # chance could: the policy
    rejected = score(PASSED, 1.0, _patch("F401"), {"F401": Record(merged=0, closed=5)})  # decides, not the discount
    assert rejected.value == 0.782 and "0 merged, 5 closed in this repository" in rejected.why
    assert status_for(PASSED, rejected.value, 1, 1) == "HUMAN_REVIEW"  # reviewers said no five times: a person decides
    trusted = score(PASSED, 1.0, _patch("F401"), {"F401": Record(merged=5, closed=0)})
    assert trusted.value == medium.value  # a record never lifts a figure above its risk
    assert status_for(PASSED, rejected.value, 1, 1, threshold=0.6) == "PROMOTED"  # the threshold is a setting
