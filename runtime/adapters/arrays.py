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

from typing import Any

import numpy as np

from ..engine.codes import bits
from ..engine.hand import DISCARD, OVER, PARTNER, PLAY, HandState
from ..engine.rules import Rules
from ..engine.seatview import _partners_known
from .tensors import information_state_layout, observation_layout

__all__ = ["HandArrays"]

Array = np.ndarray[Any, np.dtype[np.float32]]


class HandArrays:
    """Observation and information-state tensors of one hand as numpy arrays (float32).

    Bound to one :class:`HandState` at a time: given another (the next hand of a match, a
    clone) it starts afresh. Every call returns a new array that the caller may keep.
    """

    __slots__ = (
        "_at",
        "_calls",
        "_cards",
        "_hand",
        "_high",
        "_public",
        "_tricks",
        "obs_size",
        "rules",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        layout = information_state_layout(rules)
        #: Section offsets by name.
        self._at = {s.name: s.offset for s in layout.sections}
        self.obs_size = observation_layout(rules).size
        self._public: Array = np.zeros(layout.size, np.float32)
        self._hand: HandState | None = None
        self._calls = 0  # calls added to the public array
        self._high = -1  # the ladder index of the high bid after those calls
        self._tricks = 0  # finished tricks added
        self._cards = 0  # cards added of the trick after those

    def __deepcopy__(self, memo: dict[int, Any]) -> HandArrays:
        """A fresh tracker (a copied state is another hand object: it would start afresh)."""
        return HandArrays(self.rules)

    # -- the public, growing sections ---------------------------------------------------------

    def _reset(self, hand: HandState) -> None:
        self._public.fill(0.0)
        self._hand = hand
        self._calls = 0
        self._high = -1
        self._tricks = 0
        self._cards = 0

    def _catch_up(self, hand: HandState) -> None:
        if (
            hand is not self._hand
            or len(hand.calls) < self._calls
            or len(hand.tricks) < self._tricks
            or (len(hand.tricks) == self._tricks and len(hand.trick) < self._cards)
        ):
            self._reset(hand)
        r = self.rules
        at = self._at
        pub = self._public
        n_bids = r.n_bids
        calls = hand.calls
        for i in range(self._calls, len(calls)):
            s, a = calls[i]
            if a == r.PASS:
                pub[at["passed"] + s] = 1.0
                pub[at["passed_at"] + s * (n_bids + 1) + self._high + 1] = 1.0
            elif hand.inkles[i]:
                pub[at["inkles"] + s * n_bids + a - r.BID] = 1.0
            else:
                pub[at["bids"] + s * n_bids + a - r.BID] = 1.0
                self._high = a - r.BID
        self._calls = len(calls)
        while self._tricks < len(hand.tricks):
            leader, actions, _ = hand.tricks[self._tricks]
            self._add_cards(hand, self._tricks, leader, actions)
            self._tricks += 1
            self._cards = 0
        if hand.trick:
            self._add_cards(hand, self._tricks, hand.trick_leader, hand.trick)
            self._cards = len(hand.trick)

    def _add_cards(
        self, hand: HandState, k: int, leader: int, actions: list[int] | tuple[int, ...]
    ) -> None:
        """Add the cards of trick ``k`` from the ``self._cards``-th on."""
        r = self.rules
        at = self._at
        pub = self._public
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
                pub[at["played"] + s * c + card] = 1.0
                pub[at["trick_cards"] + (k * n + s) * c + card] = 1.0
                if i == 0:
                    pub[at["trick_leader"] + k * n + leader] = 1.0
                    if a >= jl:
                        pub[at["joker_named"] + 4 * k + led] = 1.0
                elif suit_of[card] != led and led < 4:
                    pub[at["voids"] + 4 * s + led] = 1.0
            s = nxt[s]

    # -- what a seat sees ---------------------------------------------------------------------

    def observation(self, hand: HandState, seat: int) -> Array:
        """:func:`.tensors.observation_tensor` of ``hand`` for ``seat``, as a new array."""
        self._catch_up(hand)
        out: Array = self._public[: self.obs_size].copy()
        self._write(hand, seat, out)
        return out

    def information_state(self, hand: HandState, seat: int) -> Array:
        """:func:`.tensors.information_state_tensor` of ``hand`` for ``seat``, a new array."""
        self._catch_up(hand)
        out: Array = self._public.copy()
        self._write(hand, seat, out)
        dealt: list[int] = []
        _bits(dealt, self._at["dealt"], hand.dealt[0][seat])
        out[dealt] = 1.0
        return out

    def _write(self, hand: HandState, seat: int, out: Array) -> None:
        """The sections that are the seat's own or change in place (see the module doc)."""
        r = self.rules
        at = self._at
        n, c, hs = r.players, r.n_cards, r.hand_size
        phase = hand.phase
        on = [at["seat"] + seat, at["phase"] + phase, at["dealer"] + hand.dealer]
        if phase != OVER:
            on.append(at["to_move"] + hand.to_move)
        _bits(on, at["hand"], hand.hands[seat])
        if hand.high >= 0:
            on += (at["high_bid"] + hand.high, at["high_seat"] + hand.high_seat)
        contract = hand.contract
        if contract >= 0:
            on += (
                at["contract"] + contract,
                at["contractor"] + hand.contractor,
                at["strain"] + r.bid_strain[contract],
            )
        elif phase in (PLAY, OVER):  # all passed, played at no trumps
            on.append(at["strain"] + hand.strain)
        if hand.sans:
            on.append(at["sans"])
        if hand.nominated >= 0:
            on.append(at["nominated"] + hand.nominated)
        _bits(on, at["allies"], _partners_known(hand, seat))
        _bits(on, at["sitting_out"], hand.sitting_out)
        _bits(on, at["called"], hand.called_cards)
        if seat == hand.contractor:
            if (
                phase in (DISCARD, PLAY, OVER, PARTNER)
                and r.kitty_take
                and r.discard_count
                and not hand.sans
            ):
                _bits(on, at["kitty_seen"], hand.kitty)
            _bits(on, at["discarded"], hand.discarded)
        trick = hand.trick
        if trick:
            s = hand.trick_leader
            jl = r.JOKER_LEAD
            base = at["trick"]
            for a in trick:
                on.append(base + s * c + (a if a < jl else r.joker_cards[(a - jl) // 4]))
                s = hand.next_seat[s]
            if 0 <= hand.led < 4:
                on.append(at["led"] + hand.led)
        if contract >= 0 and phase in (PLAY, OVER):
            faced = at["faced"]
            bid_open = r.bid_open[contract]
            t = hand.contractor
            if t != seat and (
                bid_open == "from-start" or (bid_open == "after-first-trick" and hand.n_tricks)
            ):
                _bits(on, faced + t * c, hand.hands[t])
            if r.bid_partner[contract] == "both-hands":
                for t in bits(hand.allies):
                    if t != hand.contractor and t != seat:
                        _bits(on, faced + t * c, hand.hands[t])
        out[on] = 1.0
        held = at["held"]
        out[held : held + n] = [h.bit_count() / hs for h in hand.hands]
        won = at["tricks_won"]
        out[won : won + n] = [w / hs for w in hand.tricks_won]
        scores = at["scores"]
        out[scores : scores + r.n_sides] = [v / r.target for v in hand.scores]


def _bits(on: list[int], offset: int, mask: int) -> None:
    """Add ``offset + c`` to ``on`` for every bit ``c`` of ``mask``."""
    while mask:
        low = mask & -mask
        on.append(offset + low.bit_length() - 1)
        mask ^= low
