"""``fivehundred play``: one person against bots at the terminal, hand after hand to the end.

The person sits at seat 0 (``--seat``); every other seat is a bot. The screen shows only what
the person's seat may see (its observation); an illegal or malformed action is explained with
its rule id and asked again.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import IO, Any

from .bots import BOTS
from .errors import FiveHundredError
from .game import Match
from .rules import Rules

__all__ = ["play_match"]


def _show(rules: Rules, obs: dict[str, Any], out: IO[str]) -> None:
    out.write(f"\nscores {obs['scores']} · dealer {obs['dealer']} · phase {obs['phase']}\n")
    auction = obs["auction"]
    if auction:
        calls = " ".join(f"{c['seat']}:{c['call']}" for c in auction)
        out.write(f"auction: {calls}\n")
    if obs["contract"]:
        c = obs["contract"]
        out.write(f"contract: {c['bid']} by seat {c['seat']}\n")
    trick = obs["trick"]
    if trick:
        cards = " ".join(f"{p['seat']}:{p['card']}" for p in trick)
        out.write(f"trick: {cards}\n")
    for seat, cards in dict(obs["faced"]).items():
        out.write(f"seat {seat} shows: {' '.join(cards)}\n")
    out.write(f"your hand: {' '.join(obs['hand'])}\n")


def play_match(
    rules: Rules,
    read: Callable[[str], str],
    out: IO[str],
    seed: int | None = None,
    seat: int = 0,
    bot: str = "random",
) -> int | None:
    """Play one game; ``read(prompt)`` supplies the person's actions. Returns the winning side."""
    rng = Random(seed)
    match = Match(rules, rng)
    bots = {s: BOTS[bot]() for s in range(rules.players) if s != seat}
    while match.winner is None:
        hand = match.hand
        while not hand.is_over:
            actor = hand.to_move
            mover = hand.controller(actor)
            if mover != seat:
                action = bots[mover].choose(hand, rng)
                hand.apply_fast(action)
                shown = "discards" if action >= rules.DISCARD else rules.action_str(action)
                out.write(f"seat {actor}: {shown}\n")
                continue
            obs = hand.observation(seat)
            _show(rules, obs, out)
            legal = " ".join(obs.get("legal", []))
            if hand.phase_name == "discard":
                legal = f"discard and {rules.discard_count} cards, e.g. discard 4D 5C 6C"
            text = read(f"seat {hand.to_move} to {hand.phase_name} ({legal}) > ")
            if text.strip() in ("quit", "exit"):
                return None
            try:
                hand.apply_str(text)
            except FiveHundredError as exc:
                out.write(f"{exc}\n")
        result = match.finish_hand()
        out.write(f"hand over: points {list(result.points)}, scores {match.scores}\n")
    if match.winner is not None and match.winner >= 0:
        out.write(f"side {match.winner} wins\n")
    else:
        out.write("the game is over and nobody wins\n")
    return match.winner
