"""Helpers shared by the variant tests: find and compile variant files, overlay options, build
deals from a few named cards.

Rule files are always compiled in memory from ``specs/`` (never read from ``generated/``), so the
tests see the spec files as they are on disk.

Pending variants. The five-handed (52 cards + joker) and six-handed (T: "a full 52-card deck plus
11s, 12s, red 13s and the red joker") packs need ranks 2 and 3, which the spec language does not
have yet (schema rank minimum 4; ``runtime/codes.py`` ``RANK_ORDER``). Their files wait in
``specs/pending/``; :func:`spec_path` finds them there until they move to ``specs/variants/``.
Until they compile, :func:`playable_rules` plays them with a *stand-in* pack of the ranks that
exist (same players, teams, partner rules, kitty and ladder shape; fewer cards per hand where 63+
cards cannot be made), so their engine paths are tested today; the tests of the packs themselves
are strict xfails that start failing (XPASS) the day the real files compile.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from fivehundred.generator.resolve import load_spec_file, merge
from fivehundred.generator.yamlload import Marks
from fivehundred.runtime.errors import SpecError
from fivehundred.runtime.game import load_rules
from fivehundred.runtime.hand import HandState
from fivehundred.runtime.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "specs" / "variants"
PENDING = ROOT / "specs" / "pending"

#: The reason of every xfail caused by the missing ranks.
RANKS_BUG = (
    "BUG: ranks 2 and 3 are not in the spec language (variant.schema.json rank minimum 4 and "
    "suitRanks maxItems 14; runtime/codes.py RANK_ORDER and card codes; game.first_dealer's "
    "draw order), so the 52-card five-handed pack and T's 63/65/66-card six-handed packs "
    "cannot be written"
)

_R14 = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, "J", "Q", "K", "A"]
_TABLE = {
    "S": [40, 140, 240, 340, 440],
    "C": [60, 160, 260, 360, 460],
    "D": [80, 180, 280, 380, 480],
    "H": [100, 200, 300, 400, 500],
    "NT": [120, 220, 320, 420, 520],
}


def spec_path(variant: str) -> Path:
    """The rule file of ``variant``: under specs/variants (houses included), else pending."""
    for folder in (VARIANTS, PENDING):
        found = sorted(folder.rglob(f"{variant}.yaml"))
        if found:
            return found[0]
    raise KeyError(variant)


def is_pending(variant: str) -> bool:
    """Whether the variant's file still waits in specs/pending."""
    return PENDING in spec_path(variant).parents


@cache
def rules_of(variant: str) -> Rules:
    """The rules of a variant, compiled in memory from its spec file."""
    return load_rules(str(spec_path(variant)))


@cache
def compiles(variant: str) -> bool:
    """Whether the variant's own file compiles today."""
    try:
        rules_of(variant)
    except SpecError:
        return False
    return True


def resolved(variant: str) -> dict[str, Any]:
    """The variant's spec with its ``extends`` chain merged (plain data)."""
    path = spec_path(variant)
    return load_spec_file(path, VARIANTS).data


def _ranks(n: int) -> list[Any]:
    """``n`` ranks of the ones that exist, dropping the extra and the lowest ranks first."""
    ranks: list[Any] = list(_R14)
    for drop in (13, 12, 11, 4, 5, 6):
        if len(ranks) > n:
            ranks.remove(drop)
    assert len(ranks) == n
    return ranks


def _stand_in(variant: str) -> dict[str, Any]:
    """An overlay that makes a pending variant compile with the ranks that exist today."""
    data = resolved(variant)
    players = int(data.get("players", 4))
    kitty = int(data["deal"]["kitty"])
    jokers = list(data["deck"].get("jokers", []))
    for hand in (10, 9, 8):
        need = players * hand + kitty - len(jokers)
        if need <= 4 * 14:
            break
    per_suit = [need // 4 + (1 if s < need % 4 else 0) for s in range(4)]
    suits = {s: _ranks(n) for s, n in zip("SCDH", per_suit, strict=True)}
    specials = []
    for sp in data["auction"]["ladder"].get("special", []):
        sp = dict(sp)
        above = str(sp["above"])
        if above[:2] == "10" and hand < 10:
            sp["above"] = f"{hand}{above[2:]}"
        specials.append(sp)
    return {
        "deck": {"suits": suits, "jokers": jokers},
        "deal": {
            "hand_size": hand,
            "kitty": kitty,
            "dead_hand": 0,
            "packets": [{"to": "players", "cards": hand}, {"to": "kitty", "cards": kitty}],
        },
        "auction": {"ladder": {"levels": {"from": 6, "to": hand}, "special": specials}},
        "scoring": {"table": {k: v[: hand - 5] for k, v in _TABLE.items()}},
    }


def overlay_file(base: str, overlay: dict[str, Any], folder: Path, name: str) -> Path:
    """Write a house file ``name`` into ``folder`` that extends ``base`` with ``overlay``.

    A pending base that does not compile is written out whole, with its stand-in pack under the
    overlay.
    """
    out = folder / f"{name}.yaml"
    path = spec_path(base)
    if is_pending(base) and not compiles(base):
        # A file cannot extend a base that does not compile: write the whole variant out.
        empty = Marks(str(out))
        data, _ = merge(resolved(base), empty, _stand_in(base), empty)
        data, _ = merge(data, empty, overlay, empty)
        data["id"] = name
    else:
        data = {"id": name, "extends": os.path.relpath(path, folder), **overlay}
    out.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return out


def overlay_rules(base: str, overlay: dict[str, Any], folder: Path, name: str) -> Rules:
    """The rules of ``base`` with ``overlay`` merged over it (see :func:`overlay_file`)."""
    return load_rules(str(overlay_file(base, overlay, folder, name)))


_PLAYABLE: dict[str, tuple[Rules, bool]] = {}


def playable_rules(variant: str, folder: Path) -> tuple[Rules, bool]:
    """The variant's rules, or its stand-in while it does not compile; and whether stand-in."""
    if variant not in _PLAYABLE:
        if compiles(variant):
            _PLAYABLE[variant] = (rules_of(variant), False)
        else:
            _PLAYABLE[variant] = (overlay_rules(variant, {}, folder, f"{variant}-stand-in"), True)
    return _PLAYABLE[variant]


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
