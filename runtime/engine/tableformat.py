"""The table format: the one definition of the data a generated ruleset holds.

A variant's rules reach every engine as one JSON-able value, :class:`Tables`: the ``TABLES`` of
a generated module (``generated/rulesets/<variant>.py``) and the JSON export
(``generated/json/<variant>.json``). This module is the only place that format is written down:

- the :class:`~typing.TypedDict` classes below give every key and its type, so mypy checks the
  generator that fills them (``fivehundred.generator.model.build_ruleset``) and the engine that
  reads them (:class:`~fivehundred.runtime.engine.rules.Rules`);
- every option value is a :data:`~typing.Literal` alias (:data:`Procedure`, :data:`BothOut`, ...),
  so a comparison with a misspelt value is a mypy error (``--strict-equality``);
- every field carries its documentation and constraints as :class:`Meta` in
  :data:`~typing.Annotated`; ``fivehundred build`` derives the JSON schema,
  ``generated/json/ruleset.schema.json``, from them (``fivehundred.generator.tableschema``).

:class:`Derived` holds what follows from the other fields (deal order, suit masks, joker
powers, ...): the generator computes it once, so engines only read it. Adding a rule means: a
field here, ``build_ruleset`` filling it, the engine reading it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, TypedDict

from .messages import N_

__all__ = [
    "FORMAT",
    "NO_DEFAULT",
    "OPTIONS",
    "TABLES_META",
    "AllPass",
    "Auction",
    "BackwardsWinner",
    "Bid",
    "BidAfterPass",
    "BidCode",
    "BidKind",
    "BidPartner",
    "BothOut",
    "Card",
    "Choice",
    "Clause",
    "ClauseId",
    "ClauseParams",
    "Deal",
    "Def",
    "Derived",
    "End",
    "EndLine",
    "Failed",
    "FirstDealer",
    "Inkles",
    "JokerCode",
    "JokerLead",
    "JokerNoTrumps",
    "JokerWord",
    "Kitty",
    "KittyWord",
    "LadderOrder",
    "Meta",
    "MiserePartner",
    "MisereWord",
    "Nominate",
    "OpenWhen",
    "OpponentTricks",
    "OpponentsLimit",
    "Option",
    "OutBackwards",
    "Packet",
    "Partner",
    "PartnerCall",
    "Play",
    "Procedure",
    "RankCode",
    "Receiver",
    "SansKitty",
    "SchemaKey",
    "Scoring",
    "SeatList",
    "Slam",
    "Strain",
    "StrainCode",
    "Tables",
    "Terms",
    "VoidMustPlay",
]

#: Version of the tables format (``Tables.format``). 2 added :class:`Derived`.
FORMAT: Literal[2] = 2


@dataclass(frozen=True)
class Meta:
    """Documentation and constraints of one field, as :data:`~typing.Annotated` metadata.

    ``items`` documents the items of a list field. The JSON schema is derived from these.
    """

    title: str
    description: str
    minimum: int | None = None
    maximum: int | None = None
    pattern: str | None = None
    min_items: int | None = None
    max_items: int | None = None
    unique_items: bool = False
    items: Meta | None = None


@dataclass(frozen=True)
class Def:
    """Marks a type the schema defines once, under ``$defs/<name>``, and refers to."""

    name: str
    meta: Meta

    # -- option values ----------------------------------------------------------------------------


JokerWord = Literal["joker", "bird"]
KittyWord = Literal["kitty", "widow"]
MisereWord = Literal["misere", "nullo"]
RankCode = Literal[
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A"
]
JokerCode = Literal["JK", "BJ"]
StrainCode = Literal["S", "C", "D", "H", "NT"]
FirstDealer = Literal["random", "draw"]
Receiver = Literal["players", "kitty", "dead"]
Procedure = Literal["rounds", "single-round"]
AllPass = Literal["throw-in", "redeal", "no-trumps"]
BidAfterPass = Literal["never", "always", "if-changed"]
PartnerCall = Literal["none", "choose", "card"]
BidKind = Literal["suit", "misere"]
OpenWhen = Literal["no", "from-start", "after-first-trick"]
MiserePartner = Literal["sits-out", "both-hands"]
BidPartner = Literal["sits-out", "both-hands", "plays"]
Nominate = Literal["contractor", "none"]
JokerLead = Literal["name-any-suit", "name-unled-suit"]
VoidMustPlay = Literal["never", "misere", "always"]
Failed = Literal["minus-value"]
OpponentTricks = Literal["pooled", "own"]
OpponentsLimit = Literal["cap", "threshold"]
LadderOrder = Literal["level", "value"]
BothOut = Literal["contractor", "highest", "first-by-trick"]
OutBackwards = Literal["game-over", "cannot-win"]
EndLine = Literal["reach", "exceed"]
BackwardsWinner = Literal["any", "not-negative"]

#: Every rule clause id, in rule-book order. Ids are stable: never rename one.
ClauseId = Literal[
    "deck.cards",
    "deck.joker",
    "seats.teams",
    "seats.partner",
    "deal.first-dealer",
    "deal.packets",
    "deal.rotation",
    "auction.order",
    "auction.no-ace-no-face",
    "auction.ladder",
    "auction.higher",
    "auction.single-round",
    "auction.inkles",
    "auction.pass-final",
    "auction.end",
    "auction.raise-own-bid",
    "auction.misere",
    "auction.open-misere",
    "auction.blind-misere",
    "auction.all-pass",
    "kitty.take",
    "kitty.sans",
    "trump.order",
    "trump.left-bower",
    "joker.trump",
    "play.misere-partner",
    "play.opening-lead",
    "play.follow-suit",
    "play.trick-winner",
    "play.next-lead",
    "play.open-misere",
    "play.misere-ends",
    "joker.no-trumps.wins",
    "joker.no-trumps.follow",
    "joker.no-trumps.nominate",
    "joker.no-trumps.lead",
    "joker.no-trumps.last-trick",
    "joker.no-trumps.lead-last-only",
    "joker.no-trumps.misere-void",
    "joker.no-trumps.misere-low",
    "joker.no-trumps.first-or-last",
    "joker.no-trumps.void-suit",
    "score.table",
    "score.made",
    "score.overtricks",
    "score.slam",
    "score.failed",
    "score.opponents",
    "score.misere",
    "score.freeze",
    "end.target",
    "end.must-bid-to-win",
    "end.both-out",
    "end.lose",
    "end.continue",
]

# -- shared definitions -----------------------------------------------------------------------

Card = Annotated[
    str,
    Def(
        "card",
        Meta(
            "Card code",
            (
                "A card of the deck: rank then suit (`10H`, `JD`, `13C`, `2S`), or a "
                "joker `JK` (red) / `BJ` (black). Always canonical: `10`, never `T`; "
                "upper case."
            ),
            pattern="^(?:(?:[2-9]|1[0-3]|[JQKA])[SCDH]|JK|BJ)$",
        ),
    ),
]
BidCode = Annotated[
    str,
    Def(
        "bidCode",
        Meta(
            "Bid code",
            "A ladder bid: `<level><strain>` (`7NT`) or a special code (`MIS`).",
            pattern="^(?:[1-9][0-9]?(?:S|C|D|H|NT)|[A-Z][A-Z0-9]*)$",
        ),
    ),
]
SeatList = Annotated[
    list[int],
    Def(
        "seatList",
        Meta(
            "Seats",
            "Seat numbers, 0..players-1, clockwise.",
            items=Meta("Seat", "A seat number.", minimum=0, maximum=5),
        ),
    ),
]
Packet = tuple[
    Annotated[Receiver, Meta("Receiver", "Who receives the packet.")],
    Annotated[int, Meta("Cards", "Cards in the packet (to each player for `players`).", minimum=1)],
]
#: The ``$schema`` key of a JSON export (not part of :class:`Tables`: the file's, not the rules').
SchemaKey = Annotated[
    Literal["ruleset.schema.json"],
    Meta(
        "Schema",
        (
            "The file name of this schema, `ruleset.schema.json`, which lies beside "
            "every ruleset file."
        ),
    ),
]

# -- the tables -------------------------------------------------------------------------------


class Terms(TypedDict):
    """The variant's words for things with two names."""

    joker: Annotated[JokerWord, Meta("Joker", "`joker` or `bird`.")]
    kitty: Annotated[KittyWord, Meta("Kitty", "`kitty` or `widow`.")]
    misere: Annotated[MisereWord, Meta("Misère", "`misere` or `nullo`.")]


class Deal(TypedDict):
    """How the cards are dealt."""

    first_dealer: Annotated[
        FirstDealer,
        Meta(
            "First dealer",
            (
                "`random`: a random seat deals first. `draw`: each player draws a card; "
                "the lowest deals (ace low, joker lowest), redraw on ties. The deal then "
                "passes to the left ((dealer+1) % players)."
            ),
        ),
    ]
    hand_size: Annotated[
        int, Meta("Hand size", "Cards each player holds after the deal.", minimum=1)
    ]
    kitty: Annotated[int, Meta("Kitty", "Cards in the kitty (widow).", minimum=0)]
    dead_hand: Annotated[
        int, Meta("Dead hand", "Cards of a dead hand nobody plays (0: none).", minimum=0)
    ]
    packets: Annotated[
        list[Packet],
        Meta(
            "Packets",
            (
                "The deal in order, each `[receiver, n]`: `players` gives n cards to "
                "each player in turn clockwise from the dealer's left, `kitty` n cards "
                "to the kitty, `dead` n cards to the dead hand. The totals are hand_size "
                "per player, kitty and dead_hand."
            ),
            items=Meta("Packet", "`[receiver, n]`.", min_items=2),
        ),
    ]


class Inkles(TypedDict):
    """Who bids inkles and at which level."""

    bidders: Annotated[int, Meta("Bidders", "How many of the first callers.", minimum=1)]
    level: Annotated[int, Meta("Level", "The inkle level.", minimum=1)]


class SansKitty(TypedDict):
    """The sans-kitty bonus."""

    bonus: Annotated[int, Meta("Bonus", "Points added to the contract's value.", minimum=0)]


class Auction(TypedDict):
    """How the bidding runs."""

    procedure: Annotated[
        Procedure,
        Meta(
            "Procedure",
            (
                "`rounds`: bidding goes round from the dealer's left until all but one "
                "have passed after a bid (or all passed); a player who passed may not "
                "bid again. `single-round`: each player calls once, from the dealer's "
                "left; the highest bid wins."
            ),
        ),
    ]
    raise_own_bid: Annotated[
        bool,
        Meta(
            "Raise own bid",
            (
                "With `rounds`: false: the auction ends as soon as every player but one "
                "has passed after a bid. true: when a pass leaves only the highest "
                "bidder not passed, he has exactly one more call (a higher bid or pass), "
                "then the auction ends; if his own bid left him alone, it ends at once."
            ),
        ),
    ]
    bid_after_pass: Annotated[
        BidAfterPass,
        Meta(
            "Bid after pass",
            (
                "With `rounds`: `never`: a player who passed is skipped for the rest of the "
                "auction. `always`: every bid (not an inkle) cancels the passes made before "
                "it, so a player who passed is asked again at his turn and may bid; the "
                "auction ends when every player but the highest bidder has passed in "
                "succession after the last bid. `if-changed`: a player who passed is asked "
                "again at his turn only if someone made a higher bid after his pass; his pass "
                "stands until he bids again, and the auction ends as soon as every player "
                "but the highest bidder stands passed."
            ),
        ),
    ]
    no_ace_no_face: Annotated[
        bool,
        Meta(
            "No ace, no face",
            (
                "true: a player whose hand holds no ace, no king, queen or jack (the bowers "
                "are jacks) and no joker may, in place of his first call of the auction, ask "
                "for a redeal (action `redeal`; asking is optional). The hand ends at once, "
                "scores nothing, and the same dealer deals again. The numbered ranks 11, 12 and "
                "13 are no face cards. false: no such claim."
            ),
        ),
    ]
    all_pass: Annotated[
        AllPass,
        Meta(
            "All pass",
            (
                "`throw-in`: the hand is over and scores nothing; the next dealer deals. "
                "`redeal`: as `throw-in`, but the same dealer deals again. `no-trumps`: the hand "
                "is played at no trumps with no contract, no kitty and no contractor (no "
                "nomination); the seat on the dealer's left leads and each side scores "
                "`all_pass_per_trick` per trick it takes."
            ),
        ),
    ]
    inkles: Annotated[
        Annotated[None, Meta("No inkles", "No inkles.")]
        | Annotated[Inkles, Meta("Inkle rule", "Who bids inkles and at which level.")],
        Meta(
            "Inkles",
            (
                "null, or: during the first `bidders` calls of the auction (passes "
                "count), a bid at `level` is an inkle: it must outrank the current "
                "highest bid but never becomes the highest bid and cannot win; after "
                "those calls nobody may bid at that level."
            ),
        ),
    ]
    all_pass_per_trick: Annotated[
        int,
        Meta(
            "All-pass points per trick",
            (
                "Points per trick each player scores when all pass and the hand is "
                "played at no trumps (default 10)."
            ),
            minimum=0,
        ),
    ]
    sans_kitty: Annotated[
        Annotated[None, Meta("No sans kitty", "No sans-kitty contracts.")]
        | Annotated[SansKitty, Meta("Sans-kitty rule", "The sans-kitty bonus.")],
        Meta(
            "Sans kitty",
            (
                "null, or: after the auction, unless the contract is a misère, the "
                "contractor first chooses `take` (the kitty) or `sans` (the kitty stays "
                "out and the contract is worth `bonus` more, made or failed)."
            ),
        ),
    ]
    ranking: Annotated[
        LadderOrder,
        Meta(
            "Ranking",
            (
                "How the suit bids of `ladder` were ranked (the ladder is already in that "
                "order, lowest first): `level`: by tricks, then strain; `value`: by value, "
                "and of two bids worth as much the one of more tricks (then the higher "
                "strain) ranks higher."
            ),
        ),
    ]


class Partner(TypedDict):
    """A partner for one hand (five-handed)."""

    call: Annotated[
        PartnerCall,
        Meta(
            "Call",
            (
                "`none`: the contractor's allies are his side's other seats. `choose`: "
                "after the discard he names a partner seat per action. `card`: he calls "
                "cards not in his hand and not called yet (a kitty or discarded card may "
                "be called); the holder of a called card is his partner, and a card "
                "nobody holds brings none. No partner is chosen or called in a misère: "
                "he plays alone."
            ),
        ),
    ]
    second_partner_at: Annotated[
        int | None,
        Meta(
            "Second partner at",
            (
                "Contracts of this level or more take two partners (two `partner`/`call` "
                "actions); null: one."
            ),
        ),
    ]


class Bid(TypedDict):
    """One bid of the ladder."""

    code: Annotated[BidCode, Meta("Code", "The bid as written in records.")]
    kind: Annotated[
        BidKind,
        Meta(
            "Kind",
            (
                "`suit`: make at least `level` tricks in `strain`. `misere`: take no "
                "trick, played with the no-trump tables."
            ),
        ),
    ]
    level: Annotated[
        int, Meta("Level", "Tricks to make for a suit bid; 0 for a misère.", minimum=0)
    ]
    strain: Annotated[
        int,
        Meta(
            "Strain",
            (
                "Index into `strains` whose tables govern the play: 0 S, 1 C, 2 D, 3 H, "
                "4 NT; 4 for every misère."
            ),
            minimum=0,
            maximum=4,
        ),
    ]
    value: Annotated[int, Meta("Value", "Points scored if made, lost if failed.")]
    open: Annotated[
        OpenWhen,
        Meta(
            "Open",
            (
                "`no`; `from-start`: the contractor's hand is face up from the opening "
                "lead; `after-first-trick`: face up after the first trick."
            ),
        ),
    ]
    blind: Annotated[
        bool,
        Meta(
            "Blind",
            ("May only be bid before the bidder has looked at his cards (as his first call)."),
        ),
    ]
    after_bid_of: Annotated[
        int,
        Meta(
            "After bid of",
            (
                "0: biddable whenever it outranks the current bid; N: only once some "
                "earlier bid of the auction had level N or more."
            ),
            minimum=0,
        ),
    ]
    clause: Annotated[
        ClauseId, Meta("Clause", "Id of the clause an illegal call of this bid cites.")
    ]
    partner: Annotated[
        BidPartner,
        Meta(
            "Misère partner",
            (
                "For this misère only, overrides `play.misere_partner` (`plays`: the "
                "partner plays too and the side must take no trick)."
            ),
        ),
    ]


class Kitty(TypedDict):
    """The kitty exchange."""

    take: Annotated[
        bool,
        Meta(
            "Take",
            (
                "The contractor adds the kitty to his hand, then discards `discard` "
                "cards (any of them)."
            ),
        ),
    ]
    discard: Annotated[
        int, Meta("Discard", "Cards to discard: the kitty size when `take`, else 0.", minimum=0)
    ]


class JokerNoTrumps(TypedDict):
    """The joker at no trumps and in misères."""

    nominate: Annotated[
        Nominate,
        Meta(
            "Nominate",
            (
                "`contractor`: at strain 4, before the opening lead, the contractor "
                "holding jokers may name one suit (`nominate S`); every joker he holds "
                "then has that effective suit with power 99 (the highest joker) and 98 "
                "(the other), above the ace; jokers of other players stay suitless. "
                "`none`: no nomination."
            ),
        ),
    ]
    lead: Annotated[
        JokerLead,
        Meta(
            "Lead",
            (
                "Leading a suitless joker names the suit to follow (`JK:H`) and wins the "
                "trick. `name-any-suit`: any suit. `name-unled-suit`: a suit not led "
                "before in this hand; once all four suits have been led it may be led "
                "only to the last trick (naming any suit), unless its holder has no "
                "other card."
            ),
        ),
    ]
    void_must_play: Annotated[
        VoidMustPlay,
        Meta(
            "Void must play",
            (
                "Whether a player void in the led suit who holds a suitless joker must "
                "play it: `never`, `misere` (in misère contracts only), `always`. A "
                "suitless joker may be played to a lead of another suit only when void "
                "in it."
            ),
        ),
    ]
    lead_only_last_trick: Annotated[
        bool,
        Meta(
            "Lead only last trick",
            (
                "true: a joker, suitless or nominated, may not be led before the last "
                "trick while its holder has any other card; playing it to another "
                "player's lead is not restricted."
            ),
        ),
    ]
    low_in_misere: Annotated[
        bool,
        Meta(
            "Low in misère",
            (
                "true: in a misère contract every joker has power 0 (`derived.misere_power`,"
                " `derived.misere_nominated_power`), below every card: suitless, it still "
                "follows no suit; led as `JK:X` it counts as the lowest card of X and takes "
                "the trick only when nobody plays an X; played to another lead it takes "
                "nothing; nominated, it is the lowest card of its suit."
            ),
        ),
    ]
    first_or_last: Annotated[
        bool,
        Meta(
            "First or last",
            (
                "true: a joker played as a card of suit X (a suitless joker led as `JK:X`, "
                "or a joker nominated to X, however played) is its holder's first card of X "
                "in the hand or his last: it may be played only when he has played no card "
                "of X yet in the hand (a joker led naming X counts as one; a card played "
                "counts as its effective suit) or holds no card of X but jokers. A suitless "
                "joker played to another player's lead is not restricted (its holder is void"
                " in the led suit)."
            ),
        ),
    ]
    lead_not_void: Annotated[
        bool,
        Meta(
            "Not a void suit",
            (
                "true: a suitless joker may not be led naming a suit its holder has shown "
                "void in (played a card of another effective suit to a lead of it earlier "
                "in the hand), unless every suit the other rules leave him is one and he "
                "holds no other card."
            ),
        ),
    ]


class Play(TypedDict):
    """Options of the play."""

    # The tables' value space is a bid's (`ladder[].partner` takes `plays`), so an engine's
    # schema check accepts every value the tables use; a rule file's play.misere_partner is
    # one of MiserePartner (the rule-file schema).
    misere_partner: Annotated[
        BidPartner,
        Meta(
            "Misère partner",
            (
                "`sits-out`: the misère contractor's allies do not play (tricks have "
                "fewer cards and the turn skips them). `both-hands`: the contractor also "
                "plays his partner's hand, face up, in the partner's turn; a trick won "
                "by either hand defeats the misère. `plays`: the partners play and their "
                "side must take no trick."
            ),
        ),
    ]
    misere_ends_when_lost: Annotated[
        bool,
        Meta(
            "Stop a lost misère", "The hand stops as soon as the misère contractor takes a trick."
        ),
    ]
    joker_no_trumps: Annotated[
        JokerNoTrumps,
        Meta(
            "Joker at no trumps",
            (
                "The joker in strain 4 (no trumps and misères), where it has `suit_of` 4 "
                "(no suit) unless nominated."
            ),
        ),
    ]


class Strain(TypedDict):
    """The card order under one strain."""

    code: Annotated[StrainCode, Meta("Code", "The strain: `S C D H NT`.")]
    trump: Annotated[
        int | None,
        Meta(
            "Trump suit", "The trump suit's index 0..3, or null at no trumps.", minimum=0, maximum=3
        ),
    ]
    suit_of: Annotated[
        list[int],
        Meta(
            "Effective suit",
            (
                "`suit_of[c]`: the suit card c belongs to for following and winning: its "
                "printed suit, except that the left bower (the jack of the trump "
                "colour's other suit) and the jokers belong to the trump suit; at no "
                "trumps a joker is 4 (no suit)."
            ),
            items=Meta("Suit", "0..3 a suit, 4 no suit.", minimum=0, maximum=4),
        ),
    ]
    power: Annotated[
        list[int],
        Meta(
            "Power",
            (
                "`power[c]`: compares cards of the same effective suit, higher wins. "
                "Plain: 1 + the rank's place in 2 3 4 5 6 7 8 9 10 11 12 13 J Q K A (so "
                "1..16). Trumps: 100 + place among the trumps from the lowest (joker "
                "above right bower above left bower above A). Suitless joker: 200 + its "
                "place among the jokers (1 red, 2 black). Trumps > 100 beat every plain "
                "card, suitless jokers > 200 beat everything."
            ),
            items=Meta("Power", "A power.", minimum=1),
        ),
    ]
    order: Annotated[
        list[list[Card]],
        Meta(
            "Order",
            (
                "`order[s]`: the cards of effective suit s (0..3, 4 = suitless jokers), "
                "highest first; for display."
            ),
            items=Meta(
                "Suit order", "Card codes, highest first.", items=Meta("Card", "A card code.")
            ),
            min_items=5,
            max_items=5,
        ),
    ]


class Slam(TypedDict):
    """The slam rule."""

    value: Annotated[int, Meta("Value", "What a slam scores.", minimum=0)]
    below: Annotated[int, Meta("Below", "Bids worth less than this qualify.")]


class Scoring(TypedDict):
    """Scoring of a hand."""

    slam: Annotated[
        Slam,
        Meta(
            "Slam",
            (
                "Taking all `hand_size` tricks on a contract whose value (with the "
                "sans-kitty bonus when played sans kitty) is less than `below` scores "
                "`value` instead of the contract's value; value 0: no slam rule."
            ),
        ),
    ]
    failed: Annotated[
        Failed,
        Meta(
            "Failed",
            (
                "`minus-value`: the contractor's side loses the bid's value (scores may "
                "go negative)."
            ),
        ),
    ]
    opponents_per_trick: Annotated[
        int,
        Meta(
            "Opponents per trick",
            (
                "Points each side with no ally of the contractor scores per trick (by "
                "`opponent_tricks`) in a suit contract, made or not. Every side with an "
                "ally of the contractor (chosen or called partners included) scores what "
                "the contractor scores."
            ),
        ),
    ]
    opponents_against_misere: Annotated[
        int, Meta("Opponents against misère", "Points per trick for the opponents of a misère.")
    ]
    opponents_freeze_at: Annotated[
        int | None,
        Meta(
            "Opponents' cap",
            (
                "null, or a total F: trick points scored as opponents never take a side "
                "above F (a side at or above F before the hand gains none); with `freeze` "
                "`threshold`, a side above F before the hand gains none and any other side "
                "gains them all."
            ),
        ),
    ]
    freeze: Annotated[
        OpponentsLimit,
        Meta(
            "Freeze",
            (
                "How `opponents_freeze_at` limits trick points scored as opponents: `cap`: "
                "they stop at it; `threshold`: a side over it before the hand scores none, "
                "a side at or below it scores them all."
            ),
        ),
    ]
    opponent_tricks: Annotated[
        OpponentTricks,
        Meta(
            "Opponent tricks",
            (
                "With sides of one player: `pooled`: each opponent scores all the tricks "
                "taken against the contractor; `own`: his own tricks only."
            ),
        ),
    ]
    overtricks: Annotated[
        int, Meta("Overtricks", "Points per trick above the contract (0: none).", minimum=0)
    ]


class End(TypedDict):
    """When the game ends."""

    target: Annotated[
        int, Meta("Target", "A side reaching this total wins (subject to `must_bid_to_win`).")
    ]
    lose_at: Annotated[
        int | None,
        Meta(
            "Lose at",
            (
                "null, or: a side at or below this total has gone out backwards (see "
                "`out_backwards`)."
            ),
        ),
    ]
    must_bid_to_win: Annotated[
        bool,
        Meta(
            "Must bid to win",
            (
                "true: a side wins only when its own made contract takes it to the "
                "target; false: reaching the target by any points wins."
            ),
        ),
    ]
    both_out: Annotated[
        BothOut,
        Meta(
            "Both out",
            (
                "When several sides can win on one hand: `highest`: the highest total (a "
                "tie: the contractor's side if among them, else the lowest side index); "
                "`contractor`: the contractor's side if among them, else as "
                "`first-by-trick`; `first-by-trick`: the contractor's side if among "
                "them, else the first to reach the target trick by trick (trick points "
                "earned as each trick is won), else the highest total."
            ),
        ),
    ]
    out_backwards: Annotated[
        OutBackwards,
        Meta(
            "Out backwards",
            (
                "`game-over`: a side at `lose_at` or below has lost and the game ends, "
                "won by the highest other total (a tie: the contractor's side). "
                "`cannot-win`: it plays on but cannot win; if it later reaches the "
                "target, or every side is out, the game ends with no winner."
            ),
        ),
    ]

    line: Annotated[
        EndLine,
        Meta(
            "Line",
            (
                "`reach`: a side at `target` or more has reached the target, a side at "
                "`lose_at` or less has gone out backwards. `exceed`: only more than `target`, "
                "only less than `lose_at`."
            ),
        ),
    ]
    backwards_winner: Annotated[
        BackwardsWinner,
        Meta(
            "Backwards winner",
            (
                "With `out_backwards: game-over`, when a side is out and no side has won by "
                "the target. `any`: the game ends, won as `out_backwards` says. `not-negative`: "
                "it ends so only if the side that would win has 0 or more; while that side is "
                "below 0 nobody has won and the game is not over (a one-hand record's `winner` "
                "null, `game_over` false): play goes on."
            ),
        ),
    ]


class ClauseParams(TypedDict, total=False):
    """The parameters of a clause's sentence (which ones appear depends on the clause)."""

    above: Annotated[
        str | None,
        Meta(
            "above",
            ("Misère clauses: the bid directly below it on the ladder (null at the bottom)."),
        ),
    ]
    after_bid_of: Annotated[
        int,
        Meta(
            "after_bid_of",
            "Misère clauses: level some earlier bid must have reached, 0 = any time.",
        ),
    ]
    allowed: Annotated[
        bool,
        Meta("allowed", "auction.raise-own-bid: whether the highest bidder may raise his own bid."),
    ]
    at: Annotated[int, Meta("at", "score.freeze: the opponents' cap; end.lose: the losing score.")]
    below: Annotated[
        str | None,
        Meta(
            "below",
            ("Misère clauses: the bid directly above it on the ladder, or null at the top."),
        ),
    ]
    bid: Annotated[str, Meta("bid", "Misère clauses, play.open-misere: the bid's code.")]
    bidders: Annotated[int, Meta("bidders", "auction.inkles: how many bidders bid inkles.")]
    bids: Annotated[
        list[BidCode], Meta("Bids", "auction.ladder: the bid codes from lowest to highest.")
    ]
    blind: Annotated[bool, Meta("blind", "Misère clauses: a blind misère.")]
    bonus: Annotated[
        int,
        Meta(
            "Bonus",
            ("kitty.sans: points added to the contract's value when it is played sans kitty."),
        ),
    ]
    cards: Annotated[int, Meta("cards", "kitty.take: cards taken and discarded.")]
    count: Annotated[
        int,
        Meta(
            "count",
            (
                "deck.cards: the number of cards in the deck; joker.no-trumps.wins: the "
                "number of jokers."
            ),
        ),
    ]
    dead_hand: Annotated[int, Meta("dead_hand", "deal.packets: cards in the dead hand.")]
    hand_size: Annotated[int, Meta("hand_size", "deal.packets: cards per player.")]
    how: Annotated[
        str,
        Meta(
            "how",
            (
                "The option chosen, as in the tables: deal.first-dealer `first_dealer`, "
                "auction.all-pass `all_pass`, play.misere-partner `misere_partner`, "
                "joker.no-trumps.lead `lead`, score.failed `failed`."
            ),
        ),
    ]
    jokers: Annotated[
        list[Card],
        Meta(
            "jokers",
            "deck.joker: the joker codes, lowest first.",
            items=Meta("Joker", "A joker code."),
        ),
    ]
    kitty: Annotated[int, Meta("kitty", "deal.packets: cards in the kitty.")]
    level: Annotated[int, Meta("level", "auction.inkles: the inkle level.")]
    must_bid_to_win: Annotated[
        bool,
        Meta(
            "Must bid to win",
            "end.both-out: whether only a successful contract can take a side out.",
        ),
    ]
    nominated: Annotated[
        bool,
        Meta(
            "nominated",
            (
                "joker.no-trumps.lead-last-only: whether the contractor may nominate the "
                "joker's suit (a nominated joker too may be led only to the last trick); "
                "joker.no-trumps.misere-low, joker.no-trumps.first-or-last: whether the "
                "contractor may nominate it (the sentence then says what a nominated joker "
                "does)."
            ),
        ),
    ]
    open: Annotated[str, Meta("open", "Misère clauses: `no`, `from-start` or `after-first-trick`.")]
    opponents: Annotated[
        int, Meta("opponents", "score.misere: opponents' points per trick against a misère.")
    ]
    packets: Annotated[
        list[
            tuple[
                Annotated[str, Meta("Receiver", "players, kitty or dead.")],
                Annotated[int, Meta("Cards", "Cards in the packet.")],
            ]
        ],
        Meta(
            "packets",
            "deal.packets: the packets, as `deal.packets`.",
            items=Meta("Packet", "[receiver, cards].", min_items=2),
        ),
    ]
    partner_by_bid: Annotated[
        list[
            tuple[
                BidCode, Annotated[BidPartner, Meta("How", "`sits-out`, `both-hands` or `plays`.")]
            ]
        ],
        Meta(
            "Partner by bid",
            (
                "play.misere-partner: for each misère bid, lowest first, `[code, how]`: "
                "how the contractor's partners take part in it (`sits-out`, `both-hands` "
                "or `plays`)."
            ),
            items=Meta("Bid and partner", "`[code, how]`.", min_items=2),
        ),
    ]
    per_trick: Annotated[int, Meta("per_trick", "score.opponents: points per trick.")]
    players: Annotated[int, Meta("players", "seats.teams: number of players.")]
    procedure: Annotated[str, Meta("procedure", "auction.end: `rounds` or `single-round`.")]
    raise_own_bid: Annotated[
        bool,
        Meta(
            "raise_own_bid",
            (
                "auction.end: whether the last bidder has one more call once the others "
                "have passed after his bid (as `auction.raise_own_bid`)."
            ),
        ),
    ]
    redeal: Annotated[
        bool,
        Meta(
            "redeal",
            "deal.rotation: the same dealer deals again after a hand everybody passed.",
        ),
    ]
    required: Annotated[
        bool, Meta("required", "end.must-bid-to-win: whether only a contract can win.")
    ]
    second_at: Annotated[
        int | None,
        Meta(
            "Second partner at",
            ("seats.partner: contracts of this level or more take two partners; null: always one."),
        ),
    ]
    target: Annotated[int, Meta("target", "end.target: the target score.")]
    teams: Annotated[
        list[SeatList],
        Meta(
            "teams",
            "seats.teams: the seats of each side.",
            items=Meta("Side", "Seats of one side."),
        ),
    ]
    tricks: Annotated[str, Meta("tricks", "score.opponents: `pooled` or `own`.")]
    value: Annotated[
        int, Meta("value", "Misère clauses: the bid's value; score.slam: what a slam scores.")
    ]
    value_below: Annotated[
        int,
        Meta(
            "value_below",
            (
                "score.slam: contracts worth less than this (with the sans-kitty bonus "
                "when played sans kitty) score the slam value when they take every trick."
            ),
        ),
    ]
    when: Annotated[
        str,
        Meta(
            "when",
            (
                "play.open-misere: when the hand goes face up; "
                "joker.no-trumps.misere-void: `misere` or `always`."
            ),
        ),
    ]


class Clause(TypedDict):
    """One rule clause of the variant."""

    id: Annotated[ClauseId, Meta("Id", "A stable clause id.")]
    params: Annotated[
        ClauseParams,
        Meta(
            "Parameters",
            ("The parameters of the clause's sentence; which ones appear depends on the clause."),
        ),
    ]


class Choice(TypedDict):
    """A documented choice where the sources differ or are silent."""

    clause: Annotated[str, Meta("Clause", "The clause it concerns.")]
    source: Annotated[str, Meta("Source", "G, T, P or project.")]
    text: Annotated[str, Meta("Text", "The choice and its reason.")]


class Derived(TypedDict):
    """What follows from the other fields, computed once by the generator for every engine."""

    deal_order: Annotated[
        list[list[int]],
        Meta(
            "Deal order",
            (
                "`deal_order[dealer][k]`: who receives the k-th card of the shuffled "
                "deck when seat `dealer` deals: a seat 0..players-1, `players` for the "
                "kitty, `players + 1` for the dead hand. It spells out `deal.packets`: a "
                "`players` packet of n gives n cards to each seat in turn from (dealer + "
                "1) % players."
            ),
            items=Meta(
                "Dealer's order",
                "One receiver per card of the deck, in dealing order.",
                items=Meta(
                    "Receiver", "A seat, `players` (kitty) or `players + 1` (dead hand).", minimum=0
                ),
            ),
            min_items=2,
            max_items=6,
        ),
    ]
    suit_masks: Annotated[
        list[list[int]],
        Meta(
            "Suit masks",
            (
                "`suit_masks[i][s]`: the bitmask (bit c for card index c) of the cards "
                "whose `strains[i].suit_of` is s (0..3, 4 = suitless jokers). A mask can "
                "exceed 2**53 (decks of 54 cards and more; every mask is below 2**64): read "
                "it as a 64-bit or arbitrary-precision integer. Plain JSON.parse rounds it "
                "silently (Node 20 has no reviver with source text): in JavaScript use a "
                "big-number JSON parser, or rebuild the mask, which is derived: the card "
                "indices c with `strains[i].suit_of[c] == s`."
            ),
            items=Meta(
                "Masks of a strain",
                "One mask per effective suit 0..4.",
                items=Meta("Mask", "A set of card indices as a bitmask.", minimum=0),
                min_items=5,
                max_items=5,
            ),
            min_items=5,
            max_items=5,
        ),
    ]
    joker_cards: Annotated[
        list[int],
        Meta(
            "Joker cards",
            "The card indices of `jokers`, in the same order (lowest first).",
            items=Meta("Card index", "An index into `deck`.", minimum=0),
            unique_items=True,
        ),
    ]
    joker_mask: Annotated[
        int,
        Meta(
            "Joker mask",
            (
                "The bitmask of `joker_cards` (0 without jokers); may exceed 2**53 (see "
                "`suit_masks`)."
            ),
            minimum=0,
        ),
    ]
    nominated_power: Annotated[
        list[int],
        Meta(
            "Nominated power",
            (
                "`nominated_power[j]`: the `power` of joker `jokers[j]` once the "
                "contractor has nominated a suit for it "
                "(`play.joker_no_trumps.nominate`): above that suit's ace (plain powers "
                "are 1..16), below every trump: 99 for the highest joker, 98 for the "
                "next."
            ),
            items=Meta("Power", "A power.", minimum=1),
        ),
    ]
    misere_power: Annotated[
        list[int],
        Meta(
            "Misère power",
            (
                "`misere_power[c]`: the `power` of card c in a misère contract: "
                "`strains[4].power`, except that with `play.joker_no_trumps.low_in_misere` "
                "every joker has 0, below every card (a joker led naming X then takes the "
                "trick only when nobody plays an X; played to another lead it never does)."
            ),
            items=Meta("Power", "A power.", minimum=0),
        ),
    ]
    misere_nominated_power: Annotated[
        list[int],
        Meta(
            "Misère nominated power",
            (
                "`misere_nominated_power[j]`: the `power` of joker `jokers[j]` nominated to "
                "a suit in a misère contract: `nominated_power[j]`, or 0 (the lowest card of "
                "that suit) with `play.joker_no_trumps.low_in_misere`."
            ),
            items=Meta("Power", "A power.", minimum=0),
        ),
    ]
    restricted_bids: Annotated[
        list[int],
        Meta(
            "Restricted bids",
            (
                "Indices into `ladder` of the bids a condition of the auction can bar "
                "although they outrank the highest bid: a bid with `after_bid_of`, a "
                "`blind` bid, a bid at the inkle level (`auction.inkles`). Every other "
                "bid may be called exactly when it outranks the highest bid."
            ),
            items=Meta("Bid index", "An index into `ladder`.", minimum=0),
            unique_items=True,
        ),
    ]
    pool_opponents: Annotated[
        bool,
        Meta(
            "Pool opponents",
            (
                "true when every side opposing the contractor scores all the tricks "
                "taken against him: `scoring.opponent_tricks` is `pooled` and every side "
                "is one seat. Otherwise each side scores its own side's tricks (a "
                "partnership always does)."
            ),
        ),
    ]


class Tables(TypedDict):
    """Every rule of one variant as data: the ``TABLES`` of a generated module, a JSON export."""

    format: Annotated[
        Literal[2],
        Meta(
            "Format",
            (
                "Version of this tables format; 2 for this schema. An engine must refuse "
                "a version it does not know."
            ),
        ),
    ]
    variant: Annotated[
        str,
        Meta(
            "Variant id", "The variant's id (the rule file's `id`).", pattern="^[a-z0-9][a-z0-9-]*$"
        ),
    ]
    extends: Annotated[
        str | None,
        Meta(
            "Extends",
            (
                "The variant this one was built from (`extends` of its file), or null. "
                "Informative only: every table below is complete."
            ),
        ),
    ]
    name: Annotated[str, Meta("Name", "The variant's display name.")]
    summary: Annotated[str, Meta("Summary", "One paragraph describing the game.")]
    sources: Annotated[
        list[str],
        Meta(
            "Sources",
            "Source letters (G, T, P) or names the rules come from.",
            items=Meta("Source", "A source."),
        ),
    ]
    terms: Annotated[
        Terms,
        Meta(
            "Terms",
            (
                "The variant's words for things with two names; use them in any text "
                "shown to players."
            ),
        ),
    ]
    players: Annotated[
        int,
        Meta(
            "Players",
            (
                "Number of seats, 2..6; seats are 0..players-1 clockwise and the first "
                "to bid (and the first packet) is (dealer + 1) % players."
            ),
            minimum=2,
            maximum=6,
        ),
    ]
    teams: Annotated[
        list[SeatList],
        Meta(
            "Teams",
            (
                "The sides: `teams[s]` lists the seats of side s. With no partnerships "
                "every seat is a side of its own (`[[0],[1],[2]]`). Scores and "
                "`tricks_by_side` are indexed by side."
            ),
            items=Meta("Side", "The seats of one side."),
            min_items=1,
        ),
    ]
    side_of_seat: Annotated[
        list[int],
        Meta(
            "Side of seat",
            "`side_of_seat[seat]` is the seat's side: the inverse of `teams`.",
            items=Meta("Side", "A side index into `teams`.", minimum=0),
        ),
    ]
    deck: Annotated[
        list[Card],
        Meta(
            "Deck",
            (
                "Every card, each once. A card's index in this list is its card index c, "
                "which every per-card table below uses (and bitmask bit c). Order: suits "
                "S, C, D, H, each from its lowest rank up, then the jokers lowest first."
            ),
            items=Meta("Card", "The card with this index."),
            min_items=1,
            unique_items=True,
        ),
    ]
    card_suit: Annotated[
        list[int],
        Meta(
            "Printed suit",
            (
                "`card_suit[c]`: the suit printed on card c, 0 S, 1 C, 2 D, 3 H, -1 for "
                "a joker. This is not the suit a card follows as: use "
                "`strains[i].suit_of` for that (the left bower and jokers differ)."
            ),
            items=Meta("Suit", "-1..3.", minimum=-1, maximum=3),
        ),
    ]
    card_rank: Annotated[
        list[RankCode | JokerCode],
        Meta(
            "Printed rank",
            (
                "`card_rank[c]`: the rank of card c (`2`..`13`, `J`, `Q`, `K`, `A`), or "
                "the joker's code for a joker."
            ),
            items=Meta("Rank", "A rank code or joker code."),
        ),
    ]
    jokers: Annotated[
        list[JokerCode],
        Meta(
            "Jokers",
            (
                "The jokers in the deck, lowest first (`BJ` beats `JK` when both are "
                "in). Empty when there is none."
            ),
            items=Meta("Joker", "A joker code."),
            unique_items=True,
        ),
    ]
    deal: Annotated[
        Deal, Meta("Deal", "How to deal. The deck is shuffled and given out packet by packet.")
    ]
    auction: Annotated[
        Auction, Meta("Auction", "How the bidding runs; the ladder is separate (`ladder`).")
    ]
    partner: Annotated[Partner, Meta("Partner (five-handed)", "A partner for one hand.")]
    ladder: Annotated[
        list[Bid],
        Meta(
            "Ladder",
            (
                "Every bid, lowest first: bid i outranks bid j exactly when i > j, and a "
                "call must outrank the current highest bid (`auction.higher`). A record "
                "writes a bid by its `code`."
            ),
            items=Meta("Bid", "One bid."),
            min_items=1,
        ),
    ]
    kitty: Annotated[Kitty, Meta("Kitty", "The kitty exchange.")]
    play: Annotated[
        Play,
        Meta(
            "Play",
            (
                "Options of the play. Fixed for every variant: the contractor leads "
                "first, the trick winner leads next; follow the led suit (by `suit_of`) "
                "if able; the winner is given under `strains`."
            ),
        ),
    ]
    strains: Annotated[
        list[Strain],
        Meta(
            "Strain tables",
            (
                "Card order per strain, indexed by strain (0 S, 1 C, 2 D, 3 H, 4 NT; "
                "misères use 4). Effective suit s of card c under strain i: `suit_of[c]` "
                "(0..3, or 4 = a suitless joker). Following: a player must play a card "
                "of the led effective suit if he holds one. Trick winner: let T be the "
                "strain's `trump` (null at NT) and L the led effective suit (for a "
                "suitless joker led as `JK:X`, L = X). Among the cards played whose "
                "effective suit is L, T, or 4, the one with the greatest `power` wins. "
                "Powers make this a single max: plain cards 1..16 (by rank, 2 low, A "
                "high), a nominated joker 99, trumps 101 and up, suitless jokers 201 and "
                "up (black above red). A misère contract plays by `derived.misere_power` "
                "(the same, or the jokers 0 with `play.joker_no_trumps.low_in_misere`)."
            ),
            items=Meta("Strain table", "The card order under one strain."),
            min_items=5,
            max_items=5,
        ),
    ]
    scoring: Annotated[
        Scoring,
        Meta(
            "Scoring",
            (
                "Scoring of a hand. A made contract scores its ladder `value`; the "
                "opponents score by trick as below."
            ),
        ),
    ]
    end: Annotated[End, Meta("End", "When the game ends, checked after each hand.")]
    clauses: Annotated[
        list[Clause],
        Meta(
            "Clauses",
            (
                "The rule clauses this variant has, in rule-book order, each with the "
                "parameters its sentence needs. An illegal action cites the first "
                "failing check, in this order (specs/INTERCHANGE.md, 'Which clause an "
                "illegal action cites'): hand over `end.continue`; auction: `redeal` by a "
                "seat that has called or holds an ace, king, queen, jack or joker "
                "`auction.no-ace-no-face`, not a call `auction.order`, not above the "
                "highest bid `auction.higher`, waiting for an `after_bid_of` bid the "
                "bid's `clause`, blind after a first call `auction.blind-misere`, inkle "
                "level after the inkle calls `auction.inkles`; kitty choice expected "
                "`kitty.sans`; partner/call expected `seats.partner`; discard expected "
                "(not a discard, a wrong number of cards, checked first, or a card not "
                "held) `kitty.take`; in play: a call, discard, take/sans or partner, or "
                "`nominate` without nomination, `play.opening-lead` at the opening lead, "
                "`play.next-lead` at a later lead, `play.follow-suit` when following; a "
                "misplaced `nominate` `joker.no-trumps.nominate`; a card not held "
                "`play.follow-suit`; following: a joker lead `joker.no-trumps.lead`, "
                "holding the led suit: a suitless joker `joker.no-trumps.follow`, at "
                "trumps when the card played, or every card he holds of the led suit, "
                "is the left bower or a joker `joker.trump` (a joker among them) else "
                "`trump.left-bower`, else `play.follow-suit`; void while a suitless "
                "joker must be played `joker.no-trumps.misere-void`; a nominated joker "
                "neither first nor last of its suit `joker.no-trumps.first-or-last`; "
                "leading: a suit named for a joker that has one "
                "(`joker.no-trumps.nominate` if nominated, else `joker.trump`), a "
                "nominated joker held back `joker.no-trumps.lead-last-only`, a nominated "
                "joker neither first nor last `joker.no-trumps.first-or-last`, a "
                "suitless joker led unnamed `joker.no-trumps.lead`, a joker before the "
                "last trick `joker.no-trumps.lead-last-only`, a suit already led "
                "(`joker.no-trumps.last-trick` when all four were led, before the last "
                "trick and while its holder has a card other than jokers, else "
                "`joker.no-trumps.lead`), a suit "
                "shown void `joker.no-trumps.void-suit`, a suit the joker would be "
                "neither first nor last of `joker.no-trumps.first-or-last`, else "
                "`play.follow-suit`. A malformed action (not a card, bid or action of "
                "the variant, a suit named on a plain card, a card twice in a discard, "
                "`discard` with no card, `partner N` past the seats, an action that is "
                "not a string) cites no clause (null). Every clause cited is one of "
                "this list."
            ),
            items=Meta("Clause", "One rule clause."),
        ),
    ]
    choices: Annotated[
        list[Choice],
        Meta(
            "Choices",
            "Documented choices where the sources differ or are silent.",
            items=Meta("Choice", "One choice."),
        ),
    ]
    derived: Annotated[
        Derived,
        Meta(
            "Derived tables",
            (
                "Tables computed by the generator from the fields above, so that no "
                "engine need compute them (and all engines agree). Changing the rules "
                "never needs them: they follow."
            ),
        ),
    ]


#: Title and description of the whole of :class:`Tables` (the root of the JSON schema).
TABLES_META = Meta(
    "Five Hundred ruleset tables (generated/json/<variant>.json)",
    "Every rule of one variant, expanded into tables, for engines in other languages. Cards are "
    "referred to by index c into `deck`; strains by index 0 S, 1 C, 2 D, 3 H, 4 NT; suits 0 S, "
    "1 C, 2 D, 3 H; seats 0..players-1 clockwise. Every key below is always present, with one "
    "JSON type; integers are exact (bitmasks under `derived` can exceed 2**53). The procedure "
    "of a hand (phases, the order of the actions, records, replay output, error precedence and "
    "the conformance protocol) is specified in the repository's specs/INTERCHANGE.md; the "
    "rules that vary between variants are the fields below. The Python definition of this "
    "format, from which this schema is derived, is fivehundred.runtime.engine.tableformat.",
)


# -- the rule options -------------------------------------------------------------------------

#: An option with no default: the rule file must give it whenever it gives its parent.
NO_DEFAULT = "<no default>"


@dataclass(frozen=True)
class Option:
    """One option of the rule language, declared once: everything else is derived from it.

    ``path`` is its place in a rule file (dotted); ``type`` a :data:`~typing.Literal` alias,
    ``bool``, ``int`` or ``int | None`` (``None`` when ``schema`` gives the whole JSON type);
    ``default`` what a file that leaves it out gets (:data:`NO_DEFAULT`: none); ``clause`` the
    rule clause it governs; ``title`` and ``description`` the rule-file schema's text (with the
    sources); ``diff`` the label of its row in ``fivehundred diff`` (None: diff words it
    itself); ``note`` its one-line note in the starter file of ``fivehundred new`` (None: not
    listed); ``tables`` its place in :class:`Tables` (``""``: the same as ``path``; None: none,
    it is compiled into other tables); ``attr`` the flat :class:`~.rules.Rules` attribute that
    holds it (None: none); ``minimum``/``maximum`` the bounds of an integer; ``schema`` further
    JSON Schema keywords (``examples``, a ``oneOf``); ``show``: ``fivehundred show`` lists it
    with its diff label when it is not at its default (False: show words it itself); ``late``:
    added after the stored balance summaries were computed, so the rules fingerprint leaves it
    out while it has its default (:func:`~.fingerprint.rules_fingerprint`); ``requires``: the
    option at a path and its values without which this option may only keep its default, with
    the reason (``fivehundred validate`` reports any other value as a semantic error).

    ``fivehundred build`` derives from :data:`OPTIONS` the rule-file schema
    (``specs/schema/variant.schema.json``), the defaults every resolved rule file is completed
    with, the rows of ``diff`` and ``show`` and the starter file of ``new``
    (:mod:`fivehundred.generator.options`).
    """

    path: str
    type: object
    default: object
    clause: ClauseId | None
    title: str
    description: str
    minimum: int | None = None
    maximum: int | None = None
    diff: str | None = None
    note: str | None = None
    tables: str | None = ""
    attr: str | None = None
    schema: dict[str, object] | None = None
    show: bool = False
    late: bool = False
    requires: tuple[str, tuple[object, ...], str] | None = None

    @property
    def keys(self) -> tuple[str, ...]:
        """The path in a rule file as keys."""
        return tuple(self.path.split("."))

    @property
    def table_keys(self) -> tuple[str, ...] | None:
        """The path in :class:`Tables` as keys, or None when it has no field of its own."""
        if self.tables is None:
            return None
        return tuple((self.tables or self.path).split("."))


#: Every option of the rule language, in rule-file order (a parent before its children).
OPTIONS: tuple[Option, ...] = (
    Option(
        "terms.kitty",
        KittyWord,
        "kitty",
        None,
        "Kitty or widow",
        "`kitty` (Australian, G) or `widow` (American, T). Default `kitty`.",
        note="kitty, or widow (the American word)",
    ),
    Option(
        "terms.misere",
        MisereWord,
        "misere",
        None,
        "Misère or nullo",
        "`misere` (Australian, G) or `nullo` (American, T). Default `misere`.",
        note="misere, or nullo (the American word)",
    ),
    Option(
        "terms.joker",
        JokerWord,
        "joker",
        None,
        "Joker or bird",
        "`joker`, or `bird` as it is called in Australia (G). Default `joker`.",
        note="joker, or bird",
    ),
    Option(
        "players",
        int,
        4,
        "seats.teams",
        "Players",
        "Number of players, 2 to 6 (G, P). Seats are numbered 0..players-1 clockwise. Default 4.",
        minimum=2,
        maximum=6,
        diff="players",
        note="number of players, 2 to 6",
        attr="players",
    ),
    Option(
        "teams",
        None,
        "none",
        "seats.teams",
        "Teams",
        (
            "Who plays together for the whole game. `none`: each player is a side of his own "
            "(three-handed P; the two non-contractors unite against the contractor for one hand "
            "only). A number N: N partnerships, side = seat mod N (4 players, 2: {0,2} {1,3}; 6 "
            "players, 3: 2v2v2 {0,3} {1,4} {2,5}; 6 players, 2: 3v3 {0,2,4} {1,3,5}). A list of "
            "lists: the seats of each side, side 0 first, every seat exactly once. Default "
            "`none`."
        ),
        note="N teams (side = seat mod N), none, or seat lists",
        tables=None,
        schema={
            "oneOf": [
                {
                    "title": "No teams",
                    "description": "Every player is a side of his own.",
                    "const": "none",
                },
                {
                    "title": "Number of teams",
                    "description": (
                        "Partnerships by seat: side = seat mod this number; the players must "
                        "divide evenly."
                    ),
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 3,
                },
                {
                    "title": "Explicit teams",
                    "description": "The seats of each side, side 0 first.",
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 6,
                    "items": {
                        "title": "Team",
                        "description": "The seats of one side.",
                        "type": "array",
                        "minItems": 1,
                        "uniqueItems": True,
                        "items": {
                            "title": "Seat",
                            "description": "A seat number 0..players-1.",
                            "type": "integer",
                            "minimum": 0,
                            "maximum": 5,
                        },
                    },
                },
            ],
            "examples": [2, "none", [[0, 2], [1, 3]]],
        },
    ),
    Option(
        "partner.call",
        PartnerCall,
        "none",
        "seats.partner",
        "How the partner is found",
        (
            "`none`: no partner for the hand. `choose`: after the auction the contractor names "
            "the player who partners him. `card`: the contractor calls a card and its holder "
            "becomes his partner (as in call-ace euchre). Default `none`."
        ),
        diff="partner for the hand",
        attr="partner_call",
        note="a partner per hand: none, choose, card",
    ),
    Option(
        "partner.second_partner_at",
        int | None,
        None,
        "seats.partner",
        "Second partner from level",
        (
            "A contract at this level or higher takes two partners (§13: 8). `null`: always one. "
            "Default null."
        ),
        minimum=1,
        maximum=13,
        diff="second partner from level",
        attr="second_partner_at",
        schema={"examples": [8]},
        note="two partners from this level, or null",
    ),
    Option(
        "deck.jokers",
        None,
        [],
        "deck.joker",
        "Jokers",
        (
            "The jokers in the deck, lowest first: `JK` (also written `RJ`) the red joker, `BJ` "
            "the black joker; when both are in, the black beats the red (T). The joker is the "
            "highest trump and, at no trumps, wins any trick (G, T, P). Default none."
        ),
        note="JK the red joker, BJ the black (beats the red)",
        tables=None,
        schema={
            "type": "array",
            "items": {
                "title": "Joker",
                "description": "`JK` or `RJ`: the red joker; `BJ`: the black joker.",
                "enum": ["JK", "BJ", "RJ"],
            },
            "uniqueItems": True,
            "maxItems": 2,
            "examples": [["JK"], ["JK", "BJ"]],
        },
    ),
    Option(
        "deal.first_dealer",
        FirstDealer,
        "random",
        "deal.first-dealer",
        "First dealer",
        (
            "`random`: a random player deals first (G). `draw`: each player draws a card and the "
            "lowest deals, ace low and joker lowest, redrawing on ties (P). Default `random`."
        ),
        diff="first dealer",
        attr="first_dealer",
        note="random, or draw (lowest card deals)",
    ),
    Option(
        "deal.hand_size",
        int,
        10,
        "deal.packets",
        "Hand size",
        "Cards dealt to each player (G, T, P: 10). Default 10.",
        minimum=1,
        diff="cards per hand",
        note="cards to each player (= tricks in a hand)",
        attr="hand_size",
    ),
    Option(
        "deal.kitty",
        int,
        3,
        "deal.packets",
        "Kitty size",
        "Cards in the kitty / widow (3; T also 5 or 6). Default 3.",
        minimum=0,
        diff="kitty size",
        note="deck size = players x hand_size + kitty",
        attr="kitty",
        schema={"examples": [3, 5, 6]},
    ),
    Option(
        "deal.dead_hand",
        int,
        0,
        "deal.packets",
        "Dead hand",
        "Cards of a hand that is dealt but nobody plays (the two-handed game). Default 0.",
        minimum=0,
        diff="dead hand",
        attr="dead_hand",
        note="cards of a hand nobody plays",
    ),
    Option(
        "auction.procedure",
        Procedure,
        "rounds",
        "auction.end",
        "Procedure",
        (
            "`rounds` (Australian, G, T): bidding goes round until all but one have passed after "
            "a bid; a player who passed may not bid again. `single-round` (American, T; three-"
            "handed, P): each player bids or passes once. Default `rounds`."
        ),
        diff="bidding procedure",
        note="rounds, or single-round (one call each)",
        attr="procedure",
    ),
    Option(
        "auction.raise_own_bid",
        bool,
        False,
        "auction.raise-own-bid",
        "Raise own bid",
        (
            "With `rounds`: the highest bidder may raise his own bid after all the others have "
            'passed (T option; G lists "no raising" as a variation). Default false.'
        ),
        diff="last bidder may raise his own bid",
        note="raise one's own bid after the others pass",
        attr="raise_own_bid",
    ),
    Option(
        "auction.bid_after_pass",
        BidAfterPass,
        "never",
        "auction.pass-final",
        "Bid after pass",
        (
            "With `rounds` (refused with `single-round`, where each player calls once): whether "
            "a player who passed may bid again. `never`: he is out of the auction (G, T). "
            "`always`: every bid cancels the passes made before it, so he is asked again at his "
            "turn; the auction ends when every other player has passed in succession after the "
            "last bid. `if-changed`: he is asked again only if someone made a higher bid after "
            "his pass, and his pass stands until he bids again: the auction ends as soon as "
            "every player but the highest bidder has passed, however long ago (a house rule; T's "
            "app offers bidding after a pass). Default `never`."
        ),
        diff="bidding after a pass",
        note="never, always, or if-changed (bid raised since)",
        show=True,
        late=True,
        requires=(  # the reason is shown to a rule file's author, translated
            "auction.procedure",
            ("rounds",),
            N_(
                "with procedure: single-round each player calls once, so nobody speaks after a pass"
            ),
        ),
    ),
    Option(
        "auction.no_ace_no_face",
        bool,
        False,
        "auction.no-ace-no-face",
        "No ace, no face",
        (
            'A player holding no ace and no face card may ask for a redeal ("no ace, no face": '
            "a published house rule, as in the Five Hundred rules of Iowa State University's "
            "intramural sports). The face cards are the kings, queens and jacks, the "
            "bowers among them; the joker counts as one too (the published rule names it: no "
            '"aces, jacks, queens, kings or joker"); 11, 12 and 13 of the six-handed pack are '
            "numbered cards. The claim is optional and is made at the player's turn to bid, "
            "in place of his first call, whatever was called before him. The hand is thrown "
            "in, scores nothing, and the same dealer deals again. (The published rule lets "
            "the partner refuse the proposal; here the claim alone decides.) Default false."
        ),
        diff="no ace, no face: redeal",
        note="no ace and no face card: may ask a redeal",
        attr="no_ace_no_face",
        show=True,
        late=True,
    ),
    Option(
        "auction.all_pass",
        AllPass,
        "throw-in",
        "auction.all-pass",
        "When all pass",
        (
            "`throw-in`: the hand is thrown in and the next dealer deals (G, T, P). `redeal`: the "
            "hand is thrown in and the same dealer deals again (a house rule). `no-trumps`: the "
            "hand is played at no trumps without the kitty and each player scores "
            "`all_pass_per_trick` a trick (a house rule). Default `throw-in`."
        ),
        diff="when all pass",
        note="throw-in, redeal (same dealer), or no-trumps",
        attr="all_pass",
    ),
    Option(
        "auction.all_pass_per_trick",
        int,
        10,
        "auction.all-pass",
        "All-pass points per trick",
        (
            "With `all_pass: no-trumps`: the points each player scores for each trick he takes "
            "(§13: 10). Default 10."
        ),
        minimum=0,
        diff="points per trick when all pass",
        attr="all_pass_per_trick",
        note="with no-trumps: points a trick",
    ),
    Option(
        "auction.inkles",
        None,
        None,
        "auction.inkles",
        "Inkles",
        (
            "American inkles (T): bids at `level` by the first `bidders` players to speak only "
            "show a suit to the partner and cannot win the auction; the later bidders must start "
            "above that level. `null`: no inkles. Default null."
        ),
        tables=None,
        schema={
            "type": ["object", "null"],
            "additionalProperties": False,
            "examples": [None, {"bidders": 2, "level": 6}],
        },
        note="American inkles {bidders, level}, or null",
    ),
    Option(
        "auction.inkles.bidders",
        int,
        2,
        "auction.inkles",
        "Inkle bidders",
        "How many players, from the dealer's left, bid inkles (T: 2). Default 2.",
        minimum=1,
        maximum=5,
        tables=None,
        note="how many first callers bid inkles",
    ),
    Option(
        "auction.inkles.level",
        int,
        6,
        "auction.inkles",
        "Inkle level",
        "The level of the inkle bids (T: 6). Default 6.",
        minimum=1,
        maximum=13,
        tables=None,
        note="the level of the inkle bids",
    ),
    Option(
        "auction.sans_kitty",
        None,
        None,
        "kitty.take",
        "Sans kitty",
        (
            'A contract may be declared "sans kitty": played without taking the kitty (G). The '
            "sources give no value for it; the variant sets `bonus` and explains it under "
            "`choices`. `null`: no sans-kitty bids. Default null."
        ),
        tables=None,
        schema={"type": ["object", "null"], "additionalProperties": False, "required": ["bonus"]},
        note="play without the kitty: {bonus: N}, or null",
    ),
    Option(
        "auction.sans_kitty.bonus",
        int,
        NO_DEFAULT,
        "kitty.take",
        "Bonus",
        (
            "Points added to the contract's value when it is played sans kitty (scored if made, "
            "lost if failed)."
        ),
        minimum=0,
        tables=None,
        schema={"examples": [0, 50]},
        note="points added to a sans-kitty contract",
    ),
    Option(
        "auction.ladder.levels.from",
        int,
        6,
        "auction.ladder",
        "Lowest level",
        "The lowest bid level. Default 6.",
        minimum=1,
        maximum=13,
        tables=None,
        note="the lowest bid level",
    ),
    Option(
        "auction.ladder.levels.to",
        int,
        10,
        "auction.ladder",
        "Highest level",
        "The highest bid level. Default 10.",
        minimum=1,
        maximum=13,
        tables=None,
        note="the highest bid level",
    ),
    Option(
        "auction.ladder.strains",
        None,
        ["S", "C", "D", "H", "NT"],
        "auction.ladder",
        "Strains",
        (
            "The strains one may bid, always ranked spades < clubs < diamonds < hearts < no "
            "trumps (G, P) whatever order they are listed in. Default all five."
        ),
        tables=None,
        schema={
            "type": "array",
            "items": {
                "title": "Strain",
                "description": "`S` spades, `C` clubs, `D` diamonds, `H` hearts, `NT` no trumps.",
                "enum": ["S", "C", "D", "H", "NT"],
            },
            "uniqueItems": True,
            "minItems": 1,
        },
        note="the strains one may bid",
    ),
    Option(
        "auction.ladder.order",
        LadderOrder,
        "level",
        "auction.higher",
        "Ladder order",
        (
            "How the suit bids rank. `level`: more tricks rank higher, and of as many tricks "
            "the higher strain (G, P: the ladder of the Avondale schedule). `value`: the bid "
            "worth more ranks higher, as in the original schedule of the United States Playing "
            "Card Company (before 1906, spades 40 to hearts 100 and no trumps 120 for six "
            "tricks), where six hearts (100) overcalls seven spades (80). Two bids worth as "
            "much (six diamonds and seven spades, 80 each) are ranked by tricks: the bid of "
            "more tricks ranks higher, then the higher strain. So the ladder stays one order, "
            "each bid in one place (an "
            "overcall is a higher place; action numbers are places), and of two contracts "
            "worth the same the one that undertakes more tricks is the bigger undertaking. "
            "Special bids keep the place `above` gives them. Default `level`."
        ),
        tables="auction.ranking",
        diff="bids rank by",
        note="level (tricks, then strain), or value",
        show=True,
        late=True,
    ),
    Option(
        "kitty.take",
        bool,
        True,
        "kitty.take",
        "Take the kitty",
        (
            "The contractor takes the kitty without showing it and discards as many cards, kitty "
            "cards allowed (G, T, P). false: the kitty stays out of play. Default true."
        ),
        diff="contractor takes the kitty",
        note="the contractor takes it and discards",
        attr="kitty_take",
    ),
    Option(
        "play.misere_partner",
        MiserePartner,
        "sits-out",
        "play.misere-partner",
        "Misère partner",
        (
            "In the misères: `sits-out`: the contractor's partner lays his cards face down and "
            "does not play (G, T). `both-hands`: the contractor plays his own hand and his "
            "partner's, the partner's face up (T option). Default `sits-out`."
        ),
        diff="misère partner",
        note="sits-out, or both-hands (played face up)",
        attr="misere_partner",
    ),
    Option(
        "play.misere_ends_when_lost",
        bool,
        True,
        "play.misere-ends",
        "Stop a lost misère",
        (
            "Play stops as soon as the misère contractor takes a trick (the sources are silent; "
            "nothing later changes the score). false: the hand is played out. Default true."
        ),
        diff="a lost misère stops at once",
        note="stop a misère at its first trick taken",
        attr="misere_ends_when_lost",
    ),
    Option(
        "play.joker.no_trumps.nominate",
        Nominate,
        "none",
        "joker.no-trumps.nominate",
        "Nominate its suit",
        (
            "`contractor`: the contractor holding the joker may name its suit after the discard "
            "and before the opening lead; it is then the highest card of that suit (G). `none`: "
            "no nomination (T, P). Default `none`."
        ),
        diff="joker's suit nominated by",
        note="contractor may name its suit, or none",
        tables="play.joker_no_trumps.nominate",
        attr="joker_nominate",
    ),
    Option(
        "play.joker.no_trumps.lead",
        JokerLead,
        "name-any-suit",
        "joker.no-trumps.lead",
        "Leading it",
        (
            "The leader of a suitless joker names the suit the others must follow. `name-any-"
            "suit`: any suit (T, P). `name-unled-suit`: a suit not yet led in the hand; once all "
            "four have been led, the joker may be played only to the last trick (G). Default "
            "`name-any-suit`."
        ),
        diff="leading the joker at no trumps",
        note="name-any-suit, or name-unled-suit",
        tables="play.joker_no_trumps.lead",
        attr="joker_lead",
    ),
    Option(
        "play.joker.no_trumps.void_must_play",
        VoidMustPlay,
        "never",
        "joker.no-trumps.misere-void",
        "Void must play it",
        (
            "Whether a player void in the led suit must play the suitless joker. `never` (T, P); "
            "`misere`: in the misères but not at no trumps (G); `always`. Default `never`."
        ),
        diff="void player must play the joker",
        note="void must play it: never, misere, always",
        tables="play.joker_no_trumps.void_must_play",
        attr="joker_void_must_play",
    ),
    Option(
        "play.joker.no_trumps.lead_only_last_trick",
        bool,
        False,
        "joker.no-trumps.lead-last-only",
        "Lead only to the last trick",
        (
            "The joker may be led only to the last trick, or by a player who holds no other card "
            "(G lists it among its variations, after its rules for the joker in no trumps and "
            "misères). It applies in no trumps and misères, to a joker whose suit the contractor "
            "has nominated too; in a trump contract the joker is the highest trump and may be led"
            " at any time. Default false."
        ),
        diff="joker led only to the last trick",
        note="lead it only to the last trick",
        tables="play.joker_no_trumps.lead_only_last_trick",
        attr="joker_lead_only_last_trick",
    ),
    Option(
        "play.joker.no_trumps.low_in_misere",
        bool,
        False,
        "joker.no-trumps.misere-low",
        "Lowest card in a misère",
        (
            "In a misère (open, blind, nullo) the joker is the lowest card (T's app option): "
            "it follows no suit, as in no trumps, and takes no trick, except one it leads when "
            "nobody plays a card of the suit its leader names (it is the lowest card of that "
            "suit); a nominated joker is the lowest card of its suit. In no trumps it stays the "
            "highest. Default false."
        ),
        diff="joker lowest in a misère",
        note="the joker is the lowest card in a misère",
        tables="play.joker_no_trumps.low_in_misere",
        show=True,
        late=True,
    ),
    Option(
        "play.joker.no_trumps.first_or_last",
        bool,
        False,
        "joker.no-trumps.first-or-last",
        "First or last of its suit",
        (
            "A house rule: a joker played as a card of a suit (led naming it, or nominated to "
            "it) must be its holder's first card of that suit in the hand or his last: he may "
            "play it so only before he has played a card of that suit, or once he holds no "
            "other card of it. Played to another suit's lead, which it may be only when void in"
            " that suit, it is his last card of that suit and is not restricted. Default false."
        ),
        diff="joker first or last card of its suit",
        note="the joker first or last card of its suit",
        tables="play.joker_no_trumps.first_or_last",
        show=True,
        late=True,
    ),
    Option(
        "play.joker.no_trumps.lead_not_void",
        bool,
        False,
        "joker.no-trumps.void-suit",
        "Not a suit shown void",
        (
            "A house rule: leading the joker, a player may not name a suit he has shown void in"
            " (failed to follow earlier in the hand), unless that leaves him no suit to name and"
            " no other card. Default false."
        ),
        diff="joker may not name a suit its holder showed void in",
        note="the joker may not name a suit one showed void in",
        tables="play.joker_no_trumps.lead_not_void",
        show=True,
        late=True,
    ),
    Option(
        "scoring.overtricks",
        int,
        0,
        "score.made",
        "Overtricks",
        (
            "Points per trick taken above the contract. 0: none, a made contract scores its value"
            " only (P: bid 8D, take 9: 280). Default 0."
        ),
        minimum=0,
        diff="points per overtrick",
        attr="overtricks",
        note="points per trick above the bid, or 0",
    ),
    Option(
        "scoring.slam.value",
        int,
        0,
        "score.slam",
        "Slam value",
        "What a slam scores. 0 = no slam rule.",
        minimum=0,
        diff="slam value",
        attr="slam_value",
        note="all tricks score this (0: no slam)",
    ),
    Option(
        "scoring.slam.below",
        int,
        0,
        "score.slam",
        "Bids worth less than",
        "The slam rule applies to bids worth less than this.",
        minimum=0,
        diff="slam applies below",
        attr="slam_below",
        note="... on bids worth less than this",
    ),
    Option(
        "scoring.failed",
        Failed,
        "minus-value",
        "score.failed",
        "Failed contract",
        (
            "`minus-value`: the contractor's side loses the bid's value; scores may go negative "
            "(G, P, T). Default `minus-value`."
        ),
        diff="failed contract",
        attr="failed",
        note="minus-value: the bid is lost",
    ),
    Option(
        "scoring.opponents_per_trick",
        int,
        10,
        "score.opponents",
        "Opponents per trick",
        (
            "Points the contractor's opponents score for each trick they take, made or not (G, T:"
            " 10). Default 10."
        ),
        minimum=0,
        diff="opponents' points per trick",
        note="opponents' points per trick taken",
        attr="opponents_per_trick",
    ),
    Option(
        "scoring.opponents_against_misere",
        int,
        0,
        "score.misere",
        "Opponents per trick against a misère",
        "Points per trick the opponents of a misère contractor score (G: nothing, 0). Default 0.",
        minimum=0,
        diff="opponents' points per trick against misère",
        attr="opponents_against_misere",
        note="opponents' points a trick against misère",
    ),
    Option(
        "scoring.opponents_freeze_at",
        int | None,
        None,
        "score.freeze",
        "Opponents' points stop at",
        (
            "Trick points scored as the contractor's opponents stop at this total: they never "
            'take a side above it (T with "must bid to win": 490; G variation: 490 or 480). null:'
            " no limit. Default null."
        ),
        diff="opponents' trick points stop at",
        note="their points stop here (T: 490), or null",
        attr="opponents_freeze_at",
        schema={"examples": [490, 480, None]},
    ),
    Option(
        "scoring.freeze",
        OpponentsLimit,
        "cap",
        "score.freeze",
        "Cap or threshold",
        (
            "How `opponents_freeze_at` limits the trick points of the contractor's opponents. "
            "`cap`: they stop at it, a side never passes it on them (T, G: a side at 480 "
            "taking five tricks stops at 490). `threshold`: a side over it before the hand "
            "scores no trick points, a side at or below it scores all of them even past it "
            '(house rule "no trick points for a defending side over 400": a side at 380 '
            "taking five tricks reaches 430, a side at 410 gets nothing). Default `cap`."
        ),
        diff="opponents' trick points limited by",
        note="cap, or threshold (none over the limit)",
        show=True,
        late=True,
    ),
    Option(
        "scoring.opponent_tricks",
        OpponentTricks,
        "pooled",
        "score.opponents",
        "Opponents' tricks",
        (
            "With more than one opponent scoring alone (teams `none`): `pooled`: each opponent "
            "scores for all the tricks his side took against the contractor; `own`: each scores "
            "his own tricks only (P). Partnerships score their side's tricks either way. Default "
            "`pooled`."
        ),
        diff="opponents' tricks",
        attr="opponent_tricks",
        note="pooled, or own (players alone)",
    ),
    Option(
        "end.target",
        int,
        500,
        "end.target",
        "Target",
        "A side that reaches this score wins (G, T, P: 500). Default 500.",
        minimum=1,
        diff="target",
        note="a side reaching this score wins",
        attr="target",
    ),
    Option(
        "end.lose_at",
        int | None,
        None,
        "end.lose",
        "Lose at",
        (
            'A side at or below this score has "gone out backwards" (G, T, P: -500); what follows'
            " is `out_backwards`. null: no such rule. Default null."
        ),
        maximum=0,
        diff="a side loses at",
        note="out backwards at or below this, or null",
        attr="lose_at",
        schema={"examples": [-500]},
    ),
    Option(
        "end.out_backwards",
        OutBackwards,
        "game-over",
        "end.lose",
        "Going out backwards",
        (
            "Added by this schema (P's rule is not otherwise expressible). `game-over`: the game "
            "ends; that side loses and the highest other side wins (G, T). `cannot-win`: the "
            "player plays on until an opponent wins; if he later reaches the target, the game "
            "ends with no winner (P). Default `game-over`."
        ),
        diff="a side out backwards",
        attr="out_backwards",
        note="game-over, or cannot-win (P)",
    ),
    Option(
        "end.must_bid_to_win",
        bool,
        True,
        "end.must-bid-to-win",
        "Must bid to win",
        (
            "true: only a side's own successful contract can take it to the target; opponents' "
            "trick points alone do not win, play goes on (G; T default Australian). false: "
            "reaching the target by any points wins (T default American, P). Default true."
        ),
        diff="must bid to win",
        note="only one's own contract reaches the target",
        attr="must_bid_to_win",
    ),
    Option(
        "end.both_out",
        BothOut,
        "contractor",
        "end.both-out",
        "More than one side out",
        (
            "Who wins when more than one side reaches the target on the same hand. `contractor`: "
            'the contractor\'s side if it is among them (§13 "bidder goes out"; P), otherwise the '
            "one that reached the target first, trick by trick (P). `highest`: the highest total "
            "(T), the contractor's side on a tie. `first-by-trick`: the one that reached the "
            "target first, trick by trick; trick points count as each trick is won, a contract's "
            "value after the last trick. Default `contractor`."
        ),
        diff="when several sides reach the target",
        attr="both_out",
        note="several out: contractor, highest, first-by-trick",
    ),
    Option(
        "end.line",
        EndLine,
        "reach",
        "end.target",
        "Reach or exceed",
        (
            "Whether the target and the losing line count when a score reaches them or only "
            "when it passes them. `reach`: a side with 500 or more wins, one with -500 or less "
            'has gone out backwards (G: "reach 500"; P: "500 or more"). `exceed`: a side needs '
            'more than 500 and goes out backwards below -500 (T: "a team has more than 500 '
            'points", "less than -500"). Default `reach`.'
        ),
        diff="target and losing line",
        note="reach, or exceed (pass) the target and lose_at",
        show=True,
        late=True,
    ),
    Option(
        "end.backwards_winner",
        BackwardsWinner,
        "any",
        "end.lose",
        "Who wins against a side out backwards",
        (
            "With `out_backwards: game-over`: whether a side that goes out backwards loses "
            "to any other side. `any`: the game ends and the highest other side wins, "
            "whatever its score (G, T). `not-negative`: the game ends only if that side is "
            "not in the negative (0 or more); while it is below 0 play goes on, and the side "
            "out backwards loses once a side it would lose to is at 0 or more, unless a side "
            "wins by the target first (a variation in score keeping listed by Wikipedia's "
            'article on 500: "a team whose score dips below -500 points loses the game only '
            'if the other team is not in the negative"). Default `any`.'
        ),
        diff="a side out backwards loses to",
        note="any side, or not-negative (one at 0 or more)",
        show=True,
        late=True,
        requires=(  # the reason is shown to a rule file's author, translated
            "end.out_backwards",
            ("game-over",),
            N_(
                "with out_backwards: cannot-win a side out backwards plays on, and the game "
                "does not end when it goes out"
            ),
        ),
    ),
)
