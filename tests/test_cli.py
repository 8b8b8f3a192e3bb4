"""The command line (INTERCHANGE.md "Command line"): every verb, its output and its exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fivehundred.runtime.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIAN = ROOT / "specs" / "variants" / "australian.yaml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_names_australian(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert any(line.split()[0] == "australian" for line in out.splitlines())


def test_show_prints_ladder_scores_and_card_order(capsys):
    code, out, _ = run(capsys, "show", "australian")
    assert code == 0
    for needle in ("7NT", "MIS", "OMIS", "BMIS", "520", "JK JH JD AH"):
        assert needle in out


def test_show_unknown_variant_suggests_and_exits_2(capsys):
    code, _, err = run(capsys, "show", "australain")
    assert code == 2
    assert "did you mean 'australian'" in err
    assert "Traceback" not in err


def test_validate_ok_and_bad(capsys, tmp_path):
    code, out, _ = run(capsys, "validate", str(AUSTRALIAN))
    assert code == 0 and "ok" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: australian\nauction:\n  raise_own_bids: true\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(bad))
    assert code == 2
    line = err.strip().splitlines()[0]
    assert line.startswith(f"{bad}:3:3: ")
    assert "did you mean 'raise_own_bid'" in line


def test_docs_writes_markdown(capsys, tmp_path):
    out_file = tmp_path / "book.md"
    code, _, _ = run(capsys, "docs", "australian", "--lang", "en", "-o", str(out_file))
    assert code == 0
    text = out_file.read_text(encoding="utf-8")
    assert text.startswith("# Australian Five Hundred")
    assert '<a id="play.follow-suit"></a>' in text


def test_docs_of_a_rule_file_outside_specs(capsys, tmp_path):
    house = tmp_path / "club.yaml"
    house.write_text(
        f"extends: {AUSTRALIAN}\nid: club\nname: Our club\nauction:\n  raise_own_bid: false\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "docs", str(house))
    assert code == 0, err
    assert out.startswith("# Our club")


def test_simulate_json_summary_and_records_replay(capsys, tmp_path):
    records = tmp_path / "out.jsonl"
    code, out, _ = run(
        capsys, "simulate", "australian", "--hands", "200", "--seed", "4",
        "--records", str(records), "--json", "--check-all",
    )  # fmt: skip
    assert code == 0
    summary = json.loads(out)
    for key in ("hands", "decisions", "seconds", "hands_per_second", "decisions_per_second"):
        assert key in summary
    assert summary["hands"] == 200
    assert (
        summary["made"] + summary["failed"] + summary["thrown_in"] + summary["all_passed_played"]
        == 200
    )
    assert summary["invariant_checks"] == 200
    lines = records.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 200
    code, out, err = run(capsys, "replay", str(records), "--json")
    assert code == 0, err
    views = [json.loads(line) for line in out.splitlines()]
    assert len(views) == 200
    assert all(v["hand"]["complete"] for v in views)
    assert sum(1 for v in views if v["contract"] is None) == (
        summary["thrown_in"] + summary["all_passed_played"]
    )


def test_simulate_is_deterministic_with_a_seed(capsys):
    runs = []
    for _ in range(2):
        code, out, _ = run(
            capsys, "simulate", "australian", "--hands", "100", "--seed", "9", "--json"
        )
        assert code == 0
        data = json.loads(out)
        runs.append((data["contracts"], data["made"], data["failed"], data["decisions"]))
    assert runs[0] == runs[1]


def test_simulate_games_ends_with_winners(capsys):
    code, out, _ = run(capsys, "simulate", "australian", "--games", "5", "--seed", "2", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 5
    assert sum(data["wins_by_side"]) == 5


def test_simulate_max_hands_reports_cut_off_games(capsys, tmp_path):
    """``--max-hands 2`` on a house file where nobody goes out backwards: random bots rarely
    reach 500 on their own contract in two hands, so games are cut off; they are reported as
    cut off, never as won by anybody or as games without a winner."""
    house = tmp_path / "long.yaml"
    house.write_text("extends: australian\nend:\n  lose_at: null\n", encoding="utf-8")
    code, out, _ = run(
        capsys, "simulate", str(house), "--games", "6", "--seed", "3", "--max-hands", "2", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["max_hands_per_game"] == 2
    assert data["games_cut_off"] > 0
    assert data["games_cut_off"] + sum(data["wins_by_side"]) + data["games_without_winner"] == 6
    assert data["hands"] <= 12
    code, out, _ = run(
        capsys, "simulate", str(house), "--games", "6", "--seed", "3", "--max-hands", "2"
    )
    assert f"games_cut_off: {data['games_cut_off']}" in out
    assert f"note: {data['games_cut_off']} of 6 games had no winner after 2 hands" in out


def test_simulate_max_hands_default_plays_games_out(capsys):
    code, out, _ = run(capsys, "simulate", "australian", "--games", "3", "--seed", "3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["max_hands_per_game"] == 10000 and data["games_cut_off"] == 0
    _, out, _ = run(capsys, "simulate", "australian", "--games", "3", "--seed", "3")
    assert "note:" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "2", "--max-hands", "0"], "must be at least 1, not 0"),
        (["--hands", "2", "--max-hands", "5"], "give it with --games N"),
    ],
)
def test_simulate_max_hands_refuses_nonsense(capsys, argv, message):
    code, _, err = run(capsys, "simulate", "australian", *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_simulate_needs_exactly_one_count(capsys):
    code, _, err = run(capsys, "simulate", "australian")
    assert code == 2 and "exactly one of --hands" in err


def test_replay_illegal_action_names_index_seat_and_rule(capsys, tmp_path):
    record = {
        "variant": "australian",
        "dealer": 0,
        "deal": {
            "hands": [
                ["4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"],
                ["AH", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD"],
                ["KD", "AD", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC"],
                ["KC", "AC", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"],
            ],
            "kitty": ["KS", "AS", "JK"],
        },
        "actions": ["7H", "6S"],
    }
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1
    # a person reads this line: the bid in the English notation of the books (issue 21 §4)
    assert "action 1" in lines[0] and "bid 6♠:" in lines[0] and "seat 2" in lines[0]
    assert "higher than 7♥" in lines[0] and "[auction.higher]" in lines[0]


def test_replay_bad_json_is_one_line(capsys, tmp_path):
    path = tmp_path / "r.json"
    path.write_text("{not json", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "bad JSON" in err


def test_build_check_reports_up_to_date(capsys):
    code, out, _ = run(capsys, "build", "--check")
    assert code == 0, "generated/ is stale: run `fivehundred build` and commit"
    assert "up to date" in out


def test_simulate_checks_a_sample_by_default(capsys):
    """By default the first 64 hands are checked, then every 64th (hands 64, 128, 192): 67 of
    200; --check-all checks all, --no-check none, and the two flags exclude each other."""
    counts = []
    for flags in ([], ["--check-all"], ["--no-check"]):
        code, out, _ = run(
            capsys, "simulate", "australian", "--hands", "200", "--seed", "4", "--json", *flags
        )
        assert code == 0
        counts.append(json.loads(out)["invariant_checks"])
    assert counts == [67, 200, 0]
    with pytest.raises(SystemExit):
        run(capsys, "simulate", "australian", "--hands", "2", "--no-check", "--check-all")


def test_bench_prints_a_ratio(capsys):
    code, out, _ = run(
        capsys,
        "bench",
        "--hands",
        "200",
        "--rounds",
        "1",
        "--json",
        "--variants",
        "two-handed,sans-kitty",
    )
    assert code == 0
    data = json.loads(out)
    assert data["ratio_engine_to_reference"] > 0
    assert data["hands"] == 200
    # Per variant: the generated engine's speed, as ratios to the checked engine and the reference.
    assert list(data["variants"]) == ["two-handed", "sans-kitty"]
    for row in data["variants"].values():
        assert row["generated"] is True
        assert row["ratio_to_checked_engine"] > 0 and row["ratio_to_reference_decisions"] > 0
    code, _, err = run(capsys, "bench", "--hands", "10", "--variants", "australian,nope")
    assert code == 2 and "'nope' is not a built-in variant" in err
    # Beside the ratio: the primitives of search, from positions of play.
    assert data["positions"] == 20
    assert data["clones_per_second"] > 0 and data["playouts_per_second"] > 0


def test_every_verb_has_help(capsys):
    for verb in (
        "validate",
        "build",
        "list",
        "show",
        "docs",
        "replay",
        "simulate",
        "diff",
        "bench",
    ):
        with pytest.raises(SystemExit) as exc:
            main([verb, "--help"])
        assert exc.value.code == 0
        assert "usage" in capsys.readouterr().out


def test_diff_lists_a_changed_rule(capsys, tmp_path):
    house = tmp_path / "club.yaml"
    house.write_text(
        f"extends: {AUSTRALIAN}\nid: club\nauction:\n  raise_own_bid: true\n", encoding="utf-8"
    )
    code, out, _ = run(capsys, "diff", "australian", str(house))
    assert code == 0
    assert "[auction.raise-own-bid]" in out
    code, out, _ = run(capsys, "diff", "australian", "australian")
    assert out == "australian and australian have the same rules.\n"


def test_diff_lists_changed_choice_text(capsys, tmp_path):
    """Same rules, different documented choices: diff says both (issue 10: a choice that only
    describes a rule must not make two variants look identical)."""
    house = tmp_path / "club.yaml"
    house.write_text(
        f"extends: {AUSTRALIAN}\nid: club\nchoices:\n"
        "  - {clause: play.misere-ends, source: project, text: Played out to the end.}\n"
        "  - {clause: deal.first-dealer, remove: true}\n"
        "  - {clause: trump.order, source: G, text: As G.}\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "diff", "australian", str(house))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "australian and club have the same rules."
    assert lines[1] == "3 documented choices differ:"
    assert lines[2].startswith('- [deal.first-dealer] choice in australian only: (G) "The first')
    assert lines[3] == '- [trump.order] choice in club only: (G) "As G."'
    assert lines[4].startswith('- [play.misere-ends] choice text: australian (project) "The ')
    assert lines[4].endswith('; club (project) "Played out to the end."')
