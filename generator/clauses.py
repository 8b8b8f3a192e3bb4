"""Rule clauses: the stable ids every rule book, engine error and rules test refers to.

:data:`CLAUSE_IDS` is the closed list of ids; :func:`clauses_for` picks the ones a ruleset has,
with the parameters its sentence needs, in rule-book order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast, get_args

from ..runtime.engine.tableformat import Clause, ClauseId, ClauseParams

if TYPE_CHECKING:
    from .model import Ruleset

__all__ = ["CLAUSE_IDS", "clauses_for"]

#: Every clause id, in rule-book order (the values of :data:`~..runtime.tableformat.ClauseId`).
CLAUSE_IDS: tuple[ClauseId, ...] = get_args(ClauseId)


def clauses_for(rs: Ruleset) -> list[Clause]:
    """The clauses of ``rs``, each with its parameters (sorted by name), in rule-book order."""
    out: dict[ClauseId, ClauseParams] = {}
    has_joker = bool(rs.jokers)
    misere_bids = [b for b in rs.ladder if b["kind"] == "misere"]

    out["deck.cards"] = {"count": len(rs.deck)}
    if has_joker:
        out["deck.joker"] = {"jokers": list(rs.jokers)}
    out["seats.teams"] = {"teams": [list(t) for t in rs.teams], "players": rs.players}
    if rs.partner_call != "none":
        out["seats.partner"] = {"how": rs.partner_call, "second_at": rs.second_partner_at}
    out["deal.first-dealer"] = {"how": rs.first_dealer}
    out["deal.packets"] = {
        "packets": [(to, n) for to, n in rs.packets],
        "hand_size": rs.hand_size,
        "kitty": rs.kitty,
        "dead_hand": rs.dead_hand,
    }
    out["deal.rotation"] = {"redeal": True} if rs.all_pass == "redeal" else {}
    out["auction.order"] = {}
    if rs.REDEAL >= 0:  # no ace, no face
        out["auction.no-ace-no-face"] = {"jokers": list(rs.jokers)}
    out["auction.ladder"] = {"bids": [b["code"] for b in rs.ladder]}
    out["auction.higher"] = {}
    if rs.procedure == "single-round":
        out["auction.single-round"] = {}
    if rs.inkles is not None:
        out["auction.inkles"] = {"bidders": rs.inkles[0], "level": rs.inkles[1]}
    if rs.procedure == "rounds":
        out["auction.pass-final"] = {}
    out["auction.end"] = {"procedure": rs.procedure, "raise_own_bid": rs.raise_own_bid}
    if rs.procedure == "rounds":
        out["auction.raise-own-bid"] = {"allowed": rs.raise_own_bid}
    for bid in misere_bids:
        below = _neighbour(rs, bid["code"], +1)
        params: ClauseParams = {
            "bid": bid["code"],
            "value": bid["value"],
            "above": _neighbour(rs, bid["code"], -1),
            "below": below,
            "after_bid_of": bid["after_bid_of"],
            "open": bid["open"],
            "blind": bid["blind"],
        }
        out.setdefault(bid["clause"], params)
    out["auction.all-pass"] = {"how": rs.all_pass, "per_trick": rs.all_pass_per_trick}
    if rs.kitty_take and rs.kitty:
        out["kitty.take"] = {"cards": rs.kitty}
        if rs.sans_kitty_bonus is not None:
            out["kitty.sans"] = {"bonus": rs.sans_kitty_bonus}
    out["trump.order"] = {}
    if any(rs.card_rank[c] == "J" for c in range(len(rs.deck))):
        out["trump.left-bower"] = {}
    if has_joker:
        out["joker.trump"] = {}
    if misere_bids:
        out["play.misere-partner"] = {
            "how": rs.misere_partner,
            "partner_by_bid": [(b["code"], b["partner"]) for b in misere_bids],
        }
    out["play.opening-lead"] = {}
    out["play.follow-suit"] = {}
    out["play.trick-winner"] = {}
    out["play.next-lead"] = {}
    opens = [b for b in misere_bids if b["open"] != "no"]
    if opens:
        out["play.open-misere"] = {"bid": opens[0]["code"], "when": opens[0]["open"]}
    if misere_bids and rs.misere_ends_when_lost:
        out["play.misere-ends"] = {}
    if has_joker:
        out["joker.no-trumps.wins"] = {"count": len(rs.jokers)}
        out["joker.no-trumps.follow"] = {}
        if rs.joker_nominate == "contractor":
            out["joker.no-trumps.nominate"] = {}
        out["joker.no-trumps.lead"] = {"how": rs.joker_lead}
        if rs.joker_lead == "name-unled-suit":
            out["joker.no-trumps.last-trick"] = {}
        if rs.joker_lead_only_last_trick:
            # A nominated joker is still the joker: it too waits for the last trick.
            out["joker.no-trumps.lead-last-only"] = {"nominated": rs.joker_nominate == "contractor"}
        if rs.joker_void_must_play != "never" and misere_bids:
            out["joker.no-trumps.misere-void"] = {"when": rs.joker_void_must_play}
        nominated = rs.joker_nominate == "contractor"
        # Options added later: read by the clause they govern (generator/options.py).
        if _on(rs, "joker.no-trumps.misere-low") and misere_bids:
            out["joker.no-trumps.misere-low"] = {"nominated": nominated}
        if _on(rs, "joker.no-trumps.first-or-last"):
            out["joker.no-trumps.first-or-last"] = {"nominated": nominated}
        if _on(rs, "joker.no-trumps.void-suit"):
            out["joker.no-trumps.void-suit"] = {}
    out["score.table"] = {}
    out["score.made"] = {}
    if rs.overtricks:
        out["score.overtricks"] = {"per_trick": rs.overtricks}
    if rs.slam_value:
        out["score.slam"] = {"value": rs.slam_value, "value_below": rs.slam_below}
    out["score.failed"] = {"how": rs.failed}
    out["score.opponents"] = {
        "per_trick": rs.opponents_per_trick,
        "tricks": rs.opponent_tricks,
    }
    if misere_bids:
        out["score.misere"] = {"opponents": rs.opponents_against_misere}
    if rs.opponents_freeze_at is not None:
        out["score.freeze"] = {"at": rs.opponents_freeze_at}
    out["end.target"] = {"target": rs.target}
    out["end.must-bid-to-win"] = {"required": rs.must_bid_to_win}
    if not rs.must_bid_to_win or rs.partner_call != "none":
        # Several sides can reach the target on one hand only then.
        out["end.both-out"] = {"how": rs.both_out, "must_bid_to_win": rs.must_bid_to_win}
    if rs.lose_at is not None:
        out["end.lose"] = {"at": rs.lose_at, "how": rs.out_backwards}
    out["end.continue"] = {}
    return [
        {"id": cid, "params": cast(ClauseParams, dict(sorted(out[cid].items())))}
        for cid in CLAUSE_IDS
        if cid in out
    ]


def _on(rs: Ruleset, clause: str) -> bool:
    """Whether the (boolean) option governing ``clause`` is on in ``rs``."""
    from .options import clause_option, table_value

    return bool(table_value(rs.tables, clause_option(clause)))


def _neighbour(rs: Ruleset, code: str, step: int) -> str | None:
    codes = [b["code"] for b in rs.ladder]
    i = codes.index(code) + step
    return codes[i] if 0 <= i < len(codes) else None
