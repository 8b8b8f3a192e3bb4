"""Speed benchmark: the generated engine's fast path against a hand-written reference.

:func:`reference_hand` is a tight, hand-written pure-Python playout of Australian 500 (cards as
ints, hands as bitmasks, per-trump tables written out by hand, no spec, no generated tables). It
makes exactly the choices the engine's :meth:`HandState.playout` makes from the same random
stream, so the two are also a cross-check of each other: ``tests/test_benchmark.py`` asserts they
agree hand by hand.

``fivehundred bench`` times both on the same
machine in the same run and prints the ratio; beside it, the two primitives search spends its
time in: clones per second (``HandState.copy``) and playouts per second (a copy of a position
of play finished by ``HandState.playout``). Wall-clock numbers are never asserted in tests.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from ..engine.fast import fast_engine
from ..engine.game import load_builtin
from ..engine.hand import PLAY, HandState, shuffled
from ..engine.rules import Rules

__all__ = ["checked_hand", "engine_hand", "reference_hand", "run_benchmark"]

# -- the reference: Australian 500 written out by hand -----------------------------------------

# Deck order of the australian ruleset: S 5..A, C 5..A, D 4..A, H 4..A, JK (43 cards).
_RANKS = {0: "5678TJQKA", 1: "5678TJQKA", 2: "45678TJQKA", 3: "45678TJQKA"}
_RANK_VALUE = {r: i for i, r in enumerate("456789TJQKA")}
_SUIT_RANKS = {
    0: ["5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"],
    1: ["5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"],
    2: ["4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"],
    3: ["4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"],
}
_CARDS = [(s, r) for s in range(4) for r in _SUIT_RANKS[s]]
JOKER = len(_CARDS)  # 42
N = JOKER + 1
_JACK = {s: _CARDS.index((s, "J")) for s in range(4)}
_PARTNER_SUIT = (1, 0, 3, 2)


def _tables(trump: int) -> tuple[list[int], list[int], list[int]]:
    """Effective suit, power and suit masks under one trump (4 = no trumps)."""
    suit = [s for s, _ in _CARDS] + [4]
    power = [_RANK_VALUE[r] + 1 for _, r in _CARDS] + [201]
    if trump < 4:
        right, left = _JACK[trump], _JACK[_PARTNER_SUIT[trump]]
        suit[left] = trump
        suit[JOKER] = trump
        for c, (s, _) in enumerate(_CARDS):
            if s == trump:
                power[c] += 100
        power[left], power[right], power[JOKER] = 120, 121, 122
    masks = [0] * 5
    for c in range(N):
        masks[suit[c]] |= 1 << c
    return suit, power, masks


_TABLES = [_tables(t) for t in range(5)]
# Ladder: 6S..7NT, MIS, 8S..10D, OMIS, BMIS, 10H, 10NT (levels 0 for misères).
_LADDER: list[tuple[int, int, int]] = []  # (level, strain, value)
for _level in range(6, 11):
    for _strain in range(5):
        _LADDER.append((_level, _strain, 40 + 20 * _strain + 100 * (_level - 6)))
_LADDER.insert(10, (0, 4, 250))  # MIS above 7NT
_LADDER.insert(_LADDER.index((10, 2, 480)) + 1, (0, 4, 500))  # OMIS above 10D
_LADDER.insert(_LADDER.index((10, 2, 480)) + 2, (0, 4, 500))  # BMIS above OMIS
MIS, BMIS = 10, _LADDER.index((10, 2, 480)) + 2
_PASS = N + 4  # action numbering as the engine's: cards, JK:s, pass, bids, nominate
_BID = _PASS + 1
_NOMINATE = _BID + len(_LADDER)


def _bit_list(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def reference_hand(dealer: int, rng: Random) -> tuple[int, int, tuple[int, int], tuple[int, int]]:
    """One random hand of Australian 500: (contract index or -1, decisions, tricks, points)."""
    random = rng.random
    cards = shuffled(N, random)
    hands = [0, 0, 0, 0]
    kitty = 0
    pos = 0
    for packet in (3, -1, 4, -1, 3, -1):
        if packet < 0:
            kitty |= 1 << cards[pos]
            pos += 1
            continue
        for k in range(1, 5):
            for c in cards[pos : pos + packet]:
                hands[(dealer + k) % 4] |= 1 << c
            pos += packet
    decisions = 0
    # Auction: rounds, a pass is final, over when all but one have passed after a bid.
    seat = (dealer + 1) % 4
    passed = 0
    called = 0
    high = -1
    high_seat = -1
    max_level = 0
    while True:
        legal = [_PASS]
        for i in range(high + 1, len(_LADDER)):
            if i == MIS and max_level < 7:
                continue
            if i == BMIS and called >> seat & 1:
                continue
            legal.append(_BID + i)
        action = legal[int(random() * len(legal))]
        decisions += 1
        called |= 1 << seat
        if action == _PASS:
            passed |= 1 << seat
        else:
            high, high_seat = action - _BID, seat
            max_level = max(max_level, _LADDER[high][0])
        unpassed = 15 & ~passed
        if not unpassed:
            break
        if high >= 0 and unpassed == 1 << high_seat:
            break  # all but one have passed after a bid (T, G; no raising one's own bid)
        seat = (seat + 1) % 4
        while passed >> seat & 1:
            seat = (seat + 1) % 4
    if high < 0:
        return -1, decisions, (0, 0), (0, 0)
    contractor = high_seat
    level, strain, value = _LADDER[high]
    hands[contractor] |= kitty
    for _ in range(3):  # one card per action, each uniform over the cards still held
        held = _bit_list(hands[contractor])
        hands[contractor] &= ~(1 << held[int(random() * len(held))])
        decisions += 1
    suit, power, masks = _TABLES[strain]
    misere = level == 0
    out = 1 << ((contractor + 2) % 4) if misere else 0
    nxt = []
    for s in range(4):
        t = (s + 1) % 4
        if out >> t & 1:
            t = (t + 1) % 4
        nxt.append(t)
    active = 3 if misere else 4
    won = [0, 0]
    suits_led = 0
    seat = contractor
    for trick in range(10):
        leader = seat
        best_key = -1
        best = seat
        led = -1
        for k in range(active):
            hand = hands[seat]
            if k:
                legal_mask = hand & masks[led]
                if not legal_mask:
                    legal_mask = hand
                    if misere and hand & masks[4]:
                        legal_mask = hand & masks[4]
                lead_suit = -1
            elif hand & masks[4]:
                options = _bit_list(hand & ~masks[4])
                suits = [s for s in range(4) if not suits_led >> s & 1]
                if not suits and (trick == 9 or not options):
                    suits = [0, 1, 2, 3]
                options.extend(N + s for s in suits)
                if trick == 0 and seat == contractor and strain == 4 and suit is _TABLES[4][0]:
                    options.extend(_NOMINATE + s for s in range(4))
                choice = options[int(random() * len(options))]
                decisions += 1
                if choice >= _NOMINATE:
                    # Nominate the joker's suit: it becomes the ace-topping card of that suit.
                    s = choice - _NOMINATE
                    suit, power, masks = list(suit), list(power), list(masks)
                    suit[JOKER], power[JOKER] = s, 99
                    masks[4] &= ~(1 << JOKER)
                    masks[s] |= 1 << JOKER
                    options = _bit_list(hand)
                    choice = options[int(random() * len(options))]
                    decisions += 1
                if choice >= N:
                    lead_suit, c = choice - N, JOKER
                else:
                    lead_suit, c = -1, choice
                legal_mask = 0
            else:
                legal_mask = hand
                lead_suit = -1
            if legal_mask:
                for _ in range(int(random() * legal_mask.bit_count())):
                    legal_mask &= legal_mask - 1
                c = (legal_mask & -legal_mask).bit_length() - 1
                decisions += 1
            hands[seat] &= ~(1 << c)
            if k == 0:
                led = lead_suit if lead_suit >= 0 else suit[c]
                suits_led |= 1 << led
            sc = suit[c]
            key = power[c] if sc == led or sc == (strain if strain < 4 else 4) else 0
            if key > best_key:
                best_key, best = key, seat
            seat = nxt[seat]
        del leader
        won[best % 2] += 1
        seat = best
        if misere and best % 2 == contractor % 2:
            break
    side = contractor % 2
    points = [0, 0]
    if misere:
        points[side] = value if won[side] == 0 else -value
    else:
        made = won[side] >= level
        points[side] = (250 if won[side] == 10 and value < 250 else value) if made else -value
        points[1 - side] = 10 * won[1 - side]
    return high, decisions, (won[0], won[1]), (points[0], points[1])


# -- the benchmark ------------------------------------------------------------------------------


def engine_hand(
    rules: Rules, dealer: int, rng: Random
) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    """One random hand through the engine's fast path (the variant's generated engine), in
    :func:`reference_hand`'s terms."""
    hand = fast_engine(rules).playout(dealer, rng)
    return hand.contract, hand.decisions, hand.tricks_by_side, hand.points


def checked_hand(rules: Rules, dealer: int, rng: Random) -> int:
    """One random hand through the checked engine (``HandState.playout``, the interpreter of
    the tables that the generated engines replace for playouts): its decisions."""
    return HandState.new(rules, dealer, rng).playout(rng)


def search_positions(rules: Rules, count: int, seed: int) -> list[HandState]:
    """``count`` random positions of play (auction, discard done; some tricks played), where
    search spends its time."""
    rng = Random(seed)
    out: list[HandState] = []
    while len(out) < count:
        state = HandState.new(rules, len(out) % rules.players, rng)
        while state.phase != PLAY and not state.is_over:
            legal = state.legal_actions()
            state.apply_fast(legal[int(rng.random() * len(legal))])
        for _ in range(int(rng.random() * 4 * rules.players)):
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply_fast(legal[int(rng.random() * len(legal))])
        if not state.is_over:
            out.append(state)
    return out


def time_search_primitives(
    rules: Rules, positions: list[HandState], seed: int, rounds: int, copies: int = 50
) -> tuple[float, float]:
    """Clones per second (``HandState.copy``) and playouts per second (a copy played to the
    end by :meth:`HandState.playout`) from ``positions``; best of ``rounds``."""
    best_copy = best_playout = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for state in positions:
            for _ in range(copies):
                state.copy()
        best_copy = min(best_copy, time.perf_counter() - start)
        rng = Random(seed)
        start = time.perf_counter()
        for state in positions:
            state.copy().playout(rng)
        best_playout = min(best_playout, time.perf_counter() - start)
    n = len(positions)
    return n * copies / best_copy, n / best_playout


def _cpu_seconds(play: Callable[[int, Random], object], hands: int, seed: int) -> float:
    """CPU seconds of ``hands`` hands (``play(dealer index, rng)``) from ``Random(seed)``."""
    rng = Random(seed)
    start = time.process_time()
    for i in range(hands):
        play(i, rng)
    return time.process_time() - start


def run_benchmark(
    hands: int = 20000,
    seed: int = 1,
    rounds: int = 3,
    variants: Sequence[str] | None = None,
    variant_hands: int | None = None,
) -> dict[str, Any]:
    """Time the engine and the reference on the same hands, interleaved, best of ``rounds``
    each, in CPU seconds (what a core gives, whatever else the machine runs). Then, for every
    variant (``variants``, default all built-ins) on ``variant_hands`` hands (default a tenth):
    the fast path's decisions per second, and its ratio to the checked engine on the same
    variant and to the reference's decisions per second (the reference timed again beside each
    variant, on as many hands, in the same rounds). Also the two primitives of search:
    clones and playouts per second from positions of play."""
    rules = load_builtin("australian")
    best_engine = best_reference = float("inf")
    decisions = sum(engine_hand(rules, i % 4, rng)[1] for i, rng in _stream(hands, seed))
    ref_decisions = sum(reference_hand(i % 4, rng)[1] for i, rng in _stream(hands, seed))
    for _ in range(rounds):
        best_engine = min(
            best_engine, _cpu_seconds(lambda i, rng: engine_hand(rules, i % 4, rng), hands, seed)
        )
        best_reference = min(
            best_reference, _cpu_seconds(lambda i, rng: reference_hand(i % 4, rng), hands, seed)
        )
    per_variant = {}
    n = variant_hands or max(100, hands // 10)
    # Each variant is compared with the reference timed beside it (on as many hands, in the
    # same rounds): one timing of the reference at the start made every variant's ratio move
    # with the load of that moment.
    ref_n = sum(reference_hand(i % 4, rng)[1] for i, rng in _stream(n, seed))
    if variants is None:
        variants = importlib.import_module("fivehundred.generated.rulesets").VARIANTS
    for variant in variants:
        vr = load_builtin(variant)

        def fast_hand(i: int, rng: Random, vr: Rules = vr) -> object:
            return engine_hand(vr, i % vr.players, rng)

        def slow_hand(i: int, rng: Random, vr: Rules = vr) -> object:
            return checked_hand(vr, i % vr.players, rng)

        total = sum(engine_hand(vr, i % vr.players, rng)[1] for i, rng in _stream(n, seed))
        fast = checked = reference = float("inf")
        for _ in range(rounds):
            fast = min(fast, _cpu_seconds(fast_hand, n, seed))
            checked = min(checked, _cpu_seconds(slow_hand, n, seed))
            reference = min(
                reference, _cpu_seconds(lambda i, rng: reference_hand(i % 4, rng), n, seed)
            )
        per_variant[variant] = {
            "generated": fast_engine(vr).generated,
            "hands_per_second": round(n / fast, 1),
            "decisions_per_second": round(total / fast, 1),
            "ratio_to_checked_engine": round(checked / fast, 3),
            "ratio_to_reference_decisions": round(total / fast / (ref_n / reference), 3),
        }
    positions = search_positions(rules, max(20, min(2000, hands // 10)), seed)
    clones, playouts = time_search_primitives(rules, positions, seed, rounds)
    return {
        "variant": "australian",
        "hands": hands,
        "decisions": decisions,
        "engine_hands_per_second": round(hands / best_engine, 1),
        "reference_hands_per_second": round(hands / best_reference, 1),
        "engine_microseconds_per_decision": round(1e6 * best_engine / decisions, 3),
        "ratio_engine_to_reference": round(best_reference / best_engine, 3),
        "reference_decisions_per_second": round(ref_decisions / best_reference, 1),
        "positions": len(positions),
        "clones_per_second": round(clones, 1),
        "playouts_per_second": round(playouts, 1),
        "variants": per_variant,
    }


def _stream(hands: int, seed: int) -> list[tuple[int, Random]]:
    """``hands`` pairs (index, one shared ``Random(seed)``): the hands a timing plays."""
    rng = Random(seed)
    return [(i, rng) for i in range(hands)]
