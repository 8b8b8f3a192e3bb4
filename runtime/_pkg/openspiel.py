"""``import fivehundred.openspiel`` registers ``python_fivehundred`` with OpenSpiel (see
:mod:`fivehundred.runtime.adapters.openspiel`; needs the ``openspiel`` extra)."""

from fivehundred.runtime.adapters.openspiel import (
    GAME_TYPE,
    FiveHundredGame,
    FiveHundredState,
    IllegalAction,
    InvalidAction,
    openspiel_game,
)

__all__ = [
    "GAME_TYPE",
    "FiveHundredGame",
    "FiveHundredState",
    "IllegalAction",
    "InvalidAction",
    "openspiel_game",
]
