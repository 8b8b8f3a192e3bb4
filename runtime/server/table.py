"""One table: its seats and tokens, its options, the game on it, and what each seat is sent.

A :class:`Table` holds no connection and does no I/O: the app gives it a seat's action text and
asks it for each seat's message; it says when a bot or the clock is due (:meth:`Table.due`).
The game is kept as its seed and the list of every action of every hand, so a table can be
rebuilt exactly (:meth:`Table.restore`) from what the store saved.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import asdict, dataclass, field
from random import Random
from typing import Any

from ..bots.heuristic import HeuristicBot
from ..bots.reasons import reason_text
from ..bots.registry import Bot, make_bot
from ..engine.errors import FiveHundredError, IllegalActionError
from ..engine.game import NO_WINNER, Match
from ..engine.hand import OVER, HandState, action_kind
from ..engine.messages import N_, Translator, illegal, render
from ..engine.notation import notation_of, special_names
from ..engine.records import record_of
from ..engine.rules import Rules
from ..engine.seatnames import illegal_sentence
from ..engine.seatview import view_of
from .views import public_view, view_message

__all__ = [
    "BOT_NAMES",
    "CHAT_PRESETS",
    "CLOCKS",
    "Options",
    "Seat",
    "Table",
    "TableError",
    "suggest",
]

#: Seconds a seat may think when the table has a clock (T's choices).
CLOCKS = (7, 15, 30, 60)
#: The bots a seat may be given, by name only (a bot's settings are the server's to choose).
BOT_NAMES = ("heuristic", "search", "random")
#: The chat a table allows: preset messages only, by id (their text is in the UI strings).
CHAT_PRESETS = ("hello", "well-played", "thanks", "sorry", "oops", "good-game", "bye")


class TableError(FiveHundredError):
    """A request a table refuses: the wrong turn, a bad option, a message it does not know.

    ``code`` says which kind for clients (``turn``, ``malformed``, ``illegal``, ``over``...).
    """

    def __init__(self, code: str, template: str, **params: Any) -> None:
        super().__init__(render(template, params))
        self.code = code
        self.template = template
        self.params = params


@dataclass(frozen=True, slots=True)
class Options:
    """A table's settings (T's table options)."""

    #: Show the heuristic's move and its reason to the seat to move.
    suggestions: bool = False
    #: Whether the watchers' link works.
    watchers: bool = True
    #: Seconds per move (one of :data:`CLOCKS`), or 0 for no clock; when it runs out the seat's
    #: bot moves for it.
    clock: int = 0
    #: Play a move automatically when it is the only legal one.
    autoplay: bool = True
    #: Seconds a bot waits before it moves (so people can follow).
    bot_delay: float = 0.6

    def __post_init__(self) -> None:
        if self.clock and self.clock not in CLOCKS:
            raise TableError(
                "options",
                N_("the clock is %(choices)s seconds or none, not %(clock)s"),
                choices=", ".join(map(str, CLOCKS)),
                clock=self.clock,
            )
        if not 0 <= self.bot_delay <= 10:
            raise TableError("options", N_("a bot waits between 0 and 10 seconds"))


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a seat: a person (by invitation link) or a bot, and the name shown."""

    bot: str | None = None
    name: str = ""


def suggest(state: HandState, translations: Translator | None = None) -> tuple[str, str]:
    """The heuristic bot's move for the seat to move and its reason in the language of
    ``translations``: (action text, reason)."""
    r = state.rules
    decision = HeuristicBot().decide(state)
    return r.action_str(decision.action), reason_text(decision.reason, translations)


def _token() -> str:
    return secrets.token_urlsafe(18)


@dataclass
class Table:
    """A table of ``rules.players`` seats playing one game (see the module docstring)."""

    id: str
    rules: Rules
    seats: tuple[Seat, ...]
    options: Options
    seed: int
    #: The variant as its creator gave it: a built-in id, or the text of a house file.
    source: dict[str, str]
    tokens: tuple[str, ...] = ()
    watch_token: str = ""
    #: Every action of the game so far, in order (hands end where the engine says so).
    actions: list[int] = field(default_factory=list)
    #: Finished hands' records, in order.
    records: list[dict[str, Any]] = field(default_factory=list)
    #: True from a hand's end until someone asks for the next hand (the summary shows).
    between_hands: bool = False
    #: Bumped on every change; clients and timers compare it.
    version: int = 0
    match: Match = field(init=False)
    #: The hand on the table: the current one, or the finished one while between hands.
    hand: HandState = field(init=False)
    hand_actions: list[int] = field(init=False)
    #: The last finished hand and its summary (shown between hands).
    summary: dict[str, Any] | None = None
    #: When the seat to move must have moved (the clock), as a ``time.time()``.
    deadline: float | None = None
    _bots: dict[int, Bot] = field(default_factory=dict, repr=False)
    _rng: Random = field(default_factory=Random, repr=False)

    def __post_init__(self) -> None:
        if len(self.seats) != self.rules.players:
            raise TableError(
                "options",
                N_("%(variant)s is played by %(players)s, not %(seats)s"),
                variant=self.rules.variant,
                players=self.rules.players,
                seats=len(self.seats),
            )
        for seat in self.seats:
            # a bot by its name alone: settings such as search:samples=1000000000 would let
            # anyone who can open a table keep the server's threads busy for ever
            if seat.bot is not None and seat.bot not in BOT_NAMES:
                raise TableError(
                    "options",
                    N_("unknown bot %(bot)s; bots: %(bots)s"),
                    bot=repr(seat.bot),
                    bots=", ".join(BOT_NAMES),
                )
        if not self.tokens:
            self.tokens = tuple(_token() for _ in self.seats)
        if not self.watch_token:
            self.watch_token = _token()
        self._bots = {}
        for s, seat in enumerate(self.seats):
            try:
                self._bots[s] = make_bot(seat.bot or "heuristic")
            except ValueError as exc:
                raise TableError(
                    "options",
                    N_("unknown bot %(bot)s; bots: %(bots)s"),
                    bot=repr(seat.bot),
                    bots=", ".join(BOT_NAMES),
                ) from exc
        self.match = Match(self.rules, Random(self.seed))
        self.hand = self.match.hand
        self.hand_actions = []

    # -- persistence ----------------------------------------------------------------------------

    def spec(self) -> dict[str, Any]:
        """What the store keeps to rebuild the table (with :attr:`actions`)."""
        return {
            "source": self.source,
            "seats": [asdict(s) for s in self.seats],
            "options": asdict(self.options),
            "seed": self.seed,
            "tokens": list(self.tokens),
            "watch_token": self.watch_token,
        }

    @classmethod
    def restore(
        cls,
        table_id: str,
        rules: Rules,
        spec: dict[str, Any],
        actions: list[int],
        records: list[dict[str, Any]],
        between_hands: bool,
    ) -> Table:
        """The table a store saved, replayed to where it was.

        ``records`` are the finished hands' records the store kept (hand 0, 1…): they stay the
        table's records as they were downloaded, and the hands after them are numbered on from
        there. A hand the replay finished that the store had not kept yet (the server stopped
        between storing the move and the record) gets the record the replay made."""
        table = cls(
            id=table_id,
            rules=rules,
            seats=tuple(Seat(**s) for s in spec["seats"]),
            options=Options(**spec["options"]),
            seed=spec["seed"],
            source=spec["source"],
            tokens=tuple(spec["tokens"]),
            watch_token=spec["watch_token"],
        )
        for action in actions:
            if table.between_hands:
                table.next_hand()
            table._apply(action, store=False)
        rebuilt = table.records
        table.records = list(records[: len(rebuilt)]) + rebuilt[len(records) :]
        if table.between_hands and not between_hands:
            table.next_hand()
        return table

    # -- who is who ----------------------------------------------------------------------------

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens (-1: the watchers' link), or None."""
        for s, t in enumerate(self.tokens):
            if secrets.compare_digest(t, token):
                return s
        if self.options.watchers and secrets.compare_digest(self.watch_token, token):
            return -1
        return None

    def is_bot(self, seat: int) -> bool:
        """Whether a bot sits in ``seat``."""
        return self.seats[seat].bot is not None

    @property
    def to_move(self) -> int | None:
        """The seat that decides now (the controller of the seat to move), or None."""
        if self.between_hands or self.hand.phase == OVER:
            return None
        return self.hand.controller(self.hand.to_move)

    @property
    def game_over(self) -> bool:
        """Whether the game has ended."""
        return self.match.winner is not None

    # -- moves -----------------------------------------------------------------------------

    def act(self, seat: int, text: object, translations: Translator | None = None) -> None:
        """Seat ``seat`` makes the move ``text`` (record grammar); :class:`TableError` or the
        engine's :class:`IllegalActionError` if it may not."""
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise TableError("malformed", N_("a move is a short text such as 6S, pass or 10H"))
        if seat < 0:
            raise TableError("turn", N_("watchers do not play"))
        if self.to_move != seat:
            self._passed_bid(seat, text)
            raise TableError("turn", N_("it is not your turn"))
        state = self.hand
        try:
            actions = self.rules.parse_actions(text, bidding=state.phase == 0)
        except FiveHundredError as exc:
            raise TableError(
                "malformed",
                N_("%(move)s is not a move: %(why)s"),
                move=repr(text),
                why=exc.text_for(translations, notation_of(translations)),  # type: ignore[arg-type]
            ) from None
        probe = state.copy()
        probe.apply_str(text)  # raises IllegalActionError naming the seat, move and clause
        del probe
        for action in actions:
            self._apply(action)

    def _passed_bid(self, seat: int, text: str) -> None:
        """A bid by a seat whose pass stands: raise the rule that keeps it silent
        (auction.pass-final) as an :class:`IllegalActionError` naming the seat and the bid."""
        if self.to_move is None or not 0 <= seat < self.rules.players:
            return
        why = self.hand.why_not_turn(seat)
        if why is None:
            return
        try:
            actions = self.rules.parse_actions(text, bidding=True)
        except FiveHundredError:
            return
        if len(actions) == 1 and action_kind(self.rules, actions[0]) == "bid":
            raise IllegalActionError(seat, text.strip(), why.clause, why.text(), why, "bid")

    def _apply(self, action: int, store: bool = True) -> None:
        state = self.hand
        state.apply(action)
        self.actions.append(action)
        self.hand_actions.append(action)
        self.version += 1
        self.deadline = None
        if state.phase == OVER:
            self._end_hand()

    def _end_hand(self) -> None:
        state = self.hand
        record = record_of(state, self.hand_actions)
        result = state.result
        assert result is not None
        before = list(state.scores)
        self.match.finish_hand()
        r = self.rules
        winner = self.match.winner
        self.summary = {
            "hand_no": len(self.records),
            "contract": None if result.contract < 0 else r.bid_codes[result.contract],
            "contractor": None if result.contractor < 0 else result.contractor,
            "made": result.made,
            "tricks_by_side": list(result.tricks_by_side),
            "points": list(result.points),
            "scores_before": before,
            "scores": list(self.match.scores),
            "allies": list(result.allies),
            "game_over": winner is not None,
            "winner": None if winner is None or winner == NO_WINNER else winner,
        }
        self.records.append(record)
        self.between_hands = True

    def next_hand(self) -> None:
        """Leave the summary of the last hand: the next hand is on the table."""
        if not self.between_hands:
            raise TableError("turn", N_("the hand is not over yet"))
        if self.game_over:
            raise TableError("over", N_("the game is over"))
        self.between_hands = False
        self.hand = self.match.hand
        self.hand_actions = []
        self.version += 1

    def bot_move(self, seat: int) -> int:
        """The action the bot of ``seat`` (or the seat's stand-in when its clock ran out)
        chooses now. Does not apply it."""
        return self._bots[seat].choose(self.hand, self._rng)

    def forced(self) -> int | None:
        """The one legal action of the seat to move when it has no other, else None."""
        if self.to_move is None:
            return None
        legal = self.hand.legal_mask()
        return legal.bit_length() - 1 if legal.bit_count() == 1 else None

    def apply_chosen(self, action: int) -> None:
        """Apply an action a bot or the table chose (legal by construction; checked anyway)."""
        self._apply(action)

    # -- what each seat sees ------------------------------------------------------------------

    def message(self, seat: int, translations: Translator | None = None) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (-1: a watcher): only what it may know."""
        r = self.rules
        view = view_of(self.hand, seat) if seat >= 0 else public_view(self.hand)
        msg = view_message(view)
        to_move = self.to_move
        msg.update(
            type="state",
            table=self.id,
            variant=r.variant,
            # the variant's name in the reader's language (the books translate it alike)
            name=translations.gettext(r.name) if translations is not None and r.name else r.name,
            players=r.players,
            sides=list(r.side_of_seat),
            # "kitty" or "widow": the word the variant's book uses, which the page uses too
            kitty_word=r.terms["kitty"],
            n_sides=r.n_sides,
            target=r.target,
            seats=[{"name": s.name, "bot": s.bot} for s in self.seats],
            hand_no=len(self.records) + (0 if self.between_hands else 1),
            to_move=to_move,
            between_hands=self.between_hands,
            game_over=self.game_over,
            summary=self.summary if self.between_hands else None,
            records=len(self.records),
            version=self.version,
            moves=len(self.actions),
            options=asdict(self.options),
            ladder=list(r.bid_codes),
            # the variant's special bids by code, each by its name in the reader's language
            # (MIS -> misère): the page shows the name and sends the code back (issue 21 §4)
            specials=special_names(r, translations),
            # every table has a rule book: a built-in variant's under /books/, a house file's
            # under the table's own address (for those with a link: house_book_page)
            book=True,
            house="house" in self.source,
            discard_left=(
                r.discard_count - len(msg["discarded"]) if msg["phase"] == "discard" else 0
            ),
            legal=[],
            suggestion=None,
            clock=None if self.deadline is None else max(0.0, self.deadline - time.time()),
        )
        if to_move is not None and to_move == seat:
            legal = self.hand.legal_actions()
            msg["legal"] = [r.action_str(a) for a in legal]
            if self.options.suggestions:
                action, reason = suggest(self.hand, translations)
                msg["suggestion"] = {"action": action, "reason": reason}
        return msg

    def illegal_text(
        self, exc: IllegalActionError, translations: Translator | None, reader: int = -1
    ) -> str:
        """The sentence for an illegal move, as ``fivehundred play`` says it to the person in
        seat ``reader``: the seat by its name from that chair (``you``, ``partner``), the move
        and why, translated, with cards and bids in the language's notation (``B♥``, ``7 SA``
        in Dutch; isolated in Arabic). A watcher (-1) reads the seat's number."""
        if 0 <= reader < self.rules.players and 0 <= exc.seat < self.rules.players:
            return illegal_sentence(self.rules, reader, exc, translations)
        notation = notation_of(translations)  # type: ignore[arg-type]
        explanation = exc.explanation
        reason = explanation.text(translations, notation) if explanation is not None else exc.reason
        return illegal(exc.seat, exc.action, exc.kind, reason, translations, notation)


def cards_in(message: object) -> set[str]:
    """Every string in a message (for tests: which card codes it names)."""
    found: set[str] = set()
    stack = [message]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found
