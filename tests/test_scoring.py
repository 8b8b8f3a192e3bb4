"""Scoring once (issue 17 §2): score_hand against an independent reading of the score rules.

The engine scores a hand in one pure function, ``runtime/engine/scoring.py``. This module
re-derives the points of the contractor's side from the rules written out again here (the
``score.*`` clauses: score.made, score.failed, score.slam, score.overtricks, score.misere and the
all-pass hand of auction.all-pass), over hands bots play in every built-in variant, so the
runtime no longer carries a second copy of the scoring to check itself against.
"""

from __future__ import annotations

from random import Random

import pytest

from fivehundred.generator.pipeline import builtin_ids
from fivehundred.runtime.engine.hand import HandState
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.engine.scoring import score_hand, trick_points
from fivehundred.runtime.loading import load_rules


def _rederived(state: HandState) -> list[int] | int:
    """All passed: every side's points; else the points of the contractor's side."""
    r = state.rules
    res = state.result
    assert res is not None
    if res.contract < 0:  # auction.all-pass: each side scores its tricks at all_pass_per_trick
        return [r.all_pass_per_trick * t for t in res.tricks_by_side]
    taken = sum(state.tricks_won[s] for s in res.allies)
    level = r.bid_level[res.contract]
    value = r.bid_value[res.contract] + (r.sans_kitty_bonus or 0) * res.sans
    if r.bid_kind[res.contract] == "misere":  # score.misere: no trick taken, or lost
        return value if taken == 0 else -value
    if taken < level:  # score.failed: minus the value
        return -value
    if taken == r.hand_size and value < r.slam_below:  # score.slam
        return r.slam_value
    return value + r.overtricks * (taken - level)  # score.made, score.overtricks


def _hands(rules: Rules, count: int, seed: int) -> list[HandState]:
    rng = Random(seed)
    out = []
    for i in range(count):
        state = HandState.new(rules, i % rules.players, rng)
        state.playout(rng)
        out.append(state)
    return out


@pytest.mark.parametrize("variant", builtin_ids())
def test_the_hand_scores_what_the_rules_say(variant: str) -> None:
    rules = load_rules(variant)
    for state in _hands(rules, 40, 17):
        res = state.result
        assert res is not None
        want = _rederived(state)
        if isinstance(want, list):
            assert list(res.points) == want
            continue
        for seat in res.allies:
            assert res.points[rules.side_of_seat[seat]] == want, (variant, res)
        taken = sum(state.tricks_won[s] for s in res.allies)
        misere = rules.bid_kind[res.contract] == "misere"
        assert res.made is (taken == 0 if misere else taken >= rules.bid_level[res.contract])


def test_score_hand_is_pure_and_names_the_rules_that_decided() -> None:
    """score.freeze (T: 490 with must bid to win): the opponents' trick points stop at the cap;
    score.slam (G, P): all ten tricks on a bid worth less than 250 score 250."""
    rules = load_rules("trickster-australian")
    assert rules.opponents_freeze_at is not None
    contract = rules.bid_index["7H"]
    won = [5, 2, 2, 1]  # seats 0 and 2 (allies, side 0) take 7; side 1 takes 3
    before = [0, rules.opponents_freeze_at - 10]
    a = score_hand(rules, contract, 0b0101, won, before)
    b = score_hand(rules, contract, 0b0101, won, before)
    assert a == b and a.made
    assert a.points == (rules.bid_value[contract], 10) and a.clauses == {"score.freeze"}
    assert a.per_trick == trick_points(rules, contract) == rules.opponents_per_trick
    slam = score_hand(rules, rules.bid_index["7S"], 0b0101, [6, 0, 4, 0], [0, 0])
    assert slam.points[0] == rules.slam_value and "score.slam" in slam.clauses
