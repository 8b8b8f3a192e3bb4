"""The glossary: one term per thing, per language, kept in the translation catalogues.

Each entry is a catalogue message with the context ``glossary`` (marked :func:`NP_` here, so
``fivehundred i18n extract`` finds it): the msgid is the English term, the msgstr the one word
(or stem) the language uses for it. A translator comment ``avoid: word, word`` on the entry (a
``#`` comment in the ``.po`` file, kept by every update) lists the words no message of the
language may use for that thing; a comment ``forms: word, word`` the forms of the term its
stem does not cover (Arabic's broken plurals: ``نوع``, ``أنواع``). A long list wraps onto the
comment lines that follow it. A word to avoid is matched as a whole word (several words
match as a phrase); ``*`` at its end matches any ending (``kitty*``: *kitty*, *kittyen*), at
its start any beginning (Arabic's article and prepositions: ``*مباراة``).

One more entry, :data:`NORM`, names no thing but the written norm the language follows (the
Brazilian norm for ``pt``, Bokmål for ``nb``): its ``avoid:`` comment lists the forms of other
norms (European Portuguese, Danish) that no message may use.

``tests/test_notation_books.py`` checks every catalogue and every book against the glossary:
where the English of a message or of a book uses a term, the translation uses the language's
term, and no message and no book uses a word to avoid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..runtime.engine.notation import NP_

__all__ = ["GLOSSARY", "NORM", "Entry", "avoid_pattern", "entries", "fold", "norm"]

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
    # Translators: glossary: spades, clubs, diamonds or hearts (a card's suit, the trump suit).
    NP_("glossary", "suit"),
    # Translators: glossary: the joker card (the bird of the American game is another card).
    NP_("glossary", "joker"),
    # Translators: glossary: a player of another side (the contractor's opponents, yours).
    NP_("glossary", "opponent"),
)

#: The written norm of the language: no term of the rules, but a word on every message.
# Translators: glossary: the written norm your messages follow, named in your language (for
# example "português do Brasil", "bokmål"). Its 'avoid:' comment lists the forms of other
# norms that no message may use (European Portuguese beside Brazilian, Danish beside Bokmål).
NORM: str = NP_("glossary", "norm")


@dataclass(frozen=True)
class Entry:
    """One glossary entry of a language: the English term, the language's term and the words
    no message of the language may use for it."""

    english: str
    term: str
    avoid: tuple[str, ...]
    forms: tuple[str, ...] = ()

    def used_in(self, text: str) -> bool:
        """Whether ``text`` uses the term (its stem or one of its other forms), read as
        :func:`fold` reads it."""
        folded = fold(text)
        return any(fold(form) in folded for form in (self.term, *self.forms))

    def avoided(self, text: str) -> list[str]:
        """The words to avoid that ``text`` uses (read as :func:`fold` reads it, however
        spaced), in list order."""
        folded = fold(text)
        return [word for word in self.avoid if avoid_pattern(word).search(folded)]


#: Arabic's vowel marks (fathatan to kasra, and sukun), which a writer may add or leave out
#: (صاحبَ العقد is صاحب العقد); the shadda stays: it doubles a letter (لمّ).
_MARKS = re.compile("[\u064b-\u0650\u0652]")


def fold(text: str) -> str:
    """``text`` as the glossary compares it: case-folded, without Arabic's vowel marks."""
    return _MARKS.sub("", text.casefold())


_COMMENT = re.compile(r"^\s*(avoid|forms):\s*(.*)$")


def avoid_pattern(word: str) -> re.Pattern[str]:
    """The pattern of a word to avoid, matched against :func:`fold`'s text: a whole word or
    phrase, with ``*`` at either end for any ending or beginning."""
    core = fold(word.strip("*"))
    start = "" if word.startswith("*") else r"(?<!\w)"
    end = "" if word.endswith("*") else r"(?!\w)"
    return re.compile(start + r"\s+".join(re.escape(part) for part in core.split()) + end)


def _entry(catalog: object, english: str) -> Entry | None:
    message = catalog.get(english, "glossary")  # type: ignore[attr-defined]
    if message is None or not message.string:
        return None
    lists: dict[str, str] = {"avoid": "", "forms": ""}
    key = None
    for comment in message.user_comments:  # a long list wraps onto the next comment lines
        match = _COMMENT.match(comment)
        if match:
            key = match.group(1)
            lists[key] += "," + match.group(2)
        elif key:
            lists[key] += " " + comment.strip()
    avoid, forms = ([w.strip() for w in lists[k].split(",") if w.strip()] for k in lists)
    return Entry(english, str(message.string), tuple(avoid), tuple(forms))


def entries(catalog: object) -> list[Entry]:
    """The glossary of a Babel catalogue (``babel.messages.Catalog``): its translated entries,
    with the words to avoid and the other forms from their ``avoid:`` and ``forms:``
    translator comments."""
    return [entry for english in GLOSSARY if (entry := _entry(catalog, english)) is not None]


def norm(catalog: object) -> Entry | None:
    """The written norm of a Babel catalogue (:data:`NORM`) with the other norms' forms it
    avoids, or None where the catalogue does not name it."""
    return _entry(catalog, NORM)
