"""Translatable engine messages.

Engine sentences (illegal-move reasons) are written as gettext msgids with named ``%(name)s``
placeholders and marked with :func:`N_`, so ``fivehundred i18n extract`` finds them; the message
is formatted only when shown, in English by default or through a translations object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .codes import ActionKind

__all__ = ["ILLEGAL_BY_KIND", "N_", "SUIT_WORDS", "Explanation", "Translator", "illegal", "render"]


def N_(message: str) -> str:
    """Mark ``message`` for extraction; return it unchanged."""
    return message


class Translator(Protocol):
    """Anything with gettext's ``gettext`` method (``gettext.NullTranslations`` and kin)."""

    def gettext(self, message: str) -> str:
        """The translation of ``message``."""
        ...


@dataclass(frozen=True)
class Explanation:
    """Why an action is illegal: the rule clause id and a message template with parameters."""

    clause: str
    template: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, translator: Translator | None = None) -> str:
        """The sentence, translated when a translator is given."""
        return render(self.template, self.params, translator)


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
    # Translators: seat is a seat number (0, 1...), action a quoted move such as '6S', '10H',
    # 'take', 'discard 4D 5C'; reason is another engine message saying why.
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


def render(template: str, params: dict[str, Any], translator: Translator | None = None) -> str:
    """Format a message template with its parameters, translating the template first.

    A ``suit`` parameter holding a suit code (``S``) is shown as the suit's name (``spades``),
    translated too.
    """
    text = translator.gettext(template) if translator is not None else template
    if not params:
        return text
    suit = params.get("suit")
    if isinstance(suit, str) and suit in SUIT_WORDS:
        word = SUIT_WORDS[suit]
        params = {**params, "suit": translator.gettext(word) if translator is not None else word}
    return text % params


def illegal(
    seat: object,
    action: str,
    kind: ActionKind | None,
    reason: str,
    translator: Translator | None = None,
) -> str:
    """The sentence saying that ``seat`` may not make ``action`` (of ``kind``) and why."""
    template = ILLEGAL_BY_KIND.get(kind, ILLEGAL_BY_KIND[None])
    return render(template, {"seat": seat, "action": repr(action), "reason": reason}, translator)
