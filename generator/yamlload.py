"""Strict, safe YAML loading that remembers where every value came from.

:func:`load_yaml` reads one YAML document whose top level is a mapping and returns plain
Python data (``dict`` with ``str`` keys, ``list``, ``str``, ``int``, ``float``, ``bool``,
``None``) together with :class:`Marks`, the 1-based source position of every value and mapping
key by path.

libyaml (or PyYAML's pure-Python parser when the C extension is missing) is used only as a
*parser*: the event stream is composed into a node graph and constructed here, so that

- plain scalars follow the YAML 1.2 core schema: ``yes``/``no``/``on``/``off`` stay strings, only
  ``true``/``false`` (also ``True``, ``TRUE``, ...) are booleans, ``null``/``~``/empty are ``None``;
  quoted and block scalars are always strings;
- only the standard tags (``!!str !!int !!float !!bool !!null !!map !!seq``) are accepted;
- mapping keys are always strings: a key is its source text (``10: x`` has the key ``"10"``);
  duplicate keys are errors;
- the input is bounded: at most :data:`MAX_BYTES` bytes, :data:`MAX_DEPTH` levels of nesting and
  :data:`MAX_NODES` constructed nodes, counting every expansion of an alias, so alias bombs and
  recursive aliases are refused before they cost anything.

Every problem is raised as :class:`SpecError` with 1-based positions;
no input makes this module raise anything else.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import yaml

from ..runtime.engine.errors import Diagnostic, SpecError
from ..runtime.engine.messages import N_, Phrase

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_NODES",
    "KeyPath",
    "Mark",
    "Marks",
    "PathElem",
    "load_yaml",
    "render_path",
]

MAX_BYTES = 1024 * 1024
"""Largest accepted input, in bytes (UTF-8)."""
MAX_DEPTH = 50
"""Deepest accepted nesting of mappings and lists (the top-level mapping is level 1)."""
MAX_NODES = 20_000
#: The largest integer a rule file may hold (in magnitude): a signed 64-bit integer.
MAX_INT = 2**63 - 1
"""Most nodes (keys, values and collections) a document may construct, aliases expanded."""

PathElem = str | int
"""One step of a path: a mapping key or a list index."""
KeyPath = tuple[PathElem, ...]
"""Where a value sits in a document, e.g. ``("auction", "ladder", "special", 0, "value")``."""

try:
    _PARSER: type[Any] = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _PARSER = yaml.SafeLoader

_TAG_PREFIX = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL, _MAP, _SEQ = (
    _TAG_PREFIX + name for name in ("str", "int", "float", "bool", "null", "map", "seq")
)
_SCALAR_TAGS = frozenset({_STR, _INT, _FLOAT, _BOOL, _NULL})

_NULL_WORDS = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE_WORDS = frozenset({"true", "True", "TRUE"})
_FALSE_WORDS = frozenset({"false", "False", "FALSE"})
_INT10 = re.compile(r"[-+]?[0-9]+")
_INT8 = re.compile(r"0o[0-7]+")
_INT16 = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT_RE = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INF = re.compile(r"([-+]?)\.(?:inf|Inf|INF)")
_NAN = re.compile(r"\.(?:nan|NaN|NAN)")


class Mark(NamedTuple):
    """A position in a source file: file name, 1-based line and 1-based column."""

    file: str
    line: int
    col: int


def render_path(path: KeyPath) -> str:
    """Render a path for messages: ``("a", "special", 2, "value")`` -> ``a.special[2].value``.

    Keys that are not simple names are quoted (``deck["a b"]``); the empty path renders as ``""``.
    """
    out: list[str] = []
    for elem in path:
        if isinstance(elem, int):
            out.append(f"[{elem}]")
        elif elem and re.fullmatch(r"[A-Za-z0-9_\-]+", elem):
            out.append(f".{elem}" if out else elem)
        else:
            out.append('["' + elem.replace("\\", "\\\\").replace('"', '\\"') + '"]')
    return "".join(out)


class Marks:
    """Source positions of the values, and of the keys of mapping entries, of a document.

    Paths are tuples of ``str`` keys and ``int`` list indexes. Each position is a :class:`Mark`
    (file, line, col), so that after ``extends`` merging a path can point into a base file.
    Look-ups never fail: a path without a mark of its own takes its nearest ancestor's.
    """

    __slots__ = ("_keys", "_values", "default_file")

    def __init__(self, default_file: str = "<unknown>") -> None:
        """Create an empty set of marks; ``default_file`` is reported when nothing is marked."""
        self.default_file = default_file
        self._values: dict[KeyPath, Mark] = {}
        self._keys: dict[KeyPath, Mark] = {}

    # -- building ---------------------------------------------------------------------------
    def set_value(self, path: KeyPath, mark: Mark) -> None:
        """Record where the value at ``path`` starts."""
        self._values[tuple(path)] = mark

    def set_key(self, path: KeyPath, mark: Mark) -> None:
        """Record where the key of the mapping entry at ``path`` starts."""
        self._keys[tuple(path)] = mark

    def copy(self) -> Marks:
        """Return an independent copy."""
        new = Marks(self.default_file)
        new._values = dict(self._values)
        new._keys = dict(self._keys)
        return new

    def value_items(self) -> Iterator[tuple[KeyPath, Mark]]:
        """Iterate over every ``(path, value mark)`` recorded (no fallback entries)."""
        return iter(list(self._values.items()))

    def key_items(self) -> Iterator[tuple[KeyPath, Mark]]:
        """Iterate over every ``(path, key mark)`` recorded (no fallback entries)."""
        return iter(list(self._keys.items()))

    def has(self, path: KeyPath) -> bool:
        """Whether a value mark is recorded for exactly ``path`` (no ancestor fallback)."""
        return tuple(path) in self._values

    # -- look-ups ---------------------------------------------------------------------------
    def value_mark(self, path: KeyPath) -> Mark:
        """The :class:`Mark` of the value at ``path``, else of its nearest marked ancestor."""
        path = tuple(path)
        for end in range(len(path), -1, -1):
            mark = self._values.get(path[:end])
            if mark is not None:
                return mark
        return Mark(self.default_file, 1, 1)

    def key_mark(self, path: KeyPath) -> Mark:
        """The :class:`Mark` of the key of the entry at ``path``.

        For a list item or the root (which have no key) this is the value's mark; a path without
        marks falls back to its nearest marked ancestor (key mark first, then value mark).
        """
        path = tuple(path)
        for end in range(len(path), -1, -1):
            sub = path[:end]
            mark = self._keys.get(sub) or self._values.get(sub)
            if mark is not None:
                return mark
        return Mark(self.default_file, 1, 1)

    def value(self, path: KeyPath) -> tuple[int, int]:
        """1-based ``(line, col)`` of the value at ``path`` (see :meth:`value_mark`)."""
        mark = self.value_mark(path)
        return mark.line, mark.col

    def key(self, path: KeyPath) -> tuple[int, int]:
        """1-based ``(line, col)`` of the key of the entry at ``path`` (see :meth:`key_mark`)."""
        mark = self.key_mark(path)
        return mark.line, mark.col

    def file(self, path: KeyPath) -> str:
        """The file that the value at ``path`` comes from."""
        return self.value_mark(path).file

    def diagnostic(
        self, path: KeyPath, message: str, *, at_key: bool = False, clause: str | None = None
    ) -> Diagnostic:
        """A :class:`Diagnostic` at the value (or, with ``at_key``, the key) of ``path``."""
        mark = self.key_mark(path) if at_key else self.value_mark(path)
        return Diagnostic(mark.file, mark.line, mark.col, message, clause)

    def __len__(self) -> int:
        """Number of value marks recorded."""
        return len(self._values)

    def __repr__(self) -> str:
        """Short description for debugging."""
        return f"<Marks {len(self._values)} values, {len(self._keys)} keys>"


# -- node graph --------------------------------------------------------------------------------


class _Node:
    __slots__ = ("col", "height", "line", "size", "tag")

    def __init__(self, tag: str | None, line: int, col: int) -> None:
        self.tag = tag
        self.line = line
        self.col = col
        self.size = 1  # nodes constructed for this node, aliases expanded
        self.height = 0  # levels of collections, aliases expanded


class _Scalar(_Node):
    __slots__ = ("plain", "text")

    def __init__(self, tag: str | None, line: int, col: int, text: str, plain: bool) -> None:
        super().__init__(tag, line, col)
        self.text = text
        self.plain = plain


class _Collection(_Node):
    __slots__ = ("closed", "items", "start_total")

    def __init__(self, tag: str | None, line: int, col: int, start_total: int) -> None:
        super().__init__(tag, line, col)
        self.items: list[_Node] = []  # a mapping's items alternate key, value
        self.closed = False
        self.start_total = start_total


class _Seq(_Collection):
    __slots__ = ()


class _Map(_Collection):
    __slots__ = ()


class _Alias(_Node):
    __slots__ = ("name", "target")

    def __init__(self, target: _Node, name: str, line: int, col: int) -> None:
        super().__init__(None, line, col)
        self.target = target
        self.name = name
        self.size = target.size
        self.height = target.height


class _Fatal(Exception):
    """Internal: stop loading at once with one diagnostic."""

    def __init__(self, line: int, col: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.col = col
        self.message = message


def _pos(event: Any) -> tuple[int, int]:
    mark = event.start_mark
    if mark is None:  # pragma: no cover - libyaml always sets marks
        return 1, 1
    return int(mark.line) + 1, int(mark.column) + 1


def _compose(events: Iterator[Any]) -> _Node | None:
    """Build the node graph from parser events, enforcing every size limit as it goes."""
    anchors: dict[str, _Node] = {}
    stack: list[_Collection] = []
    root: _Node | None = None
    documents = 0
    total = 0

    def add(node: _Node) -> None:
        nonlocal root, total
        if isinstance(node, _Alias):
            total += node.size
            if len(stack) + node.height > MAX_DEPTH:
                raise _Fatal(node.line, node.col, _too_deep())
        elif not isinstance(node, _Collection):
            total += 1
        if total > MAX_NODES:
            raise _Fatal(node.line, node.col, Phrase(N_("too many nodes (alias expansion?)")))
        if stack:
            stack[-1].items.append(node)
        else:
            root = node

    for event in events:
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                line, col = _pos(event)
                raise _Fatal(line, col, "expected a single YAML document, found a second one")
        elif isinstance(event, yaml.ScalarEvent):
            line, col = _pos(event)
            plain = bool(event.implicit and event.implicit[0]) and event.tag is None
            scalar = _Scalar(event.tag, line, col, str(event.value), plain)
            add(scalar)
            if event.anchor is not None:
                anchors[event.anchor] = scalar
        elif isinstance(event, yaml.AliasEvent):
            line, col = _pos(event)
            name = str(event.anchor)
            target = anchors.get(name)
            if target is None:
                raise _Fatal(line, col, Phrase(N_("undefined alias '*%(name)s'"), name=name))
            if isinstance(target, _Collection) and not target.closed:
                raise _Fatal(line, col, Phrase(N_("recursive alias '*%(name)s'"), name=name))
            add(_Alias(target, name, line, col))
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            line, col = _pos(event)
            if len(stack) + 1 > MAX_DEPTH:
                raise _Fatal(line, col, _too_deep())
            total += 1
            if total > MAX_NODES:
                raise _Fatal(line, col, Phrase(N_("too many nodes (alias expansion?)")))
            cls: type[_Collection] = _Seq if isinstance(event, yaml.SequenceStartEvent) else _Map
            coll = cls(event.tag, line, col, total - 1)
            if stack:
                stack[-1].items.append(coll)
            else:
                root = coll
            stack.append(coll)
            if event.anchor is not None:
                anchors[event.anchor] = coll
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            done = stack.pop()
            done.closed = True
            done.size = total - done.start_total
            done.height = 1 + max((item.height for item in done.items), default=0)
    return root


# -- construction ------------------------------------------------------------------------------


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_TAG_PREFIX) :] if tag.startswith(_TAG_PREFIX) else tag


def _kind_name(node: _Node) -> str:
    return (
        Phrase(N_("a mapping"))
        if isinstance(node, _Map)
        else Phrase(N_("a list"))
        if isinstance(node, _Seq)
        # Translators: a single value of a YAML file (a word, a number), not a list or mapping.
        else Phrase(N_("a scalar"))
    )


def _too_deep() -> str:
    return Phrase(N_("nesting deeper than %(levels)s levels"), levels=MAX_DEPTH)


class _Constructor:
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.marks = Marks(filename)
        self.errors: list[Diagnostic] = []

    def error(self, node: _Node, message: str) -> None:
        self.errors.append(Diagnostic(self.filename, node.line, node.col, message))

    def mark(self, node: _Node) -> Mark:
        return Mark(self.filename, node.line, node.col)

    def check_tag(self, node: _Node) -> bool:
        """Refuse non-standard tags and tags of the wrong kind; True when the tag is usable."""
        tag = node.tag
        if tag is None or tag == "!":
            return True
        if isinstance(node, _Scalar):
            ok = tag in _SCALAR_TAGS
        elif isinstance(node, _Map):
            ok = tag == _MAP
        else:
            ok = tag == _SEQ
        if not ok:
            if tag in _SCALAR_TAGS or tag in (_MAP, _SEQ):
                self.error(
                    node,
                    Phrase(
                        N_("tag '%(tag)s' cannot be used on %(kind)s"),
                        tag=_short_tag(tag),
                        kind=_kind_name(node),
                    ),
                )
            else:
                self.error(
                    node,
                    Phrase(
                        N_(
                            "unsupported tag '%(tag)s'; only !!str, !!int, !!float, !!bool, "
                            "!!null, !!map and !!seq are allowed"
                        ),
                        tag=_short_tag(tag),
                    ),
                )
        return ok

    def scalar(self, node: _Scalar) -> object:
        text = node.text
        tag = node.tag
        if not self.check_tag(node):
            return text
        if tag is None:
            return self.plain(node) if node.plain else text
        if tag in (_STR, "!"):
            return text
        value = self.plain(node)
        if tag == _INT and isinstance(value, int) and not isinstance(value, bool):
            return value
        if tag == _FLOAT and isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if tag == _BOOL and isinstance(value, bool):
            return value
        if tag == _NULL and value is None:
            return None
        self.error(
            node,
            Phrase(N_("'%(text)s' is not a valid %(tag)s"), text=text, tag=_short_tag(str(tag))),
        )
        return text

    def plain(self, node: _Scalar) -> object:
        """Resolve a plain scalar by the YAML 1.2 core schema."""
        text = node.text
        if text in _NULL_WORDS:
            return None
        if text in _TRUE_WORDS:
            return True
        if text in _FALSE_WORDS:
            return False
        if _INT10.fullmatch(text) or _INT16.fullmatch(text) or _INT8.fullmatch(text):
            return self.integer(node, text)
        if _FLOAT_RE.fullmatch(text):
            return float(text)
        inf = _INF.fullmatch(text)
        if inf:
            return -math.inf if inf.group(1) == "-" else math.inf
        if _NAN.fullmatch(text):
            return math.nan
        return text

    def integer(self, node: _Scalar, text: str) -> object:
        """A decimal, ``0x`` or ``0o`` integer; one outside :data:`MAX_INT` is refused (no rule
        needs one, engines in other languages hold 64 bits, and Python will not even print
        one of more than 4300 digits)."""
        digits = text.lstrip("+-")
        if len(digits) > 40:
            value = None
        elif digits.startswith(("0x", "0o")):
            value = int(digits[2:], 16 if digits[1] == "x" else 8)
        else:
            value = int(digits, 10)
        if value is None or value > MAX_INT:
            shown = text if len(text) <= 24 else f"{text[:20]}..."
            self.error(
                node,
                Phrase(
                    N_("integer '%(text)s' is too large (at most %(limit)s)"),
                    text=shown,
                    limit=MAX_INT,
                ),
            )
            return text
        return -value if text.startswith("-") else value

    def construct(self, node: _Node, path: KeyPath) -> object:
        self.marks.set_value(path, self.mark(node))
        while isinstance(node, _Alias):
            node = node.target
        if isinstance(node, _Scalar):
            return self.scalar(node)
        assert isinstance(node, _Collection)
        self.check_tag(node)
        if isinstance(node, _Seq):
            return [self.construct(item, (*path, i)) for i, item in enumerate(node.items)]
        result: dict[str, Any] = {}
        first_line: dict[str, int] = {}
        items = node.items
        for i in range(0, len(items) - 1, 2):
            key_node, value_node = items[i], items[i + 1]
            key = self.key(key_node)
            if key is None:
                continue
            if key in first_line:
                self.error(
                    key_node,
                    Phrase(
                        N_("duplicate key '%(key)s' (first at line %(line)s)"),
                        key=key,
                        line=first_line[key],
                    ),
                )
                continue
            first_line[key] = key_node.line
            self.marks.set_key((*path, key), self.mark(key_node))
            result[key] = self.construct(value_node, (*path, key))
        return result

    def key(self, node: _Node) -> str | None:
        """The text of a mapping key, or None (with a diagnostic) if it is not a scalar."""
        target = node
        while isinstance(target, _Alias):
            target = target.target
        if not isinstance(target, _Scalar):
            self.error(
                node,
                Phrase(
                    N_("mapping keys must be plain text, not %(kind)s"), kind=_kind_name(target)
                ),
            )
            return None
        self.check_tag(target)
        return target.text


# -- entry point -------------------------------------------------------------------------------


def _line_col(text: str) -> tuple[int, int]:
    """1-based position just after ``text`` (a prefix of the input)."""
    return text.count("\n") + 1, len(text) - (text.rfind("\n") + 1) + 1


def _fail(filename: str, line: int, col: int, message: str) -> SpecError:
    return SpecError([Diagnostic(filename, line, col, message)])


def _too_large() -> str:
    return Phrase(N_("file is larger than %(limit)s bytes"), limit=MAX_BYTES)


def _decode(data: str | bytes, filename: str) -> str:
    if isinstance(data, str):
        if len(data) > MAX_BYTES:
            raise _fail(filename, 1, 1, _too_large())
        try:
            size = len(data.encode("utf-8"))
        except UnicodeEncodeError as exc:
            line, col = _line_col(data[: exc.start])
            raise _fail(
                filename, line, col, Phrase(N_("text contains an unpaired surrogate"))
            ) from None
        if size > MAX_BYTES:
            raise _fail(filename, 1, 1, _too_large())
        return data
    if len(data) > MAX_BYTES:
        raise _fail(filename, 1, 1, _too_large())
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _line_col(data[: exc.start].decode("utf-8", "replace"))
        byte = data[exc.start]
        raise _fail(
            filename,
            line,
            col,
            Phrase(
                N_("file is not valid UTF-8 (byte %(byte)s at offset %(offset)s)"),
                byte=f"0x{byte:02x}",
                offset=exc.start,
            ),
        ) from None


def _yaml_error(exc: yaml.YAMLError, text: str, filename: str) -> SpecError:
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        lines = text.splitlines()
        row = lines[mark.line] if 0 <= mark.line < len(lines) else ""
        tab = row.find("\t", 0, mark.column + 1)
        if tab >= 0:  # name the tab: the scanner's words ("cannot start any token") hide it
            return _fail(
                filename,
                mark.line + 1,
                tab + 1,
                Phrase(
                    N_(
                        "a tab character here: YAML indents with spaces only, never tabs; "
                        "replace the tab with spaces"
                    )
                ),
            )
        # Translators: problem and context are PyYAML's own English words (kept as they are):
        # "mapping values are not allowed here", "while parsing a block mapping".
        problem = exc.problem or "invalid YAML"
        message = Phrase(N_("YAML syntax error: %(problem)s"), problem=problem)
        if exc.context:
            cmark = exc.context_mark
            if cmark is not None:
                message = Phrase(
                    N_("YAML syntax error: %(problem)s (%(context)s at line %(line)s)"),
                    problem=problem,
                    context=exc.context,
                    line=cmark.line + 1,
                )
            else:
                message = Phrase(
                    N_("YAML syntax error: %(problem)s (%(context)s)"),
                    problem=problem,
                    context=exc.context,
                )
        return _fail(filename, mark.line + 1, mark.column + 1, message)
    if isinstance(exc, yaml.reader.ReaderError):
        # libyaml reports a byte offset into the UTF-8 encoding, PyYAML a character offset
        offset = max(exc.position, 0)
        if _PARSER is getattr(yaml, "CSafeLoader", None):
            prefix = text.encode("utf-8")[:offset].decode("utf-8", "replace")
        else:  # pragma: no cover - only without libyaml
            prefix = text[:offset]
        line, col = _line_col(prefix)
        char = exc.character
        # Translators: reason is PyYAML's own English words, kept as they are; code a
        # character's code (#x0007).
        message = (
            Phrase(
                N_("invalid character (%(code)s): %(reason)s"),
                code=f"#x{char:04x}",
                reason=exc.reason,
            )
            if isinstance(char, int)
            else Phrase(N_("invalid character: %(reason)s"), reason=exc.reason)
        )
        return _fail(filename, line, col, message)
    return _fail(filename, 1, 1, Phrase(N_("YAML error: %(error)s"), error=str(exc)))


def load_yaml(text: str | bytes, filename: str) -> tuple[dict[str, Any], Marks]:
    """Load one YAML document whose top level is a mapping, strictly and with positions.

    ``text`` is the file's content (``bytes`` must be UTF-8); ``filename`` is only used in
    diagnostics and marks. Returns the data and its :class:`Marks`. Raises
    :class:`SpecError` for every problem (never anything else).
    """
    source = _decode(text, filename)
    try:
        root = _compose(iter(yaml.parse(source, Loader=_PARSER)))
    except _Fatal as fatal:
        raise _fail(filename, fatal.line, fatal.col, fatal.message) from None
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, source, filename) from None
    if root is None:
        raise _fail(filename, 1, 1, Phrase(N_("the file is empty; expected a mapping of settings")))
    target = root
    while isinstance(target, _Alias):
        target = target.target
    if not isinstance(target, _Map):
        raise _fail(
            filename,
            root.line,
            root.col,
            Phrase(N_("expected a mapping at the top level, got %(kind)s"), kind=_describe(target)),
        )
    builder = _Constructor(filename)
    data = builder.construct(root, ())
    if builder.errors:
        raise SpecError(sorted(builder.errors))
    assert isinstance(data, dict)
    return data, builder.marks


def _describe(node: _Node) -> str:
    if isinstance(node, _Scalar):
        if node.plain and node.text in _NULL_WORDS:
            return Phrase(N_("an empty document"))
        return Phrase(N_("a scalar"))
    return _kind_name(node)
