"""From a rule file to a :class:`Ruleset`: load, resolve ``extends``, schema, semantic checks.

Every stage collects all of its problems; the first stage with problems stops the pipeline with
one :class:`SpecError` that lists them all as ``file:line:col: message``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..runtime.errors import Diagnostic, SpecError
from .model import Ruleset, build_ruleset
from .resolve import load_spec_file
from .schemacheck import check_schema
from .semantic import check_semantics

__all__ = [
    "SPECS_DIR",
    "VARIANTS_DIR",
    "builtin_ids",
    "compile_spec",
    "find_spec",
    "variant_schema",
]

#: The built-in rule files: the checkout's specs/ (installed: the package fivehundred.specs).
SPECS_DIR = Path(__file__).resolve().parent.parent / "specs"
VARIANTS_DIR = SPECS_DIR / "variants"
SCHEMA_FILE = SPECS_DIR / "schema" / "variant.schema.json"


@lru_cache(maxsize=1)
def variant_schema() -> dict[str, Any]:
    """The JSON Schema of a variant rule file."""
    data: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return data


def builtin_ids() -> list[str]:
    """The ids of the built-in variants (file stems under specs/variants, houses included)."""
    return sorted(p.stem for p in VARIANTS_DIR.rglob("*.yaml"))


def find_spec(name: str) -> Path:
    """The rule file for a built-in id or a path; :class:`SpecError` if there is none."""
    path = Path(name)
    if path.suffix in (".yaml", ".yml") or "/" in name or path.exists():
        if not path.is_file():
            raise SpecError([Diagnostic(name, 1, 1, "no such rule file")])
        return path
    for candidate in VARIANTS_DIR.rglob(f"{name}.yaml"):
        return candidate
    from difflib import get_close_matches

    hint = get_close_matches(name, builtin_ids(), n=1)
    more = f"; did you mean {hint[0]!r}?" if hint else ""
    raise SpecError([Diagnostic(name, 1, 1, f"unknown variant {name!r}{more}")])


def compile_spec(path: Path) -> Ruleset:
    """Compile one rule file (built-in or the author's own) into a validated :class:`Ruleset`."""
    resolved = load_spec_file(path, VARIANTS_DIR)
    file = str(path)
    problems = check_schema(resolved.data, resolved.marks, variant_schema())
    # Semantic checks skip whatever the schema rejects, so both report at once.
    problems += check_semantics(resolved.data, resolved.marks)
    if problems:
        raise SpecError(sorted(set(problems)))
    extends = None
    if len(resolved.chain) > 1 and resolved.base_data is not None:
        extends = str(resolved.base_data.get("id", resolved.chain[1].stem))
    rs = build_ruleset(resolved.data, resolved.marks, file, extends=extends)
    if resolved.base_data is not None:
        from dataclasses import replace

        from .diff import changed_clauses

        base = build_ruleset(resolved.base_data, resolved.marks, file)
        rs = replace(rs, differences=changed_clauses(base, rs))
    return rs
