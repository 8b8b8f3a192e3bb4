"""Is a document valid against a JSON Schema? A quick answer for the common case: yes.

:func:`~fivehundred.generator.schemacheck.check_schema` reports every problem of a rule file
with ``jsonschema``, whose import alone costs a ``fivehundred validate`` of a valid house file
more than all its checks (the library loads every draft's meta-schema). Most files are valid,
and saying so needs far less: :func:`valid` walks the schema's draft 2020-12 keywords over the
data and answers ``True`` (valid), ``False`` (invalid) or ``None`` (it cannot say). Only a
``True`` is ever acted upon (no errors to report, ``jsonschema`` not imported); anything else goes
to ``jsonschema``, which finds and words the problems.

So a ``True`` must never be wrong. The walk follows ``jsonschema``'s own definitions of each
keyword it knows (types, equality of ``enum``, ``const`` and ``uniqueItems`` values, ``$`` in a
``pattern`` as the end of the string) and gives up (``None``) on anything else: a keyword it does
not know, a remote ``$ref``, another draft, a value of a type JSON does not have.
tests/test_schemacheck.py compares its verdicts with ``jsonschema``'s on every built-in rule file
and thousands of broken ones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

__all__ = ["valid"]

_DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: Keywords that only annotate (``format`` asserts nothing without a format checker, and
#: check_schema gives none): they never make a document invalid.
_ANNOTATIONS = frozenset(
    {"$schema", "$id", "$comment", "$defs", "title", "description", "default", "examples"}
    | {"format", "deprecated", "readOnly", "writeOnly"}
)


class _Unsure(Exception):
    """The walk met something it does not decide exactly."""


def valid(data: object, schema: Mapping[str, Any]) -> bool | None:
    """True when ``data`` is valid against ``schema`` (draft 2020-12), False when it is not,
    None when this walk cannot tell (ask ``jsonschema``)."""
    if schema.get("$schema", _DRAFT) != _DRAFT:
        return None
    try:
        return _Walk(schema).check(data, schema)
    except (_Unsure, RecursionError):
        return None


def _is_number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _type_ok(x: object, name: str) -> bool:
    # jsonschema's draft 2020-12 type checker
    if name == "object":
        return isinstance(x, dict)
    if name == "array":
        return isinstance(x, list)
    if name == "string":
        return isinstance(x, str)
    if name == "boolean":
        return isinstance(x, bool)
    if name == "null":
        return x is None
    if name == "number":
        return _is_number(x)
    if name == "integer":
        return (isinstance(x, int) and not isinstance(x, bool)) or (
            isinstance(x, float) and x.is_integer()
        )
    raise _Unsure


def _plain(x: object) -> None:
    """Raise :class:`_Unsure` for a value JSON has no type for (a date from YAML, say)."""
    if x is None or isinstance(x, str | bool | int | float | list | dict):
        return
    raise _Unsure


def _equal(a: object, b: object) -> bool:
    # jsonschema's equality: true and 1 differ, 1 and 1.0 do not; a container equals no
    # scalar; two containers are left to jsonschema
    if isinstance(a, list | dict) and isinstance(b, list | dict):
        raise _Unsure
    if isinstance(a, list | dict) or isinstance(b, list | dict):
        return False
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return a == b
    return type(a) is type(b) and a == b


@lru_cache(maxsize=64)
def _pattern(source: str) -> re.Pattern[str]:
    # the schema's "$" is the end of the string (ECMA 262), as check_schema has it
    return re.compile(re.sub(r"(?<!\\)\$$", r"\\Z", source))


class _Walk:
    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root

    def _ref(self, ref: object) -> Any:
        if not isinstance(ref, str) or not ref.startswith("#/"):
            raise _Unsure
        node: Any = self.root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                raise _Unsure
            node = node[part]
        return node

    def check(self, x: object, schema: object) -> bool:
        if schema is True:
            return True
        if schema is False:
            return False
        if not isinstance(schema, dict):
            raise _Unsure
        _plain(x)
        ok = True
        for key, arg in schema.items():
            if key in _ANNOTATIONS or key.startswith("x-"):
                continue
            if key == "type":
                names = [arg] if isinstance(arg, str) else arg
                if not isinstance(names, list):
                    raise _Unsure
                ok = any(_type_ok(x, name) for name in names)
            elif key == "$ref":
                ok = self.check(x, self._ref(arg))
            elif key == "enum":
                if not isinstance(arg, list):
                    raise _Unsure
                ok = any(_equal(x, e) for e in arg)
            elif key == "const":
                ok = _equal(x, arg)
            elif key in ("minimum", "maximum"):
                if not _is_number(arg):
                    raise _Unsure
                if _is_number(x):
                    ok = x >= arg if key == "minimum" else x <= arg
            elif key in ("minLength", "maxLength"):
                if not isinstance(arg, int):
                    raise _Unsure
                if isinstance(x, str):
                    ok = len(x) >= arg if key == "minLength" else len(x) <= arg
            elif key == "pattern":
                if not isinstance(arg, str):
                    raise _Unsure
                if isinstance(x, str):
                    ok = _pattern(arg).search(x) is not None
            elif key in ("minItems", "maxItems"):
                if not isinstance(arg, int):
                    raise _Unsure
                if isinstance(x, list):
                    ok = len(x) >= arg if key == "minItems" else len(x) <= arg
            elif key == "uniqueItems":
                if arg is not True and arg is not False:
                    raise _Unsure
                if arg and isinstance(x, list):
                    ok = not any(_equal(a, b) for i, a in enumerate(x) for b in x[i + 1 :])
            elif key == "items":
                if "prefixItems" in schema:
                    raise _Unsure
                if isinstance(x, list):
                    ok = all(self.check(item, arg) for item in x)
            elif key == "required":
                if not isinstance(arg, list):
                    raise _Unsure
                if isinstance(x, dict):
                    ok = all(name in x for name in arg)
            elif key == "properties":
                if not isinstance(arg, dict):
                    raise _Unsure
                if isinstance(x, dict):
                    ok = all(self.check(x[name], sub) for name, sub in arg.items() if name in x)
            elif key == "additionalProperties":
                if "patternProperties" in schema:
                    raise _Unsure
                if isinstance(x, dict):
                    known = schema.get("properties", {})
                    extra = [name for name in x if name not in known]
                    ok = all(self.check(x[name], arg) for name in extra)
            elif key in ("anyOf", "oneOf", "allOf"):
                if not isinstance(arg, list) or not arg:
                    raise _Unsure
                verdicts = [self.check(x, sub) for sub in arg]
                if key == "anyOf":
                    ok = any(verdicts)
                elif key == "allOf":
                    ok = all(verdicts)
                else:
                    ok = verdicts.count(True) == 1
            else:
                raise _Unsure  # a keyword this walk does not know
            if not ok:
                return False
        return True
