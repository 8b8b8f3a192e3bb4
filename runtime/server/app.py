"""The ASGI app of ``fivehundred serve``: pages, the tables' WebSockets, records, rule books.

Starlette routes the requests; uvicorn serves them (:func:`serve`). Each table lives in memory as
a :class:`~.table.Table` and in the store (every move, every finished hand). A client connects to
``/ws/TABLE?token=T&lang=LL`` with its seat's private token (or the watchers' one) and receives a
``state`` message after every change, built from that seat's own view only; it sends ``act``
(a move in the record grammar), ``next`` (leave a hand's summary), ``chat`` (a preset id) and
``ping``. Bad input (not JSON, unknown types, moves out of turn, messages over
:data:`MAX_MESSAGE` bytes, more than :data:`RATE` messages a second) gets an ``error`` message
on that connection only; the table goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..engine.errors import FiveHundredError, IllegalActionError, SpecError
from ..engine.game import load_builtin
from ..engine.messages import N_, Translator, render
from ..engine.notation import notation_of
from ..engine.rules import Rules
from ..terminal import UNSAFE
from .bench import Bench, book_links
from .housefile import HouseFileError, compile_house, house_book, shown_diagnostics
from .store import Store
from .table import CHAT_PRESETS, Options, Seat, Table, TableError
from .uitext import LANGUAGES, direction, notation, translations, ui_strings

__all__ = ["MAX_MESSAGE", "RATE", "WS_MAX_SIZE", "Server", "make_app", "serve"]

STATIC = Path(__file__).resolve().parent / "static"
#: The largest message a client may send, in bytes (a move, a chat preset: a few dozen).
MAX_MESSAGE = 4096
#: Messages a connection may send per second on average, and in one burst.
RATE = 10.0
BURST = 30
#: Messages past the rate a connection may send before it is closed.
FLOOD_CLOSE = 200
#: The largest house file accepted, in bytes.
MAX_HOUSE = 64 * 1024
#: The largest WebSocket frame uvicorn accepts: a bench message (a house file) fits.
WS_MAX_SIZE = 160 * 1024
#: Messages a slow client may have waiting before it is dropped (it reconnects with its link).
QUEUE = 64


def _generated() -> Path:
    from ...generator.build import GENERATED_DIR

    return GENERATED_DIR


@dataclass(eq=False)
class Client:
    """One WebSocket connection to a table, for one seat (-1: a watcher)."""

    ws: WebSocket
    seat: int
    lang: str
    translations: Translator | None
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    tokens: float = BURST
    last: float = field(default_factory=time.monotonic)
    flooded: int = 0
    closed: bool = False

    def push(self, text: str) -> None:
        """Queue a message; a client that cannot keep up is dropped (it may reconnect)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closed = True

    def allow(self) -> bool:
        """Whether one more message from this client is within its rate."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.last) * RATE)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.flooded += 1
        return False


class Server:
    """Every table of one server, its clients and its timers."""

    def __init__(
        self,
        store: Store,
        bot_delay: float | None = None,
        clock_scale: float = 1.0,
        seed: int | None = None,
    ) -> None:
        self.store = store
        #: Every clock runs this many times as fast as it says (tests: a 7 s clock in 70 ms).
        self.clock_scale = clock_scale
        #: When given, every table's bots wait this long instead of the table's own setting.
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.clients: dict[str, set[Client]] = {}
        self.ready: dict[str, set[int]] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._stored: dict[str, tuple[int, int]] = {}
        #: Draws each new table's seed (its deals); ``seed`` makes them repeatable (tests).
        self.rng = Random(seed)
        for table_id, spec, actions, records, between in store.tables():
            try:
                rules = self._rules(spec["source"])
                table = Table.restore(table_id, rules, spec, actions, records, between)
            except (FiveHundredError, KeyError, TypeError, ValueError):
                continue  # a table whose variant no longer exists stays in the file, unplayed
            for n in range(len(records), len(table.records)):  # a record the stop cut off
                store.add_hand(table_id, n, table.records[n])
            self._add(table)

    # -- tables ---------------------------------------------------------------------------------

    def _rules(self, source: dict[str, str]) -> Rules:
        if "house" in source:
            return compile_house(source["house"])
        try:
            return load_builtin(source["variant"])
        except KeyError:
            raise TableError(
                "options", N_("unknown variant %(variant)s"), variant=repr(source["variant"])
            ) from None

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.clients.setdefault(table.id, set())
        self.ready.setdefault(table.id, set())
        self._stored[table.id] = (len(table.actions), len(table.records))

    def create(self, body: Any) -> Table:
        """A new table from a creation request (see ``static/index.html``)."""
        if not isinstance(body, dict):
            raise TableError("malformed", N_("a table is asked for with a JSON object"))
        if isinstance(body.get("house"), str) and body["house"].strip():
            if len(body["house"].encode()) > MAX_HOUSE:
                raise TableError(
                    "size", N_("a house file is at most %(size)s bytes"), size=MAX_HOUSE
                )
            source = {"house": body["house"]}
        else:
            source = {"variant": str(body.get("variant", "australian"))}
        rules = self._rules(source)
        raw_seats = body.get("seats") or []
        if not isinstance(raw_seats, list):
            raise TableError("malformed", N_("seats are a list"))
        seats = []
        for s in range(rules.players):
            item = raw_seats[s] if s < len(raw_seats) and isinstance(raw_seats[s], dict) else {}
            bot = item.get("bot")
            # a name is text shown to every player: no control or bidi-override character (a
            # U+202E would show the rest of the line reversed)
            name = UNSAFE.sub("", str(item.get("name") or ""))[:40]
            seats.append(Seat(bot=str(bot) if bot else None, name=name))
        raw = body.get("options") or {}
        if not isinstance(raw, dict):
            raise TableError("malformed", N_("options are an object"))
        try:
            options = Options(
                suggestions=bool(raw.get("suggestions", False)),
                watchers=bool(raw.get("watchers", True)),
                clock=int(raw.get("clock", 0) or 0),
                autoplay=bool(raw.get("autoplay", True)),
                bot_delay=float(raw.get("bot_delay", 0.6)),
            )
        except TableError:
            raise  # an option's own refusal (the clock, the bots' wait) says which
        except (TypeError, ValueError, OverflowError):  # OverflowError: a clock of Infinity
            raise TableError("malformed", N_("options are an object")) from None
        table = Table(
            id=secrets.token_urlsafe(6),
            rules=rules,
            seats=tuple(seats),
            options=options,
            seed=self.rng.getrandbits(48),
            source=source,
        )
        self.store.add_table(table.id, table.spec())
        self._add(table)
        self.schedule(table)
        return table

    # -- changes --------------------------------------------------------------------------------

    def changed(self, table: Table) -> None:
        """Store what is new, tell every client, and set the next timer."""
        moves, hands = self._stored[table.id]
        if len(table.actions) > moves:
            self.store.add_moves(table.id, moves, table.actions[moves:])
        for n in range(hands, len(table.records)):
            self.store.add_hand(table.id, n, table.records[n])
        if len(table.records) > hands or table.between_hands != (hands != len(table.records)):
            self.store.set_between_hands(table.id, table.between_hands)
        self._stored[table.id] = (len(table.actions), len(table.records))
        self.schedule(table)
        self.broadcast(table)

    def broadcast(self, table: Table) -> None:
        """Send each client of ``table`` its own seat's state."""
        made: dict[tuple[int, str], str] = {}
        for client in list(self.clients.get(table.id, ())):
            key = (client.seat, client.lang)
            if key not in made:
                made[key] = json.dumps(table.message(client.seat, client.translations))
            client.push(made[key])

    def _delay(self, table: Table) -> float:
        return table.options.bot_delay if self.bot_delay is None else self.bot_delay

    def schedule(self, table: Table) -> None:
        """Set the table's one timer: a bot's move, a forced move, the clock, the next hand."""
        old = self._timers.pop(table.id, None)
        if old is not None:
            old.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        version = table.version
        humans = [s for s in range(len(table.seats)) if not table.is_bot(s)]
        if table.between_hands:
            if table.game_over:
                return
            clock = table.options.clock * self.clock_scale
            wait = clock or (None if humans else 2 * self._delay(table))
            if wait is not None:
                self._timers[table.id] = loop.call_later(wait, self._next, table, version)
            return
        seat = table.to_move
        if seat is None:
            return
        if table.is_bot(seat):
            self._timers[table.id] = loop.call_later(
                self._delay(table), self._bot, table, seat, version
            )
        elif table.options.autoplay and table.forced() is not None:
            self._timers[table.id] = loop.call_later(0.4, self._forced, table, version)
        elif table.options.clock:
            clock = table.options.clock * self.clock_scale
            table.deadline = time.time() + clock
            self._timers[table.id] = loop.call_later(clock, self._bot, table, seat, version)

    def _next(self, table: Table, version: int) -> None:
        if table.version == version and table.between_hands and not table.game_over:
            self.ready[table.id].clear()
            table.next_hand()
            self.changed(table)

    def _bot(self, table: Table, seat: int, version: int) -> None:
        if table.version != version or table.to_move != seat:
            return
        if (table.seats[seat].bot or "").startswith("search"):
            asyncio.get_running_loop().create_task(self._bot_in_thread(table, seat, version))
            return
        table.apply_chosen(table.bot_move(seat))
        self.changed(table)

    async def _bot_in_thread(self, table: Table, seat: int, version: int) -> None:
        state = table.hand.copy()
        bot = table._bots[seat]
        action = await asyncio.to_thread(bot.choose, state, Random())
        if table.version == version and table.to_move == seat:
            table.apply_chosen(action)
            self.changed(table)

    def _forced(self, table: Table, version: int) -> None:
        action = table.forced()
        if table.version == version and action is not None:
            table.apply_chosen(action)
            self.changed(table)

    # -- one client -------------------------------------------------------------------------------

    async def connect(self, ws: WebSocket) -> None:
        """Serve one WebSocket until it closes."""
        await ws.accept()
        table_id = ws.path_params.get("table_id", "")
        lang = ws.query_params.get("lang", "en")
        lang = lang if lang in LANGUAGES else "en"
        tr = translations(lang)
        table = self.tables.get(table_id)
        seat = table.seat_of(ws.query_params.get("token", "")) if table is not None else None
        if table is None or seat is None:
            error = _error("link", render(N_("this link opens no seat at this table"), {}, tr))
            await ws.send_text(json.dumps(error))
            await ws.close(code=4403)
            return
        client = Client(ws, seat, lang, tr)
        self.clients[table.id].add(client)
        sender = asyncio.get_running_loop().create_task(self._send(client))
        client.push(json.dumps(table.message(seat, tr)))
        try:
            while not client.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    client.push(json.dumps(_error("malformed", _t(tr, N_("send text, not bytes")))))
                    if len(data) > MAX_MESSAGE:
                        continue
                    continue
                self.receive(table, client, text)
                if client.flooded > FLOOD_CLOSE:
                    client.closed = True
        except WebSocketDisconnect:
            pass
        finally:
            self.clients[table.id].discard(client)
            client.closed = True
            sender.cancel()
            with contextlib.suppress(Exception):
                await ws.close()

    async def _send(self, client: Client) -> None:
        with contextlib.suppress(Exception):
            while True:
                text = await client.queue.get()
                await client.ws.send_text(text)

    def receive(self, table: Table, client: Client, text: str) -> None:
        """Handle one message of a client: answer it, or tell it what was wrong."""
        tr = client.translations
        if not client.allow():
            if client.flooded in (1, 50) or client.flooded % 100 == 0:
                client.push(json.dumps(_error("flood", _t(tr, N_("too many messages: slow down")))))
            return
        if len(text.encode()) > MAX_MESSAGE:
            client.push(
                json.dumps(
                    _error(
                        "size",
                        render(
                            N_("a message is at most %(size)s bytes"), {"size": MAX_MESSAGE}, tr
                        ),
                    )
                )
            )
            return
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: arrays nested a thousand deep
            message = None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            client.push(
                json.dumps(
                    _error("malformed", _t(tr, N_("a message is a JSON object with a type")))
                )
            )
            return
        kind = message["type"]
        try:
            if kind == "act":
                table.act(client.seat, message.get("action"), tr)
                self.ready[table.id].clear()
                self.changed(table)
            elif kind == "next":
                self._ask_next(table, client)
            elif kind == "chat":
                preset = message.get("preset")
                if preset not in CHAT_PRESETS:
                    raise TableError("malformed", N_("chat is one of the table's preset messages"))
                text = json.dumps(
                    {
                        "type": "chat",
                        "seat": None if client.seat < 0 else client.seat,
                        "preset": preset,
                    }
                )
                for other in list(self.clients[table.id]):
                    other.push(text)
            elif kind == "ping":
                client.push(json.dumps({"type": "pong"}))
            elif kind == "state":
                client.push(json.dumps(table.message(client.seat, tr)))
            else:
                raise TableError(
                    "malformed", N_("unknown message type %(type)s"), type=repr(kind[:40])
                )
        except IllegalActionError as exc:
            client.push(
                json.dumps(
                    {
                        "type": "error",
                        "code": "illegal",
                        "message": table.illegal_text(exc, tr, client.seat),
                        "clause": exc.clause,
                        "seat": exc.seat,
                        "action": exc.action,
                    }
                )
            )
        except TableError as exc:
            # a word the player sent, quoted ('zz'), isolated in Arabic as play does it
            shown = exc.text_for(tr, notation_of(tr))  # type: ignore[arg-type]
            client.push(json.dumps(_error(exc.code, shown)))
        except FiveHundredError as exc:
            shown = exc.text_for(tr, notation_of(tr))  # type: ignore[arg-type]
            client.push(json.dumps(_error("malformed", shown)))

    def _ask_next(self, table: Table, client: Client) -> None:
        if client.seat < 0:
            raise TableError("turn", N_("watchers do not play"))
        if not table.between_hands:
            raise TableError("turn", N_("the hand is not over yet"))
        if table.game_over:
            raise TableError("over", N_("the game is over"))
        ready = self.ready[table.id]
        ready.add(client.seat)
        connected = {c.seat for c in self.clients[table.id] if c.seat >= 0}
        humans = {s for s in connected if not table.is_bot(s)}
        if humans <= ready:
            self._next(table, table.version)


def _t(tr: Translator | None, message: str) -> str:
    return render(message, {}, tr)


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


# -- HTTP ------------------------------------------------------------------------------------------


#: A house table's book is the author's words around the renderer's: no script runs in it (it
#: has none), and the link's token in its address is sent to no other page.
_BOOK_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
        "frame-ancestors 'self'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def make_app(
    store: Store,
    bot_delay: float | None = None,
    clock_scale: float = 1.0,
    seed: int | None = None,
) -> Starlette:
    """The ASGI app serving ``store``'s tables (``bot_delay``, ``clock_scale``, ``seed``: see
    :class:`Server`)."""
    server = Server(store, bot_delay, clock_scale, seed)
    bench = Bench()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def bench_page(request: Request) -> Response:
        return FileResponse(STATIC / "bench.html")

    async def table_page(request: Request) -> Response:
        return FileResponse(STATIC / "table.html")

    async def variants(request: Request) -> Response:
        from ...generator.pipeline import builtin_ids

        lang = request.query_params.get("lang", "en")
        tr = translations(lang if lang in LANGUAGES else "en")
        out = []
        for variant in builtin_ids():
            rules = load_builtin(variant)
            out.append(
                {
                    "id": variant,
                    "name": tr.gettext(rules.name) if tr is not None else rules.name,
                    "players": rules.players,
                    "extends": rules.extends,
                }
            )
        return JSONResponse(out)

    async def strings(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            return JSONResponse({"error": f"languages: {', '.join(LANGUAGES)}"}, 404)
        return JSONResponse(
            {
                "lang": lang,
                "dir": direction(lang),
                "strings": ui_strings(lang),
                "notation": notation(lang),
            }
        )

    async def create(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_HOUSE + 8192:
            return JSONResponse({"error": "too large"}, 413)
        lang = request.query_params.get("lang", "en")
        tr = translations(lang if lang in LANGUAGES else "en")
        try:
            try:
                asked = json.loads(body or b"{}")
            except RecursionError:  # nested a thousand deep: no table's request
                raise TableError(
                    "malformed", N_("a table is asked for with a JSON object")
                ) from None
            house = asked.get("house") if isinstance(asked, dict) else None
            if isinstance(house, str) and house.strip() and len(house.encode()) <= MAX_HOUSE:
                # compiled in a thread (and cached), so the other tables play on meanwhile
                await asyncio.to_thread(compile_house, house)
            table = server.create(asked)
        except HouseFileError as exc:
            diagnostics = shown_diagnostics(exc.diagnostics, tr)
            return JSONResponse({"error": exc.text(tr), "diagnostics": diagnostics}, 400)
        except SpecError as exc:
            return JSONResponse({"error": str(exc)}, 400)
        except TableError as exc:
            return JSONResponse({"error": exc.text(tr)}, 400)
        except (ValueError, FiveHundredError) as exc:
            return JSONResponse({"error": str(exc)}, 400)
        return JSONResponse(
            {
                "id": table.id,
                "seats": [f"/t/{table.id}?token={t}" for t in table.tokens],
                "watch": f"/t/{table.id}?token={table.watch_token}"
                if table.options.watchers
                else None,
            }
        )

    async def record(request: Request) -> Response:
        table = server.tables.get(request.path_params["table_id"])
        seat = table.seat_of(request.query_params.get("token", "")) if table else None
        if table is None or seat is None:
            return PlainTextResponse("no such table or link", 403)
        n = request.path_params["n"]
        if not 0 <= n < len(table.records):
            return PlainTextResponse("that hand is not over", 404)
        body = json.dumps(table.records[n], ensure_ascii=False, indent=1) + "\n"
        name = f"{table.rules.variant}-{table.id}-hand{n + 1}.json"
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def rule_file(request: Request) -> Response:
        """The house file a table plays, for its players: ``fivehundred replay --rules FILE``
        replays the table's records with it (they name the house variant by its id)."""
        table = server.tables.get(request.path_params["table_id"])
        seat = table.seat_of(request.query_params.get("token", "")) if table else None
        if table is None or seat is None:
            return PlainTextResponse("no such table or link", 403)
        text = table.source.get("house")
        if text is None:
            return PlainTextResponse("this table plays a built-in variant", 404)
        return Response(
            text,
            media_type="application/yaml",
            headers={"Content-Disposition": f'attachment; filename="{table.rules.variant}.yaml"'},
        )

    # two books rendered at once at most (a child each, as the bench's compiles): asking a
    # house table's book in every language at once delays only the books
    rendering = asyncio.Semaphore(2)

    async def house_book_page(request: Request) -> Response:
        """The rule book of the house file a table plays, in the language asked for: for the
        table's players and watchers only (the link's token), rendered from the compiled file
        by ``fivehundred docs``' renderer in a bounded child (:func:`house_book`). Its links
        to the other books (the index, the base) open the server's books."""
        table = server.tables.get(request.path_params["table_id"])
        seat = table.seat_of(request.query_params.get("token", "")) if table else None
        if table is None or seat is None:
            return PlainTextResponse("no such table or link", 403)
        lang = request.path_params["lang"]
        text = table.source.get("house")
        if text is None or lang not in LANGUAGES:
            return PlainTextResponse("no such rule book", 404)
        try:
            async with rendering:
                page = await asyncio.to_thread(house_book, text, lang)
        except HouseFileError as exc:
            return PlainTextResponse(exc.text(translations(lang)), 500)
        page = book_links(page, lang)  # its links to other books open the server's
        return Response(page, media_type="text/html; charset=utf-8", headers=_BOOK_HEADERS)

    async def book(request: Request) -> Response:
        lang = request.path_params["lang"]
        variant = request.path_params["variant"]
        path = _generated() / "docs" / lang / f"{variant}.html"
        if lang not in LANGUAGES or not variant.replace("-", "").isalnum() or not path.is_file():
            return PlainTextResponse("no such rule book", 404)
        return FileResponse(path)

    async def book_index(request: Request) -> Response:
        # the books' own index of each language (generated/docs/LL/index.html)
        lang = request.query_params.get("lang", "en")
        return RedirectResponse(f"/books/{lang if lang in LANGUAGES else 'en'}/index.html")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for table in server.tables.values():
            server.schedule(table)
        yield
        store.close()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/t/{table_id}", table_page),
            Route("/bench", bench_page),
            Route("/api/variants", variants),
            Route("/api/strings/{lang}", strings),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/tables/{table_id}/hands/{n:int}", record),
            Route("/api/tables/{table_id}/rules.yaml", rule_file),
            Route("/api/tables/{table_id}/book/{lang}.html", house_book_page),
            Route("/books/", book_index),
            Route("/books/{lang}/{variant}.html", book),
            WebSocketRoute("/ws/bench", bench.connect),
            WebSocketRoute("/ws/{table_id}", server.connect),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    app.state.bench = bench
    return app


def serve(host: str, port: int, db: str, bot_delay: float | None = None) -> None:
    """Run the server until interrupted (uvicorn)."""
    import uvicorn

    store = Store(db)
    app = make_app(store, bot_delay)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        log_level="warning",
        lifespan="on",
    )
    uvicorn.Server(config).run()
