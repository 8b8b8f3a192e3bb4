"""fivehundred: Five Hundred and its variants as a declarative rules spec.

``import fivehundred`` gives the engine's Python API (:mod:`fivehundred.runtime.api`):
``fivehundred.load("australian")`` is a :class:`Game`; its ``new_hand()`` and ``new_match()``
give states to play. The sub-packages are ``fivehundred.runtime`` (the engine),
``fivehundred.generator`` (spec to ruleset to outputs), ``fivehundred.generated`` (the committed
outputs) and ``fivehundred.specs`` (the built-in rule files).
"""

from fivehundred.runtime.api import (
    TERMINAL,
    ArgumentError,
    Diagnostic,
    FileError,
    FiveHundredError,
    Game,
    HandResult,
    IllegalActionError,
    InvalidActionError,
    MatchState,
    RecordError,
    SpecError,
    State,
    load,
)

__version__ = "0.1.0"

__all__ = [
    "TERMINAL",
    "ArgumentError",
    "Diagnostic",
    "FileError",
    "FiveHundredError",
    "Game",
    "HandResult",
    "IllegalActionError",
    "InvalidActionError",
    "MatchState",
    "RecordError",
    "SpecError",
    "State",
    "load",
]
