"""Card, suit, strain and bid codes of the generator and the runtime (INTERCHANGE.md, "Codes")."""

from __future__ import annotations

import re
from typing import Literal

__all__ = [
    "JOKER_CODES",
    "NT",
    "RANK_ORDER",
    "STRAINS",
    "SUITLESS",
    "SUITS",
    "SUIT_SYMBOLS",
    "ActionKind",
    "bits",
    "normalise_card",
    "normalise_rank",
    "same_colour",
    "suit_rank",
]

#: The kind of an action int (``hand.action_kind``); also the kinds of the illegal-move
#: sentences (``messages.ILLEGAL_BY_KIND``).
ActionKind = Literal[
    "card", "joker-lead", "pass", "bid", "nominate", "kitty", "partner", "discard", "redeal"
]

#: Suits, lowest to highest as bid strains.
SUITS: tuple[str, ...] = ("S", "C", "D", "H")
#: Bid strains, lowest to highest; index 4 is no trumps.
STRAINS: tuple[str, ...] = ("S", "C", "D", "H", "NT")
#: Strain index of no trumps.
NT = 4
#: Effective-suit index of a joker that belongs to no suit (no trumps and misères).
SUITLESS = 4
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
#: Every rank a deck may use, in plain-suit order from low to high.
RANK_ORDER: tuple[str, ...] = (
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A",
)  # fmt: skip
#: Joker codes, and the aliases accepted on input.
JOKER_CODES: tuple[str, ...] = ("JK", "BJ")
_JOKER_ALIASES = {"JK": "JK", "RJ": "JK", "BJ": "BJ"}
_CARD_RE = re.compile(r"^(10|11|12|13|[2-9]|[TJQKA])([SCDH])$")


def same_colour(suit: int) -> int:
    """The other suit of the same colour (spades/clubs, diamonds/hearts), by suit index."""
    return (1, 0, 3, 2)[suit]


def suit_rank(level: int, strain: int, value: int, *, by_value: bool) -> tuple[int, ...]:
    """The sort key of a suit bid on the ladder, lowest first (``auction.higher``).

    By level (the Avondale ladder, G, P): more tricks, then the higher strain. By value (the
    original schedule, ``auction.ladder.order: value``): the bid worth more; of two worth as
    much, the bid of more tricks, then the higher strain, so that every bid has one place.
    """
    return (value, level, strain) if by_value else (level, strain)


def normalise_rank(rank: object) -> str | None:
    """The canonical rank code for ``rank`` (``T`` and ``10`` -> ``"10"``), or None if unknown."""
    text = str(rank).strip().upper()
    if text == "T":
        text = "10"
    return text if text in RANK_ORDER else None


def normalise_card(code: str) -> str | None:
    """The canonical card code for ``code`` (case-insensitive, ``T`` for 10, ``RJ`` for ``JK``).

    Returns None when ``code`` is not a card code at all.
    """
    text = code.strip().upper()
    if text in _JOKER_ALIASES:
        return _JOKER_ALIASES[text]
    match = _CARD_RE.match(text)
    if match is None:
        return None
    rank = "10" if match.group(1) == "T" else match.group(1)
    return rank + match.group(2)


def bits(mask: int) -> list[int]:
    """The indexes of the set bits of ``mask``, lowest first (the cards of a hand bitmask)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
