"""What one seat may know of a hand: :class:`SeatView`, and hidden deals consistent with it.

A fair bot decides from a :class:`SeatView` only: its own cards, the calls, the cards played
and by whom, the hands laid face up, the kitty cards it saw as contractor, the partners it has
been told of, and what follows from those (suits a seat has shown out of, cards still unseen).
Nothing in a view depends on another seat's unplayed cards, the kitty it never saw or a
partner it has not been told of: :func:`view_of` copies only public fields and the seat's
own, so a bot built on it cannot cheat by accident.

:func:`sample_world` deals the unseen cards at random to the seats (and the kitty / dead hand)
in a way consistent with the view, giving a full :class:`HandState` to search in.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from .codes import NT, bits
from .hand import DISCARD, OVER, PARTNER, PLAY, HandState
from .rules import Rules

__all__ = [
    "SeatView",
    "played_by",
    "played_by_tables",
    "sample_world",
    "sorted_cards",
    "view_of",
]


@dataclass(slots=True)
class SeatView:
    """What ``seat`` knows of a hand when it is to decide. Cards are bitmasks of card indexes.

    A snapshot: read it, never change it (it is not frozen only because building frozen
    dataclasses is slow, and search builds one per decision of every playout).
    """

    rules: Rules
    seat: int
    phase: int
    dealer: int
    scores: tuple[int, ...]
    #: The seat's own cards (after taking the kitty, the kitty's cards too).
    hand: int
    #: The auction so far: (seat, action) and whether each call was an inkle.
    calls: tuple[tuple[int, int], ...]
    inkles: tuple[bool, ...]
    high: int
    high_seat: int
    contract: int
    contractor: int
    strain: int
    misere: bool
    sans: bool
    nominated: int
    #: The contractor's side as this seat knows it (the contractor and every partner it knows).
    allies: int
    #: How many partners the contractor has in all this hand (known or not).
    n_partners: int
    called_cards: int
    #: Cards played so far, the current trick included.
    played: int
    trick: tuple[int, ...]
    trick_leader: int
    led: int
    best_key: int
    best_seat: int
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    n_tricks: int
    suits_led: int
    tricks_won: tuple[int, ...]
    suit_of: tuple[int, ...]
    power: tuple[int, ...]
    masks: tuple[int, ...]
    trumpish: int
    sitting_out: int
    next_seat: tuple[int, ...]
    n_active: int
    #: Hands laid face up (open misère, a misère played with both hands), by seat.
    faced: tuple[int, ...]
    #: Effective suits (0-3, 4 = suitless jokers) each seat has shown out of, by seat.
    voids: tuple[int, ...]
    #: Cards each seat still holds, by seat.
    held: tuple[int, ...]
    #: The cards the seat put away from the kitty (contractor only), else 0.
    discarded: int
    #: The kitty's cards, known to the contractor who took it, else 0.
    kitty_seen: int

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: in other hands, the kitty or the dead hand."""
        r = self.rules
        known = self.hand | self.played | self.discarded | self.kitty_seen
        for mask in self.faced:
            known |= mask
        return ((1 << r.n_cards) - 1) & ~known

    def card_of(self, action: int) -> int:
        """The card an action of the play phase puts down (a joker lead names a suit too)."""
        r = self.rules
        if action < r.JOKER_LEAD:
            return action
        return r.joker_cards[(action - r.JOKER_LEAD) // 4]


def played_by_tables(view: SeatView) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The effective suit and the power of every card as ``view``'s hand will be played: the
    view's own once the play has begun (a nominated joker in its suit); between the auction and
    the play (the kitty, the discard, the partner), when the hand still holds the no-trump
    tables of the auction, those of the contract's strain."""
    r = view.rules
    if view.contract < 0 or view.phase in (PLAY, OVER):
        return view.suit_of, view.power
    strain = r.bid_strain[view.contract]
    misere = r.bid_kind[view.contract] == "misere"
    return r.suit_of[strain], r.misere_power if misere else r.power[strain]


def sorted_cards(view: SeatView, mask: int) -> list[int]:
    """The cards of ``mask`` as a player holds them: trumps first as one group (the jokers and
    bowers in it, in their order), then the other suits alternating in colour where they can,
    each high to low by the power of the contract's strain (:func:`played_by_tables`). Without
    a trump suit (before the contract, at no trumps, in a misère) the jokers come first, unless
    one was nominated to a suit, where it stands in that suit. The browser table and ``play``
    show a hand this way."""
    r = view.rules
    strain = r.bid_strain[view.contract] if view.contract >= 0 else NT
    trump = strain if strain < NT else -1
    suit_of, power = played_by_tables(view)
    order = [trump] if trump >= 0 else [4]
    order += [s for s in (0, 3, 1, 2) if s != trump]  # spades, hearts, clubs, diamonds
    if trump >= 0:
        order.append(4)
    rank = {s: i for i, s in enumerate(order)}
    return sorted(bits(mask), key=lambda c: (rank[suit_of[c]], -power[c], c))


def _partners_known(state: HandState, seat: int) -> int:
    """The contractor's side as ``seat`` knows it, as a seat bitmask: the engine's
    :meth:`HandState.known_partners` with the contractor; fixed partnerships are public."""
    if state.contract < 0:
        return 0
    if state.rules.partner_call == "none":
        return state.allies
    known = 1 << state.contractor
    for s in state.known_partners(seat):
        known |= 1 << s
    return known


def _n_partners(state: HandState) -> int:
    r = state.rules
    if state.contract < 0:
        return 0
    if r.partner_call == "card":
        return state.called_cards.bit_count()  # a called card may lie in the discards: no matter
    return state.allies.bit_count() - 1


#: The finished tricks of the hand last viewed and what they showed: (rules, ``suit_of``,
#: ``next_seat``, the trick tuples themselves (the engine never changes one), the same as a
#: tuple (the view's ``tricks``), the cards played in them, the effective suits each seat
#: showed out of). A bot asks for a view at every decision of a hand, a trick more each time,
#: so only the tricks finished since the last view are read: the earlier ones are checked to be
#: equal (the same objects, as a rule), never assumed. Replaced whole, never changed, so
#: threads sharing it read one hand's facts or another's, never a mixture.
_Folded = tuple[
    Rules | None,
    tuple[int, ...],
    tuple[int, ...],
    list[tuple[int, tuple[int, ...], int]],
    tuple[tuple[int, tuple[int, ...], int], ...],
    int,
    tuple[int, ...],
]
_FOLDED: _Folded = (None, (), (), [], (), 0, ())


#: By number of players: a zero for each seat (no hand laid face up, no suit shown out of).
_ZEROS = tuple((0,) * n for n in range(16))


def _fold_tricks(
    state: HandState,
) -> tuple[int, tuple[int, ...], tuple[tuple[int, tuple[int, ...], int], ...]]:
    """The cards played in the finished tricks of ``state``, the effective suits each seat
    showed out of in them and the tricks as a tuple, reading only the tricks finished since
    the last call on the same hand (:data:`_FOLDED`)."""
    global _FOLDED
    r = state.rules
    tricks = state.tricks
    if not tricks:
        # before the first trick is done: nothing to read or keep
        n = r.players
        return 0, _ZEROS[n] if n < 16 else (0,) * n, ()
    suit_of = state.suit_of
    nxt = state.next_seat
    f_rules, f_suit_of, f_next, f_tricks, f_tuple, f_played, f_voids = _FOLDED
    done = len(f_tricks)
    if (
        f_rules is r
        and f_suit_of is suit_of
        and f_next == nxt
        and done <= len(tricks)
        and tricks[:done] == f_tricks
    ):
        if done == len(tricks):
            return f_played, f_voids, f_tuple
        played = f_played
        voids = list(f_voids)
    else:
        done = 0
        played = 0
        voids = [0] * r.players
    jl = r.JOKER_LEAD
    jokers = r.joker_cards
    # Only a lead can be a joker naming its suit; every other play is a card index.
    for k in range(done, len(tricks)):
        leader, actions, _ = tricks[k]
        a = actions[0]
        if a < jl:
            played |= 1 << a
            led = suit_of[a]
        else:
            played |= 1 << jokers[(a - jl) // 4]
            led = (a - jl) % 4
        s = leader
        for c in actions[1:]:
            s = nxt[s]
            played |= 1 << c
            if suit_of[c] != led:
                voids[s] |= 1 << led
    as_tuple = tuple(tricks)
    shown = tuple(voids)
    _FOLDED = (r, suit_of, nxt, tricks[:], as_tuple, played, shown)
    return played, shown, as_tuple


def view_of(state: HandState, seat: int) -> SeatView:
    """What ``seat`` knows of ``state`` now (see the module docstring)."""
    r = state.rules
    n = r.players
    played, voids, tricks = _fold_tricks(state)
    trick = state.trick
    if trick:
        suit_of = state.suit_of
        jl = r.JOKER_LEAD
        nxt = state.next_seat
        a = trick[0]
        played |= 1 << (a if a < jl else r.joker_cards[(a - jl) // 4])
        led = state.led
        s = state.trick_leader
        shown: list[int] | None = None  # the voids, copied when this trick shows one
        for c in trick[1:]:
            s = nxt[s]
            played |= 1 << c
            if suit_of[c] != led:
                if shown is None:
                    shown = list(voids)
                shown[s] |= 1 << led
        if shown is not None:
            voids = tuple(shown)
    hands = state.hands
    held_count = tuple(map(int.bit_count, hands))  # how many, never which: public
    faced: tuple[int, ...] = _ZEROS[n] if n < 16 else (0,) * n
    contract = state.contract
    phase = state.phase
    contractor = state.contractor
    if contract < 0:
        allies = n_partners = 0  # _partners_known and _n_partners, before the contract
    else:
        if phase in (PLAY, OVER):
            bid_open = r.bid_open[contract]
            opened = bid_open == "from-start" or (
                bid_open == "after-first-trick" and state.n_tricks
            )
            both = r.bid_partner[contract] == "both-hands"
            if opened or both:
                laid = [0] * n
                if opened:
                    laid[contractor] = hands[contractor]
                if both:
                    for t in bits(state.allies):
                        if t != contractor:
                            laid[t] = hands[t]
                laid[seat] = 0
                faced = tuple(laid)
        partner_call = r.partner_call
        if partner_call == "none":
            allies = state.allies
            n_partners = allies.bit_count() - 1  # _n_partners, written out
        else:
            allies = _partners_known(state, seat)
            n_partners = _n_partners(state)
    contractor_saw = (
        seat == contractor
        and phase in (DISCARD, PLAY, OVER, PARTNER)
        and r.kitty_take
        and bool(r.discard_count)
        and not state.sans
    )
    # Positional, in the order of the fields (named in the comments): a call of 41 keywords
    # costs four times as long, and search builds a view at every decision of a playout.
    return SeatView(
        r,  # rules
        seat,  # seat
        phase,  # phase
        state.dealer,  # dealer
        tuple(state.scores),  # scores
        hands[seat],  # hand
        tuple(state.calls),  # calls
        tuple(state.inkles),  # inkles
        state.high,  # high
        state.high_seat,  # high_seat
        contract,  # contract
        contractor,  # contractor
        state.strain,  # strain
        state.misere,  # misere
        state.sans,  # sans
        state.nominated,  # nominated
        allies,  # allies
        n_partners,  # n_partners
        state.called_cards,  # called_cards
        played,  # played
        tuple(trick),  # trick
        state.trick_leader,  # trick_leader
        state.led,  # led
        state.best_key,  # best_key
        state.best_seat,  # best_seat
        tricks,  # tricks
        state.n_tricks,  # n_tricks
        state.suits_led,  # suits_led
        tuple(state.tricks_won),  # tricks_won
        state.suit_of,  # suit_of
        state.power,  # power
        state.masks,  # masks
        state.trumpish,  # trumpish
        state.sitting_out,  # sitting_out
        state.next_seat,  # next_seat
        state.n_active,  # n_active
        faced,  # faced
        voids,  # voids
        held_count,  # held
        state.discarded if seat == contractor else 0,  # discarded
        state.kitty if contractor_saw else 0,  # kitty_seen
    )


def sample_world(state: HandState, view: SeatView, rng: Random, tries: int = 20) -> HandState:
    """A copy of ``state`` whose hidden cards are dealt afresh, consistently with ``view``.

    Every card ``view.seat`` has not seen goes to a seat that may still hold it (never to a seat
    that has shown out of its suit, where that can be helped) or to the kitty / dead hand; hand
    sizes are kept. A partner found by a called card is whoever holds it in the new deal. The
    result depends on ``view`` and ``rng`` only, never on the hidden cards of ``state``.
    """
    r = state.rules
    n = r.players
    seat = view.seat
    world = state.copy()
    unseen = bits(view.unseen)
    # Seats whose cards are hidden from this seat, with how many they hold.
    need: list[tuple[int, int, int]] = []  # (seat, count, forbidden card mask)
    for t in range(n):
        if t == seat or view.faced[t]:
            continue
        forbid = 0
        for e in bits(view.voids[t]):
            forbid |= view.masks[e]
        need.append((t, view.held[t], forbid))
    deal: dict[int, int] = {}
    for _ in range(tries):
        pool = list(unseen)
        rng.shuffle(pool)
        deal = {}
        ok = True
        # The most constrained seats choose first.
        for t, count, forbid in sorted(need, key=lambda x: -(x[2].bit_count())):
            mask = 0
            rest = []
            for c in pool:
                if mask.bit_count() < count and not forbid >> c & 1:
                    mask |= 1 << c
                else:
                    rest.append(c)
            if mask.bit_count() < count:
                ok = False
                break
            deal[t] = mask
            pool = rest
        if ok:
            break
    else:
        pool = list(unseen)
        rng.shuffle(pool)
        deal = {}
        for t, count, _ in need:
            deal[t] = sum(1 << c for c in pool[:count])
            pool = pool[count:]
    given = 0
    for t, mask in deal.items():
        world.hands[t] = mask
        given |= mask
    # What is left lies in the kitty (or the contractor's discards) and the dead hand.
    rest = bits(view.unseen & ~given)
    rng.shuffle(rest)
    discarded_publicly = (
        state.contract >= 0
        and state.phase in (PLAY, OVER, PARTNER)
        and r.kitty_take
        and bool(r.discard_count)
        and not state.sans
    )
    if view.kitty_seen:
        world.kitty = view.kitty_seen
        world.discarded = view.discarded
        world.dead = sum(1 << c for c in rest)
    elif discarded_publicly:
        world.discarded = sum(1 << c for c in rest[: r.discard_count])
        world.kitty = world.discarded
        world.dead = sum(1 << c for c in rest[r.discard_count :])
    else:
        world.kitty = sum(1 << c for c in rest[: r.kitty])
        world.discarded = 0
        world.dead = sum(1 << c for c in rest[r.kitty :])
    world.dealt = (tuple(world.hands), world.kitty, world.dead)
    if r.partner_call == "card" and state.contract >= 0 and not view.misere:
        allies = 1 << state.contractor
        for t in range(n):
            if (world.hands[t] | played_by(view, t)) & state.called_cards:
                allies |= 1 << t
        world.allies = allies | view.allies
    return world


def played_by(view: SeatView, seat: int) -> int:
    """The cards ``seat`` has played this hand."""
    r = view.rules
    out = 0
    tricks = [*view.tricks, (view.trick_leader, view.trick, -1)]
    for leader, actions, _ in tricks:
        s = leader
        for a in actions:
            if s == seat:
                out |= 1 << (a if a < r.JOKER_LEAD else r.joker_cards[(a - r.JOKER_LEAD) // 4])
            s = view.next_seat[s]
    return out
