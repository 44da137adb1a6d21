"""Honest confidence: what a patch's figure is made of, and how it was reached.

confidence = checks × risk × record
- checks: the verification score (1.0 when every check passed; core/pipelines/verify.py `confidence`, which also
  blends in a model's own figure for model patches);
- risk: the rule's risk class, the worst among the patch's rules (the table below). A fix ruff calls "safe" is
  not thereby certain: removing an import can change behaviour, rewriting an API call can break an old Python;
- record: the rule's record in this repository, merged vs closed unmerged or CI-failed memfix PRs (blamed as in
  core/learning/policy.py), as the mean p of a Beta(1 + merged, 1 + closed + CI failed) posterior, as
  min(1, 0.6 + 0.8 p) (no record: p 0.5 → 1.0; two closed, none merged: p 0.25 → 0.8, which keeps a
  medium-risk rule below the threshold; never above 1.0).
PROMOTED needs every check passed and confidence ≥ the promotion threshold (MEMFIX_PROMOTE_THRESHOLD, 0.8):
low-risk and medium-risk rules with a clean record pass; high-risk rules wait for a person (HUMAN_REVIEW).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.change import Patch, Verification
from core.languages.registry import risk_of
from core.learning.record import RISK, Record


@dataclass(frozen=True)
class Score:
    value: float
    why: str  # how the figure was reached, for the PR body, the reply and the CLI


def score(verification: Verification, checks: float, patch: Patch, records: dict[str, Record],
          where: str = "this repository") -> Score:
    """`records`: each rule's record where the patch is (`where`: the repository, or the file's kind of place)."""
    codes = sorted({f.code for f in patch.findings}) or ["MODEL"]
    worst = min(codes, key=lambda c: RISK[risk_of(c)])
    risk = RISK[risk_of(worst)]
    record = records.get(worst, Record())
    value = round(min(max(checks * risk * record.factor, 0.0), 1.0), 4)
    history = record.describe(where)
    why = (f"{checks:.2f} checks × {risk:.2f} ({worst}: {risk_of(worst)} risk) × {record.factor:.2f} "
           f"({worst}: {history}) = {value:.2f}")
    return Score(value, why)
