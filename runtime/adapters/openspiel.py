"""OpenSpiel: every variant as the Python game ``python_fivehundred`` (optional extra).

``pip install 'fivehundred[openspiel]'``, then::

    import pyspiel
    import fivehundred.openspiel  # registers the game

    game = pyspiel.load_game("python_fivehundred", {"variant": "american"})

One OpenSpiel episode is one hand. The deal is chance nodes, one card at a time in the
variant's dealing order (the first card to the dealer's left); then the players' actions are
the engine's action ids (``fivehundred show VARIANT`` lists them), and each seat's return is
its side's points for the hand. Observation and information-state tensors and strings are
those of :mod:`fivehundred.runtime.adapters.tensors` (the tensors kept as numpy arrays by
:mod:`~fivehundred.runtime.adapters.arrays`; the information-state string, the compact one of
:func:`~fivehundred.runtime.adapters.tensors.information_state_string`, written from the hand
with the calls and tricks kept as text, once per node and seat). ``resample_from_infostate``
deals the cards a seat has not seen afresh, consistently with what it saw and, as the
``search`` bot does, preferring deals that agree with the bids, for OpenSpiel's ISMCTS bot.

Actions are checked: one outside the legal set raises :class:`IllegalAction`, both OpenSpiel's
``pyspiel.SpielError`` and fivehundred's :class:`~fivehundred.IllegalActionError` (the seat,
the move and the rule's clause id), and the state is left exactly as it was.

A clone shares the immutable rules and, until one of the two changes, the hand: pyspiel clones
a Python state by ``copy.deepcopy`` of each attribute, and the state's one attribute, its node,
deep-copies to itself, shared copy-on-write (``copy.deepcopy(state)`` is ``state.clone()``).
pyspiel serializes a Python state by pickling its attributes: the node pickles as the variant
parameter, the dealer, the cards dealt and the actions, replayed when read back, never the
rules tables.
"""

from __future__ import annotations

import json
from random import Random
from typing import Any

import numpy as np
import pyspiel

from ..bots.sampling import Sampler
from ..engine.codes import bits
from ..engine.errors import ArgumentError, IllegalActionError, InvalidActionError
from ..engine.hand import DISCARD, OVER, PARTNER, PLAY, HandState
from ..engine.seatview import _partners_known, played_by, view_of
from .api import Game, State, as_index, load, quote
from .arrays import HandArrays

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
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

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
        variant = str(params.get("variant", "australian"))
        self.fivehundred = load(variant)
        self.dealer = int(params.get("dealer", 0))
        self.fivehundred._check_seat(self.dealer, "dealer")
        _GAMES[variant] = self.fivehundred
        #: The node of a hand about to be dealt, shared by every new state (copy-on-write).
        self._root = _Node(self.fivehundred, variant, self.dealer)
        self._root.shared = True
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
    """Everything a :class:`FiveHundredState` holds, as its one attribute, shared copy-on-write.

    pyspiel clones a Python state by ``copy.deepcopy`` of each of its attributes, so this
    object's :meth:`__deepcopy__` is the clone: it marks the node shared and gives the node
    itself, so that a clone costs no copy at all. A state about to change a shared node first
    takes a :meth:`fork` of its own (the engine's :meth:`HandState.copy` of the hand; the rules,
    the game and the deal so far shared, the history's text and the tensors' tracker carried
    on), so the first move after a clone pays the copy, once. The node's caches (the legal
    actions, its strings, the tensors) describe its position, whichever state asks.

    Pickled (pyspiel's serialization), a node is the variant parameter, the dealer, the cards
    dealt and the actions applied, replayed on unpickling: never the rules tables.
    """

    __slots__ = (
        "arrays",
        "cards",
        "dealer",
        "fh",
        "legal",
        "shared",
        "state",
        "strings",
        "texts",
        "variant",
    )

    def __init__(self, fh: Game, variant: str, dealer: int) -> None:
        self.fh = fh
        self.variant = variant  # the game's parameter (a variant id or a rule file's path)
        self.dealer = dealer
        self.cards: tuple[int, ...] = ()  # the cards dealt so far (chance actions)
        self.state: State | None = None  # the engine's hand once every card is dealt
        self.arrays: HandArrays | None = None  # the tensors, made when first asked
        self.legal = -1  # the node's legal actions as a bitmask, -1 until asked
        self.strings: dict[tuple[bool, int], str] = {}  # the node's strings, by kind and seat
        #: The information-state string's public history as text, kept as the hand grows:
        #: (calls written, their text, tricks written, their text, the scores' text).
        self.texts: tuple[int, str, int, str, str] = (0, "", 0, "", "")
        self.shared = False  # whether states other than one may hold this node

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        self.shared = True
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        actions = () if self.state is None else tuple(self.state.history())
        return (_unpickle_node, (self.variant, self.dealer, self.cards, actions))

    def fork(self) -> _Node:
        """A copy of this node for one state to change (see the class doc), its legal actions
        and strings not asked yet."""
        other = _Node.__new__(_Node)
        other.fh = self.fh
        other.variant = self.variant
        other.dealer = self.dealer
        other.cards = self.cards
        other.state = state = None if self.state is None else self.state.clone()
        other.arrays = None
        if self.arrays is not None and self.state is not None and state is not None:
            other.arrays = self.arrays.copy_for(self.state.hand, state.hand)
        other.legal = -1
        other.strings = {}
        other.texts = self.texts
        other.shared = False
        return other

    def tensors(self) -> HandArrays:
        if self.arrays is None:
            self.arrays = HandArrays(self.fh.rules)
        return self.arrays

    def legal_mask(self) -> int:
        """The legal actions of the hand (dealt) as a bitmask, computed once per node."""
        if self.legal < 0:
            assert self.state is not None
            self.legal = self.state.hand.legal_mask()
        return self.legal

    def information_state_string(self, seat: int) -> str:
        """:func:`~fivehundred.runtime.adapters.tensors.information_state_string` of the hand
        for ``seat``, character for character (``tests/test_openspiel.py`` compares them), from
        the hand's fields directly and with the calls and tricks written once per node line."""
        assert self.state is not None
        hand = self.state.hand
        r = hand.rules
        n_calls, calls_text, n_tricks, tricks_text, scores = self.texts
        calls, tricks = hand.calls, hand.tricks
        if n_calls < len(calls) or n_tricks < len(tricks) or not scores:
            inkles = hand.inkles
            more = " ".join(
                f"{calls[i][0]}{'~' if inkles[i] else ':'}{calls[i][1]}"
                for i in range(n_calls, len(calls))
            )
            calls_text = f"{calls_text} {more}" if calls_text and more else calls_text or more
            more = " ".join(
                f"{leader}:{','.join(map(str, acts))}" for leader, acts, _ in tricks[n_tricks:]
            )
            tricks_text = f"{tricks_text} {more}" if tricks_text and more else tricks_text or more
            scores = ",".join(map(str, hand.scores))
            self.texts = (len(calls), calls_text, len(tricks), tricks_text, scores)
        phase = hand.phase
        contract, contractor = hand.contract, hand.contractor
        kitty_seen = discarded = 0
        if seat == contractor:
            discarded = hand.discarded
            if (
                phase in (DISCARD, PLAY, OVER, PARTNER)
                and r.kitty_take
                and r.discard_count
                and not hand.sans
            ):
                kitty_seen = hand.kitty
        faced = _NONE_FACED[r.players]
        if contract >= 0 and phase in (PLAY, OVER):
            shown = [0] * r.players
            bid_open = r.bid_open[contract]
            if bid_open == "from-start" or (bid_open == "after-first-trick" and hand.n_tricks):
                shown[contractor] = hand.hands[contractor]
            if r.bid_partner[contract] == "both-hands":
                for t in bits(hand.allies):
                    if t != contractor:
                        shown[t] = hand.hands[t]
            shown[seat] = 0
            if any(shown):
                faced = ",".join([f"{m:x}" for m in shown])
        trick = hand.trick
        held = ",".join(map(str, map(int.bit_count, hand.hands)))
        now = f"{hand.trick_leader}:{','.join(map(str, trick))}" if trick else ""
        return (
            f"{seat} {hand.dealer} {int(phase)} {scores}"
            f"|{hand.dealt[0][seat]:x} {hand.hands[seat]:x}|{calls_text}"
            f"|{contract} {contractor} {int(hand.sans)} {hand.nominated}"
            f"|{_partners_known(hand, seat):x} {hand.sitting_out:x}"
            f"|{hand.called_cards:x} {kitty_seen:x} {discarded:x}|{held}|{tricks_text}|{now}"
            f"|{faced}"
        )


#: The faced field of the information-state string when no hand lies face up, by players.
_NONE_FACED = tuple(",".join("0" * n) for n in range(_MAX_PLAYERS + 1))


def _unpickle_node(
    variant: str, dealer: int, cards: tuple[int, ...], actions: tuple[int, ...]
) -> _Node:
    """A pickled node again: its cards dealt and its actions replayed (checked) on the game
    of that variant parameter (the one loaded last, else loaded now)."""
    fh = _GAMES.get(variant) or load(variant)
    node = _Node(fh, variant, dealer)
    r = fh.rules
    if len(set(cards)) != len(cards) or not all(
        isinstance(c, int) and 0 <= c < r.n_cards for c in cards
    ):
        raise InvalidAction(f"a serialized deal must hold each card once, got {quote(cards)}")
    node.cards = tuple(cards)
    if len(cards) == r.n_cards:
        node.state = state = fh.deal_from_order(cards, dealer)
        for a in actions:
            try:
                state.apply(a)
            except IllegalActionError as exc:
                raise IllegalAction(
                    exc.seat, exc.action, exc.clause, exc.reason, exc.explanation, exc.kind
                ) from None
            except InvalidActionError as exc:
                raise InvalidAction(str(exc)) from None
    elif actions:
        raise InvalidAction("a serialized state has actions before its deal is complete")
    return node


#: The fivehundred game of each variant parameter, the one loaded last (for unpickling nodes).
_GAMES: dict[str, Game] = {}


class FiveHundredState(pyspiel.State):  # type: ignore[misc]
    """A hand: chance nodes while it is dealt, then the players' actions."""

    def __init__(self, game: FiveHundredGame) -> None:
        super().__init__(game)
        self._node = game._root  # shared by every new state: the first deal forks it

    # -- the game -----------------------------------------------------------------------------

    @property
    def fivehundred_state(self) -> State | None:
        """The engine's state once the deal is complete (None while dealing): this state's
        own (a clone shares the hand until one of them changes it; reading it here makes it
        this state's own, so that changing it changes no clone)."""
        node = self._node
        if node.shared and node.state is not None:
            node = self._node = node.fork()
        return node.state

    @property
    def fivehundred_game(self) -> Game:
        """The variant's :class:`~fivehundred.Game` (shared by every state and clone)."""
        return self._node.fh

    def current_player(self) -> int:
        """The seat that decides, CHANCE while dealing, TERMINAL once scored (pyspiel asks it
        several times a move)."""
        state = self._node.state
        if state is None:
            return _CHANCE
        hand = state.hand
        phase = hand.phase
        if phase == PLAY:
            return hand.controller(hand.to_move)  # a misère played with both hands
        return _TERMINAL if phase == OVER else hand.to_move

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        if node.state is None or node.state.hand.phase == OVER:
            return []
        return bits(node.legal_mask())

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
        if node.state is None:
            if not 0 <= action < r.n_cards or action in node.cards:
                raise InvalidAction(
                    f"chance outcome {action!r} is not a card still to deal [deal.packets]"
                )
            if node.shared:
                node = self._node = node.fork()
            else:
                node.strings = {}
            node.cards += (action,)
            if len(node.cards) == r.n_cards:
                node.state = node.fh.deal_from_order(node.cards, node.dealer)
        else:
            legal = 0 <= action < r.n_actions and node.legal_mask() >> action & 1
            if node.shared:
                node = self._node = node.fork()  # its caches are empty
            else:
                node.legal = -1
                node.strings = {}
            state = node.state
            assert state is not None
            if legal:
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

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {self._node.fh.rules.deck[action]}"
        return self._node.fh.action_name(action)

    def is_terminal(self) -> bool:
        """True once the hand is scored."""
        state = self._node.state
        return state is not None and state.hand.phase == OVER

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
        """:meth:`clone` (pyspiel's: the C++ history too), sharing the node copy-on-write."""
        other: FiveHundredState = self.clone()
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
        o = _Node(node.fh, node.variant, node.dealer)
        o.state = State(node.fh, world, _history(world, hand, node.state.history()))
        o.cards = tuple(_deal_order(world))
        o.texts = node.texts  # the calls and tricks are the same
        other._node = o
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


def _history(world: HandState, original: HandState, actions: list[int]) -> list[int]:
    """The actions that lead to ``world`` from its deal: ``actions``, the original's, with the
    contractor's discards (which the resampling seat did not see, and the world dealt afresh)
    the world's own, so that a resampled state replays (pyspiel's serialization)."""
    r = world.rules
    if world.discarded == original.discarded:
        return actions
    if world.discarded.bit_count() != original.discarded.bit_count():
        return actions  # a world in the middle of the discard: no resampling seat sees one
    discards = iter(bits(world.discarded))
    low, high = r.DISCARD, r.DISCARD + r.n_cards
    return [r.DISCARD + next(discards) if low <= a < high else a for a in actions]


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
        build(inner.hand, player, self.tensor)

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
                text = node.information_state_string(player)
            else:
                text = json.dumps(inner.observation(player), sort_keys=True, ensure_ascii=False)
            node.strings[key] = text
        return text


def openspiel_game(variant: str = "australian", dealer: int = 0) -> Any:
    """``pyspiel.load_game("python_fivehundred", {"variant": variant, "dealer": dealer})``."""
    return pyspiel.load_game("python_fivehundred", {"variant": variant, "dealer": dealer})


pyspiel.register_game(GAME_TYPE, FiveHundredGame)
