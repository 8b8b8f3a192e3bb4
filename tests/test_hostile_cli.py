"""Hostile input to the command line (issue 18): names, records, engines, catalogues, streams.

Every case is one line on standard error and exit 2 (or the right answer), never a traceback;
unbounded inputs stay bounded in memory; no file of the user's is truncated, widened or left
behind.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import peak_kib, split_codes

from fivehundred.runtime.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "fivehundred.runtime.cli.main"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The command fails with exit 2 and exactly one line on stderr; returns that line."""
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def cli(*argv: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """The command in its own process (from the checkout)."""
    return subprocess.run(
        [*CLI, *argv], capture_output=True, text=True, timeout=300, cwd=ROOT, **kwargs
    )


# -- a variant name is an id from `fivehundred list` or a path, nothing else ---------------------

NOT_NAMES = ["**", "*", "__init__", "australia?", "[a]*"]
VERBS: list[list[str]] = [
    ["show", "{}"],
    ["docs", "{}"],
    ["diff", "{}", "australian"],
    ["diff", "australian", "{}"],
    ["duel", "{}", "random", "random", "--games", "1"],
    ["new", "xx", "--extends", "{}", "-o", "{tmp}/xx.yaml"],
    ["balance", "australian", "--against", "{}", "--games", "2"],
    ["balance", "{}", "--games", "2"],
    ["conformance", "{}"],
    ["i18n", "status", "--book", "{}"],
    ["simulate", "{}", "--hands", "1"],
    ["play", "{}"],
]


@pytest.mark.parametrize("name", NOT_NAMES)
@pytest.mark.parametrize("verb", VERBS, ids=lambda v: "-".join(v[:3]))
def test_a_glob_or_module_name_is_no_variant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, verb: list[str], name: str
) -> None:
    argv = [a.replace("{}", name).replace("{tmp}", str(tmp_path)) for a in verb]
    line = refused(capsys, *argv)
    assert f"unknown variant {name!r}" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["show", "aus\ntralian"],
        ["validate", "aus\ntralian"],
        ["replay", "aus\ntralian"],
        ["new", "a\nb", "--extends", "australian"],
    ],
    ids=lambda a: a[0],
)
def test_a_newline_in_a_name_keeps_the_error_on_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """The name opened the line raw, so its newline split the one line in two."""
    line = refused(capsys, *argv)
    assert line.startswith(argv[1].replace("\n", "\\n") + ":")


def test_show_star_is_not_the_first_variant_found(capsys: pytest.CaptureFixture[str]) -> None:
    """`show '*'` once showed american-46 (the first file a glob found)."""
    assert "unknown variant '*'" in refused(capsys, "show", "*")


def test_the_engine_loads_only_variant_ids() -> None:
    from fivehundred.runtime.engine.rules import Rules

    for name in [*NOT_NAMES, "../australian", "australian.py", "AUSTRALIAN", ""]:
        with pytest.raises(KeyError):
            Rules.builtin(name)
    assert Rules.builtin("australian").variant == "australian"


def test_a_house_file_cannot_take_a_built_in_id(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Its records would name `australian` and replay against the built-in."""
    house = tmp_path / "club.yaml"
    house.write_text("extends: american\nid: australian\n", encoding="utf-8")
    line = refused(capsys, "validate", "--quiet", str(house))
    assert line.startswith(f"{house}:2:5: the id 'australian' is a built-in variant's")
    copy = tmp_path / "australian.yaml"  # the id from the file name (a copy of the built-in)
    copy.write_text(
        (ROOT / "specs/variants/australian.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    assert "is a built-in variant's" in refused(capsys, "validate", "--quiet", str(copy))
    nameless = tmp_path / "american.yaml"
    nameless.write_text("extends: australian\n", encoding="utf-8")
    line = refused(capsys, "validate", "--quiet", str(nameless))
    assert line.startswith(f"{nameless}:1:1:") and "add a line such as `id: my-american`" in line
    code, _, err = run(capsys, "validate", "--quiet", str(ROOT / "specs/variants/australian.yaml"))
    assert code == 0, err


# -- a hostile record ----------------------------------------------------------------------------


def _record(variant: Any) -> dict[str, Any]:
    from fivehundred.runtime.adapters.api import load

    record: dict[str, Any] = load("australian").new_hand(seed=3).record()
    record["variant"] = variant
    return record


@pytest.mark.parametrize("variant", ["__init__", "**", "*", "../australian", 5, None])
def test_a_hostile_variant_fails_its_record_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: Any
) -> None:
    path = tmp_path / "r.jsonl"
    good = _record("australian")
    path.write_text(
        "\n".join(json.dumps(r) for r in (_record(variant), good, good)) + "\n", encoding="utf-8"
    )
    code, out, err = run(capsys, "replay", "--json", str(path))
    assert code == 2
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 3 and "error" in lines[0] and "error" not in lines[1:]
    assert err == ""


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        (5, "the record's variant 5 is not a built-in variant"),
        (["australian"] * 100, "the record's variant ['australian', 'australian', "),
        (None, "the record's variant None is not a built-in variant"),
    ],
)
def test_a_variant_that_is_no_string_is_named_as_it_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: Any, words: str
) -> None:
    """It once got "the record has no 'variant'"; the record has one, and it is quoted short."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_record(variant)), encoding="utf-8")
    line = refused(capsys, "replay", str(path))
    assert words in line and len(line) < len(str(path)) + 200


#: Actions that once gave a traceback and dropped every later record (int() of 5,000 digits).
HOSTILE_ACTIONS = ["partner " + "9" * 5000, "partner " + "0" * 4301 + "1", "partner ٣"]


@pytest.mark.parametrize("action", HOSTILE_ACTIONS, ids=["5000-digits", "4302-digits", "arabic"])
def test_a_hostile_action_fails_its_record_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, action: str
) -> None:
    from fivehundred.runtime.adapters.api import load

    bad = {**load("five-handed").new_hand(seed=3).record(), "actions": ["pass", action]}
    good = _record("australian")
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (bad, good)) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", "--json", str(path))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and err == "" and len(lines) == 2 and "error" not in lines[1]
    error = lines[0]["error"]
    assert error["index"] == 1 and error["clause"] is None and error["action"] == action
    assert "a partner is a seat from 0 to 4" in error["message"]


def test_plain_replay_says_thrown_in_only_of_a_hand_thrown_in(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """ "all passed: the hand is thrown in" was once printed of every hand without a contract:
    one whose auction had not begun, and an all-passed hand played at no trumps, tricks and
    all."""
    from fivehundred.runtime.adapters.api import load

    played = load("all-pass-no-trumps").new_hand(seed=4)
    for _ in range(4):
        played.apply("pass")
    while not played.is_over():
        played.apply(played.legal_actions()[0])
    for record, thrown_in in (
        (_record("australian"), False),
        ({**_record("australian"), "actions": ["pass"] * 3}, False),
        (played.record(), False),
        ({**_record("australian"), "actions": ["pass"] * 4}, True),
    ):
        path = tmp_path / "r.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        code, out, err = run(capsys, "replay", str(path))
        assert code == 0 and err == ""
        assert ("all passed: the hand is thrown in" in out) == thrown_in, out


def test_a_record_file_may_start_with_a_byte_order_mark(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """As a rule file may: an editor on Windows writes one (once 'bad JSON: Unexpected UTF-8
    BOM')."""
    text = json.dumps(_record("australian"))
    for name, data in (("r.json", text), ("r.jsonl", text + "\n" + text + "\n")):
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + data.encode())
        code, out, err = run(capsys, "replay", "--json", str(path))
        assert code == 0 and err == "" and all("error" not in line for line in out.splitlines())


def test_a_record_never_opens_a_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`"variant": "/tmp/x/secret.txt"` once quoted that file's contents in the error."""
    secret = tmp_path / "secret.txt"
    secret.write_text("password: hunter2\n", encoding="utf-8")
    rule_file = tmp_path / "club.yaml"
    rule_file.write_text("extends: australian\nid: club\n", encoding="utf-8")
    for variant in (str(secret), str(rule_file)):
        path = tmp_path / "r.json"
        path.write_text(json.dumps(_record(variant)), encoding="utf-8")
        line = refused(capsys, "replay", str(path))
        assert "hunter2" not in line and "password" not in line
        assert "neither a built-in variant nor a rule file given with --rules" in line


def test_a_record_naming_a_misspelt_variant_gets_a_did_you_mean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 18: a record naming an unknown variant says which one was probably meant, among
    the built-ins and the rule files given with --rules; a name close to none gets no guess."""
    rule_file = tmp_path / "club.yaml"
    rule_file.write_text("extends: australian\nid: our-club\nname: Club\n", encoding="utf-8")
    path = tmp_path / "r.json"
    for variant, meant in (("australain", "'australian'"), ("our-clib", "'our-club'")):
        path.write_text(json.dumps(_record(variant)), encoding="utf-8")
        line = refused(capsys, "replay", "--rules", str(rule_file), str(path))
        assert line.endswith(f"given with --rules; did you mean {meant}?"), line
    path.write_text(json.dumps(_record("zzzzzz")), encoding="utf-8")
    assert refused(capsys, "replay", str(path)).endswith("given with --rules")


def test_replay_rules_lets_records_name_a_rule_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`replay --rules FILE`: records may name that file by its id or by the path as given."""
    rule_file = tmp_path / "club.yaml"
    rule_file.write_text("extends: australian\nid: club\n", encoding="utf-8")
    path = tmp_path / "r.jsonl"
    path.write_text(
        "\n".join(json.dumps(_record(v)) for v in ("club", str(rule_file), "australian")) + "\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "replay", "--json", "--rules", str(rule_file), str(path))
    assert code == 0, err
    views = [json.loads(line) for line in out.splitlines()]
    assert [v["variant"] for v in views] == ["club", "club", "australian"]
    secret = tmp_path / "secret.txt"
    secret.write_text("password: hunter2\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", "--rules", str(secret), str(path))
    assert code == 2 and out == "" and "hunter2" not in err  # a rule file's problems, no record


# -- i18n update: atomic, and linear in the catalogue --------------------------------------------


def _locales(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the catalogues and the template to update."""
    import shutil

    from fivehundred.generator import i18n

    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES_DIR, locales)
    return locales, locales / "messages.pot"


def test_i18n_update_on_a_full_disk_leaves_the_catalogue_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from fivehundred.generator import i18n
    from fivehundred.runtime import files
    from fivehundred.runtime.engine.errors import FileError

    locales, pot = _locales(tmp_path)
    path = i18n.po_path("nl", locales)
    with path.open("a", encoding="utf-8") as handle:  # a message the template dropped
        handle.write('\nmsgid "An old sentence."\nmsgstr "Een oude zin."\n')
    before = path.read_bytes()
    path.chmod(0o600)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(FileError, match="no space left on device"):
        i18n.update_catalogues(["nl"], locales=locales, pot=pot)
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["fivehundred.po"]
    monkeypatch.undo()
    assert i18n.update_catalogues(["nl"], locales=locales, pot=pot) == [("nl", "updated")]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert '#~ msgid "An old sentence."' in path.read_text(encoding="utf-8")


def test_i18n_update_compares_each_new_message_with_a_bounded_shortlist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thousands of messages the template dropped, and new ones: the fuzzy match compares each
    new message with at most SHORTLIST old ones (Babel compared it with every one)."""
    import difflib

    from babel.messages.pofile import read_po, write_po

    from fivehundred.generator import i18n, pomerge

    locales, pot = _locales(tmp_path)
    path = i18n.po_path("nl", locales)
    with path.open("a", encoding="utf-8") as handle:
        for i in range(4000):
            handle.write(f'\nmsgid "Dropped sentence {i} on bidding zq{i}x."\nmsgstr "Oud {i}."\n')
    with pot.open("rb") as handle:
        template = read_po(handle)
    for i in range(40):
        template.add(f"Dropped sentence {i} on bidding zq{i}x, now longer.")
    template.add("The first dealer is chosen at random, by any fair means.")
    with pot.open("wb") as handle:
        write_po(handle, template, width=79)
    ratios = []

    class Counting(difflib.SequenceMatcher):  # type: ignore[type-arg]
        def ratio(self) -> float:
            ratios.append(1)
            return super().ratio()

    monkeypatch.setattr(pomerge.difflib, "SequenceMatcher", Counting)
    i18n.update_catalogues(["nl"], locales=locales, pot=pot)
    assert 0 < len(ratios) <= 41 * pomerge.SHORTLIST
    merged = i18n.read_catalog(path, "nl")
    moved = merged["Dropped sentence 7 on bidding zq7x, now longer."]
    assert moved.fuzzy and moved.string == "Oud 7."
    changed = merged["The first dealer is chosen at random, by any fair means."]
    old = merged["The first dealer is chosen at random."]
    assert changed.fuzzy and changed.string == old.string
    assert "Dropped sentence 7 on bidding zq7x." not in merged.obsolete
    assert "Dropped sentence 3999 on bidding zq3999x." in merged.obsolete


# -- Plural-Forms: parsed, never run ---------------------------------------------------------------

HOSTILE_PLURALS = {
    "nplurals=2; plural=(n / 0);": "divides by zero for n=0",
    "nplurals=2; plural=(n % (n - 7) != 0);": "divides by zero for n=7",
    "nplurals=2; plural=(n != 1) - 1;": "gives form -1 for n=1",
    "nplurals=-2; plural=0;": "not of the form",
    "nplurals=2; plural=(n != 1;": "expected ')'",
    "nplurals=2; plural=" + "(" * 30 + "n" + ")" * 30 + ";": "nested more than 20 deep",
    "nplurals=2; plural=__import__('os').getpid();": 'unexpected "__import__',
    "nplurals=2; plural=n == 1 ? 0 : 2;": "gives form 2 for n=0",
}


@pytest.mark.parametrize("header", sorted(HOSTILE_PLURALS))
def test_a_hostile_plural_forms_refuses_the_catalogue(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    header: str,
) -> None:
    """`docs`, `replay --lang` and `i18n status` refuse it at its file:line (docs and replay
    once crashed, and status called the catalogue 100%)."""
    from fivehundred.generator import i18n

    locales, _ = _locales(tmp_path)
    path = i18n.po_path("nl", locales)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    (at,) = [n for n, line in enumerate(lines) if line.startswith('"Plural-Forms:')]
    lines[at] = '"Plural-Forms: ' + header.replace("\\", "\\\\").replace('"', '\\"') + '\\n"\n'
    path.write_text("".join(lines), encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES_DIR", locales)
    record = tmp_path / "r.json"
    record.write_text(json.dumps(_record("nowhere")), encoding="utf-8")
    for argv in (["docs", "australian", "--lang", "nl"], ["replay", str(record), "--lang", "nl"]):
        line = refused(capsys, *argv)
        assert line.startswith(f"{i18n._rel(path)}:{at + 1}: Plural-Forms: ")
        assert HOSTILE_PLURALS[header] in line
    code, _, err = run(capsys, "i18n", "status", "--lang", "nl")
    assert code == 2 and HOSTILE_PLURALS[header] in err


def test_build_refuses_a_hostile_plural_forms_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`build` once crashed on such a catalogue too: now the header's file:line (the command
    line prints it as its one line), before any book is rendered."""
    from fivehundred.generator import build as build_mod
    from fivehundred.generator import i18n

    locales, _ = _locales(tmp_path)
    path = i18n.po_path("nl", locales)
    text = path.read_text(encoding="utf-8")
    header = "nplurals=2; plural=__import__('os').getpid();"
    text = re.sub(r'"Plural-Forms:[^"]*\\n"', f'"Plural-Forms: {header}\\\\n"', text, count=1)
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES_DIR", locales)
    root = tmp_path / "generated"
    with pytest.raises(i18n.CatalogueError) as caught:
        build_mod.build(root=root)
    assert str(caught.value).startswith(f"{i18n._rel(path)}:")
    assert 'Plural-Forms: unexpected "__import__' in str(caught.value)
    assert not root.exists() or not any(p.is_file() and "docs" in p.parts for p in root.rglob("*"))


def test_a_huge_nplurals_is_refused_before_babel_makes_its_forms(tmp_path: Path) -> None:
    """Babel made a list of ``nplurals`` forms for every plural message it read:
    ``nplurals=99999999999`` took all the machine's memory before any check ran (300,000 took
    149 MB for the Dutch catalogue's 65 plural messages)."""
    import tracemalloc

    from fivehundred.generator import i18n

    locales, _ = _locales(tmp_path)
    path = i18n.po_path("nl", locales)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    (at,) = [n for n, line in enumerate(lines) if line.startswith('"Plural-Forms:')]
    lines[at] = '"Plural-Forms: nplurals=300000; plural=0;\\n"\n'
    path.write_text("".join(lines), encoding="utf-8")
    tracemalloc.start()
    try:
        with pytest.raises(i18n.CatalogueError) as caught:
            i18n.read_catalog(path, "nl")
        peak = tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()
    assert str(caught.value).endswith(
        f":{at + 1}: Plural-Forms: nplurals=300000 is not from 1 to 10"
    )
    assert peak < 20, f"{peak:.0f} MiB"


@pytest.mark.parametrize("lang", ["../../etc", "", "**", "en", "xx"])
def test_i18n_status_names_no_path_made_of_a_language(
    capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """`--lang ../../etc` once read specs/locales/../../etc/LC_MESSAGES/fivehundred.po."""
    line = refused(capsys, "i18n", "status", "--lang", lang)
    assert line.startswith(f"no catalogue for language {lang!r} (languages: nl, ")


def test_plural_forms_choose_the_forms_of_every_language() -> None:
    """The checked tree gives gettext's forms for the five languages' headers."""
    import gettext

    from fivehundred.generator.i18n import PLURAL_FORMS
    from fivehundred.generator.pluralforms import parse

    for header in PLURAL_FORMS.values():
        ours = parse(header)
        theirs = gettext.c2py(header.split("plural=", 1)[1].rstrip(";"))
        assert [ours(n) for n in range(300)] == [theirs(n) for n in range(300)]


# -- conformance: outside engines and vector files -----------------------------------------------


def _peak_mib(call: Any) -> tuple[Any, float]:
    """What ``call()`` returns and the peak of Python's allocations meanwhile, in MiB."""
    import tracemalloc

    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def test_an_engine_printing_without_newline_is_stopped_at_1_mib(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--engine 'cat /dev/zero'` once grew to 2.7 GB."""
    line, peak = _peak_mib(
        lambda: refused(capsys, "conformance", "australian", "--engine", "cat /dev/zero")
    )
    assert line == "conformance: line 1 of the engine's output is longer than 1048576 bytes"
    assert peak < 100


def test_an_engine_printing_without_end_is_stopped(capsys: pytest.CaptureFixture[str]) -> None:
    (code, out, _), peak = _peak_mib(
        lambda: run(capsys, "conformance", "australian", "--engine", "yes", "--show", "99")
    )
    assert code == 1 and out.rstrip().endswith("0/29 vectors agree")
    assert '(end): lines: expected 29, got "more"' in out
    assert peak < 100


def test_an_engine_printing_invalid_utf8_disagrees(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "engine.py"
    script.write_text(
        "import sys\nfor line in sys.stdin:\n    sys.stdout.buffer.write(b'\\xff{}\\n')\n",
        encoding="utf-8",
    )
    code, out, _ = run(
        capsys, "conformance", "australian", "--engine", f"{sys.executable} {script}"
    )
    assert code == 1
    assert 'line: expected "UTF-8 text", got "byte 0: not UTF-8"' in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--engine", "cat", "--show", "-3"], "--show must be 0 or more, not -3"),
        (["--engine", ""], "--engine is empty"),  # once: no engine run, exit 0
        (["--vectors", ""], "--vectors is empty"),  # once: the built vectors instead
        (["--engine", "echo 'a"], "cannot split the engine command: No closing quotation"),
        (["--engine", "cat", "--timeout", "nan"], "--timeout must be seconds"),
        (["--engine", "cat", "--timeout", "inf"], "not inf"),
        (["--engine", "cat", "--timeout", "1e400"], "not inf"),
        (["--engine", "cat", "--timeout", "0"], "not 0"),
        (["--vectors", "/dev/zero"], "/dev/zero:1: line longer than 1048576 bytes"),
        (["--vectors", "{tmp}/none.jsonl"], "none.jsonl: cannot read"),
    ],
)
def test_conformance_arguments_that_cannot_be_used(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], words: str
) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert words in refused(capsys, "conformance", "australian", *argv)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("[1, 2]", "a JSON list, not an object"),
        ('{"id": "x", "clauses": [], "expect": {}}', "it has no 'record'"),
        ('{"id": "x", "clauses": 5, "record": {}, "expect": {}}', "'clauses' is not a list"),
        ('{"id": 5, "clauses": [], "record": {}, "expect": {}}', "'id' is not a string"),
        ('{"id": "x", "clauses": [], "record": {}, "expect": 1}', "'expect' is not an object"),
        ("{bad json", "bad JSON"),
    ],
)
def test_a_vector_file_line_that_is_no_vector(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str, words: str
) -> None:
    path = tmp_path / "v.jsonl"
    path.write_text('{"header": {"format": 2}}\n\n' + line + "\n", encoding="utf-8")
    got = refused(capsys, "conformance", "australian", "--vectors", str(path))
    assert got.startswith(f"{path}:3:") and words in got


def _many_vectors(path: Path, count: int) -> None:
    """A vector file of ``count`` vectors: the built Australian ones over and over (24 MB for
    20,000)."""
    lines = (ROOT / "generated/conformance/australian.jsonl").read_text("utf-8").splitlines()
    with path.open("w", encoding="utf-8") as handle:
        handle.write(lines[0] + "\n")
        for k in range(count):
            handle.write(lines[1 + k % (len(lines) - 1)] + "\n")


def test_a_vector_file_of_any_size_is_read_a_vector_at_a_time(tmp_path: Path) -> None:
    """20,000 vectors (24 MB) once took 284 MB to count and 370 MB to run an engine over: every
    vector was held in memory, and the engine's every line."""
    vectors = tmp_path / "many.jsonl"
    _many_vectors(vectors, 20_000)
    code, kib, err = peak_kib(tmp_path, "conformance", "australian", "--vectors", str(vectors))
    assert code == 0 and err == "" and kib < 100 * 1024, kib
    code, kib, err = peak_kib(
        tmp_path, "conformance", "australian", "--vectors", str(vectors), "--engine", "cat"
    )
    assert code == 1 and err == "" and kib < 100 * 1024, kib


def test_a_vector_stream_is_read_once_and_its_copy_removed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FIFO cannot be read twice: it is copied to a temporary file as it is checked."""
    import tempfile
    import threading

    engine = f"{sys.executable} -m fivehundred.runtime.adapters.conformance"
    vectors = tmp_path / "v.jsonl"
    _many_vectors(vectors, 100)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    writer = threading.Thread(target=lambda: fifo.write_bytes(vectors.read_bytes()))
    writer.start()
    code, out, err = run(
        capsys, "conformance", "australian", "--vectors", str(fifo), "--engine", engine
    )
    writer.join(30)
    assert code == 0, out + err
    assert out.endswith("100/100 vectors agree\n") and list(temp.iterdir()) == []


def test_an_engine_is_stopped_with_the_processes_it_started(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An engine that left a process holding its output once hung `conformance` past its
    --timeout, for ever (closing a pipe another thread was reading waited for that read)."""
    import time

    marker = tmp_path / "child.pid"
    script = tmp_path / "engine.sh"
    script.write_text(f"#!/bin/sh\nsleep 600 &\necho $! > {marker}\ncat > /dev/null\n")
    script.chmod(0o755)
    start = time.monotonic()
    line = refused(capsys, "conformance", "australian", "--engine", str(script), "--timeout", "2")
    assert line == "conformance: the engine did not finish within 2 s"
    assert time.monotonic() - start < 60
    child = int(marker.read_text())
    for _ in range(100):  # killed with its group; gone once reaped by init
        if not Path(f"/proc/{child}").exists() or "Z" in _state(child):
            break
        time.sleep(0.05)
    else:
        os.kill(child, 9)
        raise AssertionError("the engine's child was left running")


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return "Z"


def test_this_engine_reads_records_as_replay_does(tmp_path: Path) -> None:
    """`python -m fivehundred.runtime.adapters.conformance` once opened a record's variant as a
    path (quoting a YAML file's keys), and JSON nested too deeply gave a traceback that ended
    the stream; a rule file is given with --rules, lines are at most 1 MiB."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n", encoding="utf-8")
    rule_file = tmp_path / "club.yaml"
    rule_file.write_text("extends: australian\nid: club\n", encoding="utf-8")
    good = _record("australian")
    lines = [
        json.dumps(_record(str(secret))),
        "[" * 100_000,
        "x" * (1 << 21),
        json.dumps(_record("club")),
        json.dumps(good),
    ]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fivehundred.runtime.adapters.conformance",
            "--rules",
            str(rule_file),
        ],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0 and done.stderr == ""
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 5 and "password" not in done.stdout
    assert "nor a rule file given with --rules" in answers[0]["error"]["message"]
    assert answers[1]["error"]["message"] == "stdin:2:1: bad JSON: nested too deeply"
    assert answers[2]["error"]["message"] == "stdin:3: line longer than 1048576 bytes"
    assert answers[3]["variant"] == "club" and answers[4]["variant"] == "australian"


# -- balance: workers, chunks, the report folder -------------------------------------------------


@pytest.mark.parametrize("workers", ["99999999999999999999", "1025", "0", "-3"])
def test_balance_workers_out_of_range(capsys: pytest.CaptureFixture[str], workers: str) -> None:
    line = refused(capsys, "balance", "australian", "--games", "2", "--workers", workers)
    assert line == f"--workers must be from 1 to 1024, not {workers}"


def test_balance_never_forks_more_workers_than_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--workers 1000` for 4 games once forked 1,000 processes."""
    from fivehundred.runtime.loading import load_rules
    from fivehundred.runtime.studies import balance

    asked: list[int] = []
    real = balance._run_processes

    def spy(studies: Any, jobs: Any, workers: int) -> Any:
        asked.append(workers)
        return real(studies, jobs, workers)

    monkeypatch.setattr(balance, "_run_processes", spy)
    (study,) = balance.run_study([load_rules("australian")], 2, workers=1000)
    assert study.tally.games == 2 and asked == [2]


def test_balance_lists_no_chunks_up_front() -> None:
    """`--games 100000000` once took 841 MB before the first game: the chunks are computed."""
    from fivehundred.runtime.studies import balance

    jobs = balance._Jobs(2, 10**8, 25)
    (first, peak) = _peak_mib(lambda: next(iter(jobs)))
    assert first == (0, 0, 25) and jobs[4 * 10**6] == (1, 0, 25) and peak < 1
    assert jobs[4 * 10**6 - 1] == (0, 10**8 - 25, 10**8)


def test_balance_checks_out_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivehundred.runtime.cli import balancecli

    def no_games(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the games were played before --out was checked")

    monkeypatch.setattr(balancecli, "run_study", no_games)
    (tmp_path / "file").write_text("x", encoding="utf-8")
    out = tmp_path / "file" / "report"
    line = refused(capsys, "balance", "australian", "--games", "2", "--out", str(out))
    assert line == f"--out {out}: {tmp_path / 'file'} is not a folder"
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "report.json").write_text("{}", encoding="utf-8")
    assert "was not written by fivehundred balance" in refused(
        capsys, "balance", "australian", "--games", "2", "--out", str(mine)
    )


def test_balance_out_keeps_the_mode_of_the_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "report"
    argv = ["balance", "australian", "--games", "2", "--workers", "1", "--out", str(out)]
    assert run(capsys, *argv)[0] == 0
    (out / "report.json").chmod(0o600)
    assert run(capsys, *argv)[0] == 0
    assert stat.S_IMODE((out / "report.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((out / "report.md").stat().st_mode) == 0o644


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", "australian", "--hands", "2", "--records", ""], "is empty"),
        (["docs", "australian", "-o", ""], "the name of the file to write is empty"),
        (["new", "xx", "--extends", "australian", "-o", ""], "is empty"),
        (["balance", "australian", "--games", "2", "--out", ""], "--out is empty"),
        (["balance", "australian", "--games", "2", "--max-hands", "0"], "not 0"),
        (["simulate", "australian", "--hands", "2", "--bots", ""], "'': unknown bot"),
        (["play", "australian", "--bots", ""], "'': unknown bot"),
        (["bench", "--hands", "10", "--variants", ""], "names no variant"),
        (["bench", "--hands", "10", "--variants", ",,"], "names no variant"),
    ],
    ids=lambda a: "-".join(a[:1] + a[-2:-1]) if isinstance(a, list) else None,
)
def test_an_empty_or_zero_argument_is_refused_not_ignored(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    words: str,
) -> None:
    """Each was once read as "not given": `--records ''` wrote no records and exited 0,
    `--out ''` wrote the report into the current folder, `-o ''` wrote NAME.yaml there,
    `--max-hands 0` and `--bots ''` took the defaults."""
    monkeypatch.chdir(tmp_path)
    assert words in refused(capsys, *argv)
    assert list(tmp_path.iterdir()) == []


# -- progress: a real carriage return on a terminal, plain lines elsewhere ------------------------


class _Tty:
    """Standard error as a terminal, recording what is written."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        """Nothing buffered."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "australian", "--hands", "1000", "--bots", "random", "--no-check"],
        ["duel", "australian", "random", "random", "--games", "2"],
        ["balance", "australian", "--games", "2", "--workers", "1", "--bots", "random"],
    ],
    ids=lambda a: a[0],
)
def test_progress_bar_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    tty = _Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    assert main(argv) == 0
    capsys.readouterr()
    assert "\r" in tty.text and "\\x0d" not in tty.text and tty.text.endswith("\n")


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "australian", "--hands", "1000", "--bots", "random", "--no-check"],
        ["duel", "australian", "random", "random", "--games", "2"],
        ["balance", "australian", "--games", "2", "--workers", "1", "--bots", "random"],
    ],
    ids=lambda a: a[0],
)
def test_progress_off_a_terminal_is_plain_lines(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 0 and "\r" not in err and "\\x0d" not in err


# -- play, simulate --records: endless input, FIFOs, signals -------------------------------------


def test_play_reads_at_most_1_mib_a_line(tmp_path: Path) -> None:
    """`play < /dev/zero` once grew to 2 GB."""
    with open("/dev/zero", "rb") as zero:
        code, kib, err = peak_kib(tmp_path, "play", "australian", stdin=zero)
    assert code == 2 and err == "play: a line of standard input is longer than 1048576 characters"
    assert kib < 100 * 1024


def test_play_from_a_pipe_plays_the_moves_given(tmp_path: Path) -> None:
    done = cli("play", "australian", "--seed", "1", input="pass\npass\npass\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert done.stdout.count(" > ") >= 2  # the move given was read and the game went on


def test_records_to_a_fifo_nobody_reads(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`simulate --records FIFO` with no reader once blocked for ever."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    line = refused(capsys, "simulate", "australian", "--hands", "3", "--records", str(fifo))
    assert line == f"{fifo}: cannot write: no process is reading this FIFO (start the reader first)"


def test_records_to_a_fifo_with_a_reader(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # three records fit the pipe's buffer
    try:
        code, _, err = run(capsys, "simulate", "australian", "--hands", "3", "--records", str(fifo))
        assert code == 0, err
        data = os.read(reader, 1 << 20)
    finally:
        os.close(reader)
    assert len(data.splitlines()) == 3 and json.loads(data.splitlines()[0])["variant"]


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_signal_during_simulate_records_removes_the_temporary(
    tmp_path: Path, signame: str
) -> None:
    """SIGTERM or SIGHUP once left a 393 MB temporary beside the records."""
    import signal
    import time

    out = tmp_path / "out.jsonl"
    out.write_text("old\n", encoding="utf-8")
    proc = subprocess.Popen(
        [*CLI, "simulate", "australian", "--hands", "10000000", "--records", str(out)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(600):
            if len(list(tmp_path.iterdir())) > 1:
                break
            time.sleep(0.05)
        assert len(list(tmp_path.iterdir())) == 2  # the temporary is being written
        proc.send_signal(getattr(signal, signame))
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + getattr(signal, signame)
    assert err.strip() == "terminated"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]
    assert out.read_text(encoding="utf-8") == "old\n"


# -- PYTHONIOENCODING=ascii ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["list"],
        ["docs", "australian", "--lang", "ar"],
        ["balance", "australian", "--games", "2", "--workers", "1"],
        ["show", "misere-230"],
    ],
    ids=lambda a: a[0],
)
def test_an_ascii_terminal(argv: list[str]) -> None:
    done = subprocess.run(
        [*CLI, *argv],
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        input=b"",
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    if argv[0] == "docs":  # a document stays UTF-8
        assert "القواعد".encode() in done.stdout or done.stdout.decode("utf-8")
    else:
        done.stdout.decode("ascii")


def test_play_on_an_ascii_terminal() -> None:
    done = subprocess.run(
        [*CLI, "play", "misere-230", "--seed", "2"],
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        input=b"pass\n",
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr


# -- catalogue text is text ----------------------------------------------------------------------


def _translate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, msgid: str, msgstr: str) -> Path:
    """A copy of the catalogues with the Dutch ``msgid`` translated as ``msgstr``, in use."""
    from babel.messages.pofile import read_po, write_po

    from fivehundred.generator import i18n

    locales, _ = _locales(tmp_path)
    path = i18n.po_path("nl", locales)
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="nl")
    catalog[msgid].string = msgstr
    with path.open("wb") as handle:
        write_po(handle, catalog, width=79)
    monkeypatch.setattr(i18n, "LOCALES_DIR", locales)
    return path


HOSTILE_MSGSTR = (
    'De eerste gever <script>alert(1)</script><img src=x onerror="alert(2)"> & co'
    "\x1b[31m\x07\u202egesloten."
)


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_a_translators_markup_is_text_in_the_books(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """A translator's `<script>` once went raw into the Markdown books, and ESC, BEL and U+202E
    into both formats."""
    _translate(tmp_path, monkeypatch, "The first dealer is chosen at random.", HOSTILE_MSGSTR)
    out = tmp_path / f"book.{fmt}"
    code, _, err = run(
        capsys, "docs", "australian", "--lang", "nl", "--format", fmt, "-o", str(out)
    )
    assert code == 0, err
    book = out.read_text(encoding="utf-8")
    assert "De eerste gever &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x" in book
    assert "<script" not in book and "<img" not in book
    for char in "\x1b\x07\u202e":
        assert char not in book
    assert "[31mgesloten." in book


def test_a_translators_markdown_is_text_in_the_markdown_book(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A translation's `[link](javascript:…)`, remote `![image](…)`, emphasis, code span and
    table bar were once markup in the Markdown book (only < > & were escaped); the format
    fields of a plural message still fill in."""
    from babel.messages.pofile import read_po, write_po

    from fivehundred.generator import i18n

    hostile = "[click](javascript:alert(1)) ![x](http://evil.example/t.png) *em* __b__ `c` | ~s~"
    path = _translate(tmp_path, monkeypatch, "The first dealer is chosen at random.", hostile)
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="nl")
    catalog["Each player receives %(count)s card."].string = (
        "Elke [speler](x:y) krijgt %(count)s kaart.",
        "Elke *speler* krijgt %(count)s kaarten.",
    )
    with path.open("wb") as handle:
        write_po(handle, catalog, width=79)
    assert i18n.po_path("nl") == path
    out = tmp_path / "book.md"
    code, _, err = run(capsys, "docs", "australian", "--lang", "nl", "-o", str(out))
    assert code == 0, err
    book = out.read_text(encoding="utf-8")
    assert (
        r"\[click\](javascript:alert(1)) !\[x\](http://evil.example/t.png) \*em\* \_\_b\_\_ "
        r"\`c\` \| \~s\~"
    ) in book
    assert r"Elke \*speler\* krijgt 10 kaarten." in book
    assert "](javascript:" not in book.replace(r"\](javascript:", "")


def test_a_positional_placeholder_in_a_msgstr_is_a_catalogue_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`%s` once passed every check and rendered as `{}`."""
    path = _translate(
        tmp_path, monkeypatch, "The first dealer is chosen at random.", "De gever is %s."
    )
    line = refused(capsys, "docs", "australian", "--lang", "nl")
    assert line.startswith(str(path).split("/locales/")[0]) or "fivehundred.po:" in line
    assert "positional placeholder(s) ['%s'] that the English does not have" in line
    code, _, err = run(capsys, "i18n", "status", "--lang", "nl")
    assert code == 2 and "positional placeholder(s) ['%s']" in err


# -- the interchange, versioned --------------------------------------------------------------------


def test_the_conformance_header_names_the_formats_it_is_built_on() -> None:
    from fivehundred.runtime.adapters.conformance import FORMAT
    from fivehundred.runtime.engine.records import RECORD_FORMAT

    for path in sorted((ROOT / "generated" / "conformance").glob("*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            header = json.loads(handle.readline())["header"]
        tables = json.loads((ROOT / "generated/json" / f"{path.stem}.json").read_text("utf-8"))
        assert header["format"] == FORMAT == 2
        assert header["tables_format"] == tables["format"]
        assert header["record_format"] == RECORD_FORMAT


def test_the_schema_allows_every_misere_partner_the_tables_use() -> None:
    """`ladder[].partner` uses `plays`, which `play.misere_partner` once did not allow."""
    schema = json.loads((ROOT / "generated/json/ruleset.schema.json").read_text("utf-8"))
    text = json.dumps(schema)
    assert '"plays"' in text

    def enums(node: Any, path: str = "") -> dict[str, list[Any]]:
        found: dict[str, list[Any]] = {}
        if isinstance(node, dict):
            if "enum" in node:
                found[path] = node["enum"]
            for key, value in node.items():
                found.update(enums(value, f"{path}/{key}"))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                found.update(enums(value, f"{path}/{i}"))
        return found

    from typing import get_args

    from fivehundred.runtime.engine import tableformat as tf

    partner_enums = [e for p, e in enums(schema).items() if "misere_partner" in p]
    assert partner_enums == [list(get_args(tf.BidPartner))]
    spec = json.loads((ROOT / "specs/schema/variant.schema.json").read_text("utf-8"))
    rule_file = spec["properties"]["play"]["properties"]["misere_partner"]["enum"]
    assert rule_file == list(get_args(tf.MiserePartner))
    assert set(rule_file) < set(partner_enums[0])
    import jsonschema

    for path in sorted((ROOT / "generated/json").glob("*.json")):
        if path.name != "ruleset.schema.json":
            jsonschema.validate(json.loads(path.read_text("utf-8")), schema)


def test_the_schema_names_every_clause_an_illegal_action_cites() -> None:
    """The schema's order of checks once said a non-card action in play cites
    `play.follow-suit` (it cites `play.opening-lead` or `play.next-lead` at a lead) and did not
    know `redeal`: every clause any built-in vector expects an error to cite is named there,
    and so is the null clause of a malformed action."""
    schema = json.loads((ROOT / "generated/json/ruleset.schema.json").read_text("utf-8"))
    text = schema["properties"]["clauses"]["description"]
    cited, bids = set(), set()  # bids: a waiting bid's own clause, "the bid's `clause`"
    for path in (ROOT / "generated" / "conformance").glob("*.jsonl"):
        tables = json.loads((ROOT / "generated/json" / f"{path.stem}.json").read_text("utf-8"))
        bids |= {b["clause"] for b in tables["ladder"] if b["after_bid_of"]}
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            error = json.loads(line)["expect"].get("error")
            if error and error["clause"]:
                cited.add(error["clause"])
    cited -= bids
    assert {"play.opening-lead", "play.next-lead", "auction.no-ace-no-face"} <= cited
    assert [c for c in sorted(cited) if f"`{c}`" not in text] == []
    assert "`play.opening-lead` at the opening lead, `play.next-lead` at a later lead" in text
    assert "cites no clause (null)" in text and "is the left bower or a joker" in text


# -- each documented rule of INTERCHANGE.md, as a vector run through the protocol ---------------

_BID = ["6S", "pass", "pass", "pass"]  # seat 1 bids 6S (dealer 0), seat 1 then holds the kitty
_DISCARD = [*_BID, "discard 5C 9C 7H"]
#: (the actions after the deal of seed 3, the documented error: index, action, clause), each a
#: sentence of specs/INTERCHANGE.md ("Which clause an illegal action cites").
DOCUMENTED: list[tuple[list[Any], tuple[int, Any, str | None]]] = [
    ([*_DISCARD, "take"], (5, "take", "play.opening-lead")),
    ([*_DISCARD, "8S", "pass"], (6, "pass", "play.follow-suit")),
    (["th"], (0, "10H", "auction.order")),
    (["7h", "6s"], (1, "6S", "auction.higher")),
    ([*_BID, "discard 5c 9c"], (4, "discard 5c 9c", "kitty.take")),  # several cards: raw
    ([*_BID, "discard 4d"], (4, "discard 4D", "kitty.take")),
    ([*_BID, "discard 4D 5D"], (4, "discard 4D 5D", "kitty.take")),
    ([*_BID, "discard 4D"], (4, "discard 4D", "kitty.take")),
    ([*_BID, "discard 5C", "discard 9C 7H", "XX"], (6, "XX", None)),
    ([*_DISCARD, "8S:H"], (5, "8S:H", None)),
    ([*_BID, "discard 5C 5C 9C"], (4, "discard 5C 5C 9C", None)),
    ([*_BID, "discard"], (4, "discard", None)),
    ([*_BID, "discard 2C 9C 7H"], (4, "discard 2C 9C 7H", None)),
    ([*_BID, "partner 9"], (4, "partner 9", None)),
    ([*_BID, 5], (4, 5, None)),
    (["pass", "pass", "pass", "pass", "6s"], (4, "6s", "end.continue")),
]


def test_each_documented_rule_is_what_the_engine_does_through_the_protocol() -> None:
    """The vectors of the documented rules, run through `python -m ...conformance` (this
    engine speaking the protocol), agree with what INTERCHANGE.md says; and the next lead's
    clause is `play.next-lead`."""
    from fivehundred.runtime.adapters.api import load
    from fivehundred.runtime.adapters.conformance import run_engine

    record = load("australian").new_hand(seed=3).record()
    vectors = []
    for n, (actions, (index, action, clause)) in enumerate(DOCUMENTED):
        expect = {"error": {"index": index, "action": action, "clause": clause, "message": ""}}
        vectors.append(
            {"id": f"doc/{n}", "clauses": [], "record": {**record, "actions": actions},
             "expect": expect}
        )  # fmt: skip
    # the next lead: play out the first trick, then lead with a non-card
    state = load("australian").new_hand(seed=3)
    for text in _DISCARD:
        state.apply(text)
    while len(state.record()["actions"]) < len(_DISCARD) + 4:
        state.apply(state.legal_actions()[0])
    actions = [*_DISCARD, *(str(a) for a in state.record()["actions"][len(_DISCARD) :]), "take"]
    expect = {"error": {"index": len(actions) - 1, "action": "take", "clause": "play.next-lead"}}
    vectors.append({"id": "doc/next-lead", "clauses": [], "expect": expect,
                    "record": {**record, "actions": actions}})  # fmt: skip
    vectors.extend(_bower_vectors())
    vectors.extend(_nothing_but_jokers_vectors())
    engine = f"{sys.executable} -m fivehundred.runtime.adapters.conformance"
    assert run_engine(engine, vectors) == []


def _bower_vectors() -> list[dict[str, Any]]:
    """INTERCHANGE.md: "bowers or jokers" in the left-bower rule means the left bower. Hearts
    are trumps and led; seat 2's one trump is the right bower (a heart as printed: a spade is
    `play.follow-suit`), the left bower (`trump.left-bower`) or the joker (`joker.trump`)."""
    spades = split_codes("5S 6S 7S 8S 9S 10S JS QS KS")
    out = []
    for trump, kitty, clause in (
        ("JH", ["JD", "AD", "JK"], "play.follow-suit"),
        ("JD", ["JH", "AD", "JK"], "trump.left-bower"),
        ("JK", ["JH", "JD", "AD"], "joker.trump"),
    ):
        hands = [
            split_codes("AC 4D 5D 6D 7D 8D 9D 10D QD KD"),
            split_codes("4H 5H 6H 7H 8H 9H 10H QH KH AH"),
            [trump, *spades],
            split_codes("AS 5C 6C 7C 8C 9C 10C JC QC KC"),
        ]
        actions = ["6H", "pass", "pass", "pass", "discard AD 4H 5H", "AH", "5S"]
        record = {"format": 1, "variant": "australian", "dealer": 0, "scores": [0, 0],
                  "deal": {"hands": hands, "kitty": kitty}, "actions": actions}  # fmt: skip
        expect = {"error": {"index": 6, "action": "5S", "clause": clause, "message": ""}}
        out.append({"id": f"doc/bower-{trump}", "clauses": [], "record": record, "expect": expect})
    return out


def _nothing_but_jokers_vectors() -> list[dict[str, Any]]:
    """INTERCHANGE.md: once all four suits are led, a joker is led only to the last trick,
    "unless its holder has nothing else" (nothing but jokers). In australian-46 (two jokers)
    the contractor at no trumps leads and wins eight tricks of all four suits: before the
    eighth, holding KH too, `JK:S` is `joker.no-trumps.last-trick`; after it, holding the two
    jokers alone, `JK:S` is legal."""
    from fivehundred.runtime.adapters.api import load
    from fivehundred.runtime.adapters.conformance import expected_output

    game = load("australian-46")
    one = split_codes("AS KS AC KC AD KD AH KH JK BJ")
    kitty = split_codes("4S 4C 4D 4H 5S 5C")
    rest = [c for c in game.deck if c not in one + kitty]
    record = {"format": 1, "variant": "australian-46", "dealer": 0, "scores": [0, 0],
              "deal": {"hands": [rest[:10], one, rest[10:20], rest[20:]], "kitty": kitty},
              "actions": ["6NT", "pass", "pass", "pass", "discard " + " ".join(kitty)]}  # fmt: skip
    out = []
    for tricks in (7, 8):
        state = game.from_record(record)
        for lead in one[:tricks]:  # his top cards: he wins every trick and leads the next
            state.apply(lead)
            for _ in range(3):
                state.apply(state.legal_actions()[0])
        played = {**record, "actions": [*state.record()["actions"], "JK:S"]}
        if tricks == 7:
            error = {"index": 33, "action": "JK:S", "clause": "joker.no-trumps.last-trick"}
            expect: dict[str, Any] = {"error": {**error, "message": ""}}
        else:
            expect = expected_output(played)
            assert "error" not in expect and expect["hand"]["tricks_by_side"] == [0, 8]
        out.append({"id": f"doc/jokers-{tricks}", "clauses": [], "record": played,
                    "expect": expect})  # fmt: skip
    return out


# -- serve: the tables' database, HTTP and WebSocket input ---------------------------------------


def test_serve_refuses_a_database_it_cannot_use(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`serve --db FOLDER`, a device or a file that is no database once gave a traceback."""
    garbage = tmp_path / "tables.db"
    garbage.write_text("not a database, a letter\n" * 100, encoding="utf-8")
    before = garbage.read_bytes()
    for db, words in (
        (str(tmp_path), "not a file"),
        ("/dev/null", "not a file"),
        (str(garbage), "cannot keep the tables there: file is not a database"),
    ):
        line = refused(capsys, "serve", "--port", "0", "--db", db)
        assert line.startswith(f"{db}: ") and words in line
    assert garbage.read_bytes() == before
