"""Resolution of ``extends``: a variant file built on a built-in variant or on another file.

``extends: NAME`` names either a built-in variant id (``<builtin_dir>/NAME.yaml``) or, when NAME
ends in ``.yaml``/``.yml`` or contains a ``/``, a file relative to the extending file. The base is
resolved first (recursively) and the child is merged over it:

- mappings merge key by key, recursively;
- anything else in the child (a list, a scalar, ``null``) replaces the base's value entirely;
- keys only in the base are inherited, keys only in the child are added (after the base's keys);
- ``id`` is never inherited: without its own ``id`` a file's id is its file name's stem;
- the merged result has no ``extends`` key.

The :class:`~fivehundred.generator.yamlload.Marks` of the result point, for every path, into the
file its final value came from, so a problem in an inherited value is reported in the base file.
"""

from __future__ import annotations

import copy
import difflib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..runtime.errors import Diagnostic, SpecError
from .yamlload import MAX_BYTES, KeyPath, Mark, Marks, load_yaml

__all__ = ["MAX_EXTENDS", "ResolvedSpec", "builtin_ids", "load_spec_file", "merge"]

MAX_EXTENDS = 10
"""Most ``extends`` links in one chain (a chain of at most 11 files)."""


@dataclass(frozen=True)
class ResolvedSpec:
    """A variant file with its ``extends`` chain resolved.

    - ``data``: the merged document (no ``extends`` key; ``id`` always present).
    - ``marks``: positions of every path of ``data``, each in the file the value came from.
    - ``chain``: the files merged, the loaded file first, then its base, its base's base, ...
    - ``base_data``: the fully resolved base (what ``data`` would be without the loaded file's
      own changes, with the base's own ``id``), or ``None`` when nothing is extended.
    """

    data: dict[str, Any]
    marks: Marks
    chain: tuple[Path, ...]
    base_data: dict[str, Any] | None


def builtin_ids(builtin_dir: Path) -> list[str]:
    """The ids of the built-in variants: the stems of ``*.yaml`` files under ``builtin_dir``
    (house variants in sub-folders included)."""
    try:
        return sorted(p.stem for p in Path(builtin_dir).rglob("*.yaml") if p.is_file())
    except OSError:
        return []


def load_spec_file(path: Path, builtin_dir: Path) -> ResolvedSpec:
    """Load the variant file at ``path`` and resolve its ``extends`` chain.

    Built-in base names are looked up in ``builtin_dir``. Raises
    :class:`~fivehundred.runtime.errors.SpecError` for any problem in any file of the chain.
    """
    return _load(Path(path), Path(builtin_dir), ())


def merge(
    base: dict[str, Any], base_marks: Marks, child: dict[str, Any], child_marks: Marks
) -> tuple[dict[str, Any], Marks]:
    """Merge ``child`` over ``base`` (see the module docstring) and the marks to match.

    Neither input is modified; the result shares no mutable objects with them. ``extends`` and
    ``id`` get no special treatment here (:func:`load_spec_file` handles them).
    """
    data = _merge_values(base, child)
    assert isinstance(data, dict)
    marks = Marks(child_marks.default_file)
    for path, mark in base_marks.value_items():
        if _inherited(base, child, path):
            marks.set_value(path, mark)
    for path, mark in base_marks.key_items():
        if _inherited(base, child, path):
            marks.set_key(path, mark)
    for path, mark in child_marks.value_items():
        marks.set_value(path, mark)
    for path, mark in child_marks.key_items():
        marks.set_key(path, mark)
    return data, marks


def _merge_values(base: object, child: object) -> object:
    if isinstance(base, dict) and isinstance(child, dict):
        result: dict[str, Any] = {}
        for key, value in base.items():
            result[key] = _merge_values(value, child[key]) if key in child else copy.deepcopy(value)
        for key, value in child.items():
            if key not in base:
                result[key] = copy.deepcopy(value)
        return result
    return copy.deepcopy(child)


def _inherited(base: object, child: object, path: KeyPath) -> bool:
    """Whether the base's value at ``path`` survives in the merge (and so keeps its marks)."""
    for elem in path:
        if not isinstance(base, dict) or not isinstance(child, dict):
            return False
        if elem not in child:
            return True
        base, child = base.get(elem), child[elem]
    return isinstance(base, dict) and isinstance(child, dict)


def _error(mark: Mark, message: str) -> SpecError:
    return SpecError([Diagnostic(mark.file, mark.line, mark.col, message)])


def _read(path: Path) -> tuple[dict[str, Any], Marks]:
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise SpecError([Diagnostic(str(path), 1, 1, "file not found")]) from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise SpecError([Diagnostic(str(path), 1, 1, f"cannot read file: {reason}")]) from None
    return load_yaml(raw, str(path))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:  # pragma: no cover - e.g. a symlink loop
        return os.path.abspath(a) == os.path.abspath(b)


def _locate(name: str, child: Path, builtin_dir: Path, where: Mark) -> Path:
    """The file that ``extends: name`` in ``child`` refers to (which must exist)."""
    if name.endswith((".yaml", ".yml")) or "/" in name:
        base = Path(os.path.normpath(child.parent / name))
        if not base.is_file():
            raise _error(where, f"base file not found: '{name}' (looked for {base})")
        return base
    base = builtin_dir / f"{name}.yaml"
    if base.is_file():
        return base
    nested = sorted(p for p in Path(builtin_dir).rglob("*.yaml") if p.stem == name)
    if nested:
        return nested[0]
    known = builtin_ids(builtin_dir)
    close = difflib.get_close_matches(name, known, n=1)
    hint = (
        f"; did you mean '{close[0]}'?"
        if close
        else (f"; built-in variants are: {', '.join(known)}" if known else "")
    )
    raise _error(where, f"unknown variant '{name}' in extends{hint}")


def _load(path: Path, builtin_dir: Path, stack: tuple[Path, ...]) -> ResolvedSpec:
    data, marks = _read(path)
    own_id = "id" in data
    if "extends" not in data:
        if not own_id:
            data["id"] = path.stem
        return ResolvedSpec(data=data, marks=marks, chain=(path,), base_data=None)

    where = marks.value_mark(("extends",))
    name = data.pop("extends")
    if not isinstance(name, str) or not name.strip():
        raise _error(where, "extends must be a built-in variant id or a path to a .yaml file")
    base_path = _locate(name.strip(), path, builtin_dir, where)
    chain = (*stack, path)
    if any(_same_file(base_path, seen) for seen in chain):
        names = " -> ".join(p.name for p in (*chain, base_path))
        raise _error(where, f"circular extends: {names}")
    if len(chain) > MAX_EXTENDS:
        names = " -> ".join(p.name for p in (*chain, base_path))
        raise _error(where, f"extends chain deeper than {MAX_EXTENDS}: {names}")

    base = _load(base_path, builtin_dir, chain)
    base_view = {k: v for k, v in base.data.items() if k != "id"}
    base_marks = Marks(base.marks.default_file)
    for p, m in base.marks.value_items():
        if p[:1] != ("id",):
            base_marks.set_value(p, m)
    for p, m in base.marks.key_items():
        if p[:1] != ("id",):
            base_marks.set_key(p, m)
    merged, merged_marks = merge(base_view, base_marks, data, marks)
    ident = merged.pop("id") if own_id else path.stem
    merged = {"id": ident, **merged}
    return ResolvedSpec(
        data=merged, marks=merged_marks, chain=(path, *base.chain), base_data=base.data
    )
