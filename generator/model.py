"""The normalised ruleset model: one :class:`Tables` per variant.

:func:`build_tables` turns a resolved spec that has passed the schema and semantic checks
(:mod:`.semantic`, run by :mod:`.pipeline`) into the tables, every derivation included (deal
order, suit masks, joker powers, ...: ``Tables.derived``); it checks nothing itself. The format
is defined once, in :mod:`~fivehundred.runtime.engine.tableformat`, and
mypy checks every key built here.

:class:`Ruleset` is the generator's view of those same tables: the runtime's
:class:`Rules` (which reads every rule) plus what only the rule books,
``show`` and ``diff`` need (summary, sources, ladder and clause entries, the differences from the
base). The Python ruleset module and the JSON export write :attr:`Ruleset.tables` as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from ..runtime.engine.codes import (
    NT,
    RANK_ORDER,
    STRAINS,
    SUITLESS,
    SUITS,
    same_colour,
    suit_rank,
)
from ..runtime.engine.rules import Rules
from ..runtime.engine.tableformat import (
    FORMAT,
    OPTIONS,
    Auction,
    Bid,
    Choice,
    Clause,
    ClauseId,
    Deal,
    Derived,
    End,
    Inkles,
    JokerCode,
    OpenWhen,
    Packet,
    Partner,
    Play,
    RankCode,
    Scoring,
    Strain,
    StrainCode,
    Tables,
    Terms,
)
from .ladder import place_specials
from .options import clause_option
from .options import file_value as read_option

__all__ = ["FORMAT", "Ruleset", "build_ruleset", "build_tables"]

#: Power of a trump card is TRUMP_BASE + its place among the trumps (low to high).
TRUMP_BASE = 100
#: Power of a joker that belongs to no suit.
SUITLESS_BASE = 200
#: Power of the highest joker nominated to a suit: above the ace of that suit.
NOMINATED_POWER = 99


class Ruleset(Rules):
    """One variant's rules as the generator sees them: :class:`Rules` plus the rule-book data.

    Immutable by convention; :meth:`evolve` makes a changed copy.
    """

    __slots__ = (
        "card_rank",
        "choices",
        "clauses",
        "differences",
        "jokers",
        "ladder",
        "sources",
        "strains",
        "summary",
    )

    def __init__(self, tables: Tables, differences: tuple[str, ...] = ()) -> None:
        super().__init__(tables)
        self.summary: str = tables["summary"]
        self.sources: tuple[str, ...] = tuple(tables["sources"])
        self.card_rank: tuple[RankCode | JokerCode, ...] = tuple(tables["card_rank"])
        self.jokers: tuple[JokerCode, ...] = tuple(tables["jokers"])
        self.ladder: tuple[Bid, ...] = tuple(tables["ladder"])
        self.strains: tuple[Strain, ...] = tuple(tables["strains"])
        self.clauses: tuple[Clause, ...] = tuple(tables["clauses"])
        self.choices: tuple[Choice, ...] = tuple(tables["choices"])
        #: Clause ids whose rules differ from the base variant's (house variants only).
        self.differences = differences

    @property
    def id(self) -> str:
        """The variant id."""
        return self.variant

    def term(self, name: str) -> str:
        """The variant's word for ``name`` (``kitty`` or ``widow``, ``misere`` or ``nullo``)."""
        return self.terms[name]

    def bid(self, code: str) -> Bid:
        """The ladder bid with this code."""
        return self.ladder[self.bid_index[code]]  # KeyError for a code not on the ladder

    def clause(self, clause_id: str) -> Clause | None:
        """The clause with this id, or None when the variant does not have it."""
        for clause in self.clauses:
            if clause["id"] == clause_id:
                return clause
        return None

    def evolve(
        self,
        *,
        differences: tuple[str, ...] | None = None,
        choices: list[Choice] | None = None,
        summary: str | None = None,
    ) -> Ruleset:
        """A copy with other differences, choices or summary (the rules stay as they are)."""
        tables: Tables = {**self.tables}
        if choices is not None:
            tables["choices"] = choices
        if summary is not None:
            tables["summary"] = summary
        return Ruleset(tables, self.differences if differences is None else differences)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ruleset):
            return NotImplemented
        return self.tables == other.tables and self.differences == other.differences

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        # The whole content: the build keys its cache on it.
        return f"Ruleset({self.tables!r}, differences={self.differences!r})"


def _bid_code(level: int, strain: int) -> str:
    return f"{level}{STRAINS[strain]}"


def _rank_text(rank: object) -> str:
    text = str(rank).upper()
    return "10" if text == "T" else text


def _build_deck(
    data: dict[str, Any],
) -> tuple[list[str], list[int], list[RankCode | JokerCode], list[JokerCode]]:
    deck: list[str] = []
    card_suit: list[int] = []
    card_rank: list[RankCode | JokerCode] = []
    suits = data["deck"]["suits"]
    for s, suit in enumerate(SUITS):
        ranks = suits.get(suit) or []  # a suit the deck leaves out has no ranks
        seen: set[str] = set()
        ordered = []
        for rank in ranks:
            text = _rank_text(rank)
            if text not in RANK_ORDER or text in seen:
                continue  # the schema and semantic checks report these
            seen.add(text)
            ordered.append(text)
        # Plain-suit order is fixed (RANK_ORDER); the file may list ranks in any order.
        ordered.sort(key=RANK_ORDER.index)
        for text in ordered:
            deck.append(text + suit)
            card_suit.append(s)
            card_rank.append(cast(RankCode, text))  # one of RANK_ORDER
    jokers_in = [str(j).upper() for j in data["deck"]["jokers"]]
    jokers: list[JokerCode] = ["JK" if j in ("JK", "RJ") else "BJ" for j in jokers_in]
    for joker in jokers:
        deck.append(joker)
        card_suit.append(-1)
        card_rank.append(joker)
    return deck, card_suit, card_rank, jokers


def _strain_table(
    strain: int,
    deck: list[str],
    card_suit: list[int],
    card_rank: Sequence[str],
    jokers: Sequence[str],
) -> tuple[Strain, list[int]]:
    """The card order of one strain, and its suit masks (``Derived.suit_masks``)."""
    n = len(deck)
    suit_of = [0] * n
    power = [0] * n
    trump = strain if strain < NT else None
    left = None
    right = None
    if trump is not None:
        right = f"J{SUITS[trump]}" if f"J{SUITS[trump]}" in deck else None
        left_code = f"J{SUITS[same_colour(trump)]}"
        left = left_code if left_code in deck else None
    # Plain order inside each suit.
    for c in range(n):
        s = card_suit[c]
        if s < 0:
            continue
        suit_of[c] = s
        power[c] = RANK_ORDER.index(card_rank[c]) + 1
    if trump is not None:
        trumps_low_to_high = [
            c
            for c in sorted(
                (c for c in range(n) if card_suit[c] == trump and deck[c] not in (left, right)),
                key=lambda c: power[c],
            )
        ]
        if left is not None:
            trumps_low_to_high.append(deck.index(left))
        if right is not None:
            trumps_low_to_high.append(deck.index(right))
        trumps_low_to_high.extend(deck.index(j) for j in jokers)
        for place, c in enumerate(trumps_low_to_high):
            suit_of[c] = trump
            power[c] = TRUMP_BASE + place + 1
    else:
        for j, joker in enumerate(jokers):
            c = deck.index(joker)
            suit_of[c] = SUITLESS
            power[c] = SUITLESS_BASE + j + 1
    masks = [0] * 5
    for c in range(n):
        masks[suit_of[c]] |= 1 << c
    order = [
        [deck[c] for c in sorted((c for c in range(n) if suit_of[c] == s), key=lambda c: -power[c])]
        for s in range(5)
    ]
    code = cast(StrainCode, STRAINS[strain])
    return {"code": code, "trump": trump, "suit_of": suit_of, "power": power, "order": order}, masks


def _teams(data: dict[str, Any], players: int) -> list[list[int]]:
    spec = data["teams"]
    if spec == "none":
        return [[seat] for seat in range(players)]
    if isinstance(spec, int) and not isinstance(spec, bool):
        return [[seat for seat in range(players) if seat % spec == t] for t in range(spec)]
    return [[int(s) for s in team] for team in spec]


def _suit_bid(code: str, level: int, strain: int, value: int) -> Bid:
    return {
        "code": code,
        "kind": "suit",
        "level": level,
        "strain": strain,
        "value": value,
        "open": "no",
        "blind": False,
        "after_bid_of": 0,
        "clause": "auction.ladder",
        "partner": "plays",
    }


def _ladder(data: dict[str, Any]) -> list[Bid]:
    ladder_spec = data["auction"]["ladder"]
    levels = ladder_spec["levels"]
    low, high = int(levels["from"]), int(levels["to"])
    strain_codes = [str(s) for s in ladder_spec["strains"]]
    strains = [STRAINS.index(s) for s in strain_codes if s in STRAINS]
    scoring = data["scoring"]
    table: Any = scoring.get("table")  # exactly one of the two (semantic.py)
    formula: Any = scoring.get("formula")
    misere_partner = data["play"]["misere_partner"]
    bids: list[Bid] = []
    for level in range(low, high + 1):
        for strain in strains:
            code = _bid_code(level, strain)
            if table is not None:
                value = int(table[STRAINS[strain]][level - low])
            else:
                first = int(formula["first"][STRAINS[strain]])
                value = first + (level - low) * int(formula["step"])
            bids.append(_suit_bid(code, level, strain, value))
    if ladder_spec["order"] == "value":
        bids.sort(key=lambda b: suit_rank(b["level"], b["strain"], b["value"], by_value=True))
    specials = ladder_spec["special"]
    placed = place_specials(
        [b["code"] for b in bids],
        [(i, str(sp["bid"]), str(sp["above"])) for i, sp in enumerate(specials)],
    )  # every special placed, none clashing: the checks refused any other file (semantic.py)
    by_code: dict[str, Bid] = {b["code"]: b for b in bids}
    for sp in specials:
        avail = sp["available"]
        after = 0
        if isinstance(avail, dict):
            after = int(avail["after_bid_of"])
        raw_open = sp["open"]
        open_: OpenWhen = "no" if raw_open in (False, "False", "false", "no") else raw_open
        blind = bool(sp["blind"])
        clause: ClauseId = (
            "auction.blind-misere"
            if blind
            else ("auction.open-misere" if open_ != "no" else "auction.misere")
        )
        by_code[str(sp["bid"])] = {
            "code": str(sp["bid"]),
            "kind": sp["kind"],
            "level": 0,
            "strain": NT,
            "value": int(sp["value"]),
            "open": open_,
            "blind": blind,
            "after_bid_of": after,
            "clause": clause,
            # a misère without its own partner rule follows play.misere_partner
            "partner": sp.get("partner", misere_partner),
        }
    bids = [by_code[code] for code in placed.ladder]
    return bids


def _deal_order(players: int, packets: list[Packet]) -> list[list[int]]:
    """``deal_order[dealer][k]``: who receives the k-th card (seat, kitty = n, dead = n + 1)."""
    order: list[list[int]] = []
    for dealer in range(players):
        dest: list[int] = []
        for to, count in packets:
            if to == "players":
                for k in range(1, players + 1):
                    dest.extend([(dealer + k) % players] * count)
            else:
                dest.extend([players + (to != "kitty")] * count)
        order.append(dest)
    return order


def _restricted_bids(ladder: list[Bid], inkle_level: int) -> list[int]:
    """Bids some condition can bar (misère after a 7, blind only first, the inkle level)."""
    return [
        i
        for i, bid in enumerate(ladder)
        if bid["after_bid_of"] or bid["blind"] or (inkle_level and bid["level"] == inkle_level)
    ]


def build_tables(data: dict[str, Any], *, extends: str | None = None) -> Tables:
    """Normalise a resolved, checked spec into its :class:`Tables`, derivations included.

    Precondition: ``data`` has passed the schema and the semantic checks
    (:func:`~fivehundred.generator.pipeline.check_spec` runs both and reports every problem
    with its file:line:col and clause). This function checks nothing of its own: on a spec that
    has not passed them its result is undefined. Whatever reads a rule file goes through the
    pipeline, never straight here.
    """
    opts = _option_tables(data)
    players: int = opts["players"]
    teams = _teams(data, players)
    side_of_seat = [0] * players
    for side, team in enumerate(teams):
        for seat in team:
            side_of_seat[seat] = side
    deck, card_suit, card_rank, jokers = _build_deck(data)

    deal = data["deal"]
    hand_size, kitty = int(deal["hand_size"]), int(deal["kitty"])
    packets_spec = deal.get("packets") or [  # no packets: the whole hands, then the kitty
        {"to": "players", "cards": hand_size},
        {"to": "kitty", "cards": kitty},
    ]
    packets: list[Packet] = [(p["to"], int(p["cards"])) for p in packets_spec]

    auction = data["auction"]
    inkles_spec = auction["inkles"]
    inkles: Inkles | None = (
        {"bidders": int(inkles_spec["bidders"]), "level": int(inkles_spec["level"])}
        if inkles_spec
        else None
    )
    sans = auction["sans_kitty"]
    ladder = _ladder(data)
    kitty_take = bool(data["kitty"]["take"])
    strains = [_strain_table(t, deck, card_suit, card_rank, jokers) for t in range(5)]
    joker_cards = [deck.index(j) for j in jokers]
    # joker.no-trumps.misere-low: in a misère every joker is below every card
    low = bool(read_option(data, clause_option("joker.no-trumps.misere-low")))
    derived: Derived = {
        "deal_order": _deal_order(players, packets),
        "suit_masks": [masks for _, masks in strains],
        "joker_cards": joker_cards,
        "joker_mask": sum(1 << c for c in joker_cards),
        "nominated_power": [NOMINATED_POWER - (len(jokers) - 1 - k) for k in range(len(jokers))],
        "misere_power": [
            0 if low and c in joker_cards else p for c, p in enumerate(strains[NT][0]["power"])
        ],
        "misere_nominated_power": [
            0 if low else NOMINATED_POWER - (len(jokers) - 1 - k) for k in range(len(jokers))
        ],
        "restricted_bids": _restricted_bids(ladder, inkles["level"] if inkles else 0),
        "pool_opponents": opts["scoring"]["opponent_tricks"] == "pooled"
        and all(len(t) == 1 for t in teams),
    }
    ident = str(data["id"]) if "id" in data else "variant"
    # Each section holds its options as the registry compiles them (_option_tables), then the
    # fields compiled from other parts of the file; the key order is the tables format's.
    tables: Tables = {
        "format": FORMAT,
        "variant": ident,
        "extends": extends,
        "name": str(data["name"]) if "name" in data else ident,
        "summary": str(data["summary"]),
        "sources": [str(s) for s in data["sources"]],
        "terms": cast(Terms, _ordered(opts["terms"], Terms)),
        "players": players,
        "teams": teams,
        "side_of_seat": side_of_seat,
        "deck": deck,
        "card_suit": card_suit,
        "card_rank": card_rank,
        "jokers": jokers,
        "deal": cast(Deal, {**opts["deal"], "packets": packets}),
        "auction": cast(
            Auction,
            {
                **opts["auction"],
                "inkles": inkles,
                "sans_kitty": None if sans is None else {"bonus": int(sans["bonus"])},
            },
        ),
        "partner": cast(Partner, opts["partner"]),
        "ladder": ladder,
        "kitty": {"take": kitty_take, "discard": kitty if kitty_take else 0},
        "play": cast(Play, opts["play"]),
        "strains": [strain for strain, _ in strains],
        "scoring": cast(Scoring, {"slam": opts["scoring"]["slam"], **opts["scoring"]}),
        "end": cast(End, _ordered(opts["end"], End)),
        "clauses": [],
        "choices": [
            {"clause": str(c["clause"]), "source": str(c["source"]), "text": str(c["text"])}
            for c in data["choices"]
        ],
        "derived": derived,
    }
    from .clauses import clauses_for

    tables["clauses"] = clauses_for(Ruleset(tables))
    return tables


def build_ruleset(
    data: dict[str, Any],
    *,
    extends: str | None = None,
    differences: tuple[str, ...] = (),
) -> Ruleset:
    """Normalise a resolved, checked spec into a :class:`Ruleset` (see :func:`build_tables`)."""
    return Ruleset(build_tables(data, extends=extends), differences)


def _option_tables(data: dict[str, Any]) -> dict[str, Any]:
    """Every option of the registry that has a field in the tables, at its place there."""
    out: dict[str, Any] = {}
    for opt in OPTIONS:
        keys = opt.table_keys
        if keys is None:
            continue
        node = out
        for key in keys[:-1]:
            node = node.setdefault(key, {})
        node[keys[-1]] = read_option(data, opt)
    return out


def _ordered(section: dict[str, Any], typed: type) -> dict[str, Any]:
    """``section`` in the key order of its section of the tables format (``typed``, a
    ``TypedDict`` of :mod:`~fivehundred.runtime.engine.tableformat`), so no option's name is
    written here: a key the format does not declare keeps its place after them."""
    order = [key for key in typed.__annotations__ if key in section]
    return {**{key: section[key] for key in order}, **section}
