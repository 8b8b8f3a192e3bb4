"""Tests of located JSON-Schema diagnostics (fivehundred.generator.schemacheck)."""

from __future__ import annotations

from typing import Any

import pytest

from fivehundred.generator.schemacheck import check_schema, show_value
from fivehundred.generator.yamlload import load_yaml
from fivehundred.runtime.engine.errors import Diagnostic

SPECIAL: dict[str, Any] = {
    "type": "object",
    "x-clause": "auction.special",
    "properties": {
        "name": {"type": "string", "pattern": "^[a-z]+$"},
        "value": {"type": "integer", "minimum": 6, "maximum": 1000, "x-clause": "auction.value"},
    },
    "required": ["name", "value"],
    "additionalProperties": False,
}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {"special": SPECIAL},
    "type": "object",
    "required": ["id"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "minLength": 2, "maxLength": 12},
        "players": {"type": "integer", "exclusiveMinimum": 2, "exclusiveMaximum": 7},
        "auction": {
            "type": "object",
            "x-clause": "auction",
            "additionalProperties": False,
            "properties": {
                "raise_own_bid": {"type": "boolean"},
                "kitty_rule": {"enum": ["throw-in", "no-trumps"]},
                "step": {"type": "number", "multipleOf": 10},
                "ladder": {
                    "type": "object",
                    "properties": {
                        "special": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 3,
                            "items": {"$ref": "#/$defs/special"},
                        }
                    },
                },
            },
        },
        "suits": {"type": "array", "uniqueItems": True},
        "kind": {"const": "trick-taking"},
        "names": {"type": "object", "propertyNames": {"pattern": "^[A-Z]+$"}},
        "code": {"type": "string", "pattern": "^[0-9]+$", "x-message": "code must be digits"},
        "bonus": {
            "oneOf": [
                {"type": "integer"},
                {
                    "type": "object",
                    "properties": {"points": {"type": "integer"}},
                    "required": ["points"],
                },
            ]
        },
        "either": {"anyOf": [{"type": "integer"}, {"type": "array"}]},
        "tags": {"type": "object", "minProperties": 1, "maxProperties": 2},
        "never": {"not": {"type": "string"}},
    },
}


def check(text: str, schema: dict[str, Any] | None = None) -> list[Diagnostic]:
    data, marks = load_yaml(text, "v.yaml")
    return check_schema(data, marks, SCHEMA if schema is None else schema)


def one(text: str, schema: dict[str, Any] | None = None) -> Diagnostic:
    found = check("id: ok\n" + text, schema)
    assert len(found) == 1, found
    return found[0]


def test_valid_document_has_no_diagnostics() -> None:
    assert (
        check("id: ok\nauction:\n  ladder:\n    special:\n      - {name: mis, value: 250}\n") == []
    )


def test_unknown_key_with_suggestion_at_key_position() -> None:
    assert one("auction:\n  raise_own_bids: true\n") == Diagnostic(
        "v.yaml",
        3,
        3,
        "unknown key 'raise_own_bids' in auction; did you mean 'raise_own_bid'?",
        "auction",
    )


def test_unknown_top_level_key() -> None:
    assert one("playrs: 4\n") == Diagnostic(
        "v.yaml", 2, 1, "unknown key 'playrs' at the top level; did you mean 'players'?"
    )
    assert one("zzz: 4\n").message == (
        f"unknown key 'zzz' at the top level; the keys allowed here are: {TOP_KEYS}"
    )


def test_several_unknown_keys_each_reported() -> None:
    found = check("id: ok\nauction:\n  foo: 1\n  bar: 2\n")
    assert [(d.line, d.col, d.message) for d in found] == [
        (3, 3, f"unknown key 'foo' in auction; the keys allowed here are: {AUCTION_KEYS}"),
        (4, 3, f"unknown key 'bar' in auction; the keys allowed here are: {AUCTION_KEYS}"),
    ]


#: The keys of the test schema at the top level and in ``auction``, as an unknown key lists them.
TOP_KEYS = "auction, bonus, code, either, id, kind, names, never, players, suits, tags"
AUCTION_KEYS = "kitty_rule, ladder, raise_own_bid, step"


def test_a_key_of_another_place_says_where_it_belongs() -> None:
    """Issue 17 §5: a key written at the wrong level gets the place it belongs, not the list."""
    assert (
        one("ladder: {}\n").message
        == "unknown key 'ladder' at the top level; 'ladder' belongs under auction"
    )


def test_enum_with_suggestion_at_value_position() -> None:
    assert one("auction:\n  kitty_rule: no-trump\n") == Diagnostic(
        "v.yaml",
        3,
        15,
        "'no-trump' is not one of: throw-in, no-trumps; did you mean 'no-trumps'?",
        "auction",
    )
    assert one("auction:\n  kitty_rule: sometimes\n").message == (
        "'sometimes' is not one of: throw-in, no-trumps"
    )


def test_type_messages() -> None:
    special = "auction:\n  ladder:\n    special:\n      - {name: mis, value: ten}\n"
    assert one(special) == Diagnostic(
        "v.yaml", 5, 28, "expected an integer, got 'ten'", "auction.value"
    )
    assert one("players: [1]\n").message == "expected an integer, got a list"
    assert one("auction:\n  raise_own_bid: no\n").message == "expected true or false, got 'no'"
    assert one("auction: 5\n").message == "expected a mapping, got 5"
    assert one("auction:\n  step: null\n").message == "expected a number, got null"


def test_required_at_mapping_position() -> None:
    text = (
        "auction:\n  ladder:\n    special:\n"
        "      - {name: a, value: 6}\n      - {name: b, value: 7}\n      - name: c\n"
    )
    assert one(text) == Diagnostic(
        "v.yaml", 7, 9, "missing key 'value' in auction.ladder.special[2]", "auction.value"
    )
    assert check("players: 4\n") == [
        Diagnostic("v.yaml", 1, 1, "missing key 'id' at the top level")
    ]


def test_numeric_limits() -> None:
    special = "auction:\n  ladder:\n    special:\n      - {name: mis, value: %s}\n"
    assert one(special % "5").message == "5 is less than the minimum of 6"
    assert one(special % "5000").message == "5000 is greater than the maximum of 1000"
    assert one("players: 2\n").message == "2 must be greater than 2"
    assert one("players: 7\n").message == "7 must be less than 7"
    assert one("auction:\n  step: 15\n").message == "15 is not a multiple of 10"


def test_string_limits_and_pattern() -> None:
    found = check("id: x\n")
    assert found == [Diagnostic("v.yaml", 1, 5, "'x' is shorter than 2 characters")]
    found = check("id: abcdefghijklmnop\n")
    assert [d.message for d in found] == ["'abcdefghijklmnop' is longer than 12 characters"]
    special = "auction:\n  ladder:\n    special:\n      - {name: Mis, value: 7}\n"
    assert one(special) == Diagnostic(
        "v.yaml", 5, 16, "'Mis' does not match the pattern ^[a-z]+$", "auction.special"
    )


def test_x_message_replaces_generated_text() -> None:
    assert one("code: '12a'\n").message == "code must be digits"


def test_item_and_property_counts() -> None:
    assert one("auction:\n  ladder:\n    special: []\n") == Diagnostic(
        "v.yaml", 4, 14, "expected at least 1 items, got 0", "auction"
    )
    many = "auction:\n  ladder:\n    special:\n" + "      - {name: a, value: 7}\n" * 4
    assert one(many).message == "expected at most 3 items, got 4"
    assert one("suits: [S, H, S]\n").message == "duplicate item 'S' in the list"
    assert one("tags: {}\n").message == "expected at least 1 keys, got 0"
    assert one("tags: {a: 1, b: 2, c: 3}\n").message == "expected at most 2 keys, got 3"


def test_const_and_not() -> None:
    assert one("kind: trick\n").message == "expected 'trick-taking', got 'trick'"
    assert one("never: text\n").message == "'text' is not allowed here"


def test_property_names_reported_at_key() -> None:
    assert one("names:\n  ABC: 1\n  abc: 2\n") == Diagnostic(
        "v.yaml", 4, 3, "invalid key 'abc' in names: 'abc' does not match the pattern ^[A-Z]+$"
    )


def test_one_of_reports_best_match_only() -> None:
    assert one("bonus: {points: many}\n") == Diagnostic(
        "v.yaml", 2, 17, "expected an integer, got 'many'"
    )
    assert one("bonus: text\n").message == "expected an integer or a mapping, got 'text'"
    assert one("either: {a: 1}\n").message == "expected an integer or a list, got a mapping"


def test_all_errors_sorted_and_deduplicated() -> None:
    found = check("players: x\nauction:\n  kitty_rule: 3\nzzz: 1\n")
    assert [(d.line, d.message) for d in found] == [
        (1, "missing key 'id' at the top level"),
        (1, "expected an integer, got 'x'"),
        (3, "3 is not one of: throw-in, no-trumps"),
        (4, f"unknown key 'zzz' at the top level; the keys allowed here are: {TOP_KEYS}"),
    ]
    assert found == sorted(found)


def test_draft07_schema_with_definitions_ref_and_clause() -> None:
    schema: dict[str, Any] = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"count": {"type": "integer", "x-clause": "deal.count"}},
        "type": "object",
        "properties": {
            "deal": {"type": "object", "properties": {"n": {"$ref": "#/definitions/count"}}}
        },
    }
    data, marks = load_yaml("deal:\n  n: lots\n", "d7.yaml")
    assert check_schema(data, marks, schema) == [
        Diagnostic("d7.yaml", 2, 6, "expected an integer, got 'lots'", "deal.count")
    ]


def test_diagnostics_follow_marks_into_other_files() -> None:
    from fivehundred.generator.resolve import merge

    base, bmarks = load_yaml("id: ok\nplayers: many\n", "base.yaml")
    child, cmarks = load_yaml("auction: {}\n", "child.yaml")
    data, marks = merge(base, bmarks, child, cmarks)
    assert check_schema(data, marks, SCHEMA) == [
        Diagnostic("base.yaml", 2, 10, "expected an integer, got 'many'")
    ]


@pytest.mark.parametrize(
    ("value", "shown"),
    [("ten", "'ten'"), (True, "true"), (None, "null"), (7, "7"), ({}, "a mapping"), ([], "a list")],
)
def test_show_value(value: object, shown: str) -> None:
    assert show_value(value) == shown


# -- the quick verdict on valid data (generator/quickschema.py) -------------------------------


def _jsonschema_valid(data: object, schema: dict[str, Any]) -> bool:
    from jsonschema import Draft202012Validator
    from jsonschema.validators import validator_for

    from fivehundred.generator.schemacheck import _strict_patterns

    cls = _strict_patterns(validator_for(schema, default=Draft202012Validator))
    return bool(cls(schema).is_valid(data))


def _builtin_documents() -> list[tuple[str, dict[str, Any]]]:
    from fivehundred.generator.pipeline import VARIANTS_DIR
    from fivehundred.generator.resolve import load_spec_file

    return [
        (path.stem, load_spec_file(path, VARIANTS_DIR).data)
        for path in sorted(VARIANTS_DIR.rglob("*.yaml"))
    ]


def test_every_builtin_rule_file_is_valid_without_jsonschema() -> None:
    from fivehundred.generator.pipeline import complete_schema
    from fivehundred.generator.quickschema import valid

    for name, data in _builtin_documents():
        assert valid(data, complete_schema()) is True, name
        assert _jsonschema_valid(data, complete_schema()), name


_ODD_VALUES: tuple[object, ...] = (
    None, True, False, 0, -1, 1.5, 2.0, 10**6, "", "x", "ZZ", "MIS", "7NT\n", [], {}, [1, 1],
    ["S", "S"], {"bogus": 1}, {"bid": "MIS"},
)  # fmt: skip


def _paths(node: object, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*path, i))
    return out


def _mutated(data: dict[str, Any], rng: Any) -> dict[str, Any]:
    import copy

    doc = copy.deepcopy(data)
    path = rng.choice(_paths(doc)[1:])
    parent: Any = doc
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    move = rng.randrange(5)
    if move == 0 and isinstance(parent, dict):
        del parent[last]  # a key left out
    elif move == 1 and isinstance(parent, dict):
        parent[last + "_x"] = parent[last]  # an unknown key
    elif move == 2 and isinstance(parent, list):
        parent.append(parent[last])  # an item twice
    else:
        parent[last] = rng.choice(_ODD_VALUES)  # a value of another type, range or form
    return doc


def test_the_quick_verdict_agrees_with_jsonschema_on_broken_rule_files() -> None:
    """Thousands of rule files, each broken in one place (a value of the wrong type or out of
    range, a key left out or unknown, an item twice): wherever the quick walk gives a verdict,
    it is jsonschema's; it gives one for most of them."""
    import random

    from fivehundred.generator.pipeline import complete_schema
    from fivehundred.generator.quickschema import valid

    rng = random.Random(500)
    schema = complete_schema()
    docs = _builtin_documents()
    decided = invalid = 0
    for _ in range(1500):
        name, data = rng.choice(docs)
        doc = _mutated(data, rng)
        verdict = valid(doc, schema)
        if verdict is None:
            continue
        decided += 1
        invalid += not verdict
        assert verdict == _jsonschema_valid(doc, schema), (name, doc)
    assert decided > 1200 and invalid > 600


@pytest.mark.parametrize(
    ("schema", "data"),
    [
        ({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}, {}),
        ({"type": "object", "patternProperties": {"^a": {}}}, {"a": 1}),
        ({"type": "array", "contains": {"type": "integer"}}, [1]),
        ({"$ref": "other.json#/x"}, 1),
        ({"enum": [[1, 2]]}, [1, 2]),
        ({"type": "string"}, __import__("datetime").date(2026, 1, 1)),
    ],
)
def test_the_quick_walk_leaves_what_it_does_not_know_to_jsonschema(
    schema: dict[str, Any], data: object
) -> None:
    from fivehundred.generator.quickschema import valid

    assert valid(data, schema) is None
