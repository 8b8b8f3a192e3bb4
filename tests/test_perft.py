"""Perft: the number of distinct legal action sequences of depth d from fixed positions.

Each count is computed twice, by the engine (``copy()`` + ``apply_fast`` over ``legal_actions()``)
and by the small, deliberately naive move generator below, written from the rules (G, T, P) and the
card codes alone (no engine tables), and both must equal the number pinned in
``tests/data/perft_australian.txt`` (lines ``name depth count``; ``#`` starts a comment).

A sequence that ends the hand before depth d does not count at depth d (as in chess perft).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DEALS, apply_all, build_hand

from fivehundred.runtime.engine.hand import HandState

DATA_FILE = Path(__file__).resolve().parent / "data" / "perft_australian.txt"

# -- the naive generator ------------------------------------------------------------------------

SUITS = "SCDH"
PARTNER_SUIT = {"S": "C", "C": "S", "D": "H", "H": "D"}  # the other suit of the same colour
PLAIN = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]  # high to low
LADDER = [f"{n}{s}" for n in range(6, 11) for s in ("S", "C", "D", "H", "NT")]
LADDER.insert(LADDER.index("7NT") + 1, "MIS")
LADDER.insert(LADDER.index("10D") + 1, "OMIS")
LADDER.insert(LADDER.index("OMIS") + 1, "BMIS")
MISERES = {"MIS", "OMIS", "BMIS"}
# T and G: the auction ends as soon as all but one player have passed after a bid; raising one's
# own bid then (T's option "raise own bid", G's variations) is off in australian.
RAISE_OWN_BID = False


def level(bid: str) -> int:
    return 0 if bid in MISERES else int(bid.rstrip("SCDHNT"))


def strain(bid: str) -> str:
    return "NT" if bid in MISERES else bid.lstrip("0123456789")


def rank(card: str) -> str:
    return card[:-1]


class Naive:
    """One hand, the slow obvious way: hands are sets of card codes, actions are strings."""

    def __init__(self, dealer: int, hands: list[list[str]], kitty: list[str]) -> None:
        self.hands = [set(h) for h in hands]
        self.kitty = set(kitty)
        self.phase = "auction"
        self.to_move = (dealer + 1) % 4
        self.passed: set[int] = set()
        self.called: set[int] = set()
        self.high: str | None = None
        self.high_seat = -1
        self.top_level = 0
        self.final = False
        self.contract: str | None = None
        self.contractor = -1
        self.nominated: str | None = None
        self.trick: list[tuple[int, str]] = []  # (seat, card)
        self.led: str | None = None
        self.suits_led: set[str] = set()
        self.done = 0
        self.won = [0, 0, 0, 0]
        self.discarded = 0

    def copy(self) -> Naive:
        other = Naive.__new__(Naive)
        other.__dict__.update(self.__dict__)
        other.hands = [set(h) for h in self.hands]
        other.passed, other.called = set(self.passed), set(self.called)
        other.trick, other.suits_led, other.won = (
            list(self.trick),
            set(self.suits_led),
            list(self.won),
        )
        return other

    # the contract
    @property
    def trump(self) -> str | None:
        s = strain(self.contract)
        return None if s == "NT" else s

    @property
    def misere(self) -> bool:
        return self.contract in MISERES

    @property
    def sitting_out(self) -> int | None:
        return (self.contractor + 2) % 4 if self.misere else None

    def suit(self, card: str) -> str | None:
        """The suit a card follows (None: the suitless joker at no trumps)."""
        if card == "JK":
            return self.trump or self.nominated
        if self.trump and rank(card) == "J" and card[-1] == PARTNER_SUIT[self.trump]:
            return self.trump  # the left bower
        return card[-1]

    def strength(self, card: str) -> int:
        """Higher wins, within the trump suit or the led suit."""
        if card == "JK":
            return 100
        if self.trump and self.suit(card) == self.trump and rank(card) == "J":
            return 99 if card[-1] == self.trump else 98
        return 50 - PLAIN.index(rank(card))

    # legal actions
    def legal(self) -> list[str]:
        if self.phase == "auction":
            seat = self.to_move
            out = ["pass"]
            start = 0 if self.high is None else LADDER.index(self.high) + 1
            for bid in LADDER[start:]:
                if bid == "MIS" and self.top_level < 7:
                    continue
                if bid == "BMIS" and seat in self.called:
                    continue
                out.append(bid)
            return out
        if self.phase == "discard":  # one card per action, three actions
            return ["discard " + c for c in sorted(self.hands[self.to_move])]
        if self.phase != "play":
            return []
        hand = self.hands[self.to_move]
        if self.trick:
            follow = [c for c in hand if self.suit(c) == self.led]
            if follow:
                return follow
            if self.misere and "JK" in hand and self.suit("JK") is None:
                return ["JK"]
            return list(hand)
        out = []
        for c in hand:
            if c == "JK" and self.suit(c) is None:
                unled = [s for s in SUITS if s not in self.suits_led]
                if self.done == 9 and not unled:
                    unled = list(SUITS)
                out += [f"JK:{s}" for s in unled]
            else:
                out.append(c)
        if (
            strain(self.contract) == "NT"
            and self.to_move == self.contractor
            and self.done == 0
            and self.nominated is None
            and "JK" in hand
        ):
            out += [f"nominate {s}" for s in SUITS]
        return out

    # applying
    def apply(self, action: str) -> None:
        seat = self.to_move
        if self.phase == "auction":
            self.called.add(seat)
            if action == "pass":
                self.passed.add(seat)
            else:
                self.high, self.high_seat = action, seat
                self.top_level = max(self.top_level, level(action))
            left = {s for s in range(4) if s not in self.passed}
            if self.final:
                self._close_auction()
            elif not left:
                self.phase = "over"
            elif self.high is not None and left == {self.high_seat}:
                if RAISE_OWN_BID and action == "pass":  # the others have passed: a final call
                    self.final = True
                    self.to_move = self.high_seat
                else:
                    self._close_auction()
            else:
                nxt = (seat + 1) % 4
                while nxt in self.passed:
                    nxt = (nxt + 1) % 4
                self.to_move = nxt
            return
        if self.phase == "discard":
            for c in action.split()[1:]:
                self.hands[seat].remove(c)
                self.discarded += 1
            if self.discarded == 3:
                self.phase = "play"
            return
        if action.startswith("nominate"):
            self.nominated = action.split()[1]
            return
        card, _, named = action.partition(":")
        self.hands[seat].remove(card)
        if not self.trick:
            self.led = named or self.suit(card)
            self.suits_led.add(self.led)
        self.trick.append((seat, card))
        active = 3 if self.misere else 4
        if len(self.trick) < active:
            nxt = (seat + 1) % 4
            if nxt == self.sitting_out:
                nxt = (nxt + 1) % 4
            self.to_move = nxt
            return
        winner = self._winner()
        self.won[winner] += 1
        self.done += 1
        self.trick = []
        self.to_move = winner
        if self.done == 10 or (self.misere and winner == self.contractor):
            self.phase = "over"

    def _close_auction(self) -> None:
        self.contract, self.contractor = self.high, self.high_seat
        self.hands[self.contractor] |= self.kitty
        self.phase = "discard"
        self.to_move = self.contractor

    def _winner(self) -> int:
        for seat, card in self.trick:
            if card == "JK" and self.suit(card) is None:
                return seat  # the suitless joker wins any trick
        trumps = [
            (self.strength(c), s)
            for s, c in self.trick
            if self.trump and self.suit(c) == self.trump
        ]
        if trumps:
            return max(trumps)[1]
        return max((self.strength(c), s) for s, c in self.trick if self.suit(c) == self.led)[1]


def naive_perft(state: Naive, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for action in state.legal():
        child = state.copy()
        child.apply(action)
        total += naive_perft(child, depth - 1)
    return total


def engine_perft(state: HandState, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.copy()
        child.apply_fast(action)
        total += engine_perft(child, depth - 1)
    return total


# -- positions ----------------------------------------------------------------------------------

#: name -> (deal, dealer, actions from the deal)
POSITIONS = {
    # Deal S at the start of the auction.
    "auction-start": ("S", 0, ""),
    # Deal S after three passes: seat 0 bids (or throws in) and discards.
    "auction-three-passes": ("S", 0, "pass, pass, pass"),
    # Deal B, 6H by seat 1, at the opening lead after the discard.
    "hearts-opening-lead": ("B", 0, "6H, pass, pass, pass, discard 5S 5C 6C"),
    # Deal C, 6NT by seat 1 who holds the joker: nominate and JK:s leads multiply.
    "nt-joker-contractor": ("C", 0, "6NT, pass, pass, pass, discard QC QD QH"),
    # Deal C after four tricks that led S C D H: the joker waits for the last trick.
    "nt-all-suits-led": (
        "C",
        0,
        "6NT, pass, pass, pass, discard QC QD QH, AS, 5S, 8S, 10S, AC, 5C, 8C, 10C, "
        "AD, 4D, 6D, 9D, AH, 4H, 6H, 9H",
    ),
    # Deal D, seat 1's misère: partner 3 sits out; seat 0 holds the joker and no club.
    "misere-opponent-joker": ("D", 0, "7S, 7NT, pass, pass, MIS, pass, discard JS JC QD"),
    # Deal D, seat 0's misère with the joker: nominate, and the forced joker ends the hand.
    "misere-contractor-joker": ("D", 0, "7S, pass, pass, MIS, pass, discard JS JC QD"),
}


def _actions(text: str) -> list[str]:
    return [a.strip() for a in text.split(",") if a.strip()]


def engine_position(rules, name: str) -> HandState:
    deal_name, dealer, actions = POSITIONS[name]
    hands, kitty = DEALS[deal_name]
    state = build_hand(rules, dealer, list(hands), kitty)
    return apply_all(state, actions)


def naive_position(name: str) -> Naive:
    deal_name, dealer, actions = POSITIONS[name]
    hands, kitty = DEALS[deal_name]
    state = Naive(dealer, [h.split() for h in hands], kitty.split())
    for action in _actions(actions):
        legal = state.legal()
        if action.startswith("discard"):  # the record text: one action per card
            for card in action.split()[1:]:
                assert f"discard {card}" in state.legal(), (name, action)
                state.apply(f"discard {card}")
            continue
        assert action in legal, (name, action)
        state.apply(action)
    return state


def pinned() -> list[tuple[str, int, int]]:
    rows = []
    for line in DATA_FILE.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, depth, count = line.split()
            rows.append((name, int(depth), int(count)))
    return rows


def test_data_file_covers_every_position():
    names = {name for name, _, _ in pinned()}
    assert names == set(POSITIONS)
    assert len(pinned()) == len({(n, d) for n, d, _ in pinned()})


@pytest.mark.parametrize(("name", "depth", "count"), pinned())
def test_perft(rules, name, depth, count):
    engine = engine_perft(engine_position(rules, name), depth)
    naive = naive_perft(naive_position(name), depth)
    assert (engine, naive) == (count, count)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_root_moves_agree(rules, name):
    """The two generators list the same actions at each position (as public codes)."""
    engine = engine_position(rules, name)
    naive = naive_position(name)
    got = sorted(rules.action_str(a) for a in engine.legal_actions())
    want = sorted(naive.legal())
    assert got == want


def test_hand_derived_counts(rules):
    """A few counts worked out by hand (see the data file's comments), asserted here directly."""
    assert engine_perft(engine_position(rules, "auction-start"), 1) == 28
    assert engine_perft(engine_position(rules, "auction-start"), 2) == 411
    assert engine_perft(engine_position(rules, "auction-three-passes"), 2) == 27 * 13
    assert engine_perft(engine_position(rules, "auction-three-passes"), 4) == 27 * 13 * 12 * 11
    assert engine_perft(engine_position(rules, "hearts-opening-lead"), 2) == 19
    assert engine_perft(engine_position(rules, "misere-opponent-joker"), 2) == 25
    assert engine_perft(engine_position(rules, "misere-contractor-joker"), 1) == 17
    assert engine_perft(engine_position(rules, "hearts-opening-lead"), 1) == 10
    assert engine_perft(engine_position(rules, "nt-joker-contractor"), 1) == 17
    assert engine_perft(engine_position(rules, "nt-joker-contractor"), 2) == 73
    assert engine_perft(engine_position(rules, "nt-all-suits-led"), 1) == 5
