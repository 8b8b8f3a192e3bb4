"""The server's embedded database (SQLite, the standard library's ``sqlite3``).

Three tables: ``tables`` (each table's settings, seats, tokens and seed, as JSON), ``moves``
(every action of every table, in order: the game is rebuilt by replaying them) and ``hands``
(each finished hand as a game record, INTERCHANGE.md, ready to download and to replay with
``fivehundred replay``; numbered from 0 per table, a row is written once and never replaced).
A move is stored before any client hears of it, so a restarted server finds every table as the
players last saw it, its finished hands' records with it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

__all__ = ["Store"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    spec TEXT NOT NULL,
    between_hands INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


class Store:
    """A SQLite file (or ``:memory:``) holding every table, move and finished hand."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def add_table(self, table_id: str, spec: dict[str, Any]) -> None:
        """Keep a new table."""
        self.db.execute(
            "INSERT INTO tables (id, created, spec) VALUES (?, ?, ?)",
            (table_id, time.time(), json.dumps(spec, sort_keys=True)),
        )

    def add_moves(self, table_id: str, first: int, actions: list[int]) -> None:
        """Keep actions ``first``, ``first + 1``… of a table."""
        self.db.executemany(
            "INSERT INTO moves (table_id, seq, action) VALUES (?, ?, ?)",
            [(table_id, first + i, a) for i, a in enumerate(actions)],
        )

    def add_hand(self, table_id: str, n: int, record: dict[str, Any]) -> None:
        """Keep the record of a table's finished hand ``n`` (0 the first). A hand already kept
        stays as it was: a record, once downloadable, is never replaced."""
        self.db.execute(
            "INSERT OR IGNORE INTO hands (table_id, n, record) VALUES (?, ?, ?)",
            (table_id, n, json.dumps(record, ensure_ascii=False)),
        )

    def set_between_hands(self, table_id: str, between: bool) -> None:
        """Whether the table shows a finished hand's summary (nobody has asked for the next)."""
        self.db.execute(
            "UPDATE tables SET between_hands = ? WHERE id = ?", (int(between), table_id)
        )

    def tables(
        self,
    ) -> list[tuple[str, dict[str, Any], list[int], list[dict[str, Any]], bool]]:
        """Every table: id, spec, its actions in order, its finished hands' records in order
        (those kept: hand 0, 1… up to the first one missing), whether between hands."""
        out = []
        rows = self.db.execute("SELECT id, spec, between_hands FROM tables ORDER BY created")
        for table_id, spec, between in rows.fetchall():
            moves = self.db.execute(
                "SELECT action FROM moves WHERE table_id = ? ORDER BY seq", (table_id,)
            ).fetchall()
            records: list[dict[str, Any]] = []
            hands = self.db.execute(
                "SELECT n, record FROM hands WHERE table_id = ? ORDER BY n", (table_id,)
            )
            for n, record in hands.fetchall():
                if n != len(records):
                    break
                records.append(dict(json.loads(record)))
            out.append((table_id, json.loads(spec), [m[0] for m in moves], records, bool(between)))
        return out

    def record(self, table_id: str, n: int) -> dict[str, Any] | None:
        """The record of a finished hand, or None."""
        row = self.db.execute(
            "SELECT record FROM hands WHERE table_id = ? AND n = ?", (table_id, n)
        ).fetchone()
        return None if row is None else dict(json.loads(row[0]))
