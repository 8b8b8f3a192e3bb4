"""Helpers shared by the variant tests: find and compile variant files, overlay options, build
deals from a few named cards.

Rule files are always compiled in memory from ``specs/variants`` (house files in its sub-folders
included; never read from ``generated/``), so the tests see the spec files as they are on disk.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from fivehundred.generator.options import with_defaults
from fivehundred.generator.resolve import load_spec_file
from fivehundred.runtime.engine.hand import HandState
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.loading import load_rules

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "specs" / "variants"


def spec_path(variant: str) -> Path:
    """The rule file of ``variant`` under specs/variants (house files included)."""
    found = sorted(VARIANTS.rglob(f"{variant}.yaml"))
    if not found:
        raise KeyError(variant)
    return found[0]


@cache
def rules_of(variant: str) -> Rules:
    """The rules of a variant, compiled in memory from its spec file."""
    return load_rules(str(spec_path(variant)))


def resolved(variant: str) -> dict[str, Any]:
    """The variant's spec with its ``extends`` chain merged (plain data)."""
    path = spec_path(variant)
    return with_defaults(load_spec_file(path, VARIANTS).data)


def overlay_file(base: str, overlay: dict[str, Any], folder: Path, name: str) -> Path:
    """Write a house file ``name`` into ``folder`` that extends ``base`` with ``overlay``."""
    out = folder / f"{name}.yaml"
    data = {"id": name, "extends": os.path.relpath(spec_path(base), folder), **overlay}
    out.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return out


def overlay_rules(base: str, overlay: dict[str, Any], folder: Path, name: str) -> Rules:
    """The rules of ``base`` with ``overlay`` merged over it (see :func:`overlay_file`)."""
    return load_rules(str(overlay_file(base, overlay, folder, name)))


def deal_with(
    rules: Rules,
    dealer: int = 0,
    fixed: dict[Any, str] | None = None,
    scores: list[int] | None = None,
) -> HandState:
    """A hand at the start of the auction where the named cards are where ``fixed`` says.

    ``fixed`` maps a seat (int), ``"kitty"`` or ``"dead"`` to card codes (``"JK BJ 4H"``); every
    other card fills the seats, then the kitty, then the dead hand, in deck order.
    """
    fixed = fixed or {}
    size = {seat: rules.hand_size for seat in range(rules.players)}
    size["kitty"] = rules.kitty
    size["dead"] = rules.dead_hand
    masks: dict[Any, int] = dict.fromkeys(size, 0)
    used = 0
    for who, cards in fixed.items():
        for code in cards.split():
            c = rules.card(code)
            assert not used >> c & 1, f"{code} placed twice"
            used |= 1 << c
            masks[who] |= 1 << c
    free = [c for c in range(rules.n_cards) if not used >> c & 1]
    for who in size:
        while masks[who].bit_count() < size[who]:
            masks[who] |= 1 << free.pop(0)
        assert masks[who].bit_count() == size[who], f"{who} holds too many cards"
    assert not free
    hands = [masks[seat] for seat in range(rules.players)]
    return HandState(rules, dealer, hands, masks["kitty"], masks["dead"], scores)


def legal(state: HandState) -> list[str]:
    """The legal actions of the seat to move, as public codes."""
    return [state.rules.action_str(a) for a in state.legal_actions()]


def act(state: HandState, actions: str) -> HandState:
    """Apply comma-separated actions with every check (``apply_str``)."""
    for text in (a.strip() for a in actions.split(",")):
        if text:
            state.apply_str(text)
    return state
