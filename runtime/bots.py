"""Bots: a bot chooses an action for the seat to move from the state alone.

Bots see the whole state object, but a fair bot reads only ``state.observation(seat)``-level
facts; :class:`RandomBot` reads nothing but the legal actions.
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from .codes import bits
from .hand import DISCARD, HandState

__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot"]


class Bot(Protocol):
    """Anything that picks a legal action int for the seat to move."""

    def choose(self, state: HandState, rng: Random) -> int:
        """A legal action of ``state.to_move``."""
        ...


class RandomBot:
    """Uniformly random over the legal actions (discards: a uniform random set of cards)."""

    name = "random"

    def choose(self, state: HandState, rng: Random) -> int:
        """A uniformly random legal action."""
        if state.phase == DISCARD:
            r = state.rules
            cards = rng.sample(bits(state.hands[state.contractor]), r.discard_count)
            return r.DISCARD + sum(1 << c for c in cards)
        legal = state.legal_actions()
        choice: int = legal[int(rng.random() * len(legal))]
        return choice


from .heuristic import HeuristicBot  # noqa: E402  (the registry below needs it)

#: Bots by the name ``--bots`` uses: each class takes no arguments.
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}
