"""OpenSpiel integration (extra ``openspiel``): ``python_fivehundred`` passes OpenSpiel's own
random simulation test, its tensors are the engine's, resampling keeps what a seat knows, and
OpenSpiel's ISMCTS bot plays a hand against our heuristic bots."""

from __future__ import annotations

import re
from random import Random
from typing import Any

import pytest
from extras import require

pyspiel = require("pyspiel", "openspiel")
np = require("numpy", "openspiel")

import fivehundred.openspiel  # noqa: E402  (registers the game)
from fivehundred.generator.pipeline import builtin_ids  # noqa: E402
from fivehundred.runtime.bots.registry import HeuristicBot  # noqa: E402


def _deal(state: Any, rng: Random) -> None:
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        state.apply_action(outcomes[int(rng.random() * len(outcomes))])


def test_registered_with_a_variant_parameter() -> None:
    game = pyspiel.load_game("python_fivehundred")
    assert game.get_parameters()["variant"] == "australian"
    assert game.num_players() == 4 and game.num_distinct_actions() == 172
    assert game.max_chance_outcomes() == 43
    six = pyspiel.load_game("python_fivehundred", {"variant": "six-handed"})
    assert six.num_players() == 6
    api = fivehundred.load("six-handed")
    assert six.observation_tensor_shape() == list(api.observation_shape)
    assert six.information_state_tensor_shape() == list(api.information_state_shape)
    with pytest.raises(Exception, match="australain"):
        pyspiel.load_game("python_fivehundred", {"variant": "australain"})


def test_random_sim_test_australian() -> None:
    game = pyspiel.load_game("python_fivehundred", {"variant": "australian", "dealer": 2})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "variant",
    [
        "american",
        "five-handed-call",
        "two-handed",
        "six-handed-2v2v2",
        "both-hands-misere",
        "original-schedule",  # action ids are places on a ladder ranked by value
    ],
)
def test_random_sim_test_variants(variant: str) -> None:
    game = pyspiel.load_game("python_fivehundred", {"variant": variant})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_chance_deal_and_tensors_match_the_engine() -> None:
    game = pyspiel.load_game("python_fivehundred")
    api = fivehundred.load("australian")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 43
    rng = Random(5)
    _deal(state, rng)
    inner = state.fivehundred_state
    assert inner is not None and len(state.history()) == 43
    # The deal follows the packets: the first three cards go to the dealer's left (seat 1).
    assert all(inner.hand.dealt[0][1] >> c & 1 for c in state.history()[:3])
    for _ in range(30):
        for seat in range(4):
            obs = np.float32(inner.observation_tensor(seat))  # OpenSpiel's tensors are float32
            assert list(state.observation_tensor(seat)) == list(obs)
            info = np.float32(inner.information_state_tensor(seat))
            assert list(state.information_state_tensor(seat)) == list(info)
        state.apply_action(rng.choice(state.legal_actions()))
    assert api.num_distinct_actions == game.num_distinct_actions()


@pytest.mark.parametrize("variant", builtin_ids())
def test_information_state_strings_are_the_core_ones(variant: str) -> None:
    """The adapter writes the information-state string from the hand's fields, the text of
    the calls and tricks kept from node to node (and carried into clones): after every action
    of random hands, for every seat, it is the core's string character for character."""
    from fivehundred.runtime.adapters.tensors import information_state_string

    game = pyspiel.load_game("python_fivehundred", {"variant": variant})
    rng = Random(2)
    compared = 0
    for _ in range(2):
        state = game.new_initial_state()
        _deal(state, rng)
        while True:
            hand = state.fivehundred_state.hand
            for seat in range(game.num_players()):
                text = state.information_state_string(seat)
                assert text == information_state_string(hand, seat), (variant, seat)
                compared += 1
            if state.is_terminal():
                break
            if rng.random() < 0.3:
                state = state.clone()  # the clone carries the text on
            state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 20


def test_resampling_keeps_the_information_state() -> None:
    """ISMCTS's requirement: a resampled state looks the same to the seat to move, while the
    cards it has not seen move."""
    game = pyspiel.load_game("python_fivehundred")
    rng = Random(8)
    moved = 0
    for _ in range(25):
        state = game.new_initial_state()
        _deal(state, rng)
        for _ in range(rng.randrange(60)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        seat = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.legal_actions() == state.legal_actions()
        hidden = [h for s, h in enumerate(state.fivehundred_state.hand.hands) if s != seat]
        again = [h for s, h in enumerate(other.fivehundred_state.hand.hands) if s != seat]
        moved += hidden != again
        # The resampled world plays on to the end.
        while not other.is_terminal():
            other.apply_action(rng.choice(other.legal_actions()))
    assert moved > 10


@pytest.mark.parametrize(
    "variant", ["australian", "open-misere-after-8", "two-handed", "five-handed-call"]
)
def test_resampled_states_read_back(variant: str) -> None:
    """A resampled state is a hand of its own, its history the one that leads to it (the
    contractor's discards, which the resampling seat never saw, are the new deal's): it
    serializes and reads back to the same cards and plays on."""
    game = pyspiel.load_game("python_fivehundred", {"variant": variant})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = Random(3)
    discarded = 0
    for _ in range(40):
        state = game.new_initial_state()
        _deal(state, rng)
        for _ in range(rng.randrange(50)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        other = state.resample_from_infostate(state.current_player(), sampler)
        again = game.deserialize_state(other.serialize())
        theirs, mine = again.fivehundred_state.hand, other.fivehundred_state.hand
        assert (theirs.hands, theirs.kitty, theirs.discarded) == (
            mine.hands,
            mine.kitty,
            mine.discarded,
        )
        assert str(again) == str(other) and again.legal_actions() == other.legal_actions()
        discarded += mine.discarded != state.fivehundred_state.hand.discarded
    assert discarded >= 3


def test_ismcts_plays_against_our_heuristic_bots() -> None:
    """OpenSpiel's ISMCTS (seats 0 and 2) against fivehundred's heuristic bot (1 and 3)."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_fivehundred")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(2)
    )
    ours = HeuristicBot()
    rng = Random(3)
    asked = {"ismcts": 0, "heuristic": 0}
    state = game.new_initial_state()
    _deal(state, rng)
    while not state.is_terminal():
        seat = state.current_player()
        if seat % 2 == 0:
            action = int(bot.step(state))
            asked["ismcts"] += 1
        else:
            action = ours.choose(state.fivehundred_state.hand, rng)
            asked["heuristic"] += 1
        assert action in state.legal_actions()
        state.apply_action(action)
    result = state.fivehundred_state.result
    assert result is not None
    assert state.returns() == [float(result.points[s % 2]) for s in range(4)]
    assert asked["ismcts"] >= 5 and asked["heuristic"] >= 5


def test_readme_example_runs() -> None:
    from extras import readme_python

    namespace: dict[str, Any] = {}
    exec(compile(readme_python("## OpenSpiel and PettingZoo", 0), "README.md", "exec"), namespace)
    assert namespace["game"].num_players() == 4  # american


def _dealt(seed: int = 5) -> Any:
    state = pyspiel.load_game("python_fivehundred").new_initial_state()
    _deal(state, Random(seed))
    return state


def test_illegal_actions_raise_spiel_errors_and_change_nothing() -> None:
    """issue 18: a card id during the auction, a 6S bid after 7H, a card not held, a dealt card
    dealt again or an id past the action space each raise a SpielError (also fivehundred's
    error, naming the seat, the move and the rule); the state is as it was, and plays on."""
    from fivehundred.openspiel import IllegalAction, InvalidAction

    state = _dealt()
    inner = state.fivehundred_state
    rules = inner.game.rules
    cases: list[tuple[int, str]] = [(0, "auction.order")]  # a card during the auction
    seven_h, six_s = rules.bid_action("7H"), rules.bid_action("6S")
    state.apply_action(seven_h)
    cases.append((six_s, "auction.higher"))
    for action, clause in cases:
        before = (state.history(), str(state), state.legal_actions())
        with pytest.raises(pyspiel.SpielError) as info:
            state.apply_action(action)
        assert isinstance(info.value, IllegalAction) and isinstance(info.value, ValueError)
        assert info.value.clause == clause and info.value.seat == inner.hand.to_move
        assert rules.action_str(action) in str(info.value) and clause in str(info.value)
        assert (state.history(), str(state), state.legal_actions()) == before
    with pytest.raises(InvalidAction):
        state.apply_action(rules.n_actions + 5)
    while state.current_player() >= 0 and inner.phase != "play":
        state.apply_action(state.legal_actions()[-1])
    seat = inner.hand.to_move
    not_held = next(c for c in range(rules.n_cards) if not inner.hand.hands[seat] >> c & 1)
    with pytest.raises(IllegalAction) as info:
        state.apply_action(not_held)
    assert info.value.clause.startswith("play.") and info.value.seat == seat
    assert not_held not in state.legal_actions()
    dealing = pyspiel.load_game("python_fivehundred").new_initial_state()
    dealing.apply_action(3)
    with pytest.raises(InvalidAction, match="deal"):
        dealing.apply_action(3)
    assert dealing.history() == [3] and len(dealing.chance_outcomes()) == 42
    rng = Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))


def test_resample_refuses_a_seat_that_is_not_one() -> None:
    state = _dealt()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for bad in (-1, 4, True, 1.0):
        with pytest.raises(fivehundred.ArgumentError) as info:
            state.resample_from_infostate(bad, sampler)
        assert "\n" not in str(info.value)
    other = state.resample_from_infostate(np.int64(1), sampler)
    assert other.information_state_string(1) == state.information_state_string(1)


def test_a_clone_shares_the_immutable_rules() -> None:
    """pyspiel clones a Python state by deep-copying each attribute: the clone shares the game
    and its rules tables (identity), and the two stay independent whichever moves first (the
    hand is shared copy-on-write until one of them moves), while dealing and after; an illegal
    move of either changes neither."""
    import copy

    def seen(state: Any) -> tuple[Any, ...]:
        return (state.history(), str(state), state.legal_actions(), state.current_player())

    dealt = _dealt()
    dealt.apply_action(dealt.legal_actions()[0])
    dealing = pyspiel.load_game("python_fivehundred").new_initial_state()
    dealing.apply_action(7)
    for position in (dealt, dealing):
        for clone in (lambda s: s.clone(), copy.deepcopy):
            for clone_moves in (True, False):
                base = position.clone()
                if position is dealt:
                    base.information_state_tensor(1)  # the node keeps the tensors' tracker
                other = clone(base)
                assert type(other) is type(base) and other is not base
                assert other.fivehundred_game is base.fivehundred_game
                before = seen(base)
                assert seen(other) == before
                mover, still = (other, base) if clone_moves else (base, other)
                if position is dealt:  # an illegal move changes neither
                    with pytest.raises(pyspiel.SpielError):
                        mover.apply_action(0)  # a card during the auction
                    assert seen(mover) == seen(still) == before
                action = mover.legal_actions()[-1] if position is dealt else 11
                mover.apply_action(action)
                assert seen(still) == before
                assert mover.history() == before[0] + [action]
                if position is dealt:
                    mine, theirs = mover.fivehundred_state, still.fivehundred_state
                    assert mine.hand is not theirs.hand
                    assert mine.hand.rules is theirs.hand.rules is base.fivehundred_game.rules
                    assert mine.game is theirs.game is base.fivehundred_game
                mover.apply_action(mover.legal_actions()[0])
                assert seen(still) == before
                if position is dealt:  # the tensors' tracker, carried into the copy, is right
                    for one in (mover, still):
                        inner = one.fivehundred_state
                        for seat in range(4):
                            info = np.float32(inner.information_state_tensor(seat))
                            assert list(one.information_state_tensor(seat)) == list(info)


def test_serialized_states_carry_the_actions_not_the_rules() -> None:
    """pyspiel serializes a Python state by pickling its attributes: ours pickle as the
    variant parameter, the dealer, the cards dealt and the actions, replayed (checked) when
    read back, so the text stays short and never holds the rules tables; every state of random
    hands reads back to the same state, which plays on alike."""
    import base64
    import pickle

    for variant, dealer in (("australian", 2), ("five-handed-call", 1), ("both-hands-misere", 0)):
        game = pyspiel.load_game("python_fivehundred", {"variant": variant, "dealer": dealer})
        rng = Random(6)
        state = game.new_initial_state()
        while not state.is_terminal():
            text = state.serialize()
            raw = base64.b64decode(text.split("__dict__=", 1)[1])
            assert b"Rules" not in raw and len(raw) < 600, len(raw)
            again = game.deserialize_state(text)
            assert again.history() == state.history() and str(again) == str(state)
            assert again.legal_actions() == state.legal_actions()
            if not again.is_chance_node():
                seat = again.current_player()
                assert again.information_state_string(seat) == state.information_state_string(seat)
            _, other = pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(game, state)
            )
            assert str(other) == str(state)
            if state.is_chance_node():
                action = rng.choice([a for a, _ in state.chance_outcomes()])
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            again.apply_action(action)
            assert str(again) == str(state)
        assert pickle.loads(pickle.dumps(state)).returns() == state.returns()
    # A serialized node whose deal or actions do not replay: the rule's SpielError, no crash.
    from fivehundred.openspiel import IllegalAction, InvalidAction
    from fivehundred.runtime.adapters.openspiel import _unpickle_node

    class Forged:
        def __init__(self, *args: object) -> None:
            self.args = args

        def __reduce__(self) -> tuple[Any, ...]:
            return (_unpickle_node, self.args)

    game = pyspiel.load_game("python_fivehundred")
    deck = tuple(range(43))
    for args, error in (
        (("australian", 0, (3, 3), ()), InvalidAction),  # a card dealt twice
        (("australian", 0, (1, 2), (5,)), InvalidAction),  # an action before the deal is done
        (("australian", 0, deck, (999,)), InvalidAction),  # no action at all
        (("australian", 0, deck, (0,)), IllegalAction),  # a card during the auction
    ):
        forged = base64.b64encode(pickle.dumps({"_node": Forged(*args)})).decode()
        with pytest.raises(error):
            game.deserialize_state(f"history=\nmove_number=0\n__dict__={forged}")


def test_resampling_prefers_deals_that_agree_with_the_bids() -> None:
    """A seat that bid 8 in a suit holds more of it in the resampled deals than a uniform
    resample gives it (the search bot's sampler, _likely_world)."""
    from fivehundred.runtime.engine.seatview import sample_world, view_of

    game = pyspiel.load_game("python_fivehundred")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = Random(4)
    rules = fivehundred.load("australian").rules
    hearts = rules.masks[3][3]  # hearts with trumps hearts: bowers and joker too
    biased = uniform = 0
    for _ in range(30):
        state = game.new_initial_state()
        _deal(state, rng)
        bidder = state.current_player()
        state.apply_action(rules.bid_action("8H"))
        seat = state.current_player()
        for _ in range(4):
            other = state.resample_from_infostate(seat, sampler)
            biased += (other.fivehundred_state.hand.hands[bidder] & hearts).bit_count()
            hand = state.fivehundred_state.hand
            world = sample_world(hand, view_of(hand, seat), rng)
            uniform += (world.hands[bidder] & hearts).bit_count()
    assert biased > uniform * 1.15


def test_integer_like_actions_and_numpy_ids() -> None:
    state = _dealt()
    inner = state.fivehundred_state
    legal = state.legal_actions()
    assert inner.is_legal(np.int64(legal[0])) and not inner.is_legal(np.float64(legal[0]))
    inner.apply(np.int64(legal[0]))
    assert inner.history() == [legal[0]]


def test_no_ace_no_face_appends_one_action_id_and_keeps_the_others() -> None:
    """No ace, no face (a published house rule, Iowa State University's intramural rules): the
    variant with the option has one more id, ``redeal``, after all the others, and the ids of
    the variants without it are unchanged; a redeal ends the hand with all returns 0."""
    base = pyspiel.load_game("python_fivehundred", {"variant": "australian"})
    game = pyspiel.load_game("python_fivehundred", {"variant": "no-ace-no-face"})
    assert base.num_distinct_actions() == 172 and game.num_distinct_actions() == 173
    rules = fivehundred.load("no-ace-no-face").rules
    # Deal the cards so that the dealer's left (seat 1) has no ace, face card or joker.
    plain = [c for c in range(rules.n_cards) if not rules.face_mask >> c & 1]
    faces = [c for c in range(rules.n_cards) if rules.face_mask >> c & 1]
    order = [plain.pop() if to == 1 else (faces or plain).pop() for to in rules.deal_order[0]]
    state, other = game.new_initial_state(), base.new_initial_state()
    for c in order:
        state.apply_action(c)
        other.apply_action(c)
    assert 172 in state.legal_actions() and 172 not in other.legal_actions()
    assert state.action_to_string(state.current_player(), 172) == "redeal"
    for a in state.legal_actions()[:-1]:
        assert state.action_to_string(1, a) == other.action_to_string(1, a)
    state.apply_action(172)
    assert state.is_terminal() and state.returns() == [0.0] * 4
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_agentbench_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    """The agents' benchmark (README's speed table and its command) runs end to end on a few
    steps and prints every figure beside its same-run reference (times printed, never
    asserted)."""
    require("pettingzoo", "pettingzoo")
    from fivehundred.runtime.adapters.agentbench import main

    assert main(["--steps", "200", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    for text in (
        "the pure-Python tensors",
        "HandState.copy (",
        "one-attribute Python state",
        "HandState.copy and apply_fast",
        "when its parent's was asked",
        "random playout",
        "observing the seat to act",
        "rl_environment",
    ):
        assert text in out, text
    assert not re.search(r"\b(nan|inf)\b", out), out
