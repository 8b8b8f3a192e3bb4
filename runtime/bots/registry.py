"""Bots: a bot chooses an action for the seat to move from the state alone.

Every bot takes the engine's hand state or the public ``State`` (:mod:`.state`), with one
signature, ``choose(state, rng)``. Bots see the whole state object, but a fair bot reads only
what the seat to move may know (:mod:`~..engine.seatview`); :class:`RandomBot` reads nothing
but the legal actions. ``heuristic-1`` is the heuristic as it was before it bid from a fitted
model, kept to measure the new one against.
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from .state import BotState, hand_state

__all__ = ["BOTS", "Bot", "BotSpecError", "HeuristicBot", "RandomBot", "SearchBot", "make_bot"]


class Bot(Protocol):
    """Anything that picks a legal action int for the seat to move."""

    def choose(self, state: BotState, rng: Random) -> int:
        """A legal action of the seat to move (``state``: a hand state or the public ``State``)."""
        ...


class RandomBot:
    """Uniformly random over the legal actions (a discard is one card per action, so the cards
    discarded are a uniform random set)."""

    name = "random"

    def choose(self, state: BotState, rng: Random) -> int:
        """A uniformly random legal action."""
        legal = hand_state(state).legal_actions()
        choice: int = legal[int(rng.random() * len(legal))]
        return choice


from .heuristic import HeuristicBot  # noqa: E402  (the registry below needs it)
from .heuristic1 import HeuristicBotV1  # noqa: E402
from .search import SearchBot  # noqa: E402

#: Bots by the name ``--bots`` uses: each class can be built with no arguments.
BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "heuristic-1": HeuristicBotV1,
    "search": SearchBot,
}


def make_bot(spec: str) -> Bot:
    """A bot from its ``--bots`` name: ``random``, ``heuristic``, ``search``, ``search:N`` (N
    sampled deals per decision) or ``search:N:S`` (and at most S seconds per decision).

    Raises :class:`BotSpecError` (a ValueError quoting ``spec``) for anything else.
    """
    name, _, args = spec.strip().partition(":")
    if name not in BOTS:
        raise BotSpecError(spec, f"unknown bot; bots: {', '.join(BOTS)}")
    if not args:
        return BOTS[name]()
    if name != "search":
        raise BotSpecError(spec, f"the {name} bot takes no settings")
    parts = args.split(":")
    try:
        samples = int(parts[0])
        seconds = float(parts[1]) if len(parts) > 1 else None
    except ValueError:
        raise BotSpecError(spec, "settings are search:SAMPLES or search:SAMPLES:SECONDS") from None
    if len(parts) > 2 or samples < 1 or (seconds is not None and not seconds > 0):
        raise BotSpecError(spec, "settings are search:SAMPLES or search:SAMPLES:SECONDS")
    return SearchBot(samples, seconds)


class BotSpecError(ValueError):
    """A ``--bots`` name that names no bot (or bad settings for one)."""

    def __init__(self, spec: str, why: str) -> None:
        super().__init__(f"{spec!r}: {why}")
        self.spec = spec
