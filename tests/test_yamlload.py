"""Tests of strict YAML loading with positions (fivehundred.generator.yamlload)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivehundred.generator.yamlload import (
    MAX_BYTES,
    MAX_DEPTH,
    Mark,
    Marks,
    load_yaml,
    render_path,
)
from fivehundred.runtime.engine.errors import Diagnostic, SpecError


def load(text: str | bytes) -> dict[str, object]:
    data, _ = load_yaml(text, "v.yaml")
    return data


def only_error(text: str | bytes) -> Diagnostic:
    with pytest.raises(SpecError) as info:
        load_yaml(text, "v.yaml")
    assert len(info.value.diagnostics) == 1, info.value.diagnostics
    return info.value.diagnostics[0]


# -- scalars -----------------------------------------------------------------------------------


def test_yaml_11_booleans_stay_strings() -> None:
    data = load("a: yes\nb: no\nc: on\nd: off\ne: y\nf: n\ng: Yes\nh: NO\n")
    assert data == {
        "a": "yes",
        "b": "no",
        "c": "on",
        "d": "off",
        "e": "y",
        "f": "n",
        "g": "Yes",
        "h": "NO",
    }


def test_core_schema_scalars() -> None:
    data = load(
        "t1: true\nt2: True\nt3: TRUE\nf1: false\nf2: False\nf3: FALSE\n"
        "n1: null\nn2: ~\nn3:\nn4: Null\n"
        "i1: 10\ni2: -7\ni3: 0x1F\ni4: 0o17\ni5: +3\ni6: 017\n"
        "x1: 1.5\nx2: 2e3\nx3: .5\nx4: -.inf\nx5: .NaN\nx6: 1.\n"
        "s1: 1_000\ns2: 0b101\ns3: 12:30\ns4: 0x\ns5: tRUE\ns6: '10'\ns7: \"true\"\n"
        "s8: |\n  block\n"
    )
    assert data["t1"] is True and data["t2"] is True and data["t3"] is True
    assert data["f1"] is False and data["f2"] is False and data["f3"] is False
    assert data["n1"] is None and data["n2"] is None and data["n3"] is None and data["n4"] is None
    assert [data[f"i{i}"] for i in range(1, 7)] == [10, -7, 31, 15, 3, 17]
    assert all(type(data[f"i{i}"]) is int for i in range(1, 7))
    assert data["x1"] == 1.5 and data["x2"] == 2000.0 and data["x3"] == 0.5
    assert data["x4"] == -math.inf
    x5 = data["x5"]
    assert isinstance(x5, float) and math.isnan(x5)
    assert data["x6"] == 1.0
    assert [data[f"s{i}"] for i in range(1, 8)] == [
        "1_000",
        "0b101",
        "12:30",
        "0x",
        "tRUE",
        "10",
        "true",
    ]
    assert data["s8"] == "block\n"


def test_standard_tags() -> None:
    data = load("a: !!str 10\nb: !!int '7'\nc: !!float 3\nd: !!bool true\ne: !!null ''\nf: ! 5\n")
    assert data == {"a": "10", "b": 7, "c": 3.0, "d": True, "e": None, "f": "5"}
    assert type(data["c"]) is float
    assert load("m: !!map {a: 1}\ns: !!seq [1]\n") == {"m": {"a": 1}, "s": [1]}


@pytest.mark.parametrize(
    ("text", "message", "col"),
    [
        ("a: !!binary aGk=\n", "unsupported tag '!!binary'", 4),
        ("a: !foo x\n", "unsupported tag '!foo'", 4),
        ("a: !!python/object:os.system x\n", "unsupported tag '!!python/object:os.system'", 4),
        ("a: !!set {x: null}\n", "unsupported tag '!!set'", 4),
        ("a: !!int ten\n", "'ten' is not a valid !!int", 4),
        ("a: !!map [1]\n", "tag '!!map' cannot be used on a list", 4),
        ("a: !!str [1]\n", "tag '!!str' cannot be used on a list", 4),
    ],
)
def test_tags_refused(text: str, message: str, col: int) -> None:
    diag = only_error(text)
    assert diag.message.startswith(message), diag.message
    assert (diag.file, diag.line, diag.col) == ("v.yaml", 1, col)


def test_huge_decimal_integer_is_an_error_not_a_crash() -> None:
    diag = only_error("a: " + "9" * 5000 + "\n")
    assert "too large" in diag.message


# -- keys --------------------------------------------------------------------------------------


def test_keys_are_always_source_text() -> None:
    data = load("10: a\n6: b\ntrue: c\nnull: d\n0x10: e\n1.5: f\n'q': g\n")
    assert data == {
        "10": "a",
        "6": "b",
        "true": "c",
        "null": "d",
        "0x10": "e",
        "1.5": "f",
        "q": "g",
    }
    assert all(type(k) is str for k in data)


def test_duplicate_key_points_at_second_with_first_line() -> None:
    diag = only_error("a: 1\nb:\n  x: 1\n  y: 2\n  x: 3\n")
    assert diag == Diagnostic("v.yaml", 5, 3, "duplicate key 'x' (first at line 3)")


def test_all_duplicate_keys_reported() -> None:
    with pytest.raises(SpecError) as info:
        load_yaml("a: 1\na: 2\nb: 1\nb: 2\n", "v.yaml")
    assert [(d.line, d.message) for d in info.value.diagnostics] == [
        (2, "duplicate key 'a' (first at line 1)"),
        (4, "duplicate key 'b' (first at line 3)"),
    ]


def test_non_scalar_keys_refused() -> None:
    diag = only_error("? [a, b]\n: 1\n")
    assert diag.message == "mapping keys must be plain text, not a list"
    assert (diag.line, diag.col) == (1, 3)
    assert only_error("{a: 1}: 2\n").message == "mapping keys must be plain text, not a mapping"


def test_merge_key_is_just_a_string() -> None:
    assert load("a: &x {b: 1}\n<<: *x\n") == {"a": {"b": 1}, "<<": {"b": 1}}


# -- documents ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the file is empty; expected a mapping of settings"),
        ("# only a comment\n", "the file is empty; expected a mapping of settings"),
        ("- a\n- b\n", "expected a mapping at the top level, got a list"),
        ("just text\n", "expected a mapping at the top level, got a scalar"),
        ("---\n...\n", "expected a mapping at the top level, got an empty document"),
    ],
)
def test_top_level_must_be_a_mapping(text: str, message: str) -> None:
    assert only_error(text).message == message


def test_second_document_refused() -> None:
    diag = only_error("a: 1\n---\nb: 2\n")
    assert (diag.line, diag.col) == (2, 1)
    assert "single YAML document" in diag.message


def test_syntax_error_position_and_problem() -> None:
    diag = only_error("a: 1\nb: [1, 2\nc: 3\n")
    assert diag.file == "v.yaml"
    assert (diag.line, diag.col) == (3, 2)
    assert diag.message.startswith("YAML syntax error: ")
    assert "',' or ']'" in diag.message  # libyaml's (or PyYAML's) own problem text
    diag = only_error("a: 1\n b: 2\n")
    assert diag.line == 2
    assert "mapping values are not allowed" in diag.message


def test_undefined_alias() -> None:
    diag = only_error("a: *nope\n")
    assert diag.message == "undefined alias '*nope'"
    assert (diag.line, diag.col) == (1, 4)


# -- limits ------------------------------------------------------------------------------------

BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_alias_bomb_refused() -> None:
    assert len(BILLION_LAUGHS) < 400
    diag = only_error(BILLION_LAUGHS)
    assert diag.message == "too many nodes (alias expansion?)"


def test_moderate_aliases_allowed_and_copied() -> None:
    data = load("base: &b {x: [1, 2]}\nuse: *b\n")
    assert data == {"base": {"x": [1, 2]}, "use": {"x": [1, 2]}}
    assert data["base"] is not data["use"]


def test_too_many_plain_nodes() -> None:
    text = "a: [" + ", ".join(["1"] * 20_001) + "]\n"
    assert only_error(text).message == "too many nodes (alias expansion?)"


@pytest.mark.parametrize("text", ["a: &a [*a]\n", "a: &a {b: *a}\n", "&a [x, *a]\n"])
def test_recursive_alias_refused(text: str) -> None:
    assert only_error(text).message == "recursive alias '*a'"


def test_nesting_limit() -> None:
    ok = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    load(ok)
    diag = only_error("a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n")
    assert diag.message == f"nesting deeper than {MAX_DEPTH} levels"
    assert (diag.line, diag.col) == (1, 3 + MAX_DEPTH)


def test_very_deep_nesting_does_not_crash() -> None:
    # Refused either by our depth limit or by libyaml's own (newer libyaml stops first).
    diag = only_error("a: " + "[" * 500_000)
    message = diag.message
    assert ("nesting" in message and "depth" in message) or "nesting deeper" in message


def test_nesting_through_aliases_counts() -> None:
    inner = "[" * 30 + "]" * 30
    text = f"a: &x {inner}\nb: " + "[" * 25 + "*x" + "]" * 25 + "\n"
    assert "nesting deeper" in only_error(text).message


def test_size_cap_before_parsing() -> None:
    big = "a: '" + "x" * MAX_BYTES + "'\n"
    assert "larger than" in only_error(big).message
    assert "larger than" in only_error(big.encode()).message
    # many multi-byte characters: fewer characters than bytes
    assert "larger than" in only_error("a: " + "é" * (MAX_BYTES // 2 + 1)).message


def test_bad_utf8() -> None:
    diag = only_error(b"a: 1\nb: caf\xe9\n")
    assert diag.message == "file is not valid UTF-8 (byte 0xe9 at offset 11)"
    assert (diag.line, diag.col) == (2, 7)


def test_unpaired_surrogate_in_text() -> None:
    assert "surrogate" in only_error("a: \ud800\n").message


def test_control_character() -> None:
    diag = only_error("é: 1\nb: x\x01\n")
    assert (diag.line, diag.col) == (2, 5)
    assert diag.message.startswith("invalid character (#x0001): ")


def test_bytes_and_bom() -> None:
    assert load("a: é\n".encode()) == {"a": "é"}
    assert load(b"\xef\xbb\xbfa: 1\n") == {"a": 1}


# -- marks -------------------------------------------------------------------------------------

MARKED = """\
id: demo
auction:
  ladder:
    special:
      - {name: misere, value: 250}
      - name: open
        value: 500
  flag: no
"""


def test_marks_of_nested_keys_and_values() -> None:
    data, marks = load_yaml(MARKED, "m.yaml")
    assert data["auction"] == {
        "ladder": {"special": [{"name": "misere", "value": 250}, {"name": "open", "value": 500}]},
        "flag": "no",
    }
    assert marks.value(()) == (1, 1)
    assert marks.value(("id",)) == (1, 5)
    assert marks.key(("id",)) == (1, 1)
    assert marks.key(("auction",)) == (2, 1)
    assert marks.value(("auction",)) == (3, 3)
    assert marks.value(("auction", "ladder", "special")) == (5, 7)
    assert marks.value(("auction", "ladder", "special", 0)) == (5, 9)
    assert marks.key(("auction", "ladder", "special", 0, "value")) == (5, 24)
    assert marks.value(("auction", "ladder", "special", 0, "value")) == (5, 31)
    assert marks.value(("auction", "ladder", "special", 1)) == (6, 9)
    assert marks.key(("auction", "ladder", "special", 1, "value")) == (7, 9)
    assert marks.value(("auction", "ladder", "special", 1, "value")) == (7, 16)
    assert marks.key(("auction", "flag")) == (8, 3)
    assert marks.value_mark(("auction", "flag")) == Mark("m.yaml", 8, 9)
    assert marks.file(("auction", "flag")) == "m.yaml"


def test_marks_fall_back_to_nearest_ancestor() -> None:
    _, marks = load_yaml(MARKED, "m.yaml")
    assert marks.value(("auction", "ladder", "special", 1, "missing", 3)) == (6, 9)
    assert marks.value(("nowhere", "at", "all")) == (1, 1)
    # a list item has no key: key() gives the item's own position
    assert marks.key(("auction", "ladder", "special", 1)) == (6, 9)
    # a missing key falls back to the parent entry's key
    assert marks.key(("auction", "nothing")) == (2, 1)
    assert not marks.has(("auction", "nothing"))
    assert marks.has(("auction", "flag"))


def test_marks_through_aliases() -> None:
    _, marks = load_yaml("a: &x\n  b: 1\nc: *x\n", "m.yaml")
    assert marks.value(("c",)) == (3, 4)  # the alias itself
    assert marks.value(("c", "b")) == (2, 6)  # content: where it is written
    assert marks.key(("c", "b")) == (2, 3)


def test_marks_diagnostic_helper() -> None:
    _, marks = load_yaml(MARKED, "m.yaml")
    diag = marks.diagnostic(("auction", "flag"), "bad", clause="x.y")
    assert diag == Diagnostic("m.yaml", 8, 9, "bad", "x.y")
    assert marks.diagnostic(("auction", "flag"), "bad", at_key=True).col == 3
    empty = Marks("e.yaml")
    assert empty.value(("a",)) == (1, 1) and empty.file(()) == "e.yaml"


def test_columns_count_characters() -> None:
    _, marks = load_yaml("é: [ñ, x]\n", "m.yaml")
    assert marks.value(("é", 1)) == (1, 8)


def test_render_path() -> None:
    assert render_path(("auction", "ladder", "special", 2, "value")) == (
        "auction.ladder.special[2].value"
    )
    assert render_path(()) == ""
    assert render_path(("deck", "suits", "S", 0)) == "deck.suits.S[0]"
    assert render_path(("a", "b c")) == 'a["b c"]'


# -- fuzz --------------------------------------------------------------------------------------

YAMLISH = st.text(
    alphabet=st.sampled_from([*"ab:- \n\t[]{},'\"&*!|>?#%@`~\\0x1.", "\x01", "é", "\ud800"]),
    max_size=200,
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), YAMLISH))
def test_fuzz_text_only_spec_errors(text: str) -> None:
    try:
        data, marks = load_yaml(text, "fuzz.yaml")
    except SpecError as exc:
        assert exc.diagnostics
        assert all(d.line >= 1 and d.col >= 1 for d in exc.diagnostics)
    else:
        assert isinstance(data, dict)
        assert isinstance(marks, Marks)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_bytes_only_spec_errors(raw: bytes) -> None:
    try:
        data, _ = load_yaml(raw, "fuzz.yaml")
    except SpecError as exc:
        assert exc.diagnostics
    else:
        assert isinstance(data, dict)


@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ("players: 4\nauction:\n\tladder: 1\n", 3, 1),  # a tab indents a key
        ("a:\n  b:\n  \tc: 1\n", 3, 3),  # spaces then a tab
        ("special:\n\t- {bid: MIS}\n", 2, 1),  # a tab indents a list item
    ],
)
def test_tabs_are_named_as_tabs(text: str, line: int, col: int) -> None:
    """A tab in the indentation is reported as a tab at its own column, not as the scanner's
    "found character that cannot start any token"."""
    d = only_error(text)
    assert (d.line, d.col) == (line, col)
    assert "a tab character here" in d.message and "spaces" in d.message
    assert "cannot start any token" not in d.message


def test_tabs_inside_values_and_as_separators_are_fine() -> None:
    assert load('name: "a\tb"\nplayers:\t4\n') == {"name": "a\tb", "players": 4}
