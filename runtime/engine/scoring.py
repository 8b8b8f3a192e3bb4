"""The score of a hand: one pure function of the rules, the contract and the tricks.

:func:`score_hand` is the only place the ``score.*`` rules are written: the hand scores itself
with it (:class:`~fivehundred.runtime.engine.hand.HandState`), the game reads its points per
trick to find who reached the target first (:mod:`~fivehundred.runtime.engine.game`), the clause
counts of the studies ask it which rules decided a hand
(:mod:`~fivehundred.runtime.studies.reached`), and the conformance vectors record what the hand
gives. Nothing here holds state: the same arguments always give the same :class:`HandScore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .rules import Rules
from .tableformat import ClauseId

__all__ = ["HandScore", "score_hand", "trick_points"]


@dataclass(frozen=True)
class HandScore:
    """What a finished hand scores.

    ``points[side]`` is added to each side's total; ``per_trick`` is what a trick is worth to a
    side with no ally of the contractor (every side when all passed); ``made`` is None when all
    passed; ``clauses`` are the scoring rules that decided the points beyond the contract's
    value: ``score.slam``, ``score.overtricks`` and ``score.freeze`` (a cap, or a threshold,
    that cut a side's trick points).
    """

    points: tuple[int, ...]
    per_trick: int
    made: bool | None
    clauses: frozenset[ClauseId]


def trick_points(rules: Rules, contract: int) -> int:
    """Points per trick for a side with no ally of the contractor (``contract`` -1: all passed,
    the hand played at no trumps)."""
    if contract < 0:
        return rules.all_pass_per_trick
    if rules.bid_kind[contract] == "misere":
        return rules.opponents_against_misere
    return rules.opponents_per_trick


def score_hand(
    rules: Rules,
    contract: int,
    allies: int,
    tricks_won: Sequence[int],
    scores: Sequence[int],
    sans: bool = False,
) -> HandScore:
    """The score of a finished hand (``score.*`` clauses).

    ``contract`` is the ladder index of the contract (-1: all passed, played at no trumps),
    ``allies`` the bitmask of the contractor's seats (himself and his partners for the hand),
    ``tricks_won[seat]`` the tricks each seat took, ``scores[side]`` the totals before the hand
    (the cap or threshold of ``score.freeze`` depends on them), ``sans`` whether the contract
    was played sans kitty (its bonus added to the value).
    """
    r = rules
    sides = r.side_of_seat
    per_trick = trick_points(r, contract)
    if contract < 0:
        by_side = [0] * r.n_sides
        for seat, won in enumerate(tricks_won):
            by_side[sides[seat]] += won
        return HandScore(tuple(per_trick * t for t in by_side), per_trick, None, frozenset())
    clauses: set[ClauseId] = set()
    taken = sum(won for seat, won in enumerate(tricks_won) if allies >> seat & 1)
    value = r.bid_value[contract] + (r.sans_kitty_bonus or 0) * sans
    if r.bid_kind[contract] == "misere":
        made = taken == 0
        gain = value if made else -value
    else:
        level = r.bid_level[contract]
        made = taken >= level
        if not made:
            gain = -value
        elif taken == r.hand_size and value < r.slam_below:
            gain = r.slam_value
            if r.slam_value:
                clauses.add("score.slam")
        else:
            gain = value + r.overtricks * (taken - level)
            if r.overtricks and taken > level:
                clauses.add("score.overtricks")
    ally_sides = {sides[s] for s in range(r.players) if allies >> s & 1}
    opp_tricks = [0] * r.n_sides
    for seat, won in enumerate(tricks_won):
        if not allies >> seat & 1:
            opp_tricks[sides[seat]] += won
    pooled = sum(opp_tricks)
    freeze = r.opponents_freeze_at
    points = [0] * r.n_sides
    for side in range(r.n_sides):
        if side in ally_sides:
            points[side] = gain
            continue
        won = pooled if r.pool_opponents else opp_tricks[side]
        earned = per_trick * won
        if freeze is not None:
            capped = _frozen(r, earned, freeze, scores[side])
            if capped < earned:
                clauses.add("score.freeze")
            earned = capped
        points[side] = earned
    return HandScore(tuple(points), per_trick, made, frozenset(clauses))


def _frozen(rules: Rules, earned: int, at: int, score: int) -> int:
    """A side's trick points as opponents after ``score.freeze`` at ``at``, its score before
    the hand being ``score``: with ``scoring.freeze`` ``cap`` they stop at ``at`` (T, G); with
    ``threshold`` a side over ``at`` scores none and any other side all of them (the house rule
    "no trick points for a defending side over 400": 380 + 50 = 430, 410 + 0)."""
    if rules.scoring["freeze"] == "threshold":
        return 0 if score > at else earned
    return max(0, min(earned, at - score))
