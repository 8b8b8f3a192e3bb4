"""The Python API: ``import fivehundred`` and play any variant from code.

OpenSpiel's shape: an immutable :class:`Game` (one variant's rules, the action space, the
tensor shapes) makes mutable states, :class:`State` for one hand and :class:`MatchState` for a
whole game of hands. A state says who decides (:meth:`State.current_player`), lists the legal
action ids, applies one (an int, or its text such as ``"7H"`` or ``"discard 4D 5C 6C"``),
shows each seat what it may see (a JSON-able dict or fixed-size tensors) and clones cheaply::

    import fivehundred

    game = fivehundred.load("australian")            # or a rule file path
    state = game.new_hand(seed=1, dealer=0)
    while not state.is_over():
        seat = state.current_player()
        state.apply(state.legal_actions()[0])
    print(state.returns())

Every error is a :class:`FiveHundredError` (a ``ValueError``); an illegal action raises
:class:`IllegalActionError` naming the seat, the action and the rule clause, and changes nothing.
"""

from __future__ import annotations

import copy
import operator
import reprlib
from collections.abc import Sequence
from random import Random
from typing import Any

from ..bots.registry import RandomBot
from ..engine.codes import bits
from ..engine.errors import (
    ArgumentError,
    Diagnostic,
    FileError,
    FiveHundredError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    SpecError,
)
from ..engine.game import Match
from ..engine.hand import AUCTION, OVER, PLAY, HandResult, HandState, deal_cards
from ..engine.messages import N_, Explanation
from ..engine.notation import ENGLISH, Notation
from ..engine.records import MAX_SCORE, hand_from_record, record_of
from ..engine.rules import Rules
from ..loading import load_rules
from .tensors import (
    TensorLayout,
    information_state_layout,
    information_state_string,
    information_state_tensor,
    observation_layout,
    observation_tensor,
)

__all__ = [
    "TERMINAL",
    "ArgumentError",
    "Diagnostic",
    "FileError",
    "FiveHundredError",
    "Game",
    "HandResult",
    "IllegalActionError",
    "InvalidActionError",
    "MatchState",
    "RecordError",
    "SpecError",
    "State",
    "load",
]

#: What :meth:`State.current_player` returns once the hand (or match) is over.
TERMINAL = -1

#: Quotes an argument in an error on one short line, however long or deep it is.
_QUOTE = reprlib.Repr()
_QUOTE.maxlevel, _QUOTE.maxstring, _QUOTE.maxother = 3, 40, 40
_QUOTE.maxlist = _QUOTE.maxtuple = _QUOTE.maxdict = 8


def quote(value: object) -> str:
    """``repr(value)`` shortened to one line (deep or huge values are elided with ``...``)."""
    return " ".join(_QUOTE.repr(value).split())


def as_index(value: object) -> int | None:
    """``value`` as an int if it is integer-like (an int, a numpy integer: anything with
    ``__index__``) and not a bool; None otherwise (floats, strings, bools)."""
    if isinstance(value, int):
        return None if isinstance(value, bool) else value
    if isinstance(value, float | str | bytes) or type(value).__name__ == "bool_":
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def action_id(rules: Rules, action: object) -> int:
    """An action id given as any integer-like value (``np.int64(47)``), as an int;
    :class:`InvalidActionError` for anything else (bools and floats included) or an id out of
    range."""
    a = as_index(action)
    if a is None:
        raise InvalidActionError.of(
            N_("%(action)s is not an action of %(variant)s"),
            action=quote(action),
            variant=rules.variant,
        )
    rules.check_action(a)
    return a


def load(variant: str) -> Game:
    """The game of a built-in variant id (``australian``) or of a rule file path.

    Raises :class:`SpecError` (every problem, ``file:line:col: message``) for an unknown
    variant or a broken rule file.
    """
    return Game(load_rules(variant))


#: Deeper than any record nests lists and objects (its deepest, a trick's card, is 5 levels).
_MAX_DEPTH = 32


def _check_depth(value: object, what: str) -> None:
    """:class:`RecordError` if ``value`` nests lists or dicts deeper than any record does (a
    3,000-deep list would otherwise exhaust the recursion limit in a message's ``repr``)."""
    todo: list[tuple[object, int]] = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list | tuple):
            if depth >= _MAX_DEPTH:
                raise RecordError(f"{what} nests lists or objects more than {_MAX_DEPTH} deep")
            children = item.values() if isinstance(item, dict) else item
            todo.extend((child, depth + 1) for child in children)


class Game:
    """One variant's immutable rules: players, deck, action space and tensor shapes."""

    __slots__ = ("_info", "_obs", "rules")

    def __init__(self, rules: Rules) -> None:
        #: The engine's tables (:class:`~fivehundred.runtime.engine.rules.Rules`).
        self.rules = rules
        self._obs = observation_layout(rules)
        self._info = information_state_layout(rules)

    def __repr__(self) -> str:
        return f"<fivehundred.Game {self.variant!r}: {self.num_players} players>"

    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """The game itself: it is immutable, and its rules tables are shared by every state
        (so that ``copy.deepcopy`` of a state, as OpenSpiel clones Python states, copies only
        the hand)."""
        return self

    # -- facts --------------------------------------------------------------------------------

    @property
    def variant(self) -> str:
        """The variant id."""
        return self.rules.variant

    @property
    def name(self) -> str:
        """The variant's full name."""
        return self.rules.name

    @property
    def num_players(self) -> int:
        """Seats at the table, numbered 0..n-1 clockwise."""
        return self.rules.players

    @property
    def num_sides(self) -> int:
        """Scoring sides (partnerships, or one per player)."""
        return self.rules.n_sides

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side."""
        return self.rules.teams

    @property
    def deck(self) -> tuple[str, ...]:
        """Card codes by card index (``5S`` ... ``JK``)."""
        return self.rules.deck

    @property
    def bids(self) -> tuple[str, ...]:
        """The ladder's bid codes, lowest first."""
        return self.rules.bid_codes

    @property
    def num_distinct_actions(self) -> int:
        """Every action id is ``0 <= a < num_distinct_actions``."""
        return self.rules.n_actions

    @property
    def action_names(self) -> tuple[str, ...]:
        """The text of every action id, by id (``discard 4D`` discards one card)."""
        r = self.rules
        return tuple(r.action_str(a) for a in range(r.n_actions))

    def action_layout(self) -> tuple[tuple[str, int, int, str], ...]:
        """The blocks of the action space: ``(kind, first id, count, meaning)``."""
        return self.rules.action_layout()

    def action_name(self, action: int) -> str:
        """The text of an action id (any integer-like value)."""
        return self.rules.action_str(action_id(self.rules, action))

    @property
    def max_hand_length(self) -> int:
        """An upper bound on the number of actions in one hand."""
        r = self.rules
        calls = r.n_bids + r.players + 1 + (r.inkles[0] if r.inkles else 0)
        return calls + 1 + r.discard_count + 2 + 4 + r.players * r.hand_size + 1

    @property
    def observation_shape(self) -> tuple[int]:
        """The length of :meth:`State.observation_tensor`."""
        return (self._obs.size,)

    @property
    def information_state_shape(self) -> tuple[int]:
        """The length of :meth:`State.information_state_tensor`."""
        return (self._info.size,)

    @property
    def observation_layout(self) -> TensorLayout:
        """The named sections of the observation tensor."""
        return self._obs

    @property
    def information_state_layout(self) -> TensorLayout:
        """The named sections of the information-state tensor."""
        return self._info

    # -- states -------------------------------------------------------------------------------

    def new_hand(
        self,
        seed: int | None = None,
        dealer: int = 0,
        scores: Sequence[int] | None = None,
        rng: Random | None = None,
    ) -> State:
        """A freshly shuffled and dealt hand (from ``seed``, or from ``rng``).

        ``seed`` is an integer (or None), ``rng`` a :class:`random.Random`, ``scores`` one
        whole number per side (the scores before the hand); anything else raises
        :class:`ArgumentError` at once."""
        dealer = self._check_seat(dealer, "dealer")
        if seed is not None and as_index(seed) is None:
            raise ArgumentError(f"seed must be an integer or None, got {quote(seed)}")
        if rng is not None and not isinstance(rng, Random):
            raise ArgumentError(f"rng must be a random.Random, got {quote(rng)}")
        sides = self._check_scores(scores)
        rng = rng if rng is not None else Random(None if seed is None else as_index(seed))
        return State(self, HandState.new(self.rules, dealer, rng, sides))

    def _check_scores(self, scores: object) -> list[int] | None:
        if scores is None:
            return None
        n = self.rules.n_sides
        values = (
            [as_index(s) for s in scores]
            if isinstance(scores, list | tuple) and len(scores) == n
            else [None]
        )
        if None in values or any(abs(v) > MAX_SCORE for v in values if v is not None):
            raise ArgumentError(
                f"scores must be {n} whole numbers of 64 bits, one per side, got {quote(scores)}"
            )
        return [int(v) for v in values if v is not None]

    def deal(
        self,
        hands: list[list[str]],
        kitty: list[str],
        dealer: int = 0,
        dead: list[str] | None = None,
        scores: list[int] | None = None,
    ) -> State:
        """A hand with the given cards (card codes), as a game record's ``deal`` holds them."""
        _check_depth([hands, kitty, dead], "the deal")
        record: dict[str, Any] = {
            "variant": self.variant,
            "dealer": self._check_seat(dealer, "dealer"),
            "deal": {"hands": hands, "kitty": kitty, "dead": dead or []},
            "actions": [],
        }
        if scores is not None:
            record["scores"] = self._check_scores(scores)
        _, hand, _ = hand_from_record(record, self.rules)
        return State(self, hand)

    def position(
        self,
        seat: int,
        hand: list[str],
        actions: list[str] | None = None,
        *,
        dealer: int = 0,
        scores: list[int] | None = None,
        kitty: list[str] | None = None,
        shown: dict[int, list[str]] | None = None,
        seed: int = 0,
        notation: Notation | None = ENGLISH,
    ) -> State:
        """A position from one seat's view: its cards now (``hand``), the hand's actions so far
        as a record writes them (another seat's discard left out), the kitty's cards if the
        seat took it, and by seat the cards of a hand laid face up (``shown``, an open misère).
        The cards the seat cannot see are dealt from ``seed`` consistently with
        the plays; a bot asked to decide for ``seat`` reads none of them
        (:func:`fivehundred.runtime.engine.position.position`). Raises :class:`ArgumentError`
        or :class:`IllegalActionError` when the position cannot have happened. Cards and actions
        may carry suit symbols (``J♥``), or a language's ``notation`` (Dutch ``B♥``).
        """
        from ..engine.position import position

        hand_state = position(
            self.rules,
            seat,
            list(hand),
            list(actions or []),
            dealer=dealer,
            scores=self._check_scores(scores),
            kitty=kitty,
            shown=shown,
            seed=seed,
            notation=notation,
        )
        return State(self, hand_state)

    def new_match(self, seed: int | None = None, dealer: int | None = None) -> MatchState:
        """A whole game from 0 all: hands are dealt in turn until a side wins."""
        if dealer is not None:
            dealer = self._check_seat(dealer, "dealer")
        if seed is not None and as_index(seed) is None:
            raise ArgumentError(f"seed must be an integer or None, got {quote(seed)}")
        return MatchState(
            self, Match(self.rules, Random(None if seed is None else as_index(seed)), dealer)
        )

    def from_record(self, record: dict[str, Any]) -> State:
        """The state a game record leads to (every action checked)."""
        _check_depth(record, "the record")
        _, hand, actions = hand_from_record(record, self.rules)
        state = State(self, hand)
        for text in actions:
            if not isinstance(text, str):
                raise RecordError(f"{quote(text)} is not an action string")
            state.apply(text, notation=None)  # a record: the codes alone
        return state

    def _check_seat(self, seat: object, what: str) -> int:
        """``seat`` as an int seat number; :class:`ArgumentError` unless it is one."""
        n = self.rules.players
        s = as_index(seat)
        if s is None or not 0 <= s < n:
            raise ArgumentError(f"{what} must be a seat 0..{n - 1}, got {quote(seat)}")
        return s

    def deal_from_order(self, cards: Sequence[int], dealer: int = 0) -> State:
        """A hand dealt from a card order (card indexes, the first to the dealer's left)."""
        dealer = self._check_seat(dealer, "dealer")
        r = self.rules
        order = [as_index(c) for c in cards] if isinstance(cards, list | tuple | range) else [None]
        if None in order or sorted(order) != list(range(r.n_cards)):  # type: ignore[type-var]
            raise ArgumentError(
                f"a deal must hold each of the {r.n_cards} card indexes once, got {quote(cards)}"
            )
        hands, kitty, dead = deal_cards(r, dealer, [int(c) for c in order if c is not None])
        return State(self, HandState(r, dealer, hands, kitty, dead))


class State:
    """One hand in progress (OpenSpiel's *State*): mutable; :meth:`clone` for search."""

    __slots__ = ("_actions", "game", "hand")

    def __init__(self, game: Game, hand: HandState, actions: list[int] | None = None) -> None:
        self.game = game
        #: The engine's state (:class:`~fivehundred.runtime.engine.hand.HandState`).
        self.hand = hand
        self._actions: list[int] = actions if actions is not None else []

    # -- who and what -------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat that decides now, or :data:`TERMINAL`.

        That is the seat to move, except that a misère bidder playing both hands decides for
        the partner's hand too (see :meth:`seat_to_move`).
        """
        hand = self.hand
        if hand.phase == OVER:
            return TERMINAL
        return hand.controller(hand.to_move)

    def seat_to_move(self) -> int:
        """The seat whose card or call comes next (:data:`TERMINAL` once over)."""
        return TERMINAL if self.hand.phase == OVER else self.hand.to_move

    @property
    def phase(self) -> str:
        """``auction``, ``kitty``, ``discard``, ``partner``, ``play`` or ``over``."""
        return self.hand.phase_name

    def legal_actions(self) -> list[int]:
        """The legal action ids, ascending (empty once over)."""
        return self.hand.legal_actions()

    def legal_action_mask(self) -> list[int]:
        """1 for each legal action id, 0 otherwise: ``num_distinct_actions`` long."""
        mask = [0] * self.game.rules.n_actions
        for a in self.hand.legal_actions():
            mask[a] = 1
        return mask

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal now: an integer-like action id (``np.int64`` too) that
        the rules allow; False for anything else (a bool, a float, an id out of range)."""
        a = as_index(action)
        return a is not None and not self.hand.is_over and self.hand.is_legal(a)

    def verify(self, action: int) -> Explanation | None:
        """``None`` when the action id is legal now, else why not: the rule's ``clause`` id and
        its sentence, ``text()`` (what :meth:`apply` would raise). An id that is no action at
        all raises :class:`InvalidActionError`."""
        return self.hand.verify(action_id(self.game.rules, action))

    def is_over(self) -> bool:
        """True once the hand is scored (or thrown in)."""
        return self.hand.phase == OVER

    def action_name(self, action: int) -> str:
        """The text of an action id (``7H``, ``JK:S``, ``discard 4D``)."""
        return self.game.rules.action_str(action_id(self.game.rules, action))

    def action_id(self, text: str, notation: Notation | None = ENGLISH) -> int:
        """The id of one action's text, read as a bid during the auction and a card after; the
        codes, a card or bid with its suit symbol (``J♥``, ``7♠``) or, with ``notation``, as a
        language writes it (Dutch ``B♥``, ``7 SA``); ``notation=None``: the codes alone."""
        return self.game.rules.parse_action(
            text, bidding=self.hand.phase == AUCTION, notation=notation
        )

    # -- moves --------------------------------------------------------------------------------

    def apply(self, action: int | str, notation: Notation | None = ENGLISH) -> None:
        """Apply an action id or text; :class:`IllegalActionError` (nothing changed) if illegal.

        A text discard naming several cards (``discard 4D 5C 6C``) applies one id per card. A
        text is read as :meth:`action_id` reads it (``notation``).
        """
        hand = self.hand
        if isinstance(action, str):
            if hand.phase == OVER:
                raise IllegalActionError(TERMINAL, action, "end.continue", "the hand is over")
            rules = self.game.rules
            ids = rules.parse_actions(action, bidding=hand.phase == AUCTION, notation=notation)
            hand.apply_str(action, notation)
            self._actions.extend(ids)
            return
        a = action_id(self.game.rules, action)
        if hand.phase == OVER:
            raise IllegalActionError(TERMINAL, str(a), "end.continue", "the hand is over")
        hand.apply(a)
        self._actions.append(a)

    def hint(self, bot: str = "heuristic", seed: int = 0) -> tuple[str, str]:
        """What ``bot`` (a ``--bots`` name) would do for the seat to move, and why: the action
        text and the reason (bots that give none say so)."""
        from ..bots.heuristic import HeuristicBot
        from ..bots.heuristic1 import HeuristicBotV1
        from ..bots.registry import BotSpecError, make_bot
        from ..bots.search import SearchBot

        if self.hand.phase == OVER:
            raise ArgumentError("hint: the hand is over")
        if not isinstance(bot, str):
            raise ArgumentError(f"bot must be a bot's name such as 'heuristic', got {quote(bot)}")
        try:
            chosen = make_bot(bot)
        except BotSpecError as exc:  # a ValueError of the bots' own, not one of ours
            raise ArgumentError(f"bot {exc}") from None
        rules = self.game.rules
        if isinstance(chosen, HeuristicBot | HeuristicBotV1):
            d = chosen.decide(self.hand)
        elif isinstance(chosen, SearchBot):
            d = chosen.decide(self.hand, Random(seed))
        else:
            action = chosen.choose(self.hand, Random(seed))
            return rules.action_str(action), f"the {bot} bot gives no reason"
        return rules.action_str(d.action), d.reason

    def apply_fast(self, action: int) -> None:
        """Apply an action id known to be legal, unchecked (for search)."""
        if type(action) is not int:
            action = action_id(self.game.rules, action)
        self.hand.apply_fast(action)
        self._actions.append(action)

    def playout(self, rng: Random) -> None:
        """Finish the hand with uniformly random legal actions (the fast path)."""
        self.hand.playout(rng, self._actions)

    def clone(self) -> State:
        """An independent copy (the rules shared: they never change)."""
        return State(self.game, self.hand.copy(), list(self._actions))

    def __copy__(self) -> State:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()

    # -- results ------------------------------------------------------------------------------

    @property
    def result(self) -> HandResult | None:
        """The finished hand's result (contract, tricks, points by side), else None."""
        return self.hand.result

    def returns(self) -> list[float]:
        """Each seat's points from the hand (its side's), all 0 until the hand is over."""
        res = self.hand.result
        r = self.game.rules
        if res is None:
            return [0.0] * r.players
        return [float(res.points[r.side_of_seat[s]]) for s in range(r.players)]

    def history(self) -> list[int]:
        """Every action id applied through this object, in order."""
        return list(self._actions)

    def record(self) -> dict[str, Any]:
        """The game record (deal, scores, actions as text) of the hand so far."""
        return record_of(self.hand, self._actions)

    # -- what a seat sees ---------------------------------------------------------------------

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, as a JSON-able dict (its ``legal`` when it decides)."""
        return self.hand.observation(self.game._check_seat(seat, "seat"))

    def observation_tensor(self, seat: int) -> list[float]:
        """What ``seat`` sees now, ``game.observation_shape`` floats."""
        return observation_tensor(self.hand, self.game._check_seat(seat, "seat"))

    def information_state_tensor(self, seat: int) -> list[float]:
        """What ``seat`` knows and remembers, ``game.information_state_shape`` floats."""
        return information_state_tensor(self.hand, self.game._check_seat(seat, "seat"))

    def information_state_string(self, seat: int) -> str:
        """A string that is equal for exactly the states ``seat`` cannot tell apart."""
        return information_state_string(self.hand, self.game._check_seat(seat, "seat"))

    def __repr__(self) -> str:
        h = self.hand
        r = self.game.rules
        lines = [f"<fivehundred.State {r.variant} dealer {h.dealer}, {h.phase_name}"]
        for seat in range(r.players):
            cards = " ".join(r.deck[c] for c in bits(h.hands[seat]))
            mark = "*" if h.phase != OVER and seat == h.to_move else " "
            lines.append(f" {mark}{seat}: {cards}")
        if h.calls:
            lines.append("  auction: " + " ".join(f"{s}:{r.action_str(a)}" for s, a in h.calls))
        if h.contract >= 0:
            lines.append(f"  contract: {r.bid_codes[h.contract]} by seat {h.contractor}")
        if h.trick:
            seats = h.trick_seats(h.trick_leader, len(h.trick))
            lines.append(
                "  trick: "
                + " ".join(f"{s}:{r.action_str(a)}" for s, a in zip(seats, h.trick, strict=True))
            )
        if h.tricks or h.phase == PLAY:
            lines.append(f"  tricks won: {h.tricks_won}")
        if h.result is not None:
            lines.append(f"  points: {list(h.result.points)}")
        return "\n".join(lines) + ">"


class MatchState:
    """A whole game: hand after hand until a side wins; the current hand is :attr:`hand`."""

    __slots__ = ("_match", "game", "hand", "results")

    def __init__(self, game: Game, match: Match) -> None:
        self.game = game
        self._match = match
        #: The hand in progress (the last one, once the game is over).
        self.hand = State(game, match.hand)
        #: Every finished hand's result, in order.
        self.results: list[HandResult] = []

    @property
    def scores(self) -> list[int]:
        """Each side's score (finished hands only)."""
        return list(self._match.scores)

    @property
    def winner(self) -> int | None:
        """The winning side; -1 when the game ended without a winner; None while it goes on."""
        return self._match.winner

    @property
    def hands_played(self) -> int:
        """Finished hands."""
        return self._match.hands_played

    def current_player(self) -> int:
        """The seat that decides now, or :data:`TERMINAL` once the game is over."""
        return TERMINAL if self.is_over() else self.hand.current_player()

    def legal_actions(self) -> list[int]:
        """The legal action ids of the current hand (empty once the game is over)."""
        return [] if self.is_over() else self.hand.legal_actions()

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._match.winner is not None

    def apply(self, action: int | str) -> None:
        """Apply an action to the current hand; a finished hand is scored and the next dealt."""
        if self.is_over():
            raise IllegalActionError(TERMINAL, str(action), "end.continue", "the game is over")
        self.hand.apply(action)
        self._after()

    def apply_fast(self, action: int) -> None:
        """Apply a legal action id unchecked."""
        self.hand.apply_fast(action)
        self._after()

    def _after(self) -> None:
        if self.hand.is_over():
            self.results.append(self._match.finish_hand())
            if self._match.winner is None:
                self.hand = State(self.game, self._match.hand)

    def observation(self, seat: int) -> dict[str, Any]:
        """The current hand's observation for ``seat`` (scores included)."""
        return self.hand.observation(seat)

    def clone(self) -> MatchState:
        """An independent copy (the random deals to come included)."""
        match = copy.copy(self._match)
        match.rng = Random()
        match.rng.setstate(self._match.rng.getstate())
        match.scores = list(self._match.scores)
        match.hand = self.hand.hand.copy()
        other = MatchState.__new__(MatchState)
        other.game = self.game
        other._match = match
        other.hand = State(self.game, match.hand, self.hand.history())
        other.results = list(self.results)
        return other

    def play_randomly(self, rng: Random) -> None:
        """Finish the game with uniformly random legal actions."""
        bot = RandomBot()
        while not self.is_over():
            self.apply_fast(bot.choose(self.hand.hand, rng))

    def __repr__(self) -> str:
        state = "over" if self.is_over() else f"hand {self.hands_played + 1}"
        return f"<fivehundred.MatchState {self.game.variant} scores {self.scores}, {state}>"
