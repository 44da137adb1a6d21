"""Exploration with a budget, as a pure choice: which learned hold a run tries again."""

import random

from core.learning.explore import explore
from core.learning.record import Record


def test_nothing_is_explored_without_budget_or_a_learned_hold():
    assert explore([], {}, random.Random(1), budget_open=True) is None
    assert explore(["F401"], {"F401": Record(closed=2)}, random.Random(1), budget_open=False) is None


def test_a_rule_the_team_now_selects_by_name_is_tried_at_once_outside_the_budget():
    assert explore(["F401", "E713"], {}, random.Random(1), budget_open=False, selected_now=["E713"]) == "E713"


def test_thompson_sampling_favours_the_better_record_without_ruling_the_other_out():
    records = {"F401": Record(merged=3, closed=1), "F841": Record(closed=6)}
    picks = [explore(["F401", "F841"], records, random.Random(seed), budget_open=True) for seed in range(400)]
    assert 0.75 < picks.count("F401") / len(picks) < 1.0  # Beta(4, 2) beats Beta(1, 7) most of the time, not always
    assert "F841" in picks


def test_the_same_draws_give_the_same_choice():
    records = {"F401": Record(closed=1), "E713": Record(closed=1)}
    assert explore(["F401", "E713"], records, random.Random(7), budget_open=True) == \
        explore(["E713", "F401"], records, random.Random(7), budget_open=True)
