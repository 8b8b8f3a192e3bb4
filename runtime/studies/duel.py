"""``fivehundred duel``: two bots play whole games against each other, seats and deals balanced.

The games come in pairs. In the first game of pair ``k`` bot A plays every seat of a set of
sides S and bot B every seat of the other sides (the complement); the second game is dealt the
same cards hand after hand (the deals come from their own random stream, never touched by the
bots) and seats them the other way round, B on S and A on the complement. A game is A's when
the side that wins it is one of A's. S is one side, rotating from pair to pair through the
sides (side 0, side 1, ... side 0 again); with two sides S is always side 0, so the pairs play A
on side 0 and then on side 1, as this format always has.

Two equal bots therefore win exactly half the games with a winner in expectation, whatever the
number of sides: in each pair the two games deal the same cards to the same seats, and A's
seats in one are B's in the other, so what the seat set S is worth counts once for each bot. (A
bot that ignores its random stream plays the same game twice against itself, and wins exactly
one of each pair.) With three sides A holds one side in one game and two in the other: a share
of A's wins above 50% says A is the better bot, not the better seated. The report is A's share
of the games won, with its 95% Wilson score interval.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from ..bots.registry import make_bot
from ..engine.game import Match
from ..engine.hand import HandState
from ..engine.rules import Rules
from .stats import Proportion

__all__ = ["DuelResult", "a_sides", "duel", "wilson"]


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The Wilson 95% score interval of ``wins / n`` (:class:`.stats.Proportion`); (0, 1)
    before any game."""
    return Proportion(wins, n).interval() or (0.0, 1.0)


@dataclass
class DuelResult:
    """What a duel showed."""

    variant: str
    a: str
    b: str
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    no_winner: int = 0
    cut_off: int = 0
    hands: int = 0
    seconds: float = 0.0
    a_points: int = 0
    b_points: int = 0
    per_game: list[int] = field(default_factory=list)
    #: Decisions each bot made and the processor time it took for them (in the same games,
    #: so the two are measured in one run: compare them as a ratio).
    a_decisions: int = 0
    b_decisions: int = 0
    a_cpu: float = 0.0
    b_cpu: float = 0.0
    #: By game: the sides bot A held (a bitmask of side numbers; B held the others).
    sides: list[int] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` object."""
        low, high = wilson(self.a_wins, self.games)
        return {
            "variant": self.variant,
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "games_without_winner": self.no_winner,
            "games_cut_off": self.cut_off,
            "a_win_rate": round(self.a_wins / self.games, 4) if self.games else None,
            "a_win_rate_95": [round(low, 4), round(high, 4)],
            "even_match": 0.5,
            "hands": self.hands,
            "hands_per_game": round(self.hands / self.games, 2) if self.games else None,
            "a_points_per_hand": round(self.a_points / self.hands, 2) if self.hands else None,
            "b_points_per_hand": round(self.b_points / self.hands, 2) if self.hands else None,
            "seconds": round(self.seconds, 1),
            "a_ms_per_decision": _per(self.a_cpu, self.a_decisions),
            "b_ms_per_decision": _per(self.b_cpu, self.b_decisions),
        }


def _per(cpu: float, decisions: int) -> float | None:
    return round(1000 * cpu / decisions, 3) if decisions else None


def a_sides(n_sides: int, game: int) -> int:
    """The sides bot A holds in ``game`` (a bitmask): side ``k mod n_sides`` in the first game of
    pair ``k`` (side 0 in every pair when there are two sides), the other sides in the second."""
    splits = n_sides if n_sides > 2 else 1
    first = 1 << (game // 2 % splits)
    return first if game % 2 == 0 else ((1 << n_sides) - 1) & ~first


def duel(
    rules: Rules,
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    max_hands: int = 200,
    progress: Callable[[DuelResult], None] | None = None,
    on_hand: Callable[[int, HandState], None] | None = None,
) -> DuelResult:
    """Play ``games`` whole games of bot ``a`` against bot ``b`` (``--bots`` names).

    ``progress`` is called after every game; ``on_hand(game, hand)`` with every finished hand.
    """
    result = DuelResult(rules.variant, a, b)
    n_sides = rules.n_sides
    start = time.perf_counter()
    for g in range(games):
        held = a_sides(n_sides, g)
        mine = [bool(held >> rules.side_of_seat[s] & 1) for s in range(rules.players)]
        bots = [make_bot(a if mine[s] else b) for s in range(rules.players)]
        deals = Random(f"{seed}/deals/{g // 2}")
        choices = Random(f"{seed}/choices/{g}")
        match = Match(rules, deals)
        while match.winner is None and match.hands_played < max_hands:
            hand = match.hand
            while not hand.is_over:
                seat = hand.controller(hand.to_move)
                t0 = time.process_time()
                action = bots[seat].choose(hand, choices)
                spent = time.process_time() - t0
                if mine[seat]:
                    result.a_decisions += 1
                    result.a_cpu += spent
                else:
                    result.b_decisions += 1
                    result.b_cpu += spent
                hand.apply_fast(action)
            if on_hand is not None:
                on_hand(g, hand)
            res = match.finish_hand()
            result.hands += 1
            result.a_points += sum(p for s, p in enumerate(res.points) if held >> s & 1)
            result.b_points += sum(p for s, p in enumerate(res.points) if not held >> s & 1)
        result.games += 1
        result.sides.append(held)
        if match.winner is None:
            result.cut_off += 1
            result.per_game.append(-1)
        elif match.winner < 0:
            result.no_winner += 1
            result.per_game.append(-1)
        elif held >> match.winner & 1:
            result.a_wins += 1
            result.per_game.append(1)
        else:
            result.b_wins += 1
            result.per_game.append(0)
        if progress is not None:
            progress(result)
    result.seconds = time.perf_counter() - start
    return result
