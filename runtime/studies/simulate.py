"""Simulation: many hands or whole games played by bots, with invariant checks and records.

``--hands`` plays independent hands from 0-0 (dealer rotating); ``--games`` plays whole games to
the end. Finished hands are checked against the invariants below unless ``check`` is off:
every hand with ``check_every=1`` (``--check-all``), or a sample (the command line's default:
the first :data:`CHECK_SAMPLE` hands and every :data:`CHECK_SAMPLE`-th after them, so that
checking costs a few per cent of the run instead of half of it):

- cards are conserved: hands, kitty, discards, dead hand and played cards are the deck, once each;
- every trick holds one card from each active seat, and the tricks add up;
- the points are what the ladder's values and the scoring rules give.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import IO, Any

from ..bots.registry import Bot, RandomBot, make_bot
from ..engine.fast import FastEngine, FastMatch, Playout, fast_engine
from ..engine.game import Match
from ..engine.hand import AUCTION, HandState, bid_after_own_pass, next_dealer, passes_reopen
from ..engine.records import record_of
from ..engine.rules import Rules
from ..terminal import progress
from .reached import end_events, hand_events

__all__ = ["CHECK_SAMPLE", "MAX_HANDS", "InvariantError", "Summary", "check_hand", "simulate"]

#: With sampled checking, the first this many hands are checked, then every this-many-th.
CHECK_SAMPLE = 64

MAX_HANDS = 10_000
"""Default cap on the hands of one simulated game (``simulate --max-hands``)."""


class InvariantError(AssertionError):
    """A finished hand broke an engine invariant (a bug, never a user error)."""


@dataclass
class Summary:
    """What a simulation did."""

    variant: str
    hands: int = 0
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    thrown_in: int = 0
    #: Of the hands thrown in, those a player asked to have redealt (``auction.no-ace-no-face``).
    redeals: int = 0
    #: Hands all passed and played at no trumps (``auction.all-pass``: no-trumps): not thrown in.
    all_passed_played: int = 0
    #: Hands in which a player bid after a pass of his own (``auction.pass-final``, where
    #: the variant lets passes reopen: always or if-changed).
    bid_again: int = 0
    #: Hands thrown in and redealt by the same dealer (``auction.all-pass``: redeal).
    redealt: int = 0
    made: int = 0
    failed: int = 0
    contracts: dict[str, int] = field(default_factory=dict)
    wins_by_side: list[int] = field(default_factory=list)
    invariant_checks: int = 0
    no_winner: int = 0
    cut_off: int = 0
    max_hands: int = 0
    #: Hands in which each rule clause decided something (:data:`.reached.EVENTS` keys), when
    #: asked for (``clauses``); None when not.
    clauses: dict[str, int] | None = None
    #: Stopped by Ctrl-C: the figures are those of the hands or games finished before it.
    interrupted: bool = False

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` object."""
        secs = self.seconds or 1e-9
        return {
            "variant": self.variant,
            "hands": self.hands,
            "games": self.games,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands / secs, 1),
            "decisions_per_second": round(self.decisions / secs, 1),
            "thrown_in": self.thrown_in,
            "redeals": self.redeals,
            "all_passed_played": self.all_passed_played,
            "bid_again": self.bid_again,
            "redealt": self.redealt,
            "made": self.made,
            "failed": self.failed,
            "contracts": dict(sorted(self.contracts.items())),
            "wins_by_side": self.wins_by_side,
            "games_without_winner": self.no_winner,
            "games_cut_off": self.cut_off,
            "max_hands_per_game": self.max_hands or None,
            "invariant_checks": self.invariant_checks,
            "clauses": None if self.clauses is None else dict(sorted(self.clauses.items())),
            "interrupted": self.interrupted,
        }


def check_hand(state: HandState) -> None:
    """Raise :class:`InvariantError` if a finished hand breaks an invariant."""
    r = state.rules
    res = state.result
    if res is None:
        raise InvariantError("hand not finished")
    dealt_hands, kitty, dead = state.dealt
    deck = (1 << r.n_cards) - 1
    union = kitty | dead
    for h in dealt_hands:
        if union & h:
            raise InvariantError("a card was dealt twice")
        union |= h
    if union != deck:
        raise InvariantError("the deal does not hold the whole deck")
    if res.contract < 0 and not state.tricks:
        return  # thrown in
    played = 0
    jl, jokers, nxt = r.JOKER_LEAD, r.joker_cards, state.next_seat
    n_active, sitting_out = state.n_active, state.sitting_out
    for leader, cards, winner in state.tricks:
        # The trick's seats (state.trick_seats, written out) as a list and a bitmask.
        seats = [leader] if cards else []
        mask = 1 << leader if cards else 0
        s = leader
        for _ in range(len(cards) - 1):
            s = nxt[s]
            seats.append(s)
            mask |= 1 << s
        if len(cards) != n_active or mask.bit_count() != len(seats):
            raise InvariantError(f"trick led by {leader} has seats {seats}")
        if seats[0] != leader or winner < 0 or not mask >> winner & 1:
            raise InvariantError("trick leader or winner is not a player of the trick")
        if sitting_out & mask:
            raise InvariantError("a seat that sits out played")
        for a in cards:
            c = a if a < jl else jokers[(a - jl) // 4]
            if played >> c & 1:
                raise InvariantError(f"{r.deck[c]} played twice")
            played |= 1 << c
    left = 0
    for h in state.hands:
        if left & h or played & h:
            raise InvariantError("a card is both held and played")
        left |= h
    took_kitty = res.contract >= 0 and r.kitty_take and bool(r.discard_count) and not state.sans
    if took_kitty and state.discarded.bit_count() != r.discard_count:
        raise InvariantError("the contractor did not discard as many cards as the kitty holds")
    unused = (state.discarded if took_kitty else kitty) | dead
    if played & unused or left & unused or (played | left | unused) != deck:
        raise InvariantError("cards were lost or created")
    if sum(state.tricks_won) != len(state.tricks):
        raise InvariantError("tricks won do not add up")
    if res.complete and len(state.tricks) != r.hand_size:
        raise InvariantError("a complete hand has the wrong number of tricks")
    # The points are score_hand's (runtime/engine/scoring.py); tests/test_scoring.py re-derives
    # them independently from the rules.


def _bots(names: list[str] | None, players: int) -> list[Bot]:
    names = names or ["random"]
    if len(names) == 1:
        names = names * players
    return [make_bot(name) for name in names]


def simulate(
    rules: Rules,
    *,
    hands: int = 0,
    games: int = 0,
    seed: int | None = None,
    bots: list[str] | None = None,
    records: IO[str] | None = None,
    check: bool = True,
    check_every: int = 1,
    progress: Callable[[int, int], None] | None = None,
    max_hands: int = MAX_HANDS,
    clauses: bool = False,
) -> Summary:
    """Play ``hands`` independent hands, or ``games`` whole games, and summarise them.

    With ``clauses``, count the hands in which each rule clause decided something
    (:func:`.reached.hand_events`, and :func:`.reached.end_events` in games): every hand is then
    played by the checked engine, which keeps the hand to read. Ctrl-C (KeyboardInterrupt)
    stops the run between two hands or games: the summary of what was finished is returned,
    with ``interrupted`` set. ``progress(done, total)`` is called at least every second.

    A game still without a winner after ``max_hands`` hands is stopped and counted in
    ``Summary.cut_off`` (``games_cut_off``): neither a win nor a game without a winner.
    With ``check``, hand number ``i`` (from 0) is checked if ``i < check_every`` or
    ``i % check_every == 0``: ``check_every=1`` checks every hand.
    """
    if check_every < 1:
        raise ValueError(f"check_every must be at least 1, not {check_every}")
    if max_hands < 1:
        raise ValueError(f"max_hands must be at least 1, not {max_hands}")
    rng = Random(seed)
    players = _bots(bots, rules.players)
    summary = Summary(rules.variant, wins_by_side=[0] * rules.n_sides)
    if games:
        summary.max_hands = max_hands
    if clauses:
        summary.clauses = {}
    total = hands or games
    every = max(1, total // 100)
    start = last_shown = time.perf_counter()
    # Random bots only: the engine's fast path plays the hands (the same choices, faster).
    random_only = all(isinstance(bot, RandomBot) for bot in players)
    fast = fast_engine(rules) if random_only and not clauses else None
    check_every = check_every if check else 0
    try:
        for i in range(total):
            if hands and fast is not None:
                dealer = i % rules.players
                _count(fast, fast.playout(dealer, rng), dealer, None, summary, records, check_every)
            elif hands:
                state = HandState.new(rules, i % rules.players, rng)
                _play(state, players, rng, summary, records, check_every)
            else:
                winner = (
                    _fast_game(fast, rng, summary, records, check_every, max_hands)
                    if fast is not None
                    else _game(rules, players, rng, summary, records, check_every, max_hands)
                )
                summary.games += 1
                if winner is None:
                    summary.cut_off += 1
                elif winner >= 0:
                    summary.wins_by_side[winner] += 1
                else:
                    summary.no_winner += 1
            if progress is not None:
                now = time.perf_counter()
                if (i + 1) % every == 0 or now - last_shown >= 1.0:
                    last_shown = now
                    progress(i + 1, total)
    except KeyboardInterrupt:
        summary.interrupted = True
    summary.seconds = time.perf_counter() - start
    return summary


def _events(summary: Summary, keys: set[str]) -> None:
    if summary.clauses is not None:
        for key in keys:
            summary.clauses[key] = summary.clauses.get(key, 0) + 1


def _game(
    rules: Rules,
    players: list[Bot],
    rng: Random,
    summary: Summary,
    records: IO[str] | None,
    check_every: int,
    max_hands: int,
) -> int | None:
    """One whole game by the bots: the winner (None when cut off after ``max_hands``)."""
    match = Match(rules, rng)
    while match.winner is None and match.hands_played < max_hands:
        state = match.hand
        _play(state, players, rng, summary, records, check_every, hand_only=False)
        before = list(match.scores)
        match.finish_hand()
        if summary.clauses is not None:
            _events(
                summary, hand_events(state) | end_events(rules, before, match.scores, match.winner)
            )
    return match.winner


def _fast_game(
    fast: FastEngine,
    rng: Random,
    summary: Summary,
    records: IO[str] | None,
    check_every: int,
    max_hands: int,
) -> int | None:
    """One whole game of random hands through the fast path, as :func:`_game` plays it."""
    match = FastMatch(fast, rng)
    while match.winner is None and match.hands_played < max_hands:
        hand, dealer, before = match.play_hand()
        _count(fast, hand, dealer, before, summary, records, check_every)
    if match.winner is None:
        match.cut_off()
    return match.winner


def _checked_now(summary: Summary, check_every: int) -> bool:
    """Whether the hand just counted is one to check (``check_every`` 0: none)."""
    index = summary.hands - 1
    return bool(check_every) and (
        check_every == 1 or index < check_every or index % check_every == 0
    )


def _tally(
    summary: Summary,
    rules: Rules,
    dealer: int,
    decisions: int,
    contract: int,
    made: bool | None,
    tricks_by_side: tuple[int, ...],
    redeal: bool = False,
) -> None:
    summary.decisions += decisions
    summary.hands += 1
    if redeal:  # auction.no-ace-no-face: thrown in on a claim, redealt by the same dealer
        summary.redeals += 1
    if contract < 0 and any(tricks_by_side):  # all passed, and the hand was played out
        summary.all_passed_played += 1
    elif contract < 0:
        summary.thrown_in += 1
        if not redeal and next_dealer(rules, dealer, contract) == dealer:
            summary.redealt += 1
    else:
        code = rules.bid_codes[contract]
        summary.contracts[code] = summary.contracts.get(code, 0) + 1
        if made:
            summary.made += 1
        else:
            summary.failed += 1


def _calls(rules: Rules, dealer: int, actions: list[int]) -> list[tuple[int, int]]:
    """The auction of a fast-path hand, (seat, action) each: its first actions, replayed on a
    hand without cards (the calls do not depend on them)."""
    state = HandState(rules, dealer, [0] * rules.players, 0)
    for action in actions:
        if state.phase != AUCTION:
            break
        state.apply_fast(action)
    return state.calls


def _play(
    state: HandState,
    players: list[Bot],
    rng: Random,
    summary: Summary,
    records: IO[str] | None,
    check_every: int,
    *,
    hand_only: bool = True,
) -> None:
    """Play ``state`` to its end by the bots and count it (with its clause events when the
    summary counts them and the hand stands alone, ``hand_only``: a game's hands are counted
    by :func:`_game`, which knows the scores around them)."""
    actions: list[int] | None = [] if records is not None else None
    n = 0
    while state.result is None:
        seat = state.controller(state.to_move)
        action = players[seat].choose(state, rng)
        state.apply_fast(action)
        n += 1
        if actions is not None:
            actions.append(action)
    res = state.result
    _tally(
        summary,
        state.rules,
        state.dealer,
        n,
        res.contract,
        res.made,
        res.tricks_by_side,
        res.redeal,
    )
    if passes_reopen(state.rules) and bid_after_own_pass(state.rules, state.calls):
        summary.bid_again += 1
    if hand_only and summary.clauses is not None:
        _events(summary, hand_events(state))
    if _checked_now(summary, check_every):
        check_hand(state)
        summary.invariant_checks += 1
    if records is not None and actions is not None:
        records.write(json.dumps(record_of(state, actions)) + "\n")


def _count(
    fast: FastEngine,
    hand: Playout,
    dealer: int,
    scores: list[int] | None,
    summary: Summary,
    records: IO[str] | None,
    check_every: int,
) -> None:
    """Count a hand of the fast path; replay it through the checked engine when it is checked
    (which also checks that the two engines scored it alike) or recorded."""
    r = fast.rules
    _tally(
        summary,
        r,
        dealer,
        hand.decisions,
        hand.contract,
        hand.made,
        hand.tricks_by_side,
        hand.redeal,
    )
    if passes_reopen(r) and bid_after_own_pass(r, _calls(r, dealer, hand.actions)):
        summary.bid_again += 1
    checked = _checked_now(summary, check_every)
    if not checked and records is None:
        return
    state = fast.replay(hand, dealer, scores)
    if checked:
        if state.result != hand.result():
            raise InvariantError(f"the fast path scored {hand.result()}, the engine {state.result}")
        check_hand(state)
        summary.invariant_checks += 1
    if records is not None:
        records.write(json.dumps(record_of(state, hand.actions)) + "\n")


def progress_bar(stream: IO[str] | None = None, unit: str = "hands") -> Callable[[int, int], None]:
    """A progress callback for ``simulate`` on ``stream`` (standard error by default): a bar on
    a terminal, plain lines elsewhere (:func:`fivehundred.runtime.terminal.progress`)."""
    return progress(sys.stderr if stream is None else stream, "simulate", unit, last_line=False)
