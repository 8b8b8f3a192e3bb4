"""``fivehundred show VARIANT``: a plain-text summary of a ruleset.

Header (name, id, players, sides, deck, deal), the ladder with values, the score table and the
card order of every strain. Card codes are the plain codes of DESIGN.md (``JH``, ``10S``, ``JK``)
so the output stays ASCII apart from the name and summary a rule author wrote.
"""

from __future__ import annotations

from ..runtime.codes import STRAINS, SUITS
from .model import BidInfo, Ruleset

__all__ = ["show_text"]

_OPEN_NOTES = {
    "after-first-trick": "hand shown after the first trick",
    "from-start": "hand shown from the start",
}
_STRAIN_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts", "NT": "no trumps"}


def _bid_note(rs: Ruleset, bid: BidInfo) -> str:
    if bid.kind != "misere":
        return f"{bid.level} {_STRAIN_NAMES[STRAINS[bid.strain]]}"
    word = "nullo" if rs.term("misere") == "nullo" else "misere"
    name = f"blind {word}" if bid.blind else f"open {word}" if bid.open != "no" else word
    notes = []
    if bid.open != "no":
        notes.append(_OPEN_NOTES.get(bid.open, f"open: {bid.open}"))
    if bid.after_bid_of:
        notes.append(f"only after a bid of {bid.after_bid_of}")
    if bid.blind:
        notes.append("first call only")
    return name + (f" ({', '.join(notes)})" if notes else "")


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        out.append("  " + "  ".join(cells).rstrip())
    return out


def show_text(rs: Ruleset) -> str:
    """The plain-text summary of ``rs``: header, ladder, score table, card order per strain.

    Deterministic; every line free of trailing spaces; ends with one newline.
    """
    lines: list[str] = []
    name = " ".join(rs.name.split())
    lines.append(f"{name} ({rs.id})")
    if rs.extends:
        lines.append(f"extends: {rs.extends}")
    if len(rs.teams) == rs.players:
        sides = "no partnerships (each player a side)"
    else:
        sides = f"{len(rs.teams)} sides: " + " ".join(
            "{" + ",".join(str(seat) for seat in team) + "}" for team in rs.teams
        )
    lines.append(f"players: {rs.players}, {sides}")
    jokers = f" incl. {' '.join(rs.jokers)}" if rs.jokers else ""
    lines.append(f"deck: {len(rs.deck)} cards{jokers}")
    kitty_word = rs.term("kitty")
    deal = f"deal: {rs.hand_size} cards each, {kitty_word} {rs.kitty}"
    if rs.dead_hand:
        deal += f", dead hand {rs.dead_hand}"
    packets = ", ".join(
        f"{n} to {'each player' if to == 'players' else kitty_word if to == 'kitty' else to}"
        for to, n in rs.packets
    )
    lines.append(f"{deal} (packets: {packets})")
    lose = f", lose at {rs.lose_at}" if rs.lose_at is not None else ""
    lines.append(f"target: {rs.target}{lose}")

    lines.append("")
    lines.append(f"Ladder, lowest to highest ({len(rs.ladder)} bids):")
    rows = [["#", "bid", "value", "meaning"]]
    rows += [[str(i), b.code, str(b.value), _bid_note(rs, b)] for i, b in enumerate(rs.ladder, 1)]
    lines += _table(rows, {0, 2})

    suit_bids = [b for b in rs.ladder if b.kind == "suit"]
    levels = sorted({b.level for b in suit_bids})
    strains = sorted({b.strain for b in suit_bids})
    grid = {(b.level, b.strain): b.value for b in suit_bids}
    lines.append("")
    lines.append("Score table:")
    rows = [["tricks"] + [STRAINS[s] for s in strains]]
    rows += [
        [str(level)] + [str(grid[(level, s)]) if (level, s) in grid else "-" for s in strains]
        for level in levels
    ]
    lines += _table(rows, set(range(len(rows[0]))))
    misere = [b for b in rs.ladder if b.kind == "misere"]
    if misere:
        lines.append("  " + "  ".join(f"{b.code} {b.value}" for b in misere))

    lines.append("")
    lines.append("Card order, high to low:")
    for table in rs.strains:
        code = STRAINS[table.strain]
        lines.append(f"  {code} ({_STRAIN_NAMES[code]}):")
        if table.trump is not None:
            lines.append("    trumps: " + " ".join(table.order[table.trump]))
        elif table.order[4]:
            lines.append("    no suit: " + " ".join(table.order[4]))
        for s, suit in enumerate(SUITS):
            if s == table.trump or not table.order[s]:
                continue
            lines.append(f"    {suit}: " + " ".join(table.order[s]))
    return "\n".join(line.rstrip() for line in lines) + "\n"
