"""Rule differences between two rulesets, in plain English (``fivehundred diff A B``).

:func:`differences` compares two :class:`Ruleset` values field by field and bid by bid and
returns one :class:`Difference` per rule that differs, each tied to the rule clause it concerns;
:func:`changed_clauses` gives just the clause ids (what a house variant's rule book lists in its
"differences from the base" section).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from ..runtime.engine.tableformat import Choice, Option
from .clauses import CLAUSE_IDS
from .model import Ruleset
from .options import diff_options, table_value

__all__ = [
    "Difference",
    "changed_clauses",
    "choice_differences",
    "differences",
    "format_differences",
    "plain_value",
]


@dataclass(frozen=True)
class Difference:
    """One rule that differs: its clause id and an English sentence naming both values."""

    clause: str
    text: str


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def plain_value(value: Any) -> str:
    """A rule's value in plain words: ``none``, ``yes``/``no``, a list joined by commas."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return _yes(value)
    if isinstance(value, tuple | list):
        return ", ".join(plain_value(v) for v in value) if value else "none"
    return str(value)


def _teams(rs: Ruleset) -> str:
    if all(len(t) == 1 for t in rs.teams):
        return "none (each player for himself)"
    return " ".join("{" + ", ".join(str(s) for s in t) + "}" for t in rs.teams)


def _packets(rs: Ruleset) -> str:
    return ", ".join(f"{n} to {to}" for to, n in rs.packets)


def _inkles(rs: Ruleset) -> str:
    if rs.inkles is None:
        return "none"
    return f"the first {rs.inkles[0]} bidders' {rs.inkles[1]}-level bids"


def _reader(opt: Option) -> Callable[[Ruleset], Any]:
    return lambda rs: table_value(rs.tables, opt)


#: Rules that are no single option of the registry, or whose value needs words of its own.
_COMPILED: tuple[tuple[str, str, Callable[[Ruleset], Any]], ...] = (
    ("seats.teams", "teams", _teams),
    ("deal.packets", "deal packets", _packets),
    ("auction.inkles", "inkles", _inkles),
    ("kitty.sans", "sans kitty bonus", attrgetter("sans_kitty_bonus")),
)

#: (clause, label, how to read the value) for every scalar rule: each option of the registry
#: with a diff label (:func:`~fivehundred.generator.options.diff_options`), then the compiled
#: rules, in rule-book order of their clauses (a stable sort keeps the registry's order).
_FIELDS: tuple[tuple[str, str, Callable[[Ruleset], Any]], ...] = tuple(
    sorted(
        [(str(o.clause), str(o.diff), _reader(o)) for o in diff_options()] + list(_COMPILED),
        key=lambda row: CLAUSE_IDS.index(row[0]),
    )
)


def differences(a: Ruleset, b: Ruleset) -> list[Difference]:
    """Every rule in which ``b`` differs from ``a``, in rule-book order of the clauses."""
    out: list[Difference] = []
    for clause, label, read in _FIELDS:
        va, vb = read(a), read(b)
        if va != vb:
            out.append(
                Difference(
                    clause, f"{label}: {plain_value(va)} in {a.id}, {plain_value(vb)} in {b.id}"
                )
            )
    for key in ("kitty", "misere", "joker"):
        if a.term(key) != b.term(key):
            out.append(
                Difference(
                    "deck.cards",
                    f"the word for the {key}: {a.term(key)!r} in {a.id}, {b.term(key)!r} in {b.id}",
                )
            )
    only_a = [c for c in a.deck if c not in b.deck]
    only_b = [c for c in b.deck if c not in a.deck]
    if only_a or only_b:
        parts = []
        if only_b:
            parts.append(f"{b.id} adds {' '.join(only_b)}")
        if only_a:
            parts.append(f"{b.id} leaves out {' '.join(only_a)}")
        out.append(
            Difference(
                "deck.cards",
                f"deck: {len(a.deck)} cards in {a.id}, "
                f"{len(b.deck)} in {b.id} ({'; '.join(parts)})",
            )
        )
    if a.jokers != b.jokers:
        out.append(
            Difference(
                "deck.joker",
                f"jokers: {plain_value(a.jokers)} in {a.id}, {plain_value(b.jokers)} in {b.id}",
            )
        )
    out.extend(_ladder_differences(a, b))
    order = {cid: i for i, cid in enumerate(_clause_order())}
    return sorted(out, key=lambda d: order.get(d.clause, len(order)))


def _clause_order() -> tuple[str, ...]:
    from .clauses import CLAUSE_IDS

    return CLAUSE_IDS


def _ladder_differences(a: Ruleset, b: Ruleset) -> list[Difference]:
    out: list[Difference] = []
    bids_a = {x["code"]: x for x in a.ladder}
    bids_b = {x["code"]: x for x in b.ladder}
    for code in bids_a:
        if code not in bids_b:
            out.append(Difference(bids_a[code]["clause"], f"bid {code}: in {a.id} only"))
    for code in bids_b:
        if code not in bids_a:
            out.append(Difference(bids_b[code]["clause"], f"bid {code}: in {b.id} only"))
    for code, x in bids_a.items():
        y = bids_b.get(code)
        if y is None:
            continue
        if x["value"] != y["value"]:
            out.append(
                Difference(
                    y["clause"], f"value of {code}: {x['value']} in {a.id}, {y['value']} in {b.id}"
                )
            )
        place_a, place_b = _place(a, code), _place(b, code)
        if x["kind"] != "suit" and place_a != place_b:
            out.append(
                Difference(
                    y["clause"], f"place of {code}: {place_a} in {a.id}, {place_b} in {b.id}"
                )
            )
        if x["after_bid_of"] != y["after_bid_of"]:
            out.append(
                Difference(
                    y["clause"],
                    f"{code} may be bid: {_after(x['after_bid_of'])} in {a.id}, "
                    f"{_after(y['after_bid_of'])} in {b.id}",
                )
            )
        if (x["open"], x["blind"], x["partner"]) != (y["open"], y["blind"], y["partner"]):
            out.append(
                Difference(
                    y["clause"],
                    f"{code} is played: open {x['open']}, partner {x['partner']} in "
                    f"{a.id}; open {y['open']}, partner {y['partner']} in {b.id}",
                )
            )
    return out


def _after(level: int) -> str:
    return f"after a bid of {level}" if level else "at any time"


def _place(rs: Ruleset, code: str) -> str:
    codes = [b["code"] for b in rs.ladder]
    i = codes.index(code)
    below = codes[i - 1] if i else None
    above = codes[i + 1] if i + 1 < len(codes) else None
    return f"between {below or 'the bottom'} and {above or 'the top'}"


def changed_clauses(base: Ruleset, rs: Ruleset) -> tuple[str, ...]:
    """The clause ids whose rules differ from ``base``, each once, in rule-book order."""
    seen: list[str] = []
    for d in differences(base, rs):
        if d.clause not in seen:
            seen.append(d.clause)
    return tuple(seen)


def choice_differences(a: Ruleset, b: Ruleset) -> list[Difference]:
    """The documented choices (``choices:``) whose text differs, one per clause.

    Choices explain rules and cannot change them, so they are listed apart from the rule
    differences: two variants may have the same rules and still document them differently.
    """
    texts_a = {c["clause"]: c for c in a.choices}
    texts_b = {c["clause"]: c for c in b.choices}
    out: list[Difference] = []
    order: dict[str, int] = {cid: n for n, cid in enumerate(CLAUSE_IDS)}
    for clause in sorted(set(texts_a) | set(texts_b), key=lambda c: order.get(c, len(order))):
        x, y = texts_a.get(clause), texts_b.get(clause)
        if x is not None and y is not None:
            if (x["source"], x["text"]) != (y["source"], y["text"]):
                text = f"choice text: {a.id} {_quote(x)}; {b.id} {_quote(y)}"
                out.append(Difference(clause, text))
        elif y is not None:
            out.append(Difference(clause, f"choice in {b.id} only: {_quote(y)}"))
        elif x is not None:
            out.append(Difference(clause, f"choice in {a.id} only: {_quote(x)}"))
    return out


def _quote(choice: Choice) -> str:
    text = " ".join(choice["text"].split())
    if len(text) > 70:
        text = text[:67] + "..."
    return f'({choice["source"]}) "{text}"'


def format_differences(a: Ruleset, b: Ruleset) -> str:
    """The text ``fivehundred diff`` prints: one line per difference, ``[clause] sentence``;
    then the documented choices whose text differs (:func:`choice_differences`)."""
    diffs = differences(a, b)
    choices = choice_differences(a, b)
    if not diffs:
        lines = [f"{a.id} and {b.id} have the same rules."]
    else:
        lines = [
            f"{len(diffs)} rule difference{'s' if len(diffs) != 1 else ''} "
            f"between {a.id} and {b.id}:"
        ]
        lines += [f"- [{d.clause}] {d.text}" for d in diffs]
    if choices:
        n = len(choices)
        lines.append(f"{n} documented choice{'s' if n != 1 else ''} differ{'s' if n == 1 else ''}:")
        lines += [f"- [{d.clause}] {d.text}" for d in choices]
    return "\n".join(lines) + "\n"
