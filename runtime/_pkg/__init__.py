"""fivehundred: Five Hundred and its variants as a declarative rules spec.

``import fivehundred`` gives the engine's Python API (:mod:`fivehundred.runtime.adapters.api`):
``fivehundred.load("australian")`` is a :class:`Game`; its ``new_hand()`` and ``new_match()``
give states to play. The sub-packages are ``fivehundred.runtime`` (the engine),
``fivehundred.generator`` (spec to ruleset to outputs), ``fivehundred.generated`` (the committed
outputs) and ``fivehundred.specs`` (the built-in rule files).
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fivehundred.runtime.adapters.api import (
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


if not TYPE_CHECKING:
    # The API is imported on first use, so that commands that do not play (validate, build)
    # do not pay for importing the engine: ``fivehundred.load`` and ``from fivehundred import
    # load`` work as usual.

    def __getattr__(name: str) -> Any:
        if name in __all__:
            from fivehundred.runtime.adapters import api

            value = getattr(api, name)
            globals()[name] = value
            return value
        raise AttributeError(f"module 'fivehundred' has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
