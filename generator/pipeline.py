"""From a rule file to a :class:`Ruleset`: load, resolve ``extends``, schema, semantic checks.

Every stage collects all of its problems; the first stage with problems stops the pipeline with
one :class:`SpecError` that lists them all as ``file:line:col: message``.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..runtime.engine.errors import ArgumentError, Diagnostic, SpecError
from ..runtime.engine.messages import N_, Phrase
from . import options
from .clauses import CLAUSE_IDS
from .model import Ruleset, build_ruleset
from .resolve import MergeNote, load_spec_file
from .schemacheck import check_schema
from .semantic import check_semantics
from .yamlload import Mark, Marks

__all__ = [
    "SPECS_DIR",
    "VARIANTS_DIR",
    "CheckedSpec",
    "builtin_ids",
    "builtin_path",
    "check_spec",
    "compile_spec",
    "complete_schema",
    "find_spec",
    "variant_schema",
]

#: The built-in rule files: the checkout's specs/ (installed: the package fivehundred.specs).
SPECS_DIR = Path(__file__).resolve().parent.parent / "specs"
VARIANTS_DIR = SPECS_DIR / "variants"
SCHEMA_FILE = SPECS_DIR / "schema" / "variant.schema.json"


@lru_cache(maxsize=1)
def variant_schema() -> dict[str, Any]:
    """The JSON Schema of a variant rule file (derived from the option registry; ``fivehundred
    build`` writes the same text to :data:`SCHEMA_FILE` for editors)."""
    return options.variant_schema()


def builtin_ids() -> list[str]:
    """The ids of the built-in variants (file stems under specs/variants, houses included)."""
    return sorted(p.stem for p in VARIANTS_DIR.rglob("*.yaml"))


def builtin_path(name: str) -> Path | None:
    """The rule file of the built-in variant ``name``, or None when ``name`` is not one.

    Only an exact id from ``fivehundred list`` names a built-in: a glob (``*``, ``**``), a
    module name (``__init__``) or any other text is not an id and finds nothing.
    """
    if not _ID.fullmatch(name):
        return None
    for candidate in sorted(VARIANTS_DIR.rglob("*.yaml")):
        if candidate.stem == name and candidate.is_file():
            return candidate
    return None


def find_spec(name: str) -> Path:
    """The rule file for a built-in id or a path; :class:`SpecError` if there is none."""
    if not isinstance(name, str):
        raise ArgumentError(f"a variant is an id or a path, not {name!r}")
    path = Path(name)
    try:
        exists = path.exists()
        is_file = path.is_file()
    except (OSError, ValueError) as exc:  # a name too long for the system, a NUL in it
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        shown = name if len(name) <= 60 else f"{name[:57]}..."
        message = Phrase(N_("no such rule file: %(reason)s"), reason=reason)
        raise SpecError([Diagnostic(shown, 1, 1, message)]) from None
    if path.suffix in (".yaml", ".yml") or "/" in name or exists:
        if not is_file:
            raise SpecError([Diagnostic(name, 1, 1, Phrase(N_("no such rule file")))])
        return path
    builtin = builtin_path(name)
    if builtin is not None:
        return builtin
    from difflib import get_close_matches

    hint = get_close_matches(name, builtin_ids(), n=1)
    # Translators: name and word are variant ids, quoted as Python quotes them ('tinny').
    message = (
        Phrase(
            N_("unknown variant %(name)s; did you mean %(word)s?"),
            name=repr(name),
            word=repr(hint[0]),
        )
        if hint
        else Phrase(N_("unknown variant %(name)s"), name=repr(name))
    )
    raise SpecError([Diagnostic(name, 1, 1, message)])


_ID = re.compile(r"[a-z0-9][a-z0-9-]*")


def _slug(name: str) -> str:
    """A variant id made from a file name: ``Our Club`` -> ``our-club``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "variant"


@lru_cache(maxsize=1)
def complete_schema() -> dict[str, Any]:
    """The schema of a complete (resolved) variant: :func:`variant_schema` made strict.

    A house file may give a keyed list's item partly (``- {bid: MIS, value: 230}``), remove one
    (``remove: true``) or replace the list (``{replace: [...]}``), so the editor schema only
    requires each item's key. After ``extends`` is resolved none of that remains: every item
    needs the keys of its ``x-required-when-complete``, and each keyed list is a plain array.
    """

    def strict(node: object) -> object:
        if isinstance(node, list):
            return [strict(x) for x in node]
        if not isinstance(node, dict):
            return node
        out = {k: strict(v) for k, v in node.items()}
        if "x-required-when-complete" in out:
            out["required"] = out["x-required-when-complete"]
            props = out.get("properties")
            if isinstance(props, dict):
                out["properties"] = {k: v for k, v in props.items() if k != "remove"}
        if "x-merge-key" in out:
            out["type"] = "array"
            for key in ("properties", "required", "additionalProperties"):
                out.pop(key, None)
        return out

    result = strict(variant_schema())
    assert isinstance(result, dict)
    return result


@dataclass(frozen=True)
class CheckedSpec:
    """A compiled rule file with what ``validate`` reports besides errors.

    - ``ruleset``: the validated :class:`Ruleset` (stale inherited prose already left out);
    - ``notes``: what ``extends`` did (:class:`~fivehundred.generator.resolve.MergeNote`);
    - ``warnings``: problems that do not stop the build (stale inherited prose);
    - ``base``: the id of the variant extended, or ``None``.
    """

    ruleset: Ruleset
    notes: tuple[MergeNote, ...] = ()
    warnings: tuple[Diagnostic, ...] = ()
    base: str | None = None


def compile_spec(path: Path, *, builtin: bool = False) -> Ruleset:
    """Compile one rule file (built-in or the author's own) into a validated :class:`Ruleset`
    (``builtin``: see :func:`check_spec`)."""
    return check_spec(path, builtin=builtin).ruleset


def check_spec(path: Path, *, builtin: bool = False) -> CheckedSpec:
    """Compile one rule file and report what ``extends`` did and what is stale.

    Raises :class:`SpecError` with every problem (schema, semantic, choices that cite a clause
    the variant does not have). Text inherited from the base that concerns a rule this file
    changes is *stale*: it is left out of the ruleset (so out of the rule book) and reported as a
    warning (see :func:`stale_prose`).

    A rule file of the user's cannot take a built-in variant's id (its records would replay
    against the built-in): only the built-in's own file, or a file the build compiles as a
    built-in (``builtin=True``), may.
    """
    resolved = load_spec_file(path, VARIANTS_DIR)
    # The one defaults pass: from here on every option the files leave out has its default.
    resolved = replace(
        resolved,
        data=options.with_defaults(resolved.data),
        base_data=None if resolved.base_data is None else options.with_defaults(resolved.base_data),
    )
    file = str(path)
    problems: list[Diagnostic] = []
    data = resolved.data
    ident = data.get("id")
    if not resolved.marks.has(("id",)) and isinstance(ident, str) and not _ID.fullmatch(ident):
        # The id comes from the file name (no `id:` line): say so, once, in plain words.
        problems.append(
            Diagnostic(
                file,
                1,
                1,
                # Translators: the text between backticks is a line of the rule file.
                Phrase(
                    N_(
                        "the file name gives the variant id '%(id)s', which is not a variant id"
                        " (lower-case letters, digits and hyphens): add a line such as"
                        " `id: %(slug)s` or rename the file"
                    ),
                    id=ident,
                    slug=_slug(ident),
                ),
            )
        )
        data = {**data, "id": _slug(ident)}
    elif isinstance(ident, str) and not builtin:
        problems += _builtin_id_taken(path, ident, resolved.marks)
    problems += check_schema(data, resolved.marks, complete_schema())
    # Semantic checks skip whatever the schema rejects, so both report at once.
    problems += check_semantics(resolved.data, resolved.marks)
    if problems:
        raise SpecError(sorted(set(problems)))
    extends = None
    if len(resolved.chain) > 1 and resolved.base_data is not None:
        extends = str(resolved.base_data.get("id", resolved.chain[1].stem))
    rs = build_ruleset(resolved.data, extends=extends)
    changed: tuple[str, ...] = ()
    if resolved.base_data is not None:
        from .diff import changed_clauses

        base = build_ruleset(resolved.base_data)
        changed = changed_clauses(base, rs)
        rs = rs.evolve(differences=changed)
    errors, warnings, keep, keep_summary = stale_prose(
        rs, resolved.data, resolved.marks, file, changed, extends
    )
    if errors:
        raise SpecError(sorted(set(errors)))
    order: dict[str, int] = {cid: n for n, cid in enumerate(CLAUSE_IDS)}
    kept = [c for i, c in enumerate(rs.choices) if i in keep]
    # In rule-book order, whatever order extends merged them in (a stable sort).
    kept.sort(key=lambda c: order.get(c["clause"], len(order)))
    rs = rs.evolve(choices=kept, summary=rs.summary if keep_summary else "")
    return CheckedSpec(rs, resolved.notes, tuple(warnings), extends)


def _builtin_id_taken(path: Path, ident: str, marks: Marks) -> list[Diagnostic]:
    """The problem of a user's rule file whose id is a built-in variant's (none for the
    built-in's own file)."""
    own = builtin_path(ident)
    if own is None:
        return []
    try:
        if os.path.samefile(own, path):
            return []
    except OSError:
        pass
    if marks.has(("id",)):
        mark = marks.value_mark(("id",))
        file, line, col = mark.file, mark.line, mark.col
        fix = Phrase(N_("give your variant its own id, such as `id: my-%(id)s`"), id=ident)
    else:
        file, line, col = str(path), 1, 1
        fix = Phrase(N_("add a line such as `id: my-%(id)s` or rename the file"), id=ident)
    return [
        Diagnostic(
            file,
            line,
            col,
            Phrase(
                N_(
                    "the id '%(id)s' is a built-in variant's (its records would replay against"
                    " the built-in): %(fix)s"
                ),
                id=ident,
                fix=fix,
            ),
        )
    ]


def stale_prose(
    rs: Ruleset,
    data: dict[str, Any],
    marks: Marks,
    file: str,
    changed: tuple[str, ...],
    base: str | None,
) -> tuple[list[Diagnostic], list[Diagnostic], set[int], bool]:
    """Choices that cite no clause of the variant, and inherited prose gone stale.

    A choice is tied to the clause it cites. A choice written in ``file`` must cite a clause
    the variant has (else an error, with "did you mean"). A choice inherited from the base is
    stale when its clause is one this file changes (``changed``: the clauses whose rules
    differ from the base) or one the variant no longer has. The summary is tied to every rule:
    an inherited summary is stale as soon as any rule differs from the base. Returns (errors,
    warnings, indexes of the choices to keep, whether to keep the summary).
    """
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    have = [c["id"] for c in rs.clauses]
    keep: set[int] = set()
    where = marks.value_mark(("extends",)) if base is not None else None
    at: str = "" if base is None else Phrase(N_(" (inherited from %(base)s)"), base=base)

    def warn(message: str, clause: str | None) -> None:
        mark = where if where is not None and where.file == file else Mark(file, 1, 1)
        shown = Phrase(N_("warning: %(message)s"), message=message)
        warnings.append(Diagnostic(mark.file, mark.line, mark.col, shown, clause))

    for i, choice in enumerate(rs.choices):
        own = marks.file(("choices", i, "text")) == file
        if own:
            if choice["clause"] in have:
                keep.add(i)
                continue
            close = difflib.get_close_matches(choice["clause"], have, n=1)
            hint: str = Phrase(N_("; did you mean '%(word)s'?"), word=close[0]) if close else ""
            errors.append(
                marks.diagnostic(
                    ("choices", i, "clause"),
                    Phrase(
                        N_(
                            "this choice cites clause '%(clause)s', which this variant does not"
                            " have (its rules never use it), so the engine could not follow"
                            " it%(hint)s"
                        ),
                        clause=choice["clause"],
                        hint=hint,
                    ),
                    clause=choice["clause"],
                )
            )
            continue
        origin = marks.value_mark(("choices", i, "text"))
        src = f"{Path(origin.file).name}:{origin.line}"
        if choice["clause"] not in have:
            warn(
                # Translators: at is empty or " (inherited from the base's id)"; where a file
                # and line (base.yaml:40); the text in parentheses is rule-file YAML.
                Phrase(
                    N_(
                        "the choice for clause '%(clause)s'%(at)s, %(where)s, is about a rule"
                        " this variant no longer has: it is left out of the rule book; remove it"
                        " (- {clause: %(clause)s, remove: true}) to silence this"
                    ),
                    clause=choice["clause"],
                    at=at,
                    where=src,
                ),
                choice["clause"],
            )
        elif choice["clause"] in changed:
            warn(
                Phrase(
                    N_(
                        "the choice for clause '%(clause)s'%(at)s, %(where)s, explains a rule"
                        " this file changes: it is left out of the rule book; give your own text"
                        " (- {clause: %(clause)s, source: ..., text: ...}) or remove it"
                        " (- {clause: %(clause)s, remove: true})"
                    ),
                    clause=choice["clause"],
                    at=at,
                    where=src,
                ),
                choice["clause"],
            )
        else:
            keep.add(i)
    keep_summary = True
    if rs.summary and changed and marks.file(("summary",)) != file:
        keep_summary = False
        origin = marks.value_mark(("summary",))
        warn(
            # Translators: clauses are clause ids (auction.misere, score.slam, ...).
            Phrase(
                N_(
                    "the summary%(at)s, %(where)s, describes the base, but this file changes"
                    " %(count)s rule clauses (%(clauses)s): the rule book leaves it out; write"
                    " your own summary"
                )
                if len(changed) != 1
                else N_(
                    "the summary%(at)s, %(where)s, describes the base, but this file changes"
                    " %(count)s rule clause (%(clauses)s): the rule book leaves it out; write"
                    " your own summary"
                ),
                at=at,
                where=f"{Path(origin.file).name}:{origin.line}",
                count=len(changed),
                clauses=", ".join(changed[:4]) + (", ..." if len(changed) > 4 else ""),
            ),
            None,
        )
    return errors, warnings, keep, keep_summary
