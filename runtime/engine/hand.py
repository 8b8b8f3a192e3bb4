"""One hand of Five Hundred: auction, kitty, tricks and the hand's score.

:class:`HandState` is the mutable state of one hand (OpenSpiel's *State*); the :class:`Rules` it
plays by never change. Actions are ints (see :mod:`fivehundred.runtime.engine.rules`):

- :meth:`HandState.legal_actions` lists them;
- :meth:`HandState.apply` is the checked path: an illegal action raises
  :class:`IllegalActionError` naming the seat, the action and the rule clause, and leaves the
  state untouched;
- :meth:`HandState.apply_fast` is the unchecked path for simulation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from random import Random
from typing import Any, overload

from .codes import NT, SUITLESS, SUITS, ActionKind, bits
from .errors import ArgumentError, IllegalActionError, InvalidActionError
from .messages import N_, Explanation
from .notation import ENGLISH, Notation, bid_code
from .rules import Rules
from .scoring import score_hand
from .tableformat import Play

__all__ = [
    "AUCTION",
    "DISCARD",
    "KITTY",
    "OVER",
    "PARTNER",
    "PHASES",
    "PLAY",
    "ActionKind",
    "HandResult",
    "HandState",
    "Phase",
    "action_kind",
    "bid_after_own_pass",
    "deal",
    "deal_cards",
    "joker_suit_rules",
    "next_dealer",
    "passes_reopen",
    "shuffled",
]


class Phase(IntEnum):
    """The phase of a hand: who decides what next. The numbers index :data:`PHASES`."""

    AUCTION = 0  #: the seats bid or pass
    DISCARD = 1  #: the contractor discards after taking the kitty
    PLAY = 2  #: the tricks are played
    OVER = 3  #: the hand is scored (or thrown in)
    KITTY = 4  #: the contractor takes the kitty or plays sans kitty
    PARTNER = 5  #: the contractor chooses or calls partners


AUCTION, DISCARD, PLAY, OVER, KITTY, PARTNER = (
    Phase.AUCTION,
    Phase.DISCARD,
    Phase.PLAY,
    Phase.OVER,
    Phase.KITTY,
    Phase.PARTNER,
)
#: Phase names, by phase number, as records and observations spell them.
PHASES = ("auction", "discard", "play", "over", "kitty", "partner")


@dataclass(frozen=True)
class HandResult:
    """What a finished hand scored."""

    contract: int  # ladder index, -1 when thrown in (or played at no trumps after all passed)
    contractor: int  # seat, -1 when nobody bid
    made: bool | None
    tricks_by_side: tuple[int, ...]
    points: tuple[int, ...]
    complete: bool = True
    allies: tuple[int, ...] = ()  # seats on the contractor's side for this hand
    sans: bool = False  # played sans kitty
    #: thrown in because a player asked for a redeal (no ace, no face): the same dealer deals
    redeal: bool = False


def next_dealer(rules: Rules, dealer: int, contract: int, *, redeal: bool = False) -> int:
    """Who deals the hand after one ``dealer`` dealt that ended with ladder entry ``contract``
    (-1: everybody passed): deal.rotation, the seat on the dealer's left; auction.all-pass with
    ``all_pass: redeal``, the same dealer again after a hand thrown in; and the same dealer
    after a hand a player asked to be redealt (``redeal``: auction.no-ace-no-face)."""
    if redeal or (contract < 0 and rules.all_pass == "redeal"):
        return dealer
    return (dealer + 1) % rules.players


def passes_reopen(rules: Rules) -> bool:
    """Whether a player who passed may be asked again and bid (auction.pass-final): with
    ``bid_after_pass`` always or if-changed."""
    return rules.auction["bid_after_pass"] != "never"


def bid_after_own_pass(rules: Rules, calls: Sequence[tuple[int, int]]) -> bool:
    """Whether, among ``calls`` (seat, action), a seat made a call other than a pass after a
    pass of its own (auction.pass-final, with ``bid_after_pass`` always or if-changed)."""
    passed = 0
    for seat, action in calls:
        if action == rules.PASS:
            passed |= 1 << seat
        elif passed >> seat & 1:
            return True
    return False


def joker_suit_rules(play: Play) -> tuple[bool, bool]:
    """The joker's suit rules of a variant's ``play`` options (``Rules.play``, or the tables'
    ``play``): whether a joker played as a card of a suit must be its holder's first or last of
    it (joker.no-trumps.first-or-last), and whether a joker may not be led naming a suit its
    holder has shown void in (joker.no-trumps.void-suit)."""
    jnt = play["joker_no_trumps"]
    return jnt["first_or_last"], jnt["lead_not_void"]


def deal(rules: Rules, dealer: int, rng: Random) -> tuple[list[int], int, int]:
    """Shuffle and deal by the variant's packets: hands (bitmasks by seat), kitty, dead hand."""
    return deal_cards(rules, dealer, shuffled(rules.n_cards, rng.random))


def shuffled(n: int, random: Callable[[], float]) -> list[int]:
    """``range(n)`` in random order: Fisher-Yates driven by ``random()`` (twice as fast as
    ``Random.shuffle``; the bias of ``int(random() * k)`` is below 2**-46 for k <= 66)."""
    cards = list(range(n))
    for i in range(n - 1, 0, -1):
        j = int(random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal_cards(rules: Rules, dealer: int, cards: list[int]) -> tuple[list[int], int, int]:
    """Deal a given card order by the variant's packets (the first card to the dealer's left)."""
    n = rules.players
    masks = [0] * (n + 2)
    for to, c in zip(rules.deal_order[dealer], cards, strict=True):
        masks[to] |= 1 << c
    return masks[:n], masks[n], masks[n + 1]


class HandState:
    """The mutable state of one hand."""

    __slots__ = (
        "allies",
        "best_key",
        "best_seat",
        "called",
        "called_cards",
        "calls",
        "contract",
        "contractor",
        "dead",
        "dealer",
        "dealt",
        "discarded",
        "final_call",
        "hands",
        "high",
        "high_seat",
        "inkles",
        "kitty",
        "led",
        "masks",
        "max_level",
        "misere",
        "n_active",
        "n_tricks",
        "next_seat",
        "nominated",
        "passed",
        "phase",
        "power",
        "reopened",
        "result",
        "rules",
        "sans",
        "scores",
        "sitting_out",
        "strain",
        "suit_of",
        "suits_led",
        "to_move",
        "trick",
        "trick_leader",
        "tricks",
        "tricks_won",
        "trumpish",
    )  # fmt: skip

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: list[int],
        kitty: int,
        dead: int = 0,
        scores: list[int] | None = None,
    ) -> None:
        n = rules.players
        self.rules = rules
        self.dealer = dealer
        self.hands = list(hands)
        self.kitty = kitty
        self.dead = dead
        self.dealt: tuple[tuple[int, ...], int, int] = (tuple(hands), kitty, dead)
        self.scores = list(scores) if scores is not None else [0] * rules.n_sides
        self.phase: Phase = AUCTION
        self.to_move = (dealer + 1) % n
        self.calls: list[tuple[int, int]] = []
        self.inkles: list[bool] = []
        self.high = -1
        self.high_seat = -1
        self.passed = 0
        #: auction.pass-final (bid_after_pass: if-changed): the seats whose pass stands but
        #: who are asked again, someone having made a higher bid since they passed.
        self.reopened = 0
        self.called = 0
        self.max_level = 0
        self.final_call = False
        self.contract = -1
        self.contractor = -1
        self.allies = 0  # bitmask of the seats on the contractor's side for this hand
        self.called_cards = 0  # bitmask of the cards called to find partners
        self.misere = False
        self.sans = False
        self.discarded = 0
        self.strain = NT
        self.suit_of = rules.suit_of[NT]
        self.power = rules.power[NT]
        self.masks = rules.masks[NT]
        self.trumpish = SUITLESS
        self.sitting_out = 0
        self.next_seat: tuple[int, ...] = tuple((s + 1) % n for s in range(n))
        self.n_active = n
        self.trick: list[int] = []  # actions of the trick in progress, from its leader on
        self.trick_leader = -1
        self.led = -1
        self.best_key = -1
        self.best_seat = -1
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []  # (leader, actions, winner)
        self.tricks_won = [0] * n
        self.n_tricks = 0
        self.suits_led = 0
        self.nominated = -1
        self.result: HandResult | None = None

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def new(
        cls, rules: Rules, dealer: int, rng: Random, scores: list[int] | None = None
    ) -> HandState:
        """A freshly shuffled and dealt hand."""
        hands, kitty, dead = deal(rules, dealer, rng)
        return cls(rules, dealer, hands, kitty, dead, scores)

    def copy(self) -> HandState:
        """An independent copy (for search and perft): lists copied, everything else shared
        (ints, tuples and the rules never change in place). Written out field by field: five
        times faster than a loop over ``__slots__``; ``tests/test_api.py`` checks that every
        slot is copied."""
        o = HandState.__new__(HandState)
        o.allies = self.allies
        o.best_key = self.best_key
        o.best_seat = self.best_seat
        o.called = self.called
        o.called_cards = self.called_cards
        o.calls = self.calls[:]
        o.contract = self.contract
        o.contractor = self.contractor
        o.dead = self.dead
        o.dealer = self.dealer
        o.dealt = self.dealt
        o.discarded = self.discarded
        o.final_call = self.final_call
        o.hands = self.hands[:]
        o.high = self.high
        o.high_seat = self.high_seat
        o.inkles = self.inkles[:]
        o.kitty = self.kitty
        o.led = self.led
        o.masks = self.masks
        o.max_level = self.max_level
        o.misere = self.misere
        o.n_active = self.n_active
        o.n_tricks = self.n_tricks
        o.next_seat = self.next_seat
        o.nominated = self.nominated
        o.passed = self.passed
        o.phase = self.phase
        o.power = self.power
        o.reopened = self.reopened
        o.result = self.result
        o.rules = self.rules
        o.sans = self.sans
        o.scores = self.scores[:]
        o.sitting_out = self.sitting_out
        o.strain = self.strain
        o.suit_of = self.suit_of
        o.suits_led = self.suits_led
        o.to_move = self.to_move
        o.trick = self.trick[:]
        o.trick_leader = self.trick_leader
        o.tricks = self.tricks[:]
        o.tricks_won = self.tricks_won[:]
        o.trumpish = self.trumpish
        return o

    # -- queries ------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the hand is scored (or thrown in)."""
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        """``auction``, ``kitty``, ``discard``, ``partner``, ``play`` or ``over``."""
        return PHASES[self.phase]

    def controller(self, seat: int) -> int:
        """The seat that decides for ``seat`` (a misère bidder playing both hands decides both)."""
        r = self.rules
        if (
            self.phase == PLAY
            and self.contract >= 0
            and r.bid_partner[self.contract] == "both-hands"
            and self.allies >> seat & 1
        ):
            return self.contractor
        return seat

    # -- legality: every rule that limits the seat to move, written once ----------------------
    #
    # Each phase has one walk over the restrictions of that phase, in the order a player is told
    # about them. A restriction is a bitmask of the action ints it forbids now, with the clause
    # and the explanation it gives (built only when asked). ``probe`` is ``1 << action`` when
    # one action is checked, 0 when none is: the walk returns the Explanation of the first
    # restriction whose mask holds the probe, otherwise the bitmask of the actions that survive
    # every restriction. The legal actions, the check of one action and its reason therefore
    # come from the same lines, and an action is illegal only because a named restriction
    # forbids it. Simulation (:meth:`playout`) calls the same restriction functions.

    def legal_actions(self) -> list[int]:
        """Every legal action of the seat to move, as ints, in ascending order."""
        legal = self._walk(0)  # legal_mask, written out: a bot asks at every decision
        assert not isinstance(legal, Explanation)
        return _ints(legal)

    def legal_mask(self) -> int:
        """The legal actions of the seat to move as a bitmask over action ints."""
        legal = self._walk(0)
        assert not isinstance(legal, Explanation)
        return legal

    def verify(self, action: int) -> Explanation | None:
        """``None`` if ``action`` is legal now, else why not: the rule clause id and a
        translatable sentence of the first restriction that forbids it.

        An int that is no action at all raises :class:`InvalidActionError`.
        """
        self.rules.check_action(action)
        why = self._walk(1 << action)
        return why if isinstance(why, Explanation) else None

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal now (any int: one that is no action is not legal)."""
        if not isinstance(action, int) or not 0 <= action < self.rules.n_actions:
            return False
        return not isinstance(self._walk(1 << action), Explanation)

    def explain_illegal(self, action: int) -> Explanation:
        """Why ``action`` is not legal now: the rule clause id and a translatable sentence.

        Raises :class:`ArgumentError` when ``action`` is legal (there is nothing to explain).
        """
        why = self.verify(action)
        if why is None:
            raise ArgumentError(f"{self.rules.action_str(action)!r} is legal now")
        return why

    def why_not_turn(self, seat: int) -> Explanation | None:
        """Why ``seat``, which is not the seat to move, will not be asked to bid, when a rule
        says so: in a rounds auction a seat whose pass stands is skipped (auction.pass-final:
        for good, or with ``bid_after_pass`` until someone bids higher). None when ``seat``
        only waits for its turn (or is the seat to move)."""
        if self.phase != AUCTION or seat == self.to_move or self.rules.procedure != "rounds":
            return None
        if not (self.passed & ~self.reopened) >> seat & 1:
            return None
        if passes_reopen(self.rules):
            return Explanation(
                "auction.pass-final",
                N_("a player who has passed may bid again only after someone bids higher"),
            )
        return Explanation(
            "auction.pass-final", N_("a player who has passed may not bid again in this auction")
        )

    def _walk(self, probe: int) -> int | Explanation:
        """The restrictions of the phase, walked in order (see above)."""
        phase = self.phase
        if phase == PLAY:
            return self._play_walk(probe)
        if phase == AUCTION:
            return self._auction_walk(probe)
        if phase == DISCARD:
            return self._discard_walk(probe)
        if phase == KITTY:
            return self._kitty_walk(probe)
        if phase == PARTNER:
            return self._partner_walk(probe)
        # end.continue: nothing more happens in a finished hand
        if probe:
            return Explanation("end.continue", N_("the hand is over"))
        return 0

    def _auction_walk(self, probe: int) -> int | Explanation:
        r = self.rules
        if r.REDEAL < 0:
            return self._call_walk(probe)
        # auction.no-ace-no-face: a hand with no ace and no face card may ask for a redeal
        bit = 1 << r.REDEAL
        if probe & bit:
            why = self._why_no_redeal()
            return bit if why is None else why
        legal = self._call_walk(probe)
        if probe or isinstance(legal, Explanation) or self._why_no_redeal() is not None:
            return legal
        return legal | bit

    def _why_no_redeal(self) -> Explanation | None:
        """Why the seat to call may not ask for a redeal now (no ace, no face), or None."""
        r = self.rules
        seat = self.to_move
        # ... in place of his first call ...
        if self.called >> seat & 1:
            return Explanation(
                "auction.no-ace-no-face",
                N_("a redeal is asked for only in place of one's first call (no ace, no face)"),
            )
        # ... holding no ace, no king, queen or jack, and no joker
        hand = self.hands[seat]
        if hand & r.face_mask:
            card = next(c for c in r.face_cards if hand >> c & 1)  # an ace first, if any
            return Explanation(
                "auction.no-ace-no-face",
                N_("he holds %(card)s (no ace, no face)"),
                {"card": r.deck[card]},
            )
        return None

    def _call_walk(self, probe: int) -> int | Explanation:
        """The restrictions on a pass or a bid (auction.order, auction.higher and the ladder's)."""
        r = self.rules
        BID = r.BID
        # auction.order: each call is a bid or a pass
        if probe & ~(((2 << r.n_bids) - 1) << r.PASS):
            return Explanation("auction.order", N_("the auction is not over: bid or pass"))
        # auction.higher: a bid is higher than the high bid
        high = self.high
        if probe & (((1 << (high + 1)) - 1) << BID):
            return Explanation(
                "auction.higher",
                N_("a bid must be higher than %(high)s"),
                {"high": bid_code(r, high)},
            )
        legal = (((1 << (r.n_bids - high - 1)) - 1) << (BID + high + 1)) | 1 << r.PASS
        if not r.restricted_bids:
            return legal
        # Bids the ladder restricts: after a level was bid, blind, inkles (below).
        after = blind = inkle = 0
        first_call = not (self.called >> self.to_move & 1)
        # The inkle level is open to the first bidders only (their bids there are inkles).
        barred_level = 0
        if r.inkles is not None and len(self.calls) >= r.inkles[0]:
            barred_level = r.inkles[1]
        max_level = self.max_level
        for i in r.restricted_bids:
            if i <= high:
                continue
            if r.bid_after[i] and max_level < r.bid_after[i]:
                after |= 1 << (BID + i)
            if r.bid_blind[i] and not first_call:
                blind |= 1 << (BID + i)
            if barred_level and r.bid_level[i] == barred_level:
                inkle |= 1 << (BID + i)
        if not probe:
            return legal & ~(after | blind | inkle)
        # auction.misere, auction.open-misere ... (the bid's clause): only after a level was bid
        if probe & after:
            i = probe.bit_length() - 1 - BID
            return Explanation(
                r.bid_clause[i],
                N_("%(bid)s may be bid only after someone has bid %(level)s"),
                {"bid": bid_code(r, i), "level": r.bid_after[i]},
            )
        # auction.blind-misere: a blind bid is one's first call
        if probe & blind:
            return Explanation(
                "auction.blind-misere",
                N_("%(bid)s may be bid only as one's first call, before looking at one's cards"),
                {"bid": bid_code(r, probe.bit_length() - 1 - BID)},
            )
        # auction.inkles: the inkle level is open to the first bidders only
        if probe & inkle:
            assert r.inkles is not None
            return Explanation(
                "auction.inkles",
                N_("only the first %(bidders)s bidders may bid at the %(level)s level"),
                {"bidders": r.inkles[0], "level": r.inkles[1]},
            )
        return legal & ~(after | blind | inkle)

    def _random_call(self, u: float) -> int:
        """The call ``legal_actions()[int(u * len)]`` without building the list (``0 <= u < 1``)."""
        r = self.rules
        legal = self._auction_walk(0)
        assert not isinstance(legal, Explanation)
        count = legal.bit_count()
        k = int(u * count)
        if k == 0:
            return r.PASS
        if k == count - 1 and r.REDEAL >= 0 and legal >> r.REDEAL & 1:
            return r.REDEAL  # the last legal id
        # The k-th bid above the high bid, skipping the restricted bids the walk barred.
        high = self.high
        i = high + k
        BID = r.BID
        for b in r.restricted_bids:  # ascending
            if b > i:
                break
            if b > high and not legal >> (BID + b) & 1:
                i += 1
        return BID + i

    def _discard_walk(self, probe: int) -> int | Explanation:
        r = self.rules
        # kitty.take: the contractor discards, one card per action
        if probe & ~_span(r.DISCARD, r.n_cards):
            return Explanation(
                "kitty.take",
                N_("the contractor must first discard %(count)s cards"),
                {"count": r.discard_count - self.discarded.bit_count()},
            )
        # kitty.take: ... cards from his hand
        held = self.hands[self.contractor] << r.DISCARD
        if probe & ~held:
            return Explanation(
                "kitty.take",
                N_("the contractor does not hold %(cards)s"),
                {"cards": r.deck[probe.bit_length() - 1 - r.DISCARD]},
            )
        return held

    def _kitty_walk(self, probe: int) -> int | Explanation:
        r = self.rules
        # kitty.sans: the contractor takes the kitty or plays without it
        choices = 1 << r.TAKE | 1 << r.SANS
        if probe & ~choices:
            return Explanation(
                "kitty.sans",
                N_("the contractor first takes the kitty (take) or plays without it (sans)"),
            )
        return choices

    def _partner_walk(self, probe: int) -> int | Explanation:
        r = self.rules
        if r.partner_call == "choose":
            # seats.partner: the contractor chooses a partner ...
            seats = _span(r.PARTNER, r.players)
            if probe & ~seats:
                return Explanation(
                    "seats.partner",
                    N_("the contractor first chooses a partner: partner followed by a seat"),
                )
            # ... among the seats not yet on his side
            taken = self.allies << r.PARTNER
            if probe & taken:
                return Explanation(
                    "seats.partner",
                    N_("seat %(seat)s is already on the contractor's side"),
                    {"seat": probe.bit_length() - 1 - r.PARTNER},
                )
            return seats & ~taken
        # seats.partner: the contractor calls a card ...
        cards = _span(r.CALL, r.n_cards)
        if probe & ~cards:
            return Explanation(
                "seats.partner",
                N_("the contractor first calls a card not in his hand: call followed by a card"),
            )
        # ... that is not in his hand ...
        own = self.hands[self.contractor] << r.CALL
        if probe & own:
            return Explanation(
                "seats.partner",
                N_("the contractor holds %(card)s: he calls a card he does not hold"),
                {"card": r.deck[probe.bit_length() - 1 - r.CALL]},
            )
        # ... and not called already
        called = self.called_cards << r.CALL
        if probe & called:
            return Explanation(
                "seats.partner",
                N_("%(card)s has been called already"),
                {"card": r.deck[probe.bit_length() - 1 - r.CALL]},
            )
        return cards & ~own & ~called

    def _play_walk(self, probe: int) -> int | Explanation:
        r = self.rules
        seat = self.to_move
        hand = self.hands[seat]
        nominates = r.joker_nominate == "contractor"
        # play.opening-lead, play.next-lead, play.follow-suit: in the play one plays a card
        if probe and probe & ~(_span(0, r.PASS) | (_span(r.NOMINATE, 4) if nominates else 0)):
            if self.trick:
                return Explanation("play.follow-suit", N_("the hand is being played: play a card"))
            return Explanation(
                "play.next-lead" if self.n_tricks else "play.opening-lead",
                N_("the hand is being played: lead a card"),
            )
        # play.follow-suit: ... that one holds
        if probe and probe & (
            (~hand & _span(0, r.n_cards)) | self._joker_leads(r.joker_mask & ~hand, 15)
        ):
            a = probe.bit_length() - 1
            card = r.joker_cards[(a - r.JOKER_LEAD) // 4] if a >= r.JOKER_LEAD else a
            return Explanation(
                "play.follow-suit",
                N_("seat %(seat)s does not hold %(card)s"),
                {"seat": seat, "card": r.deck[card]},
            )
        noms = self._nominations(probe) if nominates else 0
        if isinstance(noms, Explanation):
            return noms
        if self.trick:
            # joker.no-trumps.lead: naming the joker's suit is the leader's
            if probe and probe & _span(r.JOKER_LEAD, r.PASS - r.JOKER_LEAD):
                return Explanation(
                    "joker.no-trumps.lead", N_("only the leader names a suit for the joker")
                )
            cards = self._following(hand, probe)
        else:
            cards = self._leading(hand, probe)
        if isinstance(cards, Explanation):
            return cards
        return cards | noms

    @overload
    def _nominations(self) -> int: ...
    @overload
    def _nominations(self, probe: int) -> int | Explanation: ...
    def _nominations(self, probe: int = 0) -> int | Explanation:
        """The nominations of the joker's suit open now (``NOMINATE + s`` bits), in a variant
        where the contractor nominates (clause joker.no-trumps.nominate)."""
        noms = _span(self.rules.NOMINATE, 4)
        # joker.no-trumps.nominate: in no trumps (and misères, played at no trumps) only ...
        if self.strain != NT:
            if probe & noms:
                return Explanation(
                    "joker.no-trumps.nominate",
                    N_("the joker's suit is nominated only in no trumps and misères"),
                )
            return 0
        # ... by the contractor holding the joker ...
        if self.to_move != self.contractor or not self.hands[self.to_move] & self.masks[SUITLESS]:
            if probe & noms:
                return Explanation(
                    "joker.no-trumps.nominate",
                    N_("only the contractor holding the joker nominates its suit"),
                )
            return 0
        # ... once, before the opening lead
        if self.n_tricks or self.trick or self.nominated >= 0:
            if probe & noms:
                return Explanation(
                    "joker.no-trumps.nominate",
                    N_("the joker's suit is nominated before the opening lead"),
                )
            return 0
        return noms

    @overload
    def _following(self, hand: int) -> int: ...
    @overload
    def _following(self, hand: int, probe: int) -> int | Explanation: ...
    def _following(self, hand: int, probe: int = 0) -> int | Explanation:
        """The cards of ``hand`` that may be played to the trick in progress."""
        masks = self.masks
        follow = hand & masks[self.led]
        if follow:
            # play.follow-suit: one who holds the led suit plays it
            if probe & hand & ~follow:
                return self._why_follow(probe.bit_length() - 1, follow)
            cards = follow
        else:
            jokers = hand & masks[SUITLESS]
            if jokers and self._void_must_play_joker():
                # joker.no-trumps.misere-void: void in the led suit, the joker must be played
                if probe & hand & ~jokers:
                    return Explanation(
                        "joker.no-trumps.misere-void",
                        N_("void in the led suit in a misère, the joker must be played"),
                    )
                return jokers
            cards = hand
        if self.nominated >= 0 and hand & self.rules.joker_mask & ~masks[SUITLESS]:
            barred = self._not_first_or_last(hand)
            if probe & cards & barred:
                return self._why_not_first_or_last()
            cards &= ~barred
        return cards

    def _not_first_or_last(self, hand: int) -> int:
        """joker.no-trumps.first-or-last: the nominated jokers of ``hand`` (the seat to move's)
        that are neither its first card of their suit in the hand nor its last: its seat has
        played that suit and holds a card of it that is no joker. 0 without the rule."""
        r = self.rules
        if not joker_suit_rules(r.play)[0] or self.nominated < 0:
            return 0
        suit = self.nominated
        played = self.shown_suits(self.to_move)[0]
        if played >> suit & 1 and hand & self.masks[suit] & ~r.joker_mask:
            return hand & r.joker_mask & ~self.masks[SUITLESS]
        return 0

    def _why_not_first_or_last(self, suit: int = -1) -> Explanation:
        """The sentence of joker.no-trumps.first-or-last for a joker played as ``suit`` (-1:
        the suit it is nominated to)."""
        return Explanation(
            "joker.no-trumps.first-or-last",
            N_(
                "the joker may be played as %(suit)s only as its holder's first or last card "
                "of %(suit)s in the hand"
            ),
            {"suit": SUITS[self.nominated if suit < 0 else suit]},
        )

    def shown_suits(self, seat: int) -> tuple[int, int]:
        """What ``seat``'s plays so far in the hand showed, as two 4-bit suit masks: the
        effective suits it has played (a joker led naming a suit counts as that suit) and the
        suits it has shown void in (it played a card of another effective suit to a lead of
        it). Read from the tricks (joker.no-trumps.first-or-last, joker.no-trumps.void-suit)."""
        r = self.rules
        suit_of = self.suit_of
        jl = r.JOKER_LEAD
        played = void = 0
        tricks = [(leader, actions) for leader, actions, _ in self.tricks]
        if self.trick:
            tricks.append((self.trick_leader, tuple(self.trick)))
        for leader, actions in tricks:
            s = leader
            led = -1
            for a in actions:
                if a >= jl:
                    led = (a - jl) % 4  # a joker lead: it is played as the suit it names
                    if s == seat:
                        played |= 1 << led
                else:
                    suit = suit_of[a]
                    if led < 0:
                        led = suit
                    if s == seat:
                        played |= (1 << suit) & 15
                        if suit != led:
                            void |= 1 << led
                s = self.next_seat[s]
        return played, void

    def _why_follow(self, card: int, follow: int) -> Explanation:
        """Why ``card`` does not follow suit: the clause that gives it (or the cards that do
        follow) its suit in this hand."""
        r = self.rules
        if self.masks[SUITLESS] >> card & 1:
            return Explanation(
                "joker.no-trumps.follow",
                N_("the joker may be played to a %(suit)s lead only when void in it"),
                {"suit": SUITS[self.led]},
            )
        moved = self._moved_cards()  # bowers and jokers, whose suit is not printed
        if self.strain < NT and (moved >> card & 1 or not follow & ~moved):
            if r.joker_mask & ((1 << card) | follow):
                return Explanation(
                    "joker.trump",
                    N_("the joker is a trump here: it follows %(suit)s, the trump suit"),
                    {"suit": SUITS[self.strain]},
                )
            return Explanation(
                "trump.left-bower",
                N_("the left bower belongs to the trump suit (%(suit)s) in this hand"),
                {"suit": SUITS[self.strain]},
            )
        return Explanation(
            "play.follow-suit", N_("must follow suit (%(suit)s)"), {"suit": SUITS[self.led]}
        )

    def _void_must_play_joker(self) -> bool:
        rule = self.rules.joker_void_must_play
        return rule == "always" or (rule == "misere" and self.misere)

    @overload
    def _leading(self, hand: int) -> int: ...
    @overload
    def _leading(self, hand: int, probe: int) -> int | Explanation: ...
    def _leading(self, hand: int, probe: int = 0) -> int | Explanation:
        """The leads open to ``hand``: its cards and ``JOKER_LEAD + 4*j + s`` joker leads."""
        r = self.rules
        jokers = hand & r.joker_mask
        if not jokers:
            return hand
        suitless = hand & self.masks[SUITLESS]  # jokers still without a suit (no trumps)
        # joker.trump / joker.no-trumps.nominate: a joker with a suit (the trump suit, or the
        # one nominated) is led as a card, naming no suit
        if probe & self._joker_leads(jokers & ~suitless, 15):
            if self.nominated >= 0:
                return Explanation(
                    "joker.no-trumps.nominate",
                    N_("the joker was nominated to %(suit)s: it is led as a card, naming no suit"),
                    {"suit": SUITS[self.nominated]},
                )
            return Explanation(
                "joker.trump", N_("the joker is a trump in a trump contract and names no suit")
            )
        last = self.n_tricks == r.hand_size - 1
        others = hand & ~r.joker_mask
        cards = hand
        if (
            self.nominated >= 0
            and r.joker_lead_only_last_trick
            and not last
            and others
            and jokers & ~suitless
        ):
            # joker.no-trumps.lead-last-only: a nominated joker is still the joker, so it too
            # waits for the last trick, unless its holder has no other card
            if probe & jokers & ~suitless:
                return Explanation(
                    "joker.no-trumps.lead-last-only",
                    N_(
                        "the joker may be led only to the last trick, "
                        "even once its suit is nominated"
                    ),
                )
            cards &= ~(jokers & ~suitless)
        if self.nominated >= 0 and jokers & ~suitless:
            # joker.no-trumps.first-or-last: a nominated joker is its holder's first or last
            # card of its suit
            barred = self._not_first_or_last(hand)
            if probe & barred:
                return self._why_not_first_or_last()
            cards &= ~barred
        if not suitless:
            return cards
        # joker.no-trumps.lead: leading a suitless joker names the suit to follow
        if probe & suitless:
            return Explanation(
                "joker.no-trumps.lead",
                N_("leading the joker names the suit to follow, as %(example)s"),
                {"example": r.deck[probe.bit_length() - 1] + ":H"},
            )
        cards &= ~suitless
        others = hand & ~suitless
        # joker.no-trumps.lead-last-only: the joker is led only to the last trick, unless its
        # holder has no other card
        if r.joker_lead_only_last_trick and not last and others:
            if probe & self._joker_leads(suitless, 15):
                return Explanation(
                    "joker.no-trumps.lead-last-only",
                    N_("the joker may be led only to the last trick"),
                )
            return cards
        suits = 15
        if r.joker_lead == "name-unled-suit":
            # joker.no-trumps.lead (G): the named suit must not have been led before;
            # joker.no-trumps.last-trick: once all four suits have been led, the joker may be
            # led only to the last trick (then naming any suit)
            unled = 15 & ~self.suits_led
            if unled or (others and not last):
                suits = unled
            if probe & self._joker_leads(suitless, 15 & ~suits):
                if not unled:
                    return Explanation(
                        "joker.no-trumps.last-trick",
                        N_(
                            "all four suits have been led: the joker may be led only to the "
                            "last trick"
                        ),
                    )
                return Explanation(
                    "joker.no-trumps.lead",
                    N_("%(suit)s have been led already this hand"),
                    {"suit": SUITS[(probe.bit_length() - 1 - r.JOKER_LEAD) % 4]},
                )
        if any(joker_suit_rules(r.play)):
            shown = self._shown_leads(hand, others, suits, suitless, probe)
            if isinstance(shown, Explanation):
                return shown
            suits = shown
        return cards | self._joker_leads(suitless, suits)

    def _shown_leads(
        self, hand: int, others: int, suits: int, suitless: int, probe: int
    ) -> int | Explanation:
        """The suits (a 4-bit mask, within ``suits``) a suitless joker of ``hand`` may name by
        what the seat's plays showed (joker.no-trumps.void-suit, joker.no-trumps.first-or-last),
        or why the probed joker lead may not name its suit."""
        r = self.rules
        played, void = self.shown_suits(self.to_move)
        suit = (probe.bit_length() - 1 - r.JOKER_LEAD) % 4
        if joker_suit_rules(r.play)[1]:
            # joker.no-trumps.void-suit: not a suit its holder has shown void in, unless that
            # leaves no suit to a holder of no other card
            ok = suits & ~void
            if ok or others:
                if probe & self._joker_leads(suitless, suits & ~ok):
                    return Explanation(
                        "joker.no-trumps.void-suit",
                        N_(
                            "seat %(seat)s has shown void in %(suit)s: leading the joker, he "
                            "may not name it"
                        ),
                        {"seat": self.to_move, "suit": SUITS[suit]},
                    )
                suits = ok
        if joker_suit_rules(r.play)[0]:
            # joker.no-trumps.first-or-last: led naming a suit, the joker is its holder's first
            # card of that suit in the hand, or his last
            barred = 0
            for t in range(4):
                if played >> t & 1 and hand & self.masks[t] & ~r.joker_mask:
                    barred |= 1 << t
            if probe & self._joker_leads(suitless, suits & barred):
                return self._why_not_first_or_last(suit)
            suits &= ~barred
        return suits

    def _joker_leads(self, jokers: int, suits: int) -> int:
        """The joker-lead action bits of the jokers in ``jokers`` naming the suits in ``suits``
        (a 4-bit mask)."""
        if not jokers or not suits:
            return 0
        r = self.rules
        out = 0
        for j, c in enumerate(r.joker_cards):
            if jokers >> c & 1:
                out |= suits << (r.JOKER_LEAD + 4 * j)
        return out

    # -- applying actions ---------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply a legal action; raise :class:`IllegalActionError` (state untouched) otherwise.

        An int that is no action at all raises :class:`InvalidActionError`.
        """
        why = self.verify(action)
        if why is not None:
            r = self.rules
            is_bid = r.BID <= action < r.BID + r.n_bids  # a special bid named where shown
            raise IllegalActionError(
                self.to_move,
                bid_code(r, action - r.BID) if is_bid else r.action_str(action),
                why.clause,
                why.text(),
                why,
                action_kind(self.rules, action),
            )
        self.apply_fast(action)

    def apply_str(self, text: str, notation: Notation | None = ENGLISH) -> int:
        """Parse and apply a public action string; return the action int.

        ``discard 4D 5C 6C`` (as records write it) is several one-card actions, applied together
        or not at all: it must name every card still to discard. The int returned is then the
        last of them. ``notation``: how a person may write cards and bids besides the codes
        (:meth:`Rules.parse_actions`); None for the codes alone, as a record is read.
        """
        r = self.rules
        actions = r.parse_actions(text, bidding=self.phase == AUCTION, notation=notation)
        if len(actions) == 1:
            self.apply(actions[0])
            return actions[0]
        why = self._explain_discard(actions)
        if why is not None:
            raise IllegalActionError(  # the text as given (INTERCHANGE.md: "raw")
                self.to_move, text.strip(), why.clause, why.text(), why, "discard"
            )
        for action in actions:
            self.apply_fast(action)
        return actions[-1]

    def _explain_discard(self, actions: tuple[int, ...]) -> Explanation | None:
        """Why a discard of several cards at once is illegal now, or None if it is legal."""
        if self.phase != DISCARD:
            return self.explain_illegal(actions[0])
        r = self.rules
        remaining = r.discard_count - self.discarded.bit_count()
        if len(actions) != remaining:
            return Explanation(
                "kitty.take",
                N_("the contractor discards exactly %(count)s cards, not %(given)s"),
                {"count": remaining, "given": len(actions)},
            )
        for action in actions:
            why = self.verify(action)
            if why is not None:
                return why
        return None

    def apply_fast(self, action: int) -> None:
        """Apply an action known to be legal (no checks)."""
        phase = self.phase
        if phase == PLAY:
            self._play(action)
        elif phase == AUCTION:
            self._call(action)
        elif phase == DISCARD:
            bit = 1 << (action - self.rules.DISCARD)
            self.hands[self.contractor] &= ~bit
            self.discarded |= bit
            if self.discarded.bit_count() == self.rules.discard_count:
                self._after_kitty()
        elif phase == KITTY:
            if action == self.rules.SANS:
                self.sans = True
                self._after_kitty()
            else:
                self._take_kitty()
        elif phase == PARTNER:
            self._add_partner(action)
        else:
            raise InvalidActionError("the hand is over")

    def _call(self, action: int) -> None:
        r = self.rules
        seat = self.to_move
        if action == r.REDEAL:
            # auction.no-ace-no-face: the hand is thrown in, scores nothing; the same dealer
            # deals again (Match)
            self.calls.append((seat, action))
            self.inkles.append(False)
            self.called |= 1 << seat
            self.phase = OVER
            zeros = tuple([0] * r.n_sides)
            self.result = HandResult(-1, -1, None, zeros, zeros, True, redeal=True)
            return
        inkle = False
        if action == r.PASS:
            self.passed |= 1 << seat
            self.reopened &= ~(1 << seat)
        else:
            i = action - r.BID
            if (
                r.inkles is not None
                and len(self.calls) < r.inkles[0]
                and r.bid_level[i] == r.inkles[1]
            ):
                inkle = True
            else:
                self.high = i
                self.high_seat = seat
                level = r.bid_level[i]
                if level > self.max_level:
                    self.max_level = level
                if self.passed:
                    # auction.pass-final: whether a higher bid gives the seats that passed
                    # their voice back (every pass cancelled, or the passes stand but are asked)
                    after_pass = r.auction["bid_after_pass"]
                    if after_pass == "always":
                        self.passed = 0
                    elif after_pass == "if-changed":
                        self.passed &= ~(1 << seat)
                        self.reopened = self.passed
        self.calls.append((seat, action))
        self.inkles.append(inkle)
        self.called |= 1 << seat
        n = r.players
        if r.procedure == "single-round":
            if len(self.calls) < n:
                self.to_move = (seat + 1) % n
                return
            self._end_auction()
            return
        if self.final_call:
            self._end_auction()
            return
        all_seats = (1 << n) - 1
        unpassed = all_seats & ~self.passed
        if unpassed == 0:
            self._end_auction()
            return
        if self.high >= 0 and unpassed == 1 << self.high_seat:
            if r.raise_own_bid and action == r.PASS:
                self.final_call = True
                self.to_move = self.high_seat
                return
            self._end_auction()
            return
        nxt = (seat + 1) % n
        skipped = self.passed & ~self.reopened
        while skipped >> nxt & 1:
            nxt = (nxt + 1) % n
        self.to_move = nxt

    def end_auction_with(self, seat: int, bid: int) -> None:
        """End the auction now as if ``seat`` had won it with ladder entry ``bid``: for search
        and analysis ("what if this seat played this contract?"), not for play, which reaches
        a contract by :meth:`apply`. The hand goes on exactly as after a real auction (kitty,
        partner, play).

        Raises :class:`ArgumentError` outside the auction, or for a seat or a ladder index the
        variant does not have.
        """
        r = self.rules
        if self.phase != AUCTION:
            raise ArgumentError(f"end_auction_with: the auction is over ({self.phase_name})")
        for name, value, size in (("seat", seat, r.players), ("bid", bid, r.n_bids)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
                raise ArgumentError(f"end_auction_with: a {name} is 0..{size - 1}, not {value!r}")
        self.high = bid
        self.high_seat = seat
        self.max_level = max(self.max_level, r.bid_level[bid])
        self._end_auction()

    def _end_auction(self) -> None:
        r = self.rules
        if self.high < 0:
            if r.all_pass == "no-trumps":
                self._start_play()  # played at no trumps, no kitty, no contractor
                return
            self.phase = OVER
            self.result = HandResult(
                -1, -1, None, tuple([0] * r.n_sides), tuple([0] * r.n_sides), True
            )
            return
        self.contract = self.high
        self.contractor = self.high_seat
        self.misere = r.bid_kind[self.contract] == "misere"
        if r.partner_call == "none":
            for seat in r.teams[r.side_of_seat[self.contractor]]:
                self.allies |= 1 << seat
        else:
            self.allies = 1 << self.contractor
        self.to_move = self.contractor
        if r.kitty_take and self.kitty and r.discard_count:
            if r.sans_kitty_bonus is not None and not self.misere:
                self.phase = KITTY
            else:
                self._take_kitty()
        else:
            self._after_kitty()

    def _take_kitty(self) -> None:
        self.hands[self.contractor] |= self.kitty
        self.phase = DISCARD

    def _after_kitty(self) -> None:
        """After the kitty: find partners where the variant calls them, then play."""
        r = self.rules
        if r.partner_call != "none" and not self.misere and self._partners_wanted():
            self.phase = PARTNER
            return
        self._start_play()

    def _partners_wanted(self) -> int:
        """How many partners the contractor still has to choose or call."""
        r = self.rules
        want = 1
        if r.second_partner_at is not None and r.bid_level[self.contract] >= r.second_partner_at:
            want = 2
        if r.partner_call == "choose":
            have = self.allies.bit_count() - 1
        else:
            have = self.called_cards.bit_count()
        return max(0, want - have)

    def _add_partner(self, action: int) -> None:
        r = self.rules
        if action >= r.CALL:
            card = action - r.CALL
            self.called_cards |= 1 << card
            for seat, hand in enumerate(self.hands):
                if hand >> card & 1:
                    self.allies |= 1 << seat
        else:
            self.allies |= 1 << (action - r.PARTNER)
        if not self._partners_wanted():
            self._start_play()

    def _start_play(self) -> None:
        r = self.rules
        n = r.players
        self.phase = PLAY
        strain = r.bid_strain[self.contract] if self.contract >= 0 else NT
        self.strain = strain
        self.suit_of = r.suit_of[strain]
        # joker.no-trumps.misere-low: a misère plays by its own powers (the jokers lowest)
        self.power = r.misere_power if self.misere else r.power[strain]
        self.masks = r.masks[strain]
        self.trumpish = strain if strain < NT else SUITLESS
        if self.contract >= 0 and r.bid_partner[self.contract] == "sits-out":
            self.sitting_out = self.allies & ~(1 << self.contractor)
        nxt = []
        for seat in range(n):
            s = (seat + 1) % n
            while self.sitting_out >> s & 1:
                s = (s + 1) % n
            nxt.append(s)
        self.next_seat = tuple(nxt)
        self.n_active = n - bin(self.sitting_out).count("1")
        leader = self.contractor if self.contractor >= 0 else (self.dealer + 1) % n
        self.to_move = leader
        self.trick_leader = leader

    def _play(self, action: int) -> None:
        r = self.rules
        seat = self.to_move
        if action >= r.NOMINATE:
            self._nominate(action - r.NOMINATE)
            return
        if action >= r.JOKER_LEAD:
            j, led = divmod(action - r.JOKER_LEAD, 4)
            card = r.joker_cards[j]
        else:
            card = action
            led = -1
        self.hands[seat] &= ~(1 << card)
        suit = self.suit_of[card]
        if not self.trick:
            if led < 0:
                led = suit
            self.led = led
            self.suits_led |= 1 << led
            self.trick_leader = seat
            self.best_key = -1
        key = self.power[card] if suit == self.led or suit == self.trumpish else 0
        if key > self.best_key:
            self.best_key = key
            self.best_seat = seat
        self.trick.append(action)
        if len(self.trick) < self.n_active:
            self.to_move = self.next_seat[seat]
            return
        winner = self.best_seat
        self.tricks_won[winner] += 1
        self.tricks.append((self.trick_leader, tuple(self.trick), winner))
        self.trick = []
        self.n_tricks += 1
        self.to_move = winner
        self.trick_leader = winner
        if self.n_tricks == r.hand_size or (
            self.misere and r.misere_ends_when_lost and self.allies >> winner & 1
        ):
            self._score()

    def _nominate(self, suit: int) -> None:
        """The contractor names the suit of his joker(s) for this hand."""
        r = self.rules
        self.nominated = suit
        suit_of = list(self.suit_of)
        power = list(self.power)
        masks = list(self.masks)
        held = self.hands[self.contractor] & masks[SUITLESS]
        nominated_power = r.misere_nominated_power if self.misere else r.nominated_power
        for k, c in enumerate(r.joker_cards):
            if held >> c & 1:
                suit_of[c] = suit
                power[c] = nominated_power[k]
                masks[SUITLESS] &= ~(1 << c)
                masks[suit] |= 1 << c
        self.suit_of = tuple(suit_of)
        self.power = tuple(power)
        self.masks = tuple(masks)

    def _score(self) -> None:
        """Score the finished hand (``score.*`` clauses, :func:`~.scoring.score_hand`)."""
        r = self.rules
        self.phase = OVER
        sides = r.side_of_seat
        by_side = [0] * r.n_sides
        for seat, won in enumerate(self.tricks_won):
            by_side[sides[seat]] += won
        complete = self.n_tricks == r.hand_size
        contract = self.contract
        score = score_hand(r, contract, self.allies, self.tricks_won, self.scores, self.sans)
        if contract < 0:  # all passed and the hand was played at no trumps
            self.result = HandResult(-1, -1, None, tuple(by_side), score.points, complete)
            return
        self.result = HandResult(
            contract,
            self.contractor,
            score.made,
            tuple(by_side),
            score.points,
            complete,
            tuple(s for s in range(r.players) if self.allies >> s & 1),
            self.sans,
        )

    def playout(self, rng: Random, actions: list[int] | None = None) -> int:
        """Play the hand to its end choosing uniformly among legal actions; return the count.

        The fast path of simulation: it makes exactly the choices :class:`RandomBot` makes with
        the same ``rng`` (the k-th legal action in ascending order, k = int(random() * count)),
        but it picks straight from the legal bitmasks the restrictions give, building no lists
        in the auction and the play. Appends every action to ``actions`` when given.
        """
        random = rng.random
        count = 0
        while self.phase != PLAY:
            if self.phase == OVER:
                return count
            if self.phase == AUCTION:
                action = self._random_call(random())
            else:
                legal = self.legal_mask()
                for _ in range(int(random() * legal.bit_count())):
                    legal &= legal - 1
                action = (legal & -legal).bit_length() - 1
            self.apply_fast(action)
            count += 1
            if actions is not None:
                actions.append(action)
        hands = self.hands
        play = self._play
        following = self._following
        leading = self._leading
        nominations = self._nominations if self.rules.joker_nominate == "contractor" else None
        first_card_action = self.rules.JOKER_LEAD  # joker leads and nominations lie above
        trick = self.trick
        next_seat = self.next_seat
        n_active = self.n_active
        trumpish = self.trumpish
        while self.phase == PLAY:
            seat = self.to_move
            hand = hands[seat]
            if trick:
                legal = following(hand)
            else:
                legal = leading(hand)
                if nominations is not None and not self.n_tricks:  # open before the first lead
                    legal |= nominations()
            for _ in range(int(random() * legal.bit_count())):
                legal &= legal - 1
            card = (legal & -legal).bit_length() - 1
            count += 1
            if actions is not None:
                actions.append(card)
            if card >= first_card_action or len(trick) + 1 == n_active:
                # A joker lead, a nomination, or a card completing the trick: the general path
                # keeps the books.
                play(card)
                trick = self.trick
                continue
            # Inline the common case of _play: a plain card that does not end the trick.
            hands[seat] = hand & ~(1 << card)
            suit = self.suit_of[card]
            if not trick:
                self.led = suit
                self.suits_led |= 1 << suit
                self.trick_leader = seat
                self.best_key = self.power[card]
                self.best_seat = seat
            elif suit == self.led or suit == trumpish:
                key = self.power[card]
                if key > self.best_key:
                    self.best_key = key
                    self.best_seat = seat
            trick.append(card)
            self.to_move = next_seat[seat]
        return count

    # -- views --------------------------------------------------------------------------------

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own cards, public calls and plays, faced hands. JSON-able.

        Raises :class:`ArgumentError` unless ``seat`` is a seat number 0..players-1.
        """
        r = self.rules
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < r.players:
            raise ArgumentError(f"observation: a seat is 0..{r.players - 1}, not {seat!r}")
        obs: dict[str, Any] = {
            "variant": r.variant,
            "seat": seat,
            "dealer": self.dealer,
            "phase": self.phase_name,
            "to_move": None if self.phase == OVER else self.to_move,
            "scores": list(self.scores),
            "hand": _codes(r, self.hands[seat]),
            "auction": [
                {"seat": s, "call": r.action_str(a), "inkle": ink}
                for (s, a), ink in zip(self.calls, self.inkles, strict=True)
            ],
            "contract": self._contract_json(),
            "tricks": [self._trick_json(t) for t in self.tricks],
            "trick": self._cards_json(self.trick_leader, self.trick),
            "tricks_won": list(self.tricks_won),
            "sitting_out": bits(self.sitting_out),
            "nominated": None if self.nominated < 0 else SUITS[self.nominated],
            "sans_kitty": self.sans,
            "called": _codes(r, self.called_cards),
            "partners": self.known_partners(seat),
            "kitty_size": r.kitty,
            "faced": {},
        }
        if seat == self.contractor and self.discarded:
            obs["discarded"] = _codes(r, self.discarded)
        faced = {}
        if self.contract >= 0 and self.phase in (PLAY, OVER):
            bid_open = r.bid_open[self.contract]
            if bid_open == "from-start" or (bid_open == "after-first-trick" and self.n_tricks):
                faced[str(self.contractor)] = _codes(r, self.hands[self.contractor])
            if r.bid_partner[self.contract] == "both-hands":
                for s in bits(self.allies):
                    if s != self.contractor:
                        faced[str(s)] = _codes(r, self.hands[s])
        faced.pop(str(seat), None)
        obs["faced"] = faced
        if self.phase != OVER and self.controller(self.to_move) == seat:
            obs["legal"] = [r.action_str(a) for a in self.legal_actions()]
        return obs

    def _moved_cards(self) -> int:
        """Cards whose suit in this hand is not the one printed on them (bowers, jokers)."""
        r = self.rules
        moved = r.joker_mask
        for c in bits(self.masks[self.strain] if self.strain < NT else 0):
            if r.card_suit[c] != self.strain:
                moved |= 1 << c
        return moved

    def known_partners(self, seat: int) -> list[int]:
        """The contractor's partners for this hand as ``seat`` knows them.

        Chosen partners are public. A called card's holder is known to himself and becomes
        public when the called card is played.
        """
        r = self.rules
        if r.partner_call == "none" or self.contract < 0:
            return []
        if r.partner_call == "choose":
            return [s for s in bits(self.allies) if s != self.contractor]
        played = 0
        for _, actions, _ in self.tricks:
            for a in actions:
                played |= 1 << a if a < r.JOKER_LEAD else 0
        for a in self.trick:
            played |= 1 << a if a < r.JOKER_LEAD else 0
        known = []
        for s in bits(self.allies):
            if s == self.contractor:
                continue
            held = self.dealt[0][s] & self.called_cards
            if s == seat or held & played:
                known.append(s)
        return known

    def _contract_json(self) -> dict[str, Any] | None:
        if self.contract < 0:
            return None
        r = self.rules
        return {
            "bid": r.bid_codes[self.contract],
            "seat": self.contractor,
            "side": r.side_of_seat[self.contractor],
        }

    def trick_seats(self, leader: int, count: int) -> list[int]:
        """The seats that play a trick led by ``leader``, in order (sitting-out seats skipped)."""
        seats = [leader] if count else []
        while len(seats) < count:
            seats.append(self.next_seat[seats[-1]])
        return seats

    def _cards_json(
        self, leader: int, actions: list[int] | tuple[int, ...]
    ) -> list[dict[str, Any]]:
        seats = self.trick_seats(leader, len(actions))
        r = self.rules
        return [{"seat": s, "card": r.action_str(a)} for s, a in zip(seats, actions, strict=True)]

    def _trick_json(self, trick: tuple[int, tuple[int, ...], int]) -> dict[str, Any]:
        leader, cards, winner = trick
        return {"leader": leader, "cards": self._cards_json(leader, cards), "winner": winner}


def _codes(rules: Rules, mask: int) -> list[str]:
    return [rules.deck[c] for c in bits(mask)]


#: By byte ``k`` of a mask (``k`` < 32) and that byte's value: the ints of its set bits; each
#: byte's table built when first needed (an index set whole, so threads may race harmlessly).
_BYTE_INTS: list[tuple[tuple[int, ...], ...] | None] = [None] * 32


def _byte_ints(k: int) -> tuple[tuple[int, ...], ...]:
    table = tuple(tuple(8 * k + j for j in range(8) if b >> j & 1) for b in range(256))
    _BYTE_INTS[k] = table
    return table


def _ints(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first, read a byte at a time from tables (a hand's
    legal cards are a few scattered bits, the bids above the high bid one run or a few)."""
    out: list[int] = []
    tables = _BYTE_INTS
    k = 0
    while mask:
        if k == 32:
            out.extend(256 + i for i in bits(mask))
            break
        b = mask & 255
        if b:
            table = tables[k]
            if table is None:
                table = _byte_ints(k)
            out += table[b]
        mask >>= 8
        k += 1
    return out


def _span(start: int, count: int) -> int:
    """The bitmask of the ``count`` action ints from ``start`` on."""
    return ((1 << count) - 1) << start


def action_kind(r: Rules, action: int) -> ActionKind:
    """The kind of an action id: card, joker-lead, pass, bid, nominate, kitty, partner, discard,
    redeal."""
    if action == r.REDEAL:
        return "redeal"
    if 0 <= action < r.JOKER_LEAD:
        return "card"
    if action < r.PASS:
        return "joker-lead"
    if action == r.PASS:
        return "pass"
    if action < r.NOMINATE:
        return "bid"
    if action < r.TAKE:
        return "nominate"
    if action < r.PARTNER:
        return "kitty"
    if action < r.DISCARD:
        return "partner"
    return "discard"
