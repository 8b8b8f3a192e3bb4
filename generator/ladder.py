"""Where the special bids stand on the ladder: one placement, for the model and the checks.

A special bid (misère, open, blind, a house bid) names the bid it sits directly ``above``. The
specials are placed in turns: each turn places every special whose ``above`` is already on the
ladder (a suit bid, or a special placed in an earlier turn), so a chain (``BMIS`` above
``OMIS`` above ``10D``) is placed whatever the order of the file. Two specials directly above
the same bid clash (the rule file is refused: :mod:`.semantic`); a special whose ``above``
never reaches the ladder cannot be placed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Placement", "place_specials"]


@dataclass(frozen=True)
class Placement:
    """The ladder, lowest first, with the specials placed; ``clashes``: (index, the code of
    the special already directly above the same bid); ``pending``: indexes never placed."""

    ladder: tuple[str, ...]
    clashes: tuple[tuple[int, str], ...]
    pending: tuple[int, ...]


def place_specials(
    suit_codes: Sequence[str], specials: Sequence[tuple[int, str, str]]
) -> Placement:
    """Place ``specials`` (``(index, code, above)`` each, in file order) on the ladder of
    ``suit_codes`` (lowest first)."""
    ladder = list(suit_codes)
    pending = list(specials)
    taken: dict[str, str] = {}
    clashes: list[tuple[int, str]] = []
    progress = True
    while pending and progress:
        progress = False
        for entry in list(pending):
            i, code, above = entry
            if above not in ladder:
                continue
            pending.remove(entry)
            progress = True
            if above in taken:
                clashes.append((i, taken[above]))
                continue
            taken[above] = code
            ladder.insert(ladder.index(above) + 1, code)
    return Placement(tuple(ladder), tuple(clashes), tuple(sorted(i for i, _, _ in pending)))
