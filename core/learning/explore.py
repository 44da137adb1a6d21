"""Exploration with a budget: a rule the evidence holds back is tried again rarely and on purpose, so a team whose
taste changed gets it back without a command, and a team that still closes it sees one PR, not a stream.

Which held rule is tried is Thompson sampling over each rule's Beta posterior (1 + merged, 1 + closed + CI failed):
a rule with some merges is tried more often than one never merged, but none is ruled out for ever. The budget is one
exploratory PR per repository per `EXPLORE_DAYS`; a held rule the repository's own lint configuration now selects by
name is tried at once, outside the budget (the team just said it wants it). The try is one file the hold covers, and
a merged try lifts the hold there only (`Policy.taken_again`). Only learned holds are explored: a person's decision
stays until a person changes it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from core.learning.record import Record

EXPLORE_DAYS = 7


def explore(held: Iterable[str], records: Mapping[str, Record], rng: random.Random, *, budget_open: bool,
            selected_now: Iterable[str] = ()) -> str | None:
    """The learned hold to try again in this run, or None. `held`: the rules held by learning (not by a person);
    `selected_now`: the rules the repository's lint configuration names today."""
    candidates = sorted(held)
    named = [code for code in candidates if code in set(selected_now)]
    if named:
        return named[0]
    if not budget_open or not candidates:
        return None
    draws = {code: rng.betavariate(1 + records.get(code, Record()).merged, 1 + records.get(code, Record()).bad)
             for code in candidates}
    return max(candidates, key=lambda code: (draws[code], code))
