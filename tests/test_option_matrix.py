"""Every house option on every base variant: 1,000 random hands each, invariants checked.

For each base variant (australian, american, three-handed, six-handed, six-handed-2v2v2,
two-handed, five-handed) and each value of every enum or boolean option of
``specs/schema/variant.schema.json`` that makes sense on that base, plus the special-bid
settings of auction.ladder and its misère options (G, T), a small overlay is written as a house file
that ``extends:`` the base (in ``tmp_path``) and compiled. Each combination must render its English
rule book with every clause of the variant, print with ``show``, and play 1,000 hands of random bots
through ``simulate(..., check=True)`` (cards conserved, tricks well formed, points as the tables
say). Options of the end of the game (``end.*``), and each base as it is, also play whole games (at
most 300 hands), so that ``game_winner`` runs under each of them.

An overlay that changes nothing on a base (the value the base already has) is not generated.
Every base plays its own pack (five-handed 53 cards, six-handed 63), so every combination plays
the full 1,000 hands. A game may end without a winner (``NO_WINNER``, P) only under
``end.out_backwards: cannot-win``. Each combination's generated engine (rendered and compiled
in memory, as a rule file's) must also play exactly as the checked path. The invariant checker
itself is tested at the end of this file on deterministic hands (sans kitty, overtricks,
partners of the hand). Measured: about 42 s of CPU for the whole file (2 cores, loaded), and
15 s more for the generated engines.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from random import Random
from typing import Any

import pytest
from variant_helpers import act, deal_with, overlay_file, overlay_rules, resolved, rules_of

from fivehundred.generator.docs import render_markdown
from fivehundred.generator.pipeline import compile_spec
from fivehundred.generator.resolve import merge
from fivehundred.generator.show import show_text
from fivehundred.generator.yamlload import Marks
from fivehundred.runtime.engine.fast import FastEngine, fast_engine
from fivehundred.runtime.engine.game import NO_WINNER, Match
from fivehundred.runtime.engine.hand import HandState
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.studies.simulate import check_hand, simulate

BASES = (
    "australian",
    "american",
    "three-handed",
    "six-handed",
    "six-handed-2v2v2",
    "two-handed",
    "five-handed",
)
HANDS = 1000
GAME_HANDS = 300

Overlay = dict[str, Any]
#: An option: its name, the overlay (or a function of the base's highest level giving it), and
#: whether it makes sense on a base (a function of the base's rules).
Option = tuple[str, Overlay | Callable[[int], Overlay], Callable[[Rules], bool]]


def _any(r: Rules) -> bool:
    return True


def _partnerships(r: Rules) -> bool:
    return any(len(team) > 1 for team in r.teams)


def _misere(r: Rules) -> bool:
    return "misere" in r.bid_kind


def _jokers(r: Rules) -> bool:
    return bool(r.joker_cards)


def _rounds(r: Rules) -> bool:
    return r.procedure == "rounds"


def _no_teams(r: Rules) -> bool:
    return len(r.teams) == r.players and r.players >= 3


def _kitty(r: Rules) -> bool:
    return r.kitty > 0


def _several_opponents(r: Rules) -> bool:
    return r.players > 2


def _specials(*bids: Overlay) -> Overlay:
    """These special bids instead of the base's (``replace:``, not merged by bid)."""
    return {"auction": {"ladder": {"special": {"replace": list(bids)}}}}


def _mis(value: int = 250, above: str = "7NT", **more: Any) -> Overlay:
    return {"bid": "MIS", "kind": "misere", "value": value, "above": above, **more}


def _omis(value: int, above: str, **more: Any) -> Overlay:
    return {
        "bid": "OMIS",
        "kind": "misere",
        "open": "after-first-trick",
        "value": value,
        "above": above,
        **more,
    }


_AFTER7 = {"available": {"after_bid_of": 7}}

OPTIONS: list[Option] = [
    # terms (the rule book's words; the engine must not care)
    ("terms.kitty=kitty", {"terms": {"kitty": "kitty"}}, _any),
    ("terms.kitty=widow", {"terms": {"kitty": "widow"}}, _any),
    ("terms.misere=misere", {"terms": {"misere": "misere"}}, _misere),
    ("terms.misere=nullo", {"terms": {"misere": "nullo"}}, _misere),
    ("terms.joker=bird", {"terms": {"joker": "bird"}}, _jokers),
    # seats and deal
    ("teams=none", {"teams": "none"}, _partnerships),
    ("teams=explicit", {"teams": "ADJACENT"}, _partnerships),
    ("deal.first_dealer=random", {"deal": {"first_dealer": "random"}}, _any),
    ("deal.first_dealer=draw", {"deal": {"first_dealer": "draw"}}, _any),
    ("partner.call=none", {"partner": {"call": "none", "second_partner_at": None}}, _no_teams),
    ("partner.call=choose", {"partner": {"call": "choose", "second_partner_at": None}}, _no_teams),
    ("partner.call=card", {"partner": {"call": "card", "second_partner_at": None}}, _no_teams),
    (
        "partner.call=choose,second@8",
        {"partner": {"call": "choose", "second_partner_at": 8}},
        lambda r: _no_teams(r) and r.players >= 4,
    ),
    (
        "partner.call=card,second@8",
        {"partner": {"call": "card", "second_partner_at": 8}},
        lambda r: _no_teams(r) and r.players >= 4,
    ),
    # auction
    ("auction.procedure=rounds", {"auction": {"procedure": "rounds", "inkles": None}}, _any),
    ("auction.procedure=single-round", {"auction": {"procedure": "single-round"}}, _any),
    ("auction.raise_own_bid=true", {"auction": {"raise_own_bid": True}}, _rounds),
    ("auction.raise_own_bid=false", {"auction": {"raise_own_bid": False}}, _rounds),
    ("auction.all_pass=throw-in", {"auction": {"all_pass": "throw-in"}}, _any),
    ("auction.all_pass=no-trumps", {"auction": {"all_pass": "no-trumps"}}, _any),
    (
        "auction.all_pass=no-trumps,20",
        {"auction": {"all_pass": "no-trumps", "all_pass_per_trick": 20}},
        _any,
    ),
    ("auction.inkles=null", {"auction": {"inkles": None}}, _any),
    (
        "auction.inkles=first-bidders-6",
        {"auction": {"procedure": "single-round", "inkles": "INKLES"}},
        _any,
    ),
    ("auction.sans_kitty=0", {"auction": {"sans_kitty": {"bonus": 0}}}, _kitty),
    ("auction.sans_kitty=50", {"auction": {"sans_kitty": {"bonus": 50}}}, _kitty),
    ("kitty.take=true", {"kitty": {"take": True}}, _kitty),
    ("kitty.take=false", {"kitty": {"take": False}, "auction": {"sans_kitty": None}}, _kitty),
    # special bids (auction.ladder and its misère options)
    ("special=none", _specials(), _any),
    ("special=misere-after-7", _specials(_mis(**_AFTER7)), _any),
    ("special=misere-any-time", _specials(_mis()), _any),
    ("special=misere-210", _specials(_mis(210, "7H")), _any),
    ("special=misere-230", _specials(_mis(230, "7NT")), _any),
    ("special=misere-250-above-8S", _specials(_mis(250, "8S")), _any),
    ("special=misere-270", _specials(_mis(270, "8C")), _any),
    (
        "special=open-330",
        lambda hi: _specials(_mis(**_AFTER7), _omis(330, f"{max(hi - 2, 8)}NT")),
        _any,
    ),
    (
        "special=open-430",
        lambda hi: _specials(_mis(**_AFTER7), _omis(430, f"{max(hi - 1, 8)}NT")),
        _any,
    ),
    (
        "special=open-500-from-start",
        lambda hi: _specials(_mis(**_AFTER7), _omis(500, f"{hi}H", open="from-start")),
        _any,
    ),
    ("special=open-520", lambda hi: _specials(_mis(**_AFTER7), _omis(520, f"{hi}NT")), _any),
    (
        "special=open-after-8",
        lambda hi: _specials(_mis(**_AFTER7), _omis(500, f"{hi}D", available={"after_bid_of": 8})),
        _any,
    ),
    (
        "special=blind-1000",
        lambda hi: _specials(
            _mis(),
            _omis(500, f"{hi}D"),
            {"bid": "BMIS", "kind": "misere", "blind": True, "value": 1000, "above": f"{hi}NT"},
        ),
        _any,
    ),
    ("special=partner-plays", _specials(_mis(partner="plays")), _partnerships),
    ("special=partner-both-hands", _specials(_mis(partner="both-hands")), _partnerships),
    ("special=partner-sits-out", _specials(_mis(partner="sits-out")), _partnerships),
    # play
    (
        "play.misere_partner=sits-out",
        {"play": {"misere_partner": "sits-out"}},
        lambda r: _partnerships(r) and _misere(r),
    ),
    (
        "play.misere_partner=both-hands",
        {"play": {"misere_partner": "both-hands"}},
        lambda r: _partnerships(r) and _misere(r),
    ),
    ("play.misere_ends_when_lost=true", {"play": {"misere_ends_when_lost": True}}, _misere),
    ("play.misere_ends_when_lost=false", {"play": {"misere_ends_when_lost": False}}, _misere),
    (
        "joker.nominate=contractor",
        {"play": {"joker": {"no_trumps": {"nominate": "contractor"}}}},
        _jokers,
    ),
    ("joker.nominate=none", {"play": {"joker": {"no_trumps": {"nominate": "none"}}}}, _jokers),
    (
        "joker.lead=name-any-suit",
        {"play": {"joker": {"no_trumps": {"lead": "name-any-suit"}}}},
        _jokers,
    ),
    (
        "joker.lead=name-unled-suit",
        {"play": {"joker": {"no_trumps": {"lead": "name-unled-suit"}}}},
        _jokers,
    ),
    (
        "joker.void_must_play=never",
        {"play": {"joker": {"no_trumps": {"void_must_play": "never"}}}},
        _jokers,
    ),
    (
        "joker.void_must_play=misere",
        {"play": {"joker": {"no_trumps": {"void_must_play": "misere"}}}},
        _jokers,
    ),
    (
        "joker.void_must_play=always",
        {"play": {"joker": {"no_trumps": {"void_must_play": "always"}}}},
        _jokers,
    ),
    (
        "joker.lead_only_last_trick=true",
        {"play": {"joker": {"no_trumps": {"lead_only_last_trick": True}}}},
        _jokers,
    ),
    (
        "joker.lead_only_last_trick=false",
        {"play": {"joker": {"no_trumps": {"lead_only_last_trick": False}}}},
        _jokers,
    ),
    # scoring
    ("scoring.overtricks=10", {"scoring": {"overtricks": 10}}, _any),
    ("scoring.slam=off", {"scoring": {"slam": {"value": 0, "below": 0}}}, _any),
    ("scoring.slam=250", {"scoring": {"slam": {"value": 250, "below": 250}}}, _any),
    (
        "scoring.opponent_tricks=pooled",
        {"scoring": {"opponent_tricks": "pooled"}},
        _several_opponents,
    ),
    ("scoring.opponent_tricks=own", {"scoring": {"opponent_tricks": "own"}}, _several_opponents),
    ("scoring.opponents_freeze_at=490", {"scoring": {"opponents_freeze_at": 490}}, _any),
    ("scoring.opponents_freeze_at=null", {"scoring": {"opponents_freeze_at": None}}, _any),
    ("scoring.opponents_against_misere=10", {"scoring": {"opponents_against_misere": 10}}, _misere),
    # end of the game
    ("end.must_bid_to_win=true", {"end": {"must_bid_to_win": True}}, _any),
    ("end.must_bid_to_win=false", {"end": {"must_bid_to_win": False}}, _any),
    (
        "end.both_out=contractor",
        {"end": {"must_bid_to_win": False, "both_out": "contractor"}},
        _any,
    ),
    ("end.both_out=highest", {"end": {"must_bid_to_win": False, "both_out": "highest"}}, _any),
    (
        "end.both_out=first-by-trick",
        {"end": {"must_bid_to_win": False, "both_out": "first-by-trick"}},
        _any,
    ),
    ("end.out_backwards=game-over", {"end": {"lose_at": -500, "out_backwards": "game-over"}}, _any),
    (
        "end.out_backwards=cannot-win",
        {"end": {"lose_at": -500, "out_backwards": "cannot-win"}},
        _any,
    ),
    ("end.lose_at=null", {"end": {"lose_at": None, "out_backwards": "game-over"}}, _any),
]


def _concrete(overlay: Overlay | Callable[[int], Overlay], r: Rules) -> Overlay:
    """The overlay for base rules ``r``: placeholders and level-dependent bids filled in."""
    levels = [level for level, kind in zip(r.bid_level, r.bid_kind, strict=True) if kind == "suit"]
    data = overlay(max(levels)) if callable(overlay) else overlay
    if data.get("teams") == "ADJACENT":
        size = r.players // len(r.teams)
        data = {**data, "teams": [list(range(k, k + size)) for k in range(0, r.players, size)]}
    auction = data.get("auction", {})
    if auction.get("inkles") == "INKLES":
        inkles = {"bidders": min(2, r.players - 1), "level": min(levels)}
        data = {**data, "auction": {**auction, "inkles": inkles}}
    return data


def _changes(base: str, overlay: Overlay) -> bool:
    """Whether ``overlay`` changes the base's resolved spec at all."""
    data = resolved(base)
    empty = Marks("<overlay>")
    merged, _ = merge(data, empty, overlay, empty)
    return merged != data


@lru_cache(maxsize=1)
def _cases() -> tuple[Any, ...]:
    """(base, option) parameters: each base as it is, then the options that make sense on it
    and change it."""
    cases = []
    for base in BASES:
        r = rules_of(base)
        options: list[tuple[str, Overlay]] = [("(as is)", {})]
        options += [
            (name, _concrete(overlay, r))
            for name, overlay, fits in OPTIONS
            if fits(r) and _changes(base, _concrete(overlay, r))
        ]
        for name, overlay in options:
            cases.append(pytest.param(base, name, overlay, id=f"{base}:{name}"))
    return tuple(cases)


def _play_games(rules: Rules, seed: int) -> None:
    """Whole games until GAME_HANDS hands have been played, each hand checked. A game won is
    won by a side at the target, or because another went out backwards; a game that ends
    without a winner does so under ``cannot-win`` (P), when a side out backwards reaches the
    target or every side is out backwards."""
    rng = Random(seed)
    hands = 0
    while hands < GAME_HANDS:
        match = Match(rules, rng)
        barred = match.barred
        while match.winner is None and hands < GAME_HANDS:
            barred = match.barred
            match.hand.playout(rng)
            check_hand(match.hand)
            match.finish_hand()
            hands += 1
        scores = match.scores
        if match.winner == NO_WINNER:
            assert rules.out_backwards == "cannot-win" and rules.lose_at is not None
            assert len(match.barred) == rules.n_sides or any(
                scores[s] >= rules.target for s in barred
            ), scores
        elif match.winner is not None:
            assert match.winner in range(rules.n_sides) and match.winner not in barred
            assert scores[match.winner] >= rules.target or (
                rules.lose_at is not None and min(scores) <= rules.lose_at
            ), scores


@pytest.mark.parametrize(("base", "name", "overlay"), _cases())
def test_option(base: str, name: str, overlay: Overlay, tmp_path: Path) -> None:
    """The base with this option compiles, its English rule book has every clause, ``show``
    works, and it plays 1,000 hands without breaking an invariant (and, for the end of the game
    and the base as it is, whole games too)."""
    slug = "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-")
    rs = compile_spec(overlay_file(base, overlay, tmp_path, f"{base}-{slug}"))
    book = render_markdown(rs, "en")
    for clause in rs.clauses:
        assert f'<a id="{clause["id"]}"></a>' in book, clause["id"]
    assert show_text(rs).startswith(rs.name)
    rules = Rules(rs.tables)
    seed = zlib.crc32(f"{base}:{name}".encode())
    summary = simulate(rules, hands=HANDS, seed=seed, check=True)
    assert summary.hands == HANDS
    assert summary.invariant_checks == HANDS
    assert summary.thrown_in + summary.all_passed_played + summary.made + summary.failed == HANDS
    if name.startswith("end.") or name == "(as is)":
        _play_games(rules, seed)


@pytest.mark.parametrize(("base", "name", "overlay"), _cases())
def test_option_generated_engine_agrees(
    base: str, name: str, overlay: Overlay, tmp_path: Path
) -> None:
    """The base with this option, loaded as a rule file (its engine rendered and compiled in
    memory), plays through its generated engine exactly as through the checked path from one
    random stream: every action, trick winner and point of 20 random hands from scores of none
    and of 380 to 420 (the defenders' freeze), and of every contract of the ladder forced, twice
    (once from 470 each). The built-in variants are compared in ``test_engines``; this reaches
    the options and their combinations no built-in has."""
    slug = "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-")
    rules = overlay_rules(base, overlay, tmp_path, f"{base}-{slug}")
    generated, checked = fast_engine(rules), FastEngine(rules, None)
    assert generated.generated, f"{base}:{name} has no generated engine"
    cases: list[tuple[int, list[int] | None, tuple[int, int] | None]] = []
    for seed in range(20):
        cases += [(seed, None, None), (seed, [380 + 10 * (seed % 5)] * rules.n_sides, None)]
    for bid in range(rules.n_bids):
        for k in range(2):
            seat = (bid + k) % rules.players
            cases.append(
                (10_000 + 1000 * k + bid, [470] * rules.n_sides if k else None, (seat, bid))
            )
    for seed, scores, contract in cases:
        dealer = seed % rules.players
        got = generated.playout(dealer, Random(seed), scores, contract)
        want = checked.playout(dealer, Random(seed), scores, contract)
        assert got == want, f"{base}:{name} hand {seed} from {scores}, contract {contract}"


def test_matrix_covers_every_base_and_option() -> None:
    """Every base is played, and every option value is played on some base: as an overlay that
    changes it, or as the base's own value."""
    cases = _cases()
    assert {c.values[0] for c in cases} == set(BASES)
    played = {c.values[1] for c in cases}
    for name, overlay, fits in OPTIONS:
        if name in played:
            continue
        own = [
            base
            for base in BASES
            if fits(r := rules_of(base)) and not _changes(base, _concrete(overlay, r))
        ]
        assert own, f"{name} is played on no base"


# -- the invariant checker on deterministic hands ----------------------------------------------


def _played(state: HandState, actions: str, seed: int = 0) -> HandState:
    """``state`` after ``actions`` (checked), then played out at random."""
    act(state, actions)
    state.playout(Random(seed))
    assert state.result is not None
    return state


#: Seat 1 holds the joker and the top cards of every suit (australian deck).
STRONG = "JK AS KS AC KC AD KD AH KH QH"


def test_check_hand_sans_kitty(tmp_path: Path) -> None:
    """G (``kitty.sans``): a contractor who plays sans kitty leaves the kitty untouched and
    discards nothing; ``check_hand`` accepts such a hand, and its sans bonus."""
    rules = overlay_rules("australian", {"auction": {"sans_kitty": {"bonus": 50}}}, tmp_path, "s")
    state = _played(deal_with(rules, 0, {1: STRONG}), "7NT, pass, pass, pass, sans")
    assert state.sans and state.discarded == 0
    res = state.result
    assert res is not None and res.made
    assert res.points[1] == 220 + 50  # 7NT and the sans bonus: the engine scores it right
    check_hand(state)


def test_check_hand_overtricks(tmp_path: Path) -> None:
    """``scoring.overtricks`` (T's overtricks option): a made contract scores 10 more per trick
    above the bid; the engine scores it so and ``check_hand`` accepts it."""
    overlay = {"scoring": {"overtricks": 10, "slam": {"value": 0, "below": 0}}}
    rules = overlay_rules("australian", overlay, tmp_path, "o")
    state = deal_with(rules, 0, {1: STRONG, "kitty": "4D 5D 6D"})
    state = _played(state, "6NT, pass, pass, pass, discard 4D 5D 6D")
    res = state.result
    assert res is not None
    extra = res.tricks_by_side[1] - 6
    assert res.made and extra > 0
    assert res.points[1] == 120 + 10 * extra  # the engine scores it right
    check_hand(state)


def test_check_hand_partners_of_the_hand(tmp_path: Path) -> None:
    """Published five-handed rules (``seats.partner``): a contract made with a chosen partner's
    tricks counts the tricks of the contractor and his partner for the hand together; ``check_hand``
    counts them so, and both score the contract."""
    overlay = {"teams": "none", "partner": {"call": "choose"}}
    rules = overlay_rules("australian", overlay, tmp_path, "p")
    state = deal_with(rules, 0, {3: STRONG, 1: "4D 5D 6D 4H 5H 6H 7H 5S 6S 7S"})
    state = _played(state, "6NT, pass, pass, pass, discard 4D 5D 6D, partner 3")
    res = state.result
    assert res is not None
    assert res.made and res.allies == (1, 3) and state.tricks_won[1] < 6
    taken = state.tricks_won[1] + state.tricks_won[3]
    want = 250 if taken == 10 else 120  # a slam on a bid worth less than 250 (G, P)
    assert res.points[1] == res.points[3] == want  # the engine scores it right
    check_hand(state)
