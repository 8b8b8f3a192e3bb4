"""Semantic checks of a resolved variant: the rules the JSON Schema cannot express.

:func:`check_semantics` runs on the resolved document (``extends`` merged) next to the schema
check and before :func:`~fivehundred.generator.model.build_ruleset`. It returns every problem as a
:class:`~fivehundred.runtime.engine.errors.Diagnostic` that names the rule clause concerned.

It never raises on any input: every value it reads is checked for type and range first, and a
value the schema rejects (wrong type, out of range) is simply skipped here, so a broken file gets
the schema's message and no second, confusing one. It reads complete data: the defaults pass
(:func:`~fivehundred.generator.options.with_defaults`) has given every option the file leaves
out its default, and the types and bounds of options come from the registry
(:data:`~fivehundred.runtime.engine.tableformat.OPTIONS`).

Where a problem involves several values (the deck size against the deal, say), the diagnostic
points at the one the author's own file sets, so that a house variant extending a built-in one is
told about its own lines rather than the base's. The checks:

- ``deck.cards``: each rank (``10``, ``"10"``, ``T``) and joker (``JK``, ``RJ``) at most once;
  the deck holds exactly players * hand_size + kitty + dead_hand cards.
- ``deal.packets``: the packets give each player ``hand_size`` cards, the kitty ``kitty`` and
  the dead hand ``dead_hand``.
- ``seats.teams``: the teams cover every seat exactly once, with at least two sides.
- ``seats.partner``: a five-handed ``partner`` call is for ``teams: none``.
- ``auction.ladder``: levels from ≤ to ≤ hand_size (a bid can be made); every suit bid has a
  value (a score-table row of the right length, or the formula) and is worth more than the bid
  below it (unless ``auction.ladder.order`` is ``value``: the ladder is then ranked by value);
  special-bid codes are unique and are neither suit bids, card codes nor verbs; each
  special bid is placed above a bid that exists, with no two directly above the same bid and no
  circle of special bids.
- ``auction.misere`` / ``auction.open-misere``: a bid available only after a bid of level N
  must sit above the lowest bid of that level (else it can never be bid); an open misère
  available only after a bid of 8 needs the plain misère available only after a bid of 7 (T).
- an option the registry says ``requires`` another's values (``Option.requires``: bidding
  after a pass needs ``procedure: rounds``) keeps its default without them.
- ``auction.inkles``: inkles belong to ``procedure: single-round``, at a level of the ladder,
  with fewer inkle bidders than players.
- ``kitty.sans``: a sans-kitty bid needs a kitty that is taken.
- ``play.misere-partner``: ``both-hands`` (or a bid's ``partner``) needs partnerships.
- ``score.table``: exactly one of ``scoring.table`` and ``scoring.formula``.
- ``score.slam``: a slam rule with a ``value`` must apply to some bid (``below``).
- ``score.freeze``: a freeze below the target; a threshold (``scoring.freeze``) needs one.
- ``end.target`` / ``end.lose`` / ``end.must-bid-to-win``: the game end is reachable:
  ``lose_at`` below 0 (the schema already refuses a target below 1 and a positive ``lose_at``),
  ``out_backwards`` only with ``lose_at``, and some way to score points (a contract worth
  points, when only one's own contract can win).
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeGuard, get_args, get_origin

from ..runtime.engine.codes import RANK_ORDER, STRAINS, normalise_card, normalise_rank, suit_rank
from ..runtime.engine.errors import Diagnostic
from ..runtime.engine.messages import N_, Phrase
from ..runtime.engine.tableformat import OPTIONS, Option
from .ladder import place_specials
from .options import option
from .yamlload import KeyPath, Marks

__all__ = ["RESERVED_CODES", "check_semantics"]

#: Words of the action language that a special bid's code must not take (INTERCHANGE.md, Codes).
RESERVED_CODES = frozenset({"PASS", "DISCARD", "NOMINATE"})

_MISSING = object()
_PACKET_TARGETS = ("players", "kitty", "dead")
_RANK_WORDS = frozenset(RANK_ORDER) | {"T"}
# The schema's patterns of a special bid's code and of a bid code (variant.schema.json $defs).
_SPECIAL_CODE = re.compile(r"[A-Z][A-Z0-9]*")
_BID_CODE = re.compile(r"[1-9][0-9]?(?:S|C|D|H|NT)|[A-Z][A-Z0-9]*")


def check_semantics(data: Mapping[str, Any], marks: Marks) -> list[Diagnostic]:
    """Every semantic problem of a resolved variant, sorted by position (see the module doc).

    ``data`` is the resolved document (it need not be schema-valid: ill-typed values are
    skipped), ``marks`` its positions. An empty list means no problem was found.
    """
    check = _Check(data, marks)
    for step in _STEPS:
        try:
            step(check)
        except Exception as exc:  # pragma: no cover - a bug here must not become a traceback
            check.report(
                (),
                Phrase(
                    N_("internal error in semantic check %(step)s: %(error)s"),
                    step=step.__name__,
                    error=repr(exc),
                ),
                "end.continue",
            )
    return sorted(set(check.found))


# -- reading values ------------------------------------------------------------------------------


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _conforms(opt: Option, value: object) -> bool:
    """Whether ``value`` has the type and bounds the registry gives the option."""
    tp = opt.type
    if get_origin(tp) is Literal:
        return any(value == v and type(value) is type(v) for v in get_args(tp))
    if tp is bool:
        return isinstance(value, bool)
    if tp is int or (value is not None and tp == int | None):
        if not _is_int(value):
            return False
        return (opt.minimum is None or value >= opt.minimum) and (
            opt.maximum is None or value <= opt.maximum
        )
    if tp == int | None:
        return value is None
    return True


class _Check:
    """The document, its marks, typed look-ups by the option registry, and the problems found."""

    def __init__(self, data: Mapping[str, Any], marks: Marks) -> None:
        self.data = data
        self.marks = marks
        self.found: list[Diagnostic] = []
        self.own_file = marks.default_file

    # -- look-ups ---------------------------------------------------------------------------
    def raw(self, path: KeyPath) -> object:
        """The value at ``path``, or ``_MISSING`` (an explicit ``null`` is ``None``)."""
        node: object = self.data
        for elem in path:
            in_map = isinstance(elem, str) and isinstance(node, Mapping) and elem in node
            in_list = isinstance(elem, int) and isinstance(node, list) and 0 <= elem < len(node)
            if not (in_map or in_list):
                return _MISSING
            node = node[elem]  # type: ignore[index]
        return node

    def present(self, path: KeyPath) -> bool:
        """Whether the document sets ``path`` (to anything, ``null`` included)."""
        return self.raw(path) is not _MISSING

    def option(self, path: str) -> Any:
        """The value of the option at ``path`` (a registry path, ``deal.kitty``) when it has
        the option's type and bounds; None when it is absent (its parent is not a mapping) or
        anything else (the schema reports it). The defaults pass has filled every default."""
        opt = option(path)
        value = self.raw(opt.keys)
        if value is _MISSING or not _conforms(opt, value):
            return None
        return value

    def opt_int(self, path: KeyPath, lo: int | None = None, hi: int | None = None) -> object:
        """An integer, ``None`` (absent or null), or ``_MISSING`` when ill-typed."""
        value = self.raw(path)
        if value is _MISSING or value is None:
            return None
        if not _is_int(value):
            return _MISSING
        assert isinstance(value, int)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return _MISSING
        return value

    def seq(self, path: KeyPath) -> list[Any] | None:
        """A list; None when absent or anything else."""
        value = self.raw(path)
        return value if isinstance(value, list) else None

    def mapping(self, path: KeyPath) -> Mapping[str, Any] | None:
        """A mapping, or None when absent or anything else."""
        value = self.raw(path)
        return value if isinstance(value, Mapping) else None

    # -- reporting --------------------------------------------------------------------------
    def own(self, path: KeyPath) -> bool:
        """Whether the author's own file (not a base it extends) sets ``path``."""
        return self.marks.has(path) and self.marks.value_mark(path).file == self.own_file

    def where(self, *paths: KeyPath) -> KeyPath:
        """The path to point at: the first one the author's own file sets, else the first one
        that is set anywhere, else the first."""
        for path in paths:
            if self.own(path):
                return path
        for path in paths:
            if self.present(path):
                return path
        return paths[0]

    def report(self, path: KeyPath, message: str, clause: str, *, at_key: bool = False) -> None:
        """Record a problem at the value (or key) of ``path``."""
        self.found.append(self.marks.diagnostic(path, message, at_key=at_key, clause=clause))


# -- the derived facts several checks share -------------------------------------------------------


def _players(c: _Check) -> int | None:
    players: int | None = c.option("players")
    return players


def _deal_sizes(c: _Check) -> tuple[int, int, int] | None:
    hand = c.option("deal.hand_size")
    kitty = c.option("deal.kitty")
    dead = c.option("deal.dead_hand")
    if hand is None or kitty is None or dead is None:
        return None
    return hand, kitty, dead


def _levels(c: _Check) -> tuple[int, int] | None:
    low = c.option("auction.ladder.levels.from")
    high = c.option("auction.ladder.levels.to")
    if low is None or high is None or low > high:
        return None
    return low, high


def _strains(c: _Check) -> list[str] | None:
    strains = c.seq(("auction", "ladder", "strains"))
    if strains is None or not strains or not all(s in STRAINS for s in strains):
        return None
    return sorted(set(strains), key=STRAINS.index)


def _specials(c: _Check) -> list[tuple[int, Mapping[str, Any]]]:
    """The special bids with a well-formed code, as (index, entry); a malformed ``above`` is
    dropped from the entry (the schema reports it)."""
    specials = c.seq(("auction", "ladder", "special"))
    if specials is None:
        return []
    out: list[tuple[int, Mapping[str, Any]]] = []
    for i, sp in enumerate(specials):
        if not isinstance(sp, Mapping):
            continue
        code = sp.get("bid")
        if not isinstance(code, str) or not _SPECIAL_CODE.fullmatch(code):
            continue
        above = sp.get("above")
        if not isinstance(above, str) or not _BID_CODE.fullmatch(above):
            sp = {k: v for k, v in sp.items() if k != "above"}
        out.append((i, sp))
    return out


def _is_open(sp: Mapping[str, Any]) -> bool:
    return sp.get("open") not in ("no", False, None)


def _is_plain_misere(sp: Mapping[str, Any]) -> bool:
    return sp.get("kind") == "misere" and not _is_open(sp) and sp.get("blind") is not True


def _after(sp: Mapping[str, Any]) -> int | None:
    avail = sp.get("available")
    if isinstance(avail, Mapping) and _is_int(avail.get("after_bid_of")):
        return int(avail["after_bid_of"])
    return None


def _special_clause(sp: Mapping[str, Any]) -> str:
    if sp.get("blind") is True:
        return "auction.blind-misere"
    return "auction.open-misere" if _is_open(sp) else "auction.misere"


def _suit_values(c: _Check) -> dict[str, tuple[int, KeyPath]] | None:
    """Value and source path of every suit bid, by code; None when they cannot be worked out
    (missing rows are reported by :func:`_check_values`)."""
    levels = _levels(c)
    strains = _strains(c)
    if levels is None or strains is None:
        return None
    low, high = levels
    table = c.raw(("scoring", "table"))
    formula = c.raw(("scoring", "formula"))
    out: dict[str, tuple[int, KeyPath]] = {}
    if isinstance(table, Mapping) and not isinstance(formula, Mapping):
        for strain in strains:
            row = table.get(strain)
            if not isinstance(row, list) or len(row) != high - low + 1:
                return None
            for k, value in enumerate(row):
                if not _is_int(value):
                    return None
                out[f"{low + k}{strain}"] = (value, ("scoring", "table", strain, k))
        return out
    if isinstance(formula, Mapping) and not isinstance(table, Mapping):
        first = formula.get("first")
        step = formula.get("step")
        if not isinstance(first, Mapping) or not _is_int(step):
            return None
        for strain in strains:
            base = first.get(strain)
            if not _is_int(base):
                return None
            for level in range(low, high + 1):
                out[f"{level}{strain}"] = (
                    base + (level - low) * step,
                    ("scoring", "formula", "first", strain),
                )
        return out
    return None


def _suit_codes(c: _Check) -> list[str] | None:
    """The suit bids of the ladder, lowest first (by value when the ladder is ranked so and
    the values are known, as the model ranks them)."""
    levels = _levels(c)
    strains = _strains(c)
    if levels is None or strains is None:
        return None
    codes = [(level, s) for level in range(levels[0], levels[1] + 1) for s in strains]
    values = _suit_values(c) if _by_value(c) else None
    if values is not None:
        worth = {code: v for code, (v, _) in values.items()}
        codes.sort(
            key=lambda b: suit_rank(
                b[0], STRAINS.index(b[1]), worth[f"{b[0]}{b[1]}"], by_value=True
            )
        )
    return [f"{level}{s}" for level, s in codes]


def _by_value(c: _Check) -> bool:
    """auction.higher: the suit bids rank by value (``auction.ladder.order``)."""
    return bool(c.option("auction.ladder.order") == "value")


def _unique_specials(c: _Check) -> dict[str, int]:
    """Index of each usable special-bid code: the first entry with a code that is no suit
    bid, card code or reserved word (the others are reported by :func:`_check_specials`)."""
    suit_codes = set(_suit_codes(c) or [])
    seen: dict[str, int] = {}
    for i, sp in _specials(c):
        code = sp["bid"]
        if code in suit_codes or code.upper() in RESERVED_CODES or normalise_card(code):
            continue
        seen.setdefault(code, i)
    return seen


def _place(
    c: _Check,
) -> tuple[list[str], list[tuple[int, str]], list[int]] | None:
    """The special bids placed as the model places them (:func:`.ladder.place_specials`).

    Returns the ladder (lowest first), the special bids that clash with another placed
    directly above the same bid (index, the other's code), and the special bids that cannot be
    placed (indexes); None when the suit bids are unknown.
    """
    codes = _suit_codes(c)
    if codes is None:
        return None
    specials = dict(_specials(c))
    entries = [
        (i, code, specials[i]["above"])
        for code, i in _unique_specials(c).items()
        if isinstance(specials[i].get("above"), str)
    ]
    placed = place_specials(codes, sorted(entries))
    return list(placed.ladder), list(placed.clashes), list(placed.pending)


# -- the checks ----------------------------------------------------------------------------------


def _check_deck(c: _Check) -> None:
    """deck.cards: no rank or joker twice; the deck size matches the deal."""
    count: int | None = 0
    suits = c.raw(("deck", "suits"))
    if isinstance(suits, Mapping):
        for suit, ranks in suits.items():
            if not isinstance(ranks, list):
                count = None
                continue
            first: dict[str, int] = {}
            for i, rank in enumerate(ranks):
                valid = (_is_int(rank) and 2 <= rank <= 13) or (
                    isinstance(rank, str) and rank in _RANK_WORDS
                )
                norm = normalise_rank(rank) if valid else None
                if norm is None:
                    count = None
                    continue
                if norm in first:
                    line = c.marks.value_mark(("deck", "suits", suit, first[norm])).line
                    c.report(
                        ("deck", "suits", suit, i),
                        # Translators: rank is a rank code (T, 9, J) and suit a suit code (S, H) of
                        # the rule file; 10, '10' and T are written as the author writes them.
                        Phrase(
                            N_(
                                "rank %(rank)s is in %(suit_code)s twice (also at line %(line)s);"
                                " 10, '10' and T are the same rank"
                            ),
                            rank=norm,
                            suit_code=suit,
                            line=line,
                        ),
                        "deck.cards",
                    )
                    count = None
                    continue
                first[norm] = i
                if count is not None:
                    count += 1
    elif c.present(("deck", "suits")):
        count = None
    jokers = c.seq(("deck", "jokers"))
    if jokers is None:
        count = None
    else:
        seen: dict[str, int] = {}
        for i, joker in enumerate(jokers):
            norm = normalise_card(joker) if joker in ("JK", "RJ", "BJ") else None
            if norm is None:
                count = None
                continue
            if norm in seen:
                c.report(
                    ("deck", "jokers", i),
                    Phrase(
                        N_("%(joker)s is the same joker as %(other)s (RJ is another name for JK)"),
                        joker=joker,
                        other=jokers[seen[norm]],
                    ),
                    "deck.joker",
                )
                count = None
                continue
            seen[norm] = i
            if count is not None:
                count += 1
    players = _players(c)
    sizes = _deal_sizes(c)
    if count is None or players is None or sizes is None:
        return
    hand, kitty, dead = sizes
    need = players * hand + kitty + dead
    if count != need:
        if dead:
            parts = Phrase(
                N_("%(players)s hands of %(hand)s + kitty %(kitty)s + dead hand %(dead)s"),
                players=players,
                hand=hand,
                kitty=kitty,
                dead=dead,
            )
        else:
            parts = Phrase(
                N_("%(players)s hands of %(hand)s + kitty %(kitty)s"),
                players=players,
                hand=hand,
                kitty=kitty,
            )
        path = c.where(
            ("deck",),
            ("deal", "hand_size"),
            ("deal", "kitty"),
            ("deal", "dead_hand"),
            ("players",),
        )
        c.report(
            path,
            # Translators: parts is the sum the deal needs ("4 hands of 10 + kitty 3").
            Phrase(
                N_("the deck has %(count)s cards but the deal needs %(need)s (%(parts)s)"),
                count=count,
                need=need,
                parts=parts,
            ),
            "deck.cards",
        )


def _check_packets(c: _Check) -> None:
    """deal.packets: the packets add up to the hands, the kitty and the dead hand."""
    packets = c.seq(("deal", "packets"))
    sizes = _deal_sizes(c)
    if packets is None or sizes is None:
        return
    got = dict.fromkeys(_PACKET_TARGETS, 0)
    for packet in packets:
        if not isinstance(packet, Mapping):
            return
        to, cards = packet.get("to"), packet.get("cards")
        if not isinstance(to, str) or to not in got or not _is_int(cards) or cards < 1:
            return
        got[to] += cards
    hand, kitty, dead = sizes
    wants = (
        ("players", hand, ("deal", "hand_size"), N_("each player's hand"), "deal.hand_size"),
        ("kitty", kitty, ("deal", "kitty"), N_("the kitty"), "deal.kitty"),
        ("dead", dead, ("deal", "dead_hand"), N_("the dead hand"), "deal.dead_hand"),
    )
    for to, want, size_path, what, key in wants:
        if got[to] != want:
            path = c.where(("deal", "packets"), size_path)
            c.report(
                path,
                # Translators: what is "each player's hand", "the kitty" or "the dead hand";
                # key a key of the rule file (deal.kitty).
                Phrase(
                    N_("the packets give %(count)s cards to %(what)s but %(key)s is %(want)s"),
                    count=got[to],
                    what=Phrase(what),
                    key=key,
                    want=want,
                ),
                "deal.packets",
            )


def _check_teams(c: _Check) -> None:
    """seats.teams: every seat exactly once, at least two sides; seats.partner: partner calls
    only without teams."""
    players = _players(c)
    teams = c.raw(("teams",))
    if teams is _MISSING or teams == "none":
        sides = players
    elif _is_int(teams):
        assert isinstance(teams, int)
        if players is None or not 1 <= teams <= 3:
            return
        if players % teams:
            c.report(
                c.where(("teams",), ("players",)),
                Phrase(
                    N_("%(players)s players cannot sit in %(teams)s teams of equal size"),
                    players=players,
                    teams=teams,
                ),
                "seats.teams",
            )
            return
        sides = teams
    elif isinstance(teams, list):
        sides = len(teams)
        if players is None:
            return
        first: dict[int, int] = {}
        for t, team in enumerate(teams):
            if not isinstance(team, list):
                return
            for k, seat in enumerate(team):
                if not _is_int(seat):
                    return
                path: KeyPath = ("teams", t, k)
                if not 0 <= seat < players:
                    c.report(
                        path,
                        Phrase(
                            N_(
                                "seat %(seat)s does not exist: %(players)s players sit in seats"
                                " 0..%(last)s"
                            ),
                            seat=seat,
                            players=players,
                            last=players - 1,
                        ),
                        "seats.teams",
                    )
                elif seat in first:
                    other = (
                        Phrase(N_("this team"))
                        if first[seat] == t
                        else Phrase(N_("team %(team)s"), team=first[seat])
                    )
                    c.report(
                        path,
                        Phrase(
                            N_(
                                "seat %(seat)s is already in %(other)s: every seat must be in"
                                " exactly one team"
                            ),
                            seat=seat,
                            other=other,
                        ),
                        "seats.teams",
                    )
                else:
                    first[seat] = t
        missing = [seat for seat in range(players) if seat not in first]
        if missing:
            names = ", ".join(str(s) for s in missing)
            c.report(
                c.where(("teams",), ("players",)),
                Phrase(
                    N_(
                        "the teams leave out seats %(seats)s: every seat must be in exactly"
                        " one team"
                    )
                    if len(missing) > 1
                    else N_(
                        "the teams leave out seat %(seats)s: every seat must be in exactly one team"
                    ),
                    seats=names,
                ),
                "seats.teams",
            )
    else:
        return
    if sides == 1:
        c.report(
            ("teams",),
            Phrase(
                N_(
                    "one team holds every seat, so nobody plays against the contractor; "
                    "use teams: none or at least two teams"
                )
            ),
            "seats.teams",
        )
    call = c.option("partner.call")
    if call not in (None, "none") and teams not in (_MISSING, "none"):
        c.report(
            c.where(("partner", "call"), ("teams",)),
            Phrase(
                N_(
                    "partner.call: %(call)s chooses a partner for the hand, which needs teams:"
                    " none (players keep their own scores)"
                ),
                call=call,
            ),
            "seats.partner",
        )


def _check_levels(c: _Check) -> None:
    """auction.ladder: levels from <= to <= hand size."""
    low = c.option("auction.ladder.levels.from")
    high = c.option("auction.ladder.levels.to")
    if low is None or high is None:
        return
    if low > high:
        c.report(
            c.where(("auction", "ladder", "levels", "from"), ("auction", "ladder", "levels", "to")),
            Phrase(
                N_(
                    "the ladder has no suit bids: levels.from (%(low)s) is above levels.to"
                    " (%(high)s)"
                ),
                low=low,
                high=high,
            ),
            "auction.ladder",
        )
        return
    sizes = _deal_sizes(c)
    if sizes is not None and high > sizes[0]:
        c.report(
            c.where(("auction", "ladder", "levels", "to"), ("deal", "hand_size")),
            Phrase(
                N_(
                    "a bid of %(tricks)s tricks can never be made: a hand of %(cards)s cards has"
                    " only %(cards)s tricks"
                ),
                tricks=high,
                cards=sizes[0],
            ),
            "auction.ladder",
        )


def _check_values(c: _Check) -> None:
    """score.table / auction.ladder: exactly one of table and formula; a value for every suit
    bid; each suit bid worth more than the one below it."""
    table = c.raw(("scoring", "table"))
    formula = c.raw(("scoring", "formula"))
    has_table = table not in (_MISSING, None)
    has_formula = formula not in (_MISSING, None)
    if has_table and has_formula:
        path = c.where(("scoring", "formula"), ("scoring", "table"))
        c.report(
            path,
            Phrase(N_("scoring has both a table and a formula; give exactly one")),
            "score.table",
            at_key=True,
        )
        return
    if not has_table and not has_formula:
        c.report(
            ("scoring",),
            Phrase(N_("scoring needs a table or a formula to give the suit bids their values")),
            "score.table",
        )
        return
    levels = _levels(c)
    strains = _strains(c)
    if levels is None or strains is None:
        return
    low, high = levels
    sizes = _deal_sizes(c)
    # A level beyond the hand is the cause (reported by _check_levels): the rows that follow it
    # are not reported as well.
    impossible = sizes is not None and high > sizes[0]
    if isinstance(table, Mapping):
        for strain in strains:
            row = table.get(strain, _MISSING)
            if row is _MISSING or row is None:
                c.report(
                    ("scoring", "table"),
                    Phrase(
                        N_(
                            "scoring.table has no row for %(strain)s, so the %(strain)s bids have"
                            " no value"
                        ),
                        strain=strain,
                    ),
                    "score.table",
                )
            elif isinstance(row, list) and len(row) != high - low + 1 and not impossible:
                c.report(
                    c.where(
                        ("scoring", "table", strain),
                        ("auction", "ladder", "levels", "from"),
                        ("auction", "ladder", "levels", "to"),
                    ),
                    Phrase(
                        N_(
                            "scoring.table.%(strain)s has %(count)s values but the ladder has"
                            " %(levels)s levels (%(low)s to %(high)s)"
                        ),
                        strain=strain,
                        count=len(row),
                        levels=high - low + 1,
                        low=low,
                        high=high,
                    ),
                    "score.table",
                )
    values = _suit_values(c)
    codes = _suit_codes(c)
    if values is None or codes is None:
        return
    by_formula = isinstance(formula, Mapping)
    if _by_value(c):
        return  # ranked by value: a higher bid is worth at least as much by construction
    for below, code in itertools.pairwise(codes):
        if values[code][0] <= values[below][0]:
            path = values[code][1]
            if by_formula and c.marks.has(("scoring", "formula", "step")):
                path = ("scoring", "formula", "step")
            c.report(
                path,
                Phrase(
                    N_(
                        "%(code)s is worth %(value)s, not more than the bid below it, %(below)s"
                        " (%(below_value)s): a higher bid must be worth more"
                    ),
                    code=code,
                    value=values[code][0],
                    below=below,
                    below_value=values[below][0],
                ),
                "auction.ladder",
            )
            if by_formula:
                break  # one rule: one message


def _check_same_meaning(c: _Check, specials: list[tuple[int, Mapping[str, Any]]]) -> None:
    """auction.misere: two special bids that mean the same contract (kind, open, blind, when
    it may be bid, who partners it) would be one bid under two codes: the later one, or the one
    the author's own file adds, is reported (a BLIND beside a BMIS)."""
    first: dict[tuple[str, ...], int] = {}
    for i, sp in specials:
        # repr: a malformed value (a list where a word belongs) is reported by its own check
        meaning = tuple(repr(m) for m in (sp.get("kind"), _is_open(sp) and sp.get("open"),
                        sp.get("blind") is True, _after(sp), sp.get("partner")))  # fmt: skip
        if meaning not in first:
            first[meaning] = i
            continue
        j = first[meaning]
        other = specials[[k for k, _ in specials].index(j)][1]["bid"]
        own = (
            ("auction", "ladder", "special", i, "bid"),
            ("auction", "ladder", "special", j, "bid"),
        )
        at = c.where(*own)
        code = sp["bid"] if at == own[0] else other
        same = other if at == own[0] else sp["bid"]
        c.report(
            at,
            # Translators: code and same are special bids' codes (MIS, OMIS); the text in
            # parentheses at the end is rule-file YAML, kept as it is.
            Phrase(
                N_(
                    "special bid %(code)s means the same contract as %(same)s (the same kind,"
                    " open, blind, availability and partner): give it another meaning, or remove"
                    " one of them (- {bid: %(code)s, remove: true})"
                ),
                code=code,
                same=same,
            ),
            "auction.misere",
        )


def _check_specials(c: _Check) -> None:
    """auction.ladder: codes unique and unambiguous; every special placed above a bid that
    exists, one per place, in no circle."""
    specials = _specials(c)
    suit_codes = _suit_codes(c) or []
    seen: dict[str, int] = {}
    for i, sp in specials:
        code = sp["bid"]
        path: KeyPath = ("auction", "ladder", "special", i, "bid")
        if code in suit_codes:
            c.report(
                path,
                Phrase(N_("special bid %(code)s has the code of a suit bid"), code=code),
                "auction.ladder",
            )
        elif code.upper() in RESERVED_CODES:
            c.report(
                path,
                # Translators: action is a word players type (pass, undo), kept as it is.
                Phrase(
                    N_("special bid %(code)s would read as the action '%(action)s'"),
                    code=code,
                    action=code.lower(),
                ),
                "auction.ladder",
            )
        elif normalise_card(code) is not None:
            c.report(
                path,
                Phrase(
                    N_("special bid %(code)s has the code of the card %(card)s"),
                    code=code,
                    card=normalise_card(code),
                ),
                "auction.ladder",
            )
        elif code in seen:
            line = c.marks.value_mark(("auction", "ladder", "special", seen[code], "bid")).line
            c.report(
                path,
                Phrase(
                    N_("special bid %(code)s is defined twice (also at line %(line)s)"),
                    code=code,
                    line=line,
                ),
                "auction.ladder",
            )
        else:
            seen[code] = i
    found_before = len(c.found)
    _check_specials_placed(c, specials, seen, suit_codes)
    if len(c.found) == found_before:  # a cause alone: only specials that are otherwise right
        _check_same_meaning(c, [(i, sp) for i, sp in specials if seen.get(sp["bid"]) == i])


def _report_clash(
    c: _Check, specials: Mapping[int, Mapping[str, Any]], i: int, placed_first: int
) -> None:
    """auction.ladder: special ``i`` is placed directly above the same bid as
    ``placed_first``. The problem is reported at the author's own line: when one of the two
    comes from a base file and the other from the file being checked, at the latter (the
    author moved a bid onto the base's place), naming the inherited one and where it is."""
    sp, first = specials[i], specials[placed_first]
    here = ("auction", "ladder", "special", i, "above")
    there = ("auction", "ladder", "special", placed_first, "above")
    own = c.own_file
    mine, theirs = c.marks.value_mark(here), c.marks.value_mark(there)
    if mine.file != own and theirs.file == own:
        sp, first, here, mine, theirs = first, sp, there, theirs, mine
    if theirs.file != own and mine.file == own:
        base = f"{theirs.file}:{theirs.line}"
        c.report(
            here,
            # Translators: code, above and other are bids' codes (MIS, 7NT); where is a file
            # and line (base.yaml:12); the text in parentheses at the end is rule-file YAML.
            Phrase(
                N_(
                    "%(code)s is placed directly above %(above)s, where the base's %(other)s"
                    " already sits (%(where)s); place %(code)s above another bid, or move"
                    " %(other)s in this file too (- {bid: %(other)s, above: %(code)s})"
                ),
                code=sp["bid"],
                above=sp["above"],
                other=first["bid"],
                where=base,
            ),
            "auction.ladder",
        )
        return
    c.report(
        here,
        Phrase(
            N_(
                "%(code)s and %(other)s are both placed directly above %(above)s; place one"
                " above the other (above: %(other)s)"
            ),
            code=sp["bid"],
            other=first["bid"],
            above=sp["above"],
        ),
        "auction.ladder",
    )


def _check_specials_placed(
    c: _Check,
    specials: list[tuple[int, Mapping[str, Any]]],
    seen: dict[str, int],
    suit_codes: list[str],
) -> None:
    """auction.ladder: every special placed above a bid that exists, one per place, in no
    circle, worth more than the bid it overcalls."""
    placed = _place(c)
    if placed is None:
        return
    _, clashes, pending = placed
    specials_by_index = dict(specials)
    for i, other in clashes:
        _report_clash(c, specials_by_index, i, seen[other])
    _check_special_values(c, specials_by_index, seen, {i for i, _ in clashes} | set(pending))
    usable = set(seen)
    # A special placed above one that clashed (or above one of those, ...) cannot be placed
    # either; that is a knock-on of the clash, already reported: the cause alone is reported.
    unplaced = {specials_by_index[i]["bid"] for i, _ in clashes}
    grew = True
    while grew:
        grew = False
        for i in pending:
            sp = specials_by_index[i]
            if sp["above"] in unplaced and sp["bid"] not in unplaced:
                unplaced.add(sp["bid"])
                grew = True
    for i in pending:
        sp = specials_by_index[i]
        above, code = sp["above"], sp["bid"]
        path = ("auction", "ladder", "special", i, "above")
        if above in unplaced and above != code:
            continue
        if above == code:
            c.report(
                path, Phrase(N_("%(code)s is placed above itself"), code=code), "auction.ladder"
            )
        elif above in usable:
            chain = [code, above]
            while chain[-1] in usable and chain[-1] != code and len(chain) <= len(usable) + 1:
                nxt = specials_by_index[seen[chain[-1]]].get("above")
                if not isinstance(nxt, str):
                    break
                chain.append(nxt)
            if chain[-1] == code:
                c.report(
                    path,
                    # Translators: chain is bids' codes joined by " above " (MIS above OMIS
                    # above MIS), kept in English.
                    Phrase(
                        N_("special bids cannot be placed in a circle: %(chain)s"),
                        chain=" above ".join(chain),
                    ),
                    "auction.ladder",
                )
            else:
                c.report(
                    path,
                    Phrase(
                        N_("%(code)s is placed above %(above)s, which cannot be placed itself"),
                        code=code,
                        above=above,
                    ),
                    "auction.ladder",
                )
        else:
            known = sorted(set(suit_codes) | usable)
            close = difflib.get_close_matches(above, known, n=1)
            c.report(
                path,
                Phrase(
                    N_(
                        "%(code)s is placed above '%(above)s', which is not a bid of this ladder;"
                        " did you mean '%(close)s'?"
                    ),
                    code=code,
                    above=above,
                    close=close[0],
                )
                if close
                else Phrase(
                    N_("%(code)s is placed above '%(above)s', which is not a bid of this ladder"),
                    code=code,
                    above=above,
                ),
                "auction.ladder",
            )


def _check_special_values(
    c: _Check,
    specials: Mapping[int, Mapping[str, Any]],
    index: Mapping[str, int],
    unplaced: set[int],
) -> None:
    """auction.ladder: a special bid is worth at least as much as the bid directly below it.

    A bid overcalls every bid below it, so one worth less than a bid it overcalls breaks the
    ladder's order (MIS worth 150 above 7NT, worth 220). Equal values are fine (BMIS 500 above
    OMIS 500), and so is a special bid worth more than the bids above it (G's misère, 250,
    sits below 8S, 240).
    """
    values = _suit_values(c)
    if values is None:
        return
    worth: dict[str, int] = {code: v for code, (v, _) in values.items()}
    for code, i in index.items():
        if _is_int(specials[i].get("value")):
            worth[code] = specials[i]["value"]
    suit_order = _suit_codes(c) or []
    for code, i in index.items():
        sp = specials[i]
        above, value = sp.get("above"), sp.get("value")
        if i in unplaced or not isinstance(above, str) or not _is_int(value):
            continue
        below = worth.get(above)
        if below is None or value >= below:
            continue
        fits = [b for b in suit_order if worth[b] <= value]
        message = N_(
            "%(code)s is worth %(value)s but is placed above %(above)s, worth %(below)s: a bid"
            " overcalls every bid below it, so it must be worth at least as much; raise its"
            " value or place it lower"
        )
        if fits:
            message = N_(
                "%(code)s is worth %(value)s but is placed above %(above)s, worth %(below)s: a"
                " bid overcalls every bid below it, so it must be worth at least as much; raise"
                " its value or place it lower (above: %(fit)s, worth %(fit_value)s)"
            )
        c.report(
            ("auction", "ladder", "special", i, "value"),
            Phrase(
                message,
                code=code,
                value=value,
                above=above,
                below=below,
                **({"fit": fits[-1], "fit_value": worth[fits[-1]]} if fits else {}),
            ),
            "auction.ladder",
        )


def _check_availability(c: _Check) -> None:
    """auction.misere / auction.open-misere: restricted bids can be bid; open after 8 needs
    misère after 7."""
    placed = _place(c)
    ladder = placed[0] if placed is not None else None
    levels = _levels(c)
    strains = _strains(c)
    specials = _specials(c)
    for i, sp in specials:
        after = _after(sp)
        if after is None or ladder is None or levels is None or strains is None:
            continue
        path: KeyPath = ("auction", "ladder", "special", i, "available", "after_bid_of")
        code = sp["bid"]
        if after > levels[1]:
            c.report(
                path,
                Phrase(
                    N_(
                        "%(code)s can never be bid: it waits for a bid of %(after)s, but the"
                        " highest level is %(high)s"
                    ),
                    code=code,
                    after=after,
                    high=levels[1],
                ),
                _special_clause(sp),
            )
            continue
        level = max(after, levels[0])
        lowest = min((f"{level}{s}" for s in strains), key=ladder.index)  # by value, too
        if code in ladder and ladder.index(code) < ladder.index(lowest):
            c.report(
                path,
                Phrase(
                    N_(
                        "%(code)s can never be bid: it waits for a bid of %(after)s, and after"
                        " any such bid the auction is already above %(code)s (which sits below"
                        " %(lowest)s)"
                    ),
                    code=code,
                    after=after,
                    lowest=lowest,
                ),
                _special_clause(sp),
            )
    plain = [sp for _, sp in specials if _is_plain_misere(sp)]
    for i, sp in specials:
        if sp.get("kind") != "misere" or not _is_open(sp) or _after(sp) != 8:
            continue
        if any(_after(p) == 7 for p in plain):
            continue
        if plain:
            message = Phrase(
                N_(
                    "open misère %(code)s only after a bid of 8 goes with misère only after a"
                    " bid of 7 (T), but %(codes)s is not limited to after a bid of 7"
                ),
                code=sp["bid"],
                codes=", ".join(p["bid"] for p in plain),
            )
        else:
            message = Phrase(
                N_(
                    "open misère %(code)s only after a bid of 8 goes with misère only after a"
                    " bid of 7 (T), but there is no plain misère limited to after a bid of 7"
                ),
                code=sp["bid"],
            )
        c.report(
            ("auction", "ladder", "special", i, "available", "after_bid_of"),
            message,
            "auction.open-misere",
        )


def _check_inkles(c: _Check) -> None:
    """auction.inkles: single-round auctions only; a ladder level; fewer bidders than players."""
    inkles = c.raw(("auction", "inkles"))
    if not isinstance(inkles, Mapping):
        return
    procedure = c.option("auction.procedure")
    if procedure == "rounds":
        c.report(
            c.where(("auction", "inkles"), ("auction", "procedure")),
            Phrase(
                N_(
                    "inkles belong to the American single-round auction (T); with procedure:"
                    " rounds every bid can win, so set procedure: single-round or inkles: null"
                )
            ),
            "auction.inkles",
            at_key=True,
        )
    bidders = c.option("auction.inkles.bidders")
    level = c.option("auction.inkles.level")
    players = _players(c)
    if bidders is not None and players is not None and bidders >= players:
        c.report(
            c.where(("auction", "inkles", "bidders"), ("auction", "inkles"), ("players",)),
            Phrase(
                N_(
                    "%(bidders)s inkle bidders leave none of the %(players)s players to bid for"
                    " the contract"
                ),
                bidders=bidders,
                players=players,
            ),
            "auction.inkles",
        )
    levels = _levels(c)
    if level is not None and levels is not None and not levels[0] <= level <= levels[1]:
        c.report(
            c.where(("auction", "inkles", "level"), ("auction", "inkles")),
            Phrase(
                N_(
                    "inkles at level %(level)s never happen: the ladder's levels are %(low)s to"
                    " %(high)s"
                ),
                level=level,
                low=levels[0],
                high=levels[1],
            ),
            "auction.inkles",
        )


def _check_kitty(c: _Check) -> None:
    """kitty.sans: a sans-kitty bid needs a kitty to go without."""
    sans = c.raw(("auction", "sans_kitty"))
    if not isinstance(sans, Mapping):
        return
    kitty = c.option("deal.kitty")
    take = c.option("kitty.take")
    if kitty == 0:
        c.report(
            c.where(("auction", "sans_kitty"), ("deal", "kitty")),
            # Translators: key is a key of the rule file (deal.kitty).
            Phrase(
                N_("a sans-kitty bid needs a kitty to go without, but %(key)s is 0"),
                key="deal.kitty",
            ),
            "kitty.sans",
            at_key=True,
        )
    elif take is False:
        c.report(
            c.where(("auction", "sans_kitty"), ("kitty", "take")),
            Phrase(
                N_("a sans-kitty bid needs a kitty that is taken, but %(key)s is false"),
                key="kitty.take",
            ),
            "kitty.sans",
            at_key=True,
        )


def _partnerships(c: _Check) -> bool | None:
    """Whether some side has more than one seat (None when the teams are ill-formed)."""
    players = _players(c)
    teams = c.raw(("teams",))
    if teams is _MISSING or teams == "none":
        return False
    if _is_int(teams):
        assert isinstance(teams, int)
        return None if players is None or teams < 1 else players // teams > 1
    if isinstance(teams, list):
        return any(isinstance(t, list) and len(t) > 1 for t in teams)
    return None


def _check_misere_partner(c: _Check) -> None:
    """play.misere-partner: playing both hands, or the partner playing, needs a partner."""
    if _partnerships(c) is not False:
        return
    how = c.option("play.misere_partner")
    if how == "both-hands":
        c.report(
            c.where(("play", "misere_partner"), ("teams",)),
            Phrase(
                N_(
                    "misere_partner: both-hands needs partnerships, but every player is a side"
                    " of his own (teams)"
                )
            ),
            "play.misere-partner",
        )
    for i, sp in _specials(c):
        if sp.get("partner") in ("both-hands", "plays"):
            c.report(
                c.where(("auction", "ladder", "special", i, "partner"), ("teams",)),
                # Translators: partner is a value of the rule file (both-hands, plays).
                Phrase(
                    N_(
                        "%(code)s: partner: %(partner)s needs partnerships, but every player is"
                        " a side of his own (teams)"
                    ),
                    code=sp["bid"],
                    partner=sp["partner"],
                ),
                "play.misere-partner",
            )


def _bid_values(c: _Check) -> list[int]:
    values = [v for v, _ in (_suit_values(c) or {}).values()]
    values.extend(sp["value"] for _, sp in _specials(c) if _is_int(sp.get("value")))
    return values


def _check_scoring(c: _Check) -> None:
    """score.slam and score.freeze."""
    slam_value = c.option("scoring.slam.value")
    below = c.option("scoring.slam.below")
    values = _suit_values(c)
    if slam_value and below is not None and values:
        cheapest = min(v for v, _ in values.values())
        if cheapest >= below:
            c.report(
                c.where(("scoring", "slam", "below"), ("scoring", "slam")),
                Phrase(
                    N_(
                        "the slam rule never applies: it is for bids worth less than %(below)s,"
                        " and the cheapest bid is worth %(cheapest)s"
                    ),
                    below=below,
                    cheapest=cheapest,
                ),
                "score.slam",
            )
    freeze = c.opt_int(("scoring", "opponents_freeze_at"))
    if freeze is None and c.option("scoring.freeze") == "threshold":
        c.report(
            c.where(("scoring", "freeze"), ("scoring", "opponents_freeze_at")),
            Phrase(
                N_(
                    "scoring.freeze is a threshold, but opponents_freeze_at is null: give the"
                    " score over which a side scores no trick points as opponents"
                    " (opponents_freeze_at: 400)"
                )
            ),
            "score.freeze",
        )
        return
    if freeze is None or freeze is _MISSING:
        return
    target = c.opt_int(("end", "target"), 1)
    if c.present(("end", "target")) and c.raw(("end", "target")) is None:
        c.report(
            c.where(("scoring", "opponents_freeze_at"), ("end", "target")),
            Phrase(
                N_("opponents' points stop at %(freeze)s below the target, but end.target is null"),
                freeze=freeze,
            ),
            "score.freeze",
        )
        return
    if target is None:
        target = 500
    if target is _MISSING:
        return
    assert isinstance(freeze, int) and isinstance(target, int)
    if freeze >= target:
        c.report(
            c.where(("scoring", "opponents_freeze_at"), ("end", "target")),
            Phrase(
                N_(
                    "opponents' points stop at %(freeze)s, which is not below the target"
                    " (%(target)s): the freeze must be lower (T: 490 for a target of 500)"
                ),
                freeze=freeze,
                target=target,
            ),
            "score.freeze",
        )


def _check_end(c: _Check) -> None:
    """end.target, end.lose, end.must-bid-to-win: the end of the game can be reached."""
    # A target of 0 or less is the schema's (minimum 1), with the same clause.
    lose_at = c.raw(("end", "lose_at"))
    if _is_int(lose_at) and lose_at >= 0:
        c.report(
            ("end", "lose_at"),
            Phrase(
                N_(
                    "lose_at: %(lose_at)s would end the game at once, since every side starts at"
                    " 0; it must be below 0 (G: -500)"
                ),
                lose_at=lose_at,
            ),
            "end.lose",
        )
    if (
        c.option("end.out_backwards") == "cannot-win"
        and c.own(("end", "out_backwards"))
        and c.raw(("end", "lose_at")) in (_MISSING, None)
    ):
        c.report(
            ("end", "out_backwards"),
            Phrase(N_("out_backwards has no effect without end.lose_at")),
            "end.lose",
        )
    must_bid = c.option("end.must_bid_to_win")
    values = _bid_values(c)
    if _suit_values(c) is None or must_bid is None:
        return
    slam = c.option("scoring.slam.value") or 0
    per_trick = c.option("scoring.opponents_per_trick") or 0
    against_misere = c.option("scoring.opponents_against_misere") or 0
    contract_scores = any(v > 0 for v in values) or slam > 0
    if must_bid and not contract_scores:
        c.report(
            c.where(("end", "must_bid_to_win"), ("scoring",)),
            Phrase(
                N_(
                    "no side can ever win: only a side's own contract can reach the target, and"
                    " no contract is worth any points"
                )
            ),
            "end.must-bid-to-win",
        )
    elif not must_bid and not contract_scores and not (per_trick or against_misere):
        c.report(
            c.where(("end", "target"), ("scoring",)),
            Phrase(
                N_("no side can ever reach the target: no contract and no trick scores any points")
            ),
            "end.target",
        )


def _check_requires(c: _Check) -> None:
    """An option that applies only with another option's values (``Option.requires``) keeps
    its default otherwise."""
    for opt in OPTIONS:
        if opt.requires is None:
            continue
        path, values, why = opt.requires
        value = c.option(opt.path)
        other = c.option(path)
        if value is None or value == opt.default or other is None or other in values:
            continue
        c.report(
            c.where(opt.keys, option(path).keys),
            # Translators: key, value, other and values are keys and values of the rule file
            # (procedure: rounds); why says why the one needs the other.
            Phrase(
                N_("%(key)s: %(value)s needs %(other)s: %(values)s (%(why)s)"),
                key=opt.keys[-1],
                value=_word(value),
                other=option(path).keys[-1],
                values=" or ".join(_word(v) for v in values),
                why=Phrase(why),
            ),
            opt.clause or "",
        )


def _word(value: object) -> str:
    """A value as a rule file writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_STEPS: tuple[Callable[[_Check], None], ...] = (
    _check_requires,
    _check_deck,
    _check_packets,
    _check_teams,
    _check_levels,
    _check_values,
    _check_specials,
    _check_availability,
    _check_inkles,
    _check_kitty,
    _check_misere_partner,
    _check_scoring,
    _check_end,
)
