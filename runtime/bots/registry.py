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

__all__ = [
    "BOTS",
    "Bot",
    "BotSpecError",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "make_bot",
    "split_bots",
]


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
from .search import SearchBot, parse_settings  # noqa: E402
from .search1 import SearchBotV1  # noqa: E402

#: Bots by the name ``--bots`` uses: each class can be built with no arguments.
BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "heuristic-1": HeuristicBotV1,
    "search": SearchBot,
    "search-1": SearchBotV1,
}


def make_bot(spec: str) -> Bot:
    """A bot from its ``--bots`` name: ``random``, ``heuristic``, ``search`` with settings
    (``search:samples=16,ms=50``, any field of :class:`~.search.SearchSettings`; or the older
    ``search:N``, N sampled deals per decision, and ``search:N:S``, at most S seconds per
    decision), and ``search-1`` (the search bot before the solver, the reference it is
    measured against; ``search-1:N[:S]``).

    Raises :class:`BotSpecError` (a ValueError quoting ``spec``) for anything else.
    """
    name, _, args = spec.strip().partition(":")
    if name not in BOTS:
        raise BotSpecError(spec, f"unknown bot; bots: {', '.join(BOTS)}")
    if not args:
        return BOTS[name]()
    if name == "search":
        try:
            return SearchBot(settings=parse_settings(args))
        except ValueError as exc:
            raise BotSpecError(spec, str(exc)) from None
    if name != "search-1":
        raise BotSpecError(spec, f"the {name} bot takes no settings")
    parts = args.split(":")
    usage = "settings are search-1:SAMPLES or search-1:SAMPLES:SECONDS"
    try:
        samples = int(parts[0])
        seconds = float(parts[1]) if len(parts) > 1 else None
    except ValueError:
        raise BotSpecError(spec, usage) from None
    if len(parts) > 2 or samples < 1 or (seconds is not None and not seconds > 0):
        raise BotSpecError(spec, usage)
    return SearchBotV1(samples, seconds)


def split_bots(text: str) -> list[str]:
    """The bot specs of a comma-separated ``--bots`` list: a piece ``name=value`` with no bot
    name before it continues the spec before it (``search:samples=16,ms=50,heuristic`` is two
    bots)."""
    out: list[str] = []
    for piece in text.split(","):
        head = piece.strip().partition(":")[0]
        if out and "=" in head and out[-1].partition(":")[2]:
            out[-1] += "," + piece.strip()
        else:
            out.append(piece.strip())
    return out


class BotSpecError(ValueError):
    """A ``--bots`` name that names no bot (or bad settings for one)."""

    def __init__(self, spec: str, why: str) -> None:
        super().__init__(f"{spec!r}: {why}")
        self.spec = spec
