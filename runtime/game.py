"""A whole game: hands dealt in turn until a side wins (OpenSpiel's *Game* plus a match state).

:func:`load_rules` finds a variant's rules by built-in id or compiles the author's own rule file
in memory; :class:`Match` plays hand after hand, keeps the sides' scores, passes the deal to the
left and decides the winner by the variant's end-of-game rules.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from random import Random
from types import ModuleType

from .errors import InvalidActionError
from .hand import HandResult, HandState
from .rules import Rules

__all__ = ["Match", "first_dealer", "game_winner", "load_rules"]


@lru_cache(maxsize=64)
def _load_builtin(variant: str) -> Rules:
    return Rules.builtin(variant)


def load_rules(name: str) -> Rules:
    """Rules for a built-in variant id, or for a rule file path (compiled in memory).

    Raises :class:`SpecError` for an unknown variant or a broken rule file.
    """
    looks_like_path = name.endswith((".yaml", ".yml")) or "/" in name or Path(name).is_file()
    if not looks_like_path:
        try:
            return _load_builtin(name)
        except KeyError:
            pass
    from ..generator.pipeline import compile_spec, find_spec
    from ..generator.render import render_module

    path = find_spec(name)
    rs = compile_spec(path)
    module = ModuleType(f"fivehundred_spec_{rs.id.replace('-', '_')}")
    code = compile(render_module(rs, str(path)), str(path), "exec")
    exec(code, module.__dict__)  # the generated module: literals only
    return Rules.from_module(module)


def first_dealer(rules: Rules, rng: Random) -> int:
    """Choose the first dealer: at random (G), or by drawing for lowest card (P).

    In the draw each player draws a card; ace counts low and the joker lowest of all; players who
    tie for lowest draw again.
    """
    if rules.first_dealer != "draw":
        return rng.randrange(rules.players)
    order = ["A", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K"]

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


def game_winner(rules: Rules, scores: list[int], result: HandResult) -> int | None:
    """The side that has won after a hand with ``result`` left ``scores``, or None.

    Must bid to win (G, ``end.must-bid-to-win``): only the contractor's side wins, by reaching the
    target on its own successful contract; a side at ``lose_at`` or below loses (``end.lose``).
    Otherwise (T) the first side past the target or the last side above ``lose_at`` ends the game
    and the highest score wins.
    """
    if result.contract < 0:
        return None
    cside = rules.side_of_seat[result.contractor]
    if rules.must_bid_to_win:
        if result.made and scores[cside] >= rules.target:
            return cside
    else:
        leaders = [s for s in range(rules.n_sides) if scores[s] >= rules.target]
        if leaders:
            if cside in leaders and result.made:
                return cside
            return max(leaders, key=lambda s: scores[s])
    if rules.lose_at is not None:
        alive = [s for s in range(rules.n_sides) if scores[s] > rules.lose_at]
        if len(alive) == 1 and rules.n_sides > 1:
            return alive[0]
        if not alive:
            return max(range(rules.n_sides), key=lambda s: scores[s])
    return None


class Match:
    """A game of several hands: scores, the dealer, the current hand and the winner."""

    def __init__(self, rules: Rules, rng: Random, dealer: int | None = None) -> None:
        self.rules = rules
        self.rng = rng
        self.scores = [0] * rules.n_sides
        self.dealer = first_dealer(rules, rng) if dealer is None else dealer
        self.hands_played = 0
        self.winner: int | None = None
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
        self.winner = game_winner(self.rules, self.scores, result)
        if self.winner is None:
            self.dealer = (self.dealer + 1) % self.rules.players
            self.hand = HandState.new(self.rules, self.dealer, self.rng, self.scores)
        return result
