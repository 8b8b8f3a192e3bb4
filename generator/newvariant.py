"""``fivehundred new NAME --extends VARIANT``: write a commented starter rule file.

The file is ``NAME.yaml`` in the current folder (or ``-o PATH``); an existing file is never
overwritten. It holds:

- the schema header editors use for completion and hover help
  (``# yaml-language-server: $schema=...``) pointing at the installed ``variant.schema.json``.
  When the new file lies inside the checkout that holds the schema, the path is *relative to the
  new file* (``../specs/schema/variant.schema.json``), as in the built-in rule files: it keeps
  working when the checkout is moved or cloned elsewhere, and it is what a commit should hold.
  Anywhere else (a club's own repository, a home folder) it is an *absolute file URI*
  (``file:///…/site-packages/fivehundred/specs/schema/variant.schema.json``): a relative path
  from there into an installed package would break as soon as either moves, while the URI stays
  right for as long as this installation does (run ``fivehundred new`` again after reinstalling
  elsewhere, or point it at a copy of the schema);
- ``id``, ``extends`` and a ``name``: the only lines that take effect, so the file validates as
  it is and plays exactly as its base;
- the base's most common options, commented out, each with its current value (from the resolved
  base, with every default filled) and a one-line explanation, grouped under their sections so
  that uncommenting an option and its section lines gives valid YAML.

The file is written to a temporary sibling, compiled like any rule file, and only then linked into
place (``os.link`` fails if the name exists, so a file that appears meanwhile is not overwritten
either).
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..runtime.engine.errors import Diagnostic, SpecError
from ..runtime.files import os_error_text
from .options import starter_options, with_defaults

__all__ = ["COMMON_OPTIONS", "new_variant", "starter_text"]

#: What a starter file lists besides the options: rule-file items that are no option
#: (path, note, and the option they follow).
_STRUCTURE: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (
        ("auction", "ladder", "special"),
        "misères: code, value, the bid below",
        "auction.ladder.strains",
    ),
    (("scoring", "table"), "values per strain, lowest level first", "scoring.overtricks"),
    (("scoring", "formula"), "or the values by a formula", "scoring.overtricks"),
)


def _common_options() -> tuple[tuple[tuple[str, ...], str], ...]:
    out: list[tuple[tuple[str, ...], str]] = [
        (("summary",), "what your club plays, in a paragraph")
    ]
    for opt in starter_options():
        out.append((opt.keys, str(opt.note)))
        out.extend((path, note) for path, note, after in _STRUCTURE if after == opt.path)
    return tuple(out)


#: The items a starter file lists: path in the rule file, and a one-line explanation; every
#: option of the registry (:data:`~fivehundred.runtime.engine.tableformat.OPTIONS`, by its
#: ``note``) and the special bids and the score table.
COMMON_OPTIONS: tuple[tuple[tuple[str, ...], str], ...] = _common_options()
#: Option paths whose children the starter lists under them when the base gives a mapping.
_PARENTS = frozenset(path[:-1] for path, _ in COMMON_OPTIONS if len(path) > 1)

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
#: The longest variant id (the schema's ``maxLength``): it becomes file names.
MAX_ID_LENGTH = 64
#: Strings written plain: words starting with a letter, and bid codes such as 7NT or 10D.
_PLAIN = re.compile(r"^(?:[A-Za-z][A-Za-z0-9_-]*|[0-9]{1,2}(?:S|C|D|H|NT))$")
#: Plain words other YAML readers (YAML 1.1) take for booleans or null: always quoted.
_AMBIGUOUS = frozenset(
    word
    for base in ("y", "n", "yes", "no", "on", "off", "true", "false", "null")
    for word in (base, base.capitalize(), base.upper())
)
_COMMENT_COLUMN = 36
#: A path shown in the header comment: nothing that could end the comment line.
_SHOWN = re.compile(r"^[A-Za-z0-9._/ -]{1,200}$")


def _fail(where: str, message: str) -> SpecError:
    return SpecError([Diagnostic(where, 1, 1, message)])


def yaml_scalar(value: object) -> str:
    """``value`` as a YAML flow scalar that every YAML reader reads back unchanged."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if _PLAIN.fullmatch(value) and value not in _AMBIGUOUS:
            return value
        return _quoted(value)
    if isinstance(value, list):
        return "[" + ", ".join(yaml_scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (f"{yaml_scalar(str(k))}: {yaml_scalar(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    return _quoted(str(value))


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar: ``"`` and ``\\`` escaped, and every character that is not
    printable (controls, bidi overrides, line separators, surrogates) as an escape."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch.isprintable() and not 0xD800 <= code <= 0xDFFF and ch != "\ufeff":
            out.append(ch)
        elif code <= 0xFF:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


def _lookup(data: dict[str, Any], path: tuple[str, ...]) -> tuple[bool, object]:
    node: Any = data
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return False, None
        node = node[key]
    return True, node


def _line(indent: int, key: str, value: str | None, note: str) -> str:
    text = "# " + "  " * indent + (f"{key}:" if value is None else f"{key}: {value}")
    return f"{text.ljust(_COMMENT_COLUMN - 1)} # {note}"


def _options(base: dict[str, Any], complete: dict[str, Any]) -> list[str]:
    """The commented-out options, grouped by section, each with the base's value: as the base
    files write it, else its default (``complete``: ``base`` with every default)."""
    lines: list[str] = []
    open_sections: tuple[str, ...] = ()
    last_group: str | None = None
    for path, note in COMMON_OPTIONS:
        found, value = _lookup(base, path)
        if not found:
            found, value = _lookup(complete, path)
        if not found or (value is None and path[-1] in ("table", "formula")):
            continue  # under a parent the base gives no mapping (inkles: null), or unused
        if path in _PARENTS and isinstance(value, dict):
            continue  # a mapping: its options follow, one a line, under its section line
        group = path[0] if len(path) > 1 else ""  # top-level values go together
        if group != last_group:
            lines.append("")
            open_sections = ()
            last_group = group
        sections = path[:-1]
        shared = 0
        while shared < min(len(sections), len(open_sections)) and (
            sections[shared] == open_sections[shared]
        ):
            shared += 1
        for depth in range(shared, len(sections)):
            lines.append("# " + "  " * depth + f"{sections[depth]}:")
        open_sections = sections
        indent = len(sections)
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            lines.append(_line(indent, path[-1], None, note))
            lines.extend("# " + "  " * (indent + 1) + f"- {yaml_scalar(v)}" for v in value)
        else:
            lines.append(_line(indent, path[-1], yaml_scalar(value), note))
    return lines


def schema_reference(target: Path, schema_file: Path, checkout: Path) -> str:
    """The ``$schema=`` value for a rule file at ``target`` (see the module docstring)."""
    folder = target.resolve().parent
    schema = schema_file.resolve()
    root = checkout.resolve()
    if folder.is_relative_to(root):
        return Path(os.path.relpath(schema, folder)).as_posix()
    return schema.as_uri()


def starter_text(
    name: str,
    extends: str,
    base_id: str,
    base_name: str,
    base_data: dict[str, Any],
    schema_ref: str,
    shown_path: str | None = None,
) -> str:
    """The text of a starter file (see the module docstring)."""
    title = f"{name} (house rules on {base_name})"
    head = [
        f"# yaml-language-server: $schema={schema_ref}",
        "#",
        f"# {name}: house rules on the {base_id} variant. Written by `fivehundred new`.",
        "#",
        "# A house file states only what differs from its base: mappings merge key by key,",
        "# special bids merge by `bid` and choices by `clause` (keep only the items you change;",
        "# `- {bid: BMIS, remove: true}` removes one, `replace:` replaces the whole list), and",
        "# any other list or value replaces the base's. Below, the base's most common options are",
        "# commented out with their current values: uncomment an option (and the section lines",
        "# above it) and change the value. The schema named on the first line gives editors",
        "# completion and a description of every key. Check the file with",
        f"#   fivehundred validate {shown_path or name + '.yaml'}",
        "# and record why you chose a rule under `choices:` (clause, source, text).",
        f"id: {name}",
        f"extends: {yaml_scalar(extends)}",
        f"name: {_quoted(title)}",
    ]
    return "\n".join(head + _options(base_data, with_defaults(base_data))) + "\n"


def new_variant(name: str, extends: str, output: str | None = None) -> Path:
    """Write the starter file for ``name`` extending ``extends``; return its path.

    Raises :class:`SpecError` (one line, ``file:1:1: message``) when ``name`` is not a valid id,
    the file exists, the base cannot be found or compiled, or the result would not validate.
    """
    from .pipeline import (
        SCHEMA_FILE,
        SPECS_DIR,
        VARIANTS_DIR,
        compile_spec,
        find_spec,
    )
    from .resolve import load_spec_file

    if name.endswith((".yaml", ".yml")):
        name = name.rsplit(".", 1)[0]
    if not _ID.fullmatch(name):
        raise _fail(
            name, "a variant name is lower-case letters, digits and hyphens (e.g. our-club)"
        )
    if len(name) > MAX_ID_LENGTH:
        raise _fail(f"{name[:20]}...", f"a variant name is at most {MAX_ID_LENGTH} characters")
    if output == "":
        raise _fail("-o", "the name of the file to write is empty")
    target = Path(output) if output is not None else Path(f"{name}.yaml")
    if target.suffix not in (".yaml", ".yml"):
        raise _fail(str(target), "a rule file's name must end in .yaml or .yml")
    if target.exists() or target.is_symlink():
        raise _fail(str(target), "already exists; not overwritten (choose another NAME or -o)")
    if not target.resolve().parent.is_dir():
        raise _fail(str(target), "no such folder")

    base_path = find_spec(extends)
    base = compile_spec(base_path)
    path_like = extends.endswith((".yaml", ".yml")) or "/" in extends or Path(extends).exists()
    if path_like:
        ref = Path(os.path.relpath(base_path.resolve(), target.resolve().parent)).as_posix()
        if not ref.endswith((".yaml", ".yml")) or ref.startswith("/"):
            raise _fail(extends, "a base file must end in .yaml or .yml and lie on the same drive")
    else:
        ref = base.id
    base_data = load_spec_file(base_path, VARIANTS_DIR).data
    text = starter_text(
        name,
        ref,
        base.id,
        base.name,
        base_data,
        schema_reference(target, SCHEMA_FILE, SPECS_DIR.parent),
        target.as_posix() if _SHOWN.fullmatch(target.as_posix()) else None,
    )

    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{name}-", suffix=target.suffix, dir=target.parent)
    except OSError as exc:
        raise _fail(str(target), f"cannot write: {os_error_text(exc)}") from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.chmod(tmp, 0o644)
        try:
            compile_spec(tmp)  # the starter must validate as it is
        except SpecError as exc:
            raise SpecError(
                [replace(d, file=str(target)) if d.file == str(tmp) else d for d in exc.diagnostics]
            ) from None
        try:
            os.link(tmp, target)
        except FileExistsError:
            raise _fail(str(target), "already exists; not overwritten") from None
        except OSError:  # no hard links here: exclusive create instead
            with target.open("x", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
    except OSError as exc:  # a full or read-only disk
        raise _fail(str(target), f"cannot write: {os_error_text(exc)}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return target
