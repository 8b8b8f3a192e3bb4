"""What a client is sent: one seat's :class:`SeatView` (or a watcher's public view) as JSON.

The server never builds a client message from the hand itself: every card a message names comes
from :func:`~fivehundred.runtime.engine.seatview.view_of` for that seat, or from
:func:`public_view` for a watcher (the facts every seat knows). The hand is sorted the way
players hold it (:func:`~fivehundred.runtime.engine.seatview.sorted_cards`, which ``play`` uses
too): trumps first as one group (bowers and jokers in it), then the other suits, each from high
to low.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine.codes import SUITS, bits
from ..engine.hand import PHASES, HandState
from ..engine.seatview import SeatView, sorted_cards, view_of

__all__ = ["public_view", "sorted_cards", "view_message"]


def public_view(state: HandState) -> SeatView:
    """What a watcher may know: what every seat knows, and no seat's own cards.

    Built from the seats' own views: no hand, kitty or discard of any seat; a hand laid face up
    as every other seat sees it; the contractor's side as far as every seat knows it.
    """
    r = state.rules
    n = r.players
    # Two seats' views hold every hand laid face up (a seat's own is left out of its view);
    # only a partner found by a called card is known to some seats and not others.
    views = (
        [view_of(state, s) for s in range(n)]
        if r.partner_call == "card"
        else [view_of(state, 0), view_of(state, 1)]
    )
    allies = -1
    for v in views:
        allies &= v.allies
    faced = tuple(views[1 if t == 0 else 0].faced[t] for t in range(n))
    return replace(views[0], seat=-1, hand=0, discarded=0, kitty_seen=0, allies=allies, faced=faced)


def _codes(view: SeatView, mask: int) -> list[str]:
    return [view.rules.deck[c] for c in sorted_cards(view, mask)]


def _played(view: SeatView, leader: int, actions: tuple[int, ...]) -> list[dict[str, Any]]:
    r = view.rules
    out = []
    seat = leader
    for a in actions:
        out.append({"seat": seat, "card": r.action_str(a)})
        seat = view.next_seat[seat]
    return out


def view_message(view: SeatView) -> dict[str, Any]:
    """The table as ``view.seat`` (-1: a watcher) knows it, JSON-able. Cards are codes."""
    r = view.rules
    n = r.players
    msg: dict[str, Any] = {
        "seat": None if view.seat < 0 else view.seat,
        "phase": PHASES[view.phase],
        "dealer": view.dealer,
        "scores": list(view.scores),
        "hand": _codes(view, view.hand),
        "kitty": _codes(view, view.kitty_seen),
        "discarded": _codes(view, view.discarded),
        "auction": [
            {"seat": s, "call": r.action_str(a), "inkle": ink}
            for (s, a), ink in zip(view.calls, view.inkles, strict=True)
        ],
        "contract": None,
        "nominated": None if view.nominated < 0 else SUITS[view.nominated],
        "partners": [s for s in bits(view.allies) if s != view.contractor],
        "trick": _played(view, view.trick_leader, view.trick) if view.trick else [],
        "tricks": [
            {"leader": lead, "cards": _played(view, lead, acts), "winner": won}
            for lead, acts, won in view.tricks
        ],
        "tricks_won": list(view.tricks_won),
        "held": list(view.held),
        "faced": {str(t): _codes(view, view.faced[t]) for t in range(n) if view.faced[t]},
        "sitting_out": bits(view.sitting_out),
    }
    if view.contract >= 0:
        msg["contract"] = {
            "bid": r.bid_codes[view.contract],
            "seat": view.contractor,
            "side": r.side_of_seat[view.contractor],
            "sans": view.sans,
        }
    return msg
