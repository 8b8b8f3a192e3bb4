"""PettingZoo integration (extra ``pettingzoo``): ``fivehundred.pettingzoo.env`` passes
PettingZoo's own API test, masks are the legal actions, and rewards are the hand's points."""

from __future__ import annotations

from random import Random

import pytest
from extras import require

require("pettingzoo", "pettingzoo")
np = require("numpy", "pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import fivehundred  # noqa: E402
from fivehundred.generator.pipeline import builtin_ids  # noqa: E402
from fivehundred.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize("variant", ["australian", "five-handed-call", "two-handed"])
def test_api_test(variant: str) -> None:
    api_test(env(variant=variant), num_cycles=400)


def test_api_test_whole_games() -> None:
    api_test(env(variant="australian", episode="game"), num_cycles=600)


def test_masks_rewards_and_seat_order() -> None:
    e = env(variant="australian")
    e.reset(seed=4, options={"dealer": 0})
    game = fivehundred.load("australian")
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        rewards[agent] += reward
        assert obs["observation"].shape == game.observation_shape
        if termination or truncation:
            e.step(None)
            continue
        state = e.unwrapped._state
        assert agent == f"seat_{state.current_player()}"
        assert list(np.flatnonzero(obs["action_mask"])) == state.legal_actions()
        others = [e.unwrapped.observe(a)["action_mask"].sum() for a in e.agents if a != agent]
        assert others == [0] * (len(e.agents) - 1)
        e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        steps += 1
    result = e.unwrapped._state.result
    assert result is not None and steps > 4
    assert rewards == {f"seat_{s}": float(result.points[s % 2]) for s in range(4)}


def _snapshot(e: object) -> tuple[object, ...]:
    raw = e.unwrapped  # type: ignore[attr-defined]
    obs = raw.observe(raw.agent_selection)
    return (
        raw.agent_selection,
        dict(raw._cumulative_rewards),
        dict(raw.rewards),
        dict(raw.terminations),
        raw._state.history(),
        repr(raw._state),
        obs["observation"].tolist(),
        obs["action_mask"].tolist(),
    )


def test_illegal_action_is_an_error_that_changes_nothing() -> None:
    """The environment's convention (module doc): an illegal action raises the rule's error
    (seat, move, clause) and the environment is exactly as it was; the agent may choose again.
    An id that is no action, a bool or a float raises InvalidActionError the same way."""
    e = env()
    e.reset(seed=1)
    rules = fivehundred.load("australian").rules
    before = _snapshot(e)
    with pytest.raises(fivehundred.IllegalActionError) as info:
        e.step(0)  # a card during the auction
    assert info.value.clause == "auction.order" and "5S" in str(info.value)
    assert _snapshot(e) == before
    for bad in (rules.n_actions, -1, True, 47.0):
        with pytest.raises(fivehundred.InvalidActionError):
            e.step(bad)
        assert _snapshot(e) == before
    e.step(np.int64(rules.bid_action("7H")))  # numpy integers are action ids
    with pytest.raises(fivehundred.IllegalActionError) as info:
        e.step(rules.bid_action("6S"))
    assert info.value.clause == "auction.higher"
    for _agent in e.agent_iter():
        obs, _, termination, truncation, _ = e.last()
        e.step(None if termination or truncation else int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(ValueError, match="episode"):
        env(episode="season")


def test_illegal_reward_ends_the_episode_as_classic_games_do() -> None:
    e = env(illegal_reward=-1.0)
    e.reset(seed=1)
    agent = e.agent_selection
    e.last()  # the wrapper reads the mask from the agent's last observation
    e.step(0)  # a card during the auction
    assert all(e.terminations.values()) and e.rewards[agent] == -1.0


@pytest.mark.parametrize("variant", builtin_ids())
def test_incremental_arrays_are_the_reference_tensors(variant: str) -> None:
    """HandArrays (numpy, kept up to date action by action) gives, after every action of
    random hands, the observation and information-state tensors of the seat to act and of a
    random seat float for float as the core's pure-Python path; also when asked only now and
    then (catching up), and when the first information state is asked in mid-hand of a
    tracker that kept only observations (the history is kept from then on)."""
    from fivehundred.runtime.adapters.arrays import HandArrays

    def obs_of(state: fivehundred.State, seat: int) -> list[float]:
        return np.float32(state.observation_tensor(seat)).tolist()

    game = fivehundred.load(variant)
    rng = Random(7)
    arrays, sparse, late = HandArrays(game.rules), HandArrays(game.rules), HandArrays(game.rules)
    steps = 0
    for n in range(2):
        state = game.new_hand(rng=rng, dealer=n % game.num_players)
        while True:
            hand = state.hand
            seat = rng.randrange(game.num_players)
            assert late.observation(hand, seat).tolist() == obs_of(state, seat)
            if n == 1 or steps == 9:
                got = late.information_state(hand, seat).tolist()
                assert got == np.float32(state.information_state_tensor(seat)).tolist()
            for seat in {max(state.current_player(), 0), rng.randrange(game.num_players)}:
                obs = arrays.observation(hand, seat)
                info = arrays.information_state(hand, seat)
                assert obs.dtype == np.float32 and obs.shape == game.observation_shape
                assert obs.tolist() == obs_of(state, seat)
                assert info.tolist() == np.float32(state.information_state_tensor(seat)).tolist()
            if rng.random() < 0.2:
                seat = rng.randrange(game.num_players)
                got = sparse.information_state(hand, seat).tolist()
                assert got == np.float32(state.information_state_tensor(seat)).tolist()
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
    assert steps > 20


def test_readme_example_runs() -> None:
    from extras import readme_python

    exec(compile(readme_python("## OpenSpiel and PettingZoo", 1), "README.md", "exec"), {})


def test_no_ace_no_face_redeal_keeps_the_dealer_and_old_spaces_are_unchanged() -> None:
    """No ace, no face (Iowa State University's intramural rules): one more action, only in the
    variant with the option; a redeal ends the episode with no reward and the next reset is
    dealt by the same dealer."""
    assert env(variant="australian").action_space("seat_0").n == 172
    e = env(variant="no-ace-no-face")
    assert e.action_space("seat_0").n == 173
    for seed in range(20_000):
        e.reset(seed=seed, options={"dealer": 0})
        if e.observe(e.agent_selection)["action_mask"][172]:
            break
    else:
        pytest.fail("no deal let the dealer's left ask for a redeal")
    assert e.agent_selection == "seat_1"
    e.step(172)
    assert all(e.terminations.values()) and set(e.rewards.values()) == {0.0}
    e.reset()
    assert e.unwrapped._state.hand.dealer == 0  # the same dealer deals again
    e.reset()
    assert e.unwrapped._state.hand.dealer == 1  # after a hand not redealt, the deal passes on
