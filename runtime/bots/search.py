"""The ``search`` bot: sampled deals of the cards it cannot see, played out and solved.

Every decision it searches starts from deals of the cards its seat has not seen, drawn by a
:class:`~.sampling.Sampler` (consistent with the cards played and by whom, the suits each seat
failed to follow, the face-up hands, the kitty it took; weighted by what the bids showed, and
with ``slip`` by how likely the heuristic would have made the plays seen).

Bidding
    For the strains its hand is best at (and misère, with few dangerous cards) it plays the hand
    out as contractor in ``bids`` (16) deals, as it expects the hand to go (:class:`_Player`:
    heuristic play, its own discard), and draws the heuristic's chance of every such bid
    towards the share of deals that made it (the heuristic's model counting as ``model`` (8)
    deals). The heuristic's auction rules then choose the call from those chances
    (:func:`~.heuristic.choose_bid`: the strain that gains most, the score's needs, raises),
    asking of every bid ``bold`` (0.05) less chance than the heuristic asks.
    Against the opponents' contract, when no partner of its own can call after it, it also
    plays their contract out in the same deals (heuristic play) and outbids it when its
    cheapest bid of a strain studied loses ``compete`` (20) points a deal less than letting
    it stand, or lets it stand when the bid chosen would lose that much more.
Kitty
    It discards at the contract's strain (the heuristic's options read with the trumps that
    the play will have) and plays each option out in ``discards`` (16) deals, keeping the
    first unless another is clearly better.
Play
    When at most ``horizon`` (6) tricks are left, it tries every distinct legal card (cards
    adjacent in rank with nothing unseen between them count once) in every deal and plays the
    one with the best average score for its side. With at most ``endgame`` (4) tricks left each
    card is valued by the double-dummy :class:`~.solver.Solver` (best play by every seat in that
    deal); before, by heuristic play down to that point, then the solver. The heuristic's own
    card gets a head start of ``prior`` (10) points, so that sampling noise alone never
    overrules it; and when every card has scored the same in the first ``settle`` (4) deals
    the search stops there. Earlier in the hand, and for the kitty, partners and the like, it
    plays as the heuristic bot does.

Its budget is set in the bot spec (:func:`parse_settings`): ``search:samples=16,ms=50``
(deals per decision; a time budget per play decision, after at least two deals), and the old
forms ``search:N`` and ``search:N:S`` (N deals, at most S seconds).

Every decision comes with a reason, translatable as the heuristic's are: a message marked
``N_`` or a :class:`~.reasons.Why` whose bids are :func:`~.reasons.bid_param` codes, shown in
the reader's notation (a special bid by its name), and whose margins are
:func:`~.reasons.signed_param` numbers.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from random import Random

from ..engine.codes import bits
from ..engine.game import gone_out, reaches
from ..engine.hand import AUCTION, DISCARD, OVER, PLAY, HandState, passes_reopen
from ..engine.messages import N_
from ..engine.scoring import contract_points, opponent_points, score_hand, trick_points
from ..engine.seatview import SeatView, view_of
from .heuristic import (
    BidOdds,
    Decision,
    HeuristicBot,
    _judge_of,
    bid_odds,
    choose_bid,
    discard_choice,
    discard_options,
    hand_tricks,
    misere_danger,
)
from .reasons import Why, bid_param, percent_param, signed_param
from .sampling import Sampler
from .solver import Solver, contract_sides
from .state import BotState, hand_state

__all__ = ["SearchBot", "SearchSettings", "distinct_actions", "parse_settings"]


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """The search bot's budget and reach (see the module doc; every field is a spec flag)."""

    #: Deals per play decision.
    samples: int = 8
    #: Deals per bid study (0: bid as the heuristic).
    bids: int = 16
    #: A time budget per play decision in milliseconds (None: none).
    ms: float | None = None
    #: Search the play when at most this many tricks are left.
    horizon: int = 6
    #: Value the cards by the double-dummy solver when at most this many tricks are left.
    endgame: int = 4
    #: Points per deal by which a card or a discard must beat the heuristic's choice.
    prior: float = 10.0
    #: Stop after this many deals in which every card scored the same (0: never).
    settle: int = 4
    #: The heuristic's model of a bid's chance, worth this many deals of a bid study.
    model: float = 8.0
    #: Deals per discard, every option played out in each (0: the first option).
    discards: int = 16
    #: The chance a seat makes a play the heuristic would not have made in its place, by
    #: which the play deals are weighed (0: the plays are not read).
    slip: float = 0.0
    #: Deals drawn at most for each deal kept.
    tries: int = 8
    #: Against the opponents' contract, with no partner left to call: points a deal by which
    #: outbidding it must beat letting it stand, or letting it stand must beat the bid the
    #: odds chose (0: the heuristic's auction rules alone).
    compete: float = 20.0
    #: The chance by which the chance asked of every bid is lowered (negative: raised), the
    #: bid study's odds being drawn from deals played out, not the hand's count alone.
    bold: float = 0.05


#: Spec flags and how each is read.
_FLAGS = {
    "samples": int,
    "bids": int,
    "ms": float,
    "horizon": int,
    "endgame": int,
    "prior": float,
    "settle": int,
    "model": float,
    "discards": int,
    "slip": float,
    "tries": int,
    "compete": float,
    "bold": float,
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
    for name, kind in _FLAGS.items():
        value = getattr(s, name)
        if kind is float and value is not None and not math.isfinite(value):
            raise ValueError(f"{name}={value}: a setting is a finite number")
    if s.samples < 1:
        raise ValueError(f"search needs at least 1 sample per decision, not {s.samples}")
    if s.ms is not None and not s.ms > 0:
        raise ValueError(f"ms={s.ms:g}: a time budget is more than 0 ms")
    for name in ("bids", "horizon", "endgame", "prior", "settle", "model", "discards", "compete"):
        value = getattr(s, name)
        if value < 0:
            raise ValueError(f"{name}={value:g}: it cannot be negative")
    if not 0 <= s.slip < 1:
        raise ValueError(f"slip={s.slip:g}: a chance from 0 up to (not including) 1")
    if not -1 < s.bold < 1:
        raise ValueError(f"bold={s.bold:g}: a chance between -1 and 1")
    if s.tries < 1:
        raise ValueError(f"tries={s.tries}: at least 1 deal is drawn")
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
        self.player = _Player(self.heuristic)
        self._study: _BidStudy | None = None
        self._plan: tuple[tuple[int, int, int, tuple[int, ...]], int, str] | None = None
        #: Deals drawn and positions solved, for measuring.
        self.deals = 0
        self.nodes = 0

    def choose(self, state: BotState, rng: Random) -> int:
        """A legal action of the seat to move (a hand state or the public ``State``)."""
        return self.decide(hand_state(state), rng).action

    def decide(self, state: HandState, rng: Random) -> Decision:
        """The action and its reason."""
        s = self.settings
        if state.phase == AUCTION and s.bids:
            legal = state.legal_actions()
            if len(legal) == 1:
                return Decision(legal[0], N_("the only legal call"))
            view = view_of(state, state.to_move)
            odds = self._odds(state, view, rng)
            call = choose_bid(view, legal, _judge_of(odds, state.rules), odds)
            if s.compete > 0 and self._study is not None:
                return self._compete(view, legal, call, self._study)
            return call
        if state.phase == DISCARD:
            return self._discard(state, rng)
        if state.phase != PLAY or state.rules.hand_size - state.n_tricks > s.horizon:
            return self.heuristic.decide(state)
        return self._play(state, rng)

    # -- discard ------------------------------------------------------------------------------

    def _discard(self, state: HandState, rng: Random) -> Decision:
        """One card of the discard that played out best in ``discards`` sampled deals, among
        the heuristic's options read at the contract's strain (the first ahead by ``prior``
        points a deal)."""
        s = self.settings
        r = state.rules
        view = _contract_view(view_of(state, state.contractor))
        key = (view.hand | view.discarded, view.contract, view.dealer, view.scores)
        if self._plan is None or self._plan[0] != key:
            options = discard_options(view)
            if len(options) == 1 or not s.discards:
                mask, why = options[0]
            else:
                side = r.side_of_seat[view.seat]
                totals = [0.0] * len(options)
                sampler = Sampler(state, view)
                bot = self.player
                for _ in range(s.discards):
                    world = sampler.draw(rng)
                    for k, (drop, _) in enumerate(options):
                        w = world.copy()
                        for c in bits(drop):
                            w.apply_fast(r.DISCARD + c)
                        while w.phase != OVER:
                            w.apply_fast(bot.decide(w).action)
                        totals[k] += _outcome(w, side)
                self.deals += sampler.drawn
                totals[0] += s.prior * s.discards
                k = max(range(len(options)), key=lambda k: (totals[k], -k))
                mask = options[k][0]
                avg = totals[k] / s.discards - (s.prior if k == 0 else 0.0)
                why = Why(
                    # Translators: why the search bot discards these cards: %(why)s is the
                    # heuristic's reason for them, %(margin)s the side's mean score margin a
                    # deal (+12) when each of the %(options)s discards was played out.
                    N_("%(why)s (best of %(options)s discards played out: %(margin)s)"),
                    why=options[k][1],
                    options=len(options),
                    margin=signed_param(avg),
                )
            self._plan = (key, mask, why)
        _, mask, why = self._plan
        left = mask & view.hand
        if not left:
            return self.player.decide(state)
        return Decision(r.DISCARD + (left & -left).bit_length() - 1, why)

    # -- play ---------------------------------------------------------------------------------

    def _play(self, state: HandState, rng: Random) -> Decision:
        s = self.settings
        r = state.rules
        legal = state.legal_actions()
        seat = state.controller(state.to_move)
        view = view_of(state, seat)
        candidates = distinct_actions(view, state.to_move, legal)
        if len(candidates) == 1:
            return Decision(candidates[0], N_("the only card worth considering"))
        side = r.side_of_seat[seat]
        # A nomination of the joker's suit is the heuristic's to make; the solver plays cards.
        solve = state.contract >= 0 and all(a < r.NOMINATE for a in candidates)
        totals = dict.fromkeys(candidates, 0.0)
        deadline = None if s.ms is None else time.perf_counter() + s.ms / 1000
        if s.slip > 0:
            bot = self.heuristic
            sampler = Sampler(
                state, view, policy=lambda w: bot.decide(w).action, slip=s.slip, tries=s.tries
            )
        else:
            sampler = Sampler(state, view)
        done = 0
        differed = False
        for _ in range(s.samples):
            world = sampler.draw(rng)
            values = self._values(world, candidates, side, solve)
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
        if solve and r.hand_size - state.n_tricks <= s.endgame:
            # Translators: why the search bot plays this card: %(margin)s is the side's mean
            # score margin a deal (+12) over %(deals)s deals of the unseen cards, each solved
            # with best play by every seat.
            how = N_("best average score (%(margin)s) over %(deals)s sampled deals solved")
        else:
            # Translators: as above, the deals played out by the bot's own rules of play.
            how = N_("best average score (%(margin)s) over %(deals)s sampled deals played out")
        return Decision(best, Why(how, margin=signed_param(avg), deals=done))

    def _values(self, world: HandState, actions: list[int], side: int, solve: bool) -> list[float]:
        """:meth:`_value` of every action in ``world`` (one solver for them all when the
        position is solved now: its table serves every action)."""
        r = world.rules
        if solve and r.hand_size - world.n_tricks <= self.settings.endgame:
            solver = Solver(world)
            taken = _counted(world, solver.counted)
            cap = _cap(world)
            out: list[float] = []
            got: int | None = None  # sibling cards mostly take as many tricks: tried first
            for a in actions:
                got = solver.after(a, cap, got)
                out.append(_margin(world, taken + got, side))
            self.nodes += solver.nodes
            return out
        last: list[int | None] = [None]  # the last solver's count, tried first by the next
        return [self._value(world, a, side, solve, last) for a in actions]

    def _value(
        self,
        world: HandState,
        action: int,
        side: int,
        solve: bool,
        guess: list[int | None] | None = None,
    ) -> float:
        """The score margin of ``side`` after ``action`` in ``world``: solved double dummy once
        at most ``endgame`` tricks are left, heuristic play before that (``guess``: a box for
        the count of the solver's last answer, which orders the next one's searches)."""
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
        got = solver.tricks(_cap(w), None if guess is None else guess[0])
        if guess is not None:
            guess[0] = got
        taken = _counted(w, solver.counted) + got
        self.nodes += solver.nodes
        return _margin(w, taken, side)

    # -- bidding ------------------------------------------------------------------------------

    def _compete(
        self, view: SeatView, legal: list[int], call: Decision, study: _BidStudy
    ) -> Decision:
        """Against the opponents' contract, when no partner can call after this seat: outbid
        it when that loses less than letting it stand, and let it stand when outbidding it
        would lose more (by the deals played out both ways)."""
        r = view.rules
        team = sum(1 << t for t in r.teams[r.side_of_seat[view.seat]])
        if view.high < 0 or team >> view.high_seat & 1:
            return call
        if passes_reopen(r) or r.procedure != "rounds":
            return call
        passed = {t for t, a in view.calls if a == r.PASS}
        if any(team >> t & 1 and t != view.seat and t not in passed for t in range(r.players)):
            return call  # a partner may still outbid them
        s = self.settings
        if call.action != r.PASS:
            if call.action == r.REDEAL or study.key_of(call.action - r.BID) is None:
                return call
            mine = view.scores[r.side_of_seat[view.seat]]
            theirs = view.scores[r.side_of_seat[view.high_seat]]
            if reaches(r, theirs + r.bid_value[view.high]) or reaches(
                r, mine + r.bid_value[call.action - r.BID]
            ):
                return call  # a contract that ends the game is the score's to weigh
            passing = study.rival_margin(view.high, view.high_seat, self.heuristic)
            loss = passing - study.bid_margin(call.action - r.BID)
            if loss <= s.compete:
                return call
            return Decision(
                r.PASS,
                Why(
                    # Translators: why the search bot passes over the opponents' bid %(high)s:
                    # outbidding it would change the side's mean score margin a deal by
                    # %(margin)s (-30), over %(deals)s deals of the unseen cards played out.
                    N_(
                        "let %(high)s stand: %(margin)s a deal against outbidding it, "
                        "over %(deals)s sampled deals played out"
                    ),
                    high=bid_param(r, view.high),
                    margin=signed_param(loss),
                    deals=len(study.deals),
                ),
            )
        cheapest: dict[int, int] = {}
        for a in legal:
            if a <= r.PASS or a == r.REDEAL:
                continue
            i = a - r.BID
            key = study.key_of(i)
            if key is None or key in cheapest:
                continue
            cheapest[key] = a
        if not cheapest:
            return call
        passing = study.rival_margin(view.high, view.high_seat, self.heuristic)
        best = max(cheapest.values(), key=lambda a: study.bid_margin(a - r.BID))
        gain = study.bid_margin(best - r.BID) - passing
        if gain <= s.compete or gone_out(
            r, view.scores[r.side_of_seat[view.seat]] - r.bid_value[best - r.BID]
        ):
            return call
        return Decision(
            best,
            Why(
                # Translators: why the search bot outbids the opponents' bid %(high)s: it gains
                # %(margin)s (+30) a deal in the side's mean score margin over letting it stand,
                # over %(deals)s deals of the unseen cards played out.
                N_(
                    "outbid: %(margin)s a deal against letting %(high)s stand, "
                    "over %(deals)s sampled deals played out"
                ),
                margin=signed_param(gain),
                high=bid_param(r, view.high),
                deals=len(study.deals),
            ),
        )

    def _odds(self, state: HandState, view: SeatView, rng: Random) -> BidOdds:
        """The heuristic's odds of every bid, those of the strains studied drawn towards the
        share of sampled deals that made them. The deals are kept for the hand and re-weighed
        by every call made since (topped up with fresh deals when the calls leave too few
        that fit). The chance asked of every bid is ``bold`` lower than the heuristic's."""
        samples = self.settings.bids
        key = (view.hand, view.dealer, view.scores)
        study = self._study
        if study is None or study.key != key:
            study = self._study = _BidStudy(key, view, self.player)
        sampler = Sampler(state, view)
        if not study.drawn:
            while study.drawn < samples:
                study.play(sampler, rng)
        else:
            study.reweigh(sampler)
            while study.effective() < samples / 2 and study.drawn < 2 * samples:
                study.play(sampler, rng)
        self.deals += sampler.drawn
        odds = study.odds(bid_odds(view), self.settings.model)
        bold = self.settings.bold
        if bold:
            odds = replace(odds, need=odds.need - bold, needs=tuple(n - bold for n in odds.needs))
        return odds


@dataclass(slots=True)
class _Deal:
    """One deal a bid study played out: the hidden hands, how badly they fitted the auction
    when drawn, the weight the calls since give it, and what the hand made in each strain."""

    hands: tuple[int, ...]
    misfit: float
    weight: float
    tricks: dict[int, int]
    misere_made: bool | None
    #: The deal as drawn, and by strain studied (-1: misère) the tricks each seat took and the
    #: contractor's side.
    world: HandState
    won: dict[int, tuple[tuple[int, ...], int]]
    #: By (bid, seat) of an opponents' contract played out: our side's margin.
    rival: dict[tuple[int, int], float]


class _BidStudy:
    """The deals one seat played out to judge its bids in one hand (see :meth:`SearchBot._odds`).

    Only strains the hand evaluation finds within 1.5 tricks of its best are played out (each
    as the lowest bid of the strain, with this seat as contractor, and as the bot expects the
    hand to be played: :class:`_Player`), and misère only with few dangerous cards; the others
    are judged by the heuristic's model alone.
    """

    def __init__(self, key: tuple[int, int, tuple[int, ...]], view: SeatView, bot: _Player) -> None:
        r = view.rules
        self.key = key
        self.seat = view.seat
        self.bot = bot
        self.rules = r
        self.low = min(
            lv for lv, kind in zip(r.bid_level, r.bid_kind, strict=True) if kind == "suit"
        )
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

    def play(self, sampler: Sampler, rng: Random) -> None:
        """Draw one more deal and play it out in every strain studied (and misère)."""
        r = sampler.view.rules
        world = sampler.draw(rng)
        tricks = {}
        won = {}
        made: bool | None = None
        for st in (*self.strains, -1) if self.misere >= 0 else self.strains:
            w = world.copy()
            w.end_auction_with(self.seat, self.misere if st < 0 else self.lowest[st])
            _finish(w, self.bot)
            won[st] = (tuple(w.tricks_won), w.allies)
            if st < 0:
                made = bool(w.result and w.result.made)
            else:
                tricks[st] = sum(w.tricks_won[s] for s in range(r.players) if w.allies >> s & 1)
        hands = tuple(world.hands)
        misfit = sampler.misfit_of(hands)
        self.deals.append(_Deal(hands, misfit, 1.0, tricks, made, world, won, {}))

    def key_of(self, i: int) -> int | None:
        """The strain studied (-1: misère) that ladder entry ``i`` is judged by, or None."""
        r = self.rules
        if r.bid_kind[i] == "suit" and r.bid_strain[i] in self.strains:
            return r.bid_strain[i]
        if i == self.misere:
            return -1
        return None

    def bid_margin(self, i: int) -> float:
        """Our side's mean score margin in the deals if this seat plays ladder entry ``i``."""
        r = self.rules
        key = self.key_of(i)
        assert key is not None
        side = r.side_of_seat[self.seat]
        total = margin = 0.0
        for d in self.deals:
            tricks_won, allies = d.won[key]
            points = score_hand(r, i, allies, tricks_won, d.world.scores).points
            others = [p for t, p in enumerate(points) if t != side]
            margin += d.weight * (points[side] - max(others) if others else points[side])
            total += d.weight
        return margin / total if total else 0.0

    def rival_margin(self, bid: int, seat: int, bot: HeuristicBot) -> float:
        """Our side's mean score margin in the deals if ``seat`` plays ladder entry ``bid``
        (played out by the heuristic at every seat)."""
        side = self.rules.side_of_seat[self.seat]
        total = margin = 0.0
        for d in self.deals:
            got = d.rival.get((bid, seat))
            if got is None:
                w = d.world.copy()
                w.end_auction_with(seat, bid)
                _finish(w, bot)
                got = d.rival[(bid, seat)] = _outcome(w, side)
            margin += d.weight * got
            total += d.weight
        return margin / total if total else 0.0

    def odds(self, base: BidOdds, prior: float) -> BidOdds:
        """``base`` (the heuristic's odds) with the chance of every bid studied drawn towards
        the weighted share of the deals that made it: ``(n * share + prior * model) / (n +
        prior)``, ``n`` the effective number of deals. A contract the hand lays down keeps its
        chance."""
        r = self.rules
        total = sum(d.weight for d in self.deals)
        if not total:
            return base
        n = self.effective()
        chance = list(base.chance)
        basis = list(base.basis)
        for i in range(r.n_bids):
            model = chance[i]
            if model is None or (base.laid and base.laid[i]):
                continue
            if r.bid_kind[i] == "suit" and r.bid_strain[i] in self.strains:
                st, level = r.bid_strain[i], r.bid_level[i]
                made = sum(d.weight for d in self.deals if d.tricks[st] >= level)
            elif i == self.misere:
                made = sum(d.weight for d in self.deals if d.misere_made)
            else:
                continue
            share = made / total
            p = (n * share + prior * model) / (n + prior)
            chance[i] = p
            basis[i] = Why(
                # Translators: the search bot's chance %(chance)s (45%) of making the bid
                # %(bid)s: the bid was made in %(share)s of %(deals)s deals of the unseen cards
                # played out, and the heuristic's count of the hand alone gives %(model)s.
                N_(
                    "%(chance)s to make %(bid)s: made in %(share)s of %(deals)s sampled deals "
                    "played out, %(model)s by the hand's count"
                ),
                chance=percent_param(p),
                bid=bid_param(r, i),
                share=percent_param(share),
                deals=len(self.deals),
                model=percent_param(model),
            )
        return replace(base, chance=tuple(chance), basis=tuple(basis))


class _Player:
    """How the search bot expects a hand to go on in its deals: the heuristic's calls and
    play, and the discard it makes itself (read at the contract's strain)."""

    __slots__ = ("heuristic",)

    def __init__(self, heuristic: HeuristicBot) -> None:
        self.heuristic = heuristic

    def decide(self, state: HandState) -> Decision:
        """The action of the seat to move."""
        if state.phase == DISCARD:
            drop, why = discard_choice(_contract_view(view_of(state, state.contractor)))
            return Decision(state.rules.DISCARD + (drop & -drop).bit_length() - 1, why)
        return self.heuristic.decide(state)


def _finish(state: HandState, bot: _Player | HeuristicBot, short: int = 0) -> None:
    """Play the hand out with ``bot`` at every seat; stop early once the contractor's side
    can no longer take ``short`` tricks (every level it is judged at is lost by then)."""
    r = state.rules
    while state.phase != OVER:
        state.apply_fast(bot.decide(state).action)
        if short and state.phase == PLAY:
            theirs = sum(w for s, w in enumerate(state.tricks_won) if not state.allies >> s & 1)
            if theirs > r.hand_size - short:
                return


def _contract_view(view: SeatView) -> SeatView:
    """``view`` read at its contract's strain (the engine sets the trump tables only when the
    play starts: at the discard a view still shows no trumps)."""
    r = view.rules
    if view.contract < 0 or r.bid_kind[view.contract] != "suit":
        return view
    return replace(view, strain=r.bid_strain[view.contract])


def _outcome(state: HandState, side: int) -> float:
    """The score margin of ``side`` in a finished hand (its points less the best other
    side's)."""
    res = state.result
    assert res is not None
    mine = res.points[side]
    others = [p for t, p in enumerate(res.points) if t != side]
    return float(mine - max(others)) if others else float(mine)


def _counted(state: HandState, counted: int) -> int:
    return sum(state.tricks_won[s] for s in range(state.rules.players) if counted >> s & 1)


def _cap(state: HandState) -> int | None:
    """Tricks worth telling apart: at misère, one is as bad as any."""
    return max(0, 1 - _counted(state, state.allies)) if state.misere else None


def _margin(state: HandState, taken: int, side: int) -> float:
    """The score margin of ``side`` (its points less the best other side's) when the contractor's
    side ends the hand with ``taken`` tricks (scored by :mod:`~fivehundred.runtime.engine.scoring`,
    as the hand scores itself; the defenders' tricks shared evenly where they score apart)."""
    r = state.rules
    counted, _ = contract_sides(state)
    sides = r.side_of_seat
    n = r.hand_size
    contract = state.contract
    per_trick = trick_points(r, contract)
    if contract < 0:  # all passed, played at no trumps: every side scores its tricks
        return float(per_trick * (2 * taken - n))
    gain = contract_points(r, contract, taken, state.sans)
    opp = n - taken
    ally_sides = {sides[s] for s in bits(counted)}
    others = [t for t in range(r.n_sides) if t not in ally_sides]
    points = [0.0] * r.n_sides
    share: float = opp if r.pool_opponents or not others else opp / len(others)
    for t in range(r.n_sides):
        if t in ally_sides:
            points[t] = gain
            continue
        points[t] = opponent_points(r, per_trick * share, state.scores[t])
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
