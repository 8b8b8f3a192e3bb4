"""The normalised ruleset model: one frozen value per variant, every table expanded.

:func:`build_ruleset` turns a resolved spec that has passed the schema and semantic checks
(:mod:`.semantic`, run by :mod:`.pipeline`) into a :class:`Ruleset`; it checks nothing itself.
:meth:`Ruleset.tables` is the one JSON-able form of the rules: the Python ruleset module, the JSON
export and the runtime all read exactly these keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..runtime.codes import NT, RANK_ORDER, STRAINS, SUITLESS, SUITS, same_colour

__all__ = ["FORMAT", "BidInfo", "Choice", "Clause", "Ruleset", "StrainTable", "build_ruleset"]

#: Version of the tables format (the generated modules and JSON exports).
FORMAT = 1

#: Power of a trump card is TRUMP_BASE + its place among the trumps (low to high).
TRUMP_BASE = 100
#: Power of a joker that belongs to no suit.
SUITLESS_BASE = 200
#: Power of a joker nominated to a suit: above the ace of that suit.
NOMINATED_POWER = 99


@dataclass(frozen=True)
class BidInfo:
    """One bid of the ladder."""

    code: str
    kind: str  # "suit" or "misere"
    level: int  # tricks for suit bids, 0 for misères
    strain: int  # index into STRAINS; misères play with the no-trump table
    value: int
    open: str  # "no", "from-start" or "after-first-trick"
    blind: bool
    after_bid_of: int  # 0, or a level some earlier bid must have reached
    clause: str
    partner: str = "plays"  # the contractor's partners: "plays", "sits-out" or "both-hands"


@dataclass(frozen=True)
class StrainTable:
    """Card order for one strain: effective suit and power of every card, and suit masks."""

    strain: int
    trump: int | None
    suit_of: tuple[int, ...]
    power: tuple[int, ...]
    masks: tuple[int, ...]
    order: tuple[tuple[str, ...], ...]  # per effective suit, codes from high to low


@dataclass(frozen=True)
class Clause:
    """A rule clause: a stable id and the parameters its sentence needs."""

    id: str
    params: tuple[tuple[str, Any], ...] = ()

    def param(self, name: str) -> Any:
        """The value of one parameter."""
        return dict(self.params)[name]


@dataclass(frozen=True)
class Choice:
    """A documented choice where the sources disagree or are silent."""

    clause: str
    source: str
    text: str


@dataclass(frozen=True)
class Ruleset:
    """One variant's rules, normalised and frozen."""

    id: str
    name: str
    summary: str
    sources: tuple[str, ...]
    terms: tuple[tuple[str, str], ...]
    players: int
    teams: tuple[tuple[int, ...], ...]
    side_of_seat: tuple[int, ...]
    deck: tuple[str, ...]
    card_suit: tuple[int, ...]
    card_rank: tuple[str, ...]
    jokers: tuple[str, ...]
    first_dealer: str
    hand_size: int
    kitty: int
    dead_hand: int
    packets: tuple[tuple[str, int], ...]
    procedure: str
    raise_own_bid: bool
    all_pass: str
    all_pass_per_trick: int
    inkles: tuple[int, int] | None
    sans_kitty_bonus: int | None
    partner_call: str
    second_partner_at: int | None
    ladder: tuple[BidInfo, ...]
    kitty_take: bool
    misere_partner: str
    misere_ends_when_lost: bool
    joker_nominate: str
    joker_lead: str
    joker_void_must_play: str
    joker_lead_only_last_trick: bool
    strains: tuple[StrainTable, ...]
    slam_value: int
    slam_below: int
    overtricks: int
    failed: str
    opponents_per_trick: int
    opponents_against_misere: int
    opponents_freeze_at: int | None
    opponent_tricks: str
    target: int
    lose_at: int | None
    must_bid_to_win: bool
    both_out: str
    out_backwards: str
    clauses: tuple[Clause, ...]
    choices: tuple[Choice, ...]
    extends: str | None = None
    differences: tuple[str, ...] = field(default=())

    def term(self, name: str) -> str:
        """The variant's word for ``name`` (``kitty`` or ``widow``, ``misere`` or ``nullo``)."""
        return dict(self.terms)[name]

    def bid(self, code: str) -> BidInfo:
        """The ladder bid with this code."""
        for bid in self.ladder:
            if bid.code == code:
                return bid
        raise KeyError(code)

    def clause(self, clause_id: str) -> Clause | None:
        """The clause with this id, or None when the variant does not have it."""
        for clause in self.clauses:
            if clause.id == clause_id:
                return clause
        return None

    def tables(self) -> dict[str, Any]:
        """Every rule as JSON-able data; the single form the outputs and the runtime share."""
        return {
            "format": FORMAT,
            "variant": self.id,
            "extends": self.extends,
            "name": self.name,
            "summary": self.summary,
            "sources": list(self.sources),
            "terms": dict(self.terms),
            "players": self.players,
            "teams": [list(t) for t in self.teams],
            "side_of_seat": list(self.side_of_seat),
            "deck": list(self.deck),
            "card_suit": list(self.card_suit),
            "card_rank": list(self.card_rank),
            "jokers": list(self.jokers),
            "deal": {
                "first_dealer": self.first_dealer,
                "hand_size": self.hand_size,
                "kitty": self.kitty,
                "dead_hand": self.dead_hand,
                "packets": [[to, n] for to, n in self.packets],
            },
            "auction": {
                "procedure": self.procedure,
                "raise_own_bid": self.raise_own_bid,
                "all_pass": self.all_pass,
                "all_pass_per_trick": self.all_pass_per_trick,
                "inkles": None
                if self.inkles is None
                else {"bidders": self.inkles[0], "level": self.inkles[1]},
                "sans_kitty": None
                if self.sans_kitty_bonus is None
                else {"bonus": self.sans_kitty_bonus},
            },
            "partner": {"call": self.partner_call, "second_partner_at": self.second_partner_at},
            "ladder": [
                {
                    "code": b.code,
                    "kind": b.kind,
                    "level": b.level,
                    "strain": b.strain,
                    "value": b.value,
                    "open": b.open,
                    "blind": b.blind,
                    "after_bid_of": b.after_bid_of,
                    "clause": b.clause,
                    "partner": b.partner,
                }
                for b in self.ladder
            ],
            "kitty": {"take": self.kitty_take, "discard": self.kitty if self.kitty_take else 0},
            "play": {
                "misere_partner": self.misere_partner,
                "misere_ends_when_lost": self.misere_ends_when_lost,
                "joker_no_trumps": {
                    "nominate": self.joker_nominate,
                    "lead": self.joker_lead,
                    "void_must_play": self.joker_void_must_play,
                    "lead_only_last_trick": self.joker_lead_only_last_trick,
                },
            },
            "strains": [
                {
                    "code": STRAINS[t.strain],
                    "trump": t.trump,
                    "suit_of": list(t.suit_of),
                    "power": list(t.power),
                    "order": [list(o) for o in t.order],
                }
                for t in self.strains
            ],
            "scoring": {
                "slam": {"value": self.slam_value, "below": self.slam_below},
                "overtricks": self.overtricks,
                "failed": self.failed,
                "opponents_per_trick": self.opponents_per_trick,
                "opponents_against_misere": self.opponents_against_misere,
                "opponents_freeze_at": self.opponents_freeze_at,
                "opponent_tricks": self.opponent_tricks,
            },
            "end": {
                "target": self.target,
                "lose_at": self.lose_at,
                "must_bid_to_win": self.must_bid_to_win,
                "both_out": self.both_out,
                "out_backwards": self.out_backwards,
            },
            "clauses": [{"id": c.id, "params": dict(c.params)} for c in self.clauses],
            "choices": [
                {"clause": c.clause, "source": c.source, "text": c.text} for c in self.choices
            ],
        }


def _get(data: dict[str, Any], *path: str, default: Any = None) -> Any:
    node: Any = data
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return default
        node = node[key]
    return node


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _bid_code(level: int, strain: int) -> str:
    return f"{level}{STRAINS[strain]}"


def _rank_text(rank: object) -> str:
    text = str(rank).upper()
    return "10" if text == "T" else text


def _build_deck(data: dict[str, Any]) -> tuple[list[str], list[int], list[str], list[str]]:
    deck: list[str] = []
    card_suit: list[int] = []
    card_rank: list[str] = []
    suits = _get(data, "deck", "suits", default={}) or {}
    for s, suit in enumerate(SUITS):
        ranks = suits.get(suit, [])
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
            card_rank.append(text)
    jokers = [str(j).upper() for j in (_get(data, "deck", "jokers", default=[]) or [])]
    jokers = ["JK" if j == "RJ" else j for j in jokers]
    for joker in jokers:
        deck.append(joker)
        card_suit.append(-1)
        card_rank.append(joker)
    return deck, card_suit, card_rank, jokers


def _strain_table(
    strain: int, deck: list[str], card_suit: list[int], card_rank: list[str], jokers: list[str]
) -> StrainTable:
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
    order = tuple(
        tuple(
            deck[c]
            for c in sorted((c for c in range(n) if suit_of[c] == s), key=lambda c: -power[c])
        )
        for s in range(5)
    )
    return StrainTable(strain, trump, tuple(suit_of), tuple(power), tuple(masks), order)


def _teams(data: dict[str, Any], players: int) -> list[list[int]]:
    spec = data.get("teams", "none")
    if spec == "none" or spec is None:
        return [[seat] for seat in range(players)]
    if isinstance(spec, int) and not isinstance(spec, bool):
        return [[seat for seat in range(players) if seat % spec == t] for t in range(spec)]
    return [[int(s) for s in team] for team in spec]


def _ladder(data: dict[str, Any]) -> list[BidInfo]:
    ladder_spec = _get(data, "auction", "ladder", default={}) or {}
    levels = ladder_spec.get("levels", {"from": 6, "to": 10})
    low, high = int(levels.get("from", 6)), int(levels.get("to", 10))
    strain_codes = [str(s) for s in ladder_spec.get("strains", list(STRAINS))]
    strains = [STRAINS.index(s) for s in strain_codes if s in STRAINS]
    scoring = data.get("scoring", {}) or {}
    table: Any = scoring.get("table")
    formula: Any = scoring.get("formula")  # exactly one of the two (semantic.py)
    bids: list[BidInfo] = []
    for level in range(low, high + 1):
        for strain in strains:
            code = _bid_code(level, strain)
            if table is not None:
                value = int(table[STRAINS[strain]][level - low])
            else:
                first = int(formula["first"][STRAINS[strain]])
                value = first + (level - low) * int(formula.get("step", 100))
            bids.append(
                BidInfo(code, "suit", level, strain, value, "no", False, 0, "auction.ladder")
            )
    specials = ladder_spec.get("special", []) or []
    pending = list(enumerate(specials))
    progress = True
    while pending and progress:
        progress = False
        for entry in list(pending):
            _, sp = entry
            codes = [b.code for b in bids]
            above = str(sp.get("above", ""))
            if above not in codes:
                continue
            pending.remove(entry)
            progress = True
            code = str(sp["bid"])
            avail = sp.get("available", "any-time")
            after = 0
            if isinstance(avail, dict):
                after = int(avail.get("after_bid_of", 0))
            open_ = str(sp.get("open", "no"))
            if open_ in ("False", "false"):
                open_ = "no"
            blind = bool(sp.get("blind", False))
            clause = (
                "auction.blind-misere"
                if blind
                else ("auction.open-misere" if open_ != "no" else "auction.misere")
            )
            partner = str(
                sp.get("partner", _get(data, "play", "misere_partner", default="sits-out"))
            )
            bids.insert(
                codes.index(above) + 1,
                BidInfo(
                    code,
                    str(sp.get("kind", "misere")),
                    0,
                    NT,
                    int(sp["value"]),
                    open_,
                    blind,
                    after,
                    clause,
                    partner,
                ),
            )
    return bids


def build_ruleset(
    data: dict[str, Any],
    *,
    extends: str | None = None,
    differences: tuple[str, ...] = (),
) -> Ruleset:
    """Normalise a resolved, checked spec into a :class:`Ruleset`.

    Precondition: ``data`` has passed the schema and the semantic checks
    (:func:`~fivehundred.generator.pipeline.check_spec` runs both and reports every problem
    with its file:line:col and clause). This function checks nothing of its own: on a spec that
    has not passed them its result is undefined. Whatever reads a rule file goes through the
    pipeline, never straight here.
    """
    players = int(data.get("players", 4))
    teams = _teams(data, players)
    side_of_seat = [0] * players
    for side, team in enumerate(teams):
        for seat in team:
            side_of_seat[seat] = side
    deck, card_suit, card_rank, jokers = _build_deck(data)

    deal = data.get("deal", {}) or {}
    hand_size = int(deal.get("hand_size", 10))
    kitty = int(deal.get("kitty", 3))
    dead = int(deal.get("dead_hand", 0))
    packets_spec = deal.get("packets") or [
        {"to": "players", "cards": hand_size},
        {"to": "kitty", "cards": kitty},
    ]
    packets = [(str(p["to"]), int(p["cards"])) for p in packets_spec]

    auction = data.get("auction", {}) or {}
    inkles_spec = auction.get("inkles")
    inkles = None
    if inkles_spec:
        inkles = (int(inkles_spec.get("bidders", 2)), int(inkles_spec.get("level", 6)))
    ladder = _ladder(data)

    play = data.get("play", {}) or {}
    joker_nt = _get(data, "play", "joker", "no_trumps", default={}) or {}
    scoring = data.get("scoring", {}) or {}
    slam = scoring.get("slam") or {"value": 0, "below": 0}
    end = data.get("end", {}) or {}

    strains = tuple(_strain_table(t, deck, card_suit, card_rank, jokers) for t in range(5))

    terms = {"kitty": "kitty", "misere": "misere", "joker": "joker"}
    terms.update({k: str(v) for k, v in (data.get("terms") or {}).items()})
    choices = tuple(
        Choice(str(c.get("clause", "")), str(c.get("source", "")), str(c.get("text", "")))
        for c in (data.get("choices") or [])
    )
    rs = Ruleset(
        id=str(data.get("id", "variant")),
        name=str(data.get("name", data.get("id", "variant"))),
        summary=str(data.get("summary", "")),
        sources=tuple(str(s) for s in (data.get("sources") or [])),
        terms=tuple(sorted(terms.items())),
        players=players,
        teams=tuple(tuple(t) for t in teams),
        side_of_seat=tuple(side_of_seat),
        deck=tuple(deck),
        card_suit=tuple(card_suit),
        card_rank=tuple(card_rank),
        jokers=tuple(jokers),
        first_dealer=str(deal.get("first_dealer", "random")),
        hand_size=hand_size,
        kitty=kitty,
        dead_hand=dead,
        packets=tuple(packets),
        procedure=str(auction.get("procedure", "rounds")),
        raise_own_bid=bool(auction.get("raise_own_bid", False)),
        all_pass=str(auction.get("all_pass", "throw-in")),
        all_pass_per_trick=int(auction.get("all_pass_per_trick", 10)),
        inkles=inkles,
        sans_kitty_bonus=(
            None
            if auction.get("sans_kitty") is None
            else int(auction["sans_kitty"].get("bonus", 0))
        ),
        partner_call=str(_get(data, "partner", "call", default="none")),
        second_partner_at=_opt_int(_get(data, "partner", "second_partner_at")),
        ladder=tuple(ladder),
        kitty_take=bool(_get(data, "kitty", "take", default=True)),
        misere_partner=str(play.get("misere_partner", "sits-out")),
        misere_ends_when_lost=bool(play.get("misere_ends_when_lost", True)),
        joker_nominate=str(joker_nt.get("nominate", "none")),
        joker_lead=str(joker_nt.get("lead", "name-any-suit")),
        joker_void_must_play=str(joker_nt.get("void_must_play", "never")),
        joker_lead_only_last_trick=bool(joker_nt.get("lead_only_last_trick", False)),
        strains=strains,
        slam_value=int(slam.get("value", 0)),
        slam_below=int(slam.get("below", 0)),
        overtricks=int(scoring.get("overtricks", 0)),
        failed=str(scoring.get("failed", "minus-value")),
        opponents_per_trick=int(scoring.get("opponents_per_trick", 10)),
        opponents_against_misere=int(scoring.get("opponents_against_misere", 0)),
        opponents_freeze_at=(
            None
            if scoring.get("opponents_freeze_at") is None
            else int(scoring["opponents_freeze_at"])
        ),
        opponent_tricks=str(scoring.get("opponent_tricks", "pooled")),
        target=int(end.get("target", 500)),
        lose_at=None if end.get("lose_at") is None else int(end["lose_at"]),
        must_bid_to_win=bool(end.get("must_bid_to_win", True)),
        both_out=str(end.get("both_out", "contractor")),
        out_backwards=str(end.get("out_backwards", "game-over")),
        clauses=(),
        choices=choices,
        extends=extends,
        differences=differences,
    )
    from .clauses import clauses_for

    rs = replace(rs, clauses=clauses_for(rs))
    return rs
