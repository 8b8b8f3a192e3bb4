"""Why a bot chose its move, as a message a page can show in its player's language.

A reason is either a message marked with :func:`~fivehundred.runtime.engine.messages.N_` (a
plain ``str``) or a :class:`Why`: a message template with parameters, which may themselves be
reasons (``"raise my own bid: %(why)s"``). A :class:`Why` *is* its English text (a ``str``),
so whatever printed or compared reasons before still does; :func:`reason_text` renders either
kind through a translations object, every string parameter translated too (numbers and
percentages are formatted before they are passed, and translate to themselves).

A card, a bid, a signed number, a decimal or a percentage in a reason is a :class:`Noted`
parameter (:func:`bid_param`, :func:`card_param`, :func:`signed_param`, :func:`decimal_param`,
:func:`percent_param`): it keeps its code and is shown in the reader's notation (``7♥``, Dutch
``7 SA``, a special bid by its name: ``misère``; ``6,5`` and Norwegian ``45\u00a0%``), isolated
left to right in a right-to-left language; its English value is the English notation's.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..engine.notation import ENGLISH, Notation, bid_code, notation_of
from ..engine.rules import Rules

__all__ = [
    "Noted",
    "Translations",
    "Why",
    "bid_param",
    "card_param",
    "decimal_param",
    "percent_param",
    "reason_text",
    "signed_param",
]


class Translations(Protocol):
    """Anything with gettext's ``gettext``."""

    def gettext(self, message: str) -> str:
        """The translation of ``message``."""
        ...


class Why(str):
    """A reason with parameters: its value is the English text; :meth:`text` translates."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Why:
        """The reason ``template % params`` (``template`` marked with ``N_``)."""
        # ``%(name)s`` formats str(value) itself: the same text as converting each value first.
        english = template % params if params else template
        self = super().__new__(cls, english)
        self.template = template
        self.params = params
        return self

    def text(self, translations: Translations | None = None) -> str:
        """The reason in the language of ``translations`` (English for None)."""
        if translations is None:
            return str.__str__(self)
        template = translations.gettext(self.template)
        if not self.params:
            return template
        return template % {k: reason_text(v, translations) for k, v in self.params.items()}


class Noted(str):
    """A card, a bid or a signed number in a reason, shown in the reader's notation: its value
    is the English notation's (``7♥``, ``misère``, ``-20`` with a real minus sign),
    :meth:`text` the reader's."""

    code: str
    kind: str

    def __new__(cls, code: str, kind: str) -> Noted:
        """``code`` (a bid's, a :class:`~..engine.notation.SpecialBid`, a card's, or a number
        already written in English) of ``kind`` ``bid``, ``card``, ``number`` (shown as it
        is), ``decimal`` (with the language's decimal separator) or ``percent`` (a
        percentage's number, shown with the language's percent sign)."""
        self = super().__new__(cls, _shown(ENGLISH, code, kind))
        self.code = code
        self.kind = kind
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its code and kind."""
        return (Noted, (self.code, self.kind))

    def text(self, translations: Translations | None = None) -> str:
        """As the reader of ``translations`` writes it (English for None, or for a
        translations object without ``pgettext``, which has no notation)."""
        if translations is None or not hasattr(translations, "pgettext"):
            return str.__str__(self)
        notation = notation_of(translations)  # type: ignore[arg-type]
        return notation.isolate(_shown(notation, self.code, self.kind))


def _shown(notation: Notation, code: str, kind: str) -> str:
    if kind == "bid":
        return notation.bid(code)
    if kind == "card":
        return notation.card(code)
    if kind == "decimal":
        return notation.number(code)
    if kind == "percent":
        return notation.percentage(code)
    return code


def bid_param(rules: Rules, index: int) -> Noted:
    """Ladder entry ``index`` of ``rules`` as a reason's parameter (a special bid by its name)."""
    return Noted(bid_code(rules, index), "bid")


def card_param(code: str) -> Noted:
    """The card ``code`` (``JH``) as a reason's parameter."""
    return Noted(code, "card")


def signed_param(value: float) -> Noted:
    """``value`` rounded to a whole number with its sign (``+12``, ``-20`` with a real minus
    sign, U+2212; ``0`` without one) as a reason's parameter."""
    text = f"{value:+.0f}"
    return Noted("0" if text in ("+0", "-0") else text.replace("-", "\u2212"), "number")


def decimal_param(value: float) -> Noted:
    """``value`` with one decimal (``6.5``; Dutch ``6,5``) as a reason's parameter."""
    return Noted(f"{value:.1f}", "decimal")


def percent_param(share: float) -> Noted:
    """``share`` (0 to 1) as a whole percentage (``45%``; Norwegian ``45\u00a0%``) as a
    reason's parameter: in English the same text as ``f"{share:.0%}"``."""
    return Noted(f"{share:.0%}"[:-1], "percent")


def reason_text(reason: object, translations: Translations | None = None) -> str:
    """A reason (a :class:`Why`, a message marked ``N_``, a :class:`Noted` parameter, a
    number) in the language of ``translations``."""
    if isinstance(reason, Why | Noted):
        return reason.text(translations)
    text = str(reason)
    return translations.gettext(text) if translations is not None and text else text
