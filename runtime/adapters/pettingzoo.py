"""PettingZoo: every variant as an AEC environment with action masks (optional extra).

``pip install 'fivehundred[pettingzoo]'``, then::

    from fivehundred.pettingzoo import env

    e = env(variant="australian")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            mask = obs["action_mask"]
            action = int(mask.nonzero()[0][0])  # your policy here
        e.step(action)

Agents are ``seat_0`` .. ``seat_{n-1}``; the agent selected is the seat that decides (a misère
bidder playing both hands decides for his partner's too). Each observation is a dict of the
seat's observation tensor (``observation``, float32, ``fivehundred.load(v).observation_layout``
describes it) and ``action_mask`` (int8, one per action id; all zero unless the agent is to
act). One episode is one hand (``episode="hand"``, rewards the hand's points) or a whole game
(``episode="game"``: rewards each hand's points as the hand ends, until a side wins).
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .api import Game, MatchState, State, load

__all__ = ["FiveHundredEnv", "env", "raw_env"]

_RENDER_MODES = ["ansi", "human"]


class FiveHundredEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment (see :func:`env` for the wrapped one)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": _RENDER_MODES,
        "name": "fivehundred_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, variant: str = "australian", episode: str = "hand", render_mode: str | None = None
    ) -> None:
        super().__init__()
        if episode not in ("hand", "game"):
            raise ValueError(f"episode must be 'hand' or 'game', not {episode!r}")
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode must be one of {_RENDER_MODES}, not {render_mode!r}")
        self.game: Game = load(variant)
        self.episode = episode
        self.render_mode = render_mode
        n = self.game.num_players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self.agents: list[str] = []
        size = self.game.observation_shape[0]
        actions = self.game.num_distinct_actions
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._rng = Random()
        self._dealer = 0
        self._state: State | None = None
        self._match: MatchState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: every action id of the variant."""
        return self.action_spaces[agent]

    # -- episode ------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (or start a new game); ``options={"dealer": seat}`` picks the dealer,
        otherwise the deal passes to the left at every reset."""
        if seed is not None:
            self._rng = Random(seed)
        if options and "dealer" in options:
            self._dealer = int(options["dealer"])
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if self.episode == "game":
            self._match = self.game.new_match(seed=self._rng.getrandbits(64), dealer=self._dealer)
            self._state = self._match.hand
        else:
            self._state = self.game.new_hand(rng=self._rng, dealer=self._dealer)
        self._dealer = (self._dealer + 1) % self.game.num_players
        self._select()

    def _select(self) -> None:
        assert self._state is not None
        seat = self._state.current_player()
        if seat >= 0:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """``agent``'s observation tensor and action mask."""
        assert self._state is not None
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        if (
            agent == getattr(self, "agent_selection", None)
            and not self.terminations.get(agent, True)
            and not self._state.is_over()
        ):
            mask[self._state.legal_actions()] = 1
        return {
            "observation": np.asarray(self._state.observation_tensor(seat), np.float32),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (an action id; illegal ids raise
        :class:`~fivehundred.IllegalActionError`)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._state is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self._match is not None:
            hand = self._match.hand
            self._match.apply(int(action))
            if hand.is_over():
                for seat, points in enumerate(hand.returns()):
                    self.rewards[self.possible_agents[seat]] = points
            self._state = self._match.hand
            over = self._match.is_over()
        else:
            self._state.apply(int(action))
            over = self._state.is_over()
            if over:
                for seat, points in enumerate(self._state.returns()):
                    self.rewards[self.possible_agents[seat]] = points
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str:
        """The hand as text (what every seat holds: for spectators, not for the agents)."""
        return "" if self._state is None else repr(self._state)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    variant: str = "australian", episode: str = "hand", render_mode: str | None = None
) -> FiveHundredEnv:
    """The unwrapped environment."""
    return FiveHundredEnv(variant=variant, episode=episode, render_mode=render_mode)


def env(variant: str = "australian", episode: str = "hand", render_mode: str | None = None) -> Any:
    """The AEC environment of ``variant``, with PettingZoo's usual checking wrappers."""
    e: Any = raw_env(variant, episode, render_mode)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
