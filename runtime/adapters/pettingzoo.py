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

Illegal actions: :meth:`FiveHundredEnv.step` raises
:class:`~fivehundred.IllegalActionError` naming the seat, the move and the rule that forbids it
(an id that is no action at all, or not an integer, raises
:class:`~fivehundred.InvalidActionError`), and the environment is left exactly as it was, so
the agent may choose again. For PettingZoo's classic-games convention instead (an illegal move
ends the episode, the offender rewarded ``illegal_reward``), pass ``illegal_reward=-1.0`` to
:func:`env`: it adds PettingZoo's ``TerminateIllegalWrapper``.

Observations are kept incrementally as numpy arrays (:class:`.arrays.HandArrays`).
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..engine.hand import OVER, next_dealer
from .api import Game, MatchState, State, action_id, load
from .arrays import HandArrays

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
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self._arrays = HandArrays(self.game.rules)
        self._legal = -1  # the legal actions of the node (a bitmask), -1 until asked
        #: The all-zero rewards a step leaves unchanged (a step that rewards makes new ones).
        self._no_rewards: dict[str, float] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: every action id of the variant."""
        return self.action_spaces[agent]

    # -- episode ------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (or start a new game); ``options={"dealer": seat}`` picks the dealer,
        otherwise the deal passes to the left at every reset (after a finished hand as the
        rules rotate it: the same dealer again after a hand thrown in where the variant's
        all-pass rule redeals, auction.all-pass)."""
        if seed is not None:
            self._rng = Random(seed)
        if options and "dealer" in options:
            self._dealer = int(options["dealer"])
        elif self.episode != "game" and isinstance(self._state, State) and self._state.hand.is_over:
            # the rules' rotation (hand.next_dealer): a hand everybody passed may be redealt by
            # the same dealer (auction.all-pass), as is one a player asked to be redealt (no ace, no
            # face); the deal passes to the left otherwise
            last = self._state.hand
            assert last.result is not None
            self._dealer = next_dealer(
                self.game.rules, last.dealer, last.result.contract, redeal=last.result.redeal
            )
        self.agents = list(self.possible_agents)
        self.rewards = self._no_rewards = dict.fromkeys(self.agents, 0.0)
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
        self._legal = -1
        self._select()

    def _select(self) -> None:
        assert self._state is not None
        seat = self._state.current_player()
        if seat >= 0:
            self.agent_selection = self.possible_agents[seat]

    def _legal_mask(self) -> int:
        """The legal actions of the node as a bitmask, computed once per node."""
        if self._legal < 0:
            assert self._state is not None
            self._legal = self._state.hand.legal_mask()
        return self._legal

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """``agent``'s observation tensor and action mask (new arrays: keep them freely)."""
        assert self._state is not None
        hand = self._state.hand
        legal = (
            self._legal_mask()
            if agent == getattr(self, "agent_selection", None)
            and not self.terminations.get(agent, True)
            and hand.phase != OVER
            else 0
        )
        obs, mask = self._arrays.observation_and_mask(hand, self._seat_of[agent], legal)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action, an action id (any integer-like value).

        An illegal one raises :class:`~fivehundred.IllegalActionError` (the seat, the move and
        the rule's clause id) and changes nothing; see the module doc."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._state is not None
        a = action if type(action) is int else action_id(self.game.rules, action)
        hand = self._state
        target: State | MatchState = self._match if self._match is not None else hand
        if a >= 0 and self._legal_mask() >> a & 1:
            target.apply_fast(a)
        else:
            target.apply(a)  # raises the rule's error, and nothing has changed
        self._legal = -1
        self._cumulative_rewards[agent] = 0.0
        if hand.is_over():
            self.rewards = dict.fromkeys(self.agents, 0.0)
            for seat, points in enumerate(hand.returns()):
                self.rewards[self.possible_agents[seat]] = points
            self._accumulate_rewards()
        elif self.rewards is not self._no_rewards:  # the step before rewarded: none now
            self.rewards = self._no_rewards = dict.fromkeys(self.agents, 0.0)
        if self._match is not None:
            self._state = self._match.hand
            over = self._match.is_over()
        else:
            over = hand.is_over()
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._select()
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


def env(
    variant: str = "australian",
    episode: str = "hand",
    render_mode: str | None = None,
    illegal_reward: float | None = None,
) -> Any:
    """The AEC environment of ``variant``, with PettingZoo's usual checking wrappers.

    ``illegal_reward=None`` (the default): an illegal action raises and changes nothing. A
    number: an illegal action ends the episode and the offender gets that reward
    (PettingZoo's ``TerminateIllegalWrapper``, as its classic games do)."""
    e: Any = raw_env(variant, episode, render_mode)
    if illegal_reward is not None:
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    return _OrderEnforcing(e)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order checks, with :meth:`last` asked of the environment directly.

    The wrapper's inherited ``last`` reads five attributes through two ``__getattr__`` hops
    each, which took a third of a step; the answer is the wrapped environment's own. Likewise
    ``step``, and the two attributes ``agent_iter`` reads at every step. (The
    bounds of an action are checked by the environment itself: an id out of range raises
    :class:`~fivehundred.InvalidActionError`, so PettingZoo's ``AssertOutOfBoundsWrapper`` is
    not needed.)"""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, reward, termination, truncation and info."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return result

    def step(self, action: Any) -> None:
        """The wrapper's step, calling the environment's directly."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    @property
    def agents(self) -> list[str]:
        """The live agents (read by ``agent_iter`` at every step)."""
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        agents: list[str] = self.env.agents
        return agents

    @property
    def agent_selection(self) -> str:
        """The agent to act (read by ``agent_iter`` and ``last`` at every step)."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        agent: str = self.env.agent_selection
        return agent
