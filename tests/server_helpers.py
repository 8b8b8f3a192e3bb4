"""A ``fivehundred serve`` server in a thread of the test process, on the loopback."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import uvicorn
from websockets.sync.client import ClientConnection, connect

from fivehundred.runtime.engine.codes import bits
from fivehundred.runtime.engine.hand import AUCTION, KITTY, OVER, PLAY, HandState
from fivehundred.runtime.server.app import WS_MAX_SIZE, make_app
from fivehundred.runtime.server.store import Store

#: The seed of a test server's tables (their deals): fixed, so that a test that fails on one deal
#: fails every time; set FIVEHUNDRED_TABLE_SEED to try the tests on other deals.
TABLE_SEED = int(os.environ.get("FIVEHUNDRED_TABLE_SEED", "1"))


class Running:
    """A server in a thread of this process."""

    def __init__(self, db: str, clock_scale: float = 1.0) -> None:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        self.app = make_app(Store(db), bot_delay=0, clock_scale=clock_scale, seed=TABLE_SEED)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            ws="websockets-sansio",
            ws_max_size=WS_MAX_SIZE,
            log_level="warning",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)

    def post(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        req = urllib.request.Request(
            self.base + "/api/tables", data=json.dumps(body).encode(), method="POST"
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=30) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()

    def ws(self, table: str, token: str, lang: str = "en") -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}/ws/{table}?token={token}&lang={lang}")

    def table(self, table_id: str) -> Any:
        return self.app.state.server.tables[table_id]


def token_of(link: str) -> str:
    """The token of an invitation link."""
    return link.split("token=")[1]


def knowable(state: HandState, seat: int) -> set[str]:
    """Every card ``seat`` (-1: a watcher) may have seen by now in ``state``: its own dealt
    cards, every card played, hands laid face up, and as contractor the kitty it took."""
    r = state.rules
    mask = 0
    if seat >= 0:
        mask |= state.dealt[0][seat]
    for _, actions, _ in state.tricks:
        for a in actions:
            mask |= 1 << (a if a < r.JOKER_LEAD else r.joker_cards[(a - r.JOKER_LEAD) // 4])
    for a in state.trick:
        mask |= 1 << (a if a < r.JOKER_LEAD else r.joker_cards[(a - r.JOKER_LEAD) // 4])
    took = seat == state.contractor and not state.sans and r.kitty_take
    if seat >= 0 and took and state.phase not in (AUCTION, KITTY):
        mask |= state.dealt[1]
    if state.contract >= 0 and state.phase in (PLAY, OVER):
        opened = r.bid_open[state.contract]
        if opened == "from-start" or (opened == "after-first-trick" and state.tricks):
            mask |= state.hands[state.contractor]
        if r.bid_partner[state.contract] == "both-hands":
            for t in bits(state.allies):
                mask |= state.hands[t]
    return {r.deck[c] for c in bits(mask)}
