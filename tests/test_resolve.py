"""Tests of ``extends`` resolution (fivehundred.generator.resolve)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fivehundred.generator.resolve import (
    MAX_EXTENDS,
    ResolvedSpec,
    builtin_ids,
    keyed_lists,
    load_spec_file,
    merge,
)
from fivehundred.generator.yamlload import Mark, load_yaml
from fivehundred.runtime.engine.errors import Diagnostic, SpecError

BASE = """\
id: australian
name: Australian
players: 4
deck:
  jokers: [JK]
  suits:
    S: [5, 6, 7]
    H: [4, 5, 6]
auction:
  raise_own_bid: false
  ladder:
    special:
      - {name: misere, value: 250}
scoring:
  target: 500
"""


@pytest.fixture()
def builtin(tmp_path: Path) -> Path:
    directory = tmp_path / "builtin"
    directory.mkdir()
    (directory / "australian.yaml").write_text(BASE)
    (directory / "american.yaml").write_text("id: american\nplayers: 4\n")
    return directory


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def error_of(path: Path, builtin: Path) -> Diagnostic:
    with pytest.raises(SpecError) as info:
        load_spec_file(path, builtin)
    assert len(info.value.diagnostics) == 1, info.value.diagnostics
    return info.value.diagnostics[0]


def test_file_without_extends(tmp_path: Path, builtin: Path) -> None:
    path = write(tmp_path / "solo.yaml", "id: solo\nplayers: 3\n")
    spec = load_spec_file(path, builtin)
    assert isinstance(spec, ResolvedSpec)
    assert spec.data == {"id": "solo", "players": 3}
    assert spec.chain == (path,)
    assert spec.base_data is None
    assert spec.marks.value_mark(("players",)) == Mark(str(path), 2, 10)


def test_merge_semantics(tmp_path: Path, builtin: Path) -> None:
    child = write(
        tmp_path / "mine.yaml",
        "extends: australian\n"
        "name: Mine\n"  # scalar replaces
        "deck:\n"
        "  jokers: []\n"  # list replaces
        "  suits:\n"
        "    S: [8, 9]\n"  # nested mapping merges, list replaces
        "auction:\n"
        "  ladder:\n"
        "    special:\n"  # replaced entirely: the author says so
        "      replace:\n"
        "        - {name: open, value: 500}\n"
        "scoring: null\n"  # null replaces with null
        "extra: {a: 1}\n",  # new key added
    )
    spec = load_spec_file(child, builtin)
    assert spec.data == {
        "id": "mine",
        "name": "Mine",
        "players": 4,
        "deck": {"jokers": [], "suits": {"S": [8, 9], "H": [4, 5, 6]}},
        "auction": {
            "raise_own_bid": False,
            "ladder": {"special": [{"name": "open", "value": 500}]},
        },
        "scoring": None,
        "extra": {"a": 1},
    }
    assert "extends" not in spec.data
    assert list(spec.data)[:3] == ["id", "name", "players"]  # base order, id first
    assert spec.chain == (child, builtin / "australian.yaml")
    assert spec.base_data is not None
    assert spec.base_data["id"] == "australian"
    assert spec.base_data["auction"]["ladder"]["special"] == [{"name": "misere", "value": 250}]
    assert spec.base_data["scoring"] == {"target": 500}


def test_merge_result_shares_nothing_with_base(tmp_path: Path, builtin: Path) -> None:
    child = write(tmp_path / "c.yaml", "extends: australian\nplayers: 5\n")
    spec = load_spec_file(child, builtin)
    assert spec.base_data is not None
    spec.data["deck"]["suits"]["S"].append(99)
    assert spec.base_data["deck"]["suits"]["S"] == [5, 6, 7]


def test_marks_point_into_the_file_a_value_came_from(tmp_path: Path, builtin: Path) -> None:
    child = write(
        tmp_path / "c.yaml",
        "extends: australian\ndeck:\n  suits:\n    S: [8, 9]\nauction:\n  raise_own_bid: true\n",
    )
    spec = load_spec_file(child, builtin)
    base_file = str(builtin / "australian.yaml")
    marks = spec.marks
    # inherited values point into the base file
    assert marks.value_mark(("players",)) == Mark(base_file, 3, 10)
    assert marks.key_mark(("players",)) == Mark(base_file, 3, 1)
    assert marks.value_mark(("deck", "suits", "H", 2)) == Mark(base_file, 8, 15)
    assert marks.value_mark(("auction", "ladder", "special", 0, "value")) == Mark(base_file, 13, 31)
    # the child's own values point into the child
    assert marks.value_mark(("deck", "suits", "S", 1)) == Mark(str(child), 4, 12)
    assert marks.value_mark(("auction", "raise_own_bid")) == Mark(str(child), 6, 18)
    # a merged mapping is marked where the child wrote it
    assert marks.key_mark(("deck",)) == Mark(str(child), 2, 1)
    # replaced base content leaves no stale marks behind
    assert not marks.has(("deck", "suits", "S", 2))
    # the derived id falls back to the child's document
    assert marks.value_mark(("id",)).file == str(child)


def test_id_not_inherited(tmp_path: Path, builtin: Path) -> None:
    spec = load_spec_file(write(tmp_path / "my-rules.yaml", "extends: australian\n"), builtin)
    assert spec.data["id"] == "my-rules"
    own = load_spec_file(write(tmp_path / "x.yaml", "id: other\nextends: australian\n"), builtin)
    assert own.data["id"] == "other"
    assert own.marks.value_mark(("id",)) == Mark(str(tmp_path / "x.yaml"), 1, 5)
    solo = load_spec_file(write(tmp_path / "plain.yaml", "players: 4\n"), builtin)
    assert solo.data["id"] == "plain"


def test_extends_relative_file_chain(tmp_path: Path, builtin: Path) -> None:
    write(tmp_path / "rules" / "base.yaml", "extends: american\nplayers: 6\nx: 1\n")
    mid = write(tmp_path / "rules" / "sub" / "mid.yaml", "extends: ../base.yaml\nx: 2\n")
    top = write(tmp_path / "top.yaml", "extends: rules/sub/mid.yaml\ny: 3\n")
    spec = load_spec_file(top, builtin)
    assert spec.data == {"id": "top", "players": 6, "x": 2, "y": 3}
    assert spec.chain == (
        top,
        mid,
        tmp_path / "rules" / "base.yaml",
        builtin / "american.yaml",
    )
    assert spec.base_data == {"id": "mid", "players": 6, "x": 2}
    assert spec.marks.file(("players",)) == str(tmp_path / "rules" / "base.yaml")
    assert spec.marks.file(("x",)) == str(mid)


def test_unknown_builtin_with_suggestion(tmp_path: Path, builtin: Path) -> None:
    child = write(tmp_path / "c.yaml", "name: x\nextends: australain\n")
    assert error_of(child, builtin) == Diagnostic(
        str(child), 2, 10, "unknown variant 'australain' in extends; did you mean 'australian'?"
    )


def test_unknown_builtin_without_suggestion(tmp_path: Path, builtin: Path) -> None:
    child = write(tmp_path / "c.yaml", "extends: zzz\n")
    diag = error_of(child, builtin)
    assert diag.message == (
        "unknown variant 'zzz' in extends; built-in variants are: american, australian"
    )
    assert builtin_ids(builtin) == ["american", "australian"]


def test_missing_base_file(tmp_path: Path, builtin: Path) -> None:
    child = write(tmp_path / "c.yaml", "extends: gone.yaml\n")
    diag = error_of(child, builtin)
    assert (diag.file, diag.line, diag.col) == (str(child), 1, 10)
    assert diag.message.startswith("base file not found: 'gone.yaml'")


def test_missing_top_file(tmp_path: Path, builtin: Path) -> None:
    diag = error_of(tmp_path / "nope.yaml", builtin)
    assert diag == Diagnostic(str(tmp_path / "nope.yaml"), 1, 1, "file not found")


def test_extends_must_be_text(tmp_path: Path, builtin: Path) -> None:
    child = write(tmp_path / "c.yaml", "extends: [a]\n")
    assert "extends must be" in error_of(child, builtin).message


def test_circular_extends(tmp_path: Path, builtin: Path) -> None:
    a = write(tmp_path / "a.yaml", "extends: b.yaml\n")
    b = write(tmp_path / "b.yaml", "x: 1\nextends: a.yaml\n")
    assert error_of(a, builtin) == Diagnostic(
        str(b), 2, 10, "circular extends: a.yaml -> b.yaml -> a.yaml"
    )
    me = write(tmp_path / "me.yaml", "extends: ./me.yaml\n")
    assert error_of(me, builtin).message == "circular extends: me.yaml -> me.yaml"


def test_chain_too_deep(tmp_path: Path, builtin: Path) -> None:
    for i in range(MAX_EXTENDS + 1):
        write(tmp_path / f"f{i}.yaml", f"extends: f{i + 1}.yaml\n")
    write(tmp_path / f"f{MAX_EXTENDS + 1}.yaml", "players: 4\n")
    diag = error_of(tmp_path / "f0.yaml", builtin)
    assert diag.message.startswith(f"extends chain deeper than {MAX_EXTENDS}: f0.yaml -> f1.yaml")
    assert diag.file == str(tmp_path / f"f{MAX_EXTENDS}.yaml")
    # exactly MAX_EXTENDS links is fine
    spec = load_spec_file(tmp_path / "f1.yaml", builtin)
    assert len(spec.chain) == MAX_EXTENDS + 1


def test_error_in_base_is_reported_in_base(tmp_path: Path, builtin: Path) -> None:
    write(tmp_path / "base.yaml", "a: 1\na: 2\n")
    child = write(tmp_path / "c.yaml", "extends: base.yaml\n")
    diag = error_of(child, builtin)
    assert diag == Diagnostic(
        str(tmp_path / "base.yaml"), 2, 1, "duplicate key 'a' (first at line 1)"
    )


def test_merge_function_directly() -> None:
    base, bmarks = load_yaml("a: {x: 1, y: [1]}\nb: 2\n", "base.yaml")
    child, cmarks = load_yaml("a: {y: [2]}\nc: 3\n", "child.yaml")
    data, marks = merge(base, bmarks, child, cmarks)
    assert data == {"a": {"x": 1, "y": [2]}, "b": 2, "c": 3}
    assert marks.value_mark(("a", "x")).file == "base.yaml"
    assert marks.value_mark(("a", "y", 0)).file == "child.yaml"
    assert marks.value_mark(("b",)).file == "base.yaml"
    assert base == {"a": {"x": 1, "y": [1]}, "b": 2}  # inputs untouched


# -- keyed lists: merged item by item (special bids by bid, choices by clause) -----------------

KEYED_BASE = """\
id: base
auction:
  ladder:
    special:
      - {bid: MIS, kind: misere, value: 250, above: 7NT}
      - {bid: OMIS, kind: misere, value: 500, above: 10D}
      - {bid: BMIS, kind: misere, blind: true, value: 500, above: OMIS}
choices:
  - {clause: auction.misere, source: G, text: Misere after 7.}
  - {clause: score.freeze, source: G, text: Frozen at 490.}
"""


@pytest.fixture()
def keyed_base(tmp_path: Path) -> Path:
    return write(tmp_path / "base.yaml", KEYED_BASE)


def _specials(spec: ResolvedSpec) -> list[dict]:
    return spec.data["auction"]["ladder"]["special"]


def test_keyed_lists_come_from_the_schema() -> None:
    assert keyed_lists() == {("auction", "ladder", "special"): "bid", ("choices",): "clause"}


def test_special_bids_merge_by_bid(tmp_path: Path, keyed_base: Path, builtin: Path) -> None:
    """Changing MIS's value keeps OMIS and BMIS (the starter-file trap of issue 10)."""
    child = write(
        tmp_path / "c.yaml",
        "extends: base.yaml\n"
        "auction:\n"
        "  ladder:\n"
        "    special:\n"
        "      - {bid: MIS, value: 230}\n"
        "      - {bid: DMIS, kind: misere, value: 600, above: BMIS}\n",
    )
    spec = load_spec_file(child, builtin)
    specials = _specials(spec)
    assert [s["bid"] for s in specials] == ["MIS", "OMIS", "BMIS", "DMIS"]
    assert specials[0] == {"bid": "MIS", "kind": "misere", "value": 230, "above": "7NT"}
    # Marks: the overriding value in the child, the inherited keys and items in the base.
    marks, base_file = spec.marks, str(keyed_base)
    assert marks.value_mark(("auction", "ladder", "special", 0, "value")) == Mark(str(child), 5, 27)
    assert marks.value_mark(("auction", "ladder", "special", 0, "above")).file == base_file
    assert marks.value_mark(("auction", "ladder", "special", 1, "value")) == Mark(base_file, 6, 42)
    assert marks.value_mark(("auction", "ladder", "special", 3, "above")) == Mark(str(child), 6, 54)
    notes = {(n.action, n.key): n for n in spec.notes if n.path == ("auction", "ladder", "special")}
    assert set(notes) == {
        ("overridden", "MIS"),
        ("inherited", "OMIS"),
        ("inherited", "BMIS"),
        ("added", "DMIS"),
    }
    assert notes["overridden", "MIS"].detail == "value"
    assert str(notes["inherited", "OMIS"]).startswith(
        f"{base_file}:6:9: auction.ladder.special[OMIS]"
    )


def test_choices_merge_by_clause(tmp_path: Path, keyed_base: Path, builtin: Path) -> None:
    """Adding one choice keeps the base's; giving one clause's text replaces just that text."""
    child = write(
        tmp_path / "c.yaml",
        "extends: base.yaml\n"
        "choices:\n"
        "  - {clause: score.freeze, text: Frozen at 480.}\n"
        "  - {clause: deal.first-dealer, source: project, text: At random.}\n",
    )
    spec = load_spec_file(child, builtin)
    assert spec.data["choices"] == [
        {"clause": "auction.misere", "source": "G", "text": "Misere after 7."},
        {"clause": "score.freeze", "source": "G", "text": "Frozen at 480."},
        {"clause": "deal.first-dealer", "source": "project", "text": "At random."},
    ]
    assert spec.marks.file(("choices", 0, "text")) == str(keyed_base)
    assert spec.marks.file(("choices", 1, "text")) == str(child)
    assert spec.marks.file(("choices", 1, "source")) == str(keyed_base)


def test_keyed_item_removed_explicitly(tmp_path: Path, keyed_base: Path, builtin: Path) -> None:
    child = write(
        tmp_path / "c.yaml",
        "extends: base.yaml\n"
        "auction:\n"
        "  ladder:\n"
        "    special:\n"
        "      - {bid: BMIS, remove: true}\n"
        "choices:\n"
        "  - clause: auction.misere\n"
        "    remove: true\n",
    )
    spec = load_spec_file(child, builtin)
    assert [s["bid"] for s in _specials(spec)] == ["MIS", "OMIS"]
    assert [c["clause"] for c in spec.data["choices"]] == ["score.freeze"]
    removed = [(n.key, n.mark.line) for n in spec.notes if n.action == "removed"]
    assert removed == [("BMIS", 5), ("auction.misere", 7)]
    # Later items keep their own file's marks at their new index.
    assert spec.marks.value_mark(("choices", 0, "text")) == Mark(str(keyed_base), 10, 45)


def test_whole_list_replaced_only_when_said(
    tmp_path: Path, keyed_base: Path, builtin: Path
) -> None:
    child = write(
        tmp_path / "c.yaml",
        "extends: base.yaml\n"
        "auction:\n"
        "  ladder:\n"
        "    special:\n"
        "      replace:\n"
        "        - {bid: MIS, kind: misere, value: 210, above: 7NT}\n"
        "choices: []\n",
    )
    spec = load_spec_file(child, builtin)
    assert _specials(spec) == [{"bid": "MIS", "kind": "misere", "value": 210, "above": "7NT"}]
    assert spec.data["choices"] == []  # an empty list can only mean "none"
    assert spec.marks.value_mark(("auction", "ladder", "special", 0, "value")) == Mark(
        str(child), 6, 43
    )
    assert {(n.action, n.path) for n in spec.notes if n.action == "replaced"} == {
        ("replaced", ("auction", "ladder", "special")),
        ("replaced", ("choices",)),
    }


@pytest.mark.parametrize(
    ("body", "line", "col", "words"),
    [
        (
            "    special:\n      - {bid: BMSI, remove: true}\n",
            5,
            15,
            ["nothing to remove", "base has no special bid 'BMSI'", "did you mean 'BMIS'?"],
        ),
        (
            "    special:\n      - {bid: BMIS, remove: true, value: 3}\n",
            5,
            29,
            ["names only its bid", "drop value"],
        ),
        ("    special:\n      - {bid: BMIS, remove: false}\n", 5, 29, ["takes only 'true'"]),
        (
            "    special:\n      - {bid: MIS, value: 1}\n      - {bid: MIS, value: 2}\n",
            6,
            15,
            ["special bid 'MIS' is given twice", "first at line 5"],
        ),
        (
            "    special:\n      replace:\n        - {bid: MIS, remove: true}\n",
            6,
            30,
            ["nothing to remove here", "'replace:' gives the whole list"],
        ),
        (
            "    strains:\n      replace: [S, H]\n",
            5,
            16,
            ["'replace:' is for lists merged item by item", "replaced as a whole anyway"],
        ),
    ],
)
def test_misused_remove_and_replace_are_reported(
    tmp_path: Path,
    keyed_base: Path,
    builtin: Path,
    body: str,
    line: int,
    col: int,
    words: list[str],
) -> None:
    base = KEYED_BASE.replace("  ladder:\n", "  ladder:\n    strains: [S, C, D, H, NT]\n")
    write(keyed_base, base)
    child = write(tmp_path / "c.yaml", "extends: base.yaml\nauction:\n  ladder:\n" + body)
    diag = error_of(child, builtin)
    assert (diag.file, diag.line, diag.col) == (str(child), line, col), diag
    for w in words:
        assert w in diag.message, diag.message


def test_remove_and_replace_need_a_base(tmp_path: Path, builtin: Path) -> None:
    solo = write(tmp_path / "solo.yaml", "choices:\n  - {clause: score.freeze, remove: true}\n")
    diag = error_of(solo, builtin)
    assert (diag.line, diag.col) == (2, 28) and "this file extends nothing" in diag.message
    solo = write(tmp_path / "solo.yaml", "choices:\n  replace: []\n")
    diag = error_of(solo, builtin)
    assert (diag.line, diag.col) == (2, 3) and "this file extends nothing" in diag.message


def test_scalar_overrides_are_noted(tmp_path: Path, builtin: Path) -> None:
    child = write(tmp_path / "c.yaml", "extends: australian\nplayers: 5\nname: Australian\n")
    spec = load_spec_file(child, builtin)
    assert [str(n) for n in spec.notes] == [f"{child}:2:1: players: overridden (was 4)"]
