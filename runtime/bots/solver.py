"""A double-dummy solver for the play of a hand: every hand known, best play by both sides.

:class:`Solver` takes a :class:`~fivehundred.runtime.engine.hand.HandState` in the play phase
whose hands are all known (a real deal, or a deal sampled by :mod:`.sampling`) and answers "how
many of the remaining tricks does the contractor's side take with best play?". It plays by the
state's own per-trump tables (``suit_of``, ``power``, ``masks``: the joker and the bowers sit in
the trump suit with their power, a suitless joker in no trumps follows the engine's joker
clauses), so it needs no rule of its own; the legal moves mirror the engine's walk
(:meth:`HandState._following` and :meth:`HandState._leading`), and ``tests/test_solver.py``
checks both against brute-force minimax over the engine itself.

Two sides: the *maximiser* (a seat bitmask) wants the *counted* seats (the contractor's side) to
take as many tricks as it can. In a suit or no-trump contract both are the contractor's side;
in a misère the defenders maximise the contractor's tricks, and one trick is as good as ten
(the target is zero tricks, :meth:`Solver.tricks` with ``cap=1``). With several defending sides
(three-handed, five-handed) the defenders play together, as they do against a contract.

The search is a boolean one ("can the maximiser make ``t`` more tricks?", :meth:`Solver.reaches`)
with alpha-beta cut-offs, a transposition table of bounds kept at the start of every trick (the
same cards in the same hands with the same leader is the same position, whatever came before),
and equivalent cards tried once (cards of one effective suit held by one seat with no live card
between them by power). The exact count is found by bisection over such searches, which share the
table, as do all the moves tried from one position (each move's count searched first at the
count of the one before it, which is mostly the answer), and the last trick, every card forced,
is played out without generating moves.
"""

from __future__ import annotations

from ..engine.codes import SUITLESS
from ..engine.hand import PLAY, HandState, joker_suit_rules

__all__ = ["Solver", "contract_sides"]

#: What undoes one card: (counted tricks it gained, led suit, best key, best seat, suits led,
#: the seat that played it, the trick it was added to, the live cards, what the plays showed).
_Undo = tuple[int, int, int, int, int, int, list[tuple[int, int]], int, int]


def contract_sides(state: HandState) -> tuple[int, int]:
    """``(counted, maximiser)`` seat bitmasks for ``state``'s contract: the contractor's side's
    tricks are counted; it maximises them, except in a misère, where its opponents do. With no
    contract (all passed, played at no trumps) the side of the seat to move is counted."""
    r = state.rules
    if state.contract < 0:
        team = 0
        for s in r.teams[r.side_of_seat[state.to_move]]:
            team |= 1 << s
        return team, team
    allies = state.allies
    if state.misere:
        return allies, ((1 << r.players) - 1) & ~allies
    return allies, allies


class Solver:
    """Double-dummy analysis of one fully known position of the play (see the module doc)."""

    __slots__ = (
        "_end_on_counted",
        "_first_or_last",
        "_jl",
        "_joker_cards",
        "_joker_mask",
        "_lead_last_only",
        "_masks",
        "_nominated",
        "_not_void",
        "_order",
        "_power",
        "_reps",
        "_shows",
        "_suit_of",
        "_trumpish",
        "_unled_rule",
        "_void_joker",
        "counted",
        "hand_size",
        "hands",
        "live",
        "maximiser",
        "n_active",
        "n_tricks",
        "next_seat",
        "nodes",
        "shown",
        "suits_led",
        "table",
        "to_move",
        "trick",
        "trick_best",
        "trick_key",
        "trick_led",
    )

    def __init__(
        self, state: HandState, counted: int | None = None, maximiser: int | None = None
    ) -> None:
        if state.phase != PLAY:
            raise ValueError(f"the solver needs a hand in play, not in {state.phase_name}")
        r = state.rules
        default_counted, default_max = contract_sides(state)
        self.counted = default_counted if counted is None else counted
        self.maximiser = default_max if maximiser is None else maximiser
        self.hands = list(state.hands)
        self.to_move = state.to_move
        self.next_seat = state.next_seat
        self.n_active = state.n_active
        self.n_tricks = state.n_tricks
        self.hand_size = r.hand_size
        self.suits_led = state.suits_led
        self._suit_of = state.suit_of
        self._power = state.power
        self._masks = state.masks
        self._trumpish = state.trumpish
        self._nominated = state.nominated
        self._jl = r.JOKER_LEAD
        self._joker_cards = r.joker_cards
        self._joker_mask = r.joker_mask
        self._lead_last_only = r.joker_lead_only_last_trick
        self._unled_rule = r.joker_lead == "name-unled-suit"
        rule = r.joker_void_must_play
        self._void_joker = rule == "always" or (rule == "misere" and state.misere)
        self._end_on_counted = state.misere and r.misere_ends_when_lost
        # joker.no-trumps.first-or-last, joker.no-trumps.void-suit: what each seat's plays
        # showed, 8 bits a seat from bit 8 * seat: the suits it played, then the suits it
        # showed void in (HandState.shown_suits)
        self._first_or_last, self._not_void = joker_suit_rules(r.play)
        self._shows = bool(r.joker_cards) and (self._first_or_last or self._not_void)
        self.shown = 0
        if self._shows:
            for seat in range(r.players):
                played, void = state.shown_suits(seat)
                self.shown |= (played | void << 4) << 8 * seat
        # The cards of each effective suit from low to high (for equivalent cards).
        power = state.power
        tables = (state.power, state.masks)
        cached = _ORDERS.get(tables)
        if cached is None:
            if len(_ORDERS) > 64:
                _ORDERS.clear()
            cached = _ORDERS[tables] = (
                tuple(
                    tuple(sorted(_bits(state.masks[s]), key=lambda c: power[c])) for s in range(5)
                ),
                {},
            )
        self._order, self._reps = cached
        if len(self._reps) > 100_000:
            self._reps.clear()
        # The trick in progress: (seat, card) in order, the suit to follow, the best so far.
        self.trick: list[tuple[int, int]] = []
        s = state.trick_leader
        for a in state.trick:
            self.trick.append((s, a if a < self._jl else self._joker_cards[(a - self._jl) // 4]))
            s = state.next_seat[s]
        self.trick_led = state.led if state.trick else -1
        self.trick_key = state.best_key if state.trick else -1
        self.trick_best = state.best_seat if state.trick else -1
        #: Cards in play: in the hands of the seats that play, or on the table.
        self.live = 0
        for seat in range(r.players):
            if not state.sitting_out >> seat & 1:
                self.live |= state.hands[seat]
        for _, c in self.trick:
            self.live |= 1 << c
        #: Bounds (low, high) on the counted tricks still to come, by position at a trick's start.
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        #: Positions visited, for measuring.
        self.nodes = 0

    # -- the public questions -----------------------------------------------------------------

    def tricks_left(self) -> int:
        """Tricks still to be played or finished (the trick in progress counts)."""
        return self.hand_size - self.n_tricks

    def tricks(self, cap: int | None = None, guess: int | None = None) -> int:
        """The counted side's tricks still to come with best play by both sides (at most
        ``cap``: a misère needs only whether the contractor takes one).

        ``guess`` (say, the count after a sibling move) only orders the searches: the count
        is tried at it and next to it first, where two searches settle it, before bisection.
        """
        hi = self.tricks_left() if cap is None else min(cap, self.tricks_left())
        lo = 0
        if guess is not None and lo < hi:
            t = min(max(guess, lo + 1), hi)
            if self.reaches(t):
                lo = t
                if lo < hi:
                    if self.reaches(lo + 1):
                        lo += 1
                    else:
                        hi = lo
            else:
                hi = t - 1
                if lo < hi:
                    if self.reaches(hi):
                        lo = hi
                    else:
                        hi -= 1
        while lo < hi:
            t = (lo + hi + 1) // 2
            if self.reaches(t):
                lo = t
            else:
                hi = t - 1
        return lo

    def reaches(self, target: int) -> bool:
        """Whether the maximiser can make the counted seats take ``target`` more tricks."""
        return self._ge(target)

    def after(self, action: int, cap: int | None = None, guess: int | None = None) -> int:
        """The counted tricks still to come (this trick included) if the seat to move plays
        ``action`` (a play action of the engine: a card, or a joker lead naming a suit) and both
        sides play best afterwards (``guess``: a likely answer, as for :meth:`tricks`)."""
        seat = self.to_move
        if action >= self._jl:
            card = self._joker_cards[(action - self._jl) // 4]
            named = (action - self._jl) % 4
        else:
            card = action
            named = -1
        undo = self._play(seat, card, named)
        gained = undo[0]
        rest = 0
        if self.to_move >= 0:
            rest = self.tricks(
                None if cap is None else max(0, cap - gained),
                None if guess is None else guess - gained,
            )
        self._unplay(seat, card, undo)
        return gained + rest

    def legal_actions(self) -> list[int]:
        """Every play action open to the seat to move (as the engine lists them, less the
        nomination of the joker's suit, which the solver leaves to the caller)."""
        cards, suits = self._legal(self.to_move)
        out = _bits(cards)
        if suits:
            hand = self.hands[self.to_move] & self._masks[SUITLESS]
            for j, c in enumerate(self._joker_cards):
                if hand >> c & 1:
                    out += [self._jl + 4 * j + t for t in range(4) if suits >> t & 1]
        return sorted(out)

    def play(self, action: int) -> int:
        """Play ``action`` for the seat to move, for good; the counted tricks it gained (0 or
        1). :attr:`to_move` is then the next seat, or -1 once the hand is over."""
        if action >= self._jl:
            card = self._joker_cards[(action - self._jl) // 4]
            named = (action - self._jl) % 4
        else:
            card, named = action, -1
        return self._play(self.to_move, card, named)[0]

    def moves(self) -> list[int]:
        """The engine's play actions open to the seat to move, one per group of equivalent
        cards (and joker leads naming a suit somebody else still holds, or one if none does)."""
        return self._moves(self.to_move)

    # -- search -------------------------------------------------------------------------------

    def _ge(self, target: int) -> bool:
        if target <= 0:
            return True
        left = self.hand_size - self.n_tricks
        if target > left:
            return False
        self.nodes += 1
        seat = self.to_move
        key: tuple[int, ...] | None = None
        if not self.trick:
            key = (
                seat,
                self.suits_led if self._unled_rule else 0,
                self.shown,
                *self.hands,
            )
            bounds = self.table.get(key)
            if bounds is not None:
                if bounds[0] >= target:
                    return True
                if bounds[1] < target:
                    return False
        if left == 1 and not self.trick and not self.hands[seat] & self._masks[SUITLESS]:
            return self._last() >= target
        maxing = self.maximiser >> seat & 1
        jl = self._jl
        jokers = self._joker_cards
        result = not maxing
        for a in self._moves(seat):
            if a >= jl:
                card = jokers[(a - jl) // 4]
                named = (a - jl) % 4
            else:
                card = a
                named = -1
            undo = self._play(seat, card, named)
            ok = undo[0] >= target if self.to_move < 0 else self._ge(target - undo[0])
            self._unplay(seat, card, undo)
            if ok == bool(maxing):
                result = ok
                break
        if key is not None:
            lo, hi = self.table.get(key, (0, left))
            if result:
                lo = max(lo, target)
            else:
                hi = min(hi, target - 1)
            self.table[key] = (lo, hi)
        return result

    def _last(self) -> int:
        """The counted tricks of the last trick, at its start: every seat plays its one card
        (the leader's no suitless joker, which would name a suit)."""
        played = []
        seat = self.to_move
        gained = 0
        while seat >= 0:
            hand = self.hands[seat]
            card = (hand & -hand).bit_length() - 1
            undo = self._play(seat, card, -1)
            played.append((seat, card, undo))
            gained = undo[0]
            seat = self.to_move
        for seat, card, undo in reversed(played):
            self._unplay(seat, card, undo)
        return gained

    def _play(self, seat: int, card: int, named: int) -> _Undo:
        """Play ``card`` for ``seat`` (``named``: the suit a led joker names, else -1) and
        return what :meth:`_unplay` needs, the counted tricks it gained first."""
        trick = self.trick
        undo = (
            0, self.trick_led, self.trick_key, self.trick_best, self.suits_led, seat, trick,
            self.live, self.shown,
        )  # fmt: skip
        self.hands[seat] &= ~(1 << card)
        suit = self._suit_of[card]
        if not trick:
            led = suit if named < 0 else named
            self.trick_led = led
            self.suits_led |= 1 << led
            self.trick_key = -1
        else:
            led = self.trick_led
        if self._shows:
            # a joker led naming a suit is played as that suit; a follower's card of another
            # suit shows him void in the led suit
            shown = 1 << led if not trick else (1 << suit) & 15 | (suit != led) << 4 + led
            self.shown |= shown << 8 * seat
        key = self._power[card] if suit in (led, self._trumpish) else 0
        if key > self.trick_key:
            self.trick_key = key
            self.trick_best = seat
        trick.append((seat, card))
        if len(trick) < self.n_active:
            self.to_move = self.next_seat[seat]
            return undo
        winner = self.trick_best
        gained = self.counted >> winner & 1
        for _, c in trick:
            self.live &= ~(1 << c)
        self.trick = []
        self.n_tricks += 1
        self.to_move = winner
        if self.n_tricks == self.hand_size or (gained and self._end_on_counted):
            self.to_move = -1  # the hand is over
        return (gained, *undo[1:])

    def _unplay(self, seat: int, card: int, undo: _Undo) -> None:
        _, led, key, best, suits_led, mover, trick, self.live, self.shown = undo
        if trick is not self.trick:
            self.n_tricks -= 1  # the card ended a trick
            self.trick = trick
        trick.pop()
        self.hands[seat] |= 1 << card
        self.trick_led = led
        self.trick_key = key
        self.trick_best = best
        self.suits_led = suits_led
        self.to_move = mover

    # -- moves --------------------------------------------------------------------------------

    def _legal(self, seat: int) -> tuple[int, int]:
        """The cards ``seat`` may play now, and the suitless jokers it may lead with the suits
        each may name (a 4-bit mask): the engine's play walk for a known hand."""
        hand = self.hands[seat]
        masks = self._masks
        if self.trick:
            follow = hand & masks[self.trick_led]
            if follow:
                cards = follow
            else:
                jokers = hand & masks[SUITLESS]
                if jokers and self._void_joker:
                    return jokers, 0
                cards = hand
            if self._first_or_last and self._nominated >= 0:
                cards &= ~self._not_first_or_last(seat, hand)
            return cards, 0
        jokers = hand & self._joker_mask
        if not jokers:
            return hand, 0
        suitless = hand & masks[SUITLESS]
        last = self.n_tricks == self.hand_size - 1
        cards = hand
        if (
            self._nominated >= 0
            and self._lead_last_only
            and not last
            and hand & ~self._joker_mask
            and jokers & ~suitless
        ):
            cards &= ~(jokers & ~suitless)
        if self._first_or_last and self._nominated >= 0:
            cards &= ~self._not_first_or_last(seat, hand)
        if not suitless:
            return cards, 0
        cards &= ~suitless
        others = hand & ~suitless
        if self._lead_last_only and not last and others:
            return cards, 0
        suits = 15
        if self._unled_rule:
            unled = 15 & ~self.suits_led
            if unled or (others and not last):
                suits = unled
        if self._shows:
            shown = self.shown >> 8 * seat
            if self._not_void:
                # joker.no-trumps.void-suit: not a suit the leader showed void in
                ok = suits & ~(shown >> 4)
                if ok or others:
                    suits = ok
            if self._first_or_last:
                # joker.no-trumps.first-or-last: the leader's first or last card of the suit
                for t in range(4):
                    if shown >> t & 1 and hand & masks[t] & ~self._joker_mask:
                        suits &= ~(1 << t)
        return cards, suits if suitless else 0

    def _not_first_or_last(self, seat: int, hand: int) -> int:
        """joker.no-trumps.first-or-last: the nominated jokers of ``hand`` that ``seat`` may not
        play now (it played their suit and holds a card of it that is no joker)."""
        suit = self._nominated
        named = hand & self._joker_mask & ~self._masks[SUITLESS]
        if named and self.shown >> 8 * seat + suit & 1 and hand & self._masks[suit] & ~named:
            return named
        return 0

    def _representatives(self, suit: int, hand: int, mine: int) -> tuple[int, ...]:
        """The cards of ``mine`` (playable, of effective suit ``suit``) to try: one per run of
        live cards of the suit held by ``hand`` (a joker always on its own)."""
        live = self.live
        joker_mask = self._joker_mask
        out = []
        run = False  # the run of held live cards in progress already has its card
        for d in self._order[suit]:
            if not live >> d & 1:
                continue
            if not hand >> d & 1:
                run = False
                continue
            if joker_mask >> d & 1:
                run = False
                if mine >> d & 1:
                    out.append(d)
            elif not run and mine >> d & 1:
                run = True
                out.append(d)
        return tuple(out)

    def _moves(self, seat: int) -> list[int]:
        """The moves of ``seat``, one per group of equivalent cards, likeliest to settle the
        search first: the cheapest card that takes the trick for a seat that wants it, else
        low cards; a leader who wants tricks leads high."""
        cards, suits = self._legal(seat)
        hand = self.hands[seat]
        power = self._power
        trick = self.trick
        wants = (self.counted >> seat & 1) == (self.maximiser >> seat & 1)  # to win tricks
        if trick:
            led = self.trick_led
            top = self.trick_key
            trumpish = self._trumpish
            suit_of = self._suit_of
            good = (self.counted >> self.trick_best & 1) == (self.maximiser >> seat & 1)
            race = wants and not good
        else:
            race = False
        keyed: list[tuple[int, int]] = []
        if cards & (cards - 1) == 0 and not suits:
            return [cards.bit_length() - 1] if cards else []
        live = self.live
        masks = self._masks
        reps = self._reps
        for s in range(5):
            mine = cards & masks[s]
            if not mine:
                continue
            memo = (s, live & masks[s], hand & masks[s], mine)
            chosen = reps.get(memo)
            if chosen is None:
                chosen = reps[memo] = self._representatives(s, hand, mine)
            for d in chosen:
                p = power[d]
                if race:
                    s2 = suit_of[d]
                    k = p if s2 in (led, trumpish) else 0
                    keyed.append((k if k > top else 1000 + p, d))
                elif wants and not trick:
                    keyed.append((-p, d))
                else:
                    keyed.append((p, d))
        if suits:
            jl = self._jl
            others = 0
            for t, h in enumerate(self.hands):
                if t != seat:
                    others |= h
            p = -1000 if wants else 1000
            for j, c in enumerate(self._joker_cards):
                if not (hand & masks[SUITLESS]) >> c & 1:
                    continue
                nobody = -1
                for t in range(4):
                    if not suits >> t & 1:
                        continue
                    if others & masks[t]:
                        keyed.append((p, jl + 4 * j + t))
                    elif nobody < 0:
                        nobody = t
                if nobody >= 0:
                    keyed.append((p, jl + 4 * j + nobody))  # a suit nobody holds: any will do
        keyed.sort()
        return [a for _, a in keyed]


#: By strain tables (power, masks): the cards of each effective suit from low to high, and the
#: cards to try by (suit, live cards of it, cards of it held, playable): shared by every solver
#: of positions with the same tables.
_ORDERS: dict[
    tuple[tuple[int, ...], tuple[int, ...]],
    tuple[tuple[tuple[int, ...], ...], dict[tuple[int, int, int, int], tuple[int, ...]]],
] = {}


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
