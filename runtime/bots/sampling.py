"""Deals of the cards one seat has not seen, consistent with everything that seat saw.

A :class:`Sampler` is built once per decision from the seat's :class:`~fivehundred.runtime.
engine.seatview.SeatView` and draws full :class:`~fivehundred.runtime.engine.hand.HandState`
copies to search in. Hard constraints, always kept:

- the seat's own cards, the cards played (by whoever played them), the hands laid face up (an
  open misère), the kitty and discard the seat saw as contractor stay where they are;
- a seat that failed to follow a suit is dealt none of it (its effective suit: a left bower
  follows trumps); hand sizes are kept, and what is left goes to the kitty / dead hand;
- the contractor holds no card he called (he calls one he does not hold), and holds a joker
  when he nominated its suit before the lead (unless he has played one).

Soft constraints, from the auction, by rejection: a deal is kept with probability
``exp(-weight * misfit)``, where the misfit adds up, in tricks of the heuristic's hand
evaluation (:func:`~fivehundred.runtime.bots.heuristic.hand_tricks`), how far each seat's cards
(the ones it holds in the deal and the ones it played) fall short of its highest bid, and how far
a seat that passed holds more than the lowest bid it passed over asks. After ``tries`` rejected
deals the one that fitted best is kept, so a draw never fails.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from random import Random

from ..engine.codes import SUITLESS, bits
from ..engine.hand import OVER, PARTNER, PLAY, HandState
from ..engine.seatview import SeatView, played_by
from .heuristic import allowance, hand_tricks

__all__ = ["Sampler"]

#: How strongly a misfit (in tricks) rejects a deal.
WEIGHT = 1.0
#: Deals drawn at most for one sample before the best fitting one is kept.
TRIES = 8
#: Tricks a seat that passed may hold above the lowest bid it passed over before it misfits
#: (a pass says less than a bid: hands are passed for many reasons).
PASS_SLACK = 1.5


class Sampler:
    """Draws deals of ``view.seat``'s unseen cards consistent with its view (module doc)."""

    __slots__ = (
        "_bids",
        "_discarded_publicly",
        "_need",
        "_passes",
        "_played",
        "_plays",
        "_policy",
        "_slip",
        "_state",
        "_tries",
        "_unseen",
        "_weight",
        "drawn",
        "view",
    )

    def __init__(
        self,
        state: HandState,
        view: SeatView,
        *,
        bids: bool = True,
        weight: float = WEIGHT,
        tries: int = TRIES,
        policy: Callable[[HandState], int] | None = None,
        slip: float = 0.2,
    ) -> None:
        r = view.rules
        self._state = state
        self.view = view
        self._weight = weight
        self._tries = max(1, tries)
        #: Deals drawn in all (accepted or not), for measuring.
        self.drawn = 0
        self._unseen = bits(view.unseen)
        self._played = [played_by(view, t) for t in range(r.players)]
        # What the contract's making showed of the contractor's hand: he called a card he did
        # not hold (seats.partner), and he held a joker when he nominated its suit
        # (joker.no-trumps.nominate).
        refused = 0
        wanted = 0
        if state.contract >= 0:
            refused = state.called_cards
            if state.nominated >= 0 and not self._played[state.contractor] & r.joker_mask:
                wanted = r.joker_mask & sum(1 << c for c in self._unseen)
        # (seat, cards it holds, cards it cannot hold, cards of which it holds one)
        need: list[tuple[int, int, int, int]] = []
        for t in range(r.players):
            if t == view.seat or view.faced[t]:
                continue
            forbid = 0
            for e in bits(view.voids[t]):
                forbid |= view.masks[e]
            must = 0
            if t == state.contractor:
                forbid |= refused
                must = wanted & ~forbid
            need.append((t, view.held[t], forbid, must))
        need.sort(key=lambda x: (not x[3], -x[2].bit_count()))  # the most constrained first
        self._need = need
        self._discarded_publicly = (
            state.contract >= 0
            and state.phase in (PLAY, OVER, PARTNER)
            and r.kitty_take
            and bool(r.discard_count)
            and not state.sans
        )
        self._bids, self._passes = _auction_shows(view) if bids else ([], [])
        self._policy = policy
        self._slip = -math.log(slip)
        self._plays: list[tuple[int, int, bool]] = []
        if policy is not None and state.phase == PLAY and (state.n_tricks or state.trick):
            self._plays = _plays_of(state, view)

    @property
    def weight(self) -> float:
        """How strongly a misfit of one trick rejects a deal (``exp(-weight * misfit)``)."""
        return self._weight

    def misfit(self, world: HandState) -> float:
        """How far the hidden hands of ``world`` are from what the auction showed, in tricks."""
        return self.misfit_of(tuple(world.hands))

    def misfit_of(self, hands: tuple[int, ...]) -> float:
        """:meth:`misfit` of a deal given by its hands, by seat."""
        r = self.view.rules
        gap = 0.0
        for seat, strain, need in self._bids:
            got = hand_tricks(r, hands[seat] | self._played[seat], strain)
            if got < need:
                gap += need - got
        masks = r.masks
        for seat, most in self._passes:
            held = hands[seat] | self._played[seat]
            # Its longest suit as trumps (or no trumps), what the hand evaluation bids on.
            longest = max(range(4), key=lambda s: (held & masks[s][s]).bit_count())
            got = max(hand_tricks(r, held, longest), hand_tricks(r, held, 4))
            if got > most:
                gap += got - most
        return gap

    def slips(self, world: HandState, limit: float = math.inf) -> int:
        """How many of the other seats' plays so far the policy would not have made in
        ``world`` (an equivalent card counts as the same play); stops counting past ``limit``."""
        w = _start_of_play(world, self._state, self._played)
        policy = self._policy
        assert policy is not None
        out = 0
        for seat, action, check in self._plays:
            if check:
                chosen = policy(w)
                if chosen != action and not _equivalent(w, seat, chosen, action):
                    out += 1
                    if out > limit:
                        return out
            w.apply_fast(action)
        return out

    def draw(self, rng: Random) -> HandState:
        """One deal: consistent with the view, kept by how well it fits the auction (and, with
        a policy, the plays so far)."""
        if self._plays:
            return self._draw_by_plays(rng)
        if not self._bids and not self._passes:
            return self._deal(rng)
        best: HandState | None = None
        best_gap = math.inf
        for _ in range(self._tries):
            world = self._deal(rng)
            gap = self.misfit(world)
            if gap <= 0 or rng.random() < math.exp(-self._weight * gap):
                return world
            if gap < best_gap:
                best, best_gap = world, gap
        assert best is not None
        return best

    def _draw_by_plays(self, rng: Random) -> HandState:
        """:meth:`draw` weighing the plays too: a deal is kept with probability
        ``exp(-weight * misfit) * slip ** slips``."""
        best: HandState | None = None
        best_gap = math.inf
        for _ in range(self._tries):
            world = self._deal(rng)
            gap = self._weight * self.misfit(world)
            u = -math.log(1.0 - rng.random())  # kept when the penalty is at most u
            bound = max(u, best_gap)
            if gap > bound:
                continue
            if bound < math.inf:
                gap += self._slip * self.slips(world, (bound - gap) / self._slip)
            else:
                gap += self._slip * self.slips(world)
            if gap <= u:
                return world
            if gap < best_gap:
                best, best_gap = world, gap
        if best is None:
            return self._deal(rng)
        return best

    def _deal(self, rng: Random) -> HandState:
        """A deal keeping every hard constraint (where the voids allow one: after 20 tries
        the voids give way, never the cards seen)."""
        self.drawn += 1
        view = self.view
        state = self._state
        r = view.rules
        deal: list[tuple[int, int]] = []
        for _ in range(20):
            pool = self._unseen[:]
            rng.shuffle(pool)
            deal = []
            for t, count, forbid, must in self._need:
                mask = 0
                got = 0
                if must and count:
                    # the first card of ``must`` in the shuffled pool: a uniform choice
                    c = next(c for c in pool if must >> c & 1)
                    pool.remove(c)
                    mask = 1 << c
                    got = 1
                rest = []
                for c in pool:
                    if got < count and not forbid >> c & 1:
                        mask |= 1 << c
                        got += 1
                    else:
                        rest.append(c)
                if got < count:
                    break
                deal.append((t, mask))
                pool = rest
            else:
                break
        else:
            pool = self._unseen[:]
            rng.shuffle(pool)
            deal = []
            for t, count, _, must in self._need:
                if must and count:
                    c = next(c for c in pool if must >> c & 1)
                    pool.remove(c)
                    pool.insert(0, c)
                deal.append((t, sum(1 << c for c in pool[:count])))
                pool = pool[count:]
        world = state.copy()
        for t, mask in deal:
            world.hands[t] = mask
        rest = pool
        if view.kitty_seen:
            world.kitty = view.kitty_seen
            world.discarded = view.discarded
            world.dead = sum(1 << c for c in rest)
        elif self._discarded_publicly:
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
            for t in range(r.players):
                if (world.hands[t] | self._played[t]) & state.called_cards:
                    allies |= 1 << t
            world.allies = allies | view.allies
        return world


def _auction_shows(
    view: SeatView,
) -> tuple[list[tuple[int, int, float]], list[tuple[int, float]]]:
    """What the auction says of the hidden hands.

    Bids: (seat, strain, tricks its cards should be worth): a seat that bid a strain (an inkle
    too) should hold about what the heuristic would have needed for its highest bid there,
    less what it counted on from partners and the kitty. Passes: (seat, the most its best strain
    should be worth): a seat that passed at its first call, over a lowest bid of level L, should
    hold no more than L less the allowance, plus :data:`PASS_SLACK`.
    """
    r = view.rules
    low = min(
        (lv for lv, kind in zip(r.bid_level, r.bid_kind, strict=True) if kind == "suit"),
        default=0,
    )
    best: dict[int, tuple[int, int]] = {}
    first_call: dict[int, int] = {}
    high = -1
    for seat, a in view.calls:
        if seat not in first_call:
            first_call[seat] = high
        if a <= r.PASS:
            continue
        i = a - r.BID
        if r.bid_kind[i] == "suit" and (seat not in best or r.bid_level[i] > best[seat][1]):
            best[seat] = (r.bid_strain[i], r.bid_level[i])
        high = max(high, i)
    bids: list[tuple[int, int, float]] = []
    for seat, (strain, level) in best.items():
        if seat == view.seat or view.faced[seat]:
            continue
        bids.append((seat, strain, level - allowance(r, level) - 1.0))
    passes: list[tuple[int, float]] = []
    for seat, a in view.calls:
        if seat == view.seat or view.faced[seat] or seat in best or a != r.PASS:
            continue
        if first_call.get(seat, 0) >= 0 or any(s == seat for s, _ in passes):
            continue  # only a pass over no bid at all says the hand was weak
        passes.append((seat, low - allowance(r, low) + PASS_SLACK))
    return bids, passes


def _plays_of(state: HandState, view: SeatView) -> list[tuple[int, int, bool]]:
    """The plays of the hand so far as ``(seat, action, check)``, ``check`` for the plays of a
    seat whose hand ``view.seat`` cannot see (a nomination of the joker's suit first)."""
    r = state.rules
    out: list[tuple[int, int, bool]] = []
    tricks = [*state.tricks, (state.trick_leader, tuple(state.trick), -1)]
    if state.nominated >= 0:
        out.append((state.contractor, r.NOMINATE + state.nominated, False))
    for leader, actions, _ in tricks:
        s = leader
        for a in actions:
            out.append((s, a, s != view.seat and not view.faced[s]))
            s = state.next_seat[s]
    return out


def _start_of_play(world: HandState, state: HandState, played: list[int]) -> HandState:
    """``world`` taken back to the opening lead: every card played returned to its hand."""
    r = state.rules
    w = world.copy()
    for t in range(r.players):
        w.hands[t] |= played[t]
    strain = state.strain
    w.trick = []
    w.tricks = []
    w.tricks_won = [0] * r.players
    w.n_tricks = 0
    w.suits_led = 0
    w.led = -1
    w.best_key = -1
    w.best_seat = -1
    w.nominated = -1
    w.suit_of = r.suit_of[strain]
    w.power = r.misere_power if state.misere else r.power[strain]
    w.masks = r.masks[strain]
    w.phase = PLAY
    w.result = None
    leader = state.tricks[0][0] if state.tricks else state.trick_leader
    w.to_move = w.trick_leader = leader
    return w


def _equivalent(w: HandState, seat: int, a: int, b: int) -> bool:
    """Whether cards ``a`` and ``b`` are the same play for ``seat`` in ``w``: of one effective
    suit, with no card of another seat between them."""
    r = w.rules
    if a >= r.JOKER_LEAD or b >= r.JOKER_LEAD:
        return False
    suit = w.suit_of[a]
    if suit != w.suit_of[b] or suit == SUITLESS:
        return False
    lo, hi = sorted((w.power[a], w.power[b]))
    others = 0
    for t, h in enumerate(w.hands):
        if t != seat:
            others |= h
    power = w.power
    return not any(lo < power[c] < hi for c in bits(others & w.masks[suit]))
