"""The Python API (``import fivehundred``): Game, State, MatchState, errors."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

import pytest
from conftest import AUSTRALIAN_SPEC, DEAL_S

import fivehundred
from fivehundred import IllegalActionError, InvalidActionError, SpecError
from fivehundred.generator.pipeline import builtin_ids


@pytest.fixture(scope="module")
def game() -> fivehundred.Game:
    return fivehundred.load("australian")


def deal_s(game: fivehundred.Game) -> fivehundred.State:
    hands, kitty = DEAL_S
    return game.deal([h.split() for h in hands], kitty.split(), dealer=0)


def test_game_facts(game: fivehundred.Game) -> None:
    assert (game.variant, game.num_players, game.num_sides) == ("australian", 4, 2)
    assert game.num_distinct_actions == 172 == len(game.action_names)
    assert game.action_names[0] == "5S" and game.action_names[-1] == "discard JK"
    assert sum(count for _, _, count, _ in game.action_layout()) == 172
    assert "australian" in repr(game)


def test_load_errors_are_spec_errors(tmp_path: Path) -> None:
    with pytest.raises(SpecError):
        fivehundred.load("australain")
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: australian\nplayers: seven\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        fivehundred.load(str(bad))
    assert "bad.yaml:" in str(info.value)
    assert issubclass(SpecError, ValueError)


def test_load_a_rule_file_and_replay_its_records(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    # a copy under its own id (a rule file cannot take a built-in's: issue 18)
    text = AUSTRALIAN_SPEC.read_text(encoding="utf-8").replace("id: australian", "id: house", 1)
    path.write_text(text, encoding="utf-8")
    game = fivehundred.load(str(path))
    state = game.new_hand(seed=4)
    state.playout(Random(4))
    again = game.from_record(json.loads(json.dumps(state.record())))
    assert again.returns() == state.returns() and again.is_over()


def test_apply_ids_and_text_alike(game: fivehundred.Game) -> None:
    """Deal S: 6H by seat 1, discard as one text or card by card: the same hand."""
    by_text = deal_s(game)
    for text in ["6H", "pass", "pass", "pass", "discard 8H 7H 6H"]:
        by_text.apply(text)
    by_id = deal_s(game)
    for text in ["6H", "pass", "pass", "pass"]:
        by_id.apply(by_id.action_id(text))
    assert by_id.phase == "discard" and by_id.current_player() == 1
    for card in ["6H", "7H", "8H"]:
        assert by_id.action_id(f"discard {card}") in by_id.legal_actions()
        by_id.apply(f"discard {card}")
    assert by_id.hand.hands == by_text.hand.hands and by_id.phase == "play"
    assert by_text.record()["actions"][-1] == "discard 6H 7H 8H"
    assert by_id.record()["actions"] == by_text.record()["actions"]


def test_illegal_actions_change_nothing(game: fivehundred.Game) -> None:
    state = deal_s(game)
    before = state.clone()
    with pytest.raises(IllegalActionError) as info:
        state.apply("JK")  # a card during the auction
    assert info.value.clause == "auction.order" and info.value.seat == 1
    with pytest.raises(InvalidActionError):
        state.apply(game.num_distinct_actions)
    with pytest.raises(InvalidActionError):
        state.apply("7Z")
    assert state.history() == [] and repr(state) == repr(before)


def test_clone_is_independent(game: fivehundred.Game) -> None:
    state = game.new_hand(seed=9, dealer=2)
    copy = state.clone()
    copy.playout(Random(1))
    assert copy.is_over() and not state.is_over() and state.history() == []
    assert state.current_player() == 3


def test_current_player_decides_for_both_hands() -> None:
    """both-hands-misere (T): the misère bidder plays his partner's hand too, so he is the
    current player whenever that hand is to play (play.misere-partner)."""
    game = fivehundred.load("both-hands-misere")
    state = game.new_hand(seed=2, dealer=0)
    state.apply("7S")
    state.apply("MIS")  # seat 2; partner seat 0
    while state.phase == "auction":
        state.apply("pass")
    assert state.hand.contractor == 2
    seen = 0
    while not state.is_over():
        if state.phase == "play" and state.seat_to_move() in (0, 2):
            assert state.current_player() == 2
            seen += state.seat_to_move() == 0
        else:
            assert state.current_player() == state.seat_to_move()
        state.apply(state.legal_actions()[0])
    assert seen


def test_over_and_returns(game: fivehundred.Game) -> None:
    state = game.new_hand(seed=5)
    assert state.returns() == [0.0] * 4
    state.playout(Random(5))
    assert state.current_player() == fivehundred.TERMINAL and state.legal_actions() == []
    res = state.result
    assert res is not None
    assert state.returns() == [float(res.points[s % 2]) for s in range(4)]
    with pytest.raises(IllegalActionError):
        state.apply("pass")
    with pytest.raises(IllegalActionError):
        state.apply(0)


def test_observation_and_masks(game: fivehundred.Game) -> None:
    state = deal_s(game)
    mask = state.legal_action_mask()
    assert [a for a, on in enumerate(mask) if on] == state.legal_actions()
    obs = state.observation(1)
    assert obs["seat"] == 1 and "legal" in obs and "legal" not in state.observation(2)
    with pytest.raises(fivehundred.ArgumentError):
        state.observation(4)
    with pytest.raises(fivehundred.ArgumentError):
        game.new_hand(dealer=True)
    assert state.information_state_string(1) != state.information_state_string(2)


@pytest.mark.parametrize("variant", builtin_ids())
def test_whole_matches(variant: str) -> None:
    """A match deals hand after hand until a side wins; clones play on independently."""
    game = fivehundred.load(variant)
    match = game.new_match(seed=1, dealer=0)
    rng = Random(3)
    while match.hands_played < 2 and not match.is_over():
        match.apply(rng.choice(match.legal_actions()))
    copy = match.clone()
    before = (match.scores, match.hands_played)
    copy.play_randomly(Random(4))
    assert copy.is_over() and copy.winner is not None and copy.current_player() == -1
    assert (match.scores, match.hands_played) == before
    assert len(copy.results) == copy.hands_played
    other = match.clone()
    other.play_randomly(Random(4))
    assert (other.scores, other.winner) == (copy.scores, copy.winner)  # the same deals to come


def test_copy_copies_every_slot() -> None:
    """HandState.copy is written out field by field (for speed): it must copy every slot, share
    nothing mutable, and leave the original alone while the copy plays on."""
    from fivehundred.runtime.engine.hand import HandState
    from fivehundred.runtime.studies.benchmark import search_positions

    rules = fivehundred.load("australian").rules
    for state in search_positions(rules, 20, 1):
        before = {n: getattr(state, n) for n in HandState.__slots__}
        frozen = {n: (v[:] if isinstance(v, list) else v) for n, v in before.items()}
        other = state.copy()
        for name in HandState.__slots__:
            value = getattr(other, name)
            assert value == before[name], name
            if isinstance(value, list):
                assert value is not before[name], name
        other.playout(Random(1))
        assert {n: getattr(state, n) for n in HandState.__slots__} == frozen


def test_readme_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's Python API example runs as written, and says what it claims."""
    from extras import readme_python

    code = readme_python("## Python API")
    assert "# 4, 172, (1046,)" in code
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    game = fivehundred.load("australian")
    assert (game.num_players, game.num_distinct_actions, game.observation_shape) == (
        4,
        172,
        (1046,),
    )
    assert game.information_state_shape == (3005,)
    assert "fivehundred.State" in capsys.readouterr().out


@pytest.mark.parametrize("variant", builtin_ids())
def test_max_hand_length_bounds_every_hand(variant: str) -> None:
    """OpenSpiel's max_game_length: no hand takes more actions than game.max_hand_length."""
    game = fivehundred.load(variant)
    rng = Random(6)
    longest = 0
    for n in range(60):
        state = game.new_hand(rng=rng, dealer=n % game.num_players)
        state.playout(rng)
        longest = max(longest, len(state.history()))
    assert 0 < longest <= game.max_hand_length
    assert game.max_hand_length < 3 * longest  # a bound, not a wild guess


@pytest.mark.parametrize("variant", ["australian", "five-handed-call", "sans-kitty"])
def test_end_auction_with_is_the_auction_that_ends_so(variant: str) -> None:
    """HandState.end_auction_with (search's "what if this seat played this contract") leaves
    the hand exactly where a real auction won by that seat with that bid leaves it (auction.end:
    the high bidder contracts; kitty, partner and play follow), and refuses what is not so."""
    from fivehundred.runtime.engine.errors import ArgumentError
    from fivehundred.runtime.engine.hand import AUCTION, HandState
    from fivehundred.runtime.engine.rules import Rules

    r = Rules.builtin(variant)
    seat, bid = 2, r.bid_index["7H"]
    real = HandState.new(r, 0, Random(5))
    what_if = real.copy()
    while real.phase == AUCTION:
        real.apply(r.BID + bid if real.to_move == seat else r.PASS)
    what_if.end_auction_with(seat, bid)
    skip = {"auction", "legal"}
    for s in range(r.players):
        a, b = real.observation(s), what_if.observation(s)
        assert {k: v for k, v in a.items() if k not in skip} == {
            k: v for k, v in b.items() if k not in skip
        }
    assert what_if.legal_actions() == real.legal_actions()
    for bad_seat, bad_bid in [(r.players, bid), (-1, bid), (seat, r.n_bids), (True, bid)]:
        fresh = HandState.new(r, 0, Random(5))
        with pytest.raises(ArgumentError, match="end_auction_with"):
            fresh.end_auction_with(bad_seat, bad_bid)
        assert fresh.phase == AUCTION and fresh.contract == -1
    with pytest.raises(ArgumentError, match="auction is over"):
        real.end_auction_with(seat, bid)


class _Index:
    """An integer-like action id (as numpy integers are): it has ``__index__``, it is no int."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def _deep(levels: int) -> list[object]:
    deep: list[object] = []
    for _ in range(levels):
        deep = [deep]
    return deep


def test_bad_arguments_are_one_line_argument_errors(game: fivehundred.Game) -> None:
    """Each bad argument is refused at once (not later, at scoring) by a one-line error that
    quotes it, shortened."""
    record = game.new_hand(seed=1).record()
    deep = _deep(3000)
    cases: list[tuple[type[Exception], Any]] = [
        (fivehundred.ArgumentError, lambda: game.new_hand(seed=[1])),
        (fivehundred.ArgumentError, lambda: game.new_hand(seed=1.5)),
        (fivehundred.ArgumentError, lambda: game.new_hand(rng="x")),
        (fivehundred.ArgumentError, lambda: game.new_hand(scores="ab")),
        (fivehundred.ArgumentError, lambda: game.new_hand(scores=[1, 2, 3])),
        (fivehundred.ArgumentError, lambda: game.new_hand(scores=[True, 0])),
        (fivehundred.ArgumentError, lambda: game.new_match(seed="x" * 10_000)),
        (fivehundred.ArgumentError, lambda: game.deal_from_order(None)),  # type: ignore[arg-type]
        (fivehundred.ArgumentError, lambda: game.deal_from_order([float(c) for c in range(43)])),
        (fivehundred.ArgumentError, lambda: game.deal_from_order([*range(42), True])),
        (fivehundred.ArgumentError, lambda: game.deal_from_order(deep)),
        (fivehundred.RecordError, lambda: game.from_record(deep)),  # type: ignore[arg-type]
        (fivehundred.RecordError, lambda: game.from_record({**record, "actions": deep})),
        (fivehundred.RecordError, lambda: game.from_record({**record, "dealer": deep})),
        (fivehundred.RecordError, lambda: game.from_record({**record, "deal": {"hands": [deep]}})),
        (fivehundred.RecordError, lambda: game.deal([deep] * 4, [])),  # type: ignore[list-item]
        # a bot's name: once the bots' own BotSpecError (no FiveHundredError) or AttributeError
        (fivehundred.ArgumentError, lambda: game.new_hand(seed=1).hint(bot="x")),
        (fivehundred.ArgumentError, lambda: game.new_hand(seed=1).hint(bot="search:0")),
        (fivehundred.ArgumentError, lambda: game.new_hand(seed=1).hint(bot=None)),  # type: ignore[arg-type]
        (fivehundred.RecordError, lambda: game.from_record({**record, "variant": [deep]})),
        # scores past 64 bits: once accepted, then OverflowError in the observation tensors
        (fivehundred.ArgumentError, lambda: game.new_hand(scores=[10**400, 0])),
        (fivehundred.ArgumentError, lambda: game.new_hand(scores=[0, -(2**63)])),
        (fivehundred.ArgumentError, lambda: game.position(1, [], scores=[2**63, 0])),
        (fivehundred.RecordError, lambda: game.from_record({**record, "scores": [10**400, 0]})),
    ]
    for kind, call in cases:
        with pytest.raises(kind) as info:
            call()
        text = str(info.value)
        assert "\n" not in text and len(text) < 200, text
    assert game.new_hand(seed=1, scores=[_Index(40), 0]).hand.scores == [40, 0]
    widest = game.new_hand(seed=1, scores=[2**63 - 1, 1 - 2**63])
    assert len(widest.observation_tensor(0)) == game.observation_shape[0]
    assert game.from_record(record).hand.dealt == game.new_hand(seed=1).hand.dealt


def test_integer_like_action_ids_are_accepted_bools_and_floats_not(
    game: fivehundred.Game,
) -> None:
    """An action id may be any integer-like value (``operator.index``: numpy integers too);
    a bool or a float is no action id, and refusing one changes nothing."""
    state = deal_s(game)
    legal = state.legal_actions()
    assert state.is_legal(_Index(legal[0])) and not state.is_legal(_Index(0))
    assert state.verify(_Index(legal[0])) is None  # type: ignore[arg-type]
    assert state.action_name(_Index(legal[0])) == game.action_name(legal[0])  # type: ignore[arg-type]
    for bad in (True, float(legal[0]), "47", None):
        assert not state.is_legal(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidActionError):
            state.apply(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidActionError):
            state.verify(bad)  # type: ignore[arg-type]
    assert state.history() == []
    state.apply(_Index(legal[0]))  # type: ignore[arg-type]
    assert state.history() == [legal[0]] and type(state.history()[0]) is int
    with pytest.raises(fivehundred.ArgumentError):
        state.observation(True)


def test_a_copy_shares_the_rules() -> None:
    """copy.deepcopy of a state (as OpenSpiel clones Python states) copies the hand and
    shares the game and its rules tables, which never change."""
    import copy

    game = fivehundred.load("australian")
    state = game.new_hand(seed=2)
    other = copy.deepcopy(state)
    assert other.game is game and other.hand.rules is game.rules
    assert other.hand is not state.hand and other.hand.hands == state.hand.hands
    other.apply(other.legal_actions()[0])
    assert state.history() == [] and copy.deepcopy(game) is game
