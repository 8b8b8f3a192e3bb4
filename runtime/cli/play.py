"""``fivehundred play``: one person against bots at the terminal, hand after hand to the end.

The person sits at seat 0 (``--seat``); every other seat is a bot (heuristic by default,
``--bots`` to choose). The screen shows only what the person's seat may see (its
:class:`~fivehundred.runtime.engine.seatview.SeatView`); an illegal or malformed action is
explained with its rule id, a typo gets a "did you mean" among the legal moves, and the person
is asked again. Besides actions the person may type ``hint`` (the heuristic bot's suggestion and
its reason), ``help`` (the commands) and ``quit``; the end of the input ends the game quietly.

Every seat is named from the person's chair, as the browser table names it: ``you``,
``partner``, ``left opponent``, ``right opponent`` (``left``, ``far left``, ``across``...
where each player is a side of his own); the scores are given by side, with who is on it and the
target; the hand is sorted as players hold it, trumps first as one group (the jokers and bowers
in it), the kitty's cards marked ``*``. A move that is the only legal one is played for the
person and said so (``autoplay=False``: asked anyway). Each hand ends with a summary (the
contract, made or not, tricks and points by side, the new scores), and the game with one (the
winner, the final scores, the hands played).

With ``--lang`` the game speaks that language: its lines, the engine's messages, and every card
and bid in the language's notation (:mod:`~fivehundred.runtime.engine.notation`: Dutch ``B♥``,
``7 SA``; English ``J♥``, ``7NT``, as the rule books write them). The person may type the codes
(``JH``), a code with its suit symbol (``J♥``) or the language's notation (``B♥``); the commands
(``hint``, ``pass``, ``discard``...) are the words of the action grammar in every language.
"""

from __future__ import annotations

from collections.abc import Callable
from difflib import SequenceMatcher
from random import Random
from typing import IO, Any

from ..bots.heuristic import HeuristicBot
from ..bots.reasons import reason_text
from ..bots.registry import Bot, make_bot
from ..engine.codes import SUITS, bits
from ..engine.errors import FiveHundredError, IllegalActionError, InvalidActionError
from ..engine.game import Match
from ..engine.hand import AUCTION, DISCARD, PLAY, HandResult, HandState
from ..engine.messages import N_, render
from ..engine.notation import LRI, NP_, PDI, Notation, notation_of
from ..engine.rules import Rules
from ..engine.seatnames import illegal_sentence, position, seat_name
from ..engine.seatview import SeatView, played_by_tables, sorted_cards, view_of

__all__ = ["HELP", "hint", "play_match", "position"]

# Translators: play's list of commands. Leave the words a player types as they are (hint,
# help, quit, pass, discard, take, sans, partner, call, nominate, SEAT, CARD, SUIT, MIS);
# card, joker, bid and nt are examples in your notation (B♥, JK:♠, 6♠, 7 SA).
HELP = N_(
    "commands:\n"
    "  an action      a card (%(card)s; %(joker)s to lead the joker naming a suit),\n"
    "                 a bid (%(bid)s, %(nt)s, MIS), pass,\n"
    "                 discard and the cards, take, sans, partner SEAT, call CARD,\n"
    "                 nominate SUIT; the codes (JH, 7NT) work too\n"
    "  hint           what the heuristic bot would do here, and why\n"
    "  help           this list\n"
    "  quit           leave the game (so does the end of the input)\n"
)
#: The phases of a hand, as play names them (``HandState.phase_name``; the kitty's is "widow"
#: where the variant calls the kitty the widow).
PHASES = {
    "auction": NP_("phase", "auction"),
    "kitty": NP_("phase", "kitty"),
    "widow": NP_("phase", "widow"),
    "discard": NP_("phase", "discard"),
    "partner": NP_("phase", "partner"),
    "play": NP_("phase", "play"),
    "over": NP_("phase", "over"),
}

# Translators: play's names of the sides in partnership games: yours, with one partner or with
# two, and the other side when there are two sides. Standing alone, like the seats' names.
_WE_TWO = NP_("side", "you and partner")
_WE_ALL = NP_("side", "you and partners")
_THEY = NP_("side", "opponents")
# Translators: play: the last two names of a list of seats (left opponent and far-right opponent);
# first may itself be a list joined by the list separator.
AND = N_("%(first)s and %(last)s")
# Translators: play: one entry of a list: who is a seat or a side (partner, you and partner,
# left...), value what belongs to it: a call (6♥, pass), a card, a score, tricks or points.
ITEM = N_("%(who)s %(value)s")
# Translators: play: a move that names a seat (partner 2: the contractor chooses seat 2 as
# partner), and the name play gives that seat (left, you...).
ACTION_WHO = N_("%(action)s (%(who)s)")

# Translators: play: the first line of a game: the variant's name and the score that ends it.
GAME_START = N_("%(name)s, playing to %(target)s")
# Translators: play: the second line of a game: who sits where, a list of the next message.
SEATING = N_("at the table: %(seats)s")
# Translators: play: who (you, partner, left...) and the seat number, which --seat and --bots
# count by.
SEAT_NUMBER = N_("%(who)s in seat %(seat)s")
# Translators: play: a new hand; number counts the hands of the game (1, 2...), who is the
# dealer (you, partner, left opponent...).
NEW_HAND = N_("hand %(number)s · dealer: %(who)s")
# Translators: play: the sides' scores (a list: you and partner 120, opponents -40) and the
# score that wins the game.
SCORES = N_("scores: %(scores)s · playing to %(target)s")
# Translators: play: the dealer (you, partner, left...).
DEALER = N_("dealer: %(who)s")
# Translators: play: the calls so far, each as who and call (partner 7♥, right opponent pass).
AUCTION_LINE = N_("auction: %(calls)s")
# Translators: play: the contract, a bid such as 7♥, and the contractor (you, partner, left...).
CONTRACT = N_("contract: %(bid)s · contractor: %(who)s")
# Translators: play: the contractor's side in a game where it is chosen for each hand: the
# contractor and the partners known so far (left, far right).
ALLIES = N_("contractor's side: %(who)s")
# Translators: play: the suit the contractor named for the joker at no trumps (hearts...).
JOKER_SUIT = N_("joker's suit: %(suit)s")
# Translators: as the message before, where the variant calls the joker the bird.
BIRD_SUIT = N_("bird's suit: %(suit)s")
# Translators: play: every player passed and the hand is played at no trumps, without a
# contractor (a house rule).
NO_CONTRACT = N_("everybody passed: the hand is played at no trumps")
# Translators: play: the tricks each side has won so far (you and partner 3, opponents 2).
TRICKS = N_("tricks: %(sides)s")
# Translators: play: the cards of the trick in progress, each as who and card (partner B♥,
# right opponent 10♥).
TRICK = N_("trick: %(cards)s")
# Translators: play: the cards of a hand laid face up (open misère); who is a seat's name.
SHOWS = N_("%(who)s shows: %(cards)s")
# Translators: play: the person's own cards, in suits: trumps first, suits apart by two spaces.
YOUR_HAND = N_("your hand: %(cards)s")
# Translators: play: as the message before, when some of the cards came from the kitty: those
# carry a * after the card (B♥*).
YOUR_HAND_KITTY = N_("your hand: %(cards)s · * from the kitty")
# Translators: as the message before, where the variant calls the kitty the widow.
YOUR_HAND_WIDOW = N_("your hand: %(cards)s · * from the widow")
# Translators: play: the bot's suggestion (action, a move in your notation) and its reason
# (another message).
HINT = N_("hint: %(action)s (%(reason)s)")
# Translators: play: another seat's move: who (partner, left opponent...) and the move, a card
# or bid in your notation, or pass, take...
MOVE = N_("%(who)s: %(action)s")
# Translators: play: another seat (the contractor: partner, left...) discards a card, face down.
DISCARDS = N_("%(who)s: discards a card")
# Translators: play: the person's move (who: you; or partner, whose hand the person plays) was
# the only legal one and is played without asking; action is the move in your notation.
FORCED = N_("%(who)s: %(action)s (the only legal move, played automatically)")
# Translators: play's prompt: the phase (auction, play...) and the moves open to the person;
# the person types after the final ">".
PROMPT = N_("%(phase)s, your turn (%(legal)s) > ")
# Translators: as the message before, when the person plays the hand of another seat (who:
# partner, in a misère with both hands).
PROMPT_FOR = N_("%(phase)s, you play for %(who)s (%(legal)s) > ")
# Translators: play's prompt in the discard: count cards are still to be discarded; example
# is a discard as it is typed (discard 4♦ 5♣ 6♣; keep the word discard).
DISCARD_PROMPT = N_(
    "cards still to discard: %(count)s; type discard and the cards, e.g. %(example)s"
)
# Translators: play: after a move it cannot read or that names a card not held: moves is one
# or more legal moves close to what was typed, in your notation (6♥, or 6♥, 6♦).
DID_YOU_MEAN = N_("did you mean %(moves)s?")
# Translators: play: the winner of a trick (you, partner...), its number (1 for the first) and
# the tricks of every side so far (you and partner 3, opponents 2).
TRICK_WON = N_("trick %(number)s · winner: %(who)s · tricks: %(sides)s")
# Translators: play: the end of a hand; who is the contractor (you, partner...), bid the
# contract (7♥). Two lines follow: tricks and points by side, and the new scores.
HAND_MADE = N_("hand %(number)s over · %(who)s: %(bid)s made")
# Translators: as the message before, for a contract that failed.
HAND_FAILED = N_("hand %(number)s over · %(who)s: %(bid)s failed")
# Translators: play: the end of a hand in which every player passed: nobody scores.
HAND_THROWN_IN = N_("hand %(number)s over: everybody passed; the hand is thrown in")
# Translators: play: the end of a hand in which every player passed and the hand was played at
# no trumps without a contract (a house rule).
HAND_NO_CONTRACT = N_("hand %(number)s over: everybody passed; played at no trumps")
# Translators: play: the end of a hand thrown in because who (you, left...) asked for a redeal
# (the house rule "no ace, no face").
HAND_REDEAL = N_(
    "hand %(number)s over · %(who)s: asked for a redeal (no ace, no face); the same dealer "
    "deals again"
)
# Translators: play: the second line of a hand's summary: the tricks and the points of every
# side in the hand (you and partner 7, opponents 3; you and partner +100, opponents +30).
HAND_RESULT = N_("tricks: %(tricks)s · points: %(points)s")
# Translators: play: the end of the game; who is the winning side or player (you and partner,
# opponents, left...), hands the number of hands played.
GAME_WON = N_("game over · winner: %(who)s · hands played: %(hands)s")
# Translators: play: the end of a game where nobody wins (every side went out backwards).
GAME_NOBODY = N_("game over · nobody wins · hands played: %(hands)s")
# Translators: play: the last line of a game: the sides' final scores (a list).
FINAL_SCORES = N_("final scores: %(scores)s")

#: The words play reads besides moves (a typo of one is offered too).
COMMANDS = ("hint", "help", "quit")
#: How alike a typo and a legal move must be to offer the move (difflib's ratio, 0 to 1).
CLOSE_ENOUGH = 0.5
#: The most moves one "did you mean" offers.
MAX_OFFERED = 4
#: Between the suits of a hand (two spaces: the cards split on white space as typed).
SUIT_GAP = "  "


class _Voice:
    """How play speaks to the person in ``seat``: the messages in the person's language, cards
    and bids in its notation, every seat and side by its name from the person's chair."""

    def __init__(self, rules: Rules, seat: int, translations: Any = None) -> None:
        self.rules = rules
        self.seat = seat
        self.translations = translations
        self.notation: Notation = notation_of(translations, rules)  # misère, not MIS

    # -- words ----------------------------------------------------------------------------------

    def say(self, template: str, **params: Any) -> str:
        """A message in the language (its parameters already in the notation)."""
        return render(template, params, self.translations)

    def word(self, context: str, message: str) -> str:
        """A message with a context (``NP_``) in the language."""
        return self.translations.pgettext(context, message) if self.translations else message

    def phase(self, name: str) -> str:
        """A phase of the hand by its name in the language."""
        return self.word("phase", PHASES.get(name, name))

    def listing(self, items: list[str]) -> str:
        """Items joined by the language's list separator (as the rule books join them)."""
        return self.word("list separator", ", ").join(items)

    def and_list(self, names: list[str]) -> str:
        """Names as a list whose last two are joined by "and"."""
        if len(names) < 2:
            return "".join(names)
        return self.say(AND, first=self.listing(names[:-1]), last=names[-1])

    def number(self, value: int, signed: bool = False) -> str:
        """A score or points: ``+30`` with ``signed``; a number with a sign is isolated left to
        right in a right-to-left language (as the books isolate signed numbers)."""
        text = f"{value:+d}" if signed and value else str(value)
        return self.notation.isolate(text) if text[0] in "+-" else text

    # -- seats and sides ------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        """A seat's name from the person's chair: you, partner, left opponent, far left..."""
        return seat_name(self.rules, self.seat, seat, self.translations)

    def side(self, side: int) -> str:
        """A side's name: its player where each player is a side of his own; otherwise you and
        partner(s), the opponents (of two sides), or the names of its seats."""
        r = self.rules
        members = [s for s in range(r.players) if r.side_of_seat[s] == side]
        if len(members) == 1:
            return self.who(members[0])
        if side == r.side_of_seat[self.seat]:
            return self.word("side", _WE_TWO if len(members) == 2 else _WE_ALL)
        if r.n_sides == 2:
            return self.word("side", _THEY)
        return self.and_list([self.who(s) for s in members])

    def by_side(self, values: list[int] | tuple[int, ...], signed: bool = False) -> str:
        """One value per side as a list: you and partner 120, opponents -40."""
        return self.listing(
            [
                self.say(ITEM, who=self.side(s), value=self.number(v, signed))
                for s, v in enumerate(values)
            ]
        )

    def scores(self, scores: list[int] | tuple[int, ...]) -> str:
        """The scores line: every side's score and the target."""
        return self.say(SCORES, scores=self.by_side(scores), target=self.rules.target)

    # -- cards and moves ------------------------------------------------------------------------

    def action(self, code: str, bidding: bool) -> str:
        """An action of the grammar in the notation (a code like ``7H`` a bid when bidding);
        a chosen partner with the seat's name (``partner 2 (far left)``)."""
        words = code.split()
        if len(words) == 2 and words[0] == "partner" and words[1].isdigit():
            seat = int(words[1])
            if 0 <= seat < self.rules.players:
                return self.say(ACTION_WHO, action=code, who=self.who(seat))
        return self.notation.action(code, "bid" if bidding else None)

    def card(self, code: str, marked: bool = False) -> str:
        """A card in the notation (a joker's lead naming its suit too), isolated in a
        right-to-left language; ``marked``: a ``*`` after it (a card from the kitty)."""
        shown = self.notation.action_text(code, "card") + ("*" if marked else "")
        return self.notation.isolate(shown)

    def held(self, view: SeatView, mask: int, marked: int = 0) -> str:
        """Cards as a player holds them (:func:`sorted_cards`): the suits apart by
        :data:`SUIT_GAP`, trumps first; those of ``marked`` carry a ``*``."""
        deck = self.rules.deck
        suit_of = played_by_tables(view)[0]
        groups: list[list[str]] = []
        last = -1
        for c in sorted_cards(view, mask):
            if suit_of[c] != last or not groups:
                groups.append([])
                last = suit_of[c]
            groups[-1].append(self.card(deck[c], bool(marked >> c & 1)))
        return SUIT_GAP.join(" ".join(g) for g in groups)

    def error(self, exc: FiveHundredError) -> str:
        """An engine error as the person reads it: an illegal move names the seat by its name
        (``you may not play B♥: ...``), and a seat number in the reason gets its name too."""
        if not isinstance(exc, IllegalActionError):
            return exc.text_for(self.translations, self.notation)
        return f"{self.illegal(exc)} [{exc.clause}]"

    def illegal(self, exc: IllegalActionError) -> str:
        """An illegal move's sentence without its clause id: the seat by its name, the move
        and the reason in the notation (``you may not play B♥: ...``)."""
        return illegal_sentence(self.rules, self.seat, exc, self.translations)


def _trick_items(voice: _Voice, view: SeatView, leader: int, actions: tuple[int, ...]) -> str:
    """A trick's cards, each with the name of the seat that played it."""
    r = voice.rules
    items = []
    seat = leader
    for a in actions:
        items.append(voice.say(ITEM, who=voice.who(seat), value=voice.card(r.action_str(a))))
        seat = view.next_seat[seat]
    return voice.listing(items)


def _tricks_by_side(voice: _Voice, tricks_won: list[int] | tuple[int, ...]) -> str:
    r = voice.rules
    by_side = [0] * r.n_sides
    for seat, won in enumerate(tricks_won):
        by_side[r.side_of_seat[seat]] += won
    return voice.by_side(by_side)


def _show(voice: _Voice, view: SeatView, out: IO[str]) -> None:
    """What the person sees before deciding: scores, dealer and auction, contract, tricks, the
    trick on the table, hands laid face up, and the person's own hand."""
    r = voice.rules
    lines = ["", voice.scores(view.scores)]
    calls = [
        voice.say(ITEM, who=voice.who(s), value=voice.action(r.action_str(a), True))
        for s, a in view.calls
    ]
    head = [voice.say(DEALER, who=voice.who(view.dealer))]
    if calls:
        head.append(voice.say(AUCTION_LINE, calls=voice.listing(calls)))
    lines.append(" · ".join(head))
    if view.contract >= 0:
        bid = voice.notation.isolate(voice.notation.bid(r.bid_codes[view.contract]))
        parts = [voice.say(CONTRACT, bid=bid, who=voice.who(view.contractor))]
        if r.n_sides == r.players and view.allies & ~(1 << view.contractor):
            # no fixed partnerships: the partners of this hand, as far as the person knows
            others = [s for s in bits(view.allies) if s != view.contractor]
            allies = [voice.who(s) for s in [view.contractor, *others]]
            parts.append(voice.say(ALLIES, who=voice.listing(allies)))
        if view.nominated >= 0:
            template = BIRD_SUIT if r.terms["joker"] == "bird" else JOKER_SUIT
            parts.append(voice.say(template, suit=SUITS[view.nominated]))
        lines.append(" · ".join(parts))
    elif view.phase == PLAY:
        lines.append(voice.say(NO_CONTRACT))
    if view.phase == PLAY:
        lines.append(voice.say(TRICKS, sides=_tricks_by_side(voice, view.tricks_won)))
    if view.trick:
        cards = _trick_items(voice, view, view.trick_leader, view.trick)
        lines.append(voice.say(TRICK, cards=cards))
    for seat in range(r.players):
        if view.faced[seat]:
            cards = voice.held(view, view.faced[seat])
            lines.append(voice.say(SHOWS, who=voice.who(seat), cards=cards))
    marked = view.hand & view.kitty_seen
    cards = voice.held(view, view.hand, marked)
    if marked:
        template = YOUR_HAND_WIDOW if r.terms["kitty"] == "widow" else YOUR_HAND_KITTY
    else:
        template = YOUR_HAND
    lines.append(voice.say(template, cards=cards))
    out.write("\n".join(lines) + "\n")


def _legal_in_order(view: SeatView, legal: list[int]) -> list[int]:
    """The legal actions, cards in the order of the hand (trumps first), the rest as they are."""
    r = view.rules
    order = {c: i for i, c in enumerate(sorted_cards(view, (1 << r.n_cards) - 1))}

    def key(action: int) -> tuple[int, int]:
        if action < r.PASS:  # a card, or the joker led naming a suit
            return (order[view.card_of(action)], action)
        return (len(order), action)

    return sorted(legal, key=key)


def _typed(text: str) -> str:
    """A move as typed, without what a move copied from play's lines may carry: the kitty's
    mark (``Q♥*``) and the isolates around a card in a right-to-left language."""
    return text.replace("*", "").replace(LRI, "").replace(PDI, "")


def _folded(text: str) -> str:
    return "".join(text.split()).casefold()


def _close_moves(voice: _Voice, hand: HandState, typed: str) -> list[str]:
    """The legal moves (and commands) most like ``typed``, in the notation: a typo's
    "did you mean"; none alike enough (:data:`CLOSE_ENOUGH`), none."""
    r = voice.rules
    word = _folded(_typed(typed))
    if not word or hand.phase == DISCARD:
        return []
    bidding = hand.phase == AUCTION
    view = view_of(hand, voice.seat)
    scored: list[tuple[float, str]] = []
    for a in _legal_in_order(view, hand.legal_actions()):
        code = r.action_str(a)
        plain = voice.notation.action_text(code, "bid" if bidding else None)
        alike = max(SequenceMatcher(None, word, _folded(form)).ratio() for form in (code, plain))
        scored.append((alike, voice.action(code, bidding)))
    for command in COMMANDS:
        scored.append((SequenceMatcher(None, word, command).ratio(), command))
    best = max(alike for alike, _ in scored)
    if best < CLOSE_ENOUGH:
        return []
    return [shown for alike, shown in scored if alike == best][:MAX_OFFERED]


def _offers_moves(hand: HandState, exc: FiveHundredError, notation: Notation) -> bool:
    """Whether a failed move earns a "did you mean": a move the grammar cannot read, or a card
    its seat does not hold (a typo of a card held); not a move the rules forbid for a reason."""
    if isinstance(exc, InvalidActionError):
        return True
    if not isinstance(exc, IllegalActionError) or exc.kind not in ("card", "joker-lead"):
        return False
    r = hand.rules
    try:
        action = r.parse_actions(exc.action, bidding=False, notation=notation)[0]
    except (FiveHundredError, IndexError):
        return True
    card = action if action < r.JOKER_LEAD else r.joker_cards[(action - r.JOKER_LEAD) // 4]
    return not hand.hands[exc.seat] >> card & 1


def hint(state: HandState, translations: Any = None, seat: int | None = None) -> str:
    """The heuristic bot's choice for the seat to move and its reason, as one line: the move in
    the notation of the language of ``translations`` (English without), the reason too; a seat
    the move names (a partner chosen) by its name from ``seat``'s chair (the seat to move's
    without it)."""
    voice = _Voice(state.rules, state.to_move if seat is None else seat, translations)
    decision = HeuristicBot().decide(state)
    r = state.rules
    if state.phase == DISCARD:
        from ..bots.heuristic import discard_choice

        drop, why = discard_choice(view_of(state, state.contractor))
        text = "discard " + " ".join(r.deck[c] for c in range(r.n_cards) if drop >> c & 1)
        reason = reason_text(why, translations)
        return voice.say(HINT, action=voice.action(text, False), reason=reason)
    shown = voice.action(r.action_str(decision.action), state.phase_name == "auction")
    return voice.say(HINT, action=shown, reason=reason_text(decision.reason, translations))


def _hand_summary(
    voice: _Voice, number: int, hand: HandState, result: HandResult, scores: list[int]
) -> list[str]:
    """The lines that end a hand: what became of it, its tricks and points by side, the new
    scores."""
    r = voice.rules
    if result.redeal:
        seat = hand.calls[-1][0]
        return [voice.say(HAND_REDEAL, number=number, who=voice.who(seat)), voice.scores(scores)]
    if result.contract >= 0:
        bid = voice.notation.isolate(voice.notation.bid(r.bid_codes[result.contract]))
        template = HAND_MADE if result.made else HAND_FAILED
        first = voice.say(template, number=number, who=voice.who(result.contractor), bid=bid)
    elif hand.tricks:
        first = voice.say(HAND_NO_CONTRACT, number=number)
    else:
        return [voice.say(HAND_THROWN_IN, number=number), voice.scores(scores)]
    tricks = voice.by_side(result.tricks_by_side)
    points = voice.by_side(result.points, signed=True)
    return [first, voice.say(HAND_RESULT, tricks=tricks, points=points), voice.scores(scores)]


def play_match(
    rules: Rules,
    read: Callable[[str], str],
    out: IO[str],
    seed: int | None = None,
    seat: int = 0,
    bot: str = "heuristic",
    bots: list[str] | None = None,
    translations: Any = None,
    autoplay: bool = True,
) -> int | None:
    """Play one game; ``read(prompt)`` supplies the person's actions. Returns the winning side.

    ``bots`` names one bot for every other seat, or one per seat (the person's entry ignored);
    without it every other seat is ``bot``. ``read`` raising :class:`EOFError` ends the game.
    ``translations`` (gettext-like, English without): the language of the game, whose notation
    shows the cards and bids and is read besides the codes. ``autoplay``: a move that is the
    only legal one is played for the person, with a line that says so.
    """
    voice = _Voice(rules, seat, translations)
    notation = voice.notation
    rng = Random(seed)
    match = Match(rules, rng)
    names = bots or [bot]
    if len(names) == 1:
        names = names * rules.players
    players: dict[int, Bot] = {s: make_bot(names[s]) for s in range(rules.players) if s != seat}
    name = translations.gettext(rules.name) if translations is not None else rules.name
    out.write(voice.say(GAME_START, name=name or rules.variant, target=rules.target) + "\n")
    seats = [voice.say(SEAT_NUMBER, who=voice.who(s), seat=s) for s in range(rules.players)]
    out.write(voice.say(SEATING, seats=voice.listing(seats)) + "\n")
    while match.winner is None:
        hand = match.hand
        number = match.hands_played + 1
        out.write("\n" + voice.say(NEW_HAND, number=number, who=voice.who(hand.dealer)) + "\n")
        seen: tuple[int, ...] = ()  # the state of the hand when the person last saw it
        while not hand.is_over:
            tricks_before = len(hand.tricks)
            actor = hand.to_move
            mover = hand.controller(actor)
            bidding = hand.phase == AUCTION
            legal = hand.legal_actions()
            if mover != seat:
                action = players[mover].choose(hand, rng)
                hand.apply_fast(action)
                if rules.DISCARD <= action < rules.DISCARD + rules.n_cards:
                    out.write(voice.say(DISCARDS, who=voice.who(actor)) + "\n")
                else:
                    shown = voice.action(rules.action_str(action), bidding)
                    out.write(voice.say(MOVE, who=voice.who(actor), action=shown) + "\n")
            elif autoplay and len(legal) == 1:
                hand.apply(legal[0])
                shown = voice.action(rules.action_str(legal[0]), bidding)
                out.write(voice.say(FORCED, who=voice.who(actor), action=shown) + "\n")
            else:
                view = view_of(hand, seat)
                now = (
                    len(hand.calls),
                    hand.n_tricks,
                    len(hand.trick),
                    hand.phase,
                    actor,
                    hand.nominated,
                    hand.allies,
                )
                if now != seen:  # not again after a hint, the help or a refused move
                    _show(voice, view, out)
                    seen = now
                if hand.phase == DISCARD:
                    left = rules.discard_count - hand.discarded.bit_count()
                    example = voice.action("discard 4D 5C 6C", False)
                    offered = voice.say(DISCARD_PROMPT, count=left, example=example)
                else:
                    offered = voice.listing(
                        [
                            voice.action(rules.action_str(a), bidding)
                            for a in _legal_in_order(view, legal)
                        ]
                    )
                phase = voice.phase(
                    "widow"
                    if hand.phase_name == "kitty" and rules.terms["kitty"] == "widow"
                    else hand.phase_name
                )
                if actor == seat:
                    prompt = voice.say(PROMPT, phase=phase, legal=offered)
                else:
                    prompt = voice.say(PROMPT_FOR, phase=phase, who=voice.who(actor), legal=offered)
                try:
                    text = read(prompt)
                except EOFError:
                    out.write("\n")
                    return None
                word = text.strip().lower()
                if word in ("quit", "exit"):
                    return None
                if word in ("help", "?"):
                    out.write(_help(voice))
                    continue
                if word == "hint":
                    out.write(hint(hand, translations, seat) + "\n")
                    continue
                try:
                    hand.apply_str(_typed(text), notation)
                except FiveHundredError as exc:
                    out.write(voice.error(exc) + "\n")
                    close = (
                        _close_moves(voice, hand, text)
                        if _offers_moves(hand, exc, notation)
                        else []
                    )
                    if close:
                        out.write(voice.say(DID_YOU_MEAN, moves=voice.listing(close)) + "\n")
                    continue
            if len(hand.tricks) > tricks_before and hand.tricks:
                winner = hand.tricks[-1][2]
                sides = _tricks_by_side(voice, hand.tricks_won)
                line = voice.say(
                    TRICK_WON, number=len(hand.tricks), who=voice.who(winner), sides=sides
                )
                out.write(line + "\n")
        result = match.finish_hand()
        out.write("\n".join(_hand_summary(voice, number, hand, result, match.scores)) + "\n")
    hands = match.hands_played
    if match.winner is not None and match.winner >= 0:
        out.write("\n" + voice.say(GAME_WON, who=voice.side(match.winner), hands=hands) + "\n")
    else:
        out.write("\n" + voice.say(GAME_NOBODY, hands=hands) + "\n")
    out.write(voice.say(FINAL_SCORES, scores=voice.by_side(match.scores)) + "\n")
    return match.winner


def _help(voice: _Voice) -> str:
    n = voice.notation
    return voice.say(
        HELP,
        card=n.isolate(n.card("JH")),
        joker=n.action("JK:S", "joker-lead"),
        bid=n.isolate(n.bid("6S")),
        nt=n.isolate(n.bid("7NT")),
    )
