"""Conformance vectors (generated/conformance/<variant>.jsonl) and ``fivehundred conformance``.

The protocol (README "For engine writers", specs/INTERCHANGE.md): the engine reads records, one
JSON line each, on stdin and answers one JSON line per record on stdout: the replay view, or
``{"error": {"index", "action", "clause", "message"}}``. These tests run this engine through
that protocol, and a deliberately wrong one that must be caught.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from fivehundred.generator.build import GENERATED_DIR, compile_builtins
from fivehundred.runtime.adapters.conformance import (
    UNREACHABLE,
    build_vectors,
    expected_output,
    fingerprint,
    read_vectors,
    run_engine,
)
from fivehundred.runtime.cli.main import main
from fivehundred.runtime.loading import load_rules

SELF_ENGINE = f"{sys.executable} -m fivehundred.runtime.adapters.conformance"
BUILTINS = compile_builtins()


def vectors_of(variant: str) -> tuple[dict, list[dict]]:
    path = GENERATED_DIR / "conformance" / f"{variant}.jsonl"
    return read_vectors(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("variant", sorted(BUILTINS))
def test_vectors_cover_every_clause_or_say_why(variant: str) -> None:
    """Every clause id of the variant is exercised by a vector, or the header says why not."""
    header, vectors = vectors_of(variant)
    clause_ids = [c["id"] for c in BUILTINS[variant][1].clauses]
    seen = {c for v in vectors for c in v["clauses"]}
    missing = [c for c in clause_ids if c not in seen]
    assert sorted(missing) == sorted(header["not_reached"])
    assert header["covered"] + len(missing) == header["clauses"] == len(clause_ids)
    assert all(header["not_reached"][c] for c in missing)  # a reason each
    # Clauses a single-hand record can exercise are all reached in the four-handed games.
    if BUILTINS[variant][1].players == 4:
        assert set(missing) <= set(UNREACHABLE), missing
    assert seen <= set(clause_ids)


@pytest.mark.parametrize("variant", ["australian", "american-46", "five-handed-call"])
def test_vectors_are_what_the_engine_gives_now(variant: str) -> None:
    """The build's cache is honest: vectors rebuilt from scratch equal the committed ones, and
    the header's fingerprint is that of the current tables and engine."""
    header, vectors = vectors_of(variant)
    assert build_vectors(load_rules(variant)) == vectors
    tables = json.dumps(BUILTINS[variant][1].tables, sort_keys=True)
    assert header["fingerprint"] == fingerprint(tables)


def test_illegal_vectors_cite_the_clause_they_cover() -> None:
    """Each illegal-action vector expects the error at its last action, citing its clause."""
    for variant in BUILTINS:
        _, vectors = vectors_of(variant)
        for v in vectors:
            error = v["expect"].get("error")
            if error is None:
                continue
            assert error["index"] == len(v["record"]["actions"]) - 1, v["id"]
            assert v["clauses"] == [error["clause"]], v["id"]


def test_conformance_of_this_engine_through_the_protocol(capsys) -> None:
    """`fivehundred conformance australian --engine CMD` on this engine: all agree, exit 0."""
    code = main(["conformance", "australian", "--engine", SELF_ENGINE])
    out = capsys.readouterr().out
    assert code == 0, out
    _, vectors = vectors_of("australian")
    assert f"{len(vectors)}/{len(vectors)} vectors agree" in out
    assert "clause coverage:" in out and "not reached: deal.rotation:" in out


def test_every_variant_through_the_protocol() -> None:
    """One engine run over the vectors of every built-in variant (records name their variant)."""
    vectors = [v for variant in sorted(BUILTINS) for v in vectors_of(variant)[1]]
    assert run_engine(SELF_ENGINE, vectors) == []


WRONG_ENGINE = """
import json, sys
from fivehundred.runtime.adapters.conformance import expected_output
for line in sys.stdin:
    out = expected_output(json.loads(line))
    if "error" in out:
        out["error"]["clause"] = "play.follow-suit"   # cites one clause for everything
    elif out["hand"]["points"] is not None:
        out["hand"]["points"][0] += 10               # scores side 0 ten too many
    print(json.dumps(out))
"""


def test_a_wrong_engine_is_caught(capsys, tmp_path: Path) -> None:
    script = tmp_path / "wrong.py"
    script.write_text(WRONG_ENGINE, encoding="utf-8")
    engine = f"{sys.executable} {script}"
    code = main(["conformance", "australian", "--engine", engine, "--show", "100"])
    out = capsys.readouterr().out
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith("australian/")]
    assert any(": hand.points[0]: expected " in line for line in lines)
    assert any(": error.clause: expected " in line for line in lines)
    # Errors that really cite play.follow-suit still agree: not every vector is listed.
    _, vectors = vectors_of("australian")
    assert 0 < len(lines) < len(vectors)


def test_engine_that_cannot_run(capsys, tmp_path: Path) -> None:
    """Exit 2 when the engine cannot start or fails; missing lines are disagreements (1)."""
    assert main(["conformance", "australian", "--engine", "no-such-engine-xyz"]) == 2
    assert "engine command not found" in capsys.readouterr().err
    failing = tmp_path / "fail.py"
    failing.write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    assert main(["conformance", "australian", "--engine", f"{sys.executable} {failing}"]) == 2
    assert "exited with status 3" in capsys.readouterr().err
    silent = tmp_path / "silent.py"
    silent.write_text("import sys\nsys.stdin.read()\n", encoding="utf-8")
    assert main(["conformance", "australian", "--engine", f"{sys.executable} {silent}"]) == 1
    assert "no line" in capsys.readouterr().out
    assert main(["conformance", "no-such-variant"]) == 2


def test_conformance_of_a_rule_file_is_built_in_memory(capsys, tmp_path: Path) -> None:
    house = tmp_path / "club.yaml"
    house.write_text("extends: australian\nid: club\nauction:\n  raise_own_bid: true\n")
    # the records name the file; this engine reads it only when given (as `replay --rules`)
    assert main(["conformance", str(house), "--engine", f"{SELF_ENGINE} --rules {house}"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("club: ")
    assert "clause coverage:" in out


def test_expected_output_of_a_broken_record() -> None:
    """A record that cannot be replayed gets an error object with no index and no clause."""
    out = expected_output({"variant": "australian", "deal": {"hands": []}})
    assert out["error"]["index"] is None and out["error"]["clause"] is None
    assert "4 hands" in out["error"]["message"]


def test_expect_is_what_replay_json_prints(capsys, tmp_path: Path) -> None:
    """The vectors' `expect` is exactly the documented output: `replay --json` on their records
    prints, line by line, what the vectors expect (every built-in variant)."""
    from fivehundred.runtime.adapters.conformance import _compare

    for variant in sorted(BUILTINS):
        _, vectors = vectors_of(variant)
        path = tmp_path / f"{variant}.jsonl"
        path.write_text("".join(json.dumps(v["record"]) + "\n" for v in vectors), "utf-8")
        main(["replay", str(path), "--json"])
        lines = capsys.readouterr().out.splitlines()
        assert len(lines) == len(vectors), variant
        for vector, line in zip(vectors, lines, strict=True):
            assert _compare(vector["expect"], json.loads(line)) is None, vector["id"]
