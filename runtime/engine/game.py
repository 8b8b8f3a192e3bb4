"""A whole game: hands dealt in turn until a side wins (OpenSpiel's *Game* plus a match state).

:func:`load_builtin` gives a built-in variant's rules; :class:`Match` plays hand after hand,
keeps the sides' scores, passes the deal to the left and decides the winner by the variant's
end-of-game rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from random import Random

from .errors import InvalidActionError
from .hand import HandResult, HandState, next_dealer
from .rules import Rules
from .scoring import trick_points

__all__ = ["NO_WINNER", "Match", "first_dealer", "game_winner", "load_builtin"]

#: What :func:`game_winner` returns when the game is over and nobody has won (P).
NO_WINNER = -1


@lru_cache(maxsize=64)
def load_builtin(variant: str) -> Rules:
    """The rules of a built-in variant (cached); ``KeyError`` for an id that is not one.

    Rule files are compiled by :func:`fivehundred.runtime.loading.load_rules`, above the engine:
    the engine itself imports nothing of the generator.
    """
    return Rules.builtin(variant)


def first_dealer(rules: Rules, rng: Random) -> int:
    """Choose the first dealer: at random (G), or by drawing for lowest card (P).

    In the draw each player draws a card; ace counts low and the joker lowest of all; players who
    tie for lowest draw again.
    """
    if rules.first_dealer != "draw":
        return rng.randrange(rules.players)
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K"]

    def low_key(card: int) -> int:
        code = rules.deck[card]
        if card in rules.joker_cards:
            return -1
        return order.index(code[:-1])

    seats = list(range(rules.players))
    while True:
        cards = rng.sample(range(rules.n_cards), len(seats))
        keys = [low_key(c) for c in cards]
        low = min(keys)
        tied = [seat for seat, k in zip(seats, keys, strict=True) if k == low]
        if len(tied) == 1:
            return tied[0]
        seats = tied


def reaches(rules: Rules, score: int) -> bool:
    """Whether ``score`` has reached the target (``end.target``): at it or above, or with
    ``end.line: exceed`` (T) only above it."""
    if rules.end["line"] == "exceed":
        return score > rules.target
    return score >= rules.target


def gone_out(rules: Rules, score: int) -> bool:
    """Whether ``score`` has gone out backwards (``end.lose``): at ``lose_at`` or below, or with
    ``end.line: exceed`` (T) only below it; never without ``lose_at``."""
    if rules.lose_at is None:
        return False
    if rules.end["line"] == "exceed":
        return score < rules.lose_at
    return score <= rules.lose_at


def game_winner(
    rules: Rules,
    scores: list[int],
    result: HandResult,
    state: HandState | None = None,
    barred: frozenset[int] = frozenset(),
    winners: Sequence[int] | None = None,
) -> int | None:
    """The side that has won after a hand with ``result`` left ``scores``, or None.

    - Must bid to win (G, ``end.must-bid-to-win``): only the contractor's side wins, by reaching
      the target on its own successful contract. Otherwise (T, P) any side at the target wins.
    - Several sides at the target on one hand (``end.both-out``): the contractor's side, else the
      first to reach it trick by trick (P); or the highest total (T).
    - A side at ``lose_at`` or below (``end.lose``): the game is over and it has lost (G, T), or it
      plays on but can no longer win (P, ``barred``); if it later reaches the target, or every
      side is barred, the game is over and nobody wins: :data:`NO_WINNER`. With
      ``end.backwards_winner: not-negative`` it has lost only when the side that would win has
      0 or more; while that side is in the negative the game goes on.
    ``state`` (the finished hand), or the ``winners`` of its tricks in order, is needed only
    to rank sides trick by trick.
    """
    n = rules.n_sides
    cside = rules.side_of_seat[result.contractor] if result.contractor >= 0 else -1
    ally_sides = {rules.side_of_seat[s] for s in result.allies} or ({cside} - {-1})
    out = frozenset(barred)
    if rules.lose_at is not None and rules.out_backwards == "cannot-win":
        out |= {s for s in range(n) if gone_out(rules, scores[s])}
        # P: a player who went out backwards and later reaches the target ends the game, and
        # nobody wins; so does a game in which every player has gone out backwards.
        if any(reaches(rules, scores[s]) for s in barred) or len(out) == n:
            return NO_WINNER
    if rules.must_bid_to_win:
        reached = [
            s for s in ally_sides if result.made and reaches(rules, scores[s]) and s not in out
        ]
    else:
        reached = [s for s in range(n) if reaches(rules, scores[s]) and s not in out]
    if reached:
        if len(reached) == 1:
            return reached[0]
        if rules.both_out == "highest":
            best = max(scores[s] for s in reached)
            top = [s for s in reached if scores[s] == best]
            return cside if cside in top else top[0]
        if rules.both_out == "contractor" and cside in reached:
            return cside
        if winners is None and state is not None:
            winners = [winner for _, _, winner in state.tricks]
        return _first_by_trick(rules, scores, result, winners, reached)
    if rules.lose_at is not None and rules.out_backwards == "game-over":
        sunk = [s for s in range(n) if gone_out(rules, scores[s])]
        if sunk:
            alive = [s for s in range(n) if s not in sunk]
            pool = alive or list(range(n))
            best = max(pool, key=lambda s: (scores[s], s == cside))
            # end.backwards_winner: not-negative (a variation of Wikipedia's article): a side
            # out backwards loses only to a side not in the negative, else play goes on
            if rules.end["backwards_winner"] == "not-negative" and scores[best] < 0:
                return None
            return best
    return None


def _first_by_trick(
    rules: Rules,
    scores: list[int],
    result: HandResult,
    winners: Sequence[int] | None,
    reached: list[int],
) -> int:
    """Of several sides at the target, the one that got there first, trick by trick (P).

    Trick points are earned as each trick is won; a contract's value counts after the last trick.
    Without the hand's tricks, the highest total wins.
    """
    if winners is None:
        return max(reached, key=lambda s: scores[s])
    sides = rules.side_of_seat
    allies = {sides[s] for s in result.allies}
    if not allies and result.contractor >= 0:
        allies = {sides[result.contractor]}
    per = trick_points(rules, result.contract)
    running = [scores[s] - result.points[s] for s in range(rules.n_sides)]
    for winner in winners:
        side = sides[winner]
        if side in allies:
            continue
        gainers = (
            [s for s in range(rules.n_sides) if s not in allies]
            if rules.pool_opponents and result.contract >= 0
            else [side]
        )
        for s in gainers:
            running[s] += per
        first = [s for s in reached if s in gainers and reaches(rules, running[s])]
        if first:
            return first[0]
    return max(reached, key=lambda s: scores[s])


class Match:
    """A game of several hands: scores, the dealer, the current hand and the winner."""

    def __init__(self, rules: Rules, rng: Random, dealer: int | None = None) -> None:
        self.rules = rules
        self.rng = rng
        self.scores = [0] * rules.n_sides
        self.dealer = first_dealer(rules, rng) if dealer is None else dealer
        self.hands_played = 0
        #: The winning side; :data:`NO_WINNER` when the game ended without one; None while on.
        self.winner: int | None = None
        #: Sides that went out backwards and may no longer win (``end.out_backwards``).
        self.barred: frozenset[int] = frozenset()
        self.hand = HandState.new(rules, self.dealer, rng, self.scores)

    def finish_hand(self) -> HandResult:
        """Score the finished current hand, decide the winner, deal the next hand if none."""
        hand = self.hand
        result = hand.result
        if result is None:
            raise InvalidActionError("the current hand is not over yet")
        for side, pts in enumerate(result.points):
            self.scores[side] += pts
        self.hands_played += 1
        self.winner = game_winner(self.rules, self.scores, result, hand, self.barred)
        r = self.rules
        if r.lose_at is not None and r.out_backwards == "cannot-win":
            self.barred |= {s for s in range(r.n_sides) if gone_out(r, self.scores[s])}
        if self.winner is None:
            self.dealer = next_dealer(
                self.rules, self.dealer, result.contract, redeal=result.redeal
            )
            self.hand = HandState.new(self.rules, self.dealer, self.rng, self.scores)
        return result
