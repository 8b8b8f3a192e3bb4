"""JSON Schema validation of a loaded document, with short messages at source positions.

:func:`check_schema` validates data against a JSON Schema (draft 2020-12 unless the schema's
``$schema`` names another draft, e.g. draft-07) and turns every error into a
:class:`~fivehundred.runtime.engine.errors.Diagnostic` at the position recorded in
:class:`~fivehundred.generator.yamlload.Marks`:

- unknown keys (``additionalProperties: false``) at the key, with a did-you-mean suggestion;
- missing keys (``required``) at the mapping;
- everything else at the offending value, quoting it.

Schema annotations understood:

- ``"x-clause": "rule.id"`` on any schema node: the diagnostic of an error at or below that node
  (the nearest one along the error's schema path wins) carries the clause id.
- ``"x-pattern-message": "text"`` on a node with a ``pattern``: the message when the pattern
  does not match, in plain words (``{value}`` is replaced by the value as written);
- ``"x-message": "text"`` on a schema node: replaces the generated message for errors of that
  node's own keywords (useful for ``pattern``).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from ..runtime.engine.errors import Diagnostic
from ..runtime.engine.messages import N_, Phrase
from .quickschema import valid
from .yamlload import KeyPath, Marks, render_path

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

__all__ = ["check_schema", "show_value"]

_TYPE_NAMES = {
    # Translators: the kinds of value a setting of a rule file may hold, in "expected ..., got
    # ..." (a mapping: key: value lines; a list: - items).
    "integer": Phrase(N_("an integer")),
    "number": Phrase(N_("a number")),
    "string": Phrase(N_("a string")),
    "boolean": Phrase(N_("true or false")),
    "object": Phrase(N_("a mapping")),
    "array": Phrase(N_("a list")),
    "null": "null",
}


def check_schema(data: object, marks: Marks, schema: Mapping[str, Any]) -> list[Diagnostic]:
    """Validate ``data`` against ``schema``; return every problem, sorted by position.

    Duplicates are removed. For a failed ``oneOf``/``anyOf`` only the best-matching alternative's
    error is reported. An empty list means the data is valid.

    Valid data, the common case, is told by :func:`~fivehundred.generator.quickschema.valid`
    without importing ``jsonschema`` (whose import costs more than the rest of a
    ``validate``); ``jsonschema`` finds and words the problems.
    """
    if valid(data, schema) is True:
        return []
    from jsonschema import Draft202012Validator
    from jsonschema.validators import validator_for

    cls = _strict_patterns(validator_for(schema, default=Draft202012Validator))
    validator = cls(schema)
    found: dict[Diagnostic, None] = {}
    for error in validator.iter_errors(data):
        for diag in _diagnostics(error, data, marks, schema):
            found[diag] = None
    return sorted(found)


@lru_cache(maxsize=8)
def _strict_patterns(cls: Any) -> Any:
    """``cls`` with ECMA-262 ``$`` semantics for ``pattern``: the end of the string only.

    Python's ``re.search`` lets ``$`` match before a final newline, so ``^[a-z]+$`` would accept
    ``"club\n"``; JSON Schema means the ECMA reading, which ``\\Z`` gives in Python.
    """
    builtin = cls.VALIDATORS["pattern"]

    def pattern(validator: Any, patrn: str, instance: Any, schema: Any) -> Any:
        strict = re.sub(r"(?<!\\)\$$", r"\\Z", patrn)
        yield from builtin(validator, strict, instance, schema)

    import jsonschema.validators

    return jsonschema.validators.extend(cls, {"pattern": pattern})  # type: ignore[no-untyped-call]


def show_value(value: object, limit: int = 40) -> str:
    """Quote a value the way a rule author wrote it: ``'ten'``, ``7``, ``true``, ``null``."""
    if isinstance(value, str):
        text = value if len(value) <= limit else value[: limit - 3] + "..."
        return f"'{text}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, Mapping):
        return _TYPE_NAMES["object"]
    if isinstance(value, (list, tuple)):
        return _TYPE_NAMES["array"]
    return repr(value)[:limit]


def _plain(value: object) -> str:
    """An enum/const option in a message: strings unquoted, others as :func:`show_value`."""
    return value if isinstance(value, str) else show_value(value)


#: The ``x-pattern-message`` texts of the structure (``variant.structure.json``) as msgids, so
#: the catalogue holds them: ``{value}`` there is ``%(value)s`` here.
PATTERN_MESSAGES = (
    # Translators: value is the author's value, quoted; our-club, australian, 7NT, 10H, MIS,
    # OMIS, BMIS and the paths are codes of the rule file: keep them.
    N_(
        "%(value)s is not a variant id: use lower-case letters, digits and hyphens, starting"
        " with a letter or digit (our-club)"
    ),
    N_(
        "%(value)s is neither a built-in variant id (australian) nor a relative path to a"
        " .yaml or .yml file (../house/ours.yaml)"
    ),
    N_(
        "%(value)s is not a bid code: a level and a strain in capitals (7NT, 10H), or a special"
        " bid's code in capitals (MIS, OMIS)"
    ),
    N_(
        "%(value)s is not a special bid code: capital letters and digits, starting with a"
        " letter (MIS, OMIS, BMIS)"
    ),
)


def _where(path: KeyPath) -> str:
    # Translators: where a key is in a rule file: path is a dotted key path (deal.kitty).
    return Phrase(N_("in %(path)s"), path=render_path(path)) if path else _TOP


_TOP = Phrase(N_("at the top level"))


#: The most allowed values a message lists before a "did you mean" (more: the suggestion alone).
_LONGEST_LIST = 8


def _suggest(word: object, options: Iterable[object]) -> str:
    if not isinstance(word, str):
        return ""
    strings = [o for o in options if isinstance(o, str)]
    close = difflib.get_close_matches(word, strings, n=1)
    # Translators: after a wrong key or value of a rule file; word is the close spelling.
    return Phrase(N_("; did you mean '%(word)s'?"), word=close[0]) if close else ""


def _at(data: object, path: KeyPath) -> object:
    for elem in path:
        try:
            data = data[elem]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _resolve_ref(root: Mapping[str, Any], ref: object) -> object:
    """Resolve a local ``$ref`` (``#/...``) inside ``root``; anything else gives None."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    node: object = root
    pointer = unquote(ref[1:])
    if not pointer:
        return root
    for part in pointer.lstrip("/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isascii() and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _schema_nodes(root: Mapping[str, Any], schema_path: Sequence[object]) -> list[object]:
    """The schema nodes along ``schema_path`` (root first), following local ``$ref``s."""
    nodes: list[object] = [root]
    node: object = root
    for step in schema_path:
        for _ in range(20):  # follow chains of $ref, bounded
            if isinstance(node, Mapping) and step not in node and "$ref" in node:
                node = _resolve_ref(root, node["$ref"])
                nodes.append(node)
            else:
                break
        in_map = isinstance(node, Mapping) and step in node
        in_list = isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
        if not (in_map or in_list):
            break
        node = node[step]  # type: ignore[index]
        nodes.append(node)
    return nodes


def _clause(root: Mapping[str, Any], error: ValidationError, prefer: object = None) -> str | None:
    if isinstance(prefer, Mapping) and isinstance(prefer.get("x-clause"), str):
        return str(prefer["x-clause"])
    for node in reversed(_schema_nodes(root, list(error.absolute_schema_path))):
        if isinstance(node, Mapping) and isinstance(node.get("x-clause"), str):
            return str(node["x-clause"])
    return None


def _type_message(expected: object, value: object) -> str:
    names = [expected] if isinstance(expected, str) else list(expected or [])  # type: ignore[call-overload]
    kinds = [_TYPE_NAMES.get(str(n), str(n)) for n in names]
    wanted = kinds[0] if kinds else ""
    for kind in kinds[1:]:
        wanted = Phrase(N_("%(first)s or %(second)s"), first=wanted, second=kind)
    # Translators: wanted is a kind of value (a string, a list...), value the author's value.
    return Phrase(N_("expected %(wanted)s, got %(value)s"), wanted=wanted, value=show_value(value))


#: Per schema (by identity): every key the schema allows anywhere, with the places it is allowed
#: (rendered paths, ``[]`` for any item of a list), for the "belongs in" hint.
_PLACES: dict[int, tuple[Mapping[str, Any], dict[str, list[str]]]] = {}


def _key_places(root: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every property name of ``root``'s schema and where it is allowed, walking ``$ref``,
    ``items``, ``oneOf``/``anyOf``/``allOf`` (bounded: each ``$ref`` is entered once a path)."""
    cached = _PLACES.get(id(root))
    if cached is not None and cached[0] is root:
        return cached[1]
    places: dict[str, list[str]] = {}

    def walk(node: object, at: str, refs: frozenset[str]) -> None:
        if not isinstance(node, Mapping):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref not in refs:
            walk(_resolve_ref(root, ref), at, refs | {ref})
        for word in ("oneOf", "anyOf", "allOf"):
            for sub in node.get(word) or ():
                walk(sub, at, refs)
        walk(node.get("items"), f"{at}[]", refs)
        props = node.get("properties")
        if isinstance(props, Mapping):
            for key, sub in props.items():
                here = f"{at}.{key}" if at else str(key)
                seen = places.setdefault(str(key), [])
                if at not in seen:
                    seen.append(at)
                walk(sub, here, refs)

    walk(root, "", frozenset())
    _PLACES[id(root)] = (root, places)
    return places


def _unknown_key_hint(key: object, path: KeyPath, known: Any, root: Mapping[str, Any]) -> str:
    """What follows "unknown key 'k' in p": where the key belongs when it is a key of another
    place (a right key at the wrong level); else a close spelling; else the keys allowed here."""
    if isinstance(key, str):
        here = re.sub(r"\[\d+\]", "[]", render_path(path))
        elsewhere = [at for at in _key_places(root).get(key, []) if at != here]
        if elsewhere:
            places = [Phrase(N_("under %(path)s"), path=at) if at else _TOP for at in elsewhere[:3]]
            where = places[0]
            for place in places[1:]:
                where = Phrase(N_("%(first)s or %(second)s"), first=where, second=place)
            # Translators: key is a key of a rule file written in the wrong place; where says
            # where it goes (under auction.ladder, at the top level).
            return Phrase(N_("; '%(key)s' belongs %(where)s"), key=key, where=where)
    close = _suggest(key, known)
    if close:
        return close
    names = sorted(str(k) for k in known) if isinstance(known, Mapping | list | tuple) else []
    if names:
        return Phrase(N_("; the keys allowed here are: %(keys)s"), keys=", ".join(names))
    return ""


def _unknown_keys(
    marks: Marks,
    path: KeyPath,
    extras: list[Any],
    known: Any,
    clause: str | None,
    root: Mapping[str, Any],
) -> list[Diagnostic]:
    """One diagnostic per unknown key, at the key, with a "did you mean" where one is close,
    where it belongs when it is a key of another place, or else the keys allowed there."""
    return [
        marks.diagnostic(
            (*path, k),
            # Translators: key is the author's key; where is "in deal" or "at the top level";
            # hint is empty or a "; did you mean ..." message.
            Phrase(
                N_("unknown key '%(key)s' %(where)s%(hint)s"),
                key=k,
                where=_where(path),
                hint=_unknown_key_hint(k, path, known, root),
            ),
            at_key=True,
            clause=clause,
        )
        for k in extras
    ]


def _diagnostics(
    error: ValidationError, data: object, marks: Marks, root: Mapping[str, Any]
) -> list[Diagnostic]:
    if error.validator in ("oneOf", "anyOf") and error.context:
        from jsonschema.exceptions import best_match

        best = best_match([error])
        if best is not None and best is not error:
            return _diagnostics(best, data, marks, root)
    path: KeyPath = tuple(error.absolute_path)
    value = error.instance
    keyword = str(error.validator)
    arg: Any = error.validator_value
    schema: Any = error.schema if isinstance(error.schema, Mapping) else {}
    clause = _clause(root, error)

    if keyword == "additionalProperties" and arg is False and isinstance(value, Mapping):
        known = schema.get("properties", {})
        patterns = "|".join(schema.get("patternProperties", {}))
        extras = [
            k for k in value if k not in known and not (patterns and re.search(patterns, str(k)))
        ]
        return _unknown_keys(marks, path, extras, known, clause, root)
    if keyword == "unevaluatedProperties" and isinstance(value, Mapping):
        known = _all_properties(schema, root)
        extras = [k for k in value if repr(k) in error.message and k not in known]
        return _unknown_keys(marks, path, extras, known, clause, root)
    if keyword == "required" and isinstance(value, Mapping):
        missing = [
            k for k in arg if k not in value and error.message == f"{k!r} is a required property"
        ]
        props = schema.get("properties", {})
        return [
            marks.diagnostic(
                path,
                Phrase(N_("missing key '%(key)s' %(where)s"), key=k, where=_where(path)),
                clause=_clause(root, error, props.get(k) if isinstance(props, Mapping) else None),
            )
            for k in missing
        ]

    parent = _at(data, path)
    if (
        "propertyNames" in error.absolute_schema_path
        and isinstance(value, str)
        and isinstance(parent, Mapping)
        and value in parent
    ):
        message = _value_message(error, keyword, arg, value, schema)
        return [
            marks.diagnostic(
                (*path, value),
                Phrase(
                    N_("invalid key %(key)s %(where)s: %(reason)s"),
                    key=show_value(value),
                    where=_where(path),
                    reason=message,
                ),
                at_key=True,
                clause=clause,
            )
        ]
    return [
        marks.diagnostic(path, _value_message(error, keyword, arg, value, schema), clause=clause)
    ]


def _all_properties(schema: Mapping[str, Any], root: Mapping[str, Any]) -> list[str]:
    """Property names declared by ``schema`` and its directly combined subschemas."""
    names: list[str] = []
    todo: list[object] = [schema]
    seen = 0
    while todo and seen < 100:
        seen += 1
        node = todo.pop()
        if not isinstance(node, Mapping):
            continue
        props = node.get("properties")
        if isinstance(props, Mapping):
            names.extend(str(k) for k in props)
        if "$ref" in node:
            todo.append(_resolve_ref(root, node["$ref"]))
        for word in ("allOf", "anyOf", "oneOf"):
            subs = node.get(word)
            if isinstance(subs, list):
                todo.extend(subs)
        for word in ("if", "then", "else"):
            todo.append(node.get(word))
    return names


def _value_message(
    error: ValidationError, keyword: str, arg: Any, value: object, schema: Mapping[str, Any]
) -> str:
    custom = schema.get("x-message")
    if isinstance(custom, str):
        return Phrase(custom)
    shown = show_value(value)
    if keyword == "type":
        return _type_message(arg, value)
    if keyword == "enum" and isinstance(arg, list):
        hint = _suggest(value, arg)
        if len(arg) > _LONGEST_LIST and hint:
            # a long list (the 51 clause ids) would bury the suggestion: give it alone
            return Phrase(
                N_("%(value)s is not one of the %(count)s allowed values%(hint)s"),
                value=shown,
                count=len(arg),
                hint=hint,
            )
        options = ", ".join(_plain(o) for o in arg)
        # Translators: value is the author's value; options the allowed values (unquoted words
        # of the rule file's language, never translated); hint empty or "; did you mean ...".
        return Phrase(
            N_("%(value)s is not one of: %(options)s%(hint)s"),
            value=shown,
            options=options,
            hint=hint,
        )
    if keyword == "const":
        return Phrase(N_("expected %(wanted)s, got %(value)s"), wanted=show_value(arg), value=shown)
    if keyword == "minimum":
        return Phrase(
            N_("%(value)s is less than the minimum of %(limit)s"),
            value=shown,
            limit=show_value(arg),
        )
    if keyword == "maximum":
        return Phrase(
            N_("%(value)s is greater than the maximum of %(limit)s"),
            value=shown,
            limit=show_value(arg),
        )
    if keyword == "exclusiveMinimum":
        return Phrase(
            N_("%(value)s must be greater than %(limit)s"), value=shown, limit=show_value(arg)
        )
    if keyword == "exclusiveMaximum":
        return Phrase(
            N_("%(value)s must be less than %(limit)s"), value=shown, limit=show_value(arg)
        )
    if keyword == "multipleOf":
        return Phrase(
            N_("%(value)s is not a multiple of %(step)s"), value=shown, step=show_value(arg)
        )
    if keyword == "pattern":
        words = schema.get("x-pattern-message")
        if isinstance(words, str):  # plain words instead of a regular expression
            template = words.replace("%", "%%").replace("{value}", "%(value)s")
            return Phrase(template, value=shown) if "%(value)s" in template else Phrase(template)
        # Translators: pattern is a regular expression of the schema, kept as it is.
        return Phrase(
            N_("%(value)s does not match the pattern %(pattern)s"), value=shown, pattern=arg
        )
    if keyword == "minLength" and isinstance(value, str):
        return Phrase(N_("%(value)s is shorter than %(limit)s characters"), value=shown, limit=arg)
    if keyword == "maxLength" and isinstance(value, str):
        return Phrase(N_("%(value)s is longer than %(limit)s characters"), value=shown, limit=arg)
    if keyword == "minItems" and isinstance(value, list):
        return Phrase(
            N_("expected at least %(limit)s items, got %(count)s"), limit=arg, count=len(value)
        )
    if keyword == "maxItems" and isinstance(value, list):
        return Phrase(
            N_("expected at most %(limit)s items, got %(count)s"), limit=arg, count=len(value)
        )
    if keyword == "uniqueItems" and isinstance(value, list):
        dup = _first_duplicate(value)
        if dup:
            return Phrase(N_("duplicate item %(value)s in the list"), value=show_value(dup[0]))
        return Phrase(N_("duplicate items"))
    if keyword == "minProperties" and isinstance(value, Mapping):
        return Phrase(
            N_("expected at least %(limit)s keys, got %(count)s"), limit=arg, count=len(value)
        )
    if keyword == "maxProperties" and isinstance(value, Mapping):
        return Phrase(
            N_("expected at most %(limit)s keys, got %(count)s"), limit=arg, count=len(value)
        )
    if keyword == "not":
        return Phrase(N_("%(value)s is not allowed here"), value=shown)
    if keyword == "oneOf" and not error.context:
        return Phrase(N_("%(value)s matches more than one of the allowed forms"), value=shown)
    if keyword in ("oneOf", "anyOf"):
        context = error.context or []
        if context and all(e.validator == "type" and not e.relative_path for e in context):
            wanted: list[str] = []
            for e in context:
                val: Any = e.validator_value
                for name in [val] if isinstance(val, str) else list(val):
                    if name not in wanted:
                        wanted.append(name)
            return _type_message(wanted, value)
        return Phrase(N_("%(value)s does not match any of the allowed forms"), value=shown)
    return str(error.message)


def _first_duplicate(items: list[Any]) -> tuple[object] | None:
    seen: set[str] = set()
    for item in items:
        key = json.dumps(item, sort_keys=True, default=str)
        if key in seen:
            return (item,)
        seen.add(key)
    return None
