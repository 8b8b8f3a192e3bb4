"""Hostile input: rule files that attack the loader, and text that attacks the generators.

- YAML attacks go through `fivehundred validate` end to end: each is refused (exit 2, one
  ``file:line:col: message`` line per problem, never a traceback or a hang) or read safely.
- Any string a rule author writes reaches the generated Python only as a literal: a property test
  feeds hostile strings through every text field of a ruleset, compiles and executes the
  generated module and compares its ``TABLES``, and renders the Markdown rule book with the
  string escaped.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fivehundred.generator.docs import md_text, render_markdown
from fivehundred.generator.model import Ruleset
from fivehundred.generator.newvariant import yaml_scalar
from fivehundred.generator.pipeline import compile_spec, find_spec
from fivehundred.generator.render import render_json, render_module
from fivehundred.generator.yamlload import MAX_BYTES, MAX_DEPTH
from fivehundred.runtime.cli.main import main
from fivehundred.runtime.engine.errors import SpecError
from fivehundred.runtime.engine.tableformat import Choice, Tables

LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")


def validate(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, list[dict[str, str]]]:
    """Run `fivehundred validate --quiet PATH`; the exit code and the parsed stderr lines."""
    code = main(["validate", "--quiet", str(path)])
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    parsed = []
    for line in lines:
        match = LINE.match(line)
        assert match, f"not file:line:col: message: {line!r}"
        assert match["file"] == str(path)
        parsed.append(match.groupdict())
    return code, parsed


def refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: str | bytes, *words: str
) -> dict[str, str]:
    """``data`` as a rule file is refused with one line that says every word."""
    path = tmp_path / "attack.yaml"
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    code, lines = validate(capsys, path)
    assert code == 2
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0]["message"], lines[0]
    return lines[0]


# -- YAML that attacks ---------------------------------------------------------------------------

#: 9 ** 9 (387 420 489) strings if expanded: the classic "billion laughs", 320 bytes or less.
BOMB = "\n".join(
    ["a: &a [l,l,l,l,l,l,l,l,l]"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)]
)


def test_the_alias_bomb_is_small() -> None:
    assert len(BOMB.encode()) <= 320


def test_alias_bomb_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "fivehundred.runtime.cli.main", "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert proc.returncode == 2
    (line,) = proc.stderr.splitlines()
    assert re.match(rf"^{re.escape(str(path))}:\d+:\d+: too many nodes", line), line


def test_recursive_alias(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    refused(capsys, tmp_path, "id: x\nname: &a [1, *a]\n", "recursive alias")


def test_oversized_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = b"id: big\n" + b"# padding\n" * (MAX_BYTES // 10 + 1)
    line = refused(capsys, tmp_path, data, f"larger than {MAX_BYTES} bytes")
    assert (line["line"], line["col"]) == ("1", "1")


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_deep_flow_nesting(capsys: pytest.CaptureFixture[str], tmp_path: Path, depth: int) -> None:
    # libyaml's own limit (1000 flow levels) may speak first: either way one clear line
    refused(capsys, tmp_path, "id: x\nname: " + "[" * depth + "]" * depth + "\n", "nesting")


def test_deep_block_nesting(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = "id: x\n" + "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 5))
    refused(capsys, tmp_path, text, f"nesting deeper than {MAX_DEPTH} levels")


def test_duplicate_keys_are_all_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text(
        "extends: australian\nplayers: 4\nauction:\n  raise_own_bid: true\n"
        "  raise_own_bid: false\nplayers: 5\n",
        encoding="utf-8",
    )
    code, lines = validate(capsys, path)
    assert code == 2
    assert [(x["line"], x["col"]) for x in lines] == [("5", "3"), ("6", "1")]
    assert lines[0]["message"] == "duplicate key 'raise_own_bid' (first at line 4)"
    assert lines[1]["message"] == "duplicate key 'players' (first at line 2)"


def test_yaml_1_1_booleans_stay_strings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "words.yaml"
    path.write_text(
        "extends: australian\nname: no\nsummary: on\nsources: [yes, no, on, off, y, n]\n",
        encoding="utf-8",
    )
    code, lines = validate(capsys, path)
    assert (code, lines) == (0, [])
    rs = compile_spec(path)
    assert (rs.name, rs.summary, rs.sources) == ("no", "on", ("yes", "no", "on", "off", "y", "n"))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("deal: {first_dealer: on}\n", ["'on' is not one of: random, draw"]),
        ("kitty: {take: yes}\n", ["expected true or false, got 'yes'"]),
        ("end: {must_bid_to_win: no}\n", ["expected true or false, got 'no'"]),
        ("terms: {kitty: yes}\n", ["'yes' is not one of: kitty, widow"]),
    ],
)
def test_yaml_1_1_booleans_where_a_flag_is_meant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, words: list[str]
) -> None:
    line = refused(capsys, tmp_path, "extends: australian\n" + text, *words)
    assert line["line"] == "2"


def test_an_open_misere_written_no_is_read_safely(tmp_path: Path) -> None:
    path = tmp_path / "open.yaml"
    path.write_text(
        "extends: australian\nauction:\n  ladder:\n    special:\n"
        "      - {bid: MIS, value: 250, above: 7NT, open: no}\n",
        encoding="utf-8",
    )
    assert compile_spec(path).bid("MIS")["open"] == "no"


def test_python_tags_are_refused_and_never_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    marker = tmp_path / "pwned"
    text = f'id: x\nname: !!python/object/apply:os.system ["touch {marker}"]\n'
    refused(capsys, tmp_path, text, "unsupported tag '!!python/object/apply:os.system'")
    assert not marker.exists()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"id: x\nname: caf\xe9\n", ["not valid UTF-8", "0xe9"]),
        (b"id: x\nname: a\x00b\n", ["invalid character", "#x0000"]),
        ('id: x\nname: "\\ud800"\n', ["invalid Unicode character escape"]),
        ("", ["the file is empty"]),
        ("- a\n- b\n", ["expected a mapping at the top level, got a list"]),
        ("id: x\n---\nid: y\n", ["a single YAML document"]),
        ("id: x\nname: [a\n", ["YAML syntax error"]),
        ("id: x\n\tname: y\n", ["a tab character here", "spaces only"]),
        ("id: x\n[a]: 1\n", ["mapping keys must be plain text"]),
        ("id: x\nplayers: " + "9" * 5000 + "\n", ["is too large"]),
        ("id: x\nname: *nothing\n", ["undefined alias"]),
    ],
)
def test_broken_files_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: str | bytes, words: list[str]
) -> None:
    refused(capsys, tmp_path, data, *words)


def test_a_byte_order_mark_and_crlf_are_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "windows.yaml"
    path.write_bytes(b"\xef\xbb\xbfextends: australian\r\nname: Windows\r\n")
    assert validate(capsys, path) == (0, [])
    assert compile_spec(path).name == "Windows"


def test_a_fifo_or_folder_is_not_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    code, lines = validate(capsys, folder)
    assert code == 2 and lines[0]["message"] == "no such rule file"


# -- generation that cannot be subverted ---------------------------------------------------------

PIECES = [
    '"',
    "'",
    '"""',
    "'''",
    "\\",
    "\\\\",
    "\n",
    "\r\n",
    "\x00",
    "\x1b[31m",
    "\t",
    "\u202e",
    "\u202d",
    "\u2066",
    "\u2067",
    "\u2069",
    "\u200f",
    "\u2028",
    "\u2029",
    "\x85",
    "\ufeff",
    "\ud800",
    "\udfff",
    "\U0001f0cf",
    "é",
    "ك",
    "{{ 7 * 7 }}",
    "{% if true %}x{% endif %}",
    "{# c #}",
    "{{",
    "}}",
    "{%",
    "%}",
    "\\N{BULLET}",
    "\\x41",
    "\\u0041",
    "%s",
    "%(name)s",
    "{0}",
    "${x}",
    "__import__('os').system('x')",
    "');import os#",
    '"+"',
    "\\'",
    '\\"',
    "<script>alert(1)</script>",
    "</a>",
    "<!--",
    "&amp;",
    "`",
    "``",
    "*",
    "_",
    "[x](y)",
    "#",
    "|",
    "~",
    "- ",
    "1. ",
    "> ",
    "---",
    "===",
]

HOSTILE = st.lists(st.sampled_from(PIECES) | st.text(max_size=6), min_size=1, max_size=8).map(
    "".join
)


@pytest.fixture(scope="module")
def australian() -> Ruleset:
    return compile_spec(find_spec("australian"))


def _hostile_ruleset(rs: Ruleset, texts: list[str]) -> Ruleset:
    name, summary, source, text, extends = texts[:5]
    choices: list[Choice] = [
        *rs.choices,
        {"clause": "deck.cards", "source": source, "text": text},
        {"clause": "end.lose", "source": text, "text": name},
    ]
    tables: Tables = {
        **rs.tables,
        "name": name,
        "summary": summary,
        "sources": [source, text, "G"],
        "choices": choices,
        "extends": extends,
    }
    return Ruleset(tables, rs.differences)


def _printable_text(text: str) -> bool:
    return all(ch.isprintable() or ch == "\n" for ch in text)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(HOSTILE, min_size=6, max_size=6))
@example(texts=['"""', "'''\n", "\\", "\x00\u202e", "{{ x }}{% y %}", "\\N{BULLET}"])
def test_hostile_text_reaches_generated_python_only_as_literals(
    australian: Ruleset, texts: list[str]
) -> None:
    rs = _hostile_ruleset(australian, texts)
    source_path = texts[5]
    module_text = render_module(rs, source_path)
    assert _printable_text(module_text), "raw control or bidi characters in generated code"
    code = compile(module_text, "<generated>", "exec")
    namespace: dict[str, Any] = {}
    exec(code, namespace)
    assert namespace["TABLES"] == rs.tables
    assert namespace["SOURCE"] == source_path
    tables = namespace["TABLES"]
    assert tables["name"] == texts[0] and tables["summary"] == texts[1]
    assert tables["sources"] == [texts[2], texts[3], "G"]
    assert tables["extends"] == texts[4]
    assert tables["choices"][-2:] == [
        {"clause": "deck.cards", "source": texts[2], "text": texts[3]},
        {"clause": "end.lose", "source": texts[3], "text": texts[0]},
    ]
    names = {k for k in namespace if not k.startswith("__")}
    assert names == {"FORMAT", "VARIANT", "SOURCE", "TABLES"}


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(HOSTILE, min_size=6, max_size=6))
def test_hostile_text_is_escaped_in_the_rule_book(australian: Ruleset, texts: list[str]) -> None:
    # the benign twin: plain words where the hostile text shows anything, else the same
    twins = ["word" if md_text(t) else t for t in texts]
    benign = render_markdown(_hostile_ruleset(australian, twins), "en")
    book = render_markdown(_hostile_ruleset(australian, texts), "en")
    for text in texts[:5]:
        assert md_text(text) in book
    assert book.count("\n") == benign.count("\n"), "author text added or removed lines"
    for ch in "<>":
        assert book.count(ch) == benign.count(ch), f"raw {ch!r} from author text"
    assert book.splitlines()[0] == ("# " + md_text(texts[0])).rstrip()
    assert json.loads(render_json(_hostile_ruleset(australian, texts)))["name"] == texts[0]


def test_the_rule_book_holds_no_raw_control_or_bidi_characters(australian: Ruleset) -> None:
    book = render_markdown(_hostile_ruleset(australian, ["a\x00\x1b\u202eb\u2066c"] * 6), "en")
    bad = re.findall("[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]", book)
    assert bad == []


def _yaml_texts() -> st.SearchStrategy[str]:
    # YAML carries every character but surrogates (refused as escapes) and the BOM (dropped)
    return HOSTILE.map(
        lambda s: "".join(ch for ch in s if not 0xD800 <= ord(ch) <= 0xDFFF and ch != "\ufeff")
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(_yaml_texts(), min_size=4, max_size=4))
@example(texts=["A\n", "no", "x: y #z", "\x00\u202e\x85\u2028"])
def test_hostile_text_survives_a_rule_file(tmp_path_factory: Any, texts: list[str]) -> None:
    """The same strings written into a YAML rule file, compiled and generated."""
    name, summary, source, text = texts
    path = tmp_path_factory.mktemp("hostile") / "house.yaml"
    path.write_text(
        "extends: australian\n"
        f"name: {yaml_scalar(name)}\n"
        f"summary: {yaml_scalar(summary)}\n"
        f"sources: [{yaml_scalar(source)}]\n"
        "choices:\n"
        f"  - {{clause: deck.cards, source: {yaml_scalar(source)}, text: {yaml_scalar(text)}}}\n",
        encoding="utf-8",
    )
    try:
        rs = compile_spec(path)
    except SpecError as exc:  # only empty names, sources and texts are refused (minLength 1)
        assert "" in (name, source, text), exc
        assert all("is shorter than 1 characters" in d.message for d in exc.diagnostics), exc
        return
    assert (rs.name, rs.summary, rs.sources) == (name, summary, (source,))
    # Merged with the base's choices (by clause) and listed in rule-book order: deck.cards first.
    assert rs.choices[0] == {"clause": "deck.cards", "source": source, "text": text}
    namespace: dict[str, Any] = {}
    exec(compile(render_module(rs, str(path)), str(path), "exec"), namespace)
    assert namespace["TABLES"]["name"] == name
    assert namespace["TABLES"]["choices"][0]["text"] == text
    render_markdown(rs, "en")


def test_an_id_with_a_trailing_newline_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "nl.yaml"
    path.write_text('id: "our-club\\n"\nextends: australian\n', encoding="utf-8")
    with pytest.raises(SpecError):
        compile_spec(path)
