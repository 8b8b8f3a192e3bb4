"""The author's bench: a house file checked as it is typed, and a short balance study on demand.

A client connects to ``/ws/bench?lang=LL`` and sends:

- ``{"type": "check", "text": …, "lang": "nl", "seq": 7}``: the file is compiled in the bounded
  child of :mod:`.housefile` (time :data:`CHECK_SECONDS`, memory
  :data:`~.housefile.MEMORY`; the text is written to a private temporary folder, never into the
  repository) and the answer is ``{"type": "checked", "seq": 7, …}`` with either
  ``diagnostics`` (``line``, ``col``, ``message``) or the variant's ``book`` (HTML, in the
  language asked), its ``diff`` rows against the base (``fivehundred diff``'s clause and
  sentence) and its ``warnings``. A connection has one compile under way at most: texts sent
  meanwhile are coalesced (only the latest is compiled), and the whole server runs at most
  :data:`COMPILERS` compiles at once, so a client flooding compiles delays only itself.
- ``{"type": "study", "games": 20}``: a balance study of the last file that compiled against its
  base, the same games of both (:mod:`~fivehundred.runtime.studies.balance`), played in a child
  process (:data:`STUDY_SECONDS`, memory bounded) while ``progress`` messages say how far it
  is; then ``study`` with the figures side by side. One study at a time per connection, at most
  :data:`MAX_GAMES` games; ``{"type": "cancel"}`` (or closing the page) stops it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import posixpath
import re
import sys
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..engine.messages import N_, Translator, render
from .housefile import MEMORY, HouseFileError, check_house, shown_diagnostics
from .uitext import LANGUAGES, translations

__all__ = [
    "CHECK_SECONDS",
    "COMPILERS",
    "MAX_GAMES",
    "MAX_TEXT",
    "STUDY_SECONDS",
    "Bench",
    "book_links",
    "preview_book",
    "study_main",
]

#: The largest house file the bench compiles, in bytes (as a table's house file).
MAX_TEXT = 64 * 1024
#: The largest bench message: the text and a few fields (JSON may escape some characters).
MAX_BENCH_MESSAGE = 2 * MAX_TEXT + 4096
#: A bench compile's time limit, in seconds.
CHECK_SECONDS = 10.0
#: Compiles the whole server runs at once (each a child process).
COMPILERS = 2
#: The most games a bench study plays of each variant.
MAX_GAMES = 200
#: The games of a study unless asked otherwise.
DEFAULT_GAMES = 20
#: A study's time limit, in seconds.
STUDY_SECONDS = 120.0
#: The figure groups a bench study reports (of balance's GROUPS).
STUDY_GROUPS = ("game", "kinds", "make_rate", "points", "endings", "clauses")


@dataclass(eq=False)
class BenchClient:
    """One bench connection: its language, its pending text, its last compiled file, its study."""

    ws: WebSocket
    lang: str
    tr: Translator | None
    pending: dict[str, Any] | None = None
    compiling: bool = False
    tables: dict[str, Any] | None = None
    base: str | None = None
    study: asyncio.Task[None] | None = None
    process: asyncio.subprocess.Process | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False

    async def send(self, message: dict[str, Any]) -> None:
        """Send a message unless the connection is gone."""
        if not self.closed:
            with contextlib.suppress(Exception):
                await self.ws.send_text(json.dumps(message))


def _error(client: BenchClient, code: str, template: str, **params: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": render(template, params, client.tr)}


class Bench:
    """Every bench connection of one server, and the compiles they share."""

    def __init__(self) -> None:
        self.compilers = asyncio.Semaphore(COMPILERS)
        #: Compiles run since the server started (tests: coalescing keeps this low).
        self.compiles = 0

    async def connect(self, ws: WebSocket) -> None:
        """Serve one bench WebSocket until it closes."""
        await ws.accept()
        lang = ws.query_params.get("lang", "en")
        lang = lang if lang in LANGUAGES else "en"
        client = BenchClient(ws, lang, translations(lang))
        worker = asyncio.get_running_loop().create_task(self._compile_loop(client))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await self.receive(client, message.get("text"))
        except WebSocketDisconnect:
            pass
        finally:
            client.closed = True
            worker.cancel()
            await self._cancel(client)

    async def receive(self, client: BenchClient, text: str | None) -> None:
        """Handle one message of a bench client."""
        if text is None:
            await client.send(_error(client, "malformed", N_("send text, not bytes")))
            return
        if len(text.encode()) > MAX_BENCH_MESSAGE:
            await client.send(
                _error(client, "size", N_("a house file is at most %(size)s bytes"), size=MAX_TEXT)
            )
            return
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: arrays nested a thousand deep
            message = None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await client.send(
                _error(client, "malformed", N_("a message is a JSON object with a type"))
            )
            return
        kind = message["type"]
        if kind == "check":
            body = message.get("text")
            if not isinstance(body, str):
                await client.send(
                    _error(client, "malformed", N_("a message is a JSON object with a type"))
                )
                return
            if len(body.encode()) > MAX_TEXT:
                await client.send(
                    {
                        **_error(
                            client,
                            "size",
                            N_("a house file is at most %(size)s bytes"),
                            size=MAX_TEXT,
                        ),
                        "seq": message.get("seq"),
                    }
                )
                return
            lang = message.get("lang")
            client.pending = {
                "text": body,
                "lang": lang if lang in LANGUAGES else client.lang,
                "seq": message.get("seq"),
            }
            client.wake.set()
        elif kind == "study":
            await self._start_study(client, message.get("games", DEFAULT_GAMES))
        elif kind == "cancel":
            stopped = await self._cancel(client)
            await client.send({"type": "cancelled", "stopped": stopped})
        elif kind == "ping":
            await client.send({"type": "pong"})
        else:
            await client.send(
                _error(
                    client, "malformed", N_("unknown message type %(type)s"), type=repr(kind[:40])
                )
            )

    # -- compiling --------------------------------------------------------------------------------

    async def _compile_loop(self, client: BenchClient) -> None:
        """Compile the client's latest text, one at a time; texts sent meanwhile coalesce."""
        while not client.closed:
            await client.wake.wait()
            client.wake.clear()
            job, client.pending = client.pending, None
            if job is None:
                continue
            async with self.compilers:
                self.compiles += 1
                answer = await asyncio.to_thread(_check, job["text"], job["lang"], client.tr)
            answer["seq"] = job["seq"]
            answer["lang"] = job["lang"]
            if "tables" in answer:
                client.tables = answer.pop("tables")
                client.base = answer.get("base")
            await client.send(answer)

    # -- studies ----------------------------------------------------------------------------------

    async def _start_study(self, client: BenchClient, games: object) -> None:
        if client.study is not None and not client.study.done():
            await client.send(
                _error(client, "busy", N_("a study is under way: wait for it or cancel it"))
            )
            return
        if client.tables is None:
            await client.send(
                _error(client, "nothing", N_("the file has to compile before it is studied"))
            )
            return
        if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
            await client.send(
                _error(
                    client,
                    "games",
                    N_("a study plays from 1 to %(most)s games"),
                    most=MAX_GAMES,
                )
            )
            return
        job = {"tables": client.tables, "base": client.base, "games": games, "seed": 1}
        client.study = asyncio.get_running_loop().create_task(self._study(client, job))

    async def _study(self, client: BenchClient, job: dict[str, Any]) -> None:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "fivehundred.runtime.server.bench",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            preexec_fn=_limit if os.name == "posix" else None,
        )
        client.process = process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(job).encode())
        process.stdin.close()
        try:
            async with asyncio.timeout(STUDY_SECONDS):
                while True:
                    line = await process.stdout.readline()
                    if not line:
                        break
                    out = json.loads(line)
                    await client.send(out)
        except TimeoutError:
            await client.send(
                _error(
                    client,
                    "time",
                    N_("the study took more than %(seconds)s seconds"),
                    seconds=int(STUDY_SECONDS),
                )
            )
        except ValueError:
            await client.send(_error(client, "failed", N_("the study failed")))
        finally:
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
            await process.wait()
            client.process = None
            if process.returncode is not None and process.returncode > 0:
                await client.send(_error(client, "failed", N_("the study failed")))

    async def _cancel(self, client: BenchClient) -> bool:
        """Stop the client's study, if one is under way; whether one was."""
        task = client.study
        if task is None or task.done():
            return False
        if client.process is not None and client.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                client.process.kill()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        return True


def _limit() -> None:  # runs in the study's child before exec
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _check(text: str, lang: str, tr: Translator | None) -> dict[str, Any]:
    """The bench's answer for ``text``: the compiled report, or its diagnostics."""
    try:
        out = check_house(text, bench=lang, seconds=CHECK_SECONDS)
    except HouseFileError as exc:
        diagnostics = shown_diagnostics(exc.diagnostics, tr)
        return {"type": "checked", "error": exc.text(tr), "diagnostics": diagnostics}
    if "tables" not in out:
        return {
            "type": "checked",
            "error": render(N_("the house file has problems"), {}, tr),
            "diagnostics": shown_diagnostics(out.get("diagnostics", []), tr),
        }
    warnings = shown_diagnostics(out.get("warnings", []), tr)
    if isinstance(out.get("book"), str):
        out["book"] = preview_book(out["book"], lang)
    return {"type": "checked", "diagnostics": [], **out, "warnings": warnings}


#: A link of a page: the opening of an ``<a>`` up to its address, the address, the closing quote.
_LINK = re.compile(r'(<a\b[^>]*?\bhref=")([^"]*)(")')


def book_links(page: str, lang: str, *, new_tab: bool = False) -> str:
    """The rule book ``page`` (HTML in ``lang``) served away from ``/books/LL/``: a link within
    the book (``#s-play``, a clause's anchor) stays as it is; a link to another book beside it
    (``australian.html``, ``../nl/index.html``) opens the server's book
    (``/books/nl/australian.html``), in a new tab with ``new_tab``."""

    def linked(match: re.Match[str]) -> str:
        head, href, quote = match.groups()
        if href.startswith("#") or not href:
            return match.group(0)
        if not re.match(r"^[a-z][a-z0-9+.-]*:|^/", href):  # beside the book: /books/LL/...
            href = posixpath.normpath(posixpath.join(f"/books/{lang}", href))
        if not new_tab:
            return f"{head}{href}{quote}"
        return f'<a target="_blank" rel="noopener"{head[2:]}{href}{quote}'

    return _LINK.sub(linked, page)


def preview_book(page: str, lang: str) -> str:
    """The rule book ``page`` (HTML in ``lang``) as the bench's preview shows it (an
    ``iframe``'s ``srcdoc``, which has no address of its own): a link within the book scrolls
    the preview, a link to another book opens the server's in a new tab (:func:`book_links`).
    No ``<base>`` is needed, which would send the in-book links to ``/books/LL/`` too."""
    return book_links(page, lang, new_tab=True)


# -- the study's child process ------------------------------------------------------------------


def _value(figure: Any) -> float | None:
    value = figure.value
    return None if value is None else float(value)


def study_rows(house: Any, base: Any | None) -> list[dict[str, Any]]:
    """The figures of a bench study: group, key, the house's value, the base's, and whether
    the difference is significant at the 5% level (no base: the house's figures alone)."""
    from ..studies.balance import compare, figures

    rows: list[dict[str, Any]] = []
    if base is None:
        for group, values in figures(house).items():
            if group in STUDY_GROUPS:
                for key, figure in values.items():
                    rows.append({"group": group, "key": key, "house": _value(figure)})
        return rows
    for group, pairs in compare(base, house).items():
        if group in STUDY_GROUPS:
            for key, (b, h, comparison) in pairs.items():
                rows.append(
                    {
                        "group": group,
                        "key": key,
                        "house": _value(h),
                        "base": _value(b),
                        "significant": comparison.significant,
                    }
                )
    return rows


def study_main() -> int:
    """The study's child: a job on stdin (tables, base, games, seed); one JSON line per game
    played (``progress``), then the ``study`` result."""
    from ..engine.game import load_builtin
    from ..engine.rules import Rules
    from ..studies.balance import DEFAULT_MAX_HANDS, Study, default_bot, play_games

    job = json.loads(sys.stdin.read())
    games = min(int(job["games"]), MAX_GAMES)
    seed = int(job.get("seed", 1))
    bots = (default_bot(),)
    house = Study(Rules(job["tables"]), games, seed, bots, DEFAULT_MAX_HANDS)
    base = None
    if job.get("base"):
        with contextlib.suppress(KeyError):
            rules = load_builtin(job["base"])
            base = Study(rules, games, seed, bots, DEFAULT_MAX_HANDS)
    studies = [s for s in (house, base) if s is not None]
    total = games * len(studies)
    done = 0
    for game in range(games):
        for study in studies:
            study.tally.merge(
                play_games(study.rules.tables, bots, seed, game, game + 1, DEFAULT_MAX_HANDS)
            )
            done += 1
        print(json.dumps({"type": "progress", "done": done, "total": total}), flush=True)
    result = {
        "type": "study",
        "games": games,
        "base": job.get("base") if base is not None else None,
        "rows": study_rows(house, base),
    }
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(study_main())
