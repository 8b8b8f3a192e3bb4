"""PettingZoo integration (extra ``pettingzoo``): ``fivehundred.pettingzoo.env`` passes
PettingZoo's own API test, masks are the legal actions, and rewards are the hand's points."""

from __future__ import annotations

import pytest
from extras import require

require("pettingzoo", "pettingzoo")
np = require("numpy", "pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import fivehundred  # noqa: E402
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


def test_illegal_action_is_an_error() -> None:
    e = env()
    e.reset(seed=1)
    with pytest.raises(fivehundred.IllegalActionError):
        e.step(0)  # a card during the auction
    with pytest.raises(ValueError, match="episode"):
        env(episode="season")


def test_readme_example_runs() -> None:
    from extras import readme_python

    exec(compile(readme_python("## OpenSpiel and PettingZoo", 1), "README.md", "exec"), {})
