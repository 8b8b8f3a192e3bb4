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
from fivehundred.runtime.engine.tableformat import OPTIONS, ClauseId, Option, Tables

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
        "runtime/engine/rules.py",
        "runtime/engine/scoring.py",
    ),
    "both_out": (
        "generator/clauses.py",
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
        "generator/semantic.py",
        "generator/show.py",
        "runtime/bots/heuristic.py",
        "runtime/engine/game.py",
        "runtime/engine/rules.py",
        "runtime/studies/reached.py",
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
        "runtime/engine/rules.py",
        "runtime/engine/scoring.py",
    ),
    "opponents_freeze_at": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/semantic.py",
        "generator/show.py",
        "runtime/adapters/conformance.py",
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
        "runtime/engine/rules.py",
        "runtime/engine/scoring.py",
    ),
    "out_backwards": (
        "generator/clauses.py",
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
        "runtime/engine/rules.py",
        "runtime/engine/scoring.py",
    ),
    "slam_value": (
        "generator/clauses.py",
        "generator/engine.py",
        "generator/semantic.py",
        "generator/show.py",
        "runtime/adapters/openspiel.py",
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
    as ``target`` or ``take`` is everywhere for other reasons, so an option named by one is
    checked by its accesses instead (:func:`_access_patterns`)."""
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


# -- options named by a plain word ---------------------------------------------------------------

#: Where an option named by a plain word (``line``, ``freeze``, ``order``, ``take``, ...) is
#: still accessed by hand, option by option (its rule-file path), as :func:`_accessed` finds
#: it: the same debt as :data:`LEGACY`, measured when the check was extended to these options.
#: It may only shrink, like LEGACY.
LEGACY_ACCESS: dict[str, tuple[str, ...]] = {
    "terms.kitty": (
        "generator/engine.py",
        "runtime/bots/heuristic.py",
        "runtime/cli/play.py",
        "runtime/server/table.py",
    ),
    # Rules copies the terms as a whole (rules.py no longer names them); the engine module
    # that reads the misère word is now the notation, which names a variant's special bids
    "terms.misere": (
        "generator/engine.py",
        "runtime/engine/notation.py",
    ),
    "terms.joker": (
        "generator/engine.py",
        "runtime/cli/play.py",
    ),
    "players": (
        "generator/engine.py",
        "generator/model.py",
    ),
    "teams": (
        "generator/engine.py",
        "generator/model.py",
        "runtime/engine/rules.py",
    ),
    "partner.call": (
        "generator/engine.py",
        "generator/semantic.py",
    ),
    "deck.jokers": ("generator/model.py",),
    "deal.kitty": (
        "generator/engine.py",
        "generator/model.py",
        "generator/semantic.py",
    ),
    "auction.procedure": (
        "generator/engine.py",
        "generator/semantic.py",
    ),
    "auction.inkles": (
        "generator/engine.py",
        "generator/model.py",
        "runtime/engine/rules.py",
    ),
    "auction.inkles.bidders": (
        "generator/engine.py",
        "generator/semantic.py",
        "runtime/engine/rules.py",
    ),
    "auction.inkles.level": (
        "generator/engine.py",
        "generator/model.py",
        "generator/semantic.py",
        "runtime/engine/rules.py",
    ),
    "auction.sans_kitty.bonus": ("generator/engine.py",),
    "auction.ladder.levels.from": (
        "generator/model.py",
        "generator/semantic.py",
    ),
    "auction.ladder.levels.to": (
        "generator/model.py",
        "generator/semantic.py",
    ),
    "auction.ladder.strains": ("generator/newvariant.py",),
    "auction.ladder.order": (
        "generator/engine.py",
        "generator/semantic.py",
        "generator/templates/clauses.j2",
        "runtime/engine/codes.py",
        "runtime/studies/reached.py",
    ),
    "kitty.take": (
        "generator/engine.py",
        "generator/model.py",
    ),
    "play.joker.no_trumps.nominate": ("generator/engine.py",),
    "play.joker.no_trumps.lead": ("generator/engine.py",),
    "scoring.overtricks": (
        "generator/engine.py",
        "generator/newvariant.py",
        "runtime/engine/rules.py",
    ),
    "scoring.slam.value": (
        "generator/engine.py",
        "generator/semantic.py",
    ),
    "scoring.slam.below": (
        "generator/engine.py",
        "generator/semantic.py",
    ),
    "scoring.failed": ("generator/engine.py",),
    "scoring.freeze": (
        "generator/engine.py",
        "generator/semantic.py",
        "generator/show.py",
        "generator/templates/clauses.j2",
        "runtime/adapters/conformance.py",
        "runtime/engine/scoring.py",
    ),
}

#: Accesses that look like an option's but are not one: (option path, file) and why.
NOT_AN_OPTION: dict[tuple[str, str], str] = {
    ("deal.kitty", "runtime/engine/records.py"): "a game record's deal: its kitty cards",
}

_Q = "[\"']"


def _access_patterns(opt: Option) -> list[re.Pattern[str]]:
    """How an option named by a plain word is spelled when it is accessed: by its section
    (``end["line"]``, ``["end"]["line"]``, ``end.get("line"``, ``rules.end.line`` or
    ``rs.end.line`` in the book template), at the top of a rule file (``["players"]``,
    ``.get("players"``), or by its dotted path in quotes (``"end.line"``, unless that path is
    also a clause id such as ``kitty.take``). The bare word is everywhere for other reasons."""
    out: list[str] = []
    for keys in {opt.keys, opt.table_keys or opt.keys}:
        name = re.escape(keys[-1])
        if "_" in keys[-1]:
            continue  # an identifier of its own: _spelled finds the bare word
        if len(keys) == 1:
            out += [rf"\[\s*{_Q}{name}{_Q}\s*\]", rf"\.get\(\s*{_Q}{name}{_Q}"]
        else:
            parent = re.escape(keys[-2])
            section = rf"(?:\b{parent}|\[\s*{_Q}{parent}{_Q}\s*\])"
            out += [
                rf"{section}\s*\[\s*{_Q}{name}{_Q}\s*\]",
                rf"{section}\.get\(\s*{_Q}{name}{_Q}",
                rf"\w\.{parent}\.{name}\b",
            ]
            dotted = ".".join(keys)
            if dotted not in get_args(ClauseId):
                out.append(rf"{_Q}{re.escape(dotted)}{_Q}")
    return [re.compile(p) for p in out]


def _plain_options() -> list[Option]:
    """The options whose rule-file or tables key is a plain word."""
    return [
        o for o in OPTIONS if any("_" not in keys[-1] for keys in (o.keys, o.table_keys or o.keys))
    ]


def _accessed(opt: Option, files: list[Path] | None = None) -> set[str]:
    patterns = _access_patterns(opt)
    found = set()
    for path in files or _hand_written():
        rel = path.relative_to(ROOT).as_posix()
        if rel == REGISTRY or (opt.path, rel) in NOT_AN_OPTION:
            continue
        text = path.read_text(encoding="utf-8")
        if any(p.search(text) for p in patterns):
            found.add(rel)
    return found


def _check_spelled(label: str, found: set[str], legacy: tuple[str, ...] | None) -> None:
    if legacy is not None:
        assert found <= set(legacy), f"{label} newly spelled in {found - set(legacy)}"
        assert found == set(legacy), (
            f"{label} is no longer spelled in {set(legacy) - found}: remove it from the legacy list"
        )
        return
    engine = {f for f in found if f != TEMPLATE}
    assert len(engine) <= 1, f"{label} is spelled in {sorted(engine)}: one engine module at most"
    assert all(f.startswith("runtime/") for f in engine), engine


@pytest.mark.parametrize("opt", _plain_options(), ids=lambda o: o.path)
def test_an_option_named_by_a_plain_word_is_accessed_only_where_it_is_used(opt: Option) -> None:
    """Issue 17 §1 for the options named by common words (``end.line``, ``scoring.freeze``,
    ``auction.ladder.order``, ``kitty.take``, ...): their accesses (``end["line"]``,
    ``rs.end.line``, ``"end.line"``), not the bare word, are allowed in the registry, one
    engine module and the book template only."""
    _check_spelled(opt.path, _accessed(opt), LEGACY_ACCESS.get(opt.path))


def test_the_access_check_sees_a_plain_option_spelled_in_diff() -> None:
    """The check of plain-word options fails on each form of access added to generator/diff.py
    (which spells none of them today), and not on the plain word used for something else."""
    line = next(o for o in OPTIONS if o.path == "end.line")
    assert "generator/diff.py" not in _accessed(line)
    text = (ROOT / "generator/diff.py").read_text(encoding="utf-8")
    for access in (
        'rs.end["line"]',
        'tables["end"]["line"]',
        'end.get("line", "reach")',
        "rules.end.line",
        'option("end.line")',
    ):
        assert any(p.search(f"{text}\n_X = {access}\n") for p in _access_patterns(line)), access
    for word in ('d["lines"]', '{"line": 3}', "line = 1", "self.line", 'diag["line"]'):
        assert not any(p.search(word) for p in _access_patterns(line)), word


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


def _not_negative(tmp_path: Path) -> Rules:
    """A rule file: G's australian (lose_at -500, game-over) with end.backwards_winner."""
    from fivehundred.runtime.loading import load_rules

    spec = tmp_path / "not-negative.yaml"
    spec.write_text(
        "extends: australian\nid: not-negative\nend: {backwards_winner: not-negative}\n",
        encoding="utf-8",
    )
    return load_rules(spec)


def test_out_backwards_loses_only_to_a_side_not_in_the_negative_wikipedia(
    tmp_path: Path,
) -> None:
    """end.backwards_winner not-negative (Wikipedia's 500 article, variations in score keeping:
    "a team whose score dips below -500 points loses the game only if the other team is not in
    the negative"): at -510 against -20 the game goes on, against 0 or more it is lost; G's
    australian (`any`) ends it against -20 too. A side that reaches the target still wins."""
    from random import Random

    from fivehundred.runtime.engine.game import Match, game_winner
    from fivehundred.runtime.engine.hand import HandResult

    g, house = Rules.builtin("australian"), _not_negative(tmp_path)
    assert (g.end["backwards_winner"], house.end["backwards_winner"]) == ("any", "not-negative")
    failed = HandResult(g.bid_index["7H"], 0, False, (5, 5), (-200, 50), True, (0, 2))
    assert game_winner(g, [-510, -20], failed) == 1
    assert game_winner(house, [-510, -20], failed) is None  # the other side is negative too
    assert game_winner(house, [-510, 0], failed) == 1  # 0 is not in the negative
    assert game_winner(house, [-600, -700], failed) is None  # both out, both negative
    made = HandResult(g.bid_index["7H"], 0, True, (7, 3), (200, 30), True, (0, 2))
    assert game_winner(house, [500, -510], made) == 0  # the target first, as always
    # a played hand decides it: from -1100 and -700 side 0 is out after any hand and side 1
    # still below 0 (a hand moves a score by 520 at most), so G's game is over, the house's not
    for rules, over in ((g, True), (house, False)):
        for seed in range(3):
            match = Match(rules, Random(seed), dealer=0)
            match.scores[:] = [-1100, -700]
            match.hand.scores = list(match.scores)
            match.hand.playout(Random(seed), [])
            match.finish_hand()
            assert (match.winner is not None) is over, (rules.id, seed, match.scores)
            assert match.scores[0] <= -500 and match.scores[1] < 0


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


def _calls(rules: Rules, *codes: str) -> object:
    """A hand (dealer 0, seed 1) after ``codes`` were called in turn."""
    from random import Random

    from fivehundred.runtime.engine.hand import HandState

    state = HandState.new(rules, 0, Random(1))
    for code in codes:
        state.apply(rules.PASS if code == "pass" else rules.bid_action(code))
    return state


def _bids(rules: Rules, state: object) -> list[str]:
    return [rules.bid_codes[a - rules.BID] for a in state.legal_actions() if a != rules.PASS]  # type: ignore[attr-defined]


def test_ladder_by_value_ranks_the_original_schedule_by_value_ties_by_tricks() -> None:
    """auction.ladder.order value (the United States Playing Card Company's original schedule,
    before the 1906 Avondale schedule): the suit bids rank by value, so six hearts (100) sits
    above seven spades (80); of bids worth as much the one of more tricks ranks higher (6D, 7S
    at 80; 6NT, 7C, 8S at 120), the choice written in the registry and the house file. Special
    bids keep their place (MIS above 9C, OMIS above 10H)."""
    r = Rules.builtin("original-schedule")
    assert r.auction["ranking"] == "value"
    suit = [i for i in range(r.n_bids) if r.bid_kind[i] == "suit"]
    keys = [(r.bid_value[i], r.bid_level[i], r.bid_strain[i]) for i in suit]
    assert keys == sorted(keys) and len(suit) == 25
    at = r.bid_index
    assert at["6D"] < at["7S"] < at["6H"] < at["6NT"] < at["7C"] < at["8S"] < at["7D"]
    assert r.bid_codes[at["9C"] + 1] == "MIS" and r.bid_codes[at["10H"] + 1] == "OMIS"
    assert r.bid_codes[-1] == "10NT" and r.bid_value[at["10S"]] == 200
    # the public API's action ids are ladder places (OpenSpiel's too): 6H's id above 7S's
    import fivehundred

    api = fivehundred.load("original-schedule")
    ids = {name: a for a, name in enumerate(api.action_names)}
    assert api.bids == r.bid_codes
    assert ids["6D"] < ids["7S"] < ids["6H"] and ids["6H"] == r.bid_action("6H")
    # the level order of every other variant is untouched (G, P)
    g = Rules.builtin("american")
    assert g.auction["ranking"] == "level" and g.bid_codes[:6] == (
        "6S",
        "6C",
        "6D",
        "6H",
        "6NT",
        "7S",
    )


def _original_rounds(tmp_path: Path) -> Path:
    """A rule file: the original schedule's ladder ranked by value, in a rounds auction with no
    inkles."""
    spec = tmp_path / "rounds.yaml"
    spec.write_text(
        "extends: original-schedule\nid: original-rounds\n"
        "auction: {procedure: rounds, inkles: null}\n",
        encoding="utf-8",
    )
    return spec


def test_ladder_by_value_overcalls_by_value(tmp_path: Path) -> None:
    """auction.higher with the ladder ranked by value: six hearts (100) overcalls seven spades
    (80), seven no trumps (240) ten spades (200); six diamonds (80) cannot overcall seven
    spades (80, more tricks: the tie goes to the bid of more tricks), and the refusal names
    the rule. A rounds auction (no inkles) on the original schedule's house file."""
    from fivehundred.runtime.loading import load_rules

    r = load_rules(_original_rounds(tmp_path))
    state = _calls(r, "7S")
    legal = _bids(r, state)
    assert "6H" in legal and "6D" not in legal and "6C" not in legal
    why = state.explain_illegal(r.bid_action("6D"))  # type: ignore[attr-defined]
    assert why.clause == "auction.higher"
    state = _calls(r, "7S", "6H", "10S")
    assert "7NT" in _bids(r, state) and "7H" not in _bids(r, state)  # 7H 200 = 10S 200: tie
    # American inkles (T) on the original schedule: the second bidder's 6H inkle outranks 7S
    a = Rules.builtin("original-schedule")
    state = _calls(a, "7S")
    assert "6H" in _bids(a, state) and "6D" not in _bids(a, state)


def test_ladder_by_value_counts_a_bid_of_fewer_tricks_over_more(tmp_path: Path) -> None:
    """The balance study's clause count for auction.ladder.order value: an auction in which
    a bid of fewer tricks overcalled one of more tricks (7S then 6H) counts
    auction.higher/by-value; a level ladder never can (the key is not listed for it)."""
    from fivehundred.runtime.loading import load_rules
    from fivehundred.runtime.studies.reached import event_applies, hand_events

    r = load_rules(_original_rounds(tmp_path))
    state = _calls(r, "7S", "6H", "pass", "pass", "pass")
    state.playout(__import__("random").Random(2), [])  # type: ignore[attr-defined]
    assert "auction.higher/by-value" in hand_events(state)  # type: ignore[arg-type]
    state = _calls(r, "6H", "7H", "pass", "pass", "pass")
    state.playout(__import__("random").Random(2), [])  # type: ignore[attr-defined]
    assert "auction.higher/by-value" not in hand_events(state)  # type: ignore[arg-type]
    assert event_applies(r, "auction.higher/by-value")
    assert not event_applies(Rules.builtin("american"), "auction.higher/by-value")
    # the committed study of the house variant counts it, and its book shows it under the rule
    summary = (ROOT / "generated/balance/original-schedule.json").read_text(encoding="utf-8")
    assert '"auction.higher/by-value"' in summary
    book = (ROOT / "generated/docs/en/original-schedule.md").read_text(encoding="utf-8")
    plays = book[book.index("## How this variant plays") :]
    assert "| [Each bid higher](#auction.higher)" in plays


def _threshold_and_cap() -> tuple[Rules, Rules]:
    import copy

    threshold = Rules.builtin("opponents-over-400")
    tables = copy.deepcopy(threshold.tables)
    tables["scoring"]["freeze"] = "cap"
    return threshold, Rules(tables)


def test_opponents_threshold_over_400_not_a_cap() -> None:
    """score.freeze with scoring.freeze threshold (the house rule "no trick points for a
    defending side over 400", issue 17 §4): a side at 380 taking five tricks as opponents
    reaches 430, a side at 410 gets nothing; with the cap (G, T's 490; the default) the side
    at 380 stops at 400. A side at exactly 400 is not over it and still scores. Both are
    score_hand's, so the hand, the game and the studies see the same points."""
    from fivehundred.runtime.engine.scoring import score_hand

    threshold, cap = _threshold_and_cap()
    assert (threshold.scoring["freeze"], threshold.opponents_freeze_at) == ("threshold", 400)
    contract = threshold.bid_index["7H"]  # seats 0 and 2 bid 7H and take 5: failed
    won = [3, 3, 2, 2]

    def points(rules: Rules, before: int) -> tuple[tuple[int, ...], frozenset[str]]:
        s = score_hand(rules, contract, 0b0101, won, [0, before])
        return s.points, s.clauses & {"score.freeze"}

    assert points(threshold, 380) == ((-200, 50), frozenset())  # 380 + 50 = 430
    assert points(cap, 380) == ((-200, 20), frozenset({"score.freeze"}))  # stops at 400
    assert points(threshold, 410) == ((-200, 0), frozenset({"score.freeze"}))
    assert points(cap, 410) == ((-200, 0), frozenset({"score.freeze"}))
    assert points(threshold, 400) == ((-200, 50), frozenset())
    assert points(cap, 400)[0] == (-200, 0)
    assert Rules.builtin("australian").scoring["freeze"] == "cap"  # the default


def test_opponents_threshold_in_a_played_hand_and_its_vectors() -> None:
    """score.freeze threshold through the checked engine: a hand played from 410-410 gives
    the defenders no trick points, from 380-380 all of them; the conformance vectors of the
    house variant start hands on both sides of 400 and record the rule acting."""
    import json
    from random import Random

    from fivehundred.runtime.engine.hand import HandState

    r = Rules.builtin("opponents-over-400")
    for before, per_trick in ((410, 0), (380, 10)):
        state = HandState.new(r, 0, Random(3), [before, before])
        state.end_auction_with(1, r.bid_index["7S"])
        state.playout(Random(4), [])
        res = state.result
        assert res is not None and res.contract == r.bid_index["7S"]
        assert res.points[0] == per_trick * res.tricks_by_side[0]
    lines = (ROOT / "generated/conformance/opponents-over-400.jsonl").read_text().splitlines()
    vectors = [json.loads(line) for line in lines[1:]]
    starts = {tuple(v["record"].get("scores", [0, 0])) for v in vectors}
    assert (410, 410) in starts and (380, 380) in starts
    assert any("score.freeze" in v["clauses"] for v in vectors)
