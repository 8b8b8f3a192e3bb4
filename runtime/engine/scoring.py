"""The score of a hand: one pure function of the rules, the contract and the tricks.

:func:`score_hand` is the only place the ``score.*`` rules are written: the hand scores itself
with it (:class:`~fivehundred.runtime.engine.hand.HandState`), the game reads its points per
trick to find who reached the target first (:mod:`~fivehundred.runtime.engine.game`), the clause
counts of the studies ask it which rules decided a hand
(:mod:`~fivehundred.runtime.studies.reached`), and the conformance vectors list the clauses it
names. The search bot, which weighs hands that have not ended, scores them with the two halves
score_hand is made of: :func:`contract_points` (the contractor's side) and
:func:`opponent_points` (a side against it, after the freeze). Nothing here holds state: the
same arguments always give the same :class:`HandScore`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import overload

from .rules import Rules
from .tableformat import ClauseId

__all__ = ["HandScore", "contract_points", "opponent_points", "score_hand", "trick_points"]


#: The clauses :func:`score_hand` can name, one bit each in the mask the scoring builds while it
#: scores (a bit is set where the clause decided the points; :func:`_named` turns a mask into
#: its frozenset once, so a call allocates no set).
_CLAUSES: tuple[ClauseId, ...] = (
    "auction.all-pass",
    "kitty.sans",
    "score.table",
    "score.made",
    "score.overtricks",
    "score.slam",
    "score.failed",
    "score.opponents",
    "score.misere",
    "score.freeze",
)
_ALL_PASS, _SANS, _TABLE, _MADE, _OVERTRICKS, _SLAM, _FAILED, _OPPONENTS, _MISERE, _FREEZE = (
    1 << k for k in range(len(_CLAUSES))
)


@cache
def _named(mask: int) -> frozenset[ClauseId]:
    """The clause ids of the bits set in ``mask`` (one frozenset per mask, kept)."""
    return frozenset(c for k, c in enumerate(_CLAUSES) if mask >> k & 1)


@dataclass(frozen=True)
class HandScore:
    """What a finished hand scores.

    ``points[side]`` is added to each side's total; ``per_trick`` is what a trick is worth to a
    side with no ally of the contractor (every side when all passed); ``made`` is None when all
    passed; ``clauses`` are the ids of every clause that decided the points:

    - ``auction.all-pass``: all passed and the hand was played at no trumps, each side scoring
      its tricks at ``all_pass_per_trick`` (the only clause of such a hand);
    - ``score.table``: the contract's value from the table (every contract: a slam is one by
      its value);
    - ``score.made`` or ``score.failed``: the contract was made (its value, or the slam's) or
      failed (minus its value), a misère too (made when its side takes no trick);
    - ``score.misere``: a misère was played (its value won or lost, its opponents' points per
      trick);
    - ``kitty.sans``: the sans-kitty bonus was added to the value won or lost (not to a slam,
      which scores the slam value whatever the bonus);
    - ``score.overtricks``: the tricks beyond the contract scored; ``score.slam``: all tricks on
      a contract worth less than the slam's limit scored the slam value instead of the value;
    - ``score.opponents``: the opponents of a contract of tricks took a trick (its points per
      trick, pooled or not);
    - ``score.freeze``: a cap, or a threshold, cut an opposing side's trick points.
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


def _contract(rules: Rules, contract: int, taken: int, sans: bool) -> tuple[int, bool, int]:
    """The contractor's side's points when it takes ``taken`` tricks on ``contract`` (a ladder
    index), whether the contract was made, and the mask of the clauses that decided them."""
    r = rules
    value = r.bid_value[contract]
    bonus = r.sans_kitty_bonus if sans else None
    if bonus:
        value += bonus
    sans_bit = _SANS if bonus else 0
    if r.bid_kind[contract] == "misere":
        if taken == 0:
            return value, True, _MISERE | _MADE | _TABLE | sans_bit
        return -value, False, _MISERE | _FAILED | _TABLE | sans_bit
    level = r.bid_level[contract]
    if taken < level:
        return -value, False, _FAILED | _TABLE | sans_bit
    if taken == r.hand_size and value < r.slam_below:  # the value decides whether it is a slam
        return r.slam_value, True, (_SLAM if r.slam_value else 0) | _MADE | _TABLE
    over = r.overtricks * (taken - level)
    return value + over, True, (_OVERTRICKS if over else 0) | _MADE | _TABLE | sans_bit


def contract_points(rules: Rules, contract: int, taken: int, sans: bool = False) -> int:
    """What the contractor's side scores for ``taken`` tricks on ``contract`` (a ladder index;
    ``sans``: played sans kitty): the points :func:`score_hand` gives it."""
    return _contract(rules, contract, taken, sans)[0]


@overload
def opponent_points(rules: Rules, earned: int, score: int) -> int: ...
@overload
def opponent_points(rules: Rules, earned: float, score: int) -> float: ...
def opponent_points(rules: Rules, earned: float, score: int) -> float:
    """What a side with no ally of the contractor keeps of the trick points ``earned``, its
    score before the hand being ``score`` (``score.freeze`` at ``opponents_freeze_at``): with
    ``scoring.freeze`` ``cap`` they stop at it (T, G); with ``threshold`` a side over it scores
    none and any other side all of them (the house rule "no trick points for a defending side
    over 400": 380 + 50 = 430, 410 + 0). ``earned`` may be a fraction (a search's estimate)."""
    at = rules.opponents_freeze_at
    if at is None:
        return earned
    if rules.scoring["freeze"] == "threshold":
        return 0 if score > at else earned
    return max(0, min(earned, at - score))


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
        each = tuple(per_trick * t for t in by_side)
        return HandScore(each, per_trick, None, _named(_ALL_PASS))
    taken = 0
    ally_sides = 0  # a bit per side of the contractor's seats
    opp_tricks = [0] * r.n_sides
    for seat, won in enumerate(tricks_won):
        if allies >> seat & 1:
            taken += won
            ally_sides |= 1 << sides[seat]
        else:
            opp_tricks[sides[seat]] += won
    gain, made, mask = _contract(r, contract, taken, sans)
    pooled = sum(opp_tricks)  # all the tricks of the contractor's opponents
    if pooled and not mask & _MISERE:
        mask |= _OPPONENTS
    pool = r.pool_opponents
    points = [0] * r.n_sides
    for side in range(r.n_sides):
        if ally_sides >> side & 1:
            points[side] = gain
            continue
        earned = per_trick * (pooled if pool else opp_tricks[side])
        kept = opponent_points(r, earned, scores[side])
        if kept < earned:
            mask |= _FREEZE
        points[side] = kept
    return HandScore(tuple(points), per_trick, made, _named(mask))
