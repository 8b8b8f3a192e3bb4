"""``fivehundred show VARIANT``: a plain-text summary of a ruleset.

Header (name, id, players, sides, deck, deal, one line each for the auction, the kitty, partners,
misere play, the joker, scoring and the end of the game), the ladder with values, the score table
and the card order of every strain. Card codes are the plain codes of INTERCHANGE.md
(``JH``, ``10S``, ``JK``) so the output stays ASCII apart from the name and summary a rule
author wrote.
"""

from __future__ import annotations

from ..runtime.engine.codes import STRAINS, SUITS
from ..runtime.engine.tableformat import Bid
from .diff import plain_value as _plain
from .model import Ruleset
from .options import shown_options, table_value

__all__ = ["show_text"]

_OPEN_NOTES = {
    "after-first-trick": "hand shown after the first trick",
    "from-start": "hand shown from the start",
}
_STRAIN_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts", "NT": "no trumps"}


def _bid_note(rs: Ruleset, bid: Bid) -> str:
    if bid["kind"] != "misere":
        return f"{bid['level']} {_STRAIN_NAMES[STRAINS[bid['strain']]]}"
    word = "nullo" if rs.term("misere") == "nullo" else "misere"
    name = f"blind {word}" if bid["blind"] else f"open {word}" if bid["open"] != "no" else word
    if bid["partner"] == "plays" and any(len(team) > 1 for team in rs.teams):
        name = f"double {word}"
    notes = []
    if bid["partner"] != rs.misere_partner and any(len(team) > 1 for team in rs.teams):
        notes.append(_PARTNER_NOTES.get(bid["partner"], bid["partner"]))
    if bid["open"] != "no":
        notes.append(_OPEN_NOTES.get(bid["open"], f"open: {bid['open']}"))
    if bid["after_bid_of"]:
        notes.append(f"only after a bid of {bid['after_bid_of']}")
    if bid["blind"]:
        notes.append("first call only")
    return name + (f" ({', '.join(notes)})" if notes else "")


_PARTNER_NOTES = {
    "sits-out": "the partner sits out",
    "both-hands": "the contractor plays both hands, the partner's face up",
    "plays": "the partner plays too (the side must take no trick)",
}
_BOTH_OUT = {
    "contractor": "the contractor's side wins, else the first to get there trick by trick",
    "highest": "the highest score wins",
    "first-by-trick": "the first to get there trick by trick wins",
}
_JOKER_LEADS = {
    "name-any-suit": "its leader names any suit",
    "name-unled-suit": "its leader names a suit not yet led",
}


def _rule_lines(rs: Ruleset) -> list[str]:
    """One line each for the auction, the kitty, partners, misere play, joker and scoring."""
    word = "nullo" if rs.term("misere") == "nullo" else "misere"
    kitty_word = rs.term("kitty")
    lines = []
    auction: list[str] = [rs.procedure]
    if rs.inkles is not None:
        bidders, level = rs.inkles
        auction.append(f"inkles: the first {bidders} bidders' {level}-level bids")
    if rs.procedure == "rounds":
        auction.append("raise own bid" if rs.raise_own_bid else "no raising own bid")
    if rs.all_pass == "no-trumps":
        auction.append(f"all pass: played at no trumps, {rs.all_pass_per_trick} a trick")
    elif rs.all_pass == "redeal":
        auction.append("all pass: thrown in, the same dealer deals again")
    else:
        auction.append("all pass: thrown in")
    lines.append("auction: " + "; ".join(auction))
    if rs.kitty:
        kitty = f"taken, {rs.kitty} discarded" if rs.kitty_take else "not used"
        if rs.sans_kitty_bonus is not None:
            kitty += f"; or played sans {kitty_word} for {rs.sans_kitty_bonus:+d}"
        lines.append(f"{kitty_word}: {kitty}")
    if rs.partner_call != "none":
        how = (
            "chosen by the contractor" if rs.partner_call == "choose" else "holder of a called card"
        )
        if rs.second_partner_at is not None:
            how += f"; two partners from level {rs.second_partner_at}"
        lines.append(f"partner for the hand: {how}")
    misere = [b for b in rs.ladder if b["kind"] == "misere"]
    if misere and any(len(team) > 1 for team in rs.teams):
        lines.append(f"{word}: {_PARTNER_NOTES.get(rs.misere_partner, rs.misere_partner)}")
    if rs.jokers:
        joker = [_JOKER_LEADS.get(rs.joker_lead, rs.joker_lead)]
        if rs.joker_nominate == "contractor":
            joker.insert(0, "the contractor may nominate its suit")
        if rs.joker_void_must_play != "never" and (misere or rs.joker_void_must_play == "always"):
            when = f"in a {word}" if rs.joker_void_must_play == "misere" else "always"
            joker.append(f"a player void in the led suit must play it {when}")
        if rs.joker_lead_only_last_trick:
            joker.append("it may be led only to the last trick")
        lines.append(f"{rs.term('joker')} at no trumps: " + "; ".join(joker))
    scoring = [f"overtricks {rs.overtricks} each" if rs.overtricks else "no overtricks"]
    if rs.slam_value:
        scoring.append(f"slam {rs.slam_value} on bids worth less than {rs.slam_below}")
    opponents = f"opponents {rs.opponents_per_trick} a trick"
    if len(rs.teams) > 2:
        opponents += " (own tricks)" if rs.opponent_tricks == "own" else " (pooled)"
    scoring.append(opponents)
    if misere:
        scoring.append(f"{rs.opponents_against_misere} a trick against a {word}")
    if rs.opponents_freeze_at is not None and rs.scoring["freeze"] == "threshold":
        scoring.append(f"no trick points for opponents over {rs.opponents_freeze_at}")
    elif rs.opponents_freeze_at is not None:
        scoring.append(f"opponents' trick points stop at {rs.opponents_freeze_at}")
    lines.append("scoring: " + "; ".join(scoring))
    return lines


def _end_lines(rs: Ruleset) -> list[str]:
    """The end of the game: must bid to win, several sides out, going out backwards."""
    end = ["must bid to win" if rs.must_bid_to_win else "any points win"]
    if not rs.must_bid_to_win or rs.partner_call != "none":
        end.append(f"several out on one hand: {_BOTH_OUT.get(rs.both_out, rs.both_out)}")
    if rs.lose_at is not None:
        end.append(
            "out backwards: game over"
            if rs.out_backwards == "game-over"
            else "out backwards: plays on, cannot win"
        )
    return ["end: " + "; ".join(end), *_option_lines(rs)]


def _option_lines(rs: Ruleset) -> list[str]:
    """The options of the registry that ``show`` lists by their label (``Option.show``), each
    when it is not at its default: one ``options:`` line."""
    listed = [
        f"{opt.diff}: {_plain(table_value(rs.tables, opt))}"
        for opt in shown_options()
        if table_value(rs.tables, opt) != opt.default
    ]
    return ["options: " + "; ".join(listed)] if listed else []


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
    if rs.first_dealer != "random":
        lines.append("first dealer: by draw, lowest card deals (ace low, joker lowest)")
    lines += _rule_lines(rs)
    lose = f", lose at {rs.lose_at}" if rs.lose_at is not None else ""
    lines.append(f"target: {rs.target}{lose}")
    lines += _end_lines(rs)

    lines.append("")
    lines.append(f"Ladder, lowest to highest ({len(rs.ladder)} bids):")
    rows = [["#", "bid", "value", "meaning"]]
    rows += [
        [str(i), b["code"], str(b["value"]), _bid_note(rs, b)] for i, b in enumerate(rs.ladder, 1)
    ]
    lines += _table(rows, {0, 2})

    suit_bids = [b for b in rs.ladder if b["kind"] == "suit"]
    levels = sorted({b["level"] for b in suit_bids})
    strains = sorted({b["strain"] for b in suit_bids})
    grid = {(b["level"], b["strain"]): b["value"] for b in suit_bids}
    lines.append("")
    lines.append("Score table:")
    rows = [["tricks"] + [STRAINS[s] for s in strains]]
    rows += [
        [str(level)] + [str(grid[(level, s)]) if (level, s) in grid else "-" for s in strains]
        for level in levels
    ]
    lines += _table(rows, set(range(len(rows[0]))))
    misere = [b for b in rs.ladder if b["kind"] == "misere"]
    if misere:
        lines.append("  " + "  ".join(f"{b['code']} {b['value']}" for b in misere))

    lines.append("")
    lines.append("Card order, high to low:")
    for table in rs.strains:
        code = table["code"]
        lines.append(f"  {code} ({_STRAIN_NAMES[code]}):")
        if table["trump"] is not None:
            lines.append("    trumps: " + " ".join(table["order"][table["trump"]]))
        elif table["order"][4]:
            lines.append("    no suit: " + " ".join(table["order"][4]))
        for s, suit in enumerate(SUITS):
            if s == table["trump"] or not table["order"][s]:
                continue
            lines.append(f"    {suit}: " + " ".join(table["order"][s]))
    lines += _action_lines(rs)
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _action_lines(rs: Ruleset) -> list[str]:
    """The engine's action ids (the Python API, OpenSpiel and PettingZoo use them)."""
    from ..runtime.engine.rules import Rules

    rules = Rules(rs.tables)
    lines = ["", f"Action ids ({rules.n_actions} distinct, 0..{rules.n_actions - 1}):"]
    rows = [["ids", "kind", "meaning"]]
    for kind, first, count, meaning in rules.action_layout():
        if count:
            ids = str(first) if count == 1 else f"{first}..{first + count - 1}"
            rows.append([ids, kind, meaning])
    return lines + _table(rows, set())
