"""Scoring once (issue 17 §2): score_hand against an independent reading of the score rules.

The engine scores a hand in one pure function, ``runtime/engine/scoring.py``. This module
re-derives the points of the contractor's side from the rules written out again here (the
``score.*`` clauses: score.made, score.failed, score.slam, score.overtricks, score.misere and the
all-pass hand of auction.all-pass), over hands bots play in every built-in variant, so the
runtime no longer carries a second copy of the scoring to check itself against; and it checks,
clause by clause, that score_hand names a clause exactly when it decided the points.
"""

from __future__ import annotations

import copy
from random import Random
from typing import Any

import pytest

from fivehundred.generator.pipeline import builtin_ids
from fivehundred.runtime.bots.heuristic import HeuristicBot
from fivehundred.runtime.engine.hand import AUCTION, OVER, HandState
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.engine.scoring import HandScore, score_hand, trick_points
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
    assert a.points == (rules.bid_value[contract], 10)
    assert a.clauses == {"score.table", "score.made", "score.opponents", "score.freeze"}
    assert a.per_trick == trick_points(rules, contract) == rules.opponents_per_trick
    slam = score_hand(rules, rules.bid_index["7S"], 0b0101, [6, 0, 4, 0], [0, 0])
    assert slam.points[0] == rules.slam_value and "score.slam" in slam.clauses


# -- which clauses decided the points: one test per clause score_hand names ---------------------


def _variant(variant: str, **scoring: Any) -> Rules:
    """A built-in variant's rules with ``scoring`` options changed."""
    tables = copy.deepcopy(Rules.builtin(variant).tables)
    tables["scoring"].update(scoring)
    return Rules(tables)


def _score(rules: Rules, bid: str, taken: int, before: int = 0, *, sans: bool = False) -> HandScore:
    """Seats 0 and 2 (side 0) play ``bid`` and take ``taken`` tricks, seat 1 (side 1, ``before``
    points before the hand) all the others."""
    won = [taken, rules.hand_size - taken, 0, 0]
    return score_hand(rules, rules.bid_index[bid], 0b0101, won, [0, before], sans)


def test_score_table() -> None:
    """The contract's value enters the points of every contract, a slam's too (its value puts
    it under the slam's limit); all passed, no contract has a value."""
    r = Rules.builtin("australian")
    assert _score(r, "7H", 7).points[0] == r.bid_value[r.bid_index["7H"]] == 200
    assert _score(r, "7H", 6).points[0] == -200
    for bid, taken in (("7H", 7), ("7H", 6), ("MIS", 0), ("MIS", 1), ("7S", 10), ("8H", 10)):
        assert "score.table" in _score(r, bid, taken).clauses, (bid, taken)
    assert "score.table" not in score_hand(r, -1, 0, [3, 3, 2, 2], [0, 0]).clauses


def test_score_made() -> None:
    """A contract made: its value (or the slam's, a misère's with no trick taken); never for a
    failed one."""
    r = Rules.builtin("australian")
    for bid, taken, points in (("7H", 7, 200), ("7S", 10, 250), ("MIS", 0, 250)):
        got = _score(r, bid, taken)
        assert got.made and got.points[0] == points and "score.made" in got.clauses
    for bid, taken in (("7H", 6), ("MIS", 1)):
        assert "score.made" not in _score(r, bid, taken).clauses


def test_score_failed() -> None:
    """A failed contract, a misère that took a trick too, loses its value; a made one never
    names the rule."""
    r = Rules.builtin("australian")
    for bid, taken, points in (("7H", 6, -200), ("7H", 0, -200), ("MIS", 1, -250)):
        got = _score(r, bid, taken)
        assert got.made is False and got.points[0] == points and "score.failed" in got.clauses
    for bid, taken in (("7H", 7), ("7S", 10), ("MIS", 0)):
        assert "score.failed" not in _score(r, bid, taken).clauses


def test_score_overtricks() -> None:
    """Named when the tricks beyond the contract scored: a made contract with overtricks and
    points for them; not at exactly the contract, not failed, not at 0 points a trick."""
    r = _variant("australian", overtricks=10)
    got = _score(r, "7H", 9)
    assert got.points[0] == 220 and "score.overtricks" in got.clauses
    for taken in (7, 6):
        assert "score.overtricks" not in _score(r, "7H", taken).clauses
    plain = Rules.builtin("australian")
    got = _score(plain, "7H", 9)
    assert got.points[0] == 200 and "score.overtricks" not in got.clauses


def test_score_slam() -> None:
    """All tricks on a contract worth less than the limit (250) score the slam value instead of
    the value; all tricks on one worth more, or one trick fewer, do not; nor with no slam."""
    r = Rules.builtin("australian")
    got = _score(r, "7S", 10)
    assert got.points[0] == r.slam_value == 250 and "score.slam" in got.clauses
    assert "score.made" in got.clauses
    for bid, taken, points in (("7S", 9, 140), ("8H", 10, 300), ("10NT", 10, 520)):
        got = _score(r, bid, taken)
        assert got.points[0] == points and "score.slam" not in got.clauses, bid
    none = _variant("australian", slam={"value": 0, "below": 0})
    got = _score(none, "7S", 10)
    assert got.points[0] == 140 and "score.slam" not in got.clauses


def test_score_opponents() -> None:
    """The opponents of a contract of tricks score their tricks: named when they took one,
    made or failed; not when the contractor's side took them all, nor against a misère
    (score.misere gives their points)."""
    r = Rules.builtin("australian")
    for taken in (7, 6, 9):
        got = _score(r, "7H", taken)
        assert got.points[1] == 10 * (10 - taken) and "score.opponents" in got.clauses
    assert "score.opponents" not in _score(r, "8H", 10).clauses
    assert "score.opponents" not in _score(r, "MIS", 0).clauses
    assert "score.opponents" not in _score(r, "MIS", 1).clauses


def test_score_misere() -> None:
    """A misère scores its value with no trick taken and loses it with one, its opponents
    scoring what score.misere gives; a contract of tricks never names it."""
    r = Rules.builtin("australian")
    made, lost = _score(r, "MIS", 0), _score(r, "MIS", 1)
    assert made.points == (250, 0) and lost.points == (-250, 0)
    assert "score.misere" in made.clauses and "score.misere" in lost.clauses
    assert "score.misere" not in _score(r, "7H", 7).clauses


def test_score_freeze() -> None:
    """A cap (T: 490) names the rule where it cut the opponents' trick points: from 480 three
    tricks give 10, from 460 they reach 490 exactly (not cut); a threshold (400) where it
    withheld them: over 400 with tricks taken, not at 400, not with no trick taken."""
    cap = Rules.builtin("trickster-australian")
    got = _score(cap, "7H", 7, 480)
    assert got.points[1] == 10 and "score.freeze" in got.clauses
    got = _score(cap, "7H", 7, 460)
    assert got.points[1] == 30 and "score.freeze" not in got.clauses
    assert "score.freeze" not in _score(cap, "8H", 10, 490).clauses  # no trick to cut
    assert "score.freeze" not in _score(cap, "MIS", 0, 490).clauses  # 0 a trick against misère
    threshold = Rules.builtin("opponents-over-400")
    got = _score(threshold, "7H", 7, 410)
    assert got.points[1] == 0 and "score.freeze" in got.clauses
    got = _score(threshold, "7H", 7, 400)
    assert got.points[1] == 30 and "score.freeze" not in got.clauses
    assert "score.freeze" not in _score(threshold, "8H", 10, 410).clauses
    assert "score.freeze" not in _score(Rules.builtin("australian"), "7H", 7, 480).clauses


def test_kitty_sans() -> None:
    """The sans-kitty bonus (50) added to the value won or lost names kitty.sans; not a slam
    (it scores the slam value whatever the bonus), not a hand played with the kitty, not a
    variant with no bonus."""
    r = Rules.builtin("sans-kitty")
    assert r.sans_kitty_bonus == 50
    for taken, points in ((7, 250), (6, -250)):
        got = _score(r, "7H", taken, sans=True)
        assert got.points[0] == points and "kitty.sans" in got.clauses
    got = _score(r, "7S", 10, sans=True)
    assert got.points[0] == 250 and "kitty.sans" not in got.clauses
    got = _score(r, "7H", 7)
    assert got.points[0] == 200 and "kitty.sans" not in got.clauses
    assert "kitty.sans" not in _score(Rules.builtin("australian"), "7H", 7, sans=True).clauses


def test_auction_all_pass() -> None:
    """All passed and played at no trumps: each side scores its tricks at the all-pass rate,
    and that rule is the only one named; any contract never names it."""
    r = Rules.builtin("all-pass-no-trumps")
    got = score_hand(r, -1, 0, [3, 4, 2, 1], [480, 0])
    assert got.points == (50, 50) and got.made is None
    assert got.clauses == {"auction.all-pass"}
    assert "auction.all-pass" not in _score(r, "7H", 7).clauses


def _rederived_clauses(state: HandState) -> set[str]:
    """The clauses that decided a played hand's points, read again from the rules (as the
    docstring of HandScore states them)."""
    r = state.rules
    res = state.result
    assert res is not None
    if res.contract < 0:
        return {"auction.all-pass"}
    taken = sum(state.tricks_won[s] for s in res.allies)
    opp = r.hand_size - taken
    out = {"score.table", "score.made" if res.made else "score.failed"}
    bonus = bool(res.sans and r.sans_kitty_bonus)
    if r.bid_kind[res.contract] == "misere":
        out.add("score.misere")
    else:
        level = r.bid_level[res.contract]
        value = r.bid_value[res.contract] + (r.sans_kitty_bonus or 0) * res.sans
        if taken == r.hand_size and value < r.slam_below:
            bonus = False
            if r.slam_value:
                out.add("score.slam")
        elif res.made and r.overtricks and taken > level:
            out.add("score.overtricks")
        if opp:
            out.add("score.opponents")
    if bonus:
        out.add("kitty.sans")
    allied = {r.side_of_seat[s] for s in res.allies}
    at = r.opponents_freeze_at
    for side in range(r.n_sides):
        if side in allied or at is None:
            continue
        # the points a side would have without the freeze, from its tricks
        mine = sum(state.tricks_won[s] for s in range(r.players) if r.side_of_seat[s] == side)
        won = opp if r.pool_opponents else mine
        if trick_points(r, res.contract) * won > res.points[side]:
            out.add("score.freeze")
    return out


def _played(rules: Rules, i: int, rng: Random) -> HandState:
    """Hand ``i`` from scores near the freezes: played by the heuristic at every seat (even
    ``i``) or at random (odd), every third random one with all passing."""
    before = [rng.choice((0, 380, 410, 480, 490)) for _ in range(rules.n_sides)]
    state = HandState.new(rules, i % rules.players, rng, before)
    if i % 2 == 0:
        bot = HeuristicBot()
        while state.phase != OVER:
            state.apply_fast(bot.decide(state).action)
        return state
    while i % 3 == 0 and state.phase == AUCTION:
        state.apply_fast(rules.PASS)
    state.playout(rng)
    return state


@pytest.mark.parametrize(
    "variant",
    [
        "australian",
        "australian+overtricks",
        "trickster-australian",
        "opponents-over-400",
        "sans-kitty",
        "all-pass-no-trumps",
        "three-handed",
        "six-handed-2v2v2",
    ],
)
def test_played_hands_name_the_clauses_that_decided_them(variant: str) -> None:
    """Over hands played from scores near the freeze, score_hand's clauses are the ones read
    again from the rules (and from the points the hand gave), and every clause the variant can
    name comes up."""
    if variant == "australian+overtricks":
        rules = _variant("australian", overtricks=10)
    else:
        rules = load_rules(variant)
    rng = Random(23)
    names: set[str] = set()
    for i in range(120):
        state = _played(rules, i, rng)
        res = state.result
        assert res is not None
        if res.contract < 0 and not state.tricks:
            continue  # thrown in: not scored
        allies = sum(1 << s for s in res.allies)
        got = score_hand(rules, res.contract, allies, state.tricks_won, state.scores, res.sans)
        assert got.points == res.points
        assert got.clauses == _rederived_clauses(state), (variant, i, res)
        names |= got.clauses
    want = {"score.table", "score.made", "score.failed", "score.opponents"}
    want |= {"score.misere"} if "misere" in rules.bid_kind else set()
    want |= {"score.overtricks"} if rules.overtricks else set()
    want |= {"score.freeze"} if rules.opponents_freeze_at is not None else set()
    want |= {"kitty.sans"} if rules.sans_kitty_bonus else set()
    want |= {"auction.all-pass"} if rules.all_pass == "no-trumps" else set()
    assert want <= names, want - names
