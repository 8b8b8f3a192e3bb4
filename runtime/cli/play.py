"""``fivehundred play``: one person against bots at the terminal, hand after hand to the end.

The person sits at seat 0 (``--seat``); every other seat is a bot (heuristic by default,
``--bots`` to choose). The screen shows only what the person's seat may see (its observation);
an illegal or malformed action is explained with its rule id and asked again. Besides actions
the person may type ``hint`` (the heuristic bot's suggestion and its reason), ``help`` (the
commands) and ``quit``; the end of the input ends the game quietly.
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
from ..engine.rules import Rules

__all__ = ["HELP", "hint", "play_match"]

HELP = """commands:
  an action      a card (7H, JK:S to lead the joker naming a suit), a bid (6S, 7NT, MIS), pass,
                 discard C1 C2 C3, take, sans, partner SEAT, call CARD, nominate SUIT
  hint           what the heuristic bot would do here, and why
  help           this list
  quit           leave the game (so does the end of the input)
"""


def _show(rules: Rules, obs: dict[str, Any], out: IO[str]) -> None:
    out.write(f"\nscores {obs['scores']} · dealer {obs['dealer']} · phase {obs['phase']}\n")
    auction = obs["auction"]
    if auction:
        calls = " ".join(f"{c['seat']}:{c['call']}" for c in auction)
        out.write(f"auction: {calls}\n")
    if obs["contract"]:
        c = obs["contract"]
        out.write(f"contract: {c['bid']} by seat {c['seat']}\n")
        if obs["phase"] == "play":
            out.write(f"tricks won by seat: {obs['tricks_won']}\n")
    trick = obs["trick"]
    if trick:
        cards = " ".join(f"{p['seat']}:{p['card']}" for p in trick)
        out.write(f"trick: {cards}\n")
    for seat, cards in dict(obs["faced"]).items():
        out.write(f"seat {seat} shows: {' '.join(cards)}\n")
    out.write(f"your hand: {' '.join(obs['hand'])}\n")


def hint(state: HandState) -> str:
    """The heuristic bot's choice for the seat to move and its reason, as one line."""
    decision = HeuristicBot().decide(state)
    r = state.rules
    if state.phase == DISCARD:
        from ..bots.heuristic import discard_choice
        from ..engine.seatview import view_of

        drop, why = discard_choice(view_of(state, state.contractor))
        text = "discard " + " ".join(r.deck[c] for c in range(r.n_cards) if drop >> c & 1)
        return f"hint: {text} ({why})"
    return f"hint: {r.action_str(decision.action)} ({decision.reason})"


def _side_tricks(rules: Rules, hand: HandState) -> str:
    by_side = [0] * rules.n_sides
    for seat, won in enumerate(hand.tricks_won):
        by_side[rules.side_of_seat[seat]] += won
    return "tricks " + ", ".join(f"side {s} {n}" for s, n in enumerate(by_side))


def play_match(
    rules: Rules,
    read: Callable[[str], str],
    out: IO[str],
    seed: int | None = None,
    seat: int = 0,
    bot: str = "heuristic",
    bots: list[str] | None = None,
) -> int | None:
    """Play one game; ``read(prompt)`` supplies the person's actions. Returns the winning side.

    ``bots`` names one bot for every other seat, or one per seat (the person's entry ignored);
    without it every other seat is ``bot``. ``read`` raising :class:`EOFError` ends the game.
    """
    rng = Random(seed)
    match = Match(rules, rng)
    names = bots or [bot]
    if len(names) == 1:
        names = names * rules.players
    players: dict[int, Bot] = {s: make_bot(names[s]) for s in range(rules.players) if s != seat}
    while match.winner is None:
        hand = match.hand
        out.write(f"\nhand {match.hands_played + 1}: seat {hand.dealer} deals\n")
        while not hand.is_over:
            tricks_before = len(hand.tricks)
            actor = hand.to_move
            mover = hand.controller(actor)
            if mover != seat:
                action = players[mover].choose(hand, rng)
                hand.apply_fast(action)
                discard = rules.DISCARD <= action < rules.DISCARD + rules.n_cards
                shown = "discards a card" if discard else rules.action_str(action)
                out.write(f"seat {actor}: {shown}\n")
            else:
                obs = hand.observation(seat)
                _show(rules, obs, out)
                legal = " ".join(obs.get("legal", []))
                if hand.phase_name == "discard":
                    left = rules.discard_count - hand.discarded.bit_count()
                    legal = f"discard {left} more: discard and the cards, e.g. discard 4D 5C 6C"
                try:
                    text = read(f"seat {hand.to_move} to {hand.phase_name} ({legal}) > ")
                except EOFError:
                    out.write("\n")
                    return None
                word = text.strip().lower()
                if word in ("quit", "exit"):
                    return None
                if word in ("help", "?"):
                    out.write(HELP)
                    continue
                if word == "hint":
                    out.write(hint(hand) + "\n")
                    continue
                try:
                    hand.apply_str(text)
                except FiveHundredError as exc:
                    out.write(f"{exc}\n")
                    continue
            if len(hand.tricks) > tricks_before and hand.tricks:
                winner = hand.tricks[-1][2]
                done = len(hand.tricks)
                out.write(f"seat {winner} wins trick {done} · {_side_tricks(rules, hand)}\n")
        result = match.finish_hand()
        if result.contract >= 0:
            verdict = "made" if result.made else "failed"
            out.write(
                f"hand over: {rules.bid_codes[result.contract]} by seat {result.contractor} "
                f"{verdict}; points {list(result.points)}, scores {match.scores}\n"
            )
        elif result.redeal:
            out.write(
                f"hand over: seat {hand.calls[-1][0]} asked for a redeal (no ace, no face); "
                f"the same dealer deals again; scores {match.scores}\n"
            )
        else:
            out.write(f"hand over: points {list(result.points)}, scores {match.scores}\n")
    if match.winner is not None and match.winner >= 0:
        out.write(f"side {match.winner} wins\n")
    else:
        out.write("the game is over and nobody wins\n")
    return match.winner
