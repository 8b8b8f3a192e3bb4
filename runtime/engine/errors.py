"""The one error hierarchy of fivehundred.

Every error a user can cause is a :class:`FiveHundredError`, itself a :class:`ValueError`, so
callers can catch one class. Messages quote the offending input.

- :class:`SpecError`: a rule file is wrong; carries every :class:`Diagnostic` found, each printed
  as ``file:line:col: message``.
- :class:`InvalidActionError`: an action string that is not an action at all (bad syntax,
  unknown card code).
- :class:`IllegalActionError`: a well-formed action that the rules forbid now; names the seat,
  the action and the rule clause id.
- :class:`RecordError`: a game record that cannot be replayed (bad JSON, bad deal, ...).
- :class:`ArgumentError`: an argument of the Python API or the command line that cannot be used
  (a seat out of range, a variant name that is not a string, a count below 1).
- :class:`FileError`: a file or folder a command must read or write that cannot be used (a
  folder where a file is wanted, a missing folder, a read-only or full disk).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .codes import ActionKind

__all__ = [
    "ArgumentError",
    "Diagnostic",
    "FileError",
    "FiveHundredError",
    "IllegalActionError",
    "InvalidActionError",
    "RecordError",
    "SpecError",
]


class FiveHundredError(ValueError):
    """Base class of every error a user of fivehundred can cause.

    An error made with :meth:`of` keeps its message as a translatable template (a msgid marked
    with ``N_()``) and its parameters, so :meth:`text` can show it in the reader's language.
    """

    template: str | None = None
    params: dict[str, Any] = {}  # noqa: RUF012 - replaced per instance by of()

    @classmethod
    def of(cls, template: str, **params: Any) -> Any:
        """The error whose message is ``template % params`` (English), translatable later."""
        exc = cls(template % params)
        exc.template = template
        exc.params = params
        return exc

    def text(self, translator: Any = None) -> str:
        """The message, translated by ``translator`` (gettext-like) when it has a template."""
        if self.template is None or translator is None:
            return str(self)
        from .messages import render

        return render(self.template, self.params, translator)

    def text_for(self, translator: Any = None, notation: Any = None) -> str:
        """The message as a person reads it: translated by ``translator``, its cards and bids
        in ``notation`` (a :class:`~.notation.Notation`; :meth:`text` without one)."""
        if notation is None:
            return self.text(translator)
        if self.template is None:
            return str(self)
        from .messages import render

        return render(self.template, self.params, translator, notation)


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem in a rule file, at a position (1-based line and column).

    ``message`` is the English; when it is a :class:`~.messages.Phrase` (most are), its
    :attr:`template` and :attr:`params` are kept and :meth:`text` shows it in a reader's
    language, the values quoted from the author's file unchanged.
    """

    file: str
    line: int
    col: int
    message: str
    clause: str | None = None

    @property
    def template(self) -> str | None:
        """The message's translatable template (a msgid), or None for English alone."""
        template: str | None = getattr(self.message, "template", None)
        return template

    @property
    def params(self) -> dict[str, Any]:
        """The template's parameters (empty without a template)."""
        params: dict[str, Any] = getattr(self.message, "params", {})
        return params

    def text(self, translator: Any = None) -> str:
        """The message (without position or clause) in ``translator``'s language."""
        from .messages import translated

        return translated(self.message, translator)

    def located(self, translator: Any = None) -> str:
        """``file:line:col: message [clause]`` with the message in ``translator``'s language
        (``str()`` of the diagnostic without one)."""
        suffix = f" [{self.clause}]" if self.clause else ""
        return f"{self.file}:{self.line}:{self.col}: {self.text(translator)}{suffix}"

    def __str__(self) -> str:
        suffix = f" [{self.clause}]" if self.clause else ""
        return f"{self.file}:{self.line}:{self.col}: {self.message}{suffix}"


class SpecError(FiveHundredError):
    """A rule file (or a chain of ``extends``) has one or more problems."""

    def __init__(self, diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class InvalidActionError(FiveHundredError):
    """An action that cannot be parsed (not a card, bid or known verb)."""


class IllegalActionError(FiveHundredError):
    """A well-formed action that the rules forbid in the current state.

    ``seat``, ``action`` and ``clause`` (the rule id) are kept as attributes.
    """

    def __init__(
        self,
        seat: int,
        action: str,
        clause: str,
        reason: str,
        explanation: Any = None,
        kind: ActionKind | None = None,
    ) -> None:
        from .messages import illegal

        self.seat = seat
        self.action = action
        self.clause = clause
        self.reason = reason
        #: The :class:`~fivehundred.runtime.engine.messages.Explanation` (translatable), when known.
        self.explanation = explanation
        #: The kind of move (``bid``, ``pass``, ``card``, ``discard``...), which decides the
        #: verb of the message: a card is played, a bid bid; None when unknown.
        self.kind = kind
        super().__init__(f"{illegal(seat, action, kind, reason)} [{clause}]")

    def text_for(self, translator: Any = None, notation: Any = None) -> str:
        """The sentence naming the seat, the action and why, then the rule id: translated by
        ``translator``, the cards and bids in ``notation`` (``seat 2 may not play B♥: ...``)."""
        if translator is None and notation is None:
            return str(self)
        from .messages import illegal

        explanation = self.explanation
        reason = explanation.text(translator, notation) if explanation is not None else self.reason
        sentence = illegal(self.seat, self.action, self.kind, reason, translator, notation)
        return f"{sentence} [{self.clause}]"


class RecordError(FiveHundredError):
    """A game record that is malformed or inconsistent with its variant."""


class ArgumentError(FiveHundredError):
    """An argument that cannot be used: wrong type or out of range; the message quotes it."""


class FileError(FiveHundredError):
    """A file or folder that cannot be read or written; the message names it and says why."""
