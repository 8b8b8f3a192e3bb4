"""What every bot accepts: the engine's :class:`HandState` or the public API's ``State``.

The public :class:`fivehundred.State` (``runtime/adapters/api.py``) wraps a hand state as its
``hand``; bots sit below the API and cannot import it, so they take either through
:data:`BotState` and read the hand with :func:`hand_state`. Every bot's ``choose(state, rng)``
(and the heuristic's ``decide(state)``) has this one signature.
"""

from __future__ import annotations

from typing import Protocol, TypeAlias

from ..engine.hand import HandState

__all__ = ["BotState", "HasHand", "hand_state"]


class HasHand(Protocol):
    """Anything holding a hand state as ``hand`` (the public ``State``)."""

    @property
    def hand(self) -> HandState:
        """The engine's state of the hand."""
        ...


#: A state a bot decides from.
BotState: TypeAlias = "HandState | HasHand"


def hand_state(state: HandState | HasHand) -> HandState:
    """The engine's hand state of ``state``."""
    return state if isinstance(state, HandState) else state.hand
