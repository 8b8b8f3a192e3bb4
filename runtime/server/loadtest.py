"""A bounded load test of ``fivehundred serve`` on the loopback (README, "A table for a club").

``python -m fivehundred.runtime.server.loadtest [--bot-tables 100] [--humans 50] [--seconds 60]``
starts a server in a child process on 127.0.0.1 (a fresh SQLite file in a temporary folder),
opens ``--bot-tables`` tables of four bots (each with a watcher connected, so every bot move is
sent to a client) and ``--humans`` tables where one WebSocket client plays a seat against three
bots, playing the suggested move as soon as it is its turn, watched by ``--watchers`` (2) more
clients. It reports the median and the 99th percentile of the time from a client's move to that
client's update and to every client's update at its table (the last of the three to see it),
how many moves the server made, and the server's resident memory per table. It stops by itself
after ``--seconds``; it only reports, never asserts (times depend on the machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

__all__ = ["main"]


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def _post(base: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + "/api/tables", data=json.dumps(body).encode(), method="POST"
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict[str, Any] = json.load(r)
        return out


async def _watch(url: str, end: float, counts: list[int]) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, max_size=2**20) as ws:
        while time.monotonic() < end:
            try:
                await asyncio.wait_for(ws.recv(), end - time.monotonic())
            except TimeoutError:
                break
            counts[0] += 1


class _Move:
    """The move in flight at one human table: when its client sent it, and which of the
    table's clients have seen the update since."""

    __slots__ = ("clients", "moves", "seen", "sent")

    def __init__(self, clients: int) -> None:
        self.clients = clients
        self.moves = -1
        self.sent: float | None = None
        self.seen = 0

    def update(self, moves: int, every: list[float]) -> float | None:
        """A client read the state after ``moves`` moves: its latency if the move in flight
        is now done for it (and, once every client has seen it, the slowest into ``every``)."""
        if self.sent is None or moves <= self.moves:
            return None
        took = time.perf_counter() - self.sent
        self.seen += 1
        if self.seen == self.clients:
            every.append(took)
            self.sent = None
        return took


async def _states(ws: Any, end: float) -> AsyncIterator[dict[str, Any]]:
    """The table states a client receives until ``end``, or until its game is over."""
    while time.monotonic() < end:
        try:
            text = await asyncio.wait_for(ws.recv(), end - time.monotonic())
        except TimeoutError:
            return
        message = json.loads(text)
        if message.get("type") == "state":
            yield message
            if message["game_over"]:
                return


async def _follow(url: str, end: float, move: _Move, every: list[float]) -> None:
    """A watcher of a human table: its updates count towards every client's latency."""
    from websockets.asyncio.client import connect

    async with connect(url, max_size=2**20) as ws:
        async for message in _states(ws, end):
            move.update(message["moves"], every)


async def _human(
    url: str, end: float, move: _Move, latencies: list[float], every: list[float]
) -> None:
    """A client playing one seat: the suggested move as soon as it is its turn."""
    from websockets.asyncio.client import connect

    async with connect(url, max_size=2**20) as ws:
        async for message in _states(ws, end):
            took = move.update(message["moves"], every)
            if took is not None:
                latencies.append(took)
            if message["game_over"]:
                break
            if message["between_hands"]:
                await ws.send(json.dumps({"type": "next"}))
            elif message["legal"] and move.sent is None:
                move.moves = message["moves"]
                move.seen = 0
                move.sent = time.perf_counter()
                action = message["suggestion"]["action"]
                await ws.send(json.dumps({"type": "act", "action": action}))


async def _run(base: str, ws_base: str, args: argparse.Namespace) -> dict[str, Any]:
    bots = [{"bot": "heuristic"}] * 4
    human: list[dict[str, str]] = [{}, *bots[1:]]
    watch_urls, human_urls, follow_urls = [], [], []
    for _ in range(args.bot_tables):
        made = _post(
            base, {"variant": "australian", "seats": bots, "options": {"bot_delay": args.bot_delay}}
        )
        watch_urls.append(ws_base + made["watch"].replace("/t/", "/ws/"))
    for _ in range(args.humans):
        made = _post(
            base,
            {
                "variant": "australian",
                "seats": human,
                "options": {"bot_delay": args.bot_delay, "suggestions": True},
            },
        )
        human_urls.append(ws_base + made["seats"][0].replace("/t/", "/ws/"))
        follow_urls.append(ws_base + made["watch"].replace("/t/", "/ws/"))
    end = time.monotonic() + args.seconds
    counts = [0]
    latencies: list[float] = []
    every: list[float] = []
    moves = [_Move(1 + args.watchers) for _ in human_urls]
    await asyncio.gather(
        *(_watch(u, end, counts) for u in watch_urls),
        *(_human(u, end, m, latencies, every) for u, m in zip(human_urls, moves, strict=True)),
        *(
            _follow(u, end, m, every)
            for u, m in zip(follow_urls, moves, strict=True)
            for _ in range(args.watchers)
        ),
    )
    return {"watcher_updates": counts[0], "latencies": latencies, "every": every}


def _ms(sorted_times: list[float], q: float) -> float | None:
    """The ``q`` quantile of ``sorted_times`` in milliseconds (the median for 0.5)."""
    if not sorted_times:
        return None
    if q == 0.5:
        return round(statistics.median(sorted_times) * 1000, 1)
    return round(sorted_times[min(len(sorted_times) - 1, int(q * len(sorted_times)))] * 1000, 1)


def main(argv: list[str] | None = None) -> int:
    """Run the load test and print its report."""
    parser = argparse.ArgumentParser(prog="python -m fivehundred.runtime.server.loadtest")
    parser.add_argument("--bot-tables", type=int, default=100)
    parser.add_argument("--humans", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--bot-delay", type=float, default=0.6)
    parser.add_argument("--watchers", type=int, default=2, help="watchers at each human table (2)")
    args = parser.parse_args(argv)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    with tempfile.TemporaryDirectory(prefix="fivehundred-load-") as folder:
        db = os.path.join(folder, "tables.sqlite")
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "fivehundred.runtime.cli.main",
                "serve",
                "--port",
                str(port),
                "--db",
                db,
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    urllib.request.urlopen(base + "/api/strings/en", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            idle = _rss(child.pid)
            result = asyncio.run(_run(base, f"ws://127.0.0.1:{port}", args))
            busy = _rss(child.pid)
        finally:
            child.terminate()
            child.wait(10)
    lat = sorted(result["latencies"])
    every = sorted(result["every"])
    tables = args.bot_tables + args.humans
    report = {
        "tables": tables,
        "human_clients": args.humans,
        "seconds": args.seconds,
        "human_moves": len(lat),
        "watcher_updates": result["watcher_updates"],
        "median_ms": _ms(lat, 0.5),
        "p99_ms": _ms(lat, 0.99),
        "every_client_moves": len(every),
        "every_client_median_ms": _ms(every, 0.5),
        "every_client_p99_ms": _ms(every, 0.99),
        "server_rss_idle_mb": round(idle / 2**20, 1),
        "server_rss_mb": round(busy / 2**20, 1),
        "kb_per_table": round((busy - idle) / tables / 1024, 1),
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
