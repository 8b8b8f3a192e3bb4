"""The author's bench of ``fivehundred serve`` (issue 20 §4), over its WebSocket ``/ws/bench``.

A broken house file gets its diagnostics at its line; a good one its rule book in the language
asked, and ``fivehundred diff``'s rows against its base; a short balance study reports progress,
then its figures, and can be cancelled; one study at a time per connection, the games capped;
a file over the size limit, or one that takes longer than the time limit, is refused; and while a
client floods compiles, a table on the same server plays on.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Running, token_of
from websockets.sync.client import ClientConnection, connect

from fivehundred.runtime.server import bench as bench_module

GOOD = """id: bench-house
extends: australian
name: Bench house
summary: The Australian game in which a hand all pass is played at no trumps.
auction:
  all_pass: no-trumps
  all_pass_per_trick: 10
"""
# line 6 names a value the schema does not allow
BROKEN = GOOD.replace("all_pass: no-trumps", "all_pass: sideways")


@pytest.fixture()
def running(tmp_path: Path) -> Iterator[Running]:
    r = Running(str(tmp_path / "tables.sqlite"))
    yield r
    r.stop()


def bench(running: Running, lang: str = "en") -> ClientConnection:
    return connect(f"ws://127.0.0.1:{running.port}/ws/bench?lang={lang}", max_size=None)


def until(ws: ClientConnection, test: Any, timeout: float = 60) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        assert left > 0, "no such message arrived"
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if test(message):
            return message


def check(ws: ClientConnection, text: str, seq: int, lang: str = "en") -> dict[str, Any]:
    ws.send(json.dumps({"type": "check", "text": text, "lang": lang, "seq": seq}))
    return until(ws, lambda m: m.get("seq") == seq)


def test_a_broken_file_gets_its_diagnostic_at_its_line(running: Running) -> None:
    with bench(running) as ws:
        answer = check(ws, BROKEN, 1)
    assert answer["type"] == "checked" and "book" not in answer
    lines = {d["line"] for d in answer["diagnostics"]}
    assert 6 in lines, answer["diagnostics"]
    (d,) = [d for d in answer["diagnostics"] if d["line"] == 6]
    assert d["col"] >= 3 and "sideways" in d["message"]


def test_a_good_file_gets_its_book_in_the_language_asked_and_its_diff_rows(
    running: Running,
) -> None:
    with bench(running, "nl") as ws:
        dutch = check(ws, GOOD, 1, "nl")
        arabic = check(ws, GOOD, 2, "ar")
    assert dutch["diagnostics"] == [] and dutch["base"] == "australian"
    assert dutch["name"] == "Bench house" and dutch["players"] == 4
    assert '<html lang="nl"' in dutch["book"] and 'dir="rtl"' in arabic["book"]
    assert "tables" not in dutch  # the compiled tables stay on the server
    # fivehundred diff's rows: the clause and the sentence naming both values
    rows = {row["clause"]: row["text"] for row in dutch["diff"]}
    assert "auction.all-pass" in rows
    assert "throw-in in australian" in rows["auction.all-pass"]
    assert "no-trumps in bench-house" in rows["auction.all-pass"]


def test_the_books_preview_keeps_its_in_page_links_in_the_preview(running: Running) -> None:
    """The preview is an iframe's srcdoc: a link within the book (``#s-play``, a clause's
    anchor) must name an anchor of the book itself, and only links to other books lead to the
    server's books (``/books/nl/...``, in a new tab). Once a ``<base href="/books/nl/">`` sent
    the in-book links there too."""
    import re

    with bench(running, "nl") as ws:
        book = check(ws, GOOD, 1, "nl")["book"]
    assert "<base" not in book
    ids = set(re.findall(r'\bid="([^"]+)"', book))
    links = re.findall(r"<a\b[^>]*>", book)
    inside = [a for a in links if 'href="#' in a]
    assert len(inside) > 20 and 'href="#s-play"' in book
    for a in inside:
        anchor = re.search(r'href="#([^"]*)"', a)
        assert anchor and anchor.group(1) in ids and "target=" not in a, a
    outside = [a for a in links if 'href="#' not in a]
    assert any('href="/books/nl/australian.html"' in a for a in outside), outside  # the base
    for a in outside:
        assert re.search(r'href="/books/(en|nl|nb|da|ar|pt)/[a-z0-9-]+\.html"', a), a
        assert 'target="_blank"' in a, a


def test_a_study_reports_progress_then_figures_against_the_base(running: Running) -> None:
    with bench(running) as ws:
        ws.send(json.dumps({"type": "study", "games": 3}))
        refused = until(ws, lambda m: m["type"] == "error")
        assert refused["code"] == "nothing"  # nothing compiled yet
        check(ws, GOOD, 1)
        ws.send(json.dumps({"type": "study", "games": bench_module.MAX_GAMES + 1}))
        assert until(ws, lambda m: m["type"] == "error")["code"] == "games"
        ws.send(json.dumps({"type": "study", "games": 4}))
        ws.send(json.dumps({"type": "study", "games": 4}))  # one at a time per connection
        seen: list[dict[str, Any]] = []
        busy = False
        while True:
            m = until(ws, lambda m: m["type"] in ("progress", "study", "error"))
            busy = busy or (m["type"] == "error" and m["code"] == "busy")
            if m["type"] == "study":
                break
            if m["type"] == "progress":
                seen.append(m)
    assert busy
    assert [m["done"] for m in seen] == [2, 4, 6, 8] and seen[-1]["total"] == 8
    assert m["games"] == 4 and m["base"] == "australian"
    rows = {(r["group"], r["key"]): r for r in m["rows"]}
    hands = rows["game", "hands_per_game"]
    assert hands["house"] > 0 and hands["base"] > 0
    assert isinstance(rows["make_rate", "all"]["significant"], bool)
    assert ("clauses", "auction.all-pass") in rows


def test_a_study_can_be_cancelled(running: Running) -> None:
    with bench(running) as ws:
        check(ws, GOOD, 1)
        ws.send(json.dumps({"type": "study", "games": bench_module.MAX_GAMES}))
        until(ws, lambda m: m["type"] == "progress")
        ws.send(json.dumps({"type": "cancel"}))
        stopped = until(ws, lambda m: m["type"] == "cancelled")
        assert stopped["stopped"] is True
        ws.send(json.dumps({"type": "study", "games": 1}))  # a new one may start at once
        assert until(ws, lambda m: m["type"] == "study")["games"] == 1


def test_a_file_over_the_size_limit_is_refused(running: Running) -> None:
    big = GOOD + "#" * (bench_module.MAX_TEXT + 1) + "\n"
    with bench(running) as ws:
        answer = check(ws, big, 1)
        assert answer["type"] == "error" and answer["code"] == "size"
        assert str(bench_module.MAX_TEXT) in answer["message"]
        assert check(ws, GOOD, 2)["diagnostics"] == []  # the connection goes on


def test_a_message_nested_a_thousand_deep_is_malformed(running: Running) -> None:
    """It once raised RecursionError in the server and closed the connection unanswered."""
    with bench(running) as ws:
        ws.send("[" * 1100)
        answer = until(ws, lambda m: m.get("type") == "error")
        assert answer["code"] == "malformed"
        assert check(ws, GOOD, 1)["diagnostics"] == []  # the connection goes on


def test_a_compile_over_the_time_limit_is_refused(
    running: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench_module, "CHECK_SECONDS", 0.01)
    with bench(running, "nl") as ws:
        answer = check(ws, GOOD + "# slow\n", 1)
    assert "book" not in answer
    assert "0.01" in answer["error"]  # "... more than 0.01 seconds" in Dutch


def test_a_client_flooding_compiles_harms_no_table(running: Running) -> None:
    _, made = running.post({"variant": "australian", "seats": [{"bot": "random"}] * 4})
    with bench(running) as flood:
        for n in range(60):
            flood.send(json.dumps({"type": "check", "text": GOOD + f"# {n}\n", "seq": n}))
        # The table is served while the flood's texts wait: its watcher gets the state and a
        # pong (the timeouts are a safety net, not a measure: tests assert no wall-clock time).
        with connect(
            f"ws://127.0.0.1:{running.port}/ws/{made['id']}?token={token_of(made['watch'])}"
        ) as watcher:
            state = json.loads(watcher.recv(timeout=60))
            assert state["type"] == "state"
            watcher.send('{"type": "ping"}')
            until(watcher, lambda m: m["type"] == "pong", timeout=60)
        last = until(flood, lambda m: m.get("seq") == 59, timeout=120)
        assert last["diagnostics"] == []
    # the texts sent while one compiled were coalesced: far fewer compiles than texts
    assert running.app.state.bench.compiles < 30
