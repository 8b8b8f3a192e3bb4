"""The engine's fast path: random playouts through a variant's generated engine module.

``fivehundred build`` writes, for every built-in variant, a module of code specialised to its
rules (``generated/engines/<variant>.py``, from ``generator/templates/engine.py.j2``). It makes
exactly the choices of the checked path (:class:`~fivehundred.runtime.engine.hand.HandState`
driven by the random bot) from the same random stream, several times faster.
:func:`fast_engine` gives a variant's :class:`FastEngine`: the built-in module whose rules
fingerprint is the variant's, or one registered with :func:`register` (a rule file's module,
rendered and compiled in memory by :func:`fivehundred.runtime.loading.load_rules`, above the
engine: this module imports nothing of the generator). A variant without one plays through the
checked path instead, with the same results: nothing but the speed depends on which ran.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from random import Random
from types import ModuleType
from typing import Any, NamedTuple

from .fingerprint import rules_fingerprint
from .game import first_dealer, game_winner, gone_out
from .hand import HandResult, HandState, next_dealer, shuffled
from .rules import Rules

__all__ = ["FastEngine", "FastMatch", "Playout", "fast_engine", "register"]


class Playout(NamedTuple):
    """One hand played out at random: what it scored, and how."""

    contract: int  #: ladder index, -1 when thrown in or played at no trumps after all passed
    contractor: int  #: seat, -1 when nobody bid
    made: bool | None
    tricks_by_side: tuple[int, ...]
    points: tuple[int, ...]
    complete: bool
    allies: tuple[int, ...]  #: the seats on the contractor's side
    sans: bool  #: played sans kitty
    winners: tuple[int, ...]  #: the winner of each trick, in order
    actions: list[int]  #: every decision, in order (action ints of the variant)
    dealt: tuple[tuple[int, ...], int, int]  #: hands by seat, kitty, dead hand, as dealt
    redeal: bool = False  #: thrown in on a claim of no ace, no face: the same dealer deals

    @property
    def decisions(self) -> int:
        """How many decisions the hand took."""
        return len(self.actions)

    def result(self) -> HandResult:
        """The hand's :class:`HandResult`, as the checked path gives it."""
        return HandResult(
            self.contract,
            self.contractor,
            self.made,
            self.tricks_by_side,
            self.points,
            self.complete,
            self.allies,
            self.sans,
            self.redeal,
        )


_new_tuple = tuple.__new__

#: A generated module's ``playout(dealer, random, scores, contract)``.
_Playout = Callable[
    [int, Callable[[], float], "list[int] | None", "tuple[int, int] | None"], tuple[Any, ...]
]


class FastEngine:
    """A variant's random playouts: generated code when there is a module for its rules, the
    checked path otherwise (:attr:`generated` tells which; the results are the same)."""

    __slots__ = ("_playout", "generated", "rules")

    def __init__(self, rules: Rules, module: ModuleType | None) -> None:
        self.rules = rules
        #: Whether the playouts run the variant's generated engine module.
        self.generated = module is not None
        self._playout: _Playout | None = None if module is None else module.playout

    def playout(
        self,
        dealer: int,
        rng: Random,
        scores: list[int] | None = None,
        contract: tuple[int, int] | None = None,
    ) -> Playout:
        """Deal a hand from ``dealer`` with ``rng`` and play it out at random, every decision
        ``legal_actions()[int(rng.random() * count)]`` as the random bot chooses.

        ``scores`` (the sides' scores before the hand) matter where the opponents' trick points
        stop below the target; ``contract`` = (seat, ladder index) ends the auction at once
        with that contract (:meth:`HandState.end_auction_with`).
        """
        if self._playout is not None:
            # The module returns every field of a Playout, in order: tuple.__new__ makes the
            # Playout without the Python frame of the NamedTuple's own __new__.
            return _new_tuple(Playout, self._playout(dealer, rng.random, scores, contract))
        state = HandState.new(self.rules, dealer, rng, scores)
        if contract is not None:
            state.end_auction_with(*contract)
        actions: list[int] = []
        state.playout(rng, actions)
        res = state.result
        assert res is not None
        winners = tuple(winner for _, _, winner in state.tricks)
        return Playout._make((*_result_fields(res), winners, actions, state.dealt, res.redeal))

    def replay(self, playout: Playout, dealer: int, scores: list[int] | None = None) -> HandState:
        """The hand of ``playout`` replayed through the checked engine (for records and
        invariant checks): a finished :class:`HandState`. The auction must have been played
        (no forced ``contract``)."""
        hands, kitty, dead = playout.dealt
        state = HandState(self.rules, dealer, list(hands), kitty, dead, scores)
        for action in playout.actions:
            state.apply_fast(action)
        return state


def _result_fields(res: HandResult) -> tuple[Any, ...]:
    return (
        res.contract,
        res.contractor,
        res.made,
        res.tricks_by_side,
        res.points,
        res.complete,
        res.allies,
        res.sans,
    )


#: Engines by the id of their rules (the Rules kept alive with them), and generated modules
#: registered by rules fingerprint.
_ENGINES: dict[int, tuple[Rules, FastEngine]] = {}
_REGISTERED: dict[str, ModuleType] = {}


def register(module: ModuleType) -> None:
    """Make a generated engine module (one compiled in memory for a rule file) the fast path
    of every variant with its rules (its ``FINGERPRINT``)."""
    _REGISTERED[module.FINGERPRINT] = module
    for key in [k for k, (rules, engine) in _ENGINES.items() if not engine.generated]:
        del _ENGINES[key]


def fast_engine(rules: Rules) -> FastEngine:
    """The :class:`FastEngine` of ``rules`` (cached)."""
    cached = _ENGINES.get(id(rules))
    if cached is not None and cached[0] is rules:
        return cached[1]
    engine = FastEngine(rules, _module_for(rules))
    if len(_ENGINES) > 256:
        _ENGINES.clear()
    _ENGINES[id(rules)] = (rules, engine)
    return engine


def _module_for(rules: Rules) -> ModuleType | None:
    """The generated module that plays exactly ``rules``, if any."""
    fingerprint = rules_fingerprint(rules.tables)
    module = _REGISTERED.get(fingerprint)
    if module is not None:
        return module
    name = rules.variant.replace("-", "_")
    if not name.replace("_", "").isalnum():
        return None
    try:
        module = importlib.import_module(f"fivehundred.generated.engines.{name}")
    except ModuleNotFoundError:
        return None
    return module if getattr(module, "FINGERPRINT", None) == fingerprint else None


class FastMatch:
    """A whole game of random hands through the fast path: :class:`~.game.Match`'s scores,
    deal rotation and end of game, with the same random stream (so the same games)."""

    def __init__(self, engine: FastEngine, rng: Random, dealer: int | None = None) -> None:
        self.engine = engine
        self.rules = engine.rules
        self.rng = rng
        self.scores = [0] * self.rules.n_sides
        self.dealer = first_dealer(self.rules, rng) if dealer is None else dealer
        self.hands_played = 0
        #: The winning side; ``NO_WINNER`` when the game ended without one; None while on.
        self.winner: int | None = None
        self.barred: frozenset[int] = frozenset()

    def play_hand(self) -> tuple[Playout, int, list[int]]:
        """Play the next hand out at random and score it: the playout, its dealer and the
        scores before it."""
        r = self.rules
        dealer, before = self.dealer, self.scores[:]
        hand = self.engine.playout(dealer, self.rng, before)
        for side, pts in enumerate(hand.points):
            self.scores[side] += pts
        self.hands_played += 1
        self.winner = game_winner(
            r, self.scores, hand.result(), barred=self.barred, winners=hand.winners
        )
        if r.lose_at is not None and r.out_backwards == "cannot-win":
            self.barred |= {s for s in range(r.n_sides) if gone_out(r, self.scores[s])}
        if self.winner is None:
            self.dealer = next_dealer(r, dealer, hand.contract, redeal=hand.redeal)
        return hand, dealer, before

    def cut_off(self) -> None:
        """Stop the game unfinished: :class:`~.game.Match` has shuffled the next hand already,
        so the random stream is moved on by that shuffle too."""
        shuffled(self.rules.n_cards, self.rng.random)
