"""The ``search`` bot: determinized sampling and playouts over the cards it cannot see.

For a decision in the play phase it deals the unseen cards afresh a number of times
(:func:`~fivehundred.runtime.seatview.sample_world`: consistent with the seat's view: the
voids shown, the cards seen, the kitty it took), plays every candidate card in each of those
deals and finishes the hand with heuristic bots at every seat, and chooses the card with the best
average score for its side. Cards that are equivalent (adjacent in rank, nothing unseen between
them) are tried once. Bidding, the kitty and partners are the heuristic bot's.

Strength and time are set by ``samples`` (deals per decision) and ``seconds`` (a time budget per
decision; sampling stops early when it runs out, after at least two deals); ``--bots`` accepts
``search`` (16 deals), ``search:N`` (N deals) and ``search:N:S`` (N deals, at most S seconds).
"""

from __future__ import annotations

import time
from random import Random

from .codes import bits
from .hand import OVER, PLAY, HandState
from .heuristic import Decision, HeuristicBot
from .seatview import SeatView, sample_world, view_of

__all__ = ["SearchBot"]


class SearchBot:
    """Determinized playouts in the play phase; heuristic bidding and discards."""

    name = "search"

    def __init__(self, samples: int = 16, seconds: float | None = None) -> None:
        if samples < 1:
            raise ValueError(f"search needs at least 1 sample per decision, not {samples}")
        self.samples = samples
        self.seconds = seconds
        self.heuristic = HeuristicBot()

    def choose(self, state: HandState, rng: Random) -> int:
        """A legal action of the seat to move."""
        return self.decide(state, rng).action

    def decide(self, state: HandState, rng: Random) -> Decision:
        """The action and its reason."""
        if state.phase != PLAY:
            return self.heuristic.decide(state)
        legal = state.legal_actions()
        seat = state.controller(state.to_move)
        view = view_of(state, seat)
        candidates = _distinct(view, state.to_move, legal)
        if len(candidates) == 1:
            return Decision(candidates[0], "the only card worth considering")
        r = state.rules
        side = r.side_of_seat[seat]
        totals = dict.fromkeys(candidates, 0.0)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        for _ in range(self.samples):
            world = sample_world(state, view, rng)
            for a in candidates:
                w = world.copy()
                w.apply_fast(a)
                totals[a] += _rollout(w, self.heuristic, side)
            done += 1
            if deadline is not None and done >= 2 and time.perf_counter() > deadline:
                break
        best = max(candidates, key=lambda a: (totals[a], -candidates.index(a)))
        avg = totals[best] / done
        return Decision(best, f"best average score ({avg:+.0f}) over {done} sampled deals")


def _rollout(state: HandState, bot: HeuristicBot, side: int) -> float:
    """Finish the hand with heuristic play at every seat; the score margin of ``side``."""
    while state.phase != OVER:
        state.apply_fast(bot.decide(state).action)
    res = state.result
    assert res is not None
    points = res.points
    mine = points[side]
    others = [p for s, p in enumerate(points) if s != side]
    return float(mine - max(others)) if others else float(mine)


def _distinct(view: SeatView, mover: int, legal: list[int]) -> list[int]:
    """The legal actions with equivalent cards dropped (same suit, adjacent among unseen)."""
    r = view.rules
    hand = view.hand if mover == view.seat else view.faced[mover]
    gone = view.played
    out: list[int] = []
    seen_groups: set[tuple[int, int]] = set()
    power = view.power
    suit_of = view.suit_of
    for a in legal:
        if a >= r.JOKER_LEAD:
            out.append(a)
            continue
        suit = suit_of[a]
        # The group of a card: the highest card of the run of cards held or gone above it.
        top = a
        while True:
            above = [
                c for c in bits(view.masks[suit] & ~gone & ~(1 << top)) if power[c] > power[top]
            ]
            if not above:
                break
            nxt = min(above, key=lambda c: power[c])
            if not hand >> nxt & 1:
                break
            top = nxt
        key = (suit, top)
        if key in seen_groups:
            continue
        seen_groups.add(key)
        out.append(a)
    return out
