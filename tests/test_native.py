"""The compiled build (``fivehundred compile``, runtime/native.py): used only while it matches
its source, and deciding exactly as the pure Python modules do.

The agreement test needs a build: it is skipped without one, and fails instead when
``FIVEHUNDRED_REQUIRE_NATIVE`` is set (CI builds it with the ``native`` extra and sets it)."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fivehundred.runtime import native
from fivehundred.runtime.cli.main import main

REQUIRED = os.environ.get("FIVEHUNDRED_REQUIRE_NATIVE", "") not in ("", "0")

#: Plays a few games of each variant with heuristic bots at every seat through the balance
#: study's own game loop, and prints the modules it ran and a hash of every decision with its
#: reason.
_PLAY = r"""
import hashlib, json, sys
from fivehundred.runtime.bots import heuristic
from fivehundred.runtime.engine import seatview
from fivehundred.runtime.loading import load_rules
from fivehundred.runtime.studies import balance

digest = hashlib.sha256()
decisions = 0

class Recorder:
    def __init__(self, bot):
        self.bot = bot
    def choose(self, state, rng):
        global decisions
        d = self.bot.decide(state)
        digest.update(f"{d.action}|{d.reason}\n".encode())
        decisions += 1
        return d.action

made = balance._make_bots
balance._make_bots = lambda names, players: [Recorder(b) for b in made(names, players)]
for variant in sys.argv[2:]:
    rules = load_rules(variant)
    tally = balance.Tally()
    for game in range(int(sys.argv[1])):
        balance.play_game(rules, ("heuristic",), 7, game, 200, tally)
    digest.update(repr(sorted(tally.contracts.items())).encode())
print(json.dumps({
    "modules": [heuristic.__file__, seatview.__file__],
    "decisions": decisions,
    "digest": digest.hexdigest(),
}))
"""

#: Every shape of game the bot plays: partnerships, three seats alone, two seats, five with a
#: called partner, six in three teams, misère and double nullo, a raise of one's own bid.
_VARIANTS = (
    "australian",
    "three-handed",
    "two-handed",
    "five-handed-call",
    "six-handed-2v2v2",
    "double-nullo",
    "misere-230",
    "raise-own-bid",
)


def _need_build() -> None:
    """Skip without a current compiled build, or fail when CI requires one."""
    if not all(s.state == "compiled" for s in native.status() if s.module in native.MODULES):
        if REQUIRED:
            pytest.fail("FIVEHUNDRED_REQUIRE_NATIVE is set but no current compiled build exists")
        pytest.skip("no compiled build (fivehundred compile)")


def _play(pure: bool, games: int) -> dict[str, object]:
    env = {**os.environ, native.PURE_ENV: "1" if pure else ""}
    done = subprocess.run(
        [sys.executable, "-c", _PLAY, str(games), *_VARIANTS],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    out: dict[str, object] = json.loads(done.stdout)
    return out


def test_compiled_and_pure_modules_make_the_same_decisions_with_the_same_reasons() -> None:
    _need_build()
    compiled = _play(pure=False, games=6)
    pure = _play(pure=True, games=6)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    assert all(str(m).endswith(suffix) for m in compiled["modules"])  # type: ignore[attr-defined]
    assert all(str(m).endswith(".py") for m in pure["modules"])  # type: ignore[attr-defined]
    assert isinstance(pure["decisions"], int) and pure["decisions"] > 1000
    assert compiled["decisions"] == pure["decisions"]
    assert compiled["digest"] == pure["digest"]


def test_the_search_bot_plays_alike_over_the_compiled_heuristic() -> None:
    """The search bot's playouts are heuristic decisions: a duel of search against the
    heuristic ends the same, hand for hand in points, compiled or pure."""
    _need_build()
    args = ["duel", "australian", "search", "heuristic", "--games", "2", "--seed", "3", "--json"]
    runs = []
    for pure in (False, True):
        done = subprocess.run(
            [sys.executable, "-c", "from fivehundred.runtime.cli.main import run; run()", *args],
            capture_output=True,
            text=True,
            env={**os.environ, native.PURE_ENV: "1" if pure else ""},
            check=True,
        )
        summary = json.loads(done.stdout)
        runs.append({k: v for k, v in summary.items() if "ms" not in k and k != "seconds"})
    assert runs[0]["hands"] > 0 and runs[0] == runs[1]


def _fake_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source_hash: str) -> None:
    """Point the guard at a build in ``tmp_path``: empty extension files and a record saying
    the modules were compiled from sources with ``source_hash`` (the digest of the real ones,
    or another)."""
    ext = {m: tmp_path / (m.rsplit(".", 1)[1] + ".so") for m in native.MODULES}
    for path in ext.values():
        path.write_bytes(b"")
    group = tmp_path / "group.so"
    group.write_bytes(b"")
    record = tmp_path / "native.json"
    hashes = {
        m: native._digest(native._source(m)) if source_hash == "real" else source_hash
        for m in native.MODULES
    }
    record.write_text(
        json.dumps({"python": sys.implementation.cache_tag, "modules": hashes}), encoding="utf-8"
    )
    monkeypatch.setattr(native, "_extension", ext.__getitem__)
    present = {native._source(m).with_suffix(native._SUFFIX) for m in native.MODULES}
    monkeypatch.setattr(native, "_present", lambda: present)
    monkeypatch.setattr(native, "_extensions", list)  # no stray of an earlier build
    monkeypatch.setattr(native, "_group_library", lambda: group)
    monkeypatch.setattr(native, "RECORD", record)
    monkeypatch.setattr(native._Guard, "warned", False)


def test_a_build_of_the_current_source_is_left_to_the_usual_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_build(tmp_path, monkeypatch, "real")
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    assert native._Guard().find_spec(native.MODULES[0], None) is None
    assert [s.state for s in native.status()] == ["compiled"] * len(native.MODULES)


def test_a_build_older_than_its_source_is_not_used_and_said_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fake_build(tmp_path, monkeypatch, "0" * 64)
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    for module in native.MODULES:
        spec = native._Guard().find_spec(module, None)
        assert spec is not None and spec.origin == str(native._source(module))
        assert isinstance(spec.loader, importlib.machinery.SourceFileLoader)
    assert capsys.readouterr().err.count("do not match their source") == 1
    assert [s.state for s in native.status()] == ["stale"] * len(native.MODULES)


def test_one_stale_module_sets_the_whole_build_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled modules call each other's classes directly: a compiled bot must never be
    handed a pure seat view."""
    _fake_build(tmp_path, monkeypatch, "real")
    record = json.loads(native.RECORD.read_text(encoding="utf-8"))
    record["modules"][native.MODULES[-1]] = "0" * 64
    native.RECORD.write_text(json.dumps(record), encoding="utf-8")
    spec = native._Guard().find_spec(native.MODULES[0], None)
    assert spec is not None and spec.origin == str(native._source(native.MODULES[0]))


def test_a_build_for_another_python_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_build(tmp_path, monkeypatch, "real")
    record = json.loads(native.RECORD.read_text(encoding="utf-8"))
    record["python"] = "cpython-00"
    native.RECORD.write_text(json.dumps(record), encoding="utf-8")
    assert native._Guard().find_spec(native.MODULES[0], None) is not None


def test_the_pure_modules_are_used_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_build(tmp_path, monkeypatch, "real")
    monkeypatch.setenv(native.PURE_ENV, "1")
    spec = native._Guard().find_spec(native.MODULES[0], None)
    assert spec is not None and spec.origin == str(native._source(native.MODULES[0]))


def test_other_modules_are_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_build(tmp_path, monkeypatch, "0" * 64)
    assert native._Guard().find_spec("fivehundred.runtime.engine.hand", None) is None
    assert native._Guard().find_spec("json", None) is None


def test_an_extension_an_earlier_build_left_is_never_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An earlier version's build held a module this one does not (its extension still lies
    beside the source): the guard loads the .py file, even beside a current build."""
    _fake_build(tmp_path, monkeypatch, "real")
    stray = "fivehundred.runtime.bots.search"
    present = native._present() | {native._source(stray).with_suffix(native._SUFFIX)}
    monkeypatch.setattr(native, "_present", lambda: present)
    spec = native._Guard().find_spec(stray, None)
    assert spec is not None and spec.origin == str(native._source(stray))
    assert native._Guard().find_spec(native.MODULES[0], None) is None  # the build is current


def test_compile_status_names_every_module(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", "--status"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines][: len(native.MODULES)] == list(native.MODULES)
