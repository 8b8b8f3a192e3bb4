"""The key paths of a JSON schema: what a format version promises (tests/test_schemas.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def key_paths(schema: Mapping[str, Any]) -> set[str]:
    """Every property path ``schema`` allows (``a.b``, ``a[].b`` for a list's items, ``a{}.b``
    for a mapping's values), following local ``$ref``s into ``$defs``."""
    defs: Mapping[str, Any] = schema.get("$defs", {})
    out: set[str] = set()

    def walk(node: object, at: str, seen: frozenset[str]) -> None:
        if not isinstance(node, Mapping):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref not in seen:
            walk(defs.get(ref.rsplit("/", 1)[-1]), at, seen | {ref})
        for word in ("oneOf", "anyOf", "allOf", "prefixItems"):
            for sub in node.get(word) or ():
                walk(sub, at, seen)
        walk(node.get("items"), f"{at}[]", seen)
        walk(node.get("additionalProperties"), f"{at}{{}}", seen)
        for key, sub in (node.get("properties") or {}).items():
            path = f"{at}.{key}" if at else key
            out.add(path)
            walk(sub, path, seen)

    walk(schema, "", frozenset())
    return out
