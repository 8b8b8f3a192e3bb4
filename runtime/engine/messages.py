"""Translatable engine messages.

Engine sentences (illegal-move reasons) are written as gettext msgids with named ``%(name)s``
placeholders and marked with :func:`N_`, so ``fivehundred i18n extract`` finds them; the message
is formatted only when shown, in English by default or through a translations object.

A message a person reads names its cards and bids in the notation of the language
(:class:`~.notation.Notation`: ``B♥``, ``7 SA`` in Dutch; ``J♥``, ``7NT`` in English, as the
rule books write them): the caller passes ``notation``. Without it the parameters stay the codes
(``JH``), as ``str()`` of an error and the JSON of ``replay --json`` give them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .codes import normalise_card

if TYPE_CHECKING:
    from .codes import ActionKind
    from .notation import Notation

__all__ = [
    "BID_PARAMS",
    "CARD_PARAMS",
    "ILLEGAL_BY_KIND",
    "N_",
    "SUIT_WORDS",
    "Explanation",
    "Phrase",
    "Translator",
    "illegal",
    "illegal_action",
    "render",
    "translated",
]


def N_(message: str) -> str:
    """Mark ``message`` for extraction; return it unchanged."""
    return message


class Translator(Protocol):
    """Anything with gettext's ``gettext`` method (``gettext.NullTranslations`` and kin)."""

    def gettext(self, message: str) -> str:
        """The translation of ``message``."""
        ...


class Phrase(str):
    """A message in English that keeps its template and parameters, to be shown translated.

    ``Phrase(N_("unknown key %(key)s"), key="'trumps'")`` is the string ``unknown key 'trumps'``:
    it goes wherever a ``str`` goes and prints exactly that English, while :meth:`text` renders
    it in another language. A parameter that is itself a Phrase is translated in turn; the
    others (a key, value, suggestion or path quoted from the author's file) are shown as they
    are. Text made from a Phrase with ``+`` or an f-string is a plain string again (English).
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Phrase:
        """The English ``template % params``, keeping both."""
        self = super().__new__(cls, template % params if params else template)
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its template and parameters (a child process may send it)."""
        return (_phrase, (self.template, self.params))

    def text(self, translator: Translator | None = None) -> str:
        """The message in ``translator``'s language (the English without one)."""
        if translator is None:
            return str(self)
        shown = {k: translated(v, translator) for k, v in self.params.items()}
        text = translator.gettext(self.template)
        return text % shown if shown else text

    def as_json(self) -> dict[str, Any]:
        """The template and parameters as JSON values (a Phrase parameter nested alike)."""
        params = {
            k: v.as_json() if isinstance(v, Phrase) else v if isinstance(v, int | float) else str(v)
            for k, v in self.params.items()
        }
        return {"template": self.template, "params": params}

    @classmethod
    def from_json(cls, data: object) -> Phrase | None:
        """The Phrase :meth:`as_json` gave, or None when ``data`` is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("template"), str):
            return None
        raw = data.get("params")
        params: dict[str, Any] = {}
        for k, v in (raw if isinstance(raw, dict) else {}).items():
            params[str(k)] = cls.from_json(v) or (v if isinstance(v, int | float) else str(v))
        try:
            return cls(data["template"], **params)
        except (KeyError, TypeError, ValueError):
            return None


def _phrase(template: str, params: dict[str, Any]) -> Phrase:
    return Phrase(template, **params)


def translated(message: object, translator: Translator | None = None) -> str:
    """``message`` in ``translator``'s language when it is a :class:`Phrase`, else as it is."""
    if isinstance(message, Phrase):
        return message.text(translator)
    return str(message)


@dataclass(frozen=True)
class Explanation:
    """Why an action is illegal: the rule clause id and a message template with parameters."""

    clause: str
    template: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, translator: Translator | None = None, notation: Notation | None = None) -> str:
        """The sentence, translated when a translator is given; its cards and bids in
        ``notation`` when given (the codes otherwise)."""
        return render(self.template, self.params, translator, notation)


#: The suits as words (the rule book's messages for them): an engine message shows the name of
#: a suit, in the reader's language, where its parameter ``suit`` holds a suit code.
SUIT_WORDS: dict[str, str] = {
    "S": N_("spades"),
    "C": N_("clubs"),
    "D": N_("diamonds"),
    "H": N_("hearts"),
}

#: Why a seat may not make a move, by the kind of the move: a card is played, a bid is bid, a
#: discard discarded (never "made"). ``None``: a move of unknown kind.
ILLEGAL_BY_KIND: dict[ActionKind | None, str] = {
    # Translators: seat is a seat number (0, 1...), action the move: a card or bid in your
    # notation (B♥, 6♠, 7 SA, discard 4♦ 5♣) or a quoted word ('take'); reason is another
    # engine message saying why.
    "bid": N_("seat %(seat)s may not bid %(action)s: %(reason)s"),
    "pass": N_("seat %(seat)s may not pass now: %(reason)s"),
    "card": N_("seat %(seat)s may not play %(action)s: %(reason)s"),
    "joker-lead": N_("seat %(seat)s may not lead %(action)s: %(reason)s"),
    "discard": N_("seat %(seat)s may not discard %(action)s: %(reason)s"),
    # Translators: action is 'take' or 'sans' (take the kitty or play without it) or, for the
    # next message too, 'partner 2' or 'call AS' (choose or call a partner).
    "kitty": N_("seat %(seat)s may not choose %(action)s now: %(reason)s"),
    "partner": N_("seat %(seat)s may not choose %(action)s now: %(reason)s"),
    "nominate": N_("seat %(seat)s may not name the joker's suit now (%(action)s): %(reason)s"),
    # Translators: asking for a new deal under the house rule "no ace, no face".
    "redeal": N_("seat %(seat)s may not ask for a redeal: %(reason)s"),
    None: N_("seat %(seat)s may not make the move %(action)s: %(reason)s"),
}


#: The message parameters that hold a card code, and those that hold a bid code: shown in the
#: reader's notation (:func:`render`).
CARD_PARAMS = frozenset({"card", "cards"})
BID_PARAMS = frozenset({"bid", "high"})


def render(
    template: str,
    params: dict[str, Any],
    translator: Translator | None = None,
    notation: Notation | None = None,
) -> str:
    """Format a message template with its parameters, translating the template first.

    A ``suit`` parameter holding a suit code (``S``) is shown as the suit's name (``spades``),
    translated too. With ``notation``, the cards (``card``, ``cards``) and bids (``bid``,
    ``high``) of the parameters, and a joker's lead (``example``), are shown in it, each
    isolated left to right in a right-to-left language, as is a quoted word the player typed
    (``'take'``).
    """
    text = translator.gettext(template) if translator is not None else template
    if not params:
        return text
    suit = params.get("suit")
    if isinstance(suit, str) and suit in SUIT_WORDS:
        word = SUIT_WORDS[suit]
        params = {**params, "suit": translator.gettext(word) if translator is not None else word}
    if notation is not None:
        params = {k: _noted(k, v, notation) for k, v in params.items()}
    return text % params


def _noted(name: str, value: Any, notation: Notation) -> Any:
    """A parameter as the reader sees it: a card or bid code in ``notation``."""
    if not isinstance(value, str):
        return value
    if name in CARD_PARAMS:
        return notation.isolate(notation.cards(value.split()))
    if name in BID_PARAMS:
        return notation.isolate(notation.bid(value))
    if name == "example":
        return notation.action(value, "joker-lead")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        # a word the player typed, quoted ('take', 'pas'): isolated left to right in a
        # right-to-left language, as the cards and bids are
        return notation.isolate(value)
    return value


#: The kinds of move whose action a person reads in the notation, unquoted (``B♥``, ``7 SA``,
#: ``discard 4♦ 5♣``); the others are words of the grammar, quoted (``'take'``, ``'partner 2'``).
_NOTED_KINDS = frozenset({"card", "joker-lead", "bid", "discard"})


def illegal(
    seat: object,
    action: str,
    kind: ActionKind | None,
    reason: str,
    translator: Translator | None = None,
    notation: Notation | None = None,
) -> str:
    """The sentence saying that ``seat`` may not make ``action`` (of ``kind``) and why.

    With ``notation`` a card, bid or discard is named in it (``seat 2 may not play B♥``);
    otherwise, and for a word of the grammar (``take``), the action is quoted as given.
    """
    template = ILLEGAL_BY_KIND.get(kind, ILLEGAL_BY_KIND[None])
    shown = illegal_action(action, kind, notation)
    return render(template, {"seat": seat, "action": shown, "reason": reason}, translator)


def illegal_action(action: str, kind: ActionKind | None, notation: Notation | None = None) -> str:
    """An illegal move as :func:`illegal` names it: with ``notation`` a card, bid or discard
    in it (``B♥``; a discard by its cards alone, ``4♦ 5♣``), otherwise, and for a word of the
    grammar (``take``), quoted as given (with ``notation``, isolated in a right-to-left
    language as a card is)."""
    if notation is None:
        return repr(action)
    if kind not in _NOTED_KINDS:  # a word as typed, quoted: isolated in a right-to-left text
        return notation.isolate(repr(action))
    shown = action.split(None, 1)[1] if kind == "discard" and " " in action else action
    if kind == "discard":  # the text as typed: 5c is 5♣ too
        codes = [normalise_card(word) or word for word in shown.split()]
        return notation.isolate(notation.cards(codes))
    return notation.action(shown, kind)
