"""The glossary: one term per thing, per language, kept in the translation catalogues.

Each entry is a catalogue message with the context ``glossary`` (marked :func:`NP_` here, so
``fivehundred i18n extract`` finds it): the msgid is the English term, the msgstr the one word
(or stem) the language's books use for it. A translator comment ``avoid: word, word`` on the
entry (a ``#`` comment in the ``.po`` file, kept by every update) lists the words the books must
not use for that thing. ``tests/test_notation_books.py`` checks every book of every language
against its glossary: where the English book uses a term, the translated book uses the
language's term, and no book uses a word to avoid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..runtime.engine.notation import NP_

__all__ = ["GLOSSARY", "Entry", "entries"]

#: The English terms, in the order translators meet them.
GLOSSARY: tuple[str, ...] = (
    # Translators: glossary: the player who won the auction and plays the contract.
    NP_("glossary", "contractor"),
    # Translators: glossary: the four (or five) cards played in turn, one by each player.
    NP_("glossary", "trick"),
    # Translators: glossary: the cards dealt face down that the contractor takes (Australian).
    NP_("glossary", "kitty"),
    # Translators: glossary: the same cards in the American game.
    NP_("glossary", "widow"),
    # Translators: glossary: the strain without a trump suit.
    NP_("glossary", "no trumps"),
    # Translators: glossary: playing a card of the suit led (the verb as the rules use it).
    NP_("glossary", "follow suit"),
    # Translators: glossary: the jack of trumps (right bower) and of the same colour (left bower).
    NP_("glossary", "bower"),
    # Translators: glossary: a partnership, or a player on their own, that scores together.
    NP_("glossary", "side"),
    # Translators: glossary: a score so low that the side is out (going out backwards).
    NP_("glossary", "out backwards"),
    # Translators: glossary: the whole game, played to the target (500), not one hand.
    NP_("glossary", "game"),
    # Translators: glossary: the bid to take no trick.
    NP_("glossary", "misère"),
)


@dataclass(frozen=True)
class Entry:
    """One glossary entry of a language: the English term, the language's term and the words
    its books must not use for it."""

    english: str
    term: str
    avoid: tuple[str, ...]


_AVOID = re.compile(r"^\s*avoid:\s*(.*)$")


def entries(catalog: object) -> list[Entry]:
    """The glossary of a Babel catalogue (``babel.messages.Catalog``): its translated entries,
    with the words to avoid from their ``avoid:`` translator comments."""
    out: list[Entry] = []
    for english in GLOSSARY:
        message = catalog.get(english, "glossary")  # type: ignore[attr-defined]
        if message is None or not message.string:
            continue
        avoid: list[str] = []
        for comment in message.user_comments:
            match = _AVOID.match(comment)
            if match:
                avoid += [w.strip() for w in match.group(1).split(",") if w.strip()]
        out.append(Entry(english, str(message.string), tuple(avoid)))
    return out
