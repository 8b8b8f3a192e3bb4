"""How a person reads cards and bids in a language: the players' notation (``B♥``, ``8♠``).

Records, JSON and the action grammar keep the codes (``JH``, ``8S``, ``7NT``; INTERCHANGE.md);
what a person reads (the rule books, ``show``, ``play``, engine messages in a language, the
browser table) goes through one :class:`Notation`. Its data are messages of the translation
catalogues (context ``card rank`` and ``bid notation``, marked :func:`NP_` below), so a new
language brings its own letters: Dutch ``A H V B``, Norwegian ``A K D Kn``, Danish ``A K D B``,
Portuguese ``A R D V``. Arabic keeps the letters printed on the cards (``A K Q J``). The engine
imports nothing of the generator: a caller passes any gettext-like translations object
(:func:`notation_of`).

Input accepts both: a code (``JH``, ``8S``), a code with the suit symbol in place of the suit
letter (``J♥``, ``8♠``), and the language's own letters or no-trumps word next to a suit symbol
or as the whole bid (``B♥``, ``Kn♠``, ``7 SA``): a symbol makes a word unambiguous, so ``H♠``
is the Dutch king of spades while ``HS`` stays a code (:meth:`Notation.read`).

A special bid (``MIS``, ``OMIS``, ``BMIS``, ``DN``) is a code only a machine reads: a person
reads its name in the language (misère, open misère; Dutch "open misère", Portuguese "miséria
aberta"), the name the rule books give it (:func:`special_names`). A notation that knows a
variant's special bids (:func:`notation_of` with the rules, :meth:`Notation.with_specials`)
writes each by its name and reads the name back as the code. The engine's messages carry a
special bid as a :class:`SpecialBid` (:func:`bid_code`): a code that knows its English name, so
any notation of a language (even one without the rules) names it in that language.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from .codes import SUIT_SYMBOLS

if TYPE_CHECKING:
    from .rules import Rules

__all__ = [
    "ENGLISH",
    "NP_",
    "RTL_LANGUAGES",
    "Notation",
    "PTranslator",
    "SpecialBid",
    "bid_code",
    "notation_of",
    "number_signs",
    "read_notation",
    "special_names",
]


def NP_(context: str, message: str) -> str:
    """Mark ``message`` (in ``context``) for extraction; return it unchanged."""
    return message


def N_(message: str) -> str:
    """Mark ``message`` for extraction (as :func:`.messages.N_`); return it unchanged."""
    return message


class PTranslator(Protocol):
    """Anything with gettext's ``pgettext`` (``gettext.NullTranslations`` and kin)."""

    def pgettext(self, context: str, message: str) -> str:
        """The translation of ``message`` in ``context``."""
        ...


class SpecialBid(str):
    """A special bid's code that knows the English name the books give it (``MIS``, misère).

    It *is* its code (``str()``, ``%s``, JSON and ``repr`` give ``MIS``: records, the API and
    ``str()`` of an error keep the codes), while :meth:`Notation.bid` shows it by its name in the
    notation's language, translated through the catalogue."""

    name: str

    def __new__(cls, code: str, name: str) -> SpecialBid:
        """The code ``code`` of the special bid called ``name`` (English, a message id)."""
        self = super().__new__(cls, code)
        self.name = name
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its code and name (a child process may send it)."""
        return (SpecialBid, (str(self), self.name))


#: The card ranks written with a letter, by code; every other rank is its number (``10``).
# Translators: the letter (or letters) your players write for the ace of a suit, as on the cards
# or in card columns of newspapers: Dutch A, Norwegian A, Portuguese A.
_ACE = NP_("card rank", "A")
# Translators: the letter(s) for the king: Dutch H (heer), Norwegian/Danish K, Portuguese R (rei).
_KING = NP_("card rank", "K")
# Translators: the letter(s) for the queen: Dutch V (vrouw), Norwegian/Danish D (dame),
# Portuguese D (dama).
_QUEEN = NP_("card rank", "Q")
# Translators: the letter(s) for the jack: Dutch B (boer), Norwegian Kn (knekt), Danish B
# (bonde), Portuguese V (valete).
_JACK = NP_("card rank", "J")
# Translators: a bid of tricks at no trumps as players write it; level is the number of tricks
# (6 to 10): English 7NT, Dutch "7 SA" (sans atout), Norwegian "7 grand", Danish "7 sans".
_NO_TRUMPS_BID = NP_("bid notation", "%(level)sNT")
_LETTERS: tuple[tuple[str, str], ...] = (("A", _ACE), ("K", _KING), ("Q", _QUEEN), ("J", _JACK))
_CARD = re.compile(r"^(.+?)([♠♣♦♥])$")
_SYMBOL_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
#: The languages written right to left (by their base code: ``ar``, ``he``...): in their text
#: every card and bid is isolated left to right (:meth:`Notation.isolate`), as in the books.
RTL_LANGUAGES = frozenset(
    {"ar", "arc", "ckb", "dv", "fa", "he", "ks", "ps", "sd", "ug", "ur", "yi"}
)
#: LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE (U+2066, U+2069).
LRI, PDI = "\u2066", "\u2069"


@dataclass(frozen=True)
class Notation:
    """The notation of one language: the letters of the face cards and the no-trumps bid."""

    #: rank code -> the letters written for it (``"K" -> "H"`` in Dutch); others as the code
    ranks: tuple[tuple[str, str], ...] = (("A", "A"), ("K", "K"), ("Q", "Q"), ("J", "J"))
    #: a no-trumps bid, ``%(level)s`` the number of tricks (``"%(level)s SA"``)
    no_trumps: str = "%(level)sNT"
    #: the language is written right to left: a card or bid in its text is isolated
    rtl: bool = False
    #: special bid code -> its name in the language (``MIS -> misère``): a variant's, given by
    #: :meth:`with_specials`; none by default (a special bid's code is then shown as it is)
    specials: tuple[tuple[str, str], ...] = ()
    #: the special bids' English names -> their names in the language (``open misère`` ->
    #: ``misère aberto``), for a :class:`SpecialBid` of a variant this notation does not know
    names: tuple[tuple[str, str], ...] = ()
    #: the decimal separator (``,`` in Dutch), CLDR's through Babel
    decimal: str = "."
    #: what the language writes before and after a percentage (``("", "\u00a0%")`` in
    #: Norwegian and Danish), CLDR's through Babel
    percent: tuple[str, str] = ("", "%")

    def number(self, text: str) -> str:
        """A number written in English (``6.5``) as the language writes it (``6,5``)."""
        return text.replace(".", self.decimal) if self.decimal != "." else text

    def percentage(self, text: str) -> str:
        """A percentage's number written in English (``45``, no sign) as the language writes
        the percentage (``45%``, Norwegian ``45\u00a0%``)."""
        return self.percent[0] + self.number(text) + self.percent[1]

    def with_specials(self, names: Mapping[str, str] | Iterable[tuple[str, str]]) -> Notation:
        """This notation naming the special bids ``names`` (code -> name in the language,
        :func:`special_names`): ``bid("MIS")`` is then ``misère``, and ``read`` takes the name
        for the code."""
        pairs = names.items() if isinstance(names, Mapping) else names
        return replace(self, specials=tuple((str(c), str(n)) for c, n in pairs if n))

    def special(self, code: str) -> str | None:
        """The name of the special bid ``code`` in the language (a variant's, given by
        :meth:`with_specials`, or a :class:`SpecialBid`'s own), None when it names none."""
        for known, name in self.specials:
            if known == code:
                return name
        if isinstance(code, SpecialBid):
            for english, name in self.names:
                if english == code.name:
                    return name
            return code.name
        return None

    def isolate(self, text: str) -> str:
        """``text`` (a card, a bid, an action) as it stands in a sentence of the language:
        between LRI and PDI in a right-to-left language, so that ``7 SA`` or ``10♥`` is not
        shown reversed; as it is otherwise, and for a special bid's name (words of the
        language itself)."""
        if not (self.rtl and text) or any(text == n for _, n in (*self.specials, *self.names)):
            return text
        return f"{LRI}{text}{PDI}"

    def rank(self, code: str) -> str:
        """A rank as players write it (``Q`` -> ``V`` in Dutch); numbers as they are."""
        for rank, letters in self.ranks:
            if rank == code:
                return letters
        return code

    def card(self, code: str) -> str:
        """A card code as players write it: rank, then the suit symbol (``JH`` -> ``B♥`` in
        Dutch); a joker (``JK``, ``BJ``) or anything that is no card code as it is."""
        suit = code[-1:]
        if code in ("JK", "BJ") or suit not in SUIT_SYMBOLS or len(code) < 2:
            return code
        return self.rank(code[:-1]) + SUIT_SYMBOLS[suit]

    def cards(self, codes: list[str] | tuple[str, ...]) -> str:
        """Card codes as players write them, separated by spaces."""
        return " ".join(self.card(c) for c in codes)

    def bid(self, code: str) -> str:
        """A bid as players write it: a bid of tricks in the notation (``8S`` -> ``8♠``,
        ``7NT`` -> ``7 SA`` in Dutch), a special bid by its name when this notation knows the
        variant's (``MIS`` -> ``misère``, :meth:`with_specials`); any other code (``pass``, a
        special bid unknown here) as it is."""
        name = self.special(code)
        if name is not None:
            return name
        if code.endswith("NT") and code[:-2].isdigit():
            return self.no_trumps % {"level": code[:-2]}
        if len(code) >= 2 and code[:-1].isdigit() and code[-1] in SUIT_SYMBOLS:
            return code[:-1] + SUIT_SYMBOLS[code[-1]]
        return code

    def action(self, text: str, kind: str | None = None) -> str:
        """An action of the grammar (``JH``, ``7NT``, ``discard 4D 5C``, ``JK:H``, ``call AS``,
        ``nominate H``) as a person reads it: its cards and bids in this notation, the words of
        the grammar (``pass``, ``take``, ``partner 2``) as they are, the whole isolated in a
        right-to-left language. ``kind`` (``card``, ``bid``...) says how a code that is both a
        card and a bid (``7H``) is meant; without it such a code is a card."""
        return self.isolate(self.action_text(text, kind))

    def action_text(self, text: str, kind: str | None = None) -> str:
        """:meth:`action` without the isolation (for a caller that isolates a larger whole,
        such as ``2:7 SA``)."""
        words = text.split()
        if not words:
            return text
        head = words[0].lower()
        if head == "discard":
            shown = " ".join([words[0], *(self.card(c) for c in words[1:])])
        elif head == "call" and len(words) == 2:
            shown = f"{words[0]} {self.card(words[1])}"
        elif head == "nominate" and len(words) == 2:
            shown = f"{words[0]} {SUIT_SYMBOLS.get(words[1].upper(), words[1])}"
        elif len(words) != 1:
            shown = text
        elif ":" in text:
            joker, _, suit = text.partition(":")
            shown = f"{self.card(joker)}:{SUIT_SYMBOLS.get(suit.upper(), suit)}"
        elif kind == "bid" or (kind is None and self.special(text) is not None):
            shown = self.bid(text)
        elif kind in (None, "card", "joker-lead"):
            shown = self.card(text)
        else:
            shown = text
        return shown

    def read(self, word: str) -> str:
        """A word typed by a player, as the code it means: ``J♥``, ``B♥`` (Dutch), ``8♠``,
        ``7 SA`` (Dutch) become ``JH``, ``JH``, ``8S``, ``7NT``; a special bid's name the
        notation knows its code (``open misère``, ``open misere`` -> ``OMIS``); a suit symbol
        alone its letter (``♥`` -> ``H``), a joker's lead ``JK:♥`` -> ``JK:H``; anything else
        is returned unchanged (a code already, or an error the grammar reports)."""
        text = " ".join(word.split())
        folded = text.replace(" ", "").casefold()
        if self.specials:
            plain = _folded(text)
            for code, name in self.specials:
                if plain == _folded(name):
                    return code
        for level in range(1, 14):
            if folded == self.bid(f"{level}NT").replace(" ", "").casefold():
                return f"{level}NT"
        if text in _SYMBOL_SUIT:  # a suit alone: nominate ♥
            return _SYMBOL_SUIT[text]
        match = _CARD.match(text)
        if match is None:
            return word
        head, suit = match.group(1).strip(), _SYMBOL_SUIT[match.group(2)]
        for rank, letters in self.ranks:
            if head.casefold() == letters.casefold():
                return rank + suit
        return head.upper() + suit  # a code's rank or a level: 10♥, Q♥, 8♠

    def words(self, text: str) -> str:
        """A whole typed action read as :meth:`read` does: the whole text when it is a
        no-trumps bid in the language's words (``7 SA``), otherwise word by word
        (``discard B♥ 4♦`` -> ``discard JH 4D``)."""
        whole = self.read(text)
        if whole != text and (whole.endswith("NT") or self.special(whole) is not None):
            return whole
        return " ".join(self.read(w) for w in text.split())


def _folded(text: str) -> str:
    """``text`` as typed, compared without spaces, case or accents (``Open Misere``)."""
    plain = unicodedata.normalize("NFKD", text.replace(" ", "").casefold())
    return "".join(c for c in plain if not unicodedata.combining(c))


#: English: the codes' own letters, ``7NT``.
ENGLISH = Notation()


def notation_of(translations: PTranslator | None, rules: Rules | None = None) -> Notation:
    """The notation of the language of ``translations`` (a gettext-like object with
    ``pgettext``), read once per translations object; English for None. With the variant's
    ``rules``, it names the variant's special bids in that language too (:func:`special_names`),
    as a person reads them (``misère``; the codes stay in records, JSON and the grammar)."""
    notation = ENGLISH if translations is None else _notation(translations)
    if rules is None:
        return notation
    return notation.with_specials(special_names(rules, translations))


# The names of the special bids, the rule books' own (clauses.j2's bid_meaning).
# Translators: a special bid's name, in the rule books' bid ladder and wherever a player reads
# the bid (play, hint, the table): the bid to take no trick.
_MISERE = (N_("misère"), N_("nullo"))
# Translators: a special bid's name: misère (nullo) played with the hand face up.
_OPEN = (N_("open misère"), N_("open nullo"))
# Translators: a special bid's name: misère (nullo) bid before seeing one's cards.
_BLIND = (N_("blind misère"), N_("blind nullo"))
# Translators: a special bid's name: misère (nullo) that both partners play.
_DOUBLE = (N_("double misère"), N_("double nullo"))
_SPECIAL_NAMES = (_MISERE, _OPEN, _BLIND, _DOUBLE)


def special_names(rules: Rules, translations: Any = None) -> dict[str, str]:
    """The variant's special bids by code, each by its name in the language of
    ``translations`` (anything with gettext's ``gettext``; English for None): the names the
    rule books give them (``MIS`` -> misère or nullo as the variant calls it, ``OMIS`` -> open
    misère, ``BMIS`` -> blind misère, a bid both partners play -> double misère)."""
    nullo = rules.terms.get("misere") == "nullo"
    partners = max((len(team) for team in rules.teams), default=1) > 1
    gettext = getattr(translations, "gettext", None)
    names: dict[str, str] = {}
    for i, code in enumerate(rules.bid_codes):
        if rules.bid_kind[i] != "misere":
            continue
        if rules.bid_partner[i] == "plays" and partners:
            pair = _DOUBLE
        elif rules.bid_blind[i]:
            pair = _BLIND
        elif rules.bid_open[i] != "no":
            pair = _OPEN
        else:
            pair = _MISERE
        name = pair[1] if nullo else pair[0]
        names[code] = str(gettext(name)) if callable(gettext) else name
    return names


#: The notation of each translations object asked for (by identity: one per catalogue load).
_NOTATIONS: dict[int, tuple[PTranslator, Notation]] = {}


def _notation(translations: PTranslator) -> Notation:
    cached = _NOTATIONS.get(id(translations))
    if cached is not None and cached[0] is translations:
        return cached[1]
    if len(_NOTATIONS) >= 32:
        _NOTATIONS.clear()
    notation = read_notation(translations)
    _NOTATIONS[id(translations)] = (translations, notation)
    return notation


def read_notation(translations: PTranslator) -> Notation:
    """The notation that ``translations`` gives, read now (every message asked for again,
    so a recording translations object sees them). A translation that lost its
    ``%(level)s`` keeps the English no-trumps bid (the catalogue checks report it)."""
    ranks = tuple(
        (code, translations.pgettext("card rank", msgid).strip() or code)
        for code, msgid in _LETTERS
    )
    no_trumps = translations.pgettext("bid notation", _NO_TRUMPS_BID)
    if "%(level)s" not in no_trumps:
        no_trumps = _NO_TRUMPS_BID
    info = getattr(translations, "info", None)
    language = str(info().get("language", "")) if callable(info) else ""
    rtl = language.replace("-", "_").split("_")[0].lower() in RTL_LANGUAGES
    gettext = getattr(translations, "gettext", None)
    names = tuple(
        (name, str(gettext(name)) if callable(gettext) else name)
        for pair in _SPECIAL_NAMES
        for name in pair
    )
    decimal, percent = number_signs(language)
    return Notation(ranks, no_trumps, rtl, names=names, decimal=decimal, percent=percent)


@lru_cache(maxsize=32)
def number_signs(language: str) -> tuple[str, tuple[str, str]]:
    """The decimal separator of ``language`` (``,`` in Dutch) and what it writes before and
    after a percentage (``("", "\u00a0%")`` in Norwegian and Danish), CLDR's through Babel;
    English's, each on its own, where Babel does not know it. Bidi marks in a pattern are
    left out: a right-to-left text isolates its figures itself. The rule books' figures are
    written with these too (``generator/balancebook.py``)."""
    decimal, percent = ".", ("", "%")
    if not language:
        return decimal, percent
    from babel import Locale, UnknownLocaleError
    from babel.numbers import get_decimal_symbol, parse_pattern

    try:
        locale = Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return decimal, percent
    with contextlib.suppress(UnknownLocaleError, ValueError, TypeError):
        decimal = str(get_decimal_symbol(locale))
    with contextlib.suppress(UnknownLocaleError, ValueError, TypeError, KeyError, AttributeError):
        pattern = parse_pattern(locale.percent_formats[None].pattern)
        marks = str.maketrans("", "", "\u200e\u200f\u061c")
        percent = (str(pattern.prefix[0]).translate(marks), str(pattern.suffix[0]).translate(marks))
    return decimal, percent


def bid_code(rules: Rules, index: int) -> str:
    """The code of ladder entry ``index`` as an engine message carries it: a special bid as a
    :class:`SpecialBid` (still its code, knowing its English name), a bid of tricks as it is."""
    code = rules.bid_codes[index]
    if rules.bid_kind[index] == "suit":
        return code
    return SpecialBid(code, special_names(rules).get(code, code))
