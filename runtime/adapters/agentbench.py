"""The agents' speed: the PettingZoo and OpenSpiel adapters, timed against references in one run.

Run it where the extras are installed (``pip install -e '.[openspiel,pettingzoo]'``)::

    python -m fivehundred.runtime.adapters.agentbench [--variant australian] [--steps 20000]

Machines and their load differ, so every figure comes with a ratio to a reference timed in the
same run, round by round, interleaved (the best of ``--rounds`` each):

- **PettingZoo**: steps per second of ``fivehundred.pettingzoo.env`` (the wrapped environment,
  as agents use it) driven by uniformly random legal actions chosen from ``action_mask``, the
  ``observe`` of every step included; against the same loop with the core's pure-Python
  tensors in ``observe`` (the adapter's earlier path), and against the engine's own random
  playout (decisions per second of ``HandState.playout``, the floor).
- **OpenSpiel**: ``state.clone()`` through pyspiel against the engine's ``HandState.copy`` in
  the same positions, alone and followed by one move (``apply_action`` against ``apply_fast``:
  a clone shares its hand until it moves, so its first move pays the copy), and against
  pyspiel's clone (and move) of the smallest Python state (the floor of any Python game);
  ``information_state_string`` the first time at a node (from nothing, and when its parent's
  was asked, as search asks along a line of play) and asked again (cached); random playouts
  through ``apply_action`` in steps per second, also observing the seat to act at every step
  (OpenSpiel's observer API, the loop PettingZoo's figure times), and OpenSpiel's own RL loop
  (``rl_environment``: every seat's information-state tensor, as pyspiel's lists, every step);
  with ``--ismcts``, the time of a decision of OpenSpiel's ISMCTS bot at 100 simulations.

CPU times (``time.process_time``), printed, never asserted (tests check behaviour, not times).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from random import Random
from typing import Any

import numpy as np

from ..engine.hand import PLAY, HandState
from .api import load

__all__ = ["main", "run_agent_benchmark"]


def _best(rounds: int, fn: Callable[[], float]) -> float:
    """The largest rate of ``rounds`` runs of ``fn``."""
    return max(fn() for _ in range(rounds))


def pettingzoo_rate(variant: str, steps: int, seed: int, reference: bool = False) -> float:
    """Steps per second of the wrapped PettingZoo environment under random legal actions;
    ``reference``: with the core's pure-Python observation tensors instead of the arrays."""
    from .pettingzoo import env

    e = env(variant=variant)
    if reference:
        raw = e.unwrapped
        game = raw.game

        def observe(agent: str) -> dict[str, Any]:
            seat = raw._seat_of[agent]
            mask = np.zeros(game.num_distinct_actions, np.int8)
            if agent == raw.agent_selection and not raw._state.is_over():
                mask[raw._state.legal_actions()] = 1
            tensor = np.asarray(raw._state.observation_tensor(seat), np.float32)
            return {"observation": tensor, "action_mask": mask}

        raw.observe = observe
    rng = Random(seed)
    e.reset(seed=seed)
    done = 0
    start = time.process_time()
    while done < steps:
        for _agent in e.agent_iter():
            obs, _, termination, truncation, _ = e.last()
            if termination or truncation:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[int(rng.random() * len(legal))]))
            done += 1
        e.reset()
    return done / (time.process_time() - start)


def engine_rate(variant: str, steps: int, seed: int) -> float:
    """Decisions per second of the engine's own random playout (deal included)."""
    rules = load(variant).rules
    rng = Random(seed)
    done = 0
    start = time.process_time()
    while done < steps:
        done += HandState.new(rules, done % rules.players, rng).playout(rng)
    return done / (time.process_time() - start)


def _openspiel_positions(variant: str, count: int, seed: int) -> list[Any]:
    """OpenSpiel states in the play, a few tricks in."""
    import pyspiel

    from . import openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_fivehundred", {"variant": variant})
    rng = Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        while not state.is_terminal() and state.fivehundred_state.hand.phase != PLAY:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        for _ in range(int(rng.random() * 12)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        if not state.is_terminal():
            out.append(state)
    return out


def openspiel_figures(
    variant: str, seed: int, rounds: int, count: int = 200, rl_steps: int = 2000
) -> dict[str, float]:
    """Clone and copy times (µs), alone and with the move that follows; information-state
    string times (µs); playout, observed and ``rl_environment`` steps per second (``count``
    positions a few tricks into the play; ``rl_steps`` steps of ``rl_environment``)."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    positions = _openspiel_positions(variant, count, seed)
    hands = [s.fivehundred_state.hand for s in positions]
    moves = [s.legal_actions()[0] for s in positions]
    floor = _floor_state()

    def clones() -> float:
        start = time.process_time()
        for _ in range(10):
            for s in positions:
                s.clone()
        return 10 * len(positions) / (time.process_time() - start)

    def clone_moves() -> float:
        # A clone shares its hand until it moves: the first move pays the copy.
        start = time.process_time()
        for _ in range(10):
            for s, a in zip(positions, moves, strict=True):
                s.clone().apply_action(a)
        return 10 * len(positions) / (time.process_time() - start)

    def copies() -> float:
        start = time.process_time()
        for _ in range(10):
            for h in hands:
                h.copy()
        return 10 * len(hands) / (time.process_time() - start)

    def copy_moves() -> float:
        start = time.process_time()
        for _ in range(10):
            for h, a in zip(hands, moves, strict=True):
                h.copy().apply_fast(a)
        return 10 * len(hands) / (time.process_time() - start)

    def floor_clones(move: bool) -> float:
        start = time.process_time()
        for _ in range(10 * len(positions)):
            if move:
                floor.clone().apply_action(0)
            else:
                floor.clone()
        return 10 * len(positions) / (time.process_time() - start)

    def strings(kind: str) -> float:
        # "cold": the first string at a node whose line never wrote one (the calls and tricks
        # written out); "carried": the first at a node whose parent wrote one (as search asks
        # along a line of play); "cached": the same node again.
        parents = _openspiel_positions(variant, count, seed)  # nodes of their own
        if kind != "cold":
            for s in parents:
                s.information_state_string(s.current_player())
        live = []
        for s in parents:
            child = s.clone()
            child.apply_action(child.legal_actions()[0])
            if not child.is_terminal():
                live.append(child)
        if kind == "cached":
            for s in live:
                s.information_state_string(s.current_player())
        start = time.process_time()
        for s in live:
            s.information_state_string(s.current_player())
        return len(live) / (time.process_time() - start)

    def playouts(observe: bool) -> float:
        # Random legal actions to the end of the hand; observe: with the observation tensor of
        # the seat to act at every step (OpenSpiel's observer API, as an agent reads it).
        observer = make_observation(positions[0].get_game())
        rng = Random(seed)
        done = 0
        start = time.process_time()
        for s in positions:
            state = s.clone()
            while not state.is_terminal():
                if observe:
                    observer.set_from(state, state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                done += 1
        return done / (time.process_time() - start)

    def rl_environment() -> float:
        # OpenSpiel's RL loop: every step, every seat's information-state tensor (as pyspiel's
        # Python lists) and legal actions; random legal actions, whole hands (deal included).
        from open_spiel.python import rl_environment as rl

        env = rl.Environment(positions[0].get_game())
        rng = Random(seed)
        done = 0
        start = time.process_time()
        step = env.reset()
        while done < rl_steps:
            if step.last():
                step = env.reset()
                continue
            legal = step.observations["legal_actions"][step.observations["current_player"]]
            step = env.step([legal[int(rng.random() * len(legal))]])
            done += 1
        return done / (time.process_time() - start)

    del pyspiel
    names = (
        "clone",
        "clone_move",
        "copy",
        "copy_move",
        "floor",
        "floor_move",
        "cold",
        "carried",
        "cached",
        "playout",
        "observed",
        "rl",
    )
    timers: dict[str, Callable[[], float]] = {
        "clone": clones,
        "clone_move": clone_moves,
        "copy": copies,
        "copy_move": copy_moves,
        "floor": lambda: floor_clones(False),
        "floor_move": lambda: floor_clones(True),
        "cold": lambda: strings("cold"),
        "carried": lambda: strings("carried"),
        "cached": lambda: strings("cached"),
        "playout": lambda: playouts(False),
        "observed": lambda: playouts(True),
        "rl": rl_environment,
    }
    best = dict.fromkeys(names, 0.0)
    for _ in range(rounds):
        for name in names:
            best[name] = max(best[name], timers[name]())
    return {
        "clone_us": 1e6 / best["clone"],
        "clone_move_us": 1e6 / best["clone_move"],
        "engine_copy_us": 1e6 / best["copy"],
        "engine_copy_move_us": 1e6 / best["copy_move"],
        "floor_clone_us": 1e6 / best["floor"],
        "floor_clone_move_us": 1e6 / best["floor_move"],
        "info_string_us": 1e6 / best["cold"],
        "info_string_carried_us": 1e6 / best["carried"],
        "info_string_cached_us": 1e6 / best["cached"],
        "playout_steps_per_s": best["playout"],
        "observed_steps_per_s": best["observed"],
        "rl_environment_steps_per_s": best["rl"],
    }


def _floor_state() -> Any:
    """A state of the smallest Python game pyspiel can clone (one attribute, deep-copied to a
    new object): what any Python game's clone costs at least."""
    import pyspiel

    name = "python_agentbench_floor"
    if name not in pyspiel.registered_names():
        game_type = pyspiel.GameType(
            short_name=name,
            long_name="agentbench floor",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=2,
            min_num_players=2,
            provides_information_state_string=False,
            provides_information_state_tensor=False,
            provides_observation_string=False,
            provides_observation_tensor=False,
            parameter_specification={},
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=1,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=1,
        )

        class _Value:
            __slots__ = ("value",)

            def __init__(self, value: int) -> None:
                self.value = value

            def __deepcopy__(self, memo: dict[int, Any]) -> _Value:
                return _Value(self.value)

        class _Game(pyspiel.Game):  # type: ignore[misc]
            def __init__(self, params: dict[str, Any] | None = None) -> None:
                super().__init__(game_type, info, params or {})

            def new_initial_state(self) -> _State:
                return _State(self)

        class _State(pyspiel.State):  # type: ignore[misc]
            def __init__(self, game: _Game) -> None:
                super().__init__(game)
                self.node = _Value(0)

            def current_player(self) -> int:
                return 0

            def _legal_actions(self, player: int) -> list[int]:
                return [0]

            def _apply_action(self, action: int) -> None:
                self.node.value += 1

            def is_terminal(self) -> bool:
                return False

            def returns(self) -> list[float]:
                return [0.0, 0.0]

            def __str__(self) -> str:
                return ""

        pyspiel.register_game(game_type, _Game)
    return pyspiel.load_game(name).new_initial_state()


def ismcts_ms(variant: str, seed: int, simulations: int = 100, decisions: int = 8) -> float:
    """CPU milliseconds a decision of OpenSpiel's ISMCTS bot (random rollouts) takes through
    the adapter, the mean of the first ``decisions`` decisions of one hand."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from . import openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_fivehundred", {"variant": variant})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game, evaluator, 2.0, simulations, random_state=np.random.RandomState(seed)
    )
    rng = Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
    spent: list[float] = []
    while not state.is_terminal() and len(spent) < decisions:
        start = time.process_time()
        action = bot.step(state)
        spent.append(time.process_time() - start)
        state.apply_action(action)
    return 1000 * sum(spent) / len(spent)


def run_agent_benchmark(
    variant: str = "australian", steps: int = 20000, seed: int = 1, rounds: int = 3
) -> dict[str, float]:
    """Every figure of the module doc, best of ``rounds``, the references in the same run."""
    env_rate = ref_rate = eng_rate = 0.0
    for _ in range(rounds):
        env_rate = max(env_rate, pettingzoo_rate(variant, steps, seed))
        ref_rate = max(ref_rate, pettingzoo_rate(variant, steps // 4, seed, reference=True))
        eng_rate = max(eng_rate, engine_rate(variant, steps, seed))
    out = {
        "pettingzoo_steps_per_s": env_rate,
        "pettingzoo_reference_steps_per_s": ref_rate,
        "engine_decisions_per_s": eng_rate,
    }
    # As many OpenSpiel positions as a hundredth of the steps, 200 at the default 20,000.
    count = max(20, min(200, steps // 100))
    out.update(openspiel_figures(variant, seed, rounds, count, min(2000, steps)))
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the figures and their ratios."""
    p = argparse.ArgumentParser(prog="python -m fivehundred.runtime.adapters.agentbench")
    p.add_argument("--variant", default="australian")
    p.add_argument(
        "--steps",
        type=int,
        default=20000,
        help="PettingZoo steps per round (OpenSpiel: a hundredth as many positions, 20 to 200)",
    )
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ismcts", action="store_true", help="also time ISMCTS at 100 simulations")
    args = p.parse_args(argv)
    if args.steps < 100 or args.rounds < 1:
        p.error("--steps must be at least 100 and --rounds at least 1")
    f = run_agent_benchmark(args.variant, args.steps, args.seed, args.rounds)
    env_rate, ref, eng = (
        f["pettingzoo_steps_per_s"],
        f["pettingzoo_reference_steps_per_s"],
        f["engine_decisions_per_s"],
    )
    print(f"{args.variant}, best of {args.rounds} rounds")
    print(
        f"PettingZoo  {env_rate:9,.0f} steps/s   {env_rate / ref:5.2f}x the pure-Python "
        f"tensors ({ref:,.0f}/s), {env_rate / eng:5.2f}x the engine's playout ({eng:,.0f}/s)"
    )
    copy_us, copy_move_us = f["engine_copy_us"], f["engine_copy_move_us"]
    print(
        f"OpenSpiel   clone {f['clone_us']:5.1f} us = {f['clone_us'] / copy_us:4.1f}x "
        f"HandState.copy ({copy_us:.1f} us); pyspiel's clone of a one-attribute Python state "
        f"{f['floor_clone_us']:.1f} us"
    )
    print(
        f"OpenSpiel   clone and a move {f['clone_move_us']:5.1f} us = "
        f"{f['clone_move_us'] / copy_move_us:4.1f}x HandState.copy and apply_fast "
        f"({copy_move_us:.1f} us); pyspiel's for the one-attribute state "
        f"{f['floor_clone_move_us']:.1f} us"
    )
    print(
        f"OpenSpiel   information_state_string {f['info_string_us']:.1f} us the first time at "
        f"a node, {f['info_string_carried_us']:.1f} us when its parent's was asked, "
        f"{f['info_string_cached_us']:.1f} us cached"
    )
    print(
        f"OpenSpiel   random playout {f['playout_steps_per_s']:9,.0f} steps/s = "
        f"{f['playout_steps_per_s'] / eng:4.2f}x the engine's playout; observing the seat to "
        f"act {f['observed_steps_per_s']:,.0f} steps/s"
    )
    print(
        f"OpenSpiel   rl_environment {f['rl_environment_steps_per_s']:9,.0f} steps/s (every "
        f"seat's information-state tensor as a Python list, every step)"
    )
    if args.ismcts:
        ms = ismcts_ms(args.variant, args.seed)
        print(f"OpenSpiel   ISMCTS (100 simulations, random rollouts) {ms:,.0f} ms a decision")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
