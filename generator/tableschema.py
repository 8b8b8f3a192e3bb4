"""The JSON schema of the ruleset tables, derived from their one definition.

:mod:`~fivehundred.runtime.engine.tableformat`
defines the tables as typed dicts whose fields carry their
documentation and constraints (:class:`~fivehundred.runtime.engine.tableformat.Meta`);
:func:`ruleset_schema` turns those types into a JSON Schema (draft 2020-12), and ``fivehundred
build`` writes it to ``generated/json/ruleset.schema.json`` beside the exports it describes.
Nothing here is written by hand twice: a new field of the tables is in the schema at the next build.
"""

from __future__ import annotations

import json
import types
from functools import lru_cache
from typing import (
    Annotated,
    Any,
    Literal,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from ..runtime.engine.tableformat import (
    NO_DEFAULT,
    OPTIONS,
    TABLES_META,
    Def,
    Meta,
    SchemaKey,
    Tables,
)

__all__ = ["render_ruleset_schema", "ruleset_schema"]

_DIALECT = "https://json-schema.org/draft/2020-12/schema"


class _Deriver:
    """Walks the types of :class:`Tables`, collecting the ``$defs`` it meets."""

    def __init__(self) -> None:
        self.defs: dict[str, dict[str, Any]] = {}

    def node(self, tp: Any, use: Meta | None = None) -> dict[str, Any]:
        """The schema of ``tp``; ``use`` documents it where it is used (a list's items)."""
        metadata: tuple[Any, ...] = ()
        if get_origin(tp) is Annotated:
            metadata = tp.__metadata__
            tp = get_args(tp)[0]
        metas = [m for m in metadata if isinstance(m, Meta)]
        meta = use if use is not None else (metas[-1] if metas else None)
        out: dict[str, Any] = {}
        defs = [m for m in metadata if isinstance(m, Def)]
        if defs:
            name = defs[0].name
            if name not in self.defs:
                self.defs[name] = {**_doc(defs[0].meta), **self.body(tp, defs[0].meta)}
            out["$ref"] = f"#/$defs/{name}"
            if meta is not None:
                out.update(_doc(meta))
            return out
        if meta is not None:
            out.update(_doc(meta))
        out.update(self.body(tp, meta))
        return out

    def body(self, tp: Any, meta: Meta | None) -> dict[str, Any]:
        """The type and constraints of ``tp`` (its documentation aside)."""
        origin = get_origin(tp)
        if tp is type(None) or tp is None:
            return {"type": "null"}
        if origin is Literal:
            values = list(get_args(tp))
            return {"const": values[0]} if len(values) == 1 else {"enum": values}
        if origin in (Union, types.UnionType):
            return self.union(get_args(tp), meta)
        if tp is bool:
            return {"type": "boolean"}
        if tp in (int, str):
            return {"type": _SCALAR[tp], **_constraints(meta)}
        if origin is list:
            (item,) = get_args(tp)
            out: dict[str, Any] = {
                "type": "array",
                "items": self.node(item, meta.items if meta is not None else None),
            }
            return {**out, **_sizes(meta)}
        if origin is tuple:
            positions = get_args(tp)
            return {
                "type": "array",
                "prefixItems": [self.node(p) for p in positions],
                "items": False,
                "minItems": len(positions),
            }
        if is_typeddict(tp):
            return self.object(tp)
        raise TypeError(f"the tables format has a type the schema cannot express: {tp!r}")

    def union(self, members: tuple[Any, ...], meta: Meta | None) -> dict[str, Any]:
        """``X | None`` of a scalar as a type list; several literals as one enum; else anyOf."""
        plain = [_strip(m) for m in members]
        if all(get_origin(m) is Literal for m in plain):
            return {"enum": [v for m in plain for v in get_args(m)]}
        scalars = [m for m in plain if m is not type(None)]
        if (
            len(members) == 2
            and type(None) in plain
            and all(get_origin(m) is not Annotated for m in members)
            and scalars[0] in _SCALAR
        ):
            return {"type": [_SCALAR[scalars[0]], "null"], **_constraints(meta)}
        return {"anyOf": [self.node(m) for m in members]}

    def object(self, cls: Any) -> dict[str, Any]:
        """A typed dict as a closed object; its required keys are the dict's."""
        hints = get_type_hints(cls, include_extras=True)
        required = [key for key in hints if key in cls.__required_keys__]
        return {
            "type": "object",
            "properties": {key: self.node(tp) for key, tp in hints.items()},
            "required": required,
            "additionalProperties": False,
        }


_SCALAR: dict[Any, str] = {int: "integer", str: "string", bool: "boolean"}


def _strip(tp: Any) -> Any:
    return get_args(tp)[0] if get_origin(tp) is Annotated else tp


def _doc(meta: Meta) -> dict[str, Any]:
    return {"title": meta.title, "description": meta.description}


def _constraints(meta: Meta | None) -> dict[str, Any]:
    if meta is None:
        return {}
    out: dict[str, Any] = {}
    if meta.pattern is not None:
        out["pattern"] = meta.pattern
    if meta.minimum is not None:
        out["minimum"] = meta.minimum
    if meta.maximum is not None:
        out["maximum"] = meta.maximum
    return out


def _sizes(meta: Meta | None) -> dict[str, Any]:
    if meta is None:
        return {}
    out: dict[str, Any] = {}
    if meta.min_items is not None:
        out["minItems"] = meta.min_items
    if meta.max_items is not None:
        out["maxItems"] = meta.max_items
    if meta.unique_items:
        out["uniqueItems"] = True
    return out


@lru_cache(maxsize=1)
def _schema_text() -> str:
    deriver = _Deriver()
    root = deriver.node(Annotated[Tables, TABLES_META])
    root["properties"] = {"$schema": deriver.node(SchemaKey), **root["properties"]}
    _option_defaults(root)
    schema = {"$schema": _DIALECT, **root, "$defs": deriver.defs}
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def _option_defaults(root: dict[str, Any]) -> None:
    """Each rule option's default as the ``default`` of its table key: the rule as it was
    before the key was added, which an engine that does not know the key plays (INTERCHANGE.md,
    "Versions")."""
    for opt in OPTIONS:
        keys = opt.table_keys
        if keys is None or opt.default is NO_DEFAULT:
            continue
        node: Any = root
        for key in keys:
            node = node.get("properties", {}).get(key) if isinstance(node, dict) else None
        if isinstance(node, dict):
            node["default"] = opt.default


def ruleset_schema() -> dict[str, Any]:
    """The JSON schema of :class:`~fivehundred.runtime.engine.tableformat.Tables` (a fresh copy)."""
    value: dict[str, Any] = json.loads(_schema_text())
    return value


def render_ruleset_schema() -> str:
    """The text of ``generated/json/ruleset.schema.json``."""
    return _schema_text()
