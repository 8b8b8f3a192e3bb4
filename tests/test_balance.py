"""Balance studies (``fivehundred balance``): reproducibility, figures, clause counts, reports.

The figures must not depend on how the games are spread over processes or machines, the two
sides of a comparison must see the same deals, the clause counts must agree with the engine's
own legality, and nothing a careless user types may give a traceback or overwrite a file.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

from fivehundred.generated.rulesets import VARIANTS
from fivehundred.generator import balancebook
from fivehundred.generator.docs import render_html, render_markdown
from fivehundred.generator.pipeline import compile_spec, find_spec
from fivehundred.runtime.bots.registry import RandomBot
from fivehundred.runtime.cli.balancecli import progress_for
from fivehundred.runtime.cli.main import main
from fivehundred.runtime.engine.codes import NT, SUITLESS
from fivehundred.runtime.engine.game import Match
from fivehundred.runtime.engine.hand import PLAY, HandState
from fivehundred.runtime.loading import load_rules
from fivehundred.runtime.studies import balance as balance_mod
from fivehundred.runtime.studies.balance import (
    ENDINGS,
    BalanceError,
    Study,
    Tally,
    compare,
    figures,
    game_seeds,
    play_games,
    rules_fingerprint,
    run_study,
)
from fivehundred.runtime.studies.balancereport import OWN_FILES, report_json, write_report
from fivehundred.runtime.studies.reached import EVENTS, hand_events
from fivehundred.runtime.studies.stats import (
    Mean,
    Proportion,
    compare_means,
    compare_proportions,
    t_cdf,
    t_quantile,
)

ROOT = Path(__file__).resolve().parent.parent


def _figures_json(studies: list[Study]) -> dict[str, Any]:
    return report_json(studies, timing=False)


# -- reproducibility ---------------------------------------------------------------------------


def test_one_worker_and_two_workers_give_identical_results() -> None:
    """--workers: the same seed gives the same figures on 1 and on 2 processes (default bot)."""
    rules = [load_rules("australian"), load_rules("sans-kitty")]
    one = run_study(rules, 6, seed=7, workers=1)
    two = run_study(rules, 6, seed=7, workers=2)
    assert _figures_json(one) == _figures_json(two)
    assert one[0].tally == two[0].tally and one[1].tally == two[1].tally


def test_chunking_and_worker_count_do_not_change_the_tally() -> None:
    rules = [load_rules("three-handed")]
    base = run_study(rules, 40, seed=3, bots=("random",), workers=1)[0].tally
    assert run_study(rules, 40, seed=3, bots=("random",), workers=3)[0].tally == base
    # merging chunk tallies in any order is exact (integers only)
    tables = rules[0].tables
    parts = [play_games(tables, ("random",), 3, a, b, 200) for a, b in ((20, 40), (0, 7), (7, 20))]
    merged = Tally()
    for part in parts:
        merged.merge(part)
    assert merged == base


def test_a_different_seed_gives_different_games() -> None:
    rules = [load_rules("australian")]
    a = run_study(rules, 5, seed=1, bots=("random",), workers=1)[0].tally
    b = run_study(rules, 5, seed=2, bots=("random",), workers=1)[0].tally
    assert a != b


def test_game_seeds_are_stable_across_processes_and_releases() -> None:
    """Per-game seeds come from BLAKE2b of (master seed, game), never from Python's salted
    hash(): committed summaries stay reproducible. Pinned so a change is a conscious one."""
    assert game_seeds(1, 0) == game_seeds(1, 0)
    assert game_seeds(1, 0) != game_seeds(1, 1) != game_seeds(2, 0)
    raw = hashlib.blake2b(b"fivehundred-balance/1/0", digest_size=16).digest()
    assert game_seeds(1, 0) == (int.from_bytes(raw[:8], "big"), int.from_bytes(raw[8:], "big"))


def test_both_sides_of_a_comparison_see_the_same_deals() -> None:
    """--against: game i of both variants is dealt from the same seed (decks agree here)."""
    a, b = load_rules("australian"), load_rules("misere-230")
    for game in range(5):
        deal_seed, _ = game_seeds(11, game)
        ma, mb = Match(a, Random(deal_seed)), Match(b, Random(deal_seed))
        assert ma.dealer == mb.dealer
        assert ma.hand.dealt == mb.hand.dealt


# -- figures -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def study() -> Study:
    return run_study([load_rules("australian")], 30, seed=5, workers=1)[0]


def test_tally_adds_up(study: Study) -> None:
    t = study.tally
    assert t.games == 30 == sum(t.endings.values())
    assert t.length[0] == 30 and t.length[1] == t.hands
    assert sum(t.contracts.values()) == t.hands
    contracted = t.hands - t.contracts.get(-1, 0)
    assert sum(t.position_contracts.values()) == contracted == t.gain[0] == t.against[0]
    assert all(t.made.get(i, 0) <= n for i, n in t.contracts.items())
    assert set(t.endings) <= set(ENDINGS)
    assert t.trajectory[1][0] == 30  # every game has a first hand
    assert all(t.event_games[k] <= t.event_hands[k] for k in t.event_games)


def test_figures_have_intervals_that_hold_their_value(study: Study) -> None:
    figs = figures(study)
    assert list(figs) == list(balance_mod.GROUPS)
    for rows in figs.values():
        for fig in rows.values():
            ci = fig.interval()
            if fig.value is None or ci is None:
                continue
            assert ci[0] <= fig.value <= ci[1]
            if isinstance(fig, Proportion):
                assert 0.0 <= ci[0] <= ci[1] <= 1.0
    shares = figs["kinds"]
    assert sum(p.k for p in shares.values() if isinstance(p, Proportion)) == study.tally.hands
    assert sum(p.k for p in figs["endings"].values() if isinstance(p, Proportion)) == 30


def test_clause_rows_are_the_variants_own_clauses() -> None:
    """A rule the variant does not have is not listed; the changed rule of a house variant is
    (kitty.sans in sans-kitty, reached by random bots, which take the option half the time)."""
    aus, sans = run_study(
        [load_rules("australian"), load_rules("sans-kitty")],
        20,
        seed=2,
        bots=("random",),
        workers=1,
    )
    assert "kitty.sans" not in figures(aus)["clauses"]
    reached = figures(sans)["clauses"]["kitty.sans"]
    assert isinstance(reached, Proportion) and reached.k > 0
    rows = compare(aus, sans)["clauses"]
    a, _, cmp = rows["kitty.sans"]
    assert isinstance(a, Proportion) and a.k == 0 and a.n == aus.tally.hands
    assert cmp.diff is not None and cmp.diff > 0


def test_a_game_that_does_not_end_is_cut_off() -> None:
    study = run_study([load_rules("australian")], 4, seed=1, workers=1, max_hands=1)[0]
    assert study.tally.hands == 4
    ends = figures(study)["endings"]
    done = sum(p.k for k, p in ends.items() if k != "cut-off" and isinstance(p, Proportion))
    cut = ends["cut-off"]
    assert isinstance(cut, Proportion) and cut.k + done == 4


# -- clause counts agree with the engine's legality ---------------------------------------------


def _ground_truth(st: HandState, truth: set[str]) -> None:
    """Before a play: what the engine's legal actions say a rule decided for this play."""
    r = st.rules
    if st.phase != PLAY:
        return
    hand = st.hands[st.to_move]
    jokers = hand & st.masks[SUITLESS]
    legal = st.legal_actions()
    legal_jokers = [a for a in legal if a >= r.JOKER_LEAD or (a < r.n_cards and jokers >> a & 1)]
    if st.trick:
        if jokers and hand & st.masks[st.led] and not legal_jokers:
            truth.add("joker.no-trumps.follow")
        if jokers and hand & ~jokers and len(legal_jokers) == len(legal):
            truth.add("joker.no-trumps.misere-void")
    elif (
        hand & r.joker_mask
        and hand & ~r.joker_mask
        and st.strain == NT
        and st.n_tricks < r.hand_size - 1
        and not any(
            r.JOKER_LEAD <= a < r.PASS or (a < r.n_cards and r.joker_mask >> a & 1) for a in legal
        )
    ):
        truth.add("barred-joker-lead")  # a joker, nominated or not, may not be led now


def test_clause_counts_agree_with_the_engine_on_every_variant() -> None:
    """reached.py reads a finished hand after the fact; here the engine's own legal actions,
    asked before every play, must name the same joker rules (joker.no-trumps.follow, .misere-
    void, .lead, and .lead-last-only / .last-trick when a joker lead was barred)."""
    seen: set[str] = set()
    bot = RandomBot()
    for variant in VARIANTS:
        rules = load_rules(variant)
        rng = Random(variant)
        for dealer in range(12):
            st = HandState.new(rules, dealer % rules.players, rng)
            truth: set[str] = set()
            while st.result is None:
                _ground_truth(st, truth)
                action = bot.choose(st, rng)
                if st.phase == PLAY and rules.JOKER_LEAD <= action < rules.PASS:
                    truth.add("joker.no-trumps.lead")
                st.apply_fast(action)
            got = hand_events(st)
            for key in (
                "joker.no-trumps.follow",
                "joker.no-trumps.misere-void",
                "joker.no-trumps.lead",
            ):
                assert (key in got) == (key in truth), (variant, dealer, key)
            barred = "barred-joker-lead" in truth
            named = {"joker.no-trumps.lead-last-only", "joker.no-trumps.last-trick"} & got
            if barred:
                assert named, (variant, dealer)
            seen |= truth
            assert set(got) <= set(EVENTS)
    assert {"joker.no-trumps.follow", "joker.no-trumps.lead", "barred-joker-lead"} <= seen


def random_hands(rules: Any, seed: int, count: int) -> Iterator[HandState]:
    """``count`` finished hands played by random bots from ``Random(seed)``, dealers in turn."""
    rng = Random(seed)
    bot = RandomBot()
    for dealer in range(count):
        st = HandState.new(rules, dealer % rules.players, rng)
        while st.result is None:
            st.apply_fast(bot.choose(st, rng))
        yield st


def test_misere_lost_at_the_first_trick_is_counted() -> None:
    """play.misere-ends: the bidder's side takes the first trick, the hand ends (G)."""
    rules = load_rules("australian")
    found = 0
    for st in random_hands(rules, 4, 400):
        events = hand_events(st)
        res = st.result
        lost_early = st.misere and not res.complete
        assert ("play.misere-ends" in events) == lost_early
        first = lost_early and len(st.tricks) == 1
        assert ("play.misere-ends/first-trick" in events) == first
        found += first
    assert found


# -- statistics --------------------------------------------------------------------------------


def test_end_events_tell_a_tie_break_that_changed_the_winner_and_an_exact_target() -> None:
    """Issue 19 §4: end.both-out/changed when the tie-break (here T's `highest`... and P's
    `contractor`) gives the game to a side other than the highest total alone; end.target/exact
    when the winner has exactly the target (G: "reach 500")."""
    from fivehundred.runtime.studies.reached import end_events

    g = load_rules("three-handed")  # P: the contractor's side wins when several reach 500
    assert g.both_out == "contractor" and g.end["line"] == "reach"
    assert "end.both-out/changed" in end_events(g, [400, 480, 0], [520, 510, 0], 1)
    assert "end.both-out/changed" not in end_events(g, [400, 480, 0], [520, 510, 0], 0)
    assert "end.both-out" not in end_events(g, [400, 0, 0], [520, 10, 0], 0)
    assert "end.target/exact" in end_events(g, [400, 0, 0], [500, 10, 0], 0)
    assert "end.target/exact" not in end_events(g, [400, 0, 0], [510, 10, 0], 0)
    assert "end.target/exact" not in end_events(g, [400, 0, 0], [500, 10, 0], None)


def test_a_misere_and_a_suit_bid_overcalling_each_other_is_counted() -> None:
    """Issue 19 §4: auction.misere/slot, the hands where a misère's place on the ladder (G:
    above every 7 bid, below every 8 bid) decided the auction: a misère overcalled a suit bid
    or a suit bid overcalled a misère. Checked against the calls of every hand played."""
    rules = load_rules("australian")
    found = 0
    for st in random_hands(rules, 9, 300):
        kinds = [rules.bid_kind[a - rules.BID] for _, a in st.calls if a != rules.PASS]
        crossed = any((a == "misere") != (b == "misere") for a, b in itertools.pairwise(kinds))
        assert ("auction.misere/slot" in hand_events(st)) == crossed
        found += crossed
    assert found


def test_an_open_misere_lost_before_it_was_shown_is_counted() -> None:
    """Issue 19 §4 ("the moment an open misère was shown"): G shows the open misère's hand
    after the first trick; a hand that ends at that trick (lost, G: play stops) is
    play.open-misere/unshown, one played on is not."""
    rules = load_rules("australian")
    omis = rules.bid_index["OMIS"]
    assert rules.bid_open[omis] == "after-first-trick"
    seen = {True: 0, False: 0}
    for st in random_hands(rules, 5, 3000):
        if st.result.contract != omis:
            continue
        unshown = len(st.tricks) <= 1
        assert ("play.open-misere/unshown" in hand_events(st)) == unshown
        seen[unshown] += 1
        if all(seen.values()):
            break
    assert all(seen.values()), seen


def test_simulate_counts_clauses_and_keeps_what_ctrl_c_interrupted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19 §4: `simulate --clauses` counts the hands each clause acted in (as balance
    does); Ctrl-C prints the summary of the games finished and exits 130."""
    from fivehundred.runtime.studies import simulate as sim

    argv = ["simulate", "australian", "--games", "4", "--bots", "heuristic", "--seed", "2"]
    code = main([*argv, "--clauses", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and not data["interrupted"]
    clauses = data["clauses"]
    assert set(clauses) <= set(EVENTS) and clauses.get("joker.trump", 0) > 0
    assert all(0 < n <= data["hands"] for n in clauses.values())
    played = 0
    real = sim._game

    def stop_after_two(*args: Any, **kwargs: Any) -> int | None:
        nonlocal played
        played += 1
        if played == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(sim, "_game", stop_after_two)
    code = main(["simulate", "australian", "--games", "10", "--bots", "heuristic", "--seed", "2"])
    out = capsys.readouterr().out
    assert code == 130
    assert out.startswith("interrupted: the figures below are of the 2 of 10 games finished")
    assert "\ngames: 2\n" in out


def test_student_t_matches_the_tables() -> None:
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-3)
    assert t_quantile(0.975, 10) == pytest.approx(2.2281, abs=1e-4)
    assert t_quantile(0.975, 30) == pytest.approx(2.0423, abs=1e-4)
    assert t_quantile(0.975, 1e9) == pytest.approx(1.95996, abs=1e-4)
    assert t_cdf(0.0, 5) == pytest.approx(0.5)
    assert 1 - t_cdf(2.0, 10) == pytest.approx(0.03669, abs=1e-4)


def test_wilson_interval_and_two_proportion_z_test() -> None:
    lo, hi = Proportion(0, 20).interval() or (None, None)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=1e-3)
    lo, hi = Proportion(50, 100).interval() or (None, None)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert Proportion(0, 0).interval() is None and Proportion(0, 0).value is None
    # 45/100 vs 60/100: z = 2.124, p = 0.0337
    c = compare_proportions(Proportion(45, 100), Proportion(60, 100))
    assert c.diff == pytest.approx(0.15) and c.p == pytest.approx(0.0337, abs=1e-3)
    assert c.significant and c.test == "z"
    same = compare_proportions(Proportion(10, 100), Proportion(10, 100))
    assert same.p == pytest.approx(1.0) and not same.significant


def _mean_of(xs: list[int]) -> Mean:
    return Mean(len(xs), sum(xs), sum(x * x for x in xs))


def test_welch_t_test() -> None:
    a = _mean_of([27, 31, 29, 30, 33, 28, 26, 32])
    b = _mean_of([35, 33, 38, 31, 36, 34, 37, 40, 32])
    c = compare_means(a, b)
    assert c.low is not None and c.high is not None and c.low < c.diff < c.high
    # means 29.5 and 35.11, variances 6 and 8.61: se = 1.3065, t = 4.295 on 14.96 degrees of
    # freedom (Welch-Satterthwaite), two-sided p = 0.00064
    assert c.diff == pytest.approx(5.6111, abs=1e-3)
    assert c.p is not None and 0.0005 < c.p < 0.0008
    assert (c.high - c.diff) / 1.3065 == pytest.approx(t_quantile(0.975, 14.956), abs=1e-2)
    assert compare_means(Mean(1, 5, 25), b).p is None  # one value has no variance


# -- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["balance", "australian"], "give --games N"),
        (["balance", "australian", "--games", "0"], "at least 1"),
        (["balance", "australian", "--games", "2", "--bots", "nosuch"], "unknown bot"),
        (["balance", "australian", "--games", "2", "--bots", "random,random"], "give 1 bot or 4"),
        (["balance", "australian", "--games", "2", "--workers", "0"], "from 1 to 1024"),
        (["balance", "australian", "--games", "2", "--max-hands", "-3"], "at least 1"),
        (["balance", "australian", "three-handed", "--games", "2"], "give one VARIANT"),
        (["balance", "no-such-variant", "--games", "2"], "no-such-variant"),
        (["balance", "--write", "--against", "australian"], "takes no --against"),
        (["balance", "--write", "tests/nothing.yaml"], "built-in variants only"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_text_report_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["balance", "australian", "--against", "sans-kitty", "--games", "3", "--workers", "1"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Balance study: australian" in out and "sans-kitty" in out
    assert "difference" in out and "Welch" in out
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["report"] == "fivehundred balance" and data["format"] == 1
    assert [v["variant"] for v in data["variants"]] == ["australian", "sans-kitty"]
    diff = data["differences"]["points"]["contractor"]
    assert set(diff) == {"diff", "low", "high", "p", "significant", "test"}
    assert diff["test"] == "welch"
    assert diff["significant"] == (diff["p"] is not None and diff["p"] < 0.05)
    share = data["variants"][0]["figures"]["endings"]["contract"]
    assert set(share) == {"k", "n", "value", "low", "high"}


def test_json_keys_are_documented_in_the_readme(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "australian", "--games", "2", "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Balance studies", 1)[1].split("\n## ", 1)[0]
    keys = set(data) | set(data["variants"][0]) | set(data["variants"][0]["figures"])
    for key in keys:
        assert f"`{key}`" in section, key


def test_progress_is_a_plain_line_off_a_terminal() -> None:
    stream = io.StringIO()
    show = progress_for(stream)
    show(1, 4)  # too soon for a periodic line
    show(4, 4)
    assert stream.getvalue().startswith("balance: 4/4 games")
    assert "\r" not in stream.getvalue()


def test_progress_is_a_bar_on_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Tty()
    show = progress_for(stream)
    show(2, 4)
    show(4, 4)
    assert "\rbalance [" in stream.getvalue() and stream.getvalue().endswith("\n")


# -- the report folder -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pair() -> list[Study]:
    return run_study([load_rules("australian"), load_rules("misere-230")], 8, seed=3, workers=1)


def test_out_writes_markdown_json_and_svg(tmp_path: Path, pair: list[Study]) -> None:
    out = tmp_path / "new" / "report"
    (tmp_path / "new").mkdir()
    paths = write_report(out, pair)
    assert sorted(p.name for p in paths) == sorted(OWN_FILES)
    md = (out / "report.md").read_text(encoding="utf-8")
    for svg in ("contracts.svg", "make-rate.svg", "score.svg"):
        assert f"]({svg})" in md
        root = ET.fromstring((out / svg).read_text(encoding="utf-8"))
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert root.find("{http://www.w3.org/2000/svg}title") is not None
    assert "| australian | misere-230 | difference | p |" in md
    assert json.loads((out / "report.json").read_text())["games"] == 8
    # a second run replaces its own files and leaves others alone
    (out / "notes.txt").write_text("mine")
    write_report(out, pair[:1])
    assert (out / "notes.txt").read_text() == "mine"
    assert "misere-230" not in (out / "report.md").read_text(encoding="utf-8")
    assert not [p for p in out.iterdir() if p.name.startswith(".fivehundred")]


def test_out_never_overwrites_a_file_it_did_not_write(tmp_path: Path, pair: list[Study]) -> None:
    (tmp_path / "report.md").write_text("# my own notes\n")
    with pytest.raises(BalanceError, match="was not written by fivehundred balance"):
        write_report(tmp_path, pair)
    assert (tmp_path / "report.md").read_text() == "# my own notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]
    afile = tmp_path / "plain"
    afile.write_text("x")
    with pytest.raises(BalanceError, match="not a folder"):
        write_report(afile, pair)


def test_out_escapes_author_text(tmp_path: Path) -> None:
    """A variant name is author text: it reaches the SVG and Markdown escaped."""
    spec = tmp_path / "evil.yaml"
    spec.write_text(
        'id: evil\nextends: australian\nname: "<script>x</script> & [link](http://x) |"\n'
    )
    studies = run_study([load_rules(str(spec))], 2, seed=1, bots=("random",), workers=1)
    write_report(tmp_path / "r", studies)
    for svg in ("contracts.svg", "make-rate.svg", "score.svg"):
        text = (tmp_path / "r" / svg).read_text(encoding="utf-8")
        ET.fromstring(text)
        assert "<script>" not in text
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "<script>" not in md and "[link](" not in md


def test_cli_out_and_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o"
    argv = ["balance", "two-handed", "--games", "2", "--workers", "1", "--out", str(out)]
    assert main(argv) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(OWN_FILES)
    (out / "score.svg").write_text("<svg>a drawing of mine</svg>")
    capsys.readouterr()
    assert main(argv) == 2
    assert "score.svg exists and was not written" in capsys.readouterr().err
    assert (out / "score.svg").read_text() == "<svg>a drawing of mine</svg>"


# -- Ray ---------------------------------------------------------------------------------------


def test_ray_local_gives_the_same_results() -> None:
    """--ray local: the same games as Ray tasks, the same figures (CI installs the extra)."""
    if os.environ.get("FIVEHUNDRED_REQUIRE_RAY"):
        import ray
    else:
        ray = pytest.importorskip("ray")
    rules = [load_rules("australian")]
    try:
        by_ray = run_study(rules, 4, seed=9, workers=2, ray="local")
    finally:
        ray.shutdown()
    local = run_study(rules, 4, seed=9, workers=1)
    assert _figures_json(by_ray) == _figures_json(local)


# -- the rule books' section -------------------------------------------------------------------


def _ruleset(variant: str) -> Any:
    return compile_spec(find_spec(variant))


def test_book_section_from_a_stored_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(balancebook, "SUMMARY_DIR", tmp_path)
    written = balancebook.write_summaries(["sans-kitty"], games=3, bots=("random",), workers=1)
    assert [p.name for p in written] == ["sans-kitty.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sans-kitty.json"]
    data = json.loads((tmp_path / "sans-kitty.json").read_text(encoding="utf-8"))
    assert data["against"]["variant"] == "australian"
    rs = _ruleset("sans-kitty")
    assert data["rules"] == rules_fingerprint(rs.tables)

    # the build only reads: simulating now would fail
    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("the build simulated")

    monkeypatch.setattr(balance_mod, "play_game", no_games)
    monkeypatch.setattr(balance_mod, "run_study", no_games)  # balancebook imports it when it plays
    md = render_markdown(rs)
    section = md.split("## How this variant plays", 1)[1]
    assert (
        "These figures come from 3 whole games in which every seat was taken by a computer"
        in section
    )
    assert "makes a legal call or play at random" in section
    # the base by its name, a rule by its title with the id as anchor and badge (issue 21)
    assert (
        "| Figure | This variant | Australian Five Hundred | Difference | Significant |" in section
    )
    assert "[Playing sans kitty](#kitty.sans) <sub>`kitty.sans`</sub>" in section
    html = render_html(rs, "ar")
    assert 'id="s-balance"' in html and "كيف تُلعب هذه الصيغة" in html
    nl = render_markdown(rs, "nl")
    assert "## Hoe deze variant speelt" in nl and "3 volledige spellen" in nl


def test_book_section_without_or_with_a_stale_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(balancebook, "SUMMARY_DIR", tmp_path)
    rs = _ruleset("australian")
    md = render_markdown(rs)
    assert "No balance summary is stored for this variant" in md
    assert "fivehundred balance --write australian" in md
    (tmp_path / "australian.json").write_text(
        json.dumps({"format": 1, "rules": "0" * 16, "figures": {}}), encoding="utf-8"
    )
    assert "computed for other rules than these" in render_markdown(rs)
    (tmp_path / "australian.json").write_text("{not json", encoding="utf-8")
    assert "No balance summary is stored" in render_markdown(rs)


def test_write_refuses_a_variant_that_is_not_built_in(tmp_path: Path) -> None:
    with pytest.raises(BalanceError, match="built-in variants only"):
        balancebook.write_summaries(["nosuch"], games=1)


def test_a_house_study_opens_with_its_changed_clauses_and_reads_house_minus_base(capsys):
    """Issue 19 §4: with --against a house file, the report names each clause the house file
    changes (``fivehundred diff``'s clauses), how often it acted in each variant's hands, a
    warning in words under 1% of hands, and says the differences are house minus base."""
    code = main(
        ["balance", "australian", "--against", "misere-230", "--games", "3", "--workers", "1"]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "difference = house minus base (misere-230 minus australian)" in out
    # named the other way round, the study still reads house minus base, with the same figures
    argv = ["balance", "misere-230", "--against", "australian", "--games", "3", "--workers", "1"]
    assert main(argv) == 0
    assert capsys.readouterr().out.split("\n", 3)[3] == out.split("\n", 3)[3]
    section = out.split("The house file's changes", 1)[1].split("\n\n", 1)[0]
    assert "  auction.misere: australian " in section
    for line in section.splitlines()[1:]:
        shares = line.split(" - ", 1)[0]  # the warning (and why) follow the counts
        counts = [part.split(" hands")[0] for part in shares.split(", ")]
        rare = any(int(c.split()[-1].split("/")[0]) * 100 < int(c.split("/")[1]) for c in counts)
        assert ("say little about it" in line) == rare, line
