"""The option registry (issue 17): every rule option declared once, everything else derived.

The registry is :data:`~fivehundred.runtime.engine.tableformat.OPTIONS`. These tests check that
what is derived from it agrees with it, and that an option's name is spelled nowhere else by
hand: a new option lives in the registry, the engine module that uses it and the rule book's
template (``generator/templates/clauses.j2``), nothing more.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal, get_args, get_origin, get_type_hints

import pytest

from fivehundred.generator.diff import _FIELDS
from fivehundred.generator.newvariant import COMMON_OPTIONS
from fivehundred.generator.options import diff_options, option_schema, variant_schema
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.engine.tableformat import OPTIONS, Tables

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = "runtime/engine/tableformat.py"
TEMPLATE = "generator/templates/clauses.j2"

#: Where the options older than the registry are still spelled by hand, file by file: the debt
#: the registry has not paid yet (mostly the scoring written five times, issue 17 §2, and the
#: rule-book parameters of generator/clauses.py). It may only shrink: a file that no longer
#: spells a name must leave this list, and no name or file may be added to it.
LEGACY: dict[str, tuple[str, ...]] = {
    "all_pass": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/show.py",
        "runtime/engine/hand.py",
        "runtime/engine/rules.py",
    ),
    "all_pass_per_trick": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/show.py",
        "runtime/adapters/openspiel.py",
        "runtime/bots/search.py",
        "runtime/engine/rules.py",
        "runtime/engine/scoring.py",
    ),
    "both_out": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/model.py",
        "generator/show.py",
        "runtime/engine/game.py",
        "runtime/engine/rules.py",
    ),
    "dead_hand": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/semantic.py",
        "generator/show.py",
        "generator/templates/clauses.j2",
        "runtime/engine/position.py",
        "runtime/engine/records.py",
        "runtime/engine/rules.py",
    ),
    "first_dealer": (
        "generator/balancebook.py",
        "generator/clauses.py",
        "generator/engine.py",
        "generator/show.py",
        "runtime/engine/fast.py",
        "runtime/engine/game.py",
        "runtime/engine/rules.py",
        "runtime/studies/balance.py",
        "runtime/studies/balancereport.py",
    ),
    "hand_size": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/model.py",
        "generator/semantic.py",
        "generator/show.py",
        "generator/templates/clauses.j2",
        "runtime/adapters/api.py",
        "runtime/adapters/arrays.py",
        "runtime/adapters/conformance.py",
        "runtime/adapters/openspiel.py",
        "runtime/adapters/tensors.py",
        "runtime/bots/heuristic.py",
        "runtime/bots/heuristic1.py",
        "runtime/bots/search.py",
        "runtime/bots/search1.py",
        "runtime/bots/solver.py",
        "runtime/engine/hand.py",
        "runtime/engine/position.py",
        "runtime/engine/records.py",
        "runtime/engine/rules.py",
        "runtime/engine/scoring.py",
        "runtime/studies/reached.py",
        "runtime/studies/simulate.py",
    ),
    "joker_lead": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/show.py",
        "runtime/adapters/conformance.py",
        "runtime/bots/solver.py",
        "runtime/engine/hand.py",
        "runtime/engine/rules.py",
        "runtime/studies/reached.py",
    ),
    "joker_lead_only_last_trick": (
        "generator/clauses.py",
        "generator/show.py",
        "runtime/adapters/conformance.py",
        "runtime/bots/solver.py",
        "runtime/engine/hand.py",
        "runtime/engine/rules.py",
        "runtime/studies/reached.py",
    ),
    "joker_nominate": (
        "generator/clauses.py",
        "generator/show.py",
        "runtime/engine/hand.py",
        "runtime/engine/rules.py",
    ),
    "joker_void_must_play": (
        "generator/clauses.py",
        "generator/show.py",
        "runtime/adapters/conformance.py",
        "runtime/bots/solver.py",
        "runtime/engine/hand.py",
        "runtime/engine/rules.py",
        "runtime/studies/reached.py",
    ),
    "kitty_take": (
        "generator/clauses.py",
        "generator/model.py",
        "generator/show.py",
        "runtime/adapters/arrays.py",
        "runtime/adapters/openspiel.py",
        "runtime/bots/handmodel.py",
        "runtime/bots/heuristic.py",
        "runtime/bots/heuristic1.py",
        "runtime/bots/sampling.py",
        "runtime/bots/search.py",
        "runtime/bots/search1.py",
        "runtime/engine/hand.py",
        "runtime/engine/position.py",
        "runtime/engine/rules.py",
        "runtime/engine/seatview.py",
        "runtime/studies/simulate.py",
    ),
    "lead_only_last_trick": ("generator/engine.py",),
    "lose_at": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/model.py",
        "generator/semantic.py",
        "generator/show.py",
        "runtime/adapters/conformance.py",
        "runtime/bots/heuristic.py",
        "runtime/engine/fast.py",
        "runtime/engine/game.py",
        "runtime/engine/rules.py",
    ),
    "misere_ends_when_lost": (
        "generator/clauses.py",
        "generator/engine.py",
        "runtime/bots/solver.py",
        "runtime/engine/hand.py",
        "runtime/engine/rules.py",
        "runtime/studies/reached.py",
    ),
    "misere_partner": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/model.py",
        "generator/semantic.py",
        "generator/show.py",
        "runtime/engine/rules.py",
    ),
    "must_bid_to_win": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/model.py",
        "generator/semantic.py",
        "generator/show.py",
        "runtime/bots/heuristic.py",
        "runtime/engine/game.py",
        "runtime/engine/rules.py",
        "runtime/studies/balance.py",
    ),
    "opponent_tricks": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/model.py",
        "generator/show.py",
        "runtime/engine/rules.py",
    ),
    "opponents_against_misere": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/semantic.py",
        "generator/show.py",
        "runtime/adapters/openspiel.py",
        "runtime/bots/search.py",
        "runtime/engine/rules.py",
        "runtime/engine/scoring.py",
    ),
    "opponents_freeze_at": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/semantic.py",
        "generator/show.py",
        "runtime/adapters/conformance.py",
        "runtime/bots/search.py",
        "runtime/engine/rules.py",
        "runtime/engine/scoring.py",
    ),
    "opponents_per_trick": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/semantic.py",
        "generator/show.py",
        "runtime/adapters/openspiel.py",
        "runtime/bots/heuristic.py",
        "runtime/bots/search.py",
        "runtime/engine/rules.py",
        "runtime/engine/scoring.py",
    ),
    "out_backwards": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/semantic.py",
        "generator/show.py",
        "runtime/engine/fast.py",
        "runtime/engine/game.py",
        "runtime/engine/records.py",
        "runtime/engine/rules.py",
    ),
    "partner_call": (
        "generator/balancebook.py",  # landed in parallel with the registry (issue 21, 20)
        "generator/clauses.py",
        "generator/engine.py",
        "generator/show.py",
        "runtime/bots/handmodel.py",
        "runtime/bots/heuristic.py",
        "runtime/bots/heuristic1.py",
        "runtime/bots/sampling.py",
        "runtime/engine/hand.py",
        "runtime/engine/rules.py",
        "runtime/engine/seatview.py",
        "runtime/server/views.py",
        "runtime/studies/reached.py",
    ),
    "raise_own_bid": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/show.py",
        "generator/templates/clauses.j2",
        "runtime/engine/hand.py",
        "runtime/engine/rules.py",
    ),
    "sans_kitty": (
        "generator/engine.py",
        "generator/model.py",
        "generator/semantic.py",
        "runtime/engine/hand.py",
        "runtime/engine/rules.py",
    ),
    "second_partner_at": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/show.py",
        "runtime/bots/heuristic.py",
        "runtime/bots/heuristic1.py",
        "runtime/engine/hand.py",
        "runtime/engine/rules.py",
    ),
    "slam_below": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/show.py",
        "runtime/bots/search.py",
        "runtime/engine/rules.py",
        "runtime/engine/scoring.py",
    ),
    "slam_value": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/semantic.py",
        "generator/show.py",
        "runtime/adapters/openspiel.py",
        "runtime/bots/search.py",
        "runtime/engine/rules.py",
        "runtime/engine/scoring.py",
    ),
    "void_must_play": ("generator/engine.py",),
}


def _hand_written() -> list[Path]:
    return sorted([*ROOT.glob("runtime/**/*.py"), *ROOT.glob("generator/**/*.py"), ROOT / TEMPLATE])


def _spelled(name: str) -> set[str]:
    word = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")
    return {
        path.relative_to(ROOT).as_posix()
        for path in _hand_written()
        if word.search(path.read_text(encoding="utf-8"))
    } - {REGISTRY}


def _names() -> list[str]:
    """Option names that are identifiers of their own (with an underscore): a plain word such
    as ``target`` or ``take`` is everywhere for other reasons."""
    return sorted({n for o in OPTIONS for n in (o.keys[-1], o.attr) if n and "_" in n})


@pytest.mark.parametrize("name", _names())
def test_an_option_is_spelled_only_in_the_registry_its_engine_module_and_the_book(
    name: str,
) -> None:
    """Issue 17 §1: a new option touches the registry, the engine's use of it and its sentence
    in the book template; spelling its name in any other hand-written module (a default in
    semantic.py, a row in diff.py, a note in newvariant.py) fails here."""
    found = _spelled(name)
    if name in LEGACY:
        assert found <= set(LEGACY[name]), f"{name} newly spelled in {found - set(LEGACY[name])}"
        assert found == set(LEGACY[name]), (
            f"{name} is no longer spelled in {set(LEGACY[name]) - found}: remove it from LEGACY"
        )
        return
    engine = {f for f in found if f != TEMPLATE}
    assert len(engine) <= 1, f"{name} is spelled in {sorted(engine)}: one engine module at most"
    assert all(f.startswith("runtime/") for f in engine), engine


def test_every_registry_option_is_in_the_schema_at_its_place() -> None:
    schema = variant_schema()
    for opt in OPTIONS:
        node = schema
        for key in opt.keys:
            node = node["properties"][key]
        own = {k: v for k, v in node.items() if k != "properties"}
        assert own == option_schema(opt), opt.path


def test_every_option_has_a_note_for_the_starter_file() -> None:
    """`new` lists every option (issue 17 §5: it left out five)."""
    assert {o.keys for o in OPTIONS} <= {path for path, _ in COMMON_OPTIONS}
    assert all(o.note and len(o.note) <= 48 for o in OPTIONS)


def test_diff_compares_every_option_with_a_label() -> None:
    labels = [label for _, label, _ in _FIELDS]
    for opt in diff_options():
        assert opt.diff in labels


def _values(tp: object) -> set[object]:
    """The values of a Literal type, or the type itself."""
    return set(get_args(tp)) if get_origin(tp) is Literal else {tp}


def test_option_types_match_the_tables_and_the_flat_attributes() -> None:
    """The registry's type of an option fits the type of its field in the tables, and of the
    Rules attribute it is copied to."""
    attrs = get_type_hints(Rules)
    for opt in OPTIONS:
        keys = opt.table_keys
        if keys is None:
            continue
        tp: object = Tables
        for key in keys:
            tp = get_type_hints(tp)[key]  # type: ignore[arg-type]
        if opt.type is not None:
            # the tables may take more values than a rule file (play.misere_partner also
            # takes a bid's `plays`), never fewer
            assert _values(opt.type) <= _values(tp), opt.path
        if opt.attr is not None:
            assert _values(opt.type) <= _values(attrs[opt.attr]) <= _values(tp), opt.attr


@pytest.mark.parametrize("variant", ["australian", "american", "three-handed", "five-handed"])
def test_flat_attributes_and_sections_read_the_tables(variant: str) -> None:
    rules = Rules.builtin(variant)
    for opt in OPTIONS:
        if opt.attr is None or opt.table_keys is None:
            continue
        node: object = rules.tables
        for key in opt.table_keys:
            node = node[key]  # type: ignore[index]
        assert getattr(rules, opt.attr) == node, opt.attr
    assert rules.scoring["opponents_per_trick"] == rules.opponents_per_trick


# -- the options clubs use (issue 17 §4) ------------------------------------------------------


def test_end_line_exceed_needs_more_than_the_target_and_less_than_lose_at() -> None:
    """end.line (T: "a team has more than 500 points", "less than -500"; G: "reach 500"):
    with exceed a side at exactly 500 has not won and one at exactly -500 is not out; with
    reach (australian, G) both count."""
    from fivehundred.runtime.engine.game import game_winner, gone_out, reaches
    from fivehundred.runtime.engine.hand import HandResult

    t, g = Rules.builtin("american"), Rules.builtin("australian")
    assert (t.end["line"], g.end["line"]) == ("exceed", "reach")
    assert not reaches(t, 500) and reaches(t, 510) and reaches(g, 500)
    assert not gone_out(t, -500) and gone_out(t, -510) and gone_out(g, -500)
    made = HandResult(t.bid_index["7H"], 0, True, (7, 3), (200, 30), True, (0, 2))
    assert game_winner(t, [500, 100], made) is None
    assert game_winner(t, [510, 100], made) == 0
    assert game_winner(t, [100, -500], made) is None  # exactly -500: still in (T)
    assert game_winner(t, [100, -510], made) == 0  # below -500: out, the other side wins


def test_a_late_option_at_its_default_keeps_the_rules_fingerprint() -> None:
    """Adding end.line (at `reach`) did not change what G's australian plays, so its stored
    balance summary stays valid; T's american (`exceed`) plays other rules than before."""
    import copy

    from fivehundred.runtime.engine.fingerprint import rules_fingerprint

    for variant, same in (("australian", True), ("american", False)):
        tables = Rules.builtin(variant).tables
        before = copy.deepcopy(dict(tables))
        del before["end"]["line"]  # type: ignore[misc]
        assert (rules_fingerprint(before) == rules_fingerprint(tables)) is same
        assert "line" in tables["end"]  # the tables themselves are not changed
