"""Render a variant's engine: its rules as specialised Python code (``generated/engines/``).

The ruleset module holds the rules as tables; this module turns the same tables into the code of
one variant's random playout (template ``templates/engine.py.j2``): the deal in the variant's
packet order, the auction with its own ladder and procedure, kitty and discard, partners, the
play with its joker rules and per-trump tables, and the score. Every option is resolved here, at
generation: the code has no branch for an option the variant does not have, and its constants
are folded in. The engine's checked path (``runtime/engine/hand.py``) reads the same tables;
``tests/test_engines.py`` drives both from one random stream and compares every action.

An option this generator does not know (a new key or a new value in the tables) is a build
error (:class:`EngineOptionError`), never silently wrong code: teach :data:`_OPTIONS` and the
template the option, and the agreement test checks it. A later option of the registry
(``Option.late``) at its default is known without a line here: it plays as before it existed.

Rule-author text never becomes code: the only text of the tables in the module is the variant
id, written by :func:`~fivehundred.generator.render.pyliteral`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from ..runtime.engine.codes import NT, SUITLESS
from ..runtime.engine.errors import FiveHundredError
from ..runtime.engine.fingerprint import rules_fingerprint
from ..runtime.engine.hand import joker_suit_rules
from ..runtime.engine.rules import Rules
from ..runtime.engine.tableformat import OPTIONS, Tables
from .options import clause_option
from .render import pyliteral, template_env

__all__ = ["EngineOptionError", "engine_context", "render_engine"]


class EngineOptionError(FiveHundredError):
    """The tables hold an option (a key or a value) the engine generator does not know."""


def _table_path(clause: str) -> str:
    """The key path in the tables of the option that governs ``clause``."""
    keys = clause_option(clause).table_keys
    assert keys is not None
    return ".".join(keys)


#: Every key path of the tables the generator reads or knowingly ignores, with the values it
#: generates code for (None: any value of the key's type; the code uses the value as data).
#: ``ladder[]`` and ``strains[]`` are the keys of each entry of those lists.
_ANY = None
_OPTIONS: dict[str, frozenset[Any] | None] = {
    # prose and provenance: not rules
    **dict.fromkeys(("$schema", "format", "variant", "extends", "name", "summary"), _ANY),
    "sources": _ANY,
    **dict.fromkeys(("terms.joker", "terms.kitty", "terms.misere", "clauses", "choices"), _ANY),
    # the deck and the seats: data
    **dict.fromkeys(("players", "teams", "side_of_seat", "deck", "card_suit", "card_rank"), _ANY),
    "jokers": _ANY,
    # deal
    "deal.first_dealer": frozenset({"random", "draw"}),  # the game's, not the hand's
    **dict.fromkeys(("deal.hand_size", "deal.kitty", "deal.dead_hand", "deal.packets"), _ANY),
    # auction
    "auction.procedure": frozenset({"rounds", "single-round"}),
    "auction.raise_own_bid": frozenset({False, True}),
    "auction.all_pass": frozenset({"throw-in", "redeal", "no-trumps"}),  # redeal: the match's
    # the options of the rule on passes (auction.pass-final), every value: the template reads
    # them from ``auction``
    **{o.path: frozenset(get_args(o.type)) for o in OPTIONS if o.clause == "auction.pass-final"},
    "auction.all_pass_per_trick": _ANY,
    "auction.inkles": _ANY,
    "auction.inkles.bidders": _ANY,
    "auction.inkles.level": _ANY,
    "auction.sans_kitty": _ANY,
    "auction.sans_kitty.bonus": _ANY,
    "auction.ranking": frozenset({"level", "value"}),  # the ladder is in that order already
    "partner.call": frozenset({"none", "choose", "card"}),
    "partner.second_partner_at": _ANY,
    # the ladder
    **dict.fromkeys(("ladder[].code", "ladder[].level", "ladder[].strain"), _ANY),
    **dict.fromkeys(("ladder[].value", "ladder[].after_bid_of", "ladder[].clause"), _ANY),
    "ladder[].kind": frozenset({"suit", "misere"}),
    "ladder[].open": frozenset({"no", "from-start", "after-first-trick"}),  # a view, not play
    "ladder[].blind": frozenset({False, True}),
    "ladder[].partner": frozenset({"plays", "sits-out", "both-hands"}),
    # kitty
    "kitty.take": frozenset({True, False}),
    "kitty.discard": _ANY,
    # play
    "play.misere_partner": frozenset({"sits-out", "both-hands"}),  # read through ladder[].partner
    "play.misere_ends_when_lost": frozenset({True, False}),
    "play.joker_no_trumps.nominate": frozenset({"contractor", "none"}),
    "play.joker_no_trumps.lead": frozenset({"name-unled-suit", "name-any-suit"}),
    "play.joker_no_trumps.void_must_play": frozenset({"misere", "never", "always"}),
    "play.joker_no_trumps.lead_only_last_trick": frozenset({False, True}),
    # options added later, by the clause they govern: the joker lowest in a misère (read
    # through derived.misere_power and derived.misere_nominated_power), the joker's suit rules
    # (read through runtime.engine.hand.joker_suit_rules)
    **{
        _table_path(clause): frozenset({False, True})
        for clause in (
            "joker.no-trumps.misere-low",
            "joker.no-trumps.first-or-last",
            "joker.no-trumps.void-suit",
        )
    },
    **dict.fromkeys(("strains[].code", "strains[].trump", "strains[].suit_of"), _ANY),
    **dict.fromkeys(("strains[].power", "strains[].order"), _ANY),
    # scoring
    "scoring.slam.value": _ANY,
    "scoring.slam.below": _ANY,
    "scoring.overtricks": _ANY,
    "scoring.failed": frozenset({"minus-value"}),
    "scoring.opponents_per_trick": _ANY,
    "scoring.opponents_against_misere": _ANY,
    "scoring.opponents_freeze_at": _ANY,
    "scoring.freeze": frozenset({"cap", "threshold"}),
    "scoring.opponent_tricks": frozenset({"own", "pooled"}),  # read through pool_opponents
    # the end of the game: Match's and FastMatch's (runtime/engine/game.py: reaches, gone_out,
    # game_winner), never the hand's, so every option of the tables' `end` is known here by
    # the registry, with any value: a new rule of the game's end is the registry, game.py and
    # its sentence in the book, and no line of this file
    **{
        ".".join(o.table_keys): _ANY
        for o in OPTIONS
        if o.table_keys is not None and o.table_keys[0] == "end"
    },
    # derived
    **dict.fromkeys(("derived.deal_order", "derived.suit_masks", "derived.joker_cards"), _ANY),
    **dict.fromkeys(("derived.joker_mask", "derived.nominated_power"), _ANY),
    **dict.fromkeys(("derived.misere_power", "derived.misere_nominated_power"), _ANY),
    **dict.fromkeys(("derived.restricted_bids", "derived.pool_opponents"), _ANY),
}


def _late_default(path: str) -> frozenset[Any] | None:
    """The values known for a key the generator was not taught: a later option of the registry
    (``Option.late``) at its default, which are the rules as they were before the option existed
    (what the generated code plays). So adding an option needs no line here; a variant that sets
    it to another value stops the build until the template is taught it, and a rule file that
    does plays the checked path (:func:`fivehundred.runtime.loading.load_rules`)."""
    for opt in OPTIONS:
        if opt.late and opt.table_keys is not None and ".".join(opt.table_keys) == path:
            return frozenset({opt.default})
    return None


#: auction.no-ace-no-face: the registry's option of that clause, read through ``Rules.REDEAL``
#: (the redeal id, -1 without the option).
_OPTIONS[next(o.path for o in OPTIONS if o.clause == "auction.no-ace-no-face")] = frozenset(
    {False, True}
)


def _paths(value: Any, path: str, out: dict[str, list[Any]]) -> None:
    """Every key path of ``value`` with the values found there; the entries of the ladder and
    of the strains are ``ladder[].key`` and ``strains[].key``."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            _paths(item, f"{path}.{key}" if path else key, out)
    elif path in ("ladder", "strains"):
        for entry in value:
            for key, item in entry.items():
                out.setdefault(f"{path}[].{key}", []).append(item)
    else:
        out.setdefault(path, []).append(value)


def check_options(tables: Tables) -> None:
    """Raise :class:`EngineOptionError` for a key or a value the generator does not know."""
    found: dict[str, list[Any]] = {}
    _paths(tables, "", found)
    for path, values in found.items():
        if path in _OPTIONS:
            known = _OPTIONS[path]
        else:
            known = _late_default(path)
            if known is None:
                raise EngineOptionError(
                    f"{tables['variant']}: the engine generator does not know the option "
                    f"{path!r} (teach generator/engine.py and templates/engine.py.j2 what it does)"
                )
        for value in values:
            if known is not None and value not in known:
                raise EngineOptionError(
                    f"{tables['variant']}: the engine generator does not know {path} = "
                    f"{value!r} (it knows {', '.join(sorted(map(repr, known)))})"
                )


def _receiver_of(tables: Tables) -> list[str]:
    """Who receives each position of the shuffled deck, by offset from the dealer: ``h0`` the
    dealer, ``h1`` his left, ..., ``kitty``, ``dead``. The deal must turn with the dealer (the
    first card to the dealer's left), which the generator checks here."""
    n = tables["players"]
    order = tables["derived"]["deal_order"]
    names = [*(f"h{k}" for k in range(n)), "kitty", "dead"]
    out = [names[to] for to in order[0]]
    for dealer, rows in enumerate(order):
        for k, to in enumerate(rows):
            turned = to if to >= n else (to - dealer) % n
            if order[0][k] != turned:
                raise EngineOptionError(
                    f"{tables['variant']}: the deal order of dealer {dealer} is not dealer 0's "
                    "turned by one seat per dealer; the engine generator deals by offsets"
                )
    return out


def _by_side(teams: list[list[int]]) -> str:
    """The expression of the tricks by side from ``won`` (tricks by seat)."""
    sums = [" + ".join(f"won[{seat}]" for seat in team) for team in teams]
    return "(" + ", ".join(sums) + ("," if len(sums) == 1 else "") + ")"


def engine_context(tables: Tables) -> dict[str, Any]:
    """What the template needs: the variant's options resolved, its constants as literals."""
    check_options(tables)
    rules = Rules(tables)
    if NT != SUITLESS:
        raise EngineOptionError("the generated play needs NT == SUITLESS (trumpish == strain)")
    n = tables["players"]
    deal = tables["deal"]
    auction = tables["auction"]
    derived = tables["derived"]
    ladder = tables["ladder"]
    play = tables["play"]
    jnt = play["joker_no_trumps"]
    scoring = tables["scoring"]
    n_cards = len(tables["deck"])
    jokers = derived["joker_cards"]
    masks = derived["suit_masks"]
    for strain in range(NT):
        if masks[strain][SUITLESS]:
            raise EngineOptionError(
                f"{tables['variant']}: a card without a suit in a trump contract; the engine "
                "generator plays jokers as cards of the trump suit there"
            )
    strains = tables["strains"]
    suit_of = [s["suit_of"] for s in strains]
    power = [s["power"] for s in strains]
    keys = [
        [
            [power[t][c] if suit_of[t][c] in (led, t) else 0 for c in range(n_cards)]
            for led in range(5)
        ]
        for t in range(5)
    ]
    # joker.no-trumps.misere-low: a misère's keys are its own powers' (the jokers lowest)
    misere_power = derived["misere_power"]
    misere_keys = [
        [misere_power[c] if suit_of[NT][c] in (led, NT) else 0 for c in range(n_cards)]
        for led in range(5)
    ]
    inkles = auction["inkles"]
    restricted = []
    for i in derived["restricted_bids"]:
        bid = ladder[i]
        conditions = []
        clauses = []
        if bid["after_bid_of"]:
            conditions.append(f"max_level < {int(bid['after_bid_of'])}")
            clauses.append(f"{bid['clause']}: only after a {int(bid['after_bid_of'])} was bid")
        if bid["blind"]:
            conditions.append("called >> seat & 1")
            clauses.append("auction.blind-misere: a blind bid is one's first call")
        if inkles is not None and bid["level"] == inkles["level"]:
            conditions.append(f"ncalls >= {int(inkles['bidders'])}")
            clauses.append("auction.inkles: the inkle level is open to the first bidders only")
        if conditions:
            restricted.append(
                {"index": int(i), "condition": " or ".join(conditions), "clauses": clauses}
            )
    teams = tables["teams"]
    n_sides = len(teams)
    team_of_seat = [sum(1 << s for s in teams[tables["side_of_seat"][seat]]) for seat in range(n)]
    misere = [b["kind"] == "misere" for b in ladder]
    partner_call = tables["partner"]["call"]
    # Where partners are chosen or called, a misère has none: nobody sits out.
    sits_out = [
        b["partner"] == "sits-out" and (partner_call == "none" or b["kind"] != "misere")
        for b in ladder
    ]
    kitty_phase = tables["kitty"]["take"] and deal["kitty"] > 0 and tables["kitty"]["discard"] > 0
    if kitty_phase and tables["kitty"]["discard"] != deal["kitty"]:
        raise EngineOptionError(
            f"{tables['variant']}: the contractor discards other than the kitty's size; the "
            "engine generator counts every hand at the opening lead as deal.hand_size cards"
        )
    sans = auction["sans_kitty"]
    n_bids = len(ladder)
    pass_action = n_cards + 4 * len(jokers)
    nominate = pass_action + 1 + n_bids
    lead_only_last = jnt["lead_only_last_trick"]
    ends_rule, void_rule = (bool(jokers) and on for on in joker_suit_rules(play))
    any_misere = any(b["kind"] == "misere" for b in ladder)
    receiver_of = _receiver_of(tables)
    receivers = [*(f"h{k}" for k in range(n)), "kitty", "dead"]
    holders = [r for r in receivers if r in receiver_of]
    # the receiver of the most cards is dealt what the others were not
    complement = max(holders, key=receiver_of.count)
    misere_ends = play["misere_ends_when_lost"] and any(misere)
    bid_strains = [b["strain"] for b in ladder]
    if any(sits_out) and partner_call != "none":
        raise EngineOptionError(
            f"{tables['variant']}: a partner sits out where partners are chosen or called; the "
            "engine generator seats out the contractor's team"
        )
    return {
        "variant": tables["variant"],
        "fingerprint": rules_fingerprint(tables),
        "players": n,
        "n_cards": n_cards,
        "hand_size": deal["hand_size"],
        "receivers": receivers,
        "receiver_of": receiver_of,
        "holders": holders,
        "complement": complement,
        "next_seat": tuple((s + 1) % n for s in range(n)),
        "followers": tuple(tuple((s + k) % n for k in range(1, n)) for s in range(n)),
        # play.misere-partner: who follows each seat when the contractor's partners sit out
        "followers_alone": tuple(
            tuple(
                tuple(
                    s
                    for s in ((seat + k) % n for k in range(1, n))
                    if s == contractor or not team_of_seat[contractor] >> s & 1
                )
                for seat in range(n)
            )
            for contractor in range(n)
        ),
        "by_side_expr": _by_side(teams),
        "has_kitty_cards": deal["kitty"] > 0,
        "has_dead": deal["dead_hand"] > 0,
        "n_sides": n_sides,
        "side_of_seat": tables["side_of_seat"],
        "teams": teams,
        "team_of_seat": team_of_seat,
        "singles": all(len(t) == 1 for t in teams),
        # actions
        "joker_lead": n_cards,
        "pass_action": pass_action,
        "bid": pass_action + 1,
        "nominate": nominate,
        "take": nominate + 4,
        "sans": nominate + 5,
        "partner": nominate + 6,
        "call": nominate + 6 + n,
        "discard": nominate + 6 + n + n_cards,
        # auction.no-ace-no-face: the redeal id and the cards that bar the claim
        "can_redeal": rules.REDEAL >= 0,
        "redeal": rules.REDEAL,
        "face_mask": rules.face_mask,
        # auction
        "n_bids": n_bids,
        "auction": auction,
        "single_round": auction["procedure"] == "single-round",
        "raise_own_bid": auction["raise_own_bid"],
        "all_pass_no_trumps": auction["all_pass"] == "no-trumps",
        "all_pass_per_trick": auction["all_pass_per_trick"],
        "inkles": None if inkles is None else (int(inkles["bidders"]), int(inkles["level"])),
        "restricted": restricted,
        "needs_max_level": any(b["after_bid_of"] for b in ladder),
        "needs_called": any(b["blind"] for b in ladder),
        "level": [b["level"] for b in ladder],
        "strain": bid_strains,
        "value": [b["value"] for b in ladder],
        "misere": misere,
        "any_misere": any(misere),
        "sits_out": sits_out,
        "any_sits_out": any(sits_out),
        # kitty and partners
        "kitty_phase": kitty_phase,
        "discard_count": tables["kitty"]["discard"],
        "sans_bonus": None if sans is None else sans["bonus"],
        "partner_call": partner_call,
        "second_partner_at": tables["partner"]["second_partner_at"],
        # play
        "jokers": jokers,
        # every set of jokers a contractor may hold, as a mask
        "joker_sets": [
            sum(1 << c for k, c in enumerate(jokers) if held >> k & 1)
            for held in range(1, 1 << len(jokers))
        ],
        "joker_mask": derived["joker_mask"],
        "nominated_power": derived["nominated_power"],
        "nominates": bool(jokers) and jnt["nominate"] == "contractor",
        "name_unled": jnt["lead"] == "name-unled-suit",
        "void_must_play": jnt["void_must_play"] if jokers else "never",
        "lead_only_last": lead_only_last,
        "ends_rule": ends_rule,
        "void_rule": void_rule,
        "shows": ends_rule or void_rule,
        "misere_low": any_misere and misere_keys != keys[NT],
        "misere_keys": misere_keys,
        "misere_nominated_power": derived["misere_nominated_power"],
        "misere_ends_when_lost": misere_ends,
        # the misères play_tricks plays (at no trumps without jokers, or in a trump suit)
        "plain_misere_ends": misere_ends
        and any(m and (not jokers or s != NT) for m, s in zip(misere, bid_strains, strict=True)),
        "suit_of": suit_of,
        "power": power,
        "masks": masks,
        "keys": keys,
        # scoring
        "slam_value": scoring["slam"]["value"],
        "slam_below": scoring["slam"]["below"],
        "overtricks": scoring["overtricks"],
        "per_trick": scoring["opponents_per_trick"],
        "against_misere": scoring["opponents_against_misere"],
        "freeze_at": scoring["opponents_freeze_at"],
        "freeze_threshold": scoring["freeze"] == "threshold",
        "pool_opponents": derived["pool_opponents"],
    }


def _frozen(value: Any) -> Any:
    """Lists as tuples, all the way down: the module's tables are immutable."""
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    return value


def render_engine(tables: Tables) -> str:
    """The text of ``generated/engines/<variant>.py`` for a variant's tables."""
    template = template_env().get_template("engine.py.j2")
    context = engine_context(tables)
    return template.render(lit=lambda value: pyliteral(_frozen(value)), **context)
