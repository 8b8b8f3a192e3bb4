"""The ``search`` bot: sampled deals of the cards it cannot see, played out and solved.

Every decision it searches starts from deals of the cards its seat has not seen, drawn by a
:class:`~.sampling.Sampler` (consistent with the cards played and by whom, the suits each seat
failed to follow, the face-up hands, the kitty it took; weighted by what the bids showed).

Bidding
    For the strains its hand is best at (and misère, with few dangerous cards) it plays the hand
    out with heuristic bots as contractor in ``bids`` deals and bids a contract it made in at
    least half of them (5% more per level above the lowest; 75% for a misère, 90% for an open
    one), with the heuristic bot's auction rules (:func:`~.heuristic.choose_bid`).
Play
    When at most ``horizon`` (4) tricks are left, it tries every distinct legal card (cards
    adjacent in rank with nothing unseen between them count once) in every deal and plays the
    one with the best average score for its side. With at most ``endgame`` (3) tricks left each
    card is valued by the double-dummy :class:`~.solver.Solver` (best play by every seat in that
    deal); before, by heuristic play down to that point, then the solver. The heuristic's own
    card gets a head start of ``prior`` (10) points, so that sampling noise alone never
    overrules it; and when every card has scored the same in the first ``settle`` (4) deals
    the search stops there. Earlier in the hand, and for the kitty, partners and the like, it
    plays as the heuristic bot does.

Its budget is set in the bot spec (:func:`parse_settings`): ``search:samples=16,ms=50``
(deals per decision; a time budget per play decision, after at least two deals), and the old
forms ``search:N`` and ``search:N:S`` (N deals, at most S seconds).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from random import Random

from ..engine.codes import bits
from ..engine.hand import AUCTION, OVER, PLAY, HandState
from ..engine.seatview import SeatView, view_of
from .heuristic import (
    BidJudge,
    Decision,
    HeuristicBot,
    choose_bid,
    hand_tricks,
    heuristic_judge,
    misere_danger,
)
from .sampling import Sampler
from .solver import Solver, contract_sides
from .state import BotState, hand_state

__all__ = ["SearchBot", "SearchSettings", "distinct_actions", "parse_settings"]


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """The search bot's budget and reach (see the module doc; every field is a spec flag)."""

    #: Deals per play decision.
    samples: int = 8
    #: Deals per bid evaluation (None: as many as ``samples``; 0: bid as the heuristic).
    bids: int | None = None
    #: A time budget per play decision in milliseconds (None: none).
    ms: float | None = None
    #: Search the play when at most this many tricks are left.
    horizon: int = 4
    #: Value the cards by the double-dummy solver when at most this many tricks are left.
    endgame: int = 3
    #: Points per hand by which a card must beat the heuristic's choice in the deals.
    prior: float = 10.0
    #: Stop after this many deals in which every card scored the same (0: never).
    settle: int = 4


#: Spec flags and how each is read.
_FLAGS = {
    "samples": int,
    "bids": int,
    "ms": float,
    "horizon": int,
    "endgame": int,
    "prior": float,
    "settle": int,
}


def parse_settings(args: str) -> SearchSettings:
    """The settings of a spec's text after ``search:``: ``samples=16,ms=50`` (any of the fields
    of :class:`SearchSettings`), or the older ``N`` and ``N:S`` (N deals, S seconds).

    Raises ValueError with a sentence naming the setting at fault.
    """
    if "=" not in args:
        parts = args.split(":")
        if len(parts) > 2:
            raise ValueError("settings are search:SAMPLES or search:SAMPLES:SECONDS")
        try:
            samples = int(parts[0])
            seconds = float(parts[1]) if len(parts) > 1 else None
        except ValueError:
            raise ValueError("settings are search:SAMPLES or search:SAMPLES:SECONDS") from None
        if samples < 1 or (seconds is not None and not seconds > 0):
            raise ValueError("settings are search:SAMPLES or search:SAMPLES:SECONDS")
        return _checked(SearchSettings(samples, ms=None if seconds is None else seconds * 1000))
    values: dict[str, int | float] = {}
    for item in args.split(","):
        name, eq, text = item.strip().partition("=")
        if name not in _FLAGS:
            raise ValueError(f"unknown setting {name!r}; settings: {', '.join(_FLAGS)}")
        if not eq or name in values:
            raise ValueError(f"give each setting once, as {name}=VALUE")
        try:
            values[name] = _FLAGS[name](text)
        except ValueError:
            raise ValueError(f"{name}={text!r} is not a number") from None
    return _checked(SearchSettings(**values))  # type: ignore[arg-type]


def _checked(s: SearchSettings) -> SearchSettings:
    if s.samples < 1:
        raise ValueError(f"search needs at least 1 sample per decision, not {s.samples}")
    if s.ms is not None and not s.ms > 0:
        raise ValueError(f"ms={s.ms:g}: a time budget is more than 0 ms")
    for name in ("bids", "horizon", "endgame", "settle"):
        value = getattr(s, name)
        if value is not None and value < 0:
            raise ValueError(f"{name}={value}: it cannot be negative")
    return s


class SearchBot:
    """Bids by playing sampled deals out; plays the last tricks by sampled deals, solved."""

    name = "search"

    def __init__(
        self,
        samples: int = 8,
        seconds: float | None = None,
        *,
        settings: SearchSettings | None = None,
    ) -> None:
        if settings is None:
            settings = _checked(
                SearchSettings(samples, ms=None if seconds is None else seconds * 1000)
            )
        self.settings = settings
        self.heuristic = HeuristicBot()
        self._study: _BidStudy | None = None
        #: Deals drawn and positions solved, for measuring.
        self.deals = 0
        self.nodes = 0

    def choose(self, state: BotState, rng: Random) -> int:
        """A legal action of the seat to move (a hand state or the public ``State``)."""
        return self.decide(hand_state(state), rng).action

    def decide(self, state: HandState, rng: Random) -> Decision:
        """The action and its reason."""
        s = self.settings
        bids = s.samples if s.bids is None else s.bids
        if state.phase == AUCTION and bids:
            legal = state.legal_actions()
            if len(legal) == 1:
                return Decision(legal[0], "the only legal call")
            view = view_of(state, state.to_move)
            return choose_bid(view, legal, self._judge(state, view, rng, bids))
        if state.phase != PLAY or state.rules.hand_size - state.n_tricks > s.horizon:
            return self.heuristic.decide(state)
        return self._play(state, rng)

    # -- play ---------------------------------------------------------------------------------

    def _play(self, state: HandState, rng: Random) -> Decision:
        s = self.settings
        r = state.rules
        legal = state.legal_actions()
        seat = state.controller(state.to_move)
        view = view_of(state, seat)
        candidates = distinct_actions(view, state.to_move, legal)
        if len(candidates) == 1:
            return Decision(candidates[0], "the only card worth considering")
        side = r.side_of_seat[seat]
        # A nomination of the joker's suit is the heuristic's to make; the solver plays cards.
        solve = state.contract >= 0 and all(a < r.NOMINATE for a in candidates)
        totals = dict.fromkeys(candidates, 0.0)
        deadline = None if s.ms is None else time.perf_counter() + s.ms / 1000
        sampler = Sampler(state, view)
        done = 0
        differed = False
        for _ in range(s.samples):
            world = sampler.draw(rng)
            values = [self._value(world, a, side, solve) for a in candidates]
            for a, v in zip(candidates, values, strict=True):
                totals[a] += v
            done += 1
            differed = differed or max(values) != min(values)
            if s.settle and not differed and done >= s.settle:
                break
            if deadline is not None and done >= 2 and time.perf_counter() > deadline:
                break
        self.deals += sampler.drawn
        # The heuristic's own card unless another one is clearly better in the samples.
        preferred = self.heuristic.decide(state).action
        if preferred in totals:
            totals[preferred] += s.prior * done
        best = max(candidates, key=lambda a: (totals[a], -candidates.index(a)))
        avg = totals[best] / done - (s.prior if best == preferred else 0.0)
        how = "solved" if solve and r.hand_size - state.n_tricks <= s.endgame else "played out"
        return Decision(best, f"best average score ({avg:+.0f}) over {done} sampled deals {how}")

    def _value(self, world: HandState, action: int, side: int, solve: bool) -> float:
        """The score margin of ``side`` after ``action`` in ``world``: solved double dummy once
        at most ``endgame`` tricks are left, heuristic play before that."""
        r = world.rules
        endgame = self.settings.endgame if solve else 0
        if r.hand_size - world.n_tricks <= endgame:
            solver = Solver(world)
            taken = _counted(world, solver.counted)
            got = solver.after(action, _cap(world))
            self.nodes += solver.nodes
            return _margin(world, taken + got, side)
        w = world.copy()
        w.apply_fast(action)
        bot = self.heuristic
        while w.phase != OVER and r.hand_size - w.n_tricks > endgame:
            w.apply_fast(bot.decide(w).action)
        if w.phase == OVER:
            res = w.result
            assert res is not None
            mine = res.points[side]
            others = [p for t, p in enumerate(res.points) if t != side]
            return float(mine - max(others)) if others else float(mine)
        solver = Solver(w)
        taken = _counted(w, solver.counted) + solver.tricks(_cap(w))
        self.nodes += solver.nodes
        return _margin(w, taken, side)

    # -- bidding ------------------------------------------------------------------------------

    def _judge(self, state: HandState, view: SeatView, rng: Random, samples: int) -> BidJudge:
        """Bids judged by playing the hand out in sampled deals: the deals are kept for the
        hand, and re-weighted by every call made since (topped up with fresh deals when the
        calls leave too few that fit)."""
        key = (view.hand, view.dealer, view.scores)
        study = self._study
        if study is None or study.key != key:
            study = self._study = _BidStudy(key, view, self.heuristic)
        sampler = Sampler(state, view)
        if not study.drawn:
            # The first deals: a strain (or misère) is dropped from the deals still to play as
            # soon as they could no longer change a bid's judgement.
            while study.drawn < samples and study.undecided(samples):
                study.play(sampler, rng, study.undecided(samples))
        else:
            study.reweigh(sampler)
            while study.effective() < samples / 2 and study.drawn < 2 * samples:
                study.play(sampler, rng, study.everything())
        self.deals += sampler.drawn
        return study.judge(view, samples)


@dataclass(slots=True)
class _Deal:
    """One deal a bid study played out: the hidden hands, how badly they fitted the auction
    when drawn, the weight the calls since give it, and what the hand made in each strain."""

    hands: tuple[int, ...]
    misfit: float
    weight: float
    tricks: dict[int, int]
    misere_made: bool | None


class _BidStudy:
    """The deals one seat played out to judge its bids in one hand (see :meth:`SearchBot._judge`).

    Only strains the hand evaluation finds within 1.5 tricks of its best are played out (each
    as the lowest bid of the strain, with this seat as contractor and heuristic play), and misère
    only with few dangerous cards; the others are judged by the heuristic.
    """

    def __init__(
        self, key: tuple[int, int, tuple[int, ...]], view: SeatView, bot: HeuristicBot
    ) -> None:
        r = view.rules
        self.key = key
        self.seat = view.seat
        self.bot = bot
        self.rules = r
        self.low = min(
            lv for lv, kind in zip(r.bid_level, r.bid_kind, strict=True) if kind == "suit"
        )
        #: Every level a judgement asks about (a trick to spare included).
        self.levels = range(self.low, max(r.bid_level) + 2)
        self.deals: list[_Deal] = []
        own = [hand_tricks(r, view.hand, s) for s in range(5)]
        top = max(own)
        self.lowest: dict[int, int] = {}
        self.misere = -1
        for i in range(r.n_bids):
            if r.bid_blind[i]:
                continue
            if r.bid_kind[i] == "suit":
                self.lowest.setdefault(r.bid_strain[i], i)
            elif self.misere < 0 and r.bid_partner[i] != "both-hands" and r.bid_open[i] == "no":
                self.misere = i
        self.strains = [st for st, i in self.lowest.items() if own[st] >= top - 1.5]
        drops = r.discard_count if r.kitty_take else 0
        if self.misere >= 0 and len(misere_danger(r, view.hand, 2)) > drops + 1:
            self.misere = -1

    @property
    def drawn(self) -> int:
        """Deals played out so far."""
        return len(self.deals)

    def effective(self) -> float:
        """The effective number of deals under their weights (Kish)."""
        total = sum(d.weight for d in self.deals)
        squares = sum(d.weight * d.weight for d in self.deals)
        return total * total / squares if squares else 0.0

    def reweigh(self, sampler: Sampler) -> None:
        """Weigh every deal by how much worse it fits the calls now than when it was drawn."""
        for d in self.deals:
            world_misfit = sampler.misfit_of(d.hands)
            d.weight = math.exp(-sampler.weight * max(0.0, world_misfit - d.misfit))

    def everything(self) -> tuple[int, ...]:
        """Every strain studied, and misère (as -1) if it is."""
        return (*self.strains, -1) if self.misere >= 0 else tuple(self.strains)

    def undecided(self, planned: int) -> tuple[int, ...]:
        """The strains (and misère, -1) whose judgement at some level the rest of ``planned``
        deals could still change: the share made so far, with every deal to come made or with
        none, falls on both sides of a bid's threshold."""
        n = len(self.deals)
        rest = planned - n
        out = []
        for st in self.strains:
            got = [d.tricks[st] for d in self.deals if st in d.tricks]
            if len(got) < n:
                continue  # decided earlier
            for level in self.levels:
                made = sum(t >= level for t in got)
                need = _BID_P + _BID_P_STEP * (level - self.low)
                if (made >= need * planned) != (made + rest >= need * planned):
                    out.append(st)
                    break
        if self.misere >= 0 and planned >= _MISERE_SAMPLES:
            played = [d.misere_made for d in self.deals if d.misere_made is not None]
            if len(played) == n:
                made = sum(played)
                for need in (0.75, 0.9):
                    if (made >= need * planned) != (made + rest >= need * planned):
                        out.append(-1)
                        break
        return tuple(out)

    def play(self, sampler: Sampler, rng: Random, strains: tuple[int, ...]) -> None:
        """Draw one more deal and play it out in ``strains`` (-1: misère)."""
        r = sampler.view.rules
        world = sampler.draw(rng)
        tricks = {}
        made: bool | None = None
        for st in strains:
            w = world.copy()
            w.end_auction_with(self.seat, self.misere if st < 0 else self.lowest[st])
            _finish(w, self.bot, 0 if st < 0 else self.low)
            if st < 0:
                made = bool(w.result and w.result.made)
            else:
                tricks[st] = sum(w.tricks_won[s] for s in range(r.players) if w.allies >> s & 1)
        hands = tuple(world.hands)
        self.deals.append(_Deal(hands, sampler.misfit_of(hands), 1.0, tricks, made))

    def judge(self, view: SeatView, planned: int) -> BidJudge:
        """The judge of bids from the deals as weighted now (misère by the heuristic when
        fewer than :data:`_MISERE_SAMPLES` deals are ``planned``)."""
        r = view.rules
        fallback = heuristic_judge(view)
        deals = self.deals
        misere = self.misere if planned >= _MISERE_SAMPLES else -1
        low = self.low

        def share(hits: list[tuple[float, bool]]) -> float:
            total = sum(w for w, _ in hits)
            return sum(w for w, hit in hits if hit) / total if total else 0.0

        def judge(i: int, strict: bool) -> str | None:
            if r.bid_kind[i] == "misere":
                if misere < 0:
                    return fallback(i, strict)  # too few deals to trust with 250 points or more
                hits = [(d.weight, d.misere_made) for d in deals if d.misere_made is not None]
                p = share(hits)
                need = 0.9 if r.bid_open[i] != "no" or r.bid_partner[i] == "both-hands" else 0.75
                if p >= need:
                    return f"misère made in {p:.0%} of {len(hits)} sampled deals"
                return None
            st = r.bid_strain[i]
            if st not in self.strains:
                return fallback(i, strict)
            level = r.bid_level[i] + strict
            hits = [(d.weight, d.tricks[st] >= level) for d in deals if st in d.tricks]
            p = share(hits)
            if p >= _BID_P + _BID_P_STEP * (level - low):
                return f"made in {p:.0%} of {len(hits)} sampled deals played out"
            return None

        return judge


#: The share of sampled deals in which a contract must be made to bid it, at the lowest level,
#: and how much more per level above.
_BID_P = 0.5
_BID_P_STEP = 0.05

#: Fewer deals than this judge a misère by the heuristic's hand evaluation instead.
_MISERE_SAMPLES = 8


def _finish(state: HandState, bot: HeuristicBot, short: int = 0) -> None:
    """Play the hand out with ``bot`` at every seat; stop early once the contractor's side
    can no longer take ``short`` tricks (every level it is judged at is lost by then)."""
    r = state.rules
    while state.phase != OVER:
        state.apply_fast(bot.decide(state).action)
        if short and state.phase == PLAY:
            theirs = sum(w for s, w in enumerate(state.tricks_won) if not state.allies >> s & 1)
            if theirs > r.hand_size - short:
                return


def _counted(state: HandState, counted: int) -> int:
    return sum(state.tricks_won[s] for s in range(state.rules.players) if counted >> s & 1)


def _cap(state: HandState) -> int | None:
    """Tricks worth telling apart: at misère, one is as bad as any."""
    return max(0, 1 - _counted(state, state.allies)) if state.misere else None


def _margin(state: HandState, taken: int, side: int) -> float:
    """The score margin of ``side`` (its points less the best other side's) when the contractor's
    side ends the hand with ``taken`` tricks (the score clauses, as the engine's ``_score``; the
    defenders' tricks shared evenly where they score apart)."""
    r = state.rules
    counted, _ = contract_sides(state)
    sides = r.side_of_seat
    n = r.hand_size
    if state.contract < 0:  # all passed, played at no trumps: every side scores its tricks
        return float(r.all_pass_per_trick * (2 * taken - n))
    contract = state.contract
    value = r.bid_value[contract] + (r.sans_kitty_bonus or 0) * state.sans
    if state.misere:
        gain = value if taken == 0 else -value
        per_trick = r.opponents_against_misere
        opp = n - taken
    else:
        level = r.bid_level[contract]
        if taken < level:
            gain = -value
        elif taken == n and value < r.slam_below:
            gain = r.slam_value
        else:
            gain = value + r.overtricks * (taken - level)
        per_trick = r.opponents_per_trick
        opp = n - taken
    ally_sides = {sides[s] for s in bits(counted)}
    others = [t for t in range(r.n_sides) if t not in ally_sides]
    points = [0.0] * r.n_sides
    share: float = opp if r.pool_opponents or not others else opp / len(others)
    for t in range(r.n_sides):
        if t in ally_sides:
            points[t] = gain
            continue
        earned: float = per_trick * share
        if r.opponents_freeze_at is not None and r.scoring["freeze"] == "threshold":
            earned = 0.0 if state.scores[t] > r.opponents_freeze_at else earned
        elif r.opponents_freeze_at is not None:
            earned = max(0.0, min(earned, r.opponents_freeze_at - state.scores[t]))
        points[t] = earned
    mine = points[side]
    rest = [p for t, p in enumerate(points) if t != side]
    return float(mine - max(rest)) if rest else float(mine)


def distinct_actions(view: SeatView, mover: int, legal: list[int]) -> list[int]:
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
