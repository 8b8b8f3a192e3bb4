"""OpenSpiel: every variant as the Python game ``python_fivehundred`` (optional extra).

``pip install 'fivehundred[openspiel]'``, then::

    import pyspiel
    import fivehundred.openspiel  # registers the game

    game = pyspiel.load_game("python_fivehundred", {"variant": "american"})

One OpenSpiel episode is one hand. The deal is chance nodes, one card at a time in the
variant's dealing order (the first card to the dealer's left); then the players' actions are
the engine's action ids (``fivehundred show VARIANT`` lists them), and each seat's return is
its side's points for the hand. Observation and information-state tensors and strings come
from :mod:`fivehundred.runtime.adapters.tensors` (kept as numpy arrays by
:mod:`~fivehundred.runtime.adapters.arrays`); the information-state string is the compact one of
:func:`~fivehundred.runtime.adapters.tensors.information_state_string`, computed once per node
and seat. ``resample_from_infostate`` deals the cards a seat has not seen afresh, consistently
with what it saw and, as the ``search`` bot does, preferring deals that agree with the bids,
for OpenSpiel's ISMCTS bot.

Actions are checked: one outside the legal set raises :class:`IllegalAction`, both OpenSpiel's
``pyspiel.SpielError`` and fivehundred's :class:`~fivehundred.IllegalActionError` (the seat,
the move and the rule's clause id), and the state is left exactly as it was. A clone shares the
immutable rules: pyspiel clones a Python state by ``copy.deepcopy`` of each attribute, and the
game and its rules deep-copy to themselves.
"""

from __future__ import annotations

import copy
import json
from random import Random
from typing import Any

import numpy as np
import pyspiel

from ..bots.sampling import Sampler
from ..engine.codes import bits
from ..engine.errors import ArgumentError, IllegalActionError, InvalidActionError
from ..engine.hand import DISCARD, OVER, PARTNER, PLAY, HandState
from ..engine.seatview import played_by, view_of
from .api import Game, State, as_index, load, quote
from .arrays import HandArrays
from .tensors import information_state_string

__all__ = [
    "GAME_TYPE",
    "FiveHundredGame",
    "FiveHundredState",
    "IllegalAction",
    "InvalidAction",
    "openspiel_game",
]


class IllegalAction(IllegalActionError, pyspiel.SpielError):  # type: ignore[misc]
    """An action the rules forbid now: OpenSpiel's ``SpielError`` (as its own games raise) and
    fivehundred's :class:`~fivehundred.IllegalActionError` (``seat``, ``action``, ``clause``)."""


class InvalidAction(InvalidActionError, pyspiel.SpielError):  # type: ignore[misc]
    """An id that is no action of the variant (or a chance outcome not still to deal)."""


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


class _Node:
    """Everything a :class:`FiveHundredState` holds, as its one attribute.

    pyspiel clones a Python state by ``copy.deepcopy`` of each of its attributes, so this
    object's :meth:`__deepcopy__` is the clone: the rules and the game shared, the deal so far a
    tuple shared, the hand copied by the engine's own :meth:`HandState.copy`, the node's cached
    strings kept and the tensors started afresh when first asked.
    """

    __slots__ = ("arrays", "cards", "dealer", "fh", "legal", "state", "strings")

    def __init__(self, fh: Game, dealer: int) -> None:
        self.fh = fh
        self.dealer = dealer
        self.cards: tuple[int, ...] = ()  # the cards dealt so far (chance actions)
        self.state: State | None = None  # the engine's hand once every card is dealt
        self.arrays: HandArrays | None = None  # the tensors, made when first asked
        self.legal = -1  # the node's legal actions as a bitmask, -1 until asked
        self.strings: dict[tuple[bool, int], str] = {}  # the node's strings, by kind and seat

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        other = _Node.__new__(_Node)
        other.fh = self.fh
        other.dealer = self.dealer
        other.cards = self.cards
        other.state = None if self.state is None else self.state.clone()
        other.arrays = None
        other.legal = self.legal
        other.strings = self.strings.copy()
        return other

    def tensors(self) -> HandArrays:
        if self.arrays is None:
            self.arrays = HandArrays(self.fh.rules)
        return self.arrays


class FiveHundredState(pyspiel.State):  # type: ignore[misc]
    """A hand: chance nodes while it is dealt, then the players' actions."""

    def __init__(self, game: FiveHundredGame) -> None:
        super().__init__(game)
        self._node = _Node(game.fivehundred, game.dealer)

    # -- the game -----------------------------------------------------------------------------

    @property
    def fivehundred_state(self) -> State | None:
        """The engine's state once the deal is complete (None while dealing)."""
        return self._node.state

    @property
    def fivehundred_game(self) -> Game:
        """The variant's :class:`~fivehundred.Game` (shared by every state and clone)."""
        return self._node.fh

    def current_player(self) -> int:
        """The seat that decides, CHANCE while dealing, TERMINAL once scored."""
        state = self._node.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return state.current_player()

    def _legal_mask(self) -> int:
        node = self._node
        if node.legal < 0:
            assert node.state is not None
            node.legal = node.state.hand.legal_mask()
        return node.legal

    def _legal_actions(self, player: int) -> list[int]:
        state = self._node.state
        if state is None or state.is_over():
            return []
        return bits(self._legal_mask())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet dealt, each as likely."""
        node = self._node
        dealt = set(node.cards)
        left = [c for c in range(node.fh.rules.n_cards) if c not in dealt]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        """Deal a card (chance) or apply a player's action, checked: :class:`IllegalAction`
        or :class:`InvalidAction` leave the state as it was."""
        node = self._node
        r = node.fh.rules
        state = node.state
        if state is None:
            if not 0 <= action < r.n_cards or action in node.cards:
                raise InvalidAction(
                    f"chance outcome {action!r} is not a card still to deal [deal.packets]"
                )
            node.cards += (action,)
            if len(node.cards) == r.n_cards:
                node.state = node.fh.deal_from_order(node.cards, node.dealer)
        elif 0 <= action < r.n_actions and self._legal_mask() >> action & 1:
            state.apply_fast(action)
        else:
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise IllegalAction(
                    exc.seat, exc.action, exc.clause, exc.reason, exc.explanation, exc.kind
                ) from None
            except InvalidActionError as exc:
                raise InvalidAction(str(exc)) from None
        node.legal = -1
        node.strings = {}

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._node.fh.rules.deck[action]}"
        return self._node.fh.action_name(action)

    def is_terminal(self) -> bool:
        """True once the hand is scored."""
        state = self._node.state
        return state is not None and state.is_over()

    def returns(self) -> list[float]:
        """Each seat's points (its side's) for the hand; zeros until it is over."""
        node = self._node
        if node.state is None:
            return [0.0] * node.fh.num_players
        return node.state.returns()

    def __str__(self) -> str:
        node = self._node
        if node.state is None:
            return f"dealing: {' '.join(node.fh.rules.deck[c] for c in node.cards)}"
        return repr(node.state)

    def __deepcopy__(self, memo: dict[int, Any]) -> FiveHundredState:
        other = copy.copy(self)
        other._node = copy.deepcopy(self._node)
        return other

    # -- for ISMCTS ---------------------------------------------------------------------------

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> FiveHundredState:
        """A copy in which the cards ``player`` has not seen are dealt afresh, consistently
        with everything ``player`` has seen (voids shown, cards played, the kitty it took),
        and among a few such deals the one that agrees best with the bids the other seats
        made (as the ``search`` bot samples)."""
        node = self._node
        seat = as_index(player)
        n = node.fh.num_players
        if seat is None or not 0 <= seat < n:
            raise ArgumentError(f"player must be a seat 0..{n - 1}, got {quote(player)}")
        if not callable(probability_sampler):
            raise ArgumentError(
                f"probability_sampler must be callable, got {quote(probability_sampler)}"
            )
        other: FiveHundredState = self.clone()
        if node.state is None:
            return other  # the deal has not finished: nothing to resample
        rng = Random(int(float(probability_sampler()) * 2**52))
        hand = node.state.hand
        view = view_of(hand, seat)
        world = Sampler(hand, view).draw(rng)  # as the search bot samples: bids included
        _redeal(world, hand, seat)
        o = other._node
        o.state = State(node.fh, world, node.state.history())
        o.cards = tuple(_deal_order(world))
        o.arrays = None
        o.legal = -1
        o.strings = {}
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
        node = state._node
        inner = node.state
        if inner is None:
            self.tensor.fill(0)
            self.dict["seat"][player] = 1
            for c, to in zip(node.cards, node.fh.rules.deal_order[node.dealer], strict=False):
                if to == player:
                    self.dict["hand"][c] = 1
            return
        arrays = node.tensors()
        build = arrays.information_state if self._perfect_recall else arrays.observation
        self.tensor[:] = build(inner.hand, player)

    def string_from(self, state: FiveHundredState, player: int) -> str:
        """The information-state string (perfect recall) or the observation as JSON."""
        node = state._node
        inner = node.state
        if inner is None:
            r = node.fh.rules
            mine = [
                r.deck[c]
                for c, to in zip(node.cards, r.deal_order[node.dealer], strict=False)
                if to == player
            ]
            return f"seat {player} dealing: {' '.join(mine)}"
        key = (self._perfect_recall, player)
        text = node.strings.get(key)
        if text is None:
            if self._perfect_recall:
                text = information_state_string(inner.hand, player)
            else:
                text = json.dumps(inner.observation(player), sort_keys=True, ensure_ascii=False)
            node.strings[key] = text
        return text


def openspiel_game(variant: str = "australian", dealer: int = 0) -> Any:
    """``pyspiel.load_game("python_fivehundred", {"variant": variant, "dealer": dealer})``."""
    return pyspiel.load_game("python_fivehundred", {"variant": variant, "dealer": dealer})


pyspiel.register_game(GAME_TYPE, FiveHundredGame)
