"""``fivehundred play``: one person against bots at the terminal, hand after hand to the end.

The person sits at seat 0 (``--seat``); every other seat is a bot (heuristic by default,
``--bots`` to choose). The screen shows only what the person's seat may see (its observation);
an illegal or malformed action is explained with its rule id and asked again. Besides actions
the person may type ``hint`` (the heuristic bot's suggestion and its reason), ``help`` (the
commands) and ``quit``; the end of the input ends the game quietly.

With ``--lang`` the game speaks that language: its lines, the engine's messages, and every card
and bid in the language's notation (:mod:`~fivehundred.runtime.engine.notation`: Dutch ``B♥``,
``7 SA``; English ``J♥``, ``7NT``, as the rule books write them). The person may type the codes
(``JH``), a code with its suit symbol (``J♥``) or the language's notation (``B♥``); the commands
(``hint``, ``pass``, ``discard``...) are the words of the action grammar in every language.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import IO, Any

from ..bots.heuristic import HeuristicBot
from ..bots.registry import Bot, make_bot
from ..engine.errors import FiveHundredError
from ..engine.game import Match
from ..engine.hand import DISCARD, HandState
from ..engine.messages import N_, render
from ..engine.notation import NP_, Notation, notation_of
from ..engine.rules import Rules

__all__ = ["HELP", "hint", "play_match"]

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
#: The phases of a hand, as play names them (``HandState.phase_name``).
PHASES = {
    "auction": NP_("phase", "auction"),
    "kitty": NP_("phase", "kitty"),
    "discard": NP_("phase", "discard"),
    "partner": NP_("phase", "partner"),
    "play": NP_("phase", "play"),
    "over": NP_("phase", "over"),
}
# Translators: play's status line before the person moves: the sides' scores (a list such as
# [120, -40]), the dealer's seat number and the phase of the hand (auction, play...).
STATUS = N_("scores %(scores)s · dealer %(dealer)s · phase %(phase)s")
# Translators: play: the calls so far, each as seat:call (0:pass 1:7♥).
AUCTION = N_("auction: %(calls)s")
# Translators: play: the contract, a bid such as 7♥, and the contractor's seat number.
CONTRACT = N_("contract: %(bid)s by seat %(seat)s")
# Translators: play: the tricks each seat has won, a list such as [2, 0, 1, 0].
TRICKS_WON = N_("tricks won by seat: %(tricks)s")
# Translators: play: the cards of the trick in progress, each as seat:card (1:B♥ 2:10♥).
TRICK = N_("trick: %(cards)s")
# Translators: play: the cards of a hand laid face up (open misère).
SHOWS = N_("seat %(seat)s shows: %(cards)s")
# Translators: play: the person's own cards.
YOUR_HAND = N_("your hand: %(cards)s")
# Translators: play: the bot's suggestion (action, a move in your notation) and its reason
# (in English, from the bot).
HINT = N_("hint: %(action)s (%(reason)s)")
# Translators: play: a new hand starts; number counts the hands of the game (1, 2...).
NEW_HAND = N_("hand %(number)s: seat %(dealer)s deals")
# Translators: play: another seat's move, a card or bid in your notation, or pass, take...
MOVE = N_("seat %(seat)s: %(action)s")
# Translators: play: another seat (the contractor) discards a card, face down.
DISCARDS = N_("seat %(seat)s: discards a card")
# Translators: play's prompt: the seat to move, the phase (auction, play...) and the moves
# open to it; the person types after the final ">".
PROMPT = N_("seat %(seat)s, %(phase)s (%(legal)s) > ")
# Translators: play's prompt in the discard: count cards are still to be discarded; example
# is a discard as it is typed (discard 4♦ 5♣ 6♣; keep the word discard).
DISCARD_PROMPT = N_(
    "cards still to discard: %(count)s; type discard and the cards, e.g. %(example)s"
)
# Translators: play: the winner of a trick, its number (1 for the first) and the tricks of
# every side so far (the next message, joined by commas).
TRICK_WON = N_("seat %(seat)s wins trick %(number)s · tricks %(sides)s")
# Translators: play: a side's tricks so far in the hand: side 0 3.
SIDE_TRICKS = N_("side %(side)s %(count)s")
# Translators: play: the end of a hand; bid is the contract (7♥), points and scores lists such
# as [-70, 10].
HAND_MADE = N_("hand over: %(bid)s by seat %(seat)s made; points %(points)s, scores %(scores)s")
# Translators: as the message before, for a contract that failed.
HAND_FAILED = N_("hand over: %(bid)s by seat %(seat)s failed; points %(points)s, scores %(scores)s")
# Translators: play: the end of a hand without a contract (every player passed).
HAND_PASSED = N_("hand over: points %(points)s, scores %(scores)s")
# Translators: play: the end of a hand thrown in because seat asked for a redeal (the house
# rule "no ace, no face"); scores a list such as [-70, 10].
HAND_REDEAL = N_(
    "hand over: seat %(seat)s asked for a redeal (no ace, no face); the same dealer deals "
    "again; scores %(scores)s"
)
# Translators: play: the end of the game, side a side's number.
SIDE_WINS = N_("side %(side)s wins")
# Translators: play: the end of a game where no side wins (every side went out backwards).
NOBODY_WINS = N_("the game is over and nobody wins")


class _Voice:
    """How play speaks: the messages in the person's language, cards and bids in its notation."""

    def __init__(self, translations: Any = None) -> None:
        self.translations = translations
        self.notation: Notation = notation_of(translations)

    def say(self, template: str, **params: Any) -> str:
        """A message in the language (its parameters already in the notation)."""
        return render(template, params, self.translations)

    def phase(self, name: str) -> str:
        """A phase of the hand by its name in the language."""
        word = PHASES.get(name, name)
        return self.translations.pgettext("phase", word) if self.translations else word

    def action(self, text: str, bidding: bool) -> str:
        """An action of the grammar in the notation (a code like ``7H`` a bid when bidding)."""
        return self.notation.action(text, "bid" if bidding else None)

    def item(self, seat: object, code: str, kind: str) -> str:
        """A seat's call or card as ``2:7 SA``, isolated as a whole in a right-to-left
        language."""
        return self.notation.isolate(f"{seat}:{self.notation.action_text(code, kind)}")

    def cards(self, codes: list[str]) -> str:
        """Cards in the notation, each isolated in a right-to-left language."""
        return " ".join(self.notation.isolate(self.notation.card(c)) for c in codes)

    def error(self, exc: FiveHundredError) -> str:
        """An engine error as the person reads it."""
        return exc.text_for(self.translations, self.notation)


def _show(voice: _Voice, obs: dict[str, Any], out: IO[str]) -> None:
    notation = voice.notation
    phase = voice.phase(obs["phase"])
    out.write("\n" + voice.say(STATUS, scores=obs["scores"], dealer=obs["dealer"], phase=phase))
    out.write("\n")
    auction = obs["auction"]
    if auction:
        calls = " ".join(voice.item(c["seat"], c["call"], "bid") for c in auction)
        out.write(voice.say(AUCTION, calls=calls) + "\n")
    if obs["contract"]:
        c = obs["contract"]
        bid = notation.isolate(notation.bid(c["bid"]))
        out.write(voice.say(CONTRACT, bid=bid, seat=c["seat"]) + "\n")
        if obs["phase"] == "play":
            out.write(voice.say(TRICKS_WON, tricks=obs["tricks_won"]) + "\n")
    trick = obs["trick"]
    if trick:
        cards = " ".join(voice.item(p["seat"], p["card"], "card") for p in trick)
        out.write(voice.say(TRICK, cards=cards) + "\n")
    for seat, cards in dict(obs["faced"]).items():
        out.write(voice.say(SHOWS, seat=seat, cards=voice.cards(cards)) + "\n")
    out.write(voice.say(YOUR_HAND, cards=voice.cards(obs["hand"])) + "\n")


def hint(state: HandState, translations: Any = None) -> str:
    """The heuristic bot's choice for the seat to move and its reason, as one line: the move in
    the notation of the language of ``translations`` (English without)."""
    voice = _Voice(translations)
    decision = HeuristicBot().decide(state)
    r = state.rules
    if state.phase == DISCARD:
        from ..bots.heuristic import discard_choice
        from ..engine.seatview import view_of

        drop, why = discard_choice(view_of(state, state.contractor))
        text = "discard " + " ".join(r.deck[c] for c in range(r.n_cards) if drop >> c & 1)
        return voice.say(HINT, action=voice.action(text, False), reason=why)
    shown = voice.action(r.action_str(decision.action), state.phase_name == "auction")
    return voice.say(HINT, action=shown, reason=decision.reason)


def _side_tricks(voice: _Voice, rules: Rules, hand: HandState) -> str:
    by_side = [0] * rules.n_sides
    for seat, won in enumerate(hand.tricks_won):
        by_side[rules.side_of_seat[seat]] += won
    return ", ".join(voice.say(SIDE_TRICKS, side=s, count=n) for s, n in enumerate(by_side))


def play_match(
    rules: Rules,
    read: Callable[[str], str],
    out: IO[str],
    seed: int | None = None,
    seat: int = 0,
    bot: str = "heuristic",
    bots: list[str] | None = None,
    translations: Any = None,
) -> int | None:
    """Play one game; ``read(prompt)`` supplies the person's actions. Returns the winning side.

    ``bots`` names one bot for every other seat, or one per seat (the person's entry ignored);
    without it every other seat is ``bot``. ``read`` raising :class:`EOFError` ends the game.
    ``translations`` (gettext-like, English without): the language of the game, whose notation
    shows the cards and bids and is read besides the codes.
    """
    voice = _Voice(translations)
    notation = voice.notation
    rng = Random(seed)
    match = Match(rules, rng)
    names = bots or [bot]
    if len(names) == 1:
        names = names * rules.players
    players: dict[int, Bot] = {s: make_bot(names[s]) for s in range(rules.players) if s != seat}
    while match.winner is None:
        hand = match.hand
        number = match.hands_played + 1
        out.write("\n" + voice.say(NEW_HAND, number=number, dealer=hand.dealer) + "\n")
        while not hand.is_over:
            tricks_before = len(hand.tricks)
            actor = hand.to_move
            mover = hand.controller(actor)
            bidding = hand.phase_name == "auction"
            if mover != seat:
                action = players[mover].choose(hand, rng)
                hand.apply_fast(action)
                if rules.DISCARD <= action < rules.DISCARD + rules.n_cards:
                    out.write(voice.say(DISCARDS, seat=actor) + "\n")
                else:
                    shown = voice.action(rules.action_str(action), bidding)
                    out.write(voice.say(MOVE, seat=actor, action=shown) + "\n")
            else:
                obs = hand.observation(seat)
                _show(voice, obs, out)
                legal = ", ".join(voice.action(a, bidding) for a in obs.get("legal", []))
                if hand.phase_name == "discard":
                    left = rules.discard_count - hand.discarded.bit_count()
                    example = voice.action("discard 4D 5C 6C", False)
                    legal = voice.say(DISCARD_PROMPT, count=left, example=example)
                phase = voice.phase(hand.phase_name)
                try:
                    text = read(voice.say(PROMPT, seat=hand.to_move, phase=phase, legal=legal))
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
                    out.write(hint(hand, translations) + "\n")
                    continue
                try:
                    hand.apply_str(text, notation)
                except FiveHundredError as exc:
                    out.write(voice.error(exc) + "\n")
                    continue
            if len(hand.tricks) > tricks_before and hand.tricks:
                winner = hand.tricks[-1][2]
                sides = _side_tricks(voice, rules, hand)
                line = voice.say(TRICK_WON, seat=winner, number=len(hand.tricks), sides=sides)
                out.write(line + "\n")
        result = match.finish_hand()
        points, scores = list(result.points), match.scores
        if result.contract >= 0:
            bid = notation.isolate(notation.bid(rules.bid_codes[result.contract]))
            template = HAND_MADE if result.made else HAND_FAILED
            line = voice.say(
                template, bid=bid, seat=result.contractor, points=points, scores=scores
            )
        elif result.redeal:
            line = voice.say(HAND_REDEAL, seat=hand.calls[-1][0], scores=scores)
        else:
            line = voice.say(HAND_PASSED, points=points, scores=scores)
        out.write(line + "\n")
    if match.winner is not None and match.winner >= 0:
        out.write(voice.say(SIDE_WINS, side=match.winner) + "\n")
    else:
        out.write(voice.say(NOBODY_WINS) + "\n")
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
