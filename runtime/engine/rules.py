"""Immutable rules of one variant, read from its generated tables.

A :class:`Rules` is built once per variant from the tables a generated ruleset module (or JSON
export) holds (:class:`~fivehundred.runtime.engine.tableformat.Tables`). It only reads them: every
derivation (deal order, suit masks, joker powers, restricted bids) is the generator's, under
``Tables.derived``. Option attributes carry their :data:`~typing.Literal` types, so mypy checks
every comparison such as ``rules.procedure == "rounds"``. Rules owns the action numbering shared
by every hand of that variant:

========================  =========================================
action int                meaning
========================  =========================================
``c`` (0 ≤ c < n)         play card index ``c``
``JOKER_LEAD + 4*j + s``  lead joker ``j`` (suitless) naming suit ``s``
``PASS``                  pass
``BID + i``               bid ladder entry ``i``
``NOMINATE + s``          nominate suit ``s`` for the contractor's joker
``TAKE``, ``SANS``        take the kitty, or play sans kitty
``PARTNER + seat``        choose ``seat`` as partner for the hand
``CALL + c``              call card ``c``: its holder is partner for the hand
``DISCARD + c``           discard card ``c`` (one card per action)
``REDEAL``                ask for a redeal (no ace, no face), only where the variant has it
========================  =========================================

Every variant has :attr:`Rules.n_actions` (``DISCARD + n_cards``, one more with
``auction.no_ace_no_face``: the ``REDEAL`` id comes after all the others, so every other id is
the same with and without the option) distinct action ints. The
contractor discards one card per action, as many actions as the variant discards; the text
``discard 4D 5C 6C`` that records use names the whole discard (:meth:`Rules.parse_actions`).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from types import ModuleType

from .codes import SUITS, bits, normalise_card
from .errors import ArgumentError, InvalidActionError
from .messages import N_
from .notation import ENGLISH, Notation
from .tableformat import (
    FORMAT,
    OPTIONS,
    AllPass,
    Auction,
    BidKind,
    BidPartner,
    BothOut,
    ClauseId,
    Deal,
    End,
    Failed,
    FirstDealer,
    JokerLead,
    Nominate,
    OpenWhen,
    OpponentTricks,
    OutBackwards,
    Partner,
    PartnerCall,
    Play,
    Procedure,
    Receiver,
    Scoring,
    Tables,
    VoidMustPlay,
)

__all__ = ["Rules"]


#: A variant id (the schema's pattern): all a built-in module name may be made of.
_VARIANT_ID = re.compile(r"[a-z0-9][a-z0-9-]*")


class Rules:
    """The rules of one variant: tables, ladder and action numbering. Immutable by convention."""

    __slots__ = (
        "BID",
        "CALL",
        "DISCARD",
        "JOKER_LEAD",
        "NOMINATE",
        "PARTNER",
        "PASS",
        "REDEAL",
        "SANS",
        "TAKE",
        "auction",
        "bid_after",
        "bid_blind",
        "bid_clause",
        "bid_codes",
        "bid_index",
        "bid_kind",
        "bid_level",
        "bid_open",
        "bid_partner",
        "bid_strain",
        "bid_value",
        "card_index",
        "card_suit",
        "clause_ids",
        "deal",
        "deal_order",
        "deck",
        "discard_count",
        "face_cards",
        "face_mask",
        "end",
        "extends",
        "inkles",
        "joker_cards",
        "joker_mask",
        "masks",
        "misere_nominated_power",
        "misere_power",
        "n_actions",
        "n_bids",
        "n_cards",
        "n_sides",
        "name",
        "nominated_power",
        "packets",
        "partner",
        "play",
        "pool_opponents",
        "power",
        "restricted_bids",
        "sans_kitty_bonus",
        "scoring",
        "side_of_seat",
        "suit_of",
        "tables",
        "teams",
        "terms",
        "variant",
        *(o.attr for o in OPTIONS if o.attr),  # every flat option attribute
    )  # fmt: skip

    # The options the registry copies from the tables (``Option.attr``), typed for mypy; a
    # test checks these annotations against the registry.
    players: int
    partner_call: PartnerCall
    second_partner_at: int | None
    first_dealer: FirstDealer
    hand_size: int
    kitty: int
    dead_hand: int
    procedure: Procedure
    raise_own_bid: bool
    no_ace_no_face: bool
    all_pass: AllPass
    all_pass_per_trick: int
    kitty_take: bool
    misere_partner: BidPartner  # the tables' values: a bid's (`plays` included)
    misere_ends_when_lost: bool
    joker_nominate: Nominate
    joker_lead: JokerLead
    joker_void_must_play: VoidMustPlay
    joker_lead_only_last_trick: bool
    overtricks: int
    slam_value: int
    slam_below: int
    failed: Failed
    opponents_per_trick: int
    opponents_against_misere: int
    opponents_freeze_at: int | None
    opponent_tricks: OpponentTricks
    target: int
    lose_at: int | None
    out_backwards: OutBackwards
    must_bid_to_win: bool
    both_out: BothOut

    def __init__(self, tables: Tables) -> None:
        if not isinstance(tables, Mapping) or tables.get("format") != FORMAT:
            found = tables.get("format") if isinstance(tables, Mapping) else type(tables).__name__
            raise ArgumentError(
                f"ruleset tables of format {found!r}: this engine reads format {FORMAT} "
                "(regenerate them with `fivehundred build`)"
            )
        self.tables = tables
        self.variant: str = tables["variant"]
        self.extends: str | None = tables["extends"]
        self.name: str = tables["name"]
        # Every option with a flat attribute, copied from its place in the tables.
        for opt in OPTIONS:
            if opt.attr is not None and opt.table_keys is not None:
                node: object = tables
                for key in opt.table_keys:
                    node = node[key]  # type: ignore[index]
                setattr(self, opt.attr, node)
        #: The sections of the tables as they are, typed (``rules.scoring["overtricks"]``):
        #: how the engine reads an option that has no flat attribute.
        self.deal: Deal = tables["deal"]
        self.auction: Auction = tables["auction"]
        self.partner: Partner = tables["partner"]
        self.play: Play = tables["play"]
        self.scoring: Scoring = tables["scoring"]
        self.end: End = tables["end"]
        #: The variant's words (the registry's ``terms.*``), read where they are used.
        self.terms: dict[str, str] = {k: str(v) for k, v in tables["terms"].items()}
        self.teams: tuple[tuple[int, ...], ...] = tuple(tuple(t) for t in tables["teams"])
        self.side_of_seat: tuple[int, ...] = tuple(tables["side_of_seat"])
        self.n_sides = len(self.teams)
        self.deck: tuple[str, ...] = tuple(tables["deck"])
        self.n_cards = len(self.deck)
        self.card_index: dict[str, int] = {code: i for i, code in enumerate(self.deck)}
        self.card_suit: tuple[int, ...] = tuple(tables["card_suit"])
        derived = tables["derived"]
        self.joker_cards: tuple[int, ...] = tuple(derived["joker_cards"])
        self.joker_mask: int = derived["joker_mask"]
        #: ``nominated_power[j]``: the power of joker ``joker_cards[j]`` once nominated to a suit.
        self.nominated_power: tuple[int, ...] = tuple(derived["nominated_power"])
        #: The powers of a misère contract (joker.no-trumps.misere-low: the jokers lowest):
        #: ``misere_power[c]`` by card, ``misere_nominated_power[j]`` for a nominated joker.
        self.misere_power: tuple[int, ...] = tuple(derived["misere_power"])
        self.misere_nominated_power: tuple[int, ...] = tuple(derived["misere_nominated_power"])
        deal = tables["deal"]
        self.packets: tuple[tuple[Receiver, int], ...] = tuple(
            (p[0], p[1]) for p in deal["packets"]
        )
        #: ``deal_order[dealer][k]``: who receives the k-th card (seat, n = kitty, n + 1 = dead).
        self.deal_order: tuple[tuple[int, ...], ...] = tuple(
            tuple(order) for order in derived["deal_order"]
        )
        auction = tables["auction"]
        sans = auction["sans_kitty"]
        self.sans_kitty_bonus: int | None = None if sans is None else sans["bonus"]
        inkles = auction["inkles"]
        self.inkles: tuple[int, int] | None = (
            None if inkles is None else (inkles["bidders"], inkles["level"])
        )
        ladder = tables["ladder"]
        self.n_bids = len(ladder)
        self.bid_codes: tuple[str, ...] = tuple(b["code"] for b in ladder)
        self.bid_index: dict[str, int] = {code: i for i, code in enumerate(self.bid_codes)}
        self.bid_kind: tuple[BidKind, ...] = tuple(b["kind"] for b in ladder)
        self.bid_level: tuple[int, ...] = tuple(b["level"] for b in ladder)
        self.bid_strain: tuple[int, ...] = tuple(b["strain"] for b in ladder)
        self.bid_value: tuple[int, ...] = tuple(b["value"] for b in ladder)
        self.bid_open: tuple[OpenWhen, ...] = tuple(b["open"] for b in ladder)
        self.bid_blind: tuple[bool, ...] = tuple(b["blind"] for b in ladder)
        self.bid_after: tuple[int, ...] = tuple(b["after_bid_of"] for b in ladder)
        self.bid_clause: tuple[ClauseId, ...] = tuple(b["clause"] for b in ladder)
        self.bid_partner: tuple[BidPartner, ...] = tuple(b["partner"] for b in ladder)
        #: Bids that some condition can bar (misère after a 7, blind only first, inkle levels).
        self.restricted_bids: tuple[int, ...] = tuple(derived["restricted_bids"])
        self.discard_count: int = tables["kitty"]["discard"]
        self.suit_of: tuple[tuple[int, ...], ...] = tuple(
            tuple(s["suit_of"]) for s in tables["strains"]
        )
        self.power: tuple[tuple[int, ...], ...] = tuple(
            tuple(s["power"]) for s in tables["strains"]
        )
        self.masks: tuple[tuple[int, ...], ...] = tuple(
            tuple(masks) for masks in derived["suit_masks"]
        )
        #: Opponents pool their tricks only where each side is one player (teams none):
        #: partnerships score their own side's tricks either way (``score.opponents``).
        self.pool_opponents: bool = derived["pool_opponents"]
        self.clause_ids: frozenset[ClauseId] = frozenset(c["id"] for c in tables["clauses"])
        # Action numbering: the Python interface's own definition (records and the JSON
        # interchange name actions by text), not a rule, so it is laid out here.
        self.JOKER_LEAD: int = self.n_cards
        self.PASS: int = self.JOKER_LEAD + 4 * len(self.joker_cards)
        self.BID: int = self.PASS + 1
        self.NOMINATE: int = self.BID + self.n_bids
        self.TAKE: int = self.NOMINATE + 4
        self.SANS: int = self.TAKE + 1
        self.PARTNER: int = self.SANS + 1
        self.CALL: int = self.PARTNER + self.players
        self.DISCARD: int = self.CALL + self.n_cards
        #: ``redeal`` (no ace, no face): the last id, only in a variant with the option (-1
        #: without), so that every other id is the same with and without it.
        self.REDEAL: int = self.DISCARD + self.n_cards if self.no_ace_no_face else -1
        #: The number of distinct action ints: every action is ``0 <= a < n_actions``.
        self.n_actions: int = self.DISCARD + self.n_cards + (1 if self.no_ace_no_face else 0)
        #: The cards that bar a redeal (no ace, no face): aces, kings, queens, jacks (the
        #: bowers among them) and the jokers; 11, 12 and 13 are numbered cards.
        ranks = tables["card_rank"]
        #: Those cards, aces first, then kings, queens, jacks and jokers (as a refusal names them).
        self.face_cards: tuple[int, ...] = (
            tuple(c for rank in ("A", "K", "Q", "J") for c, r in enumerate(ranks) if r == rank)
            + self.joker_cards
        )
        self.face_mask: int = sum(1 << c for c in self.face_cards)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_module(cls, module: ModuleType) -> Rules:
        """Rules from a generated ruleset module (its ``TABLES``)."""
        return cls(module.TABLES)

    @classmethod
    def builtin(cls, variant: str) -> Rules:
        """Rules of a built-in variant from its committed generated module.

        ``KeyError`` unless ``variant`` is a variant id (lower-case letters, digits, hyphens)
        with a generated module: ``__init__``, ``*`` or a path are no variant.
        """
        if not isinstance(variant, str) or not _VARIANT_ID.fullmatch(variant):
            raise KeyError(variant)
        name = variant.replace("-", "_")
        try:
            module = importlib.import_module(f"fivehundred.generated.rulesets.{name}")
        except ModuleNotFoundError as exc:
            raise KeyError(variant) from exc
        return cls.from_module(module)

    def __repr__(self) -> str:
        return f"Rules({self.variant!r})"

    # -- action codes -------------------------------------------------------------------------

    def action_layout(self) -> tuple[tuple[str, int, int, str], ...]:
        """The blocks of the action space: ``(kind, first id, count, meaning)``, in id order.

        Together they cover ``0 <= a < n_actions`` exactly once; a block may be empty.
        """
        cards = self.n_cards
        return (
            ("card", 0, cards, "play the card with this deck index"),
            ("joker-lead", self.JOKER_LEAD, self.PASS - self.JOKER_LEAD,
             "lead joker j naming suit s (S C D H): first + 4*j + s"),
            ("pass", self.PASS, 1, "pass in the auction"),
            ("bid", self.BID, self.n_bids, "bid the ladder entry with this index"),
            ("nominate", self.NOMINATE, 4, "nominate the joker's suit (S C D H)"),
            ("kitty", self.TAKE, 2, "take the kitty, or play sans kitty"),
            ("partner", self.PARTNER, self.players, "choose this seat as partner"),
            ("call", self.CALL, cards, "call this card: its holder is partner"),
            ("discard", self.DISCARD, cards, "discard this card (one card per action)"),
            ("redeal", self.DISCARD + cards, 1 if self.no_ace_no_face else 0,
             "ask for a redeal: no ace, no face (variants with that option)"),
        )  # fmt: skip

    def bid_action(self, code: str) -> int:
        """The action int of a ladder bid code (``7H``, ``MIS``)."""
        return self.BID + self.bid_index[code]

    def check_action(self, action: int) -> None:
        """Raise :class:`InvalidActionError` unless ``action`` is an action int of this variant."""
        if (
            not isinstance(action, int)
            or isinstance(action, bool)
            or action < 0
            or action >= self.n_actions
        ):
            raise InvalidActionError.of(
                N_("%(action)s is not an action of %(variant)s"),
                action=repr(action),
                variant=self.variant,
            )

    def action_str(self, action: int) -> str:
        """The public code of an action int (:class:`InvalidActionError` if it is none)."""
        self.check_action(action)
        if action < self.JOKER_LEAD:
            return self.deck[action]
        if action < self.PASS:
            j, s = divmod(action - self.JOKER_LEAD, 4)
            return f"{self.deck[self.joker_cards[j]]}:{SUITS[s]}"
        if action == self.PASS:
            return "pass"
        if action < self.NOMINATE:
            return self.bid_codes[action - self.BID]
        if action < self.TAKE:
            return f"nominate {SUITS[action - self.NOMINATE]}"
        if action == self.TAKE:
            return "take"
        if action == self.SANS:
            return "sans"
        if action < self.CALL:
            return f"partner {action - self.PARTNER}"
        if action < self.DISCARD:
            return f"call {self.deck[action - self.CALL]}"
        if action == self.REDEAL:
            return "redeal"
        return f"discard {self.deck[action - self.DISCARD]}"

    def discard_str(self, cards: int) -> str:
        """The record text of a whole discard, ``cards`` a bitmask: ``discard 4D 5C 6C``."""
        return "discard " + " ".join(self.deck[c] for c in bits(cards))

    def parse_action(
        self, text: str, bidding: bool = True, notation: Notation | None = ENGLISH
    ) -> int:
        """The action int of an action string; :class:`InvalidActionError` if malformed.

        Codes such as ``7H`` are both a bid and a card: ``bidding`` (the auction is on) reads
        them as bids, otherwise as cards. A discard of several cards is several actions: see
        :meth:`parse_actions`, which also says what ``notation`` accepts.
        """
        actions = self.parse_actions(text, bidding, notation)
        if len(actions) != 1:
            raise InvalidActionError.of(
                N_("%(action)s is %(count)s actions: one discard per card"),
                action=repr(text),
                count=len(actions),
            )
        return actions[0]

    def parse_actions(
        self, text: str, bidding: bool = True, notation: Notation | None = ENGLISH
    ) -> tuple[int, ...]:
        """The action ints of an action string: one, or one per card of a discard.

        What a person types is read in ``notation`` first (:meth:`Notation.words`): by default
        (English) a card or bid may carry the suit symbol (``J♥``, ``10♦``, ``7♠``, ``JK:♥``,
        ``nominate ♥``); a language's notation adds its letters and no-trumps words (Dutch
        ``B♥``, ``7 SA``). ``notation=None`` reads the action grammar alone, the codes of
        INTERCHANGE.md, as a game record is read.
        """
        if notation is not None and isinstance(text, str):
            text = notation.words(text)
        if isinstance(text, str) and text.split()[:1] and text.split()[0].lower() == "discard":
            seen: list[int] = []
            for word in text.split()[1:]:
                c = self.card(word)
                if c in seen:
                    raise InvalidActionError.of(
                        N_("%(action)s names %(card)s twice"), action=repr(text), card=self.deck[c]
                    )
                seen.append(c)
            if not seen:
                raise InvalidActionError.of(N_("%(action)s names no card"), action=repr(text))
            return tuple(self.DISCARD + c for c in seen)
        return (self._parse_one(text, bidding),)

    def _parse_one(self, text: str, bidding: bool) -> int:
        if not isinstance(text, str):
            raise InvalidActionError.of(
                N_("an action must be a string, not %(action)s"), action=repr(text)
            )
        words = text.split()
        if not words:
            raise InvalidActionError.of(N_("an action is empty"))
        head = words[0].lower()
        if head == "pass" and len(words) == 1:
            return self.PASS
        if head in ("take", "sans") and len(words) == 1:
            return self.TAKE if head == "take" else self.SANS
        if head == "redeal" and len(words) == 1:
            if self.REDEAL < 0:
                raise InvalidActionError.of(
                    N_("%(action)s is not an action of %(variant)s (it has no redeal)"),
                    action=repr(text),
                    variant=self.variant,
                )
            return self.REDEAL
        if head == "partner" and len(words) == 2:
            seat = words[1]  # ASCII digits only, and few: int() refuses 4,300 digits and more
            if not (seat.isascii() and seat.isdigit() and len(seat) <= 3) or not (
                0 <= int(seat) < self.players
            ):
                raise InvalidActionError.of(
                    N_("%(action)s: a partner is a seat from 0 to %(last)s"),
                    action=repr(text),
                    last=self.players - 1,
                )
            return self.PARTNER + int(seat)
        if head == "call" and len(words) == 2:
            return self.CALL + self.card(words[1])
        if head == "nominate" and len(words) == 2:
            suit = words[1].upper()
            if suit not in SUITS:
                raise InvalidActionError.of(
                    N_("%(action)s: %(word)s is not a suit (S C D H)"),
                    action=repr(text),
                    word=repr(words[1]),
                )
            return self.NOMINATE + SUITS.index(suit)
        if len(words) != 1:
            raise InvalidActionError.of(N_("%(action)s is not an action"), action=repr(text))
        word = words[0]
        if ":" in word:
            joker, _, suit = word.partition(":")
            c = self.card(joker)
            if c not in self.joker_cards or suit.upper() not in SUITS:
                raise InvalidActionError.of(
                    N_("%(action)s: only a joker names a suit, as JK:H"), action=repr(text)
                )
            return self.JOKER_LEAD + 4 * self.joker_cards.index(c) + SUITS.index(suit.upper())
        upper = word.upper()
        is_card = normalise_card(word) is not None
        if upper in self.bid_index and (bidding or not is_card):
            return self.BID + self.bid_index[upper]
        if is_card:
            return self.card(word)
        raise InvalidActionError.of(
            N_("%(action)s is not a card, a bid of %(variant)s or an action"),
            action=repr(text),
            variant=self.variant,
        )

    def card(self, code: str) -> int:
        """The card index of a card code of this deck; :class:`InvalidActionError` otherwise."""
        norm = normalise_card(code)
        if norm is None:
            raise InvalidActionError.of(N_("%(code)s is not a card code"), code=repr(code))
        if norm not in self.card_index:
            raise InvalidActionError.of(
                N_("%(card)s is not in the deck of %(variant)s"), card=norm, variant=self.variant
            )
        return self.card_index[norm]
