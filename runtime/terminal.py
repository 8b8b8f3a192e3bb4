"""Text made safe for a terminal: control and bidi-override characters shown as escapes.

Rule files and game records are written by other people. Whatever of theirs the command line
prints (a diagnostic quoting a key, a variant's name in ``show``, an action in a ``replay``
error, a card in ``play``) must not be able to drive the terminal: an ESC sequence could move the
cursor, recolour or retitle the window (OSC), a NUL or a carriage return could hide text, and a
bidi override (U+202E) could show a line in another order than the bytes say.

:func:`printable` shows each such character as a Python-style escape (``\\x1b``, ``\\u202e``);
tab and newline stay as they are. One use of the isolates stays: a left-to-right isolate (LRI
U+2066 ... PDI U+2069) around safe text on one line, as the engine's messages in a right-to-left
language wrap each card and bid (``7 SA``) so that it is not shown reversed. Such a pair
reorders nothing outside itself and its content runs left to right, as it would anyway.
:func:`json_printable` does the same inside JSON text with JSON
escapes (``\\u001b``), so the output stays valid JSON that decodes to the original string.
:class:`SafeStream` applies :func:`printable` to everything written through it: the command line
wraps standard output and standard error in it, so no verb can forget.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

__all__ = ["PLAIN_EVERY", "UNSAFE", "SafeStream", "json_printable", "printable", "progress"]

#: C0 controls except tab and newline, DEL, C1 controls, the line and paragraph separators, and
#: the bidi embedding, override and isolate controls (the "Trojan Source" characters). The bidi
#: *marks* (LRM, RLM, ALM) stay: they only attach a direction and right-to-left text uses them.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


#: A left-to-right isolate of safe text on one line: kept by :func:`printable`.
_LTR_ISOLATE = re.compile(
    "\u2066[^\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]*\u2069"
)


def printable(text: str) -> str:
    """``text`` with every :data:`UNSAFE` character written as ``\\xNN`` or ``\\uNNNN``, but
    for whole left-to-right isolates of safe text (LRI ... PDI), which stay."""
    if not UNSAFE.search(text):
        return text
    out: list[str] = []
    pos = 0
    for match in _LTR_ISOLATE.finditer(text):
        out.append(UNSAFE.sub(_escape, text[pos : match.start()]))
        out.append(match.group())
        pos = match.end()
    out.append(UNSAFE.sub(_escape, text[pos:]))
    return "".join(out)


def json_printable(text: str) -> str:
    """JSON text with every :data:`UNSAFE` character written as a JSON escape ``\\uNNNN``.

    Such characters can only stand inside JSON strings, where ``\\uNNNN`` means the same
    character: the result decodes to exactly what ``text`` decodes to.
    """
    return UNSAFE.sub(_json_escape, text) if UNSAFE.search(text) else text


class SafeStream:
    """A text stream that writes :func:`printable` text to ``stream``; the rest is delegated."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` with its unsafe characters escaped; returns ``len(text)``.

        A character the stream's encoding cannot hold (``PYTHONIOENCODING=ascii``, a C locale)
        is written as a backslash escape rather than failing the command."""
        safe = printable(text)
        try:
            self.stream.write(safe)
        except UnicodeEncodeError:  # raised before anything is written
            encoding = getattr(self.stream, "encoding", None) or "ascii"
            self.stream.write(safe.encode(encoding, "backslashreplace").decode(encoding))
        return len(text)

    def writelines(self, lines: Any) -> None:
        """Write every line through :meth:`write`."""
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Flush the underlying stream."""
        self.stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


#: Seconds between two plain progress lines when the stream is not a terminal.
PLAIN_EVERY = 10.0


def progress(
    stream: Any, label: str, unit: str, *, last_line: bool = True
) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback for ``simulate``, ``duel`` and ``balance``.

    On a terminal: one bar redrawn in place (``\\r``, written past :class:`SafeStream`, which
    would show our own carriage return as ``\\x0d``; the bar holds only our digits), ended by a
    newline when the work is done. Elsewhere (a log, a pipe): a plain line every
    :data:`PLAIN_EVERY` seconds, and one at the end (with ``last_line``, or after an earlier
    line), never a carriage return.
    """
    raw = getattr(stream, "stream", stream)  # the terminal itself, past SafeStream
    tty = bool(getattr(raw, "isatty", lambda: False)())
    start = time.perf_counter()
    last = [start, 0.0]  # the time of the last line, whether any was printed

    def show(done: int, total: int) -> None:
        now = time.perf_counter()
        rate = done / max(now - start, 1e-9)
        if tty:
            width = 30
            filled = width * done // max(total, 1)
            raw.write(
                f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {unit} "
                f"{rate:,.1f}/s"
            )
            if done >= total:
                raw.write("\n")
        elif now - last[0] >= PLAIN_EVERY or (done >= total and (last_line or last[1])):
            last[0], last[1] = now, 1.0
            raw.write(f"{label}: {done}/{total} {unit}, {rate:,.1f} {unit}/s\n")
        else:
            return
        raw.flush()

    return show
