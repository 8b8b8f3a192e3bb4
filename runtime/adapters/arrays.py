"""The tensors of :mod:`.tensors` as numpy arrays, kept up to date action by action.

The agents' adapters (OpenSpiel, PettingZoo) observe a hand after every action. Rebuilding the
1,046 floats of an observation from a :class:`~fivehundred.runtime.engine.seatview.SeatView` in
Python each time (:func:`.tensors.observation_tensor`, the core's reference path) is most of the
cost of a step, so :class:`HandArrays` keeps one float32 array of the sections every seat sees
alike that only grow during a hand (the bids, the passes, the cards played, the voids shown and
the history of the tricks) and adds only the actions it has not seen yet, read from the hand's
append-only ``calls`` and ``tricks``. An observation is that array copied, plus the sections
that are the seat's own (its cards, the kitty it saw, the partners it knows) and the few small
ones that change in place (the phase, the high bid, the trick on the table, the counts).

The values are those of :mod:`.tensors`, float for float (``tests/test_pettingzoo.py`` compares
both paths after every action of hands of every variant). This module needs numpy, an optional
extra; the core never imports it.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from ..engine.codes import bits
from ..engine.hand import AUCTION, DISCARD, OVER, PARTNER, PLAY, HandState
from ..engine.rules import Rules
from ..engine.seatview import _partners_known
from .tensors import information_state_layout, observation_layout

__all__ = ["HandArrays"]

#: The bits of each byte value, least significant first, as int8 rows (unpacking a byte string
#: by rows of this table is faster than ``np.unpackbits(bitorder="little")``).
_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").view(
    np.int8
)

#: The sections :meth:`HandArrays._own` writes, in the order it unpacks their offsets.
_OWN = (
    "seat",
    "phase",
    "dealer",
    "to_move",
    "hand",
    "high_bid",
    "high_seat",
    "contract",
    "contractor",
    "strain",
    "sans",
    "nominated",
    "allies",
    "sitting_out",
    "called",
    "kitty_seen",
    "discarded",
    "trick",
    "led",
    "faced",
)

#: A numpy float32 array (numpy is an optional extra, so typed loosely).
Array: TypeAlias = Any


class HandArrays:
    """Observation and information-state tensors of one hand as numpy arrays (float32).

    Bound to one :class:`HandState` at a time: given another (the next hand of a match, a
    clone) it starts afresh. Every call returns a new array that the caller may keep. Inside,
    the 0/1 entries are one int, bit ``i`` for entry ``i`` (a hand's cards are a bitmask
    already: a section of cards is that mask shifted to the section's offset), unpacked into
    floats once per call; only the counts (``held``, ``tricks_won``, ``scores``) are written as
    floats.
    """

    __slots__ = (
        "_at",
        "_calls",
        "_cards",
        "_count_at",
        "_count_end",
        "_counted",
        "_counts",
        "_hand",
        "_high",
        "_history",
        "_own_at",
        "_public",
        "_recall",
        "_tricks",
        "info_size",
        "obs_size",
        "rules",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        layout = information_state_layout(rules)
        #: Section offsets by name.
        self._at = {s.name: s.offset for s in layout.sections}
        self.obs_size = observation_layout(rules).size
        self.info_size = layout.size
        at, n = self._at, rules.players
        #: Where the counts go: held and tricks won by seat, then the scores by side, one run
        #: of the layout.
        self._count_at = at["held"]
        self._count_end = at["scores"] + rules.n_sides
        assert at["tricks_won"] == self._count_at + n and at["scores"] == self._count_at + 2 * n
        #: The offsets :meth:`_own` writes at, in its order.
        self._own_at = tuple(at[name] for name in _OWN)
        self._hand: HandState | None = None
        self._public = 0  # the growing sections' bits in the observation
        self._history = 0  # and in the history that follows it in the information state
        self._recall = False  # whether the history is kept: from the first information state
        self._calls = 0  # calls added to them
        self._high = -1  # the ladder index of the high bid after those calls
        self._tricks = 0  # finished tricks added
        self._cards = 0  # cards added of the trick after those
        #: The counts (held, tricks won, scores) as floats, and the phase they were last all
        #: computed in: in the auction they do not change, in the play only a card played
        #: (held) and a trick won change them, so those update them one entry at a time.
        self._counts: Array = np.zeros(self._count_end - self._count_at, np.float32)
        self._counted = -1

    def __deepcopy__(self, memo: dict[int, Any]) -> HandArrays:
        """A fresh tracker (a copied state is another hand object: it would start afresh)."""
        return HandArrays(self.rules)

    def copy_for(self, original: HandState, copy: HandState) -> HandArrays:
        """A tracker for ``copy``, a :meth:`HandState.copy` of ``original``: as far on as this
        one if this one follows ``original``, else a fresh one."""
        if self._hand is not original:
            return HandArrays(self.rules)
        other = HandArrays.__new__(HandArrays)
        other.rules = self.rules
        other._at = self._at
        other.obs_size = self.obs_size
        other.info_size = self.info_size
        other._count_at = self._count_at
        other._count_end = self._count_end
        other._own_at = self._own_at
        other._hand = copy
        other._public = self._public
        other._history = self._history
        other._recall = self._recall
        other._calls = self._calls
        other._high = self._high
        other._tricks = self._tricks
        other._cards = self._cards
        other._counts = self._counts.copy()
        other._counted = self._counted
        return other

    # -- the public, growing sections ---------------------------------------------------------

    def _catch_up(self, hand: HandState) -> int:
        """The bits of the growing sections of the observation, the actions not added yet
        added (to those of the history too, once an information state was asked)."""
        calls, tricks, trick = hand.calls, hand.tricks, hand.trick
        if (
            hand is not self._hand
            or len(calls) < self._calls
            or len(tricks) < self._tricks
            or (len(tricks) == self._tricks and len(trick) < self._cards)
        ):
            self._hand = hand
            self._public = self._history = self._calls = self._tricks = self._cards = 0
            self._high = self._counted = -1
        if self._calls < len(calls):
            r = self.rules
            at = self._at
            n_bids = r.n_bids
            pub = self._public
            for i in range(self._calls, len(calls)):
                s, a = calls[i]
                if a == r.PASS:
                    pub |= 1 << (at["passed"] + s)
                    if self._recall:
                        self._history |= 1 << (at["passed_at"] + s * (n_bids + 1) + self._high + 1)
                elif a == r.REDEAL:
                    pub |= 1 << (at["redeal"] + s)  # no ace, no face
                elif hand.inkles[i]:
                    pub |= 1 << (at["inkles"] + s * n_bids + a - r.BID)
                else:
                    pub |= 1 << (at["bids"] + s * n_bids + a - r.BID)
                    self._high = a - r.BID
            self._public = pub
            self._calls = len(calls)
        playing = self._counted == PLAY
        while self._tricks < len(tricks):
            leader, actions, _ = tricks[self._tricks]
            self._add_cards(hand, self._tricks, leader, actions, playing)
            self._tricks += 1
            self._cards = 0
            if playing:
                n, hs = self.rules.players, self.rules.hand_size
                self._counts[n : 2 * n] = [w / hs for w in hand.tricks_won]
        if len(trick) > self._cards:
            self._add_cards(hand, self._tricks, hand.trick_leader, trick, playing)
            self._cards = len(trick)
        phase = hand.phase
        if phase != self._counted or phase not in (AUCTION, PLAY):
            r = self.rules
            hs = r.hand_size
            self._counts[:] = (
                [h.bit_count() / hs for h in hand.hands]
                + [w / hs for w in hand.tricks_won]
                + [v / r.target for v in hand.scores]
            )
            self._counted = phase
        return self._public

    def _add_cards(
        self,
        hand: HandState,
        k: int,
        leader: int,
        actions: list[int] | tuple[int, ...],
        playing: bool,
    ) -> None:
        """Add the cards of trick ``k`` from the ``self._cards``-th on (``playing``: and the
        cards their seats now hold to the counts)."""
        r = self.rules
        at = self._at
        pub = self._public
        past = self._history
        recall = self._recall
        n, c = r.players, r.n_cards
        jl = r.JOKER_LEAD
        suit_of = hand.suit_of
        nxt = hand.next_seat
        first = actions[0]
        led = suit_of[first] if first < jl else (first - jl) % 4
        s = leader
        for i, a in enumerate(actions):
            if i >= self._cards:
                card = a if a < jl else r.joker_cards[(a - jl) // 4]
                pub |= 1 << (at["played"] + s * c + card)
                if playing:
                    self._counts[s] = hand.hands[s].bit_count() / r.hand_size
                if recall:
                    past |= 1 << (at["trick_cards"] + (k * n + s) * c + card)
                    if i == 0:
                        past |= 1 << (at["trick_leader"] + k * n + leader)
                        if a >= jl:
                            past |= 1 << (at["joker_named"] + 4 * k + led)
                if i and suit_of[card] != led and led < 4:
                    pub |= 1 << (at["voids"] + 4 * s + led)
            s = nxt[s]
        self._public = pub
        self._history = past

    # -- what a seat sees ---------------------------------------------------------------------

    def observation(self, hand: HandState, seat: int, out: Array | None = None) -> Array:
        """:func:`.tensors.observation_tensor` of ``hand`` for ``seat``, as a new array (or
        written into ``out``, a float32 array of that size, and returned)."""
        on = self._catch_up(hand) | self._own(hand, seat)
        return self._floats(self._unpack(on, self.obs_size), self.obs_size, out)

    def observation_and_mask(self, hand: HandState, seat: int, legal: int) -> tuple[Array, Array]:
        """:meth:`observation` and, from the same unpacking, the action bitmask ``legal`` as
        an int8 array of 0 and 1, one per action id (both new arrays)."""
        size = self.obs_size
        on = self._catch_up(hand) | self._own(hand, seat) | legal << size
        raw = self._unpack(on, size + self.rules.n_actions)
        return self._floats(raw, size), raw[size : size + self.rules.n_actions]

    def information_state(self, hand: HandState, seat: int, out: Array | None = None) -> Array:
        """:func:`.tensors.information_state_tensor` of ``hand`` for ``seat``, a new array (or
        written into ``out``, a float32 array of that size, and returned)."""
        if not self._recall:  # the history from now on: added from the start of the hand
            self._recall = True
            self._hand = None
        on = self._catch_up(hand) | self._own(hand, seat) | self._history
        on |= hand.dealt[0][seat] << self._at["dealt"]
        return self._floats(self._unpack(on, self.info_size), self.info_size, out)

    @staticmethod
    def _unpack(on: int, size: int) -> Array:
        """The low ``size`` bits of ``on`` as an int8 array of 0 and 1 (a new one)."""
        n = (size + 7) >> 3
        return _BITS.take(np.frombuffer(on.to_bytes(n, "little"), np.uint8), 0).reshape(-1)

    def _floats(self, bits01: Array, size: int, out: Array | None = None) -> Array:
        """The first ``size`` entries of ``bits01`` as float32 (a new array, or ``out``), the
        counts written in."""
        if out is None:
            out = bits01[:size].astype(np.float32)
        else:
            out[:] = bits01[:size]
        out[self._count_at : self._count_end] = self._counts
        return out

    def _own(self, hand: HandState, seat: int) -> int:
        """The bits of the sections that are the seat's own or change in place."""
        r = self.rules
        c = r.n_cards
        (
            at_seat,
            at_phase,
            at_dealer,
            at_to_move,
            at_hand,
            at_high_bid,
            at_high_seat,
            at_contract,
            at_contractor,
            at_strain,
            at_sans,
            at_nominated,
            at_allies,
            at_sitting_out,
            at_called,
            at_kitty_seen,
            at_discarded,
            at_trick,
            at_led,
            at_faced,
        ) = self._own_at
        phase = hand.phase
        on = 1 << (at_seat + seat) | 1 << (at_phase + phase) | 1 << (at_dealer + hand.dealer)
        if phase != OVER:
            on |= 1 << (at_to_move + hand.to_move)
        on |= hand.hands[seat] << at_hand
        if hand.high >= 0:
            on |= 1 << (at_high_bid + hand.high) | 1 << (at_high_seat + hand.high_seat)
        contract = hand.contract
        if contract >= 0:
            on |= (
                1 << (at_contract + contract)
                | 1 << (at_contractor + hand.contractor)
                | 1 << (at_strain + r.bid_strain[contract])
                | _partners_known(hand, seat) << at_allies
            )
        elif phase in (PLAY, OVER):  # all passed, played at no trumps
            on |= 1 << (at_strain + hand.strain)
        if hand.sans:
            on |= 1 << at_sans
        if hand.nominated >= 0:
            on |= 1 << (at_nominated + hand.nominated)
        if hand.sitting_out:
            on |= hand.sitting_out << at_sitting_out
        if hand.called_cards:
            on |= hand.called_cards << at_called
        if seat == hand.contractor:
            if (
                phase in (DISCARD, PLAY, OVER, PARTNER)
                and r.kitty_take
                and r.discard_count
                and not hand.sans
            ):
                on |= hand.kitty << at_kitty_seen
            on |= hand.discarded << at_discarded
        trick = hand.trick
        if trick:
            s = hand.trick_leader
            jl = r.JOKER_LEAD
            nxt = hand.next_seat
            for a in trick:
                on |= 1 << (at_trick + s * c + (a if a < jl else r.joker_cards[(a - jl) // 4]))
                s = nxt[s]
            if 0 <= hand.led < 4:
                on |= 1 << (at_led + hand.led)
        if contract >= 0 and phase in (PLAY, OVER):
            bid_open = r.bid_open[contract]
            t = hand.contractor
            if t != seat and (
                bid_open == "from-start" or (bid_open == "after-first-trick" and hand.n_tricks)
            ):
                on |= hand.hands[t] << (at_faced + t * c)
            if r.bid_partner[contract] == "both-hands":
                for t in bits(hand.allies):
                    if t != hand.contractor and t != seat:
                        on |= hand.hands[t] << (at_faced + t * c)
        return on
