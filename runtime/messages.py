"""Translatable engine messages.

Engine sentences (illegal-move reasons) are written as gettext msgids with named ``%(name)s``
placeholders and marked with :func:`N_`, so ``fivehundred i18n extract`` finds them; the message
is formatted only when shown, in English by default or through a translations object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["N_", "Explanation", "Translator", "render"]


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


def render(template: str, params: dict[str, Any], translator: Translator | None = None) -> str:
    """Format a message template with its parameters, translating the template first."""
    text = translator.gettext(template) if translator is not None else template
    return text % params if params else text
