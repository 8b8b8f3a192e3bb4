"""The ``heuristic-1`` bot: the heuristic bot as it was before issue 19, kept unchanged so that
duels can measure the new heuristic (:mod:`.heuristic`) against it.

It bids by hand evaluation, discards to void suits, plays by rules of thumb.

It is generic over every variant: everything it knows of the game comes from the rules tables
(the ladder, each strain's suit and power of every card, jokers and bowers, the kitty size, the
partner options, misère bids), never from a variant's name. It decides from what its seat may
know (:class:`~fivehundred.runtime.engine.seatview.SeatView`), never from hidden cards.

Bidding
    For each strain it counts likely tricks: trumps by their rank among all trumps (jokers and
    bowers included, as the strain's power table orders them) and length, side-suit winners,
    ruffs from short suits, and at no trumps stoppers and long suits; partners and the kitty add
    an allowance. It bids the cheapest ladder entry it expects to make, rises only as far as the
    hand is worth, supports a partner's strain, does not outbid its partner, and bids misère
    with a hand of low cards whose high ones the kitty discard can remove.
Kitty
    It keeps trumps and winners and drops whole short side suits (to ruff them), or at misère
    its most dangerous cards; it plays sans kitty only with tricks to spare.
Play
    Second hand low, third hand high, win as cheaply as will hold, never overtake a partner who
    is winning, draw trumps as contractor with the top ones, cash winners, ruff when void, lead
    partner's voids as defender; at misère the contractor ducks under and sheds high cards while
    the defenders lead low and keep the trick low for him.

Every decision comes with a short English reason (``fivehundred play``'s ``hint``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from ..engine.codes import NT, SUITLESS, SUITS, bits
from ..engine.hand import AUCTION, DISCARD, KITTY, PARTNER, PLAY, HandState
from ..engine.rules import Rules
from ..engine.seatview import SeatView, view_of
from .state import BotState, hand_state

__all__ = [
    "BidJudge",
    "Decision",
    "HeuristicBotV1",
    "allowance",
    "choose_bid",
    "discard_choice",
    "discard_options",
    "hand_tricks",
    "heuristic_judge",
    "misere_danger",
]


@dataclass(frozen=True, slots=True)
class Decision:
    """An action and why it was chosen."""

    action: int
    reason: str


# -- tables derived once per rules ---------------------------------------------------------------


class _StrainTables:
    """Per (suit_of, power) pair: for every card the mask of higher cards of its effective suit."""

    __slots__ = ("bottom", "higher", "lower", "masks", "power", "suit_of")

    def __init__(
        self, suit_of: tuple[int, ...], power: tuple[int, ...], masks: tuple[int, ...]
    ) -> None:
        n = len(suit_of)
        self.suit_of = suit_of
        self.power = power
        self.masks = masks  # the effective suits as bitmasks: the tables' or the hand's
        higher = [0] * n
        lower = [0] * n
        for c in range(n):
            for d in bits(masks[suit_of[c]]):
                if power[d] > power[c]:
                    higher[c] |= 1 << d
                elif power[d] < power[c]:
                    lower[c] |= 1 << d
        self.higher = tuple(higher)
        self.lower = tuple(lower)
        #: How many cards of its effective suit rank below each card.
        self.bottom = tuple(m.bit_count() for m in lower)


_TABLES: dict[tuple[tuple[int, ...], tuple[int, ...]], _StrainTables] = {}


def _tables(
    suit_of: tuple[int, ...], power: tuple[int, ...], masks: tuple[int, ...]
) -> _StrainTables:
    """The tables of one card order; ``masks`` are the effective suits of ``suit_of`` (the
    ruleset's ``suit_masks``, or the hand's once a joker is nominated), so they are no part of
    the key."""
    key = (suit_of, power)
    t = _TABLES.get(key)
    if t is None:
        if len(_TABLES) > 512:
            _TABLES.clear()
        t = _TABLES[key] = _StrainTables(suit_of, power, masks)
    return t


def _strain_tables(rules: Rules, strain: int) -> _StrainTables:
    return _tables(rules.suit_of[strain], rules.power[strain], rules.masks[strain])


def _desc(mask: int, power: tuple[int, ...]) -> list[int]:
    """Cards of ``mask``, highest power first."""
    return sorted(bits(mask), key=lambda c: -power[c])


# -- hand evaluation -----------------------------------------------------------------------------


def _live_share(rules: Rules) -> float:
    """The share of the cards a seat cannot see that sit in other players' hands."""
    unseen = rules.n_cards - rules.hand_size
    live = (rules.players - 1) * rules.hand_size
    return min(1.0, live / unseen) if unseen else 1.0


def hand_tricks(rules: Rules, hand: int, strain: int) -> float:
    """Tricks ``hand`` should take on its own with ``strain`` as trumps (NT: no trumps)."""
    t = _strain_tables(rules, strain)
    live = _live_share(rules)
    opponents = max(1, rules.players - 1)
    tricks = 0.0
    if strain < NT:
        trump_mask = t.masks[strain]
        trumps = hand & trump_mask
        n_trumps = trumps.bit_count()
        held = 0
        missing = 0.0
        for c in _desc(trump_mask, t.power):
            if hand >> c & 1:
                if missing <= held:
                    tricks += 1.0
                elif missing <= held + 1:
                    tricks += 0.5
                elif missing <= held + 2:
                    tricks += 0.2
                held += 1
            else:
                missing += live
        # Long trumps win late: more than the opponents' share of the trumps left.
        outside = (trump_mask.bit_count() - n_trumps) * live
        tricks += max(0.0, n_trumps - 1 - outside / opponents) * 0.3
        spare = max(0, n_trumps - 2)
        side_suits = [s for s in range(4) if s != strain]
    else:
        spare = 0
        side_suits = [0, 1, 2, 3]
        tricks += (hand & t.masks[SUITLESS]).bit_count()  # a joker of its own at no trumps
        stoppers = 0
    for s in side_suits:
        suit_mask = t.masks[s]
        mine = hand & suit_mask
        length = mine.bit_count()
        if strain < NT:
            if length == 0:
                ruffs = min(spare, 2)
                tricks += 0.8 * ruffs
                spare -= ruffs
            elif length == 1:
                ruffs = min(spare, 1)
                tricks += 0.5 * ruffs
                spare -= ruffs
        held = 0
        missing = 0.0
        for c in _desc(suit_mask, t.power):
            if held >= length:
                break
            if hand >> c & 1:
                if missing < 0.5:
                    # A winner: at a trump contract the third round is likely ruffed.
                    tricks += 1.0 if strain == NT or held < 2 else 0.4
                    if strain == NT and held == 0:
                        stoppers += 1
                elif missing < 1.5 and held == 0 and length >= 2:
                    tricks += 0.4
                    if strain == NT:
                        stoppers += 1
                elif missing < 2.5 and held <= 1 and length >= 3 and strain == NT:
                    tricks += 0.2
                held += 1
            else:
                missing += live
        if strain == NT and length >= 5 and mine & ~t.lower[_desc(suit_mask, t.power)[1]]:
            tricks += (length - 4) * 0.7  # a long suit with a top card runs
    if strain == NT:
        tricks -= 0.6 * max(0, 3 - stoppers)
    # The counts above overrate strong hands (winners and ruffs overlap): shrink the excess.
    base = 0.5 * rules.hand_size
    if tricks > base:
        tricks = base + (tricks - base) * 0.6
    return tricks


def misere_danger(rules: Rules, hand: int, opponents: int) -> list[tuple[float, int]]:
    """The cards of ``hand`` that may win a trick at misère, as (danger, card), worst first.

    A card is in danger when too few cards of its suit rank below it for the opponents to play
    under it on every round of the suit; jokers (which always win) are the worst.
    """
    t = _strain_tables(rules, NT)
    out: list[tuple[float, int]] = []
    for c in bits(hand & t.masks[SUITLESS]):
        out.append((100.0, c))
    for s in range(4):
        mine = sorted(bits(hand & t.masks[s]), key=lambda c: t.power[c])
        for i, c in enumerate(mine):
            # The opponents hold ``below`` cards under the i-th lowest card; leading the suit
            # they play about ``opponents`` of them a round: more than i rounds' worth catch it.
            below = t.bottom[c] - i
            danger = below / max(1, opponents) - i - 0.5
            if danger > 0:
                out.append((danger, c))
    out.sort(reverse=True)
    return out


# -- the bot -------------------------------------------------------------------------------------


#: Tricks the heuristic adds to its estimates when bidding: whole Australian games between
#: heuristic bots showed the hand evaluation alone bids too little (+0.6 won 57% of 400 games
#: against +0; +1.0 and +0.3 against +0.6 were within the noise).
BOLDNESS = 0.5


class HeuristicBotV1:
    """Rule-of-thumb bidding and play from the seat's own view (see the module docstring)."""

    name = "heuristic-1"

    def __init__(self, boldness: float = BOLDNESS) -> None:
        #: Tricks added to every bid's estimate (negative: more cautious).
        self.boldness = boldness

    def choose(self, state: BotState, rng: Random) -> int:
        """A legal action of the seat to move."""
        return self.decide(state).action

    def decide(self, state: BotState) -> Decision:
        """The action and its reason, from what the deciding seat may know (``state``: a hand
        state or the public ``State``)."""
        state = hand_state(state)
        mover = state.to_move
        seat = state.controller(mover)
        if state.phase == DISCARD:
            return _discard(view_of(state, seat), state)
        legal = state.legal_actions()  # from the mover's own cards and public facts only
        if len(legal) == 1:
            return Decision(legal[0], "the only legal action")
        view = view_of(state, seat)
        if state.phase == AUCTION:
            return choose_bid(view, legal, heuristic_judge(view, self.boldness))
        if state.phase == KITTY:
            return _take_or_sans(view)
        if state.phase == PARTNER:
            return _partner(view, legal)
        if state.phase == PLAY:
            return _play(view, mover, legal)
        return Decision(legal[0], "the first legal action")


# -- auction -------------------------------------------------------------------------------------


def _team_of(rules: Rules, seat: int) -> int:
    """The seats known at the auction to be on ``seat``'s side (a bitmask)."""
    if rules.partner_call != "none":
        return 1 << seat
    return sum(1 << s for s in rules.teams[rules.side_of_seat[seat]])


def _partners_expected(rules: Rules, level: int) -> int:
    if rules.partner_call == "none":
        return max(len(team) for team in rules.teams) - 1
    if rules.second_partner_at is not None and level >= rules.second_partner_at:
        return 2
    return 1


def allowance(rules: Rules, level: int, with_kitty: bool = True) -> float:
    """Tricks expected from partners and the kitty beyond the contractor's own hand."""
    per_partner = rules.hand_size / rules.players * 0.45
    kitty = 0.0
    if with_kitty and rules.kitty_take and rules.discard_count:
        kitty = 0.25 * rules.discard_count
    return per_partner * _partners_expected(rules, level) + kitty


#: Judges a ladder entry for the seat to bid: the reason to bid it, or None. ``strict`` asks
#: for a trick to spare (to outbid one's own partner).
BidJudge = Callable[[int, bool], "str | None"]


def heuristic_judge(view: SeatView, boldness: float = 0.0) -> BidJudge:
    """The heuristic bot's judge of bids: hand evaluation plus partners' and kitty allowance
    (plus ``boldness`` tricks)."""
    r = view.rules
    hand = view.hand
    own = [hand_tricks(r, hand, s) for s in range(5)]
    team = _team_of(r, view.seat)
    # What partners have shown: their highest bid (or inkle) in each strain.
    shown: dict[int, int] = {}
    for s, a in view.calls:
        if s != view.seat and team >> s & 1 and a > r.PASS:
            i = a - r.BID
            if r.bid_kind[i] == "suit":
                shown[r.bid_strain[i]] = max(shown.get(r.bid_strain[i], 0), r.bid_level[i])

    def expect(i: int) -> float:
        strain, level = r.bid_strain[i], r.bid_level[i]
        mine = own[strain] + allowance(r, level) + boldness
        if strain in shown:
            partner = shown[strain] - allowance(r, shown[strain])
            mine = max(mine, partner + own[strain] + allowance(r, level) - allowance(r, 0, False))
        return mine

    danger = misere_danger(r, hand, _active_opponents_misere(r))
    drops = r.discard_count if r.kitty_take else 0
    bad = [d for d, _ in danger]
    # The kitty brings cards too: keep room in the discard for its bad ones.
    misere_ok = len(bad) <= max(0, drops - 2) and sum(bad) < 3
    misere_safe = not bad

    def judge(i: int, strict: bool) -> str | None:
        if r.bid_kind[i] == "misere":
            if r.bid_open[i] != "no" or r.bid_partner[i] == "both-hands":
                return "a hand of low cards: an open misère" if misere_safe else None
            return "a hand of low cards and a kitty to drop the high ones" if misere_ok else None
        level = r.bid_level[i]
        if expect(i) >= level + _margin(r, level) + strict:
            name = SUITS[r.bid_strain[i]] if r.bid_strain[i] < NT else "no trumps"
            return f"about {expect(i):.1f} tricks expected at {name} with partner and kitty"
        return None

    return judge


def choose_bid(view: SeatView, legal: list[int], judge: BidJudge) -> Decision:
    """The call to make, given a judge of ladder entries (see :data:`BidJudge`).

    Rounds: the cheapest acceptable entry in the strain the hand is best at (rising later);
    one call each: the highest acceptable entry. Never outbids a partner except to raise its
    strain with a trick to spare (one call each); never bids blind.
    """
    r = view.rules
    team = _team_of(r, view.seat)
    partner_high = view.high >= 0 and view.high_seat != view.seat and team >> view.high_seat & 1
    if r.REDEAL in legal and r.REDEAL >= 0:
        # no ace, no face: a hand worth no bid asks for a redeal, unless partner holds the bid
        call = choose_bid(view, [a for a in legal if a != r.REDEAL], judge)
        if call.action == r.PASS and not partner_high:
            return Decision(r.REDEAL, "no ace, no face and worth no bid: ask for a redeal")
        return call
    candidates: list[tuple[int, str]] = []
    for a in legal:
        if a == r.PASS:
            continue
        i = a - r.BID
        if r.bid_blind[i]:
            continue  # a blind misère is a gamble the bot does not take
        why = judge(i, False)
        if why is not None:
            candidates.append((a, why))
    if not candidates:
        return Decision(r.PASS, "the hand is not worth a higher bid")
    if partner_high:
        strain = r.bid_strain[view.high]
        raise_ = [
            (a, why)
            for a, why in candidates
            if r.bid_kind[a - r.BID] == "suit"
            and r.bid_strain[a - r.BID] == strain
            and judge(a - r.BID, True) is not None
        ]
        if not raise_ or r.procedure != "single-round":
            return Decision(r.PASS, "partner holds the bid")
        return Decision(raise_[-1][0], "raise partner's strain: " + raise_[-1][1])
    best = max(candidates, key=lambda c: c[0])
    if r.procedure == "single-round":
        return Decision(best[0], "one call each: the highest bid the hand is worth; " + best[1])
    bi = best[0] - r.BID
    if r.bid_kind[bi] == "misere":
        cheapest_misere = min(a for a, _ in candidates if r.bid_kind[a - r.BID] == "misere")
        return Decision(cheapest_misere, dict(candidates)[cheapest_misere])
    same = [c for c in candidates if r.bid_strain[c[0] - r.BID] == r.bid_strain[bi]]
    return Decision(min(same)[0], min(same)[1])


def _margin(rules: Rules, level: int) -> float:
    """Tricks to spare before bidding ``level``: high contracts cost more when they fail."""
    low = min(
        lv for lv, kind in zip(rules.bid_level, rules.bid_kind, strict=True) if kind == "suit"
    )
    return 0.35 * (level - low)


def _active_opponents_misere(rules: Rules) -> int:
    """How many opponents play against a misère (partners sit out or play along)."""
    if rules.partner_call == "none":
        return rules.players - max(len(t) for t in rules.teams)
    return rules.players - 1


def _take_or_sans(view: SeatView) -> Decision:
    r = view.rules
    level = r.bid_level[view.contract]
    own = hand_tricks(r, view.hand, view.strain) + allowance(r, level, with_kitty=False)
    if own >= level + 1:
        return Decision(
            r.SANS, f"about {own:.1f} tricks without the kitty: play sans for the bonus"
        )
    return Decision(r.TAKE, "take the kitty to improve the hand")


def _partner(view: SeatView, legal: list[int]) -> Decision:
    r = view.rules
    if legal[0] >= r.CALL:
        power = r.power[view.strain]
        best = max(legal, key=lambda a: power[a - r.CALL])
        return Decision(best, "call the highest card not held: its holder is the strongest partner")
    # Choose the seat that bid highest (the strongest hand shown), else the next one.
    shown = {s: a for s, a in view.calls if a > r.PASS}
    options = [a - r.PARTNER for a in legal]
    best_seat = max(options, key=lambda s: (shown.get(s, -1), -((s - view.seat) % r.players)))
    if best_seat in shown:
        return Decision(r.PARTNER + best_seat, "choose the seat that showed the strongest hand")
    return Decision(r.PARTNER + best_seat, "no seat showed strength: choose the next one")


# -- kitty discard -------------------------------------------------------------------------------


def discard_choice(view: SeatView, hand: int | None = None) -> tuple[int, str]:
    """The set of cards (a bitmask) the contractor drops from ``hand`` (default: its hand), and
    why: as many cards as are still to be discarded."""
    return discard_options(view, hand)[0]


def discard_options(view: SeatView, hand: int | None = None) -> list[tuple[int, str]]:
    """Sets of cards worth considering for the discard, the heuristic's choice first.

    At a trump contract: void the shortest side suits without a winner (to ruff them), else
    drop the lowest cards; the alternatives void each short side suit in turn, or none. At no
    trumps: the lowest cards of the short suits. At misère: the most dangerous cards.
    """
    r = view.rules
    hand = view.hand if hand is None else hand
    count = max(1, min(r.discard_count, hand.bit_count() - r.hand_size))
    strain = view.strain if view.contract >= 0 else NT
    if view.misere:
        danger = misere_danger(r, hand, _active_opponents_misere(r))
        drop = [c for _, c in danger][:count]
        if len(drop) < count:
            t = _strain_tables(r, NT)
            rest = sorted(bits(hand & ~sum(1 << c for c in drop)), key=lambda c: -t.bottom[c])
            drop += rest[: count - len(drop)]
        return [(sum(1 << c for c in drop), "misère: drop the cards most likely to win a trick")]
    t = _strain_tables(r, strain)
    trump_mask = t.masks[strain] if strain < NT else 0

    def keep_value(c: int) -> float:
        if trump_mask >> c & 1 or t.suit_of[c] == SUITLESS:
            return 1000.0 + t.power[c]
        above = (t.higher[c] & ~hand).bit_count()
        length = (hand & t.masks[t.suit_of[c]]).bit_count()
        if above == 0:
            return 500.0 + t.power[c]
        if above == 1 and length >= 2:
            return 200.0 + t.power[c]
        return t.power[c] + (10.0 * length if strain == NT else 0.0)

    def fill(drop_mask: int) -> int:
        budget = count - drop_mask.bit_count()
        for c in sorted(bits(hand & ~drop_mask), key=keep_value)[:budget]:
            drop_mask |= 1 << c
        return drop_mask

    options: list[tuple[int, str]] = []
    if strain < NT:
        side = [s for s in range(4) if s != strain]
        side.sort(key=lambda s: (hand & t.masks[s]).bit_count())
        voids = 0
        budget = count
        for s in side:
            cards = hand & t.masks[s]
            n = cards.bit_count()
            if 0 < n <= budget and all(keep_value(c) < 500 for c in bits(cards)):
                voids |= cards
                budget -= n
        if voids:
            why = "void short side suits to ruff them, keep trumps and winners"
            options.append((fill(voids), why))
        options.append((fill(0), "keep trumps and winners, drop low cards"))
        for s in side:
            cards = hand & t.masks[s]
            if 0 < cards.bit_count() <= count:
                options.append((fill(cards), f"void {SUITS[s]} to ruff it"))
    else:
        options.append((fill(0), "keep winners and long suits, drop low cards of short suits"))
    seen: set[int] = set()
    unique = []
    for mask, why in options:
        if mask not in seen:
            seen.add(mask)
            unique.append((mask, why))
    return unique


def _discard(view: SeatView, state: HandState) -> Decision:
    """One card of the chosen set (a discard is one card per action)."""
    drop, why = discard_choice(view)
    c = (drop & -drop).bit_length() - 1
    return Decision(view.rules.DISCARD + c, why)


# -- play ----------------------------------------------------------------------------------------


def _play(view: SeatView, mover: int, legal: list[int]) -> Decision:
    r = view.rules
    t = _tables(view.suit_of, view.power, view.masks)
    hand = view.hand if mover == view.seat else view.faced[mover]
    ctx = _Context(view, t, mover, hand)
    nominate = [a for a in legal if a >= r.NOMINATE]
    cards = [a for a in legal if a < r.NOMINATE]
    if nominate and not view.misere:
        # Make the joker the top card of the longest suit.
        others = hand & ~t.masks[SUITLESS]
        suit = max(range(4), key=lambda s: ((others & t.masks[s]).bit_count(), -s))
        return Decision(
            r.NOMINATE + suit, f"nominate the joker a {SUITS[suit]}: top of the longest suit"
        )
    if view.trick:
        if view.misere:
            return ctx.follow_misere(cards)
        return ctx.follow(cards)
    if view.misere:
        return ctx.lead_misere(cards)
    return ctx.lead(cards)


class _Context:
    """One play decision: the mover, its cards and the public facts of the trick."""

    def __init__(self, view: SeatView, t: _StrainTables, mover: int, hand: int) -> None:
        self.v = view
        self.r = view.rules
        self.t = t
        self.mover = mover
        self.hand = hand
        # Cards the mover cannot see: the others may hold them.
        self.out = ((1 << self.r.n_cards) - 1) & ~(view.played | hand)
        if view.contract >= 0:
            on_side = view.allies >> mover & 1
            if on_side:
                self.friends = view.allies
            else:
                self.friends = ((1 << self.r.players) - 1) & ~view.allies
        else:
            self.friends = sum(1 << s for s in self.r.teams[self.r.side_of_seat[mover]])
        self.trump = view.trumpish if view.trumpish < SUITLESS else -1
        self.trump_mask = t.masks[self.trump] if self.trump >= 0 else 0
        # The seats still to play to this trick after the mover, in order.
        after = []
        s = view.next_seat[mover]
        for _ in range(view.n_active - len(view.trick) - 1):
            after.append(s)
            s = view.next_seat[s]
        self.after = after

    # -- small facts --

    def card(self, action: int) -> int:
        return self.v.card_of(action)

    def key(self, c: int) -> int:
        """The card's power in the current trick (0 when it neither follows nor trumps)."""
        s = self.t.suit_of[c]
        v = self.v
        return self.t.power[c] if s == v.led or s == v.trumpish else 0

    def could_hold(self, seat: int, mask: int) -> int:
        """The cards of ``mask`` that ``seat`` may hold, as the mover knows."""
        v = self.v
        if v.faced[seat] and seat != self.mover:
            return mask & v.faced[seat]
        if seat == v.seat:
            return mask & v.hand
        voids = v.voids[seat]
        for e in bits(voids):
            mask &= ~self.t.masks[e]
        return mask & self.out

    def holds(self, c: int, led: int) -> bool:
        """Whether ``c``, winning now, should still win after the seats still to play."""
        t = self.t
        suit = t.suit_of[c]
        for s in self.after:
            if self.friends >> s & 1:
                continue
            higher = self.could_hold(s, t.higher[c])
            if suit == self.trump and led != self.trump:
                higher &= self.trump_mask
                # An opponent who can follow the led suit cannot ruff over us.
                if not self.v.voids[s] >> led & 1:
                    continue
            if higher:
                return False
            # It may be ruffed by an opponent known void in the led suit holding trumps.
            if (
                suit != self.trump
                and self.trump >= 0
                and suit == led
                and self.v.voids[s] >> led & 1
                and self.could_hold(s, self.trump_mask)
            ):
                return False
        return True

    def is_boss(self, c: int) -> bool:
        return not self.t.higher[c] & self.out

    def low_card(self, cards: list[int]) -> int:
        """The card of least value: not a trump, not a winner, from a short suit, lowest."""
        t = self.t

        def value(a: int) -> tuple[int, int, int, int]:
            c = self.card(a)
            suit = t.suit_of[c]
            is_trump = suit == self.trump or suit == SUITLESS
            length = (self.hand & t.masks[suit]).bit_count()
            return (int(is_trump), int(self.is_boss(c)), t.power[c], length)

        return min(cards, key=value)

    def cheapest(self, cards: list[int]) -> int:
        return min(cards, key=lambda a: self.t.power[self.card(a)])

    def highest(self, cards: list[int]) -> int:
        return max(cards, key=lambda a: self.t.power[self.card(a)])

    # -- following --

    def follow(self, cards: list[int]) -> Decision:
        v = self.v
        led = v.led
        partner_wins = bool(self.friends >> v.best_seat & 1)
        winners = [a for a in cards if self.key(self.card(a)) > v.best_key]
        follows = bool(self.hand & self.t.masks[led])
        if partner_wins:
            best_card = self.card(v.trick[(_seat_index(v, v.best_seat))])
            if not self.after or self.holds(best_card, led):
                return Decision(self.low_card(cards), "partner is winning the trick: play low")
            sure = [a for a in winners if self.holds(self.card(a), led)]
            if sure:
                return Decision(self.cheapest(sure), "partner's card may be beaten: win it surely")
            return Decision(self.low_card(cards), "partner is winning for now: play low")
        if not winners:
            why = "cannot win the trick: play the least useful card"
            if not follows:
                why = "cannot win and void in the suit led: discard the least useful card"
            return Decision(self.low_card(cards), why)
        if not self.after:
            return Decision(self.cheapest(winners), "last to play: win as cheaply as possible")
        sure = [a for a in winners if self.holds(self.card(a), led)]
        if sure:
            why = "win cheaply with a card that should hold"
            if not follows:
                why = "void in the suit led: ruff with the cheapest trump that should hold"
            return Decision(self.cheapest(sure), why)
        friend_after = any(self.friends >> s & 1 for s in self.after)
        if friend_after and follows:
            return Decision(self.low_card(cards), "second hand low: partner plays after")
        if not follows:
            return Decision(self.cheapest(winners), "void in the suit led: ruff")
        return Decision(self.highest(winners), "third hand high: make the opponents pay")

    def follow_misere(self, cards: list[int]) -> Decision:
        v = self.v
        t = self.t
        contractor_side = bool(v.allies >> self.mover & 1)
        under = [a for a in cards if self.key(self.card(a)) < v.best_key]
        if contractor_side:
            # Under the winning card, even our own (both hands played): every trick counts.
            if under:
                return Decision(
                    max(under, key=lambda a: t.power[self.card(a)]),
                    "misère: duck under the winning card with the highest card that still loses",
                )
            if not self.hand & t.masks[v.led]:
                return Decision(self.highest(cards), "misère: void, shed the most dangerous card")
            return Decision(self.highest(cards), "misère: cannot duck; play the highest")
        contractor_played = any(s == v.contractor or v.allies >> s & 1 for s in _seats_played(v))
        follows = bool(self.hand & t.masks[v.led])
        if not follows:
            return Decision(
                self.highest(cards), "against misère: void, discard a high card, keep low ones"
            )
        if contractor_played and v.allies >> v.best_seat & 1:
            if under:
                return Decision(
                    max(under, key=lambda a: t.power[self.card(a)]),
                    "against misère: stay under the contractor's winning card",
                )
            return Decision(self.cheapest(cards), "against misère: cannot get under; play low")
        return Decision(
            self.cheapest(cards), "against misère: play low to leave the contractor no room"
        )

    # -- leading --

    def lead(self, cards: list[int]) -> Decision:
        v = self.v
        t = self.t
        r = self.r
        hand = self.hand
        on_contract_side = v.contract >= 0 and bool(v.allies >> self.mover & 1)
        opponents = [
            s for s in range(r.players) if not self.friends >> s & 1 and not v.sitting_out >> s & 1
        ]
        plain = [a for a in cards if a < r.JOKER_LEAD]
        joker_leads = [a for a in cards if a >= r.JOKER_LEAD]
        if self.trump >= 0:
            trumps = [a for a in plain if t.suit_of[a] == self.trump]
            opp_trumps = any(self.could_hold(s, self.trump_mask) for s in opponents)
            if on_contract_side and trumps and opp_trumps:
                top = self.highest(trumps)
                if self.is_boss(top):
                    return Decision(top, "draw trumps with the top trump")
                if (
                    len(trumps) * 1.0
                    >= (self.trump_mask & self.out).bit_count() / max(1, len(opponents)) + 1
                ):
                    return Decision(self.cheapest(trumps), "draw trumps: lead a low one")
        bosses = []
        for a in plain:
            suit = t.suit_of[a]
            if suit == self.trump or not self.is_boss(a):
                continue
            if self.trump >= 0 and any(
                v.voids[s] >> suit & 1 and self.could_hold(s, self.trump_mask) for s in opponents
            ):
                continue  # an opponent would ruff it
            bosses.append(a)
        if bosses:
            best = max(
                bosses, key=lambda a: ((hand & t.masks[t.suit_of[a]]).bit_count(), t.power[a])
            )
            return Decision(best, "cash a winner")
        if joker_leads and (on_contract_side or v.contract < 0):
            name = max(
                joker_leads, key=lambda a: (hand & t.masks[(a - r.JOKER_LEAD) % 4]).bit_count()
            )
            return Decision(name, "lead the joker, naming our longest suit")
        if not on_contract_side and self.trump >= 0:
            # Lead a suit partner has shown out of, for partner to ruff.
            for s in range(r.players):
                if s == self.mover or not self.friends >> s & 1 or v.sitting_out >> s & 1:
                    continue
                for a in plain:
                    suit = t.suit_of[a]
                    if (
                        suit != self.trump
                        and v.voids[s] >> suit & 1
                        and not v.voids[s] >> self.trump & 1
                    ):
                        return Decision(
                            self.cheapest([b for b in plain if t.suit_of[b] == suit]),
                            "lead the suit partner is void in, for a ruff",
                        )
        side = [a for a in plain if t.suit_of[a] != self.trump] or plain or cards
        if self.trump >= 0 and not on_contract_side:
            # A singleton may give us a ruff later.
            singles = [
                a
                for a in side
                if (hand & t.masks[t.suit_of[a]]).bit_count() == 1 and hand & self.trump_mask
            ]
            if singles:
                return Decision(self.cheapest(singles), "lead a singleton, to ruff the suit later")
        longest = max(side, key=lambda a: (hand & t.masks[t.suit_of[self.card(a)]]).bit_count())
        suit = t.suit_of[self.card(longest)]
        low = self.cheapest([a for a in side if t.suit_of[self.card(a)] == suit])
        return Decision(low, "lead low from the longest suit")

    def lead_misere(self, cards: list[int]) -> Decision:
        v = self.v
        t = self.t
        r = self.r
        plain = [a for a in cards if a < r.JOKER_LEAD] or cards
        contractor_side = bool(v.allies >> self.mover & 1)
        opponents = [
            s for s in range(r.players) if not self.friends >> s & 1 and not v.sitting_out >> s & 1
        ]
        if contractor_side:

            def risk(a: int) -> tuple[int, int]:
                c = self.card(a)
                below = sum((self.could_hold(s, t.lower[c])).bit_count() for s in opponents)
                above = sum((self.could_hold(s, t.higher[c])).bit_count() for s in opponents)
                return (0 if above else 1, below - above)

            best = min(plain, key=risk)
            return Decision(best, "misère: lead the card the opponents can most easily beat")
        contractor = [
            s for s in range(r.players) if v.allies >> s & 1 and not v.sitting_out >> s & 1
        ]

        def pressure(a: int) -> tuple[int, int]:
            c = self.card(a)
            suit = t.suit_of[c]
            open_suit = any(not v.voids[s] >> suit & 1 for s in contractor)
            under = sum(self.could_hold(s, t.lower[c]).bit_count() for s in contractor)
            return (0 if open_suit else 1, under * 100 + t.power[c])

        best = min(plain, key=pressure)
        return Decision(best, "against misère: lead low in a suit the contractor holds")


def _seat_index(view: SeatView, seat: int) -> int:
    """Where ``seat`` played in the current trick."""
    s = view.trick_leader
    for i in range(len(view.trick)):
        if s == seat:
            return i
        s = view.next_seat[s]
    return 0


def _seats_played(view: SeatView) -> list[int]:
    out = []
    s = view.trick_leader
    for _ in view.trick:
        out.append(s)
        s = view.next_seat[s]
    return out
