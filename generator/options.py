"""What follows from the one registry of rule options (:data:`OPTIONS`).

Every option of the rule language is declared once, in
:data:`~fivehundred.runtime.engine.tableformat.OPTIONS` (it lives beside the tables it fills, so
the engine reads the same declaration without importing the generator). From it:

- :func:`variant_schema_text`: the rule-file schema, ``specs/schema/variant.schema.json``, is the
  structure that is no option (``variant.structure.json`` beside this module: ids, the deck's
  suits, packets, special bids, score tables, choices) with every option put in its place;
  ``fivehundred build`` writes it and ``build --check`` reports it stale;
- :func:`with_defaults`: one defaults pass right after ``extends`` is resolved, so the semantic
  checks and the model read complete data and never supply a default themselves;
- :func:`starter_options`: the options of the starter file of ``fivehundred new``;
- :func:`diff_options`: the rows of ``fivehundred diff``; :func:`shown_options`: what
  ``fivehundred show`` lists.

A new option is its entry in the registry, the engine's use of it and its sentence in the rule
book (``generator/templates/clauses.j2``).
"""

from __future__ import annotations

import copy
import json
import types
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from ..runtime.engine.tableformat import NO_DEFAULT, OPTIONS, Option, Tables

__all__ = [
    "OPTIONS",
    "STRUCTURE_FILE",
    "diff_options",
    "file_value",
    "option",
    "option_schema",
    "shown_options",
    "starter_options",
    "table_value",
    "variant_schema",
    "variant_schema_text",
    "with_defaults",
]

#: The part of the rule-file schema that is no option (hand-written).
STRUCTURE_FILE = Path(__file__).resolve().parent / "variant.structure.json"

_BY_PATH: dict[str, Option] = {o.path: o for o in OPTIONS}


def option(path: str) -> Option:
    """The option at this rule-file path (``auction.procedure``); KeyError if there is none."""
    return _BY_PATH[path]


def clause_option(clause: str) -> Option:
    """The one option that governs rule clause ``clause``: how a module of the generator reads
    an option by the rule it makes, without spelling its name (KeyError unless exactly one
    option has that clause)."""
    found = [o for o in OPTIONS if o.clause == clause]
    if len(found) != 1:
        raise KeyError(clause)
    return found[0]


def _literal_values(tp: object) -> tuple[object, ...] | None:
    if get_origin(tp) is Literal:
        return get_args(tp)
    return None


def option_schema(opt: Option) -> dict[str, Any]:
    """The JSON Schema of one option (its own keywords; its children are added by the caller)."""
    out: dict[str, Any] = {"title": opt.title, "description": opt.description}
    if opt.clause is not None:
        out["x-clause"] = opt.clause
    tp = opt.type
    values = _literal_values(tp)
    if values is not None:
        out["enum"] = list(values)
    elif tp is bool:
        out["type"] = "boolean"
    elif tp is int:
        out["type"] = "integer"
    elif get_origin(tp) in (Union, types.UnionType) and set(get_args(tp)) == {int, type(None)}:
        out["type"] = ["integer", "null"]
    if opt.minimum is not None:
        out["minimum"] = opt.minimum
    if opt.maximum is not None:
        out["maximum"] = opt.maximum
    extra = copy.deepcopy(opt.schema or {})
    if "type" in extra:
        out["type"] = extra.pop("type")
    if opt.default is not NO_DEFAULT:
        out["default"] = copy.deepcopy(opt.default)
    out.update(extra)
    return out


def _place(root: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """The ``properties`` mapping that holds ``keys[-1]`` (every parent must exist)."""
    node = root
    for key in keys[:-1]:
        node = node["properties"][key]
    props: dict[str, Any] = node.setdefault("properties", {})
    return props


@lru_cache(maxsize=1)
def variant_schema_text() -> str:
    """The text of ``specs/schema/variant.schema.json``: the structure with every option."""
    schema: dict[str, Any] = json.loads(STRUCTURE_FILE.read_text(encoding="utf-8"))
    for opt in OPTIONS:
        props = _place(schema, opt.keys)
        if opt.keys[-1] in props:
            raise ValueError(f"option {opt.path} is also in {STRUCTURE_FILE.name}")
        props[opt.keys[-1]] = option_schema(opt)
    _order(schema)
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


#: The order of the structure's sections in the schema (and so in editors and ``new``).
_TOP = (
    "id",
    "extends",
    "name",
    "summary",
    "sources",
    "terms",
    "players",
    "teams",
    "partner",
    "deck",
    "deal",
    "auction",
    "kitty",
    "play",
    "scoring",
    "end",
    "choices",
)


def _order(schema: dict[str, Any]) -> None:
    props = schema["properties"]
    schema["properties"] = {k: props[k] for k in _TOP if k in props} | {
        k: v for k, v in props.items() if k not in _TOP
    }


def variant_schema() -> dict[str, Any]:
    """The rule-file schema as data (a fresh copy)."""
    value: dict[str, Any] = json.loads(variant_schema_text())
    return value


# -- the defaults pass ----------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    return variant_schema()


def with_defaults(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` (a resolved rule file) completed with every default the schema declares.

    A section (a mapping of the schema) that the file leaves out is added; an option it leaves
    out takes its default; an item of a list whose items the schema describes (a special bid,
    a choice) takes the defaults of its keys. A value of the wrong type is left as it is (the
    schema check reports it), and a nullable option (``auction.inkles``) is completed only
    when it is given as a mapping. ``data`` itself is not changed.
    """
    schema = _schema()
    out = copy.deepcopy(dict(data))
    _complete(out, schema, schema.get("$defs", {}))
    return out


def _resolve(node: Mapping[str, Any], defs: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return {**defs.get(ref[8:], {}), **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _mapping_shape(node: Mapping[str, Any], defs: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The one mapping a value of ``node`` can be (itself, or its only mapping alternative)."""
    if "properties" in node:
        return node
    shapes = [
        alt
        for alt in (_resolve(a, defs) for a in (node.get("anyOf") or node.get("oneOf") or []))
        if "properties" in alt
    ]
    return shapes[0] if len(shapes) == 1 else None


def _complete(value: dict[str, Any], node: Mapping[str, Any], defs: Mapping[str, Any]) -> None:
    for key, sub in (node.get("properties") or {}).items():
        sub = _resolve(sub, defs)
        if key not in value:
            if "default" in sub:
                value[key] = copy.deepcopy(sub["default"])
            elif sub.get("type") == "object" and "properties" in sub:
                value[key] = {}  # a section: completed below
            else:
                continue
        child = value[key]
        if isinstance(child, dict):
            shape = _mapping_shape(sub, defs)
            if shape is not None:
                _complete(child, shape, defs)
        elif isinstance(child, list) and isinstance(sub.get("items"), Mapping):
            items = _resolve(sub["items"], defs)
            if "properties" in items:
                for item in child:
                    if isinstance(item, dict):
                        _complete(item, items, defs)


# -- reading an option's value ---------------------------------------------------------------------


def table_value(tables: Tables | Mapping[str, Any], opt: Option) -> object:
    """The value of ``opt`` in compiled tables (KeyError when it has no field of its own)."""
    keys = opt.table_keys
    if keys is None:
        raise KeyError(opt.path)
    node: Any = tables
    for key in keys:
        node = node[key]
    return node


def file_value(data: Mapping[str, Any], opt: Option) -> object:
    """The value of ``opt`` in a completed rule file (:func:`with_defaults`)."""
    node: Any = data
    for key in opt.keys:
        node = node[key]
    return node


def diff_options() -> tuple[Option, ...]:
    """The options ``fivehundred diff`` compares by their label (the others it words itself)."""
    return tuple(o for o in OPTIONS if o.diff is not None and o.table_keys is not None)


def shown_options() -> tuple[Option, ...]:
    """The options ``fivehundred show`` lists by label when they are not at their default."""
    return tuple(o for o in OPTIONS if o.show and o.diff is not None and o.table_keys is not None)


def starter_options() -> tuple[Option, ...]:
    """The options of the starter file of ``fivehundred new``, in registry order."""
    return tuple(o for o in OPTIONS if o.note is not None)
