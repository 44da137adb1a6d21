"""A rule's record in one repository, and what a rule's risk class weighs (core/pipelines/confidence.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from math import comb, exp, lgamma, log

# The factor of each risk class; which class a rule is in, its language says (core/languages/*/rules.py).
RISK = {
    "low": 0.95, "medium": 0.85, "high": 0.7,
}
PROMOTE_THRESHOLD = 0.8  # the default confidence a patch needs to be published (MEMFIX_PROMOTE_THRESHOLD)


@dataclass(frozen=True)
class Record:
    """A rule's record in one repository (core/learning/policy.py counts it from memfix's own PRs)."""

    merged: int = 0
    closed: int = 0  # closed unmerged by reviewers
    ci_failed: int = 0  # the repository's CI failed on memfix's fix
    ci_passed: int = 0
    refined: int = 0  # `/refine` asked
    lately: int = 0  # bad outcomes since the last merge: how a taste that turned shows before the totals do
    last: datetime | None = field(default=None, compare=False)  # its latest outcome: exploration waits from then
    lately_red: int = 0  # of `lately`, the red CI runs (the rest are closes): each weighed by its own chance

    def __add__(self, other: Record) -> Record:
        """This record, then `other` (outcomes are added oldest first)."""
        return Record(self.merged + other.merged, self.closed + other.closed, self.ci_failed + other.ci_failed,
                      self.ci_passed + other.ci_passed, self.refined + other.refined,
                      other.lately if other.merged else self.lately + other.lately,
                      max((t for t in (self.last, other.last) if t is not None), default=None),
                      other.lately_red if other.merged else self.lately_red + other.lately_red)

    @property
    def bad(self) -> int:
        return self.closed + self.ci_failed

    @property
    def posterior(self) -> float:
        """The mean of Beta(1 + merged, 1 + closed + CI failed): the chance reviewers take the next fix."""
        return (1 + self.merged) / (2 + self.merged + self.bad)

    @property
    def factor(self) -> float:
        """What the record weighs a fix's confidence by: its acceptance estimate shrunk towards reviewers' usual
        taking of a bot's fix (Beta(4, 1)), so a close or two is a discount only where chance is not enough."""
        return min(1.0, 0.6 + 0.8 * (4 + self.merged) / (5 + self.merged + self.bad))

    @property
    def known(self) -> bool:
        return bool(self.merged or self.closed or self.ci_failed or self.ci_passed or self.refined)

    def describe(self, where: str = "this repository") -> str:
        if not self.known:
            return f"no record in {where}"
        parts = [f"{self.merged} merged", f"{self.closed} closed"]
        parts += [f"{self.ci_failed} failed CI"] if self.ci_failed else []
        parts += [f"{self.ci_passed} passed CI"] if self.ci_passed else []
        parts += [f"{self.refined} /refine"] if self.refined else []
        return ", ".join(parts) + f" in {where}"


@dataclass(frozen=True)
class Chance:
    """How often memfix's PRs in a repository are closed, and how often its CI is red, whatever the rule: the rate
    chance alone gives a rule's record (counted from the PRs of other rules, with a prior of one in five closed and
    one in ten red before anything is known). `runs`: how many CI runs the red rate stands on (the prior's ten
    included): the fewer, the less sure it is. `tested`: how many rules the CI's runs here judged — each one more
    chance of a red streak that is noise; `closing`: how many rules have the closes a hold needs — each one more
    chance of a run of closes that is a reviewer's chance (rules with fewer can never be held by closes, so they
    are no chance: Tarone's count for discrete tests)."""

    closes: float = 0.2
    reds: float = 0.1
    runs: float = 10
    tested: int = 1
    closing: int = 1

    @classmethod
    def of(cls, closed: int, decided: int, red: int, runs: int, tested: int = 1, closing: int = 1) -> Chance:
        return cls((1 + closed) / (5 + decided), (1 + red) / (10 + runs), 10 + runs, max(1, tested), max(1, closing))

    def streak(self, record: Record) -> float:
        """The chance of the record's bad outcomes since its last merge, in a row: each close at the close rate, the
        red runs at the red rate as sure as its runs make it (`red_tail`)."""
        return self.closes ** (record.lately - record.lately_red) * self.red_tail(record.lately_red, record.lately_red)

    def red_tail(self, red: int, runs: int) -> float:
        """The chance of `red` or more red runs in `runs` from the CI's noise alone, as sure of its rate as its runs
        make it (`beyond_chance` with the rate's uncertainty): early, two reds in a row are what a CI red one run in
        five gives often, though its first runs were green."""
        return beyond_chance(red, runs, self.reds, self.runs)


def beyond_chance(bad: int, seen: int, rate: float, weight: float | None = None) -> float:
    """The chance of `bad` or more bad outcomes in `seen` when each is bad at `rate`: small, the record says more than
    chance does (the binomial tail). With `weight`, the rate is itself an estimate from that many outcomes, a
    Beta(rate · weight, (1 - rate) · weight) posterior, and the tail is its predictive one (beta-binomial): wider
    the less the rate stands on."""
    if bad <= 0:
        return 1.0
    if weight is None:
        return sum(comb(seen, k) * rate ** k * (1 - rate) ** (seen - k) for k in range(bad, seen + 1))
    a, b = rate * weight, (1 - rate) * weight
    return sum(exp(log(comb(seen, k)) + _log_beta(k + a, seen - k + b) - _log_beta(a, b)) for k in range(bad, seen + 1))


def _log_beta(a: float, b: float) -> float:
    return lgamma(a) + lgamma(b) - lgamma(a + b)
