"""Merging the template into a catalogue as ``msgmerge`` does, in time linear in the catalogue.

Babel's :meth:`Catalog.update` offers every new message of the template a fuzzy match against
every translated message of the catalogue with :func:`difflib.get_close_matches`: the new
messages times the old ones, each a string comparison, so a catalogue with thousands of
messages the template dropped took minutes. Here the exact merge is Babel's (``no_fuzzy_matching``)
and the fuzzy match is ours: each old translated message is indexed by its words; a new message
is compared (with the same :class:`difflib.SequenceMatcher` ratio and cutoff as Babel) only with
the :data:`SHORTLIST` old messages that share the most of its distinctive words (words that
fewer than :data:`COMMON` old messages hold). The cost per new message is bounded, whatever the
size of the catalogue.

A fuzzy match is what Babel makes of it: the new message takes the old translation, the old
flags and translator comments, the flag ``fuzzy``, and the old message leaves the obsolete ones.
"""

from __future__ import annotations

import copy
import difflib
import re
from collections import Counter, defaultdict
from typing import Any

from babel.messages.catalog import Catalog, Message

__all__ = ["COMMON", "SHORTLIST", "merge_template"]

#: A word held by this many old messages or more says nothing about which one a new message was.
COMMON = 64
#: The old messages a new one is compared with, at most.
SHORTLIST = 16
#: Babel's (difflib's) cutoff for a fuzzy match.
CUTOFF = 0.6

_WORD = re.compile(r"\w{2,}")

Key = str | tuple[str, str]


def _key(message: Message) -> Key:
    """Babel's key of a message: its (singular) msgid, with its context when it has one."""
    msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
    return (str(msgid), message.context) if message.context is not None else str(msgid)


def _match_text(key: Key) -> str:
    return (key[0] if isinstance(key, tuple) else key).lower().strip()


class _Index:
    """The translated messages of a catalogue, found by the distinctive words of a text."""

    def __init__(self, messages: list[tuple[Key, str]]) -> None:
        self.texts = [text for _, text in messages]
        self.keys = [key for key, _ in messages]
        self.by_word: dict[str, list[int]] = defaultdict(list)
        for n, text in enumerate(self.texts):
            for word in set(_WORD.findall(text)):
                self.by_word[word].append(n)

    def closest(self, text: str) -> Key | None:
        """The old message nearest ``text`` (ratio at least :data:`CUTOFF`), or None."""
        shared: Counter[int] = Counter()
        for word in set(_WORD.findall(text)):
            holders = self.by_word.get(word, ())
            if len(holders) < COMMON:
                shared.update(holders)
        if not shared:
            return None
        shortlist = sorted(shared, key=lambda n: (-shared[n], n))[:SHORTLIST]
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(text)
        best: tuple[float, int] | None = None
        for n in shortlist:
            matcher.set_seq1(self.texts[n])
            if matcher.real_quick_ratio() < CUTOFF or matcher.quick_ratio() < CUTOFF:
                continue
            ratio = matcher.ratio()
            if ratio >= CUTOFF and (best is None or ratio > best[0]):
                best = (ratio, n)
        return None if best is None else self.keys[best[1]]


def merge_template(catalog: Catalog, template: Catalog) -> None:
    """Merge ``template`` into ``catalog`` in place (see the module's rules); ``template`` is
    left as it was (the merge takes copies of its messages)."""
    template = copy.deepcopy(template)
    old: dict[Key, Message] = {_key(m): m for m in catalog if m.id}
    index = _Index([(key, _match_text(key)) for key, m in old.items() if m.string])
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=True)
    matched: set[Key] = set()
    for message in list(catalog):
        if not message.id or _key(message) in old:
            continue
        found = index.closest(_match_text(_key(message)))
        if found is None:
            continue
        _take_translation(catalog, message, old[found])
        matched.add(found)
    for key in matched:
        catalog.obsolete.pop(key, None)


def _take_translation(catalog: Catalog, message: Message, previous: Message) -> None:
    """``message`` takes the translation of ``previous`` as a fuzzy suggestion (Babel's rules)."""
    message.previous_id = [previous.id] if isinstance(previous.id, str) else list(previous.id)
    string: Any = previous.string
    if isinstance(message.id, (list, tuple)):
        if not isinstance(string, (list, tuple)):
            string = tuple([string] + [""] * (len(message.id) - 1))
        elif len(string) != catalog.num_plurals:
            string = tuple(string)  # Babel keeps the old forms; the check reports the count
    elif isinstance(string, (list, tuple)):
        string = string[0]
    message.string = string
    if previous.user_comments:
        message.user_comments = list(dict.fromkeys(previous.user_comments))
    message.flags |= previous.flags | {"fuzzy"}
