"""A catalogue's ``Plural-Forms`` header, read and evaluated without running it as code.

The header is a C expression in ``n`` (``nplurals=2; plural=(n != 1);``). Python's gettext
compiles it into Python with :func:`eval`, so a translator's header could crash every command
that loads the catalogue (a division by zero, an unbalanced parenthesis, nesting past Python's
limits) or try more. Here it is parsed by a small recursive-descent parser of exactly the
gettext grammar (integers, ``n``, ``! * / % + - < <= > >= == != && || ?:``, parentheses), at
most :data:`MAX_DEPTH` deep and :data:`MAX_LENGTH` long, into a tree that :func:`evaluate`
walks. :func:`check` refuses a header whose expression does not give a form ``0 <= k <
nplurals`` for every ``n`` from 0 to :data:`CHECKED` (and a few large ones), or divides by
zero there; the error names the problem, and the caller gives its ``file:line``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import SupportsInt, cast

__all__ = [
    "CHECKED",
    "MAX_DEPTH",
    "MAX_LENGTH",
    "MAX_PLURALS",
    "PluralForms",
    "PluralFormsError",
    "parse",
]

#: The longest expression read, the deepest nesting, and the most forms a language may have.
MAX_LENGTH = 1000
MAX_DEPTH = 20
MAX_PLURALS = 10
#: Every count from 0 to this one (and :data:`LARGE`) must give a form.
CHECKED = 2000
LARGE = (10**4, 10**5 + 1, 10**6 + 2, 10**9 + 3, 2**31 - 1)

_TOKEN = re.compile(r"\s*(?:(\d+)|(n)|(&&|\|\||[=!<>]=|[-+*/%<>!?:()]))")
_HEADER = re.compile(r"^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=(.*?);?\s*$", re.S)


class PluralFormsError(ValueError):
    """A ``Plural-Forms`` header that cannot be used; the message says why."""


Node = tuple[object, ...]
_BINARY: dict[str, Callable[[int, int], int]] = {
    "*": lambda a, b: a * b,
    "/": lambda a, b: _c_div(a, b),
    "%": lambda a, b: a - b * _c_div(a, b),
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
}
#: Binary operators by precedence level, loosest first (``&&``, ``||`` short-circuit apart).
_LEVELS: tuple[tuple[str, ...], ...] = (
    ("==", "!="),
    ("<", "<=", ">", ">="),
    ("+", "-"),
    ("*", "/", "%"),
)


def _c_div(a: int, b: int) -> int:
    """C's integer division (towards zero); :class:`ZeroDivisionError` for ``b == 0``."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, object]] = []
        pos = 0
        text = text.rstrip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                raise PluralFormsError(f"unexpected {text[pos:].strip()[:20]!r} in plural=")
            if m.group(1) is not None:
                self.tokens.append(("int", int(m.group(1)[:18])))
            elif m.group(2) is not None:
                self.tokens.append(("n", None))
            else:
                self.tokens.append(("op", m.group(3)))
            pos = m.end()
            if text[pos:].strip() == "":
                break
        self.at = 0
        self.depth = 0

    def peek(self) -> str | None:
        if self.at < len(self.tokens) and self.tokens[self.at][0] == "op":
            return str(self.tokens[self.at][1])
        return None

    def take(self, op: str) -> None:
        if self.peek() != op:
            got = "the end" if self.at >= len(self.tokens) else repr(self.tokens[self.at][1])
            raise PluralFormsError(f"expected {op!r} in plural=, found {got}")
        self.at += 1

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise PluralFormsError(f"plural= is nested more than {MAX_DEPTH} deep")

    def expression(self) -> Node:
        self.deeper()
        test = self.binary_or()
        if self.peek() == "?":
            self.at += 1
            yes = self.expression()
            self.take(":")
            no = self.expression()
            test = ("?", test, yes, no)
        self.depth -= 1
        return test

    def binary_or(self) -> Node:
        depth = self.depth
        left = self.binary_and()
        while self.peek() == "||":
            self.at += 1
            self.deeper()  # each operator of a chain is one level more of the tree
            left = ("||", left, self.binary_and())
        self.depth = depth
        return left

    def binary_and(self) -> Node:
        depth = self.depth
        left = self.level(0)
        while self.peek() == "&&":
            self.at += 1
            self.deeper()
            left = ("&&", left, self.level(0))
        self.depth = depth
        return left

    def level(self, k: int) -> Node:
        if k == len(_LEVELS):
            return self.unary()
        depth = self.depth
        left = self.level(k + 1)
        while self.peek() in _LEVELS[k]:
            op = str(self.peek())
            self.at += 1
            self.deeper()
            left = (op, left, self.level(k + 1))
        self.depth = depth
        return left

    def unary(self) -> Node:
        if self.peek() == "!":
            self.at += 1
            self.deeper()
            node: Node = ("!", self.unary())
            self.depth -= 1
            return node
        if self.peek() == "(":
            self.at += 1
            inner = self.expression()
            self.take(")")
            return inner
        if self.at >= len(self.tokens):
            raise PluralFormsError("plural= ends too early")
        kind, value = self.tokens[self.at]
        if kind == "op":
            raise PluralFormsError(f"unexpected {value!r} in plural=")
        self.at += 1
        return ("n",) if kind == "n" else ("int", value)


def evaluate(node: Node, n: int) -> int:
    """The value of a parsed expression for the count ``n`` (C semantics, ints only)."""
    op = node[0]
    if op == "n":
        return n
    if op == "int":
        return cast(int, node[1])
    kids = cast(tuple[Node, ...], node[1:])
    if op == "!":
        return int(not evaluate(kids[0], n))
    if op == "?":
        return evaluate(kids[1] if evaluate(kids[0], n) else kids[2], n)
    left = evaluate(kids[0], n)
    if op == "&&":
        return int(bool(left) and bool(evaluate(kids[1], n)))
    if op == "||":
        return int(bool(left) or bool(evaluate(kids[1], n)))
    return _BINARY[str(op)](left, evaluate(kids[1], n))


@dataclass(frozen=True)
class PluralForms:
    """A checked ``Plural-Forms`` header: the number of forms and the expression's tree."""

    nplurals: int
    tree: Node

    def __call__(self, n: SupportsInt) -> int:
        """The form for the count ``n`` (0 where the expression fails for a count past those
        checked: a rule book never counts that far)."""
        try:
            k = evaluate(self.tree, int(n))
        except ZeroDivisionError:
            return 0
        return k if 0 <= k < self.nplurals else 0


def parse(header: str) -> PluralForms:
    """The checked plural forms of a ``Plural-Forms`` header value; :class:`PluralFormsError`."""
    if len(header) > MAX_LENGTH:
        raise PluralFormsError(f"the header is longer than {MAX_LENGTH} characters")
    m = _HEADER.match(header)
    if m is None:
        raise PluralFormsError("not of the form 'nplurals=N; plural=EXPRESSION;'")
    nplurals = int(m.group(1)[:4])
    if not 1 <= nplurals <= MAX_PLURALS:
        raise PluralFormsError(f"nplurals={m.group(1)[:10]} is not from 1 to {MAX_PLURALS}")
    parser = _Parser(m.group(2))
    tree = parser.expression()
    if parser.at != len(parser.tokens):
        raise PluralFormsError(f"unexpected {parser.tokens[parser.at][1]!r} in plural=")
    for n in (*range(CHECKED + 1), *LARGE):
        try:
            k = evaluate(tree, n)
        except ZeroDivisionError:
            raise PluralFormsError(f"plural= divides by zero for n={n}") from None
        if not 0 <= k < nplurals:
            raise PluralFormsError(f"plural= gives form {k} for n={n}, not 0 to {nplurals - 1}")
    return PluralForms(nplurals, tree)
