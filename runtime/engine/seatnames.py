"""A seat named to the person in another seat, as players say it: ``you``, ``partner``,
``left opponent``, ``far left`` (where each player is a side of his own), ``opponent`` (at
two); and an illegal move's sentence with the seat so named (``you may not play B♥: ...``).

``fivehundred play`` names every seat so, and the browser table its illegal moves' sentences:
both read these words from the catalogues (context ``seat``), so a person meets one name for
one chair wherever the project speaks to him.
"""

from __future__ import annotations

from typing import Any

from .errors import IllegalActionError
from .messages import N_, illegal_action, render
from .notation import NP_, notation_of
from .rules import Rules

__all__ = [
    "OWN_SEAT_REASONS",
    "PLAY_ILLEGAL",
    "POSITIONS",
    "SEAT_NAMES",
    "SEAT_WHO",
    "illegal_sentence",
    "position",
    "seat_name",
]

#: Where a seat sits, seen from the person's chair (:func:`position`).
POSITIONS = ("you", "left", "far-left", "across", "far-right", "right")
# Translators: the names play gives the seats, seen from the person's chair: alone at the start
# of a line ("left opponent: 7♥"), in lists ("auction: partner 6♥, right opponent pass") and
# after a colon ("dealer: you"), never after a preposition, so write the form a name takes
# standing alone. Play goes clockwise: the seat on your left plays after you. "far left" is the
# second seat on your left at a table of five or six. "opponent" alone is the other player of
# a game for two.
_YOU = NP_("seat", "you")
#: A seat's name by its role (partner, opponent, or "" where each player is a side of his own)
#: and its position.
SEAT_NAMES: dict[tuple[str, str], str] = {
    ("", "you"): _YOU,
    ("partner", "you"): _YOU,
    ("opponent", "you"): _YOU,
    ("partner", "across"): NP_("seat", "partner"),
    ("partner", "left"): NP_("seat", "left partner"),
    ("partner", "right"): NP_("seat", "right partner"),
    ("partner", "far-left"): NP_("seat", "far-left partner"),
    ("partner", "far-right"): NP_("seat", "far-right partner"),
    ("opponent", "left"): NP_("seat", "left opponent"),
    ("opponent", "right"): NP_("seat", "right opponent"),
    ("opponent", "across"): NP_("seat", "opponent across"),
    ("opponent", "far-left"): NP_("seat", "far-left opponent"),
    ("opponent", "far-right"): NP_("seat", "far-right opponent"),
    ("", "opponent"): NP_("seat", "opponent"),
    ("", "left"): NP_("seat", "left"),
    ("", "right"): NP_("seat", "right"),
    ("", "across"): NP_("seat", "across"),
    ("", "far-left"): NP_("seat", "far left"),
    ("", "far-right"): NP_("seat", "far right"),
}
# Translators: play: seat is a seat number inside another message ("seat 2 does not hold B♥"),
# who the name play gives that seat (you, partner, left...).
SEAT_WHO = N_("%(seat)s (%(who)s)")

#: An engine reason whose seat is the one the sentence is about (the seat that may not make the
#: move), as a person reads it after that seat has been named once: for the reader's own seat
#: (``you may not play Q♠: you do not hold Q♠``) and for a seat whose hand he plays
#: (``partner may not play Q♠: partner does not hold Q♠``), instead of ``seat 0 (you)``. Keyed
#: by the engine's template (runtime/engine/hand.py), whose English ``str()`` stays as it is.
OWN_SEAT_REASONS: dict[str, tuple[str, str]] = {
    "seat %(seat)s does not hold %(card)s": (
        # Translators: play and the table: why the person may not play a card, after "you may
        # not play Q♠:"; card is the card in your notation.
        N_("you do not hold %(card)s"),
        # Translators: as the message before, for the seat whose hand the person plays; who is
        # its name (partner), standing alone before the verb.
        N_("%(who)s does not hold %(card)s"),
    ),
    "seat %(seat)s has shown void in %(suit)s: leading the joker, he may not name it": (
        # Translators: play and the table: why the person may not lead the joker naming a suit
        # (suit, a word: hearts) he has already shown to have none of.
        N_("you have shown void in %(suit)s: leading the joker, you may not name it"),
        # Translators: as the message before, for the seat whose hand the person plays (who:
        # partner).
        N_("%(who)s has shown void in %(suit)s: leading the joker, he may not name it"),
    ),
}

#: Why the person may not make a move, by the kind of the move (the engine's
#: :data:`~fivehundred.runtime.engine.messages.ILLEGAL_BY_KIND`, the seat by its name).
PLAY_ILLEGAL: dict[str | None, str] = {
    # Translators: play: who is the seat's name (you, or partner whose hand you play), action
    # the move in your notation (B♥, 6♠, 7 SA, 4♦ 5♣) or a quoted word ('take'); reason is
    # another engine message saying why. "you" stands alone before the verb: write it so.
    "bid": N_("%(who)s may not bid %(action)s: %(reason)s"),
    "pass": N_("%(who)s may not pass now: %(reason)s"),
    "card": N_("%(who)s may not play %(action)s: %(reason)s"),
    "joker-lead": N_("%(who)s may not lead %(action)s: %(reason)s"),
    "discard": N_("%(who)s may not discard %(action)s: %(reason)s"),
    "kitty": N_("%(who)s may not choose %(action)s now: %(reason)s"),
    "partner": N_("%(who)s may not choose %(action)s now: %(reason)s"),
    "nominate": N_("%(who)s may not name the joker's suit now (%(action)s): %(reason)s"),
    "redeal": N_("%(who)s may not ask for a redeal: %(reason)s"),
    None: N_("%(who)s may not make the move %(action)s: %(reason)s"),
}


def position(players: int, viewer: int, seat: int) -> str:
    """Where ``seat`` sits seen from ``viewer``'s chair, one of :data:`POSITIONS`: play goes to
    the left (the seat after ``viewer`` is on his left); the seat halfway round is across (the
    other player at a table of two); at five or six the second seat on either side is "far".
    """
    k = (seat - viewer) % players
    if k == 0:
        return "you"
    if players == 2 or 2 * k == players:
        return "across"
    if k == 1:
        return "left"
    if k == players - 1:
        return "right"
    return "far-left" if 2 * k < players else "far-right"


def seat_name(rules: Rules, reader: int, seat: int, translations: Any = None) -> str:
    """The name of ``seat`` to the person in seat ``reader``, in the language of
    ``translations`` (a gettext-like object with ``pgettext``; English for None)."""

    def word(message: str) -> str:
        return str(translations.pgettext("seat", message)) if translations is not None else message

    if rules.players == 2 and seat != reader:
        return word(SEAT_NAMES["", "opponent"])  # the only other player
    if rules.n_sides == rules.players:
        role = ""
    elif rules.side_of_seat[seat] == rules.side_of_seat[reader]:
        role = "partner"
    else:
        role = "opponent"
    return word(SEAT_NAMES[role, position(rules.players, reader, seat)])


def illegal_sentence(
    rules: Rules, reader: int, exc: IllegalActionError, translations: Any = None
) -> str:
    """An illegal move's sentence to the person in seat ``reader``, without its clause id: the
    seat by its name from that chair (``you``, ``partner`` whose hand you play), the move and
    the reason (a seat in it named too) in the notation of ``translations``' language (``you
    may not play B♥: you do not hold B♥``, :data:`OWN_SEAT_REASONS`; cards and bids isolated in
    Arabic)."""
    notation = notation_of(translations)
    why = exc.explanation
    if why is None:
        reason = exc.reason
    else:
        params = dict(why.params)
        template = why.template
        seat = params.get("seat")
        if isinstance(seat, int) and 0 <= seat < rules.players:
            who = seat_name(rules, reader, seat, translations)
            forms = OWN_SEAT_REASONS.get(template) if seat == exc.seat else None
            if forms is not None:  # the sentence's own seat: named as its subject is
                template = forms[0] if seat == reader else forms[1]
                params["who"] = who
            else:
                params["seat"] = render(SEAT_WHO, {"seat": seat, "who": who}, translations)
        reason = render(template, params, translations, notation)
    template = PLAY_ILLEGAL.get(exc.kind, PLAY_ILLEGAL[None])
    shown = illegal_action(exc.action, exc.kind, notation)
    who = seat_name(rules, reader, exc.seat, translations)
    return render(template, {"who": who, "action": shown, "reason": reason}, translations)
