"""The JSON Schemas of a variant rule file and of the exported ruleset tables."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from fivehundred.generator.clauses import CLAUSE_IDS
from fivehundred.generator.model import build_ruleset
from fivehundred.generator.options import variant_schema_text, with_defaults
from fivehundred.generator.tableschema import ruleset_schema as ruleset_schema_of_the_types
from fivehundred.runtime.engine.tableformat import NO_DEFAULT, OPTIONS, Option

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_DIR = ROOT / "specs" / "schema"
VARIANTS = ROOT / "specs" / "variants"
AUSTRALIAN = VARIANTS / "australian.yaml"

COMBINATORS = ("anyOf", "oneOf", "allOf", "prefixItems")


def load_schema(name: str) -> dict[str, Any]:
    if (
        name == "ruleset.schema.json"
    ):  # derived from runtime/engine/tableformat.py, never hand-written
        return ruleset_schema_of_the_types()
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def variant_schema() -> dict[str, Any]:
    return load_schema("variant.schema.json")


@pytest.fixture(scope="module")
def ruleset_schema() -> dict[str, Any]:
    return load_schema("ruleset.schema.json")


@pytest.fixture
def australian() -> dict[str, Any]:
    return yaml.safe_load(AUSTRALIAN.read_text(encoding="utf-8"))


def errors(schema: dict[str, Any], doc: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in Draft202012Validator(schema).iter_errors(doc)
    ]


def subschemas(node: Any, path: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object below ``node`` (properties, $defs, items, combinator branches)."""
    if not isinstance(node, dict):
        return
    for key in ("properties", "$defs"):
        for name, sub in node.get(key, {}).items():
            yield f"{path}/{key}/{name}", sub
            yield from subschemas(sub, f"{path}/{key}/{name}")
    if isinstance(node.get("items"), dict):
        yield f"{path}/items", node["items"]
        yield from subschemas(node["items"], f"{path}/items")
    for key in COMBINATORS:
        for i, sub in enumerate(node.get(key, [])):
            yield f"{path}/{key}/{i}", sub
            yield from subschemas(sub, f"{path}/{key}/{i}")


def variant_files_without_extends() -> list[Path]:
    out = []
    for path in sorted(VARIANTS.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "extends" not in data:
            out.append(path)
    return out


# -- both schemas ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["variant.schema.json", "ruleset.schema.json"])
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("name", ["variant.schema.json", "ruleset.schema.json"])
def test_every_object_is_closed(name: str) -> None:
    schema = load_schema(name)
    nodes = [("#", schema), *subschemas(schema)]
    for path, node in nodes:
        if node.get("type") == "object" or "properties" in node:
            assert node.get("additionalProperties") is False, path


@pytest.mark.parametrize("name", ["variant.schema.json", "ruleset.schema.json"])
def test_every_property_and_definition_has_title_and_description(name: str) -> None:
    schema = load_schema(name)
    assert schema.get("title") and schema.get("description")
    for path, node in [("#", schema), *subschemas(schema)]:
        if set(node) == {"$ref"}:
            continue  # a bare reference takes the title of its definition
        assert isinstance(node.get("title"), str) and node["title"].strip(), f"{path}: title"
        assert isinstance(node.get("description"), str) and node["description"].strip(), (
            f"{path}: description"
        )


@pytest.mark.parametrize("name", ["variant.schema.json", "ruleset.schema.json"])
def test_defaults_and_examples_are_valid(name: str) -> None:
    schema = load_schema(name)
    for path, node in subschemas(schema):
        own = {k: v for k, v in node.items() if k not in ("default", "examples")}
        own["$defs"] = schema.get("$defs", {})
        samples = ([node["default"]] if "default" in node else []) + node.get("examples", [])
        for sample in samples:
            assert not errors(own, sample), f"{path}: {sample!r}"


def test_variant_schema_uses_only_editor_friendly_keywords(variant_schema: dict) -> None:
    text = json.dumps(variant_schema)
    for keyword in ('"if"', '"then"', '"else"', '"dependentSchemas"', '"dependentRequired"'):
        assert keyword not in text


# -- variant.schema.json --------------------------------------------------------------------


def test_clause_references_are_clause_ids(variant_schema: dict) -> None:
    cited = [n["x-clause"] for _, n in subschemas(variant_schema) if "x-clause" in n]
    assert cited, "no x-clause at all"
    assert set(cited) <= set(CLAUSE_IDS)
    choice = variant_schema["$defs"]["choice"]["properties"]["clause"]
    assert choice["enum"] == list(CLAUSE_IDS)


@pytest.mark.parametrize(
    "path", variant_files_without_extends(), ids=lambda p: str(p.relative_to(VARIANTS))
)
def test_builtin_variant_files_validate(variant_schema: dict, path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert not errors(variant_schema, data)


def test_australian_is_among_the_checked_files() -> None:
    assert AUSTRALIAN in variant_files_without_extends()


def test_a_partial_file_with_extends_validates(variant_schema: dict) -> None:
    doc = {"id": "no-raise", "extends": "australian", "auction": {"raise_own_bid": False}}
    assert not errors(variant_schema, doc)
    doc["extends"] = "../house/ours.yaml"
    assert not errors(variant_schema, doc)
    doc["extends"] = "/abs/ours.yml"
    assert errors(variant_schema, doc)


@pytest.mark.parametrize(
    ("where", "key", "value"),
    [
        (("auction",), "raise_own_bids", True),  # misspelt key
        ((), "player", 4),
        (("deck",), "joker", ["JK"]),
        (("scoring", "slam"), "values", 250),
        (("auction", "ladder", "special", 0), "avaliable", "any-time"),
        (("play", "joker", "no_trumps"), "nominated", "contractor"),
    ],
)
def test_misspelt_key_fails(
    variant_schema: dict, australian: dict, where: tuple, key: str, value: Any
) -> None:
    node = australian
    for step in where:
        node = node[step]
    node[key] = value
    found = errors(variant_schema, australian)
    assert found and any(key in e for e in found)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("auction", "procedure"), "american"),
        (("auction", "all_pass"), "redeal-by-dealer"),
        (("play", "misere_partner"), "sits_out"),
        (("play", "joker", "no_trumps", "lead"), "any"),
        (("terms", "kitty"), "blind"),
        (("deal", "first_dealer"), "lowest"),
        (("deck", "jokers"), ["JK", "WJ"]),
        (("deck", "suits", "S"), [5, 6, "X"]),
        (("deck", "suits", "S"), [1, 4]),
        (("auction", "ladder", "strains"), ["S", "N"]),
        (("auction", "ladder", "special", 1, "open"), "yes"),
        (("auction", "ladder", "special", 0, "bid"), "mis"),
        (("auction", "ladder", "special", 0, "available"), "after-7"),
        (("scoring", "failed"), "zero"),
        (("end", "both_out"), "everyone"),
        (("teams",), "pairs"),
        (("teams",), 4),
        (("players",), 7),
        (("id",), "Australian"),
        (("choices", 0, "clause"), "auction.blind"),
    ],
)
def test_bad_value_fails(variant_schema: dict, australian: dict, path: tuple, value: Any) -> None:
    node = australian
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    assert errors(variant_schema, australian)


def test_every_documented_option_is_expressible(variant_schema: dict) -> None:
    """A three/five-handed house file using the options beyond the Australian game."""
    doc = {
        "id": "house",
        "extends": "australian",
        "terms": {"kitty": "widow", "misere": "nullo", "joker": "bird"},
        "players": 5,
        "teams": "none",
        "partner": {"call": "card", "second_partner_at": 8},
        "deck": {"suits": {"S": ["4", "T", 11, "13", "A"], "D": []}, "jokers": ["RJ", "BJ"]},
        "deal": {
            "first_dealer": "draw",
            "dead_hand": 10,
            "packets": [{"to": "players", "cards": 10}, {"to": "dead", "cards": 10}],
        },
        "auction": {
            "procedure": "single-round",
            "all_pass": "no-trumps",
            "all_pass_per_trick": 10,
            "inkles": {"bidders": 2, "level": 6},
            "sans_kitty": {"bonus": 0},
            "ladder": {
                "special": [
                    {"bid": "MIS", "value": 230, "above": "7NT", "open": False},
                    {
                        "bid": "OMIS",
                        "value": 430,
                        "above": "9NT",
                        "open": "from-start",
                        "available": {"after_bid_of": 8},
                    },
                    {"bid": "DMIS", "value": 500, "above": "10H", "partner": "plays"},
                ]
            },
        },
        "play": {
            "misere_partner": "both-hands",
            "joker": {"no_trumps": {"void_must_play": "always", "lead_only_last_trick": True}},
        },
        "scoring": {
            "formula": {"first": {"S": 40, "C": 60, "D": 80, "H": 100, "NT": 120}, "step": 100},
            "overtricks": 10,
            "opponents_freeze_at": 480,
            "opponent_tricks": "own",
        },
        "end": {
            "must_bid_to_win": False,
            "both_out": "first-by-trick",
            "lose_at": -500,
            "out_backwards": "cannot-win",
        },
    }
    assert not errors(variant_schema, doc)
    doc["teams"] = [[0, 2, 4], [1, 3, 5]]
    assert not errors(variant_schema, doc)


@pytest.mark.parametrize(
    "opt",
    [o for o in OPTIONS if o.table_keys is not None and o.default is not NO_DEFAULT],
    ids=lambda o: o.path,
)
def test_registry_defaults_reach_the_tables(australian: dict, opt: Option) -> None:
    """A file that leaves an option out plays with the registry's default: the defaults pass
    fills it, the model compiles it (every option with a field of its own in the tables)."""
    parent = australian
    for key in opt.keys[:-1]:
        parent = parent.setdefault(key, {})
    parent.pop(opt.keys[-1], None)
    value: Any = build_ruleset(with_defaults(australian)).tables
    for key in opt.table_keys:
        value = value[key]
    assert value == opt.default


@pytest.mark.parametrize("opt", OPTIONS, ids=lambda o: o.path)
def test_registry_default_is_a_value_of_the_option(variant_schema: dict, opt: Option) -> None:
    node: Any = variant_schema
    for key in opt.keys:
        node = node["properties"][key]
    if opt.default is NO_DEFAULT:
        assert "default" not in node
        return
    assert node["default"] == opt.default
    assert not errors({**node, "$defs": variant_schema["$defs"]}, opt.default)


def test_the_committed_schema_is_the_registry_s(variant_schema: dict) -> None:
    """specs/schema/variant.schema.json is written by `fivehundred build` from the registry."""
    assert (SCHEMA_DIR / "variant.schema.json").read_text(encoding="utf-8") == (
        variant_schema_text()
    )


# -- ruleset.schema.json --------------------------------------------------------------------


@pytest.fixture
def tables(australian: dict) -> dict[str, Any]:
    # Through JSON, as an engine in another language reads it.
    return json.loads(json.dumps(build_ruleset(with_defaults(australian)).tables))


def test_australian_tables_validate(ruleset_schema: dict, tables: dict) -> None:
    assert not errors(ruleset_schema, tables)


def test_ruleset_schema_names_every_exported_key(ruleset_schema: dict, tables: dict) -> None:
    assert set(ruleset_schema["required"]) <= set(tables)
    assert set(tables) <= set(ruleset_schema["properties"])
    clause = ruleset_schema["properties"]["clauses"]["items"]["properties"]["id"]
    assert clause["enum"] == list(CLAUSE_IDS)


def _set(doc: dict, path: tuple, value: Any) -> None:
    for key in path[:-1]:
        doc = doc[key]
    doc[path[-1]] = value


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("players",), "4"),  # a string where an int belongs
        (("deal", "hand_size"), 10.5),
        (("extra",), 1),  # an extra key
        (("deal", "packets_total"), 43),
        (("ladder", 0, "strain"), "S"),
        (("ladder", 0, "kind"), "trump"),
        (("ladder", 0, "bonus"), 0),
        (("strains", 4, "suit_of", 0), 5),
        (("strains", 0, "trump"), 4),
        (("deck", 0), "5X"),
        (("card_suit", 0), 4),
        (("format",), 1),  # FORMAT 2 added `derived`: an engine must refuse what it does not know
        (("derived", "suit_masks", 0, 0), -1),
        (("derived", "suit_masks", 0), [0, 0, 0, 0]),
        (("derived", "pool_opponents"), 1),
        (("derived", "deal_order", 0, 0), "north"),
        (("kitty", "take"), "yes"),
        (("auction", "inkles"), {"bidders": 2}),
        (("clauses", 0, "id"), "deck.card"),
        (("clauses", 0, "params", "colour"), "red"),
        (("deal", "packets", 0), ["players", 3, 1]),
        (("end", "lose_at"), "-500"),
    ],
)
def test_corrupted_tables_fail(ruleset_schema: dict, tables: dict, path: tuple, value: Any) -> None:
    bad = copy.deepcopy(tables)
    _set(bad, path, value)
    assert errors(ruleset_schema, bad)


@pytest.mark.parametrize("key", ["deck", "strains", "scoring", "end", "derived"])
def test_missing_table_fails(ruleset_schema: dict, tables: dict, key: str) -> None:
    del tables[key]
    assert errors(ruleset_schema, tables)


@pytest.mark.parametrize(
    "path",
    sorted(
        p for p in (ROOT / "generated" / "json").glob("*.json") if p.name != "ruleset.schema.json"
    ),
    ids=lambda p: p.stem,
)
def test_every_generated_json_validates_against_the_generated_schema(path: Path) -> None:
    """Every generated/json/<variant>.json, as committed, against generated/json/ruleset.schema.json
    (the file an engine in another language reads): `$schema` included, every key present."""
    schema = json.loads((ROOT / "generated" / "json" / "ruleset.schema.json").read_text("utf-8"))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert not errors(schema, data)
    assert data["$schema"] == "ruleset.schema.json"
    _every_key_present(schema, data, path.stem)


def _every_key_present(node: dict[str, Any], data: Any, where: str) -> None:
    """Each object of the schema (clause parameters aside) lists all its keys as required."""
    if isinstance(data, dict) and "properties" in node and node.get("title") != "Parameters":
        required = set(node.get("required", []))
        assert required == set(node["properties"]) - {"$schema"}, where
        for key, sub in node["properties"].items():
            if key in data:
                _every_key_present(sub, data[key], f"{where}.{key}")
    elif isinstance(data, list) and isinstance(node.get("items"), dict):
        for i, item in enumerate(data):
            _every_key_present(node["items"], item, f"{where}[{i}]")


# -- one definition: runtime/engine/tableformat.py -----------------------------------------------


def test_the_ruleset_schema_is_derived_from_the_types() -> None:
    """generated/json/ruleset.schema.json is exactly what the tables' types give (`fivehundred
    build` writes it), and no hand-written copy is left to drift."""
    committed = json.loads((ROOT / "generated" / "json" / "ruleset.schema.json").read_text("utf-8"))
    assert committed == ruleset_schema_of_the_types()
    assert not (SCHEMA_DIR / "ruleset.schema.json").exists()


def test_every_typed_field_is_in_the_schema_with_its_documentation() -> None:
    """Each key of each TypedDict appears in the schema, titled and described by its Meta."""
    from typing import get_type_hints

    from fivehundred.runtime.engine import tableformat as tf

    schema = ruleset_schema_of_the_types()
    props = schema["properties"]
    for key, tp in get_type_hints(tf.Tables, include_extras=True).items():
        (meta,) = [m for m in tp.__metadata__ if isinstance(m, tf.Meta)]
        assert props[key]["title"] == meta.title and props[key]["description"] == meta.description
    derived = props["derived"]["properties"]
    assert set(derived) == set(tf.Derived.__annotations__)
    assert "2**53" in derived["suit_masks"]["description"]  # engines in JavaScript: BigInt
    assert props["format"] == {
        "title": "Format",
        "description": props["format"]["description"],
        "const": tf.FORMAT,
    }


@pytest.mark.parametrize(
    ("path", "alias", "spec_path"),
    [
        (("auction", "procedure"), "Procedure", None),
        (("auction", "all_pass"), "AllPass", None),
        (("partner", "call"), "PartnerCall", None),
        (("end", "both_out"), "BothOut", None),
        (("end", "out_backwards"), "OutBackwards", None),
        (("scoring", "opponent_tricks"), "OpponentTricks", None),
        (("scoring", "failed"), "Failed", None),
        (("deal", "first_dealer"), "FirstDealer", None),
        # play.misere_partner: the tables take a bid's values (BidPartner, `plays` included),
        # a rule file MiserePartner; tests/test_hostile_cli.py checks both
        (("terms", "joker"), "JokerWord", None),
        (("terms", "kitty"), "KittyWord", None),
        (("terms", "misere"), "MisereWord", None),
        (
            ("play", "joker_no_trumps", "nominate"),
            "Nominate",
            ("play", "joker", "no_trumps", "nominate"),
        ),
        (("play", "joker_no_trumps", "lead"), "JokerLead", ("play", "joker", "no_trumps", "lead")),
        (
            ("play", "joker_no_trumps", "void_must_play"),
            "VoidMustPlay",
            ("play", "joker", "no_trumps", "void_must_play"),
        ),
    ],
)
def test_option_enums_are_the_literal_types(
    path: tuple[str, ...], alias: str, spec_path: tuple[str, ...] | None
) -> None:
    """An option's allowed values are written once, as a Literal, and the schema lists them;
    the rule-file schema offers exactly the same values."""
    from typing import get_args

    from fivehundred.runtime.engine import tableformat as tf

    node: Any = ruleset_schema_of_the_types()
    for key in path:
        node = node["properties"][key]
    values = list(get_args(getattr(tf, alias)))
    assert node.get("enum", [node.get("const")]) == values
    spec: Any = load_schema("variant.schema.json")
    for key in spec_path or path:
        spec = spec["properties"][key]
    assert sorted(spec["enum"]) == sorted(values)


# -- versions (issue 18: "three clause parameters were renamed without a format change") ------


def test_a_table_key_is_never_renamed_or_removed_within_a_format() -> None:
    """INTERCHANGE.md "Versions": within FORMAT 2 a key path of the tables may be added, never
    renamed or removed (that needs FORMAT 3, and a new pinned file); a key added within the
    format is the table key of a rule option with a default that keeps the old rule, a derived
    fact, or a clause parameter (rule-book wording), so an engine of the format as first
    published plays every variant whose new keys are at their defaults."""
    from format_shape import key_paths

    from fivehundred.runtime.engine.tableformat import FORMAT

    pinned = json.loads((ROOT / "tests" / "data" / f"tables-format-{FORMAT}.json").read_text())
    current = key_paths(ruleset_schema_of_the_types())
    gone = sorted(set(pinned["paths"]) - current)
    assert not gone, f"renamed or removed within FORMAT {FORMAT}: {gone}"
    with_default = {
        ".".join(o.table_keys) for o in OPTIONS if o.table_keys and o.default is not NO_DEFAULT
    }
    added = current - set(pinned["paths"])
    loose = sorted(
        p
        for p in added
        if not p.startswith(("derived.", "clauses[].params."))
        and not any(p == k or p.startswith(k + ".") for k in with_default)
    )
    assert not loose, f"added without a default that keeps the old rule: {loose}"


def test_every_table_default_is_a_value_of_its_own_key() -> None:
    """The ruleset schema gives each option's default (INTERCHANGE.md "Versions": the rule as
    before the key was added); each must be a valid value of that key, or an engine would be
    told to play a rule the format cannot hold."""
    schema = ruleset_schema_of_the_types()
    found = 0

    def walk(node: object) -> None:
        nonlocal found
        if isinstance(node, dict):
            if "default" in node:
                found += 1
                sub = {k: v for k, v in node.items() if k != "default"}
                Draft202012Validator({**sub, "$defs": schema["$defs"]}).validate(node["default"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema["properties"])
    assert found >= len([o for o in OPTIONS if o.table_keys and o.default is not NO_DEFAULT]) // 2
