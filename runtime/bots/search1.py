"""The ``search-1`` bot: the search bot as it was before the solver, kept as the reference
that the ``search`` bot's speed and strength are measured against (README, "How strong they
are"); it is not developed further.

Determinized sampling of the cards it cannot see, and playouts.

It deals the cards its seat has not seen afresh, many times (:func:`~fivehundred.runtime.
seatview.sample_world`: consistent with the seat's view: the suits each seat has shown out of,
the cards seen, the kitty it took; and, among a few such deals, the one that best fits the bids
made so far), and plays the hand out in each deal with heuristic bots at every seat.

Bidding
    For the strains its hand is best at (and misère, with few dangerous cards) it plays the hand
    out as contractor in ``samples`` deals and bids a contract it made in at least half of
    them (5% more per level above the lowest; 75% for a misère, 90% for an open one), with the
    heuristic bot's auction rules (the cheapest such bid in rounds, never over a partner).
    Whole games showed this beats the heuristic's hand evaluation clearly.
Play
    When at most ``horizon`` (6) tricks are left, it tries every distinct legal card (cards
    adjacent in rank with nothing unseen between them count once) in every deal and plays the
    one with the best average score for its side; the heuristic's own card gets a head start
    of ``prior`` (10) points, so that sampling noise alone never overrules it. Earlier in the
    hand, and for the kitty (unless ``discard``), partners and the like, it plays as the
    heuristic bot does.

Strength and time: ``samples`` deals per decision (8), and ``seconds``, a time budget per play
decision after which sampling stops (after at least two deals). ``--bots`` accepts ``search``,
``search-1:N`` (N deals) and ``search-1:N:S`` (N deals, at most S seconds).
"""

from __future__ import annotations

import time
from random import Random

from ..engine.codes import bits
from ..engine.hand import AUCTION, DISCARD, OVER, PLAY, HandState
from ..engine.seatview import SeatView, played_by, sample_world, view_of
from .heuristic import (
    BidJudge,
    Decision,
    HeuristicBot,
    allowance,
    choose_bid,
    discard_options,
    hand_tricks,
    heuristic_judge,
    misere_danger,
)
from .search import distinct_actions
from .state import BotState, hand_state

__all__ = ["SearchBotV1"]


class SearchBotV1:
    """Bids by playing sampled deals out; plays the last tricks by determinized playouts."""

    name = "search-1"

    def __init__(
        self,
        samples: int = 8,
        seconds: float | None = None,
        *,
        bid_samples: int | None = None,
        discard: bool = False,
        prior: float = 10.0,
        horizon: int = 6,
    ) -> None:
        if samples < 1:
            raise ValueError(f"search needs at least 1 sample per decision, not {samples}")
        self.samples = samples
        self.seconds = seconds
        self.heuristic = HeuristicBot()
        #: Search the play only when at most this many tricks are left: earlier, with most
        #: cards unseen, sampled deals are too far from the truth to beat the heuristic.
        self.horizon = horizon
        #: Points per hand by which a card must beat the heuristic's choice in the samples.
        self.prior = prior
        #: Deals per discard evaluation (0: discard as the heuristic bot does).
        self.discard_samples = samples if discard else 0
        #: Deals per bid evaluation (0: bid as the heuristic bot does).
        self.bid_samples = samples if bid_samples is None else bid_samples
        self._judged: tuple[tuple[int, int, tuple[tuple[int, int], ...]], BidJudge] | None = None
        self._plan: tuple[tuple[int, int], int, str] | None = None

    def _discard(self, state: HandState, rng: Random) -> Decision:
        """One card of the discard set that played out best in sampled deals."""
        r = state.rules
        view = view_of(state, state.contractor)
        key = (view.hand | view.discarded, view.contract)
        if self._plan is None or self._plan[0] != key:
            options = discard_options(view)
            if len(options) == 1:
                mask, why = options[0]
            else:
                side = r.side_of_seat[view.seat]
                totals = [0.0] * len(options)
                for _ in range(self.discard_samples):
                    world = sample_world(state, view, rng)
                    for k, (drop, _) in enumerate(options):
                        w = world.copy()
                        for c in bits(drop):
                            w.apply_fast(r.DISCARD + c)
                        totals[k] += _rollout(w, self.heuristic, side)
                # The heuristic's own choice (first) unless another is clearly better.
                totals[0] += _PREFER_FIRST * self.discard_samples
                k = max(range(len(options)), key=lambda k: (totals[k], -k))
                mask = options[k][0]
                avg = totals[k] / self.discard_samples
                why = f"{options[k][1]} (best of {len(options)} discards played out: {avg:+.0f})"
            self._plan = (key, mask, why)
        _, mask, why = self._plan
        left = mask & view.hand
        if not left:
            return self.heuristic.decide(state)
        return Decision(r.DISCARD + (left & -left).bit_length() - 1, why)

    def _judge(self, state: HandState, view: SeatView, rng: Random) -> BidJudge:
        """Bids judged by playing the hand out in sampled deals (kept for the hand)."""
        r = view.rules
        team = sum(1 << s for s in r.teams[r.side_of_seat[view.seat]])
        told = tuple((s, a) for s, a in view.calls if team >> s & 1 and s != view.seat)
        key = (view.hand, view.dealer, told)
        if self._judged is not None and self._judged[0] == key:
            return self._judged[1]
        judge = _simulated_judge(state, view, rng, self.bid_samples, self.heuristic)
        self._judged = (key, judge)
        return judge

    def choose(self, state: BotState, rng: Random) -> int:
        """A legal action of the seat to move (a hand state or the public ``State``)."""
        return self.decide(hand_state(state), rng).action

    def decide(self, state: HandState, rng: Random) -> Decision:
        """The action and its reason."""
        if state.phase == AUCTION and self.bid_samples:
            legal = state.legal_actions()
            if len(legal) == 1:
                return Decision(legal[0], "the only legal call")
            view = view_of(state, state.to_move)
            return choose_bid(view, legal, self._judge(state, view, rng))
        if state.phase == DISCARD and self.discard_samples:
            return self._discard(state, rng)
        if state.phase != PLAY:
            return self.heuristic.decide(state)
        if state.rules.hand_size - state.n_tricks > self.horizon:
            return self.heuristic.decide(state)
        legal = state.legal_actions()
        seat = state.controller(state.to_move)
        view = view_of(state, seat)
        candidates = distinct_actions(view, state.to_move, legal)
        if len(candidates) == 1:
            return Decision(candidates[0], "the only card worth considering")
        r = state.rules
        side = r.side_of_seat[seat]
        totals = dict.fromkeys(candidates, 0.0)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        shown = _bids_shown(view)
        for _ in range(self.samples):
            world = _likely_world(state, view, shown, rng)
            for a in candidates:
                w = world.copy()
                w.apply_fast(a)
                totals[a] += _rollout(w, self.heuristic, side)
            done += 1
            if deadline is not None and done >= 2 and time.perf_counter() > deadline:
                break
        # The heuristic's own card unless another one is clearly better in the samples.
        preferred = self.heuristic.decide(state).action
        if preferred in totals:
            totals[preferred] += self.prior * done
        best = max(candidates, key=lambda a: (totals[a], -candidates.index(a)))
        avg = totals[best] / done - (self.prior if best == preferred else 0.0)
        return Decision(best, f"best average score ({avg:+.0f}) over {done} sampled deals")


def _simulated_judge(
    state: HandState, view: SeatView, rng: Random, samples: int, bot: HeuristicBot
) -> BidJudge:
    """Judge bids by the tricks the side takes when the hand is played out (heuristic play)
    with this seat as contractor, in deals sampled to agree with the auction so far.

    Only strains the hand evaluation finds within two tricks of its best are played out, and
    misère only with few dangerous cards; the others are judged by the heuristic.
    """
    r = view.rules
    fallback = heuristic_judge(view)
    own = [hand_tricks(r, view.hand, s) for s in range(5)]
    top = max(own)
    lowest: dict[int, int] = {}
    misere = -1
    for i in range(r.n_bids):
        if r.bid_blind[i]:
            continue
        if r.bid_kind[i] == "suit":
            lowest.setdefault(r.bid_strain[i], i)
        elif misere < 0 and r.bid_partner[i] != "both-hands" and r.bid_open[i] == "no":
            misere = i
    strains = [st for st, i in lowest.items() if own[st] >= top - 1.5]
    drops = r.discard_count if r.kitty_take else 0
    if misere >= 0 and len(misere_danger(r, view.hand, 2)) > drops + 1:
        misere = -1
    tricks: dict[int, list[int]] = {st: [] for st in strains}
    misere_made: list[bool] = []
    shown = _bids_shown(view)
    for _ in range(samples):
        world = _likely_world(state, view, shown, rng)
        for st in strains:
            w = world.copy()
            w.end_auction_with(view.seat, lowest[st])
            _finish(w, bot)
            tricks[st].append(sum(w.tricks_won[s] for s in range(r.players) if w.allies >> s & 1))
        if misere >= 0:
            w = world.copy()
            w.end_auction_with(view.seat, misere)
            _finish(w, bot)
            misere_made.append(bool(w.result and w.result.made))
    low = min(lv for lv, kind in zip(r.bid_level, r.bid_kind, strict=True) if kind == "suit")

    def judge(i: int, strict: bool) -> str | None:
        if r.bid_kind[i] == "misere":
            if misere < 0 or len(misere_made) < _MISERE_SAMPLES:
                return fallback(i, strict)  # too few deals to trust with 250 points or more
            p = sum(misere_made) / len(misere_made)
            need = 0.9 if r.bid_open[i] != "no" or r.bid_partner[i] == "both-hands" else 0.75
            if p >= need:
                return f"misère made in {p:.0%} of {len(misere_made)} sampled deals"
            return None
        st = r.bid_strain[i]
        if st not in tricks:
            return fallback(i, strict)
        level = r.bid_level[i] + strict
        got = tricks[st]
        p = sum(t >= level for t in got) / len(got)
        if p >= _BID_P + _BID_P_STEP * (level - low):
            return f"made in {p:.0%} of {len(got)} sampled deals played out"
        return None

    return judge


def _finish(state: HandState, bot: HeuristicBot) -> None:
    while state.phase != OVER:
        state.apply_fast(bot.decide(state).action)


def _bids_shown(view: SeatView) -> list[tuple[int, int, float]]:
    """What the auction says of the hidden hands: (seat, strain, tricks its hand should hold).

    A seat that bid a strain (an inkle too) should hold about the tricks the heuristic bot
    would have needed for that bid, less what it counted on from partners and the kitty.
    """
    r = view.rules
    best: dict[int, tuple[int, int]] = {}
    for seat, a in view.calls:
        if a <= r.PASS or seat == view.seat or view.faced[seat]:
            continue
        i = a - r.BID
        if r.bid_kind[i] != "suit":
            continue
        if seat not in best or r.bid_level[i] > best[seat][1]:
            best[seat] = (r.bid_strain[i], r.bid_level[i])
    out = []
    for seat, (strain, level) in best.items():
        need = level - allowance(r, level) - 1.0
        out.append((seat, strain, need))
    return out


def _likely_world(
    state: HandState, view: SeatView, shown: list[tuple[int, int, float]], rng: Random
) -> HandState:
    """A sampled deal, chosen among a few for agreeing best with the bids ``shown``."""
    if not shown:
        return sample_world(state, view, rng)
    best: HandState | None = None
    best_gap = 0.0
    r = view.rules
    for _ in range(_TRIES):
        world = sample_world(state, view, rng)
        gap = 0.0
        for seat, strain, need in shown:
            held = world.hands[seat] | played_by(view, seat)
            got = hand_tricks(r, held, strain)
            if got < need:
                gap += need - got
        if best is None or gap < best_gap:
            best, best_gap = world, gap
        if gap <= 0:
            break
    assert best is not None
    return best


#: The share of sampled deals in which a contract must be made to bid it, at the lowest level,
#: and how much more per level above.
_BID_P = 0.5
_BID_P_STEP = 0.05

#: Fewer deals than this judge a misère by the heuristic's hand evaluation instead.
_MISERE_SAMPLES = 8

#: Points per hand by which another discard must beat the heuristic's choice.
_PREFER_FIRST = 15.0

#: Deals drawn per sample when looking for one that agrees with the auction.
_TRIES = 8


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
