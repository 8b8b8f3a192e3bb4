"""Why a bot chose its move, as a message a page can show in its player's language.

A reason is either a message marked with :func:`~fivehundred.runtime.engine.messages.N_` (a
plain ``str``) or a :class:`Why`: a message template with parameters, which may themselves be
reasons (``"raise my own bid: %(why)s"``). A :class:`Why` *is* its English text (a ``str``),
so whatever printed or compared reasons before still does; :func:`reason_text` renders either
kind through a translations object, every string parameter translated too (numbers and
percentages are formatted before they are passed, and translate to themselves).
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["Translations", "Why", "reason_text"]


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


def reason_text(reason: object, translations: Translations | None = None) -> str:
    """A reason (a :class:`Why`, a message marked ``N_``, a number) in the language of
    ``translations``."""
    if isinstance(reason, Why):
        return reason.text(translations)
    text = str(reason)
    return translations.gettext(text) if translations is not None and text else text
