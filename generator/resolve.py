"""Resolution of ``extends``: a variant file built on a built-in variant or on another file.

``extends: NAME`` names either a built-in variant id (``<builtin_dir>/NAME.yaml``) or, when NAME
ends in ``.yaml``/``.yml`` or contains a ``/``, a file relative to the extending file. The base is
resolved first (recursively) and the child is merged over it:

- mappings merge key by key, recursively; keys only in the base are inherited, keys only in the
  child are added (after the base's keys);
- a *keyed list* (a list whose items have an identity: the schema marks it with
  ``x-merge-key``; special bids by ``bid``, choices by ``clause``) merges item by item: a child
  item with the key of a base item merges into it like a mapping (in the base item's place), a
  child item with a new key is added after the base's items, and ``{KEY: K, remove: true}``
  removes the base's item K. Written as ``{replace: [...]}`` the list replaces the base's whole
  list instead, and an empty list (``[]``) replaces it with none;
- anything else in the child (a list of plain values such as strains, packets or score rows, a
  scalar, ``null``) replaces the base's value entirely;
- ``id`` is never inherited: without its own ``id`` a file's id is its file name's stem;
- the merged result has no ``extends`` key, and no ``remove``/``replace`` directives.

The :class:`~fivehundred.generator.yamlload.Marks` of the result point, for every path, into the
file its final value came from, so a problem in an inherited value is reported in the base file.
Every decision about a keyed list (inherited, overridden, added, removed, replaced) and every
setting the child overrides is recorded as a :class:`MergeNote` (``validate --explain``).
"""

from __future__ import annotations

import copy
import difflib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..runtime.engine.errors import Diagnostic, SpecError
from ..runtime.engine.messages import N_, Phrase
from .yamlload import MAX_BYTES, KeyPath, Mark, Marks, load_yaml

__all__ = [
    "MAX_EXTENDS",
    "MergeNote",
    "MergeResult",
    "ResolvedSpec",
    "builtin_ids",
    "keyed_lists",
    "load_spec_file",
    "merge",
    "merge_report",
    "merge_summary",
]

MAX_EXTENDS = 10
"""Most ``extends`` links in one chain (a chain of at most 11 files)."""

#: A keyed list's key -> how an item is named in messages.
_ITEM_WORDS = {"bid": N_("special bid"), "clause": N_("choice for clause")}


@lru_cache(maxsize=1)
def keyed_lists() -> dict[KeyPath, str]:
    """The keyed lists of a variant file: path (mapping keys only) -> the key of its items.

    Read from the schema: every array reached through ``properties`` that carries
    ``x-merge-key`` (``auction.ladder.special`` by ``bid``, ``choices`` by ``clause``).
    """
    from .options import variant_schema

    schema = variant_schema()
    defs = schema.get("$defs", {})
    out: dict[KeyPath, str] = {}

    def walk(node: Mapping[str, Any], path: KeyPath) -> None:
        if "$ref" in node and str(node["$ref"]).startswith("#/$defs/"):
            node = {**defs.get(str(node["$ref"])[8:], {}), **node}
        if "x-merge-key" in node:
            out[path] = str(node["x-merge-key"])
        for key, sub in (node.get("properties") or {}).items():
            if isinstance(sub, Mapping):
                walk(sub, (*path, key))

    walk(schema, ())
    return out


@dataclass(frozen=True)
class MergeNote:
    """What ``extends`` did with one setting or one item of a keyed list.

    - ``action``: ``inherited``, ``overridden``, ``added``, ``removed`` or ``replaced``;
    - ``path``: the setting, or the keyed list (``("auction", "ladder", "special")``);
    - ``key``: the item's identity in a keyed list (``"MIS"``), else ``None``;
    - ``mark``: where it was decided (the child's line; the base's line for an inherited item);
    - ``detail``: the fields an item override changes, or the value a setting had.
    """

    action: str
    path: KeyPath
    key: str | None
    mark: Mark
    detail: str = ""

    @property
    def label(self) -> str:
        """``auction.ladder.special[MIS]``, ``choices[score.freeze]``, ``scoring.target``."""
        dotted = ".".join(str(p) for p in self.path)
        return f"{dotted}[{self.key}]" if self.key is not None else dotted

    def __str__(self) -> str:
        """``file:line:col: label: action (detail)``."""
        more = f" ({self.detail})" if self.detail else ""
        return (
            f"{self.mark.file}:{self.mark.line}:{self.mark.col}: {self.label}: {self.action}{more}"
        )


@dataclass(frozen=True)
class MergeResult:
    """The merged document, its marks, what was done (:class:`MergeNote`) and the problems."""

    data: dict[str, Any]
    marks: Marks
    notes: tuple[MergeNote, ...] = ()
    problems: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True)
class ResolvedSpec:
    """A variant file with its ``extends`` chain resolved.

    - ``data``: the merged document (no ``extends`` key; ``id`` always present).
    - ``marks``: positions of every path of ``data``, each in the file the value came from.
    - ``chain``: the files merged, the loaded file first, then its base, its base's base, ...
    - ``base_data``: the fully resolved base (what ``data`` would be without the loaded file's
      own changes, with the base's own ``id``), or ``None`` when nothing is extended.
    - ``notes``: what merging the loaded file over its base did (empty without ``extends``).
    """

    data: dict[str, Any]
    marks: Marks
    chain: tuple[Path, ...]
    base_data: dict[str, Any] | None
    notes: tuple[MergeNote, ...] = field(default=())


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
    :class:`~fivehundred.runtime.engine.errors.SpecError` for any problem in any file of the chain.
    """
    return _load(Path(path), Path(builtin_dir), ())


def merge(
    base: dict[str, Any], base_marks: Marks, child: dict[str, Any], child_marks: Marks
) -> tuple[dict[str, Any], Marks]:
    """Merge ``child`` over ``base`` (see the module docstring) and the marks to match.

    Neither input is modified; the result shares no mutable objects with them. ``extends`` and
    ``id`` get no special treatment here (:func:`load_spec_file` handles them). Raises
    :class:`SpecError` for a misused ``remove``/``replace``.
    """
    result = merge_report(base, base_marks, child, child_marks)
    if result.problems:
        raise SpecError(sorted(result.problems))
    return result.data, result.marks


def merge_report(
    base: dict[str, Any],
    base_marks: Marks,
    child: dict[str, Any],
    child_marks: Marks,
    *,
    base_name: str = "the base",
    keyed: Mapping[KeyPath, str] | None = None,
) -> MergeResult:
    """:func:`merge`, with every decision as a :class:`MergeNote` and the problems collected."""
    merger = _Merger(keyed_lists() if keyed is None else keyed, base_marks, child_marks, base_name)
    data = merger.node(base, child, (), (), ())
    assert isinstance(data, dict)
    return MergeResult(data, merger.out, tuple(merger.notes), tuple(merger.problems))


_Index = dict[KeyPath, list[tuple[bool, KeyPath, Mark]]]


def _index(marks: Marks) -> tuple[_Index, dict[KeyPath, Mark], dict[KeyPath, Mark]]:
    """Every mark under every path prefix (value marks flagged True), and the exact marks."""
    idx: _Index = {}
    values = dict(marks.value_items())
    keys = dict(marks.key_items())
    for is_value, table in ((True, values), (False, keys)):
        for path, mark in table.items():
            for end in range(len(path) + 1):
                idx.setdefault(path[:end], []).append((is_value, path, mark))
    return idx, values, keys


def _short(value: object) -> str:
    """A value for a note, at most about 40 characters (a long text is cut inside its quotes)."""
    if isinstance(value, str) and len(value) > 36:
        value = value[:33] + "..."
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_replace(value: object) -> bool:
    return isinstance(value, dict) and list(value) == ["replace"]


class _Merger:
    """One merge of a child document over its base: data, marks, notes and problems."""

    def __init__(
        self, keyed: Mapping[KeyPath, str], base_marks: Marks, child_marks: Marks, base_name: str
    ) -> None:
        self.keyed = keyed
        self.base_name = base_name
        self.b_idx, self.b_val, self.b_key = _index(base_marks)
        self.c_idx, self.c_val, self.c_key = _index(child_marks)
        self.child_file = child_marks.default_file
        self.out = Marks(child_marks.default_file)
        self.notes: list[MergeNote] = []
        self.problems: list[Diagnostic] = []

    # -- marks --------------------------------------------------------------------------------
    def _copy(self, idx: _Index, src: KeyPath, dst: KeyPath) -> None:
        n = len(src)
        for is_value, path, mark in idx.get(src, ()):
            target = dst + path[n:]
            if is_value:
                self.out.set_value(target, mark)
            else:
                self.out.set_key(target, mark)

    def _own(self, bpath: KeyPath, cpath: KeyPath, opath: KeyPath) -> None:
        """The marks of a merged node itself: where the child wrote it, else the base."""
        value = self.c_val.get(cpath) or self.b_val.get(bpath)
        key = self.c_key.get(cpath) or self.b_key.get(bpath)
        if value is not None:
            self.out.set_value(opath, value)
        if key is not None:
            self.out.set_key(opath, key)

    def _child_mark(self, cpath: KeyPath) -> Mark:
        for end in range(len(cpath), -1, -1):
            mark = self.c_key.get(cpath[:end]) or self.c_val.get(cpath[:end])
            if mark is not None:
                return mark
        return Mark(self.child_file, 1, 1)

    def _value_mark(self, cpath: KeyPath) -> Mark:
        return self.c_val.get(cpath) or self._child_mark(cpath)

    def _problem(self, cpath: KeyPath, message: str) -> None:
        mark = self._value_mark(cpath)
        self.problems.append(Diagnostic(mark.file, mark.line, mark.col, message))

    # -- merging ------------------------------------------------------------------------------
    def node(
        self, base: object, child: object, bpath: KeyPath, cpath: KeyPath, opath: KeyPath
    ) -> object:
        key = self.keyed.get(opath) if all(isinstance(p, str) for p in opath) else None
        if isinstance(base, dict) and isinstance(child, dict) and not (key and _is_replace(child)):
            self._own(bpath, cpath, opath)
            result: dict[str, Any] = {}
            for k, value in base.items():
                if k in child:
                    result[k] = self.node(value, child[k], (*bpath, k), (*cpath, k), (*opath, k))
                else:
                    result[k] = copy.deepcopy(value)
                    self._copy(self.b_idx, (*bpath, k), (*opath, k))
                    self._inherited_items(value, (*bpath, k), (*opath, k))
            for k, value in child.items():
                if k not in base:
                    result[k] = self._take(value, (*cpath, k), (*opath, k), "added")
            return result
        if key is not None and _is_replace(child):
            assert isinstance(child, dict)
            return self._replace(child["replace"], key, cpath, opath)
        if key is not None and isinstance(base, list) and child == []:
            # An empty list has nothing to merge: it can only mean "none of the base's".
            self._copy(self.c_idx, cpath, opath)
            self.notes.append(
                MergeNote("replaced", opath, None, self._child_mark(cpath), "by an empty list")
            )
            return []
        if key is not None and isinstance(base, list) and isinstance(child, list):
            return self._keyed(base, child, key, bpath, cpath, opath)
        if _is_replace(child) and isinstance(base, list):
            self._problem(
                (*cpath, "replace"),
                # Translators: lists are the rule file's keyed lists (auction.ladder.special);
                # path the list's key path (deck.jokers).
                Phrase(
                    N_(
                        "'replace:' is for lists merged item by item (%(lists)s); %(path)s is"
                        " replaced as a whole anyway: write the list itself"
                    ),
                    lists=self._keyed_names(),
                    path=".".join(map(str, opath)),
                ),
            )
        if base == child:
            self._copy(self.c_idx, cpath, opath)
            return copy.deepcopy(child)
        return self._take(child, cpath, opath, "overridden", f"was {_short(base)}")

    def _inherited_items(self, value: object, bpath: KeyPath, opath: KeyPath) -> None:
        """Note every item of a keyed list the child leaves alone (nested ones included)."""
        if isinstance(value, dict):
            for k, sub in value.items():
                self._inherited_items(sub, (*bpath, k), (*opath, k))
            return
        key = self.keyed.get(opath)
        if key is None or not isinstance(value, list):
            return
        for i, item in enumerate(value):
            k = item.get(key) if isinstance(item, dict) else None
            if isinstance(k, str):  # a keyless item is the schema's to report
                mark = self.b_val.get((*bpath, i)) or Mark(self.child_file, 1, 1)
                self.notes.append(MergeNote("inherited", opath, k, mark))

    def _keyed_names(self) -> str:
        return ", ".join(".".join(map(str, p)) for p in self.keyed)

    def _take(
        self, value: object, cpath: KeyPath, opath: KeyPath, action: str, detail: str = ""
    ) -> object:
        """The child's value as it is (marks included), noted."""
        key = self.keyed.get(opath) if all(isinstance(p, str) for p in opath) else None
        if key is not None and _is_replace(value):
            assert isinstance(value, dict)
            return self._replace(value["replace"], key, cpath, opath)
        if key is not None and isinstance(value, list):
            self._no_removals(value, key, cpath, N_("there is no base list to remove it from"))
        self._copy(self.c_idx, cpath, opath)
        self.notes.append(MergeNote(action, opath, None, self._child_mark(cpath), detail))
        return copy.deepcopy(value)

    def _no_removals(self, items: list[Any], key: str, cpath: KeyPath, why: str) -> None:
        """Report every ``remove`` item of ``items``; ``why`` is an ``N_`` template."""
        for i, item in enumerate(items):
            if isinstance(item, dict) and "remove" in item:
                self._problem(
                    (*cpath, i, "remove"),
                    Phrase(N_("nothing to remove here: %(why)s"), why=Phrase(why)),
                )

    def _replace(self, items: object, key: str, cpath: KeyPath, opath: KeyPath) -> object:
        rpath = (*cpath, "replace")
        if isinstance(items, list):
            self._no_removals(items, key, rpath, N_("'replace:' gives the whole list"))
        self._copy(self.c_idx, rpath, opath)
        mark = self._child_mark(cpath)
        self.notes.append(MergeNote("replaced", opath, None, mark, "the whole list"))
        if self.c_val.get(rpath) is None and mark is not None:
            self.out.set_value(opath, mark)
        return copy.deepcopy(items)

    def _keyed(
        self,
        base: list[Any],
        child: list[Any],
        key: str,
        bpath: KeyPath,
        cpath: KeyPath,
        opath: KeyPath,
    ) -> list[Any]:
        word = (
            Phrase(_ITEM_WORDS[key])
            if key in _ITEM_WORDS
            else Phrase(N_("item with %(key)s"), key=key)
        )
        where = ".".join(map(str, opath))
        position: dict[str, int] = {}
        for i, item in enumerate(base):
            if isinstance(item, dict) and isinstance(item.get(key), str):
                position.setdefault(item[key], i)
        removed: set[int] = set()
        removals: list[MergeNote] = []
        merged: dict[int, int] = {}
        extra: list[int] = []
        seen: dict[str, int] = {}
        for ci, item in enumerate(child):
            k = item.get(key) if isinstance(item, dict) else None
            if not isinstance(k, str):
                extra.append(ci)  # the schema reports the missing or malformed key
                continue
            assert isinstance(item, dict)
            if k in seen:
                line = self._value_mark((*cpath, seen[k])).line
                self._problem(
                    (*cpath, ci, key),
                    # Translators: word names an item of a list (bid, clause), k its name in the
                    # rule file, where the list's path, key the key naming each item (id).
                    Phrase(
                        N_(
                            "%(word)s '%(name)s' is given twice in %(where)s (first at line"
                            " %(line)s): one item per %(key)s"
                        ),
                        word=word,
                        name=k,
                        where=where,
                        line=line,
                        key=key,
                    ),
                )
                continue
            seen[k] = ci
            if "remove" in item:
                if item["remove"] is not True:
                    self._problem(
                        (*cpath, ci, "remove"),
                        Phrase(
                            N_("'remove' takes only 'true' (leave the item out to keep the base's)")
                        ),
                    )
                elif set(item) - {key, "remove"}:
                    others = ", ".join(sorted(str(x) for x in set(item) - {key, "remove"}))
                    self._problem(
                        (*cpath, ci, "remove"),
                        # Translators: key is the list's key (bid, name); others the item's
                        # other keys, as the author wrote them.
                        Phrase(
                            N_(
                                "an item with 'remove: true' names only its %(key)s; drop"
                                " %(others)s"
                            ),
                            key=key,
                            others=others,
                        ),
                    )
                elif k not in position:
                    close = difflib.get_close_matches(k, list(position), n=1)
                    hint = Phrase(N_("; did you mean '%(word)s'?"), word=close[0]) if close else ""
                    have = ", ".join(position) or "none"
                    self._problem(
                        (*cpath, ci, key),
                        Phrase(
                            N_(
                                "nothing to remove: %(base)s has no %(word)s '%(name)s' in"
                                " %(where)s (it has: %(have)s)%(hint)s"
                            ),
                            base=self.base_name,
                            word=word,
                            name=k,
                            where=where,
                            have=have,
                            hint=hint,
                        ),
                    )
                else:
                    removed.add(position[k])
                    removals.append(MergeNote("removed", opath, k, self._child_mark((*cpath, ci))))
                continue
            if k in position:
                merged[position[k]] = ci
            else:
                extra.append(ci)
        self._own(bpath, cpath, opath)
        out: list[Any] = []
        for bi, item in enumerate(base):
            if bi in removed:
                continue
            oi = len(out)
            k = item.get(key) if isinstance(item, dict) else None
            if bi in merged:
                ci = merged[bi]
                before = len(self.notes)
                value = self.node(item, child[ci], (*bpath, bi), (*cpath, ci), (*opath, oi))
                del self.notes[before:]  # one note for the item, not one per field
                changed = [
                    f for f in child[ci] if f != key and (f not in item or item[f] != child[ci][f])
                ]
                self.notes.append(
                    MergeNote(
                        "overridden" if changed else "restated",
                        opath,
                        str(k),
                        self._child_mark((*cpath, ci)),
                        ", ".join(changed),
                    )
                )
                out.append(value)
            else:
                self._copy(self.b_idx, (*bpath, bi), (*opath, oi))
                mark = self.b_val.get((*bpath, bi)) or Mark(self.child_file, 1, 1)
                self.notes.append(
                    MergeNote("inherited", opath, k if isinstance(k, str) else None, mark)
                )
                out.append(copy.deepcopy(item))
        for ci in extra:
            oi = len(out)
            self._copy(self.c_idx, (*cpath, ci), (*opath, oi))
            item = child[ci]
            k = item.get(key) if isinstance(item, dict) else None
            self.notes.append(
                MergeNote(
                    "added",
                    opath,
                    k if isinstance(k, str) else None,
                    self._child_mark((*cpath, ci)),
                )
            )
            out.append(copy.deepcopy(item))
        self.notes.extend(removals)
        return out


def merge_summary(notes: tuple[MergeNote, ...] | list[MergeNote]) -> str:
    """One line for ``validate``: what ``extends`` did, keyed lists item by item.

    ``2 settings overridden; special bids: MIS overridden, BMIS removed, OMIS inherited;
    choices: 1 added, 4 inherited``.
    """
    keyed = keyed_lists()
    names: dict[KeyPath, str] = {
        ("auction", "ladder", "special"): "special bids",
        ("choices",): "choices",
    }
    settings: dict[str, int] = {}
    lists: dict[KeyPath, dict[str, list[str]]] = {}
    for note in notes:
        if note.key is None and not (note.path in keyed and note.action == "replaced"):
            settings[note.action] = settings.get(note.action, 0) + 1
            continue
        lists.setdefault(note.path, {}).setdefault(note.action, []).append(note.key or "list")
    parts: list[str] = []
    if settings:
        total = sum(settings.values())
        noun = "setting" if total == 1 else "settings"
        if len(settings) == 1:
            parts.append(f"{total} {noun} {next(iter(settings))}")
        else:
            what = ", ".join(f"{n} {action}" for action, n in settings.items())
            parts.append(f"{total} {noun} ({what})")
    for path, actions in lists.items():
        name = names.get(path, ".".join(map(str, path)))
        bits = []
        for action in ("overridden", "added", "removed", "replaced", "restated", "inherited"):
            keys = actions.get(action)
            if not keys:
                continue
            if action == "replaced":
                bits.append("replaced as a whole")
            elif len(keys) <= 3 and path != ("choices",):
                bits.append(f"{' '.join(keys)} {action}")
            else:
                bits.append(f"{len(keys)} {action}")
        parts.append(f"{name}: {', '.join(bits)}")
    return "; ".join(parts) if parts else "nothing changed"


def _root_directives(data: Mapping[str, Any], marks: Marks) -> list[Diagnostic]:
    """``remove``/``replace`` in a file that extends nothing: there is nothing to act on."""
    problems: list[Diagnostic] = []
    for path in keyed_lists():
        node: object = data
        for p in path:
            node = node.get(p) if isinstance(node, dict) else None
        if _is_replace(node):
            problems.append(
                marks.diagnostic(
                    (*path, "replace"),
                    Phrase(
                        N_(
                            "'replace:' replaces a base's list, but this file extends nothing:"
                            " write the list itself"
                        )
                    ),
                    at_key=True,
                )
            )
        elif isinstance(node, list):
            for i, item in enumerate(node):
                if isinstance(item, dict) and "remove" in item:
                    problems.append(
                        marks.diagnostic(
                            (*path, i, "remove"),
                            Phrase(
                                N_(
                                    "'remove' removes an item of a base's list, but this file"
                                    " extends nothing: leave the item out"
                                )
                            ),
                            at_key=True,
                        )
                    )
    return problems


def _error(mark: Mark, message: str) -> SpecError:
    return SpecError([Diagnostic(mark.file, mark.line, mark.col, message)])


def _read(path: Path) -> tuple[dict[str, Any], Marks]:
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise SpecError([Diagnostic(str(path), 1, 1, Phrase(N_("file not found")))]) from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        message = Phrase(N_("cannot read file: %(reason)s"), reason=reason)
        raise SpecError([Diagnostic(str(path), 1, 1, message)]) from None
    return load_yaml(raw, str(path))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:  # pragma: no cover - e.g. a symlink loop
        return os.path.abspath(a) == os.path.abspath(b)


def _missing_base(name: str, base: Path, builtin_dir: Path) -> str:
    """The message for ``extends: name`` naming a file that is not there: the absolute path
    tried (a path is relative to the extending file's folder) and what was probably meant."""
    tried = os.path.abspath(base)
    hints: list[Phrase] = []
    stem = Path(name).stem
    if stem in builtin_ids(builtin_dir):
        hints.append(
            Phrase(N_("the built-in variant is named by its id: extends: %(id)s"), id=stem)
        )
    folder = Path(tried).parent
    if folder.is_dir():
        try:
            near = sorted(p.name for p in folder.iterdir() if p.suffix in (".yaml", ".yml"))
        except OSError:  # pragma: no cover - an unreadable folder
            near = []
        close = difflib.get_close_matches(Path(name).name, near, n=1)
        if close:
            path = os.path.join(os.path.dirname(name), close[0])
            hints.append(Phrase(N_("did you mean '%(path)s'?"), path=path))
    else:
        hints.append(Phrase(N_("there is no folder %(folder)s"), folder=str(folder)))
    hint: str = ""
    for each in hints:
        hint = Phrase(N_("%(before)s; %(hint)s"), before=hint, hint=each)
    if os.path.isabs(name):
        return Phrase(
            N_("base file not found: '%(name)s' (looked for %(tried)s)%(hint)s"),
            name=name,
            tried=tried,
            hint=hint,
        )
    return Phrase(
        N_(
            "base file not found: '%(name)s' (looked for %(tried)s; a path is relative to the"
            " folder of the file that extends it)%(hint)s"
        ),
        name=name,
        tried=tried,
        hint=hint,
    )


def _locate(name: str, child: Path, builtin_dir: Path, where: Mark) -> Path:
    """The file that ``extends: name`` in ``child`` refers to (which must exist)."""
    if name.endswith((".yaml", ".yml")) or "/" in name:
        base = Path(os.path.normpath(child.parent / name))
        if not base.is_file():
            raise _error(where, _missing_base(name, base, builtin_dir))
        return base
    base = builtin_dir / f"{name}.yaml"
    if base.is_file():
        return base
    nested = sorted(p for p in Path(builtin_dir).rglob("*.yaml") if p.stem == name)
    if nested:
        return nested[0]
    known = builtin_ids(builtin_dir)
    close = difflib.get_close_matches(name, known, n=1)
    hint: str = ""
    if close:
        hint = Phrase(N_("; did you mean '%(word)s'?"), word=close[0])
    elif known:
        hint = Phrase(N_("; built-in variants are: %(ids)s"), ids=", ".join(known))
    # Translators: name is the author's value of extends; hint empty or "; did you mean ...".
    raise _error(
        where, Phrase(N_("unknown variant '%(name)s' in extends%(hint)s"), name=name, hint=hint)
    )


def _load(path: Path, builtin_dir: Path, stack: tuple[Path, ...]) -> ResolvedSpec:
    data, marks = _read(path)
    own_id = "id" in data
    if "extends" not in data:
        problems = _root_directives(data, marks)
        if problems:
            raise SpecError(problems)
        if not own_id:
            data["id"] = path.stem
        return ResolvedSpec(data=data, marks=marks, chain=(path,), base_data=None)

    where = marks.value_mark(("extends",))
    name = data.pop("extends")
    if not isinstance(name, str) or not name.strip():
        raise _error(
            where, Phrase(N_("extends must be a built-in variant id or a path to a .yaml file"))
        )
    base_path = _locate(name.strip(), path, builtin_dir, where)
    chain = (*stack, path)
    if any(_same_file(base_path, seen) for seen in chain):
        names = " -> ".join(p.name for p in (*chain, base_path))
        raise _error(where, Phrase(N_("circular extends: %(names)s"), names=names))
    if len(chain) > MAX_EXTENDS:
        names = " -> ".join(p.name for p in (*chain, base_path))
        raise _error(
            where,
            Phrase(
                N_("extends chain deeper than %(limit)s: %(names)s"), limit=MAX_EXTENDS, names=names
            ),
        )

    base = _load(base_path, builtin_dir, chain)
    base_view = {k: v for k, v in base.data.items() if k != "id"}
    base_marks = Marks(base.marks.default_file)
    for p, m in base.marks.value_items():
        if p[:1] != ("id",):
            base_marks.set_value(p, m)
    for p, m in base.marks.key_items():
        if p[:1] != ("id",):
            base_marks.set_key(p, m)
    result = merge_report(
        base_view, base_marks, data, marks, base_name=str(base.data.get("id", base_path.stem))
    )
    if result.problems:
        raise SpecError(sorted(result.problems))
    result.marks.set_value(("extends",), where)  # for warnings about what is inherited
    result.marks.set_key(("extends",), marks.key_mark(("extends",)))
    merged = dict(result.data)
    ident = merged.pop("id") if own_id else path.stem
    merged = {"id": ident, **merged}
    notes = tuple(n for n in result.notes if n.path[:1] != ("id",))
    return ResolvedSpec(
        data=merged,
        marks=result.marks,
        chain=(path, *base.chain),
        base_data=base.data,
        notes=notes,
    )
