"""Render a ruleset into its outputs: the Python ruleset module and the JSON export.

Rule-author text reaches generated Python only through :func:`pyliteral`, which writes Python
literals with ``repr`` (every quote, backslash, newline, NUL and bidi control escaped), never by
pasting text into code.
"""

from __future__ import annotations

import json
import pprint
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from .model import FORMAT, Ruleset

__all__ = ["module_name", "pyliteral", "render_json", "render_module", "template_env"]

TEMPLATES = Path(__file__).parent / "templates"


def pyliteral(value: Any) -> str:
    """A Python literal for JSON-like data (dicts keep their order); safe for any string."""
    _check_literal(value)
    return _Printer(width=100, sort_dicts=False, compact=True).pformat(value)


class _Printer(pprint.PrettyPrinter):
    """:class:`pprint.PrettyPrinter` that writes the one-line ``repr`` of each part once.

    Laying out a nested literal, ``pprint`` asks for the one-line ``repr`` of every part at
    every level it tries to fit on a line, so a deep table's leaves are written over and over
    (a ruleset's tables cost a tenth of a second). Within one ``pformat`` the data cannot
    change, so each part's ``repr`` is made once (by identity), bottom up, exactly as
    ``pprint`` makes it for JSON-like data: dicts in their order, lists, tuples, and ``repr``
    for anything else. The layout is ``pprint``'s own.
    """

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._seen: dict[int, str] = {}

    def _repr(self, object: object, context: dict[int, int], level: int) -> str:
        return _one_line(object, self._seen)


def _one_line(value: object, seen: dict[int, str]) -> str:
    """``pprint``'s one-line ``repr`` of JSON-like ``value`` (``seen``: the parts done)."""
    key = id(value)
    text = seen.get(key)
    if text is not None:
        return text
    kind = type(value)
    if kind is dict:
        items = value.items()  # type: ignore[attr-defined]
        text = "{" + ", ".join(f"{_one_line(k, seen)}: {_one_line(v, seen)}" for k, v in items)
        text += "}"
    elif kind is list:
        text = "[" + ", ".join([_one_line(item, seen) for item in value]) + "]"  # type: ignore[attr-defined]
    elif kind is tuple:
        parts = [_one_line(item, seen) for item in value]  # type: ignore[attr-defined]
        text = "(" + parts[0] + ",)" if len(parts) == 1 else "(" + ", ".join(parts) + ")"
    else:
        text = repr(value)
    seen[key] = text
    return text


def _check_literal(value: Any) -> None:
    if value is None or isinstance(value, bool | int | float | str):
        return
    if isinstance(value, list | tuple):
        for item in value:
            _check_literal(item)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"non-string key {key!r} in generated data")
            _check_literal(item)
        return
    raise TypeError(f"{type(value).__name__} cannot be written as a literal")


@lru_cache(maxsize=1)
def template_env() -> jinja2.Environment:
    """The Jinja environment of the code templates: strict undefined, no autoescape."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pyliteral"] = pyliteral
    return env


def module_name(variant: str) -> str:
    """The Python module name of a variant id (``australian-45`` -> ``australian_45``)."""
    return variant.replace("-", "_")


def render_module(rs: Ruleset, source: str) -> str:
    """The text of ``generated/rulesets/<variant>.py``."""
    template = template_env().get_template("ruleset.py.j2")
    return template.render(format=FORMAT, variant=rs.id, source=source, tables=rs.tables)


def render_json(rs: Ruleset) -> str:
    """The text of ``generated/json/<variant>.json``."""
    data = {"$schema": "ruleset.schema.json", **rs.tables}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
