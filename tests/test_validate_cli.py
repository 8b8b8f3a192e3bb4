"""Rule authors at the command line: `fivehundred new`, `fivehundred validate`, pre-commit.

`validate` prints every problem at once, one line each as ``file:line:col: message [clause]``,
and exits 2; `new` writes a commented starter file that validates as it is.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
import yaml

from fivehundred.generator.newvariant import COMMON_OPTIONS, schema_reference, yaml_scalar
from fivehundred.generator.options import with_defaults
from fivehundred.generator.pipeline import (
    SCHEMA_FILE,
    VARIANTS_DIR,
    builtin_ids,
    compile_spec,
    find_spec,
)
from fivehundred.generator.resolve import load_spec_file
from fivehundred.runtime.cli.main import main
from fivehundred.runtime.engine.tableformat import OPTIONS

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<message>.+?)(?: \[(?P<clause>[a-z.-]+)\])?$"
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, list[str]]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err.splitlines()


def parse(line: str) -> dict[str, str]:
    match = LINE.match(line)
    assert match, f"not file:line:col: message: {line!r}"
    return match.groupdict()


# -- validate ------------------------------------------------------------------------------------

BROKEN = """\
extends: australian
name: Our club
teams: [[0, 2], [1, 3]]
deal:
  kitty: 5
  hand_sise: 10
auction:
  procedure: single-round
  raise_own_bid: yes
  all_pass: throw_in
scoring:
  opponents_freeze_at: 500
end:
  lose_at: 0
"""


def test_validate_reports_every_problem_at_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "our-club.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    code, out, err = run(capsys, "validate", str(path))
    assert code == 2 and out == ""
    found = [parse(line) for line in err]
    where = [(int(f["line"]), int(f["col"])) for f in found]
    assert where == sorted(where), "in file order"
    assert all(f["file"] == str(path) for f in found)
    by_line = {int(f["line"]): f for f in found}
    assert by_line[6]["message"] == "unknown key 'hand_sise' in deal; did you mean 'hand_size'?"
    assert (by_line[6]["col"], by_line[9]["col"], by_line[10]["col"]) == ("3", "18", "13")
    assert "expected true or false, got 'yes'" in by_line[9]["message"]
    assert "did you mean 'throw-in'?" in by_line[10]["message"]
    assert by_line[10]["clause"] == "auction.all-pass"
    assert by_line[12]["clause"] == "score.freeze"
    assert by_line[14]["clause"] == "end.lose"
    clauses = {f["clause"] for f in found if int(f["line"]) == 5}
    assert clauses == {"deck.cards", "deal.packets"}
    assert len(found) == 7, err


def test_validate_many_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("extends: australian\nname: Good\n", encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: australian\nplayers: 5\n", encoding="utf-8")
    code, out, err = run(capsys, "validate", str(good), str(bad), str(tmp_path / "none.yaml"))
    assert code == 2
    assert out.splitlines() == [
        f"{good}: ok (good: 43 cards, 28 bids); extends australian: 1 setting overridden; "
        "special bids: MIS OMIS BMIS inherited; choices: 4 inherited"
    ]
    files = [parse(line)["file"] for line in err]
    assert set(files) == {str(bad), str(tmp_path / "none.yaml")}
    code, out, err = run(capsys, "validate", "--quiet", str(good))
    assert (code, out, err) == (0, "", [])


def test_validate_points_into_the_base_for_inherited_values(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "base.yaml").write_text(
        "extends: australian\nend: {lose_at: 0}\n", encoding="utf-8"
    )
    child = tmp_path / "child.yaml"
    child.write_text("extends: base.yaml\nname: Child\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(child))
    assert code == 2
    (problem,) = [parse(line) for line in err]
    assert problem["file"] == str(tmp_path / "base.yaml")
    assert (problem["line"], problem["col"], problem["clause"]) == ("2", "16", "end.lose")


def test_validate_unknown_extends(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("name: X\nextends: australain\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2
    (problem,) = [parse(line) for line in err]
    assert (problem["line"], problem["col"]) == ("2", "10")
    assert "unknown variant 'australain'" in problem["message"]
    assert "did you mean 'australian'?" in problem["message"]
    path.write_text("extends: ./missing.yaml\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2 and "base file not found" in parse(err[0])["message"]


def test_a_missing_base_path_says_where_it_looked_and_what_was_meant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 17 §5: a missing base path gives the path tried and a suggestion."""
    (tmp_path / "ours.yaml").write_text("extends: australian\nname: Ours\n", encoding="utf-8")
    path = tmp_path / "x.yaml"
    path.write_text("name: X\nextends: our.yaml\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(path))
    message = parse(err[0])["message"]
    assert code == 2 and f"(looked for {tmp_path / 'our.yaml'};" in message
    assert message.endswith("did you mean 'ours.yaml'?")
    path.write_text("name: X\nextends: ../variants/australian.yaml\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(path))
    message = parse(err[0])["message"]
    assert "the built-in variant is named by its id: extends: australian" in message
    assert f"there is no folder {tmp_path.parent / 'variants'}" in message


def validate_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str
) -> tuple[int, Path, list[dict[str, str]]]:
    """`fivehundred validate` of a rule file holding ``text``: exit code, path, problems."""
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "validate", str(path))
    return code, path, [parse(line) for line in err]


def test_a_special_moved_onto_an_inherited_ones_place_is_blamed_at_the_authors_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 17 §5: moving misère onto 10D, where australian.yaml's open misère sits (G: open
    misère above 10 diamonds), is reported at the author's line, naming the inherited bid, with
    no knock-on error about blind misère (placed above open misère) in the base file."""
    code, path, problems = validate_text(
        capsys,
        tmp_path,
        "extends: australian\nname: Moved\nauction:\n  ladder:\n    special:\n"
        "      - {bid: MIS, kind: misere, value: 500, above: 10D}\n",
    )
    assert code == 2 and [p["file"] for p in problems] == [str(path)]
    (problem,) = problems
    assert problem["line"] == "6" and problem["clause"] == "auction.ladder"
    assert problem["message"].startswith(
        "MIS is placed directly above 10D, where the base's OMIS already sits ("
    )
    assert problem["message"].endswith("(- {bid: OMIS, above: MIS})")


def test_a_key_at_the_wrong_level_says_where_it_belongs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 17 §5: `after_bid_of` outside `available:` says where it belongs; an unknown key
    naming a rule the language lacks lists the keys allowed at that place."""
    code, _, problems = validate_text(
        capsys,
        tmp_path,
        "extends: australian\nname: Level\nauction:\n  ladder:\n    special:\n"
        "      - {bid: MIS, kind: misere, value: 250, above: 7NT, after_bid_of: 7}\n"
        "  stack_the_deck: true\n",
    )
    first, second = (p["message"] for p in problems)
    assert code == 2
    assert first.endswith("'after_bid_of' belongs under auction.ladder.special[].available")
    allowed = sorted(o.keys[1] for o in OPTIONS if o.keys[0] == "auction" and len(o.keys) == 2)
    assert second.startswith("unknown key 'stack_the_deck' in auction; the keys allowed here are: ")
    assert set(allowed) <= set(second.split(": ", 1)[1].split(", "))


def test_validate_circular_extends(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("extends: b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("name: B\nextends: c.yaml\n", encoding="utf-8")
    (tmp_path / "c.yaml").write_text("extends: a.yaml\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(tmp_path / "a.yaml"))
    assert code == 2
    (problem,) = [parse(line) for line in err]
    assert problem["file"] == str(tmp_path / "c.yaml")
    assert "circular extends: a.yaml -> b.yaml -> c.yaml -> a.yaml" in problem["message"]
    (tmp_path / "self.yaml").write_text("extends: self.yaml\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(tmp_path / "self.yaml"))
    assert code == 2 and "circular extends" in err[0]


def test_extends_a_builtin_house_variant_by_id(tmp_path: Path) -> None:
    """Built-in variants under specs/variants/house/ are extended by id like the others."""
    nested = [p for p in VARIANTS_DIR.rglob("*.yaml") if p.parent != VARIANTS_DIR]
    if not nested:
        pytest.skip("no nested built-in variant to extend")
    path = tmp_path / "mine.yaml"
    path.write_text(f"extends: {nested[0].stem}\n", encoding="utf-8")
    compile_spec(path)


def test_validate_missing_file_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "validate", "no-such-file.yaml")
    assert code == 2 and err == ["no-such-file.yaml:1:1: no such rule file"]
    with pytest.raises(SystemExit) as info:
        main(["validate", "--help"])
    assert info.value.code == 0


# -- new -----------------------------------------------------------------------------------------


def uncommented(text: str) -> str:
    """The starter file with every option uncommented (the lines after ``name:``)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("name: ")) + 1
    return "\n".join(
        lines[:start] + [line[2:] if line.startswith("# ") else line for line in lines[start:]]
    )


def test_new_writes_a_starter_that_validates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "new", "our-club", "--extends", "australian")
    assert (code, err) == (0, [])
    assert "our-club.yaml" in out
    text = (tmp_path / "our-club.yaml").read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=file:///")
    schema = Path(unquote(urlparse(first.split("$schema=", 1)[1]).path))
    assert schema.read_bytes() == SCHEMA_FILE.read_bytes()
    assert "\nid: our-club\nextends: australian\nname: " in text
    assert "#   raise_own_bid: false" in text and "# teams: 2" in text
    code, out, err = run(capsys, "validate", "our-club.yaml")
    assert (code, err) == (0, []) and "our-club.yaml: ok" in out
    rs = compile_spec(tmp_path / "our-club.yaml")
    base = compile_spec(find_spec("australian"))
    assert (rs.id, rs.extends) == ("our-club", "australian")
    assert {**rs.tables, "variant": 0, "name": 0, "extends": 0} == {
        **base.tables,
        "variant": 0,
        "name": 0,
        "extends": 0,
    }


def test_new_lists_every_common_option_with_a_note(tmp_path: Path) -> None:
    from fivehundred.generator.newvariant import new_variant

    text = new_variant("x", "australian", str(tmp_path / "x.yaml")).read_text(encoding="utf-8")
    # Every option of the registry, and the summary (issue 17: `new` left out some).
    listed = {path for path, _ in COMMON_OPTIONS}
    assert {opt.keys for opt in OPTIONS} | {("summary",)} <= listed
    base = with_defaults(load_spec_file(find_spec("australian"), VARIANTS_DIR).data)
    for path, note in COMMON_OPTIONS:
        parent: Any = base
        for key in path[:-1]:
            parent = parent.get(key) if isinstance(parent, dict) else None
        if not isinstance(parent, dict) or (parent.get(path[-1]) is None and path[-1] == "formula"):
            # under a parent Australian leaves null (inkles), or a score formula it has not
            assert path[-1] in ("bidders", "level", "bonus", "formula"), path
            continue
        assert f"{path[-1]}:" in text and note in text, path
        assert len(note) <= 48, note


@pytest.mark.parametrize("variant", builtin_ids())
def test_new_uncommented_keeps_the_base_rules(tmp_path: Path, variant: str) -> None:
    """Every option shows the base's current value: uncommenting them all changes nothing."""
    from fivehundred.generator.newvariant import new_variant

    base_path = find_spec(variant)
    extends = variant if base_path.parent == VARIANTS_DIR else str(base_path)
    path = new_variant("mine", extends, str(tmp_path / "mine.yaml"))
    full = tmp_path / "full.yaml"
    full.write_text(uncommented(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert yaml.safe_load(full.read_text(encoding="utf-8"))["id"] == "mine"
    base = compile_spec(base_path).tables
    mine = compile_spec(full).tables
    for key in ("variant", "name", "extends"):
        base.pop(key)
        mine.pop(key)
    assert mine == base


def test_new_refuses_to_overwrite(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "our-club.yaml").write_text("mine\n", encoding="utf-8")
    code, out, err = run(capsys, "new", "our-club", "--extends", "australian")
    assert code == 2 and out == ""
    assert err == ["our-club.yaml:1:1: already exists; not overwritten (choose another NAME or -o)"]
    assert (tmp_path / "our-club.yaml").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["our-club.yaml"]


def test_new_with_output_and_a_base_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = tmp_path / "club" / "base.yaml"
    base.parent.mkdir()
    base.write_text("extends: australian\nname: Base\nauction: {raise_own_bid: true}\n")
    out_dir = tmp_path / "club" / "seasons"
    out_dir.mkdir()
    target = out_dir / "winter.yaml"
    code, _, err = run(capsys, "new", "winter", "--extends", str(base), "-o", str(target))
    assert (code, err) == (0, [])
    text = target.read_text(encoding="utf-8")
    assert "\nextends: ../base.yaml\n" in text or '\nextends: "../base.yaml"\n' in text
    assert "#   raise_own_bid: true" in text
    assert compile_spec(target).extends == "base"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["Our Club", "--extends", "australian"], "lower-case letters, digits and hyphens"),
        (["x", "--extends", "australain"], "did you mean 'australian'?"),
        (["x", "--extends", "australian", "-o", "nowhere/x.yaml"], "no such folder"),
        (["x", "--extends", "australian", "-o", "x.txt"], "must end in .yaml"),
    ],
)
def test_new_errors_are_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "new", *argv)
    assert code == 2 and len(err) == 1 and message in err[0], err
    parse(err[0])
    assert list(tmp_path.iterdir()) == []


def test_new_needs_extends(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["new", "x"])
    assert info.value.code == 2
    assert "--extends" in capsys.readouterr().err


def test_schema_reference_inside_and_outside_the_checkout(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    schema = checkout / "specs" / "schema" / "variant.schema.json"
    schema.parent.mkdir(parents=True)
    schema.write_text("{}")
    (checkout / "house").mkdir()
    inside = schema_reference(checkout / "house" / "x.yaml", schema, checkout)
    assert inside == "../specs/schema/variant.schema.json"
    assert (checkout / "house" / inside).resolve() == schema.resolve()
    assert schema_reference(checkout / "x.yaml", schema, checkout) == (
        "specs/schema/variant.schema.json"
    )
    outside = schema_reference(tmp_path / "club" / "x.yaml", schema, checkout)
    assert outside == schema.resolve().as_uri() and outside.startswith("file:///")


def test_new_inside_the_checkout_uses_a_relative_schema_path() -> None:
    from fivehundred.generator.newvariant import schema_reference as ref

    target = ROOT / "specs" / "variants" / "house" / "x.yaml"
    assert ref(target, SCHEMA_FILE, ROOT) == "../../schema/variant.schema.json"


def test_new_with_a_hostile_base_name(tmp_path: Path) -> None:
    from fivehundred.generator.newvariant import new_variant

    hostile = 'Q"\\ \u202e \x00 \u2028 # {{ x }} \U0001f0cf ---'
    base = tmp_path / "base.yaml"
    base.write_text(f"extends: australian\nname: {yaml_scalar(hostile)}\n", encoding="utf-8")
    assert compile_spec(base).name == hostile
    path = new_variant("mine", str(base), str(tmp_path / "mine.yaml"))
    text = path.read_text(encoding="utf-8")
    assert "\u202e" not in text and "\x00" not in text and "\u2028" not in text
    assert compile_spec(path).name == f"mine (house rules on {hostile})"


@pytest.mark.parametrize(
    "value",
    ["no", "on", "Yes", "null", "7NT", "10D", "a: b", "#x", "-", "", "it's", "1e3", "0x1F", "\t"],
)
def test_yaml_scalar_round_trips(value: str) -> None:
    assert yaml.safe_load(f"k: {yaml_scalar(value)}\n")["k"] == value


# -- pre-commit ----------------------------------------------------------------------------------


def test_pre_commit_hook_definition() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = hooks
    assert hook["id"] == "fivehundred-validate"
    assert hook["language"] == "python"
    assert hook["entry"] == "fivehundred validate --quiet"
    assert hook["files"] == r"\.ya?ml$"
    files = re.compile(hook["files"])
    exclude = re.compile(hook["exclude"])
    assert files.search("rules/our-club.yaml") and files.search("x.yml")
    assert not files.search("README.md")
    assert exclude.search(".pre-commit-config.yaml") and not exclude.search("our-club.yaml")


def test_pre_commit_hook_runs_on_a_clubs_files(tmp_path: Path) -> None:
    """Run the hook's entry as pre-commit does: the entry, then the matching staged files."""
    hook = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))[0]
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "good.yaml").write_text("extends: australian\nname: Good\n")
    (tmp_path / "rules" / "bad.yml").write_text("extends: australian\nplayers: 5\n")
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n")
    (tmp_path / "notes.txt").write_text("x\n")
    staged = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    chosen = [
        f for f in staged if re.search(hook["files"], f) and not re.search(hook["exclude"], f)
    ]
    assert chosen == ["rules/bad.yml", "rules/good.yaml"]
    entry = shlex.split(hook["entry"])
    assert entry[0] == "fivehundred"
    command = [sys.executable, "-m", "fivehundred.runtime.cli.main", *entry[1:]]
    proc = subprocess.run(
        [*command, *chosen], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("rules/bad.yml:2:10: ") and "Traceback" not in proc.stderr
    proc = subprocess.run(
        [*command, "rules/good.yaml"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_readme_documents_new_and_pre_commit() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "fivehundred new " in readme and "--extends" in readme
    assert "### Validate on every commit" in readme
    snippet = readme[readme.index("### Validate on every commit") :]
    assert "id: fivehundred-validate" in snippet and ".pre-commit-config.yaml" in snippet


# -- extends: what was merged, stale inherited prose, choices that cite a clause ---------------

CLUB = """\
extends: australian
name: Our club
summary: Our club's game.
auction:
  ladder:
    special:
      - {bid: MIS, value: 230}
      - {bid: BMIS, remove: true}
choices:
  - clause: auction.misere
    source: project
    text: Misere is worth 230 here.
  - {clause: auction.blind-misere, remove: true}
"""


def test_validate_says_what_was_inherited_overridden_removed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    club = tmp_path / "club.yaml"
    club.write_text(CLUB, encoding="utf-8")
    code, out, err = run(capsys, "validate", str(club))
    assert code == 0 and err == []
    assert out.splitlines() == [
        f"{club}: ok (club: 43 cards, 27 bids); extends australian: 2 settings overridden; "
        "special bids: MIS overridden, BMIS removed, OMIS inherited; "
        "choices: 1 added, 1 removed, 3 inherited"
    ]
    code, out, _ = run(capsys, "validate", "--explain", str(club))
    lines = out.splitlines()[1:]
    base = str(VARIANTS_DIR / "australian.yaml")
    assert f"  {club}:7:9: auction.ladder.special[MIS]: overridden (value)" in lines
    assert f"  {club}:8:9: auction.ladder.special[BMIS]: removed" in lines
    assert f"  {base}:55:9: auction.ladder.special[OMIS]: inherited" in lines
    assert f"  {club}:10:5: choices[auction.misere]: added" in lines
    assert any(
        line.startswith(f"  {base}:") and "choices[play.misere-ends]: inherited" in line
        for line in lines
    )
    rs = compile_spec(club)
    assert [b["code"] for b in rs.ladder if b["kind"] != "suit"] == ["MIS", "OMIS"]
    assert [b["value"] for b in rs.ladder if b["code"] == "MIS"] == [230]


def test_stale_inherited_choice_is_warned_and_left_out_of_the_book(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A choice is tied to its clause: inherited while this file changes that clause's rules
    (raise_own_bid) or removes them (no blind misère), it is stale."""
    from fivehundred.generator.docs import render_markdown

    house = tmp_path / "house.yaml"
    house.write_text(
        "extends: australian\nsummary: Ours.\nauction:\n  raise_own_bid: true\n"
        "  ladder:\n    special:\n      - {bid: BMIS, remove: true}\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "validate", str(house))
    assert code == 0 and out.endswith("; 2 warnings\n")
    warned = [parse(line) for line in err]
    assert [(w["line"], w["col"], w["clause"]) for w in warned] == [
        ("1", "10", "auction.blind-misere"),
        ("1", "10", "auction.raise-own-bid"),
    ]
    assert "no longer has" in warned[0]["message"] and "remove: true" in warned[0]["message"]
    assert "explains a rule this file changes" in warned[1]["message"]
    assert all(w["message"].startswith("warning: ") for w in warned)
    rs = compile_spec(house)
    assert [c["clause"] for c in rs.choices] == ["deal.first-dealer", "play.misere-ends"]
    book = render_markdown(rs)
    assert "it is off here" not in book
    # Replacing the text (or removing the choice) silences the warning; the book has the new text.
    house.write_text(
        house.read_text(encoding="utf-8")
        + "choices:\n  - {clause: auction.raise-own-bid, source: project, text: Raising.}\n"
        + "  - {clause: auction.blind-misere, remove: true}\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "validate", str(house))
    assert code == 0 and err == [] and "warning" not in out
    assert "Raising." in render_markdown(compile_spec(house))


def test_stale_inherited_summary_is_warned_and_left_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The summary is tied to every rule: inherited while any rule differs, it is stale."""
    from fivehundred.generator.docs import render_markdown

    house = tmp_path / "house.yaml"
    house.write_text("extends: australian\nauction: {raise_own_bid: true}\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", "-q", str(house))
    assert code == 0
    assert [parse(line)["message"][:40] for line in err] == [
        "warning: the choice for clause 'auction.",
        "warning: the summary (inherited from aus",
    ]
    assert "write your own summary" in err[1] and "auction.raise-own-bid" in err[1]
    rs = compile_spec(house)
    assert rs.summary == ""
    assert "Four players in two partnerships" not in render_markdown(rs)
    # Same rules as the base: the base's summary still describes it, no warning.
    same = tmp_path / "same.yaml"
    same.write_text("extends: australian\nname: Same\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(same))
    assert code == 0 and err == []
    assert compile_spec(same).summary.startswith("Four players in two partnerships")


@pytest.mark.parametrize(
    ("body", "line", "col", "words"),
    [
        (  # a clause the variant does not have (no blind misère any more)
            "auction:\n  ladder:\n    special:\n      - {bid: BMIS, remove: true}\n"
            "choices:\n  - {clause: auction.blind-misere, source: project, text: x}\n",
            8,
            14,
            ["cites clause 'auction.blind-misere'", "does not have", "did you mean"],
        ),
        (  # a rule the engine does not enforce: no score.freeze without a freeze
            "choices:\n  - {clause: score.freeze, source: project,\n"
            "     text: A failed 10 costs double.}\n",
            4,
            14,
            ["cites clause 'score.freeze'", "does not have"],
        ),
    ],
)
def test_choices_cite_a_clause_of_the_variant(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    body: str,
    line: int,
    col: int,
    words: list[str],
) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: australian\nsummary: Ours.\n" + body, encoding="utf-8")
    code, _, err = run(capsys, "validate", str(house))
    assert code == 2
    found = [parse(e) for e in err if "warning" not in e]
    assert len(found) == 1, err
    assert (found[0]["line"], found[0]["col"]) == (str(line), str(col))
    for w in words:
        assert w in found[0]["message"], found[0]


@pytest.mark.parametrize("variant", builtin_ids())
def test_builtin_variants_have_no_warnings(variant: str) -> None:
    from fivehundred.generator.pipeline import check_spec

    checked = check_spec(find_spec(variant))
    assert checked.warnings == ()


# -- schema and command line agree (issue 10) --------------------------------------------------


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (
            "      - {bid: mis, kind: misere, value: 250, above: 7NT}\n",
            "'mis' is not a special bid code",
        ),
        ("      - {bid: MIS, value: 250, above: 7nt}\n", "'7nt' is not a bid code"),
    ],
)
def test_malformed_bid_codes_in_plain_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str, words: str
) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "extends: australian\nauction:\n  ladder:\n    special:\n      replace:\n  " + line,
        encoding="utf-8",
    )
    code, _, err = run(capsys, "validate", str(house))
    assert code == 2
    messages = [parse(e)["message"] for e in err]
    assert any(m.startswith(words) and "capital" in m for m in messages), messages
    assert not any("pattern" in m or "^[" in m for m in messages), messages


def test_yml_is_accepted_wherever_yaml_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "new", "club", "--extends", "australian", "-o", "club.yml")
    assert code == 0, err
    (tmp_path / "ours.yml").write_text("extends: club.yml\nname: Ours\n", encoding="utf-8")
    code, out, err = run(capsys, "validate", "club.yml", "ours.yml")
    assert code == 0 and err == [], err
    assert "ours.yml: ok (ours:" in out and "extends club:" in out
    code, _, err = run(capsys, "new", "more", "--extends", "ours.yml", "-o", "more.yml")
    assert code == 0, err
    schema = yaml.safe_load(SCHEMA_FILE.read_text(encoding="utf-8"))
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema)
    assert not list(validator.iter_errors({"extends": "../house/ours.yml"}))


def test_missing_id_means_the_file_name_for_schema_and_cli(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """No `id:` line: the schema does not ask for one and the CLI takes the file name; a file
    name that is no id is reported once, in plain words, with the line to add."""
    from jsonschema import Draft202012Validator

    schema = yaml.safe_load(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert not list(Draft202012Validator(schema).iter_errors({"extends": "australian"}))
    good = tmp_path / "our-club.yaml"
    good.write_text("extends: australian\nname: Ours\n", encoding="utf-8")
    assert compile_spec(good).id == "our-club"
    bad = tmp_path / "Our Club.yaml"
    bad.write_text("extends: australian\nname: Ours\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(bad))
    assert code == 2 and len(err) == 1
    found = parse(err[0])
    assert (found["line"], found["col"]) == ("1", "1")
    assert "file name gives the variant id 'Our Club'" in found["message"]
    assert "id: our-club" in found["message"] and "pattern" not in found["message"]


def test_starter_file_uncommenting_one_special_bid_keeps_the_others(tmp_path: Path) -> None:
    """The trap of issue 10: uncommenting `special:` and the MIS line of a starter file to
    change MIS's value kept only MIS. Special bids now merge by bid: OMIS and BMIS stay."""
    from fivehundred.generator.newvariant import new_variant

    path = new_variant("club", "australian", str(tmp_path / "club.yaml"))
    lines = path.read_text(encoding="utf-8").splitlines()
    wanted = ("# auction:", "#   ladder:", "#     special:", "#       - {bid: MIS,")
    out = []
    for line in lines:
        if line.startswith(wanted):
            line = line[2:].split("  #")[0].rstrip()
            line = line.replace("value: 250", "value: 230")
        out.append(line)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    rs = compile_spec(path)
    specials = {b["code"]: b["value"] for b in rs.ladder if b["kind"] != "suit"}
    assert specials == {"MIS": 230, "OMIS": 500, "BMIS": 500}


def test_five_handed_calling_a_card_no_longer_says_choose_a_partner(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 10's example: a five-handed house file calling a card inherited "the contractor
    chooses one partner" (summary and seats.partner choice). Both are stale: warned, and the
    book leaves them out."""
    from fivehundred.generator.docs import render_markdown

    house = tmp_path / "call.yaml"
    house.write_text("extends: five-handed\nname: Call\npartner:\n  call: card\n", encoding="utf-8")
    code, out, err = run(capsys, "validate", str(house))
    assert code == 0 and out.rstrip().endswith("; 2 warnings")
    assert [parse(e)["clause"] for e in err] == ["seats.partner", None]
    book = render_markdown(compile_spec(house))
    assert "chooses one partner" not in book and "chooses one" not in book


def test_docs_of_a_file_with_stale_prose_says_so_on_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: australian\nauction: {raise_own_bid: true}\n", encoding="utf-8")
    code, out, err = run(capsys, "docs", str(house))
    assert code == 0 and "# " in out
    assert len(err) == 2 and all(": warning: " in e for e in err)


def test_a_clause_typo_gets_the_suggestion_without_the_list_of_every_clause(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 17 §5: a choice citing `score.freze` printed all 51 clause ids before "did you
    mean"; a long list now gives the suggestion alone (a short one is still listed)."""
    path = tmp_path / "typo.yaml"
    path.write_text(
        "id: typo\nextends: australian\nauction:\n  all_pass: throw_in\nchoices:\n"
        "  - {clause: score.freze, source: project, text: A typo.}\n",
        encoding="utf-8",
    )
    from fivehundred.generator.clauses import CLAUSE_IDS

    code, _, err = run(capsys, "validate", str(path))
    assert code == 2
    many = len(CLAUSE_IDS)
    assert any(
        f"'score.freze' is not one of the {many} allowed values; did you mean 'score.freeze'?" in e
        and "deck.cards" not in e
        for e in err
    ), err
    assert any(
        "is not one of: throw-in, redeal, no-trumps; did you mean 'throw-in'?" in e for e in err
    )


def test_a_second_special_bid_with_the_same_meaning_is_refused_at_the_author_s_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 17 §5 (auction.misere): a BLIND beside G's BMIS (both a blind misère, any time)
    was silently accepted; it is one bid under two codes, reported at the author's own line."""
    path = tmp_path / "blind.yaml"
    path.write_text(
        "id: blind\nextends: australian\nauction:\n  ladder:\n    special:\n"
        "      - {bid: BLIND, value: 1000, above: 10H, blind: true}\n",
        encoding="utf-8",
    )
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2
    assert any(
        e.startswith(f"{path}:6:")
        and "special bid BLIND means the same contract as BMIS" in e
        and e.endswith("[auction.misere]")
        for e in err
    ), err
