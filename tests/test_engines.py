"""The generated engines agree with the checked path, variant by variant.

``fivehundred build`` renders each variant's random playout as code (``generated/engines/``,
``generator/templates/engine.py.j2``); ``runtime/engine/hand.py`` is the checked path that plays
the same tables. Both are driven from one random stream, the checked path exactly as the random
bot plays (``legal_actions()[int(random() * count)]``, every action through ``apply``, which
raises on an illegal one), and must give the same actions, contract, trick winners, points and
number of decisions: hands from a random auction, and hands forced into every contract of the
ladder by every seat (``HandState.end_auction_with``), so that the rare contracts (misères, the
ten bids, a partner called for 8 or more, sans kitty, the joker in no trumps) are played too.
"""

from __future__ import annotations

import copy
import importlib
import inspect
from pathlib import Path
from random import Random
from typing import Any

import pytest

from fivehundred.generated.rulesets import VARIANTS
from fivehundred.generator.engine import EngineOptionError, render_engine
from fivehundred.runtime.engine.fast import FastMatch, Playout, fast_engine
from fivehundred.runtime.engine.game import Match, load_builtin
from fivehundred.runtime.engine.hand import HandState
from fivehundred.runtime.engine.rules import Rules
from fivehundred.runtime.loading import load_rules


def _checked(
    rules: Rules,
    dealer: int,
    rng: Random,
    contract: tuple[int, int] | None,
    scores: list[int] | None = None,
) -> tuple[HandState, list[int]]:
    """A hand played by the checked path, choosing as the random bot does."""
    state = HandState.new(rules, dealer, rng, scores)
    if contract is not None:
        state.end_auction_with(*contract)
    actions = []
    while not state.is_over:
        legal = state.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        state.apply(action)
        actions.append(action)
    return state, actions


def _disagreement(
    rules: Rules,
    seed: int,
    contract: tuple[int, int] | None,
    scores: list[int] | None = None,
) -> str | None:
    """What the two paths disagree on in hand ``seed`` (from ``scores``), or None."""
    dealer = seed % rules.players
    state, actions = _checked(rules, dealer, Random(seed), contract, scores)
    fast = fast_engine(rules).playout(dealer, Random(seed), scores, contract)
    assert state.result is not None
    winners = tuple(winner for _, _, winner in state.tricks)
    for what, want, got in (
        ("actions", actions, fast.actions),
        ("decisions", len(actions), fast.decisions),
        ("contract", (state.result.contract, state.result.contractor), fast[:2]),
        ("trick winners", winners, fast.winners),
        ("points", state.result.points, fast.points),
        ("result", state.result, fast.result()),
        ("deal", state.dealt, fast.dealt),
    ):
        if want != got:
            return f"{rules.variant} hand {seed} contract {contract}: {what} {want} != {got}"
    return None


def _agree(variant: str, hands: int, forced_rounds: int) -> None:
    rules = load_builtin(variant)
    assert fast_engine(rules).generated, f"{variant} has no generated engine"
    problems = []
    for seed in range(hands):
        problems.append(_disagreement(rules, seed, None))
    for k in range(forced_rounds):
        for bid in range(rules.n_bids):
            seat = (bid + k) % rules.players
            problems.append(_disagreement(rules, 10_000 + k * 1000 + bid, (seat, bid)))
    found = [p for p in problems if p is not None]
    assert not found, "\n".join(found[:5])


@pytest.mark.parametrize("variant", VARIANTS)
def test_generated_engine_agrees_with_checked_path(variant: str) -> None:
    """A sample in every run: 30 random hands and every contract of the ladder once."""
    _agree(variant, 30, 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_generated_engine_agrees_over_thousands_of_hands(variant: str) -> None:
    """Slow: 2,000 random hands and every contract of the ladder 30 times, by every seat."""
    _agree(variant, 2000, 30)


def test_every_contract_of_the_ladder_is_played_and_scored() -> None:
    """The forced auctions reach every ladder entry, misères and sans kitty included (the
    random auction alone seldom stops low): each is the contract of its hand, and scored."""
    for variant in ("australian", "sans-kitty", "five-handed-call", "american"):
        rules = load_builtin(variant)
        engine = fast_engine(rules)
        seen_sans = False
        for bid in range(rules.n_bids):
            for k in range(8):
                seat = k % rules.players
                hand = engine.playout(seat, Random(bid * 8 + k), None, (seat, bid))
                assert hand.contract == bid and hand.contractor == seat
                assert hand.made is not None
                seen_sans |= hand.sans
        assert seen_sans or rules.sans_kitty_bonus is None, variant


@pytest.mark.parametrize("before", [380, 400, 410])
def test_generated_engine_agrees_on_the_opponents_threshold(before: int) -> None:
    """score.freeze threshold (opponents-over-400, "no trick points for a defending side over
    400"): hands played from both sides at 380, 400 and 410, random and forced into every
    contract, score the same on the generated engine as through score_hand; at 410 the
    defenders score nothing, below it their tricks (380 + 50 = 430)."""
    rules = load_builtin("opponents-over-400")
    assert fast_engine(rules).generated
    scores = [before] * rules.n_sides
    defended = 0
    for seed in range(rules.n_bids * 3):
        contract = None if seed % 3 == 0 else (seed % rules.players, seed // 3)
        assert _disagreement(rules, seed, contract, scores) is None
        state, _ = _checked(rules, seed % rules.players, Random(seed), contract, scores)
        res = state.result
        assert res is not None
        if res.contract >= 0 and rules.bid_kind[res.contract] == "suit":
            side = 1 - rules.side_of_seat[res.contractor]
            got = res.points[side]
            assert got == (0 if before > 400 else 10 * res.tricks_by_side[side])
            defended += res.tricks_by_side[side] > 0
    assert defended > 10


@pytest.mark.parametrize("variant", ["original-schedule", "opponents-over-400"])
def test_generated_engine_agrees_on_whole_games_of_the_new_rules(variant: str) -> None:
    """The ladder ranked by value and the defenders' threshold, game by game: the generated
    engine and Match give the same scores, hands and winner (scores pass 400, so the threshold
    acts), and every contract of the value ladder agrees hand by hand."""
    rules = load_builtin(variant)
    _agree(variant, 60, 2)
    for seed in range(3):
        _games_agree(rules, seed)


def test_generated_engine_is_code_of_the_variants_options() -> None:
    """No branch for an option the variant does not have: the misère, joker and partner code
    is only in the engines of variants with those rules, and the joker rules only in the play
    at no trumps (in a trump suit the jokers are trumps)."""
    engines = "fivehundred.generated.engines."
    australian = importlib.import_module(engines + "australian")
    six = importlib.import_module(engines + "six_handed")
    five = importlib.import_module(engines + "five_handed_call")
    three = importlib.import_module(engines + "three_handed")
    sans = importlib.import_module(engines + "sans_kitty")
    no_joker = importlib.import_module(engines + "two_handed_24")
    assert hasattr(australian, "nominate_joker") and hasattr(australian, "FOLLOWERS_ALONE")
    assert not hasattr(australian, "call_partners") and not hasattr(australian, "choose_sans")
    assert hasattr(five, "call_partners") and not hasattr(five, "FOLLOWERS_ALONE")
    assert hasattr(sans, "choose_sans")
    assert not hasattr(three, "FOLLOWERS_ALONE")  # nobody sits out where each plays alone
    assert hasattr(australian, "play_no_trumps") and not hasattr(no_joker, "play_no_trumps")
    trumps = inspect.getsource(australian.play_tricks)
    assert "joker" not in trumps.split('"""')[2].lower() and "suitless" not in trumps
    source = Path(six.__file__).read_text(encoding="utf-8")
    assert "TEAM_OF_SEAT" in source and "allies = 1 << contractor" not in source


def _with(tables: Any, path: tuple[str, ...], value: Any) -> Any:
    out = copy.deepcopy(tables)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


def test_an_option_the_generator_does_not_know_is_an_error() -> None:
    """A new option (a key the generator has never seen, or a new value of a known one) stops
    the build with a message naming it, instead of code that plays other rules."""
    tables = importlib.import_module("fivehundred.generated.rulesets.australian").TABLES
    render_engine(tables)  # the real tables render
    for path, value, named in (
        (("auction", "double"), True, "auction.double"),
        (("auction", "bid_after_pass"), "on-sundays", "auction.bid_after_pass"),
        (("auction", "all_pass"), "replay", "auction.all_pass"),
        (("auction", "procedure"), "auction-bridge", "auction.procedure"),
        (("play", "joker_no_trumps", "void_must_play"), "on-tuesdays", "void_must_play"),
        (("scoring", "failed"), "half-value", "scoring.failed"),
    ):
        with pytest.raises(EngineOptionError, match=named):
            render_engine(_with(tables, path, value))
    bad_ladder = copy.deepcopy(tables)
    bad_ladder["ladder"][0]["kind"] = "nullo-plus"
    with pytest.raises(EngineOptionError, match=r"ladder\[\]\.kind"):
        render_engine(bad_ladder)


def test_rules_without_a_generated_engine_play_the_checked_path() -> None:
    """Tables no module was generated for (a built-in's id with other values) get the checked
    path, with the same results; the generated module of the id is not used for them."""
    tables = importlib.import_module("fivehundred.generated.rulesets.australian").TABLES
    changed = _with(tables, ("scoring", "opponents_per_trick"), 20)
    rules = Rules(changed)
    engine = fast_engine(rules)
    assert not engine.generated
    for seed in range(10):
        assert _disagreement(rules, seed, None) is None
        hand = engine.playout(seed % 4, Random(seed))
        if hand.contract >= 0 and hand.made:
            opp = 1 - rules.side_of_seat[hand.contractor]
            assert hand.points[opp] == 20 * hand.tricks_by_side[opp]


def test_a_rule_file_is_compiled_in_memory_into_its_engine(tmp_path: Path) -> None:
    """A rule file's engine is rendered and compiled in memory when it is loaded, and agrees
    with the checked path; nothing is written."""
    path = tmp_path / "raise-twice.yaml"
    path.write_text(
        "id: my-raise\nextends: australian\nname: My raise\nsummary: Raise own bid.\n"
        "sources: [T]\nauction:\n  raise_own_bid: true\n  all_pass: no-trumps\n",
        encoding="utf-8",
    )
    rules = load_rules(str(path))
    assert fast_engine(rules).generated
    assert sorted(p.name for p in tmp_path.iterdir()) == ["raise-twice.yaml"]
    for seed in range(40):
        assert _disagreement(rules, seed, None) is None


def test_fast_match_plays_the_games_match_plays() -> None:
    """Whole games through the fast path: the same scores, hands and winner as Match with the
    random bot, from the same random stream (the three-handed game ranks sides trick by trick
    when two reach the target on one hand)."""
    for variant in ("australian", "three-handed", "five-handed-call", "bid-after-pass-if-changed"):
        rules = load_builtin(variant)
        for seed in range(4):
            _games_agree(rules, seed)


def _games_agree(rules: Any, seed: int) -> None:
    """A whole game (at most 300 hands) by random play through Match and through FastMatch from
    the same random stream: the same scores, number of hands and winner."""
    rng_a, rng_b = Random(seed), Random(seed)
    match = Match(rules, rng_a)
    while match.winner is None and match.hands_played < 300:
        state = match.hand
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[int(rng_a.random() * len(legal))])
        match.finish_hand()
    fast = FastMatch(fast_engine(rules), rng_b)
    while fast.winner is None and fast.hands_played < 300:
        fast.play_hand()
    assert (fast.scores, fast.hands_played, fast.winner) == (
        match.scores,
        match.hands_played,
        match.winner,
    )


@pytest.mark.parametrize(
    "variant", ["australian", "three-handed", "five-handed-call", "sans-kitty", "bid-after-pass"]
)
def test_simulate_is_the_same_on_either_engine(variant: str, monkeypatch: Any) -> None:
    """simulate with random bots runs the fast path; with it taken away (the bots then play
    through the checked engine) every count, every win and every record is the same."""
    import io

    from fivehundred.runtime.studies import simulate as sim

    rules = load_builtin(variant)

    def run(**kw: Any) -> tuple[dict[str, Any], str]:
        out = io.StringIO()
        summary = sim.simulate(rules, seed=5, records=out, check_every=7, **kw).as_json()
        del summary["seconds"], summary["hands_per_second"], summary["decisions_per_second"]
        return summary, out.getvalue()

    fast = [run(hands=120), run(games=3, max_hands=40)]
    monkeypatch.setattr(sim, "fast_engine", lambda rules: None)
    checked = [run(hands=120), run(games=3, max_hands=40)]
    assert fast == checked
    assert fast[0][0]["invariant_checks"] > 0 and fast[1][0]["games"] == 3


def test_rule_author_text_reaches_the_engine_only_as_a_literal() -> None:
    """Rule-author text never becomes code: the engine module holds the variant id as an
    escaped literal and none of the prose (name, summary, choices) at all."""
    tables = importlib.import_module("fivehundred.generated.rulesets.australian").TABLES
    hostile = 'x"""\nimport os; os.system("boom")  # \u202e\x1b[2J'
    bad = _with(tables, ("variant",), hostile)
    bad["name"] = bad["summary"] = hostile + " NAME-TEXT"
    source = render_engine(bad)
    assert "NAME-TEXT" not in source and "\u202e" not in source and "\x1b" not in source
    namespace: dict[str, Any] = {}
    exec(compile(source, "<engine>", "exec"), namespace)
    assert namespace["VARIANT"] == hostile
    assert "os" not in namespace
    hand = namespace["playout"](0, Random(3).random)
    assert len(hand) == len(Playout._fields)  # every field of a Playout, in its order


def test_a_later_option_at_its_default_needs_no_line_of_the_generator(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 17 §1: a new option is its registry entry, the engine's use and its book sentence.
    A later option (``Option.late``) the generator was never taught is known at its default
    (the rules as before it existed: the same code is generated); another value of it stops
    the build by name, and a rule file with that value plays the checked path."""
    import fivehundred.generator.engine as engine
    from fivehundred.runtime.engine.tableformat import OPTIONS

    tables = importlib.import_module("fivehundred.generated.rulesets.australian").TABLES
    before = render_engine(tables)
    late = [o for o in OPTIONS if o.late and o.table_keys is not None]
    assert late
    for opt in late:
        path = ".".join(opt.table_keys or ())
        monkeypatch.delitem(engine._OPTIONS, path, raising=False)
    assert render_engine(tables) == before
    opt = next(o for o in late if o.path == "play.joker.no_trumps.low_in_misere")
    changed = _with(tables, opt.table_keys or (), not opt.default)
    with pytest.raises(EngineOptionError, match="low_in_misere"):
        render_engine(changed)
    club = tmp_path / "club.yaml"
    club.write_text(
        "id: club\nextends: australian\nname: Club\nsummary: The joker low in a misère.\n"
        "play:\n  joker:\n    no_trumps:\n      low_in_misere: true\n",
        encoding="utf-8",
    )
    rules = load_rules(club)
    assert rules.play["joker_no_trumps"]["low_in_misere"] is True
    assert not fast_engine(rules).generated  # no module: the checked path plays it
    for seed in range(5):
        assert _disagreement(rules, seed, None) is None
