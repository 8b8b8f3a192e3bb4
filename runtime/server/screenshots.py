"""The README's screenshots of the table, made afresh: ``python -m
fivehundred.runtime.server.screenshots [FOLDER]``.

A server runs in a thread of this process on the loopback (its tables in a temporary
database, dealt from a fixed seed, so the same code gives the same pictures); Debian's chromium,
driven by Playwright (the ``test`` extra), opens a seat's invitation link, plays the seat's
suggested moves until the position wanted, and saves the page:

- ``table-en-desktop.png``: an Australian table in English at a desktop width, mid-trick;
- ``table-ar-phone.png``: the same in Arabic on a phone, right to left;
- ``table-nl-desktop.png``: a Dutch table, the cards in Dutch notation (B, H, V; SA);
- ``summary-en.png``: the end-of-hand summary.

Nothing here runs in the server itself; it is a tool for the README, run by hand after the
table's look changes.
"""

from __future__ import annotations

import socket
import sys
import tempfile
import threading
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

__all__ = ["main"]

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
FOLDER = Path(__file__).resolve().parent / "static" / "screenshots"


def _serve(db: str) -> tuple[Any, str]:
    import uvicorn

    from .app import WS_MAX_SIZE, make_app
    from .store import Store

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    app = make_app(Store(db), bot_delay=0, seed=7)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise SystemExit("screenshots: the server did not start")
        time.sleep(0.02)
    return server, f"http://127.0.0.1:{port}"


def _table(base: str, variant: str) -> str:
    import json
    import urllib.request

    body = {
        "variant": variant,
        "seats": [{"name": ""}, {"bot": "heuristic"}, {"bot": "heuristic"}, {"bot": "heuristic"}],
        "options": {"suggestions": True, "bot_delay": 0},
    }
    req = urllib.request.Request(base + "/api/tables", data=json.dumps(body).encode())
    with urllib.request.urlopen(req, timeout=30) as r:
        made = json.load(r)
    return str(made["seats"][0])


def _play_until(page: Any, done: str, limit: int = 200) -> None:
    """Click the suggested move until the page satisfies the JavaScript condition ``done``."""
    for _ in range(limit):
        if page.evaluate(done):
            return
        target = page.locator(".suggested")
        if target.count():
            with suppress(Exception):  # redrawn under the pointer: look again
                target.first.click(timeout=1000)
        page.wait_for_timeout(150)
    raise SystemExit(f"screenshots: the table never reached {done!r}")


_MID_TRICK = (
    "document.querySelectorAll('#trick .card').length >= 2"
    " && document.querySelector('.suggested') !== null"
    " && document.querySelectorAll('#hand .card').length <= 8"
)


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots into the folder given (default: the README's)."""
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server, base = _serve(str(Path(tmp) / "tables.sqlite"))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            shots = [
                ("table-en-desktop.png", "en", 1200, 820, _MID_TRICK),
                ("table-ar-phone.png", "ar", 390, 820, _MID_TRICK),
                ("table-nl-desktop.png", "nl", 1200, 820, _MID_TRICK),
                (
                    "summary-en.png",
                    "en",
                    1200,
                    820,
                    "document.querySelector('#summary:not([hidden])') !== null",
                ),
            ]
            for name, lang, width, height, done in shots:
                link = _table(base, "australian")
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.goto(f"{base}{link}&lang={lang}")
                page.wait_for_selector("#hand .card")
                _play_until(page, done)
                page.wait_for_timeout(300)
                page.screenshot(path=str(folder / name))
                context.close()
                print(folder / name)
            browser.close()
        server.should_exit = True
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
