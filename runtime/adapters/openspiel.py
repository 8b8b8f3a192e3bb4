"""OpenSpiel: every variant as the Python game ``python_fivehundred`` (optional extra).

``pip install 'fivehundred[openspiel]'``, then::

    import pyspiel
    import fivehundred.openspiel  # registers the game

    game = pyspiel.load_game("python_fivehundred", {"variant": "american"})

One OpenSpiel episode is one hand. The deal is chance nodes, one card at a time in the
variant's dealing order (the first card to the dealer's left); then the players' actions are
the engine's action ids (``fivehundred show VARIANT`` lists them), and each seat's return is
its side's points for the hand. Observation and information-state tensors and strings come
from :mod:`fivehundred.runtime.adapters.tensors`. ``resample_from_infostate`` deals the cards a seat
has not seen afresh, consistently with what it saw, for OpenSpiel's ISMCTS bot.
"""

from __future__ import annotations

import copy
import json
from random import Random
from typing import Any

import numpy as np
import pyspiel

from ..engine.codes import bits
from ..engine.hand import DISCARD, OVER, PARTNER, PLAY, HandState
from ..engine.seatview import played_by, sample_world, view_of
from .api import Game, State, load
from .tensors import information_state_tensor, observation_tensor

__all__ = ["GAME_TYPE", "FiveHundredGame", "FiveHundredState", "openspiel_game"]

_MAX_PLAYERS = 6

#: The registered game type: ``pyspiel.load_game("python_fivehundred", {"variant": ...})``.
GAME_TYPE = pyspiel.GameType(
    short_name="python_fivehundred",
    long_name="Five Hundred (fivehundred)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "australian", "dealer": 0},
)


def _utility_bound(game: Game) -> float:
    r = game.rules
    top = max(max(r.bid_value), r.slam_value) + (r.sans_kitty_bonus or 0)
    per_trick = max(r.opponents_per_trick, r.opponents_against_misere, r.all_pass_per_trick)
    return float(top + r.overtricks * r.hand_size + per_trick * r.hand_size * r.players)


class FiveHundredGame(pyspiel.Game):  # type: ignore[misc]
    """One variant as an OpenSpiel game (parameters ``variant`` and ``dealer``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.fivehundred = load(str(params.get("variant", "australian")))
        self.dealer = int(params.get("dealer", 0))
        self.fivehundred._check_seat(self.dealer, "dealer")
        r = self.fivehundred.rules
        bound = _utility_bound(self.fivehundred)
        info = pyspiel.GameInfo(
            num_distinct_actions=r.n_actions,
            max_chance_outcomes=r.n_cards,
            num_players=r.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=self.fivehundred.max_hand_length,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> FiveHundredState:
        """A hand about to be dealt."""
        return FiveHundredState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        """The observer of the observation (or, with perfect recall, information-state)
        tensors and strings."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only the single-player views (observation, info state) exist")
        return _Observer(self.fivehundred, perfect_recall)

    def __deepcopy__(self, memo: dict[int, Any]) -> FiveHundredGame:
        return self


class FiveHundredState(pyspiel.State):  # type: ignore[misc]
    """A hand: chance nodes while it is dealt, then the players' actions."""

    def __init__(self, game: FiveHundredGame) -> None:
        super().__init__(game)
        self._fh = game.fivehundred
        self._dealer = game.dealer
        self._cards: list[int] = []
        self._state: State | None = None

    # -- the game -----------------------------------------------------------------------------

    @property
    def fivehundred_state(self) -> State | None:
        """The engine's state once the deal is complete (None while dealing)."""
        return self._state

    def current_player(self) -> int:
        """The seat that decides, CHANCE while dealing, TERMINAL once scored."""
        if self._state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._state.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self._state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        assert self._state is not None
        return self._state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet dealt, each as likely."""
        dealt = set(self._cards)
        left = [c for c in range(self._fh.rules.n_cards) if c not in dealt]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        if self._state is None:
            self._cards.append(action)
            if len(self._cards) == self._fh.rules.n_cards:
                self._state = self._fh.deal_from_order(self._cards, self._dealer)
            return
        self._state.apply_fast(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._fh.rules.deck[action]}"
        return self._fh.action_name(action)

    def is_terminal(self) -> bool:
        """True once the hand is scored."""
        return self._state is not None and self._state.is_over()

    def returns(self) -> list[float]:
        """Each seat's points (its side's) for the hand; zeros until it is over."""
        if self._state is None:
            return [0.0] * self._fh.num_players
        return self._state.returns()

    def __str__(self) -> str:
        if self._state is None:
            return f"dealing: {' '.join(self._fh.rules.deck[c] for c in self._cards)}"
        return repr(self._state)

    def __deepcopy__(self, memo: dict[int, Any]) -> FiveHundredState:
        other = copy.copy(self)
        other._cards = list(self._cards)
        other._state = None if self._state is None else self._state.clone()
        return other

    # -- for ISMCTS ---------------------------------------------------------------------------

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> FiveHundredState:
        """A copy in which the cards ``player`` has not seen are dealt afresh, consistently
        with everything ``player`` has seen (voids shown, cards played, the kitty it took)."""
        other: FiveHundredState = self.clone()
        if self._state is None:
            return other  # the deal has not finished: nothing to resample
        rng = Random(int(probability_sampler() * 2**52))
        hand = self._state.hand
        world = sample_world(hand, view_of(hand, player), rng)
        _redeal(world, hand, player)
        other._state = State(self._fh, world, self._state.history())
        other._cards = _deal_order(world)
        return other


def _redeal(world: HandState, original: HandState, seat: int) -> None:
    """Make ``world.dealt`` the deal that leads to ``world``'s cards: what each seat holds and
    has played, the contractor's discards back and the kitty out; ``seat`` keeps its own."""
    r = world.rules
    view = view_of(world, seat)
    hands = []
    took = (
        world.contract >= 0
        and world.phase in (DISCARD, PLAY, OVER, PARTNER)
        and r.kitty_take
        and bool(r.discard_count)
        and not world.sans
    )
    for t in range(r.players):
        cards = world.hands[t] | played_by(view, t)
        if took and t == world.contractor:
            cards = (cards | world.discarded) & ~world.kitty
        hands.append(cards)
    hands[seat] = original.dealt[0][seat]
    world.dealt = (tuple(hands), world.kitty, world.dead)


def _deal_order(state: HandState) -> list[int]:
    """A card order that deals ``state.dealt`` (chance actions of the OpenSpiel history)."""
    r = state.rules
    hands, kitty, dead = state.dealt
    pools = [bits(h) for h in hands] + [bits(kitty), bits(dead)]
    return [pools[to].pop() for to in r.deal_order[state.dealer]]


class _Observer:
    """OpenSpiel's PyObserver: a flat float32 tensor, its named sections, and a string."""

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self._game = game
        self._perfect_recall = perfect_recall
        layout = game.information_state_layout if perfect_recall else game.observation_layout
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {
            s.name: self.tensor[s.offset : s.offset + s.size].reshape(s.shape)
            for s in layout.sections
        }

    def set_from(self, state: FiveHundredState, player: int) -> None:
        """Fill the tensor with what ``player`` sees (knows, with perfect recall)."""
        inner = state.fivehundred_state
        if inner is None:
            self.tensor.fill(0)
            self.dict["seat"][player] = 1
            for c, to in zip(state._cards, state._fh.rules.deal_order[state._dealer], strict=False):
                if to == player:
                    self.dict["hand"][c] = 1
            return
        build = information_state_tensor if self._perfect_recall else observation_tensor
        self.tensor[:] = build(inner.hand, player)

    def string_from(self, state: FiveHundredState, player: int) -> str:
        """The information-state string (perfect recall) or the observation as JSON."""
        inner = state.fivehundred_state
        if inner is None:
            r = state._fh.rules
            mine = [
                r.deck[c]
                for c, to in zip(state._cards, r.deal_order[state._dealer], strict=False)
                if to == player
            ]
            return f"seat {player} dealing: {' '.join(mine)}"
        if self._perfect_recall:
            return inner.information_state_string(player)
        return json.dumps(inner.observation(player), sort_keys=True, ensure_ascii=False)


def openspiel_game(variant: str = "australian", dealer: int = 0) -> Any:
    """``pyspiel.load_game("python_fivehundred", {"variant": variant, "dealer": dealer})``."""
    return pyspiel.load_game("python_fivehundred", {"variant": variant, "dealer": dealer})


pyspiel.register_game(GAME_TYPE, FiveHundredGame)
